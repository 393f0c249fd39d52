"""Tests of ``rsb reproduce`` and ``rsb plot bounds`` (small trials and horizons)."""

from __future__ import annotations

import json
import math
import os
import signal
import stat
import threading
import time
from dataclasses import replace

import numpy as np
import pytest

from proofs_checks import experiments as ex
from proofs_checks.bounds import instance_constants, theorem_bound
from proofs_checks.cli import main
from proofs_checks.bound_plot import BOUND_COLUMNS, plot_bounds_command
from proofs_checks.outputs import read_csv
from proofs_checks.reproduce import COLUMNS, reproduce, reproduce_one


def _small(exp: ex.Experiment) -> ex.Experiment:
    """The experiment with short horizons (structure kept: same algos, variants, series)."""
    pts = []
    for pt in exp.points:
        T = 400 if exp.x_name != "T" else int(pt.x) // 20
        pts.append(replace(pt, T=T, x=T if exp.x_name == "T" else pt.x))
    return replace(exp, points=tuple(pts[:4] if exp.x_name != "gap" else pts))


# ---------------------------------------------------------------------------
# experiment definitions
# ---------------------------------------------------------------------------
def test_five_experiments_with_labels():
    exps = ex.all_experiments()
    assert [e.name for e in exps] == list(ex.NAMES)
    assert [e.figure for e in exps] == ["fig:T_experiment", "fig:K_experiment", "fig:regret_uniform",
                                        "fig:ucb_eta", "fig:ucb_zeta"]
    for e in exps:
        assert {v.name for v in e.variants} == {"paper", "rsb"}
        assert e.trials == 1000 and e.dr == "gini"


def test_regret_vs_K_instances_not_symmetric():
    e = ex.get_experiment("regret-vs-K")
    assert [len(pt.p) for pt in e.points] == [2, 3, 4, 5, 6]
    for pt in e.points:
        gaps = np.diff(pt.p)
        assert np.allclose(gaps, gaps[0])  # uniform gaps
        assert not math.isclose(float(np.mean(pt.p)), 0.5)  # not symmetric around 1/2
        assert pt.T == 300_000


def test_variant_configs():
    e = ex.get_experiment("regret-vs-T")
    runs = {(r.variant, r.algo, r.point.T): r.spec["config"] for r in e.runs(trials=5, seed=3)}
    assert runs[("paper", "rs-ucb-m", 100_000)] == {"T": 100_000, "trials": 5, "seed": 3, "eps": None, "rho": 0.1,
                                                     "radius_scale": 1.0, "explore": 10_000}
    assert runs[("paper", "rs-etc-m", 100_000)]["explore"] is None  # N(eps) of the paper
    assert runs[("rsb", "rs-ucb-m", 100_000)]["radius_scale"] == ex.RSB_RADIUS_SCALE
    assert runs[("rsb", "rs-etc-m", 100_000)]["explore"] == 10_000  # pulls per arm, the same budget as RS-UCB-M
    rho = ex.get_experiment("vs-rho")
    assert sorted({r.spec["config"]["rho"] for r in rho.runs(2)}) == [0.1, 0.3, 0.5, 0.7, 0.9]
    assert all(r.spec["config"]["explore"] is None for r in rho.runs(2))


def test_uniform_gap_instance_edges():
    assert ex.uniform_gap_instance(2) == (0.3, 0.9)
    assert len(ex.uniform_gap_instance(6)) == 6
    with pytest.raises(ValueError, match="argument 'K'"):
        ex.uniform_gap_instance(1)


# ---------------------------------------------------------------------------
# reproduce: every experiment, small
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ex.NAMES)
def test_reproduce_each_small(tmp_path, name):
    exp = _small(ex.get_experiment(name))
    res = reproduce_one(exp, tmp_path, trials=3, seed=1)
    for k in ("csv", "json", "png", "pdf", "txt"):
        assert os.path.getsize(res[k]) > 100, k
    rows = read_csv(res["csv"])
    assert tuple(rows[0].keys()) == COLUMNS
    assert len(rows) == len(exp.runs(3, 1))
    for r in rows:
        assert int(r["trials"]) == 3
        q05, q50, q95, m = (float(r[k]) for k in ("q05", "q50", "q95", "mean_regret"))
        assert -1e-12 <= q05 <= q50 <= q95 and q05 - 1e-12 <= m <= q95 + 1e-12
        assert m <= 0.25 + 1e-12  # Gini regret is at most max h = 1/4
    assert {r["variant"] for r in rows} == {"paper", "rsb"}
    header = json.loads(open(res["json"]).read())
    assert header["seed"] == 1 and header["experiment"]["figure"] == exp.figure
    with open(res["csv"]) as fh:
        assert fh.readline().startswith("# ")
    cap = open(res["txt"]).read()
    assert exp.figure in cap and "rsb" in cap and "paper" in cap


def test_paper_variant_is_degenerate_and_flagged(tmp_path):
    exp = _small(ex.get_experiment("regret-vs-T"))
    rows = read_csv(reproduce_one(exp, tmp_path, trials=3)["csv"])
    paper_ucb = [r for r in rows if r["variant"] == "paper" and r["algo"] == "rs-ucb-m"]
    assert paper_ucb and all(r["degenerate"] == "True" for r in paper_ucb)
    # radius >= 1 everywhere: the first mixture is kept, identical in every trial
    assert all(float(r["std_regret"]) < 1e-12 for r in paper_ucb)
    rsb_ucb = [r for r in rows if r["variant"] == "rsb" and r["algo"] == "rs-ucb-m"]
    assert all(r["degenerate"] == "False" for r in rsb_ucb)
    # at the largest (small) horizon the rsb radius is < 1 and RS-UCB-M uses its data
    last = lambda rs: float(max(rs, key=lambda r: int(r["T"]))["mean_regret"])  # noqa: E731
    assert last(rsb_ucb) < 0.5 * last(paper_ucb)


def test_reproduce_resumes(tmp_path):
    exp = _small(ex.get_experiment("vs-rho"))
    reproduce_one(exp, tmp_path, trials=2)
    stored = sorted(p.name for p in (tmp_path / "runs").iterdir())
    mtimes = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "runs").iterdir()}
    rows1 = read_csv(tmp_path / "vs-rho.csv")
    reproduce_one(exp, tmp_path, trials=2)
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == stored
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "runs").iterdir()} == mtimes  # nothing rerun
    assert read_csv(tmp_path / "vs-rho.csv") == rows1


# ---------------------------------------------------------------------------
# bad input: ValueError naming the argument, nothing written
# ---------------------------------------------------------------------------
def test_bad_input(tmp_path):
    out = tmp_path / "o"
    with pytest.raises(ValueError, match="argument 'experiment'"):
        reproduce("regret-vs-X", out, trials=2)
    with pytest.raises(ValueError, match="argument 'trials'"):
        reproduce("vs-rho", out, trials=0)
    assert not out.exists()
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ValueError, match="argument 'out'"):
        reproduce("vs-rho", f, trials=2)
    with pytest.raises(ValueError, match="argument 'out'"):
        reproduce("vs-rho", f / "sub", trials=2)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_unwritable_out(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(ValueError, match="argument 'out'"):
            reproduce("vs-rho", ro / "x", trials=2)
    finally:
        ro.chmod(stat.S_IRWXU)


def test_cli_errors_exit_2(tmp_path, capsys):
    assert main(["reproduce", "nope", "--out", str(tmp_path / "a")]) == 2
    assert "argument 'experiment'" in capsys.readouterr().err
    assert main(["reproduce", "vs-rho", "--out", str(tmp_path / "a"), "--trials", "0"]) == 2
    assert "argument '--trials'" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
    assert main(["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "nope", "--out",
                 str(tmp_path / "b"), "--Ts", "100,200", "--trials", "2"]) == 2
    assert "argument '--algo'" in capsys.readouterr().err
    assert main(["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--out",
                 str(tmp_path / "b"), "--Ts", "100", "--trials", "2"]) == 2
    assert "argument '--Ts'" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


# ---------------------------------------------------------------------------
# bounds and plot bounds
# ---------------------------------------------------------------------------
def test_bound_matches_hand_evaluation_gini():
    """theorem:UCB upper bound at the experiments' instance, against the printed formula evaluated by hand."""
    c = instance_constants("gini", None, (0.4, 0.9))
    assert (c.q, c.L, c.B) == (1.0, 1.0, 0.25)
    assert math.isclose(c.trivial, 0.25 - 0.09)  # V* - h(0.9)
    T = 100_000
    b = theorem_bound("rs-ucb-m", "gini", None, (0.4, 0.9), T, rho=0.1)
    eps = math.sqrt(2 * math.log(T) / T)
    hand = (c.B + c.L * (c.W + 1)) * 64 / math.sqrt(eps * 0.1 * T) * (math.sqrt(2 * math.e * math.log(T)) + 32)
    assert math.isclose(b.discrete, hand, rel_tol=1e-9)
    assert b.vacuous and not b.side_ok and b.threshold > T
    e = theorem_bound("rs-etc-m", "gini", None, (0.4, 0.9), T)
    assert e.threshold > 1e15 and not e.side_ok and e.vacuous
    with pytest.raises(ValueError, match="argument 'algo'"):
        theorem_bound("uniform", "gini", None, (0.4, 0.9), T)


@pytest.mark.parametrize("dr,algo,extra", [("gini", "rs-ucb-m", {"radius_scale": 0.01}), ("cvar", "rs-etc-m", {})])
def test_plot_bounds_small(tmp_path, dr, algo, extra):
    Ts = (300, 1000, 3000)
    res = plot_bounds_command(dr, {}, (0.3, 0.8), algo, tmp_path, Ts=Ts, trials=4, **extra)
    for k in ("png", "pdf", "csv", "txt"):
        assert os.path.getsize(res[k]) > 100
    rows = read_csv(res["csv"])
    assert tuple(rows[0].keys()) == BOUND_COLUMNS
    assert [int(r["T"]) for r in rows] == list(Ts)
    for r in rows:
        assert float(r["bound"]) >= float(r["mean_regret"])  # the bound holds (it is vacuous here)
        assert r["vacuous"] == "True" and r["side_ok"] == "False"
        assert float(r["ci_low"]) <= float(r["mean_regret"]) <= float(r["ci_high"])
    assert res["derived"]["exponent"] is not None


@pytest.mark.parametrize("algo", ["uniform", "ucb-fw", "ucb1"])
def test_plot_bounds_refuses_an_algorithm_without_a_bound(tmp_path, capsys, algo):
    """No figure of a bound that does not exist: refused at once, naming --algo, nothing written."""
    out = tmp_path / "o"
    assert main(["plot", "bounds", "--dr", "mean", "--p", "0.2,0.7", "--algo", algo, "--out", str(out),
                 "--Ts", "100,300", "--trials", "3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "argument '--algo'" in err and "no regret bound" in err and err.count("\n") == 1
    assert not out.exists()


# ---------------------------------------------------------------------------
# options that apply, titles, seeds, nothing written on bad input
# ---------------------------------------------------------------------------
def test_plot_title_names_only_the_options_the_algorithm_uses():
    from proofs_checks.bound_plot import title_of

    cfg = {"rho": 0.1, "radius_scale": 1.0}
    etc = title_of("gini", {}, (0.4, 0.9), "rs-etc-m", 5, cfg, "T/10")
    assert "rho" not in etc and "radius" not in etc and "explore T/10 per arm" in etc
    assert "rho" not in title_of("gini", {}, (0.4, 0.9), "uniform", 5, cfg, None)
    assert "eps" not in title_of("gini", {}, (0.4, 0.9), "uniform", 5, cfg, None)
    ucb = title_of("gini", {}, (0.4, 0.9), "rs-ucb-m", 5, {"rho": 0.2, "radius_scale": 0.01}, None)
    assert "rho = 0.2" in ucb and "radius x0.01" in ucb


def test_variant_titles_name_only_the_algorithms_run():
    from proofs_checks.figures import variant_title

    rho = ex.get_experiment("vs-rho")  # RS-UCB-M only
    assert all("ETC" not in variant_title(v, rho.algos) for v in rho.variants)
    t = ex.get_experiment("regret-vs-T")
    assert "ETC explore 0.1T/arm" in variant_title(t.variants[1], t.algos)


def test_plot_bounds_seeds_horizons_by_stream(tmp_path):
    plot_bounds_command("gini", {}, (0.3, 0.8), "rs-etc-m", tmp_path, Ts=(100, 200), trials=2, seed=4)
    configs = sorted((json.loads(p.read_text())["config"] for p in (tmp_path / "runs").glob("*.json")),
                     key=lambda c: c["T"])
    assert [(c["seed"], c["stream"]) for c in configs] == [(4, [0]), (4, [1])]


@pytest.mark.parametrize("argv, flag", [
    (["--chunk", "0"], "--chunk"), (["--scheduler", "a b"], "--scheduler"), (["--seed", "-1"], "--seed"),
    (["--jobs", "0"], "--jobs"), (["--trials", "1.5"], "--trials"),
])
def test_reproduce_bad_argument_writes_nothing(tmp_path, capsys, argv, flag):
    out = tmp_path / "o"
    assert main(["reproduce", "vs-rho", "--out", str(out), "--quiet"] + argv) == 2
    assert f"argument '{flag}'" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("argv, flag", [
    (["--algo", "rs-etc-m", "--radius-scale", "0.01"], "--radius-scale"),
    (["--algo", "uniform", "--explore", "T/10"], "--algo"),  # no bound to plot: refused before its options
    (["--algo", "rs-ucb-m", "--explore", "T/1000"], "--explore"),  # 0.1 pulls at T = 100
    (["--algo", "rs-ucb-m", "--dr", "u+1"], "--dr"),
])
def test_plot_bounds_bad_argument_writes_nothing(tmp_path, capsys, argv, flag):
    out = tmp_path / "b"
    base = {"--dr": "gini", "--p": "0.4,0.9", "--Ts": "100,200", "--trials": "2"}
    args = list(argv) + [x for k, v in base.items() if k not in argv for x in (k, v)]
    assert main(["plot", "bounds", "--out", str(out), "--quiet"] + args) == 2
    assert f"argument '{flag}'" in capsys.readouterr().err
    assert not out.exists()


# ---------------------------------------------------------------------------
# interrupted (SIGINT once the first chunk is stored, workers running), then rerun: the uninterrupted result
# ---------------------------------------------------------------------------
def _signal_after_the_first_chunk(runs, sig: int) -> threading.Thread:
    """A thread that sends ``sig`` to this process once a chunk is stored under ``runs`` (observed, not timed)."""

    def watch():
        while not list(runs.glob("chunks/*/*.json")):
            time.sleep(0.001)
        os.kill(os.getpid(), sig)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    return t


def test_reproduce_interrupted_then_rerun_gives_the_uninterrupted_rows(tmp_path):
    from rsb_sim.interrupt import Interrupted, stop_on_signals

    exp = _small(ex.get_experiment("vs-rho"))
    out = tmp_path / "interrupted"
    watcher = _signal_after_the_first_chunk(out / "runs", signal.SIGINT)
    with stop_on_signals(), pytest.raises(Interrupted) as stop:
        reproduce_one(exp, out, trials=3, chunk=1, jobs=2)
    watcher.join()
    assert stop.value.status == 130 and "finished chunk" in stop.value.kept and str(out / "runs") in stop.value.kept
    assert not list((out / "runs").rglob("*.tmp")) and not list(out.glob("vs-rho.*"))
    kept = {p.name for p in (out / "runs").rglob("*.json")}
    reproduce_one(exp, out, trials=3, chunk=1, jobs=2)  # resumes
    reference = reproduce_one(exp, tmp_path / "whole", trials=3)  # one chunk per run, never interrupted
    assert read_csv(out / "vs-rho.csv") == read_csv(reference["csv"])
    assert kept and not list((out / "runs" / "chunks").glob("*"))  # the kept chunks were merged, then removed
