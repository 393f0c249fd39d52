"""SIGINT and SIGTERM stop a long run at once, as one exception in the main process.

:func:`stop_on_signals` makes both signals raise :class:`Interrupted` in the main
thread (``rsb`` runs every command inside it, :mod:`proofs_checks.cli.app`).  The
exception unwinds through the code that is running: an atomic write removes its
temporary file (:mod:`rsb_sim.files`), a worker pool kills its processes
(:mod:`rsb_sim.workers`), a sweep records what it keeps on disk in
:attr:`Interrupted.kept` (:mod:`rsb_sim.sweep`).  The command line then prints one
line and exits with ``128 + signal`` (130 for SIGINT, 143 for SIGTERM), the shell's
convention.

A signal that arrives while the first one is being handled is ignored, so the
clean-up (bounded: it kills workers, it does not wait for them) is not cut short.

Worker processes run :func:`quiet_worker` first: they ignore SIGINT (a Ctrl-C in a
terminal reaches the whole process group; the parent decides) and die at once on
SIGTERM (the parent kills them; a batch scheduler may signal every process).  A
signal reaching a worker between its fork and :func:`quiet_worker` is answered the
same way (the inherited handler knows it is not in the process that installed it).

Light: imports nothing beyond the standard library (the command line imports it
before it parses its arguments).
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

#: The signals that stop a run.
SIGNALS = (signal.SIGINT, signal.SIGTERM)

# The signal being handled in this process (None: none); read by the worker pools to tell a pool broken by
# a signal sent to the whole process group from a pool broken by a crash.
_received: list[int] = []


class Interrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM.

    Attributes
    ----------
    signum : int
    kept : str or None
        What stays on disk, in words, set by the code that knows (a sweep); None: nothing.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = int(signum)
        self.kept: str | None = None

    @property
    def name(self) -> str:
        """``"SIGINT"`` or ``"SIGTERM"``."""
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        """The exit status the shell gives a process stopped by this signal: 128 + its number."""
        return 128 + self.signum

    def __str__(self) -> str:
        return f"interrupted by {self.name}"


def received() -> int | None:
    """The signal that is stopping this process (inside :func:`stop_on_signals`), or None."""
    return _received[-1] if _received else None


def _handler(signum, _frame) -> None:
    if os.getpid() != _owner[-1]:  # a forked worker, before quiet_worker ran: act as it will
        _as_worker(signum)
        return
    if _received and not _rearmed:
        return  # already stopping: let the clean-up finish
    if _deferring:
        _pending[:] = [signum]  # raised when the block of deferred() ends
        return
    _rearmed.clear()
    _received.append(signum)
    raise Interrupted(signum)


def _as_worker(signum: int) -> None:
    """A worker's answer to a signal (:func:`quiet_worker`): SIGINT ignored, SIGTERM ends it at once, quietly."""
    if signum == signal.SIGTERM:
        os._exit(128 + signum)


# Depth of deferred() blocks, and the signal that arrived within them.
_deferring: list[bool] = []
_pending: list[int] = []


@contextmanager
def deferred():
    """Within the block SIGINT/SIGTERM do not raise; a signal that arrived raises :class:`Interrupted` at its end.

    For the few milliseconds of code that must not be cut at an arbitrary instruction: forking worker
    processes runs the interpreter's at-fork hooks (``logging`` takes and releases its lock there), and an
    exception raised inside them is dropped, or leaves a lock held.
    """
    _deferring.append(True)
    try:
        yield
    finally:
        _deferring.pop()
        if not _deferring and _pending:
            signum = _pending.pop()
            if not _received:
                _received.append(signum)
                raise Interrupted(signum)


# Process that installed the handlers (a forked worker inherits them until quiet_worker replaces them:
# a signal sent to the whole group in between must not raise Interrupted there, with a traceback).
_owner: list[int] = [0]

# Set when an Interrupted was swallowed (raised where Python cannot propagate it): raise it again.
_rearmed: list[bool] = []


def _unraisable(unraisable) -> None:
    """``sys.unraisablehook`` within :func:`stop_on_signals`: an Interrupted that Python had to drop is raised again.

    A signal handler runs at the next instruction of the main thread, which may belong to code whose
    exceptions Python cannot propagate (a ``__del__``, an at-fork hook such as ``logging``'s, run while a
    worker pool forks): the exception is reported as "ignored" and the run would go on.  Here the signal
    is sent again to the main thread, from another thread (sent from the main thread, the handler would
    run at once, still inside that code), so the handler runs again where it can raise.
    """
    if isinstance(unraisable.exc_value, Interrupted):
        _rearmed.append(True)
        # _thread, not threading: Thread.start() waits for the thread, and the signal would land in that wait
        _thread.start_new_thread(_resend, (threading.main_thread().ident, unraisable.exc_value.signum))
        return
    _previous_hook[-1](unraisable)


#: Seconds before a dropped interruption is sent again (time for the main thread to leave the code that dropped it).
RESEND_AFTER = 0.01


def _resend(main: int, signum: int) -> None:
    time.sleep(RESEND_AFTER)
    signal.pthread_kill(main, signum)


_previous_hook: list = []


@contextmanager
def stop_on_signals():
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` (once); the old handlers are restored after.

    Outside the main thread (where Python cannot install handlers) the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _owner.append(os.getpid())
    old = {s: signal.signal(s, _handler) for s in SIGNALS}
    _previous_hook.append(sys.unraisablehook)
    sys.unraisablehook = _unraisable
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        sys.unraisablehook = _previous_hook.pop()
        _owner.pop()
        _received.clear()
        _rearmed.clear()
        _pending.clear()


@contextmanager
def kept(words):
    """Within the block, a run stopped by a signal or a failed write says that ``words`` stay on disk.

    ``words`` is the text, or a callable returning it at that moment; an exception that already says
    what is kept (set by code further in) keeps its words.
    """
    try:
        yield
    except BaseException as exc:
        if hasattr(exc, "kept") and exc.kept is None:
            exc.kept = words() if callable(words) else words
        raise


def quiet_worker(parent: int | None = None) -> None:
    """Initializer of a worker process: ignore SIGINT, die on SIGTERM (the parent decides and kills).

    With ``parent`` (the pid of the process that started the pool), the worker also dies with it:
    a parent killed outright (SIGKILL: no clean-up runs) would otherwise leave its workers waiting
    for work for ever.  Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere nothing more is done.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _received.clear()
    if parent is not None and sys.platform.startswith("linux"):
        _die_with(parent)


#: ``PR_SET_PDEATHSIG`` of ``<sys/prctl.h>``.
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent ends; end now if it already has."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the worker may outlive a parent killed outright
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(128 + int(signal.SIGKILL))
