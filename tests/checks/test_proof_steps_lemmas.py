"""The proof steps of the lemmas, before Appendix:RS-ETC-M (``proofs_checks/checks/steps_*.py``): every printed step is
registered and judged, its mutants are caught, and the verdicts that are not ``verified`` are recomputed here by an
independent route (by hand, the grids enumerated directly, scipy, mpmath)."""

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as hs

from proofs_checks import paper_claims, paper_labels
from proofs_checks.checks import _steps_a as st
from proofs_checks.checks import lipschitz_wasserstein, steps_aux, steps_example, steps_holder, steps_setting, steps_w
from proofs_checks.ledger import METHODS, STATUSES
from proofs_checks.registry import claims, evaluate
from rsb_theory.distortions import U
from rsb_theory.grids import Grid
from rsb_theory.riskmetric import wasserstein1_finite

MODULES = (steps_setting, steps_example, steps_w, steps_holder, steps_aux)

#: The verdicts the checks derive (each non-verified one is recomputed below).
WANT = {
    "sec:introduction#mean": "verified",
    "eq:U": "verified",
    "eq:regret_decomposition": "verified",
    "eq:number of samples main paper#scaling": "verified",
    "theorem: ETC upper bound#choosing_eps": "refuted",
    "theorem:UCB upper bound#sketch.E3": "gap",
    "sec: experiments#closed_form": "verified",
    "example utility#step:eq:h_1_p": "verified",
    "example utility#step:after:eq:h_1_p": "verified",
    "example utility#step:eq:p_max_def": "verified",
    "example utility#step:after:eq:p_max_def": "verified",  # in the case the proof fixes, p_1 < p* < p_2
    "theorem:W#step:after:eq:W_7": "verified",
    "theorem:W#step:eq:W_8": "verified",
    "theorem:W#chain": "verified",
    "lemma:mean_median_Holder#step:eq:last_lemm_1_mean": "refuted",
    "lemma:inter_ES_Holder#step:eq:last_lemm_1_ES": "refuted",
    "lemma:Delta_error#step:eq:Delta_error_2": "refuted",
    "lemma:Delta_error#step:eq:Delta_error_2.reason": "refuted",
    "lemma:Delta_error#chain": "verified",
    "lemma:PHT#chain": "conditional",  # its step:jensen link holds only for tau <= 1
    "lemma:beta_lemma_monotone#step:eq:solitary_best": "verified",
    "lemma:beta_lemma_monotone#step:eq:astar_lemma14": "verified",
    "lemma:beta_lemma_monotone#step:eq:aprime_lemma14": "verified",
}


@pytest.fixture(scope="module")
def results():
    known = claims()  # the registry's claims: a proof's steps carry its context (its result's record, proofs_checks.results)
    return {i: evaluate(known[i], mutants=True) for m in MODULES for i in m.CLAIMS}


def test_every_printed_step_is_registered_once():
    ids = [i for m in MODULES for i in m.CLAIMS]
    assert len(ids) == len(set(ids))
    constants = set(steps_holder.CONSTANT_IDS)
    assert set(ids) == {c.id for c in paper_claims.PROOF_STEPS_A} | constants
    for m in MODULES:
        for ident, c in m.CLAIMS.items():
            want = paper_claims.lemma_claim(ident.replace("#chain", "#L")) if ident in constants \
                else paper_claims.proof_step_a(ident)
            assert c.printed == want  # the check reads its printed value from the claim
    registered = claims()
    assert set(ids) <= set(registered)
    for ident in ids:
        label, _, part = ident.partition("#")
        assert label in paper_labels.POSITION
        assert part == "" or part.startswith(("step:", "chain")) or label in (
            "sec:introduction", "eq:number of samples main paper", "theorem: ETC upper bound", "theorem:UCB upper bound",
            "sec: experiments")


def test_new_labels_follow_the_paper_order():
    order = list(dict.fromkeys(i.partition("#")[0] for i in claims()))
    assert order.index("sec:introduction") < order.index("table:table_regrets") < order.index("eq:U") \
        < order.index("example utility")
    assert order.index("eq:UCB_alpha2") < order.index("eq:regret_decomposition") < order.index("theorem: ETC upper bound")


def test_results_follow_the_contract(results):
    for ident, res in results.items():
        assert res.id == ident and res.status in STATUSES and res.status != "unchecked"
        assert res.method in METHODS and res.claim and res.paper and res.derived and res.evidence


def test_expected_verdicts(results):
    got = {i: r.status for i, r in results.items()}
    assert {i: got[i] for i in WANT} == WANT
    assert all(s == "verified" for i, s in got.items() if i not in WANT), {i: s for i, s in got.items() if i not in WANT}


def test_every_entry_has_a_mutant_that_changes_its_status(results):
    assert all(r.mutant_caught for r in results.values()), [i for i, r in results.items() if not r.mutant_caught]


def test_failures_carry_their_smallest_counterexample(results):
    for ident, r in results.items():
        if r.status in ("refuted", "conditional") and ident != "theorem:UCB upper bound#sketch.E3":
            assert "counterexample" in r.evidence, ident


# --- independent routes --------------------------------------------------------------------------------------------

def test_sketch_E3_is_below_what_the_appendix_proves():
    """T((1/T^2 + 1)^K - 1) < T((2/T^2 + 1)^K - 1) and < 2K/T (mpmath), ratio -> 1/2."""
    with mpmath.workdps(40):
        for T in (2, 10, 10**4, 10**7):
            for K in (1, 2, 6):
                sketch = T * ((1 + mpmath.mpf(1) / T**2) ** K - 1)
                assert sketch < T * ((1 + mpmath.mpf(2) / T**2) ** K - 1)
                assert sketch < mpmath.mpf(2 * K) / T
        T = mpmath.mpf(10) ** 12
        assert float(((1 + 1 / T**2) ** 3 - 1) / ((1 + 2 / T**2) ** 3 - 1)) == pytest.approx(0.5, rel=1e-9)


def test_n_eps_grows_like_eps_to_minus_two_for_the_mean():
    """N(eps) with Delta_min(eps) = (p_2 - p_1) eps (mean, ETC grid, two arms; lemma:beta_lemma_monotone) grows like
    eps^-2 up to a log factor, not eps^-1 ('Choosing eps')."""
    from rsb_theory.rates.constants import N_eps_value
    ns = [N_eps_value(2, 10**5, e, 1.0, 1.0, 0.5 * e) for e in (1e-2, 1e-4, 1e-6)]
    slopes = [math.log(ns[i + 1] / ns[i]) / math.log(1e-2) for i in range(2)]
    assert all(-2.1 < s < -2.0 for s in slopes)


def test_concave_h_with_a_flat_top():
    """Inter-ES at alpha = 3/4 is concave, not monotone, and equal to 1 on all of [1/4, 3/4]."""
    d = st.dist("inter_es", (("alpha", sp.Rational(3, 4)),))
    u = np.linspace(0.25, 0.75, 101)
    assert np.allclose(d.numeric(u), 1.0) and d.shape.is_concave and not d.shape.is_monotone
    assert not steps_example.strictly_concave("inter_es", (("alpha", sp.Rational(3, 4)),))
    assert steps_example.strictly_concave("gini", ())
    c = steps_example.CLAIMS["example utility#step:after:eq:h_1_p"]
    assert c.assuming("class", steps_example.STRICT, "").run().status == "verified"


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.floats(-3, 3, allow_nan=False), min_size=1, max_size=5, unique=True),
       hs.integers(0, 2**32 - 1))
def test_closed_form_sup_is_the_lp(atoms, seed):
    """sup over 1-Lipschitz f with f(0) = 0 of |int f d(P - Q)| = the LP of lemma:lipschitz-wasserstein = W1."""
    z = np.unique(np.round(np.array(atoms + [0.0]), 6))
    rng = np.random.default_rng(seed)
    px, py = rng.dirichlet(np.ones(z.size), size=2)
    w = float(wasserstein1_finite(z, px, py))
    assert steps_w.closed_sup(z, px - py) == pytest.approx(w, abs=1e-9)
    assert lipschitz_wasserstein.dual_lp(z, px, py) == pytest.approx(w, abs=1e-9)


def test_expected_absolute_value_is_the_lipschitz_sup():
    z = np.array([-2.0, 0.0, 1.5])
    p = np.array([0.25, 0.25, 0.5])
    assert steps_w.closed_sup(z, p) == pytest.approx(0.25 * 2 + 0.5 * 1.5)  # E|X|


def test_w8_centred_counterexample_by_hand():
    """On R_+: delta_0 and delta_m: W1 = m, ||alpha - beta||_1 = 2: the bound sqrt(2 pi) * 2 fails for m > 5.013;
    under the tail reading the ratio is at most 0.888 (delta_0 against the extremal law), E|X| at most 1.777."""
    from scipy import integrate
    m = 5.25
    w1, _ = integrate.quad(lambda x: 1.0 if x < m else 0.0, 0, m + 1, points=[m])
    assert w1 == pytest.approx(m, rel=1e-9) and w1 > 2 * math.sqrt(2 * math.pi)
    from proofs_checks.registry import claims, evaluate

    res = evaluate(claims()["theorem:W#step:eq:W_8"], mutants=True)
    assert res.mutant_caught and res.status == "verified" and res.derived.startswith("0.888287 ||alpha - beta||_1")
    assert "delta_0" in res.note and "N(" not in res.note
    res = evaluate(claims()["theorem:W#step:after:eq:W_7"], mutants=True)
    assert res.mutant_caught and res.status == "verified" and "2.75" in res.note


def test_chained_constants():
    value, _ = steps_w.chained_constant()
    assert sp.simplify(value - sp.sqrt(2 * sp.pi)) == 0
    chained, _ = steps_aux.chained_delta_bound()
    L, K, W, r, eps = sp.symbols("L K W r eps", positive=True)
    printed = L * (K * W) ** r * (eps / 2) ** r
    assert sp.simplify(sp.powsimp(sp.expand_power_base(printed / chained, force=True), force=True)) == 1
    s = sp.Symbol("s", positive=True)
    want = {steps_holder.GINI: 1, steps_holder.PHT: 1, steps_holder.RTD: 1, steps_holder.MM: 1, steps_holder.IES: 2,
            steps_holder.DP: s, steps_holder.QUAD: 1 + s}
    for label, value in want.items():
        assert sp.simplify(steps_holder.chained_L(label)[0] - value) == 0, label


def test_delta_error_2_by_hand():
    """K = 2, ETC grid, eps = 0.35 (footnote grid): alpha* = e_1 is 0.6 > K eps/2 away in L1; on exact ETC grids
    largest-remainder rounding stays within K eps/2; on the exact mid-point grid a vertex is (K - 1) eps away."""
    pts = Grid(2, 0.35, "etc").points()
    assert np.allclose(pts, [[0, 1], [0.35, 0.65], [0.7, 0.3]])
    assert np.min(np.abs(pts - [1, 0]).sum(axis=1)) == pytest.approx(0.6)
    rng = np.random.default_rng(7)
    for K in (2, 3, 4, 5, 6):
        n = 7
        for a in rng.dirichlet(np.ones(K), size=50):
            x = a * n
            fl = np.floor(x)
            m = int(round(n - fl.sum()))
            up = np.argsort(-(x - fl), kind="stable")[:m]
            fl[up] += 1
            assert np.abs(fl / n - a).sum() <= K / (2 * n) + 1e-12
        vertex = np.eye(K)[-1]
        mid = Grid(K, 1 / (4 + K / 2), "ucb").points()
        assert np.min(np.abs(mid - vertex).sum(axis=1)) == pytest.approx((K - 1) / (4 + K / 2))


def test_beta_points_on_the_etc_grid():
    """On the ETC grid the vertex e_K is a grid point (h(<e_K, p>) = h(p_K): eq:solitary_best fails) and the printed
    a* is not one; on the exact mid-point grid both printed points are grid points."""
    etc = Grid(2, 0.5, "etc").points()
    assert any(np.allclose(x, [0, 1]) for x in etc) and not any(np.allclose(x, [0.25, 0.75]) for x in etc)
    eps = 1 / (4 + 1.5)
    mid = Grid(3, eps, "ucb").points()
    for a in ([eps / 2, eps / 2, 1 - eps], [eps / 2, 1.5 * eps, 1 - 2 * eps]):
        assert any(np.allclose(x, a) for x in mid)


def test_typo_displays_hold_with_F_star():
    """F for F* is an evident typo: false as printed, the correction holds, and the entry's impact says typo."""
    for ident in ("lemma:mean_median_Holder#step:eq:last_lemm_1_mean", "lemma:inter_ES_Holder#step:eq:last_lemm_1_ES"):
        c = steps_holder.CLAIMS[ident]
        assert c.run().status == "refuted"
        assert c.corrected().run().status == "verified"
        assert evaluate(c).impact == "typo"


def test_zero_on_unit():
    x = sp.Symbol("x", real=True)
    assert st.zero_on_unit(sp.Min(x, 1 - x) - sp.Piecewise((x, x <= sp.Rational(1, 2)), (1 - x, True)), x)
    assert not st.zero_on_unit(sp.Min(x, 1 - x) - x, x)
    assert st.zero_on_unit(sp.Abs(sp.Rational(1, 2) - x) - (sp.Rational(1, 2) - sp.Min(x, 1 - x)), x)


def test_sweeps():
    table = st.table_sweep()
    assert {k for k, _fp in table} == set(st.REGISTRY)
    assert ("inter_es", (("alpha", sp.Rational(1, 2)),)) in table
    assert ("inter_es", (("alpha", sp.Rational(3, 4)),)) in st.hypothesis_sweep()
    assert ("pht", (("s", sp.Rational(1, 4)),)) in table  # table:table_risks states s in (0, 1)


def test_formula_steps_read_the_printed_formula():
    c = steps_holder.CLAIMS["lemma:example_utility_Holder#step:eq:lemma_5_def_gd"]
    assert c.run().status == "verified"
    assert steps_holder.hl.reprint(c, "p*(1 - p)/2", "").run().status == "refuted"
    assert steps_holder.mixture_is_bernoulli(4)
    d = st.dist("right_tail", ())
    assert d.expr.subs(U, sp.Rational(1, 4)) == sp.Rational(1, 4)


def test_checks_are_deterministic():
    c = steps_w.CLAIMS["theorem:W#step:eq:W_4"]
    first = c.run().evidence
    steps_w.chain_values.cache_clear()
    assert c.run().evidence == first
    c = steps_aux.CLAIMS["lemma:Delta_error#step:eq:Delta_error_2"]
    first = c.run().evidence
    steps_aux.simplex_cases.cache_clear()
    assert c.run().evidence == first
