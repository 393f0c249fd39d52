"""``rsb slopes [--dr NAMES --p "P;P" --algo NAMES --Ts T1,T2,... --trials M ...]``.

Per (distortion, algorithm, instance): the slope of log(mean regret) against
log T with a bootstrap interval beside the derived slope of the theorem's bound
(:mod:`proofs_checks.slopes`); every exponent printed is the exponent of T in
the regret.  An override (``--eps``, ``--rho``, ``--radius-scale``,
``--explore``) is passed to the algorithms of ``--algo`` that use it and is an
error when none of them does; each result lists the overrides it ran with.
"""

from __future__ import annotations

from rsb_sim import jsontext
import sys
from dataclasses import dataclass

from rsb_sim import options as sim_options
from ..slopes import DEFAULT_CACHE, DEFAULT_TS, SlopeRequest
from rsb_theory.workload import total

from . import values, work
from .errors import fail, usage_error
from .names import ALGORITHMS

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr", "n_boot": "--bootstrap", "scheduler": "scheduler"}
_OVERRIDES = ("eps", "rho", "radius_scale", "explore", "quantize")


@dataclass(frozen=True)
class Request:
    requests: tuple
    out: str | None
    sweep: dict
    format: str
    quiet: bool


def _overrides(args) -> dict:
    """The overrides given, as SlopeRequest fields (eps and explore stay text: they depend on T and K)."""
    given = {}
    if args.eps is not None:
        given["eps"] = args.eps
    if args.rho is not None:
        given["rho"] = values.number(args.rho, "--rho", low=0, high=1, low_open=True, high_open=True)
    if args.radius_scale is not None:
        given["radius_scale"] = values.number(args.radius_scale, "--radius-scale", low=0)
    if args.explore is not None:
        given["explore"] = args.explore
    if args.quantize is not None:
        given["quantize"] = values.count(args.quantize, "--quantize", 1)
    return given


def validate(args) -> Request:
    algos = values.choices(args.algo, "--algo", ALGORITHMS, "algorithm")
    Ts = DEFAULT_TS if args.Ts is None else values.horizons(args.Ts, "--Ts")
    params = values.params(args.param)
    drs = [values.distortion(dr, "--dr", tuple(params)) for dr in values.split_top(args.dr, ",")]
    if not drs:
        raise fail("--dr", "expected one or more distortions, comma-separated (e.g. --dr gini,cvar)")
    if args.arms is not None:
        if args.p is not None:
            raise fail("--arms", "give either --p (Bernoulli means) or --arms (laws), not both")
        instances = [()]
        arms = values.arms(args.arms, "--arms")
    else:
        instances = values.instances("0.4,0.9" if args.p is None else args.p, "--p")
        arms = None
    trials = values.count(args.trials, "--trials", 2)
    seed = values.count(args.seed, "--seed", 0)
    n_boot = values.count(args.bootstrap, "--bootstrap", 10)
    tol = values.number(args.tol, "--tol", low=0)
    given = _overrides(args)
    for name in given:  # an override that no chosen algorithm uses is an error; otherwise it goes where it applies
        if all(name in sim_options.unused(a, given) for a in algos):
            sim_options.check_applies(algos[0], [name] + (["explore"] if name == "rho" and "explore" in given else []))
    if args.no_cache and args.out is not None:
        raise fail("--out", "has no effect with --no-cache")
    sweep = values.sweep_options(args, default_jobs=1, used=not args.no_cache)
    requests = []
    for dr in drs:
        for p in instances:
            for algo in algos:
                mine = {k: v for k, v in given.items() if k not in sim_options.unused(algo, given)}
                try:
                    requests.append(SlopeRequest(dr=dr, params=tuple(params.items()), p=p, algo=algo, Ts=Ts,
                                                 trials=trials, seed=seed, n_boot=n_boot, tol=tol, arms=arms, **mine))
                except ValueError as exc:  # eps or explore not valid at some horizon of this instance
                    raise usage_error(exc, LIBRARY_FLAGS) from None
    work.check(total(work.runs((r.algo,), len(r.p) if r.p is not None else values.arm_count(r.arms), r.Ts, r.trials, r.eps) for r in requests), args,
               "a coarser --eps, fewer arms, instances or trials, or shorter --Ts")
    chunk = None if args.no_cache else sweep.get("chunk", work.SWEEP_CHUNK)  # --no-cache: every trial at once
    if chunk is not None:
        work.check_chunks(trials, chunk)
    from rsb_theory.workload import bootstrap_memory

    work.check_memory(bootstrap_memory(n_boot, trials, len(requests[0].Ts) if requests else 0), args,
                      "fewer --bootstrap replicates or --trials")
    for r in requests:
        work.check_memory(work.runs_memory((r.algo,), len(r.p) if r.p is not None else values.arm_count(r.arms), r.Ts,
                                           r.trials, r.eps, chunk, int(sweep.get("jobs") or 1)), args,
                          "fewer trials, or shorter --Ts")
    out = None if args.no_cache else (DEFAULT_CACHE if args.out is None else args.out)
    if out is not None:
        from ..outputs import check_out

        check_out(out)  # before any work: a dangling link, a system directory, a planted lock are refused
    return Request(tuple(requests), out, sweep, args.format, bool(args.quiet))


def execute(req: Request) -> str:
    from ..slopes import format_table, measure

    progress = None
    if not req.quiet and sys.stderr.isatty():
        from rsb_sim.progress import tracker

        progress = tracker("rsb slopes")
    results = [measure(r, req.out, progress, **req.sweep) for r in req.requests]
    for r in results:
        if r.degenerate:
            print(f"rsb slopes: warning: {r.dr} {r.algo} p={list(r.p)} is degenerate with these constants "
                  f"(slope of a degenerate algorithm); see 'notes'", file=sys.stderr)
    if req.format == "json":
        return jsontext.dumps([r.to_dict() for r in results], indent=2)
    return format_table(results)
