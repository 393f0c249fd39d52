"""``rsb bench [--quick]``: trial-steps per second of each policy, engine against the reference loop."""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    quick: bool
    format: str


def validate(args) -> Request:
    return Request(bool(args.quick), args.format)


def execute(req: Request) -> str:
    from rsb_sim.bench import bench, format_rows

    rows = bench(quick=req.quick)
    if req.format == "json":
        return jsontext.dumps([r.to_dict() for r in rows], indent=2)
    return format_rows(rows)
