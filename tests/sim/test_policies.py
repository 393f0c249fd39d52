"""A policy is one object: what every policy declares, and a user's own policy beside the built-ins.

Adding a policy is adding its module ``rsb_sim/policies/<name>.py`` (one ``POLICY``) and its test: the catalog
finds it, and the option checks, the command line, ``rsb bench``, the memory estimate, the engine's summary and
the bound labels read its declaration.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.policies import catalog
from rsb_sim.policies.base import FAMILIES, GRIDS, OPTIONS, STATES, Policy
from rsb_sim.policies.user import IndexRule, TargetRule
from rsb_sim.reference import reference_trial
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_theory.distortions import get
from rsb_theory.workload import TRIAL_BYTES, simulate_memory

POLICIES = catalog.policies()


@pytest.mark.parametrize("policy", POLICIES, ids=[p.name for p in POLICIES])
def test_every_policy_declares_what_the_catalog_reads(policy):
    assert isinstance(policy, Policy) and policy.name and policy.title and policy.summary
    assert policy.family in FAMILIES[:-1] and policy.state in STATES and policy.grid in GRIDS
    assert set(policy.reads) <= set(OPTIONS)
    assert ("eps" in policy.reads) == (policy.grid is not None)  # eps is the grid's level
    assert policy.theorem is None or policy.family == "paper"
    assert policy.distortions is None or (policy.distortions_words and policy.example_dr in policy.distortions)
    assert policy.refusal(policy.example_dr) is None
    for name, meaning in policy.constants:
        assert name and meaning  # each constant says what it is
    assert policy.state in TRIAL_BYTES
    with pytest.raises(AttributeError):
        policy.name = "x"  # frozen
    assert type(policy).__module__ == f"rsb_sim.policies.{policy.name.replace('-', '_')}"


def test_the_catalog_is_light_and_complete():
    code = ("import sys\nfrom rsb_sim.policies import catalog\nfrom rsb_sim import options\n"
            "print(len(catalog.policies()), 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout.split()
    assert out == [str(len(POLICIES)), "False"]
    assert len(POLICIES) >= 10


@pytest.mark.parametrize("policy", POLICIES, ids=[p.name for p in POLICIES])
def test_a_policy_runs_and_its_reference_takes_the_same_actions(policy):
    d = get(policy.example_dr)
    inst = BernoulliInstance((0.3, 0.8))
    cfg = SimConfig(T=120, trials=3, seed=5, record_actions=True, compiled=False)
    res = run(cfg, inst, d, policy.name)
    setup = prepare(cfg, inst, d, policy.name)
    assert setup.policy is policy
    table = RewardTable.from_seed(5, 3, inst)
    for k in range(3):
        assert np.array_equal(reference_trial(setup, d, inst, table, k), res.actions[k])


def test_a_radius_constant_has_one_meaning():
    """radius_c is the paper's W1 radius or NaN: the summary reports it for the policies that declare it."""
    inst, d = BernoulliInstance((0.3, 0.8)), get("gini")
    for policy in POLICIES:
        s = run(SimConfig(T=50, trials=1), inst, get(policy.example_dr), policy.name).summary()
        assert (s["radius_constant"] is not None) == policy.uses("radius_c"), policy.name
    assert prepare(SimConfig(T=50, trials=1), inst, d, "ucb-fw").constants == {"bonus_scale": 1.0, "L_grad": 1.0}


def test_the_memory_estimate_classes_every_ucb_loop_alike():
    """ucb-fw, u-ucb and cvar-ucb keep the state of a UCB loop: classed as such (the state of a UCB loop per trial, arm and level), not as RS-ETC-M's."""
    for name in ("ucb-fw", "u-ucb", "cvar-ucb", "dr-ucb", "ce-ucb-m"):
        assert catalog.get(name).state == "ucb"
    big = simulate_memory("u-ucb", 4, 10**4, 10**5, None, state=catalog.get("u-ucb").state, grid=None)
    small = simulate_memory("u-ucb", 4, 10**4, 10**5, None, state="other", grid=None)
    assert big.bytes - small.bytes == 10**5 * 4 * 2 * (TRIAL_BYTES["ucb"] - TRIAL_BYTES["other"])


class MeanUCB(IndexRule):
    """A user's index: the empirical mean plus sqrt(2 log t / tau) (UCB1 on Bernoulli arms)."""

    name = "mean-ucb"

    def index(self, stats, t):
        return stats.means + np.sqrt(2.0 * np.log(t - 1) / stats.counts)


class Balanced(TargetRule):
    """A user's target: the uniform mixture, tracked."""

    name = "balanced"

    def target(self, stats, t):
        return np.full(stats.counts.shape, 1.0 / stats.counts.shape[1])


def test_a_users_index_policy_is_ucb1_when_it_writes_ucb1():
    """Same reward table, same statistics: a notebook's UCB1 takes UCB1's actions."""
    inst, d = BernoulliInstance((0.3, 0.5, 0.8)), get("gini")
    cfg = SimConfig(T=300, trials=6, seed=2, record_actions=True)
    mine, built_in = run(cfg, inst, d, MeanUCB()), run(cfg, inst, d, "ucb1")
    assert mine.algo == "mean-ucb" and np.array_equal(mine.actions, built_in.actions)


@pytest.mark.parametrize("policy", [MeanUCB(), Balanced()], ids=["index", "target"])
def test_a_users_policy_matches_its_reference_loop(policy):
    inst = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.5, 0.2, 0.3), (0.1, 0.3, 0.6)))
    d = get("gini")
    cfg = SimConfig(T=150, trials=3, seed=9, record_actions=True)
    res = run(cfg, inst, d, policy)
    setup = prepare(cfg, inst, d, policy)
    table = RewardTable.from_seed(9, 3, inst)
    for k in range(3):
        assert np.array_equal(reference_trial(setup, d, inst, table, k), res.actions[k])


def test_a_users_policy_runs_in_compare_beside_the_built_ins():
    from proofs_checks import api

    c = api.compare("gini", ["uniform", Balanced(), MeanUCB(), "ucb1"], p=[0.4, 0.9], T=200, trials=8, seed=3)
    assert [name for name, _T in c.results] == ["uniform", "balanced", "mean-ucb", "ucb1"]  # keyed by (algo, T)
    assert np.array_equal(c["balanced"].counts, c["uniform"].counts)  # the uniform target, tracked
    assert np.array_equal(c["mean-ucb"].regrets, c["ucb1"].regrets)  # same rewards, same statistics


def test_a_policy_without_a_name_is_refused_naming_algo():
    class Nameless(IndexRule):
        def index(self, stats, t):
            return stats.means

    with pytest.raises(ValueError, match="argument 'algo'"):
        run(SimConfig(T=20, trials=1), BernoulliInstance((0.3, 0.8)), get("gini"), Nameless())


NEW_POLICY = '''"""Greedy on the empirical U_h: a policy added as one file (the test of the catalog)."""

from __future__ import annotations

from ._index import IndexPolicy


class Greedy(IndexPolicy):
    name = "greedy"
    title = "Greedy"
    family = "baseline"
    rank = 9
    summary = "the largest empirical U_h, no bonus"
    reads = frozenset({"explore"})

    def vector_index(self, setup, d, instance):
        import numpy as np

        support = np.asarray(instance.support, dtype=float)
        widths = np.diff(support)

        def index(counts_m, tau, t):
            above = np.cumsum(counts_m[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]
            return support[0] + np.asarray(d.numeric(above / tau[:, :, None]), dtype=float) @ widths

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        import numpy as np

        from rsb_theory.riskmetric import finite_support

        x = [float(v) for v in instance.support]
        return [float(finite_support(d.numeric, x, np.array([c / sum(h) for c in h]))) for h in hists]


POLICY = Greedy()
'''


def test_adding_a_policy_is_adding_its_file(tmp_path):
    """A copy of the packages with one new module in rsb_sim/policies/: the option checks, the command line's
    choices and help, the engine (with its summary) and the reference loop all take it, nothing else edited."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for pkg in ("rsb_theory", "rsb_sim", "proofs_checks"):
        shutil.copytree(root / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (tmp_path / "rsb_sim" / "policies" / "greedy.py").write_text(NEW_POLICY)
    code = ("import contextlib, io, sys\n"
            "from rsb_sim import options\n"
            "from proofs_checks.cli import main\n"
            "print('greedy' in options.ALGORITHMS, 'greedy' in options.BASELINES, sorted(options.READS['greedy']))\n"
            "buf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n"
            "    rc = main(['simulate', '--algo', 'greedy', '--dr', 'gini', '--p', '0.4,0.9', '--T', '200', '--trials',"
            " '3', '--format', 'json', '--quiet'])\n"
            "import json\n"
            "print(rc, json.loads(buf.getvalue())['algo'])\n"
            "import numpy as np\n"
            "from rsb_sim.config import SimConfig\nfrom rsb_sim.engine import run\nfrom rsb_sim.setup import prepare\n"
            "from rsb_sim.instances import BernoulliInstance\nfrom rsb_sim.rewards import RewardTable\n"
            "from rsb_sim.reference import reference_trial\nfrom rsb_theory.distortions import get\n"
            "cfg, inst, d = SimConfig(T=150, trials=2, seed=4, record_actions=True), BernoulliInstance((0.3, 0.7)), "
            "get('gini')\n"
            "res, s = run(cfg, inst, d, 'greedy'), prepare(cfg, inst, d, 'greedy')\n"
            "tab = RewardTable.from_seed(4, 2, inst)\n"
            "print(all(np.array_equal(reference_trial(s, d, inst, tab, k), res.actions[k]) for k in range(2)))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert proc.stdout.split("\n")[:3] == ["True True ['explore']", "0 greedy", "True"], proc.stdout + proc.stderr
