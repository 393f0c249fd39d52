"""``rsb optimize --dr NAME|EXPR [--param k=v] --p P1,... [--eps E [--grid etc|ucb]] [--method M]``.

alpha* of ``eq:optimal alpha`` from the oracle (:func:`rsb_theory.oracle.optimal_mixture_bernoulli`:
``auto`` is the exact closed form for Bernoulli arms, ``cvxpy`` and ``search``
the other two routes), its value, W, the exact maximisers of h; with ``--eps``
the discrete optimum a* of ``eq:discrete optimal mixture`` (full enumeration of
the grid), Delta(eps) and Delta_min(eps) of ``eq:discrete_gap``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from . import values, work
from .errors import fail

LIBRARY_FLAGS = {"h": "--dr", "expr": "--dr"}


@dataclass(frozen=True)
class Request:
    dr: str
    params: dict
    p: tuple
    eps: float | None
    grid: str
    method: str
    format: str


def validate(args) -> Request:
    params = values.params(args.param)
    dr = values.distortion(args.dr, "--dr", tuple(params))
    p = values.means(args.p, "--p")
    eps = None if args.eps is None else values.number(args.eps, "--eps", low=0, high=1, low_open=True)
    if args.grid is not None and eps is None:
        raise fail("--grid", "needs --eps (the grid is used only for the discrete optimum)")
    grid = args.grid or "ucb"
    work.limit(args)  # read (and refused if bad) with or without --eps
    if eps is not None:
        from rsb_theory.workload import grid_budget, optimize_work

        if grid_budget(len(p), eps, grid) >= 0:  # else the grid's own error names --eps
            work.check(optimize_work(len(p), eps, grid), args, "a coarser --eps or fewer arms")
    return Request(dr, params, p, eps, grid, args.method or "auto", args.format)


def optimize_report(dr: str, params: dict[str, str], p, eps: float | None, grid: str, method: str = "auto") -> dict:
    """The dictionary behind ``rsb optimize`` (keys: the ARCHITECTURE.md contract)."""
    import numpy as np

    from rsb_theory.discretization import discrete_optimum
    from rsb_theory.oracle import W_bernoulli
    from rsb_theory.distortions import resolve
    from rsb_theory.holder import optimal_means
    from rsb_theory.oracle import NotDCPError, optimal_mixture_bernoulli

    d = resolve(dr, **params)
    arr = np.asarray(p, dtype=float)
    tops = optimal_means(d, float(arr.min()), float(arr.max()))
    try:
        oracle = optimal_mixture_bernoulli(d, arr, method)
    except NotDCPError as exc:
        raise ValueError(f"{exc} (--method cvxpy needs a DCP-concave h; use --method auto or search)") from None
    except RuntimeError as exc:  # the solver failed: not a usage error, but say which option led there
        raise fail("--method", f"{method} failed: {exc}") from None
    out = {
        "dr": dr, "h": str(d.expr), "params": {k: str(v) for k, v in d.params}, "p": list(p),
        "alpha_star": list(oracle.alpha), "value": oracle.value, "method": oracle.method,
        "certified": oracle.certified, "gap": oracle.gap, "evidence": oracle.evidence,
        "optimal_means": [str(t) for t in tops], "W": W_bernoulli(arr),
    }
    if eps is None:
        return out
    opt = discrete_optimum(d, arr, eps, grid)
    out.update({"eps": eps, "grid": grid, "a_star": opt.a_star.tolist(), "Delta": opt.Delta,
                "Delta_min": opt.Delta_min, "n_optimal": opt.n_optimal, "grid_size": opt.grid_size})
    if opt.n_optimal > 1:
        out["note"] = (f"{opt.n_optimal} grid points are optimal: the literal a != a* reading of eq:discrete_gap "
                       f"gives 0; Delta_min is the gap to the best non-optimal point")
    return out


def execute(req: Request) -> str:
    report = optimize_report(req.dr, req.params, req.p, req.eps, req.grid, req.method)
    if req.format == "json":
        return json.dumps(report, indent=2)
    width = max(len(k) for k in report)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in report.items())
