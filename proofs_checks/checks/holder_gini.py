"""``lemma:example_utility_Holder`` (Gini deviation, h(u) = u(1 - u)): q, r, L and steps.

Item 2 splits r by the instance: r = 1 when a solitary arm is optimal
(max p < 1/2 or min p > 1/2), r = 2 otherwise (p* = 1/2); the closing
sentence says r = 1, which holds for every instance but is weaker than item 2
at the mixture-optimal ones.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import sympy as sp

from rsb_theory.distortions import U

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl
from ..numfmt import num

LABEL = "lemma:example_utility_Holder"
KEY = "gini"
PARTS = ("q", "r.case1", "r.case2", "L", "summary", "step:eq:lemma_5_p", "step:eq:last_lemm_1")
SWEEP: list[dict] = [{}]


def _r_claims() -> dict[str, str]:
    return hl.printed_r_cases(LABEL)


def _boundary() -> str:
    """Instances with max p = m or min p = m: p* = m is an arm (solitary), h has one-sided order there."""
    d = hl.dist(KEY)
    m = hl.maximiser(KEY, ())
    orders = [hl.local_order(d, m, s) for s in (-1, +1)]
    slopes = [hl.numeric_order(d, float(m), s) for s in (-1, +1)]
    return (f"boundary instances (an arm with p = {m}, 'otherwise' in item 2): p* = {m}, one-sided orders "
            f"{[str(o.order) for o in orders]} (numeric log-log slopes {[round(v, 3) for v in slopes]}), so r = "
            f"{min(o.order for o in orders)} there too")


def _step_5_p(c) -> CheckResult:
    a, b = sp.symbols("a b", real=True)
    # |1 - a - b| on [0,1]^2 is maximised at a vertex (convex function of (a, b))
    exact = max(abs(1 - x - y) for x in (0, 1) for y in (0, 1))
    grid = hl.box_sup(sp.Abs(1 - a - b), (a, b))
    ident = sp.expand(a * (1 - a) - b * (1 - b) - (a - b) * (1 - a - b)) == 0
    # the step is the identity h(a) - h(b) = (a - b)(1 - a - b) followed by the bound: without the identity there is
    # nothing to compare the constant with
    st = hl.compare(hl.printed_value(c.printed, {}), exact, "smaller", comparable=ident)
    return CheckResult(c.id, c.claim, c.printed, f"sup |1 - p_F - p_G| = {exact}", st, "symbolic",
                       f"h(a) - h(b) = (a - b)(1 - a - b) expands to 0 difference: {ident}; |1 - a - b| is convex, "
                       f"its max over [0,1]^2 is at a vertex: {exact} (grid sup {num(grid, 6)}), attained at "
                       "p_F = p_G in {0, 1} only in the limit, so L_H = 1 is the exact constant "
                       f"(holder: {hl.holder_on(KEY, ()).evidence()})")


def _last_lemm_ratio() -> tuple[sp.Expr, sp.Expr, bool, bool]:
    d = hl.dist(KEY)
    m = hl.maximiser(KEY, ())
    x = sp.Symbol("x", real=True)
    gap = sp.factor(d.expr.subs(U, m) - d.expr.subs(U, x))
    pg = np.linspace(0, 1, 1001)
    w = hl.bernoulli_w1(np.full_like(pg, float(m)), pg)
    w_ok = bool(np.allclose(w, np.abs(float(m) - pg), atol=1e-12))
    ratio = sp.simplify(gap / (m - x) ** 2)
    return m, gap, ratio, w_ok


def _step_last_lemm_1(c) -> CheckResult:
    m, gap, ratio_c, w_ok = _last_lemm_ratio()
    # an identity with W1 = |p* - x|: the ratio must be the printed constant, and W1 the distance the step uses
    st = hl.compare(hl.printed_value(c.printed, {}), ratio_c, "equal", comparable=bool(ratio_c.is_number and w_ok))
    return CheckResult(c.id, c.claim, f"L_MH = {c.printed}, r = 2", f"h({m}) - h(x) = {gap}; ratio to (p*-x)^2 = "
                       f"{ratio_c}", st, "symbolic",
                       f"p* = {m} is the maximiser of h on [0, 1]; (h(p*) - h(x)) / (p* - x)^2 simplifies to {ratio_c} "
                       f"(printed {c.printed}); W1(Bern({m}), Bern(x)) = |{m} - x| on a 1001-point grid (CDF "
                       f"integral): {w_ok}")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:example_utility_Holder#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part == "r.case1":
        return hl.check_r(KEY, c, SWEEP, "the proof of case 1 writes 'q = 1 and L_H = 1' where it means r and L_MH")
    if part == "r.case2":
        return hl.check_r(KEY, c, SWEEP, _boundary())
    if part == "L":
        return hl.check_L(KEY, c, SWEEP, _r_claims())
    if part == "summary":
        res = hl.check_summary(KEY, c, SWEEP)
        return replace(res, evidence=res.evidence + " | the summary's r = 1 contradicts item 2 (r = 2 when p* = 1/2) and "
                           "table:table_risks (gini r = 2); r = 1 is valid everywhere (|p* - x| <= 1) but weaker")
    if part == "step:eq:lemma_5_p":
        return _step_5_p(c)
    return _step_last_lemm_1(c)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if hl.part_of(claim) == "step:eq:last_lemm_1":
        return hl.value_mutants(claim, result, "equal", _last_lemm_ratio()[2])
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
