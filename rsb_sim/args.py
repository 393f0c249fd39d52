"""Parsers for command-line values, shared by every ``rsb`` subcommand.

Each raises ``ValueError`` whose message names the flag
(``argument '--trials': ...``); the ``rsb`` entry point prints it as one line
and exits with status 2.
"""

from __future__ import annotations

import math

__all__ = ["parse_int", "parse_float", "parse_params", "parse_means", "parse_instances", "add_sweep_options",
           "parse_sweep_options"]


def parse_int(text, name: str, minimum: int = 0, optional: bool = False) -> int | None:
    """An integer >= ``minimum`` written as text ("1000", "1e3"); None passes through when ``optional``."""
    if text is None and optional:
        return None
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"argument '--{name}': not a number: {text!r}") from None
    if not math.isfinite(v) or v != int(v) or v < minimum:
        raise ValueError(f"argument '--{name}': need an integer >= {minimum}, got {text!r}")
    return int(v)


def parse_float(text, name: str) -> float:
    """A finite float."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"argument '--{name}': not a number: {text!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"argument '--{name}': must be finite, got {text!r}")
    return v


def parse_params(items) -> dict[str, str]:
    """``--param k=v`` items (repeatable) as a dict of strings."""
    out = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"argument '--param': expected k=v, got {item!r}")
        k, v = item.split("=", 1)
        if not k.strip().isidentifier():
            raise ValueError(f"argument '--param': bad name {k!r}")
        out[k.strip()] = v.strip()
    return out


def parse_means(text, name: str = "p") -> tuple[float, ...]:
    """At least two comma-separated Bernoulli means in [0, 1]."""
    if text is None:
        raise ValueError(f"argument '--{name}': required (Bernoulli means, comma-separated)")
    try:
        vals = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"argument '--{name}': expected comma-separated numbers, got {text!r}") from None
    if len(vals) < 2:
        raise ValueError(f"argument '--{name}': need at least two arms, got {text!r}")
    bad = [v for v in vals if not (math.isfinite(v) and 0.0 <= v <= 1.0)]
    if bad:
        raise ValueError(f"argument '--{name}': Bernoulli means must lie in [0, 1], got {bad[0]}")
    return vals


def parse_instances(text, name: str = "p") -> list[tuple[float, ...]]:
    """Several instances separated by ';', each as in :func:`parse_means`."""
    if text is None:
        raise ValueError(f"argument '--{name}': required")
    return [parse_means(chunk, name) for chunk in text.split(";")]


def add_sweep_options(parser, default_jobs: str = "the number of CPUs") -> None:
    """Register ``--jobs``, ``--scheduler`` and ``--chunk`` (how a sweep runs, never what it computes)."""
    parser.add_argument("--jobs", default=None, help=f"local worker processes (default: {default_jobs})")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on the Dask cluster of this scheduler (e.g. tcp://10.0.0.5:8786) instead of "
                             "local processes; workers return results, files are written here")
    parser.add_argument("--chunk", default=None,
                        help="trials per stored chunk (default 1000); an interrupted run loses at most the "
                             "chunks in flight; does not change any result")


def parse_sweep_options(args, default_jobs: int | None = None) -> dict:
    """Keyword arguments of :func:`rsb_sim.sweep.sweep` from the options of :func:`add_sweep_options`.

    ``--scheduler`` selects the Dask executor (``--jobs`` is then refused);
    otherwise ``--jobs`` worker processes (default ``default_jobs``, or the
    number of CPUs), in-process when it is 1.
    """
    import os

    from .sweep import DEFAULT_CHUNK

    jobs = parse_int(args.jobs, "jobs", 1, optional=True)
    chunk = parse_int(args.chunk, "chunk", 1, optional=True)
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    if args.scheduler is not None:
        if jobs is not None:
            raise ValueError("argument '--jobs': not with --scheduler (the cluster decides the workers)")
        addr = str(args.scheduler).strip()
        if not addr or any(c.isspace() for c in addr):
            raise ValueError(f"argument '--scheduler': expected an address such as tcp://HOST:8786, got "
                             f"{args.scheduler!r}")
        return {"executor": "dask", "scheduler": addr, "chunk": chunk}
    if jobs is None:
        jobs = default_jobs if default_jobs is not None else (os.cpu_count() or 1)
    return {"executor": "processes" if jobs > 1 else "local", "jobs": jobs, "chunk": chunk}
