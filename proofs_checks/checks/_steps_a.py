"""Shared pieces of the step checks before ``Appendix:RS-ETC-M`` (``steps_*.py``).

(A helper, not a check module: the registry skips names starting with ``_``.)

* the printed steps (:data:`proofs_checks.paper_claims.PROOF_STEPS_A`) as claims;
* the distortions a step is tried on: every registered family at the parameter values
  the paper's tables state (:func:`table_sweep`), and beyond a value the tables pin for a step
  whose hypothesis is "any concave h" (:func:`hypothesis_sweep`);
* an exact test that a piecewise expression in one variable vanishes on [0, 1]
  (:func:`zero_on_unit`);
* the smallest counterexample of a sweep (:func:`smallest`);
* mutants by status (:func:`mutants_by_status`).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory.distortions import REGISTRY, Distortion, U, breakpoints
from rsb_theory.riskmetric import P, bernoulli_cdf, wang_integral

from .. import derived, paper_claims
from ..claims import Claim
from ..ledger import CheckResult
from . import _holder as hl

_S = sp.Symbol("s_", positive=True)


def printed(ident: str) -> paper_claims.LemmaClaim:
    """The printed step ``ident`` (:func:`proofs_checks.paper_claims.proof_step_a`)."""
    return paper_claims.proof_step_a(ident)


def step_claims(ids: tuple[str, ...], check, mutants) -> list[Claim]:
    """One :class:`Claim` per printed step id."""
    return [Claim(i, printed(i), check, mutants) for i in ids]


def frozen(params: dict) -> tuple:
    return hl.frozen(params)


@lru_cache(maxsize=None)
def table_sweep(keys: tuple[str, ...] | None = None) -> tuple[tuple[str, tuple], ...]:
    """(key, frozen parameters): every registered family (or ``keys``) at the parameter values of both tables.

    The union of :func:`proofs_checks.derived.parameter_sweep` over ``table:table_regrets`` and
    ``table:table_risks``: the closed ends, interior points and default of each stated range, the pinned value
    where a table pins one (PHT s = 1/2 in Table 1, s in (0, 1) in Table 2; inter-ES alpha = 1/2).
    """
    out = []
    for key in keys or tuple(REGISTRY):
        seen = {}
        for table in ("table:table_regrets", "table:table_risks"):
            for params in derived.parameter_sweep(key, table):
                seen[frozen(params)] = None
        out += [(key, fp) for fp in sorted(seen, key=lambda fp: [float(v) for _k, v in fp])]
    return tuple(out)


@lru_cache(maxsize=None)
def hypothesis_sweep() -> tuple[tuple[str, tuple], ...]:
    """:func:`table_sweep`, and for a family the tables pin to one value (inter-ES at alpha = 1/2) the midpoint of
    its domain as well: the members a step whose hypothesis is "any concave h" is tried on."""
    out = list(table_sweep())
    for key, fam in REGISTRY.items():
        values = {fp for k, fp in table_sweep((key,))}
        if fam.parameters and len(values) == 1:
            (par,) = fam.parameters
            out.append((key, ((par.name, (par.domain.start + par.domain.end) / 2),)))
    return tuple(out)


def dist(key: str, fp: tuple) -> Distortion:
    """The registered distortion at frozen parameters (cached with the Hölder lemmas' :func:`_holder.dist`)."""
    return hl.dist(key, fp)


def tag(key: str, fp: tuple) -> str:
    return key + ("(" + ", ".join(f"{k}={v}" for k, v in fp) + ")" if fp else "")


def zero_on_unit(expr: sp.Expr, var: sp.Symbol, breaks: tuple = ()) -> bool:
    """Whether ``expr`` (piecewise in ``var``, Min/Max/Abs allowed) is identically 0 for ``var`` in [0, 1].

    Exact: ``simplify`` first; otherwise on each open interval between consecutive breakpoints (``breaks``, those of
    ``expr`` itself, 0 and 1) ``var`` is written lo + (hi - lo) s/(1 + s) with s > 0, which selects one branch of
    every piece, and each branch must simplify to 0; and at each breakpoint exactly.
    """
    e = sp.simplify(expr)
    if e == 0:
        return True
    own = tuple(b.subs(U, var) for b in breakpoints(e.subs(var, U))) if e.has(var) else ()
    pts = sorted({sp.Integer(0), sp.Integer(1)} | {sp.nsimplify(b) for b in breaks + own if 0 < b < 1}, key=float)
    for lo, hi in zip(pts, pts[1:]):
        if sp.simplify(e.subs(var, lo + (hi - lo) * _S / (1 + _S))) != 0:
            return False
    return all(sp.simplify(e.subs(var, b)) == 0 for b in pts)


def piecewise(expr: sp.Expr) -> bool:
    """Whether an expression has Min/Max/Abs/Piecewise (its identities are decided piece by piece)."""
    return expr.has(sp.Min, sp.Max, sp.Abs, sp.Piecewise)


@lru_cache(maxsize=None)
def bernoulli_matches(key: str, rhs: sp.Expr) -> tuple[bool, str, tuple | None]:
    """Whether U_h(Bern(p)) (eq:wang_def integrated by SymPy) equals ``rhs`` for every p in [0, 1].

    ``rhs`` is an expression in :data:`rsb_theory.riskmetric.P` and the family's parameter symbols.  A template
    without Min/Max is integrated once with its parameters as symbols (its whole domain at once); a piecewise one
    at each parameter value of :func:`table_sweep`, with p inside each piece of h (p = lo + (hi - lo) s/(1 + s),
    s > 0, so that every Min resolves) and at each breakpoint.

    Returns
    -------
    (holds, how, failing (params, p) or None)
    """
    fam = REGISTRY[key]
    h = fam.expression()
    if not piecewise(h) and not piecewise(rhs):
        diff = wang_integral(h, bernoulli_cdf(P)) - rhs
        if sp.simplify(diff) == 0:
            return True, "symbolic parameters" if fam.parameters else "symbolic", None
        x = next((v for v in (sp.Rational(k, 4) for k in (1, 3, 2, 0, 4)) if sp.simplify(diff.subs(P, v)) != 0),
                 sp.Rational(1, 4))
        return False, "symbolic", ((), x)
    syms = {p.name: p.symbol for p in fam.parameters}
    for _key, fp in table_sweep((key,)):
        values = {syms[n]: v for n, v in fp}
        hh, rr = h.subs(values), rhs.subs(values)
        pts = [sp.Integer(0), *sorted(set(breakpoints(hh)) | set(breakpoints(rr.subs(P, U))), key=float),
               sp.Integer(1)]
        probes = [lo + (hi - lo) * _S / (1 + _S) for lo, hi in zip(pts, pts[1:])] + pts
        for x in probes:
            if sp.simplify(wang_integral(hh, bernoulli_cdf(x)) - rr.subs(P, x)) != 0:
                return False, "per parameter value", (fp, x.subs(_S, 1))
    return True, f"per parameter value ({len(table_sweep((key,)))}), piece by piece", None


def h_of(d: Distortion, arg: sp.Expr) -> sp.Expr:
    """h(arg) as an expression."""
    return d.expr.subs(U, arg)


def smallest(cases, size):
    """The failing case of least ``size`` (a key: smaller K, coarser grid, simpler numbers first), or None."""
    return min(cases, key=size, default=None)


def simple(x: float, max_den: int = 1000) -> sp.Rational:
    """``x`` as the rational with the least denominator within 1e-12 (for readable counterexamples)."""
    return sp.nsimplify(x, tolerance=1e-12, rational=True).limit_denominator(max_den) \
        if isinstance(x, float) else sp.nsimplify(x)


def mutants_by_status(claim: Claim, result: CheckResult, sense: str, derived_text: str | None = None,
                      repair: tuple[str, object, str] | None = None) -> list[Claim]:
    """The mutants of a step by its status (:mod:`proofs_checks.mutants`).

    verified or loose: a stronger printed value (``sense`` as in :func:`proofs_checks.verdict.compare`);
    loose or refuted: the derived value ``derived_text`` (when there is one); conditional: the missing condition
    ``repair = (key, value, note)`` added.
    """
    out = hl.value_mutants(claim, result, sense, None)
    if result.status in ("loose", "refuted") and derived_text is not None:
        out.append(hl.reprint(claim, derived_text, "the derived value"))
    if result.status == "conditional" and repair is not None:
        key, value, note = repair
        out.append(claim.assuming(key, value, note))
    return out
