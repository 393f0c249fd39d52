"""``rsb optimize --dr NAME|EXPR [--param k=v] (--p P1,... | --arms SPECS) [--eps E [--grid etc|ucb]] [--method M]``.

With ``--arms`` (any laws, ``docs/arms.md``): alpha* from :func:`rsb_theory.oracle.optimal_mixture_laws`
with its route and certificate, ``value`` = V(alpha*), ``arm_values`` = U_h of each arm alone, W, and
with ``--eps`` the discrete quantities by enumeration (:mod:`rsb_theory.laws.discrete`).

alpha* of ``eq:optimal alpha`` from the oracle (:func:`rsb_theory.oracle.optimal_mixture_bernoulli`:
``auto`` is the exact closed form for Bernoulli arms, ``cvxpy`` and ``search``
the other two routes), its value, W, the exact maximisers of h; with ``--eps``
the discrete optimum a* of ``eq:discrete optimal mixture`` (full enumeration of
the grid), Delta(eps) and Delta_min(eps) of ``eq:discrete_gap``.
"""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass


from . import values, work
from .errors import fail

#: Run ``execute`` in a worker process (proofs_checks.cli.app): SciPy, CVXPY and SymPy calls do not look at signals.
IN_WORKER = True
LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr"}


@dataclass(frozen=True)
class Request:
    dr: str
    params: dict
    p: tuple | None
    eps: float | None
    grid: str
    method: str
    format: str
    arms: str | None = None
    finite: tuple | None = None  # (support, probs) of --support/--probs
    notes: tuple = ()
    max_memory: int | None = None


def validate(args) -> Request:
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    finite, notes = None, ()
    if args.support is not None or args.probs is not None:  # finite laws, as rsb simulate reads them
        if args.p is not None or args.arms is not None:
            raise fail("--support", "give one of --p, --arms or --support/--probs")
        support, probs, notes = values.finite_arms(args.support, args.probs)
        finite, p, arms = (support, probs), None, None
    else:
        p, arms = values.means_or_arms(args)
    if finite is not None and args.method == "closed_form" and len(finite[0]) != 2:
        raise fail("--method", "closed_form is the route of two-point arms; use auto, cvxpy or search")
    eps = None if args.eps is None else values.number(args.eps, "--eps", low=0, high=1, low_open=True)
    if args.grid is not None and eps is None:
        raise fail("--grid", "needs --eps (the grid is used only for the discrete optimum)")
    if arms is not None and args.method == "closed_form":
        raise fail("--method", "closed_form is the route of Bernoulli (two-point) arms; with --arms use auto, "
                               "cvxpy or search")
    grid = args.grid or "ucb"
    work.limit(args)  # read (and refused if bad) with or without --eps
    memory = work.memory_limit(args)
    if eps is not None:
        from rsb_theory.workload import grid_budget, optimize_memory, optimize_work

        K = len(p) if p is not None else len(finite[1]) if finite is not None else values.arm_count(arms)
        if grid_budget(K, eps, grid) >= 0:  # else the grid's own error names --eps
            work.check(optimize_work(K, eps, grid), args, "a coarser --eps or fewer arms")
            work.check_memory(optimize_memory(K, eps, grid), args, "a coarser --eps or fewer arms")
    return Request(dr, params, p, eps, grid, args.method or "auto", args.format, arms, finite, tuple(notes), memory)


def execute(req: Request) -> str:
    from ..instance_reports import optimize_laws_report, optimize_report

    if req.finite is not None:
        import sys

        from rsb_theory.laws.build import finite_laws

        for note in req.notes:
            print(f"rsb optimize: note: {note}", file=sys.stderr)
        report = optimize_laws_report(req.dr, req.params, finite_laws(*req.finite, flag="--probs"), req.eps,
                                      req.grid, req.method, req.max_memory)
    elif req.arms is not None:
        report = optimize_laws_report(req.dr, req.params, values.arm_laws(req.arms), req.eps, req.grid, req.method,
                                      req.max_memory)
    else:
        report = optimize_report(req.dr, req.params, req.p, req.eps, req.grid, req.method)
    if req.format == "json":
        return jsontext.dumps(report, indent=2)
    width = max(len(k) for k in report)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in report.items())
