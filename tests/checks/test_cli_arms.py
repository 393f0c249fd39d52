"""``--arms`` on the command line: optimize, derive, simulate, slopes, plot bounds and bad specifications."""

import json
import math

import numpy as np
import pytest

from proofs_checks.cli import main

LAWS = "beta(2,5); uniform(0.3,0.2); triang(0.5,0,1)"


def _json(capsys, argv):
    code = main(argv + ["--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out), err


def test_optimize_arms_reports_alpha_star_values_and_discrete_quantities(capsys):
    rep, _ = _json(capsys, ["optimize", "--dr", "gini", "--arms", LAWS, "--eps", "0.1"])
    for key in ("alpha_star", "value", "arm_values", "W", "a_star", "Delta", "Delta_min", "n_optimal", "grid_size",
                "certified", "method"):
        assert key in rep, key
    assert rep["kinds"] == ["continuous"] * 3 and rep["certified"]
    assert rep["value"] >= max(rep["arm_values"]) - 1e-12 and rep["mixture_gain"] > 0
    assert sum(rep["alpha_star"]) == pytest.approx(1.0)
    assert 0 <= rep["Delta"] and rep["Delta_min"] > 0
    # a second route: V at a* recomputed, and no grid point beats a* (enumeration of the definition)
    from rsb_theory.distortions import get
    from rsb_theory.grids import Grid
    from rsb_theory.laws import mixture_value, parse_arms

    laws = parse_arms(LAWS)
    pts = Grid(3, 0.1, "ucb").points()
    v = mixture_value(get("gini"), laws, pts)
    assert rep["value"] - rep["Delta"] == pytest.approx(v.max(), abs=1e-9)
    assert rep["value"] >= v.max() - 1e-9


def test_optimize_arms_bernoulli_agrees_with_p(capsys):
    a, _ = _json(capsys, ["optimize", "--dr", "gini", "--arms", "bernoulli(0.4); bernoulli(0.9); bernoulli(0.2)",
                          "--eps", "0.1"])
    b, _ = _json(capsys, ["optimize", "--dr", "gini", "--p", "0.4,0.9,0.2", "--eps", "0.1"])
    assert a["value"] == pytest.approx(b["value"], abs=1e-9)
    assert a["a_star"] == b["a_star"] and a["Delta_min"] == pytest.approx(b["Delta_min"], abs=1e-12)
    assert a["W"] == pytest.approx(b["W"], abs=1e-12)


def test_derive_arms_gives_r_L_MH_W(capsys):
    rep, _ = _json(capsys, ["derive", "--h", "pht", "--param", "s=0.5", "--arms", "beta(2,5); uniform(0.3,0.2)"])
    assert rep["r"] == rep["q"] == "1/2" and "always" in rep["r_evidence"]
    assert rep["L_MH"] == pytest.approx(1.0) and rep["W"] > 0 and len(rep["arm_values"]) == 2
    rep, _ = _json(capsys, ["derive", "--h", "gini", "--arms", "uniform(0,2); uniform(0.5,1)"])
    assert rep["b"] == 2.0 and rep["L_MH"] == pytest.approx(1.0)  # q = 1: L b^(1-q) = L


def test_simulate_arms_exact_and_quantised(capsys, tmp_path):
    argv = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", "beta(2,5); uniform(0.3,0.2)", "--T", "300",
            "--trials", "3", "--radius-scale", "0.001", "--explore", "5", "--quiet"]
    rep, err = _json(capsys, argv)
    assert rep["instance"]["route"] == "trial" and "quantization" not in rep
    rep, err = _json(capsys, argv + ["--quantize", "32"])
    assert rep["instance"]["route"] == "quantized" and rep["quantization"]["levels"] == 32
    assert "rounded to the mid-points of 32" in err
    code = main(argv[:7] + ["--T", "5000"] + argv[9:])
    out, err = capsys.readouterr()
    assert code == 2 and "argument '--quantize'" in err and len(err.strip().splitlines()) == 1


def test_simulate_arms_with_p_or_quantize_without_arms_is_an_error(capsys):
    for argv, flag in ((["--arms", "beta(2,5);uniform(0,1)", "--p", "0.4,0.9"], "--arms"),
                       (["--p", "0.4,0.9", "--quantize", "8"], "--quantize"),
                       (["--arms", "beta(2,5);uniform(0,1)", "--support", "0,1", "--probs", "0.5,0.5;0.5,0.5"],
                        "--arms")):
        code = main(["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--T", "100"] + argv)
        _out, err = capsys.readouterr()
        assert code == 2 and f"argument '{flag}'" in err, err


def _files(tmp_path):
    (tmp_path / "r.csv").write_text("ret,txt,empty\n0.1,a,\n0.3,b,\n0.2,c,\n")
    return tmp_path


BAD = [
    ("betta(2,5); uniform(0,1)", "arm 1", "did you mean beta"),
    ("beta(2,5); uniform(0,1); gamma(2)", "arm 3", "truncnorm"),
    ("beta(2,-1); uniform(0,1)", "arm 1", "refuses parameter b"),
    ("beta(2,5); norm(0.5,0.1)", "arm 2", "truncnorm"),
    ("beta(2,5); uniform(-0.1,1)", "arm 2", "below 0"),
    ("beta(2,5); bernoulli(1.5)", "arm 2", "parameter p"),
    ("beta(2,5); empirical(missing.csv:ret)", "arm 2", "no such file"),
    ("beta(2,5); empirical(r.csv:nope)", "arm 2", "no column 'nope'"),
    ("beta(2,5); empirical(r.csv:txt)", "arm 2", "is not a number"),
    ("beta(2,5); empirical(r.csv:empty)", "arm 2", "has no values"),
    ("beta(2,5); open('pwned', 'w')", "arm 2", "unknown law"),
]

COMMANDS = [
    ["optimize", "--dr", "gini"],
    ["derive", "--h", "gini"],
    ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--T", "100", "--trials", "2", "--quiet"],
    ["plot", "bounds", "--dr", "gini", "--algo", "ce-ucb-m", "--out", "plots", "--Ts", "200,400", "--trials", "2",
     "--quiet"],
]


@pytest.mark.parametrize("spec, arm, needle", BAD, ids=[b[2].split()[0] for b in BAD])
@pytest.mark.parametrize("cmd", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_bad_arm_specifications_are_one_line_naming_the_arm(tmp_path, monkeypatch, capsys, cmd, spec, arm, needle):
    monkeypatch.chdir(_files(tmp_path))
    before = sorted(p.name for p in tmp_path.iterdir())
    code = main(cmd + ["--arms", spec])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert f"argument '--arms': {arm}" in err and needle in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_empirical_arms_from_a_csv(tmp_path, monkeypatch, capsys):
    rng = np.random.default_rng(0)
    lines = ["a,b"] + [f"{x:.3f},{y:.3f}" for x, y in zip(rng.beta(2, 5, 60), rng.beta(5, 2, 60))]
    (tmp_path / "r.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    rep, _ = _json(capsys, ["optimize", "--dr", "gini", "--arms", "empirical(r.csv:a); empirical(r.csv:2)"])
    assert rep["kinds"] == ["empirical", "empirical"]
    rep, _ = _json(capsys, ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms",
                            "empirical(r.csv:a); empirical(r.csv:b)", "--T", "200", "--trials", "2", "--quiet"])
    assert rep["instance"]["route"] == "union"


def test_slopes_arms(capsys, tmp_path, monkeypatch):
    """rsb slopes --arms: one instance of laws, the sweep's specs carry the text, the derived slope uses r = q."""
    monkeypatch.chdir(tmp_path)
    base = ["slopes", "--dr", "gini", "--arms", "beta(2,5); uniform(0.3,0.2)", "--algo", "ce-ucb-m", "--Ts",
            "200,400", "--trials", "3", "--bootstrap", "10", "--radius-scale", "0.001", "--explore", "4", "--quiet"]
    rep, _ = _json(capsys, base + ["--out", "cache"])
    assert len(rep) == 1 and rep[0]["arms"] == "beta(2,5); uniform(0.3,0.2)" and rep[0]["p"] == []
    assert "r = q" in rep[0]["derived_from"] and rep[0]["derived_slope"] is not None
    quant, _ = _json(capsys, base + ["--out", "cache", "--quantize", "16"])
    assert quant[0]["overrides"]["quantize"] == 16
    for extra, flag in ((["--p", "0.4,0.9"], "--arms"), (["--quantize", "0"], "--quantize")):
        code = main(base + ["--no-cache"] + extra)
        _out, err = capsys.readouterr()
        assert code == 2 and f"argument '{flag}'" in err, err
    code = main(["slopes", "--p", "0.4,0.9", "--algo", "ce-ucb-m", "--quantize", "8", "--no-cache", "--quiet"])
    assert code == 2 and "argument '--quantize'" in capsys.readouterr().err


def test_plot_bounds_arms(capsys, tmp_path, monkeypatch):
    """rsb plot bounds --arms: the theorems' bounds from r = q, L_MH, W and the grid enumerated on the laws (Delta,
    Delta_min, side conditions as for Bernoulli arms); --quantize is declared; bad input writes nothing."""
    monkeypatch.chdir(_files(tmp_path))
    base = ["plot", "bounds", "--dr", "gini", "--arms", "beta(2,5); uniform(0.3,0.2); empirical(r.csv:ret)",
            "--Ts", "200,400", "--trials", "3", "--quiet", "--format", "json"]
    for algo, extra in (("ce-ucb-m", ["--radius-scale", "0.001", "--explore", "4"]), ("rs-etc-m", ["--explore", "4"])):
        rep, _ = _json(capsys, base + ["--algo", algo, "--out", algo] + extra)
        assert rep["not_drawn"] is None
        for r in rep["rows"]:
            assert r["bound"] > 0 and 0 < r["Delta_min"] < math.inf and r["bound_Delta"] >= 0
            assert isinstance(r["side_ok"], bool) and r["mean_regret"] >= 0
        txt = (tmp_path / algo / f"bounds-gini-{algo}.txt").read_text()
        assert "L_MH" in txt and "r = q" in rep["derived"]["source"]
    long = base[:5] + ["beta(2,5); uniform(0.3,0.2)", "--Ts", "2100,4200"] + base[8:]  # K T > the exact budget
    rep, _ = _json(capsys, long + ["--algo", "ce-ucb-m", "--out", "q", "--radius-scale", "0.001", "--explore", "4",
                                   "--quantize", "8"])
    assert all(r["bound"] > 0 for r in rep["rows"])
    assert "Quantised run" in (tmp_path / "q" / "bounds-gini-ce-ucb-m.txt").read_text()
    for extra, flag in ((["--algo", "rs-ucb-m"], "--algo"), (["--algo", "ce-ucb-m", "--p", "0.4,0.9"], "--arms"),
                        (["--algo", "rs-etc-m", "--quantize", "8"], "--quantize")):
        code = main(base + extra + ["--out", "x"])
        assert code == 2 and f"argument '{flag}'" in capsys.readouterr().err and not (tmp_path / "x").exists()
    for extra, flag in ((["--algo", "ce-ucb-m"], "--quantize"),
                        (["--algo", "rs-etc-m", "--quantize", "8"], "--quantize")):
        code = main(long + extra + ["--out", "x"])
        assert code == 2 and f"argument '{flag}'" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_plot_bounds_arms_says_why_a_bound_is_not_drawn():
    """A grid above the enumeration budget (a count): no bound, and the reason in words (not a silent gap)."""
    from proofs_checks.bound_plot import _bounds
    from proofs_checks.bounds import laws_constants
    from rsb_theory.laws import parse_arms

    arms = "beta(2,5); uniform(0.3,0.2); triang(0.5,0,1); beta(5,2); uniform(0.1,0.5); beta(3,3)"
    c = laws_constants("gini", {}, parse_arms(arms))
    fine, coarse = ({"eps": e, "config": {"rho": 0.1}} for e in (0.01, 0.9))
    bounds, why = _bounds("rs-etc-m", "gini", {}, None, arms, c, (10, 10**6), [(coarse, None), (fine, None)])
    assert bounds == [None, None] and "T = 1000000" in why and "not drawn" in why and "points" in why
    bounds, why = _bounds("uniform", "gini", {}, None, arms, c, (10, 10**6), [(coarse, None), (fine, None)])
    assert bounds == [None, None] and why is None  # no bound in the paper: said per row, as for --p


@pytest.mark.parametrize("dr, params", [("cvar_lower", ["--param", "alpha=0.2"]), ("dual(gini)", []),
                                        ("dual(cvar)", ["--param", "alpha=0.8"]), ("dual(u**2)", [])])
def test_the_new_distortions_on_the_command_line(capsys, dr, params):
    """--dr takes cvar_lower and dual(NAME|EXPR); dual(cvar) with alpha is cvar_lower with 1 - alpha."""
    rep, _ = _json(capsys, ["optimize", "--dr", dr, *params, "--arms", "beta(2,5); uniform(0.3,0.2)"])
    assert len(rep["arm_values"]) == 2 and rep["value"] >= max(rep["arm_values"]) - 1e-9
    if dr == "dual(cvar)":
        low, _ = _json(capsys, ["optimize", "--dr", "cvar_lower", "--param", "alpha=0.2", "--arms",
                                "beta(2,5); uniform(0.3,0.2)"])
        assert rep["arm_values"] == pytest.approx(low["arm_values"], abs=1e-9)


@pytest.mark.parametrize("dr", ["dual(nope)", "dual(open('x'))", "dual(gini", "dual()"])
def test_bad_duals_are_one_line_naming_dr(capsys, dr):
    code = main(["optimize", "--dr", dr, "--p", "0.4,0.9"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "argument '--dr'" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("algo", ["rs-etc-m", "ce-ucb-m", "rs-ucb-m"])
def test_laws_bound_agrees_with_the_bernoulli_route_and_the_simulation_setup(algo):
    """Two routes: bernoulli(p) arms through laws_bound give theorem_bound's numbers for --p; for continuous laws
    RS-ETC-M's side threshold N(eps) is the N(eps) the simulation's setup computes (rsb_sim.setup.true_gap)."""
    from proofs_checks.bounds import laws_bound, laws_constants, theorem_bound
    from rsb_sim.arm_laws import law_instance
    from rsb_sim.config import SimConfig
    from rsb_sim.setup import prepare
    from rsb_theory.distortions import get
    from rsb_theory.laws import parse_arms

    p, T = (0.3, 0.6, 0.9), 5000
    laws = parse_arms("; ".join(f"bernoulli({x})" for x in p))
    ref = theorem_bound(algo, "gini", None, p, T, rho=0.1)
    got = laws_bound(algo, "gini", None, laws, laws_constants("gini", None, laws), T, rho=0.1)
    for name in ("eps", "discrete", "Delta", "bound", "Delta_min", "threshold", "side_ok"):
        assert getattr(got, name) == pytest.approx(getattr(ref, name), rel=1e-9, abs=1e-12), name
    if algo != "rs-etc-m":
        return
    laws = parse_arms(LAWS)
    c = laws_constants("gini", None, laws)
    got = laws_bound(algo, "gini", None, laws, c, T)
    setup = prepare(SimConfig(T=T, trials=1, seed=0), law_instance(laws, algo, T), get("gini"), algo)
    assert got.Delta_min == pytest.approx(setup.Delta_min, rel=1e-6)
    assert got.threshold == pytest.approx(setup.N_eps, rel=1e-6)


def test_simulate_out_recomputes_an_edited_csv_and_reuses_an_unchanged_one(tmp_path, monkeypatch, capsys):
    """rsb simulate --out keeps its run in a sweep cache keyed by the CSV's content (rsb_sim.store.key_of)."""
    monkeypatch.chdir(tmp_path)
    csv = tmp_path / "r.csv"
    argv = ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--arms", "empirical(r.csv:ret); beta(2,5)", "--T",
            "150", "--trials", "3", "--explore", "5", "--quiet", "--out", "kept"]
    csv.write_text("ret\n0.1\n0.2\n0.9\n")
    first, _ = _json(capsys, argv)
    runs = sorted(p.name for p in (tmp_path / "kept" / "runs").glob("*.json"))
    again, _ = _json(capsys, argv)  # unchanged: the stored run is read back
    assert again["regrets"] == first["regrets"] and sorted(
        p.name for p in (tmp_path / "kept" / "runs").glob("*.json")) == runs
    csv.write_text("ret\n0.6\n0.7\n0.95\n")
    edited, _ = _json(capsys, argv)
    assert edited["regrets"] != first["regrets"] and len(list((tmp_path / "kept" / "runs").glob("*.json"))) == 2


def test_simulate_out_writes_nothing_for_a_bad_arm_or_a_missing_quantize(capsys, tmp_path):
    """With --out, an arm that cannot be read and a missing --quantize end with one line before the
    output directory is created; a quantised run kept on disk prints its quantisation note too."""
    data = tmp_path / "data.csv"
    data.write_text("x,y\n" + "\n".join(f"{i / 10},{i / 20}" for i in range(10)) + "\n")
    base = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--trials", "2", "--quiet"]
    cases = [["--arms", f"empirical({data}:nope); empirical({data}:y)", "--T", "300"],
             ["--arms", "beta(2,5); uniform(0.3,0.2)", "--T", "5000"],
             ["--arms", f"empirical({tmp_path / 'missing.csv'}:x); beta(2,5)", "--T", "300"]]
    for i, extra in enumerate(cases):
        out = tmp_path / f"out{i}"
        code = main(base + extra + ["--out", str(out)])
        _, err = capsys.readouterr()
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert not out.exists()
    code = main(base + ["--arms", "beta(2,5); uniform(0.3,0.2)", "--T", "300", "--quantize", "16", "--out",
                        str(tmp_path / "kept")])
    _, err = capsys.readouterr()
    assert code == 0 and "rounded to the mid-points of 16" in err
