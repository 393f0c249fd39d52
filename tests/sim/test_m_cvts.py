"""M-CVTS (Baudry et al. 2021): identical actions to its plain reference loop; Dirichlet(1 + c) on the known
support; refused outside CVaR and outside known finite supports, naming ``algo``."""

import numpy as np
import pytest

from rsb_sim.arm_laws import law_instance
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_theory.distortions import get
from rsb_theory.laws import parse_arms
from tests.sim.test_ts_mix import same_actions

FINITE = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2), (0.1, 0.8, 0.1)))


@pytest.mark.parametrize("dr, inst", [("cvar_lower", BernoulliInstance((0.3, 0.5, 0.8))), ("cvar", FINITE),
                                      ("cvar_lower", FINITE)])
def test_engine_takes_the_reference_loops_actions(dr, inst):
    res = same_actions("m-cvts", get(dr), inst, T=200, seed=7, trials=3, explore=2)
    assert len({tuple(c) for c in res.counts}) > 1


def test_refused_outside_cvar_and_finite_supports_naming_algo():
    with pytest.raises(ValueError, match="argument 'algo'.*CVaR only"):
        run(SimConfig(T=50, trials=1), BernoulliInstance((0.4, 0.9)), get("gini"), "m-cvts")
    inst = law_instance(parse_arms("beta(2,5); triang(0.5,0,1)"), "m-cvts", 50)
    with pytest.raises(ValueError, match="argument 'algo'.*known finite support"):
        run(SimConfig(T=50, trials=1), inst, get("cvar_lower"), "m-cvts")


def test_it_finds_the_arm_of_largest_cvar():
    inst = BernoulliInstance((0.5, 0.8))  # lower CVaR(1/2): 0 and 0.6
    res = run(SimConfig(T=2000, trials=4, seed=2), inst, get("cvar_lower"), "m-cvts")
    assert np.all(res.counts[:, 1] > 1900)
