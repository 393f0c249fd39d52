"""Plug-in tracking with forced exploration: identical actions to its plain reference loop; every arm pulled at
least ceil(t^(1/2)) times by step t (after the first pulls); it tracks the plug-in optimum."""

import math

import numpy as np
import pytest

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.policies.plugin_track import POLICY, PluginTrack
from rsb_theory.distortions import get
from tests.sim.test_ts_mix import same_actions


@pytest.mark.parametrize("dr, inst", [("gini", BernoulliInstance((0.4, 0.9))),
                                      ("gini", FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5),
                                                                                       (0.6, 0.2, 0.2))))])
def test_engine_takes_the_reference_loops_actions(dr, inst):
    same_actions("plugin-track", get(dr), inst, T=150, seed=4, trials=3)


def test_forced_exploration_of_sqrt_t_pulls():
    res = run(SimConfig(T=400, trials=2, seed=0, record_actions=True), BernoulliInstance((0.1, 0.95)), get("gini"),
              "plugin-track")
    for row in res.actions:
        counts = np.zeros(2, int)
        for t, a in enumerate(row, start=1):
            counts[a] += 1
            assert counts.min() >= math.ceil(t ** 0.5) - 1  # the deficit is paid at the next step


def test_the_exponent_is_an_option_of_the_object():
    class Slow(PluginTrack):
        name = "plugin-track-slow"
        force_exponent = 0.8

    inst = BernoulliInstance((0.2, 0.45))  # Gini: the optimum is the vertex of arm 2
    a = run(SimConfig(T=400, trials=1, seed=0), inst, get("gini"), POLICY).counts
    b = run(SimConfig(T=400, trials=1, seed=0), inst, get("gini"), Slow()).counts
    assert b.min() >= math.ceil(400 ** 0.8) - 1 > a.min()


@pytest.mark.parametrize("counts", [[[7, 5, 9], [12, 3, 2], [1, 8, 4]], [[3, 4, 1], [2, 2, 9]]])
def test_the_grid_optimum_is_the_oracles_within_the_grid_step(counts):
    # two routes to alpha(F-hat): the loop's grid search (reference_values) and rsb_theory's oracle
    from rsb_sim.policies._ts_loop import reference_values, simplex_grid
    from rsb_theory.oracle import optimal_mixture

    d, x = get("gini"), [0.0, 0.5, 1.0]
    K = len(counts)
    grid = simplex_grid(K)
    pulls, n = [sum(c) for c in counts], sum(sum(c) for c in counts)
    deficits = reference_values(d, x, [[float(v) for v in c] for c in counts], 2, pulls, n, grid.tolist())
    alpha = np.array([(deficits[i] + pulls[i]) / n for i in range(K)])
    probs = np.array(counts, dtype=float) / np.array(pulls)[:, None]
    oracle = optimal_mixture(d, x, probs)
    step = 1.0 / (round(1 / grid[grid > 0].min()))
    assert np.abs(alpha - np.asarray(oracle.alpha)).max() <= step * K  # Gini: a strictly concave V, one optimum
