"""The vectorised engine and the plain reference loop take identical actions on the same reward table."""

import numpy as np
import pytest
from hypothesis import given, settings, HealthCheck, strategies as st

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get

# (distortion, means, T, eps, radius_scale, explore): eps/explore/radius chosen so that the tracking
# phase is long and the mixture decisions change (asserted below)
CASES = [
    ("gini", (0.4, 0.9), 300, 0.1, 0.0005, 5),
    ("gini", (0.4, 0.9, 0.6), 300, 0.1, 0.0005, 5),
    ("gini", (0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4),
    ("pht", (0.2, 0.5), 200, 0.1, 0.0005, 5),
    ("right_tail", (0.1, 0.6, 0.3), 240, 0.12, 0.0008, 4),
    ("cvar", (0.3, 0.5), 150, 0.1, 0.001, 4),
    ("inter_es", (0.35, 0.6, 0.5), 160, 0.1, 0.0005, 3),
    ("mean_median", (0.45, 0.55), 120, 0.2, 0.0002, 3),
]


def _compare(dr, p, T, eps, rs, ex, algo, seed, trials=3, block=2048, threads=None):
    d = get(dr)
    inst = BernoulliInstance(p)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=ex, record_actions=True,
                    block=block, threads=threads)
    res = run(cfg, inst, d, algo)
    setup = prepare(cfg, inst, d, algo)
    table = RewardTable.from_seed(seed, trials, inst)
    changes = 0
    for k in range(trials):
        decisions = []
        ref = reference_trial(setup, d, inst, table, k, decisions)
        assert np.array_equal(ref, res.actions[k]), f"trial {k}: first difference at t={np.argmax(ref != res.actions[k]) + 1}"
        assert np.array_equal(np.bincount(ref, minlength=len(p)), res.counts[k])
        changes += int(np.count_nonzero(np.diff(decisions)))
    return res, changes


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-K{len(c[1])}" for c in CASES])
@pytest.mark.parametrize("algo", ["rs-ucb-m", "ce-ucb-m"])
@pytest.mark.parametrize("seed", [0, 1])
def test_ucb_identical_actions(case, algo, seed):
    res, changes = _compare(*case, algo=algo, seed=seed)
    assert res.stats["full"] + res.stats.get("lines", 0) >= 3


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-K{len(c[1])}")
@pytest.mark.parametrize("compiled", [True, False])
def test_ce_ucb_both_routes_identical_actions(monkeypatch, case, compiled):
    """CE-UCB-M through the compiled line search and through the NumPy searcher: the reference's actions."""
    from rsb_sim.policies import ce_ucb_m

    monkeypatch.setattr(ce_ucb_m, "USE_COMPILED", compiled)
    res, changes = _compare(*case, algo="ce-ucb-m", seed=3)
    applies = compiled and get(case[0]).shape.is_concave and case[0] not in ("pht", "right_tail")
    assert ("lines" in res.stats) == applies
    if applies:
        assert res.stats["lines"] > 0


def test_ucb_decisions_do_change():
    total = {algo: sum(_compare(*c, algo=algo, seed=0)[1] for c in CASES[:3]) for algo in ("rs-ucb-m", "ce-ucb-m")}
    assert total["rs-ucb-m"] > 5 and total["ce-ucb-m"] > 50


@pytest.mark.parametrize("case", CASES[:5], ids=[f"{c[0]}-K{len(c[1])}" for c in CASES[:5]])
@pytest.mark.parametrize("explore", [6, 20, 60])
def test_etc_identical_actions(case, explore):
    dr, p, T, eps = case[:4]
    _compare(dr, p, T, eps, 1.0, explore, "rs-etc-m", seed=explore)


@pytest.mark.parametrize("K", [2, 3, 5])
def test_uniform_identical_actions(K):
    _compare("gini", tuple(np.linspace(0.1, 0.9, K)), 61, 0.1, 1.0, 1, "uniform", seed=2)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.lists(st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0.0, 1.0), min_size=2, max_size=4),
       algo=st.sampled_from(["rs-ucb-m", "ce-ucb-m", "rs-etc-m"]), seed=st.integers(0, 2**31),
       rs=st.sampled_from([0.0, 0.0003, 0.001, 0.01]))
def test_identical_actions_random_instances(p, algo, seed, rs):
    """Random instances including p in {0, 1/2, 1} and ties between arms."""
    _compare("gini", tuple(p), 90, 0.2, rs, 4, algo, seed=seed, trials=2)


def test_ties_between_identical_arms():
    # identical arms: many grid points tie; the tie rule decides everything
    for algo in ("rs-ucb-m", "ce-ucb-m", "rs-etc-m"):
        _compare("gini", (0.5, 0.5, 0.5), 120, 0.2, 0.001, 4, algo, seed=5)


@pytest.mark.parametrize("algo", ["rs-ucb-m", "ce-ucb-m"])
@pytest.mark.parametrize("budget", [0, None])
def test_grid_above_enum_max_branch_and_bound_or_enumeration(monkeypatch, algo, budget):
    """A Bernoulli grid above ENUM_MAX (K = 3, eps = 0.004: 31 375 points): searches for a few trials enumerate
    the materialised grid (default ENUM_BUDGET) or run the branch and bound (budget 0); both identical to the
    reference loop."""
    from rsb_sim import search
    from rsb_sim.policies import ce_ucb_m

    monkeypatch.setattr(ce_ucb_m, "USE_COMPILED", False)  # this test is about the NumPy searcher
    if budget is not None:
        monkeypatch.setattr(search, "ENUM_BUDGET", budget)
    res, changes = _compare("gini", (0.3, 0.55, 0.9), 90, 0.004, 0.0005, 4, algo, seed=3, trials=2)
    assert res.setup.grid.size > search.ENUM_MAX and res.stats["full"] >= 3
    assert changes >= 1


def test_compiled_line_search_on_a_large_grid():
    """CE-UCB-M's compiled line search on a grid of 31 375 points (lines of up to 248 points)."""
    res, changes = _compare("gini", (0.3, 0.55, 0.9), 90, 0.004, 0.0005, 4, "ce-ucb-m", seed=3, trials=2)
    assert res.stats["lines"] > 0 and changes >= 1


@pytest.mark.parametrize("block", [1, 7])
def test_compiled_loop_resumes_after_refills_and_between_calls(monkeypatch, block):
    """The compiled CE-UCB-M loop stops when a reward buffer is used up and resumes after the refill,
    and runs a few trials per call: the same actions as the reference loop."""
    from rsb_sim.policies import _ce_compiled

    monkeypatch.setattr(_ce_compiled, "STEPS_PER_CALL", 400)  # two trials per call at T = 200
    res, changes = _compare("gini", (0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4, "ce-ucb-m", seed=5, trials=5,
                            block=block)
    assert res.stats["lines"] > 0 and changes >= 1


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("block", [1, 7, 2048])
def test_compiled_loop_on_several_threads_takes_the_same_actions(monkeypatch, threads, block):
    """CE-UCB-M's compiled loop split over 1, 2 or 3 threads (refills from the worker threads when
    block is small, several calls per thread): the reference's actions and the same counters."""
    from rsb_sim.policies import _ce_compiled

    monkeypatch.setattr(_ce_compiled, "STEPS_PER_CALL", 400)
    refills = []
    real = _ce_compiled.VectorRewards.refill
    monkeypatch.setattr(_ce_compiled.VectorRewards, "refill", lambda self, flat: (refills.append(1), real(self, flat)))
    res, changes = _compare("gini", (0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4, "ce-ucb-m", seed=6, trials=7,
                            block=block, threads=threads)
    assert res.stats["lines"] > 0 and changes >= 1
    assert (len(refills) > 100) if block < 10 else (len(refills) == 1)  # the block size reaches the loop
    one = run(SimConfig(T=200, trials=7, seed=6, eps=0.15, radius_scale=0.0005, explore=4, threads=1),
              BernoulliInstance((0.2, 0.5, 0.6, 0.95)), get("gini"), "ce-ucb-m")
    assert one.stats == res.stats and np.array_equal(one.regrets, res.regrets)


def test_an_error_in_a_thread_of_the_compiled_loop_stops_the_run(monkeypatch):
    """An error raised in one thread (here: while refilling a reward buffer) reaches the caller."""
    from rsb_sim.policies import _ce_compiled

    calls = []
    real = _ce_compiled.VectorRewards.refill

    def failing(self, flat):
        calls.append(flat)
        if len(calls) > 1:  # the first call fills every buffer before the threads start
            raise RuntimeError("refill failed")
        return real(self, flat)

    monkeypatch.setattr(_ce_compiled.VectorRewards, "refill", failing)
    with pytest.raises(RuntimeError, match="refill failed"):
        run(SimConfig(T=200, trials=6, seed=1, eps=0.15, radius_scale=0.0005, explore=4, threads=2, block=3),
            BernoulliInstance((0.2, 0.5, 0.6, 0.95)), get("gini"), "ce-ucb-m")


def test_grids_above_the_compiled_limit_use_the_numpy_searcher(monkeypatch):
    from rsb_sim.policies import ce_ucb_m

    monkeypatch.setattr(ce_ucb_m, "COMPILED_MAX_GRID", 10)
    res, changes = _compare("gini", (0.4, 0.9, 0.6), 120, 0.1, 0.0005, 5, "ce-ucb-m", seed=2, trials=2)
    assert "lines" not in res.stats and res.stats["full"] >= 1
