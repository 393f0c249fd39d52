"""Delta_min(eps) of eq:discrete_gap and beta, against closed forms and lemma:beta_lemma_monotone."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rsb_theory.distortions import get
from rsb_theory.gap import beta_monotone, delta_min, estimate_beta
from rsb_theory.grids import Grid


@pytest.mark.parametrize("n", [10, 17, 40])
def test_mean_gap_is_eps_times_spread(n):
    # h(u) = u: V(a) = <a, p>; neighbouring grid points differ by eps (p2 - p1)
    gp = delta_min(get("mean"), [0.4, 0.9], 1 / n, "ucb")
    assert gp.delta_min == pytest.approx(0.5 / n, rel=1e-9)
    assert gp.n_optimal == 1


@pytest.mark.parametrize("n", [5, 20, 45])
def test_gini_gap_when_half_is_on_the_grid(n):
    # etc grid, p = (0.4, 0.9): <a, p> = 0.4 + 0.5 k/n hits 1/2 at k = n/5; the neighbours are 0.5/n away
    gp = delta_min(get("gini"), [0.4, 0.9], 1 / n, "etc")
    assert gp.delta_min == pytest.approx((0.5 / n) ** 2, rel=1e-6)


def test_best_and_second_best_of_the_lemma():
    """eq:astar_lemma14 / eq:aprime_lemma14 on the mid-point grid, by enumeration."""
    d, p, eps = get("quadratic"), np.array([0.2, 0.5, 0.7]), 0.05
    g = Grid(3, eps, "ucb")
    pts = g.points()
    vals = d.numeric(pts @ p)
    order = np.argsort(-vals)
    np.testing.assert_allclose(pts[order[0]], [eps / 2, eps / 2, 1 - eps], atol=1e-12)
    np.testing.assert_allclose(pts[order[1]], [eps / 2, 3 * eps / 2, 1 - 2 * eps], atol=1e-12)
    gap = delta_min(d, p, eps, "ucb").delta_min
    assert gap == pytest.approx(vals[order[0]] - vals[order[1]])
    # eq:delta_min_conc_mon_analysis: Delta_min >= h'(p_K)(p_K - p_{K-1}) eps
    h_prime = 1.5 - 2 * 0.5 * 0.7
    assert gap >= h_prime * (0.7 - 0.5) * eps - 1e-15


@settings(max_examples=10, deadline=None)
@given(p=st.lists(st.floats(0.05, 0.95), min_size=2, max_size=3, unique=True).filter(
    lambda v: min(abs(a - b) for i, a in enumerate(v) for b in v[i + 1:]) > 0.05))
def test_monotone_concave_beta_is_one(p):
    d = get("pht")
    assert beta_monotone(d, p).applies
    est = estimate_beta(d, p, n_values=[20, 40, 80, 160])
    assert est.beta_fit == pytest.approx(1.0, abs=0.1)


def test_lemma_premises_are_checked():
    assert not beta_monotone(get("gini"), [0.4, 0.9]).applies
    r = beta_monotone(get("dual_power"), [0.4, 1.0])
    assert not r.applies and "h'(1-) = 0" in r.reason
    assert not beta_monotone(get("cvar"), [0.2, 0.7]).applies  # flat above 1 - alpha = 1/2
    assert beta_monotone(get("cvar"), [0.2, 0.4]).applies
    assert not beta_monotone(get("mean"), [0.4, 0.9, 0.9]).applies


def test_dual_power_at_one_has_beta_two():
    # h(u) = 1 - (1 - u)^2 with max p = 1: Delta_min = Theta(eps^2), so beta = 2, not 1
    est = estimate_beta(get("dual_power"), [0.4, 1.0])
    assert est.converged and est.beta_fit == pytest.approx(2.0, abs=0.02)


def test_mixture_optimum_has_no_limit():
    est = estimate_beta(get("gini"), [0.4, 0.9], grid="etc")
    assert not est.converged
    assert est.slope_max - est.slope_min > 1.0


def test_bad_p():
    with pytest.raises(ValueError, match="'p'"):
        delta_min(get("gini"), [0.4, 1.2], 0.1)
    with pytest.raises(ValueError, match="'p'"):
        delta_min(get("gini"), [0.4], 0.1)
