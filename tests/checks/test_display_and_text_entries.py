"""Displays and running text with entries of their own: eq:meta_concentration, eq:UCB regret and lipwass2,
eq:number of samples as a claim, and the rates stated in running text about the literature."""

import math
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks import paper_claims
from proofs_checks.checks import concentration_exact as ce
from proofs_checks.registry import claims, evaluate


def _exact_tail(n: int, p: Fraction, y: Fraction) -> Fraction:
    """P(|S/n - p| > y), S ~ Bin(n, p), summed in rational arithmetic (small n only)."""
    return sum((Fraction(math.comb(n, k)) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
                if abs(Fraction(k, n) - p) > y), Fraction(0))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 60), p=st.fractions(0, 1, max_denominator=20), y=st.fractions(0, 1, max_denominator=30))
def test_the_log_bracket_holds_the_exact_tail(n, p, y):
    lo, up = ce.log_tail(n, p, y)
    exact = _exact_tail(n, p, y)
    if exact == 0:
        assert up == -math.inf or math.exp(up) < 1e-12
    else:
        assert lo <= math.log(exact) * (1 - 1e-9) + 1e-9 and math.log(exact) <= up + 1e-9
    # the tie mass is what the strict event leaves out
    at = sum((Fraction(math.comb(n, k)) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
              if abs(Fraction(k, n) - p) == y), Fraction(0))
    assert ce.tie_mass(n, p, y) == pytest.approx(float(at), rel=1e-9, abs=1e-300)


@settings(max_examples=40, deadline=None)
@given(root=st.integers(512, 5000), p=st.fractions(0, 1, max_denominator=1000),
       f=st.fractions(1, 8, max_denominator=50), a=st.sampled_from([Fraction(1), Fraction(2)]))
def test_the_repaired_display_holds_for_two_point_laws(root, p, f, a):
    """y >= 512/sqrt(tau), any p (ties and the degenerate ends included), span 1 or 2: tail <= printed bound."""
    n, y = root * root, Fraction(512, root) * f
    if y > a:
        return
    lo, up = ce.log_tail(n, p, y / a)
    assert up <= ce._log_bound(paper_claims.CONCENTRATION_BOUND)(n, y)


def test_meta_concentration_entry_and_mutants():
    r = evaluate(claims()["eq:meta_concentration"], mutants=True)
    assert r.status == "conditional" and "y >= 512/sqrt(tau)" in r.evidence
    assert "agrees with the exact tails in 60 of 60 cells" in r.evidence
    assert [m.status for m in r.mutants] == ["verified", "refuted"]
    s = sp.Symbol("s", positive=True)
    assert sp.simplify(ce.use_ratio() - 512 / (512 + 16 * sp.sqrt(sp.E) * s)) == 0


# --- the rates of the comparison with the literature stated in running text ------------------------------------------

EXPECTED_TEXT = {
    "sec:analysis#text.cvar_bounded": "verified", "sec:analysis#text.cvar_subgaussian": "verified",
    "sec:analysis#text.cvar_rs_etc_m": "conditional",
    "appendix:lit_comp#text.cvar_bounded": "verified", "appendix:lit_comp#text.cvar_subgaussian": "verified",
    "appendix:lit_comp#text.cvar_rs_etc_m": "conditional", "appendix:lit_comp#text.cvar_rs_ucb_m": "conditional",
    "appendix:lit_comp#text.drm_bounded": "verified", "appendix:lit_comp#text.drm_subgaussian": "verified",
    "appendix:lit_comp#text.drm_q1_rs_etc_m": "conditional", "appendix:lit_comp#text.pht_rs_etc_m": "conditional",
    "appendix:lit_comp#text.pht_rs_ucb_m": "refuted",
}


def test_literature_text_entries_and_mutants():
    from proofs_checks.checks import literature_text as lt

    assert set(lt.CLAIMS) == set(EXPECTED_TEXT) == {t.id for t in paper_claims.LITERATURE_TEXT}
    for ident, want in EXPECTED_TEXT.items():
        r = evaluate(lt.CLAIMS[ident], mutants=True)
        assert r.status == want, (ident, r.status, r.evidence)
        assert r.mutants and any(m.status != r.status for m in r.mutants), ident
        if ident.endswith(("_bounded", "_subgaussian")):
            assert "not derivable from this paper's material" in r.evidence  # a cited work's rate: consistency only
    # the sentence's (log T/T)^(1/5) for PHT is varpi^(2/5): neither the table's varpi^(1/5) nor the derived varpi^(1/3)
    r = evaluate(lt.CLAIMS["appendix:lit_comp#text.pht_rs_ucb_m"])
    assert r.derived == "varpi^(1/3)" and "prints varpi^(1/5)" in r.evidence


@pytest.mark.parametrize("key, params", [("cvar", {"alpha": sp.Rational(1, 2)}), ("cvar", {"alpha": sp.Rational(1, 4)}),
                                         ("pht", {"s": sp.Rational(1, 2)})])
def test_mixture_witness_two_routes(key, params):
    """The exact witness (SymPy, finite_support_symbolic) against rsb_theory's numeric finite-support U_h."""
    from proofs_checks.checks import literature_text as lt
    from rsb_theory import distortions
    from rsb_theory.riskmetric import finite_support

    uf, ug, um = lt.mixture_witness(key, tuple(sorted(params.items())))
    assert um > max(uf, ug)
    h = distortions.get(key, **params).numeric
    g = float(lt.G)
    c = float(uf)
    num = float(finite_support(h, [0.0, c, 1.0], [(1 - g) / 2, 0.5, g / 2]))
    assert num == pytest.approx(float(um), rel=1e-12)
    assert float(finite_support(h, [0.0, 1.0], [1 - g, g])) == pytest.approx(float(ug), rel=1e-12)
    # a linear h (CVaR at alpha = 0 is the mean) has no mixture witness
    assert lt.mixture_witness("cvar", (("alpha", sp.Integer(0)),)) is None


# --- eq:UCB regret: the display against its proof's own term bounds ---------------------------------------------------

def test_ucb_regret_display_entries():
    from proofs_checks.checks import ucb_regret_display as ur

    rs = evaluate(claims()["eq:UCB regret#rs-ucb-m"], mutants=True)
    assert rs.status == "verified" and [m.status for m in rs.mutants] == ["refuted"]
    # CE-UCB-M: the proof's own route keeps the bonus terms (a gap, noted); a second route (the CE choice is the
    # discrete optimum from T_0 on) shows the display, and judged by the proof's route only it is conditional
    ce = evaluate(claims()["eq:UCB regret#ce-ucb-m"], mutants=True)
    assert ce.status == "verified" and "not a counterexample" in ce.note and "Route 3" in ce.evidence
    assert [m.status for m in ce.mutants] == ["refuted", "conditional"]
    unit, where = ur.lower_order()
    q = sp.Symbol("q", positive=True)
    assert sp.simplify(unit + q / 2) == 0 and where == sp.Interval.Lopen(0, 1)


@settings(max_examples=30, deadline=None)
@given(log_t=st.floats(1.0, 1e4), K=st.integers(2, 8))
def test_log_P0_is_accurate(log_t, K):
    """log((2/T^2 + 1)^K - 1) in log space against mpmath at 50 digits."""
    import mpmath
    import numpy as np

    from proofs_checks.checks import ucb_regret_display as ur

    got = float(ur._log_P0(np.array([log_t]), np.array([float(K)]), 2.0)[0])
    with mpmath.workdps(50):
        T = mpmath.exp(mpmath.mpf(log_t))
        want = float(mpmath.log(mpmath.expm1(K * mpmath.log1p(2 / T**2))))
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


# --- lipwass2: the three forms of W1, exactly -------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_lipwass_forms_agree_exactly(seed):
    from proofs_checks.checks import lipwass_exact as lw

    import numpy as np

    for x, y in lw.random_pairs(3, seed):
        w = lw.cdf_integral(x, y)
        assert lw.quantile_integral(x, y) == w == lw.dual_witness(x, y)
        assert lw.by_parts_holds(x, y, np.random.default_rng(seed))
        # symmetric, zero on identical laws
        assert lw.cdf_integral(y, x) == w and lw.cdf_integral(x, x) == 0


def test_lipwass_entry_and_mutant():
    r = evaluate(claims()["lipwass2"], mutants=True)
    assert r.status == "verified" and [m.status for m in r.mutants] == ["refuted"]


# --- sec:analysis: the discrete regrets stated in words for Gini deviation --------------------------------------------

def test_gini_discrete_text():
    from proofs_checks.checks import analysis_text as at

    etc = evaluate(claims()["sec:analysis#text.gini_discrete_etc"], mutants=True)
    ucb = evaluate(claims()["sec:analysis#text.gini_discrete_ucb"], mutants=True)
    assert (etc.status, ucb.status) == ("refuted", "loose")
    assert etc.derived.startswith("T^-(1) K^4") and ucb.derived.startswith("T^-(1/2) K^0")
    assert [m.status for m in etc.mutants] == ["verified", "refuted"]
    assert [m.status for m in ucb.mutants] == ["verified", "refuted"]
    assert "differs from the derived one in: the power of K" in ucb.evidence
    K, T = sp.symbols("K T", positive=True)
    assert at.powers(K**3 * sp.sqrt(sp.log(T)) / T + K / T**2) == (1, 3)


def test_sketch_tracking():
    from proofs_checks.checks import analysis_text as at

    r = evaluate(claims()["theorem:UCB upper bound#sketch.tracking"], mutants=True)
    assert r.status == "refuted" and r.impact == "typo" and [m.status for m in r.mutants] == ["verified"]
    q = sp.Symbol("q", positive=True)
    assert at.tracking_powers() == (q, q + 1)
