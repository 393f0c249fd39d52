"""The stored ledger: answers at once when the code and the installed versions are those it was computed with.

``rsb verify`` (every filter), ``rsb labels`` and ``rsb report`` take their entries from
:func:`load_or_compute` (without it a filtered query reruns every check, about 52 s).

* **The key** (:func:`ledger_key`) is a SHA-256 over the bytes of every ``.py`` file of the three packages
  the checks can run (:data:`PACKAGES`, sorted by path), the name and version of each distribution that can
  change a computed number (:data:`KEYED_DISTRIBUTIONS`, those installed: :func:`installed_versions`, read by
  :mod:`importlib.metadata`: no package is imported), and the Python implementation and version.  An edit of
  rsb, or an install or upgrade of one of those, gives another key; installing anything else (Jupyter, a
  linter) does not, so the store stays current.  A result never depends on anything else (same input, same
  ledger on any machine, ``tests/test_determinism.py``).  Computing it reads about 2 MB and imports neither
  NumPy nor SymPy.
* **Where**: one file per key, ``<dir>/<key>.json`` (``<key>-mutants.json`` for ``rsb verify --mutants``,
  whose entries carry the mutants' statuses), in :func:`directory`: ``$RSB_LEDGER_DIR`` if set, else the
  user's cache directory (``$XDG_CACHE_HOME/rsb/ledger``, by default ``~/.cache/rsb/ledger``), shared by every
  checkout of the same code.  The :data:`KEEP` most recently used files are kept, older ones removed.
* **What**: the whole ledger, every field of :class:`~proofs_checks.ledger.CheckResult` (generic over the
  dataclass's fields and their types: a field added later round-trips without a change here), with the
  versions and the Python it was computed with, the key, and the SHA-256 of the entries.  Written atomically
  (:func:`rsb_sim.files.atomic_write`) after the whole computation, so an interrupted run stores nothing.
* **Checked when read**: a file that is not JSON, has another format, was written under another key, or
  whose entries fail their SHA-256 or do not make valid entries is never trusted: it is moved aside
  (``<dir>/corrupt/``, :func:`rsb_sim.files.move_aside`) and the ledger is recomputed.
* **Stale** (no file for the current key) or ``fresh``: the whole ledger is computed and stored, except for
  a ``subset`` query (``rsb verify --id``, ``--proof``), which runs only its own checks, as before the store
  existed, and stores nothing (a whole ledger is stored only when it was computed whole).  The stored entries
  are those a fresh computation gives, byte for byte (tested), whatever ``jobs``.

Light: the standard library, :mod:`proofs_checks.ledger` and :mod:`rsb_sim.files`; the checks are imported
only to compute.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import os
import re
import sys
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

from rsb_sim import jsontext
from rsb_sim.files import CorruptFile, WriteError, move_aside, write_bytes
from rsb_theory.safe_files import MAX_SUMMARY, UnsafeFile, read_bytes

from .ledger import COMPUTING_PACKAGES, CheckResult

#: The packages whose code can run in a check (every ``.py`` file of each is keyed).
PACKAGES = ("rsb_theory", "rsb_sim", "proofs_checks")
#: Version of the file layout (``record["format"]``).
FORMAT = 1
#: Environment variable naming the store's directory.
ENV = "RSB_LEDGER_DIR"
#: Stored ledgers kept in a directory (the most recently used); older ones are removed after a write.
KEEP = 8
#: The names :func:`path_of` gives (nothing else in the directory is ever removed).
_NAME = re.compile(r"^[0-9a-f]{64}(-mutants)?\.json$")


class CorruptLedger(CorruptFile):
    """A stored ledger that fails its check; ``str()`` names the file and the reason."""


# --------------------------------------------------------------------------------------------- the key

def package_roots(packages: Sequence[str] = PACKAGES) -> dict[str, Path]:
    """name -> directory of each package, found without importing it (:func:`importlib.util.find_spec`)."""
    import importlib.util

    out = {}
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise RuntimeError(f"package {name!r} not found")
        out[name] = Path(list(spec.submodule_search_locations)[0])
    return out


def source_files(roots: Mapping[str, Path]) -> list[tuple[str, Path]]:
    """``("package/sub/module.py", path)`` of every ``.py`` file under each root, sorted by the first."""
    found = []
    for name, root in roots.items():
        root = Path(root)
        for path in root.rglob("*.py"):
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts:
                continue
            found.append((f"{name}/{rel.as_posix()}", path))
    return sorted(found)


#: The distributions whose version can change a number of the ledger (normalised names): the numerical and symbolic
#: libraries the checks call, the solvers CVXPY runs, the compiler under numba, and the libraries that read or order
#: their data.  Another distribution (Jupyter, a linter, a plotting backend) changes no entry, so it is not keyed.
KEYED_DISTRIBUTIONS = COMPUTING_PACKAGES


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_versions(distributions=None) -> dict[str, str]:
    """Normalised name -> version of each installed distribution of :data:`KEYED_DISTRIBUTIONS` (nothing is
    imported; one not installed is not listed).

    ``distributions``: the installed distributions (default :func:`importlib.metadata.distributions`); a test passes
    its own list to show that an unrelated install leaves the key alone.
    """
    from importlib import metadata

    keyed = set(KEYED_DISTRIBUTIONS)
    out: dict[str, str] = {}
    for dist in (metadata.distributions() if distributions is None else distributions):
        name = dist.metadata["Name"]
        if name and _normalised(name) in keyed:
            key = _normalised(name)
            # the same name twice on the path: keep both versions (the one imported is the first found)
            out[key] = out[key] + "," + dist.version if key in out and out[key] != dist.version else dist.version
    return dict(sorted(out.items()))


def python_version() -> str:
    """The Python implementation and version (``cpython 3.11.7``)."""
    return f"{sys.implementation.name} {'.'.join(map(str, sys.version_info[:3]))}"


def ledger_key(roots: Mapping[str, Path] | None = None, versions: Mapping[str, str] | None = None,
               python: str | None = None) -> str:
    """The SHA-256 (hex) of the sources, the installed versions and the Python version.

    Parameters
    ----------
    roots : mapping of str to Path, optional
        Package name -> its directory (default :func:`package_roots`); a test passes a temporary tree.
    versions : mapping of str to str, optional
        Default :func:`installed_versions`.
    python : str, optional
        Default :func:`python_version`.
    """
    roots = package_roots() if roots is None else roots
    versions = installed_versions() if versions is None else versions
    python = python_version() if python is None else python
    h = hashlib.sha256()
    h.update(f"rsb stored ledger {FORMAT}\0python {python}\0".encode())
    for name, version in sorted(versions.items()):
        h.update(f"dist {name} {version}\0".encode())
    for rel, path in source_files(roots):
        data = path.read_bytes()
        h.update(f"file {rel} {len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


# ------------------------------------------------------------------------------------------- where

def directory(env: Mapping[str, str] | None = None) -> Path:
    """Where the stored ledgers are: ``$RSB_LEDGER_DIR``, else ``$XDG_CACHE_HOME/rsb/ledger``, else
    ``~/.cache/rsb/ledger`` (``.rsb_cache/ledger`` in the working directory when there is no home)."""
    env = os.environ if env is None else env
    if env.get(ENV):
        return Path(env[ENV]).expanduser()
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "rsb" / "ledger"
    try:
        return Path.home() / ".cache" / "rsb" / "ledger"
    except RuntimeError:  # no home directory known
        return Path(".rsb_cache") / "ledger"


def path_of(folder: Path, key: str, mutants: bool = False) -> Path:
    """The file of the ledger with ``key`` (with ``mutants``: the one of ``rsb verify --mutants``)."""
    return Path(folder) / f"{key}{'-mutants' if mutants else ''}.json"


# ---------------------------------------------------------------------------------- entries as JSON

def _plain(value):
    """A field's value as JSON data: a dataclass as the object of its fields, a tuple as a list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"cannot store a value of type {type(value).__name__}")


def encode(entries: Sequence) -> list[dict]:
    """Every field of every entry (a dataclass, :class:`CheckResult` by default), in the fields' order."""
    return [_plain(e) for e in entries]


def _typed(hint, value):
    """``value`` (JSON data) as the type ``hint``; ValueError when it is not one."""
    origin = typing.get_origin(hint)
    if hint is typing.Any:
        return value
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None:
            if type(None) in options:
                return None
            raise ValueError("null where a value is needed")
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _typed(option, value)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError("; ".join(errors))
    if origin is tuple:
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {type(value).__name__}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], v) for v in value)
        if len(args) != len(value):
            raise ValueError(f"expected {len(args)} items, got {len(value)}")
        return tuple(_typed(a, v) for a, v in zip(args, value))
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {type(value).__name__}")
        (arg,) = typing.get_args(hint)
        return [_typed(arg, v) for v in value]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {type(value).__name__}")
        _k, arg = typing.get_args(hint)
        return {k: _typed(arg, v) for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _instance(hint, value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (str, bool, int, float) and type(value) is hint:
        return value
    raise ValueError(f"expected {getattr(hint, '__name__', hint)}, got {type(value).__name__}")


def _instance(cls, value):
    if not isinstance(value, dict):
        raise ValueError(f"expected an object for {cls.__name__}, got {type(value).__name__}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    if list(value) != names:
        raise ValueError(f"{cls.__name__} needs the keys {names}, got {list(value)}")
    return cls(**{n: _typed(hints[n], value[n]) for n in names})


def decode(data, cls=CheckResult) -> list:
    """The entries of :func:`encode` back as ``cls``; ValueError (or the class's own error) when they are not."""
    if not isinstance(data, list):
        raise ValueError("entries: expected a list")
    return [_instance(cls, item) for item in data]


def _entries_text(plain: list[dict]) -> bytes:
    return jsontext.exact(plain, ensure_ascii=False, separators=(",", ":")).encode()


# ------------------------------------------------------------------------------------ save and load

def save(path: Path, key: str, entries: Sequence, versions: Mapping[str, str], python: str,
         mutants: bool = False) -> Path:
    """Write the stored ledger ``path`` atomically; return it.

    Raises
    ------
    rsb_sim.files.WriteError
        One line naming the file and the cause; nothing is left at ``path``.
    """
    plain = encode(entries)
    record = {"format": FORMAT, "kind": "ledger+mutants" if mutants else "ledger", "key": key,
              "python": python, "versions": dict(versions), "count": len(plain),
              "entries_sha256": hashlib.sha256(_entries_text(plain)).hexdigest(), "entries": plain}
    try:
        text = jsontext.exact(record, ensure_ascii=False, indent=1)
    except ValueError as exc:  # a value that is not a finite number: not stored (recomputed next time)
        raise WriteError(path, OSError(errno.EINVAL, f"not stored: {exc}")) from None
    return write_bytes(path, text.encode() + b"\n")


def load(path: Path, key: str, mutants: bool = False, cls=CheckResult) -> list:
    """The entries stored in ``path`` under ``key``.

    Raises
    ------
    FileNotFoundError
        No such file (stale: nothing was stored for this key).
    CorruptLedger
        Not JSON, another format or kind, another key, entries that fail their SHA-256 or are not valid entries.
    """
    try:  # the one reader: a regular file of one name, no link, a stated size (rsb_theory.safe_files)
        raw = read_bytes(path, MAX_SUMMARY, one_name=True)
    except UnsafeFile as exc:
        raise CorruptLedger(path, exc.predicate()) from None
    try:
        record = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CorruptLedger(path, f"is not JSON ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise CorruptLedger(path, f"is not a stored ledger of format {FORMAT}")
    kind = "ledger+mutants" if mutants else "ledger"
    if record.get("kind") != kind:
        raise CorruptLedger(path, f"holds a {record.get('kind')!r}, expected {kind!r}")
    if record.get("key") != key:
        raise CorruptLedger(path, f"was written under another key ({str(record.get('key'))[:12]}...)")
    plain = record.get("entries")
    if not isinstance(plain, list) or hashlib.sha256(_entries_text(plain)).hexdigest() != record.get("entries_sha256"):
        raise CorruptLedger(path, "has entries that fail their SHA-256")
    try:
        return decode(plain, cls)
    except (ValueError, TypeError) as exc:
        raise CorruptLedger(path, f"has invalid entries ({exc})") from None


def _prune(folder: Path, keep: int = KEEP) -> None:
    """Remove all but the ``keep`` most recently used stored ledgers of ``folder`` (only names of :func:`path_of`)."""
    try:
        files = [p for p in folder.iterdir() if _NAME.match(p.name) and p.is_file()]
        files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for p in files[keep:]:
            p.unlink(missing_ok=True)
    except OSError:  # another process pruning at the same time, or a file gone: nothing to keep consistent
        pass


# ------------------------------------------------------------------------------------ the one entry point

class Checks(Protocol):
    """What computes the ledger: every id in ledger order, and running some of them."""

    def ids(self) -> list[str]: ...

    def run(self, ids: list[str] | None, jobs: int, mutants: bool, progress: bool) -> list[CheckResult]: ...


class Registry:
    """The checks of :mod:`proofs_checks.registry` (imported when first used)."""

    def ids(self) -> list[str]:
        from .registry import claims

        return list(claims())

    def run(self, ids, jobs, mutants, progress):
        from .registry import run_all, run_claims

        if ids is None:
            return run_all(progress=progress, jobs=jobs, mutants=mutants)
        return run_claims(list(ids), progress=progress, jobs=jobs, mutants=mutants)


@dataclass(frozen=True)
class Ledger:
    """The entries a command shows, and where they came from.

    Attributes
    ----------
    entries : tuple of CheckResult
        Ledger order; the ``subset``'s only when one was given.
    origin : str
        ``stored`` (read, nothing ran), ``computed`` (the whole ledger ran, and was stored unless ``stored`` is
        None) or ``subset`` (only the subset's checks ran; nothing stored).
    key : str
    path : Path
        The stored ledger's file for ``key``.
    stored : Path or None
        The file written or read; None when nothing was (a subset, or the write failed).
    note : str
        One line for stderr: where the entries come from, a file moved aside, a write that failed.
    """

    entries: tuple[CheckResult, ...]
    origin: str
    key: str
    path: Path
    stored: Path | None
    note: str


def load_or_compute(*, mutants: bool = False, fresh: bool = False, jobs: int = 1, progress: bool = False,
                    subset: Callable[[list[str]], Sequence[str]] | None = None, folder: Path | None = None,
                    roots: Mapping[str, Path] | None = None, versions: Mapping[str, str] | None = None,
                    checks: Checks | None = None) -> Ledger:
    """The ledger from its store when current, else computed (and stored when whole).

    Parameters
    ----------
    mutants : bool
        The ledger of ``rsb verify --mutants`` (stored in its own file).
    fresh : bool
        Do not read the store: compute (and store the whole ledger).
    jobs : int
        Worker processes of a computation (the entries do not depend on it).
    progress : bool
        Progress of a computation on stderr.
    subset : callable, optional
        ids in ledger order -> the ids wanted (``rsb verify --id``, ``--proof``): taken from a current store,
        else only their checks run and nothing is stored.
    folder : Path, optional
        The store's directory (default :func:`directory`).
    roots, versions : optional
        What the key is computed from (:func:`ledger_key`); a test passes its own.
    checks : Checks, optional
        What computes (default :class:`Registry`); a test passes one that counts or refuses.

    Raises
    ------
    rsb_sim.interrupt.Interrupted
        From a computation (nothing is stored).
    """
    checks = Registry() if checks is None else checks
    folder = directory() if folder is None else Path(folder)
    versions = installed_versions() if versions is None else dict(versions)
    python = python_version()
    key = ledger_key(roots, versions, python)
    path = path_of(folder, key, mutants)
    if fresh:
        why = "--fresh"
    else:
        entries, why = _read(path, key, mutants)
        if entries is not None:
            if subset is not None:
                wanted = set(subset([e.id for e in entries]))
                entries = [e for e in entries if e.id in wanted]
            return Ledger(tuple(entries), "stored", key, path, path, f"ledger: read from {path} (current)")
    if subset is not None:
        ids = list(subset(checks.ids()))
        entries = checks.run(ids, jobs, mutants, progress) if ids else []
        return Ledger(tuple(entries), "subset", key, path, None,
                      f"ledger: ran {len(entries)} checks only ({why}; `rsb verify` computes and stores them all)")
    entries = checks.run(None, jobs, mutants, progress)
    if ledger_key(roots, versions, python) != key:  # the code changed while the checks ran: store nothing
        return Ledger(tuple(entries), "computed", key, path, None,
                      f"ledger: computed ({why}); not stored: the sources changed during the run")
    try:
        save(path, key, entries, versions, python, mutants)
    except OSError as exc:
        return Ledger(tuple(entries), "computed", key, path, None, f"ledger: computed ({why}); not stored: {exc}")
    _prune(folder)
    return Ledger(tuple(entries), "computed", key, path, path, f"ledger: computed ({why}) and stored in {path}")


def read_current(*, mutants: bool = False, folder: Path | None = None, roots: Mapping[str, Path] | None = None,
                 versions: Mapping[str, str] | None = None) -> Ledger | None:
    """The stored ledger when it is current, else None (nothing runs; a damaged file is moved aside).

    ``rsb labels`` needs only the ids: it takes them from here, or from the registry without running a check.
    """
    folder = directory() if folder is None else Path(folder)
    key = ledger_key(roots, versions)
    path = path_of(folder, key, mutants)
    entries, _why = _read(path, key, mutants)
    if entries is None:
        return None
    return Ledger(tuple(entries), "stored", key, path, path, f"ledger: read from {path} (current)")


def _read(path: Path, key: str, mutants: bool) -> tuple[list[CheckResult] | None, str]:
    """The entries stored for ``key``, or None and why not (a damaged or foreign file is moved aside)."""
    try:
        entries = load(path, key, mutants)
    except FileNotFoundError:
        return None, "no stored ledger for this code and these versions"
    except OSError as exc:  # unreadable (permission): compute, and try to store over it
        return None, f"cannot read {path}: {exc.strerror or exc}"
    except CorruptLedger as exc:
        try:
            aside = move_aside(path)
        except OSError as err:
            return None, f"{exc.reason}; could not move it aside ({err})"
        return None, f"the stored ledger {exc.reason}: moved aside to {aside}"
    try:
        os.utime(path)  # recently used: kept by _prune
    except OSError:
        pass
    return entries, ""
