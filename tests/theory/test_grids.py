"""The discrete simplices of eq:etc_discrete_set and the RS-UCB-M mid-point grid."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rsb_theory.grids import Grid


def brute(K, eps, kind):
    """All points by plain enumeration of n in N_0^(K-1), footnote rule for the last coordinate."""
    off = 0.0 if kind == "etc" else 0.5
    m = int(math.floor(1 / eps - K * off + 1e-9))
    pts = []
    for n in itertools.product(range(m + 1), repeat=K - 1):
        if sum(n) <= m:
            head = [eps * (x + off) for x in n]
            pts.append(head + [1 - sum(head)])
    return np.array(sorted(pts))


@settings(max_examples=40, deadline=None)
@given(K=st.integers(2, 5), n=st.integers(2, 9), frac=st.sampled_from([0.0, 0.3, 0.5]), kind=st.sampled_from(["etc", "ucb"]))
def test_points_match_brute_force(K, n, frac, kind):
    eps = 1.0 / (n + frac)
    if kind == "ucb" and 1 / eps - K / 2 < 0:
        return
    g = Grid(K, eps, kind)
    pts = g.points()
    assert len(pts) == g.size
    np.testing.assert_allclose(np.array(sorted(pts.tolist())), brute(K, eps, kind), atol=1e-12)
    np.testing.assert_allclose(pts.sum(axis=1), 1.0, atol=1e-12)
    lower = 0.0 if kind == "etc" else eps / 2
    assert pts.min() >= lower - 1e-12


def test_exact_grids():
    assert Grid(2, 0.1, "etc").exact and Grid(2, 0.1, "etc").size == 11
    assert Grid(2, 0.1, "ucb").exact and Grid(2, 0.1, "ucb").size == 10  # 0.05, 0.15, ..., 0.95
    assert not Grid(3, 0.1, "ucb").exact  # 1/eps - 3/2 = 8.5: the footnote applies
    assert Grid(6, 0.01, "etc").size == math.comb(100 + 5, 5)


def test_lexicographic_order():
    c = Grid(3, 0.25, "etc").counts()
    assert [tuple(r) for r in c] == sorted(tuple(r) for r in c)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(K=1, eps=0.1, kind="etc"), "'K'"),
    (dict(K=2, eps=0.0, kind="etc"), "'eps'"),
    (dict(K=2, eps=-0.1, kind="etc"), "'eps'"),
    (dict(K=2, eps=float("nan"), kind="etc"), "'eps'"),
    (dict(K=2, eps=0.1, kind="mid"), "'grid'"),
    (dict(K=6, eps=0.5, kind="ucb"), "'eps'"),
])
def test_bad_input(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        Grid(**kwargs)
