"""Files that are whole or absent: atomic writes, one error naming the path, moving a bad file aside.

Every file rsb writes goes through :func:`atomic_write`: the bytes go to a temporary
file next to the target (``<name>.<random>.tmp``), are flushed to the disk, and the
temporary file is renamed over the target.  A reader therefore sees the old file or
the new one, never a part.  When anything fails -- a full disk, a permission, a
read-only file system, an interruption -- the temporary file is removed and the
target is left as it was; a failure of the system is raised as :class:`WriteError`,
one line naming the path and the cause.  A process killed outright (SIGKILL, power)
may leave a ``*.tmp`` file, which no reader opens; :func:`remove_temporaries` clears
them (a sweep does it under its directory lock).

No file is written through a link: the temporary file is created new (``mkstemp``: ``O_EXCL``,
which refuses any name already there, a link included) and ``os.replace`` replaces whatever is
at the target's name -- a link planted there is replaced, its target untouched.  The
sub-directory ``corrupt/`` is made and checked by :func:`rsb_theory.safe_files.own_dir` (never
a link).  The policy is :mod:`rsb_theory.safe_files` (``docs/safety.md``, "Files").

Light: standard library only.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from rsb_theory.safe_files import UnsafeFile, own_dir

from .interrupt import deferred

#: Suffix of the temporary files of :func:`atomic_write`.
TMP_SUFFIX = ".tmp"
#: Sub-directory where :func:`move_aside` puts files that failed their check.
ASIDE = "corrupt"


class WriteError(OSError):
    """Writing ``path`` failed; ``str()`` is one line: the path and the cause.

    Attributes
    ----------
    path : Path
    cause : str
        The system's words (``No space left on device``).
    kept : str or None
        What stays on disk (set by a sweep); None: not known.
    """

    def __init__(self, path, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause))
        self.path = Path(path)
        self.cause = cause.strerror or str(cause)
        self.kept: str | None = None

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.cause}"


class CorruptFile(Exception):
    """A stored file that fails its check; ``str()`` names the file and the reason.

    Attributes
    ----------
    path : Path
    reason : str
    kept : str or None
        What stays on disk (set by the code that knows); None: not known.
    """

    def __init__(self, path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        self.kept: str | None = None
        super().__init__(f"{self.path}: {reason}")


def _mkdir(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(Path(exc.filename) if exc.filename else directory, exc) from None


def _umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Read once at import: setting the umask to read it is process-wide, not safe beside other threads.
_UMASK = _umask()


def atomic_write(path, write) -> Path:
    """Write ``path`` by calling ``write(binary file handle)``, atomically; return the path.

    Raises
    ------
    WriteError
        The system refused (full disk, permission, read-only); nothing is left at ``path``'s
        temporary name and ``path`` itself is unchanged.
    """
    path = Path(path)
    _mkdir(path.parent)
    fd = tmp = None
    try:
        # a signal raised between the creation of the temporary file and the binding of its name would leave the
        # file behind with no one to remove it: the creation runs with signals deferred (rsb_sim.interrupt)
        with deferred():
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=TMP_SUFFIX)
    except OSError as exc:
        raise WriteError(path, exc) from None
    except BaseException:  # a signal that arrived during the creation, raised at the end of the deferred block
        if tmp is not None:
            os.close(fd)
            os.unlink(tmp)
        raise
    try:
        # mkstemp creates 0600; give the file the mode open() would (0666 less the umask) so that results
        # in a shared directory stay readable
        os.fchmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError(path, exc) from None
        raise
    return path


def write_bytes(path, data: bytes) -> Path:
    """:func:`atomic_write` of ``data``."""
    return atomic_write(path, lambda fh: fh.write(data))


def move_aside(path) -> Path:
    """Move ``path`` into ``<its directory>/corrupt/`` (``name``, or ``name.1``, ``name.2``, ... if taken); return it."""
    path = Path(path)
    try:
        aside = own_dir(path.parent, ASIDE)  # never a link: the moved file stays in the directory rsb holds
    except UnsafeFile:
        raise
    except OSError as exc:
        raise WriteError(path.parent / ASIDE, exc) from None
    dest = aside / path.name
    n = 0
    while os.path.lexists(dest):
        n += 1
        dest = aside / f"{path.name}.{n}"
    try:
        os.replace(path, dest)
    except OSError as exc:
        raise WriteError(path, exc) from None
    return dest


def remove_temporaries(directory, targets: tuple[str, ...] = ("*",)) -> int:
    """Remove the temporary files that :func:`atomic_write` left for ``targets`` in ``directory``; count them.

    Only the names :func:`atomic_write` makes (``<target>.<random>.tmp``), only in ``directory``
    itself (not below), and only for a directory this process holds (:mod:`rsb_sim.dirlock`):
    another writer's temporary file would be removed under it.  A killed process (SIGKILL)
    leaves them; nothing reads them.
    """
    n = 0
    for target in targets:
        for p in Path(directory).glob(f"{target}.*{TMP_SUFFIX}"):
            try:
                mode = os.lstat(p).st_mode
                if stat.S_ISREG(mode) or stat.S_ISLNK(mode):  # unlink removes a link, not its target
                    p.unlink()
                    n += 1
            except FileNotFoundError:
                pass
    return n
