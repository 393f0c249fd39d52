"""Run a list of simulations, skipping those already on disk; locally or on a Dask cluster.

A *spec* is a dict ``{"algo", "dr", "params", "p", "config": {SimConfig fields}}``.
:func:`sweep` runs every spec whose result is not yet in ``out`` and stores it
with :mod:`rsb_sim.store` (atomic), so an interrupted sweep resumes where it
stopped.  With ``executor="dask"`` the specs are submitted to a
``dask.distributed.Client`` (optional dependency: ``pip install "dask[distributed]"``);
``executor="local"`` runs them in this process, one after the other.
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


def sweep(specs, out, executor: str = "local", client=None, progress=None) -> list[str]:
    """Run the specs not yet stored in ``out``; return the keys of all specs (in order).

    Parameters
    ----------
    specs : list of dict
    out : path-like
    executor : {"local", "dask"}
    client : dask.distributed.Client, optional
        Used with ``executor="dask"`` (a local client is started if None).
    """
    out = str(Path(out))
    keys = [store.key_of(s) for s in specs]
    todo = [(s, k) for s, k in zip(specs, keys) if not store.exists(out, k)]
    if executor == "local":
        for s, _k in (progress(todo) if progress else todo):
            _run_and_save(s, out)
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
        raise ValueError(f"argument 'executor': expected 'local' or 'dask', got {executor!r}")
    return keys
