"""``example utility`` (Lemma 1): for Bern(p) and Bern(1-p) under Gini deviation,
sup_alpha V(alpha) = U_h(F_1/2 + F_2/2) > max_i U_h(F_i), for every p in the printed range.

Symbolic: V(alpha) is integrated from eq:wang_def for the two-arm mixture
(``mixture_of_bernoullis``), maximised in alpha, and the strict inequality is
solved for p; the claim holds when the set where it fails misses the claimed
range of p (:data:`proofs_checks.paper_claims.EXAMPLE_UTILITY_P`).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory.distortions import U, get
from rsb_theory.expressions import to_sympy
from rsb_theory.riskmetric import mixture_of_bernoullis

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide, fmt_set

ID = "example utility"
_p = sp.Symbol("p", real=True)


def claimed_range(rng: paper_claims.ParameterRange) -> sp.Set:
    """The printed range of p as a set."""
    low, high = to_sympy(rng.low, "p"), to_sympy(rng.high, "p")
    return sp.Interval(low, high, not rng.low_closed, not rng.high_closed)


@lru_cache(maxsize=1)
def derivation() -> tuple:
    """(V(alpha), critical points, V(1/2), max_i U_h(F_i), whether the sup is at 1/2, set of p where V(1/2) > both)."""
    d = get("gini")
    expr, alphas, ps = mixture_of_bernoullis(d, 2)
    a = alphas[0]
    V = sp.simplify(expr.subs({ps[0]: _p, ps[1]: 1 - _p}))
    crit = sp.solve(sp.diff(V, a), a)
    half = sp.simplify(V.subs(a, sp.Rational(1, 2)))
    sup_at_half = crit == [sp.Rational(1, 2)] and sp.simplify(sp.diff(V, a, 2)).is_nonpositive is not False
    arms = sp.Max(d.expr.subs(U, _p), d.expr.subs(U, 1 - _p))
    strict = sp.solveset(sp.simplify(half - d.expr.subs(U, _p)) > 0, _p, sp.Interval(0, 1))
    return V, crit, half, arms, sup_at_half, strict


def condition_at_uses(strict: sp.Set) -> tuple[bool, str]:
    """Does the repair (p with a strict gain) hold wherever the paper uses the lemma?  No proof uses it
    (:func:`proofs_checks.graph.used_by`), and of the paper's two-arm experiments the ones of the lemma's form
    Bern(p), Bern(1 - p) must have p in ``strict``; the text after it uses it only to motivate mixtures, for which one
    p suffices.  Returns (holds at every use, the evidence)."""
    from .. import graph

    users = graph.used_by(ID)
    forms = [(e.figure, e.p) for e in paper_claims.EXPERIMENTS
             if e.p is not None and len(e.p) == 2 and abs(e.p[0] + e.p[1] - 1) < 1e-12]
    ok = not users and all(sp.nsimplify(p[0]) in strict for _f, p in forms)
    return ok, (f"no result uses the lemma ({', '.join(users) or 'none'}); experiments with arms Bern(p), Bern(1-p): "
                f"{', '.join(f for f, _p in forms) or 'none'}")


def check(claim: Claim) -> CheckResult:
    V, crit, half, arms, sup_at_half, strict = derivation()
    claimed = claim.assumes("p_in", claimed_range(claim.printed))
    fails = claimed - strict
    status = decide(holds=sup_at_half and fails.is_empty,
                    repair=f"p in {fmt_set(claimed & strict)}" if sup_at_half and claimed & strict else None)
    ev = (f"V(alpha) = {V} (integrated from eq:wang_def); dV/dalpha = 0 at alpha = {crit}; "
          f"V(1/2) = {half}; max_i U_h(F_i) = {arms}; V(1/2) > max_i U_h(F_i) exactly for p in {fmt_set(strict)}")
    if not fails.is_empty:
        ev += (f"; the strict inequality fails for p in {fmt_set(fails)} (both arms are Bern(1/2), so every mixture is "
               f"optimal and equal): the lemma needs p != 1/2, which its statement (p in {fmt_set(claimed)}) omits")
    at_uses, where = condition_at_uses(strict)
    ev += f"; the condition holds wherever the paper uses the lemma: {at_uses} ({where})"
    return CheckResult(ID, "Gini deviation, arms Bern(p) and Bern(1-p): the optimum is the 1/2-1/2 mixture and it "
                       f"strictly beats both arms, for every p in {fmt_set(claimed)}", f"p in {fmt_set(claimed)}",
                       f"p in {fmt_set(strict)}", status, "symbolic", ev, condition_at_uses=at_uses)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    *_, strict = derivation()
    claimed = claim.assumes("p_in", claimed_range(claim.printed))
    if result.status == "verified":
        wider = claimed | sp.FiniteSet(sp.Rational(1, 2))
        return [claim.assuming("p_in", wider, f"for every p in {fmt_set(wider)}")]
    return [claim.assuming("p_in", claimed & strict, f"for p in {fmt_set(claimed & strict)} (p = 1/2 excluded)")]


CLAIMS = claim_map(Claim(ID, paper_claims.EXAMPLE_UTILITY_P, check, mutants))
