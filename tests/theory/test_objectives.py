"""The objectives of the grid searches (rsb_theory.objectives): each class against the plain definition.

The definition is U_h(sum_i a_i F_i) (``eq:V``) computed independently -- by
:func:`rsb_theory.riskmetric.mixture_value` for empirical laws, by h(<a, p>)
with Python floats for Bernoulli arms -- plus the bonus L sum_i (a_i r_i)^q of
``eq:UCB_alpha2`` and, for RS-UCB, the max of h over the interval of means
(``eq:UCB_alpha`` reduced; the reduction itself is tested in test_argmax.py).
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rsb_theory.argmax import edge_lines
from rsb_theory.argmax import points_of, values
from rsb_theory.distortions import get, resolve
from rsb_theory.grids import Grid
from rsb_theory.objectives import (GUARD, MARGIN, CEUCBObjective, ETCObjective, FiniteCEUCBObjective,
                                   FiniteETCObjective, RSUCBObjective, ce_ucb_objective, ce_ucb_objective_finite,
                                   etc_objective, etc_objective_finite, guard, rs_ucb_objective)
from rsb_theory.riskmetric import mixture_value

NAMES = [("gini", {}), ("pht", {"s": 0.5}), ("mean_median", {}), ("cvar", {"alpha": 0.5}), ("right_tail", {}),
         ("dual_power", {"s": 2}), ("inter_es", {"alpha": 0.7}), ("quadratic", {"s": 0.5}), ("mean", {})]
means = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 1))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def cases(draw):
    K = draw(st.integers(2, 6))
    grid = Grid(K, draw(st.sampled_from([0.1, 0.15, 0.2, 1 / 7, 0.3])), draw(st.sampled_from(["etc", "ucb"])))
    B = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    name, params = draw(st.sampled_from(NAMES))
    return get(name, **params), grid, B, np.random.default_rng(seed)


def _sample(grid: Grid, rng, n: int = 25):
    counts = grid.counts()
    return counts[rng.integers(len(counts), size=min(n, len(counts)))]


def _h(d, x: float) -> float:
    return float(d.numeric(np.array([x]))[0])


@SETTINGS
@given(case=cases())
def test_bernoulli_objectives_equal_their_definitions(case):
    d, grid, B, rng = case
    K = grid.K
    p = rng.choice([0.0, 0.5, 1.0, rng.random()], size=(B, K))
    r = rng.random((B, K)) * rng.choice([1e-3, 0.1, 1.0])
    counts = _sample(grid, rng)
    P = points_of(grid, counts)
    objs = {"etc": etc_objective(d, p), "ce1": ce_ucb_objective(d, p, r, 1.0, 1.7),
            "ceq": ce_ucb_objective(d, p, r, 0.4, 0.6)}
    if d.shape.is_concave:
        objs["rs"] = rs_ucb_objective(d, p, r)
    for key, obj in objs.items():
        got = values(obj, grid, counts)
        for b in range(B):
            for j, a in enumerate(P):
                x = min(max(float(a @ p[b]), 0.0), 1.0)
                if key == "rs":
                    lo, hi = np.clip(p[b] - r[b], 0, 1) @ a, np.clip(p[b] + r[b], 0, 1) @ a
                    xs = np.linspace(lo, hi, 201)
                    want = _h(d, min(max(obj.xs_lo, lo), hi))
                    assert want >= float(np.max(d.numeric(xs))) - 1e-12  # the clip is the max over the interval
                else:
                    want = _h(d, x)
                    if key != "etc":
                        want += obj.L * sum((a_i * r_i) ** obj.q for a_i, r_i in zip(a, r[b]))
                assert got[b, j] == pytest.approx(want, rel=0, abs=1e-12), (key, b, a)


@SETTINGS
@given(case=cases(), m=st.integers(2, 5))
def test_finite_support_objectives_equal_their_definitions(case, m):
    d, grid, B, rng = case
    K = grid.K
    support = np.sort(rng.choice([-1.0, -0.5, 0.0, 0.2, 0.5, 1.0, 2.0], size=m, replace=False))
    probs = rng.dirichlet(np.full(m, 0.7), size=(B, K))
    r = rng.random((B, K))
    counts = _sample(grid, rng)
    P = points_of(grid, counts)
    plain = np.stack([mixture_value(d.numeric, support, probs[b], P) for b in range(B)])
    np.testing.assert_allclose(values(etc_objective_finite(d, support, probs), grid, counts), plain, rtol=0,
                               atol=1e-12)
    ce = ce_ucb_objective_finite(d, support, probs, r, 0.5, 1.3)
    bonus = 1.3 * np.sqrt(P[None, :, :] * r[:, None, :]).sum(axis=2)
    np.testing.assert_allclose(values(ce, grid, counts), plain + bonus, rtol=0, atol=1e-12)


@SETTINGS
@given(case=cases())
def test_one_evaluation_for_coordinates_and_explicit_mixtures(case):
    """values_at (grid coordinates) and at_points (mixtures) are one evaluation: bit-identical for the same weights."""
    d, grid, B, rng = case
    K = grid.K
    p = rng.random((B, K))
    r = rng.random((B, K)) * 0.1
    support = np.array([0.0, 0.4, 1.0])
    probs = rng.dirichlet(np.ones(3), size=(B, K))
    counts = _sample(grid, rng)
    head = grid.weights(counts)
    total = np.zeros(len(counts))
    for i in range(K - 1):  # the running sum of the accumulators, left to right
        total = total + head[:, i]
    P = np.concatenate([head, np.maximum(1.0 - total, 0.0)[:, None]], axis=1)
    objs = [etc_objective(d, p), ce_ucb_objective(d, p, r, 1.0, 2.0), ce_ucb_objective(d, p, r, 0.5, 2.0),
            etc_objective_finite(d, support, probs), ce_ucb_objective_finite(d, support, probs, r, 0.5, 1.0)]
    if d.shape.is_concave:
        objs.append(rs_ucb_objective(d, p, r))
    for obj in objs:
        shared = obj.at_points(P)
        assert np.array_equal(values(obj, grid, counts), shared), obj.kind
        assert np.array_equal(obj.at_points(np.broadcast_to(P, (B,) + P.shape)), shared), obj.kind


@SETTINGS
@given(case=cases())
def test_bounds_dominate_every_completion(case):
    """The relaxation of a prefix (and of the root) bounds the values of every completion on the grid."""
    d, grid, B, rng = case
    if not d.shape.is_concave:
        return
    K = grid.K
    p = rng.random((B, K))
    r = rng.random((B, K)) * 0.2
    objs = [etc_objective(d, p), rs_ucb_objective(d, p, r), ce_ucb_objective(d, p, r, 1.0, 1.0),
            ce_ucb_objective(d, p, r, 0.5, 1.0),
            etc_objective_finite(d, [0.0, 0.5, 1.0], rng.dirichlet(np.ones(3), size=(B, K)))]
    counts = grid.counts()
    rows = np.broadcast_to(np.arange(B)[:, None], (B, len(counts)))
    for obj in objs:
        v = obj.values_at(grid, np.broadcast_to(counts, (B,) + counts.shape), rows)
        suf = obj.suffix()
        for depth in range(K - 1):
            acc = obj.zero((B, len(counts)))
            for i in range(depth):
                acc = obj.push(acc, i, grid.weights(counts[:, i]), rows)
            bound = obj.bound(suf, acc, depth, rows)
            assert np.all(bound + guard(bound) >= v), (obj.kind, depth)
        # ETC and RS-UCB values are h at some point: none exceeds the computed max of h (up to rounding)
        assert np.all(v <= obj.certificate + 4e-16 * max(1.0, abs(obj.certificate)))


def test_lagrangian_bound_dominates_on_the_grid():
    d = get("pht", s=0.5)
    rng = np.random.default_rng(2)
    grid = Grid(4, 0.1, "ucb")
    p, r = rng.random((3, 4)), rng.random((3, 4)) * 0.1
    counts = grid.counts()
    for q in (1.0, 0.5):
        obj = ce_ucb_objective(d, p, r, q, 1.0)
        lag = obj.lagrangian_bound(np.full(3, 0.5))
        rows = np.broadcast_to(np.arange(3)[:, None], (3, len(counts)))
        v = obj.values_at(grid, np.broadcast_to(counts, (3,) + counts.shape), rows)
        acc = obj.zero((3, len(counts)))
        acc = obj.push(acc, 0, grid.weights(counts[:, 0]), rows)
        assert np.all(lag.bound(acc, 1, rows) + guard(v) >= v)


def test_classes_and_capabilities():
    d = get("gini")
    p = np.array([[0.2, 0.7]])
    assert isinstance(etc_objective(d, p), ETCObjective) and etc_objective(d, p).mean_lines
    assert isinstance(rs_ucb_objective(d, p, 0.1), RSUCBObjective)
    ce = ce_ucb_objective(d, p, 0.1, 1.0, 1.0)
    assert isinstance(ce, CEUCBObjective) and ce.lagrangian and not ce.mean_lines and ce.certificate == math.inf
    fin = etc_objective_finite(d, [0.0, 1.0, 2.0], [[0.2, 0.3, 0.5], [0.5, 0.5, 0.0]])
    assert isinstance(fin, FiniteETCObjective) and fin.finite and fin.guard_scale == 2.0
    fce = ce_ucb_objective_finite(d, [0.0, 1.0], [[0.2, 0.8], [0.5, 0.5]], 0.1, 1.0, 1.0)
    assert isinstance(fce, FiniteCEUCBObjective) and not fce.lagrangian
    assert etc_objective(d, p).certificate == pytest.approx(0.25) and MARGIN < GUARD
    convex = etc_objective(resolve("u**2"), p)
    assert not convex.concave and math.isnan(convex.h_max)


@settings(max_examples=40, deadline=None)
@given(K=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_compiled_copy_agrees_with_the_objective(K, seed):
    """rsb_theory.argmax.edge_lines keeps a compiled copy of the CE-UCB evaluation (q = 1): same values within rounding."""
    rng = np.random.default_rng(seed)
    d = get("gini")
    grid = Grid(K, 0.1, "ucb")
    p, r, L = rng.random((1, K)), rng.random((1, K)), 1.7
    obj = ce_ucb_objective(d, p, r, 1.0, L)
    counts = _sample(grid, rng)
    c = L * r[0]
    edge_lines._kernel()  # the compiled functions (from numba's cache after the first run)
    h = edge_lines.compiled_h(d)  # h as the kernel sees it: a compiled callback
    mine = values(obj, grid, counts)[0]
    copy = [edge_lines._value(h, n, K, grid.eps, grid.offset, p[0], c) for n in counts]
    np.testing.assert_allclose(copy, mine, rtol=0, atol=1e-14)
