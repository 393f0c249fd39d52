"""Simulating arms of any laws (rsb_sim.arm_laws): rewards by the table's inverse-CDF rule, the engine and the
reference loop take identical actions on continuous and empirical arms (K = 2..4), the Bernoulli and finite
paths are unchanged, the quantisation is declared, never silent."""

import math

import numpy as np
import pytest

from rsb_sim.arm_laws import MAX_EXACT_LEVELS, LawInstance, QuantizeError, law_instance
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get
from rsb_theory.laws import empirical_law, parse_arms

CONTINUOUS = ["beta(2,5); uniform(0.3,0.2)",
              "beta(2,5); uniform(0.3,0.2); triang(0.5,0,1)",
              "beta(2,5); uniform(0.3,0.2); truncnorm(-2,2,0.5,0.1); trapezoid(0.2,0.8)"]


def _empirical(K, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(empirical_law(np.round(rng.beta(1 + i, 3, size=40), 2), f"col{i + 1}") for i in range(K))


def _compare(laws, algo, dr="gini", T=160, trials=3, seed=0, quantize=None, eps=0.1, rs=0.0005, explore=4):
    """Run the engine and the reference loop on one table; return (result, number of mixture changes)."""
    d = get(dr)
    inst = law_instance(laws, algo, T, quantize)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs if algo == "ce-ucb-m" else 1.0,
                    explore=None if algo == "uniform" else explore, record_actions=True, quantize=quantize)
    res, setup = run(cfg, inst, d, algo), prepare(cfg, inst, d, algo)
    decisions = [[] for _ in range(trials)]
    ref = np.stack([reference_trial(setup, d, inst, RewardTable.from_seed(seed, trials, inst), k, decisions[k])
                    for k in range(trials)])
    first = np.argmax(ref != res.actions, axis=1)
    assert np.array_equal(ref, res.actions), f"first differences at t = {first + 1}"
    assert np.array_equal(np.stack([np.bincount(r, minlength=len(laws)) for r in ref]), res.counts)
    return res, sum(int(np.count_nonzero(np.diff(dk))) for dk in decisions)


@pytest.mark.parametrize("spec", CONTINUOUS, ids=["K2", "K3", "K4"])
@pytest.mark.parametrize("algo, quantize", [("ce-ucb-m", None), ("ce-ucb-m", 32), ("rs-etc-m", None),
                                            ("uniform", None), ("ucb1", None), ("dr-ucb", None)])
def test_continuous_arms_engine_matches_reference(spec, algo, quantize):
    laws = parse_arms(spec)
    res, changes = _compare(laws, algo, quantize=quantize)
    assert np.all(np.isfinite(res.regrets)) and np.all(res.regrets >= -1e-9)
    assert res.summary()["instance"]["route"] == ("quantized" if quantize else "trial")
    if algo == "ce-ucb-m":
        assert changes > 0, "the mixture decisions should change during the run"


@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize("algo", ["ce-ucb-m", "rs-etc-m", "ucb1", "dr-ucb"])
@pytest.mark.parametrize("dr", ["gini", "cvar"])
def test_empirical_arms_engine_matches_reference(K, algo, dr):
    laws = _empirical(K, seed=K)
    res, changes = _compare(laws, algo, dr=dr, seed=K)
    assert res.summary()["instance"]["route"] == "union"
    assert np.all(res.regrets >= -1e-9)


def test_rewards_follow_the_tables_convention():
    """The j-th reward of arm i in trial k is law_i.draw(U) for the j-th uniform of stream (k, i): the level read
    back is that reward exactly (trial route and union route), within delta (quantised)."""
    laws = parse_arms("beta(2,5); uniform(0.3,0.2); bernoulli(0.4)")
    inst = law_instance(laws, "ce-ucb-m", T=100)
    table = RewardTable.from_seed(7, 4, inst)
    for k in range(4):
        one, k0, trial_inst = inst.for_trial(table, k, 100)
        for i, law in enumerate(laws):
            u = table.uniforms(k, i, 100)
            assert np.array_equal(one.uniforms(k0, i, 100), u)
            levels = np.asarray(trial_inst.support)
            assert np.array_equal(levels[trial_inst.outcome(u, i)], law.draw(u))
    q = law_instance(laws, "ce-ucb-m", T=100, quantize=10)
    for i, law in enumerate(laws):
        u = table.uniforms(0, i, 500)
        assert np.all(np.abs(np.asarray(q.support)[q.outcome(u, i)] - law.draw(u)) <= q.delta + 1e-15)
    emp = _empirical(3)
    e = law_instance(emp, "ce-ucb-m")
    for i, law in enumerate(emp):
        u = np.random.default_rng(i).random(1000)
        assert np.array_equal(np.asarray(e.support)[e.outcome(u, i)], law.draw(u))


def test_bernoulli_arms_keep_the_bernoulli_instance():
    laws = parse_arms("bernoulli(0.4); bernoulli(0.9)")
    inst = law_instance(laws, "ce-ucb-m", T=10**6)
    assert inst == BernoulliInstance((0.4, 0.9))
    cfg = SimConfig(T=300, trials=4, seed=3, eps=0.1, radius_scale=0.0005, explore=5)
    a = run(cfg, inst, get("gini"), "ce-ucb-m")
    b = run(cfg, BernoulliInstance((0.4, 0.9)), get("gini"), "ce-ucb-m")
    assert np.array_equal(a.regrets, b.regrets) and np.array_equal(a.counts, b.counts)


@pytest.mark.parametrize("algo", ["rs-etc-m", "ce-ucb-m"])
def test_finite_arms_written_in_arms_take_the_finite_instances_actions(algo):
    """finite(...) arms in --arms: the same rewards and actions as --support/--probs on the same atoms, and the same
    regret up to rounding (V is computed by another, exact, route)."""
    support, probs = (0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2), (0.1, 0.8, 0.1))
    spec = "; ".join("finite(" + ", ".join(f"{x}:{p}" for x, p in zip(support, row)) + ")" for row in probs)
    laws = parse_arms(spec)
    cfg = SimConfig(T=200, trials=3, seed=1, eps=0.1, radius_scale=0.0005, explore=4, record_actions=True)
    a = run(cfg, law_instance(laws, algo), get("gini"), algo)
    b = run(cfg, FiniteSupportInstance(support, probs), get("gini"), algo)
    assert np.array_equal(a.actions, b.actions)
    assert np.allclose(a.regrets, b.regrets, atol=1e-12) and math.isclose(a.v_star, b.v_star, abs_tol=1e-9)


def test_trial_route_does_not_depend_on_the_other_trials():
    """Each trial runs on its own levels: trials 2..3 alone (first_trial=2) equal trials 2..3 of one run."""
    laws = parse_arms(CONTINUOUS[1])
    inst = law_instance(laws, "ce-ucb-m", T=150)
    base = dict(T=150, seed=5, eps=0.1, radius_scale=0.0005, explore=4)
    whole = run(SimConfig(trials=4, **base), inst, get("gini"), "ce-ucb-m")
    part = run(SimConfig(trials=2, first_trial=2, **base), inst, get("gini"), "ce-ucb-m")
    assert np.array_equal(whole.regrets[2:], part.regrets)


def test_quantisation_is_declared_never_silent():
    laws = parse_arms(CONTINUOUS[2])
    T = MAX_EXACT_LEVELS // len(laws) + 1
    with pytest.raises(QuantizeError, match="argument 'quantize'.*--quantize M"):
        law_instance(laws, "ce-ucb-m", T=T)
    assert law_instance(laws, "rs-etc-m", T=10**6).route == "trial"  # RS-ETC-M and uniform are exact
    assert law_instance(laws, "uniform", T=10**6, quantize=8).route == "trial"
    inst = law_instance(laws, "ce-ucb-m", T=T, quantize=16)
    cfg = SimConfig(T=200, trials=2, seed=0, eps=0.1, explore=4, quantize=16)
    res = run(cfg, inst, get("pht"), "ce-ucb-m")
    s = res.summary()
    qd = s["quantization"]
    lo, hi = 0.0, 1.0
    assert qd["levels"] == 16 and qd["delta"] == pytest.approx((hi - lo) / 32)
    assert qd["value_bound"] == pytest.approx(res.setup.L_bonus * qd["delta"] ** res.setup.q)
    assert s["config"]["quantize"] == 16 and s["instance"]["quantize"] == 16
    assert "quantization" not in run(SimConfig(T=50, trials=1, eps=0.2, explore=2), law_instance(laws, "rs-etc-m"),
                                     get("gini"), "rs-etc-m").summary()
    assert "quantize" not in SimConfig(T=50).to_dict()  # exact runs keep their records and cache keys


def test_quantisation_error_bound_holds_for_values():
    """|U_h(quantised empirical mixture) - U_h(empirical mixture)| <= L_bonus delta^q on random samples."""
    from rsb_theory.holder import holder
    from rsb_theory.riskmetric import finite_support

    laws = parse_arms(CONTINUOUS[2])
    rng = np.random.default_rng(0)
    for dr in ("gini", "pht", "cvar"):
        d = get(dr)
        hr = holder(d)
        for m in (4, 16, 64):
            inst = law_instance(laws, "ce-ucb-m", T=10**5, quantize=m)
            bound = inst.quantization(float(hr.L_H) * inst.width ** (1 - float(hr.q)), float(hr.q))["value_bound"]
            a = rng.dirichlet(np.ones(len(laws)))
            xs, ws, qs = [], [], []
            for i in range(len(laws)):
                u = rng.random(200)
                xs.append(inst.rewards(u, i))
                qs.append(np.asarray(inst.support)[inst.outcome(u, i)])
                ws.append(np.full(200, a[i] / 200))
            x, w, xq = np.concatenate(xs), np.concatenate(ws), np.concatenate(qs)
            o = np.argsort(x)
            exact = finite_support(d.numeric, x[o], w[o][None, :])[0] if len(set(x)) == x.size else None
            ux, inv = np.unique(xq, return_inverse=True)
            quant = finite_support(d.numeric, ux, np.bincount(inv, weights=w)[None, :])[0]
            assert exact is not None and abs(exact - quant) <= bound + 1e-12, (dr, m, exact, quant, bound)


def test_regret_is_measured_on_the_true_laws():
    laws = parse_arms(CONTINUOUS[1])
    inst = law_instance(laws, "uniform")
    res = run(SimConfig(T=300, trials=2, seed=0), inst, get("gini"), "uniform")
    from rsb_theory.laws import mixture_value
    from rsb_theory.oracle import optimal_mixture_laws

    o = optimal_mixture_laws(get("gini"), laws)
    assert res.v_star == pytest.approx(o.value, abs=1e-12)
    assert res.regrets[0] == pytest.approx(o.value - mixture_value(get("gini"), laws, np.full(3, 1 / 3)), abs=1e-9)
    assert isinstance(inst, LawInstance)


@pytest.mark.parametrize("algo, cfg", [("ce-ucb-m", {"quantize": 16, "radius_scale": 0.0005, "explore": 4}),
                                       ("ce-ucb-m", {"radius_scale": 0.0005, "explore": 4}),
                                       ("rs-etc-m", {"explore": 6})])
def test_sweep_of_arms_specs_in_chunks_equals_one_run(tmp_path, algo, cfg):
    """A sweep spec with "arms": chunks of 2 trials give the regrets of one run of 5 trials, bit for bit."""
    from rsb_sim import store
    from rsb_sim.sweep import run_spec, sweep

    spec = {"algo": algo, "dr": "gini", "params": {}, "arms": CONTINUOUS[1],
            "config": {"T": 150, "trials": 5, "seed": 2, "eps": 0.1, **cfg}}
    (key,) = sweep([spec], tmp_path, chunk=2)
    summary, arrays = store.load(tmp_path, key)
    whole = run_spec(spec)
    assert np.array_equal(np.asarray(arrays["regrets"]), whole.regrets)
    assert summary["instance"]["arms"] == [law.describe() for law in parse_arms(CONTINUOUS[1])]
    assert ("quantization" in summary) == ("quantize" in cfg)


def test_trial_route_shows_progress_per_trial():
    ticks = []

    class Bar:
        def update(self, n):
            ticks.append(n)

        def close(self):
            ticks.append("closed")

    laws = parse_arms(CONTINUOUS[0])
    run(SimConfig(T=100, trials=3, seed=0, eps=0.2, explore=3), law_instance(laws, "ce-ucb-m", T=100), get("gini"),
        "ce-ucb-m", progress=lambda total: Bar())
    assert ticks == [1, 1, 1, "closed"]
