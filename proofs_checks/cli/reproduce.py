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
from . import values, work

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
    sweep = values.sweep_options(args)
    _check_memory(args, args.experiment, trials, seed, sweep)
    check_out(args.out)
    return Request(args.experiment, args.out, trials, seed, sweep, args.format, bool(args.quiet))


def _check_memory(args, experiment: str, trials: int | None, seed: int | None, sweep: dict) -> None:
    """The chunk count and the memory estimate of the experiments' runs (each run a sweep of chunks on the workers),
    refused before anything is written (``--chunk``, ``--max-memory``)."""
    from rsb_sim.policies import catalog
    from rsb_theory.workload import simulate_memory

    from ..experiments import NAMES, get_experiment

    names = NAMES if experiment == "all" else (experiment,)
    chunk = sweep.get("chunk", work.SWEEP_CHUNK)
    workers = int(sweep.get("jobs") or 1)
    for name in names:
        exp = get_experiment(name)
        n = exp.trials if trials is None else trials
        runs = exp.runs(n, seed)
        worst = max((simulate_memory(r.spec["algo"], len(r.spec["p"]), int(r.spec["config"]["T"]), min(n, chunk),
                                     r.spec["config"].get("eps"), state=catalog.get(r.spec["algo"]).state,
                                     grid=catalog.get(r.spec["algo"]).grid) for r in runs), key=lambda m: m.bytes)
        from rsb_theory.workload import Memory, chunk_list_memory

        held = worst.bytes * max(1, workers)
        listed = chunk_list_memory(len(runs), n, chunk)
        what = "mostly the list of chunks (--trials / --chunk)" if listed > held else (
            worst.what if workers <= 1 else f"{worst.what}, on {workers} workers")
        work.check_memory(Memory(held + listed, what), args,
                          "fewer --trials, a larger --chunk or fewer --jobs")
        work.check_chunks(n, chunk)


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
