"""Files of ``rsb reproduce``, ``rsb plot bounds`` and ``rsb simulate --out``: the output directory, atomic writes, CSV, figures.

Every file is written by :func:`rsb_sim.files.atomic_write`: to a temporary name next
to it, flushed, then renamed (an interrupted run leaves no partial file; a full disk or
a refused permission raises :class:`rsb_sim.files.WriteError` naming the file, and the
temporary file is removed).  The directory is created when the run takes it
(:func:`rsb_sim.dirlock.hold`), after every argument has been checked, so a command that
fails on its arguments leaves nothing behind.
"""

from __future__ import annotations

import csv
import io
from rsb_sim import jsontext
import os
import stat
from pathlib import Path

from rsb_sim.dirlock import LOCK_NAME
from rsb_sim.files import atomic_write, write_bytes
from rsb_theory.safe_files import MAX_DATA, open_read, system_dir
from rsb_theory.errors import ArgumentError


#: Names rsb keeps in an output directory that a run locks, lists or writes through: a link or a special
#: file planted there is refused before any work (``docs/safety.md``, "Files").
OWN_NAMES = (LOCK_NAME, "runs", f"runs/{LOCK_NAME}", "runs/chunks", "runs/corrupt", "corrupt", "chunks")


def check_out(out) -> Path:
    """Validate the output directory *before* anything is written.

    Raises
    ------
    ValueError
        Naming ``out`` when it is empty, exists and is not a directory, is a dangling symbolic
        link (or lies below one), is a directory of the system (``/``, ``/etc``, ``/usr``, ...:
        :func:`rsb_theory.safe_files.system_dir`), holds a link or a special file where rsb keeps
        its lock or its sub-directories (:data:`OWN_NAMES`), or when it (or its nearest existing
        parent) is not writable.
    """
    if out is None or str(out).strip() == "":
        raise ArgumentError("out", "an output directory is required")
    path = Path(out)
    shown = str(path)  # shown by repr(): control characters escaped
    _check_names(path, shown)  # first: a name too long for the system makes every later look-up fail
    top = system_dir(path)
    if top is not None:
        raise ArgumentError("out", f"{shown!r} is a directory of the system ({top}); give a directory of "
                         f"your own")
    if path.exists() and not path.is_dir():
        raise ArgumentError("out", f"{shown!r} exists and is not a directory")
    probe = path
    while not probe.exists():
        if os.path.lexists(probe):
            raise ArgumentError("out", f"{str(probe)!r} is a symbolic link to nothing "
                             f"({os.readlink(probe)!r}); remove it or give another directory")
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ArgumentError("out", f"{str(probe)!r} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ArgumentError("out", f"{str(probe)!r} is not writable")
    if probe != path and probe.resolve() == Path("/"):
        first = path.absolute().parts[:2]
        raise ArgumentError("out", f"{shown!r} would create {os.path.join(*first)!r} at the top of the file "
                         f"system; make its parent yourself if that is meant, or give a directory below one of yours")
    if probe == path:
        for name in OWN_NAMES:
            _check_own(path / name)
    return path


#: Longest name rsb gives a file: the temporary name of an atomic write adds ``.<8 hex>.tmp`` and rsb's own names
#: (``runs/<16 hex>.json``) to the directory's path.
_NAME_SLACK = 16


def _check_names(path: Path, shown: str) -> None:
    """Every component of ``path`` within the file system's name length, the whole within its path length (with room
    for the names rsb writes below it): refused now, naming --out, instead of failing at the first write."""
    try:
        name_max = os.pathconf(_existing(path), "PC_NAME_MAX")
        path_max = os.pathconf(_existing(path), "PC_PATH_MAX")
    except (OSError, ValueError):
        name_max, path_max = 255, 4096
    for part in path.parts:
        if len(os.fsencode(part)) > name_max - _NAME_SLACK:
            raise ArgumentError("out", f"the name {part[:40]!r}... is {len(os.fsencode(part))} bytes long; "
                             f"this file system allows {name_max} (rsb needs {_NAME_SLACK} more for its temporary "
                             f"files); use a shorter name")
    if len(os.fsencode(str(path.absolute()))) > path_max - 64:
        raise ArgumentError("out", f"the path is {len(os.fsencode(str(path.absolute())))} bytes long, beyond "
                         f"what this file system allows ({path_max} with rsb's own names below it); use a shorter path")


def _existing(path: Path) -> Path:
    """The nearest ancestor of ``path`` that exists (looked up from the top: a long name below fails no look-up)."""
    probe = Path(path.absolute().anchor)
    for part in path.absolute().parts[1:]:
        nxt = probe / part
        if len(os.fsencode(part)) > 255 or not os.path.isdir(nxt):
            break
        probe = nxt
    return probe


def _check_own(path: Path) -> None:
    """ValueError naming ``out`` if ``path`` (one of :data:`OWN_NAMES`) is a link or not what rsb puts there."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    lock = path.name == LOCK_NAME
    if stat.S_ISLNK(st.st_mode):
        what = "a symbolic link"
    elif lock and not stat.S_ISREG(st.st_mode):
        what = "not a regular file"
    elif lock and st.st_nlink != 1:
        what = "a hard link to another file"
    elif not lock and not stat.S_ISDIR(st.st_mode):
        what = "not a directory"
    else:
        return
    raise ArgumentError("out", f"{str(path)!r} is {what}, where rsb keeps its "
                     f"{'lock' if lock else 'own directory'}; rsb never writes through it: remove it")


def write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (parent directories created; :class:`rsb_sim.files.WriteError`)."""
    write_bytes(path, text.encode())


def save_figure(fig, png, pdf) -> None:
    """Write a matplotlib figure as PNG and PDF, each atomically."""
    for path in (Path(png), Path(pdf)):
        atomic_write(path, lambda fh, fmt=path.suffix[1:]: fig.savefig(fh, format=fmt, dpi=130, bbox_inches="tight"))


def csv_text(rows: list[dict], columns: tuple[str, ...], header: dict, indent: int | None = 1) -> str:
    """``#`` lines holding ``header`` as JSON, then the rows under ``columns`` (floats by ``repr``, None empty)."""
    buf = io.StringIO()
    for line in jsontext.dumps(header, indent=indent, default=str).splitlines():
        buf.write(f"# {line}\n")
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else (repr(v) if isinstance(v, float) else v)) for k, v in r.items()})
    return buf.getvalue()


def read_csv(path) -> list[dict]:
    """Rows of a CSV written by :func:`csv_text` (``#`` lines skipped; values as strings)."""
    with io.TextIOWrapper(open_read(path, MAX_DATA), encoding="utf-8", newline="") as fh:  # a file rsb wrote: no link, no FIFO
        lines = [ln for ln in fh if not ln.startswith("#")]
    return list(csv.DictReader(lines))
