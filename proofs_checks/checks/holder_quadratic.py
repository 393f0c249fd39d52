"""``lemma:Quadratic`` (h(u) = (1 + s)u - s u^2, s in [0, 1]): q, r, L and eq:quadratic_lastline_2."""

from __future__ import annotations

import sympy as sp

from .. import paper_claims
from ..ledger import CheckResult
from . import holder_lemmas as hl

LABEL = "lemma:Quadratic"
KEY = "quadratic"
PARTS = ("q", "r", "L", "summary", "step:eq:quadratic_lastline_2")
#: s in [0, 1]: both ends and the default.
SWEEP: list[dict] = [{"s": sp.Integer(0)}, {"s": sp.Rational(1, 2)}, {"s": sp.Integer(1)}]


def _claim(part: str) -> paper_claims.LemmaClaim:
    return hl.printed(LABEL, part)


def _step() -> CheckResult:
    c = _claim("step:eq:quadratic_lastline_2")
    a, b = sp.symbols("a b", real=True)
    status, got, ev = "verified", [], []
    for params in SWEEP:
        s = params["s"]
        res = hl.region_step(KEY, c, (a - b) * ((1 + s) - s * (a + b)), 1 + s, lambda A, B: A == A, params, n=401)
        status = hl.worst(status, res.status)
        got.append(f"{hl.fmt(params)}{res.derived}")
        ev.append(f"{hl.fmt(params)}{res.evidence}")
    return CheckResult(c.id, c.claim, c.printed, "; ".join(got), status, "numeric",
                       " | ".join(ev) + " | exact: 0 <= (1+s) - s(p_F + p_G) <= 1+s on [0,1]^2 for s in [0, 1]")


def check(part: str) -> CheckResult:
    """The ledger entry ``lemma:Quadratic#<part>``."""
    if part not in PARTS:
        raise ValueError(f"argument 'part': {part!r} is not one of {PARTS}")
    if part == "q":
        return hl.check_q(KEY, _claim("q"), SWEEP)
    if part == "r":
        return hl.check_r(KEY, _claim("r"), SWEEP)
    if part == "L":
        return hl.check_L(KEY, _claim("L"), SWEEP, {"solitary": _claim("r").printed})
    if part == "summary":
        return hl.check_summary(KEY, _claim("summary"), SWEEP)
    return _step()
