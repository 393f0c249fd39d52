"""Lower-tail CVaR and duals: the new families go through everything derived (shape, Hölder, CVXPY, values).

REGISTRY stays the nine rows of table:table_regrets; ``cvar_lower`` lives in EXTENSIONS and ``dual(...)``
is a wrapper that ``resolve`` reads.  Which tail each family weights is checked on laws, with the
quantile function as the second route.
"""

from __future__ import annotations

import functools

import cvxpy as cp
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from scipy import integrate as sci_integrate
from scipy import stats

from rsb_theory.distortions import (EXTENSIONS, FAMILIES, REGISTRY, TAILS, U, DistortionError, dual, family_names,
                                    get, names, resolve)
from rsb_theory.holder import holder
from rsb_theory.laws import parse_arms
from rsb_theory.laws.build import finite_law
from rsb_theory.laws.values import value
from rsb_theory.oracle import NotDCPError, optimal_mixture, to_cvxpy
from rsb_theory.riskmetric import bernoulli_closed_form, quadrature

NINE = ("mean", "dual_power", "quadratic", "cvar", "pht", "mean_median", "inter_es", "right_tail", "gini")
#: Every family and every dual of a family, at default parameters.
ALL = [*family_names(), *(f"dual({n})" for n in family_names())]
GRID = np.linspace(0.0, 1.0, 2001)


@functools.lru_cache(maxsize=None)
def dist(text):
    return resolve(text)


def same_function(a, b) -> bool:
    return sp.simplify((a - b).rewrite(sp.Piecewise)) == 0


def test_registry_is_still_the_nine_rows():
    assert names() == NINE and tuple(REGISTRY) == NINE
    assert tuple(EXTENSIONS) == ("cvar_lower",)
    assert tuple(FAMILIES) == NINE + ("cvar_lower",)
    assert set(TAILS) == set(FAMILIES)


def test_cvar_lower_formula_and_domain():
    d = get("cvar_lower", alpha="1/4")
    np.testing.assert_allclose(d(GRID), np.maximum(0.0, (GRID - 0.75) / 0.25), atol=1e-15)
    assert d.shape.monotone == "nondecreasing" and d.shape.curvature == "convex"
    assert get("cvar_lower", alpha=1).expr.subs(U, sp.Rational(1, 3)) == sp.Rational(1, 3)  # alpha = 1: the mean
    for bad in (0, -0.5, 1.5):
        with pytest.raises(DistortionError, match="--param alpha"):
            get("cvar_lower", alpha=bad)
    assert resolve("cvar_lower", alpha="0.1").key == "cvar_lower"


@pytest.mark.parametrize("alpha, tail", [("0", "1"), ("1/10", "9/10"), ("1/2", "1/2"), ("0.95", "0.05")])
def test_dual_of_cvar_is_cvar_lower(alpha, tail):
    upper = resolve("dual(cvar)", alpha=alpha)
    lower = get("cvar_lower", alpha=tail)
    assert same_function(upper.expr, lower.expr)
    np.testing.assert_allclose(upper(GRID), lower(GRID), atol=1e-12)


@pytest.mark.parametrize("text", ALL)
def test_dual_is_an_involution_and_keeps_the_holder_exponent(text):
    d = dist(text)
    dd = dual(dual(d))
    assert same_function(dd.expr, d.expr)
    hd, h = holder(dual(d)), holder(d)
    assert hd.q == h.q and hd.L_H == pytest.approx(h.L_H, rel=1e-9)
    np.testing.assert_allclose(dual(d)(GRID), d(np.array([1.0]))[0] - d(1 - GRID), atol=1e-14)


@pytest.mark.parametrize("key", NINE)
def test_duals_of_concave_rows_are_convex_and_refused_by_dcp(key):
    d = dist(f"dual({key})")
    assert d.shape.curvature in ("convex", "affine") and d.shape.curvature_method == "symbolic"
    if d.shape.curvature == "convex":
        with pytest.raises(NotDCPError):
            to_cvxpy(d.expr, cp.Variable())
    else:
        assert key == "mean"
        to_cvxpy(d.expr, cp.Variable())


def test_dual_of_cvar_lower_is_concave_and_translates():
    d = dist("dual(cvar_lower)")
    assert d.shape.curvature == "concave"
    to_cvxpy(d.expr, cp.Variable())
    o = optimal_mixture(d, [0.0, 0.5, 1.0], [[0.2, 0.3, 0.5], [0.6, 0.0, 0.4]])
    assert o.method == "cvxpy" and o.certified


@pytest.mark.parametrize("key, signed", [("gini", True), ("mean_median", True), ("inter_es", True),
                                         ("right_tail", True), ("cvar", False), ("pht", False), ("mean", False)])
def test_signed_duals_of_deviations(key, signed):
    d = dist(f"dual({key})")
    assert d.signed == signed
    if signed:  # h(1) = 0 and h symmetric or not: h* = -h(1 - u) <= 0
        assert d.validation.h_max == pytest.approx(0.0, abs=1e-15)
        np.testing.assert_allclose(d(GRID), -dist(key)(1 - GRID), atol=1e-14)
    assert not dist(key).signed


def test_resolve_reads_dual_through_the_one_parser():
    assert resolve("dual(gini)").key == "dual(gini)"
    assert resolve("  dual( gini ) ").expr == resolve("dual(gini)").expr
    assert resolve("dual(u**2)").key == "dual(custom)"
    assert same_function(resolve("dual(u**2)").expr, 2 * U - U**2)
    assert resolve("dual(pht)", s="1/4").describe() == "dual(pht(s=1/4))"
    assert resolve("dual(dual(gini))").expr == resolve("gini").expr or same_function(
        resolve("dual(dual(gini))").expr, resolve("gini").expr)
    with pytest.raises(DistortionError, match="'foo' is neither a registered distortion"):
        resolve("dual(foo)")
    for text in ("dual(u)*2", "dual(u) + dual(u)", "dual", "dual()", "dual(__import__('os'))"):
        with pytest.raises(DistortionError, match="argument 'h'"):
            resolve(text)


# ---------------------------------------------------------------------------
# which tail: on laws, with the quantile function as the second route
# ---------------------------------------------------------------------------


def tail_mean(law, lo: float, hi: float) -> float:
    """(1 / (hi - lo)) int_lo^hi Q(t) dt."""
    return sci_integrate.quad(lambda t: float(law.frozen.ppf(t)), lo, hi, epsabs=1e-13, limit=200)[0] / (hi - lo)


@pytest.mark.parametrize("spec", ["beta(2,5)", "uniform(0.3,0.1)", "triang(0.2,0,1)"])
@pytest.mark.parametrize("alpha", [0.05, 0.25, 0.5, 0.9])
def test_cvar_lower_is_the_mean_of_the_worst_fraction_and_cvar_of_the_best(spec, alpha):
    (law,) = parse_arms(spec, min_arms=1)
    assert value(get("cvar_lower", alpha=alpha), law) == pytest.approx(tail_mean(law, 0, alpha), abs=1e-9)
    assert value(get("cvar", alpha=alpha), law) == pytest.approx(tail_mean(law, alpha, 1), abs=1e-9)


def test_cvar_lower_of_a_finite_law_by_hand():
    law = finite_law([0.0, 0.5, 1.0], [0.2, 0.3, 0.5])
    # worst 40%: 0.2 at 0 and 0.2 at 0.5 -> 0.25; best 40% (cvar alpha = 0.6): all at 1
    assert value(get("cvar_lower", alpha=0.4), law) == pytest.approx(0.25, abs=1e-15)
    assert value(get("cvar", alpha=0.6), law) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("text", ALL)
def test_dual_mirrors_the_law(text):
    """For X in [0, b]: U_{h*}(X) = b h(1) - U_h(b - X) (the tails trade places)."""
    d = dist(text)
    h1 = float(d(np.array([1.0]))[0])
    for spec, mirrored in [("beta(2,5)", "beta(5,2)"), ("triang(0.2,0,1)", "triang(0.8,0,1)")]:
        (law,) = parse_arms(spec, min_arms=1)
        (back,) = parse_arms(mirrored, min_arms=1)
        assert value(dual(d), law) == pytest.approx(1.0 * h1 - value(d, back), abs=1e-9)
    law = finite_law([0.0, 0.5, 2.0], [0.2, 0.3, 0.5])
    back = finite_law([0.0, 1.5, 2.0], [0.5, 0.3, 0.2])
    assert value(dual(d), law) == pytest.approx(2.0 * h1 - value(d, back), abs=1e-13)


# ---------------------------------------------------------------------------
# the sweeps of the table's rows, for the new families
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ALL)
@settings(max_examples=6, deadline=None)
@given(p=st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0)))
def test_bernoulli_closed_form_matches_quadrature(text, p):
    """eq:h_1_p for every new h: the symbolic integral over the Bernoulli CDF vs scipy quadrature."""
    d = dist(text)
    closed = float(bernoulli_closed_form(d, sp.Rational(repr(p))))
    assert closed == pytest.approx(quadrature(d.numeric, stats.bernoulli(p)), abs=1e-9)
    assert closed == pytest.approx(float(d(np.array([p]))[0]), abs=1e-12)


@pytest.mark.parametrize("text", ALL)
def test_the_oracle_on_finite_arms_for_every_new_h(text):
    d = dist(text)
    o = optimal_mixture(d, [0.0, 0.5, 1.0], [[0.2, 0.3, 0.5], [0.6, 0.0, 0.4], [0.0, 1.0, 0.0]])
    if d.shape.is_concave:
        assert o.certified
    grid = np.array([(i, j, 20 - i - j) for i in range(21) for j in range(21 - i)], float) / 20
    from rsb_theory.riskmetric import mixture_value as finite_mixture_value

    best = finite_mixture_value(d.numeric, [0.0, 0.5, 1.0],
                                [[0.2, 0.3, 0.5], [0.6, 0.0, 0.4], [0.0, 1.0, 0.0]], grid).max()
    assert o.value >= best - 1e-9


@pytest.mark.parametrize("text", ["cvar_lower", *(f"dual({k})" for k in NINE)])
def test_the_derived_profile_of_a_convex_h_is_solitary(text):
    """What ``rsb derive`` reports: a convex h has its maximum on [0, 1] at an end, so no Bernoulli mixture wins."""
    from rsb_theory.profile import family_profile

    profile = family_profile(dist(text))
    assert profile.solitary, profile.solitary_evidence
    assert profile.holder.q == holder(dist(text)).q
