"""Results on disk, written atomically (tmp file + rename) so an interrupted run leaves no partial file.

A result is a JSON summary (``<key>.json``, :meth:`SimResult.summary`) plus the
per-trial arrays (``<key>.npz``: regrets, counts).  The JSON is written last,
so its presence means the result is complete.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def key_of(spec: dict) -> str:
    """A stable file name for a run specification (sorted JSON, SHA-256 prefix)."""
    text = json.dumps(spec, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def save(directory, key: str, result) -> Path:
    """Write a SimResult: ``<key>.npz`` then ``<key>.json`` atomically; return the JSON path."""
    return save_arrays(directory, key, result.summary(), result.regrets, result.counts)


def save_arrays(directory, key: str, summary: dict, regrets: np.ndarray, counts: np.ndarray) -> Path:
    """Write ``<key>.npz`` (regrets, counts) then ``<key>.json`` (summary) atomically; return the JSON path."""
    directory = Path(directory)
    _atomic_write(directory / f"{key}.npz", lambda fh: np.savez(fh, regrets=regrets, counts=counts))
    _atomic_write(directory / f"{key}.json", lambda fh: fh.write(json.dumps(summary, indent=1).encode()))
    return directory / f"{key}.json"


def exists(directory, key: str) -> bool:
    return (Path(directory) / f"{key}.json").exists() and (Path(directory) / f"{key}.npz").exists()


def load(directory, key: str) -> tuple[dict, dict]:
    """(summary dict, arrays dict) of a stored result."""
    directory = Path(directory)
    summary = json.loads((directory / f"{key}.json").read_text())
    with np.load(directory / f"{key}.npz") as z:
        arrays = {k: z[k] for k in z.files}
    return summary, arrays
