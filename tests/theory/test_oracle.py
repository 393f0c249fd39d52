"""The oracle alpha* of eq:optimal alpha: three routes agree, W is exact, to_cvxpy is faithful.

Routes: closed form (two-point arms, exact), CVXPY/Clarabel (DCP-concave h),
search (any h).  The independent referee is a brute force over the simplex
(vertices, every edge on a fine grid, a simplex grid or Dirichlet samples),
evaluated by :func:`rsb_theory.riskmetric.mixture_value`.
"""

from __future__ import annotations

import itertools

import cvxpy as cp
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from rsb_theory.distortions import U, from_string, get, parse_expression
from rsb_theory.oracle import (
    NotDCPError,
    W_bernoulli,
    W_finite,
    bernoulli_arms,
    optimal_mixture,
    optimal_mixture_bernoulli,
    optimality_gap,
    to_cvxpy,
)
from rsb_theory.riskmetric import mixture_value, wasserstein1_finite

HALF = sp.Rational(1, 2)

#: Table 1 rows with parameters covering their domains, edges included
#: (dual power s >= 2, quadratic s in [0, 1], CVaR alpha in [0, 1), PHT s in (0, 1),
#: inter-ES alpha in [1/2, 1)).  A finite set keeps the symbolic set-up of each
#: distortion (validation, shape) cached across hypothesis examples.
TABLE1 = (
    [("mean", {})]
    + [("dual_power", {"s": s}) for s in (2, 3, "5/2", "73/10")]
    + [("quadratic", {"s": s}) for s in (0, "1/2", 1)]
    + [("cvar", {"alpha": a}) for a in (0, "1/2", "9/10")]
    + [("pht", {"s": s}) for s in ("1/100", "1/2", "99/100")]
    + [("mean_median", {})]
    + [("inter_es", {"alpha": a}) for a in ("1/2", "3/4", "99/100")]
    + [("right_tail", {}), ("gini", {})]
)
IDS = [f"{k}({','.join(f'{a}={b}' for a, b in p.items())})" for k, p in TABLE1]

means = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0))


@st.composite
def bernoulli_means(draw, k_min=2, k_max=6):
    """K in [k_min, k_max] means, with 0, 1/2, 1 likely and ties (a repeated mean) possible."""
    K = draw(st.integers(k_min, k_max))
    p = draw(st.lists(means, min_size=K, max_size=K))
    if draw(st.booleans()):
        i, j = draw(st.integers(0, K - 1)), draw(st.integers(0, K - 1))
        p[j] = p[i]
    return np.array(p)


def _edges(K: int, n: int) -> np.ndarray:
    """Vertices and n-point grids on every edge of the simplex, as rows."""
    lam = np.linspace(0.0, 1.0, n)
    rows = [np.eye(K)]
    for i, j in itertools.combinations(range(K), 2):
        A = np.zeros((n, K))
        A[:, i], A[:, j] = 1.0 - lam, lam
        rows.append(A)
    return np.vstack(rows)


def _simplex_grid(K: int, N: int) -> np.ndarray:
    pts = [c for c in itertools.product(range(N + 1), repeat=K - 1) if sum(c) <= N]
    return np.array([list(c) + [N - sum(c)] for c in pts], dtype=float) / N


def _brute(d, support, arms, seed: int, n_edge: int = 1001, n_dirichlet: int = 3000) -> tuple[float, np.ndarray]:
    """max V over vertices, edge grids, a simplex grid (K = 3) and Dirichlet samples."""
    K = arms.shape[0]
    rng = np.random.default_rng(seed)
    A = [_edges(K, n_edge)]
    if K == 3:
        A.append(_simplex_grid(3, 60))
    if K >= 3:
        A += [rng.dirichlet(np.full(K, c), n_dirichlet) for c in (1.0, 0.2)]
    A = np.vstack(A)
    A /= A.sum(axis=1, keepdims=True)
    v = mixture_value(d.numeric, support, arms, A)
    return float(v.max()), A[int(np.argmax(v))]


def _in_simplex(alpha) -> bool:
    a = np.asarray(alpha)
    return bool(np.all(a >= 0) and abs(a.sum() - 1) <= 1e-12)


# ---------------------------------------------------------------------------
# Bernoulli arms: closed form == cvxpy == brute force
# ---------------------------------------------------------------------------


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(row=st.sampled_from(range(len(TABLE1))), p=bernoulli_means())
def test_bernoulli_three_routes_agree(row, p):
    key, params = TABLE1[row]
    d = get(key, **params)
    exact = optimal_mixture_bernoulli(d, p, "closed_form")
    conv = optimal_mixture_bernoulli(d, p, "cvxpy")
    assert exact.method == "closed_form" and conv.method == "cvxpy"
    for o in (exact, conv):
        assert _in_simplex(o.alpha)
        # the value is V(alpha) recomputed by the Choquet step sum, and h(<alpha, p>) for Bernoulli arms
        assert o.value == pytest.approx(float(mixture_value(d.numeric, [0, 1], bernoulli_arms(p)[1], o.alpha)),
                                        abs=1e-15)
        assert o.value == pytest.approx(float(d(np.array([np.dot(o.alpha, p)]))[0]), abs=1e-12)
    assert conv.value <= exact.value + 1e-9  # the closed form is the exact maximum
    assert conv.value == pytest.approx(exact.value, abs=1e-6)

    # brute force on the segment [min p, max p] (the extreme edge) and on every other edge
    lo, hi = int(np.argmin(p)), int(np.argmax(p))
    lam = np.linspace(0.0, 1.0, 2001)
    seg = (1 - lam) * p[lo] + lam * p[hi]
    vals = d.numeric(seg)
    brute, _ = _brute(d, [0.0, 1.0], bernoulli_arms(p)[1], seed=0, n_edge=401, n_dirichlet=200)
    brute = max(brute, float(vals.max()))
    assert brute <= exact.value + 1e-9
    # grid resolution: for concave h the peak lies within one cell of the best grid point k and
    # h(q*) - h(x_k) <= the largest neighbouring difference around k (chord slopes of a concave h)
    k = int(np.argmax(vals))
    tol = float(np.max(np.abs(np.diff(vals[max(k - 2, 0): k + 3])), initial=0.0)) + 1e-12
    assert exact.value <= brute + tol
    assert exact.gap is not None and exact.gap <= 1e-9 and exact.certified


def test_experiment_instance_alpha_star_all_routes():
    """sec: experiments: alpha* = [0.8, 0.2] for Gini on (Bern(0.4), Bern(0.9)), from each route."""
    d = get("gini")
    for method in ("auto", "closed_form", "cvxpy", "search"):
        o = optimal_mixture_bernoulli(d, [0.4, 0.9], method)
        np.testing.assert_allclose(o.alpha, [0.8, 0.2], atol=1e-6)
        assert o.value == pytest.approx(0.25, abs=1e-10)
    assert optimal_mixture_bernoulli(d, [0.4, 0.9]).method == "closed_form"


@pytest.mark.parametrize("p", [[0.5, 0.5], [0.0, 0.0, 0.0], [1.0, 1.0], [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]])
def test_all_means_tie(p):
    """Every mixture is optimal; the closed form picks one arm, cvxpy any point of the simplex."""
    d = get("gini")
    for method in ("closed_form", "cvxpy", "search"):
        o = optimal_mixture_bernoulli(d, p, method)
        assert _in_simplex(o.alpha)
        assert o.value == pytest.approx(p[0] * (1 - p[0]), abs=1e-12)
    assert optimal_mixture_bernoulli(d, p).alpha[0] == 1.0


def test_closed_form_prefers_a_solitary_arm_and_mixes_otherwise():
    d = get("right_tail")  # sqrt(u) - u, maximised at u = 1/4
    o = optimal_mixture_bernoulli(d, [0.9, 0.25, 0.1])
    assert o.alpha == (0.0, 1.0, 0.0) and o.value == pytest.approx(0.25)
    o = optimal_mixture_bernoulli(d, [0.9, 0.1])
    assert np.dot(o.alpha, [0.9, 0.1]) == pytest.approx(0.25, abs=1e-15)


def test_closed_form_on_any_two_point_support():
    """V = a h(1) + (b - a) h(<alpha, p>) on {a, b}: the same maximiser, value shifted and scaled."""
    d = get("gini")
    arms = np.array([[0.6, 0.4], [0.1, 0.9]])
    for a, b in ((-1.0, 2.0), (0.5, 3.0)):
        o = optimal_mixture(d, [a, b], arms)
        assert o.method == "closed_form"
        np.testing.assert_allclose(o.alpha, [0.8, 0.2], atol=1e-12)
        assert o.value == pytest.approx(a * 0.0 + (b - a) * 0.25)
        assert optimal_mixture(d, [a, b], arms, "cvxpy").value == pytest.approx(o.value, abs=1e-7)


@pytest.mark.parametrize("text", ["u*(1-u)**2", "4*u*(1-u)*(1-u)", "sin(pi*u)**2"])
def test_nonconcave_bernoulli_search_matches_closed_form(text):
    d = from_string(text)
    for p in ([0.1, 0.9], [0.0, 0.5, 1.0], [0.05, 0.2, 0.8, 0.6]):
        exact = optimal_mixture_bernoulli(d, p)
        found = optimal_mixture_bernoulli(d, p, "search")
        assert exact.method == "closed_form"
        assert found.value <= exact.value + 1e-12
        assert found.value == pytest.approx(exact.value, abs=1e-9)
        assert found.gap is None and not found.certified  # no concavity, no certificate


# ---------------------------------------------------------------------------
# Finite-support arms: cvxpy vs search vs brute force
# ---------------------------------------------------------------------------


@st.composite
def finite_instances(draw, lo=0.0, hi=2.0):
    m = draw(st.integers(3, 5))
    K = draw(st.integers(2, 4))
    support = np.sort(np.array(draw(st.lists(st.floats(lo, hi), min_size=m, max_size=m, unique=True))))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    arms = rng.dirichlet(np.full(m, draw(st.sampled_from([0.3, 1.0]))), K)
    if draw(st.booleans()):  # an arm with an atom of zero mass, or a repeated arm (ties)
        arms[0] = arms[-1] if draw(st.booleans()) else np.eye(m)[draw(st.integers(0, m - 1))]
    arms /= arms.sum(axis=1, keepdims=True)
    return support, arms, seed


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(row=st.sampled_from(range(len(TABLE1))), inst=finite_instances())
def test_finite_support_cvxpy_search_brute_force(row, inst):
    key, params = TABLE1[row]
    d = get(key, **params)
    support, arms, seed = inst
    conv = optimal_mixture(d, support, arms, "cvxpy")
    assert optimal_mixture(d, support, arms).method == "cvxpy"  # auto picks cvxpy for >2 support points
    found = optimal_mixture(d, support, arms, "search", seed=seed % 1000)
    brute, _ = _brute(d, support, arms, seed, n_edge=201, n_dirichlet=1500)
    for o in (conv, found):
        assert _in_simplex(o.alpha)
        assert o.value == pytest.approx(float(mixture_value(d.numeric, support, arms, o.alpha)), abs=1e-15)
    assert conv.value >= brute - 1e-7
    assert found.value >= brute - 1e-7
    assert conv.value == pytest.approx(found.value, abs=1e-6)
    # the supergradient certificate is an upper bound on everything the brute force reaches
    assert conv.gap is not None and conv.value + conv.gap >= brute - 1e-9
    assert found.value + found.gap >= conv.value - 1e-9


@pytest.mark.parametrize("key", ["gini", "cvar", "right_tail", "inter_es"])
def test_signed_support(key):
    """Negative atoms: the h(1) term of eq:wang_def is constant, V stays concave; routes agree."""
    d = get(key)
    support = np.array([-1.5, -0.2, 0.0, 0.7, 2.0])
    arms = np.random.default_rng(3).dirichlet(np.ones(5), 3)
    conv = optimal_mixture(d, support, arms)
    found = optimal_mixture(d, support, arms, "search")
    brute, _ = _brute(d, support, arms, seed=3)
    assert conv.method == "cvxpy"
    assert conv.value >= brute - 1e-7 and found.value >= brute - 1e-7
    assert conv.value == pytest.approx(found.value, abs=1e-6)


def test_identical_arms_give_a_constant_program():
    d = get("gini")
    arms = np.tile([0.2, 0.5, 0.3], (3, 1))
    o = optimal_mixture(d, [0.0, 1.0, 2.0], arms, "cvxpy")
    assert _in_simplex(o.alpha)
    assert o.value == pytest.approx(float(mixture_value(d.numeric, [0, 1, 2], arms, [1, 0, 0])))
    assert o.gap == 0.0


def test_auto_routes():
    rng = np.random.default_rng(7)
    support, arms = np.array([0.0, 0.4, 1.0, 1.8]), rng.dirichlet(np.ones(4), 3)
    assert optimal_mixture(get("gini"), support, arms).method == "cvxpy"
    # concave, but not expressible in DCP: search, certified by the supergradient bound
    o = optimal_mixture(from_string("sin(pi*u)"), support, arms)
    assert o.method == "search" and o.certified and o.gap <= 1e-6
    o = optimal_mixture(from_string("u + u**3/6 - u**2"), support, arms)
    assert o.method == "search" and o.certified
    # not concave: search, no certificate
    o = optimal_mixture(from_string("u*(1-u)**2"), support, arms)
    assert o.method == "search" and o.gap is None and not o.certified
    brute, _ = _brute(from_string("u*(1-u)**2"), support, arms, seed=1)
    assert o.value >= brute - 1e-9


@pytest.mark.parametrize("K", [2, 3, 5])
def test_nonconcave_finite_support_search_vs_brute_force(K):
    d = from_string("4*u*(1-u)*(1-u)")
    rng = np.random.default_rng(K)
    support = np.array([0.0, 0.3, 0.9, 1.4, 2.0])
    arms = rng.dirichlet(np.full(5, 0.5), K)
    o = optimal_mixture(d, support, arms)
    brute, _ = _brute(d, support, arms, seed=K)
    assert o.method == "search" and _in_simplex(o.alpha)
    assert o.value >= brute - 1e-9


# ---------------------------------------------------------------------------
# The supergradient certificate
# ---------------------------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["gini", "cvar", "inter_es", "mean_median", "pht", "right_tail", "dual_power"]),
       inst=finite_instances(), data=st.data())
def test_gap_bounds_the_true_loss(key, inst, data):
    """optimality_gap(alpha) >= V(alpha*) - V(alpha) at arbitrary alpha (vertices, kinks, interior)."""
    d = get(key)
    support, arms, seed = inst
    K = arms.shape[0]
    best = optimal_mixture(d, support, arms, "cvxpy")
    rng = np.random.default_rng(seed)
    trial = [np.eye(K)[data.draw(st.integers(0, K - 1))], rng.dirichlet(np.ones(K)), np.array(best.alpha)]
    for a in trial:
        gap = optimality_gap(d, support, arms, a)
        loss = best.value - float(mixture_value(d.numeric, support, arms, a))
        assert gap >= loss - 1e-9


def test_gap_is_none_for_nonconcave_h_and_inf_for_an_infinite_slope():
    support, arms = np.array([0.0, 1.0, 2.0]), np.array([[1.0, 0.0, 0.0], [0.2, 0.3, 0.5]])
    assert optimality_gap(from_string("u**2"), support, arms, [0.5, 0.5]) is None
    # PHT at the vertex that puts no mass right of 0: h'(0) = oo, moving towards arm 2 is unbounded
    assert optimality_gap(get("pht"), support, arms, [1.0, 0.0]) == float("inf")
    assert optimality_gap(get("pht"), support, arms, [0.0, 1.0]) == pytest.approx(0.0, abs=1e-12)


# ---------------------------------------------------------------------------
# to_cvxpy
# ---------------------------------------------------------------------------


def _eval(expr, u: np.ndarray) -> np.ndarray:
    x = cp.Variable(u.size)
    out = to_cvxpy(expr, x)
    x.value = u
    return np.asarray(out.value, dtype=float)


U_GRID = np.r_[0.0, np.linspace(1e-6, 1 - 1e-6, 97), 1.0]


@pytest.mark.parametrize("key, params", TABLE1, ids=IDS)
def test_every_table1_distortion_translates_exactly(key, params):
    d = get(key, **params)
    x = cp.Variable(3)
    out = to_cvxpy(d, x)
    assert out.is_dcp() and out.is_concave()
    np.testing.assert_allclose(_eval(d.expr, U_GRID), d.numeric(U_GRID), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("s", [2, 3, 4, 5, 20])
def test_expanded_dual_power_translates(s):
    """1 - (1 - u)**s expanded into monomials is recognised as c + k (u - r)**s."""
    expr = sp.expand(get("dual_power", s=s).expr)
    np.testing.assert_allclose(_eval(expr, U_GRID), sp.lambdify(U, expr)(U_GRID), atol=1e-10)


@pytest.mark.parametrize("text", [
    "u**0.3*(1-u)", "sqrt(u)-u", "sqrt(u)*sqrt(1-u)", "sqrt(u*(1-u))", "u**0.2*(1-u)**0.5",
    "2*u/(1+u)", "3*u - 3*u**2 + u**3", "u - u**2/2 - u**3/6", "1-abs(1-2*u)", "log(1+u)/log(2)",
    "(1-exp(-u))/(1-exp(-1))", "min(2*u, 1)", "2*min(u, 1-u)",
])
def test_user_expressions_translate_exactly(text):
    d = from_string(text)
    np.testing.assert_allclose(_eval(d.expr, U_GRID), d.numeric(U_GRID), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("text, needle", [
    ("sin(pi*u)", "sin(pi*u)"),              # concave, but no DCP atom
    ("u**2", "CONVEX"),                      # convex
    ("u + u**3/6 - u**2", "term u**3/6"),    # concave, but DCP needs every term concave
    ("u*(1-u)**2", "not DCP-concave"),       # neither
    ("max(u, 1-u)", "not DCP-concave"),    # convex (not a distortion either: h(0) = 1)
])
def test_refusals_name_the_culprit(text, needle):
    with pytest.raises(NotDCPError, match="argument") as info:
        to_cvxpy(parse_expression(text), cp.Variable(2))
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_sign_guard_refuses_a_power_that_cvxpy_would_truncate():
    """power(u - 1/2, 3) is +oo for u < 1/2 in CVXPY: accepting it would cut the domain silently."""
    expr = sp.Rational(1, 8) - (U - HALF) ** 3 - U / 4
    with pytest.raises(NotDCPError, match="not >= 0"):
        to_cvxpy(expr, cp.Variable(2))
    # an odd power of a base <= 0 on [0, 1] is exact: (u - 1)**3 = -(1 - u)**3
    np.testing.assert_allclose(_eval(1 + (U - 1) ** 3, U_GRID), 1 + (U_GRID - 1) ** 3, atol=1e-12)


def test_piecewise_affine_concave_is_the_min_of_its_pieces():
    q = sp.Rational(1, 4)
    pw = sp.Piecewise((2 * U, U < q), (sp.Rational(1, 3) + 2 * U / 3, U < HALF), (sp.Rational(7, 6) - U, True))
    np.testing.assert_allclose(_eval(pw, U_GRID), sp.lambdify(U, pw)(U_GRID), atol=1e-12)
    curved = sp.Piecewise((U, U < HALF), (U - 10 * (U - HALF) ** 2, True))  # concave, but the min would be wrong
    with pytest.raises(NotDCPError, match="not affine"):
        to_cvxpy(curved, cp.Variable(2))
    with pytest.raises(NotDCPError, match="not concave"):
        to_cvxpy(sp.Piecewise((U, U < HALF), (2 * U - HALF, True)), cp.Variable(2))
    with pytest.raises(NotDCPError, match="discontinuous"):
        to_cvxpy(sp.Piecewise((U, U < HALF), (U / 2, True)), cp.Variable(2))


def test_self_check_catches_a_wrong_rule(monkeypatch):
    """A translation rule that is wrong (every power becomes sqrt) is caught by the grid comparison."""
    from rsb_theory.oracle import dcp

    expr = U ** sp.Rational(3, 10) - U
    dcp._self_check.cache_clear()
    monkeypatch.setattr(dcp, "_power", lambda arg, n: cp.sqrt(arg))
    try:
        with pytest.raises(NotDCPError, match="translation rule error"):
            to_cvxpy(expr, cp.Variable(2))
    finally:
        dcp._self_check.cache_clear()


def test_to_cvxpy_input_errors():
    with pytest.raises(NotDCPError, match="argument 'expr'"):
        to_cvxpy("u", cp.Variable(2))
    with pytest.raises(NotDCPError, match="free symbols"):
        to_cvxpy(U * sp.Symbol("s"), cp.Variable(2))
    with pytest.raises(ValueError, match="argument 'var'"):
        to_cvxpy(U, cp.square(cp.Variable(2)))


# ---------------------------------------------------------------------------
# W of eq:W
# ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(inst=finite_instances(lo=-2.0, hi=2.0))
def test_W_finite_is_the_sup_of_the_ratio(inst):
    support, arms, seed = inst
    K = arms.shape[0]
    W = W_finite(support, arms)
    i, j = np.triu_indices(K, k=1)
    assert W == pytest.approx(float(np.max(wasserstein1_finite(support, arms[i], arms[j]))) / 2)
    rng = np.random.default_rng(seed)
    alpha = rng.dirichlet(np.full(K, 0.5), 400)
    beta = rng.dirichlet(np.full(K, 0.5), 400)
    norm = np.abs(alpha - beta).sum(axis=1)
    keep = norm > 1e-3  # rounding in the numerator (~1e-16) is divided by the norm
    ratio = wasserstein1_finite(support, alpha[keep] @ arms, beta[keep] @ arms) / norm[keep]
    assert ratio.max() <= W * (1 + 1e-9) + 1e-11  # for K = 2 every ratio equals W: rounding only
    # attained at a pair of vertices
    pairs = [(a, b) for a in range(K) for b in range(K) if a != b]
    best = max(float(wasserstein1_finite(support, arms[a], arms[b])) / 2 for a, b in pairs)
    assert best == pytest.approx(W)


@settings(max_examples=40, deadline=None)
@given(p=bernoulli_means(), a=st.floats(-3, 3), width=st.floats(0.01, 3))
def test_W_bernoulli_equals_W_finite_on_two_points(p, a, width):
    support, arms = bernoulli_arms(p)
    assert W_bernoulli(p) == pytest.approx(W_finite(support, arms), abs=1e-15)
    assert W_bernoulli(p) == pytest.approx((p.max() - p.min()) / 2, abs=1e-15)
    # on {a, a + width}: W1 scales with the gap between the atoms
    assert W_finite([a, a + width], arms) == pytest.approx(width * W_bernoulli(p), abs=1e-12)


# ---------------------------------------------------------------------------
# Input errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, needle", [
    (lambda: optimal_mixture_bernoulli(get("gini"), [0.4]), "argument 'p'"),
    (lambda: optimal_mixture_bernoulli(get("gini"), [0.4, 1.2]), "argument 'p'"),
    (lambda: optimal_mixture_bernoulli(get("gini"), [[0.4, 0.9]]), "argument 'p'"),
    (lambda: optimal_mixture_bernoulli(get("gini"), [0.4, 0.9], "newton"), "argument 'method'"),
    (lambda: optimal_mixture_bernoulli(get("gini"), [0.4, 0.9], seed=-1), "argument 'seed'"),
    (lambda: optimal_mixture_bernoulli("gini", [0.4, 0.9]), "argument 'd'"),
    (lambda: optimal_mixture(get("gini"), [0, 1, 2], [[0.2, 0.3, 0.5]] * 2, "closed_form"), "argument 'support'"),
    (lambda: optimal_mixture(get("gini"), [0, 1, 2], [[0.2, 0.3, 0.5]]), "argument 'arm_probs'"),
    (lambda: optimal_mixture(get("gini"), [0, 1, 2], [[0.2, 0.3, 0.6]] * 2), "argument 'arm_probs'"),
    (lambda: optimal_mixture(get("gini"), [0, 2, 1], [[0.2, 0.3, 0.5]] * 2), "argument 'support'"),
    (lambda: W_bernoulli([0.3]), "argument 'p'"),
    (lambda: W_bernoulli([0.3, -0.1]), "argument 'p'"),
    (lambda: W_finite([0, 1], [[0.5, 0.5]]), "argument 'arm_probs'"),
    (lambda: optimality_gap(get("gini"), [0, 1], [[0.5, 0.5], [0.1, 0.9]], [0.5, 0.6]), "argument 'alpha'"),
])
def test_bad_input_names_the_argument(call, needle):
    with pytest.raises(ValueError, match=needle):
        call()


def test_cvxpy_route_refuses_a_non_dcp_h_clearly():
    with pytest.raises(NotDCPError, match=r"sin\(pi\*u\)"):
        optimal_mixture_bernoulli(from_string("sin(pi*u)"), [0.2, 0.7], "cvxpy")


# ---------------------------------------------------------------------------
# alpha* for Bernoulli arms: one place, exact; arms numbered 1..K in evidence
# ---------------------------------------------------------------------------


def test_alpha_star_bernoulli_is_exact_and_shared():
    from rsb_theory import bernoulli_profile
    from rsb_theory.oracle import alpha_star_bernoulli

    assert alpha_star_bernoulli([0.4, 0.9], 0.5).tolist() == [0.8, 0.2]  # not 0.19999999999999996
    assert alpha_star_bernoulli([0.3, 0.8], HALF).tolist() == [0.6, 0.4]
    assert alpha_star_bernoulli([0.2, 0.5, 0.5], 0.5).tolist() == [0.0, 1.0, 0.0]  # the lowest-index arm
    ip = bernoulli_profile.instance_profile(get("gini"), [0.4, 0.9], numeric_beta=False)
    assert list(ip.alpha_star) == list(optimal_mixture_bernoulli(get("gini"), [0.4, 0.9]).alpha) == [0.8, 0.2]


@settings(max_examples=30, deadline=None)
@given(p=bernoulli_means())
def test_closed_form_agrees_with_alpha_star_and_names_arms_from_one(p):
    from rsb_theory.oracle import alpha_star_bernoulli

    o = optimal_mixture_bernoulli(get("gini"), p)
    assert "arm 0" not in o.evidence and "arms 0" not in o.evidence
    q = float(np.asarray(o.alpha) @ p)
    assert np.allclose(alpha_star_bernoulli(p, q), o.alpha, atol=1e-12)
