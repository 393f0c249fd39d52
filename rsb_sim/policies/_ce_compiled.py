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

import concurrent.futures as cf
import threading

import numpy as np

from rsb_theory.argmax import edge_lines

from ..rewards import VectorRewards
from ..rules import TIE_TOL
from . import PolicyRun
from ._ce_loop import Constants, Output, State, Streams, compiled_loop, scratch

#: Default trial-steps per compiled call (the progress bar and Ctrl-C are served between calls).
STEPS_PER_CALL = 20_000


def thread_count(setup, trials: int) -> int:
    """Threads the loop runs on: ``setup.threads``, at most one per trial."""
    return max(1, min(int(setup.threads), int(trials)))


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
    steps = setup.explore_steps
    n_thr = thread_count(setup, B)
    loop = compiled_loop()
    h = edge_lines.compiled_h(d)
    actions = np.empty((B, T), dtype=np.int8) if record_actions else np.empty((1, 1), dtype=np.int8)
    if record_actions:
        actions[:, :steps] = np.arange(steps) % K
    rew = VectorRewards(table, block=setup.block)
    hist = rew.take(np.full(K, n0))
    buf, pos, fill = rew.buffers()
    rew.refill(np.flatnonzero(pos >= fill))  # one block per stream up front (the values do not depend on blocks)
    t0 = K * n0 + 1
    grid = setup.grid
    streams = Streams(buf, pos, fill, rew.pulls)
    state = State(ones=np.ascontiguousarray(hist[:, :, 1], dtype=float), tau=np.full((B, K), float(n0)),
                  cur=np.full((B, K - 1), -1, dtype=np.int64), a=np.zeros((B, K)), arm=np.zeros(B, dtype=np.int64),
                  t_next=np.full(B, t0 - 1, dtype=np.int64))
    consts = Constants(t0=int(t0), T=int(T), radius_c=float(setup.radius_c), L_bonus=float(setup.L_bonus),
                       budget=int(grid.budget), eps=float(grid.eps), offset=float(grid.offset), tol=float(TIE_TOL),
                       cap=int(edge_lines.CAND_CAP), record=bool(record_actions))
    stats = np.zeros((n_thr, 16), dtype=np.int64)  # a row of 128 bytes per thread: no shared cache line
    outs = [Output(stats[r, :4], actions) for r in range(n_thr)]
    scratches = [scratch(grid) for _ in range(n_thr)]
    total = T - t0 + 1
    per_call = max(1, int(steps_per_call) // max(1, total))
    bounds = [B * r // n_thr for r in range(n_thr + 1)]
    done = [0] * n_thr  # trials finished, per thread
    stop = threading.Event()
    refill_lock = threading.Lock()

    def work(r: int, after_call=None) -> None:
        """Advance the trials of range r, ``per_call`` trials per compiled call."""
        b, hi = bounds[r], bounds[r + 1]
        while b < hi and not stop.is_set():
            end = min(hi, b + per_call)
            nxt = int(loop(h, streams, state, consts, outs[r], scratches[r], b, end))
            if nxt < end:  # trial nxt stopped: the reward stream of its next pull is used up
                with refill_lock:
                    rew.refill(nxt * K + state.arm[nxt])
            b = nxt
            done[r] = b - bounds[r]
            if after_call is not None:
                after_call()

    bar = progress(total=total) if progress is not None else None
    shown = 0

    def show() -> None:
        nonlocal shown
        if bar is not None:
            now = total * sum(done) // B
            bar.update(now - shown)
            shown = now

    try:
        if n_thr == 1:
            work(0, show)  # in this thread: Ctrl-C interrupts between two calls
        else:
            with cf.ThreadPoolExecutor(max_workers=n_thr, thread_name_prefix="rsb-ce") as pool:
                futures = [pool.submit(work, r) for r in range(n_thr)]
                try:
                    while cf.wait(futures, timeout=0.2, return_when=cf.FIRST_EXCEPTION).not_done:
                        show()
                    for f in futures:
                        f.result()  # re-raises a thread's error
                except BaseException:  # Ctrl-C or an error: the other threads stop after their current call
                    stop.set()
                    raise
                show()
    finally:
        stop.set()
        if bar is not None:
            bar.close()
    tot = stats.sum(axis=0)
    return PolicyRun(state.tau.astype(np.int64), actions if record_actions else None,
                     {"full": 0, "candidate": 0, "upper_bound": 0, "quick": 0, "lines": int(tot[2]),
                      "lines_enumerated": int(tot[1]), "evaluations": int(tot[0]), "window": int(tot[3]),
                      "refills": rew.refills})
