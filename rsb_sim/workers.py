"""Worker processes of this machine that stop when the run stops: the one pool every multi-process run uses.

:func:`worker_pool` is a ``concurrent.futures`` process pool (forked workers, each
running :func:`rsb_sim.interrupt.quiet_worker` first) used as a context manager:

* leaving the block normally waits for the workers, as any pool does;
* leaving it with an exception -- :class:`rsb_sim.interrupt.Interrupted` after
  SIGINT/SIGTERM, an error -- **kills** the workers (SIGKILL: a worker inside
  compiled code cannot run a Python handler, and it holds no file: workers only
  compute, the parent writes) and cancels what has not started, so the run stops
  within a fraction of a second instead of waiting for the chunks in flight.

A worker dies with the process that started it, even when that one is killed outright
(SIGKILL; :func:`rsb_sim.interrupt.quiet_worker`), so no worker is left behind.

A worker that dies (killed by the system, out of memory) breaks the pool: the parent
gets :class:`WorkerLost` (a ``BrokenProcessPool``, one line) at once instead of
waiting for ever.  When the parent itself is being stopped by a signal (sent to the
whole process group, which also killed the worker), that is reported as the
interruption it is.

Used by :func:`rsb_sim.sweep.sweep` (``executor="processes"``) and by ``rsb verify``
(:mod:`proofs_checks.registry`).  Light: standard library only.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import sys
from concurrent.futures.process import BrokenProcessPool

from .interrupt import Interrupted, deferred, quiet_worker, received

#: Seconds to wait for a killed worker to be reaped (it is gone at once; this only bounds a stuck kernel).
REAP_TIMEOUT = 2.0


class WorkerLost(BrokenProcessPool):
    """A worker died under the run (killed from outside, out of memory; on Dask: too often); one line.

    Attributes
    ----------
    kept : str or None
        What stays on disk (set by a sweep); None: not known.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.kept: str | None = None


class WorkerPool:
    """Forked worker processes; see the module's docstring.

    Parameters
    ----------
    processes : int
        Number of worker processes (>= 1).
    """

    def __init__(self, processes: int) -> None:
        self._pool = cf.ProcessPoolExecutor(max_workers=int(processes), mp_context=mp.get_context("fork"),
                                            initializer=quiet_worker, initargs=(os.getpid(),))

    def submit(self, fn, *args) -> cf.Future:
        """Schedule ``fn(*args)`` on a worker (the first call forks the workers: a signal then waits for its end)."""
        with deferred():
            return self._pool.submit(fn, *args)

    @staticmethod
    def result(future: cf.Future):
        """``future.result()``; a pool broken while this process is being stopped raises :class:`Interrupted`.

        The wait is cut in slices of :data:`POLL` seconds with signals deferred
        (:func:`rsb_sim.interrupt.deferred`): a signal handler that raised inside the executor's waits (a
        ``threading.Condition`` the pool's management thread notifies) could leave a waiter half-registered,
        and the management thread then failed with "release unlocked lock".  The signal is recorded, and
        :class:`Interrupted` is raised here, between two slices, outside every lock of the executor.
        """
        _wait([future], cf.ALL_COMPLETED)
        try:
            return future.result()
        except BrokenProcessPool:
            signum = received()
            if signum is not None:
                raise Interrupted(signum) from None
            raise WorkerLost("a worker process ended while running (killed from outside, or out of memory?)") \
                from None

    def as_completed(self, futures):
        """The futures as they finish (``concurrent.futures.as_completed``, waiting as :meth:`result` does)."""
        pending = set(futures)
        while pending:
            done = _wait(pending, cf.FIRST_COMPLETED)
            pending -= done
            yield from done

    def imap_unordered(self, fn, items, chunksize: int = 1):
        """``fn(item)`` for every item, yielded as they finish (like ``multiprocessing.Pool.imap_unordered``)."""
        del chunksize  # one item per task
        futures = [self.submit(fn, item) for item in items]
        for fut in self.as_completed(futures):
            yield self.result(fut)

    def kill(self) -> None:
        """Kill every worker now and cancel the work not yet started."""
        procs = list((getattr(self._pool, "_processes", None) or {}).values())  # Python < 3.14 has no kill_workers
        for p in procs:
            if p.exitcode is None:
                p.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.join(REAP_TIMEOUT)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self._pool.shutdown(wait=True)
        else:
            self.kill()


#: Seconds of one slice of a wait for workers (a signal is acted on between two slices): paces the polling only,
#: decides nothing.
POLL = 0.05


def _wait(futures, return_when) -> set:
    """The futures done, waiting in slices with signals deferred; a signal raises :class:`Interrupted` between two
    slices, never inside the executor's locks (:meth:`WorkerPool.result`)."""
    while True:
        with deferred():  # a signal here is recorded; raised when the block ends, outside concurrent.futures
            done, _ = cf.wait(futures, timeout=POLL, return_when=return_when)
        if done and (return_when != cf.ALL_COMPLETED or len(done) == len(futures)):
            return set(done)


def worker_pool(processes: int) -> WorkerPool:
    """``processes`` forked workers that ignore SIGINT and are killed when the block is left by an exception."""
    return WorkerPool(processes)


def in_worker(fn, *args):
    """``fn(*args)`` computed in one forked worker process, its result returned (so that a signal stops it).

    For work made of long library calls that do not look at signals (SciPy's special functions, a
    CVXPY solver, a big-integer SymPy step): the main process only waits, so SIGINT/SIGTERM raise
    :class:`rsb_sim.interrupt.Interrupted` at once and the worker is killed on the way out
    (:func:`worker_pool`).  ``fn`` and ``args`` must pickle (a module's function and plain data);
    the worker writes no file.  An exception raised in the worker is raised here.

    What the worker prints reaches this process's ``sys.stdout``/``sys.stderr``: live when they are
    files (the same descriptors), else (an in-memory stream: a caller capturing the output) collected
    in the worker and written here when it ends.
    """
    capture = (not _is_file(sys.stdout), not _is_file(sys.stderr))
    with worker_pool(1) as pool:
        ok, value, out, err = pool.result(pool.submit(_capturing, capture, fn, *args))
    if out:
        sys.stdout.write(out)
    if err:
        sys.stderr.write(err)
    if not ok:
        raise value
    return value


def _is_file(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both of the last two
        return False
    return True


def _capturing(capture, fn, *args):
    """In the worker: (ok, result or exception, captured stdout, captured stderr)."""
    import io

    saved = sys.stdout, sys.stderr
    bufs = [io.StringIO() if c else None for c in capture]
    if bufs[0] is not None:
        sys.stdout = bufs[0]
    if bufs[1] is not None:
        sys.stderr = bufs[1]
    try:
        try:
            return True, fn(*args), *(b.getvalue() if b is not None else "" for b in bufs)
        except Exception as exc:  # raised again in the caller (a usage error names its flag)
            return False, exc, *(b.getvalue() if b is not None else "" for b in bufs)
    finally:
        sys.stdout, sys.stderr = saved
