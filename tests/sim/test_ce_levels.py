"""CE-UCB-M's compiled loop on levels (:mod:`rsb_sim.policies._ce_levels`) and its exact search
(:mod:`rsb_theory.argmax.levels`) against independent routes.

* the search against :func:`rsb_theory.argmax.argmax` by enumeration of the whole grid (the
  rule of ``rsb_theory/argmax/rule.py``), on hypothesis-drawn laws, K = 2..5, both grids, ETC and
  CE objectives, with and without a previous choice, for every distortion of q = 1 it applies to;
* the loop against the plain reference loop (identical actions) and against the NumPy route
  (``compiled=False``) on finite-support, empirical and quantised continuous arms, with the paper's
  radius and with small ones;
* threads change no result.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rsb_sim.arm_laws import law_instance
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import FiniteSupportInstance
from rsb_sim.policies import _ce_levels
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory import argmax as am
from rsb_theory.argmax import levels
from rsb_theory.distortions import get
from rsb_theory.grids import Grid
from rsb_theory.holder import holder
from rsb_theory.laws import empirical_law, parse_arms

#: The distortions of q = 1 with a concave h that numba compiles (the route's domain).
NAMES = [n for n in ("gini", "cvar", "mean", "mean_median", "inter_es", "dual_power", "quadratic", "cvar_lower")
         if levels.available(get(n)) and float(holder(get(n)).q) == 1.0]


def test_the_route_covers_several_distortions():
    assert {"gini", "cvar", "mean", "dual_power"} <= set(NAMES)


@pytest.mark.parametrize("name, coeffs", [("mean", (0.0, 1.0, 0.0)), ("gini", (0.0, 1.0, -1.0)),
                                          ("dual_power", (0.0, 2.0, -1.0)), ("cvar", None), ("pht", None)])
def test_quadratic_h_is_recognised(name, coeffs):
    assert levels.quadratic(get(name)) == coeffs


@pytest.mark.parametrize("name, pieces, breaks", [
    ("cvar", [(1.0, 0.0), (0.0, 2.0)], [0.5]), ("mean_median", [(1.0, -1.0), (0.0, 1.0)], [0.5]),
    ("inter_es", [(2.0, -2.0), (0.0, 2.0)], [0.5]), ("gini", None, None), ("right_tail", None, None)])
def test_piecewise_linear_h_is_recognised(name, pieces, breaks):
    got = levels.piecewise_linear(get(name))
    if pieces is None:
        assert got is None
    else:
        assert got[0].tolist() == [list(p) for p in pieces] and got[1].tolist() == breaks


def test_piecewise_linear_needs_h_to_be_the_minimum_of_its_pieces():
    """A piecewise h that is not the minimum of its linear pieces (convex: the lower CVaR) is refused."""
    assert levels.piecewise_linear(get("cvar_lower")) is None
    assert levels.piecewise_linear(get("cvar", alpha=0.2))[1].tolist() == pytest.approx([0.8])


@pytest.mark.parametrize("name", ["cvar", "mean_median", "inter_es"])
def test_piecewise_linear_sum_equals_the_sum_over_levels(name):
    """U_h of a mixture for a piecewise-linear h by runs of levels equals sum_j w_j h(S_j(a))."""
    rng = np.random.default_rng(1)
    d = get(name)
    fns = levels.compiled()
    qc, pl, bk = levels.form_arrays(levels.forms(d), np.ones(1))
    for K, J in [(2, 1), (3, 7), (5, 40)]:
        w = rng.random(J)
        ST = np.sort(rng.random((J, K)), axis=0)[::-1].copy()
        PS = np.zeros((J + 1, K))
        fns["pl_sums"](ST, w, PS, 0, K)
        ob = (ST, w, np.zeros(K), 0.0, 2, qc, np.zeros(K), np.zeros((K, K)), pl, bk, PS, levels.prefix_widths(w))
        for _ in range(20):
            a = rng.dirichlet(np.ones(K))
            direct = float(np.sum(w * d.numeric(ST @ a)))
            assert fns["_pl_sum"](ob, a, a, False) == pytest.approx(direct, rel=1e-12, abs=1e-14)


def test_quadratic_form_equals_the_sum_over_levels():
    """U_h of a mixture for a quadratic h: c0 W + c1 <m, a> + c2 a'Q a equals sum_j w_j h(S_j(a))."""
    rng = np.random.default_rng(0)
    fns = levels.compiled()
    for K, J in [(2, 1), (3, 7), (5, 40)]:
        w = rng.random(J)
        ST = np.sort(rng.random((J, K)), axis=0)[::-1].copy()
        mq, Qm = np.zeros(K), np.zeros((K, K))
        fns["quad_forms"](ST, w, mq, Qm)
        for _ in range(20):
            a = rng.dirichlet(np.ones(K))
            S = ST @ a
            direct = float(np.sum(w * S * (1 - S)))
            assert float(mq @ a - a @ Qm @ a) == pytest.approx(direct, rel=1e-12, abs=1e-14)


@st.composite
def instances(draw):
    K = draw(st.integers(2, 5))
    J = draw(st.integers(1, 10))
    xs = np.sort(np.array(draw(st.lists(st.integers(0, 60), min_size=J, max_size=J, unique=True)), float)) / 60.0
    if draw(st.booleans()):
        xs = xs + 0.01  # no level at 0
    B = 2
    counts = np.array(draw(st.lists(st.integers(0, 6), min_size=B * K * J, max_size=B * K * J))).reshape(B, K, J)
    counts[..., 0] += 1
    probs = counts / counts.sum(-1, keepdims=True)
    eps = draw(st.sampled_from([0.05, 0.1, 1 / 7, 0.2, 0.25]))
    kind = draw(st.sampled_from(["etc", "ucb"]))
    name = draw(st.sampled_from(NAMES))
    ce = draw(st.booleans())
    radius = np.array(draw(st.lists(st.floats(0.0, 3.0), min_size=B * K, max_size=B * K))).reshape(B, K)
    radius *= draw(st.sampled_from([0.001, 0.1, 1.0]))
    prev = draw(st.booleans())
    pick = draw(st.lists(st.integers(0, 10 ** 6), min_size=B, max_size=B))
    poly = draw(st.booleans())
    return K, xs, probs, eps, kind, name, ce, radius, prev, pick, poly


@settings(max_examples=150, deadline=None)
@given(instances())
def test_search_equals_enumeration(inst):
    K, xs, probs, eps, kind, name, ce, radius, prev, pick, poly = inst
    try:
        grid = Grid(K, eps, kind)
    except ValueError:
        return
    d = get(name)
    surv = np.cumsum(probs[..., ::-1], axis=-1)[..., ::-1]
    L = float(holder(d).L_H)
    if ce:
        obj = am.ce_ucb_objective_finite(d, xs, probs, radius, 1.0, L)
    else:
        obj = am.etc_objective_finite(d, xs, probs)
    previous = None
    if prev:
        pts = grid.counts()
        previous = pts[np.array(pick) % len(pts)]
    ref = am.argmax(obj, grid, previous=previous, method="enumerate")
    got, vals, _ = levels.decide(d, grid, xs, surv, radius if ce else None, L if ce else 0.0, previous,
                                 polynomial=poly)
    assert np.array_equal(ref.counts, got)
    # M is the largest value, and Q bounds every other grid point's value
    every = am.values(obj, grid, grid.counts())
    for b in range(got.shape[0]):
        others = np.ones(grid.size, bool)
        others[np.flatnonzero(np.all(grid.counts() == got[b], axis=1))] = False
        assert vals[b, 0] == pytest.approx(every[b].max(), abs=1e-12)
        if others.any():
            assert every[b][others].max() <= vals[b, 1] + 1e-12


def test_search_refuses_what_it_cannot_do():
    grid = Grid(2, 0.1, "ucb")
    with pytest.raises(ValueError, match="argument 'd'"):
        levels.decide(get("pht", s=0.5), grid, [0.5], np.ones((1, 2, 1)))
    with pytest.raises(ValueError, match="argument 'support'"):
        levels.steps_of([0.5, 0.2])


def _empirical(K, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(empirical_law(np.round(rng.beta(1 + i, 3, size=40), 2), f"col{i + 1}") for i in range(K))


def _finite(K, seed=0):
    rng = np.random.default_rng(seed)
    support = (0.0, 0.25, 0.5, 0.75, 1.0)
    return FiniteSupportInstance(support, tuple(tuple(p) for p in rng.dirichlet(np.ones(5), size=K)))


def _compare(inst, dr, T, rs, trials=3, seed=0, eps=0.1, explore=4, threads=1):
    d = get(dr)
    cfg = SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=explore, record_actions=True,
                    threads=threads)
    setup = prepare(cfg, inst, d, "ce-ucb-m")
    assert _ce_levels.applies(setup, d, inst)
    res = run(cfg, inst, d, "ce-ucb-m")
    assert res.stats.get("levels_loop") is True
    ref = np.stack([reference_trial(setup, d, inst, RewardTable.from_seed(seed, trials, inst), k)
                    for k in range(trials)])
    first = np.argmax(ref != res.actions, axis=1)
    assert np.array_equal(ref, res.actions), f"first differences at t = {first + 1}"
    numpy_route = run(SimConfig(T=T, trials=trials, seed=seed, eps=eps, radius_scale=rs, explore=explore,
                                record_actions=True, compiled=False), inst, d, "ce-ucb-m")
    assert "levels_loop" not in numpy_route.stats
    assert np.array_equal(numpy_route.actions, res.actions)
    return res


@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize("dr", ["gini", "cvar"])
@pytest.mark.parametrize("rs", [1.0, 0.002])
def test_loop_matches_reference_on_empirical_and_finite_arms(K, dr, rs):
    _compare(law_instance(_empirical(K, seed=K), "ce-ucb-m", 300), dr, 300, rs, seed=K)
    _compare(_finite(K, seed=K), dr, 300, rs, seed=K + 10)


@pytest.mark.parametrize("spec", ["beta(2,5); uniform(0.3,0.2)",
                                  "beta(2,5); uniform(0.3,0.2); truncnorm(-2,2,0.5,0.1); triang(0.5,0,1)"])
def test_loop_matches_reference_on_quantised_continuous_arms(spec):
    inst = law_instance(parse_arms(spec), "ce-ucb-m", 400, 16)
    _compare(inst, "gini", 400, 1.0)


def test_every_step_is_decided_and_small_radii_settle():
    """One search per decision (exploration's end to T - 1); with a small radius the choice settles
    (few changes), with the paper's it moves at most steps; the actions are the reference loop's."""
    inst = law_instance(_empirical(3, seed=5), "ce-ucb-m", 1500)
    small = _compare(inst, "gini", 1500, 0.0005, trials=2, seed=5, eps=0.2)
    assert small.stats["searches"] == 2 * (1500 - 3 * 4)
    assert 0 < small.stats["changes"] < small.stats["searches"] // 4


def test_threads_change_no_result():
    inst = law_instance(_empirical(3, seed=2), "ce-ucb-m", 400)
    d = get("gini")
    runs = [run(SimConfig(T=400, trials=5, seed=3, eps=0.1, radius_scale=0.01, explore=4, threads=t), inst, d,
                "ce-ucb-m") for t in (1, 2)]
    assert np.array_equal(runs[0].counts, runs[1].counts)
    assert np.array_equal(runs[0].regrets, runs[1].regrets)


@pytest.mark.parametrize("dr", ["gini", "cvar", "mean_median"])
@pytest.mark.parametrize("arms", ["continuous", "empirical", "finite"])
def test_rs_etc_m_commit_by_the_compiled_search(dr, arms):
    """RS-ETC-M's a_E on levels by rsb_theory.argmax.levels equals the branch and bound's and the
    reference loop's (continuous arms: each trial on its own exploration's levels)."""
    from rsb_sim.policies import rs_etc_m

    d = get(dr)
    if arms == "continuous":
        inst = law_instance(parse_arms("beta(2,5); uniform(0.3,0.2); triang(0.5,0,1)"), "rs-etc-m", 600)
    elif arms == "empirical":
        inst = law_instance(_empirical(3, seed=4), "rs-etc-m", 600)
    else:
        inst = _finite(4, seed=4)
    runs = []
    for compiled in (True, False):
        cfg = SimConfig(T=600, trials=4, seed=8, eps=0.1, explore=30, record_actions=True, compiled=compiled)
        setup = prepare(cfg, inst, d, "rs-etc-m")
        probe = inst.for_trial(RewardTable.from_seed(8, 4, inst), 0, 30)[2] if arms == "continuous" else inst
        assert rs_etc_m.compiled_applies(setup, d, probe) == compiled
        runs.append(run(cfg, inst, d, "rs-etc-m"))
    assert np.array_equal(runs[0].actions, runs[1].actions)
    ref = np.stack([reference_trial(setup, d, inst, RewardTable.from_seed(8, 4, inst), k) for k in range(4)])
    assert np.array_equal(ref, runs[0].actions)


@pytest.mark.parametrize("threads", [1, 2])
def test_loop_paused_every_few_steps_takes_the_same_actions(threads):
    """A compiled call pauses after a bounded amount of work (levels updated and searches count);
    paused every 3 steps, mid-trial, the loop takes the reference loop's actions."""
    inst = law_instance(_empirical(3, seed=2), "ce-ucb-m", 300)
    d = get("gini")
    cfg = SimConfig(T=300, trials=3, seed=3, eps=0.1, radius_scale=0.01, explore=4, threads=threads,
                    record_actions=True)
    setup = prepare(cfg, inst, d, "ce-ucb-m")
    table = RewardTable.from_seed(3, 3, inst)
    pr = _ce_levels.run(setup, d, inst, table, record_actions=True, steps_per_call=3)
    ref = np.stack([reference_trial(setup, d, inst, table, k) for k in range(3)])
    assert np.array_equal(ref, pr.actions)
