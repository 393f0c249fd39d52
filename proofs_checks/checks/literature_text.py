"""The regret rates the comparison with the literature states in words (ids ``SECTION#text.NAME``).

The main text's paragraph "Relevance to the existing literature" (section ``sec:analysis``) and the
paragraphs "CVaR" and "DRMs" of ``appendix:lit_comp`` state rates in words, for cited works and for
this work's algorithms (:data:`proofs_checks.paper_claims.LITERATURE_TEXT`).  Each is a claim:

* **a cited work's rate** cannot be derived from this paper's material.  It is checked for consistency
  with the paper's own ``table:literature_comparison``: the row of each cited work must have the same
  distribution assumption, a DR that contains the sentence's (CVaR is a DRM), and the same rate
  (:func:`proofs_checks.verdict.compare`, ``"equal"``).  The evidence says that this is all it shows.
* **RS-ETC-M's rate** (sub-Gaussian arms) is re-derived as in ``table:literature_comparison#rs_etc_m``:
  with a solitary optimum, ``theorem: ETC upper bound`` at a fixed eps gives varpi^(2q)
  (:func:`proofs_checks.checks.literature_comparison._etc_form`), with q derived for the DR by
  ``rsb_theory`` at every swept parameter of its row.  The sentences do not state the table's footnote
  "assuming that the optimal solution is a solitary arm"; for sub-Gaussian arms the optimum of a concave
  h (CVaR, PHT) can be a mixture, and an exact witness shows it (:func:`mixture_witness`: laws on [0, 1],
  which are 1-sub-Gaussian) -- then Delta(eps) > 0 at a fixed eps and the rate is ``theorem:RS-ETC-M``'s.
  The footnote is the repair; it holds where the paper applies the rows (Bernoulli arms and a monotone h:
  the best arm is optimal, ``table:table_regrets#ROW.h``).
* **RS-UCB-M's rate** (Bernoulli arms) is judged as the cell of ``table:table_regrets`` with the
  sentence's rate would be (:func:`proofs_checks.checks.table_regrets.rate_facts`): corollary:RS-UCB-M
  with q, r, beta derived, and the condition on the means that beta = 1 needs when the sentence does not
  state it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import sympy as sp

from rsb_theory import distortions, rates
from rsb_theory.distortions import parse_expression
from rsb_theory.riskmetric import finite_support_symbolic

from .. import derived, paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import compare, decide, worst
from . import literature_comparison, table_regrets
from ..statuses import Status

#: The footnote of table:literature_comparison's RS-ETC-M row, as a condition.
SOLITARY = "the optimum is a solitary arm (the footnote of table:literature_comparison's RS-ETC-M row)"
#: The DR whose mixture witness stands for "the DRMs with q = 1" (a DRM with q = 1 for every law: h is
#: 2-Lipschitz).
Q1_WITNESS = ("cvar", {"alpha": sp.Rational(1, 2)})
#: The paper's labels each kind of sentence is judged through.
USES = {"prior": ("table:literature_comparison",),
        "RS-ETC-M": ("theorem: ETC upper bound", "table:table_risks", "table:literature_comparison"),
        "RS-UCB-M": ("corollary:RS-UCB-M", "table:table_regrets", "table:table_risks")}
#: What a wrong RS-UCB-M rate changes (a refuted exponent is a wrong rate).
IMPACT = {"refuted": "rate"}
#: The mass g of the two-point arm {0: 1 - g, 1: g} of :func:`mixture_witness`.
G = sp.Rational(1, 4)


def printed_exponent(t: paper_claims.TextRate) -> tuple[sp.Expr, str]:
    """The sentence's O(.) in powers of varpi: (exponent, argument)."""
    return _varpi(t.rate)


@lru_cache(maxsize=None)
def _varpi(text: str) -> tuple[sp.Expr, str]:
    return rates.varpi_form(parse_expression(text, {"T": rates.T}))


def _h(key: str, params: dict):
    return distortions.get(key, **params)


@lru_cache(maxsize=None)
def mixture_witness(key: str, frozen: tuple[tuple[str, sp.Expr], ...]) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """Two arms on [0, 1] whose half-half mixture beats both, exactly: F = delta_c with c = h(g), G = {0: 1 - g,
    1: g}; returns (U_h(F), U_h(G), U_h of the mixture) or None when the mixture does not beat both (h linear)."""
    d = _h(key, dict(frozen))
    hg = finite_support_symbolic(d, [0, 1], [1 - G, G])
    c = sp.nsimplify(hg)
    if not 0 < c < 1:
        return None
    uf = finite_support_symbolic(d, [c], [1])
    half = sp.Rational(1, 2)
    um = finite_support_symbolic(d, [0, c, 1], [(1 - G) * half, half, G * half])
    uf, ug, um = (sp.nsimplify(sp.simplify(v)) for v in (uf, hg, um))
    return (uf, ug, um) if bool(um > sp.Max(uf, ug)) else None


def _witness_for(t: paper_claims.TextRate):
    key, params = (Q1_WITNESS if t.dr == "q=1" else (t.dr, derived.table_params(t.dr) or {}))
    sweep = [dict(params)] if t.dr == "q=1" else derived.parameter_sweep(key)
    for p in sweep:
        w = mixture_witness(key, tuple(sorted((k, sp.nsimplify(v)) for k, v in p.items())))
        if w is not None:
            return key, p, w
    return None


def _qs(t: paper_claims.TextRate) -> list[tuple[str, sp.Expr]]:
    """(where, q) for the DR of the sentence: derived at each swept parameter of its table row; q = 1 as stated."""
    if t.dr == "q=1":
        return [("the DRMs with q = 1", sp.Integer(1))]
    return [(f"{t.dr}{derived.fmt_params(p).strip()}", derived.profile(t.dr, p).q)
            for p in derived.parameter_sweep(t.dr)]


# ---------------------------------------------------------------------------
# a cited work's rate: consistency with the paper's own table
# ---------------------------------------------------------------------------
def _prior(claim: Claim, t: paper_claims.TextRate) -> tuple[str, str, str]:
    e, arg = printed_exponent(t)
    statuses, bits = [], []
    rows = {r.work: r for r in paper_claims.LITERATURE_PRIOR}
    for work in t.who:
        row = rows.get(work)
        same = row is not None and row.assumption == t.assumption and row.dr in (t.dr, "DRM")
        table_e = rates.parse_varpi(row.rate)[0] if row is not None else None
        statuses.append(compare(e, table_e if table_e is not None else 0, "equal", comparable=same and arg == "T"))
        bits.append(f"{work}: table row {row.dr}, {row.assumption}, O({row.rate})" if row else
                    f"{work}: no row in table:literature_comparison")
    ev = (f"A rate of cited work(s), not derivable from this paper's material: checked only for consistency with the "
          f"paper's own table:literature_comparison. The sentence says O({rates.format_varpi(e, arg)}) for "
          f"{t.dr}, {t.assumption}; " + "; ".join(bits)
          + ". Consistent when each cited row has the sentence's assumption, a DR containing the sentence's (CVaR is "
          "a DRM) and the same rate")
    return worst(*statuses), ", ".join(sorted({r.rate for w in t.who if (r := rows.get(w))})), ev


# ---------------------------------------------------------------------------
# RS-ETC-M: the solitary-optimum rate, and the footnote the sentences omit
# ---------------------------------------------------------------------------
def _etc(claim: Claim, t: paper_claims.TextRate) -> tuple[str, str, str]:
    e, arg = printed_exponent(t)
    form, form_arg, why = literature_comparison._etc_form(True)
    got = [(where, q, sp.simplify(form.subs(rates.q, q))) for where, q in _qs(t)]
    rate_ok = arg == form_arg and all(bool(e <= g) for _w, _q, g in got)
    sharper = rate_ok and any(bool(e < g) for _w, _q, g in got)
    stated = claim.assumes("condition") == SOLITARY
    wit = _witness_for(t)
    needs = wit is not None and not stated
    status = decide(holds=rate_ok and not needs, repair=SOLITARY if rate_ok and needs else None, sharper=sharper)
    ev = (f"{why}; " + ", ".join(f"{w}: q = {q}, {rates.format_varpi(g, form_arg)}" for w, q, g in got)
          + f"; the sentence's O({t.rate}) = {rates.format_varpi(e, arg)}")
    if t.dr == "pht":
        ev += " (q = s = 1/2 is lemma:PHT's, shown there for laws on an interval of length <= 1)"
    if wit is not None:
        key, p, (uf, ug, um) = wit
        ev += (f". Without the table's footnote the optimum may be a mixture: {key}{derived.fmt_params(p).strip()}, "
               f"arms delta_{{{uf}}} and {{0: {1 - G}, 1: {G}}} (laws on [0, 1], 1-sub-Gaussian): U_h = {uf} and "
               f"{ug}, the half-half mixture {um} = {num(float(um))} (exact); then Delta(eps) > 0 at a fixed eps and "
               "the rate is "
               "theorem:RS-ETC-M's. " + ("The footnote (stated here) excludes such instances"
                                         if stated else f"Repair: {SOLITARY}; it holds for Bernoulli arms and a "
                                         "monotone h (the best arm is optimal), where the paper's rows are derived"))
    return status, ", ".join(sorted({rates.format_varpi(g, form_arg) for _w, _q, g in got})), ev


# ---------------------------------------------------------------------------
# RS-UCB-M: as the cell of table:table_regrets with the sentence's rate
# ---------------------------------------------------------------------------
def _cell(t: paper_claims.TextRate) -> table_regrets.RateCell:
    e, arg = printed_exponent(t)
    row = replace(paper_claims.regret_row(t.dr), ucb=rates.format_varpi(e, arg))
    return table_regrets.RateCell(row, paper_claims.risk_row(t.dr), "ucb", None)


def _ucb_facts(claim: Claim) -> table_regrets.RateFacts:
    t: paper_claims.TextRate = claim.printed
    return table_regrets.rate_facts(Claim(claim.id, _cell(t), table_regrets.check_rate, None, claim.given))


def _ucb(claim: Claim, t: paper_claims.TextRate) -> tuple[str, str, str]:
    f = _ucb_facts(claim)
    row = paper_claims.regret_row(t.dr)
    ev = (f"As the cell table:table_regrets#{t.dr}.ucb would be with the sentence's O({t.rate}) = "
          f"{rates.format_varpi(f.printed_exponent, f.printed_argument)} (Bernoulli arms): {f.evidence}. The table "
          f"itself prints {row.ucb} for this row")
    return f.status, f.derived_text, ev


def check(claim: Claim) -> CheckResult:
    t: paper_claims.TextRate = claim.printed
    judge = _etc if t.who == ("RS-ETC-M",) else _ucb if t.who == ("RS-UCB-M",) else _prior
    status, got, ev = judge(claim, t)
    given = "; ".join(f"{v}" for _k, v in claim.given)
    kind = t.who[0] if t.who[0] in USES else "prior"
    return CheckResult(claim.id, f"'{t.sentence}'" + (f" (given {given})" if given else ""), f"O({t.rate})", got,
                       status, "symbolic", ev, uses=USES[kind],
                       impact=IMPACT.get(status) if kind == "RS-UCB-M" else None)


def _stronger(t: paper_claims.TextRate) -> paper_claims.TextRate:
    e, _arg = printed_exponent(t)
    return replace(t, rate=f"(log(T)/T)**({(e + sp.Rational(1, 2)) / 2})")


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    t: paper_claims.TextRate = claim.printed
    out = []
    if Status(result.status).holds:
        out.append(claim.reprinted(_stronger(t), "a faster rate (varpi exponent + 1/2)"))
    if result.status == "conditional" and t.who == ("RS-ETC-M",):
        out.append(claim.assuming("condition", SOLITARY, "the table's footnote (a solitary optimum) stated"))
    if t.who == ("RS-UCB-M",):
        f = _ucb_facts(claim)
        bound = f.needed_bound if f.needed_bound is not None else paper_claims.UCB_MEANS_BELOW.get(t.dr)
        if result.status == "conditional" and bound is not None:
            out.append(claim.assuming("means_below", str(bound), f"arm means < {bound} stated (table:table_regrets' "
                                                                   "footnote)"))
        if result.status == "refuted" and f.derived_exponent is not None:
            out.append(claim.reprinted(replace(t, rate=f"(log(T)/T)**({f.derived_exponent / 2})"),
                                       f"the derived rate {rates.format_varpi(f.derived_exponent)}"))
    return out


CLAIMS = claim_map(*(Claim(t.id, t, check, mutants) for t in paper_claims.LITERATURE_TEXT))
#: The entries that derive a row of table:table_regrets (its profile): run in that row's unit of work
#: (:func:`proofs_checks.registry.work_units`), so the profile is derived once.
_ROWS = {r.key for r in paper_claims.TABLE_REGRETS}
SHARES_ROW: dict[str, str] = {t.id: t.dr for t in paper_claims.LITERATURE_TEXT
                              if t.who in (("RS-ETC-M",), ("RS-UCB-M",)) and t.dr in _ROWS}
