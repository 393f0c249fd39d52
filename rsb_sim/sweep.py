"""Run a list of simulations, skipping those already on disk; locally or on a Dask cluster.

A *spec* is a dict ``{"algo", "dr", "params", "p", "config": {SimConfig fields}}``.
:func:`sweep` runs every spec whose result is not yet in ``out`` and stores it
with :mod:`rsb_sim.store` (atomic), so an interrupted sweep resumes where it
stopped.  With ``executor="dask"`` the specs are submitted to a
``dask.distributed.Client`` (optional dependency: ``pip install "dask[distributed]"``);
``executor="processes"`` runs them on ``jobs`` worker processes of this machine;
``executor="local"`` runs them in this process, one after the other.  Every
run has its own seed in its spec, so the executor never changes a result.
"""

from __future__ import annotations

from pathlib import Path

from . import store


def run_spec(spec: dict):
    """Run one spec and return its SimResult."""
    from rsb_theory.distortions import resolve

    from .config import SimConfig
    from .engine import run
    from .instances import BernoulliInstance

    d = resolve(spec["dr"], **spec.get("params", {}))
    return run(SimConfig(**spec["config"]), BernoulliInstance(tuple(spec["p"])), d, spec["algo"])


def _run_and_save(spec: dict, out: str) -> str:
    key = store.key_of(spec)
    store.save(out, key, run_spec(spec))
    return key


def sweep(specs, out, executor: str = "local", client=None, progress=None, jobs: int = 2) -> list[str]:
    """Run the specs not yet stored in ``out``; return the keys of all specs (in order).

    Parameters
    ----------
    specs : list of dict
    out : path-like
    executor : {"local", "processes", "dask"}
    client : dask.distributed.Client, optional
        Used with ``executor="dask"`` (a local client is started if None).
    progress : callable(iterable) -> iterable, optional
        Progress bar wrapper (tqdm-like).
    jobs : int
        Worker processes for ``executor="processes"`` (>= 1).
    """
    out = str(Path(out))
    keys = [store.key_of(s) for s in specs]
    todo = [(s, k) for s, k in zip(specs, keys) if not store.exists(out, k)]
    if executor == "local":
        for s, _k in (progress(todo) if progress else todo):
            _run_and_save(s, out)
    elif executor == "processes":
        if not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"argument 'jobs': need an integer >= 1, got {jobs!r}")
        import concurrent.futures as cf
        import multiprocessing as mp

        with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork")) as pool:
            futures = [pool.submit(_run_and_save, s, out) for s, _k in todo]
            done = cf.as_completed(futures)
            for fut in (progress(done) if progress else done):
                fut.result()  # re-raise a worker's error here
    elif executor == "dask":
        try:
            from dask.distributed import Client
        except ImportError:
            raise ValueError("argument 'executor': dask is not installed (pip install \"dask[distributed]\")") from None
        own = client is None
        client = client or Client(processes=True)
        try:
            futures = [client.submit(_run_and_save, s, out, pure=False) for s, _k in todo]
            client.gather(futures)
        finally:
            if own:
                client.close()
    else:
        raise ValueError(f"argument 'executor': expected 'local', 'processes' or 'dask', got {executor!r}")
    return keys
