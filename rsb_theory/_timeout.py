"""A wall-clock guard for SymPy calls that can run away (solveset, limit, evalf).

SymPy has no time limit of its own.  On the main thread of a POSIX process
:func:`call_with_timeout` arms ``SIGALRM``; elsewhere it runs the call
unguarded.  A timed-out symbolic route makes the caller fall back to its
numeric route and record ``method="numeric"``.
"""

from __future__ import annotations

import signal
import threading
from typing import Callable, TypeVar

T = TypeVar("T")


class SymbolicTimeout(Exception):
    """The guarded call exceeded its time budget."""


def call_with_timeout(fn: Callable[[], T], seconds: float) -> T:
    """Run ``fn()``; raise :class:`SymbolicTimeout` after ``seconds`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return fn()

    def _raise(signum, frame):
        raise SymbolicTimeout(f"symbolic computation exceeded {seconds} s")

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
