"""lemma:oversampling, lemma:undersampling, eq:oversampledproof, eq: ETC commit 5/6, lemma:probability of E3."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from proofs_checks.checks import etc_commit, oversampling as ov, probability_E3, undersampling
from proofs_checks.ledger import CheckResult
from rsb_sim.rules import track

EPS = st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(3, 20), Fraction(2, 9),
                       Fraction(1, 7)])


@st.composite
def tracking_case(draw):
    K = draw(st.integers(2, 6))
    eps = draw(EPS)
    m = ov.mid_point_budget(K, eps)
    assume(m >= 0)
    n, left = [], m
    for _ in range(K - 1):
        k = draw(st.integers(0, left))
        n.append(k)
        left -= k
    t0 = draw(st.integers(K, 6 * K))
    # start counts summing to t0, incl. everything on one arm
    cuts = sorted(draw(st.lists(st.integers(0, t0), min_size=K - 1, max_size=K - 1)))
    tau0 = [b - a for a, b in zip([0] + cuts, cuts + [t0])]
    return K, eps, tuple(n), t0, tuple(tau0)


@settings(max_examples=150, deadline=None)
@given(tracking_case())
def test_oversampling_and_undersampling_hold_exactly(case):
    K, eps, n, t0, tau0 = case
    a = ov.grid_point(K, eps, n)
    assert min(a) >= eps / 2  # footnote's last coordinate included
    bound = ov.T_eps(eps, t0)
    assert bound == Fraction(2) / eps * (t0 - 1)
    traj = ov.track_exact(a, tau0, int(math.ceil(bound)) - t0 + 60)
    v = ov.oversampling_verdict(traj, eps)
    assert v.holds, (v.entered[:3], v.late[:3])
    m = undersampling.max_abs_deficit_after(traj, bound)
    assert m < K and m <= K - 1


def test_zero_weight_target_keeps_an_arm_oversampled():
    # on the etc grid a(i) = 0 is allowed: the lemma's argument needs a(i) >= eps/2
    traj = ov.track_exact((Fraction(0), Fraction(1)), (5, 5), 200)
    v = ov.oversampling_verdict(traj, Fraction(1, 10))
    assert not v.holds and v.late


@settings(max_examples=60, deadline=None)
@given(tracking_case())
def test_exact_tracker_matches_rsb_sim_track(case):
    K, eps, n, t0, tau0 = case
    a = ov.grid_point(K, eps, n)
    traj = ov.track_exact(a, tau0, 80)
    af = np.array([[float(x) for x in a]])
    tau = np.array([tau0], dtype=float)
    for s in range(80):
        arm = int(track(t0 + s, af, tau)[0])
        assert arm == traj.actions[s]
        tau[0, arm] += 1


def test_rsb_sim_replays_exact_tracker():
    same, v, traj, eps = ov.simulated_verdict()
    assert same and v.holds


def test_rho_T_over_2_counterexample():
    n0, t = undersampling.first_undersampled(1000, 0.1, math.sqrt(2 * math.log(1000) / 1000))
    assert n0 == 3 and t == 52 and t > 50
    eps, n0_sim, first = undersampling.simulated_rho_case()
    assert n0_sim == 3 and first == 53


@settings(max_examples=200, deadline=None)
@given(K=st.integers(2, 4), eps=st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(3, 10), Fraction(1, 6)]),
       n0=st.integers(1, 8), dT=st.integers(1, 120), data=st.data())
def test_etc_commit_counts(K, eps, n0, dT, data):
    pts = etc_commit.etc_grid(K, eps)
    a = data.draw(st.sampled_from(pts))
    N = K * (n0 - 1) + 1
    T = N + dT
    tau = etc_commit.commit_counts(a, T, n0)
    assert sum(tau) == T and min(tau) >= 0
    dev = max(abs(Fraction(c, T) - ai) for c, ai in zip(tau, a))
    if N * (K + 1) >= (K - 1) ** 2:
        assert dev <= Fraction(2 * N, T)
    assert dev <= Fraction((K - 1) * n0 + 1, T) or dev <= 1


def test_etc_commit_6_small_N_counterexample():
    tau = etc_commit.commit_counts((0, 0, 0, 1), 5, 1)
    assert tau == [1, 1, 1, 2]
    assert Fraction(3, 5) > Fraction(2 * 1, 5)  # |2/5 - 1| > 2N/T with N = 1


@settings(max_examples=100, deadline=None)
@given(T=st.integers(2, 10**7), K=st.integers(1, 20))
def test_E3_printed_bound_dominates_union_over_sample_sizes(T, K):
    assert probability_E3.printed_bound(T, K) >= 2 * K / T * (1 - 1e-12)


@pytest.mark.parametrize("fn,status", [
    (lambda: undersampling.check("bound"), "conditional"), (lambda: undersampling.check("rhoT2"), "refuted"),
    (lambda: ov.CLAIMS[ov.ID].run(), "conditional"), (lambda: probability_E3.CLAIMS[probability_E3.ID].run(), "verified"),
    (lambda: etc_commit.check("6"), "conditional"), (lambda: etc_commit.check("5"), "refuted")])
def test_checks_statuses(fn, status):
    r = fn()
    assert isinstance(r, CheckResult) and r.status == status and r.evidence


def test_printed_values_are_the_claims_data():
    """The bounds are read from the claim: a smaller m, a constant 1/8 in Q, the derived (K-1)/t change verdicts."""
    over = ov.CLAIMS[ov.ID]
    assert over.reprinted(f"({over.printed})/2", "").run().status == "refuted"
    e3 = probability_E3.CLAIMS[probability_E3.ID]
    assert e3.reprinted((e3.printed[0], "1/32"), "").run().status == "verified"
    assert e3.reprinted((e3.printed[0], "1/8"), "").run().status == "conditional"
    under = undersampling.CLAIMS[undersampling.ID]
    assert under.reprinted(("K - 1", "<="), "").run().status == "conditional"  # from T_0 on it holds; see below
    assert under.reprinted(("1", "<="), "").run().status == "refuted"
    six = etc_commit.CLAIMS[etc_commit.ID]
    assert six.assuming("condition", etc_commit.CONDITION_6, "").run().status == "verified"


def test_sampling_lemmas_in_context_need_the_exploration_to_be_over():
    """Read with the paper's T(eps), both statements fail just after T(eps) when RS-UCB-M's forced exploration leaves
    arms over-sampled past it (an exact run of the proof's context); they hold from max(T(eps), (2/eps)(ceil(rho T
    eps/4) - 1)) on and at t = T, their only use: conditional, the condition holding at the use; stating the range
    makes them hold (the mutant)."""
    from proofs_checks.checks import _sampling_context as sc
    from proofs_checks.checks import _ucb_run as ur

    ctx = sc.cases(lambda a, tau, t: bool(ur.over_sampled(a, tau, t)), lambda run: run.setting.T_eps)
    bad = [c for c in ctx if c.witness]
    assert bad and all(c.holds_from_start and c.holds_at_T and c.start <= c.run.T for c in ctx)
    for c in bad:  # second route: the witness by the definition, with the exploration's closed form / stepped tracker
        t, tau = c.witness
        s = c.run.setting
        assert t > c.T_eps and any(tau[i] > t * s.a[i] + 1 for i in range(s.K))
        # the exploration's over-sampled arm is never pulled after E: its count is still N
        assert t <= c.run.E or min(tau) == c.run.N
    # the end of the exploration is not enough: a failure after both T(eps) and E
    assert any(c.witness[0] > c.run.E for c in bad)
    for claim, mod in ((ov.CLAIMS[ov.ID], ov), (undersampling.CLAIMS[undersampling.ID], undersampling)):
        res = claim.run()
        assert res.status == "conditional" and res.condition == sc.REPAIR and res.condition_at_uses is True
        assert claim.assuming("range", sc.REPAIR, "").run().status in ("verified", "loose")


def test_e3_needs_twice_the_radius():
    """||F~ - F||_W <= 2r (triangle inequality), attained: F = Bern(p), F_hat = Bern(p + r), F~ = Bern(p + 2r)."""
    r = 0.1
    assert probability_E3.triangle_example(r) == pytest.approx(2 * r)
    assert probability_E3.radius_prefactor() == 16  # eq:UCB_confidence_sets: 16 (sqrt(2 e log T) + 32)/sqrt(tau)
    # the proof's own route needs 1/(2 x 16); the factors eq:E3_1 drops leave K/(2 x 16), smallest at K = 2
    assert probability_E3.needed_constants() == (sp.Rational(1, 32), sp.Rational(1, 16))
    assert probability_E3.simplex_power_sums()[0]


def test_undersampled_time_exceeds_rho_T_over_2_at_every_setting():
    for T, rho in undersampling.RHO_SETTINGS:
        eps = math.sqrt(2 * math.log(T) / T)
        n0 = math.ceil(rho * T * eps / 4)
        t = math.floor(2 * n0 / eps) + 1  # first t with t eps / 2 > n0
        assert undersampling.first_undersampled(T, rho, eps) == (n0, t) and t > rho * T / 2


def test_bad_part_names_argument():
    with pytest.raises(ValueError, match="argument 'part'"):
        undersampling.check("nope")
    with pytest.raises(ValueError, match="argument 'part'"):
        etc_commit.check("7")
