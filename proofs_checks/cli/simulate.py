"""``rsb simulate --algo NAME --dr NAME|EXPR (--p P1,... | --support X --probs ROWS) --T N [...]``.

Regret per trial (``eq:regret``) of one policy.  Every constant the paper fixes
is a flag whose default is the paper's formula; a flag that the chosen algorithm
does not use is an error (:mod:`rsb_sim.options`).  ``--explore`` is
the forced exploration in pulls *per arm* (a count or an expression in T and K,
rounded up); ``--eps`` may be an expression in T and K.  ``--record T1,T2,...`` adds the
regret at those steps of the same run (``trajectory``, :mod:`rsb_sim.trajectory`); ``--out DIR``
writes the run as ``simulate.json`` (the JSON output), ``trials.csv`` (one row per trial: its
final regret and pull counts) and, with ``--record``, ``trajectory.csv`` and its figure
``trajectory.png``/``.pdf``, atomically, after every argument is checked.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from rsb_sim import options as sim_options
from . import values
from ..outputs import check_out
from .errors import fail

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr"}

#: Keys of the table output (the JSON output has every key of ``SimResult.summary``).
TABLE_KEYS = ("algo", "distortion", "T", "trials", "mean_regret", "std_regret", "ci_low", "ci_high", "v_star",
              "alpha_star", "eps", "explore_per_arm", "mean_counts", "seconds", "seed_entropy")
#: Columns of ``trajectory.csv`` (the keys of a trajectory point).
TRAJECTORY_COLUMNS = ("t", "mean_regret", "ci_low", "ci_high")


@dataclass(frozen=True)
class Request:
    algo: str
    dr: str
    params: dict
    p: tuple | None
    support: tuple | None
    probs: tuple | None
    config: dict = field(repr=False)
    format: str = "table"
    quiet: bool = False
    notes: tuple = ()
    record: tuple | None = None
    out: str | None = None


def _instance(args) -> tuple[tuple | None, tuple | None, tuple | None, list[str]]:
    """(p, support, probs, notes): Bernoulli means from --p, or finite-support arms from --support/--probs."""
    if args.support is not None or args.probs is not None:
        if args.p is not None:
            raise fail("--p", "give either --p (Bernoulli) or --support/--probs, not both")
        support, probs, notes = values.finite_arms(args.support, args.probs)
        return None, support, probs, notes
    if args.p is None:
        raise fail("--p", "required: Bernoulli means, comma-separated (e.g. --p 0.4,0.9), or --support and --probs")
    return values.means(args.p, "--p"), None, None, []


def validate(args) -> Request:
    algo = args.algo
    p, support, probs, notes = _instance(args)
    K = len(p) if p is not None else len(probs)
    T = values.count(args.T, "--T", 1)
    if T < K:
        raise fail("--T", f"the horizon T = {T} is smaller than the number of arms K = {K}")
    at = {"T": T, "K": K}
    given = [n for n in ("eps", "rho", "radius_scale", "explore", "threads") if getattr(args, n) is not None]
    sim_options.check_applies(algo, given)  # names the option; main() maps it to the flag
    config = {"T": T, "trials": values.count(args.trials, "--trials", 1), "seed": values.count(args.seed, "--seed", 0)}
    if args.eps is not None:
        config["eps"] = values.number(args.eps, "--eps", at, low=0, high=1, low_open=True)
    if args.rho is not None:
        config["rho"] = values.number(args.rho, "--rho", low=0, high=1, low_open=True, high_open=True)
    if args.radius_scale is not None:
        config["radius_scale"] = values.number(args.radius_scale, "--radius-scale", low=0)
    if args.explore is not None:
        config["explore"] = values.count(args.explore, "--explore", 1, at, rounding="ceil")
    if args.threads is not None:
        config["threads"] = values.count(args.threads, "--threads", 1)
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    record = None if args.record is None else _record(args.record, at)
    if args.out is not None:
        check_out(args.out)
    return Request(algo, dr, params, p, support, probs, config, args.format, bool(args.quiet), tuple(notes),
                   record, args.out)


def _record(text, at: dict) -> tuple[int, ...]:
    """The steps of ``--record``: counts or expressions in T and K (rounded up), each in 1..T."""
    items = values.split_top(str(text), ",")
    if not items:
        raise fail("--record", "expected comma-separated steps (e.g. --record 1000,T/2)")
    steps = tuple(values.count(item, "--record", 1, at, rounding="ceil") for item in items)
    late = [t for t in steps if t > at["T"]]
    if late:
        raise fail("--record", f"the step {late[0]} is after the horizon T = {at['T']}")
    return steps


def execute(req: Request) -> str:
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import make_instance
    from rsb_theory.distortions import resolve

    for note in req.notes:
        print(f"rsb simulate: note: {note}", file=sys.stderr)
    instance = make_instance(req.p, req.support, req.probs)
    d = resolve(req.dr, **req.params)
    progress = None
    if not req.quiet and sys.stderr.isatty():
        from tqdm import tqdm

        def bar(total):
            return tqdm(total=total, file=sys.stderr, unit="step", leave=False)

        progress = bar
    res = run(SimConfig(**req.config), instance, d, req.algo, progress=progress, record=req.record)
    for w in res.warnings:
        print(f"rsb simulate: warning: {w}", file=sys.stderr)
    out = res.summary()
    if req.out is not None:
        for path in write_run(req.out, res, out):
            print(f"rsb simulate: wrote {path}", file=sys.stderr)
    if req.format == "json":
        return json.dumps(out, indent=2)
    width = max(len(k) for k in TABLE_KEYS)
    lines = [f"{k:<{width}}  {out[k]}" for k in TABLE_KEYS]
    for pt in out.get("trajectory", ()):
        ci = "" if pt["ci_low"] is None else f"  (95% CI {pt['ci_low']:.4g} .. {pt['ci_high']:.4g})"
        lines.append(f"{'t = ' + str(pt['t']):<{width}}  {pt['mean_regret']:.6g}{ci}")
    return "\n".join(lines)


def write_run(out_dir, res, summary: dict) -> list:
    """``simulate.json``, ``trials.csv`` and (with a trajectory) ``trajectory.csv`` in ``out_dir``; their paths.

    ``trials.csv``: one row per trial k of the reward table (0-based, ``SimConfig.first_trial`` + local
    index) with its final regret (``eq:regret``) and pull counts ``tau_1..tau_K`` (arms numbered 1..K).
    """
    from pathlib import Path

    from ..outputs import csv_text, write_text

    out_dir = Path(out_dir)
    header = {k: v for k, v in summary.items() if k not in ("regrets", "trajectory")}
    K = res.counts.shape[1]
    first = res.config.first_trial
    cols = ("trial", "regret") + tuple(f"tau_{i + 1}" for i in range(K))
    rows = [{"trial": first + k, "regret": float(r), **{f"tau_{i + 1}": int(c) for i, c in enumerate(cnt)}}
            for k, (r, cnt) in enumerate(zip(res.regrets, res.counts))]
    paths = [out_dir / "simulate.json", out_dir / "trials.csv"]
    write_text(paths[0], json.dumps(summary, indent=2) + "\n")
    write_text(paths[1], csv_text(rows, cols, header))
    if "trajectory" in summary:
        from ..figures import trajectory_figure
        from ..outputs import save_figure

        paths += [out_dir / f"trajectory.{ext}" for ext in ("csv", "png", "pdf")]
        write_text(paths[2], csv_text(summary["trajectory"], TRAJECTORY_COLUMNS, header))
        title = f"{summary['algo']}, {summary['distortion']}, T = {summary['T']}, {summary['trials']} trials"
        save_figure(trajectory_figure([summary], title), paths[3], paths[4])
    return paths
