"""CE-UCB-M's time loop with the per-step work compiled (Bernoulli arms, q = 1, concave h).

The phases are those of :func:`rsb_sim.policies._ucb.run` (round-robin exploration,
first decision, tracking); at every step the NumPy side draws the rewards of the
pulled arms (:class:`rsb_sim.rewards.VectorRewards`, unchanged) and one compiled
call (:func:`rsb_theory.edge_lines.stepper`) updates the counts, recomputes the
estimates and the radius, decides the mixture of ``eq:UCB_alpha2`` exactly and
picks the next arm by ``eq:UCB_sampling_rule`` for every trial.  The arithmetic
is that of the NumPy loop (same operations in the same order), so the actions are
the same as with :class:`rsb_sim.search.Searcher` and as the reference loop
(``tests/sim/test_exactness.py`` runs both routes).
"""

from __future__ import annotations

import numpy as np

from rsb_theory import edge_lines

from ..rewards import VectorRewards
from ..rules import TRACK_TOL
from . import PolicyRun


def run(setup, d, instance, table, record_actions: bool = False, progress=None, block: int = 2048) -> PolicyRun:
    """Simulate CE-UCB-M; requires ``setup.explore_steps < setup.T`` (the caller checks)."""
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    steps = setup.explore_steps
    advance = edge_lines.stepper(d, setup.grid, setup.radius_c, setup.L_bonus, TRACK_TOL)
    actions = np.empty((B, T), dtype=np.int8) if record_actions else None
    if actions is not None:
        actions[:, :steps] = np.arange(steps) % K
    rew = VectorRewards(table, block=block)
    hist = rew.take(np.full(K, n0))
    ones = np.ascontiguousarray(hist[:, :, 1], dtype=float)
    tau = np.full((B, K), float(n0))
    cur = np.full((B, K - 1), -1, dtype=np.int64)
    a = np.zeros((B, K))
    arm = np.zeros(B, dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)
    t0 = K * n0 + 1
    no_pull = np.zeros(B, dtype=np.int8)  # rewards' dtype (Bernoulli outcomes)
    advance(ones, tau, arm, no_pull, t0 - 1, False, cur, a, stats)  # first decision and first arm
    decisions = 1
    bar = progress(total=T - t0 + 1) if progress is not None else None
    for t in range(t0, T + 1):
        out = rew.next(arm)
        if actions is not None:
            actions[:, t - 1] = arm
        if t < T:
            advance(ones, tau, arm, out, t, True, cur, a, stats)
            decisions += 1
        else:
            tau[np.arange(B), arm] += 1
        if bar is not None and (t - t0) % 1000 == 999:
            bar.update(1000)
    if bar is not None:
        bar.close()
    return PolicyRun(tau.astype(np.int64), actions,
                     {"full": 0, "candidate": 0, "upper_bound": 0, "quick": 0, "lines": decisions * B,
                      "lines_enumerated": int(stats[1]), "evaluations": int(stats[0])})
