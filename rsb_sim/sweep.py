"""Run a list of simulations in chunks of trials, skipping what is already on disk; locally or on Dask.

A *spec* is a dict ``{"algo", "dr", "params", "p", "config": {SimConfig fields}}``
(optionally ``"support"`` and ``"probs"`` for finite-support arms, or ``"arms"``, the text of
``--arms``, in place of ``"p"``: :mod:`rsb_sim.arm_laws`).  The key of a spec covers the content of
the files its empirical arms read; the workers check they read the same bytes
(:func:`rsb_sim.store.with_file_digests`).

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

What a long run meets (``docs/longruns.md``):

* **SIGINT/SIGTERM** (inside :func:`rsb_sim.interrupt.stop_on_signals`): worker
  processes are killed at once, the chunks on disk stay, and the
  :class:`~rsb_sim.interrupt.Interrupted` exception carries in ``kept`` what they are;
* **a file that fails its check** (:func:`rsb_sim.store.check`: cut short, altered,
  written under another key, or by an rsb without checksums) is named in one warning
  line, moved to ``out/corrupt/`` and recomputed;
* **a second run on the same directory** waits for the first up to ``wait`` seconds,
  then stops (:class:`rsb_sim.dirlock.DirectoryBusy`): ``out`` is held for the whole sweep;
* **a write that fails** (full disk, permission) raises
  :class:`rsb_sim.files.WriteError` naming the file; no partial file is left;
* **a worker that dies** (killed from outside; on Dask: a chunk whose workers died
  more often than the scheduler's ``allowed-failures``, or tasks the cluster dropped)
  raises :class:`rsb_sim.workers.WorkerLost`; a Dask worker that dies fewer times has
  its chunk rerun by another, with the same numbers.

Executors (workers only simulate; the calling process writes every file):

* ``"local"`` -- one worker process, one chunk after the other (a worker can be
  stopped at once, even inside compiled code; this process cannot);
* ``"processes"`` -- ``jobs`` worker processes of this machine
  (:func:`rsb_sim.workers.worker_pool`);
* ``"dask"`` -- a ``dask.distributed`` cluster: ``client`` (a ``Client``), or
  ``scheduler`` (its address, e.g. ``tcp://10.0.0.5:8786``), or else a local
  cluster started for the sweep.  A worker that dies mid-chunk has its chunk
  recomputed by another (Dask retries it); the result is the same, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rsb_theory.safe_files import no_link, own_dir

from . import store
from .config import available_cpus
from .dirlock import hold, to_stderr
from .files import remove_empty_dir, remove_temporaries, remove_tree
from .interrupt import deferred, kept
from .trajectory import mean_ci, trajectory_points
from .workers import WorkerLost, worker_pool
from rsb_theory.errors import ArgumentError

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

    ``spec["record"]`` (optional): the steps of a trajectory (:func:`rsb_sim.engine.run`'s ``record``).

    ``threads`` (``SimConfig.threads``; changes no result) overrides the spec's when given.
    ``spec["arm_files"]`` (set by :func:`sweep`, :func:`rsb_sim.store.with_file_digests`): the files of
    empirical arms must still have these SHA-256 digests (ValueError naming ``arms`` otherwise).
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

        store.check_file_digests(spec)  # the files a sweep keyed its result by (rsb_sim.store.with_file_digests)

        inst = law_instance(parse_arms(spec["arms"]), spec["algo"], int(cfg["T"]), cfg.get("quantize"))
    else:
        inst = make_instance(spec.get("p"), spec.get("support"), spec.get("probs"))
    return run(SimConfig(**cfg), inst, d, spec["algo"], record=spec.get("record"))


def _run_chunk(spec: dict, lo: int, hi: int, threads: int | None = None) -> tuple[dict, np.ndarray, np.ndarray]:
    """Worker side: simulate one chunk, return (summary, regrets, counts) to the caller.

    ``threads``: the local executor leaves CE-UCB-M's compiled loop all the CPUs (None); worker
    processes share them (``processes``: CPUs // jobs; ``dask``: 1, its workers run tasks side
    by side).
    """
    r = run_spec(spec, lo, hi, threads)
    return r.summary(), r.regrets, r.counts


def _before_fork(specs) -> None:
    """Import the engine and derive each distortion of ``specs`` here, before the workers are forked.

    The workers inherit both (modules, and the cache of :func:`rsb_theory.distortions.resolve`: seconds
    of SymPy per distortion) instead of each doing it again; later sweeps of this process reuse them.
    """
    from rsb_theory.distortions import resolve

    from . import engine  # noqa: F401  (imported for the workers)

    for dr, params in dict.fromkeys((s["dr"], tuple(sorted(s.get("params", {}).items()))) for s in specs):
        resolve(dr, **dict(params))


def simulate_specs(specs, progress=None) -> list[tuple[dict, np.ndarray, np.ndarray]]:
    """(summary, regrets, counts) of each spec, simulated in one worker process; nothing is stored.

    The worker is killed at once by SIGINT/SIGTERM (:mod:`rsb_sim.workers`), even inside compiled code.
    ``progress`` wraps the specs as they run (tqdm-like).
    """
    specs = list(specs)
    _before_fork(specs)
    with worker_pool(1) as pool:
        return [pool.result(pool.submit(_run_chunk, s, 0, None)) for s in (progress(specs, total=len(specs))
                                                                             if progress else specs)]


def chunks_of(spec: dict, key: str, chunk: int) -> list[Chunk]:
    """The chunks [0, c), [c, 2c), ... of a spec's trials."""
    n = int(spec["config"].get("trials", 1))
    return [Chunk(spec, key, lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]


def merge(parts: list[tuple[dict, dict]], spec: dict) -> tuple[dict, np.ndarray, np.ndarray]:
    """Merge chunk results (in trial order) into the summary and arrays of the whole spec.

    Per-trial arrays are concatenated; mean, std (ddof = 1), the interval of the
    mean, mean counts and the trial count are recomputed; seconds and search counters are summed;
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
    if "ci_low" in summary:  # the interval of the mean regret, over every trial (not the first chunk's)
        summary["ci_low"], summary["ci_high"] = mean_ci(regrets)
    summary["mean_counts"] = counts.mean(axis=0).tolist()
    summary["regrets"] = regrets.tolist()
    if "trajectory" in summary:  # the one run's trajectory, from every trial's regrets at the recorded steps
        traj = np.concatenate([np.asarray(s["trajectory_regrets"], dtype=float) for s, _a in parts], axis=1)
        summary["trajectory"] = [dict(p) for p in trajectory_points(traj, [p["t"] for p in summary["trajectory"]])]
        summary["trajectory_regrets"] = traj.tolist()
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


def _chunk_dir(out: Path, key: str) -> Path:
    return out / "chunks" / key


def _finish(out: Path, spec: dict, key: str, chunks: list[Chunk]) -> None:
    """Merge the stored chunks of a spec into ``out/<key>`` (atomic) and remove them."""
    cdir = _chunk_dir(out, key)
    parts = [store.load(cdir, c.name) for c in chunks]
    summary, regrets, counts = merge(parts, spec)
    store.save_arrays(out, key, summary, regrets, counts)
    remove_tree(cdir)  # through the held directory's descriptor: no link followed (rsb_sim.files)
    remove_empty_dir(cdir.parent)  # out/chunks, once no run has chunks left


def _cost(c: Chunk) -> int:
    spec = c.spec
    K = len(spec["probs"]) if "probs" in spec else len(spec.get("p", ())) or spec.get("arms", "").count(";") + 1
    return int(spec["config"].get("T", 1)) * (c.hi - c.lo) * max(K, 1)


def _check(executor: str, jobs, chunk, wait) -> None:
    if executor not in EXECUTORS:
        raise ArgumentError("executor", f"expected one of {', '.join(EXECUTORS)}, got {executor!r}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ArgumentError("jobs", f"need an integer >= 1, got {jobs!r}")
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise ArgumentError("chunk", f"need an integer >= 1, got {chunk!r}")
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not wait >= 0:
        raise ArgumentError("wait", f"need a number of seconds >= 0, got {wait!r}")


#: Stored files of a result (what :func:`rsb_sim.files.remove_temporaries` may clear).
_STORED = ("*.json", "*.npz")


def _usable(directory: Path, key: str, notify) -> bool:
    """Whether the result ``key`` in ``directory`` is stored and passes its check; a failing one is set aside."""
    reason = store.check(directory, key)
    if reason is None:
        return True
    if reason != "missing":
        moved = store.set_aside(directory, key)
        where = f"moved to {moved[0].parent}/" if moved else "removed"
        notify(f"warning: {reason}; {where}, recomputing it")
    return False


class _Progress:
    """What the sweep has on disk, per spec (for the words of :attr:`Interrupted.kept`)."""

    def __init__(self, out: Path, keys: list[str]) -> None:
        self.out = out
        self.keys = list(dict.fromkeys(keys))
        self.complete: set[str] = set()
        self.chunks: dict[str, int] = {}  # pending spec -> chunks stored
        self.total: dict[str, int] = {}  # pending spec -> its chunks

    def words(self) -> str:
        """``3 of 5 runs complete and 7 finished chunks (of 20) of the 2 unfinished ones, in DIR``."""
        n, runs = len(self.complete), len(self.keys)
        text = f"{n} of {runs} run{'s' if runs != 1 else ''} complete"
        unfinished = [k for k in self.chunks if k not in self.complete]
        m = sum(self.chunks[k] for k in unfinished)
        if m:
            which = "the unfinished one" if len(unfinished) == 1 else f"the {len(unfinished)} unfinished ones"
            text += (f" and {m} finished chunk{'s' if m != 1 else ''} (of {sum(self.total[k] for k in unfinished)})"
                     f" of {which}")
        return f"{text}, in {self.out}"


def sweep(specs, out, executor: str = "local", client=None, progress=None, jobs: int = 2,
          chunk: int = DEFAULT_CHUNK, scheduler: str | None = None, wait: float = 0.0, notify=None) -> list[str]:
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
    wait : float
        Seconds to wait when another run holds ``out`` (:func:`rsb_sim.dirlock.hold`); changes no result.
    notify : callable(str), optional
        Told, one line each, of a stored file that failed its check (moved aside and
        recomputed) and of waiting for ``out``; default :func:`to_stderr`.

    Raises
    ------
    ValueError
        Unknown executor, jobs or chunk < 1, wait < 0, dask not installed, or an
        unreachable scheduler (the message names the argument).  Nothing is
        written before the arguments are checked.
    rsb_sim.dirlock.DirectoryBusy
        Another run holds ``out`` after ``wait`` seconds.
    rsb_sim.files.WriteError
        A file could not be written (``kept`` says what is on disk).
    rsb_sim.interrupt.Interrupted
        SIGINT/SIGTERM (``kept`` says what is on disk; workers are killed).
    rsb_sim.workers.WorkerLost
        A worker died under the run (``kept`` says what is on disk).
    """
    _check(executor, jobs, chunk, wait)
    if executor == "dask" and client is None and scheduler:
        _probe(scheduler)  # before anything on disk is touched
    out = Path(out)
    notify = to_stderr if notify is None else notify
    specs = [store.with_file_digests(s) for s in specs]  # the bytes of empirical arms' files, checked on the workers
    keys = [store.key_of(s) for s in specs]
    with hold(out, wait, notify):
        done = _Progress(out, keys)
        with kept(done.words):
            try:
                _sweep_held(specs, keys, out, executor, client, progress, jobs, chunk, scheduler, notify, done)
            except BaseException:
                # stopped (a signal, a failed write): the directory is still held, so no temporary file here is
                # anyone else's; what a write cut short left behind goes now, not at the next run
                with deferred():
                    try:
                        _clear_temporaries(out)
                    except OSError:  # an unsafe or vanished entry: the next run clears under its own checks
                        pass
                raise
    return keys


def _clear_temporaries(out: Path) -> None:
    """Remove the temporary files of atomic writes under ``out`` and its chunk directories (never through a link)."""
    remove_temporaries(out, _STORED)
    chunks = out / "chunks"
    if no_link(chunks) and chunks.is_dir():
        for cdir in sorted(chunks.iterdir()):
            if cdir.is_dir() and no_link(cdir):
                remove_temporaries(cdir, _STORED)


def _sweep_held(specs, keys, out: Path, executor, client, progress, jobs, chunk, scheduler, notify,
                done: _Progress) -> None:
    """The body of :func:`sweep`, with ``out`` held."""
    no_link(out / "chunks")  # below the held directory no link is followed (rsb_theory.safe_files)
    remove_temporaries(out, _STORED)  # of a killed run: nothing reads them, and no one else writes here now
    pending: dict[str, tuple[dict, list[Chunk]]] = {}
    for s, k in zip(specs, keys):
        if k in done.complete or k in pending:
            continue
        if _usable(out, k, notify):
            done.complete.add(k)
            if no_link(_chunk_dir(out, k)):  # merged, but interrupted before the chunks were removed
                remove_tree(_chunk_dir(out, k))
        else:
            pending[k] = (s, chunks_of(s, k, chunk))
    todo = []
    for k, (_s, cs) in pending.items():
        cdir = _chunk_dir(out, k)
        if no_link(cdir):
            remove_temporaries(cdir, _STORED)
        missing = [c for c in cs if not (no_link(cdir) and _usable(cdir, c.name, notify))]
        done.chunks[k] = len(cs) - len(missing)
        done.total[k] = len(cs)
        todo += missing
    left = {k: len(cs) - done.chunks[k] for k, (_s, cs) in pending.items()}  # chunks still to run, per spec

    def finish(k: str) -> None:
        _finish(out, pending[k][0], k, pending[k][1])
        done.complete.add(k)

    def stored(c: Chunk, result) -> None:
        summary, regrets, counts = result
        store.save_arrays(own_dir(out, "chunks", c.key), c.name, summary, regrets, counts)
        done.chunks[c.key] += 1
        left[c.key] -= 1
        if left[c.key] == 0:
            finish(c.key)

    for k, n in list(left.items()):  # every chunk already on disk (interrupted before the merge)
        if n == 0:
            finish(k)

    # largest first (horizon x trials x arms, a rough proxy of the cost): with several workers the long runs
    # start early instead of last (longest-processing-time order); the order never changes a result
    todo.sort(key=lambda c: -_cost(c))

    def bar(it):
        return progress(it, total=len(todo)) if progress else it

    if not todo:
        return
    if executor == "dask":
        _dask(todo, stored, bar, client, scheduler)
        return
    # "local" is one worker process too: a compiled loop cannot run a signal handler until it returns, a
    # process can be killed at any time; the chunks run one after the other, with every CPU (threads=None)
    _before_fork(c.spec for c in todo)
    n = 1 if executor == "local" else jobs
    per_job = None if executor == "local" else max(1, available_cpus() // jobs)
    with worker_pool(n) as pool:  # left by an exception (Ctrl-C, a failed write): workers are killed at once
        if n == 1:  # in order, one at a time (the progress wrapper sees each chunk before it runs)
            for c in bar(todo):
                stored(c, pool.result(pool.submit(_run_chunk, c.spec, c.lo, c.hi, per_job)))
        else:
            futures = {pool.submit(_run_chunk, c.spec, c.lo, c.hi, per_job): c for c in todo}
            for fut in bar(pool.as_completed(futures)):
                stored(futures[fut], pool.result(fut))  # re-raises a worker's error here


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
        raise ArgumentError("scheduler", f"expected tcp://HOST:PORT, got {address!r}")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise ArgumentError("scheduler", f"cannot reach the Dask scheduler at {address!r} ({exc})") from None


def _dask(todo: list[Chunk], stored, bar, client, scheduler: str | None) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:  # the optional extra rsb[dask]
        raise ArgumentError("executor", "dask is not installed (pip install \"rsb[dask]\")") from None
    own = client is None
    if own:
        try:
            client = Client(scheduler, timeout="10s") if scheduler else Client(processes=True, dashboard_address=None)
        except (OSError, TimeoutError) as exc:
            raise ArgumentError("scheduler", f"cannot reach the Dask scheduler at {scheduler!r} ({exc})") \
                from None
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    futures: dict = {}
    try:
        for c in todo:
            futures[client.submit(_run_chunk, c.spec, c.lo, c.hi, 1, pure=False)] = c
        for fut in bar(as_completed(list(futures))):
            try:
                result = fut.result()
            except KilledWorker as exc:  # its workers died allowed-failures (3) times: not the run's fault to retry
                raise WorkerLost(f"Dask gave up on chunk {futures[fut].name} of run {futures[fut].key}: "
                                 f"{str(exc).splitlines()[0]}") from None
            except FutureCancelledError as exc:  # the scheduler went away (or cancelled it)
                raise WorkerLost(f"the Dask cluster dropped chunk {futures[fut].name} of run {futures[fut].key} "
                                 f"({exc})") from None
            stored(futures[fut], result)
    except BaseException:
        # Ctrl-C or an error: what has not started is dropped; a chunk running on a worker finishes
        # there (Dask cannot stop a running task) and its result is discarded.  rsb says what happened in one
        # line: a callback that Dask's own synchronous call left pending when the signal arrived may fail later
        # in its event loop, and its logged traceback is not rsb's to print (the process is ending).
        import logging

        for name in ("tornado.application", "tornado.general", "distributed", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        if futures:
            client.cancel(list(futures))
        raise
    finally:
        if own:
            client.close()
