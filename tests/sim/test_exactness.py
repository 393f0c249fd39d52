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


def _compare(dr, p, T, eps, rs, ex, algo, seed, trials=3, block=2048, threads=None, compiled=True, enum_budget=None):
    d = get(dr)
    inst = BernoulliInstance(p)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=ex, record_actions=True,
                    block=block, threads=threads, compiled=compiled, enum_budget=enum_budget)
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
def test_ce_ucb_both_routes_identical_actions(case, compiled):
    """CE-UCB-M through the compiled line search and through the NumPy searcher: the reference's actions."""
    res, changes = _compare(*case, algo="ce-ucb-m", seed=3, compiled=compiled)
    applies = compiled and get(case[0]).shape.is_concave and case[0] not in ("pht", "right_tail")
    assert ("lines" in res.stats) == applies
    if applies:
        assert res.stats["lines"] > 0


def test_ucb_decisions_do_change():
    total = {algo: sum(_compare(*c, algo=algo, seed=0)[1] for c in CASES[:3]) for algo in ("rs-ucb-m", "ce-ucb-m")}
    assert total["rs-ucb-m"] > 5 and total["ce-ucb-m"] > 50


@pytest.mark.parametrize("case", CASES[:5], ids=[f"{c[0]}-K{len(c[1])}" for c in CASES[:5]])
@pytest.mark.parametrize("explore", [2, 7, 20])
def test_etc_identical_actions(case, explore):
    """``explore`` pulls per arm, then the commit."""
    dr, p, T, eps = case[:4]
    res, _ = _compare(dr, p, T, eps, 1.0, explore, "rs-etc-m", seed=explore)
    assert res.setup.n0 == explore and res.setup.N_eps is None


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
def test_grid_above_enum_max_branch_and_bound_or_enumeration(algo, budget):
    """A Bernoulli grid above ENUM_MAX (K = 3, eps = 0.004: 31 375 points): searches for a few trials enumerate
    the materialised grid (default ENUM_BUDGET) or run the branch and bound (SimConfig.enum_budget = 0); both
    identical to the reference loop."""
    from rsb_sim import search

    # compiled=False: this test is about the NumPy searcher
    res, changes = _compare("gini", (0.3, 0.55, 0.9), 90, 0.004, 0.0005, 4, algo, seed=3, trials=2, compiled=False,
                            enum_budget=budget)
    assert res.setup.grid.size > search.ENUM_MAX and res.stats["full"] >= 3
    assert (res.stats["bnb"] > 0) == (budget == 0)
    assert changes >= 1


def test_compiled_line_search_on_a_large_grid():
    """CE-UCB-M's compiled line search on a grid of 31 375 points (lines of up to 248 points)."""
    res, changes = _compare("gini", (0.3, 0.55, 0.9), 90, 0.004, 0.0005, 4, "ce-ucb-m", seed=3, trials=2)
    assert res.stats["lines"] > 0 and changes >= 1


def _compiled_vs_reference(p, T, eps, rs, ex, seed, trials, block, threads=1, steps_per_call=None, table=None):
    """CE-UCB-M's compiled loop called directly (its explicit parameters), against the reference loop."""
    from rsb_sim.policies import _ce_compiled

    d, inst = get("gini"), BernoulliInstance(p)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=ex, block=block, threads=threads)
    setup = prepare(cfg, inst, d, "ce-ucb-m")
    table = RewardTable.from_seed(seed, trials, inst) if table is None else table
    kw = {} if steps_per_call is None else {"steps_per_call": steps_per_call}
    calls = []

    class Bar:  # the progress bar is updated after every compiled call when one thread runs
        def __init__(self, total):
            pass

        def update(self, n):
            calls.append(n)

        def close(self):
            pass

    pr = _ce_compiled.run(setup, d, inst, table, record_actions=True, progress=Bar, **kw)
    changes = 0
    for k in range(trials):
        decisions = []
        ref = reference_trial(setup, d, inst, table, k, decisions)
        assert np.array_equal(ref, pr.actions[k]), f"trial {k}: first difference at t={np.argmax(ref != pr.actions[k]) + 1}"
        changes += int(np.count_nonzero(np.diff(decisions)))
    return pr, changes, calls


@pytest.mark.parametrize("block", [1, 7, 2048])
def test_compiled_loop_resumes_after_refills_and_between_calls(block):
    """The compiled CE-UCB-M loop stops when a reward buffer is used up and resumes after the refill,
    and runs a few trials per call: the same actions as the reference loop."""
    pr, changes, calls = _compiled_vs_reference((0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4, seed=5, trials=5,
                                                block=block, steps_per_call=400)  # two trials per call at T = 200
    assert pr.stats["lines"] > 0 and changes >= 1
    if block == 2048:  # no refill after the first: calls for trials 0-1, 2-3 and 4
        assert pr.stats["refills"] == 1 and len(calls) == 3
    else:  # the block size reaches the loop: it stops for every refill
        assert pr.stats["refills"] > 100 and len(calls) >= pr.stats["refills"]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("block", [1, 7, 2048])
def test_compiled_loop_on_several_threads_takes_the_same_actions(threads, block):
    """CE-UCB-M's compiled loop split over 1, 2 or 3 threads (refills from the worker threads when
    block is small, several calls per thread): the reference's actions and the same counters."""
    pr, changes, _ = _compiled_vs_reference((0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4, seed=6, trials=7,
                                            block=block, threads=threads, steps_per_call=400)
    assert pr.stats["lines"] > 0 and changes >= 1
    assert (pr.stats["refills"] > 100) if block < 10 else (pr.stats["refills"] == 1)  # the block size reaches the loop
    one = run(SimConfig(T=200, trials=7, seed=6, eps=0.15, radius_scale=0.0005, explore=4, threads=1, block=block),
              BernoulliInstance((0.2, 0.5, 0.6, 0.95)), get("gini"), "ce-ucb-m")
    assert one.stats == pr.stats and np.array_equal(one.counts, pr.counts)


class _FailingRefills:
    """An instance whose reward draws fail after the first (a refill error in a worker thread)."""

    def __init__(self, inner):
        self.inner, self.draws = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def outcome(self, u, arm):
        self.draws += 1
        if self.draws > 2 * 6 * 4:  # the exploration and the first fill of every (trial, arm) buffer
            raise RuntimeError("refill failed")
        return self.inner.outcome(u, arm)


def test_an_error_in_a_thread_of_the_compiled_loop_stops_the_run():
    """An error raised in one thread (here: while refilling a reward buffer) reaches the caller."""
    inst = BernoulliInstance((0.2, 0.5, 0.6, 0.95))
    table = RewardTable.from_seed(1, 6, _FailingRefills(inst))
    with pytest.raises(RuntimeError, match="refill failed"):
        _compiled_vs_reference(inst.p, 200, 0.15, 0.0005, 4, seed=1, trials=6, block=3, threads=2, table=table)


def test_grids_above_the_compiled_limit_use_the_numpy_searcher():
    """The compiled loop applies up to COMPILED_MAX_GRID grid points (a parameter of the route's test)."""
    from rsb_sim.policies import ce_ucb_m

    d, inst = get("gini"), BernoulliInstance((0.4, 0.9, 0.6))
    setup = prepare(SimConfig(T=120, eps=0.1, explore=5, radius_scale=0.0005), inst, d, "ce-ucb-m")
    assert ce_ucb_m.compiled_applies(setup, d, inst)
    assert not ce_ucb_m.compiled_applies(setup, d, inst, max_grid=setup.grid.size - 1)
    big = prepare(SimConfig(T=120, eps=0.0015, explore=5), inst, d, "ce-ucb-m")
    assert big.grid.size > ce_ucb_m.COMPILED_MAX_GRID and not ce_ucb_m.compiled_applies(big, d, inst)
    off = prepare(SimConfig(T=120, eps=0.1, explore=5, compiled=False), inst, d, "ce-ucb-m")
    assert not ce_ucb_m.compiled_applies(off, d, inst)


@pytest.mark.parametrize("threads", [1, 2])
def test_window_route_in_the_compiled_loop_takes_the_reference_actions(threads):
    """K = 3 and 4 with an informative radius and long runs: most decisions by the window route of
    rsb_theory.argmax.x_window (sorted order kept per trial across calls and refills), the reference's
    actions; and the line search alone (route off on a too large grid) gives the same counts."""
    for p, eps in (((0.2, 0.4, 0.6, 0.9), 0.1), ((0.3, 0.6, 0.9), 0.05)):
        pr, changes, _ = _compiled_vs_reference(p, 700, eps, 0.01, 5, seed=2, trials=3, block=64, threads=threads,
                                                steps_per_call=500)
        assert pr.stats["window"] > pr.stats["lines"] // 2 and changes > 50


def _rs_compiled_vs_reference(p, T, eps, rs, ex, seed, trials, block, threads=1, work_budget=None, dr="gini"):
    """RS-UCB-M's compiled loop called directly (its explicit parameters), against the reference loop."""
    from rsb_sim.policies import _rs_compiled

    d, inst = get(dr), BernoulliInstance(p)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=ex, block=block, threads=threads)
    setup = prepare(cfg, inst, d, "rs-ucb-m")
    assert _rs_compiled.applies(setup, d, inst)
    table = RewardTable.from_seed(seed, trials, inst)
    kw = {} if work_budget is None else {"work_budget": work_budget}
    pr = _rs_compiled.run(setup, d, inst, table, record_actions=True, steps_per_call=2 * T, **kw)
    changes = 0
    for k in range(trials):
        decisions = []
        ref = reference_trial(setup, d, inst, table, k, decisions)
        assert np.array_equal(ref, pr.actions[k]), f"trial {k}: first difference at t={np.argmax(ref != pr.actions[k]) + 1}"
        changes += int(np.count_nonzero(np.diff(decisions)))
    return pr, changes


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("block", [1, 7, 2048])
def test_rs_compiled_loop_resumes_after_refills_on_threads(threads, block):
    """RS-UCB-M's compiled loop (interval certificate, compiled exact search) stops for refills and resumes,
    over 1 or 2 threads: the reference's actions, and the NumPy route's counts."""
    p = (0.2, 0.5, 0.6, 0.95)
    pr, changes = _rs_compiled_vs_reference(p, 300, 0.1, 0.002, 4, seed=4, trials=5, block=block, threads=threads)
    assert pr.stats["compiled"] > 0 and pr.stats["quick"] > 0 and changes >= 1
    assert (pr.stats["refills"] > 100) if block < 10 else (pr.stats["refills"] == 1)
    numpy = run(SimConfig(T=300, trials=5, seed=4, eps=0.1, radius_scale=0.002, explore=4, compiled=False),
                BernoulliInstance(p), get("gini"), "rs-ucb-m")
    assert np.array_equal(numpy.counts, pr.counts)


@pytest.mark.parametrize("dr", ["gini", "cvar", "mean_median"])
def test_rs_compiled_loop_hands_decisions_to_the_branch_and_bound(dr):
    """A work budget of 0 leaves every walk to the branch and bound in Python (then the loop resumes);
    a tiny one some: the reference's actions either way."""
    for budget, K in ((0, 3), (3, 4)):
        p = (0.2, 0.5, 0.6, 0.95)[:K]
        pr, changes = _rs_compiled_vs_reference(p, 300, 0.1, 0.0005, 4, seed=7, trials=3, block=16, work_budget=budget,
                                                dr=dr)
        assert (pr.stats["bnb"] > 0 and changes >= 1) if dr == "gini" else (pr.stats["bnb"] > 0 or budget > 0)
        if budget == 0:  # no walk: the compiled searches only kept a previous choice (work 1 each)
            assert pr.stats["work"] == pr.stats["compiled"]


def test_rs_compiled_loop_with_the_paper_radius_and_informative_radius_at_scale():
    """K = 2 and 4, eps = 0.05, radius x 0.01, T = 2000: the reference's actions."""
    for p in ((0.4, 0.9), (0.2, 0.4, 0.6, 0.9)):
        pr, changes = _rs_compiled_vs_reference(p, 2000, 0.05, 0.01, 20, seed=1, trials=2, block=2048)
        assert changes >= 1


def test_window_route_is_not_tried_with_the_paper_radius():
    """Radius >= 1 all run long (the paper's radius): the window route is not tried (it would decline after
    sorting the grid); the line search alone takes the reference's actions."""
    from rsb_sim.policies._ce_compiled import window_pays

    p = (0.2, 0.4, 0.6, 0.9)
    d, inst = get("gini"), BernoulliInstance(p)
    assert not window_pays(prepare(SimConfig(T=3000, eps=0.1), inst, d, "ce-ucb-m"))
    assert window_pays(prepare(SimConfig(T=3000, eps=0.1, radius_scale=0.01), inst, d, "ce-ucb-m"))
    res, _ = _compare("gini", p, 300, 0.1, 1.0, 4, "ce-ucb-m", seed=1, trials=2)
    assert res.stats["window"] == 0 and res.stats["lines"] > 0


@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_loops_paused_every_few_steps_take_the_reference_actions(threads):
    """A compiled call pauses after a bounded amount of work (signals are served between calls);
    CE-UCB-M and RS-UCB-M paused every 7 steps, mid-trial, take the reference loop's actions."""
    pr, changes, calls = _compiled_vs_reference((0.2, 0.5, 0.6, 0.95), 200, 0.15, 0.0005, 4, seed=5, trials=3,
                                                block=2048, threads=threads, steps_per_call=7)
    assert changes >= 1 and (threads > 1 or len(calls) > 3 * 150 // 7)
    from rsb_sim.policies import _rs_compiled

    d, inst = get("gini"), BernoulliInstance((0.3, 0.6, 0.9))
    cfg = SimConfig(T=300, trials=3, seed=4, eps=0.1, radius_scale=0.0005, explore=5, block=7, threads=threads)
    setup = prepare(cfg, inst, d, "rs-ucb-m")
    table = RewardTable.from_seed(4, 3, inst)
    pr = _rs_compiled.run(setup, d, inst, table, record_actions=True, steps_per_call=7)
    for k in range(3):
        assert np.array_equal(reference_trial(setup, d, inst, table, k, []), pr.actions[k])


def test_radius_beyond_the_table_is_the_formula():
    """RS-UCB-M's loop reads radii from a table of at most RADII_MAX + 1 counts (no array of length T) and
    computes larger counts by the formula: the same actions with a table cut to 40 entries."""
    from rsb_sim import rules
    from rsb_sim.policies import _rs_compiled

    d, inst = get("gini"), BernoulliInstance((0.3, 0.6, 0.9))
    cfg = SimConfig(T=300, trials=2, seed=8, eps=0.1, radius_scale=0.0005, explore=5, block=64)
    setup = prepare(cfg, inst, d, "rs-ucb-m")
    table = RewardTable.from_seed(8, 2, inst)
    full = _rs_compiled.run(setup, d, inst, table, record_actions=True)
    cut = _rs_compiled.run(setup, d, inst, table, record_actions=True, radii_max=40)
    assert np.array_equal(full.actions, cut.actions)
    assert rules.radius_table(1.0, 10**9).size == rules.RADII_MAX + 1
