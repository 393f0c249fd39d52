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
from pathlib import Path

from rsb_sim.files import atomic_write, write_bytes


def check_out(out) -> Path:
    """Validate the output directory *before* anything is written.

    Raises
    ------
    ValueError
        Naming ``out`` when it is empty, exists and is not a directory, or when
        it (or its nearest existing parent) is not writable.
    """
    if out is None or str(out).strip() == "":
        raise ValueError("argument 'out': an output directory is required")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ValueError(f"argument 'out': {str(path)!r} exists and is not a directory")
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ValueError(f"argument 'out': {str(probe)!r} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"argument 'out': {str(probe)!r} is not writable")
    return path


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
    with open(path, newline="") as fh:
        lines = [ln for ln in fh if not ln.startswith("#")]
    return list(csv.DictReader(lines))
