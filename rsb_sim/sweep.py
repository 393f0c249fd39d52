"""Run a list of simulations in chunks of trials, skipping what is already on disk; locally or on Dask.

A *spec* is a dict ``{"algo", "dr", "params", "p", "config": {SimConfig fields}}``
(optionally ``"support"`` and ``"probs"`` for finite-support arms, or ``"arms"``, the text of
``--arms``, in place of ``"p"``: :mod:`rsb_sim.arm_laws`).

:func:`sweep` splits every spec into chunks of at most ``chunk`` trials.  A
chunk of trials [lo, hi) is simulated with ``first_trial = lo`` (the reward
table is keyed by the trial index, :mod:`rsb_sim.rewards`), so the chunks of a
spec are exactly the trials of one big run: the merged result is identical, bit
for bit, whatever the chunk size or the executor.  Each finished chunk is
written atomically (:mod:`rsb_sim.store`) to ``out/chunks/<key>/``; when all
chunks of a spec are on disk they are merged into ``out/<key>`` and removed.
Rerunning a sweep skips finished specs and finished chunks, so an interrupted
run loses at most the chunks in flight (resume with the same ``chunk``: chunks
of another size are not reused).

Executors (workers only simulate; the calling process writes every file):

* ``"local"`` -- in this process, one chunk after the other;
* ``"processes"`` -- ``jobs`` worker processes of this machine;
* ``"dask"`` -- a ``dask.distributed`` cluster: ``client`` (a ``Client``), or
  ``scheduler`` (its address, e.g. ``tcp://10.0.0.5:8786``), or else a local
  cluster started for the sweep.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import store
from .config import available_cpus

EXECUTORS = ("local", "processes", "dask")

#: Default number of trials per chunk: the paper's 1000 trials in one chunk.
#: The engine's cost is mostly per time step, shared by the trials of a chunk:
#: measured, 250-trial chunks made ``rsb reproduce regret-vs-K`` 2.5 times
#: slower (1714 s of CPU instead of about 690 s).  Smaller chunks (``chunk=``,
#: ``--chunk``) lose less work to an interruption.
DEFAULT_CHUNK = 1000


@dataclass(frozen=True)
class Chunk:
    """Trials [lo, hi) of one spec (``key`` = :func:`rsb_sim.store.key_of` of the spec)."""

    spec: dict
    key: str
    lo: int
    hi: int

    @property
    def name(self) -> str:
        return f"{self.lo:07d}-{self.hi:07d}"


def run_spec(spec: dict, lo: int = 0, hi: int | None = None, threads: int | None = None):
    """Simulate trials [lo, hi) of one spec (all trials by default); return its SimResult.

    ``threads`` (``SimConfig.threads``; changes no result) overrides the spec's when given.
    """
    from rsb_theory.distortions import resolve

    from .config import SimConfig
    from .engine import run
    from .instances import make_instance

    cfg = dict(spec["config"])
    total = int(cfg.get("trials", 1))
    hi = total if hi is None else hi
    cfg["trials"] = hi - lo
    cfg["first_trial"] = int(cfg.get("first_trial", 0)) + lo
    if threads is not None:
        cfg["threads"] = threads
    d = resolve(spec["dr"], **spec.get("params", {}))
    if "arms" in spec:  # laws of --arms (rsb_sim.arm_laws); quantize is a SimConfig field
        from rsb_theory.laws import parse_arms

        from .arm_laws import law_instance

        inst = law_instance(parse_arms(spec["arms"]), spec["algo"], int(cfg["T"]), cfg.get("quantize"))
    else:
        inst = make_instance(spec.get("p"), spec.get("support"), spec.get("probs"))
    return run(SimConfig(**cfg), inst, d, spec["algo"])


def _run_chunk(spec: dict, lo: int, hi: int, threads: int | None = None) -> tuple[dict, np.ndarray, np.ndarray]:
    """Worker side: simulate one chunk, return (summary, regrets, counts) to the caller.

    ``threads``: the local executor leaves CE-UCB-M's compiled loop all the CPUs (None); worker
    processes share them (``processes``: CPUs // jobs; ``dask``: 1, its workers run tasks side
    by side).
    """
    r = run_spec(spec, lo, hi, threads)
    return r.summary(), r.regrets, r.counts


def chunks_of(spec: dict, key: str, chunk: int) -> list[Chunk]:
    """The chunks [0, c), [c, 2c), ... of a spec's trials."""
    n = int(spec["config"].get("trials", 1))
    return [Chunk(spec, key, lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]


def merge(parts: list[tuple[dict, dict]], spec: dict) -> tuple[dict, np.ndarray, np.ndarray]:
    """Merge chunk results (in trial order) into the summary and arrays of the whole spec.

    Per-trial arrays are concatenated; mean, std (ddof = 1), mean counts and
    the trial count are recomputed; seconds and search counters are summed;
    warnings are the union in order of appearance.  Everything else (setup,
    seed entropy, versions) is the same in every chunk and taken from the first.
    """
    regrets = np.concatenate([np.asarray(a["regrets"], dtype=float) for _s, a in parts])
    counts = np.concatenate([np.asarray(a["counts"]) for _s, a in parts])
    summary = dict(parts[0][0])
    n = regrets.size
    summary["trials"] = n
    summary["config"] = dict(summary["config"], trials=n,
                             first_trial=int(spec["config"].get("first_trial", 0)))
    summary["mean_regret"] = float(regrets.mean())
    summary["std_regret"] = float(regrets.std(ddof=1)) if n > 1 else 0.0
    summary["mean_counts"] = counts.mean(axis=0).tolist()
    summary["regrets"] = regrets.tolist()
    summary["seconds"] = float(sum(s["seconds"] for s, _a in parts))
    stats: dict = {}
    for s, _a in parts:
        for k, v in s.get("stats", {}).items():
            stats[k] = stats.get(k, 0) + v if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    summary["stats"] = stats
    warnings: list = []
    for s, _a in parts:
        warnings += [w for w in s.get("warnings", []) if w not in warnings]
    summary["warnings"] = warnings
    summary["chunks"] = len(parts)
    return summary, regrets, counts


def tqdm_progress(desc: str, unit: str = "chunk"):
    """A progress wrapper for :func:`sweep` (tqdm on stderr: items done, rate, time left)."""
    import sys

    from tqdm import tqdm

    def progress(items, total=None):
        return tqdm(items, total=total, file=sys.stderr, unit=unit, desc=desc, leave=False, smoothing=0.1)

    return progress


def _chunk_dir(out: Path, key: str) -> Path:
    return out / "chunks" / key


def _finish(out: Path, spec: dict, key: str, chunks: list[Chunk]) -> None:
    """Merge the stored chunks of a spec into ``out/<key>`` (atomic) and remove them."""
    cdir = _chunk_dir(out, key)
    parts = [store.load(cdir, c.name) for c in chunks]
    summary, regrets, counts = merge(parts, spec)
    store.save_arrays(out, key, summary, regrets, counts)
    shutil.rmtree(cdir, ignore_errors=True)


def _cost(c: Chunk) -> int:
    spec = c.spec
    K = len(spec["probs"]) if "probs" in spec else len(spec.get("p", ())) or spec.get("arms", "").count(";") + 1
    return int(spec["config"].get("T", 1)) * (c.hi - c.lo) * max(K, 1)


def _check(executor: str, jobs, chunk) -> None:
    if executor not in EXECUTORS:
        raise ValueError(f"argument 'executor': expected one of {', '.join(EXECUTORS)}, got {executor!r}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"argument 'jobs': need an integer >= 1, got {jobs!r}")
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise ValueError(f"argument 'chunk': need an integer >= 1, got {chunk!r}")


def sweep(specs, out, executor: str = "local", client=None, progress=None, jobs: int = 2,
          chunk: int = DEFAULT_CHUNK, scheduler: str | None = None) -> list[str]:
    """Run the chunks not yet stored in ``out``; return the keys of all specs (in order).

    Parameters
    ----------
    specs : list of dict
    out : path-like
    executor : {"local", "processes", "dask"}
    client : dask.distributed.Client, optional
        Used with ``executor="dask"``.
    progress : callable(iterable, total=int) -> iterable, optional
        Progress bar wrapper (tqdm-like) over finished chunks.
    jobs : int
        Worker processes for ``executor="processes"`` (>= 1).
    chunk : int
        Trials per chunk (>= 1); does not change any result.
    scheduler : str, optional
        Address of a Dask scheduler (``executor="dask"`` without ``client``).

    Raises
    ------
    ValueError
        Unknown executor, jobs or chunk < 1, dask not installed, or an
        unreachable scheduler (the message names the argument).  Nothing is
        written before the arguments are checked.
    """
    _check(executor, jobs, chunk)
    if executor == "dask" and client is None and scheduler:
        _probe(scheduler)  # before anything on disk is touched
    out = Path(out)
    keys = [store.key_of(s) for s in specs]
    pending: dict[str, tuple[dict, list[Chunk]]] = {}
    for s, k in zip(specs, keys):
        if store.exists(out, k):
            if _chunk_dir(out, k).exists():  # merged, but interrupted before the chunks were removed
                shutil.rmtree(_chunk_dir(out, k), ignore_errors=True)
        elif k not in pending:
            pending[k] = (s, chunks_of(s, k, chunk))
    todo = [c for _s, cs in pending.values() for c in cs if not store.exists(_chunk_dir(out, c.key), c.name)]
    left = dict.fromkeys(pending, 0)  # chunks still to run, per spec
    for c in todo:
        left[c.key] += 1

    def stored(c: Chunk, result) -> None:
        summary, regrets, counts = result
        store.save_arrays(_chunk_dir(out, c.key), c.name, summary, regrets, counts)
        left[c.key] -= 1
        if left[c.key] == 0:
            _finish(out, pending[c.key][0], c.key, pending[c.key][1])

    for k, n in list(left.items()):  # every chunk already on disk (interrupted before the merge)
        if n == 0:
            _finish(out, pending[k][0], k, pending[k][1])

    # largest first (horizon x trials x arms, a rough proxy of the cost): with several workers the long runs
    # start early instead of last (longest-processing-time order); the order never changes a result
    todo.sort(key=lambda c: -_cost(c))

    def bar(it):
        return progress(it, total=len(todo)) if progress else it

    if not todo:
        return keys
    if executor == "local":
        for c in bar(todo):
            stored(c, _run_chunk(c.spec, c.lo, c.hi))
    elif executor == "processes":
        import concurrent.futures as cf
        import multiprocessing as mp

        with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork")) as pool:
            per_job = max(1, available_cpus() // jobs)
            futures = {pool.submit(_run_chunk, c.spec, c.lo, c.hi, per_job): c for c in todo}
            for fut in bar(cf.as_completed(futures)):
                stored(futures[fut], fut.result())  # re-raises a worker's error here
    else:
        _dask(todo, stored, bar, client, scheduler)
    return keys


def _probe(address: str, timeout: float = 5.0) -> None:
    """Fail fast (ValueError naming ``scheduler``) when a tcp:// scheduler address refuses connections."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else "tcp://" + address)
    if parts.scheme != "tcp":
        return  # tls://, ucx://, ...: left to dask
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise ValueError(f"argument 'scheduler': expected tcp://HOST:PORT, got {address!r}")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"argument 'scheduler': cannot reach the Dask scheduler at {address!r} ({exc})") from None


def _dask(todo: list[Chunk], stored, bar, client, scheduler: str | None) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:  # pragma: no cover - dask is a dependency
        raise ValueError("argument 'executor': dask is not installed (pip install \"dask[distributed]\")") from None
    own = client is None
    if own:
        try:
            client = Client(scheduler, timeout="10s") if scheduler else Client(processes=True)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"argument 'scheduler': cannot reach the Dask scheduler at {scheduler!r} ({exc})") \
                from None
    try:
        futures = {client.submit(_run_chunk, c.spec, c.lo, c.hi, 1, pure=False): c for c in todo}
        for fut in bar(as_completed(list(futures))):
            stored(futures[fut], fut.result())
    finally:
        if own:
            client.close()
