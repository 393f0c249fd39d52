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

No file is written through a link: the temporary file is created new (``O_EXCL | O_NOFOLLOW``,
which refuses any name already there, a link included) and ``os.replace`` replaces whatever is
at the target's name -- a link planted there is replaced, its target untouched.  Both go through
a descriptor of the target's directory (:func:`rsb_theory.safe_files.open_parent`): below a
directory the run holds, reached from the descriptor opened when the run took it, one name at a
time with no link followed, so a sub-directory swapped for a link in the middle of a run is
refused, never written through.  Moving aside, removing temporaries and removing a chunk
directory go the same way.  The policy is :mod:`rsb_theory.safe_files` (``docs/safety.md``, "Files").

Light: standard library only.
"""

from __future__ import annotations

import fnmatch
import os
import secrets
import shutil
import stat
from pathlib import Path

from rsb_theory.safe_files import UnsafeFile, open_dir, open_parent

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


def _parent(path: Path, create: bool = True) -> int:
    """A descriptor of ``path``'s directory (made if missing; no link followed below a held directory)."""
    try:
        return open_parent(path, create)
    except UnsafeFile:
        raise
    except OSError as exc:
        raise WriteError(Path(exc.filename) if exc.filename else path.parent, exc) from None


def _new_temporary(dfd: int, name: str) -> tuple[int, str]:
    """(descriptor, name) of a new temporary file ``<name>.<random>.tmp`` in the directory ``dfd``."""
    for _ in range(100):
        tmp = f"{name}.{secrets.token_hex(4)}{TMP_SUFFIX}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                           dir_fd=dfd), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name}")


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
    rsb_theory.safe_files.UnsafeFile
        A directory on the way is a link or not a directory (below a held directory).
    """
    path = Path(path)
    dfd = _parent(path)
    try:
        _write_in(dfd, path, write)
    finally:
        os.close(dfd)
    return path


def _write_in(dfd: int, path: Path, write) -> None:
    fd = tmp = None
    try:
        # a signal raised between the creation of the temporary file and the binding of its name would leave the
        # file behind with no one to remove it: the creation runs with signals deferred (rsb_sim.interrupt)
        with deferred():
            fd, tmp = _new_temporary(dfd, path.name)
    except OSError as exc:
        raise WriteError(path, exc) from None
    except BaseException:  # a signal that arrived during the creation, raised at the end of the deferred block
        if tmp is not None:
            os.close(fd)
            os.unlink(tmp, dir_fd=dfd)
        raise
    try:
        # the temporary is created 0600; give the file the mode open() would (0666 less the umask) so that results
        # in a shared directory stay readable
        os.fchmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path.name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except BaseException as exc:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, (WriteError, UnsafeFile)):
            raise WriteError(path, exc) from None
        raise


def write_bytes(path, data: bytes) -> Path:
    """:func:`atomic_write` of ``data``."""
    return atomic_write(path, lambda fh: fh.write(data))


def move_aside(path) -> Path:
    """Move ``path`` into ``<its directory>/corrupt/`` (``name``, or ``name.1``, ``name.2``, ... if taken); return it."""
    path = Path(path)
    dfd = _parent(path, create=False)
    try:
        try:
            os.mkdir(ASIDE, 0o777, dir_fd=dfd)
        except FileExistsError:
            pass
        except OSError as exc:
            raise WriteError(path.parent / ASIDE, exc) from None
        try:  # never a link: the moved file stays in the directory rsb holds
            afd = os.open(ASIDE, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
        except OSError as exc:
            raise UnsafeFile(path.parent / ASIDE, "a symbolic link or not a directory where rsb keeps a directory "
                                                  "of its own; remove it") from exc
        try:
            name, n = path.name, 0
            while _lexists(name, afd):
                n += 1
                name = f"{path.name}.{n}"
            try:
                os.replace(path.name, name, src_dir_fd=dfd, dst_dir_fd=afd)
            except OSError as exc:
                raise WriteError(path, exc) from None
        finally:
            os.close(afd)
    finally:
        os.close(dfd)
    return path.parent / ASIDE / name


def _lexists(name: str, dfd: int) -> bool:
    try:
        os.lstat(name, dir_fd=dfd)
    except FileNotFoundError:
        return False
    return True


def remove_tree(path) -> None:
    """Remove the directory ``path`` and everything in it, reached from its parent's descriptor (no link followed:
    a link at ``path`` itself is removed, not its target); nothing there is fine."""
    path = Path(path)
    try:
        dfd = _parent(path, create=False)
    except (FileNotFoundError, UnsafeFile):
        return
    try:
        st = os.lstat(path.name, dir_fd=dfd)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path.name, dir_fd=dfd, ignore_errors=True)
        else:
            os.unlink(path.name, dir_fd=dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def remove_empty_dir(path) -> bool:
    """Remove ``path`` if it is an empty directory (reached from its parent's descriptor); whether it was."""
    path = Path(path)
    try:
        dfd = _parent(path, create=False)
    except (FileNotFoundError, UnsafeFile):
        return False
    try:
        os.rmdir(path.name, dir_fd=dfd)
        return True
    except OSError:
        return False
    finally:
        os.close(dfd)


def remove_temporaries(directory, targets: tuple[str, ...] = ("*",)) -> int:
    """Remove the temporary files that :func:`atomic_write` left for ``targets`` in ``directory``; count them.

    Only the names :func:`atomic_write` makes (``<target>.<random>.tmp``), only in ``directory``
    itself (not below), and only for a directory this process holds (:mod:`rsb_sim.dirlock`):
    another writer's temporary file would be removed under it.  A killed process (SIGKILL)
    leaves them; nothing reads them.  The directory is listed and its files removed through its
    descriptor (:func:`rsb_theory.safe_files.open_dir`).
    """
    try:
        dfd = open_dir(directory)
    except FileNotFoundError:
        return 0
    n = 0
    try:
        names = os.listdir(dfd)
        for target in targets:
            for name in fnmatch.filter(names, f"{target}.*{TMP_SUFFIX}"):
                try:
                    mode = os.lstat(name, dir_fd=dfd).st_mode
                    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):  # unlink removes a link, not its target
                        os.unlink(name, dir_fd=dfd)
                        n += 1
                except FileNotFoundError:
                    pass
    finally:
        os.close(dfd)
    return n
