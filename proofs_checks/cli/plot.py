"""``rsb plot bounds --dr NAME|EXPR [--param k=v] (--p P,... | --arms SPECS) --algo NAME --out DIR [--Ts ...]``.

The theorem's bound beside the empirical regret (:mod:`proofs_checks.bound_plot`); with ``--arms``
the constants of the laws (r = q, L_MH, W) and, where the bound cannot be evaluated, the empirical
regret alone and the reason in words.
An option the algorithm does not use is an error; every argument is checked
before anything is written.
"""

from __future__ import annotations

from rsb_sim import jsontext
import sys
from dataclasses import dataclass

from ..bound_plot import DEFAULT_TRIALS, DEFAULT_TS, check_request
from ..outputs import check_out
from . import values, work
from .errors import fail, usage_error

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr", "scheduler": "scheduler"}


@dataclass(frozen=True)
class Request:
    dr: str
    params: dict
    p: tuple
    algo: str
    out: str
    Ts: tuple
    trials: int
    seed: int
    rho: float | None
    radius_scale: float | None
    explore: str | None
    sweep: dict
    format: str
    quiet: bool
    arms: str | None = None
    quantize: int | None = None


def validate(args) -> Request:
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    p, arms = values.means_or_arms(args)
    if arms is not None:
        p = (None,) * values.arm_count(arms)  # only K is read before the laws are built
        from rsb_sim.policies.catalog import get

        if get(args.algo).arms is not None:  # refused here, before --out is made (rsb_sim.setup refuses it too)
            raise fail("--algo", get(args.algo).arms_refusal + "; with --arms use ce-ucb-m")
    Ts = DEFAULT_TS if args.Ts is None else values.horizons(args.Ts, "--Ts")
    trials = DEFAULT_TRIALS if args.trials is None else values.count(args.trials, "--trials", 1)
    seed = values.count(args.seed, "--seed", 0)
    rho = None if args.rho is None else values.number(args.rho, "--rho", low=0, high=1, low_open=True,
                                                      high_open=True)
    rs = None if args.radius_scale is None else values.number(args.radius_scale, "--radius-scale", low=0)
    quantize = None
    if args.quantize is not None:
        quantize = values.count(args.quantize, "--quantize", 1)
        if arms is None:
            raise fail("--quantize", "applies to --arms only (Bernoulli arms are exact)")
    check_request(args.algo, p, Ts, trials, rho, rs, args.explore, quantize)
    _check_grids(args.algo, len(p), Ts)
    work.check(work.runs((args.algo,), len(p), Ts, trials, None), args, "fewer arms or trials, or shorter --Ts")
    sweep = values.sweep_options(args, default_jobs=1)
    work.check_chunks(trials, sweep.get("chunk", work.SWEEP_CHUNK))
    work.check_memory(work.runs_memory((args.algo,), len(p), Ts, trials, None, sweep.get("chunk", work.SWEEP_CHUNK),
                                       int(sweep.get("jobs") or 1)), args, "fewer arms or trials, or shorter --Ts")
    check_out(args.out)
    return Request(dr, params, p, args.algo, args.out, Ts, trials, seed, rho, rs, args.explore,
                   values.sweep_options(args, default_jobs=1), args.format, bool(args.quiet), arms, quantize)


def _check_grids(algo: str, K: int, Ts) -> None:
    """The experiments' eps at every horizon gives a mid-point grid (else: one line naming --Ts, not an --eps
    that ``plot`` does not have)."""
    from rsb_sim.policies.catalog import get
    from rsb_theory.workload import grid_budget

    if get(algo).grid != "ucb":  # no grid, or the ETC grid, which exists for every eps
        return
    for T in Ts:
        e = work.eps_at(None, K, T)
        if e is not None and grid_budget(K, e, "ucb") < 0:
            raise fail("--Ts", f"at T = {T} the experiments' eps = sqrt(K log T / T) = {e:.4g} is too coarse for "
                               f"the mid-point grid of K = {K} arms; use longer horizons or fewer arms")


def execute(req: Request) -> str:
    from rsb_sim.trajectory import spread_text

    from ..bound_plot import plot_bounds_command

    progress = None
    if not req.quiet and sys.stderr.isatty():
        from rsb_sim.progress import tracker

        progress = tracker("rsb plot bounds")
    if req.arms is not None:  # the laws built (SciPy's checks, the CSV files) and the exact route's work budget
        from rsb_sim.arm_laws import law_instance  # checked at the longest horizon, before anything is written

        try:
            law_instance(values.arm_laws(req.arms, "--arms"), req.algo, max(req.Ts), req.quantize)
        except ValueError as exc:
            raise usage_error(exc, LIBRARY_FLAGS) from None
    res = plot_bounds_command(req.dr, req.params, req.p, req.algo, req.out, req.Ts, req.trials, req.seed, req.rho,
                              req.radius_scale, req.explore, progress, arms=req.arms, quantize=req.quantize,
                              **req.sweep)
    if req.format == "json":
        return jsontext.dumps(res, indent=1, default=str)
    lines = [f"{res['png']} {res['pdf']} {res['csv']} {res['txt']}",
             f"derived rate (exponents of T in the regret): {res['derived']['rate']}"]
    if res.get("not_drawn"):
        lines.append(f"note: {res['not_drawn']}")
    lines += [f"warning: {w}" for w in res.get("warnings", ())]
    for r in res["rows"]:
        b = "-" if r["bound"] is None else f"{r['bound']:.3g} ({'vacuous' if r['vacuous'] else 'non-trivial'}, " \
                                           f"side {'ok' if r['side_ok'] else 'fails'})"
        lines.append(f"T={r['T']}: mean regret {spread_text(r['mean_regret'], r['stderr'], r['trials'])}; bound {b}")
    return "\n".join(lines)
