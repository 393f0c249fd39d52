"""U_h of eq:wang_def: symbolic (eq:h_1_p, eq:V), step-function, empirical and quadrature routes."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from scipy import stats

from rsb_theory import riskmetric as R
from rsb_theory.distortions import U, from_string, get, names

CUSTOM = "u**0.3*(1-u)"
ALL = [*names(), CUSTOM]


@functools.lru_cache(maxsize=None)
def dist(key: str):
    """Registered distortion (default parameters) or a user expression, built once."""
    return get(key) if key in names() else from_string(key)


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """Symbolic equality, Min/Max rewritten as Piecewise on both sides."""
    return sp.simplify((sp.sympify(a) - sp.sympify(b)).rewrite(sp.Piecewise)) == 0


def rational(v) -> sp.Rational:
    v = Fraction(v)
    return sp.Rational(v.numerator, v.denominator)


# ---------------------------------------------------------------------------
# Symbolic routes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", ALL)
def test_bernoulli_closed_form_is_h_of_p(key):
    """eq:h_1_p: integrating eq:wang_def over the Bern(p) CDF gives h(p)."""
    d = dist(key)
    value = R.bernoulli_closed_form(d)
    assert value.free_symbols <= {R.P}
    assert not value.has(sp.Integral)
    assert same(value, d.expr.subs(U, R.P))
    third = R.bernoulli_closed_form(d, sp.Rational(1, 3))
    assert same(third, d.expr.subs(U, sp.Rational(1, 3)))


def test_bernoulli_closed_form_display():
    # the CLI prints this string (tests/checks/test_cli.py)
    assert str(R.bernoulli_closed_form(dist("gini"))) == "p*(1 - p)"


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("key", ["gini", "right_tail", "mean_median"])
def test_mixture_of_bernoullis_reduces_to_h_of_mean(key, K):
    """eq:V for Bernoulli arms: U_h(sum alpha_i Bern(p_i)) = h(<alpha, p>) under sum alpha = 1."""
    d = dist(key)
    expr, alphas, ps = R.mixture_of_bernoullis(d, K)
    assert len(alphas) == len(ps) == K
    assert alphas[-1] not in expr.free_symbols
    assert expr.free_symbols <= set(alphas[:-1]) | set(ps)
    mean = sp.expand(sum(a * p for a, p in zip(alphas, ps)).subs(alphas[-1], 1 - sum(alphas[:-1])))
    assert same(expr, d.expr.subs(U, mean))
    # and at an exact point of the simplex
    point = {a: sp.Rational(1, K + 1) for a in alphas[:-1]}
    point.update({p: sp.Rational(i + 1, K + 2) for i, p in enumerate(ps)})
    exact_mean = sum(sp.Rational(1, K + 1) * point[p] for p in ps[:-1]) + (1 - sp.Rational(K - 1, K + 1)) * point[ps[-1]]
    assert same(expr.subs(point), d.expr.subs(U, exact_mean))


LAWS = [
    ([0, 1], [sp.Rational(1, 3), sp.Rational(2, 3)]),
    ([-2, sp.Rational(1, 2), 3], [sp.Rational(1, 4), 0, sp.Rational(3, 4)]),
    ([-3, -1], [sp.Rational(1, 2), sp.Rational(1, 2)]),
    ([sp.Rational(1, 5), 2, sp.Rational(7, 2), 5], [sp.Rational(1, 10), sp.Rational(2, 5), sp.Rational(3, 10), sp.Rational(1, 5)]),
    ([sp.Rational(-7, 3)], [1]),
]


@pytest.mark.parametrize("key", ["gini", "cvar", "pht", "inter_es", CUSTOM])
@pytest.mark.parametrize("law", range(len(LAWS)))
def test_step_identity_matches_direct_integration(key, law):
    """The telescoped step sum equals sympy.integrate of eq:wang_def over the step CDF."""
    d = dist(key)
    support, probs = LAWS[law]
    by_steps = R.finite_support_symbolic(d, support, probs)
    by_integral = R.wang_integral(d, R.step_cdf(support, probs))
    assert same(by_steps, by_integral)


def test_finite_support_symbolic_with_symbolic_atoms():
    a, b = sp.symbols("a b", real=True)
    q = sp.Symbol("q", positive=True)
    gini = dist("gini")
    # two atoms a <= b: the integrand is h(q) on [a, b), signs of a, b irrelevant
    assert same(R.finite_support_symbolic(gini, [a, b], [1 - q, q]), (b - a) * q * (1 - q))
    # mean: E[X] = (1 - q) a + q b whatever the signs
    assert same(R.finite_support_symbolic(dist("mean"), [a, b], [1 - q, q]), (1 - q) * a + q * b)


def test_wang_integral_on_continuous_cdfs():
    x = R.X
    uniform = sp.Piecewise((0, x < 0), (x, x < 1), (1, True))
    exponential = sp.Piecewise((0, x < 0), (1 - sp.exp(-x), True))
    assert R.wang_integral(dist("gini"), uniform) == sp.Rational(1, 6)
    assert R.wang_integral(dist("mean"), exponential) == 1
    assert R.wang_integral(dist("gini"), exponential) == sp.Rational(1, 2)


def test_wang_integral_sees_a_hidden_zero_tail():
    """A CDF piece equal to 1 only after simplification: the tail integrand
    h(1 - Q) = h(0) must be recognised as 0, or SymPy returns oo*(...)."""
    x, q = R.X, sp.Symbol("q", real=True)
    one = sp.sin(q) ** 2 + sp.cos(q) ** 2
    cdf = sp.Piecewise((0, x < 0), (one / 2, x < 1), (one, True))
    assert same(R.wang_integral(dist("gini"), cdf), sp.Rational(1, 4))


# ---------------------------------------------------------------------------
# Numeric routes against the symbolic ones and against each other
# ---------------------------------------------------------------------------

rational_laws = st.integers(1, 6).flatmap(
    lambda m: st.tuples(
        st.lists(st.fractions(-5, 5, max_denominator=6), min_size=m, max_size=m, unique=True),
        st.lists(st.integers(0, 4), min_size=m, max_size=m).filter(lambda w: sum(w) > 0),
    )
)


@settings(max_examples=30, deadline=None)
@given(law=rational_laws, key=st.sampled_from(ALL))
def test_finite_support_numeric_matches_symbolic(law, key):
    support, weights = law
    support = sorted(support)
    total = sum(weights)
    probs = [Fraction(w, total) for w in weights]
    d = dist(key)
    exact = R.finite_support_symbolic(d, [rational(v) for v in support], [rational(v) for v in probs])
    numeric = R.finite_support(d.numeric, [float(v) for v in support], [float(v) for v in probs])
    assert float(numeric) == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("key", ["mean", "gini", "pht", "inter_es", "right_tail"])
def test_finite_support_matches_empirical(key):
    """Same sample, two routes: split step sum on the distinct values vs the L-statistic."""
    d = dist(key)
    rng = np.random.default_rng(7)
    samples = rng.integers(-6, 9, size=(4, 60)).astype(float) / 2.0  # ties, negatives, zero
    support = np.unique(samples)
    probs = np.stack([(row[:, None] == support).mean(axis=0) for row in samples])
    via_steps = R.finite_support(d, support, probs)
    via_order = R.empirical(d, samples)
    assert via_steps.shape == via_order.shape == (4,)
    np.testing.assert_allclose(via_steps, via_order, rtol=1e-12, atol=1e-12)
    # permutation invariance and a single-sample law (U_h(delta_c) = c h(1))
    np.testing.assert_allclose(R.empirical(d, samples[:, ::-1]), via_order, rtol=1e-12, atol=1e-12)
    assert float(R.empirical(d, [-2.5])) == pytest.approx(-2.5 * float(d(1.0)))


def test_batch_shapes():
    d = dist("gini")
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(5), size=(2, 3))
    out = R.finite_support(d, np.linspace(-1, 1, 5), probs)
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out[1, 2], R.finite_support(d, np.linspace(-1, 1, 5), probs[1, 2]))
    assert R.bernoulli(d, np.full((3, 2), 0.25)).shape == (3, 2)
    assert R.empirical(d, rng.normal(size=(2, 3, 7))).shape == (2, 3)
    assert R.wasserstein1_finite([0, 1, 2], probs[0, :, :3] / probs[0, :, :3].sum(-1, keepdims=True),
                                 [1, 0, 0]).shape == (3,)


@pytest.mark.parametrize("frozen, expected", [
    (stats.norm(1.3, 2.0), 1.3),
    (stats.norm(-40.0, 0.5), -40.0),
    (stats.uniform(-2.0, 5.0), 0.5),
    (stats.uniform(-5.0, 1.0), -4.5),  # support entirely left of 0
    (stats.uniform(2.0, 1.0), 2.5),  # support entirely right of 0
    (stats.expon(scale=2.0), 2.0),
    (stats.expon(loc=-3.0, scale=2.0), -1.0),
])
def test_quadrature_mean_is_expectation(frozen, expected):
    assert R.quadrature(dist("mean"), frozen) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_quadrature_gini_closed_forms():
    gini = dist("gini")
    assert R.quadrature(gini, stats.uniform()) == pytest.approx(1 / 6, rel=1e-10)
    assert R.quadrature(gini, stats.expon()) == pytest.approx(1 / 2, rel=1e-10)  # = wang_integral above
    # location invariance of a deviation (h(1) = 0), scale equivariance
    assert R.quadrature(gini, stats.uniform(-7.0, 3.0)) == pytest.approx(3 / 6, rel=1e-10)


@pytest.mark.parametrize("key", ["pht", "cvar", "dual_power"])
def test_quadrature_brackets_beta_discretisation_monotone(key):
    """Increasing h: U_h is monotone in first-order dominance, so the left- and
    right-endpoint discretisations of Beta(2, 5) bracket the quadrature value."""
    d, law, n = dist(key), stats.beta(2, 5), 4000
    grid = np.linspace(0.0, 1.0, n + 1)
    cell = np.diff(law.cdf(grid))
    cell /= cell.sum()
    lower = float(R.finite_support(d, grid[:-1], cell))
    upper = float(R.finite_support(d, grid[1:], cell))
    value = R.quadrature(d, law)
    assert lower - 1e-12 <= value <= upper + 1e-12
    assert upper - lower <= 2.0 / n


@pytest.mark.parametrize("key", ["gini", "right_tail", "mean_median", CUSTOM])
def test_quadrature_matches_fine_discretisation(key):
    d, law, n = dist(key), stats.beta(2, 5), 20000
    grid = np.linspace(0.0, 1.0, n + 1)
    cell = np.diff(law.cdf(grid))
    cell /= cell.sum()
    mid = float(R.finite_support(d, 0.5 * (grid[:-1] + grid[1:]), cell))
    assert R.quadrature(d, law) == pytest.approx(mid, abs=1e-5)


# ---------------------------------------------------------------------------
# Bernoulli mixtures (eq:V) and W1 (lemma:lipschitz-wasserstein), by hypothesis
# ---------------------------------------------------------------------------

prob = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0))


@st.composite
def bernoulli_instance(draw):
    K = draw(st.integers(2, 6))
    p = np.array(draw(st.lists(prob, min_size=K, max_size=K)))
    raw = []
    for _ in range(2):
        w = np.array(draw(st.lists(st.one_of(st.just(0.0), st.floats(0.0, 1.0)), min_size=K, max_size=K)))
        raw.append(w / w.sum() if w.sum() > 0 else np.full(K, 1.0 / K))
    return p, raw[0], raw[1]


@settings(max_examples=60, deadline=None)
@given(inst=bernoulli_instance(), key=st.sampled_from(ALL))
def test_mixture_value_of_bernoulli_arms_is_h_of_mean(inst, key):
    p, alpha, _ = inst
    d = dist(key)
    arms = np.stack([1.0 - p, p], axis=1)
    value = R.mixture_value(d, [0.0, 1.0], arms, alpha)
    assert float(value) == pytest.approx(float(d(alpha @ p)), abs=1e-12)
    # batch of alphas, and the numeric Bernoulli helper (eq:h_1_p)
    both = R.mixture_value(d, [0.0, 1.0], arms, np.stack([alpha, alpha]))
    np.testing.assert_allclose(both, [value, value], rtol=0, atol=1e-15)
    np.testing.assert_allclose(R.bernoulli(d, p), d(p), rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(inst=bernoulli_instance())
def test_w1_between_bernoulli_mixtures(inst):
    p, alpha, beta = inst
    arms = np.stack([1.0 - p, p], axis=1)
    w1 = R.wasserstein1_finite([0.0, 1.0], np.clip(alpha @ arms, 0, 1), np.clip(beta @ arms, 0, 1))
    assert float(w1) == pytest.approx(abs((alpha - beta) @ p), abs=1e-12)


def test_w1_general_support_against_scipy():
    rng = np.random.default_rng(11)
    support = np.sort(rng.normal(size=7))
    pa, pb = rng.dirichlet(np.ones(7), size=2)
    pa[2] = 0.0
    pa /= pa.sum()
    expected = stats.wasserstein_distance(support, support, pa, pb)
    assert float(R.wasserstein1_finite(support, pa, pb)) == pytest.approx(expected, rel=1e-12)
    assert float(R.wasserstein1_finite(support, pa, pa)) == 0.0


# ---------------------------------------------------------------------------
# lemma:risk-concave
# ---------------------------------------------------------------------------


def _random_instance(rng, K=3, m=6, n_alpha=300):
    support = np.sort(rng.choice(np.arange(-8, 9) / 2.0, size=m, replace=False))
    arms = rng.dirichlet(np.full(m, 0.5), size=K)
    arms[0, rng.integers(m)] = 0.0  # a zero-probability atom
    arms /= arms.sum(axis=1, keepdims=True)
    alpha = rng.dirichlet(np.ones(K), size=n_alpha)
    return support, arms, alpha


@pytest.mark.parametrize("key", ALL)
def test_risk_concave_for_concave_h(key):
    """lemma:risk-concave: V(alpha) >= sum_i alpha_i U_h(F_i) when h is concave."""
    d = dist(key)
    assert d.shape.is_concave  # all nine rows of table:table_regrets, and the user example
    rng = np.random.default_rng(100 + ALL.index(key))
    for _ in range(5):
        support, arms, alpha = _random_instance(rng)
        v = R.mixture_value(d, support, arms, alpha)
        chord = alpha @ R.finite_support(d, support, arms)
        assert np.all(v >= chord - 1e-12)


def test_risk_concave_fails_for_convex_h():
    d = from_string("u**2")
    assert d.shape.curvature == "convex"
    # Bern(0) and Bern(1) mixed half/half: V = h(1/2) = 1/4 < 1/2 = average of U_h
    arms = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert float(R.mixture_value(d, [0.0, 1.0], arms, [0.5, 0.5])) == pytest.approx(0.25)
    rng = np.random.default_rng(5)
    support, arms, alpha = _random_instance(rng)
    v = R.mixture_value(d, support, arms, alpha)
    chord = alpha @ R.finite_support(d, support, arms)
    assert np.any(v < chord - 1e-6)


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

def H(u):
    """h(u) = u, a plain callable."""
    return np.asarray(u, dtype=float)


BAD = [
    (lambda: R.finite_support(H, [0, 1], [0.5, 0.6]), "probs"),
    (lambda: R.finite_support(H, [0, 1], [-0.1, 1.1]), "probs"),
    (lambda: R.finite_support(H, [0, 1], [[0.5, 0.5], [0.2, 0.2]]), "probs"),
    (lambda: R.finite_support(H, [0, 1, 2], [0.5, 0.5]), "probs"),
    (lambda: R.finite_support(H, [0, 1], [np.nan, 1.0]), "probs"),
    (lambda: R.finite_support(H, [1, 0], [0.5, 0.5]), "support"),
    (lambda: R.finite_support(H, [[0, 1]], [0.5, 0.5]), "support"),
    (lambda: R.finite_support(H, [], []), "support"),
    (lambda: R.finite_support(H, [0, np.inf], [0.5, 0.5]), "support"),
    (lambda: R.finite_support("gini", [0, 1], [0.5, 0.5]), "h_numeric"),
    (lambda: R.finite_support(lambda u: np.where(np.asarray(u) < 0.75, np.nan, u), [0, 1], [0.5, 0.5]), "h_numeric"),
    (lambda: R.bernoulli(H, 1.5), "p"),
    (lambda: R.bernoulli(H, [0.2, -0.1]), "p"),
    (lambda: R.bernoulli(H, np.nan), "p"),
    (lambda: R.empirical(H, []), "samples"),
    (lambda: R.empirical(H, 3.0), "samples"),
    (lambda: R.empirical(H, [1.0, np.inf]), "samples"),
    (lambda: R.quadrature(H, object()), "dist"),
    (lambda: R.wasserstein1_finite([0, 1], [1, 0], [0.5, 0.6]), "probs_b"),
    (lambda: R.wasserstein1_finite([0, 1], [1.2, -0.2], [0.5, 0.5]), "probs_a"),
    (lambda: R.wasserstein1_finite([0, 1], [[1, 0]] * 2, [[0, 1]] * 3), "probs_b"),
    (lambda: R.wasserstein1_finite([1, 0], [1, 0], [0, 1]), "support"),
    (lambda: R.mixture_value(H, [0, 1], [[1, 0], [0, 1]], [0.5, 0.6]), "alpha"),
    (lambda: R.mixture_value(H, [0, 1], [[1, 0], [0, 1]], [1.5, -0.5]), "alpha"),
    (lambda: R.mixture_value(H, [0, 1], [[1, 0], [0, 1]], [1.0, 0.0, 0.0]), "alpha"),
    (lambda: R.mixture_value(H, [0, 1], [[1, 0], [0.5, 0.6]], [0.5, 0.5]), "arm_probs"),
    (lambda: R.mixture_value(H, [0, 1], [[[1, 0]]], [1.0]), "arm_probs"),
    (lambda: R.mixture_value(H, [0, 1, 2], [[1, 0], [0, 1]], [0.5, 0.5]), "arm_probs"),
    (lambda: R.bernoulli_closed_form(dist("gini"), 2), "p"),
    (lambda: R.bernoulli_closed_form(dist("gini"), sp.Rational(-1, 2)), "p"),
    (lambda: R.bernoulli_closed_form("gini"), "d"),
    (lambda: R.bernoulli_closed_form(dist("gini"), "p"), "p"),
    (lambda: R.finite_support_symbolic(dist("gini"), [1, 0], [sp.Rational(1, 2)] * 2), "support"),
    (lambda: R.finite_support_symbolic(dist("gini"), [0, 1], [sp.Rational(1, 2), sp.Rational(1, 3)]), "probs"),
    (lambda: R.finite_support_symbolic(dist("gini"), [0, 1], [-1, 2]), "probs"),
    (lambda: R.finite_support_symbolic(dist("gini"), [0, 1, 2], [sp.Rational(1, 2)] * 2), "probs"),
    (lambda: R.finite_support_symbolic(dist("gini"), [], []), "support"),
    (lambda: R.mixture_of_bernoullis(dist("gini"), 0), "K"),
    (lambda: R.mixture_of_bernoullis(dist("gini"), 2.5), "K"),
    (lambda: R.wang_integral(dist("mean"), sp.Piecewise((0, R.X < 0), (sp.Rational(1, 2), True))), "cdf"),
]


@pytest.mark.parametrize("call, argument", BAD, ids=[f"{i}-{a}" for i, (_, a) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, argument):
    with pytest.raises(ValueError, match=f"argument '{argument}'"):
        call()


def test_a_row_that_does_not_sum_to_one_is_named_from_one():
    """The message names the row (arms are numbered 1..K) and its sum, e.g. rows rounded to 6 decimals."""
    from rsb_theory.riskmetric import finite_support

    with pytest.raises(ValueError, match=r"argument 'probs': .* row 2 sums to 0\.999999"):
        finite_support(lambda u: u, [0.0, 0.5, 1.0], [[0.2, 0.3, 0.5], [0.333333, 0.333333, 0.333333]])
