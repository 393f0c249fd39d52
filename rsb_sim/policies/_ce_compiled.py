"""CE-UCB-M's time loop, compiled (Bernoulli arms, q = 1, concave h).

The phases are those of :func:`rsb_sim.policies._ucb.run` (round-robin exploration,
first decision, tracking).  After the exploration the whole loop runs compiled, one
trial at a time (:func:`rsb_theory.edge_lines.simulator`): it reads the rewards from
the buffers of :class:`rsb_sim.rewards.VectorRewards` (the same reward table; when a
buffer is used up it returns, the stream is refilled here and the loop resumes),
updates the counts, recomputes the estimates and the radius, decides the mixture of
``eq:UCB_alpha2`` exactly and picks the next arm by ``eq:UCB_sampling_rule``.  The
arithmetic is that of the NumPy loop (same operations in the same order), so the
actions are the same as with :class:`rsb_sim.search.Searcher` and as the reference
loop (``tests/sim/test_exactness.py`` runs both routes).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from rsb_theory import edge_lines

from ..rewards import VectorRewards
from ..rules import TRACK_TOL
from . import PolicyRun

#: Trial-steps per compiled call (the progress bar and Ctrl-C are served between calls).
STEPS_PER_CALL = 20_000


def run(setup, d, instance, table, record_actions: bool = False, progress=None, block: int = 2048) -> PolicyRun:
    """Simulate CE-UCB-M; requires ``setup.explore_steps < setup.T`` (the caller checks)."""
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    steps = setup.explore_steps
    run_trials = edge_lines.simulator(d, setup.grid, setup.radius_c, setup.L_bonus, TRACK_TOL)
    actions = np.empty((B, T), dtype=np.int8) if record_actions else np.empty((1, 1), dtype=np.int8)
    if record_actions:
        actions[:, :steps] = np.arange(steps) % K
    rew = VectorRewards(table, block=block)
    hist = rew.take(np.full(K, n0))
    buf, pos, fill = rew.buffers()
    rew.refill(np.flatnonzero(pos >= fill))  # one block per stream up front (the values do not depend on blocks)
    t0 = K * n0 + 1
    state = SimpleNamespace(
        buf=buf, pos=pos, fill=fill, pulls=rew.pulls, ones=np.ascontiguousarray(hist[:, :, 1], dtype=float),
        tau=np.full((B, K), float(n0)), cur=np.full((B, K - 1), -1, dtype=np.int64), a=np.zeros((B, K)),
        arm=np.zeros(B, dtype=np.int64), t_next=np.full(B, t0 - 1, dtype=np.int64), t0=t0, T=T,
        stats=np.zeros(3, dtype=np.int64), actions=actions, record=bool(record_actions))
    total = T - t0 + 1
    bar = progress(total=total) if progress is not None else None
    per_call = max(1, STEPS_PER_CALL // max(1, total))
    b = shown = 0
    while b < B:
        end = min(B, b + per_call)
        nxt = run_trials(state, b, end)
        if nxt < end:  # trial nxt stopped: the reward stream of its next pull is used up
            rew.refill(nxt * K + state.arm[nxt])
        b = nxt
        if bar is not None:
            done = total * b // B
            bar.update(done - shown)
            shown = done
    if bar is not None:
        bar.close()
    return PolicyRun(state.tau.astype(np.int64), actions if record_actions else None,
                     {"full": 0, "candidate": 0, "upper_bound": 0, "quick": 0, "lines": int(state.stats[2]),
                      "lines_enumerated": int(state.stats[1]), "evaluations": int(state.stats[0])})
