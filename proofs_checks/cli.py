"""The ``rsb`` command line (contract: ARCHITECTURE.md).

Commands implemented here:

* ``rsb verify [--format json|md|table] [--jobs N] [--mutants]`` — the claims ledger;
* ``rsb derive --h EXPR|NAME [--param k=v ...] [--p P1,P2,...] [--format json]``
  — closed form, q, L_H and, with an instance, r, L_MH, alpha*, beta and the
  rate exponents of theorem:RS-ETC-M and corollary:RS-UCB-M;
* ``rsb optimize --dr NAME [--param k=v] --p P1,... [--eps E --grid etc|ucb]
  [--format json]`` — alpha* (``eq:optimal alpha``), its value, W, and with
  ``--eps`` the discrete optimum a*, Delta(eps), Delta_min(eps), the number of
  optimal grid points and the grid size (Bernoulli arms; the discrete part is
  an exact enumeration of the grid).

Bad input exits with status 2 and a message naming the argument; nothing is
written to stdout in that case.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
import sympy as sp

from rsb_sim.args import parse_means, parse_params
from rsb_theory import rates
from rsb_theory.discretization import W_bernoulli, discrete_optimum
from rsb_theory.grids import GRID_KINDS
from rsb_theory.holder import optimal_means
from rsb_theory.distortions import REGISTRY, DistortionError, resolve
from rsb_theory.holder import HolderError, holder
from rsb_theory.profile import instance_profile
from rsb_theory.riskmetric import bernoulli_closed_form

from .ledger import to_json, to_markdown
from .registry import run_all


class UsageError(ValueError):
    """Bad command-line input; the message names the argument."""


def _parse_params(items: list[str] | None) -> dict[str, str]:
    try:
        return parse_params(items)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _parse_p(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        return list(parse_means(text))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _table(results) -> str:
    width = max(len(r.id) for r in results)
    lines = [f"{'id':<{width}}  {'status':<11}  {'method':<9}  paper -> derived"]
    for r in results:
        lines.append(f"{r.id:<{width}}  {r.status:<11}  {r.method:<9}  {r.paper} -> {r.derived}")
    return "\n".join(lines)


def cmd_verify(args) -> str:
    import os

    from rsb_sim.args import parse_int

    jobs = parse_int(args.jobs, "jobs", 1, optional=True)
    jobs = min(os.cpu_count() or 1, 4) if jobs is None else jobs
    results = run_all(progress=sys.stderr.isatty(), jobs=jobs, mutants=args.mutants)
    if args.format == "json":
        return to_json(results)
    if args.format == "md":
        return to_markdown(results).rstrip("\n")
    return _table(results)


def _num(x) -> float | str:
    x = sp.sympify(x)
    if x == sp.oo:
        return "oo"
    return float(x) if x.is_number else str(x)


def derive_report(h: str, params: dict[str, str], p: list[float] | None) -> dict:
    """The dictionary behind ``rsb derive`` (JSON keys are stable)."""
    d = resolve(h, **params)
    fam = holder(d, (0, 1))
    out = {
        "h": str(d.expr),
        "name": d.key,
        "params": {k: str(v) for k, v in d.params},
        "validation": {"h0": d.validation.method_h0, "range": d.validation.method_range},
        "monotone": d.shape.monotone,
        "curvature": d.shape.curvature,
        "bernoulli_closed_form": str(bernoulli_closed_form(d)),
        "q": str(fam.q),
        "L_H": _num(fam.L_exact) if fam.L_exact is not None else fam.L_H,
        "L_H_method": fam.L_method,
        "holder_evidence": fam.evidence(),
    }
    if p is None:
        return out
    ip = instance_profile(d, p)
    mix = ip.mixture
    tr = ip.rates
    out.update({
        "p": list(ip.p),
        "q_instance": str(ip.holder_instance.q),
        "L_H_instance": ip.holder_instance.L_H,
        "r": str(mix.r),
        "L_MH": mix.L_MH,
        "L_MH_method": mix.L_method,
        "r_evidence": mix.evidence(),
        "p_star": _num(mix.p_star),
        "solitary": mix.solitary,
        "alpha_star": list(ip.alpha_star),
        "value": ip.value,
        "beta": str(ip.beta_analytic.beta) if ip.beta_analytic.applies else None,
        "beta_analytic": ip.beta_analytic.reason,
        "beta_estimate": None if ip.beta_numeric is None else {
            "fit": ip.beta_numeric.beta_fit, "slope_min": ip.beta_numeric.slope_min,
            "slope_max": ip.beta_numeric.slope_max, "converged": ip.beta_numeric.converged,
            "n_ties": ip.beta_numeric.n_ties, "evidence": ip.beta_numeric.evidence(),
        },
        "theorem:RS-ETC-M": {"exponent": str(tr.etc_exponent), "argument": tr.etc_argument,
                             "rate": rates.format_varpi(tr.etc_exponent, tr.etc_argument)},
        "corollary:RS-UCB-M": {"exponent": str(tr.ucb_exponent), "rate": rates.format_varpi(tr.ucb_exponent),
                               "condition": str(tr.ucb_condition)},
    })
    return out


def cmd_derive(args) -> str:
    report = derive_report(args.h, _parse_params(args.param), _parse_p(args.p))
    if args.format == "json":
        return json.dumps(report, indent=2)
    width = max(len(k) for k in report)
    lines = []
    for k, v in report.items():
        if isinstance(v, dict):
            v = "; ".join(f"{a}={b}" for a, b in v.items())
        lines.append(f"{k:<{width}}  {v}")
    return "\n".join(lines)


def optimize_report(dr: str, params: dict[str, str], p: list[float], eps: float | None, grid: str,
                    method: str = "auto") -> dict:
    """The dictionary behind ``rsb optimize`` (keys: the ARCHITECTURE.md contract).

    ``alpha_star``, ``value``, ``method``, ``evidence``, ``gap`` and
    ``certified`` come from the oracle of ``eq:optimal alpha``
    (:func:`rsb_theory.oracle.optimal_mixture_bernoulli`; ``auto`` is the exact
    closed form for Bernoulli arms, ``cvxpy`` and ``search`` are the other two
    routes); ``optimal_means`` are the exact maximisers of h on [min p, max p];
    ``W`` is exact (:func:`rsb_theory.oracle.W_bernoulli`).  With ``eps`` the
    discrete optimum a* of ``eq:discrete optimal mixture`` (full enumeration
    of the grid), ``Delta`` = V(alpha*) - V(a*) with the exact V(alpha*),
    ``Delta_min`` of ``eq:discrete_gap``, ``n_optimal`` and ``grid_size``.
    ``dr`` is a registry name or an expression in u.
    """
    from rsb_theory.oracle import METHODS, NotDCPError, optimal_mixture_bernoulli

    if method not in METHODS:
        raise UsageError(f"argument '--method': unknown method {method!r}; known: {', '.join(METHODS)}")
    try:
        d = resolve(dr, **params)
    except DistortionError as exc:
        raise UsageError(str(exc).replace("argument 'h'", "argument '--dr'", 1)) from None
    arr = np.asarray(p, dtype=float)
    tops = optimal_means(d, float(arr.min()), float(arr.max()))
    try:
        oracle = optimal_mixture_bernoulli(d, arr, method)
    except NotDCPError as exc:
        msg = str(exc).replace("argument 'h'", "argument '--dr'", 1).replace("argument 'expr'", "argument '--dr'", 1)
        raise UsageError(f"{msg} (--method cvxpy needs a DCP-concave h; use --method auto or search)") from None
    except RuntimeError as exc:  # the solver failed: not a usage error, but say which option led there
        raise UsageError(f"argument '--method': {method} failed: {exc}") from None
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


def _parse_eps(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        eps = float(text)
    except ValueError:
        raise UsageError(f"argument '--eps': not a number: {text!r}") from None
    if not (math.isfinite(eps) and 0 < eps <= 1):
        raise UsageError(f"argument '--eps': need 0 < eps <= 1, got {text}")
    return eps


def cmd_optimize(args) -> str:
    p = _parse_p(args.p)
    if p is None:
        raise UsageError("argument '--p': required")
    if args.grid not in GRID_KINDS:
        raise UsageError(f"argument '--grid': unknown grid {args.grid!r}; known: {', '.join(GRID_KINDS)}")
    report = optimize_report(args.dr, _parse_params(args.param), p, _parse_eps(args.eps), args.grid,
                             getattr(args, "method", "auto"))
    if args.format == "json":
        return json.dumps(report, indent=2)
    width = max(len(k) for k in report)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in report.items())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rsb", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("verify", help="the claims ledger")
    v.add_argument("--format", choices=("json", "md", "table"), default="table")
    v.add_argument("--jobs", default=None,
                   help="worker processes (default: the number of CPUs, at most 4); does not change the ledger")
    v.add_argument("--mutants", action="store_true",
                   help="also run every check on altered claims; JSON entries gain 'mutants' and 'mutant_caught'")
    v.set_defaults(func=cmd_verify)
    d = sub.add_parser("derive", help="derive q, L, r, beta and rates for a distortion h")
    d.add_argument("--h", required=True, help=f"an expression in u, or one of: {', '.join(REGISTRY)}")
    d.add_argument("--param", action="append", metavar="K=V", help="parameter value (repeatable)")
    d.add_argument("--p", help="Bernoulli means, comma-separated (e.g. 0.4,0.9)")
    d.add_argument("--format", choices=("json", "table"), default="table")
    d.set_defaults(func=cmd_derive)
    o = sub.add_parser("optimize", help="optimal mixture alpha*, discrete optimum, Delta, Delta_min, W")
    o.add_argument("--dr", required=True, help=f"an expression in u, or one of: {', '.join(REGISTRY)}")
    o.add_argument("--param", action="append", metavar="K=V", help="parameter value (repeatable)")
    o.add_argument("--p", required=True, help="Bernoulli means, comma-separated")
    o.add_argument("--eps", help="discretisation level, 0 < eps <= 1")
    o.add_argument("--grid", default="ucb", help=f"one of: {', '.join(GRID_KINDS)} (default ucb)")
    o.add_argument("--method", default="auto", help="oracle route: auto, closed_form, cvxpy or search")
    o.add_argument("--format", choices=("json", "table"), default="table")
    o.set_defaults(func=cmd_optimize)
    from rsb_sim.cli import add_commands as add_sim_commands  # rsb simulate, rsb bench

    add_sim_commands(sub)
    from .slopes import add_command as add_slopes_command  # rsb slopes

    add_slopes_command(sub)
    from .plots import add_command as add_plot_command  # rsb plot bounds
    from .reproduce import add_command as add_reproduce_command  # rsb reproduce

    add_reproduce_command(sub)
    add_plot_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rsb`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        text = args.func(args)
    except (UsageError, DistortionError, HolderError, ValueError) as exc:
        print(f"rsb {args.command}: error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
