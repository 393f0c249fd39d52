"""RS-UCB-M's route: the compiled loop only where its search can decide (a maximiser of h within the hull
of the means); elsewhere the NumPy loop, which searches all trials at once.  Found when the ledger's
seeded RS-UCB-M runs (mean, K = 3, radius x 0.004) took 88 s instead of 0.1 s: every decision had gone
to the branch and bound one trial at a time."""

import pytest

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_sim.policies import _rs_compiled
from rsb_sim.setup import prepare
from rsb_theory.distortions import get


@pytest.mark.parametrize("name, p, compiled", [
    ("gini", (0.4, 0.9), True), ("gini", (0.2, 0.4, 0.6, 0.9), True), ("cvar", (0.3, 0.6, 0.8), True),
    ("gini", (0.6, 0.9), False), ("gini", (0.1, 0.3), False), ("mean", (0.3, 0.5, 0.8), False),
    ("pht", (0.3, 0.5), False),
])
def test_the_compiled_loop_where_a_maximiser_is_in_the_hull(name, p, compiled):
    cfg = SimConfig(T=300, trials=4, seed=1, eps=0.25, radius_scale=0.004)
    d, inst = get(name), BernoulliInstance(p)
    assert _rs_compiled.applies(prepare(cfg, inst, d, "rs-ucb-m"), d, inst) is compiled


@pytest.mark.parametrize("name, p", [("mean", (0.3, 0.5, 0.8)), ("pht", (0.3, 0.5))])
def test_monotone_h_takes_no_branch_and_bound_per_trial(name, p):
    res = run(SimConfig(T=300, trials=50, seed=1, eps=0.25, radius_scale=0.004), BernoulliInstance(p), get(name),
              "rs-ucb-m")
    assert res.stats.get("bnb", 0) == 0 and "compiled" not in res.stats
