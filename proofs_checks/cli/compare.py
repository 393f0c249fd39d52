"""``rsb compare --algos A,B,... (--p P | --arms TEXT) --dr H --out DIR [--Ts ...] [--trials M] [--seed S]``.

Several algorithms on one instance over several horizons, with pairwise tests
(:mod:`proofs_checks.compare`).  Every argument is checked before anything is written: a bad one
is one line naming the flag, exit status 2, no file and no directory behind.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from . import values, work
from .errors import fail

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr", "algo": "--algos", "scheduler": "scheduler"}
#: Default horizons of ``rsb compare``.
DEFAULT_TS = (1000, 3000, 10000)


@dataclass(frozen=True)
class Request:
    compare: object  # proofs_checks.compare.CompareRequest, built in execute (light here)
    fields: dict
    out: str
    sweep: dict
    format: str
    quiet: bool


def validate(args) -> Request:
    from rsb_sim import options as sim_options

    from ..outputs import check_out
    from .names import ALGORITHMS

    algos = values.choices(args.algos, "--algos", ALGORITHMS, "algorithm")
    if len(set(algos)) != len(algos):
        raise fail("--algos", "an algorithm is listed twice")
    Ts = DEFAULT_TS if args.Ts is None else values.horizons(args.Ts, "--Ts")
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    for algo in algos:
        try:
            sim_options.check_distortion(algo, dr)
        except ValueError as exc:  # the library names 'algo'; here the flag is --algos
            raise fail("--algos", str(exc).split(": ", 1)[1]) from None
    p, arms = values.means_or_arms(args)
    K = len(p) if p is not None else values.arm_count(arms)
    if min(Ts) < K:
        raise fail("--Ts", f"every horizon must be at least the number of arms K = {K}")
    trials = values.count(args.trials, "--trials", 2)
    seed = values.count(args.seed, "--seed", 0)
    rs = None
    if args.radius_scale is not None:
        rs = values.number(args.radius_scale, "--radius-scale", low=0, low_open=True)
        if not any(a in ("rs-ucb-m", "ce-ucb-m", "dr-ucb") for a in algos):  # proofs_checks.compare.PAPER_RADIUS
            raise fail("--radius-scale", "scales the paper's radius (eq:UCB_confidence_sets) of rs-ucb-m, ce-ucb-m "
                                         "and dr-ucb, and none of them is in --algos; leave it out")
    sweep = values.sweep_options(args, default_jobs=1)
    chunk = sweep.get("chunk", work.SWEEP_CHUNK)
    hint = "fewer algorithms or trials, or shorter --Ts"
    work.check(work.runs(algos, K, Ts, trials, None), args, hint)
    work.check_memory(work.runs_memory(algos, K, Ts, trials, None, chunk, int(sweep.get("jobs") or 1)), args, hint)
    work.check_chunks(trials, chunk)
    check_out(args.out)
    fields = {"algos": tuple(algos), "Ts": tuple(Ts), "trials": trials, "seed": seed, "dr": dr,
              "params": tuple(params.items()), "p": None if p is None else tuple(p), "arms": arms,
              "radius_scale": rs}
    return Request(None, fields, args.out, sweep, args.format,
                   bool(args.quiet))


def execute(req: Request) -> str:
    from ..compare import CompareRequest, compare, format_summary

    progress = None
    if not req.quiet and sys.stderr.isatty():
        from rsb_sim.sweep import tqdm_progress

        progress = tqdm_progress("rsb compare")
    res = compare(CompareRequest(**req.fields), req.out, progress, **req.sweep)
    if req.format == "json":
        from rsb_sim import jsontext

        return jsontext.dumps(res, indent=1, default=str)
    return format_summary(res)
