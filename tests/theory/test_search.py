"""rsb_sim.search.Searcher: certificates and routes never change a decision (rule of rsb_theory.argmax.rule).

At every step of a random sequence of estimates the Searcher's decisions equal
the enumeration of the whole grid with the previous decision kept while
optimal -- whichever route decided (upper bound, candidate sets, enumeration
of the materialised grid, branch and bound).  ``enum_budget=0`` forces the
branch and bound above ``enum_max``; the default enumerates for few trials.
"""

import math

import numpy as np
import pytest

from rsb_sim.search import ENUM_BUDGET, ENUM_MAX, Searcher
from rsb_theory import argmax as am
from rsb_theory.distortions import get
from rsb_theory.grids import Grid
from rsb_theory.holder import holder


def _estimates(p, B, steps, seed, scale):
    """Empirical means of Bernoulli samples, one more sample of one arm per step (as in a bandit run)."""
    rng = np.random.default_rng(seed)
    K = p.size
    tau = np.full((B, K), 2000.0)
    ones = rng.binomial(2000, p, size=(B, K)).astype(float)
    for t in range(steps):
        arm = t % K
        ones[:, arm] += rng.random(B) < p[arm]
        tau[:, arm] += 1
        yield ones / tau, scale / np.sqrt(tau)


def _check(grid, objective, p, use_ub, bonus, q, L_exact, enum_budget=ENUM_BUDGET, steps=12, B=3, scale=0.05):
    s = Searcher(grid, B, q, L_exact, 1.0 if bonus else 0.0, use_ub, enum_budget=enum_budget)
    ref = np.full((B, grid.K - 1), -1, dtype=np.int64)
    for k, (phat, radius) in enumerate(_estimates(p, B, steps, 7, scale)):
        rq = radius ** q if bonus else None
        if k == 0:
            s.full(objective(phat, radius), np.arange(B), phat, rq)
        else:
            s.step(lambda rows: objective(phat[rows], radius[rows]), phat, rq)
        dec = am.argmax(objective(phat, radius), grid, previous=None if k == 0 else ref, method="enumerate")
        ref = dec.counts
        assert np.array_equal(s.cur, ref), k
        np.testing.assert_array_equal(s.a, dec.points)
    return s.stats


@pytest.mark.parametrize("name, params, p", [("gini", {}, (0.3, 0.55, 0.8)), ("pht", {"s": 0.5}, (0.2, 0.5, 0.9)),
                                              ("mean_median", {}, (0.1, 0.2, 0.3))])
def test_small_grid_with_candidate_sets(name, params, p):
    d = get(name, **params)
    hr = holder(d)
    q, L = float(hr.q), float(hr.L_exact) if hr.L_exact is not None else math.nan
    grid = Grid(3, 0.05, "ucb")
    stats = _check(grid, lambda ph, r: am.ce_ucb_objective(d, ph, r, q, 1.0), np.array(p), False, True, q, L,
                   scale=0.02, steps=40)
    assert stats.full >= 3 and stats.candidate > 0


def test_rs_ucb_upper_bound_certificate():
    d = get("gini")
    grid = Grid(3, 0.05, "ucb")
    p = np.array([0.2, 0.6, 0.9])
    stats = _check(grid, lambda ph, r: am.rs_ucb_objective(d, ph, r), p, True, False, 1.0, 1.0, scale=0.3)
    assert stats.upper_bound > 0


@pytest.mark.parametrize("enum_budget", [0, ENUM_BUDGET])
def test_grid_above_enum_max_either_route(enum_budget):
    """enum_budget=0: every search runs the branch and bound; the default enumerates the stored grid."""
    d = get("gini")
    grid = Grid(3, 0.004, "ucb")
    assert grid.size > ENUM_MAX
    p = np.array([0.3, 0.55, 0.9])
    stats = _check(grid, lambda ph, r: am.ce_ucb_objective(d, ph, r, 1.0, 1.0), p, False, True, 1.0, 1.0,
                   enum_budget=enum_budget, steps=5, B=2, scale=0.01)
    assert stats.full >= 2 and stats.bnb == (stats.full if enum_budget == 0 else 0)
