"""The compiled line search of CE-UCB-M (``rsb_theory.argmax.edge_lines``) against plain enumeration of the grid."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rsb_theory.argmax import edge_lines
from rsb_theory.argmax.rule import TIE_TOL
from rsb_theory.distortions import from_string, get
from rsb_theory.grids import Grid

CONCAVE = ["gini", "mean_median", "inter_es", "cvar", "dual_power", "quadratic", "mean"]


def _enumerated(d, grid, phat, c, previous):
    """The decision rule by enumeration (reference semantics), one trial."""
    pts, counts = grid.points(), grid.counts()
    v = d.numeric(np.clip(pts @ phat, 0.0, 1.0)) + pts @ c
    M = v.max()
    if previous is not None and previous[0] >= 0:
        ip = int(np.flatnonzero((counts == previous).all(axis=1))[0])
        if v[ip] >= M - TIE_TOL:
            return counts[ip]
    return counts[int(np.flatnonzero(v >= M - TIE_TOL)[0])]


def _means(K):
    return st.lists(st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0.0, 1.0), min_size=K, max_size=K)


def cases(Ks=(2, 3, 4, 5, 6), previous="sometimes"):
    """Random decisions: K in Ks, both grids, means in {0, 1/2, 1} or anywhere, bonuses from 0 to 30,
    ties between arms; a previous choice ``"sometimes"`` or ``"always"``."""

    @st.composite
    def case(draw):
        K = draw(st.sampled_from(Ks))
        eps = draw(st.sampled_from({2: [0.05, 0.013, 0.3], 3: [0.05, 0.07, 0.2], 4: [0.05, 0.1, 0.3],
                                    5: [0.1, 0.15], 6: [0.1, 0.12]}[K]))
        kind = draw(st.sampled_from(["ucb", "etc"]))
        grid = Grid(K, eps, kind)
        B = draw(st.integers(1, 4))
        phat = np.array([draw(_means(K)) for _ in range(B)])
        scale = draw(st.sampled_from([0.0, 1e-6, 1e-4, 0.01, 1.0, 30.0]))
        c = np.array([draw(st.lists(st.floats(0.0, 1.0), min_size=K, max_size=K)) for _ in range(B)]) * scale
        if draw(st.booleans()):  # ties between arms: equal bonus (equal counts) or identical arms
            c[:, 1] = c[:, 0]
            if draw(st.booleans()):
                phat[:, 1] = phat[:, 0]
        counts = grid.counts()
        prev = np.full((B, K - 1), -1, dtype=np.int64)
        for b in range(B):
            if previous == "always" or draw(st.booleans()):
                prev[b] = counts[draw(st.integers(0, len(counts) - 1))]
        return draw(st.sampled_from(CONCAVE)), grid, phat, c, prev

    return case()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_decisions_equal_enumeration(case):
    name, grid, phat, c, prev = case
    d = get(name)
    got, evaluated = edge_lines.decide(d, grid, phat, c, prev)
    for b in range(phat.shape[0]):
        want = _enumerated(d, grid, phat[b], c[b], prev[b])
        assert np.array_equal(got[b], want), (name, grid, phat[b], c[b], prev[b])
    assert np.all(np.abs(evaluated) >= 1)


def test_prunes_most_of_the_grid():
    """K = 4, eps = 0.01 (166 650 points): typically about a dozen evaluations per trial, same decisions."""
    d, grid = get("gini"), Grid(4, 0.01, "ucb")
    rng = np.random.default_rng(0)
    phat = rng.uniform(0.1, 0.9, (20, 4))
    c = 0.5 + 0.05 * rng.uniform(size=(20, 4))
    got, evaluated = edge_lines.decide(d, grid, phat, c)
    assert np.all(evaluated > 0) and np.median(evaluated) < 50 and evaluated.max() < grid.size / 2
    for b in range(0, 20, 3):
        assert np.array_equal(got[b], _enumerated(d, grid, phat[b], c[b], None))


def test_plateau_falls_back_to_enumeration():
    """Identical arms: every grid point ties; more than CAND_CAP ties -> enumeration inside the kernel."""
    d, grid = get("gini"), Grid(3, 0.05, "ucb")
    phat = np.full((2, 3), 0.3)
    c = np.full((2, 3), 0.2)
    prev = np.array([[-1, -1], [4, 7]])
    got, evaluated = edge_lines.decide(d, grid, phat, c, prev)
    assert np.array_equal(got[0], [0, 0]) and np.array_equal(got[1], [4, 7])
    assert np.all(evaluated < 0)  # decided by enumeration


def test_available_only_for_concave_h():
    assert edge_lines.available(get("gini"))
    assert not edge_lines.available(from_string("u**2"))  # convex h


def test_bad_input():
    with pytest.raises(ValueError, match="argument 'd'"):
        edge_lines.decide(from_string("u**2"), Grid(3, 0.1, "ucb"), np.full((1, 3), 0.5), np.zeros((1, 3)))
    g3 = Grid(3, 0.1, "ucb")
    with pytest.raises(ValueError, match="argument 'phat'"):
        edge_lines.decide(get("gini"), g3, np.full((1, 4), 0.5), np.zeros((1, 4)))
    with pytest.raises(ValueError, match="argument 'phat'"):
        edge_lines.decide(get("gini"), g3, np.array([[0.5, 1.2, 0.1]]), np.zeros((1, 3)))
    with pytest.raises(ValueError, match="argument 'c'"):
        edge_lines.decide(get("gini"), g3, np.full((1, 3), 0.5), np.array([[0.0, np.inf, 0.0]]))
    with pytest.raises(ValueError, match="argument 'previous'"):
        edge_lines.decide(get("gini"), g3, np.full((1, 3), 0.5), np.zeros((1, 3)), np.zeros((1, 3), dtype=int))
