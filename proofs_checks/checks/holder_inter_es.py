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

from rsb_theory.distortions import U, parse_expression

from .. import paper_claims
from ..ledger import CheckResult
from . import holder_lemmas as hl

LABEL = "lemma:inter_ES_Holder"
KEY = "inter_es"
PARTS = ("q", "r.case1", "r.case2", "L", "summary", "step:eq:lemma_5_def_ES", "step:after:eq:lemma_5_p_mean_3")
#: the lemma fixes alpha = 1/2
SWEEP: list[dict] = [{"alpha": sp.Rational(1, 2)}]


def _claim(part: str) -> paper_claims.LemmaClaim:
    return hl.printed(LABEL, part)


def _r_claims() -> dict[str, str]:
    return hl.printed_r_cases(LABEL)


def _def_step() -> CheckResult:
    c = _claim("step:eq:lemma_5_def_ES")
    d = hl.dist(KEY, hl.frozen(SWEEP[0]))
    printed = parse_expression(c.printed)
    diff_pieces = [sp.simplify((d.expr - printed).subs(U, x)) for x in (sp.Rational(k, 8) for k in range(9))]
    u = np.linspace(0, 1, 100001)
    err = float(np.max(np.abs(d.numeric(u) - np.vectorize(lambda x: 2 * min(x, 1 - x))(u))))
    ok = all(v == 0 for v in diff_pieces) and err < 1e-12
    return CheckResult(c.id, c.claim, c.printed, "h - 2*min(u, 1 - u) = 0" if ok else "h != 2*min(u, 1 - u)",
                       "verified" if ok else "refuted", "symbolic",
                       f"h - 2 min(u, 1-u) = 0 exactly at u = k/8 (both sides piecewise linear with breakpoints "
                       f"in {{1/2}}): {[str(v) for v in diff_pieces]}; max deviation on a 100001-point grid {err:.1e}; "
                       "U_h(Bern(p)) = h(p) (eq:h_1_p) gives U_h(F) = 2 min(p_F, 1 - p_F)")


def _overall_step() -> CheckResult:
    c = _claim("step:after:eq:lemma_5_p_mean_3")
    pf, pg = np.meshgrid(np.linspace(0, 1, 201), np.linspace(0, 1, 201), indexing="ij")
    pf, pg = pf.ravel(), pg.ravel()
    keep = np.abs(pf - pg) > 0
    w = hl.bernoulli_w1(pf[keep], pg[keep])
    ratio = np.abs(pf[keep] - pg[keep]) / w
    lo, hi = float(ratio.min()), float(ratio.max())
    printed = sp.Rational(c.printed)
    st = "verified" if abs(lo - float(printed)) < 1e-12 and abs(hi - float(printed)) < 1e-12 else "refuted"
    return CheckResult(c.id, c.claim, f"|p_F - p_G| / ||F - G||_W = {c.printed}",
                       f"|p_F - p_G| / ||F - G||_W = {lo:.12g}" + ("" if abs(hi - lo) < 1e-12 else f"..{hi:.12g}"),
                       st, "numeric",
                       f"W1 by the CDF integral (lemma:lipschitz-wasserstein) on 201^2 Bernoulli pairs: the ratio is "
                       f"{lo:.12g} everywhere; counterexample p_F = 0, p_G = 1: |p_F - p_G| = 1, "
                       f"2||F - G||_W = {2 * float(hl.bernoulli_w1(0.0, 1.0)):g}. Intended: U_h(F) - U_h(G) <= "
                       "2|p_F - p_G| = 2||F - G||_W, which the three cases do show (L_H = 2)")


def check(part: str) -> CheckResult:
    """The ledger entry ``lemma:inter_ES_Holder#<part>``."""
    if part not in PARTS:
        raise ValueError(f"argument 'part': {part!r} is not one of {PARTS}")
    if part == "q":
        return hl.check_q(KEY, _claim("q"), SWEEP)
    if part in ("r.case1", "r.case2"):
        return hl.check_r(KEY, _claim(part), SWEEP, "eq:last_lemm_1_ES ends in 2||F - G||_W where 2||F* - G||_W "
                          "is meant" if part == "r.case1" else "")
    if part == "L":
        return hl.check_L(KEY, _claim("L"), SWEEP, _r_claims())
    if part == "summary":
        return hl.check_summary(KEY, _claim("summary"), SWEEP)
    if part == "step:eq:lemma_5_def_ES":
        return _def_step()
    return _overall_step()
