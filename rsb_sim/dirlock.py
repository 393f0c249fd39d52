"""One run per output directory: a lock file holding the process id of the run that writes there.

:func:`hold` creates ``DIR/.rsb.lock`` and takes a POSIX record lock on it
(``fcntl.lockf``); the file says who holds it (process id, host, start time, command
line).  The kernel releases the lock when its process ends, however it ends, so a
lock left by a dead process (killed, crashed, a machine that rebooted) is stale by
construction and the next run takes it over; a run that ends normally also removes
the file.  Worker processes do not inherit the lock (record locks belong to a process).

A second run on the same directory waits up to ``wait`` seconds (polling a few times a
second; the time decides only *when to give up*, never what is computed), then raises
:class:`DirectoryBusy`, one line naming the directory and the holder.  ``rsb`` sets
``wait`` with ``--wait SECONDS`` (default 0: do not wait).

The lock works where the file system supports POSIX locks: local disks, tmpfs, NFSv4.
Holding the same directory twice in one process is allowed (the inner hold does nothing),
because POSIX locks do not exclude their own process.

Light: standard library only.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from rsb_theory.safe_files import MAX_LOCK, UnsafeFile, held, open_lock, printable, system_dir

from . import jsontext
from .files import WriteError
from rsb_theory.errors import ArgumentError

#: Name of the lock file in the directory it guards.
LOCK_NAME = ".rsb.lock"
#: Seconds between two attempts while waiting (a waiting time, never a result).
POLL = 0.2

_held: dict[str, int] = {}  # lock files this process holds -> depth


class DirectoryBusy(RuntimeError):
    """Another run holds the directory; ``str()`` names the directory and the holder.

    Attributes
    ----------
    directory : Path
    holder : dict
        What the lock file says (``pid``, ``host``, ``since``, ``command``; empty if unreadable).
    waited : float
        Seconds waited (the ``wait`` given).
    """

    def __init__(self, directory, holder: dict, waited: float) -> None:
        self.directory = Path(directory)
        self.holder = holder
        self.waited = waited
        super().__init__(str(self))

    def __str__(self) -> str:
        waited = f"waited {self.waited:g} s; " if self.waited > 0 else ""
        return (f"{self.directory} is in use by {describe(self.holder)}; {waited}wait for it to finish "
                f"(--wait SECONDS) or use another directory")


def to_stderr(message: str) -> None:
    """The default way a run tells its user something (``rsb: <message>`` on stderr, one line)."""
    print(f"rsb: {message}", file=sys.stderr, flush=True)


def describe(holder: dict) -> str:
    """``process 1234 on host h since 2026-01-01 12:00:00 (rsb reproduce ...)`` from a lock file's content."""
    if not holder.get("pid"):
        return "another process"
    # what a lock file says is echoed: anyone who can write the directory wrote it (escape codes, newlines)
    text = f"process {printable(holder['pid'], 20)}"
    if holder.get("host") and holder["host"] != socket.gethostname():
        text += f" on host {printable(holder['host'], 100)}"
    if holder.get("since"):
        text += f" since {printable(holder['since'], 40)}"
    if holder.get("command"):
        text += f" ({printable(holder['command'], 300)})"
    return text


def _read(fd: int) -> dict:
    try:
        data = json.loads(os.pread(fd, MAX_LOCK, 0).decode() or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _me() -> bytes:
    cmd = " ".join(["rsb", *sys.argv[1:]]) if Path(sys.argv[0]).name == "rsb" else " ".join(sys.argv)
    return jsontext.exact({"pid": os.getpid(), "host": socket.gethostname(),
                       "since": time.strftime("%Y-%m-%d %H:%M:%S"), "command": cmd[:300]}).encode()


def _acquire(path: Path, wait: float, on_wait) -> int:
    """The open, locked descriptor of ``path`` (created if missing), after waiting up to ``wait`` seconds."""
    deadline = None
    while True:
        try:  # no link followed, no special file, no hard link: a planted name is refused, never written through
            fd = open_lock(path)
        except UnsafeFile:
            raise
        except OSError as exc:
            raise WriteError(path, exc) from None
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EAGAIN):
                os.close(fd)
                raise WriteError(path, exc) from None
            holder = _read(fd)
            os.close(fd)  # this process holds no lock on the file: closing releases nothing
            now = time.monotonic()
            if deadline is None:
                deadline = now + max(0.0, float(wait))
                if wait > 0:
                    (on_wait or to_stderr)(f"{path.parent} is in use by {describe(holder)}; "
                                           f"waiting up to {wait:g} s (--wait)")
            if now >= deadline:
                raise DirectoryBusy(path.parent, holder, float(wait)) from None
            time.sleep(min(POLL, deadline - now))
            continue
        try:  # the previous holder removes the file when it ends: lock the file that is at the path now
            same = os.path.samestat(os.fstat(fd), os.lstat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


@contextmanager
def hold(directory, wait: float = 0.0, on_wait=None):
    """Hold ``directory`` (created if missing) for the block; see the module's docstring.

    Parameters
    ----------
    directory : path-like
    wait : float
        Seconds to wait for another run to release it (>= 0; 0: do not wait).
    on_wait : callable(str), optional
        Told once, in words, when the run starts waiting (default :func:`to_stderr`).

    Raises
    ------
    DirectoryBusy
        Still held by another process after ``wait`` seconds.
    WriteError
        The directory or the lock file cannot be created.
    rsb_theory.safe_files.UnsafeFile
        ``DIR/.rsb.lock`` is a symbolic link, a special file or a hard link (never written through), or
        ``directory`` is a directory of the system (``/``, ``/etc``, ...).
    ValueError
        ``wait`` negative or not a number (names ``wait``).
    """
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not wait >= 0:
        raise ArgumentError("wait", f"need a number of seconds >= 0, got {wait!r}")
    directory = Path(directory)
    top = system_dir(directory)
    if top is not None:
        raise UnsafeFile(directory, f"a directory of the system ({top}); rsb writes only in a directory of its own")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(directory, exc) from None
    path = directory / LOCK_NAME
    key = str(path.resolve())
    if key in _held:  # POSIX locks do not exclude their own process: the outer hold guards the block
        _held[key] += 1
        try:
            yield path
        finally:
            _held[key] -= 1
        return
    fd = _acquire(path, wait, on_wait)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, _me(), 0)
    except OSError:
        pass  # the lock holds without its description (a full disk); the holder is then "another process"
    _held[key] = 1
    try:
        # every file of the run below the directory is reached from the descriptor opened now, no link followed
        # (rsb_theory.safe_files.held): a sub-directory swapped for a link mid-run is refused, not written through
        with held(directory):
            yield path
    finally:
        del _held[key]
        try:  # while still holding it: a waiting run then locks a fresh file; only the file this run locked
            if os.path.samestat(os.fstat(fd), os.lstat(path)):
                os.unlink(path)
        except OSError:
            pass
        os.close(fd)
