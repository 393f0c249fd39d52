"""Engine results, warnings on degenerate defaults, the store, the sweep and the CLI."""

import json
import math

import numpy as np
import pytest

from proofs_checks.cli import main
from rsb_sim import store
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_sim.sweep import sweep
from rsb_theory.distortions import get

GINI = get("gini")
INST = BernoulliInstance((0.4, 0.9))


def test_uniform_regret_is_exact():
    r = run(SimConfig(T=101, trials=3, seed=0), INST, GINI, "uniform")
    # counts 51/50: mean = (51*0.4 + 50*0.9)/101
    x = (51 * 0.4 + 50 * 0.9) / 101
    np.testing.assert_allclose(r.regrets, 0.25 - x * (1 - x), atol=1e-15)
    assert r.counts.tolist() == [[51, 50]] * 3 and r.std_regret == 0.0


def test_paper_defaults_are_degenerate_and_warned():
    ucb = run(SimConfig(T=5000, trials=4, seed=0), INST, GINI, "rs-ucb-m")
    etc = run(SimConfig(T=5000, trials=4, seed=0), INST, GINI, "rs-etc-m")
    assert len(ucb.warnings) == 1 and "confidence radius" in ucb.warnings[0]
    assert len(etc.warnings) == 1 and "never commits" in etc.warnings[0]
    # RS-UCB-M keeps the first grid point a = (eps/2, 1 - eps/2): arm 2 gets almost everything
    assert np.all(ucb.counts[:, 1] > 0.9 * 5000)
    assert np.all(etc.counts == 2500)
    assert math.isfinite(etc.setup.N_eps) and etc.setup.N_eps > 5000


def test_tuned_constants_learn_the_mixture():
    r = run(SimConfig(T=4000, trials=20, seed=1, eps=0.05, radius_scale=0.002), INST, GINI, "rs-ucb-m")
    assert not r.warnings
    assert abs(r.counts[:, 0].mean() / 4000 - 0.8) < 0.05
    assert r.mean_regret < 0.005


def test_result_metadata_and_reproducibility():
    a = run(SimConfig(T=300, trials=3, seed=9, eps=0.1, radius_scale=0.001), INST, GINI, "ce-ucb-m")
    b = run(SimConfig(T=300, trials=3, seed=9, eps=0.1, radius_scale=0.001), INST, GINI, "ce-ucb-m")
    assert np.array_equal(a.counts, b.counts) and a.entropy == 9
    s = a.summary()
    assert s["trials"] == 3 and len(s["regrets"]) == 3 and "numpy" in s["versions"]
    json.dumps(s)


@pytest.mark.parametrize("algo", ["rs-ucb-m"])  # rs-etc-m, ce-ucb-m: tests/sim/test_finite_support.py
def test_finite_support_arms_refused_with_named_argument(algo):
    inst = FiniteSupportInstance((0.0, 1.0, 2.0), ((0.2, 0.3, 0.5), (0.5, 0.5, 0.0)))
    with pytest.raises(ValueError, match="'algo'"):
        run(SimConfig(T=50), inst, GINI, algo)


def test_finite_support_uniform():
    inst = FiniteSupportInstance((0.0, 1.0, 2.0), ((0.2, 0.3, 0.5), (0.5, 0.5, 0.0)))
    r = run(SimConfig(T=50, trials=2), inst, GINI, "uniform")
    assert r.counts.tolist() == [[25, 25]] * 2 and np.all(r.regrets >= -1e-12)


def test_non_concave_h_refused_for_rs_ucb():
    from rsb_theory.distortions import resolve

    convex = resolve("u**2")
    with pytest.raises(ValueError, match="'dr'"):
        run(SimConfig(T=50), INST, convex, "rs-ucb-m")


def test_store_and_sweep_skip_done(tmp_path):
    specs = [{"algo": a, "dr": "gini", "params": {}, "p": [0.4, 0.9],
              "config": {"T": 200, "trials": 2, "seed": 0, "eps": 0.1}} for a in ("uniform", "rs-etc-m")]
    keys = sweep(specs, tmp_path)
    summary, arrays = store.load(tmp_path, keys[0])
    assert summary["algo"] == "uniform" and arrays["counts"].shape == (2, 2)
    mtime = (tmp_path / f"{keys[1]}.json").stat().st_mtime_ns
    sweep(specs, tmp_path)  # nothing to do
    assert (tmp_path / f"{keys[1]}.json").stat().st_mtime_ns == mtime
    assert not list(tmp_path.glob("*.tmp"))


def test_cli_simulate_json(capsys):
    rc = main(["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "2",
               "--format", "json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["trials"] == 2 and len(out["regrets"]) == 2 and "seed_entropy" in out


@pytest.mark.parametrize("argv, needle", [
    (["--algo", "nope"], "'--algo'"),
    (["--algo", "uniform", "--T", "1"], "'--T'"),
    (["--algo", "uniform", "--trials", "0"], "'--trials'"),
    (["--algo", "rs-ucb-m", "--rho", "1.5"], "'--rho'"),
    (["--algo", "rs-ucb-m", "--eps", "0"], "'--eps'"),
    (["--algo", "rs-ucb-m", "--explore", "-2"], "'--explore'"),
    (["--algo", "uniform", "--p", "0.4"], "'--p'"),
    (["--algo", "ce-ucb-m", "--threads", "0"], "'--threads'"),
    (["--algo", "ce-ucb-m", "--threads", "two"], "'--threads'"),
])
def test_cli_simulate_errors(capsys, argv, needle):
    base = {"--dr": "gini", "--p": "0.4,0.9", "--T": "100"}
    args = list(argv)
    for k, v in base.items():
        if k not in args:
            args += [k, v]
    rc = main(["simulate"] + args + ["--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and needle in err[0]


def test_sweep_processes_executor_gives_the_same_results(tmp_path):
    """Worker processes store exactly what the in-process sweep stores (each spec carries its seed)."""
    from rsb_sim import store
    from rsb_sim.sweep import sweep

    specs = [{"algo": a, "dr": "gini", "params": {}, "p": [0.4, 0.9],
              "config": {"T": 300, "trials": 4, "seed": 3, "radius_scale": 0.01}} for a in ("rs-ucb-m", "uniform")]
    k1 = sweep(specs, tmp_path / "local")
    k2 = sweep(specs, tmp_path / "proc", executor="processes", jobs=2)
    assert k1 == k2
    for k in k1:
        a = store.load(tmp_path / "local", k)[1]
        b = store.load(tmp_path / "proc", k)[1]
        assert np.array_equal(a["counts"], b["counts"]) and np.array_equal(a["regrets"], b["regrets"])
    with pytest.raises(ValueError, match="jobs"):
        sweep(specs, tmp_path / "bad", executor="processes", jobs=0)


def test_threads_change_no_result_and_are_not_recorded():
    """SimConfig.threads only splits CE-UCB-M's trials over threads: the summary (regrets, stats,
    config) is the same for 1 and 2 threads, and does not mention them."""
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run as run_sim
    from rsb_sim.instances import BernoulliInstance
    from rsb_theory.distortions import get

    inst, d = BernoulliInstance((0.3, 0.8, 0.5)), get("gini")
    out = []
    for threads in (1, 2):
        r = run_sim(SimConfig(T=400, trials=5, seed=2, eps=0.1, radius_scale=0.01, threads=threads), inst, d,
                    "ce-ucb-m")
        s = r.summary()
        out.append({k: v for k, v in s.items() if k not in ("seconds", "versions")})
    assert out[0] == out[1] and "threads" not in out[0]["config"] and out[0]["stats"]["lines"] > 0


def test_route_changes_no_result_and_is_not_recorded():
    """SimConfig.compiled=False sends CE-UCB-M to the NumPy searcher: same regrets, not in the record."""
    inst = BernoulliInstance((0.3, 0.8, 0.5))
    runs = [run(SimConfig(T=300, trials=4, seed=2, eps=0.1, radius_scale=0.01, compiled=c), inst, GINI, "ce-ucb-m")
            for c in (True, False)]
    assert "lines" in runs[0].stats and "lines" not in runs[1].stats
    assert np.array_equal(runs[0].regrets, runs[1].regrets)
    assert runs[0].summary()["config"] == runs[1].summary()["config"] and "compiled" not in runs[0].summary()["config"]
    with pytest.raises(ValueError, match="'compiled'"):
        SimConfig(T=10, compiled="no")


def test_etc_explore_is_pulls_per_arm():
    """--explore / SimConfig.explore: pulls per arm for RS-ETC-M as for the UCBs; N(eps) is then not computed."""
    inst4 = BernoulliInstance((0.2, 0.4, 0.6, 0.9))
    r = run(SimConfig(T=400, trials=3, seed=1, eps=0.1, explore=30), inst4, GINI, "rs-etc-m")
    assert r.setup.n0 == 30 and r.setup.explore_steps == 120 and np.all(r.counts >= 30)
    s = r.summary()
    assert s["explore_per_arm"] == 30 and s["N_eps"] is None and s["Delta_min"] is None and not r.warnings
    long = run(SimConfig(T=400, trials=1, seed=1, eps=0.1, explore=100), inst4, GINI, "rs-etc-m")
    assert long.counts.tolist() == [[100] * 4]
    assert long.warnings == ("RS-ETC-M never commits: an exploration of 100 pulls per arm (explore) and "
                             "K*100 = 400 >= T = 400, so every pull is round-robin exploration",)


def test_never_commits_warning_prints_the_true_sizes():
    """N(eps) = 1.4e19 asks for ceil(N/2) = 6.8e18 > 2^62 pulls per arm: printed as it is, never as a cap."""
    r = run(SimConfig(T=5000, trials=1, seed=0), BernoulliInstance((0.5, 0.55)), get("pht", s=0.5), "rs-etc-m")
    per_arm = math.ceil(r.setup.N_eps / 2 - 1e-9)
    assert per_arm > 2**62 and r.setup.n0 == per_arm and r.summary()["explore_per_arm"] == per_arm
    (w,) = r.warnings
    assert f"N(eps) = {r.setup.N_eps:.4g}" in w and f"= {per_arm:.4g} pulls per arm" in w
    assert str(2**62) not in w and str(2**63 - 1) not in w
    assert r.counts.tolist() == [[2500, 2500]]


def test_infinite_exploration_is_said_so():
    """h = u^0.01 (q = 0.01): N(eps) overflows a float; the run is round-robin and the message says why."""
    from rsb_theory.distortions import from_string

    r = run(SimConfig(T=101, trials=2, seed=0, eps=0.5), INST, from_string("u**0.01"), "rs-etc-m")
    assert math.isinf(r.setup.N_eps) and r.setup.n0 is None and r.setup.explore_steps == 101
    assert r.counts.tolist() == [[51, 50]] * 2 and r.summary()["explore_per_arm"] is None
    (w,) = r.warnings
    assert "N(eps) = inf (beyond the largest float)" in w and "ceil(N(eps)/K) = inf" in w
