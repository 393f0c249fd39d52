"""Ledger checks of the Hölder lemmas, lemma:lipschitz-wasserstein, theorem:Wasserstein_dual
and lemma: concentration.  Every refuted / loose / conditional / vacuous verdict is
recomputed here by an independent route (direct ratios, scipy, plain Monte Carlo)."""

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from proofs_checks import paper_claims
from proofs_checks.checks import (concentration, holder_dual_power, holder_gini, holder_inter_es, holder_mean_median,
                                  holder_pht, holder_quadratic, holder_rtd, lipschitz_wasserstein, theorem_W,
                                  wasserstein_dual)
from proofs_checks.ledger import METHODS, STATUSES, CheckResult
from proofs_checks.registry import claims

HOLDER_MODULES = (holder_gini, holder_pht, holder_rtd, holder_mean_median, holder_inter_es, holder_dual_power,
                  holder_quadratic)

MY_PREFIXES = ("lemma:example_utility_Holder#", "lemma:PHT#", "lemma:RTD#", "lemma:mean_median_Holder#",
               "lemma:inter_ES_Holder#", "lemma:Dual_Power#", "lemma:Quadratic#", "lemma:lipschitz-wasserstein",
               "theorem:Wasserstein_dual", "lemma: concentration#")


@pytest.fixture(scope="module")
def results():
    """The entries of this file's modules (the steps of these lemmas' proofs are tested in test_proof_steps_lemmas)."""
    mine = {i for m in (*HOLDER_MODULES, lipschitz_wasserstein, theorem_W, wasserstein_dual, concentration)
            for i in m.CLAIMS if i.startswith(MY_PREFIXES)}
    return {ident: c.run() for ident, c in claims().items() if ident in mine}


def test_every_printed_item_is_registered(results):
    printed = paper_claims.HOLDER_LEMMAS + paper_claims.WASSERSTEIN_CLAIMS + paper_claims.CONCENTRATION_CLAIMS
    assert {c.id for c in printed} == set(results)
    assert sum(len(m.CLAIMS) for m in HOLDER_MODULES) == len(paper_claims.HOLDER_LEMMAS)
    # each claim carries its printed item: the check reads the printed value from the claim
    for m in HOLDER_MODULES:
        for ident, c in m.CLAIMS.items():
            assert c.printed == paper_claims.lemma_claim(ident)


def test_results_are_valid(results):
    for ident, res in results.items():
        assert isinstance(res, CheckResult)
        assert res.id == ident
        assert res.status in STATUSES and res.status != "unchecked"
        assert res.method in METHODS
        assert res.claim and res.paper and res.derived and res.evidence


def test_expected_verdicts(results):
    """Verdicts derived by the checks (independently recomputed in the tests below)."""
    want = {
        "lemma:example_utility_Holder#q": "verified",
        "lemma:example_utility_Holder#r.case1": "verified",
        "lemma:example_utility_Holder#r.case2": "verified",
        "lemma:example_utility_Holder#L": "verified",
        "lemma:example_utility_Holder#summary": "loose",
        "lemma:PHT#q": "verified",
        "lemma:PHT#r": "loose",
        "lemma:PHT#L": "conditional",
        "lemma:PHT#step:jensen": "conditional",
        "lemma:PHT#step:power": "verified",
        "lemma:RTD#q": "verified",
        "lemma:RTD#r.case1": "loose",
        "lemma:RTD#r.case2": "loose",
        "lemma:RTD#L": "verified",
        "lemma:RTD#summary": "refuted",
        "lemma:mean_median_Holder#summary": "verified",
        "lemma:inter_ES_Holder#L": "verified",
        "lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3": "refuted",
        "lemma:Dual_Power#L": "verified",
        "lemma:Dual_Power#step:eq:dp_last": "verified",
        "lemma:Quadratic#L": "verified",
        "lemma:lipschitz-wasserstein": "verified",
        "theorem:Wasserstein_dual": "verified",
        "lemma: concentration#bound": "conditional",
        "lemma: concentration#radius": "vacuous",
    }
    got = {k: results[k].status for k in want}
    assert got == want
    assert results["lemma:RTD#r.case1"].derived == "2"
    assert results["lemma:Dual_Power#step:eq:dp_last"].derived == "s >= 1"
    assert results["lemma:Quadratic#L"].derived == "[s=0] 1; [s=1/2] 3/2; [s=1] 2"


def test_bad_part_names_the_argument():
    with pytest.raises(ValueError, match="argument 'part'"):
        concentration.check("nonsense")


def test_printed_constants_are_read_from_the_claim():
    """Region steps and sup steps compare with the printed constant (once typed into the check as 1 and 1 + s)."""
    quad = holder_quadratic.CLAIMS["lemma:Quadratic#step:eq:quadratic_lastline_2"]
    assert quad.run().status == "verified"
    halved = replace(quad.printed, printed="(1+s)/2")
    assert quad.reprinted(halved, "").run().status == "refuted"
    power = holder_pht.CLAIMS["lemma:PHT#step:power"]
    assert power.reprinted(replace(power.printed, printed="1/2"), "").run().status == "refuted"
    jensen = holder_pht.CLAIMS["lemma:PHT#step:jensen"]
    assert jensen.assuming("support", holder_pht.TAU_AT_MOST_ONE, "").run().status == "verified"


# --- independent recomputation of the findings ------------------------------------------------------------------

def test_gini_r_is_two_at_the_mixture_optimum():
    x = np.concatenate([np.linspace(0, 0.499, 500), np.linspace(0.501, 1, 500)])
    gap = 0.25 - x * (1 - x)
    assert np.allclose(gap / (0.5 - x) ** 2, 1.0)  # r = 2, L_MH = 1
    assert np.max(gap / np.abs(0.5 - x)) <= 0.5 + 1e-12  # r = 1 holds too, but loosely


def test_rtd_case1_r_two_with_constant_four():
    x = np.linspace(0, 1, 200001)
    x = x[np.abs(x - 0.25) > 1e-9]
    gap = 0.25 - (np.sqrt(x) - x)
    ratio2 = gap / (x - 0.25) ** 2
    assert ratio2.max() == pytest.approx(4.0, abs=1e-9)  # at x = 0
    assert np.max(gap / np.abs(x - 0.25)) == pytest.approx(1.0, abs=1e-9)  # printed r = 1, L_MH = 1


def test_rtd_case2_r_one_per_instance_but_not_uniformly():
    def lmh(p_star):
        x = np.linspace(0, p_star, 100001)[:-1]
        h = lambda u: np.sqrt(u) - u  # noqa: E731
        return np.max((h(p_star) - h(x)) / (p_star - x))

    for p_star in (0.01, 0.1, 0.2):
        assert lmh(p_star) == pytest.approx(1 / math.sqrt(p_star) - 1, rel=1e-6)
    assert lmh(1e-6) > 900  # unbounded as p* -> 0: no single constant for r = 1


def test_rtd_summary_q_one_is_false():
    t = np.array([1e-2, 1e-4, 1e-6, 1e-8])
    ratio = (np.sqrt(t) - t) / t
    assert np.all(np.diff(ratio) > 0) and ratio[-1] > 9000
    assert holder_rtd.lipschitz_blowup(1e-4) == pytest.approx(99.0)


def test_pht_jensen_needs_tau_at_most_one():
    s = 0.5
    for tau in (0.5, 1.0, 2.0, 4.0):
        # delta_0 vs delta_tau: |F - G| = 1 on [0, tau)
        lhs, rhs = tau * 1.0 ** s, (tau * 1.0) ** s
        assert lhs / rhs == pytest.approx(tau ** (1 - s))
        assert (lhs <= rhs + 1e-12) == (tau <= 1)
    assert holder_pht._dirac_ratio(holder_pht.SWEEP[1]["s"], 4.0) == pytest.approx(2.0)


def test_pht_r_one_per_instance_constant_blows_up():
    s = 0.5
    for p_star in (0.5, 0.1, 0.01):
        x = np.linspace(0, p_star, 50001)[:-1]
        assert np.max((p_star ** s - x ** s) / (p_star - x)) == pytest.approx(p_star ** (s - 1), rel=1e-9)
    # with x = 0 and p* -> 0 the ratio for any r > s diverges, r = s keeps it at 1
    p = np.geomspace(1e-12, 1e-2, 20)
    assert np.allclose(p ** s / p ** s, 1.0) and (p ** s / p ** 0.75)[0] > 1e2


def test_inter_es_overall_display_is_off_by_two():
    for pf, pg in ((0.0, 1.0), (0.3, 0.7), (0.9, 0.2)):
        w = stats.wasserstein_distance([0, 1], [0, 1], [1 - pf, pf], [1 - pg, pg])
        assert abs(pf - pg) == pytest.approx(w)
        assert abs(pf - pg) != pytest.approx(2 * w)
    res = holder_inter_es.CLAIMS["lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3"].run()
    assert res.derived.endswith("= 1")


def test_dual_power_step_needs_only_s_at_least_one():
    p = np.linspace(0, 1, 100001)
    for s in (1.0, 1.5, 2.0):
        slope = s * (1 - p) ** (s - 1)
        assert slope.max() == pytest.approx(s)  # L_H = s, attained at p = 0
    with np.errstate(divide="ignore"):
        assert np.isinf((0.5 * (1 - p) ** (-0.5)).max())  # s = 1/2: h'(1) infinite
    s_min, _ = holder_dual_power.smallest_s()
    assert s_min == 1


def test_gini_step_eq_last_lemm_1():
    res = holder_gini.CLAIMS["lemma:example_utility_Holder#step:eq:last_lemm_1"].run()
    assert res.status == "verified" and "ratio to (p*-x)^2 = 1" in res.derived


# --- lemma: concentration ---------------------------------------------------------------------------------------

def test_concentration_counterexample_plain_monte_carlo():
    rng = np.random.default_rng(7)
    n, y = 100, 0.01
    w = np.abs(rng.binomial(n, 0.5, size=20000) / n - 0.5)  # W1 between Bern(p_hat) and Bern(1/2)
    freq = np.mean(w > y)
    bound = 2 * math.exp(-n / (256 * math.e) * (y - 512 / math.sqrt(n)) ** 2)
    assert freq > 0.85 and bound < 1e-100
    _, f = concentration.printed_bound()
    assert f(n, y) == pytest.approx(bound, rel=1e-9)
    # restricted to y >= 512/sqrt(n), the claim the proof supports, the Monte Carlo finds no violation
    c = concentration.CLAIMS["lemma: concentration#bound"]
    assert c.assuming("y_from", concentration.Y_FROM_NEEDED, "").run().status == "verified"


def test_concentration_radius_exceeds_one_at_every_paper_horizon():
    for T in paper_claims.EXPERIMENT_HORIZONS:
        radius = 16 * (math.sqrt(2 * math.e * math.log(T)) + 32) / math.sqrt(T)
        assert radius > 1
    assert 512 / math.sqrt(262144) == 1.0


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([10, 100, 1000]), st.integers(0, 2**31 - 1))
def test_empirical_w1_matches_scipy(n, seed):
    rng = np.random.default_rng(seed)
    atoms, probs = (0.0, 0.25, 0.5, 1.0), (0.1, 0.4, 0.3, 0.2)
    counts = rng.multinomial(n, probs)
    w = concentration.w1_samples(np.random.default_rng(seed), atoms, probs, n, 1)[0]
    ref = stats.wasserstein_distance(atoms, atoms, counts / n, probs)
    assert w == pytest.approx(ref, abs=1e-12)


# --- W1 forms ------------------------------------------------------------------------------------------------------

law = st.integers(1, 5).flatmap(lambda m: st.tuples(
    st.lists(st.sampled_from([-3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 10.0]), min_size=m, max_size=m, unique=True),
    st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))


def _norm(l):
    xs, ws = l
    order = np.argsort(xs)
    ws = np.asarray(ws, float)[order] + 1e-3
    return np.asarray(xs, float)[order], ws / ws.sum()


@settings(max_examples=60, deadline=None)
@given(law, law)
def test_three_forms_of_w1_agree(a, b):
    lx, ly = _norm(a), _norm(b)
    z, px, py = lipschitz_wasserstein.merged(lx, ly)
    ref = stats.wasserstein_distance(lx[0], ly[0], lx[1], ly[1])
    assert lipschitz_wasserstein.dual_lp(z, px, py) == pytest.approx(ref, abs=1e-9)
    assert lipschitz_wasserstein.quantile_integral(lx, ly) == pytest.approx(ref, abs=1e-9)
    assert wasserstein_dual.transport_cost(lx, ly) == pytest.approx(ref, abs=1e-9)


def test_w1_edges():
    one = (np.array([0.0]), np.array([1.0]))
    far = (np.array([2.5]), np.array([1.0]))
    z, px, py = lipschitz_wasserstein.merged(one, one)
    assert lipschitz_wasserstein.dual_lp(z, px, py) == 0.0  # identical single atoms
    z, px, py = lipschitz_wasserstein.merged(one, far)
    assert lipschitz_wasserstein.dual_lp(z, px, py) == pytest.approx(2.5)
    assert lipschitz_wasserstein.quantile_integral(one, far) == pytest.approx(2.5)
    for p, q in ((0.0, 1.0), (0.5, 0.5), (0.2, 0.9)):
        bx = (np.array([0.0, 1.0]), np.array([1 - p, p]))
        by = (np.array([0.0, 1.0]), np.array([1 - q, q]))
        z, px, py = lipschitz_wasserstein.merged(bx, by)
        assert lipschitz_wasserstein.dual_lp(z, px, py) == pytest.approx(abs(p - q), abs=1e-12)


def test_doubled_lipschitz_ball_doubles_the_dual():
    """sup over 2-Lipschitz f is 2 W1: the LP scales, and a claim with that ball is refuted."""
    one = (np.array([0.0]), np.array([1.0]))
    far = (np.array([2.5]), np.array([1.0]))
    z, px, py = lipschitz_wasserstein.merged(one, far)
    assert lipschitz_wasserstein.dual_lp(z, px, py, lipschitz=2.0) == pytest.approx(5.0)
    for mod in (lipschitz_wasserstein, wasserstein_dual):
        c = mod.CLAIMS[mod.ID]
        assert c.run().status == "verified"
        assert c.reprinted(lipschitz_wasserstein.DualForm(c.printed.statement, "2"), "").run().status == "refuted"


def test_theorem_W_two_readings():
    """On R_+ (the setting). Centred: delta_0 vs delta_m has W = m/2, unbounded (delta_0, delta_6: 3 > sqrt(2 pi));
    tail reading: sup W = (1/2) int_0^oo min(1, 2 e^{-u^2/2}) du = 0.888 < 1, attained by delta_0 against the
    extremal law; the tail reading holds at the Bernoulli uses, so the statement is conditional with impact none."""
    c = math.sqrt(2 * math.log(2))
    closed = c + 2 * math.sqrt(2 * math.pi) * stats.norm.sf(c)
    head_tail, moment = theorem_W.tail_supremum()
    assert head_tail == pytest.approx(closed, rel=1e-9) and moment == pytest.approx(closed, rel=1e-7)
    assert theorem_W.sup_W()[0] == pytest.approx(closed / 2, rel=1e-9) and 0.888 < closed / 2 < 0.8883 < 1
    for m, w in theorem_W.centred_pairs():
        assert w == pytest.approx(m / 2, rel=1e-9)
    assert dict(theorem_W.centred_pairs())[6.0] == 3.0 > math.sqrt(2 * math.pi)
    claim = theorem_W.CLAIMS[theorem_W.ID]
    res = claim.run()
    assert res.status == "conditional" and res.condition == theorem_W.TAIL and res.condition_at_uses is True
    assert "delta_0, delta_6" in res.evidence and "0.888287" in res.derived
    tail = claim.assuming("reading", "tail", "")
    assert tail.run().status == "loose"  # sup W = 0.888 < sqrt(2 pi)
    assert tail.reprinted("1", "").run().status == "loose"  # 0.888 < 1: no sub-Gaussian instance has W >= 1
    assert tail.reprinted("0.88", "").run().status == "refuted"
    # a mutant changes the status
    assert {m.run().status for m in theorem_W.mutants(claim, res)} == {"loose", "refuted"}


def test_checks_are_deterministic():
    lw = lipschitz_wasserstein.CLAIMS[lipschitz_wasserstein.ID]
    assert lw.run().evidence == lw.run().evidence
    a = concentration.monte_carlo(concentration.SEED)
    concentration.monte_carlo.cache_clear()
    assert concentration.monte_carlo(concentration.SEED) == a


def test_table_pht_constant_is_judged_on_the_lemmas_support():
    """table:table_risks#pht.L is lemma:PHT's constant, stated for CDFs on [0, tau] (the q column's footnote excepts PHT
    from the Bernoulli family): conditional on tau <= 1, like lemma:PHT#L; stating tau <= 1 makes it verified."""
    from proofs_checks.registry import claims, evaluate

    cell = evaluate(claims()["table:table_risks#pht.L"], mutants=True)
    lemma = evaluate(claims()["lemma:PHT#L"])
    assert cell.status == lemma.status == "conditional"
    assert "(s=1/2, tau=2) 1.414" in cell.evidence and cell.mutant_caught
    stated = claims()["table:table_risks#pht.L"].assuming("support", holder_pht.TAU_AT_MOST_ONE, "")
    assert stated.run().status == "verified"
