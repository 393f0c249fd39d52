"""``lemma:inter_ES_Holder`` (inter-ES range at alpha = 1/2): q, r, L and steps.

h(u) = min(2u, 1) + min(1 - 2u, 0) = 2 min(u, 1 - u): q = r = 1, L = 2.  The
display "Hence, overall, |p_F - p_G| = 2||F - G||_W" after
eq:lemma_5_p_mean_3 is false as written: for Bernoulli laws ||F - G||_W =
|p_F - p_G| (``lemma:lipschitz-wasserstein``); what the cases show is
U_h(F) - U_h(G) <= 2|p_F - p_G| = 2||F - G||_W.  (The three case displays
cite eq:lemma_5_def_mean instead of eq:lemma_5_def_ES.)
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from rsb_theory.distortions import U, get, parse_expression

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl
from ..numfmt import num

LABEL = "lemma:inter_ES_Holder"
KEY = "inter_es"
PARTS = ("q", "r.case1", "r.case2", "L", "summary", "step:eq:lemma_5_def_ES", "step:after:eq:lemma_5_p_mean_3")
#: the lemma fixes alpha = 1/2
SWEEP: list[dict] = [{"alpha": sp.Rational(1, 2)}]


def _r_claims() -> dict[str, str]:
    return hl.printed_r_cases(LABEL)


def _def_step(c: paper_claims.LemmaClaim) -> CheckResult:
    d = hl.dist(KEY, hl.frozen(SWEEP[0]))
    printed = parse_expression(c.printed)
    diff_pieces = [sp.simplify((d.expr - printed).subs(U, x)) for x in (sp.Rational(k, 8) for k in range(9))]
    u = np.linspace(0, 1, 100001)
    f = sp.lambdify(U, printed, "numpy")
    err = float(np.max(np.abs(d.numeric(u) - np.broadcast_to(f(u), u.shape))))
    ok = all(v == 0 for v in diff_pieces) and err < 1e-12
    return CheckResult(c.id, c.claim, c.printed, f"h - {c.printed} = 0" if ok else f"h != {c.printed}",
                       hl.decide(holds=ok), "symbolic",
                       f"h - ({c.printed}) at u = k/8 (both sides piecewise linear with breakpoints in {{1/2}}): "
                       f"{[str(v) for v in diff_pieces]}; max deviation on a 100001-point grid {num(err, 2)}; "
                       "U_h(Bern(p)) = h(p) (eq:h_1_p) gives U_h(F) = 2 min(p_F, 1 - p_F)")


def _overall_ratio() -> tuple[float, float]:
    """min and max of |p_F - p_G| / ||F - G||_W over 201^2 Bernoulli pairs (W1 by the CDF integral)."""
    pf, pg = np.meshgrid(np.linspace(0, 1, 201), np.linspace(0, 1, 201), indexing="ij")
    pf, pg = pf.ravel(), pg.ravel()
    keep = np.abs(pf - pg) > 0
    w = hl.bernoulli_w1(pf[keep], pg[keep])
    ratio = np.abs(pf[keep] - pg[keep]) / w
    return float(ratio.min()), float(ratio.max())


def _intended_ratio() -> float:
    """max of |U_h(F) - U_h(G)| / ||F - G||_W over the same Bernoulli pairs (U_h(Bern(p)) = h(p), h = 2 min(u,
    1 - u)): the inequality the three cases show, which the display misprints as an equality of |p_F - p_G|."""
    pf, pg = np.meshgrid(np.linspace(0, 1, 201), np.linspace(0, 1, 201), indexing="ij")
    pf, pg = pf.ravel(), pg.ravel()
    keep = np.abs(pf - pg) > 0
    h = get(KEY).numeric
    return float(np.max(np.abs(h(pf[keep]) - h(pg[keep])) / hl.bernoulli_w1(pf[keep], pg[keep])))


def _overall_step(c: paper_claims.LemmaClaim) -> CheckResult:
    lo, hi = _overall_ratio()
    printed = hl.printed_value(c.printed, {})
    st = hl.decide(holds=abs(lo - float(printed)) < 1e-12 and abs(hi - float(printed)) < 1e-12)
    # the evident reading: U_h(F) - U_h(G) <= 2||F - G||_W (the three cases' conclusion); when it holds, a refuted
    # display is a typo
    typo = st == "refuted" and _intended_ratio() <= float(printed) + 1e-12
    return CheckResult(c.id, c.claim, f"|p_F - p_G| / ||F - G||_W = {c.printed}",
                       f"|p_F - p_G| / ||F - G||_W = {num(lo, 6)}" + ("" if abs(hi - lo) < 1e-12 else f"..{num(hi, 6)}"),
                       st, "numeric",
                       f"W1 by the CDF integral (lemma:lipschitz-wasserstein) on 201^2 Bernoulli pairs: the ratio is "
                       f"{num(lo, 6)} everywhere; counterexample p_F = 0, p_G = 1: |p_F - p_G| = 1, "
                       f"2||F - G||_W = {num(2 * float(hl.bernoulli_w1(0.0, 1.0)), 6)}. Intended: U_h(F) - U_h(G) <= "
                       "2|p_F - p_G| = 2||F - G||_W, which the three cases do show (L_H = 2): max |U_h(F) - U_h(G)| / "
                       f"||F - G||_W = {num(_intended_ratio(), 6)} on the same pairs",
                       impact="typo" if typo else None)


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:inter_ES_Holder#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        return hl.check_q(KEY, c, SWEEP)
    if part in ("r.case1", "r.case2"):
        return hl.check_r(KEY, c, SWEEP, "eq:last_lemm_1_ES ends in 2||F - G||_W where 2||F* - G||_W "
                          "is meant" if part == "r.case1" else "")
    if part == "L":
        return hl.check_L(KEY, c, SWEEP, _r_claims())
    if part == "summary":
        return hl.check_summary(KEY, c, SWEEP)
    if part == "step:eq:lemma_5_def_ES":
        return _def_step(c)
    return _overall_step(c)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    part = hl.part_of(claim)
    if part == "step:eq:lemma_5_def_ES":
        return [hl.reprint(claim, "min(u, 1 - u)", "another h")]
    if part == "step:after:eq:lemma_5_p_mean_3":
        lo, hi = _overall_ratio()
        return hl.value_mutants(claim, result, "equal", sp.nsimplify(lo) if abs(hi - lo) < 1e-12 else None)
    return hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
