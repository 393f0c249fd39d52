"""Plain per-trial reference loops of the mixture policies, written for clarity (an independent route).

:func:`reference_trial` runs any policy's own reference loop; the loops of the index policies are
:mod:`rsb_sim.reference_index`.  Every decision is computed by evaluating the objective on *all* points of
``Grid.points()`` and applying the tie rule directly; nothing here uses
:mod:`rsb_theory.argmax`.  The vectorised policies must produce identical
action sequences on the same reward table (``tests/sim``).

Tie rules (ARCHITECTURE.md): keep the previous mixture while
v(prev) >= M - TIE_TOL, otherwise take the first grid point (lexicographic
order of (n_1, ..., n_{K-1}), which is the order of ``Grid.points()``) with
v >= M - TIE_TOL; in the tracking rule the lowest arm index among the arms
within ``TRACK_TOL`` of the largest deficit.  The tracking rule and the radius
are the definitions of :mod:`rsb_sim.rules` (:func:`~rsb_sim.rules.track_arm`,
:func:`~rsb_sim.rules.confidence_radius`), called as they are: what is
independent here is the search of every decision.
"""

from __future__ import annotations

import math

import numpy as np

from rsb_theory.riskmetric import finite_support

from .rewards import RewardTable, ScalarRewards
from .rules import FLOOR_GUARD, TIE_TOL, track_arm
from .setup import Setup


def empirical_values(d, instance, points: np.ndarray, hist: np.ndarray) -> np.ndarray:
    """V(a) = U_h(sum_i a_i F_i,t) at every grid point, from per-arm outcome counts ``hist`` (K, m).

    Bernoulli arms: h(<a, phat>).  Finite-support arms (``hist`` = counts per support point,
    ``eq:empirical_CDF``): the masses a @ (hist / tau) handed to :func:`rsb_theory.riskmetric.finite_support`
    (not :mod:`rsb_theory.argmax`).  The policies' ``reference_values`` add their bonus to it.
    """
    h = d.numeric
    tau = hist.sum(axis=1).astype(float)
    if instance.kind == "bernoulli":
        return np.asarray(h(np.clip(points @ (hist[:, 1] / tau), 0.0, 1.0)), dtype=float)
    emp = hist / tau[:, None]
    mix = np.clip(points, 0.0, None) @ emp
    mix = mix / mix.sum(axis=1, keepdims=True)
    return np.asarray(finite_support(h, np.asarray(instance.support), mix), dtype=float)


def decide(values: np.ndarray, previous: int | None) -> int:
    """The tie rule: keep ``previous`` while still optimal within TIE_TOL, else the first optimal index."""
    M = values.max()
    if previous is not None and values[previous] >= M - TIE_TOL:
        return previous
    return int(np.flatnonzero(values >= M - TIE_TOL)[0])


def reference_trial(setup: Setup, d, instance, table: RewardTable, k: int, decisions: list | None = None
                    ) -> np.ndarray:
    """Actions A_1..A_T (0-based arm indices) of one trial k, by plain loops: the policy's own
    ``reference_trial`` (:class:`rsb_sim.policies.base.Policy`).

    Parameters
    ----------
    decisions : list, optional
        If given, the index (in ``Grid.points()`` order) of every mixture decision is appended.

    Returns
    -------
    numpy.ndarray, shape (T,), int64
    """
    from .policies.catalog import get

    policy = setup.policy if setup.policy is not None else get(setup.algo)
    return policy.reference_trial(setup, d, instance, table, k, decisions)


def _start(setup: Setup, instance, table: RewardTable, k: int):
    """(instance, rewards of trial k, per-arm counts (K, m), actions, pull): the round-robin exploration done."""
    if hasattr(instance, "for_trial"):  # continuous arms: this trial's own levels
        from .arm_laws import trial_draws

        table, k, instance = instance.for_trial(table, k, trial_draws(setup))
    rew = ScalarRewards(table, k)
    hist = np.zeros((setup.K, instance.n_outcomes), dtype=np.int64)
    actions: list[int] = []

    def pull(i: int) -> None:
        hist[i, rew.next(i)] += 1
        actions.append(i)

    # round-robin exploration: arm order 0..K-1, repeated, n0 rounds (cut at T)
    for t in range(setup.explore_steps):
        pull(t % setup.K)
    return instance, hist, actions, pull


def commit_trial(policy, setup: Setup, d, instance, table: RewardTable, k: int, decisions: list | None = None
                 ) -> np.ndarray:
    """RS-ETC-M's loop (``algorithm:RS-ETC-M-Alg``): explore, one decision on the grid (``policy.reference_values``),
    then ``eq: ETC_samp`` written out."""
    decisions = [] if decisions is None else decisions
    K, T = setup.K, setup.T
    instance, hist, actions, pull = _start(setup, instance, table, k)
    if len(actions) == T:
        return np.array(actions, dtype=np.int64)
    points = setup.grid.points()
    decisions.append(decide(policy.reference_values(setup, d, instance, points, hist), None))
    a = points[decisions[-1]]
    remaining = T - len(actions)
    for i in range(K - 1):  # eq: ETC_samp
        target = math.floor(T * float(a[i]) + FLOOR_GUARD)
        if target > setup.n0:
            for _ in range(min(target - setup.n0, remaining)):
                pull(i)
            remaining = T - len(actions)
    while len(actions) < T:
        pull(K - 1)
    return np.array(actions, dtype=np.int64)


def tracking_trial(policy, setup: Setup, d, instance, table: RewardTable, k: int, decisions: list | None = None
                   ) -> np.ndarray:
    """The UCBs' loop (``algorithm:B-UCB-M``, ``algorithm:UCB-M``): explore, then at every step a decision on the
    grid (``policy.reference_values``, the tie rule :func:`decide`) and the tracking rule."""
    decisions = [] if decisions is None else decisions
    T = setup.T
    instance, hist, actions, pull = _start(setup, instance, table, k)
    if len(actions) == T:
        return np.array(actions, dtype=np.int64)
    points = setup.grid.points()
    idx = decide(policy.reference_values(setup, d, instance, points, hist), None)
    decisions.append(idx)
    for t in range(len(actions) + 1, T + 1):
        tau = hist.sum(axis=1)
        pull(track_arm(t - 1, points[idx], tau))
        if t < T:
            idx = decide(policy.reference_values(setup, d, instance, points, hist), idx)
            decisions.append(idx)
    return np.array(actions, dtype=np.int64)
