"""``lemma:mean_median_Holder`` (mean-median deviation, h(u) = min(u, 1 - u)): q, r, L and steps.

Piecewise linear h with a kink at its maximiser 1/2: q = r = 1, L = 1 for the
whole Bernoulli family; the case steps of the proof are checked on their
regions.  The display eq:last_lemm_1_mean writes ||F - G||_W for ||F* - G||_W.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl

LABEL = "lemma:mean_median_Holder"
KEY = "mean_median"
PARTS = ("q", "r.case1", "r.case2", "L", "summary", "step:eq:lemma_5_p_mean_2_MD", "step:eq:lemma_5_p_mean_3_MD")
SWEEP: list[dict] = [{}]


def _r_claims() -> dict[str, str]:
    return hl.printed_r_cases(LABEL)


def _boundary() -> str:
    d = hl.dist(KEY)
    m = hl.maximiser(KEY, ())
    orders = [hl.local_order(d, m, s) for s in (-1, 1)]
    return (f"an arm with p = {m} (neither case of the proof; item 2 states r = 1 for all instances): p* = {m}, "
            f"one-sided orders {[str(o.order) for o in orders]}, so r = 1 there too. eq:last_lemm_1_mean ends in "
            "||F - G||_W where ||F* - G||_W is meant")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:mean_median_Holder#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    a, b = sp.symbols("a b", real=True)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part in ("r.case1", "r.case2"):
        return hl.check_r(KEY, c, SWEEP, _boundary() if part == "r.case1" else "")
    if part == "L":
        return hl.check_L(KEY, c, SWEEP, _r_claims())
    if part == "summary":
        return hl.check_summary(KEY, c, SWEEP)
    if part == "step:eq:lemma_5_p_mean_2_MD":
        return hl.region_step(KEY, c, a - 1 + b, lambda A, B: (A < 0.5) & (B > 0.5))
    res = hl.region_step(KEY, c, 1 - a - b, lambda A, B: (A > 0.5) & (B < 0.5))
    return replace(res, evidence=res.evidence + "; the step holds although U_h(F) - U_h(G) can be negative here")


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
