"""The proof-step entries of the algorithms' proofs: Appendix:RS-ETC-M, proof:UCB upper bound and the sec:SE-UCB-M
proofs, and the theorems' constants chained through them."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.checks import _etc_exact, _steps, _ucb_states, etc_commit
from proofs_checks.checks import constants_theorems, steps_etc, steps_tracking, steps_ucb
from proofs_checks.registry import claims, evaluate

E = "theorem: ETC upper bound#step:"
R = "theorem:RS-ETC-M#step:"
U = "theorem:UCB upper bound#step:"
C = "corollary:RS-UCB-M#step:"

#: Every label of the paper from \label{Appendix:RS-ETC-M} on that asserts something, with the ids checking it.
#: (Existing entries that check exactly the label are listed as they are.)
CLAIM_LABELS = {
    "eq: Regret_DISCRET_ETC": [E + "eq: Regret_DISCRET_ETC"],
    "eq: A2first": [E + "eq: A2first"],
    "eq:ETC_A21": [E + "eq:ETC_A21"],
    "eq:ETC_A22": [E + "eq:ETC_A22"],
    "eq:ETC_1": [E + "eq:ETC_1"],
    "eq:ETC_2": [E + "eq:ETC_2"],
    "eq:alpha_to_1": [E + "eq:alpha_to_1"],
    "eq:E1C": [E + "eq:E1C"],
    "eq:E2C": ["eq:E2C"],
    "eq:E3C": [E + "eq:E3C"],
    "eq:number of samples": [E + "eq:number of samples"],
    "eq: ETC A2T final": [E + "eq: ETC A2T final"],
    "eq:lemma_8_2": [E + "eq:lemma_8_2"],
    "eq: ETC commit 3": [E + "eq: ETC commit 3"],
    "eq: ETC commit 1": [E + "eq: ETC commit 1"],
    "eq: ETC commit 2": [E + "eq: ETC commit 2"],
    "eq: ETC commit 4": [E + "eq: ETC commit 4"],
    "eq: ETC commit 5": ["eq: ETC commit 5"],
    "eq: ETC commit 6": ["eq: ETC commit 6"],
    "eq: ETC A3T final": [E + "eq: ETC A3T final"],
    "eq:UP_ETC_eqn1": [E + "eq:UP_ETC_eqn1"],
    "eq:disc_up_ETC": [E + "eq:disc_up_ETC"],
    "eq:ETC_M_eps": [E + "eq:ETC_M_eps"],
    "eq:Discrete_order": [R + "eq:Discrete_order"],
    "eq:delta_order": [R + "eq:delta_order"],
    "eq:ETC upper bound gamma appendix": [R + "eq:ETC upper bound gamma appendix"],
    "eq:probi": [U + "eq:probi"],
    "eq:A_1 bound refer": [U + "eq:A_1 bound refer"],
    "eq:UUB_1": [U + "eq:UUB_1"],
    "eq:UUB_2": [U + "eq:UUB_2"],
    "eq:A21": [U + "eq:A21"],
    "eq:UCB_UB2": [U + "eq:UCB_UB2"],
    "eq:UCB_UBh1": [U + "eq:UCB_UBh1"],
    "eq:UCB_UB3": [U + "eq:UCB_UB3"],
    "eq:UCB_UB4": [U + "eq:UCB_UB4"],
    "eq:UCB_UB5": [U + "eq:UCB_UB5"],
    "eq:E3_1": [U + "eq:E3_1"],
    "eq:E3_2": [U + "eq:E3_2"],
    "eq:UCB_UB8": [U + "eq:UCB_UB8"],
    "eq:UCB_UB9": [U + "eq:UCB_UB9"],
    "eq:UCB_UB10": [U + "eq:UCB_UB10"],
    "eq:UCB_UB10-1": [U + "eq:UCB_UB10-1"],
    "lemma:probability of E3": ["lemma:probability of E3"],
    "eq:samlingequiv": [U + "eq:samlingequiv"],
    "eq:oversampledproof": ["eq:oversampledproof"],
    "eq:replace": [U + "eq:replace"],
    "eq:midpointsmatter": [U + "eq:midpointsmatter"],
    "lemma:undersampling": ["lemma:undersampling"],
    "eq:UK_oneside": ["lemma:undersampling#step:eq:UK_oneside"],
    "lemma:oversampling": ["lemma:oversampling"],
    "eq:oversampling1": ["lemma:oversampling#step:eq:oversampling1"],
    "eq:UK_1": ["lemma:oversampling#step:eq:UK_1"],
    "eq:oversampling2": ["lemma:oversampling#step:eq:oversampling2"],
    "eq:UK_2": ["lemma:oversampling#step:eq:UK_2"],
    "eq:oversampling3": ["lemma:oversampling#step:eq:oversampling3"],
    "eq:m_finite": ["lemma:oversampling#step:eq:m_finite"],
    "eq:m": ["lemma:oversampling#step:eq:m"],
    "eq:UCB_f1": [U + "eq:UCB_f1"],
    "eq:UCB_f2": [U + "eq:UCB_f2", U + "after:eq:UCB_f2"],
    "eq:UCB_UB11": [U + "eq:UCB_UB11"],
    "eq:UCB_UB12": [U + "eq:UCB_UB12"],
    "eq:Discretized_regret": [U + "eq:Discretized_regret", U + "after:eq:Discretized_regret"],
    "eq:theorem_lastline": [U + "eq:theorem_lastline", "theorem:UCB upper bound#chain.rs-ucb-m"],
    "eq:Discrete_order_UCB_RS": [C + "eq:Discrete_order_UCB_RS"],
    "eq:delta_order_UCB_RS": [C + "eq:delta_order_UCB_RS"],
    "eq:UCB upper bound appendix": [C + "eq:UCB upper bound appendix", "corollary:RS-UCB-M#chain"],
    "eq:CEUCB1": [U + "eq:CEUCB1"],
    "eq:CEUCB2": [U + "eq:CEUCB2"],
    "eq:CEUCB3": [U + "eq:CEUCB3"],
    "eq:discrete_error_CE": [U + "eq:discrete_error_CE", U + "after:eq:discrete_error_CE"],
    "eq:theorem_lastline_CE": [U + "eq:theorem_lastline_CE", "theorem:UCB upper bound#chain.ce-ucb-m"],
    "eq:Discrete_order_CE": [C + "eq:Discrete_order_CE"],
    "eq:delta_order_ce": [C + "eq:delta_order_ce"],
    "eq:UCB upper bound appendix CE": [C + "eq:UCB upper bound appendix CE"],
    # definitions that carry a claim in the sentence after them
    "eq:T_epsilon_actual": [C + "eq:T_epsilon_actual"],
    "eq:T_epsilon": [C + "eq:T_epsilon"],
}
#: The theorems' constants re-derived from their proofs (item 3).
CHAINS = ["theorem: ETC upper bound#chain", "theorem:RS-ETC-M#chain", "theorem:UCB upper bound#chain.rs-ucb-m",
          "theorem:UCB upper bound#chain.ce-ucb-m", "corollary:RS-UCB-M#chain"]
#: The theorems' displayed statements, judged by the computation of their chains (statement entries).
DISPLAYS = ["theorem: ETC upper bound#display", "theorem:RS-ETC-M#display", "corollary:RS-UCB-M#display"]
MODULES = (steps_etc, steps_ucb, steps_tracking, constants_theorems)


def test_every_claim_label_of_the_range_has_an_entry():
    known = claims()
    for label, ids in CLAIM_LABELS.items():
        for ident in ids:
            assert ident in known, (label, ident)
    mine = [i for m in MODULES for i in m.CLAIMS]
    listed = {i for ids in CLAIM_LABELS.values() for i in ids} | set(CHAINS) | set(DISPLAYS)
    assert set(mine) <= listed, set(mine) - listed
    assert len(mine) == len(set(mine)) == 77 + len(DISPLAYS)
    for ident in CHAINS + DISPLAYS:
        assert ident in known


def test_ids_name_the_result_and_the_label():
    for m in MODULES:
        for ident in m.CLAIMS:
            result, _, part = ident.partition("#")
            assert result in ("theorem: ETC upper bound", "theorem:RS-ETC-M", "theorem:UCB upper bound",
                              "corollary:RS-UCB-M", "lemma:undersampling", "lemma:oversampling")
            assert part.startswith(("step:eq:", "step:after:eq:", "chain")) or ident in DISPLAYS


@pytest.mark.parametrize("ident, status, phrase", [
    (E + "eq:number of samples", "refuted", "the bound is 1/delta"),
    (E + "eq:ETC_M_eps", "refuted", "3/25 vs 9/200"),
    (E + "eq:E3C", "verified", "simplifies to 0"),
    (E + "eq:ETC_2", "refuted", "both = Delta_min/2, so E_N(Delta_min/2) holds"),
    (E + "eq: ETC commit 3", "refuted", "is skipped but not in S'"),
    (E + "eq: ETC commit 2", "refuted", "a^E_N = (1/2, 1/2)"),
    (E + "eq: ETC commit 4", "refuted", "the chain's end |tau_T(K)/T - a(K)| <= 2*N/T fails in 0"),
    ("eq: ETC commit 5", "refuted", "(ceil(N/K) - N/K)/T"),
    (U + "eq:A21", "verified", "= 1"),
    (U + "after:eq:UCB_f2", "verified", "at T = floor(e^K) + 1"),
    (U + "eq:UCB_f2", "gap", "No counterexample in the proof's context"),
    (U + "eq:samlingequiv", "refuted", "At t = E = K N every arm has tau = N"),
    (U + "eq:replace", "refuted", "gini on Bern(1/4, 3/4), mid-point grid eps = 1/3"),
    (U + "eq:UCB_UB10-1", "refuted", "OPT~_t is the wrong point alone"),
    ("lemma:oversampling#step:eq:oversampling2", "refuted", "every deficit is 0 and eq:UCB_sampling_rule pulls arm 1"),
    ("lemma:oversampling#step:eq:m_finite", "refuted", "pulled 14250 times after T_0 (stepped one pull at a time)"),
    ("lemma:undersampling#step:eq:UK_oneside", "refuted", "ends at E = K N"),
    (U + "eq:Discretized_regret", "gap", "sqrt(eps)"),
    ("lemma:oversampling#step:eq:m", "verified", "difference 0"),
    ("lemma:oversampling#step:eq:UK_1", "verified", "a/(t + 1)"),
    (R + "eq:ETC upper bound gamma appendix", "gap", "q in {1}"),
    (C + "eq:T_epsilon_actual", "gap", "Theta-constant must exceed"),
])
def test_findings_and_their_mutants(ident, status, phrase):
    res = evaluate(claims()[ident], mutants=True)
    assert res.status == status, res.evidence
    assert phrase in res.evidence, res.evidence
    assert res.mutant_caught


def test_in_context_witnesses_sit_at_the_proofs_own_N_eps():
    """Every in-context commit has T > N(eps) (at T), n0 = ceil(N(eps)/K) > 2.6e5 K, and its decision is the unique
    empirical maximiser of its outcome; the eq:ETC_2 witness is on the boundary of E_N exactly (route 2: floats)."""
    from proofs_checks.checks import _etc_context as ec

    cases = ec.commit_cases()
    assert cases and all(c.hz.T > c.hz.N and c.hz.n0 > 2.6e5 * c.K for c in cases)
    for c in cases[:6]:
        n = ec.n_eps(c.K, c.hz.T, c.eps, 1, 1, ec.values(ec.PAPER_P, c.eps)[4])
        assert n == c.hz.N
        from rsb_theory.rates.constants import N_eps_value
        assert math.isclose(N_eps_value(c.K, c.hz.T, float(c.eps), 1.0, 1.0,
                                        float(ec.values(ec.PAPER_P, c.eps)[4])), float(c.hz.N), rel_tol=1e-9)
    w = ec.boundary_witness()
    assert w.dev_star == w.dev_choice == w.D / 2 and w.choice != w.star and w.hz.n0 % 5 == 0
    p = [float(x) for x in w.p]
    h = lambda u: u * (1 - u)  # noqa: E731
    a_star, a_n = w.grid[w.star], w.grid[w.choice]
    v = lambda a, q: h(sum(float(x) * y for x, y in zip(a, q)))  # noqa: E731
    ph = [k / w.hz.n0 for k in w.k]
    assert math.isclose(v(a_star, p) - v(a_star, ph), float(w.D) / 2, rel_tol=1e-9)
    assert math.isclose(v(a_n, ph) - v(a_n, p), float(w.D) / 2, rel_tol=1e-9)


def test_exact_law_of_the_etc_decision_is_a_distribution():
    m = _steps.member("gini")
    law = _etc_exact.etc_law(m.d, _etc_exact.TwoPointArms((0.4, 0.9)), Fraction(1, 3), 4, 15)
    assert math.isclose(law.prob.sum(), 1.0, rel_tol=1e-12)
    assert law.Vhat.shape == (law.prob.size, len(law.grid))
    assert law.opt[law.star] and law.Delta_min > 0


def test_exact_law_matches_rsb_sim_trial_by_trial():
    """Route 1: the exact law's decision for each exploration outcome; route 2: rsb_sim's RS-ETC-M on the same
    reward table (explore = n0).  The final counts must be identical in every trial."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.instances import BernoulliInstance
    from rsb_sim.rewards import RewardTable

    p, n0, T, eps = (0.4, 0.9), 3, 20, Fraction(1, 4)
    m = _steps.member("gini")
    law = _etc_exact.etc_law(m.d, _etc_exact.TwoPointArms(p), eps, n0, T)
    cfg = SimConfig(T=T, trials=300, seed=7, eps=float(eps), explore=n0)
    res = run(cfg, BernoulliInstance(p), m.d, "rs-etc-m")
    table = RewardTable.from_seed(cfg.seed, cfg.trials, BernoulliInstance(p))
    ks = np.array([[int(table.outcomes(k, i, n0).sum()) for i in range(2)] for k in range(cfg.trials)])
    rows = ks[:, 0] * (n0 + 1) + ks[:, 1]  # the order of _etc_exact._outcomes for K = 2
    expect = np.array([etc_commit.commit_counts(law.grid[law.choice[r]], T, n0) for r in rows])
    np.testing.assert_array_equal(expect, res.counts)


def test_ucb_states_optimistic_value_is_the_maximum_over_the_box():
    rng = np.random.default_rng(3)
    for b in _ucb_states.blocks("any")[:40]:
        s = 0
        lo = np.clip(b.phat[s] - b.r[s], 0, 1)
        hi = np.clip(b.phat[s] + b.r[s], 0, 1)
        m = lo + rng.uniform(size=(200, lo.size)) * (hi - lo)
        vals = b.h(m @ b.points.T)
        assert np.all(vals <= b.ucb[s][None, :] + 1e-12)
        assert np.isclose(b.value_tilde(b.at)[s], b.ucb[s, b.at[s]], atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 6), st.integers(1, 6), st.integers(0, 40), st.data())
def test_derived_bound_on_arm_K(K, n0, extra, data):
    """The bound the commit-step entries derive, (|S'| ceil(N/K) + K - 1 - |S'|)/T, on the etc grid for K up to 6."""
    m = data.draw(st.integers(1, 6))
    grid = etc_commit.etc_grid(K, Fraction(1, m))
    a = grid[data.draw(st.integers(0, len(grid) - 1))]
    N = K * (n0 - 1) + data.draw(st.integers(1, K))
    T = K * n0 + 1 + extra
    tau = etc_commit.commit_counts(a, T, n0)
    S = [i for i in range(K) if a[i] < Fraction(N, K * T)]
    if K - 1 in S:
        return
    dev = abs(Fraction(tau[K - 1], T) - a[K - 1])
    assert dev <= Fraction(len(S) * n0 + K - 1 - len(S), T)


# ------------------------------------------------------------------ the tracking steps in their proof's context
def test_exact_tracker_with_jumps_and_periods_matches_the_step_by_step_tracker():
    """Route 1: _ucb_run.Tracker (jumps over stretches of one pulled arm, skips whole periods); route 2: the step-by-step
    exact tracker of lemma:oversampling.  Same counts on every printed mid-point grid tried, from exploration starts."""
    from proofs_checks.checks import _ucb_run as ur
    from proofs_checks.checks import oversampling as ov

    for K, eps in ((2, Fraction(1, 3)), (2, Fraction(1, 12)), (3, Fraction(2, 9)), (4, Fraction(1, 10))):
        assert ur.mid_point_aligned(K, eps)
        m = int(1 / eps - Fraction(K, 2))
        for n in ([0] * (K - 1), [m] + [0] * (K - 2), [0] * (K - 2) + [m]):
            a = ov.grid_point(K, eps, tuple(n))
            for N in (1, 7, 50):
                tau0 = (N,) * K
                for steps in (1, 37, 900, 4000):
                    tr = ur.Tracker(a, tau0, K * N)
                    tr.advance(K * N + steps)
                    assert tr.tau == [int(x) for x in ov.track_exact(a, tau0, steps).counts[-1]]
    assert not ur.mid_point_aligned(3, Fraction(1, 4))


def test_forced_exploration_running_past_T0_pulls_over_sampled_arms():
    """The witness K = 4, eps = 1/10, rho = 1/2, a* = (1/20, 1/20, 1/20, 17/20), T = 400 T_0 (T_0 = 1000): closed form and
    a pull-by-pull count agree; the exploration ends at E = 20 T_0 > T(eps) with O_E = {1, 2, 3}."""
    from proofs_checks.checks import _ucb_run as ur

    s = ur.setting(*ur.UNBALANCED[0])
    assert s.a == (Fraction(1, 20),) * 3 + (Fraction(17, 20),)
    small = ur.Run(ur.Setting(s.member, s.p, s.eps, s.rho, s.a, 1, s.delta_min, 1000, Fraction(2) / s.eps * 999),
                   400 * 1000)
    assert small.E == 20_000 > small.setting.T_eps == 19_980
    assert ur.exploration_pulls_of_over_sampled(small, 1000) == (14_250, 1000)
    assert ur.exploration_pulls_loop(small, 1000) == 14_250
    assert ur.over_sampled(s.a, ur.explore_counts(4, small.E), small.E) == (0, 1, 2)
    # at the paper's T_0(eps) of this instance (q = L = 1, Delta_min = 3/50) the same happens
    big = ur.Run(s, 400 * s.T0)
    assert big.E > s.T_eps and ur.exploration_pulls_of_over_sampled(big, s.T0)[0] > 0


def test_tracking_steps_hold_when_the_exploration_ends_by_T0():
    """The mutant that states the condition: the in-context failures of eq:m_finite and eq:UK_oneside are all runs whose
    exploration outlasts T_0(eps)."""
    for ident in ("lemma:oversampling#step:eq:m_finite", "lemma:undersampling#step:eq:UK_oneside"):
        c = claims()[ident]
        assert c.context is not None and c.run().status == "refuted"
        assert c.assuming("condition", steps_tracking.EXPLORATION_OVER, "").run().status == "verified"
        assert c.without_context().run().status == "verified"


def test_tie_of_optimal_grid_points_inside_the_ucb_context():
    w = steps_ucb.tie_witness()
    s = w["setting"]
    assert s.n_optimal == 2 and w["opt"].sum() == 2 and w["opt_tilde"].sum() == 1
    assert w["t"] >= s.T0 and w["tau"][0] != w["tau"][1] and w["margin"] > 0
    assert np.all(np.abs(w["phat"] - np.array([0.25, 0.75])) <= w["r"])  # E_0,t
    c = claims()[U + "eq:UCB_UB10-1"]
    every_law = c.assuming("holder_domain", "all laws on Omega", "")
    assert every_law.assuming("condition", steps_ucb.SINGLE_OPT, "").run().status == "verified"
    # the tie is a witness only outside the proof's context (eq:discrete_gap gives Delta_min(eps) = 0 there)
    outside = every_law.without_context().run()
    assert outside.status == "refuted" and "OPT~_t = [('5/8', '3/8')]" in outside.evidence
