"""Progress on stderr, one helper for every command: a tqdm bar on a terminal, otherwise a line every
:data:`EVERY` seconds (a log file or a pipe gets plain lines, no carriage returns).

The clock only paces the lines; it decides nothing (same input, same output).  The module imports nothing
heavy: tqdm is imported only when a bar is drawn on a terminal, so the command line stays lazy.
"""

from __future__ import annotations

import sys
import time

#: When stderr is not a terminal, a progress line at most this often (seconds); it changes no result.
EVERY = 5.0


class LineProgress:
    """Progress for a stream that is not a terminal: one line every ``every`` seconds.

    tqdm's interface (``update(n)``, ``close()``).  A line reads ``DESC: 40% (80/200 UNITs NOTE, 12 s)``, or
    ``DESC: 80 UNITs NOTE (12 s)`` without a total.
    """

    def __init__(self, total: int | None, desc: str, unit: str = "item", every: float = EVERY, stream=None,
                 note: str = "") -> None:
        self.total = None if total is None else int(total)
        self.desc, self.unit, self.every, self.note = desc, unit, float(every), note
        self.stream = sys.stderr if stream is None else stream
        self.clock = time.monotonic
        self.start = self.last = self.clock()
        self.n = 0

    def update(self, n: int = 1) -> None:
        self.n += int(n)
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            what = f"{self.unit}s{self.note}"
            if self.total is None:
                line = f"{self.desc}: {self.n} {what} ({now - self.start:.0f} s)"
            else:
                pct = 100.0 * self.n / max(1, self.total)
                line = f"{self.desc}: {pct:.0f}% ({self.n}/{self.total} {what}, {now - self.start:.0f} s)"
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        pass


def bar(desc: str, total: int | None, unit: str = "item", note: str = "", every: float = EVERY, stream=None):
    """A progress bar on ``stream`` (stderr): tqdm when it is a terminal, else a :class:`LineProgress`."""
    stream = sys.stderr if stream is None else stream
    if stream.isatty():
        from tqdm import tqdm

        return tqdm(total=total, file=stream, unit=unit, desc=desc, leave=False, smoothing=0.1)
    return LineProgress(total, desc, unit, every, stream, note)


def track(items, desc: str, total: int | None = None, unit: str = "item", every: float = EVERY, stream=None):
    """``items``, one by one, with a :func:`bar` advanced after each (``total``: ``len(items)`` if it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)
    b = bar(desc, total, unit, every=every, stream=stream)
    try:
        for item in items:
            yield item
            b.update(1)
    finally:
        b.close()


def tracker(desc: str, unit: str = "chunk"):
    """A function ``(items, total=None)`` that wraps ``items`` in :func:`track` under ``desc`` (the ``progress``
    argument of :func:`rsb_sim.sweep.sweep` and of the commands that run one)."""

    def progress(items, total=None):
        return track(items, desc, total, unit)

    return progress
