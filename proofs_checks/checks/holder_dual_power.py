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
from rsb_theory.holder import holder

from .. import paper_claims
from ..ledger import CheckResult
from . import holder_lemmas as hl

LABEL = "lemma:Dual_Power"
KEY = "dual_power"
PARTS = ("q", "r", "L", "summary", "step:eq:dp_last")
#: s >= 2: the end of the domain and two interior points (one non-integer).
SWEEP: list[dict] = [{"s": sp.Integer(2)}, {"s": sp.Rational(5, 2)}, {"s": sp.Integer(3)}]
#: exponents below the lemma's domain at which the proof's chain is re-derived.
BELOW = (sp.Rational(1, 2), sp.Integer(1), sp.Rational(3, 2))


def _claim(part: str) -> paper_claims.LemmaClaim:
    return hl.printed(LABEL, part)


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
        res = holder(from_string(f"1 - (1 - u)**({v})"), (0, 1))
        bits.append(f"s = {v}: q = {res.q}, L_H = {res.L_exact if res.L_exact is not None else round(res.L_H, 6)}")
    return "the chain re-derived below the lemma's domain: " + "; ".join(bits)


def check(part: str) -> CheckResult:
    """The ledger entry ``lemma:Dual_Power#<part>``."""
    if part not in PARTS:
        raise ValueError(f"argument 'part': {part!r} is not one of {PARTS}")
    if part == "q":
        return hl.check_q(KEY, _claim("q"), SWEEP)
    if part == "r":
        d = hl.dist(KEY, hl.frozen(SWEEP[0]))
        o = hl.local_order(d, sp.Integer(1), -1)
        return hl.check_r(KEY, _claim("r"), SWEEP, f"an arm with p = 1 is optimal with h(1) - h(1-t) = t^s "
                          f"(s = {SWEEP[0]['s']}: order {o.order}), so r = s there; r = 1 is the exponent valid at "
                          "every instance (r = q as in the proof)")
    if part == "L":
        return hl.check_L(KEY, _claim("L"), SWEEP, {"solitary": _claim("r").printed})
    if part == "summary":
        return hl.check_summary(KEY, _claim("summary"), SWEEP)
    c = _claim("step:eq:dp_last")
    s_min, why = smallest_s()
    # for a hypothesis, a smaller sufficient bound is the better value
    st = "verified" if s_min == sp.Rational(c.printed) else ("loose" if s_min < sp.Rational(c.printed) else "refuted")
    return CheckResult(c.id, c.claim + " (needs s >= 2)", f"s >= {c.printed}", f"s >= {s_min}", st, "symbolic",
                       why + " | " + _below_domain() + f" | so q = 1, r = 1, L = s hold for every s >= {s_min}; "
                       "for s < 1 h'(1) is infinite and q = s")
