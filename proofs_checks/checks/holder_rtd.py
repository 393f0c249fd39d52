"""``lemma:RTD`` (Wang's right-tail deviation, h(u) = sqrt(u) - u): q, r, L and steps.

Item 2: r = 1 when max p > 1/4 > min p (p* = 1/4, a mixture), r = 1/2
otherwise.  Derived: at p* = 1/4, h(1/4) - h(x) = (1/2 - sqrt x)^2 vanishes to
second order, so r = 2 (L_MH = 4 over [0, 1]); at a solitary optimum p* != 1/4
h'(p*) is finite and non-zero, so r = 1 per instance (its constant grows like
p*^(-1/2) as p* -> 0, which is why one constant for all such instances needs
r = 1/2).  The proof's cases use strict inequalities and leave an arm with
p = 1/4 uncovered; there r = 2 (one-sided).  The closing sentence says q = 1,
contradicting item 1 (q = 1/2): h is not Lipschitz at 0.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import sympy as sp

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl
from ..numfmt import num

LABEL = "lemma:RTD"
KEY = "right_tail"
PARTS = ("q", "r.case1", "r.case2", "L", "summary", "step:eq:WRTD_lemma_0", "step:eq:lemma_RTD_p")
SWEEP: list[dict] = [{}]


def _r_claims() -> dict[str, str]:
    return hl.printed_r_cases(LABEL)


def lipschitz_blowup(t: float = 1e-4) -> float:
    """(U_h(Bern(t)) - U_h(Bern(0))) / W1: the q = 1 ratio at a small t (-> oo as t -> 0)."""
    d = hl.dist(KEY)
    return float((d.numeric(np.array([t]))[0] - d.numeric(np.array([0.0]))[0]) / hl.bernoulli_w1(t, 0.0))


def _case1_extra() -> str:
    d = hl.dist(KEY)
    m = hl.maximiser(KEY, ())
    v1, e1, _ = hl.sup_one_point_ratio(d, m, 1, 0, 1)
    slopes = [round(hl.numeric_order(d, float(m), s), 3) for s in (-1, 1)]
    return (f"the printed pair (r = 1, L_MH = 1) holds: sup over x in [0, 1] of (h({m}) - h(x)) / |{m} - x| = "
            f"{e1 if e1 is not None else round(v1, 6)}; the better r = 2 holds with L_MH = sup 1/(1/2 + sqrt x)^2 "
            f"(see above); numeric log-log slopes at p* = {m}: {slopes}")


def _case2_extra() -> str:
    d = hl.dist(KEY)
    m = hl.maximiser(KEY, ())
    bits = []
    for ps in (sp.Rational(1, 100), sp.Rational(1, 10), sp.Rational(1, 5)):
        val, exact, _ = hl.sup_one_point_ratio(d, ps, 1, 0, ps)
        bits.append(f"p = (0, {ps}): L_MH(r=1) = {exact if exact is not None else round(val, 6)}")
    val, exact, _ = hl.sup_one_point_ratio(d, sp.Rational(1, 2), 1, sp.Rational(1, 2), 1)
    bits.append(f"p = (1/2, 1): L_MH(r=1) = {exact if exact is not None else round(val, 6)}")
    orders = [hl.local_order(d, m, s) for s in (-1, 1)]
    return ("per-instance constants for r = 1 (1/sqrt(p*) - 1 when min p = 0 < p* < 1/4): " + "; ".join(bits)
            + f" | the proof's cases (max p < 1/4 or min p > 1/4) leave an arm with p = {m} uncovered; item 2's "
            f"'otherwise' assigns r = 1/2 there, which holds: p* = {m}, one-sided orders "
            f"{[str(o.order) for o in orders]}, so r = 2")


def _sup_step(expr_of, label: str, c: paper_claims.LemmaClaim, note: str, ratio: bool) -> CheckResult:
    a, b = sp.symbols("a b", nonnegative=True)
    region = (lambda A, B: np.abs(A - B) > 1e-12) if ratio else None
    val = hl.box_sup(expr_of(a, b), (a, b), region=region, n=801)
    const = float(hl.printed_value(c.printed, {}))
    # a grid supremum is a lower bound of the true one: it can refute the constant, not prove a smaller one
    st = hl.decide(holds=val <= const + 1e-6)
    return CheckResult(c.id, c.claim, c.printed, f"sup {label} = {num(val, 6)}", st, "numeric",
                       f"801^2 grid over [0,1]^2: sup {label} = {num(val, 6)} (printed {c.printed}); {note}")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:RTD#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part == "r.case1":
        return hl.check_r(KEY, c, SWEEP, _case1_extra())
    if part == "r.case2":
        return hl.check_r(KEY, c, SWEEP, _case2_extra())
    if part == "L":
        res = hl.check_L(KEY, c, SWEEP, _r_claims())
        d = hl.dist(KEY)
        v2, e2, _ = hl.sup_one_point_ratio(d, hl.maximiser(KEY, ()), 2, 0, 1)
        return replace(res, evidence=res.evidence + f" | with the derived r = 2 at p* = 1/4, L_MH = "
                       f"{e2 if e2 is not None else round(v2, 6)} > 1, so L = 1 relies on the weaker r = 1")
    if part == "summary":
        blow = lipschitz_blowup()
        note = (f"U_h(Bern(t)) - U_h(Bern(0)) over W1 = (sqrt t - t)/t = {num(blow)} at t = 1e-4 (-> oo), so q = 1 "
                "fails; item 1 says q = 1/2")
        return hl.check_summary(KEY, c, SWEEP, r_claims=_r_claims(), notes={"q": note})
    if part == "step:eq:WRTD_lemma_0":
        return _sup_step(lambda a, b: sp.Abs(sp.sqrt(a) - sp.sqrt(b)) / sp.sqrt(sp.Abs(a - b)),
                         "|sqrt a - sqrt b| / sqrt|a - b|", c,
                         "the ratio is homogeneous of degree 0, so [0,1]^2 covers a, b >= 0; equality at b = 0",
                         True)
    return _sup_step(lambda a, b: sp.Abs(1 - sp.sqrt(a) - sp.sqrt(b)), "|1 - sqrt a - sqrt b|", c,
                     "sqrt a, sqrt b in [0, 1], so 1 - sqrt a - sqrt b in [-1, 1]; equality at a = b = 0 or "
                     "a = b = 1", False)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

def _with_typo(claim: Claim) -> Claim:
    """The closing summary with its evident typo recorded: it says q = 1 where item 1 of the statement and
    eq:WRTD_lemma_0, two lines before, give q = 1/2."""
    if not claim.id.endswith("#summary"):
        return claim
    return replace(claim, typo=("q = 1/2 for q = 1, as item 1 and eq:WRTD_lemma_0 give",
                                replace(claim.printed, printed=claim.printed.printed.replace("q=1", "q=1/2"))))


CLAIMS = claim_map(*(_with_typo(c) for c in hl.lemma_claims(LABEL, PARTS, check, mutants)))
