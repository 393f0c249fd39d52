"""``rsb reproduce {regret-vs-T,regret-vs-K,vs-uniform,vs-gap,vs-rho,all} --out DIR [--trials M] [--seed S]``.

Runs the paper's experiments (:mod:`proofs_checks.reproduce`) and writes their
figures, data and captions.  Every argument is checked before anything is
written: a bad one leaves no file and no directory behind.
"""

from __future__ import annotations

from rsb_sim import jsontext
import sys
from dataclasses import dataclass
from pathlib import Path

from ..outputs import check_out
from . import values

LIBRARY_FLAGS = {"scheduler": "scheduler"}


@dataclass(frozen=True)
class Request:
    experiment: str
    out: str
    trials: int | None
    seed: int | None
    sweep: dict
    format: str
    quiet: bool


def validate(args) -> Request:
    trials = None if args.trials is None else values.count(args.trials, "--trials", 1)
    seed = None if args.seed is None else values.count(args.seed, "--seed", 0)
    check_out(args.out)
    return Request(args.experiment, args.out, trials, seed, values.sweep_options(args), args.format,
                   bool(args.quiet))


def execute(req: Request) -> str:
    from rsb_sim.trajectory import spread_text

    from ..reproduce import reproduce

    show = not req.quiet and sys.stderr.isatty()
    results = reproduce(req.experiment, req.out, req.trials, req.seed, progress=show, **req.sweep)
    if req.format == "json":
        return jsontext.dumps(results, indent=1, default=str)
    lines = []
    for r in results:
        lines.append(f"{Path(r['csv']).stem}: {r['png']} {r['pdf']} {r['csv']} {r['txt']}")
        for row in r["rows"]:
            s = f" {row['series']}" if row["series"] else ""
            lines.append(f"  {row['variant']:<5} {row['algo']:<8}{s} x={row['x']:g}: mean regret "
                         f"{spread_text(row['mean_regret'], row['stderr'], row['trials'])}{' (degenerate)' if row['degenerate'] else ''}")
    return "\n".join(lines)
