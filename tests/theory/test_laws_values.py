"""U_h and V(alpha) of any laws, two routes each: quadrature vs closed form vs Monte Carlo (K = 2..6).

* Quadrature vs an exact formula: a mixture of uniform and discrete laws has a piecewise-linear
  survival function, so int h(S) over a piece where S falls linearly from s0 to s1 is
  width * (H(s0) - H(s1)) / (s0 - s1) with H the antiderivative of h (SymPy, exact); for every
  family of distortions, their duals and user expressions, on hypothesis instances with K = 2..6.
* Quadrature vs closed forms of beta laws (the mean for h = u; PHT, dual power, Gini, CVaR of
  beta(a, 1) and beta(1, b)).
* Quadrature vs Monte Carlo: the empirical law of n draws, valued exactly by sorting, within the
  deterministic bound |U_h(F_n) - U_h(F)| <= L_H (b - a)^(1 - q) W1(F_n, F)^q (Hölder's inequality on
  int |h(S_n) - h(S)|).
* Discrete laws: exact, and equal to the finite-support routes of ``rsb_theory.riskmetric`` and
  ``rsb_sim.instances``.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from scipy import integrate as sci_integrate
from scipy import special, stats

from rsb_sim.instances import FiniteSupportInstance
from rsb_theory import riskmetric
from rsb_theory.distortions import U, family_names, resolve
from rsb_theory.holder import holder
from rsb_theory.laws import empirical_law, parse_arms
from rsb_theory.laws.build import bernoulli_law, continuous_law, finite_law
from rsb_theory.laws.quadrature import WG, WGK, XGK, integrate
from rsb_theory.laws.values import arm_values, mixture_integral, mixture_value, value, wasserstein1
from rsb_theory.oracle import W_bernoulli, W_finite, W_laws

#: Every family at its default parameters, their duals, and two user expressions.
DISTORTIONS = [*family_names(), *(f"dual({n})" for n in family_names()), "u**0.3*(1-u)", "sin(pi*u)/2"]


@functools.lru_cache(maxsize=None)
def dist(text):
    return resolve(text)


@functools.lru_cache(maxsize=None)
def antiderivative(text):
    """H(t) = int_0^t h (SymPy, exact; Min/Max as Piecewise), evaluated with mpmath at 50 digits."""
    d = dist(text)
    t = sp.Symbol("t", positive=True)
    H = sp.integrate(d.expr.rewrite(sp.Piecewise), (U, 0, t))
    return sp.lambdify(t, H, "mpmath")


def exact_piecewise_linear(text, laws, alpha) -> float:
    """V(alpha) for uniform and discrete laws: S is linear between the knots (module docstring).

    On a piece where S falls from s0 to s1 the integral is width * (H(s0) - H(s1)) / (s0 - s1), the
    difference quotient taken at 50 digits (s0 and s1 as the doubles they are), so that nearly flat
    pieces are exact too.
    """
    pts = [0.0]
    for law in laws:
        lo, hi = law.support
        pts += [lo, hi] + list(getattr(law, "atoms", ()))
    pts = np.unique(pts)
    a, b = pts[:-1], pts[1:]

    def S(law, x):  # uniform laws in closed form, exactly 1 and 0 at the ends (h may have an infinite slope there)
        if law.kind != "continuous":
            return law.sf(x)
        lo, hi = law.support
        return np.where(x <= lo, 1.0, np.where(x >= hi, 0.0, np.clip((hi - x) / law.args[1], 0.0, 1.0)))

    s0 = sum(w * S(law, a) for w, law in zip(alpha, laws))  # right limit at a (S is right-continuous)
    s1 = s0 + sum(w * (S(law, b) - S(law, a)) for w, law in zip(alpha, laws) if law.kind == "continuous")
    H = antiderivative(text)
    h = sp.lambdify(U, dist(text).expr, "mpmath")
    total = mpmath.mpf(0)
    with mpmath.workdps(50):
        for width, hi_s, lo_s in zip(b - a, np.clip(s0, 0, 1), np.clip(s1, 0, 1)):
            x0, x1 = mpmath.mpf(float(hi_s)), mpmath.mpf(float(lo_s))
            mean = h(x0) if x0 == x1 else (H(x0) - H(x1)) / (x0 - x1)
            total += mpmath.mpf(float(width)) * mean
    return float(total)


# ---------------------------------------------------------------------------
# the quadrature itself
# ---------------------------------------------------------------------------


def test_gauss_kronrod_degrees():
    """K15 integrates polynomials of degree <= 22 exactly, G7 those of degree <= 13."""
    for k in range(24):
        exact = (1 - (-1) ** (k + 1)) / (k + 1)
        assert abs(WGK @ XGK**k - exact) < 1e-14 or k > 22
        assert abs(WG @ XGK**k - exact) < 1e-14 or k > 13
    assert abs(WG @ XGK**14 - 2 / 15) > 1e-6  # so the error estimate |K15 - G7| sees degree 14


@pytest.mark.parametrize("f, a, b, exact", [
    (np.sqrt, 0.0, 1.0, 2 / 3),
    (lambda x: x**0.01, 0.0, 1.0, 1 / 1.01),
    (lambda x: np.abs(x - 0.3), 0.0, 1.0, 0.29),  # a kink not at a knot: refinement finds it
    (lambda x: np.exp(-x), 0.0, 20.0, 1 - math.exp(-20)),
])
def test_integrate_meets_its_estimate(f, a, b, exact):
    r = integrate(f, [a, b])
    assert r.converged
    assert abs(r.value - exact) <= max(r.error, 1e-14) + 1e-13
    assert abs(r.value - exact) < 1e-10
    np.testing.assert_allclose(r.weights @ f(r.nodes), r.value, rtol=1e-13, atol=1e-15)
    assert np.all(r.weights > 0) and np.all(np.diff(r.nodes) > 0)


def test_an_unbounded_integrand_stops_at_the_panel_floor_and_says_so():
    """Panels narrower than 1e-14 are not split: the integrands of rsb are bounded (|h| <= 1), this one is not."""
    r = integrate(lambda x: 1 / np.sqrt(x), [0.0, 1.0])
    assert not r.converged
    assert abs(r.value - 2.0) <= r.error


def test_integrate_is_bounded_by_counts():
    r = integrate(lambda x: np.sign(x - 1 / 3), [0.0, 1.0], tol=0.0, max_panels=50)
    assert not r.converged and r.panels <= 50


# ---------------------------------------------------------------------------
# quadrature vs the exact piecewise-linear formula, K = 2..6 (hypothesis)
# ---------------------------------------------------------------------------


@st.composite
def uniform_or_discrete(draw):
    kind = draw(st.sampled_from(["uniform", "uniform", "bernoulli", "finite"]))
    if kind == "uniform":
        loc = draw(st.floats(0.0, 0.8))
        scale = draw(st.floats(0.01, 1.0))
        return continuous_law("uniform", (loc, scale))
    if kind == "bernoulli":
        return bernoulli_law(draw(st.floats(0.0, 1.0)))
    m = draw(st.integers(1, 4))
    atoms = draw(st.lists(st.integers(0, 20).map(lambda k: k / 16), min_size=m, max_size=m, unique=True))
    w = np.array(draw(st.lists(st.integers(1, 5), min_size=m, max_size=m)), dtype=float)
    return finite_law(atoms, w / w.sum())


@st.composite
def instances(draw, K=st.integers(2, 6)):
    k = draw(K)
    laws = tuple(draw(uniform_or_discrete()) for _ in range(k))
    assume(any(law.kind == "continuous" for law in laws))
    raw = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=k, max_size=k)))
    assume(raw.sum() > 1e-3)
    return laws, raw / raw.sum()


@pytest.mark.parametrize("text", DISTORTIONS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(inst=instances())
def test_mixture_quadrature_matches_the_exact_formula(text, inst):
    laws, alpha = inst
    exact = exact_piecewise_linear(text, laws, alpha)
    got = float(mixture_value(dist(text), laws, alpha))
    assert got == pytest.approx(exact, abs=1e-9)


@pytest.mark.parametrize("text", DISTORTIONS)
def test_uniform_closed_form(text):
    """U_h(uniform on [l, l + w]) = l h(1) + w int_0^1 h."""
    d = dist(text)
    for loc, scale in [(0.0, 1.0), (0.3, 0.1), (2.0, 5.0)]:
        exact = loc * float(d.expr.subs(U, 1)) + scale * float(antiderivative(text)(mpmath.mpf(1)))
        assert value(d, continuous_law("uniform", (loc, scale))) == pytest.approx(exact, abs=1e-9 * max(1, scale))


# ---------------------------------------------------------------------------
# beta laws: closed forms
# ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(a=st.floats(0.2, 20.0), b=st.floats(0.2, 20.0), loc=st.floats(0.0, 2.0), scale=st.floats(0.05, 3.0))
def test_beta_mean(a, b, loc, scale):
    law = continuous_law("beta", (a, b, loc, scale))
    assert value(dist("mean"), law) == pytest.approx(loc + scale * a / (a + b), abs=1e-9 * max(1.0, scale))


@pytest.mark.parametrize("spec", ["irwinhall(3,0,0.5)", "trapezoid(0.2,0.7,0.1,2)", "triang(0.3,0.2,1)",
                                  "truncexpon(2,0,0.5)", "bradford(1.5)", "powerlaw(3,0.1,2)"])
def test_the_mean_of_laws_with_kinks(spec):
    (law,) = parse_arms(spec, min_arms=1)
    assert value(dist("mean"), law) == pytest.approx(law.mean, abs=1e-10)


@settings(max_examples=12, deadline=None)
@given(a=st.floats(0.2, 10.0), s=st.floats(0.05, 0.95))
def test_beta_a_1_pht_and_dual_power(a, s):
    """beta(a, 1): S(x) = 1 - x^a; int S^s = B(1/a, s + 1)/a, int 1 - (1 - S)^2 = 1 - 1/(2a + 1)."""
    law = continuous_law("beta", (a, 1.0))
    pht = resolve("pht", s=s)
    assert value(pht, law) == pytest.approx(special.beta(1 / a, s + 1) / a, abs=1e-9)
    assert value(dist("dual_power"), law) == pytest.approx(1 - 1 / (2 * a + 1), abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(b=st.floats(0.2, 10.0), alpha=st.floats(0.0, 0.95))
def test_beta_1_b_gini_and_cvar(b, alpha):
    """beta(1, b): S(x) = (1 - x)^b; Gini 1/(b+1) - 1/(2b+1); CVaR x0 + (1-alpha)^(1/b)/(b+1), x0 = 1 - (1-alpha)^(1/b)."""
    law = continuous_law("beta", (1.0, b))
    assert value(dist("gini"), law) == pytest.approx(1 / (b + 1) - 1 / (2 * b + 1), abs=1e-9)
    x0 = 1 - (1 - alpha) ** (1 / b)
    cvar = resolve("cvar", alpha=alpha)
    assert value(cvar, law) == pytest.approx(x0 + (1 - alpha) ** (1 / b) / (b + 1), abs=1e-9)


@pytest.mark.parametrize("spec", ["beta(2,5)", "beta(0.5,0.5)", "truncnorm(-2,2,0.5,0.1)", "triang(0.3,0,1)",
                                  "trapezoid(0.2,0.7,0.1,2)", "powerlaw(0.4)", "arcsine()"])
@pytest.mark.parametrize("text", ["gini", "cvar", "pht", "cvar_lower", "mean_median", "dual(pht)"])
def test_quantile_form_second_route(spec, text):
    """U_h(F) = int_0^1 Q(t) h'(1 - t) dt for X >= 0 (the weight of each quantile level), by scipy.quad on Q."""
    (law,) = parse_arms(spec, min_arms=1)
    d = dist(text)
    dh = sp.lambdify(U, sp.diff(d.expr, U), "math")
    kinks = sorted({float(1 - c) for c in __import__("rsb_theory.distortions", fromlist=["breakpoints"]).breakpoints(
        d.expr)} | {0.0, 1.0})
    total = 0.0
    for lo, hi in zip(kinks, kinks[1:]):
        total += sci_integrate.quad(lambda t: float(law.frozen.ppf(t)) * dh(1 - t), lo, hi, limit=400,
                                    epsabs=1e-13, epsrel=1e-12)[0]
    assert value(d, law) == pytest.approx(total, abs=2e-8)


# ---------------------------------------------------------------------------
# Monte Carlo: the empirical law of draws, exact by sorting
# ---------------------------------------------------------------------------


MC_SPECS = ["beta(2,5)", "uniform(0.3,0.1)", "truncnorm(-2,2,0.5,0.1)", "triang(0.5,0,1)"]


@functools.lru_cache(maxsize=None)
def monte_carlo(spec):
    """(law, the empirical law of 200000 draws, W1 between them); the draws are law.draw(U) of seeded uniforms."""
    (law,) = parse_arms(spec, min_arms=1)
    samples = law.draw(np.random.default_rng(20250101).random(200_000))
    emp = empirical_law(samples)
    return law, samples, emp, wasserstein1(emp, law)


@pytest.mark.parametrize("spec", MC_SPECS)
@pytest.mark.parametrize("text", ["gini", "pht", "cvar", "cvar_lower", "right_tail", "dual(gini)"])
def test_monte_carlo_within_the_holder_bound(spec, text):
    law, samples, emp, w1 = monte_carlo(spec)
    d = dist(text)
    mc = value(d, emp)
    # two exact routes for the empirical law: the finite step identity and the L-statistic
    # (200000-term sums of masses count/n vs (n - k)/n: rounding of order 1e-16 per term)
    assert mc == pytest.approx(float(riskmetric.empirical(d.numeric, samples)), abs=1e-10)
    hr = holder(d)
    q, L = float(hr.q), float(hr.L_H)
    lo, hi = law.support
    bound = L * (hi - lo) ** (1 - q) * w1**q
    assert bound < 0.05  # the check means something (W1 ~ 1e-3: q = 1/2 makes the bound ~ 0.02)
    assert abs(mc - value(d, law)) <= bound + 1e-9


@pytest.mark.parametrize("spec", MC_SPECS)
def test_monte_carlo_w1_against_scipy(spec):
    """W1(F_n, F) by quadrature vs scipy's W1 between the draws and a second, larger sample (loose)."""
    law, samples, _, w1 = monte_carlo(spec)
    ref = law.draw(np.random.default_rng(7).random(400_000))
    assert abs(stats.wasserstein_distance(samples, ref) - w1) < 3 * w1 + 1e-4


# ---------------------------------------------------------------------------
# discrete laws: exact, the finite-support routes
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_discrete_mixtures_are_the_finite_support_routes(data):
    K = data.draw(st.integers(2, 6))
    atoms = (0.0, 0.25, 0.5, 1.0, 2.0)
    rows = []
    for _ in range(K):
        w = np.array(data.draw(st.lists(st.integers(0, 4), min_size=5, max_size=5)), dtype=float)
        assume(w.sum() > 0)
        rows.append(w / w.sum())
    laws = tuple(finite_law(atoms, r) for r in rows)
    raw = np.array(data.draw(st.lists(st.floats(0.01, 1.0), min_size=K, max_size=K)))
    alpha = raw / raw.sum()
    d = dist(data.draw(st.sampled_from(DISTORTIONS)))
    inst = FiniteSupportInstance(atoms, tuple(tuple(r) for r in rows))
    assert float(mixture_value(d, laws, alpha)) == pytest.approx(float(inst.value(d, alpha)), abs=1e-13)
    np.testing.assert_allclose(arm_values(d, laws), riskmetric.finite_support(d.numeric, atoms, np.array(rows)),
                               atol=1e-14)
    assert W_laws(laws) == pytest.approx(W_finite(atoms, np.array(rows)), abs=1e-15)


def test_bernoulli_values_and_W():
    laws = tuple(bernoulli_law(p) for p in (0.2, 0.5, 0.9))
    d = dist("gini")
    np.testing.assert_allclose(arm_values(d, laws), [0.16, 0.25, 0.09], atol=1e-15)
    assert float(mixture_value(d, laws, [0.5, 0.0, 0.5])) == pytest.approx(0.2475, abs=1e-15)
    assert W_laws(laws) == pytest.approx(W_bernoulli([0.2, 0.5, 0.9]))


def test_vectorised_rows():
    laws = parse_arms("uniform(0,1); bernoulli(0.5)")
    A = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    got = mixture_value(dist("gini"), laws, A)
    assert got.shape == (3,)
    np.testing.assert_allclose(got, [mixture_value(dist("gini"), laws, a) for a in A], atol=0)


# ---------------------------------------------------------------------------
# W1 and W
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(a=st.floats(0.0, 3.0), b=st.floats(0.0, 3.0), w=st.floats(0.01, 2.0))
def test_w1_of_shifted_uniforms_is_the_shift(a, b, w):
    assert wasserstein1(continuous_law("uniform", (a, w)), continuous_law("uniform", (b, w))) == pytest.approx(
        abs(a - b), abs=1e-10)


@pytest.mark.parametrize("pair", ["beta(2,5); truncnorm(-2,2,0.5,0.1)", "triang(0.5,0,1); bernoulli(0.3)",
                                  "uniform(0.3,0.1); finite(0:0.5, 1:0.5)", "beta(0.5,0.5); powerlaw(2)"])
def test_w1_quantile_route(pair):
    """W1 = int_0^1 |Q_a(t) - Q_b(t)| dt (scipy.quad on the quantile functions) vs int |F_a - F_b| dx."""
    a, b = parse_arms(pair)
    q = sci_integrate.quad(lambda t: abs(float(a.ppf(t)) - float(b.ppf(t))), 0, 1, limit=500, epsabs=1e-12)[0]
    assert wasserstein1(a, b) == pytest.approx(q, abs=1e-7)


def test_W_laws_is_half_the_largest_pairwise_w1():
    laws = parse_arms("uniform(0,0.5); uniform(0.5,0.5); beta(2,2)")
    assert W_laws(laws) == pytest.approx(0.25, abs=1e-10)  # the two uniforms are 0.5 apart
    with pytest.raises(ValueError, match="argument 'laws'"):
        W_laws(laws[:1])


def test_errors_name_the_argument():
    laws = parse_arms("uniform(0,1); bernoulli(0.5)")
    with pytest.raises(ValueError, match="argument 'alpha'"):
        mixture_value(dist("gini"), laws, [0.5, 0.6])
    with pytest.raises(ValueError, match="argument 'alpha'"):
        mixture_value(dist("gini"), laws, [1.0])
    with pytest.raises(ValueError, match="argument 'laws'"):
        mixture_value(dist("gini"), (), [])
    r = mixture_integral(dist("gini"), laws, [0.5, 0.5])
    assert r.converged and r.error < 1e-12
