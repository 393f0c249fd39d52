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
SIGTERM (the parent kills them; a batch scheduler may signal every process).

Light: imports nothing beyond the standard library (the command line imports it
before it parses its arguments).
"""

from __future__ import annotations

import signal
import threading
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
    if _received:
        return  # already stopping: let the clean-up finish
    _received.append(signum)
    raise Interrupted(signum)


@contextmanager
def stop_on_signals():
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` (once); the old handlers are restored after.

    Outside the main thread (where Python cannot install handlers) the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _handler) for s in SIGNALS}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        _received.clear()


def quiet_worker() -> None:
    """Initializer of a worker process: ignore SIGINT, die on SIGTERM (the parent decides and kills)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _received.clear()
