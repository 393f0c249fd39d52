"""``rsb compare --algos A,B,... (--p P | --arms TEXT) --dr H --out DIR [--Ts ...] [--trials M] [--seed S]
[--radius-scale X | --tune [--tune-grid G] [--tune-trials N] [--tune-instances P;P]] [--label TEXT]``.

Several algorithms on one instance over several horizons, with paired tests (:mod:`proofs_checks.compare`).
Every argument is checked before anything is written: a bad one is one line naming the flag, exit status 2,
no file and no directory behind.  The degenerate-constant warnings of the runs are printed to the standard
error, as ``rsb simulate`` prints them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from rsb_theory.errors import ArgumentError

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
        except ArgumentError as exc:  # the library names 'algo'; here the flag is --algos
            raise fail("--algos", exc.message) from None
    p, arms = values.means_or_arms(args)
    K = len(p) if p is not None else values.arm_count(arms)
    if min(Ts) < K:
        raise fail("--Ts", f"every horizon must be at least the number of arms K = {K}")
    trials = values.count(args.trials, "--trials", 2)
    seed = values.count(args.seed, "--seed", 0)
    if len(Ts) >= (1 << 20):  # proofs_checks.exploration.TUNE_STREAM: the streams from there on are the tuning's
        raise fail("--Ts", "too many horizons")
    rs = None
    scaled = [a for a in algos if "radius_scale" in sim_options.READS[a]]
    if args.radius_scale is not None:
        rs = values.number(args.radius_scale, "--radius-scale", low=0, low_open=True)
        if not scaled:
            raise fail("--radius-scale", "multiplies the default exploration constant of the algorithms that read "
                                         "it (" + ", ".join(a for a in ALGORITHMS if "radius_scale" in
                                                            sim_options.READS[a]) + "), and none of them is in "
                                         "--algos; leave it out")
    tune = _tuning(args, algos, rs)
    for q in tune.get("tune_instances", ()):
        if len(q) > min(Ts):
            raise fail("--tune-instances", f"an instance has K = {len(q)} arms, more than the smallest horizon "
                                           f"T = {min(Ts)}")
    label = None
    if args.label is not None:
        label = str(args.label).strip()
        if not label or len(label) > 200 or not label.isprintable():
            raise fail("--label", "need a title of 1 to 200 printable characters on one line")
    sweep = values.sweep_options(args, default_jobs=1)
    chunk = sweep.get("chunk", work.SWEEP_CHUNK)
    hint = "fewer algorithms or trials, or shorter --Ts"
    jobs = int(sweep.get("jobs") or 1)
    estimate = work.runs(algos, K, Ts, trials, None)
    if tune:  # the tuning runs come first: every tuned algorithm x horizon x multiplier x tuning instance
        from ..exploration import exploration_constant

        tuned = [a for a in algos if exploration_constant(a)]
        repeat = len(tune["tune_grid"]) * (1 + len(tune["tune_instances"]))
        K_tune = max([K, *(len(q) for q in tune["tune_instances"])])
        tune_trials = tune["tune_trials"] or trials
        one = work.runs(tuned, K_tune, Ts, tune_trials, None)
        estimate = work.total([estimate, work.Estimate(one.points, one.work * repeat)])
        tune_hint = "fewer multipliers (--tune-grid), tuning instances or --tune-trials"
        work.check(estimate, args, tune_hint)
        work.check_memory(work.runs_memory(tuned, K_tune, Ts, tune_trials, None, chunk, jobs, repeat), args,
                          tune_hint)
        work.check_chunks(tune_trials, chunk)
    work.check(estimate, args, hint)
    work.check_memory(work.runs_memory(algos, K, Ts, trials, None, chunk, jobs), args, hint)
    work.check_chunks(trials, chunk)
    check_out(args.out)
    fields = {"algos": tuple(algos), "Ts": tuple(Ts), "trials": trials, "seed": seed, "dr": dr,
              "params": tuple(params.items()), "p": None if p is None else tuple(p), "arms": arms,
              "radius_scale": rs, "label": label, **tune}
    return Request(None, fields, args.out, sweep, args.format,
                   bool(args.quiet))


def _tuning(args, algos, rs) -> dict:
    """The fields of ``--tune`` and its options (each refused without ``--tune``, naming itself)."""
    given = {"--tune-grid": args.tune_grid, "--tune-trials": args.tune_trials,
             "--tune-instances": args.tune_instances}
    if not args.tune:
        for flag, v in given.items():
            if v is not None:
                raise fail(flag, "only with --tune (it sets how the exploration constants are tuned)")
        return {}
    if rs is not None:
        raise fail("--radius-scale", "not with --tune: --tune chooses each algorithm's multiplier itself")
    from ..exploration import DEFAULT_TUNE_GRID, exploration_constant

    if not any(exploration_constant(a) for a in algos):
        raise fail("--tune", f"none of {', '.join(algos)} has an exploration constant to tune; leave --tune out")
    grid = DEFAULT_TUNE_GRID
    if args.tune_grid is not None:
        grid = values.numbers(args.tune_grid, "--tune-grid")
        if any(not g > 0 for g in grid) or len(set(grid)) != len(grid) or len(grid) < 2:
            raise fail("--tune-grid", "need at least two distinct positive multipliers, comma-separated "
                                      "(e.g. --tune-grid 1e-3,1e-2,1e-1,1,10)")
        grid = tuple(sorted(grid))
    tune_trials = None if args.tune_trials is None else values.count(args.tune_trials, "--tune-trials", 2)
    insts = () if args.tune_instances is None else tuple(values.instances(args.tune_instances, "--tune-instances"))
    return {"tune": True, "tune_grid": grid, "tune_trials": tune_trials, "tune_instances": insts}


def execute(req: Request) -> str:
    from ..compare import CompareRequest, compare, dumps, format_summary

    progress = None
    if not req.quiet and sys.stderr.isatty():
        from rsb_sim.progress import tracker

        progress = tracker("rsb compare")
    res = compare(CompareRequest(**req.fields), req.out, progress, **req.sweep)
    for where, ws in res["warnings"].items():
        for w in ws:
            print(f"rsb compare: warning: {where}: {w}", file=sys.stderr)
    if req.format == "json":
        return dumps(res)
    return format_summary(res)
