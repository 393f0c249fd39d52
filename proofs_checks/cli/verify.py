"""``rsb verify [--format json|md|table] [--jobs N] [--mutants]``: the claims ledger."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from . import values


@dataclass(frozen=True)
class Request:
    format: str
    jobs: int | None
    mutants: bool


def validate(args) -> Request:
    jobs = None if args.jobs is None else values.count(args.jobs, "--jobs", 1)
    return Request(args.format, jobs, bool(args.mutants))


def _table(results) -> str:
    width = max(len(r.id) for r in results)
    lines = [f"{'id':<{width}}  {'status':<11}  {'method':<9}  paper -> derived"]
    for r in results:
        lines.append(f"{r.id:<{width}}  {r.status:<11}  {r.method:<9}  {r.paper} -> {r.derived}")
    return "\n".join(lines)


def execute(req: Request) -> str:
    import os

    from ..ledger import to_json, to_markdown
    from ..registry import run_all

    jobs = min(os.cpu_count() or 1, 4) if req.jobs is None else req.jobs
    results = run_all(progress=sys.stderr.isatty(), jobs=jobs, mutants=req.mutants)
    if req.format == "json":
        return to_json(results)
    if req.format == "md":
        return to_markdown(results).rstrip("\n")
    return _table(results)
