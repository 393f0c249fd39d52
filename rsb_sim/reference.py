"""Plain per-trial reference loops, written for clarity (an independent route).

Every decision is computed by evaluating the objective on *all* points of
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

from . import reference_competitors, reference_solitary
from .options import BASELINES, COMPETITORS
from .rewards import RewardTable, ScalarRewards
from .rules import FLOOR_GUARD, TIE_TOL, track_arm
from .setup import Setup


def grid_values(setup: Setup, d, instance, points: np.ndarray, hist: np.ndarray) -> np.ndarray:
    """Objective of the policy at every grid point, from per-arm outcome counts ``hist`` (K, m).

    * RS-ETC-M, ``eq:ETC_alpha``: V(a) = U_h(sum_i a_i F_i,t);
    * RS-UCB-M, ``eq:UCB_alpha`` for Bernoulli arms and concave h: the max of h
      over the interval of mixture means [<a, lo>, <a, hi>], lo/hi = phat -/+ radius
      clipped to [0, 1], i.e. h(clip(u_star, <a, lo>, <a, hi>));
    * CE-UCB-M, ``eq:UCB_alpha2``: V(a) + L sum_i (a_i radius_i)^q.

    Finite-support arms (``hist`` = counts per support point, ``eq:empirical_CDF``):
    V(a) = U_h(sum_i a_i F_i,t), the masses a @ (hist / tau) handed to
    :func:`rsb_theory.riskmetric.finite_support` (not :mod:`rsb_theory.argmax`),
    and the CE-UCB-M bonus constant is ``setup.L_bonus`` = L b^(1-q).
    """
    h = d.numeric
    tau = hist.sum(axis=1).astype(float)
    if instance.kind == "bernoulli":
        phat = hist[:, 1] / tau
        base = None
        if setup.algo in ("rs-etc-m", "ce-ucb-m"):
            base = np.asarray(h(np.clip(points @ phat, 0.0, 1.0)), dtype=float)
    else:
        emp = hist / tau[:, None]
        mix = np.clip(points, 0.0, None) @ emp
        mix = mix / mix.sum(axis=1, keepdims=True)
        base = np.asarray(finite_support(h, np.asarray(instance.support), mix), dtype=float)
    if setup.algo == "rs-etc-m":
        return base
    radius = setup.radius(tau)
    if setup.algo == "ce-ucb-m":
        return base + setup.L_bonus * np.sum((points * radius) ** setup.q, axis=1)
    lo = np.maximum(phat - radius, 0.0)
    hi = np.minimum(phat + radius, 1.0)
    return np.asarray(h(np.clip(setup.u_star, points @ lo, points @ hi)), dtype=float)


def decide(values: np.ndarray, previous: int | None) -> int:
    """The tie rule: keep ``previous`` while still optimal within TIE_TOL, else the first optimal index."""
    M = values.max()
    if previous is not None and values[previous] >= M - TIE_TOL:
        return previous
    return int(np.flatnonzero(values >= M - TIE_TOL)[0])


def reference_trial(setup: Setup, d, instance, table: RewardTable, k: int, decisions: list | None = None
                    ) -> np.ndarray:
    """Actions A_1..A_T (0-based arm indices) of one trial k, by plain loops.

    Parameters
    ----------
    decisions : list, optional
        If given, the index (in ``Grid.points()`` order) of every mixture decision is appended.

    Returns
    -------
    numpy.ndarray, shape (T,), int64
    """
    if setup.algo in BASELINES:
        return reference_solitary.reference_trial(setup, d, instance, table, k)
    if setup.algo in COMPETITORS:
        return reference_competitors.reference_trial(setup, d, instance, table, k)
    if decisions is None:
        decisions = []
    K, T = setup.K, setup.T
    if hasattr(instance, "for_trial") and setup.algo != "uniform":  # continuous arms: this trial's own levels
        from .arm_laws import trial_draws

        table, k, instance = instance.for_trial(table, k, trial_draws(setup))
    rew = ScalarRewards(table, k)
    m = instance.n_outcomes
    hist = np.zeros((K, m), dtype=np.int64)
    actions: list[int] = []

    def pull(i: int) -> None:
        hist[i, rew.next(i)] += 1
        actions.append(i)

    if setup.algo == "uniform":
        for t in range(1, T + 1):
            actions.append((t - 1) % K)
        return np.array(actions, dtype=np.int64)

    # round-robin exploration: arm order 0..K-1, repeated, n0 rounds (cut at T)
    for t in range(setup.explore_steps):
        pull(t % K)
    if len(actions) == T:
        return np.array(actions, dtype=np.int64)

    points = setup.grid.points()
    if setup.algo == "rs-etc-m":
        decisions.append(decide(grid_values(setup, d, instance, points, hist), None))
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

    # RS-UCB-M / CE-UCB-M (algorithm:B-UCB-M, algorithm:UCB-M)
    idx = decide(grid_values(setup, d, instance, points, hist), None)
    decisions.append(idx)
    for t in range(len(actions) + 1, T + 1):
        tau = hist.sum(axis=1)
        pull(track_arm(t - 1, points[idx], tau))
        if t < T:
            idx = decide(grid_values(setup, d, instance, points, hist), idx)
            decisions.append(idx)
    return np.array(actions, dtype=np.int64)


def reference_run(setup: Setup, d, instance, table: RewardTable, trials=None) -> np.ndarray:
    """Actions of several trials, shape (len(trials), T)."""
    ks = range(table.trials) if trials is None else trials
    return np.stack([reference_trial(setup, d, instance, table, k) for k in ks])
