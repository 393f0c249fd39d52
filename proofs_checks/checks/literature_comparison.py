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

from .. import derived, paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide, fmt_set
from ..statuses import Status

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


def _ucb_derivation():
    return derived.ucb_exponents()


def _weaker_on_grid(printed: sp.Expr, derived_e: sp.Expr, ok=lambda q, r, b: True) -> tuple[bool, bool, int]:
    """(printed <= derived at every grid point satisfying ``ok``, strictly below at one, how many points)."""
    holds, strict, n = True, False, 0
    for q, r, b in GRID:
        if not ok(q, r, b):
            continue
        n += 1
        subs = {rates.q: q, rates.r: r, rates.beta: b, rates.kappa_sym: rates.kappa(q, r, b)}
        gap = sp.nsimplify(sp.sympify(derived_e).subs(subs) - sp.sympify(printed).subs(subs))
        holds &= bool(gap >= 0)
        strict |= bool(gap > 0)
    return holds, strict, n


@dataclass(frozen=True)
class Facts:
    """What a row's check found, for :func:`proofs_checks.verdict.decide`."""

    holds: bool
    sharper: bool
    repair: str | None
    derived: str
    evidence: str


def _etc_form(solitary: bool) -> tuple[sp.Expr, str, str]:
    """(exponent, argument, why) of RS-ETC-M's rate with or without the footnote's solitary optimum."""
    if solitary:
        got, arg = rates.varpi_form(rates.etc_bound_eps().discrete_regret)
        return got, arg, ("theorem: ETC upper bound with a solitary optimum (the table's footnote): the optimal vertex "
                          "is on eq:etc_discrete_set for every eps, so Delta(eps) = 0 and Delta_min(eps) does not "
                          f"depend on T; N(eps) = O(log T), M(eps) = O(1), and the bound's discrete term is varpi^({got})")
    got, arg = rates.varpi_form(rates.etc_rate(), gamma_value=rates.gamma_E())
    return got, arg, ("without the footnote the optimum may be a mixture; then Delta(eps) > 0 for a fixed eps and "
                      f"theorem:RS-ETC-M (eps chosen with T) gives varpi({arg})^({got}) when beta exists")


def _etc_holds(printed_e, printed_arg, solitary: bool) -> tuple[bool, bool, str, str]:
    """(holds, sharper, derived text, why) of the printed RS-ETC-M rate against the derived one."""
    got, arg, why = _etc_form(solitary)
    if arg != printed_arg:
        return False, False, rates.format_varpi(got, arg), why + f"; the printed argument is {printed_arg}, not {arg}"
    if rates.same_rate(printed_e, got, rates.q, rates.r):
        return True, False, rates.format_varpi(got, arg), why + "; printed minus derived exponent = 0"
    holds, strict, n = _weaker_on_grid(printed_e, got)
    diff = rates.same_rate(printed_e, got, rates.q, rates.r).difference
    return holds, strict, rates.format_varpi(got, arg), why + (f"; printed minus derived exponent = {diff}, compared "
                                                               f"at {n} exact (q, r, beta)")


def _etc(row: Row, printed_e, printed_arg) -> Facts:
    solitary = "solitary" in row.assumes
    holds, sharper, got, why = _etc_holds(printed_e, printed_arg, solitary)
    # without the footnote, the footnote's assumption is the repair when the printed rate holds under it
    repair = None if solitary or holds else (SOLITARY if _etc_holds(printed_e, printed_arg, True)[0] else None)
    return Facts(holds, sharper, repair, got, why)


#: The footnote of the RS-ETC-M row, as a condition.
SOLITARY = "the optimum is a solitary arm"


def _beta_threshold(q: sp.Expr, r: sp.Expr) -> sp.Set:
    """The betas at which corollary:RS-UCB-M applies (r <= beta + q/2), for numbers q and r."""
    return sp.solveset(rates.ucb_side_condition(q, r, rates.beta), rates.beta, sp.Interval.open(0, sp.oo))


@lru_cache(maxsize=1)
def _rows_of_table_1() -> str:
    """For which beta the RS-UCB-M row applies to each mixture row of table:table_regrets (derived and printed q, r)."""
    from rsb_theory.distortions import get
    from rsb_theory.holder import family_mixture_exponent
    from rsb_theory.profile import of

    bits = []
    for row in paper_claims.TABLE_REGRETS:
        if not row.shaded:
            continue
        d = get(row.key, **{k: sp.Rational(v) for k, v in paper_claims.TABLE_PARAMETERS.get(row.key, {}).items()})
        q, (r, _why) = of(d).q, family_mixture_exponent(d, solitary=False)
        risk = paper_claims.risk_row(row.key)
        params = {k: sp.Rational(v) for k, v in paper_claims.TABLE_PARAMETERS.get(row.key, {}).items()}
        pq, pr = derived.printed(risk.q, params), derived.printed(risk.r, params)
        bits.append(f"{row.key}: beta in {fmt_set(_beta_threshold(q, r))} (derived q = {q}, r = {r}); "
                    f"beta in {fmt_set(_beta_threshold(pq, pr))} with the printed q = {pq}, r = {pr}")
    return "; ".join(bits)


def _ucb(row: Row, given: tuple, printed_e, printed_arg) -> Facts:
    ud = _ucb_derivation()
    slowest = 2 * ud.delta_decay  # the slower term when r <= beta + q/2 (ud.condition_equivalent)
    general = 2 * sp.Min(ud.delta_decay, ud.discrete_decay)
    stated = UCB_CONDITION in row.assumes or UCB_CONDITION in given
    why = (f"corollary:RS-UCB-M's proof: at eps = (K^(2/q) log T/T)^kappa the Delta(eps) term decays as "
           f"(log T/T)^({ud.delta_decay}) and the discrete term as (log T/T)^({ud.discrete_decay}); the regret is "
           f"the slower, varpi^(2 min(...)); discrete - Delta decay = {ud.difference_factorisation} "
           f"(>= 0 iff {UCB_CONDITION}: {ud.condition_equivalent}), so the printed varpi^(2 r kappa) is the rate "
           f"for beta >= r - q/2 and too fast below. The row applies to the mixture rows of table:table_regrets for: "
           f"{_rows_of_table_1()}")
    if printed_arg != "T":
        return Facts(False, False, None, rates.format_varpi(slowest), why + f"; printed argument {printed_arg}, not T")
    cond = (lambda q, r, b: r <= b + q / 2)
    identical = bool(rates.same_rate(printed_e, slowest, rates.q, rates.r)) and ud.condition_equivalent
    holds_cond, strict_cond, n_cond = _weaker_on_grid(printed_e, slowest, cond)
    holds_all, strict_all, n_all = _weaker_on_grid(printed_e, general)
    holds, sharper = (holds_cond, strict_cond) if stated else (holds_all, strict_all)
    repair = UCB_CONDITION if not stated and holds_cond else None
    note = (f"; with {UCB_CONDITION} the printed exponent is the derived one (symbolic)" if identical else "")
    return Facts(holds, sharper, repair, rates.format_varpi(slowest if stated else general),
                 why + note + f"; printed exponent against the derived one at {n_all} exact (q, r, beta), "
                 f"{n_cond} of them with {UCB_CONDITION}: holds at all: {holds_all}, at those: {holds_cond}"
                 + ("" if stated else f" ({UCB_CONDITION} is not stated by the row; the corollary states it)"))


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``table:literature_comparison#column``."""
    row: Row = claim.printed
    printed_e, printed_arg = rates.parse_varpi(row.rate)
    if row.column == "rs_etc_m":
        f = _etc(row, printed_e, printed_arg)
        text = (f"RS-ETC-M regret is O({row.rate}) for sub-Gaussian arms"
                + (" when a solitary arm is optimal" if "solitary" in row.assumes else ""))
    else:
        f = _ucb(row, tuple(v for _k, v in claim.given), printed_e, printed_arg)
        text = f"RS-UCB-M regret is O({row.rate}) for sub-Gaussian arms" + (
            f" when {UCB_CONDITION}" if claim.given or UCB_CONDITION in row.assumes else "")
    status = decide(holds=f.holds, repair=f.repair, sharper=f.sharper)
    return CheckResult(claim.id, text, row.rate, f.derived, status, "symbolic", f.evidence)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    row: Row = claim.printed
    e, arg = rates.parse_varpi(row.rate)
    out = []
    if Status(result.status).holds:
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
