"""This work's rows of ``table:literature_comparison`` (RS-ETC-M, RS-UCB-M), derived from the theorems' statements.

Both rows are general formulas in (q, r, kappa).  They are not compared with a
re-typed copy of themselves: each is re-derived from the eps-dependent
theorems by ``rsb_theory.rates``.

* RS-ETC-M (the table's footnote: the optimum is a solitary arm):
  ``theorem: ETC upper bound`` at a fixed eps.  A solitary optimum is a vertex,
  which lies on ``eq:etc_discrete_set`` for every eps, so Delta(eps) = 0 and
  Delta_min(eps) does not depend on T; N(eps) = O(log T) and the bound's
  discrete term is read in powers of varpi (:func:`rsb_theory.rates.varpi_form`).
  Without the footnote the optimum may be a mixture, the eps-independent
  ``theorem:RS-ETC-M`` applies and the rate is varpi(T^gamma)^(qr/beta).
* RS-UCB-M: ``corollary:RS-UCB-M``'s proof (:func:`rsb_theory.rates.derive_ucb_exponents`):
  at its eps the two terms of ``theorem:UCB upper bound`` + ``lemma:Delta_error``
  decay as (log T/T)^(r kappa) and (log T/T)^((1 - kappa) q/2); the regret is the
  slower, varpi^(2 min(r kappa, (1 - kappa) q/2)), which is varpi^(2 r kappa)
  exactly when r <= beta + q/2 (``condition_equivalent``) — a hypothesis of the
  corollary that the table's row does not state.

Where a printed exponent is neither the derived one nor obviously comparable, it
is compared at a grid of exact values of (q, r, beta) (:data:`GRID`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import sympy as sp

from rsb_theory import rates

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide, worst

LABEL = "table:literature_comparison"
COLUMNS = ("rs_etc_m", "rs_ucb_m")
#: The hypothesis of corollary:RS-UCB-M that the RS-UCB-M row omits.
UCB_CONDITION = "r <= beta + q/2"
#: Exact values of (q, r, beta) at which two exponents are compared when they are not identical.
GRID = tuple(product((sp.Rational(1, 4), sp.Rational(1, 2), sp.Integer(1)),
                     (sp.Rational(1, 2), sp.Integer(1), sp.Integer(2)),
                     (sp.Rational(1, 2), sp.Integer(1), sp.Integer(2), sp.Integer(4))))


@dataclass(frozen=True)
class Row:
    """A row of this work in ``table:literature_comparison``: the printed rate and what the row assumes."""

    column: str
    rate: str
    assumes: tuple[str, ...]


@lru_cache(maxsize=1)
def _ucb_derivation():
    return rates.derive_ucb_exponents()


def _weaker_on_grid(printed: sp.Expr, derived_e: sp.Expr, ok=lambda q, r, b: True) -> tuple[bool, bool]:
    """(printed <= derived at every grid point satisfying ``ok``, strictly below at one)."""
    holds, strict = True, False
    for q, r, b in GRID:
        if not ok(q, r, b):
            continue
        subs = {rates.q: q, rates.r: r, rates.beta: b, rates.kappa_sym: rates.kappa(q, r, b)}
        gap = sp.nsimplify(sp.sympify(derived_e).subs(subs) - sp.sympify(printed).subs(subs))
        holds &= bool(gap >= 0)
        strict |= bool(gap > 0)
    return holds, strict


def _etc(row: Row, printed_e, printed_arg) -> tuple[str, str, str]:
    if "solitary" in row.assumes:
        got, arg = rates.varpi_form(rates.etc_bound_eps().discrete_regret)
        why = ("theorem: ETC upper bound with a solitary optimum (the table's footnote): the optimal vertex is on "
               "eq:etc_discrete_set for every eps, so Delta(eps) = 0 and Delta_min(eps) does not depend on T; N(eps) = "
               f"O(log T), M(eps) = O(1), and the bound's discrete term is varpi^({got})")
    else:
        got, arg = rates.varpi_form(rates.etc_rate(), gamma_value=rates.gamma_E())
        why = ("without the footnote the optimum may be a mixture; then Delta(eps) > 0 for a fixed eps and "
               f"theorem:RS-ETC-M (eps chosen with T) gives varpi({arg})^({got}) when beta exists")
    if arg != printed_arg:
        status = decide(holds=False, repair=None if "solitary" in row.assumes else "the optimum is a solitary arm")
        return status, rates.format_varpi(got, arg), why + f"; the printed argument is {printed_arg}, not {arg}"
    cmp = rates.same_rate(printed_e, got, rates.q, rates.r)
    if cmp:
        return decide(holds=True), rates.format_varpi(got, arg), why + "; printed minus derived exponent = 0"
    holds, strict = _weaker_on_grid(printed_e, got)
    return (decide(holds=holds, sharper=strict), rates.format_varpi(got, arg),
            why + f"; printed minus derived exponent = {cmp.difference}")


def _ucb(row: Row, given: tuple, printed_e, printed_arg) -> tuple[str, str, str]:
    ud = _ucb_derivation()
    slowest = 2 * ud.delta_decay  # the slower term when r <= beta + q/2 (ud.condition_equivalent)
    general = 2 * sp.Min(ud.delta_decay, ud.discrete_decay)
    stated = UCB_CONDITION in row.assumes or UCB_CONDITION in given
    why = (f"corollary:RS-UCB-M's proof: at eps = (K^(2/q) log T/T)^kappa the Delta(eps) term decays as "
           f"(log T/T)^({ud.delta_decay}) and the discrete term as (log T/T)^({ud.discrete_decay}); the regret is "
           f"the slower, varpi^(2 min(...)); discrete - Delta decay = {ud.difference_factorisation} "
           f"(>= 0 iff {UCB_CONDITION}: {ud.condition_equivalent})")
    if printed_arg != "T":
        return decide(holds=False), rates.format_varpi(slowest), why + f"; printed argument {printed_arg}, not T"
    cond = (lambda q, r, b: r <= b + q / 2)
    if rates.same_rate(printed_e, slowest, rates.q, rates.r):
        if stated or not ud.condition_equivalent:
            return decide(holds=ud.condition_equivalent), rates.format_varpi(slowest), why + (
                f"; with {UCB_CONDITION} stated the printed exponent is the derived one")
        return (decide(holds=False, repair=UCB_CONDITION), rates.format_varpi(general),
                why + f"; the printed varpi^(2 r kappa) is the rate only when {UCB_CONDITION}, which the row does "
                "not state (the corollary does)")
    holds, strict = _weaker_on_grid(printed_e, slowest if stated else general, cond if stated else (lambda *a: True))
    status = decide(holds=holds, sharper=strict)
    if not holds and not stated:
        holds_c, _ = _weaker_on_grid(printed_e, slowest, cond)
        status = worst(status, decide(holds=False, repair=UCB_CONDITION if holds_c else None))
    return status, rates.format_varpi(slowest if stated else general), why + (
        f"; printed exponent compared with the derived one at {len(GRID)} exact (q, r, beta)")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``table:literature_comparison#column``."""
    row: Row = claim.printed
    printed_e, printed_arg = rates.parse_varpi(row.rate)
    if row.column == "rs_etc_m":
        status, got, why = _etc(row, printed_e, printed_arg)
        text = (f"RS-ETC-M regret is O({row.rate}) for sub-Gaussian arms"
                + (" when a solitary arm is optimal" if "solitary" in row.assumes else ""))
    else:
        status, got, why = _ucb(row, tuple(v for _k, v in claim.given), printed_e, printed_arg)
        text = f"RS-UCB-M regret is O({row.rate}) for sub-Gaussian arms" + (
            f" when {UCB_CONDITION}" if claim.given or UCB_CONDITION in row.assumes else "")
    return CheckResult(claim.id, text, row.rate, got, status, "symbolic", why)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    row: Row = claim.printed
    e, arg = rates.parse_varpi(row.rate)
    out = []
    if result.status in ("verified", "loose"):
        text = rates.format_varpi(e + sp.Rational(1, 2), arg)
        out.append(claim.reprinted(Row(row.column, text, row.assumes), f"{text} (a stronger rate)"))
    if row.assumes:
        out.append(claim.reprinted(Row(row.column, row.rate, ()), "the footnote's assumption (solitary optimum) "
                                                                   "dropped"))
    if result.status == "conditional" and row.column == "rs_ucb_m":
        out.append(claim.assuming("condition", UCB_CONDITION, f"{UCB_CONDITION} stated"))
    return out


CLAIMS = claim_map(*(Claim(f"{LABEL}#{col}", Row(col, paper_claims.LITERATURE_THIS_WORK[col],
                                                  paper_claims.LITERATURE_ASSUMES[col]), check,
                           mutants) for col in COLUMNS))
