"""CE-UCB-M's time loop, compiled (Bernoulli arms, q = 1, concave h): the driver.

The phases are those of :func:`rsb_sim.policies._ucb.run` (round-robin exploration,
first decision, tracking).  After the exploration the whole loop runs compiled, one
trial at a time (:mod:`rsb_sim.policies._ce_loop`): it reads the rewards from the
buffers of :class:`rsb_sim.rewards.VectorRewards` (the same reward table; when a buffer
is used up it returns, the stream is refilled here and the loop resumes), updates the
counts, recomputes the estimates and the radius, decides the mixture of
``eq:UCB_alpha2`` exactly and picks the next arm by ``eq:UCB_sampling_rule``.  The
arithmetic is that of the NumPy loop (same operations in the same order), so the
actions are the same as with :class:`rsb_sim.search.Searcher` and as the reference
loop (``tests/sim/test_exactness.py`` runs both routes).
"""

from __future__ import annotations

import numpy as np

from rsb_theory.argmax import edge_lines

from ..rules import TIE_TOL
from . import PolicyRun
from ._driver import PAUSE_WORK, drive, pause_steps, start, thread_count
from ._ce_loop import Constants, Output, State, Streams, compiled_loop, scratch

#: Default trial-steps per compiled call (the progress bar and Ctrl-C are served between calls).
STEPS_PER_CALL = 20_000


def window_pays(setup) -> bool:
    """Whether the window route (:mod:`rsb_theory.argmax.x_window`) is tried: not when the confidence radius
    is at least 1 at every step (radius_c^2 >= T - (K-1) n0, the paper's radius below T ~ 4e5): the
    bonus then dominates, the window spans the grid and the route declines after sorting it (measured,
    K = 4, T = 3000, 200 trials: 0.60 s CPU without the route, 0.70-0.76 s with it, paper radius).
    Which route decides changes no decision (both are exact; tests run both)."""
    # radius_c * radius_c, not ** 2: the same bits, and inf (not OverflowError) for a huge --radius-scale
    return setup.radius_c * setup.radius_c < setup.T - (setup.K - 1) * setup.n0


def run(setup, d, instance, table, record_actions: bool = False, progress=None,
        steps_per_call: int = STEPS_PER_CALL) -> PolicyRun:
    """Simulate CE-UCB-M; requires ``setup.explore_steps < setup.T`` (the caller checks).

    With ``setup.threads`` > 1 the trials are split into that many contiguous ranges, each
    advanced by its own thread (the compiled loop releases the GIL; each thread has its own
    scratch memory and counters and touches only its trials' rows and reward streams).  A
    trial's actions depend on its own rewards only, so the split changes no result (tested).

    ``steps_per_call``: trial-steps per compiled call, at least one trial; changes no result
    (the progress bar moves and Ctrl-C is served between calls; on one thread the bar is
    updated after every call).  ``stats["refills"]`` counts the refills of reward buffers
    (:attr:`rsb_sim.rewards.VectorRewards.refills`, the first, which fills every buffer before
    the loop starts, included).
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    n_thr = thread_count(setup, B)
    loop = compiled_loop()
    h = edge_lines.compiled_h(d)
    actions, rew, bufs, ones = start(setup, table, record_actions)
    t0 = K * n0 + 1
    grid = setup.grid
    streams = Streams(*bufs)
    state = State(ones=ones, tau=np.full((B, K), float(n0)),
                  cur=np.full((B, K - 1), -1, dtype=np.int64), a=np.zeros((B, K)), arm=np.zeros(B, dtype=np.int64),
                  t_next=np.full(B, t0 - 1, dtype=np.int64))
    consts = Constants(t0=int(t0), T=int(T), radius_c=float(setup.radius_c), L_bonus=float(setup.L_bonus),
                       budget=int(grid.budget), eps=float(grid.eps), offset=float(grid.offset), tol=float(TIE_TOL),
                       cap=int(edge_lines.CAND_CAP), record=bool(record_actions), window=window_pays(setup),
                       pause_steps=pause_steps(steps_per_call), pause_work=int(PAUSE_WORK))
    stats = np.zeros((n_thr, 16), dtype=np.int64)  # a row of 128 bytes per thread: no shared cache line
    outs = [Output(stats[r, :4], actions) for r in range(n_thr)]
    scratches = [scratch(grid) for _ in range(n_thr)]
    total = T - t0 + 1
    per_call = max(1, int(steps_per_call) // max(1, total))

    def loop_call(r: int, b: int, end: int) -> int:
        return loop(h, streams, state, consts, outs[r], scratches[r], b, end)

    def on_stop(b: int) -> None:  # trial b stopped: the reward stream of its next pull is used up
        rew.refill(b * K + state.arm[b])

    drive(B, n_thr, per_call, total, loop_call, on_stop, progress,
          partial=lambda b: max(0, min(total, int(state.t_next[b]) - t0 + 1)))
    tot = stats.sum(axis=0)
    return PolicyRun(state.tau.astype(np.int64), actions if record_actions else None,
                     {"full": 0, "candidate": 0, "upper_bound": 0, "quick": 0, "lines": int(tot[2]),
                      "lines_enumerated": int(tot[1]), "evaluations": int(tot[0]), "window": int(tot[3]),
                      "refills": rew.refills})
