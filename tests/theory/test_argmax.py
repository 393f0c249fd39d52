"""Exact batched discrete argmax (rsb_theory.argmax): fast path vs full enumeration, the RS-UCB reduction."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from rsb_theory import argmax as A
from rsb_theory.argmax import (TIE_TOL, argmax, ce_ucb_objective, ce_ucb_objective_finite, etc_objective,
                               etc_objective_finite, rs_ucb_objective, second_best, upper_bound, values)
from rsb_theory.argmax import MAX_ENUMERATION
from rsb_theory.discretization import enumerate_optimum
from rsb_theory.distortions import get, resolve
from rsb_theory.grids import Grid
from rsb_theory.riskmetric import mixture_value, wasserstein1_finite

# Every row of table:table_regrets, parameters inside their domains (edges included).
DISTORTIONS = [
    ("mean", {}), ("dual_power", {"s": 2}), ("dual_power", {"s": 3.5}), ("quadratic", {"s": 0}),
    ("quadratic", {"s": 1}), ("quadratic", {"s": 0.5}), ("cvar", {"alpha": 0}), ("cvar", {"alpha": 0.5}),
    ("cvar", {"alpha": 0.8}), ("pht", {"s": 0.5}), ("pht", {"s": 0.2}), ("mean_median", {}),
    ("inter_es", {"alpha": 0.5}), ("inter_es", {"alpha": 0.7}), ("right_tail", {}), ("gini", {}),
]

means = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 0.25, 0.75]), st.floats(0, 1),
                  st.integers(0, 16).map(lambda k: k / 16))


@st.composite
def instances(draw, max_points=2500):
    K = draw(st.integers(2, 6))
    kind = draw(st.sampled_from(["etc", "ucb"]))
    offset = 0.0 if kind == "etc" else 0.5
    slack = draw(st.sampled_from([0.0, 0.0, 0.3, 0.77]))  # > 0: 1/eps off the lattice (footnote grids)
    m = draw(st.integers(0, 40))
    total = m + K * offset + slack
    assume(total >= 1)
    eps = 1.0 / total
    grid = Grid(K, eps, kind)
    assume(grid.size <= max_points)
    B = draw(st.integers(1, 3))
    p = np.array(draw(st.lists(st.lists(means, min_size=K, max_size=K), min_size=B, max_size=B)))
    if K > 2 and draw(st.booleans()):  # exact ties between arms
        i, j = draw(st.integers(0, K - 1)), draw(st.integers(0, K - 1))
        p[:, i] = p[:, j]
    name, params = draw(st.sampled_from(DISTORTIONS))
    d = get(name, **params)
    which = draw(st.sampled_from(["etc", "rs_ucb", "ce_ucb"]))
    radius = np.array(draw(st.lists(st.lists(st.sampled_from([0.0, 1e-3, 0.02, 0.1, 0.4, 5.0, 1e6]) | st.floats(0, 1),
                                             min_size=K, max_size=K), min_size=B, max_size=B)))
    if which == "etc":
        obj = etc_objective(d, p)
    elif which == "rs_ucb":
        if draw(st.booleans()):
            radius[0, 0] = math.inf
        obj = rs_ucb_objective(d, p, radius)
    else:
        q = draw(st.sampled_from([1.0, 0.5, 0.3]))
        L = draw(st.sampled_from([0.0, 1.0, 2.5]))
        obj = ce_ucb_objective(d, p, radius, q, L)
    prev = None
    if draw(st.booleans()):
        counts = grid.counts()
        idx = draw(st.lists(st.integers(0, len(counts) - 1), min_size=B, max_size=B))
        prev = counts[idx]
        none = draw(st.lists(st.booleans(), min_size=B, max_size=B))
        prev[np.array(none)] = -1
    return obj, grid, prev


def _same(a, b):
    assert np.array_equal(a.counts, b.counts), (a.counts, b.counts, a.best - b.best)
    assert np.array_equal(a.kept, b.kept)
    np.testing.assert_allclose(a.value, b.value, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.best, b.best, rtol=0, atol=1e-12)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(inst=instances())
def test_bnb_equals_enumeration(inst):
    """The fast path and the enumeration take the same decision (tie rule incl. `previous`)."""
    obj, grid, prev = inst
    ref = argmax(obj, grid, previous=prev, method="enumerate")
    fast = argmax(obj, grid, previous=prev, method="bnb")
    _same(ref, fast)
    assert ref.method == "enumerate" and fast.method == "bnb"
    # the decision satisfies the rule it claims
    assert np.all(ref.value >= ref.best - TIE_TOL)
    if prev is not None:
        has = ~np.all(prev == -1, axis=1)
        assert np.all(~ref.kept[~has])
        assert np.array_equal(ref.counts[ref.kept], prev[ref.kept])
    # upper_bound is an upper bound on M (the simulator's certificate)
    assert np.all(upper_bound(obj) >= fast.best)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(inst=instances())
def test_second_best_equals_enumeration(inst):
    obj, grid, _ = inst
    b1, s1, n1 = second_best(obj, grid, method="enumerate")
    b2, s2, n2 = second_best(obj, grid, method="bnb")
    np.testing.assert_allclose(b1, b2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s1, s2, rtol=0, atol=1e-12)
    assert np.array_equal(n1, n2)
    assert np.all(n1 >= 1) and np.all(n1 <= grid.size)
    assert np.all((s1 < b1 - TIE_TOL) | np.isneginf(s1))


def test_enumeration_matches_discretization_module():
    """ETC objective, no previous: the first optimal point of enumerate_optimum (independent code)."""
    rng = np.random.default_rng(3)
    for name in ("gini", "mean_median", "right_tail", "cvar", "mean"):
        d = get(name)
        for kind, eps in (("etc", 0.1), ("ucb", 0.1), ("etc", 0.07)):
            p = rng.random((4, 4))
            grid = Grid(4, eps, kind)
            dec = argmax(etc_objective(d, p), grid)
            for b in range(4):
                opt = enumerate_optimum(d, p[b], eps, kind)
                np.testing.assert_array_equal(dec.points[b], opt.a_star)
                assert dec.best[b] == pytest.approx(opt.value, abs=1e-15)


def test_values_against_grid_points():
    rng = np.random.default_rng(0)
    grid = Grid(3, 0.1, "ucb")
    p = rng.random((2, 3))
    r = rng.random((2, 3))
    d = get("pht", s=0.5)
    pts = grid.points()
    v = values(etc_objective(d, p), grid, grid.counts())
    np.testing.assert_allclose(v, np.sqrt(pts @ p.T).T, rtol=0, atol=1e-14)
    v = values(ce_ucb_objective(d, p, r, 0.5, 2.0), grid, grid.counts())
    expect = np.sqrt(pts @ p.T).T + 2.0 * np.sqrt(pts[None] * r[:, None]).sum(axis=2)
    np.testing.assert_allclose(v, expect, rtol=0, atol=1e-13)
    hi = np.clip(p + r, 0, 1)
    v = values(rs_ucb_objective(d, p, r), grid, grid.counts())
    np.testing.assert_allclose(v, np.sqrt(pts @ hi.T).T, rtol=0, atol=1e-14)  # h increasing: max at <a, hi>
    # shared vs per-trial counts
    c = grid.counts()[:5]
    np.testing.assert_array_equal(values(etc_objective(d, p), grid, c),
                                  values(etc_objective(d, p), grid, np.stack([c, c])))


def test_decision_points_are_grid_points():
    grid = Grid(4, 0.1, "etc")
    p = np.array([[0.1, 0.6, 0.3, 0.9]])
    dec = argmax(etc_objective(get("gini"), p), grid)
    pts, counts = grid.points(), grid.counts()
    row = np.flatnonzero((counts == dec.counts[0]).all(axis=1))
    np.testing.assert_array_equal(pts[row[0]], dec.points[0])
    assert abs(dec.points[0] @ p[0] - 0.5) < 0.05


def test_previous_is_kept_only_while_optimal():
    # gini with p = (0.2, 0.8): every mixture with a_1 = 1/2 is optimal (value 1/4)
    grid = Grid(2, 0.1, "etc")
    p = np.array([[0.2, 0.8], [0.2, 0.8]])
    obj = etc_objective(get("gini"), p)
    dec = argmax(obj, grid, previous=np.array([[5], [3]]))
    assert dec.kept.tolist() == [True, False]
    assert dec.counts.tolist() == [[5], [5]]
    # ties everywhere: mean with equal arms keeps any previous, else the lexicographically first point
    obj = etc_objective(get("mean"), np.full((2, 3), 0.5))
    grid = Grid(3, 0.25, "etc")
    for method in ("bnb", "enumerate"):
        dec = argmax(obj, grid, previous=np.array([[1, 2], [-1, -1]]), method=method)
        assert dec.kept.tolist() == [True, False]
        assert dec.counts.tolist() == [[1, 2], [0, 0]]


def test_degenerate_radius_makes_every_point_optimal():
    """With the paper's radius (>= 1) every ball contains Bern(x*): RS-UCB is flat, the first point wins."""
    grid = Grid(6, 0.1, "ucb")
    p = np.random.default_rng(1).random((5, 6))
    obj = rs_ucb_objective(get("gini"), p, 1.5)
    dec = argmax(obj, grid)
    assert np.all(dec.counts == 0) and np.all(dec.best == 0.25)
    best, second, n_opt = second_best(obj, grid)
    assert np.all(n_opt == grid.size) and np.all(np.isneginf(second))


def test_large_grid_fast_path():
    """Paper-scale grid (K = 6, ~10^7 points): bnb works where enumeration refuses."""
    T = 3e5
    grid = Grid(6, float(np.sqrt(6 * np.log(T) / T)), "etc")
    assert grid.size > MAX_ENUMERATION
    rng = np.random.default_rng(7)
    p = rng.binomial(5000, np.linspace(0.2, 0.9, 6), size=(3, 6)) / 5000
    obj = rs_ucb_objective(get("gini"), p, 0.01)
    dec = argmax(obj, grid)
    assert np.all(dec.value == 0.25) and np.all(dec.best == 0.25)
    # the choice is the first optimal point: every lexicographically smaller point on its line is worse
    c = dec.counts
    for b in range(3):
        if c[b, -1] > 0:
            before = c[b].copy()
            before[-1] -= 1
            assert values(obj, grid, before[None])[0, 0] < 0.25 - TIE_TOL
    with pytest.raises(ValueError, match="argument 'eps'"):
        argmax(obj, grid, method="enumerate")
    obj = ce_ucb_objective(get("pht"), p, rng.uniform(0.05, 0.2, (3, 6)), 0.5, 1.0)
    dec = argmax(obj, grid)
    assert np.all(dec.value == dec.best)


@st.composite
def finite_instances(draw):
    K = draw(st.integers(2, 5))
    kind = draw(st.sampled_from(["etc", "ucb"]))
    eps = draw(st.sampled_from([0.1, 0.15, 0.2, 1 / 7, 0.08, 0.3]))
    grid = Grid(K, eps, kind)
    assume(grid.size <= 2000)
    m = draw(st.integers(2, 5))
    support = np.sort(np.array(draw(st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.2, 0.5, 1.0, 2.0]),
                                             min_size=m, max_size=m, unique=True))))
    B = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(m, 0.7), size=(B, K))
    if draw(st.booleans()):
        probs[:, -1] = probs[:, 0]  # tied arms
    name, params = draw(st.sampled_from(DISTORTIONS))
    d = get(name, **params)
    if draw(st.booleans()):
        obj = etc_objective_finite(d, support, probs)
    else:
        obj = ce_ucb_objective_finite(d, support, probs, rng.random((B, K)), draw(st.sampled_from([1.0, 0.5])),
                                      draw(st.sampled_from([0.0, 1.0])))
    prev = grid.counts()[rng.integers(grid.size, size=B)] if draw(st.booleans()) else None
    return obj, grid, prev, support, probs


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(inst=finite_instances())
def test_finite_support_bnb_equals_enumeration(inst):
    """Finite-support arms (step identity of eq:wang_def): values, argmax and second best."""
    obj, grid, prev, support, probs = inst
    if obj.kind == "etc_finite":
        v = values(obj, grid, grid.counts())
        ref = np.stack([mixture_value(obj.d.numeric, support, probs[b], np.clip(grid.points(), 0, 1))
                        for b in range(obj.B)])
        np.testing.assert_allclose(v, ref, rtol=0, atol=1e-12)
    _same(argmax(obj, grid, previous=prev, method="enumerate"), argmax(obj, grid, previous=prev, method="bnb"))
    b1, s1, n1 = second_best(obj, grid, method="enumerate")
    b2, s2, n2 = second_best(obj, grid, method="bnb")
    np.testing.assert_allclose(s1, s2, rtol=0, atol=1e-12)
    assert np.array_equal(n1, n2)
    assert np.all(upper_bound(obj) >= b1)


def test_finite_support_reduces_to_bernoulli():
    """Arms on {0, 1} are Bernoulli: the finite-support objective equals h(<a, p>)."""
    p = np.array([[0.3, 0.8, 0.55], [0.0, 1.0, 0.5]])
    probs = np.stack([1 - p, p], axis=-1)
    grid = Grid(3, 0.1, "ucb")
    d = get("gini")
    np.testing.assert_allclose(values(etc_objective_finite(d, [0.0, 1.0], probs), grid, grid.counts()),
                               values(etc_objective(d, p), grid, grid.counts()), rtol=0, atol=1e-15)
    a = argmax(etc_objective_finite(d, [0.0, 1.0], probs), grid)
    b = argmax(etc_objective(d, p), grid)
    np.testing.assert_array_equal(a.counts, b.counts)
    with pytest.raises(ValueError, match="argument 'probs_hat'"):
        etc_objective_finite(d, [0.0, 1.0], np.array([[0.5, 0.6], [0.5, 0.5]]))
    with pytest.raises(ValueError, match="argument 'support'"):
        etc_objective_finite(d, [1.0, 0.0], probs)
    with pytest.raises(ValueError, match="argument 'q'"):
        ce_ucb_objective_finite(d, [0.0, 1.0], probs, 0.1, 2.0, 1.0)


# ---------------------------------------------------------------------------
# The RS-UCB reduction (eq:UCB_alpha with the balls eq:UCB_confidence_sets)
# ---------------------------------------------------------------------------

SUPPORT = np.linspace(0.0, 1.0, 21)


def _bernoulli_on_support(m):
    """Bern(m) as masses on SUPPORT (atoms 0 and 1)."""
    out = np.zeros(m.shape + (SUPPORT.size,))
    out[..., 0] = 1 - m
    out[..., -1] = m
    return out


@settings(max_examples=60, deadline=None)
@given(K=st.integers(2, 5), seed=st.integers(0, 2**32 - 1),
       name=st.sampled_from(["gini", "right_tail", "mean_median", "cvar", "pht", "dual_power", "inter_es"]))
def test_rs_ucb_reduction(K, seed, name):
    """Laws in the W1 balls never beat max_{[<a,lo>,<a,hi>]} h; the Bernoulli witness attains it."""
    rng = np.random.default_rng(seed)
    d = get(name)
    phat = rng.choice([0.0, 0.5, 1.0, rng.random()], size=K)
    radius = rng.choice([0.0, 0.05, 0.2, 0.7], size=K)
    a = rng.dirichlet(np.ones(K))
    obj = rs_ucb_objective(d, phat[None], radius[None])
    lo, hi = obj.lo[0], obj.hi[0]
    xs = np.linspace(a @ lo, a @ hi, 2001)
    target = float(np.max(d.numeric(xs)))  # brute-force max of h over the interval
    # the module's value (a off the grid: evaluate through the objective's evaluation)
    reduced = float(obj.at_points(a[None, :])[0, 0])
    assert reduced >= target - 1e-12
    # random laws eta_i in the balls: mix Bern(phat_i) with a random law Q_i, weight t_i <= radius / W1
    bern = _bernoulli_on_support(phat)
    for _ in range(20):
        Q = rng.dirichlet(np.full(SUPPORT.size, 0.3), size=K)
        dist = wasserstein1_finite(SUPPORT, bern, Q)
        t = np.where(dist > 0, np.minimum(1.0, radius / np.where(dist > 0, dist, 1.0)), 1.0)
        eta = (1 - t)[:, None] * bern + t[:, None] * Q
        eta /= eta.sum(axis=1, keepdims=True)
        assert np.all(wasserstein1_finite(SUPPORT, bern, eta) <= radius + 1e-12)
        assert float(mixture_value(d.numeric, SUPPORT, eta, a)) <= reduced + 1e-12
    # the Bernoulli witness: m_i in [lo_i, hi_i] with <a, m> = clip(x*, <a,lo>, <a,hi>)
    x = float(np.clip(obj.xs_lo, a @ lo, a @ hi))
    width = a @ (hi - lo)
    theta = (x - a @ lo) / width if width > 0 else 0.0
    m = np.clip(lo + theta * (hi - lo), 0, 1)
    witness = _bernoulli_on_support(m)
    assert np.all(wasserstein1_finite(SUPPORT, bern, witness) <= radius + 1e-12)
    assert float(mixture_value(d.numeric, SUPPORT, witness, a)) == pytest.approx(reduced, abs=1e-12)


# ---------------------------------------------------------------------------
# Input errors
# ---------------------------------------------------------------------------


def test_errors_name_the_argument():
    d = get("gini")
    grid = Grid(3, 0.1, "etc")
    p = np.array([[0.2, 0.5, 0.7]])
    with pytest.raises(ValueError, match="argument 'phat'"):
        etc_objective(d, np.array([[0.3]]))  # K < 2
    with pytest.raises(ValueError, match="argument 'phat'"):
        etc_objective(d, np.array([[0.3, 1.2]]))
    with pytest.raises(ValueError, match="argument 'radius'"):
        rs_ucb_objective(d, p, -0.1)
    with pytest.raises(ValueError, match="argument 'radius'"):
        rs_ucb_objective(d, p, [0.1, np.nan, 0.1])
    with pytest.raises(ValueError, match="argument 'radius'"):
        ce_ucb_objective(d, p, np.inf, 1.0, 1.0)
    with pytest.raises(ValueError, match="argument 'radius'"):
        rs_ucb_objective(d, p, [0.1, 0.2])
    for q in (0.0, -1.0, 1.5, math.nan):
        with pytest.raises(ValueError, match="argument 'q'"):
            ce_ucb_objective(d, p, 0.1, q, 1.0)
    with pytest.raises(ValueError, match="argument 'L'"):
        ce_ucb_objective(d, p, 0.1, 0.5, -1.0)
    with pytest.raises(ValueError, match="argument 'd'"):
        etc_objective("gini", p)
    convex = resolve("u**2")
    with pytest.raises(ValueError, match="argument 'd'"):
        rs_ucb_objective(convex, p, 0.1)
    obj = etc_objective(convex, p)
    with pytest.raises(ValueError, match="argument 'd'"):
        argmax(obj, grid, method="bnb")
    with pytest.raises(ValueError, match="argument 'd'"):
        upper_bound(obj)
    assert argmax(obj, grid).method == "enumerate"  # auto falls back
    obj = etc_objective(d, p)
    with pytest.raises(ValueError, match="argument 'grid'"):
        argmax(obj, Grid(4, 0.1, "etc"))
    with pytest.raises(ValueError, match="argument 'method'"):
        argmax(obj, grid, method="fast")
    with pytest.raises(ValueError, match="argument 'previous'"):
        argmax(obj, grid, previous=np.array([[3, 9]]))
    with pytest.raises(ValueError, match="argument 'previous'"):
        argmax(obj, grid, previous=np.array([[3, -2]]))
    with pytest.raises(ValueError, match="argument 'previous'"):
        argmax(obj, grid, previous=np.array([3, 2]))
    with pytest.raises(ValueError, match="argument 'tol'"):
        argmax(obj, grid, tol=-1.0)
    with pytest.raises(ValueError, match="argument 'counts'"):
        values(obj, grid, np.array([[11, 0]]))
    with pytest.raises(ValueError, match="argument 'counts'"):
        values(obj, grid, np.array([[1, 0, 0]]))


def test_non_concave_enumeration():
    """A non-concave h (u^2: convex) still gets the exact argmax by enumeration."""
    d = resolve("u**2")
    grid = Grid(3, 0.1, "ucb")
    p = np.array([[0.1, 0.9, 0.4]])
    dec = argmax(etc_objective(d, p), grid)
    assert dec.method == "enumerate"
    np.testing.assert_array_equal(dec.counts, [[0, 8]])  # the best arm as much as the grid allows
    ce = argmax(ce_ucb_objective(d, p, 0.1, 1.0, 1.0), grid)
    assert ce.value[0] == pytest.approx(ce.best[0])


def test_neighbours_of_previous_seed_the_search_without_changing_it():
    """A neighbour of `previous` reaching max h certifies M at once (no dive); decisions equal enumeration."""
    from rsb_theory.argmax.certificates import neighbour_best
    from rsb_theory.argmax.lattice import unit_moves

    assert unit_moves(3).shape == (3 * 4, 3) and not np.any(np.all(unit_moves(3) == 0, axis=1))
    d = get("gini")
    grid = Grid(4, 0.05, "ucb")
    one = rs_ucb_objective(d, np.array([[0.9, 0.2, 0.3, 0.95]]), 0.02)
    counts = grid.counts()
    v = A.values(one, grid, counts[None])[0]
    # a previous choice below max h with a neighbour at max h (found by scanning the grid)
    nb = np.array([neighbour_best(one, grid, c[None], np.array([True]))[0] for c in counts[v < one.h_max][:400]])
    prev = counts[v < one.h_max][:400][np.flatnonzero(nb == one.h_max)[0]][None]
    dec = argmax(one, grid, previous=prev, method="bnb")
    _same(argmax(one, grid, previous=prev, method="enumerate"), dec)
    assert not dec.dived
    # a trial whose means are all below 1/2 is not certified by a neighbour: the dive runs, same decisions
    two = rs_ucb_objective(d, np.array([[0.9, 0.2, 0.3, 0.95], [0.1, 0.15, 0.2, 0.25]]), 0.02)
    prev2 = np.concatenate([prev, [[0, 0, 0]]])
    dec = argmax(two, grid, previous=prev2, method="bnb")
    _same(argmax(two, grid, previous=prev2, method="enumerate"), dec)
    assert dec.dived


def test_unvalidated_objectives_equal_validated_ones():
    """validate=False (the simulator's own arrays) builds the same objective as the checked path."""
    d = get("gini")
    grid = Grid(3, 0.1, "ucb")
    phat = np.array([[0.2, 0.5, 0.9], [0.0, 1.0, 0.5]])
    radius = np.array([[0.1, 0.02, 0.3], [0.5, 0.0, 0.05]])
    counts = grid.counts()[None].repeat(2, axis=0)
    for make in (lambda v: rs_ucb_objective(d, phat, radius, validate=v),
                 lambda v: ce_ucb_objective(d, phat, radius, 1.0, 1.0, validate=v)):
        a, b = make(True), make(False)
        assert np.array_equal(A.values(a, grid, counts), A.values(b, grid, counts))
    with pytest.raises(ValueError, match="'phat'"):
        rs_ucb_objective(d, np.array([[0.2, 1.5]]), 0.1)
