"""Regret over time within one run (``rsb_sim.trajectory``) and the interval of the mean regret."""

import json

import numpy as np
import pytest

from proofs_checks.cli.app import main
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_sim.options import ALGORITHMS
from rsb_sim.policies import catalog, get_policy
from rsb_sim.rewards import RewardTable
from rsb_sim.setup import prepare
from rsb_sim.trajectory import check_record, counts_at, mean_ci, run_recorded
from rsb_theory.distortions import get

INST = BernoulliInstance((0.4, 0.9))
CFG = {"rs-etc-m": {"explore": 40}, "rs-ucb-m": {"explore": 40, "radius_scale": 0.01},
       "ce-ucb-m": {"explore": 20, "radius_scale": 0.01}, "uniform": {}, "ucb1": {}, "dr-ucb": {"radius_scale": 0.01},
       "ucb-fw": {"radius_scale": 0.1}, "u-ucb": {"radius_scale": 0.1}, "cvar-ucb": {}, "b-cvts": {}}
#: The distortion of each algorithm's run (CVaR-UCB and B-CVTS are defined for CVaR only); others: the policy's
#: ``example_dr``.
DR = {"cvar-ucb": "cvar_lower", "b-cvts": "cvar_lower"}


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_recording_changes_nothing_and_ends_at_the_mean_regret(algo):
    cfg = SimConfig(T=1200, trials=7, seed=5, **CFG.get(algo, {}))  # a policy not listed: its defaults
    d = get(DR.get(algo, catalog.get(algo).example_dr))
    plain = run(cfg, INST, d, algo)
    rec = run(cfg, INST, d, algo, record=[600, 10, 100])
    assert np.array_equal(plain.regrets, rec.regrets) and np.array_equal(plain.counts, rec.counts)
    traj = rec.summary()["trajectory"]
    assert [p["t"] for p in traj] == [10, 100, 600, 1200]
    assert traj[-1]["mean_regret"] == rec.mean_regret  # exactly: the same counts, the same formula
    assert (traj[-1]["ci_low"], traj[-1]["ci_high"]) == (rec.summary()["ci_low"], rec.summary()["ci_high"])
    for p in traj:
        assert p["ci_low"] <= p["mean_regret"] <= p["ci_high"]


@pytest.mark.parametrize("algo", ["ce-ucb-m", "rs-ucb-m", "dr-ucb", "rs-etc-m"])
def test_chunks_of_trials_change_no_count(algo):
    cfg = SimConfig(T=500, trials=5, seed=2, **CFG[algo])
    setup = prepare(cfg, INST, get("gini"), algo)
    table = RewardTable.from_seed(2, 5, INST)
    steps = (50, 250, 500)
    whole, at_whole = run_recorded(get_policy(algo), setup, get("gini"), INST, table, steps)
    parts, at_parts = run_recorded(get_policy(algo), setup, get("gini"), INST, table, steps, chunk_cells=2 * 500)
    assert np.array_equal(whole.counts, parts.counts) and np.array_equal(at_whole, at_parts)
    assert np.array_equal(at_whole[-1], whole.counts)


def test_regret_at_t_is_read_from_the_first_t_actions():
    acts = np.array([[0, 1, 1, 0, 2], [2, 2, 2, 2, 2]], dtype=np.int8)
    at = counts_at(acts, 3, (2, 5))
    assert at[0].tolist() == [[1, 1, 0], [0, 0, 2]] and at[1].tolist() == [[2, 2, 1], [0, 0, 5]]


def test_record_is_checked():
    assert check_record([5, 1, 5], 10) == (1, 5, 10)
    assert check_record([10], 10) == (10,)
    for bad in ([0], [11], ["x"]):
        with pytest.raises(ValueError, match="argument 'record'"):
            check_record(bad, 10)


def test_mean_ci_is_student_t():
    from scipy import stats

    x = np.array([0.1, 0.3, 0.2, 0.6])
    lo, hi = mean_ci(x)
    ref = stats.t.interval(0.95, 3, loc=x.mean(), scale=stats.sem(x))
    assert (lo, hi) == pytest.approx(ref, rel=1e-12)
    assert mean_ci([0.5]) == (None, None)


SIM = ["simulate", "--algo", "dr-ucb", "--dr", "gini", "--p", "0.4,0.9", "--T", "400", "--trials", "6",
       "--radius-scale", "0.01", "--quiet", "--format", "json"]


def test_simulate_out_writes_json_and_per_trial_csv(tmp_path, capsys):
    from proofs_checks.outputs import read_csv

    out = tmp_path / "run"
    assert main(SIM + ["--record", "T/4,100", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    stored = json.loads((out / "simulate.json").read_text())
    assert stored["regrets"] == printed["regrets"] and stored["trajectory"] == printed["trajectory"]
    assert [p["t"] for p in stored["trajectory"]] == [100, 400]
    rows = read_csv(out / "simulate.csv")
    assert [float(r["regret"]) for r in rows] == printed["regrets"]
    taus = np.array([[int(r["pulls_1"]), int(r["pulls_2"])] for r in rows])
    assert (taus.sum(axis=1) == 400).all() and taus.mean(axis=0).tolist() == printed["mean_counts"]
    assert (out / "trajectory.png").stat().st_size > 1000 and (out / "trajectory.pdf").exists()
    traj = read_csv(out / "trajectory.csv")
    assert [float(r["mean_regret"]) for r in traj] == [p["mean_regret"] for p in printed["trajectory"]]
    assert printed["ci_low"] <= printed["mean_regret"] <= printed["ci_high"]


def test_a_chunked_recorded_run_is_the_one_run(tmp_path, capsys):
    """--out keeps the run in chunks; its trajectory is merged from every trial's regrets, bit for bit."""
    assert main(SIM + ["--record", "T/4,100"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(SIM + ["--record", "T/4,100", "--out", str(tmp_path / "run"), "--chunk", "4"]) == 0
    kept = json.loads(capsys.readouterr().out)
    assert kept["chunks"] == 2
    for key in ("regrets", "mean_regret", "ci_low", "ci_high", "trajectory", "trajectory_regrets"):
        assert kept[key] == whole[key], key


@pytest.mark.parametrize("bad, flag", [(["--record", "500"], "--record"), (["--record", "0"], "--record"),
                                       (["--eps", "0.1"], "--eps"), (["--T", "1"], "--T")])
def test_simulate_out_writes_nothing_on_bad_input(tmp_path, capsys, bad, flag):
    out = tmp_path / "run"
    argv = SIM + ["--out", str(out)]
    i = argv.index(bad[0]) if bad[0] in argv else None
    if i is not None:
        argv = argv[:i] + argv[i + 2:]
    assert main(argv + bad) == 2
    err = capsys.readouterr().err
    assert f"argument '{flag}'" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_chunked_sweep_reports_the_interval_of_all_trials(tmp_path):
    from rsb_sim import store
    from rsb_sim import sweep as sw

    spec = {"algo": "ucb1", "dr": "gini", "params": {}, "p": [0.4, 0.9], "config": {"T": 200, "trials": 7, "seed": 3}}
    (key,) = sw.sweep([spec], tmp_path, chunk=3)
    summary = store.load(tmp_path, key)[0]
    direct = run(SimConfig(T=200, trials=7, seed=3), INST, get("gini"), "ucb1").summary()
    assert (summary["ci_low"], summary["ci_high"]) == (direct["ci_low"], direct["ci_high"])
    assert summary["chunks"] == 3
