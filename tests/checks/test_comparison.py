"""`rsb compare` and `api.compare`: paired tests on the common random numbers, both regret metrics, one meaning of
the scale flag, the tuning protocol, the warnings, the figure's optimal set and intervals inside the support."""

import csv
import json
import math

import numpy as np
import pytest

from proofs_checks import api
from proofs_checks import compare as cmp
from proofs_checks.cli import main


def _rows(path):
    return list(csv.DictReader(ln for ln in open(path) if not ln.startswith("#")))


def _header(path) -> dict:
    return json.loads("".join(ln[2:] for ln in open(path) if ln.startswith("#")))


# --- statistics ------------------------------------------------------------------------------------------------------
def test_paired_tests_recompute_with_scipy_and_holm_decides_the_verdict():
    from scipy import stats

    rng = np.random.default_rng(np.random.SeedSequence(11))
    base = rng.random(30)
    samples = {"a": base + 0.2 + 0.01 * rng.standard_normal(30), "b": base + 0.01 * rng.standard_normal(30),
               "c": base + 0.002 * rng.standard_normal(30)}
    rows = cmp.paired_tests(samples, 100, "regret")
    assert [(r["algo_a"], r["algo_b"]) for r in rows] == [("a", "b"), ("a", "c"), ("b", "c")]
    for r in rows:
        x, y = samples[r["algo_a"]], samples[r["algo_b"]]
        assert r["p_t"] == pytest.approx(stats.ttest_rel(x, y).pvalue, rel=1e-9)
        assert r["p_wilcoxon"] == pytest.approx(stats.wilcoxon(x - y).pvalue, rel=1e-9)
        lo, hi = stats.ttest_rel(x, y).confidence_interval(cmp.CI_LEVEL)
        assert (r["diff_ci_low"], r["diff_ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
        assert r["mean_diff"] == pytest.approx(float(np.mean(x - y)))
    # Holm over the three pairs, each test separately
    for p, adj in (("p_t", "p_t_holm"), ("p_wilcoxon", "p_wilcoxon_holm")):
        ps = [r[p] for r in rows]
        order = np.argsort(ps)
        expect = np.maximum.accumulate([min(1.0, (3 - k) * ps[i]) for k, i in enumerate(order)])
        assert [rows[i][adj] for i in order] == pytest.approx(list(expect))
    # a verdict only below the level: a is larger than b (smaller: b), b and c differ by noise
    assert rows[0]["smaller_by_t"] == "b" and rows[0]["smaller_by_wilcoxon"] == "b"
    assert rows[0]["level"] == cmp.LEVEL
    for r in rows:
        if r["p_t_holm"] >= cmp.LEVEL:
            assert r["smaller_by_t"].startswith("not shown at level")
    # mutant: the same samples unpaired (shuffled) lose the pairing and the power of the test
    shuffled = {"a": samples["a"], "b": rng.permutation(samples["b"])}
    assert cmp.paired_tests(shuffled, 100, "regret")[0]["p_t"] > rows[0]["p_t"]


def test_constant_differences_are_decided_without_spread():
    rows = cmp.paired_tests({"a": np.zeros(5), "b": np.zeros(5), "c": np.ones(5)}, 10, "regret")
    same, diff = rows[0], rows[1]
    assert same["p_t"] == 1.0 and same["p_wilcoxon"] == 1.0 and same["smaller_by_t"].startswith("not shown")
    assert diff["p_t"] == 0.0 and diff["smaller_by_t"] == "a"


def test_bootstrap_interval_stays_inside_the_data():
    x = np.array([0.0] * 18 + [0.5, 3.0])  # a skewed non-negative regret: Student's interval goes below 0
    from rsb_sim.trajectory import mean_ci

    assert mean_ci(x)[0] < 0
    lo, hi = cmp.bootstrap_ci(x, np.random.SeedSequence(0))
    assert 0.0 <= lo <= x.mean() <= hi <= x.max()
    assert cmp.bootstrap_ci(x, np.random.SeedSequence(0)) == (lo, hi)  # seeded: the same on any machine


# --- the metrics -----------------------------------------------------------------------------------------------------
def test_pseudo_regret_is_the_pulls_weighted_by_the_arm_gaps(tmp_path):
    out = tmp_path / "cmp"
    argv = ["compare", "--algos", "ucb1,dr-ucb", "--dr", "gini", "--p", "0.2,0.45,0.9", "--Ts", "60,120",
            "--trials", "3", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    head = _header(out / "compare.csv")
    # two routes to the arm values: rsb_theory's laws (the gaps) and the engine's instance (a run's summary)
    engine_values = np.array(api.simulate("gini", "ucb1", p=[0.2, 0.45, 0.9], T=60).arm_values)
    assert head["arm_values"] == pytest.approx(engine_values.tolist(), abs=1e-12)
    gaps = max(engine_values) - engine_values
    assert head["arm_gaps"] == pytest.approx(gaps.tolist(), abs=1e-12) and min(head["arm_gaps"]) == 0
    for r in _rows(out / "compare.csv"):
        pulls = np.array([int(r[f"pulls_{i}"]) for i in (1, 2, 3)])
        assert float(r["pseudo_regret"]) == pytest.approx(float(pulls @ gaps), rel=1e-12)
        assert sum(pulls) == int(r["T"])
    metrics = {r["metric"] for r in _rows(out / "compare_tests.csv")}
    assert metrics == {"regret", "pseudo_regret"}


# --- one meaning of the scale ---------------------------------------------------------------------------------------
def test_the_command_line_and_the_api_scale_every_algorithm_alike(tmp_path):
    algos = ["ucb-fw", "u-ucb", "dr-ucb", "ucb1"]
    out = tmp_path / "cmp"
    assert main(["compare", "--algos", ",".join(algos), "--dr", "gini", "--p", "0.4,0.9", "--Ts", "150,300",
                 "--trials", "3", "--seed", "4", "--radius-scale", "0.01", "--out", str(out), "--quiet"]) == 0
    c = api.compare("gini", algos, p=[0.4, 0.9], Ts=[150, 300], trials=3, seed=4, radius_scale=0.01)
    rows = _rows(out / "compare.csv")
    assert len(rows) == 4 * 2 * 3
    for r in rows:
        assert float(r["regret"]) == c[r["algo"], int(r["T"])].regrets[int(r["trial"])]
    assert c["ucb-fw", 300].config.radius_scale == 0.01  # the competitor's bonus is scaled too
    assert c["ucb1", 300].config.radius_scale == 1.0  # and UCB1, which has no such constant, is not
    unscaled = api.compare("gini", ["ucb-fw"], p=[0.4, 0.9], Ts=[150, 300], trials=3, seed=4)
    assert unscaled["ucb-fw", 300].regrets.tolist() != c["ucb-fw", 300].regrets.tolist()
    # the same statistics by both routes
    cli = {(r["T"], r["metric"], r["algo_a"], r["algo_b"]): r for r in _rows(out / "compare_tests.csv")}
    for t in c.summary()["tests"]:
        row = cli[(str(t["T"]), t["metric"], t["algo_a"], t["algo_b"])]
        assert float(row["p_t_holm"]) == t["p_t_holm"] and row["smaller_by_t"] == t["smaller_by_t"]


def test_exploration_constant_is_read_from_the_declaration(monkeypatch):
    from rsb_sim import options

    from proofs_checks.exploration import exploration_constant

    for algo in options.ALGORITHMS:
        expect = ("radius_scale" if "radius_scale" in options.READS[algo]
                  else "explore" if {"explore", "eps"} <= options.READS[algo] else None)
        assert exploration_constant(algo) == expect
    assert exploration_constant("b-cvts") is None and exploration_constant("rs-etc-m") == "explore"
    monkeypatch.setitem(options.READS, "ucb1", frozenset({"explore", "radius_scale"}))  # a declaration changes
    assert exploration_constant("ucb1") == "radius_scale"


# --- the tuning protocol ----------------------------------------------------------------------------------------------
def test_tuning_chooses_on_separate_seeds_and_reports_on_fresh_ones(tmp_path):
    out = tmp_path / "cmp"
    argv = ["compare", "--algos", "ucb-fw,rs-etc-m,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200",
            "--trials", "3", "--tune", "--tune-grid", "0.01,1", "--tune-trials", "2",
            "--tune-instances", "0.2,0.45", "--out", str(out), "--quiet", "--format", "json"]
    assert main(argv) == 0
    tuning = _rows(out / "compare_tuning.csv")
    assert {r["algo"] for r in tuning} == {"ucb-fw", "rs-etc-m"}  # ucb1 is tuning-free: it appears as it is
    assert len(tuning) == 2 * 2 * 2 * 2  # algorithms x horizons x instances x multipliers
    assert {r["option"] for r in tuning} == {"radius_scale", "explore"}
    rows = _rows(out / "compare.csv")
    chosen = {}
    for algo in ("ucb-fw", "rs-etc-m"):
        for T in (100, 200):
            g = [r for r in tuning if r["algo"] == algo and int(r["T"]) == T]
            best = {i: min(float(r["mean_regret"]) for r in g if r["instance"] == i) for i in ("0", "1")}
            score = {}
            for r in g:
                score[float(r["multiplier"])] = score.get(float(r["multiplier"]), 0.0) + \
                    max(float(r["mean_regret"]), 1e-12) / max(best[r["instance"]], 1e-12)
            m = min(score, key=lambda k: (score[k], abs(math.log(k)), k))
            assert [float(r["multiplier"]) for r in g if r["chosen"] == "True"][:1] == [m]
            chosen[(algo, T)] = m
            settings = {(r["setting"], float(r["multiplier"])) for r in rows if r["algo"].startswith(algo)
                        and int(r["T"]) == T}
            assert settings == {("tuned", m), ("default", 1.0)}  # the untuned default beside
    assert {r["setting"] for r in rows if r["algo"] == "ucb1"} == {"default"}
    # the reported tuned run is the fresh-seed run at the chosen multiplier (stream (j,), as without --tune)
    m = chosen[("ucb-fw", 200)]
    c = api.compare("gini", ["ucb-fw"], p=[0.4, 0.9], Ts=[100, 200], trials=3, radius_scale=m)
    got = [float(r["regret"]) for r in rows if r["algo"] == "ucb-fw" and r["T"] == "200"]
    assert got == c["ucb-fw", 200].regrets.tolist()
    # the tuning seeds are not the reported ones: at multiplier 1 the tuning mean differs from the default's
    default = np.mean([float(r["regret"]) for r in rows if r["algo"] == "ucb-fw (default)" and r["T"] == "100"][:2])
    tune1 = [float(r["mean_regret"]) for r in tuning if r["algo"] == "ucb-fw" and r["T"] == "100"
             and r["instance"] == "0" and float(r["multiplier"]) == 1.0]
    assert tune1 and tune1[0] != default
    assert (out / "compare_tuning.png").exists()


# --- warnings and the figure ----------------------------------------------------------------------------------------
def test_degenerate_constant_warnings_reach_the_console(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "--algos", "ce-ucb-m,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200",
                 "--trials", "2", "--out", str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "rsb compare: warning: ce-ucb-m T=100:" in err and "confidence radius" in err
    assert _header(out / "compare.csv")["warnings"]


def test_optimal_set_ranges_where_alpha_star_is_not_unique():
    req = cmp.CompareRequest(algos=("ucb1",), Ts=(100, 200), trials=2, seed=0, dr="gini", p=(0.2, 0.4, 0.6, 0.9))
    ranges = cmp.optimal_ranges(req)
    # brute force: mixtures on a grid of the simplex with mean 1/2 (h = u(1-u) is largest at 1/2)
    p = np.array(req.p)
    n = 70  # the ends (4/7, 3/7 ...) are on this grid
    best = []
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c_ in range(n + 1 - a - b):
                alpha = np.array([a, b, c_, n - a - b - c_]) / n
                if abs(alpha @ p - 0.5) < 1e-12:
                    best.append(alpha)
    best = np.array(best)
    for i, (lo, hi) in enumerate(ranges):
        assert lo == pytest.approx(best[:, i].min(), abs=1 / n) and hi == pytest.approx(best[:, i].max(), abs=1 / n)
        assert lo <= hi
    unique = cmp.CompareRequest(algos=("ucb1",), Ts=(100, 200), trials=2, seed=0, dr="gini", p=(0.4, 0.9))
    assert cmp.optimal_ranges(unique) is None


def test_label_titles_the_figure_and_json_is_strict(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "--algos", "ucb1,uniform", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "50,100",
                 "--trials", "2", "--label", "Gini: 2 arms, $5 talk", "--out", str(out), "--quiet",
                 "--format", "json"]) == 0
    text = capsys.readouterr().out

    def refuse(name):
        raise ValueError(name)

    res = json.loads(text, parse_constant=refuse)
    assert set(res) >= {"metrics", "mean", "tests", "level", "files", "arm_gaps"}
    assert (out / "compare.png").stat().st_size > 0


def test_choice_weighs_each_tuning_instance_alike_and_ties_go_to_one():
    def row(m, i, r):
        return {"algo": "x", "T": 10, "instance": i, "multiplier": m, "mean_regret": r}

    # instance 1's regrets are 100 times instance 0's: a raw sum would follow instance 1 alone
    rows = [row(0.1, 0, 1e-4), row(1.0, 0, 5e-4), row(0.1, 1, 2.2e-2), row(1.0, 1, 2e-2)]
    assert cmp.choose(rows) == {("x", 10): 0.1}  # ratios: 1 + 1.1 against 5 + 1
    assert sum(float(r["mean_regret"]) for r in rows if r["multiplier"] == 1.0) < \
        sum(float(r["mean_regret"]) for r in rows if r["multiplier"] == 0.1)  # the raw sum would pick 1
    assert [r["chosen"] for r in rows] == [True, False, True, False]
    tie = [row(0.01, 0, 0.0), row(1.0, 0, 0.0), row(10.0, 0, 0.0)]
    assert cmp.choose(tie) == {("x", 10): 1.0}
