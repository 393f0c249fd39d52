"""RS-ETC-M (``algorithm:RS-ETC-M-Alg``), vectorised across trials.

1. Explore: n0 = ceil(N(eps)/K) pulls per arm (N(eps) of ``eq:number of
   samples main paper``), or ``explore`` pulls per arm when given,
   round-robin in arm order 0..K-1.  If K n0 >= T the horizon ends inside
   the exploration (no commit).
2. a_E = argmax over the etc grid (``eq:etc_discrete_set``) of ``eq:ETC_alpha``
   on the empirical CDFs, first optimal point in lexicographic order (no
   previous mixture).
3. Commit (``eq: ETC_samp``): for i = 1..K-1 in order, target_i =
   floor(T a_E(i)) (:func:`rsb_sim.rules.etc_targets`); if target_i > n0 arm i
   is pulled until it has target_i pulls (fewer if the horizon runs out), else
   it is skipped; the rest of the budget goes to arm K.

Finite-support arms: the exploration yields per-support-point counts (B, K, m),
the empirical laws of ``eq:empirical_CDF``, and a_E maximises
U_h(sum_i a_i F_i) with :func:`rsb_theory.argmax.etc_objective_finite`, or, for q = 1
and a concave h, with the compiled search of :mod:`rsb_theory.argmax.levels`
(continuous arms: tens of thousands of levels per trial).

Only the exploration rewards matter, so the commit phase is computed in
closed form (no time loop).
"""

from __future__ import annotations

from .base import Policy


class RSETCM(Policy):
    name = "rs-etc-m"
    title = "RS-ETC-M"
    color = "tab:orange"
    family = "paper"
    rank = 1
    summary = "algorithm:RS-ETC-M-Alg"
    reads = frozenset({"eps", "explore"})
    grid = "etc"
    theorem = "theorem: ETC upper bound"
    proof = "proof:ETC upper bound"
    corollary = "theorem:RS-ETC-M"
    exploration_only = True
    compiled = True
    constants = (("q", "the Hölder exponent of h (assumption:Holder)"), ("L", "its Hölder constant"),
                 ("L_bonus", "L_H, the W1-Hölder constant of U_h in N(eps) (L on [0, 1], L b^(1-q) on [0, b])"))

    def prepare(self, cfg, instance, d, eps):
        from ..setup import etc_setup

        return etc_setup(cfg, instance, d, self.name, eps)

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        return simulate(setup, d, instance, table, record_actions, progress)

    def reference_values(self, setup, d, instance, points, hist):
        """``eq:ETC_alpha`` at every grid point: V(a) = U_h(sum_i a_i F_i,t) (:func:`rsb_sim.reference.empirical_values`)."""
        from ..reference import empirical_values

        return empirical_values(d, instance, points, hist)

    def reference_trial(self, setup, d, instance, table, k, decisions=None):
        from ..reference import commit_trial

        return commit_trial(self, setup, d, instance, table, k, decisions)


POLICY = RSETCM()


def compiled_applies(setup, d, instance) -> bool:
    """True when a_E of arms on levels comes from the compiled search: ``setup.compiled`` and
    :func:`rsb_theory.argmax.levels.applies`.  Same decision as the branch and bound of
    :func:`rsb_theory.argmax.argmax` (both exact; tested)."""
    from rsb_theory.argmax import levels

    return bool(setup.compiled and levels.applies(d, setup.q, setup.L, instance.support))


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    """The vectorised run (module docstring)."""
    import numpy as np

    from rsb_theory import argmax as am
    from rsb_theory.argmax import levels

    from ..rewards import VectorRewards
    from ..rules import etc_targets, round_robin_counts
    from . import PolicyRun
    from ._driver import PAUSE_WORK

    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    steps = setup.explore_steps
    if steps >= T:
        counts = np.broadcast_to(round_robin_counts(T, K), (B, K)).copy()
        actions = np.broadcast_to((np.arange(T) % K).astype(np.int8), (B, T)).copy() if record_actions else None
        return PolicyRun(counts, actions, {"full": 0})
    rew = VectorRewards(table, block=1)  # take() draws the exploration straight from the streams
    hist = rew.take(np.full(K, n0))
    est = instance.empirical(hist)  # phat (B, K) or empirical laws (B, K, m)
    if instance.kind == "bernoulli":
        points = am.argmax(am.etc_objective(d, est), setup.grid).points
    elif compiled_applies(setup, d, instance):
        # the compiled exact search on levels: S_ij = P_i(X >= x_j), the reverse cumulative masses
        surv = np.cumsum(est[..., ::-1], axis=-1)[..., ::-1]
        # a few trials per compiled call (about PAUSE_WORK levels x arms^2 each): SIGINT/SIGTERM are served
        # between calls (one call for every trial ran for minutes on large instances); same decisions
        J = surv.shape[-1]
        step = max(1, PAUSE_WORK // max(1, J * K * K))
        counts = np.concatenate([levels.decide(d, setup.grid, instance.support, surv[lo:lo + step], L=setup.L)[0]
                                 for lo in range(0, B, step)])
        points = am.points_of(setup.grid, counts)
    else:
        points = am.argmax(am.etc_objective_finite(d, np.asarray(instance.support, dtype=float), est),
                           setup.grid).points
    target = etc_targets(T, points)
    counts = np.empty((B, K), dtype=np.int64)
    extra = np.zeros((B, K), dtype=np.int64)
    remaining = np.full(B, T - K * n0, dtype=np.int64)
    for i in range(K - 1):
        e = np.where(target[:, i] > n0, np.minimum(target[:, i] - n0, remaining), 0)
        extra[:, i] = e
        remaining -= e
    extra[:, K - 1] = remaining
    counts[:] = n0 + extra
    actions = None
    if record_actions:
        actions = np.empty((B, T), dtype=np.int8)
        actions[:, :K * n0] = np.arange(K * n0) % K
        for k in range(B):
            actions[k, K * n0:] = np.repeat(np.arange(K, dtype=np.int8), extra[k])
    return PolicyRun(counts, actions, {"full": B})
