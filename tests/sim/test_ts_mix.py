"""TS-Mix (Thompson sampling for the mixture): identical actions to its plain reference loop in both variants, on
Bernoulli, finite-support, continuous and empirical arms; sampler streams spawned from the reward streams; it
learns the optimal mixture."""

import numpy as np
import pytest

from rsb_sim.arm_laws import law_instance
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.policies.ts_mix import FRANK_WOLFE, POLICY
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get
from rsb_theory.laws import empirical_law, parse_arms

FINITE = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2)))
FINITE_WIDE = FiniteSupportInstance((0.5, 1.0, 2.5), ((0.3, 0.3, 0.4), (0.1, 0.8, 0.1)))


def same_actions(algo, d, inst, T, seed=0, trials=2, **cfg):
    config = SimConfig(T=T, trials=trials, seed=seed, record_actions=True, **cfg)
    res = run(config, inst, d, algo)
    setup = prepare(config, inst, d, algo)
    table = RewardTable.from_seed(seed, trials, inst)
    ref = np.stack([reference_trial(setup, d, inst, table, k) for k in range(trials)])
    assert np.array_equal(res.actions, ref), (algo, inst, np.argmax(ref != res.actions, axis=1) + 1)
    return res


@pytest.mark.parametrize("algo", [POLICY, FRANK_WOLFE], ids=["track", "fw"])
@pytest.mark.parametrize("dr, inst", [("gini", BernoulliInstance((0.4, 0.9))), ("gini", FINITE),
                                      ("dual_power", FINITE_WIDE)])
def test_engine_takes_the_reference_loops_actions(algo, dr, inst):
    res = same_actions(algo, get(dr), inst, T=120, seed=7)
    if dr == "gini":  # an interior optimum: the data matter
        assert len({tuple(c) for c in res.counts}) > 1


def test_three_arms_and_explore():
    same_actions(FRANK_WOLFE, get("gini"), BernoulliInstance((0.3, 0.5, 0.8)), T=100, seed=3, explore=2)
    same_actions(POLICY, get("gini"), BernoulliInstance((0.3, 0.5, 0.8)), T=40, seed=3)


@pytest.mark.parametrize("kind", ["continuous", "empirical"])
def test_continuous_and_empirical_arms(kind):
    if kind == "continuous":
        laws = parse_arms("beta(2,5); triang(0.5,0,1)")
    else:
        rng = np.random.default_rng(0)
        laws = tuple(empirical_law(np.round(rng.beta(1 + i, 3, size=20), 1), f"col{i + 1}") for i in range(2))
    inst = law_instance(laws, "ts-mix", 60)
    res = same_actions(FRANK_WOLFE, get("gini"), inst, T=60, seed=3)
    assert np.all(np.isfinite(res.regrets))


def test_tracking_runs_on_a_kink_and_frank_wolfe_refuses_it_naming_dr():
    run(SimConfig(T=50, trials=1), BernoulliInstance((0.2, 0.45)), get("cvar_lower"), "ts-mix")
    with pytest.raises(ValueError, match="argument 'dr'"):
        run(SimConfig(T=50, trials=1), BernoulliInstance((0.2, 0.45)), get("cvar_lower"), FRANK_WOLFE)


def test_sampler_streams_are_the_first_children_of_the_reward_streams():
    table = RewardTable.from_seed(5, 2, BernoulliInstance((0.4, 0.9)), first=3, stream=(1,))
    gens, _ = POLICY.reference_state(prepare(SimConfig(T=10, trials=2), BernoulliInstance((0.4, 0.9)), get("gini"),
                                             "ts-mix"), table, 1)
    want = np.random.SeedSequence(table.entropy, spawn_key=(1, 4, 1)).spawn(1)[0]
    assert np.array_equal(gens[1].random(4), np.random.Generator(np.random.PCG64(want)).random(4))


@pytest.mark.parametrize("algo", [POLICY, FRANK_WOLFE], ids=["track", "fw"])
def test_it_learns_the_optimal_mixture(algo):
    # Gini, Bern(0.4), Bern(0.9): alpha* = (0.8, 0.2)
    res = run(SimConfig(T=3000, trials=4, seed=1), BernoulliInstance((0.4, 0.9)), get("gini"), algo)
    share = res.counts.mean(axis=0) / 3000
    assert abs(share[0] - 0.8) < 0.03 and res.mean_regret < 0.05 * (res.v_star - max(res.arm_values))
