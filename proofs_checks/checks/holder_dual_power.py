"""``lemma:Dual_Power`` (h(u) = 1 - (1 - u)^s, s >= 2): q, r, L and the step eq:dp_last.

By the mean-value theorem (eq:dp_beforelast) U_h(F) - U_h(G) =
(p_F - p_G) s (1 - p_M)^(s-1); eq:dp_last bounds (1 - p_M)^(s-1) <= 1 "since
s >= 2 and p_M <= 1".  That needs only s >= 1 (for s < 1, (1 - p)^(s-1) is
unbounded at p = 1 and q drops to s), so the lemma's hypothesis s >= 2 is
stronger than its proof uses.
"""

from __future__ import annotations

import sympy as sp

from rsb_theory.distortions import from_string
from rsb_theory.profile import of

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from . import _holder as hl

LABEL = "lemma:Dual_Power"
KEY = "dual_power"
PARTS = ("q", "r", "L", "summary", "step:eq:dp_last")
#: s >= 2: the end of the domain and two interior points (one non-integer).
SWEEP: list[dict] = [{"s": sp.Integer(2)}, {"s": sp.Rational(5, 2)}, {"s": sp.Integer(3)}]
#: exponents below the lemma's domain at which the proof's chain is re-derived.
BELOW = (sp.Rational(1, 2), sp.Integer(1), sp.Rational(3, 2))


def smallest_s() -> tuple[sp.Expr, str]:
    """The smallest s for which sup_{p in [0, 1)} (1 - p)^(s-1) <= 1 (the step eq:dp_last)."""
    s, p = sp.Symbol("s", real=True), sp.Symbol("p", real=True)
    # (1 - p)^(s-1) <= 1 on [0, 1) iff (s - 1) log(1 - p) <= 0 iff s >= 1 (log(1 - p) <= 0)
    cond = sp.solve_univariate_inequality((s - 1) * sp.log(sp.Rational(1, 2)) <= 0, s, relational=False)
    lims = {str(v): sp.limit((1 - p) ** (v - 1), p, 1, "-") for v in BELOW}
    return cond.inf, f"(s - 1) log(1 - p) <= 0 for p in (0, 1) iff s in {cond}; sup (1-p)^(s-1) as p -> 1: {lims}"


def _below_domain() -> str:
    bits = []
    for v in BELOW:
        res = of(from_string(f"1 - (1 - u)**({v})")).holder((0, 1))
        bits.append(f"s = {v}: q = {res.q}, L_H = {res.L_exact if res.L_exact is not None else round(res.L_H, 6)}")
    return "the chain re-derived below the lemma's domain: " + "; ".join(bits)


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:Dual_Power#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part == "r":
        d = hl.dist(KEY, hl.frozen(SWEEP[0]))
        o = hl.local_order(d, sp.Integer(1), -1)
        return hl.check_r(KEY, c, SWEEP, f"an arm with p = 1 is optimal with h(1) - h(1-t) = t^s "
                          f"(s = {SWEEP[0]['s']}: order {o.order}), so r = s there; r = 1 is the exponent valid at "
                          "every instance (r = q as in the proof)")
    if part == "L":
        return hl.check_L(KEY, c, SWEEP, {"solitary": hl.printed(LABEL, "r").printed})
    if part == "summary":
        return hl.check_summary(KEY, c, SWEEP)
    s_min, why = smallest_s()
    # a hypothesis s >= c: it suffices when c >= s_min.  Judged as printed, a smaller sufficient c is the stronger
    # statement (loose); in the proof's context s >= 2 is the lemma's own hypothesis, so the step holds as used and
    # the weaker sufficient hypothesis is a note.
    printed = hl.printed_value(c.printed, {})
    suffices, weaker = bool(printed >= s_min), bool(printed > s_min)
    in_context = claim.fixed("s") is not None
    st = decide(holds=suffices, sharper=weaker and not in_context)
    note = (f"s >= {s_min} suffices for this step; the lemma assumes s >= {c.printed}." if in_context and weaker
            else "")
    return CheckResult(c.id, c.claim + f" (needs s >= {c.printed})", f"s >= {c.printed}", f"s >= {s_min}", st,
                       "symbolic", why + " | " + _below_domain() + f" | so q = 1, r = 1, L = s hold for every "
                       f"s >= {s_min}; for s < 1 h'(1) is infinite and q = s", note=note)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if hl.part_of(claim) == "step:eq:dp_last":
        return hl.value_mutants(claim, result, "smaller", smallest_s()[0])
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
