"""CE-UCB-M's window route (``rsb_theory.argmax.x_window``) against plain enumeration of the grid
and against the line search: the same decision on every input, whichever route decides."""

import numpy as np
from hypothesis import HealthCheck, given, settings

from rsb_theory.argmax import edge_lines, x_window
from rsb_theory.distortions import get
from rsb_theory.grids import Grid

from test_edge_lines import _enumerated, cases


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(Ks=(3, 4, 5, 6), previous="always"))
def test_decisions_equal_enumeration(case):
    name, grid, phat, c, prev = case
    d = get(name)
    got, evaluated, declined = x_window.decide(d, grid, phat, c, prev, trials=np.arange(len(phat)))
    for b in range(phat.shape[0]):
        assert np.array_equal(got[b], _enumerated(d, grid, phat[b], c[b], prev[b])), (name, grid, phat[b], c[b])
    assert np.all(np.abs(evaluated) >= 1)


def _walk(K, steps, seed, eps=0.05, scale=0.01, taus=(25, 5000)):
    """Estimates of one CE-UCB-M-like trial: means of Bernoulli pulls, bonus L radius, one arm per step."""
    rng = np.random.default_rng(seed)
    p_true = np.sort(rng.uniform(0.1, 0.9, K))
    tau = np.full(K, float(rng.integers(*taus)))
    ones = np.floor(tau * p_true)
    P, C = [], []
    for _ in range(steps):
        i = rng.integers(K)
        tau[i] += 1
        ones[i] += rng.random() < p_true[i]
        P.append(ones / tau)
        C.append(scale * 16 * 40 / np.sqrt(tau))
    return np.array(P), np.array(C)


def test_a_trial_decided_step_by_step_as_by_enumeration():
    """Consecutive decisions of one trial (the sorted order is kept, drifts and is re-sorted): each is the
    enumeration's, and the window route decides most of them."""
    d = get("gini")
    for K, seed in ((3, 0), (4, 1), (5, 2)):
        grid = Grid(K, 0.05 if K < 5 else 0.1, "ucb")
        P, C = _walk(K, 400, seed)
        prev = grid.counts()[:1].copy()
        used = 0
        sc = edge_lines.scratch(K, grid.budget)
        ws = x_window.window_scratch(grid)
        window = x_window.compiled_window()
        line = edge_lines.compiled_search()
        h = edge_lines.compiled_h(d)
        for t in range(len(P)):
            out = np.empty(K - 1, dtype=np.int64)
            ev = window(h, P[t], C[t], prev[0], out, grid.budget, grid.eps, grid.offset, edge_lines.TIE_TOL,
                        edge_lines.CAND_CAP, sc, ws, 7)
            if ev == x_window.DECLINED:
                line(h, P[t], C[t], prev[0], out, grid.budget, grid.eps, grid.offset, edge_lines.TIE_TOL,
                     edge_lines.CAND_CAP, sc)
            else:
                used += 1
            assert np.array_equal(out, _enumerated(d, grid, P[t], C[t], prev[0])), (K, t)
            prev[0] = out
        assert used > len(P) // 2
        assert ws[5][2] >= 1  # sorted at least once


def test_same_decisions_as_the_line_search_on_long_walks():
    d = get("gini")
    for K, seed, scale in ((4, 3, 0.01), (4, 4, 1.0), (6, 5, 0.01)):
        grid = Grid(K, 0.05, "ucb")
        P, C = _walk(K, 1500, seed, scale=scale)
        lines = np.empty((len(P), K - 1), dtype=np.int64)
        prev = grid.counts()[:1].copy()
        for t in range(len(P)):  # the line search alone, each decision from the previous one
            lines[t] = edge_lines.decide(d, grid, P[t:t + 1], C[t:t + 1], prev)[0][0]
            prev[0] = lines[t]
        previous = np.concatenate([grid.counts()[:1], lines[:-1]])
        got, _, declined = x_window.decide(d, grid, P, C, previous, trials=np.zeros(len(P), dtype=np.int64))
        assert np.array_equal(got, lines)
        assert declined < len(P)


def test_declines_without_a_previous_choice_or_on_small_k():
    d = get("gini")
    grid = Grid(4, 0.1, "ucb")
    phat = np.array([[0.2, 0.4, 0.6, 0.9]])
    c = np.full((1, 4), 0.01)
    _, _, declined = x_window.decide(d, grid, phat, c, np.full((1, 3), -1))
    assert declined == 1
    assert x_window.window_scratch(Grid(2, 0.05, "ucb"))[0].shape[0] == 0  # K = 2: the route is off
    big = Grid(4, 0.005, "ucb")
    assert big.size > x_window.WINDOW_MAX_GRID and x_window.window_scratch(big)[0].shape[0] == 0


def test_identical_arms_fall_back_to_enumeration_inside():
    """All means equal: no hull edge, the route declines and the line search enumerates."""
    d, grid = get("gini"), Grid(3, 0.05, "ucb")
    phat = np.full((2, 3), 0.3)
    c = np.full((2, 3), 0.2)
    prev = np.array([[4, 7], [0, 0]])
    got, evaluated, declined = x_window.decide(d, grid, phat, c, prev, trials=np.arange(2))
    assert declined == 2 and np.array_equal(got, prev)
