"""``lemma:Quadratic`` (h(u) = (1 + s)u - s u^2, s in [0, 1]): q, r, L and eq:quadratic_lastline_2."""

from __future__ import annotations

import sympy as sp

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl

LABEL = "lemma:Quadratic"
KEY = "quadratic"
PARTS = ("q", "r", "L", "summary", "step:eq:quadratic_lastline_2")
#: s in [0, 1]: both ends and the default.
SWEEP: list[dict] = [{"s": sp.Integer(0)}, {"s": sp.Rational(1, 2)}, {"s": sp.Integer(1)}]


def _step(c: paper_claims.LemmaClaim) -> CheckResult:
    a, b = sp.symbols("a b", real=True)
    statuses, got, ev = [], [], []
    for params in SWEEP:
        s = params["s"]
        res = hl.region_step(KEY, c, (a - b) * ((1 + s) - s * (a + b)), lambda A, B: A == A, params, n=401)
        statuses.append(res.status)
        got.append(f"{hl.fmt(params)}{res.derived}")
        ev.append(f"{hl.fmt(params)}{res.evidence}")
    return CheckResult(c.id, c.claim, c.printed, "; ".join(got), hl.worst(*statuses), "numeric",
                       " | ".join(ev) + " | exact: 0 <= (1+s) - s(p_F + p_G) <= 1+s on [0,1]^2 for s in [0, 1]")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:Quadratic#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part == "r":
        return hl.check_r(KEY, c, SWEEP)
    if part == "L":
        return hl.check_L(KEY, c, SWEEP, {"solitary": hl.printed(LABEL, "r").printed})
    if part == "summary":
        return hl.check_summary(KEY, c, SWEEP)
    return _step(c)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
