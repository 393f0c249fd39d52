"""Reward table (rsb_sim.rewards), instances (rsb_sim.instances) and config validation."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rsb_sim.config import SimConfig
from rsb_theory.rates import N_eps_value, radius_constant
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.rewards import RewardTable, ScalarRewards, VectorRewards
from rsb_theory import rates
from rsb_theory.distortions import get

means = st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0, 1, allow_nan=False)


def test_block_boundaries_do_not_change_uniforms():
    table = RewardTable.from_seed(7, 3, BernoulliInstance((0.3, 0.6)))
    whole = table.uniforms(2, 1, 1000)
    g = table.generator(2, 1)
    pieces = np.concatenate([g.random(n) for n in (1, 7, 64, 300, 628)])
    assert np.array_equal(whole, pieces)


@pytest.mark.parametrize("block", [1, 3, 64, 2048])
def test_vector_scalar_and_direct_rewards_agree(block):
    inst = BernoulliInstance((0.3, 0.5, 0.8))
    table = RewardTable.from_seed(11, 4, inst)
    rng = np.random.default_rng(0)
    vec = VectorRewards(table, block=block)
    first = vec.take(np.array([2, 0, 5]))  # bulk then single pulls continue the same streams
    seen = {(k, i): [] for k in range(4) for i in range(3)}
    for _ in range(200):
        arms = rng.integers(0, 3, size=4)
        out = vec.next(arms)
        for k in range(4):
            seen[(k, int(arms[k]))].append(int(out[k]))
    for k in range(4):
        sc = ScalarRewards(table, k, block=5)
        for i, n0 in enumerate((2, 0, 5)):
            direct = table.outcomes(k, i, n0 + len(seen[(k, i)]))
            assert first[k, i, 1] == direct[:n0].sum()
            assert np.array_equal(direct[n0:], np.array(seen[(k, i)], dtype=direct.dtype))
            assert [sc.next(i) for _ in range(direct.size)] == direct.tolist()


@pytest.mark.parametrize("block", [1, 3, 64])
def test_reading_the_buffers_with_refill_gives_the_direct_rewards(block):
    """The protocol of compiled readers (CE-UCB-M's loop): read buffers(), refill at the end."""
    inst = BernoulliInstance((0.3, 0.5, 0.8))
    table = RewardTable.from_seed(5, 2, inst)
    vec = VectorRewards(table, block=block)
    vec.take(np.array([1, 2, 0]))
    buf, pos, fill = vec.buffers()
    vec.refill(np.flatnonzero(pos >= fill))
    got = {(k, i): [] for k in range(2) for i in range(3)}
    for step in range(90):
        k, i = step % 2, (step // 2) % 3
        f = k * 3 + i
        if pos[f] >= fill[f]:
            vec.refill(f)
        got[(k, i)].append(int(buf[f, pos[f]]))
        pos[f] += 1
    for (k, i), seq in got.items():
        n0 = (1, 2, 0)[i]
        assert seq == table.outcomes(k, i, n0 + len(seq))[n0:].tolist()
    f = 0
    if pos[f] >= fill[f]:
        vec.refill(f)
    with pytest.raises(ValueError, match="argument 'flat'"):
        vec.refill([f])  # unread rewards would be lost


def test_bernoulli_reward_is_u_below_p_and_streams_differ():
    inst = BernoulliInstance((0.25, 0.75))
    table = RewardTable.from_seed(3, 2, inst)
    u = table.uniforms(1, 0, 500)
    assert np.array_equal(table.outcomes(1, 0, 500), (u < 0.25).astype(np.int8))
    assert not np.array_equal(table.uniforms(0, 0, 50), table.uniforms(0, 1, 50))
    assert not np.array_equal(table.uniforms(0, 0, 50), table.uniforms(1, 0, 50))
    assert RewardTable.from_seed(3, 2, inst).entropy == 3


def test_seed_none_records_fresh_entropy():
    a = RewardTable.from_seed(None, 1, BernoulliInstance((0.1, 0.2)))
    b = RewardTable(a.entropy, 1, a.instance)
    assert np.array_equal(a.uniforms(0, 0, 10), b.uniforms(0, 0, 10))


def test_finite_support_inverse_cdf():
    inst = FiniteSupportInstance((0.0, 0.5, 2.0), ((0.2, 0.3, 0.5), (1.0, 0.0, 0.0)))
    u = np.array([0.0, 0.19, 0.2, 0.49, 0.5, 0.999999])
    assert inst.outcome(u, 0).tolist() == [0, 0, 1, 1, 2, 2]
    assert inst.outcome(u, 1).tolist() == [0] * 6
    table = RewardTable.from_seed(5, 1, inst)
    freq = np.bincount(table.outcomes(0, 0, 20000), minlength=3) / 20000
    np.testing.assert_allclose(freq, [0.2, 0.3, 0.5], atol=0.015)


@settings(max_examples=30, deadline=None)
@given(p=st.lists(means, min_size=2, max_size=6))
def test_bernoulli_value_and_optimum(p):
    d = get("gini")
    inst = BernoulliInstance(tuple(p))
    opt = inst.optimal(d)
    # V* = max of u(1-u) over [min p, max p]
    lo, hi = min(p), max(p)
    x = min(max(0.5, lo), hi)
    assert math.isclose(opt.value, x * (1 - x), abs_tol=1e-12)
    assert math.isclose(float(inst.value(d, np.array(opt.alpha))), opt.value, abs_tol=1e-9)
    # no vertex beats the optimal mixture
    assert np.all(inst.value(d, np.eye(len(p))) <= opt.value + 1e-12)


def test_finite_value_matches_bernoulli():
    d = get("dual_power")
    b = BernoulliInstance((0.3, 0.7))
    f = FiniteSupportInstance((0.0, 1.0), ((0.7, 0.3), (0.3, 0.7)))
    a = np.array([[0.25, 0.75], [1.0, 0.0]])
    np.testing.assert_allclose(b.value(d, a), f.value(d, a), atol=1e-12)


@pytest.mark.parametrize("make, needle", [
    (lambda: BernoulliInstance((0.5,)), "'p'"),
    (lambda: BernoulliInstance((0.5, 1.5)), "'p'"),
    (lambda: BernoulliInstance((0.5, float("nan"))), "'p'"),
    (lambda: FiniteSupportInstance((0.0, 0.0), ((1, 0), (0, 1))), "'support'"),
    (lambda: FiniteSupportInstance((-1.0, 0.0), ((1, 0), (0, 1))), "'support'"),
    (lambda: FiniteSupportInstance((0.0, 1.0), ((0.5, 0.6), (0, 1))), "'probs'"),
    (lambda: FiniteSupportInstance((0.0, 1.0), ((0.5, 0.5),)), "'probs'"),
    (lambda: SimConfig(T=0), "'T'"),
    (lambda: SimConfig(T=10, trials=0), "'trials'"),
    (lambda: SimConfig(T=10, eps=0.0), "'eps'"),
    (lambda: SimConfig(T=10, eps=1.5), "'eps'"),
    (lambda: SimConfig(T=10, rho=1.0), "'rho'"),
    (lambda: SimConfig(T=10, rho=0.0), "'rho'"),
    (lambda: SimConfig(T=10, radius_scale=-1.0), "'radius_scale'"),
    (lambda: SimConfig(T=10, explore=0), "'explore'"),
    (lambda: SimConfig(T=10, seed=-3), "'seed'"),
    (lambda: SimConfig(T=10, threads=0), "'threads'"),
    (lambda: SimConfig(T=10, threads=1.5), "'threads'"),
    (lambda: SimConfig(T=3).check_K(4), "'T'"),
])
def test_bad_input(make, needle):
    with pytest.raises(ValueError, match=needle):
        make()


@pytest.mark.parametrize("probs, needle", [
    (((0.5, 0.5), (1 / 3, 0.333333, 0.333333)[:2]), "row 2 (arm 2) sums to 0.666666333333, not 1"),
    (((0.333333, 0.333333, 0.333333), (0.2, 0.3, 0.5)), "row 1 (arm 1) sums to 0.999999, not 1 (tolerance 1e-09)"),
    (((0.2, 0.3, 0.5), (1.2, -0.1, -0.1)), "row 2 (arm 2) has the entry 1.2 outside [0, 1]"),
])
def test_probs_errors_name_the_row_and_its_sum(probs, needle):
    """A row that is not a probability vector is named (arms numbered 1..K) with its sum."""
    support = tuple(float(x) for x in range(len(probs[0])))
    with pytest.raises(ValueError, match=r"^argument 'probs': ") as err:
        FiniteSupportInstance(support, probs)
    assert needle in str(err.value)


@pytest.mark.parametrize("K, T, eps, L, q, Dmin", [(2, 1000, 0.1, 1.0, 1.0, 0.01), (4, 30000, 0.05, 2.0, 0.5, 0.2)])
def test_N_eps_matches_rates(K, T, eps, L, q, Dmin):
    expr = rates.N_eps().subs({rates.K: K, rates.T: T, rates.eps: eps, rates.L: L, rates.q: q,
                               rates.Delta_min: Dmin})
    assert math.isclose(N_eps_value(K, T, eps, L, q, Dmin), float(expr), rel_tol=1e-9)


def test_radius_constant_matches_rates():
    assert math.isclose(radius_constant(1000), float(rates.ucb_radius(1).subs(rates.T, 1000)), rel_tol=1e-12)


def test_default_eps():
    assert math.isclose(SimConfig(T=10**5).eps_for(2), math.sqrt(2 * math.log(1e5) / 1e5))


def test_auto_block_is_bounded_and_changes_no_result():
    """The block chosen for a run (rsb_sim.rewards.auto_block) lies between DEFAULT_BLOCK and T (within the
    buffer budget otherwise), and a run with it has the counts of a run with the default block."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run
    from rsb_sim.rewards import BUFFER_BYTES, DEFAULT_BLOCK, auto_block
    from rsb_theory.distortions import get

    assert auto_block(100, 10, 2) == DEFAULT_BLOCK
    assert auto_block(10**6, 1, 2) == 10**6 and auto_block(10**8, 1, 2) == BUFFER_BYTES // 2
    assert auto_block(300_000, 1000, 2) == BUFFER_BYTES // 2000
    inst, d = BernoulliInstance((0.3, 0.7)), get("gini")
    auto = run(SimConfig(T=5000, trials=3, seed=2, eps=0.1, radius_scale=0.01), inst, d, "rs-ucb-m")
    small = run(SimConfig(T=5000, trials=3, seed=2, eps=0.1, radius_scale=0.01, block=5), inst, d, "rs-ucb-m")
    assert np.array_equal(auto.counts, small.counts)
