"""The rules written once (rsb_sim.rules, rsb_sim.rewards.pop_buffered): the vectorised and compiled routes agree."""

import numpy as np
from hypothesis import given, settings, strategies as st

from rsb_sim import rules
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.rewards import RewardTable, VectorRewards, pop_buffered
from rsb_theory.argmax import edge_lines
from rsb_theory.grids import Grid


@settings(max_examples=200, deadline=None)
@given(K=st.integers(2, 6), t=st.integers(0, 10_000), seed=st.integers(0, 2**32 - 1),
       eps=st.sampled_from([0.05, 0.1, 0.25]), tie=st.booleans())
def test_track_arm_is_the_rule_of_track_row_by_row(K, t, seed, eps, tie):
    """eq:UCB_sampling_rule: the vectorised rule of the NumPy loop equals the scalar rule on every row,
    including exact and near ties (deficits within TRACK_TOL)."""
    rng = np.random.default_rng(seed)
    grid = Grid(K, eps, "ucb")
    counts = grid.counts()[rng.integers(0, grid.size, size=20)]
    a = np.concatenate([eps * (counts + grid.offset), np.zeros((20, 1))], axis=1)
    a[:, -1] = np.clip(1.0 - a[:, :-1].sum(axis=1), 0.0, None)
    tau = rng.integers(0, t + 1, size=(20, K)).astype(float)
    if tie:  # equal deficits: every arm at its share
        tau = np.floor(t * a)
    got = rules.track(t, a, tau)
    for b in range(20):
        assert got[b] == rules.track_arm(t, a[b], tau[b])


def test_track_arm_compiled_equals_python():
    rng = np.random.default_rng(3)
    compiled = edge_lines.njit_cached(rules.track_arm)
    for _ in range(200):
        K = int(rng.integers(2, 7))
        a = rng.dirichlet(np.ones(K))
        tau = rng.integers(0, 50, size=K).astype(float)
        t = int(tau.sum())
        assert compiled(t, a, tau) == rules.track_arm(t, a, tau)
    a, tau = np.array([0.5, 0.5]), np.array([3.0, 3.0])
    assert compiled(6, a, tau) == rules.track_arm(6, a, tau) == 0  # a tie: the lowest arm index


def test_confidence_radius_scalar_array_compiled():
    tau = np.arange(1.0, 500.0)
    arr = rules.confidence_radius(813.7, tau)
    compiled = edge_lines.njit_cached(rules.confidence_radius)
    for j in (0, 1, 7, 498):
        assert arr[j] == rules.confidence_radius(813.7, float(tau[j])) == compiled(813.7, float(tau[j]))


def test_pop_buffered_reads_each_stream_in_order():
    """Reading the buffers of VectorRewards one reward at a time (with refills) gives the reward table."""
    for inst in (BernoulliInstance((0.3, 0.8, 0.5)), FiniteSupportInstance((0.0, 1.0, 2.0), ((0.2, 0.3, 0.5),) * 3)):
        table = RewardTable.from_seed(4, 2, inst)
        rew = VectorRewards(table, block=5)
        buf, pos, fill = rew.buffers()
        got = {(k, i): [] for k in range(2) for i in range(3)}
        order = [(k, i) for k in range(2) for i in range(3)] * 13
        for k, i in order:
            r = pop_buffered(buf, pos, fill, rew.pulls, k, i)
            if r < 0:
                rew.refill(k * 3 + i)
                r = pop_buffered(buf, pos, fill, rew.pulls, k, i)
            got[(k, i)].append(int(r))
        for (k, i), seq in got.items():
            assert seq == table.outcomes(k, i, 13).tolist()
        assert rew.pulls.tolist() == [[13] * 3] * 2 and rew.refills == 6 * 3  # blocks 1..3 of 5 per stream



def test_record_choice_is_points_of():
    """The loop's mixture of a grid point (compiled and as Python) is rsb_theory.argmax.points_of, bit for bit."""
    from rsb_sim.policies import _ce_loop
    from rsb_theory import argmax as am

    compiled = edge_lines.njit_cached(_ce_loop.record_choice)
    for K in range(2, 7):
        for kind in ("etc", "ucb"):
            grid = Grid(K, 0.1 if K < 5 else 0.2, kind)
            counts = grid.counts()
            want = am.points_of(grid, counts)
            for j in range(0, len(counts), max(1, len(counts) // 50)):
                for f in (_ce_loop.record_choice, compiled):
                    cur, a = np.full((3, K - 1), -1, dtype=np.int64), np.zeros((3, K))
                    f(counts[j], float(grid.eps), float(grid.offset), cur, a, 1)
                    assert np.array_equal(a[1], want[j]) and np.array_equal(cur[1], counts[j]), (K, kind, counts[j])
                    assert not a[[0, 2]].any() and np.all(cur[[0, 2]] == -1)


def test_radius_table_has_the_bits_of_the_radius():
    """The compiled loops read rsb_sim.rules.radius_table instead of computing radius_c / sqrt(n): the same bits."""
    import math

    from rsb_sim.rules import confidence_radius, radius_table

    for c in (0.0, 1e-3, 6.29, 629.0, 1 / 3):
        tab = radius_table(c, 5000)
        for n in range(1, 5001):
            assert tab[n] == confidence_radius(c, float(n)) == c / math.sqrt(n)
