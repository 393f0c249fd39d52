"""RS-UCB-M's compiled exact search (``rsb_theory.argmax.intervals``) against enumeration of the grid
with the objective's own values and the tie rule: the same decision whenever the search decides, and
the branch and bound's decision is left to the caller (FALLBACK) otherwise."""

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from rsb_theory.argmax import intervals
from rsb_theory.argmax.rule import choose
from rsb_theory.distortions import get
from rsb_theory.grids import Grid
from rsb_theory.objectives import rs_ucb_objective

from test_edge_lines import CONCAVE, _means


def _enumerated(d, grid, phat, radius, prev):
    """The decision rule by enumeration on RSUCBObjective's values, one trial."""
    obj = rs_ucb_objective(d, phat[None], radius[None], validate=False)
    V = obj.at_points(grid.points())
    counts = grid.counts()
    ip = -1 if prev[0] < 0 else int(np.flatnonzero((counts == prev).all(axis=1))[0])
    col, _ = choose(V, np.array([ip]))
    return counts[col[0]]


@st.composite
def _case(draw):
    K = draw(st.sampled_from((2, 3, 4, 5)))
    eps = draw(st.sampled_from({2: [0.05, 0.013, 0.3], 3: [0.05, 0.2], 4: [0.05, 0.1], 5: [0.1, 0.2]}[K]))
    grid = Grid(K, eps, "ucb")
    B = draw(st.integers(1, 4))
    phat = np.array([draw(_means(K)) for _ in range(B)])
    scale = draw(st.sampled_from([0.0, 1e-6, 0.01, 0.1, 0.5, 2.0]))
    radius = np.array([draw(st.lists(st.floats(0.0, 1.0), min_size=K, max_size=K)) for _ in range(B)]) * scale
    counts = grid.counts()
    prev = np.full((B, K - 1), -1, dtype=np.int64)
    for b in range(B):
        if draw(st.booleans()):
            prev[b] = counts[draw(st.integers(0, len(counts) - 1))]
    return draw(st.sampled_from(CONCAVE)), grid, phat, radius, prev


def _lohi(phat, radius):
    return np.clip(phat - radius, 0.0, 1.0), np.clip(phat + radius, 0.0, 1.0)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_case())
def test_decisions_equal_enumeration(case):
    name, grid, phat, radius, prev = case
    d = get(name)
    lo, hi = _lohi(phat, radius)
    got, work = intervals.decide(d, grid, lo, hi, prev)
    for b in range(phat.shape[0]):
        if work[b] == intervals.FALLBACK:
            continue
        assert np.array_equal(got[b], _enumerated(d, grid, phat[b], radius[b], prev[b])), (name, grid, phat[b])


def test_most_decisions_are_made_and_the_budget_is_a_count():
    """Random Gini instances with informative radii: the search decides nearly all of them; with a work
    budget of 0 it decides none that needs a walk (FALLBACK), with the previous choice kept as before."""
    rng = np.random.default_rng(0)
    d = get("gini")
    for K, eps in ((2, 0.05), (4, 0.05), (6, 0.1)):
        grid = Grid(K, eps, "ucb")
        phat = rng.uniform(0.0, 1.0, (200, K))
        radius = rng.uniform(0.0, 0.2, (200, K))
        lo, hi = _lohi(phat, radius)
        got, work = intervals.decide(d, grid, lo, hi)
        decided = work != intervals.FALLBACK
        assert decided.mean() > 0.5
        for b in np.flatnonzero(decided)[:40]:
            assert np.array_equal(got[b], _enumerated(d, grid, phat[b], radius[b], np.full(K - 1, -1)))
        _, none = intervals.decide(d, grid, lo, hi, budget=0)
        assert np.all(none == intervals.FALLBACK)
