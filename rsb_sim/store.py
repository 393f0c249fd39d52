"""Results on disk: written atomically, checked when read.

A result is a JSON summary (``<key>.json``, :meth:`SimResult.summary`) plus the
per-trial arrays (``<key>.npz``: regrets, counts).  Both are written atomically
(:func:`rsb_sim.files.atomic_write`), the arrays first: the summary's presence means
the result is complete.  The summary carries a ``"store"`` record -- the format, the
key it was written under, the SHA-256 of the arrays file and of the summary itself --
so that :func:`check` recognises a file cut short, altered, or copied under another
key; :func:`load` refuses such a result with :class:`CorruptResult` (a sweep moves the
files aside and recomputes them, :mod:`rsb_sim.sweep`).

Both files are read by :func:`rsb_theory.safe_files.read_bytes`: a regular file, not a link,
a FIFO or a device, within :data:`~rsb_theory.safe_files.MAX_SUMMARY` and
:data:`~rsb_theory.safe_files.MAX_ARRAYS` bytes; anything else fails the check like a damaged
file (set aside -- the link itself is moved, never its target -- and recomputed).

Results written before the ``"store"`` record existed (older rsb) fail the
check once ("no checksum") and are recomputed, bit for bit the same numbers.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np

from rsb_theory.safe_files import MAX_ARRAYS, MAX_SUMMARY, UnsafeFile, lexists, read_bytes

from . import jsontext
from .files import CorruptFile, move_aside, write_bytes
from rsb_theory.errors import ArgumentError

#: Version of the stored layout (``summary["store"]["format"]``).
FORMAT = 1
#: The arrays a stored result must hold.
ARRAYS = ("regrets", "counts")


class CorruptResult(CorruptFile):
    """A stored result that fails its check (:func:`check`); ``str()`` names the file and the reason."""


def key_of(spec: dict) -> str:
    """A stable file name for a run specification (sorted JSON, SHA-256 prefix).

    ``config["threads"]`` is left out: it changes no result (:class:`rsb_sim.config.SimConfig`).
    A spec with ``"arms"`` (the text of ``--arms``) is keyed with the SHA-256 of every file its
    ``empirical(FILE:COLUMN)`` arms read, read now (:func:`with_file_digests`): an edited file gets a
    new key, so its result is recomputed, never the old file's reused.

    Raises
    ------
    rsb_theory.laws.LawError
        A file of ``spec["arms"]`` cannot be read (one line naming the arm).
    """
    if "threads" in spec.get("config", {}):
        spec = {**spec, "config": {k: v for k, v in spec["config"].items() if k != "threads"}}
    text = jsontext.exact(with_file_digests(spec), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def with_file_digests(spec: dict) -> dict:
    """``spec`` with ``"arm_files"``: ``{FILE: SHA-256}`` of the files its ``"arms"`` read, read now.

    A spec without files is returned as it is (its key is the one it always had).  A sweep runs its
    specs with these digests (:func:`check_file_digests` on the worker): the key and the numbers then
    come from the same bytes.

    Raises
    ------
    rsb_theory.laws.LawError
        A file that cannot be read (one line naming the arm).
    """
    if "arms" not in spec:
        return spec
    from rsb_theory.laws.digest import file_digests

    files = file_digests(spec["arms"])
    return {**spec, "arm_files": files} if files else spec


def check_file_digests(spec: dict) -> None:
    """ValueError naming ``arms`` and the file if a file of ``spec["arm_files"]`` no longer has its digest.

    Run where the laws are read (a worker, maybe on another machine): a file edited during a sweep, or
    another file under the same path, must not be computed under the key of the first.
    """
    if "arm_files" not in spec:
        return
    from rsb_theory.laws.digest import file_digests

    now = file_digests(spec["arms"])
    for path, digest in spec["arm_files"].items():
        if now.get(path) != digest:
            raise ArgumentError("arms", f"{path!r} has changed since the sweep read it (SHA-256 "
                             f"{str(now.get(path))[:12]}..., expected {digest[:12]}...); run the sweep again")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _summary_digest(summary: dict) -> str:
    """SHA-256 of the summary without its ``"store"`` record, in canonical JSON (what any reader re-derives)."""
    plain = {k: v for k, v in summary.items() if k != "store"}
    return _digest(jsontext.exact(json.loads(jsontext.exact(plain)), sort_keys=True).encode())


def save(directory, key: str, result) -> Path:
    """Write a SimResult: ``<key>.npz`` then ``<key>.json`` atomically; return the JSON path."""
    return save_arrays(directory, key, result.summary(), result.regrets, result.counts)


def save_arrays(directory, key: str, summary: dict, regrets: np.ndarray, counts: np.ndarray) -> Path:
    """Write ``<key>.npz`` (regrets, counts) then ``<key>.json`` (summary and its ``"store"`` record); return the JSON path.

    Raises
    ------
    rsb_sim.files.WriteError
        Naming the file and the cause (full disk, permission, read-only); no partial file is left.
    """
    directory = Path(directory)
    # the summary as the file holds it (strict JSON: a non-finite number is null with its reason beside it), so
    # that its digest is the one a reader re-derives from the file
    summary = jsontext.finite(summary)
    buf = io.BytesIO()
    np.savez(buf, regrets=regrets, counts=counts)
    npz = buf.getvalue()
    record = {"format": FORMAT, "key": key, "npz_sha256": _digest(npz), "summary_sha256": _summary_digest(summary)}
    write_bytes(directory / f"{key}.npz", npz)
    text = jsontext.dumps({**summary, "store": record}, indent=1)
    return write_bytes(directory / f"{key}.json", text.encode())


def exists(directory, key: str) -> bool:
    """Both files of ``key`` are present (not checked: :func:`check`)."""
    return lexists(Path(directory) / f"{key}.json") and lexists(Path(directory) / f"{key}.npz")


def _read(directory: Path, key: str) -> tuple[dict, dict]:
    jpath, zpath = directory / f"{key}.json", directory / f"{key}.npz"
    try:
        summary = json.loads(read_bytes(jpath, MAX_SUMMARY, one_name=True).decode())
    except UnsafeFile as exc:
        raise CorruptResult(jpath, exc.reason) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CorruptResult(jpath, f"not valid JSON ({type(exc).__name__}: {str(exc)[:80]})") from None
    if not isinstance(summary, dict):
        raise CorruptResult(jpath, "not a JSON object")
    record = summary.get("store")
    if not isinstance(record, dict) or "npz_sha256" not in record:
        raise CorruptResult(jpath, "no checksum (written by an older rsb, or not by rsb)")
    if record.get("format") != FORMAT:
        raise CorruptResult(jpath, f"stored format {record.get('format')!r}, expected {FORMAT}")
    if record.get("key") != key:
        raise CorruptResult(jpath, f"written under key {record.get('key')!r}, read as {key!r}")
    if record.get("summary_sha256") != _summary_digest(summary):
        raise CorruptResult(jpath, "summary does not match its checksum")
    try:
        npz = read_bytes(zpath, MAX_ARRAYS, one_name=True)
    except FileNotFoundError:
        raise CorruptResult(zpath, "missing (its summary is present)") from None
    except UnsafeFile as exc:
        raise CorruptResult(zpath, exc.reason) from None
    if _digest(npz) != record["npz_sha256"]:
        raise CorruptResult(zpath, f"does not match its checksum ({len(npz)} bytes; cut short or altered)")
    with np.load(io.BytesIO(npz), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    trials = summary.get("trials")
    if set(ARRAYS) - set(arrays) or arrays["regrets"].shape != (trials,) or arrays["counts"].shape[:1] != (trials,):
        raise CorruptResult(zpath, f"arrays do not match the summary's {trials} trials")
    summary = {k: v for k, v in summary.items() if k != "store"}
    return summary, arrays


def check(directory, key: str) -> str | None:
    """``None`` if the result of ``key`` is stored and passes every check, else the reason in words.

    A missing summary is ``"missing"``; a summary without its arrays, a file cut short, a
    checksum that does not match, a result written under another key are named.
    """
    directory = Path(directory)
    if not lexists(directory / f"{key}.json"):
        return "missing"
    try:
        _read(directory, key)
    except CorruptResult as exc:
        return str(exc)
    return None


def load(directory, key: str) -> tuple[dict, dict]:
    """(summary dict, arrays dict) of a stored result, after its checks.

    Raises
    ------
    CorruptResult
        A file missing, cut short, altered, or written under another key.
    """
    directory = Path(directory)
    if not lexists(directory / f"{key}.json"):
        raise CorruptResult(directory / f"{key}.json", "missing")
    return _read(directory, key)


def set_aside(directory, key: str) -> list[Path]:
    """Move the files of ``key`` (those present) into ``directory/corrupt/``; return where they went."""
    directory = Path(directory)
    return [move_aside(p) for p in (directory / f"{key}.json", directory / f"{key}.npz") if lexists(p)]
