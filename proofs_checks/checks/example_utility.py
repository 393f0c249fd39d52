"""``example utility`` (Lemma 1): for Bern(p) and Bern(1-p) under Gini deviation,
sup_alpha V(alpha) = U_h(F_1/2 + F_2/2) > max_i U_h(F_i).

Symbolic: V(alpha) is integrated from eq:wang_def for the two-arm mixture
(``mixture_of_bernoullis``), maximised in alpha, and the strict inequality is
solved for p.
"""

from __future__ import annotations

import sympy as sp

from rsb_theory.distortions import U, get
from rsb_theory.riskmetric import mixture_of_bernoullis

from ..ledger import CheckResult

ID = "example utility"


def check() -> CheckResult:
    d = get("gini")
    expr, alphas, ps = mixture_of_bernoullis(d, 2)
    p = sp.Symbol("p", real=True)
    a = alphas[0]
    V = sp.simplify(expr.subs({ps[0]: p, ps[1]: 1 - p}))
    crit = sp.solve(sp.diff(V, a), a)
    half = sp.simplify(V.subs(a, sp.Rational(1, 2)))
    sup_at_half = crit == [sp.Rational(1, 2)] and sp.simplify(sp.diff(V, a, 2)) .is_nonpositive is not False
    arms = sp.Max(d.expr.subs(U, p), d.expr.subs(U, 1 - p))
    strict = sp.solveset(sp.simplify(half - d.expr.subs(U, p)) > 0, p, sp.Interval(0, 1))
    fails = sp.Interval(0, 1) - strict
    holds_everywhere = fails.is_empty
    status = "verified" if (sup_at_half and holds_everywhere) else "conditional"
    ev = (f"V(alpha) = {V} (integrated from eq:wang_def); dV/dalpha = 0 at alpha = {crit}; "
          f"V(1/2) = {half}; max_i U_h(F_i) = {arms}; V(1/2) > max_i U_h(F_i) exactly for p in {strict}")
    if not holds_everywhere:
        ev += (f"; the strict inequality fails for p in {fails} (both arms are Bern(1/2), so every mixture is "
               f"optimal and equal): the lemma needs p != 1/2, which its statement (p in [0,1]) omits")
    return CheckResult(ID, "Gini deviation, arms Bern(p) and Bern(1-p): the optimum is the 1/2-1/2 mixture and it "
                       "strictly beats both arms, for every p in [0, 1]", "p in [0, 1]",
                       f"p in {strict}", status, "symbolic", ev)
