"""Delta(eps), Delta_min(eps) and W for Bernoulli instances (two routes)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rsb_theory.discretization import discrete_optimum
from rsb_theory.oracle import W_bernoulli
from rsb_theory.distortions import get
from rsb_theory.riskmetric import wasserstein1_finite


@settings(max_examples=30, deadline=None)
@given(p=st.lists(st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 1)), min_size=2, max_size=6),
       seed=st.integers(0, 2**32 - 1))
def test_W_is_the_sup_of_the_ratio(p, seed):
    """W = (max p - min p)/2 against the definition eq:W on random pairs and the extreme pair."""
    p = np.array(p)
    W = W_bernoulli(p)
    rng = np.random.default_rng(seed)
    a, b = rng.dirichlet(np.ones(p.size), 200), rng.dirichlet(np.ones(p.size), 200)
    support = np.array([0.0, 1.0])
    ma, mb = np.clip(a @ p, 0, 1), np.clip(b @ p, 0, 1)  # rounding can leave [0, 1] by 1 ulp
    fa = np.stack([1 - ma, ma], axis=-1)
    fb = np.stack([1 - mb, mb], axis=-1)
    ratio = wasserstein1_finite(support, fa, fb) / np.abs(a - b).sum(axis=1)
    assert ratio.max() <= W + 1e-9  # rounding of a 1e-16 numerator over a small ||alpha - beta||_1
    i, j = int(np.argmax(p)), int(np.argmin(p))
    if i != j:
        extreme = abs(p[i] - p[j]) / 2
        assert extreme == pytest.approx(W)


@pytest.mark.parametrize("grid", ["etc", "ucb"])
@pytest.mark.parametrize("key, p", [("gini", (0.4, 0.9)), ("mean", (0.2, 0.7, 0.5)), ("right_tail", (0.1, 0.9))])
def test_delta_is_nonnegative_and_matches_a_star(grid, key, p):
    d = get(key)
    for eps in (0.3, 0.1, 1 / 7, 0.05):
        if grid == "ucb" and 1 / eps < len(p) / 2:
            continue
        opt = discrete_optimum(d, p, eps, grid)
        assert opt.Delta >= -1e-15
        assert opt.value == pytest.approx(float(d(np.array([opt.a_star @ np.array(p)]))[0]))
        assert opt.a_star.sum() == pytest.approx(1.0)
        assert opt.Delta_min > 0


def test_grid_with_the_optimum_has_zero_delta():
    opt = discrete_optimum(get("gini"), (0.4, 0.9), 0.1, "etc")
    np.testing.assert_allclose(opt.a_star, [0.8, 0.2])
    assert opt.Delta == pytest.approx(0.0, abs=1e-15)


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rsb_theory.discretization import enumerate_optimum, fast_optimum
from rsb_theory.gap import delta_min

_MEANS = st.sampled_from([0.0, 0.1, 0.25, 0.4, 0.5, 0.55, 0.9, 1.0]) | st.floats(0, 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["gini", "mean_median", "right_tail", "cvar", "pht", "mean", "inter_es"]),
       p=st.lists(_MEANS, min_size=2, max_size=5), n=st.integers(3, 14), grid=st.sampled_from(["etc", "ucb"]),
       footnote=st.sampled_from([0.0, 0.37]))
def test_fast_optimum_agrees_with_enumeration(name, p, n, grid, footnote):
    """The branch-and-bound discrete optimum (no enumeration) equals the definition by enumeration."""
    d = get(name)
    # footnote > 0: 1/eps not on the grid, the last coordinate takes the deficit
    eps = 1.0 / (n + footnote) if grid == "etc" else 1.0 / (n + len(p) / 2 + footnote)
    e, f = enumerate_optimum(d, p, eps, grid), fast_optimum(d, p, eps, grid)
    assert np.allclose(e.a_star, f.a_star, atol=1e-12)
    assert abs(e.value - f.value) <= 1e-12
    assert e.n_optimal == f.n_optimal and e.grid_size == f.grid_size
    assert (e.Delta_min == f.Delta_min == float("inf")) or abs(e.Delta_min - f.Delta_min) <= 1e-12
    assert delta_min(d, p, eps, grid, method="enumerate").delta_min == e.Delta_min
