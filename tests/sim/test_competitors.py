"""The competitors UCB-FW, U-UCB, CVaR-UCB and B-CVTS: identical actions to their plain reference loops (the
newer learners have their own test modules: ``test_ts_mix``, ``test_plugin_track``, ``test_m_cvts``).

Bernoulli arms K = 2..6, finite-support, continuous (per-trial levels) and empirical arms; what each
reads; B-CVTS's and CVaR-UCB's refusal outside CVaR (naming ``algo``); UCB-FW's words on a kink.
"""

import numpy as np
import pytest

from rsb_sim.arm_laws import law_instance
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.options import ALGORITHMS, COMPETITORS, READS, check_applies, check_distortion
from rsb_sim.policies.b_cvts import sampler
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get
from rsb_theory.laws import empirical_law, parse_arms

FINITE = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2), (0.1, 0.8, 0.1)))
FINITE_WIDE = FiniteSupportInstance((0.5, 1.0, 2.5), ((0.3, 0.3, 0.4), (0.1, 0.8, 0.1)))
DR = {"ucb-fw": "gini", "u-ucb": "gini", "cvar-ucb": "cvar_lower", "b-cvts": "cvar_lower"}


def _same_actions(algo, d, inst, T, seed=0, trials=3, **cfg):
    config = SimConfig(T=T, trials=trials, seed=seed, record_actions=True, **cfg)
    res = run(config, inst, d, algo)
    setup = prepare(config, inst, d, algo)
    table = RewardTable.from_seed(seed, trials, inst)
    ref = np.stack([reference_trial(setup, d, inst, table, k) for k in range(trials)])
    first = np.argmax(ref != res.actions, axis=1) + 1
    assert np.array_equal(res.actions, ref), (algo, inst, cfg, first)
    assert np.array_equal(res.counts, np.stack([np.bincount(r, minlength=inst.K) for r in ref]))
    return res


@pytest.mark.parametrize("algo", tuple(DR))
@pytest.mark.parametrize("dr, inst", [
    (None, BernoulliInstance((0.4, 0.9))),
    ("cvar", BernoulliInstance((0.3, 0.5, 0.8))),
    (None, FINITE),
    ("cvar", FINITE_WIDE),
])
def test_engine_takes_the_reference_loops_actions(algo, dr, inst):
    d = get(dr or DR[algo])
    if algo in ("u-ucb", "ucb-fw") and dr == "cvar":
        d = get("pht") if algo == "u-ucb" else get("dual_power")  # UCB-FW on CVaR here: h' = 0, round robin
    res = _same_actions(algo, d, inst, T=220, seed=7, **({"radius_scale": 0.05} if algo != "b-cvts" else {}))
    assert len({tuple(c) for c in res.counts}) > 1  # the data matter


@pytest.mark.parametrize("algo", tuple(DR))
def test_random_bernoulli_instances_k2_to_6_and_explore(algo):
    rng = np.random.default_rng(11)
    for K in range(2, 7):
        p = tuple(float(x) for x in np.round(rng.uniform(0.05, 0.95, K), 3))
        cfg = {"explore": int(rng.integers(1, 3))}
        if algo != "b-cvts":
            cfg["radius_scale"] = float(rng.choice([0.02, 0.2, 1.0]))
        _same_actions(algo, get(DR[algo]), BernoulliInstance(p), T=120, seed=K, trials=2, **cfg)


@pytest.mark.parametrize("algo", tuple(DR))
@pytest.mark.parametrize("kind", ["continuous", "empirical"])
def test_continuous_and_empirical_arms(algo, kind):
    if kind == "continuous":
        laws = parse_arms("beta(2,5); uniform(0.3,0.2); triang(0.5,0,1)")
    else:
        rng = np.random.default_rng(0)
        laws = tuple(empirical_law(np.round(rng.beta(1 + i, 3, size=30), 2), f"col{i + 1}") for i in range(3))
    inst = law_instance(laws, algo, 100)
    res = _same_actions(algo, get(DR[algo]), inst, T=100, seed=3, trials=2,
                        **({"radius_scale": 0.05} if algo != "b-cvts" else {}))
    assert np.all(np.isfinite(res.regrets))


def test_registered_with_the_options_they_read():
    assert set(COMPETITORS) <= set(ALGORITHMS)
    assert READS["b-cvts"] == {"explore"} and READS["ucb-fw"] == {"radius_scale", "explore"}
    with pytest.raises(ValueError, match="argument 'radius_scale'"):
        check_applies("b-cvts", ["radius_scale"])
    for name in ("eps", "rho", "threads", "quantize"):
        with pytest.raises(ValueError, match=f"argument '{name}'"):
            check_applies("ucb-fw", [name])


@pytest.mark.parametrize("algo", ["cvar-ucb", "b-cvts"])
def test_cvar_learners_are_refused_outside_cvar_naming_algo(algo):
    check_distortion(algo, "cvar") or check_distortion(algo, "cvar_lower")
    with pytest.raises(ValueError, match="argument 'algo'"):
        check_distortion(algo, "gini")
    with pytest.raises(ValueError, match="argument 'algo'.*CVaR only"):
        run(SimConfig(T=50, trials=1), BernoulliInstance((0.4, 0.9)), get("gini"), algo)


def test_ucb_fw_says_when_h_has_a_kink_or_is_not_concave():
    res = run(SimConfig(T=50, trials=1), BernoulliInstance((0.4, 0.9)), get("mean_median"), "ucb-fw")
    assert any("kink" in w and "supergradient" in w for w in res.warnings)
    res = run(SimConfig(T=50, trials=1), BernoulliInstance((0.4, 0.9)), get("cvar_lower"), "ucb-fw")
    assert any("not concave" in w for w in res.warnings)
    assert not run(SimConfig(T=50, trials=1), BernoulliInstance((0.4, 0.9)), get("gini"), "ucb-fw").warnings


def test_b_cvts_samplers_are_children_of_the_reward_streams():
    table = RewardTable.from_seed(5, 2, BernoulliInstance((0.4, 0.9)), first=3, stream=(1,))
    want = np.random.SeedSequence(table.entropy, spawn_key=(1, 4, 1)).spawn(1)[0]
    got = np.random.Generator(np.random.PCG64(want)).random(4)
    assert np.array_equal(sampler(table, 1, 1).random(4), got)
    assert not np.array_equal(sampler(table, 1, 0).random(4), table.uniforms(1, 0, 4))


def test_ucb_fw_tracks_the_optimal_mixture():
    # Gini, Bern(0.4), Bern(0.9): alpha* = (0.8, 0.2); UCB-FW's proportions approach it
    res = run(SimConfig(T=4000, trials=4, seed=1, radius_scale=0.1), BernoulliInstance((0.4, 0.9)), get("gini"),
              "ucb-fw")
    share = res.counts.mean(axis=0) / 4000
    assert abs(share[0] - 0.8) < 0.05 and res.mean_regret < 0.5 * (res.v_star - max(res.arm_values))


@pytest.mark.parametrize("algo", ["b-cvts", "ucb-fw"])
def test_a_chunk_of_trials_sees_what_those_trials_see_in_one_run(algo):
    d, inst = get(DR[algo]), BernoulliInstance((0.3, 0.6, 0.8))
    whole = run(SimConfig(T=150, trials=4, seed=9, stream=(2,)), inst, d, algo)
    part = run(SimConfig(T=150, trials=2, seed=9, stream=(2,), first_trial=2), inst, d, algo)
    assert np.array_equal(whole.counts[2:], part.counts)
