"""The one policy for opening files: rsb writes only files it creates, and reads only regular files of a stated size.

rsb runs in shared result directories and on shared machines; anyone who can write to such a
directory can put a symbolic link, a FIFO or a hard link where rsb expects one of its own files.
Every file rsb opens goes through this module (``docs/safety.md``, "Files"):

* **Writing** (:func:`create_new`): a new file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW``
  -- a link or any other file at the name makes the call fail, never follow.  Results are then
  renamed over their target (:func:`rsb_sim.files.atomic_write`), which replaces a link rather than
  writing through it.  The one file rsb rewrites in place, a directory's lock
  (:mod:`rsb_sim.dirlock`), is opened by :func:`open_lock`: no link followed, and truncated only
  after ``fstat`` shows a regular file with one name (a hard link to another file is refused).
* **Reading** (:func:`open_read`, :func:`read_bytes`): the file is opened with ``O_NONBLOCK`` (a
  FIFO does not block the open) and, for rsb's own files, ``O_NOFOLLOW``; ``fstat`` must show a
  regular file (not a FIFO, a socket or a device: ``/dev/zero`` is refused, not read for ever)
  no larger than the reader's stated limit, and the reader stops at the limit if the file grows.
  A file the user names (an arm's CSV, ``empirical(FILE:COLUMN)``) may be a symbolic link only
  to a file in the link's own directory (:data:`LINKS_WITHIN`).
* **Directories**: :func:`own_dir` makes the sub-directories rsb names (``runs``, ``chunks/KEY``,
  ``corrupt``) and refuses any that is a link or not a directory; :func:`system_dir` names the
  directories of the system that are never an output directory (``/``, ``/etc``, ``/usr``, ...).
* **Held directories** (:func:`held`): a directory a run holds (:func:`rsb_sim.dirlock.hold`) is opened
  once, as a descriptor, for the whole run.  Every file below it is then reached from that descriptor,
  one name at a time with ``O_NOFOLLOW`` (:func:`open_parent`): a sub-directory swapped for a link in
  the middle of the run is refused (or, for the held directory itself, the run keeps writing into the
  directory it opened), never followed -- a check made once before the work would not see the swap.
  Reading rsb's own files goes the same way, and a stored result must have one name (:func:`open_read`
  with ``one_name``: a hard link planted under a result's name is refused before it is read).

Errors are :class:`UnsafeFile` (an ``OSError``): one line naming the path and the reason, with
control characters of the path escaped (:func:`printable`).

Light: standard library only.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

__all__ = ["UnsafeFile", "printable", "open_read", "read_bytes", "create_new", "open_lock", "own_dir", "no_link",
           "system_dir", "held", "open_dir", "lexists", "open_parent", "MAX_CAPTION", "MiB", "MAX_SUMMARY", "MAX_ARRAYS", "MAX_FIGURE", "MAX_DATA", "MAX_LOCK",
           "LINKS_NONE", "LINKS_WITHIN"]

MiB = 1 << 20
#: Largest stored summary (``runs/<key>.json``) rsb reads.
MAX_SUMMARY = 256 * MiB
#: Largest stored arrays file (``runs/<key>.npz``: regrets and pulls per arm of every trial) rsb reads.
MAX_ARRAYS = 4096 * MiB
#: Largest figure ``rsb report`` embeds.
MAX_FIGURE = 64 * MiB
#: Largest CSV file of arm data (``empirical(FILE:COLUMN)``) rsb reads.
MAX_DATA = 1024 * MiB
#: Most bytes ``rsb report`` reads from a file beside a figure to caption it (a CSV's header, ``simulate.json``).
MAX_CAPTION = 1 * MiB
#: Largest lock file (``DIR/.rsb.lock``: a few hundred bytes of JSON) rsb reads.
MAX_LOCK = 64 * 1024

#: No symbolic link at all (rsb's own files: results, locks, figures).
LINKS_NONE = "none"
#: A symbolic link only to a file in the link's own directory (files a user names).
LINKS_WITHIN = "within"

#: Directories of the system that are never an output directory, with everything below them.
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sbin",
                "/sys", "/usr")
#: Directories of the system that are never an output directory themselves (below them is fine: /tmp/x).
SYSTEM_ROOTS = ("/", "/home", "/media", "/mnt", "/opt", "/root", "/run", "/srv", "/tmp", "/var", "/var/tmp")

_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7f)}
_CONTROL.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord("\x1b"): "\\e"})


def printable(text, limit: int | None = 200) -> str:
    """``text`` with control characters shown escaped (``\\e``, ``\\n``, ``\\r``, ``\\t``, ``\\xNN``; C1 controls and line
    separators as ``\\uNNNN``), cut at ``limit``.

    What a message echoes from its input must keep the one-line promise and must not drive the
    user's terminal (``docs/safety.md``, "Input").
    """
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[:limit] + "..."
    out = []
    for ch in s:
        o = ord(ch)
        if o in _CONTROL:
            out.append(_CONTROL[o])
        elif 0x80 <= o < 0xA0 or o in (0x2028, 0x2029, 0x85):
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)


class UnsafeFile(OSError):
    """A file rsb will not open as asked; ``str()`` is one line: the path and the reason.

    Attributes
    ----------
    path : Path
    reason : str
    kept : str or None
        What stays on disk (set by the code that knows).
    """

    def __init__(self, path, reason: str, err: int = errno.EPERM) -> None:
        super().__init__(err, reason)
        self.path = Path(path)
        self.reason = reason
        self.kept: str | None = None

    def __str__(self) -> str:
        return f"refusing {printable(self.path)}: {self.reason}"

    def predicate(self) -> str:
        """The reason as the end of ``FILE ...``: ``is a FIFO (named pipe), not a regular file``."""
        if self.reason.startswith(("a ", "an ", "not ")):
            return f"is {self.reason}"
        return f"is refused: {self.reason}"


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n / MiB:.0f} MiB" if n >= MiB else f"{n} bytes"


def _check_link(path: Path) -> Path:
    """``path`` if it is no link; the link's target if that is a file in the link's own directory; else refuse."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path  # the open reports it
    if not stat.S_ISLNK(st.st_mode):
        return path
    here = os.path.realpath(path.parent)
    target = os.path.realpath(path)
    if os.path.dirname(target) != here:
        raise UnsafeFile(path, f"a symbolic link out of its directory (to {printable(target)}); "
                               f"give the file's own path")
    return Path(target)


class _Limited(io.RawIOBase):
    """A raw reader of a descriptor that fails once more than ``limit`` bytes were read (a file growing while read)."""

    def __init__(self, fd: int, path: Path, limit: int) -> None:
        super().__init__()
        self._fd, self._path, self._limit, self._read = fd, path, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        data = os.read(self._fd, min(len(b), self._limit - self._read + 1))
        self._read += len(data)
        if self._read > self._limit:
            raise UnsafeFile(self._path, f"larger than {_size(self._limit)}, the most rsb reads from such a file",
                             errno.EFBIG)
        b[:len(data)] = data
        return len(data)

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def open_read(path, limit: int, links: str = LINKS_NONE, one_name: bool = False):
    """A binary reader of ``path`` after the checks of the module's docstring (use it in a ``with``).

    Parameters
    ----------
    path : path-like
    limit : int
        The most bytes read: a larger file is refused before reading, a file that grows past it
        while read raises on the read that crosses it.
    links : {LINKS_NONE, LINKS_WITHIN}
        With ``LINKS_NONE`` a file below a held directory (:func:`held`) is reached from the
        directory's descriptor, no link followed on the way.
    one_name : bool
        Refuse a file with more than one name (a hard link): rsb's stored results are created new,
        with one name.

    Raises
    ------
    UnsafeFile
        A link (out of its directory), a FIFO, a socket, a device, a directory, a file larger than
        ``limit``, a hard link (``one_name``).
    FileNotFoundError, PermissionError, OSError
        As ``open`` raises them.
    """
    path = Path(path)
    target = _check_link(path) if links == LINKS_WITHIN else path
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        if links == LINKS_NONE and _anchor(path)[0] is not None:
            parent = open_parent(path)
            try:
                fd = os.open(path.name, flags, dir_fd=parent)
            finally:
                os.close(parent)
        else:
            fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(path, "a symbolic link; rsb reads its own files only where it wrote them") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(path, f"{_kind(st.st_mode)}, not a regular file", errno.EINVAL)
        if st.st_size > limit:
            raise UnsafeFile(path, f"{_size(st.st_size)}, larger than {_size(limit)}, the most rsb reads from "
                                   f"such a file", errno.EFBIG)
        if one_name and st.st_nlink != 1:
            raise UnsafeFile(path, f"a file with {st.st_nlink} names (a hard link); rsb stores its results "
                                   f"under one name")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return io.BufferedReader(_Limited(fd, path, limit), 1 << 16)


def read_bytes(path, limit: int, links: str = LINKS_NONE, one_name: bool = False) -> bytes:
    """The bytes of ``path`` (:func:`open_read`)."""
    with open_read(path, limit, links, one_name) as fh:
        return fh.read()


def read_head(path, limit: int) -> bytes:
    """The first ``limit`` bytes of ``path`` at most (:func:`open_read`'s checks, except its size: a larger file is
    read only up to ``limit``; a FIFO, device or link is refused all the same)."""
    with open_read(path, 1 << 62) as fh:
        return fh.read(limit)


# --- held directories: a descriptor opened once per run, every name below it reached from it ----------------

_held: dict[str, list[int]] = {}  # absolute path (as the run names it) -> descriptors, innermost last

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


def _anchor(path) -> tuple[int | None, tuple[str, ...]]:
    """(descriptor of the deepest held directory containing ``path``, the names below it); (None, ()) if none."""
    if not _held:
        return None, ()
    full = os.path.abspath(path)
    best = None
    for root in _held:
        if full == root or full.startswith(root.rstrip("/") + "/"):
            if best is None or len(root) > len(best):
                best = root
    if best is None:
        return None, ()
    rest = full[len(best):].strip("/")
    return _held[best][-1], tuple(p for p in rest.split("/") if p)


def _walk(fd: int, names, start: Path, create: bool) -> int:
    """A new descriptor of ``fd/names...``, each name a real directory (``O_NOFOLLOW``), made if missing (``create``)."""
    cur = os.dup(fd)
    here = start
    try:
        for name in names:
            here = here / name
            if create:
                try:
                    os.mkdir(name, 0o777, dir_fd=cur)
                except FileExistsError:
                    pass
            try:
                nxt = os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=cur)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    try:
                        mode = os.lstat(name, dir_fd=cur).st_mode
                    except OSError:
                        mode = 0
                    raise UnsafeFile(here, f"{_kind(mode)} where rsb keeps a directory of its own (swapped in "
                                           f"during the run?); remove it", errno.ENOTDIR) from None
                raise
            os.close(cur)
            cur = nxt
    except BaseException:
        os.close(cur)
        raise
    return cur


def lexists(path) -> bool:
    """``os.path.lexists`` reached like :func:`open_read` (from a held directory's descriptor, no link followed on
    the way): False also when a directory on the way is not one rsb may use (the read then refuses it)."""
    if _anchor(path)[0] is None:
        return os.path.lexists(path)
    try:
        parent = open_parent(path)
    except (FileNotFoundError, UnsafeFile):
        return False
    try:
        os.lstat(Path(path).name, dir_fd=parent)
        return True
    except FileNotFoundError:
        return False
    finally:
        os.close(parent)


def open_dir(path, create: bool = False) -> int:
    """A descriptor of the directory ``path`` (close it): from the deepest held directory containing it, one name
    at a time with no link followed; a directory outside every held one is opened by its name (the user's)."""
    fd, names = _anchor(path)
    if fd is None:
        if create:
            os.makedirs(path, exist_ok=True)
        return os.open(path, _DIR_FLAGS)
    root = Path(os.path.abspath(path))
    for _ in names:
        root = root.parent
    return _walk(fd, names, root, create)


def open_parent(path, create: bool = False) -> int:
    """:func:`open_dir` of the directory of ``path`` (the file is then reached as ``path.name`` with ``dir_fd``)."""
    return open_dir(Path(os.path.abspath(path)).parent, create)


class held:
    """Context manager: hold ``directory`` (a descriptor opened now) as the anchor of every name below it.

    ``directory`` below a held one is opened from it with no link followed; the outermost is the directory
    the user named and is opened by its name.  Reentrant and nestable; not thread-aware (rsb's writers run in
    the main thread).
    """

    def __init__(self, directory) -> None:
        self.path = os.path.abspath(directory)
        self.fd: int | None = None

    def __enter__(self) -> int:
        self.fd = open_dir(self.path)
        _held.setdefault(self.path, []).append(self.fd)
        return self.fd

    def __exit__(self, *exc) -> None:
        stack = _held.get(self.path, [])
        if self.fd in stack:
            stack.remove(self.fd)
        if not stack:
            _held.pop(self.path, None)
        os.close(self.fd)


def create_new(path, mode: int = 0o600) -> int:
    """A descriptor of a file created now at ``path`` (``O_CREAT | O_EXCL | O_NOFOLLOW``), open for writing.

    Raises ``FileExistsError`` if anything -- a file, a link, a FIFO -- is already there.
    """
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)


def open_lock(path, mode: int = 0o644) -> int:
    """A read-write descriptor of the lock file ``path``: created if missing; an existing one must be rsb's kind.

    A link is never followed (``O_NOFOLLOW``), and an existing file must be a regular file with one
    name (``fstat``: not a FIFO or device, not a hard link to someone's file) before the caller
    truncates it.

    Raises
    ------
    UnsafeFile
        A link, a special file, a directory, or a file with other names.
    OSError
        As ``open`` raises it (permission, read-only file system).
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(path, "a symbolic link where rsb keeps its lock; remove it (no run of rsb makes one)"
                             ) from None
        if exc.errno in (errno.EISDIR, errno.ENXIO):
            raise UnsafeFile(path, "not a regular file where rsb keeps its lock; remove it") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(path, f"{_kind(st.st_mode)} where rsb keeps its lock; remove it", errno.EINVAL)
        if st.st_nlink != 1:
            raise UnsafeFile(path, f"a file with {st.st_nlink} names (a hard link) where rsb keeps its lock; "
                                   f"remove it")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def own_dir(parent, *names: str) -> Path:
    """``parent/names[0]/names[1]/...``, each made if missing and each a real directory (no link followed).

    ``parent`` itself is the directory the user named and may be a link; below it, a name rsb
    chooses is never a link.  Below a held directory (:func:`held`) the names are walked from its
    descriptor.

    Raises
    ------
    UnsafeFile
        A link or a non-directory at one of the names.
    OSError
        As ``mkdir`` raises it.
    """
    path = Path(parent)
    if _anchor(path)[0] is not None:
        os.close(_walk(open_dir(path), names, path, True))
        return path.joinpath(*names)
    for name in names:
        path = path / name
        try:
            os.mkdir(path)
        except FileExistsError:
            pass
        no_link(path)
    return path


def no_link(path) -> bool:
    """True if ``path`` is a real directory, False if nothing is there; :class:`UnsafeFile` for anything else.

    For the sub-directories rsb names (``runs``, ``chunks``, ``corrupt``): checked before rsb lists,
    writes or removes anything in them, so that no link takes its work elsewhere.  Below a held
    directory (:func:`held`) the names are walked from its descriptor.
    """
    if _anchor(path)[0] is not None:
        try:
            os.close(open_dir(path))
        except FileNotFoundError:
            return False
        return True
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeFile(path, f"{_kind(st.st_mode)} where rsb keeps a directory of its own; remove it",
                         errno.ENOTDIR)
    return True


def system_dir(path) -> str | None:
    """The system directory ``path`` is (or is below, for ``/etc``, ``/usr``, ...), or None.

    Read on the resolved path (``/tmp/../etc`` is ``/etc``).
    """
    real = os.path.realpath(path)
    for top in SYSTEM_TREES:
        if real == top or real.startswith(top + "/"):
            return top
    if real in SYSTEM_ROOTS:
        return real
    return None
