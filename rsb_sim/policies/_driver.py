"""The driver of the compiled time loops (CE-UCB-M, RS-UCB-M): threads, stops, progress, interruption.

A compiled loop advances the trials b0..b1-1 of a contiguous range, one trial at a time, and
returns the first trial it did not finish: b1, or a trial that stopped because it needs Python
(a used-up reward buffer to refill, a decision the compiled search leaves to the branch and
bound), or -1 - b when trial b paused at the call's bound on work (:func:`pause_steps`,
:data:`PAUSE_WORK`; the trial resumes at the next call).  The bound is what keeps a run
stoppable: a compiled call cannot serve a signal, and one trial of T = 1e9 steps was a single
call of minutes; with at most :data:`PAUSE_WORK` units of work per call, SIGINT and
SIGTERM are served within a fraction of a second (``tests/checks/test_signals.py``).  A pause
is taken where a used-up reward stream stops a trial, so it changes no decision (the exactness
tests pause the loops every few steps).  :func:`drive` splits the trials into ``threads`` contiguous ranges, one thread each
(the loops release the GIL, and each thread has its own scratch memory and counters and
touches only its trials' rows and reward streams), calls the loop a few trials at a time
(``per_call``) so that the progress bar moves and Ctrl-C is served between calls, and hands
every stop to ``on_stop`` under a lock.  A trial's actions depend on its own rewards only, so
the split changes no result (tested).
"""

from __future__ import annotations

import concurrent.futures as cf
import threading

import numpy as np

from ..rewards import VectorRewards

#: Most units of work of one compiled call (a step, an objective evaluation, a level updated): a few
#: hundredths of a second to a few tenths; the main thread serves signals between calls.
PAUSE_WORK = 2**21


def pause_steps(steps_per_call: int, per_step: int = 1) -> int:
    """Units of work (``per_step`` per step) after which a compiled call pauses: ``steps_per_call`` steps,
    at most :data:`PAUSE_WORK` units, at least one."""
    return max(1, min(int(steps_per_call) * int(per_step), PAUSE_WORK))


def thread_count(setup, trials: int) -> int:
    """Threads a loop runs on: ``setup.threads``, at most one per trial."""
    return max(1, min(int(setup.threads), int(trials)))


def start(setup, table, record_actions: bool, counts: bool = False):
    """The exploration phase of a compiled run: (actions, rewards, (buf, pos, fill, pulls), ones (B, K) float).

    With ``counts`` the last item is the exploration's per-outcome counts (B, K, m) int64 instead
    (finite-support and continuous arms: the counts of every level).

    ``actions`` is (B, T) int8 with the round-robin exploration written when recording, else a
    (1, 1) placeholder (one compiled signature); every reward stream gets one block up front (the
    values do not depend on blocks).
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    actions = np.empty((B, T), dtype=np.int8) if record_actions else np.empty((1, 1), dtype=np.int8)
    if record_actions:
        actions[:, :setup.explore_steps] = np.arange(setup.explore_steps) % K
    rew = VectorRewards(table, block=setup.block)
    hist = rew.take(np.full(K, n0))
    buf, pos, fill = rew.buffers()
    rew.refill(np.flatnonzero(pos >= fill))
    if counts:
        return actions, rew, (buf, pos, fill, rew.pulls), np.ascontiguousarray(hist, dtype=np.int64)
    return actions, rew, (buf, pos, fill, rew.pulls), np.ascontiguousarray(hist[:, :, 1], dtype=float)


def drive(B: int, n_thr: int, per_call: int, total: int, loop_call, on_stop, progress=None, partial=None) -> None:
    """Run ``loop_call(r, b, end) -> next trial`` over the trials [0, B) on ``n_thr`` threads.

    Parameters
    ----------
    B : int
        Trials.
    n_thr : int
        Threads (range r of the trials runs on thread r with its own scratch, ``loop_call(r, ...)``).
    per_call : int
        Trials per compiled call (at least one).
    total : int
        Steps of a trial shown by the progress bar.
    loop_call : callable(r, b, end) -> int
        Advances trials b..end-1 (thread r's memory) and returns the first one not finished, or
        -1 - b for a trial b that paused (resumed by the next call, ``on_stop`` not called).
    on_stop : callable(b)
        Serves a trial that stopped before its end (called under a lock; the loop then resumes it).
    progress : callable(total=...) -> tqdm-like, optional
    partial : callable(b) -> int, optional
        Steps of trial b done so far (0..total): the bar then moves within a trial that spans
        several calls (one trial of T = 1e9 steps), not only when trials end.
    """
    bounds = [B * r // n_thr for r in range(n_thr + 1)]
    done = [0.0] * n_thr  # trials finished (and the part of the current one done), per thread
    stop = threading.Event()
    lock = threading.Lock()

    def work(r: int, after_call=None) -> None:
        """Advance the trials of range r, ``per_call`` trials per compiled call."""
        b, hi = bounds[r], bounds[r + 1]
        while b < hi and not stop.is_set():
            end = min(hi, b + per_call)
            nxt = int(loop_call(r, b, end))
            if nxt < 0:  # paused at the call's bound on work: resume it (signals are served in between)
                nxt = -1 - nxt
            elif nxt < end:
                with lock:
                    on_stop(nxt)
            b = nxt
            done[r] = b - bounds[r] + (partial(b) / total if partial is not None and b < hi and total > 0 else 0.0)
            if after_call is not None:
                after_call()

    bar = progress(total=total) if progress is not None else None
    shown = 0

    def show() -> None:
        nonlocal shown
        if bar is not None:
            now = int(total * sum(done) / B)
            bar.update(now - shown)
            shown = now

    try:
        if n_thr == 1:
            work(0, show)  # in this thread: Ctrl-C interrupts between two calls
        else:
            with cf.ThreadPoolExecutor(max_workers=n_thr, thread_name_prefix="rsb-loop") as pool:
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
