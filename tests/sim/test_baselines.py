"""The solitary baselines UCB1 and DR-UCB: identical actions to their reference loops, and what they lose.

On a mixture-optimal instance (Gini, Bern(0.4), Bern(0.9): alpha* = (0.8, 0.2)) a solitary algorithm
converges to one arm, so its regret (``eq:regret``) tends to V(alpha*) - U_h(F_i) of that arm, at least
V(alpha*) - max_i U_h(F_i) = 0.25 - 0.24; on a solitary instance (Bern(0.2), Bern(0.45): the optimum is
arm 2 alone) it decays.
"""

import numpy as np
import pytest

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance, make_instance
from rsb_sim.options import ALGORITHMS, BASELINES, READS, check_applies
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get, resolve

FINITE = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2), (0.1, 0.8, 0.1)))
FINITE_WIDE = FiniteSupportInstance((0.5, 1.0, 2.5), ((0.3, 0.3, 0.4), (0.1, 0.8, 0.1)))


def _same_actions(algo, d, inst, T, seed=0, trials=4, **cfg):
    config = SimConfig(T=T, trials=trials, seed=seed, record_actions=True, **cfg)
    res = run(config, inst, d, algo)
    setup = prepare(config, inst, d, algo)
    table = RewardTable.from_seed(seed, trials, inst)
    ref = np.stack([reference_trial(setup, d, inst, table, k) for k in range(trials)])
    assert np.array_equal(res.actions, ref), (algo, inst, cfg)
    assert np.array_equal(res.counts, np.stack([np.bincount(r, minlength=inst.K) for r in ref]))
    return res


@pytest.mark.parametrize("algo, scale", [("ucb1", None), ("dr-ucb", 0.001), ("dr-ucb", 0.01), ("dr-ucb", 1.0)])
@pytest.mark.parametrize("dr, inst", [
    ("gini", BernoulliInstance((0.4, 0.9))),
    ("gini", BernoulliInstance((0.45, 0.5, 0.55))),
    ("pht", BernoulliInstance((0.2, 0.5, 0.3, 0.6))),
    ("cvar", BernoulliInstance((0.3, 0.5))),
    ("gini", FINITE),
    ("dual_power", FINITE_WIDE),
])
def test_engine_takes_the_reference_loops_actions(algo, scale, dr, inst):
    cfg = {"radius_scale": scale} if scale is not None else {}
    res = _same_actions(algo, get(dr), inst, T=250, seed=7, **cfg)
    assert len({tuple(c) for c in res.counts}) > 1 or scale == 1.0  # the data matter


@pytest.mark.parametrize("algo", BASELINES)
def test_random_instances_k2_to_6_and_explore(algo):
    rng = np.random.default_rng(3)
    for K in range(2, 7):
        p = tuple(float(x) for x in np.round(rng.uniform(0.05, 0.95, K), 3))
        cfg = {"explore": int(rng.integers(1, 4))}
        if algo == "dr-ucb":
            cfg["radius_scale"] = 0.002
        _same_actions(algo, get("gini"), BernoulliInstance(p), T=150, seed=K, trials=3, **cfg)


def test_registered_with_the_options_they_read():
    assert set(BASELINES) <= set(ALGORITHMS)
    assert READS["ucb1"] == {"explore"} and READS["dr-ucb"] == {"radius_scale", "explore"}
    for name in ("eps", "rho", "threads"):
        with pytest.raises(ValueError, match=f"argument '{name}'"):
            check_applies("dr-ucb", [name])
    with pytest.raises(ValueError, match="argument 'radius_scale'"):
        check_applies("ucb1", ["radius_scale"])


def test_dr_ucb_with_the_papers_radius_is_said_to_be_degenerate():
    res = run(SimConfig(T=300, trials=2), BernoulliInstance((0.4, 0.9)), get("gini"), "dr-ucb")
    assert any("DR-UCB" in w and "every confidence set" in w for w in res.warnings)
    assert not run(SimConfig(T=300, trials=2, radius_scale=0.001), BernoulliInstance((0.4, 0.9)), get("gini"),
                   "dr-ucb").warnings


def _regret(algo, p, T, trials=30, **cfg):
    return run(SimConfig(T=T, trials=trials, seed=1, **cfg), BernoulliInstance(p), get("gini"), algo)


def test_on_a_mixture_optimal_instance_the_baselines_keep_a_constant_regret():
    d, inst = get("gini"), BernoulliInstance((0.4, 0.9))
    v_star = inst.optimal(d).value
    arm = np.array([float(d.numeric(np.array([p]))[0]) for p in inst.p])  # U_h(Bern(p)) = h(p)
    floor = v_star - arm.max()  # 0.25 - 0.24
    assert floor == pytest.approx(0.01)
    dr = [_regret("dr-ucb", inst.p, T, radius_scale=0.001).mean_regret for T in (1000, 4000)]
    assert 0.7 * floor < dr[0] <= dr[1] <= floor + 1e-12  # tends to the floor from below, does not decay
    ucb = [_regret("ucb1", inst.p, T).mean_regret for T in (1000, 4000)]
    worst = v_star - arm[1]  # UCB1 follows the larger mean, 0.9, whose U_h is the smaller
    assert 0.85 * worst < ucb[0] <= ucb[1] <= worst + 1e-12
    mixture = _regret("rs-etc-m", inst.p, 4000, explore=400).mean_regret
    assert mixture < floor / 3  # the mixture algorithm beats the best single arm


def test_on_a_solitary_instance_the_baselines_regret_decays():
    p = (0.2, 0.45)  # Gini: h(0.45) = 0.2475 is the best value over [0.2, 0.45]: arm 2 alone
    for algo, cfg in (("dr-ucb", {"radius_scale": 0.001}), ("ucb1", {})):
        short, long = (_regret(algo, p, T, **cfg).mean_regret for T in (250, 4000))
        assert long < short / 3 and long < 2e-3, (algo, short, long)


def test_dr_ucb_leaves_the_arm_of_smallest_value_on_finite_support():
    res = run(SimConfig(T=3000, trials=10, seed=2, radius_scale=0.001), FINITE, get("gini"), "dr-ucb")
    values = FINITE.arm_values(get("gini"))  # 0.205, 0.2, 0.09
    assert res.counts[:, int(np.argmin(values))].mean() < 0.02 * 3000


def test_the_same_seed_gives_the_same_regrets():
    inst = make_instance(p=(0.4, 0.9))
    a = run(SimConfig(T=400, trials=5, seed=11, radius_scale=0.01), inst, resolve("gini"), "dr-ucb")
    b = run(SimConfig(T=400, trials=5, seed=11, radius_scale=0.01), inst, resolve("gini"), "dr-ucb")
    assert np.array_equal(a.regrets, b.regrets)
