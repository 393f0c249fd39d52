"""Finite-support arms in RS-ETC-M and CE-UCB-M: vectorised engine vs the reference loop.

* identical action sequences on the same reward table (``eq:ETC_alpha``,
  ``eq:UCB_alpha2`` on the empirical laws of ``eq:empirical_CDF``), K = 2..4
  (and one K = 6 case), support sizes 2..4, several distortions and seeds,
  with parameters chosen so that the decisions change (asserted);
* a support {0, 1} reproduces the Bernoulli engine's actions exactly;
* the candidate-set drift bound for finite support (``rsb_sim.search``) holds;
* Delta_min(eps), N(eps) and the CE-UCB-M bonus constant for finite support.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rsb_sim.config import SimConfig
from rsb_theory.rates import N_eps_value
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.policies import get_policy
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare, true_gap
from rsb_theory import argmax as am
from rsb_theory.distortions import get
from rsb_theory.grids import Grid
from rsb_theory.holder import holder

DISTORTIONS = {
    "gini": get("gini"),
    "cvar": get("cvar", alpha=0.5),
    "pht": get("pht", s=0.5),
    "mean_median": get("mean_median"),
}

INSTANCES = {
    # (support, probs): K = 2..4, support sizes 2..4, zero masses and two equal arms
    "K2m2": ((0.0, 1.0), ((0.3, 0.7), (0.6, 0.4))),
    "K2m4": ((0.0, 0.5, 1.0, 2.0), ((0.1, 0.4, 0.4, 0.1), (0.5, 0.0, 0.0, 0.5))),
    "K3m3": ((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2), (0.1, 0.8, 0.1))),
    "K3m2": ((0.2, 1.5), ((0.5, 0.5), (0.2, 0.8), (0.9, 0.1))),
    "K4m3": ((0.0, 1.0, 3.0), ((0.3, 0.4, 0.3), (0.5, 0.5, 0.0), (0.5, 0.5, 0.0), (0.0, 0.9, 0.1))),
    "K4m4": ((0.0, 0.25, 0.5, 1.0), ((0.25, 0.25, 0.25, 0.25), (0.0, 0.5, 0.5, 0.0),
                                     (0.7, 0.0, 0.0, 0.3), (0.1, 0.2, 0.3, 0.4))),
}


def _run_both(inst, d, algo, cfg, seed):
    """Engine actions, reference actions and per-trial reference decisions on one reward table."""
    setup = prepare(cfg, inst, d, algo)
    table = RewardTable.from_seed(seed, cfg.trials, inst)
    pr = get_policy(algo)(setup, d, inst, table, record_actions=True)
    ref, decisions = [], []
    for k in range(cfg.trials):
        dec: list = []
        ref.append(reference_trial(setup, d, inst, table, k, dec))
        decisions.append(dec)
    return setup, pr, np.stack(ref), decisions


# ---------------------------------------------------------------------------
# RS-ETC-M
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(INSTANCES))
@pytest.mark.parametrize("dr", sorted(DISTORTIONS))
def test_etc_engine_matches_reference(name, dr):
    support, probs = INSTANCES[name]
    inst = FiniteSupportInstance(support, probs)
    K = inst.K
    d = DISTORTIONS[dr]
    chosen = set()
    for seed in (0, 1, 2):
        cfg = SimConfig(T=200, trials=6, seed=seed, eps=0.1 if K < 4 else 0.125, explore=4)
        setup, pr, ref, decisions = _run_both(inst, d, "rs-etc-m", cfg, seed)
        assert pr.actions.shape == ref.shape == (6, 200)
        assert np.array_equal(pr.actions, ref), (name, dr, seed)
        assert np.array_equal(pr.counts, np.stack([np.bincount(r, minlength=K) for r in ref]))
        chosen.update(dec[0] for dec in decisions)
    # the exploration is short, so the empirical laws (hence a_E) differ between trials
    assert len(chosen) >= 2, (name, dr, chosen)


def test_etc_k6_matches_reference():
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(3), size=6)
    probs[:, -1] = 1.0 - probs[:, :-1].sum(axis=1)
    inst = FiniteSupportInstance((0.0, 0.5, 1.0), probs)
    cfg = SimConfig(T=240, trials=4, seed=11, eps=0.25, explore=2)
    setup, pr, ref, decisions = _run_both(inst, DISTORTIONS["gini"], "rs-etc-m", cfg, 11)
    assert np.array_equal(pr.actions, ref)
    assert len({dec[0] for dec in decisions}) >= 2


# ---------------------------------------------------------------------------
# CE-UCB-M
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(INSTANCES))
@pytest.mark.parametrize("dr", sorted(DISTORTIONS))
def test_ce_ucb_engine_matches_reference(name, dr):
    support, probs = INSTANCES[name]
    inst = FiniteSupportInstance(support, probs)
    K = inst.K
    d = DISTORTIONS[dr]
    changes = 0
    for seed in (0, 3):
        cfg = SimConfig(T=160 if K < 4 else 120, trials=3, seed=seed, eps=0.1 if K < 4 else 0.125,
                        explore=5, radius_scale=0.004)
        setup, pr, ref, decisions = _run_both(inst, d, "ce-ucb-m", cfg, seed)
        assert np.array_equal(pr.actions, ref), (name, dr, seed)
        changes += sum(int(np.count_nonzero(np.diff(dec))) for dec in decisions)
    assert changes >= 2, (name, dr, changes)  # the mixture estimate moves during the run


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    K=st.integers(2, 4),
    m=st.integers(2, 4),
    b=st.sampled_from([0.5, 1.0, 3.0]),
    raw=st.lists(st.sampled_from([0.0, 0.0, 0.5, 1.0, 1.0, 2.0, 3.0]), min_size=16, max_size=16),
    dr=st.sampled_from(sorted(DISTORTIONS)),
    algo=st.sampled_from(["rs-etc-m", "ce-ucb-m"]),
    seed=st.integers(0, 2**16),
    zero_first=st.booleans(),
)
def test_random_instances_engine_matches_reference(K, m, b, raw, dr, algo, seed, zero_first):
    """Random laws (zero masses, equal arms, supports with or without 0) on [0, b]."""
    w = np.array(raw[:K * m]).reshape(K, m)
    w[w.sum(axis=1) == 0, 0] = 1.0
    probs = w / w.sum(axis=1, keepdims=True)
    start = 0.0 if zero_first else b / (2 * m)
    support = tuple(np.linspace(start, b, m))
    inst = FiniteSupportInstance(support, probs)
    d = DISTORTIONS[dr]
    if algo == "rs-etc-m":
        cfg = SimConfig(T=150, trials=3, seed=seed, eps=0.1 if K < 4 else 0.125, explore=3)
    else:
        cfg = SimConfig(T=100, trials=2, seed=seed, eps=0.1 if K < 4 else 0.125, explore=4,
                        radius_scale=0.004)
    setup, pr, ref, _ = _run_both(inst, d, algo, cfg, seed)
    assert np.array_equal(pr.actions, ref)


def test_candidate_certificate_used_and_exact():
    """Long enough run that the candidate-set certificate decides steps; actions still identical."""
    support, probs = INSTANCES["K3m3"]
    inst = FiniteSupportInstance(support, probs)
    cfg = SimConfig(T=400, trials=3, seed=4, eps=0.1, explore=5, radius_scale=0.004)
    setup, pr, ref, decisions = _run_both(inst, DISTORTIONS["pht"], "ce-ucb-m", cfg, 4)
    assert np.array_equal(pr.actions, ref)
    assert pr.stats["candidate"] > 0 and pr.stats["full"] > 0
    assert sum(int(np.count_nonzero(np.diff(dec))) for dec in decisions) >= 1


@pytest.mark.parametrize("budget", [0, None])
def test_ce_ucb_large_grid_uses_branch_and_bound_exactly(budget):
    """A grid above ENUM_MAX: searches by rsb_theory.argmax.argmax (SimConfig.enum_budget = 0: every search;
    finite objective, previous kept) or, by default, enumeration of the materialised grid for these few trials.
    The NumPy route (``compiled=False``; the compiled levels loop is tested in test_ce_levels.py)."""
    from rsb_sim.search import ENUM_MAX

    support, probs = INSTANCES["K3m3"]
    inst = FiniteSupportInstance(support, probs)
    cfg = SimConfig(T=150, trials=2, seed=2, eps=0.004, explore=10, radius_scale=0.004, enum_budget=budget,
                    compiled=False)
    setup, pr, ref, decisions = _run_both(inst, DISTORTIONS["gini"], "ce-ucb-m", cfg, 2)
    assert setup.grid.size > ENUM_MAX and pr.stats["candidate"] == 0
    assert (pr.stats["bnb"] > 0) == (budget == 0)
    assert np.array_equal(pr.actions, ref)
    assert sum(int(np.count_nonzero(np.diff(dec))) for dec in decisions) >= 1


# ---------------------------------------------------------------------------
# {0, 1} support = Bernoulli arms
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("algo", ["rs-etc-m", "ce-ucb-m"])
@pytest.mark.parametrize("dr", sorted(DISTORTIONS))
@pytest.mark.parametrize("p", [(0.3, 0.8), (0.0, 0.5, 1.0), (0.5, 0.5, 0.2, 0.9)])
def test_support_01_reproduces_bernoulli_engine(algo, dr, p):
    """Support {0, 1} with laws (1 - p_i, p_i): same actions as the Bernoulli engine on the same table.

    The reward table is that of the finite instance (outcome index = reward);
    the Bernoulli engine reads it as 0/1 rewards, so both see identical samples.
    """
    d = DISTORTIONS[dr]
    bern = BernoulliInstance(p)
    fin = FiniteSupportInstance((0.0, 1.0), tuple((1.0 - x, x) for x in p))
    K = len(p)
    if algo == "rs-etc-m":
        cfg = SimConfig(T=300, trials=8, seed=7, eps=0.05 if K < 4 else 0.1, explore=4)
    else:
        cfg = SimConfig(T=200, trials=4, seed=7, eps=0.1 if K < 4 else 0.125, explore=4, radius_scale=0.004)
    table = RewardTable.from_seed(7, cfg.trials, fin)
    s_fin, s_bern = prepare(cfg, fin, d, algo), prepare(cfg, bern, d, algo)
    assert s_fin.L_bonus == s_bern.L_bonus
    a_fin = get_policy(algo)(s_fin, d, fin, table, record_actions=True)
    a_bern = get_policy(algo)(s_bern, d, bern, table, record_actions=True)
    assert np.array_equal(a_fin.actions, a_bern.actions)
    assert np.array_equal(a_fin.counts, a_bern.counts)
    if algo == "rs-etc-m" and dr == "gini" and min(p) < max(p):
        # gini peaks at u = 1/2 inside [min p, max p]: a_E varies with the exploration sample
        assert len({tuple(c) for c in a_fin.counts.tolist()}) >= 2


@pytest.mark.parametrize("p", [(0.3, 0.8), (0.0, 0.5, 1.0), (0.4, 0.4, 0.9)])
def test_support_01_delta_min_equals_bernoulli(p):
    d = DISTORTIONS["gini"]
    grid = Grid(len(p), 0.1, "etc")
    fin = FiniteSupportInstance((0.0, 1.0), tuple((1.0 - x, x) for x in p))
    assert true_gap(d, fin, grid) == true_gap(d, BernoulliInstance(p), grid)


# ---------------------------------------------------------------------------
# The drift bound of the candidate certificate, finite support
# ---------------------------------------------------------------------------


def _survival(probs):
    return np.clip(np.cumsum(probs[..., ::-1], axis=-1)[..., ::-1][..., 1:], 0.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(
    K=st.integers(2, 4),
    m=st.integers(2, 4),
    dr=st.sampled_from(sorted(DISTORTIONS)),
    seed=st.integers(0, 2**16),
    scale=st.sampled_from([1e-3, 0.05, 1.0]),
)
def test_finite_drift_bound_holds(K, m, dr, seed, scale):
    """|V_t(a) - V_s(a)| <= L_H sum_j w_j (max_i |S_ij,t - S_ij,s|)^q at every grid point."""
    rng = np.random.default_rng(seed)
    d = DISTORTIONS[dr]
    hr = holder(d)
    support = np.sort(rng.choice(np.arange(0.0, 4.0, 0.25), size=m, replace=False))
    ps = rng.dirichlet(np.ones(m), size=K)
    pt = (1 - scale) * ps + scale * rng.dirichlet(np.ones(m), size=K)
    grid = Grid(K, 0.1, "etc")
    counts = grid.counts()
    vs = am.values(am.etc_objective_finite(d, support, ps[None]), grid, counts)[0]
    vt = am.values(am.etc_objective_finite(d, support, pt[None]), grid, counts)[0]
    D = np.abs(_survival(pt) - _survival(ps)).max(axis=0)
    bound = float(hr.L_exact) * float(np.sum(np.diff(support) * D ** float(hr.q)))
    assert np.all(np.abs(vt - vs) <= bound * (1 + 1e-9) + 1e-12)


# ---------------------------------------------------------------------------
# Setup and end-to-end
# ---------------------------------------------------------------------------


def test_setup_finite_constants():
    support, probs = INSTANCES["K2m4"]  # b = 2
    inst = FiniteSupportInstance(support, probs)
    d = DISTORTIONS["pht"]
    hr = holder(d)
    q, L = float(hr.q), float(hr.L_H)
    cfg = SimConfig(T=10_000, eps=0.1)
    s = prepare(cfg, inst, d, "rs-etc-m")
    assert s.L_bonus == pytest.approx(L * 2.0 ** (1 - q))
    # Delta_min from the true laws by full enumeration of the etc grid (U_h of the mixtures)
    grid = Grid(2, 0.1, "etc")
    vals = np.sort(inst.value(d, grid.points()))[::-1]
    second = vals[vals < vals[0] - 1e-12][0]
    assert s.Delta_min == pytest.approx(vals[0] - second, rel=1e-9, abs=1e-13)
    assert s.N_eps == pytest.approx(N_eps_value(2, 10_000, 0.1, s.L_bonus, q, s.Delta_min))


def test_rs_ucb_still_refuses_finite_support():
    inst = FiniteSupportInstance((0.0, 1.0, 2.0), ((0.2, 0.3, 0.5), (0.5, 0.5, 0.0)))
    with pytest.raises(ValueError, match="'algo'"):
        run(SimConfig(T=50), inst, DISTORTIONS["gini"], "rs-ucb-m")


@pytest.mark.parametrize("algo", ["rs-etc-m", "ce-ucb-m"])
def test_engine_run_finite(algo):
    inst = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2)))
    cfg = SimConfig(T=300, trials=5, seed=1, eps=0.1, explore=20, radius_scale=0.01)
    r = run(cfg, inst, DISTORTIONS["gini"], algo)
    assert r.counts.shape == (5, 2) and np.all(r.counts.sum(axis=1) == 300)
    assert np.all(r.regrets >= -1e-9) and math.isfinite(r.mean_regret)
    # alpha* from the oracle is at least as good as every grid point
    assert r.v_star >= inst.value(DISTORTIONS["gini"], Grid(2, 0.1, "etc").points()).max() - 1e-7
    s = r.summary()
    assert s["instance"]["kind"] == "finite" and len(s["regrets"]) == 5


# ---------------------------------------------------------------------------
# rsb simulate --support/--probs
# ---------------------------------------------------------------------------


def test_cli_simulate_finite_support(capsys):
    import json

    from proofs_checks.cli import main

    argv = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--support", "0,0.5,1", "--probs",
            "0.2,0.3,0.5;0.6,0.2,0.2", "--T", "300", "--trials", "3", "--eps", "0.1", "--explore", "10",
            "--radius-scale", "0.01", "--quiet", "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["instance"] == {"kind": "finite", "support": [0.0, 0.5, 1.0],
                               "probs": [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]]}
    assert len(out["regrets"]) == 3 and sum(out["mean_counts"]) == pytest.approx(300)


@pytest.mark.parametrize("extra, flag", [
    (["--support", "0,0.5,1"], "'--support'"),  # the flag given is named, with the one it needs
    (["--probs", "0.5,0.5;0.2,0.8"], "'--probs'"),
    (["--support", "0,1", "--probs", "0.5,0.6;0.2,0.8"], "'--probs'"),
    (["--support", "1,0", "--probs", "0.5,0.5;0.2,0.8"], "'--support'"),
    (["--support", "0,1", "--probs", "0.5,0.5;0.2,0.8", "--p", "0.2,0.3"], "'--p'"),
    (["--support", "0,1", "--probs", "0.5,x;0.2,0.8"], "'--probs'"),
])
def test_cli_simulate_finite_support_errors(capsys, extra, flag):
    from proofs_checks.cli import main

    assert main(["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--T", "50", "--quiet"] + extra) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and flag in err[0]
