"""`rsb derive` end to end, and clear errors for bad input."""

import json

import pytest

from proofs_checks.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_derive_registry_instance(capsys):
    code, out, _ = run(capsys, "derive", "--h", "gini", "--p", "0.4,0.9", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["bernoulli_closed_form"] == "p*(1 - p)"
    assert d["q"] == "1" and d["r"] == "2" and d["p_star"] == 0.5
    assert d["alpha_star"] == pytest.approx([0.8, 0.2])
    assert d["solitary"] is False


def test_derive_user_expression(capsys):
    code, out, _ = run(capsys, "derive", "--h", "u**0.3*(1-u)", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["q"] == "3/10" and d["monotone"] == "neither"


def test_derive_with_param(capsys):
    code, out, _ = run(capsys, "derive", "--h", "pht", "--param", "s=0.25", "--format", "json")
    assert code == 0
    assert json.loads(out)["q"] == "1/4"


@pytest.mark.parametrize("argv, needle", [
    (["derive", "--h", "u+1"], "argument '--h'"),
    (["derive", "--h", "__import__('os')"], "argument '--h'"),
    (["derive", "--h", "u**"], "argument '--h'"),
    (["derive", "--h", "gini", "--p", "0.4,1.2"], "argument '--p'"),
    (["derive", "--h", "gini", "--p", "0.4"], "argument '--p'"),
    (["derive", "--h", "gini", "--p", "a,b"], "argument '--p'"),
    (["derive", "--h", "pht", "--param", "s=2"], "--param s"),
    (["derive", "--h", "pht", "--param", "t=0.5"], "--param"),
    (["derive", "--h", "pht", "--param", "s"], "--param"),
])
def test_bad_input_names_the_argument(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert needle in err


def test_optimize_gini_experiment_instance(capsys):
    code, out, _ = run(capsys, "optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "0.1", "--grid", "etc",
                       "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["alpha_star"] == pytest.approx([0.8, 0.2])
    assert d["W"] == pytest.approx(0.25)
    # 0.8 is on the etc grid with eps = 0.1, so the discretisation error is 0
    assert d["a_star"] == pytest.approx([0.8, 0.2]) and d["Delta"] == pytest.approx(0.0, abs=1e-15)
    assert d["grid_size"] == 11 and d["n_optimal"] == 1
    # the neighbours 0.45 and 0.55 of 1/2: Delta_min = 1/4 - 0.45 * 0.55
    assert d["Delta_min"] == pytest.approx(0.25 - 0.45 * 0.55)


def test_optimize_reports_ties(capsys):
    # mid-point grid: 0.45 and 0.55 are both at distance 0.05 from 1/2
    code, out, _ = run(capsys, "optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "0.1", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["n_optimal"] == 2 and "note" in d


@pytest.mark.parametrize("argv, needle", [
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "0"], "argument '--eps'"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "1.5"], "argument '--eps'"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "0.1", "--grid", "mid"], "argument '--grid'"),
    (["optimize", "--dr", "nope", "--p", "0.4,0.9"], "argument '--dr'"),
    (["optimize", "--dr", "gini", "--p", "0.4,-0.1"], "argument '--p'"),
    (["optimize", "--dr", "gini", "--p", "0.4"], "argument '--p'"),
])
def test_optimize_bad_input(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err


def test_optimize_reports_the_oracle(capsys):
    """alpha_star comes from rsb_theory.oracle with its method, certificate and evidence."""
    code, out, _ = run(capsys, "optimize", "--dr", "gini", "--p", "0.4,0.9", "--format", "json")
    d = json.loads(out)
    assert code == 0
    assert d["method"] == "closed_form" and d["certified"] is True and d["gap"] <= 1e-12
    assert "holder.optimal_means" in d["evidence"] and d["optimal_means"] == ["1/2"]
    assert d["value"] == pytest.approx(0.25) and d["h"] == "u*(1 - u)"
    assert "a_star" not in d  # the discrete part needs --eps


@pytest.mark.parametrize("method", ["cvxpy", "search"])
def test_optimize_routes_agree_on_a_user_expression(capsys, method):
    argv = ["optimize", "--dr", "u**0.3*(1-u)", "--p", "0.1,0.9,0.5", "--format", "json"]
    code, out, _ = run(capsys, *argv)
    exact = json.loads(out)
    assert code == 0 and exact["method"] == "closed_form" and exact["optimal_means"] == ["3/13"]
    code, out, _ = run(capsys, *argv, "--method", method)
    other = json.loads(out)
    assert code == 0 and other["method"] == method
    assert other["value"] == pytest.approx(exact["value"], abs=1e-6) and other["value"] <= exact["value"] + 1e-12
    assert sum(other["alpha_star"]) == pytest.approx(1.0) and min(other["alpha_star"]) >= 0
    # <alpha, p> = 3/13 for every optimal mixture of Bernoulli arms
    assert sum(a * p for a, p in zip(other["alpha_star"], (0.1, 0.9, 0.5))) == pytest.approx(3 / 13, abs=1e-3)


def test_optimize_user_expression_with_eps_and_table_format(capsys):
    code, out, _ = run(capsys, "optimize", "--dr", "sqrt(u)-u", "--p", "0.1,0.9", "--eps", "0.25", "--grid", "etc")
    assert code == 0
    lines = dict(line.split(None, 1) for line in out.strip().splitlines())
    assert lines["method"] == "closed_form" and lines["grid_size"] == "5"
    # V(alpha*) = h(1/4) = 1/4; the etc grid (a_1 in {0, 1/4, ..., 1}) reaches <a, p> = 0.3 at best
    assert float(lines["value"]) == pytest.approx(0.25)
    assert float(lines["Delta"]) == pytest.approx(0.25 - (0.3 ** 0.5 - 0.3))


@pytest.mark.parametrize("argv, needle", [
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--method", "newton"], "argument '--method'"),
    (["optimize", "--dr", "u+1", "--p", "0.4,0.9"], "argument '--dr'"),
    (["optimize", "--dr", "sin(pi*u)", "--p", "0.4,0.9", "--method", "cvxpy"], "argument '--dr'"),
    (["optimize", "--dr", "pht", "--param", "s=2", "--p", "0.4,0.9"], "argument '--param s'"),
    (["optimize", "--dr", "gini", "--p", "0.4,nan"], "argument '--p'"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "x"], "argument '--eps'"),
])
def test_optimize_more_bad_input(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err
    assert len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# no user string is ever evaluated
# ---------------------------------------------------------------------------
PAYLOADS = [
    "__import__('os').system('touch pwned')",
    "__import__('os').system('touch pwned')*0+T/10",
    "open('pwned', 'w')",
    "().__class__.__bases__[0].__subclasses__()",
    "(lambda: __import__('os').system('touch pwned'))()",
    "9**9**9",
    "[__import__('os') for _ in (1,)]",
    "u.__class__",
    "'pwned'",
    "exec('open(\"pwned\", \"w\")')",
]

_SIM = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "200", "--trials", "2", "--quiet"]
_SIM_ARMS = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", "beta(2,5);uniform(0.3,0.1)", "--T", "200",
             "--trials", "2", "--quantize", "16", "--quiet"]
_SLOPES = ["slopes", "--algo", "rs-ucb-m", "--Ts", "200,400", "--trials", "2", "--bootstrap", "10", "--no-cache",
           "--quiet"]
_PLOT = ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--out", "plots", "--Ts", "200,400",
         "--trials", "2", "--quiet"]
_PLOT_ARMS = ["plot", "bounds", "--dr", "gini", "--arms", "beta(2,5);uniform(0.3,0.1)", "--algo", "ce-ucb-m", "--out",
              "plots", "--Ts", "200,400", "--trials", "2", "--quiet"]
_REPRO = ["reproduce", "vs-rho", "--out", "results", "--trials", "2", "--quiet"]
_COMPARE = ["compare", "--algos", "ucb-fw,dr-ucb", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--trials", "3",
            "--out", "cmp", "--quiet"]
# (command line, flag whose value is replaced, how it is named in the error)
EXPRESSION_FLAGS = [
    (["verify"], "--jobs"),
    (["verify"], "--status"),
    (["verify"], "--id"),
    (["verify"], "--proof"),
    (["report", "--out", "report"], "--jobs"),
    (["derive", "--h", "gini"], "--h"),
    (["derive", "--h", "pht"], "--param"),
    (["derive", "--h", "gini"], "--p"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9"], "--dr"),
    (["optimize", "--dr", "pht", "--p", "0.4,0.9"], "--param"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9"], "--p"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9"], "--eps"),
    *((_SIM, f) for f in ("--dr", "--p", "--T", "--trials", "--seed", "--eps", "--rho", "--radius-scale", "--explore",
                          "--threads", "--record")),
    (_SIM[:3] + ["--dr", "pht"] + _SIM[5:], "--param"),
    *((_SIM + ["--out", "kept"], f) for f in ("--chunk", "--wait")),
    (["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--T", "50", "--probs", "0.5,0.5;0.2,0.8", "--quiet"],
     "--support"),
    (["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--T", "50", "--support", "0,1", "--quiet"], "--probs"),
    (["optimize", "--dr", "gini", "--probs", "0.5,0.5;0.2,0.8"], "--support"),
    (["optimize", "--dr", "gini", "--support", "0,1"], "--probs"),
    *((_SLOPES, f) for f in ("--dr", "--p", "--Ts", "--trials", "--seed", "--eps", "--rho", "--radius-scale",
                             "--explore", "--bootstrap", "--tol")),
    (["slopes", "--algo", "rs-ucb-m", "--Ts", "200,400", "--quiet"], "--jobs"),
    (["slopes", "--algo", "rs-ucb-m", "--Ts", "200,400", "--quiet"], "--chunk"),
    (["slopes", "--algo", "rs-ucb-m", "--Ts", "200,400", "--quiet"], "--wait"),
    (_SLOPES[:1] + ["--dr", "pht"] + _SLOPES[1:], "--param"),
    *((_REPRO, f) for f in ("--trials", "--seed", "--jobs", "--chunk", "--wait")),
    *((_COMPARE, f) for f in ("--algos", "--dr", "--p", "--Ts", "--trials", "--seed", "--radius-scale", "--jobs",
                              "--chunk", "--wait")),
    *((_COMPARE + ["--tune"], f) for f in ("--tune-grid", "--tune-trials", "--tune-instances")),
    (_COMPARE[:4] + ["pht"] + _COMPARE[5:], "--param"),
    (_COMPARE[:5] + ["--arms", "beta(2,5);uniform(0.3,0.1)"] + _COMPARE[7:], "--arms"),
    *((_PLOT, f) for f in ("--dr", "--p", "--Ts", "--trials", "--seed", "--rho", "--radius-scale", "--explore", "--jobs",
                           "--chunk", "--wait")),
    (_PLOT[:2] + ["--param", "s=0.5"] + _PLOT[2:3] + ["pht"] + _PLOT[4:], "--param"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9"], "--max-work"),
    (_SIM, "--max-work"),
    (_SLOPES, "--max-work"),
    (_PLOT, "--max-work"),
    (["derive", "--h", "gini"], "--max-memory"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9"], "--max-memory"),
    (_SIM, "--max-memory"),
    (_SLOPES, "--max-memory"),
    (_PLOT, "--max-memory"),
    (_REPRO, "--max-memory"),
    (_COMPARE, "--max-work"),
    (_COMPARE, "--max-memory"),
    (["derive", "--h", "gini"], "--arms"),
    (["optimize", "--dr", "gini"], "--arms"),
    (_SIM_ARMS, "--arms"),
    (_SIM_ARMS, "--quantize"),
    (_SLOPES, "--arms"),
    (_SLOPES + ["--algo", "ce-ucb-m", "--arms", "beta(2,5);uniform(0.3,0.1)"], "--quantize"),
    (_PLOT_ARMS, "--arms"),
    (_PLOT_ARMS, "--quantize"),
]


def _with(argv: list[str], flag: str, value: str) -> list[str]:
    argv = list(argv)
    if flag == "--param":
        value = f"s={value}"
        argv = [a for i, a in enumerate(argv) if not (a == "--param" or (i and argv[i - 1] == "--param"))]
    if flag in argv:
        argv[argv.index(flag) + 1] = value
        return argv
    return argv + [flag, value]


@pytest.mark.parametrize("argv, flag", EXPRESSION_FLAGS, ids=[f"{a[0]}{f}" for a, f in EXPRESSION_FLAGS])
def test_no_user_string_is_evaluated(tmp_path, monkeypatch, capsys, argv, flag):
    """Code in any expression-taking flag: status 2, one line naming the flag, nothing runs, nothing written."""
    monkeypatch.chdir(tmp_path)
    for payload in PAYLOADS:
        code = main(_with(argv, flag, payload))
        out, err = capsys.readouterr()
        assert code == 2, (flag, payload, err)
        assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (flag, payload, err)
        assert f"argument '{flag}" in err, (flag, payload, err)
        assert not (tmp_path / "pwned").exists(), (flag, payload)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no output directory, no cache


@pytest.mark.parametrize("argv", [
    ["slopes", "--explore", "__import__('os').system('touch pwned')*0+T/10"],
    ["slopes", "--eps", "__import__('os').system('touch pwned')*0+1/T"],
    ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--out", "o", "--explore",
     "__import__('os').system('touch pwned')*0+T/10"],
    ["simulate", "--algo", "rs-ucb-m", "--dr", "__import__('os').system('touch pwned')", "--p", "0.4,0.9", "--T", "9"],
])
def test_no_user_string_is_evaluated_in_a_process(tmp_path, argv):
    """The reported exploit, through the installed console script: exit 2, one line, no file."""
    import subprocess
    import sys

    from pathlib import Path

    rsb = Path(sys.executable).with_name("rsb")
    cmd = [str(rsb)] if rsb.exists() else [sys.executable, "-m", "proofs_checks.cli"]
    proc = subprocess.run(cmd + argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not (tmp_path / "pwned").exists() and not any(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# the command line starts without the libraries
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["--help"],
    ["simulate", "--help"],
    ["simulate", "--algo", "nope", "--dr", "gini", "--p", "0.4,0.9", "--T", "100"],
    ["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "T/10"],
    ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--radius-scale", "0.1"],
    ["slopes", "--explore", "__import__('os')"],
    ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "uniform", "--out", "o", "--rho", "0.2"],
    ["reproduce", "vs-rho", "--out", "o", "--trials", "0"],
    ["compare", "--algos", "b-cvts", "--dr", "gini", "--p", "0.4,0.9", "--out", "o"],
    ["compare", "--help"],
    ["derive", "--h", "u.real"],
    ["optimize", "--dr", "gini", "--p", "0.4", "0.9"],
    ["optimize", "--dr", "gini", "--arms", "betta(2,5);uniform(0,1)"],
    ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--arms", "beta(2,5);bernoulli(1.5)", "--T", "100"],
    ["plot", "bounds", "--dr", "gini", "--arms", "beta(2,5);betta(1,1)", "--algo", "ce-ucb-m", "--out", "o"],
])
def test_help_and_argument_errors_import_nothing_heavy(tmp_path, argv):
    """Bad arguments and --help are answered before NumPy, SymPy or any simulation code is imported
    (:mod:`rsb_sim.options`, the names of the algorithms and the options they read, imports nothing)."""
    import subprocess
    import sys

    code = ("import contextlib, io, sys\nfrom proofs_checks.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    rc = main({argv!r})\n"
            "heavy = {'numpy', 'sympy', 'scipy', 'matplotlib', 'cvxpy', 'numba'}\n"
            "light = {'rsb_sim', 'rsb_sim.options',  # the algorithms and their options: no NumPy\n"
            "         'rsb_sim.interrupt', 'rsb_sim.dirlock', 'rsb_sim.files',  # signals, locks, errors: stdlib\n"
            "         'rsb_sim.jsontext'}  # strict JSON text: stdlib\n"
            "import rsb_sim.policies.catalog as cat\n"
            "light |= {'rsb_sim.policies', 'rsb_sim.policies.base', 'rsb_sim.policies.catalog',\n"
            "          'rsb_sim.policies._index'}  # the policies' declarations: no NumPy\n"
            "light |= {type(p).__module__ for p in cat.policies()}\n"
            "sim = {m for m in sys.modules if m.split('.')[0] == 'rsb_sim'} - light\n"
            "print(rc, sorted(({m.split('.')[0] for m in sys.modules} & heavy) | sim))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    rc, heavy = proc.stdout.split(" ", 1)
    assert heavy.strip() == "[]", proc.stdout
    assert rc == ("0" if "--help" in argv else "2")


# ---------------------------------------------------------------------------
# the defects a new user hit
# ---------------------------------------------------------------------------
def test_names_of_the_command_line_are_the_libraries():
    from proofs_checks.cli import names
    from rsb_sim.config import ALGORITHMS
    from rsb_theory.distortions import EXTENSIONS, REGISTRY
    from rsb_theory.grids import GRID_KINDS
    from rsb_theory.oracle import METHODS

    assert names.ALGORITHMS == ALGORITHMS and names.DISTORTIONS == tuple(REGISTRY)
    assert names.EXTENSIONS == tuple(EXTENSIONS)
    assert names.GRIDS == tuple(GRID_KINDS) and names.METHODS == tuple(METHODS)


def _validate(argv):
    from proofs_checks.cli import simulate
    from proofs_checks.cli.parser import build_parser

    return simulate.validate(build_parser().parse_args(argv))


@pytest.mark.parametrize("algo", ["rs-etc-m", "rs-ucb-m", "ce-ucb-m"])
def test_explore_is_pulls_per_arm_and_may_use_T_and_K(algo):
    base = ["simulate", "--algo", algo, "--dr", "gini", "--p", "0.4,0.9,0.6", "--T", "1000"]
    assert _validate(base + ["--explore", "T/10"]).config["explore"] == 100
    assert _validate(base + ["--explore", "T/(10*K)"]).config["explore"] == 34  # rounded up
    assert _validate(base + ["--explore", "T^(2/3)"]).config["explore"] == 100
    assert _validate(base + ["--explore", "3*10^1"]).config["explore"] == 30


def test_simulate_explore_expression_end_to_end(capsys):
    code, out, _ = run(capsys, "simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000",
                       "--trials", "2", "--radius-scale", "0.01", "--explore", "T/10", "--format", "json", "--quiet")
    d = json.loads(out)
    assert code == 0 and d["explore_per_arm"] == 100 and d["config"]["explore"] == 100


@pytest.mark.parametrize("algo, flag, value", [
    ("rs-etc-m", "--radius-scale", "0.01"), ("rs-etc-m", "--rho", "0.1"), ("rs-etc-m", "--threads", "2"),
    ("rs-ucb-m", "--threads", "2"),
    ("uniform", "--explore", "10"), ("uniform", "--eps", "0.1"), ("uniform", "--rho", "0.1"),
    ("uniform", "--radius-scale", "2"), ("uniform", "--threads", "1"),
])
def test_a_flag_the_algorithm_does_not_use_is_an_error(capsys, algo, flag, value):
    code, out, err = run(capsys, "simulate", "--algo", algo, "--dr", "gini", "--p", "0.4,0.9", "--T", "100",
                         flag, value)
    assert code == 2 and out == "" and f"argument '{flag}': {algo} does not use" in err


def test_rho_beside_explore_is_an_error(capsys):
    code, out, err = run(capsys, "simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100",
                         "--rho", "0.2", "--explore", "5")
    assert code == 2 and "argument '--rho': has no effect" in err


def test_probs_rows_rounded_to_six_decimals_are_renormalised(capsys):
    argv = ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--support", "0,0.5,1", "--probs",
            "0.333333,0.333333,0.333333;0.2,0.3,0.5", "--T", "60", "--trials", "2", "--eps", "0.5", "--quiet",
            "--format", "json"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "arm 1 sum to 0.999999; divided by the sum" in err and "arm 2" not in err
    probs = json.loads(out)["instance"]["probs"]
    assert probs[0] == pytest.approx([1 / 3] * 3) and probs[1] == [0.2, 0.3, 0.5]


@pytest.mark.parametrize("probs, needle", [
    ("0.5,0.25,0.2;0.2,0.3,0.5", "the masses of arm 1 sum to 0.95, not 1"),
    ("0.2,0.3,0.5;0.2,0.3,0.49", "the masses of arm 2 sum to 0.99, not 1"),
    ("0.2,0.3,0.5;0.5,0.5", "arm 2 has 2 masses, but --support has 3 points"),
    ("0.2,0.3,0.5;1.5,-0.25,-0.25", "arm 2 has the mass 1.5, not in [0, 1]"),
])
def test_probs_errors_name_the_arm_and_its_sum(capsys, probs, needle):
    code, out, err = run(capsys, "simulate", "--algo", "rs-etc-m", "--dr", "gini", "--support", "0,0.5,1",
                         "--probs", probs, "--T", "60")
    assert code == 2 and out == "" and f"argument '--probs': {needle}" in err


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4", "0.9", "--T", "10"],
     "argument '--p': takes one value, got '0.4' and then '0.9'; write lists with commas and no spaces, or quote "
     "them (e.g. --p 0.4,0.9)"),
    (["slopes", "--Ts", "1000", "2000"], "argument '--Ts': takes one value, got '1000' and then '2000'"),
    (["simulate", "--algo", "uniform", "--dr", "gini", "--T", "10", "--p", "-0.4,0.9"],
     "argument '--p': expected a value (e.g. --p 0.4,0.9); a value that starts with '-' is written --p=VALUE"),
    (["simulate", "--dr", "gini", "--p", "0.4,0.9"], "argument '--algo': required (e.g. --algo rs-ucb-m); also "
                                                     "missing: --T"),
    (["simulate", "--algo", "rs-ucb", "--dr", "gini", "--p", "0.4,0.9", "--T", "10"],
     "argument '--algo': unknown value 'rs-ucb' (did you mean rs-ucb-m?); write one of: rs-etc-m, rs-ucb-m, "
     "ce-ucb-m, uniform"),
    (["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "10", "--bogus", "1"],
     "argument '--bogus': unknown flag of rsb simulate"),
    (["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "10", "--r", "1"],
     "argument '--r': ambiguous abbreviation"),
    (["simulat"], "argument 'command': unknown command 'simulat'"),
    (["optimize", "--dr", "gini", "--p", "0.4,0.9", "--grid", "etc"], "argument '--grid': needs --eps"),
    (["derive", "--h", "gini", "--p", "0.4,1.2"], "argument '--p': the mean of arm 2 is 1.2, not in [0, 1]"),
    (["verify", "--jobs", "two"], "argument '--jobs': need an integer >= 1 (e.g. 1000, 1e3 or 3*10^5), got 'two'"),
])
def test_argparse_errors_name_the_flag_and_how_to_write_it(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert needle in err, err


def test_seed_above_2_to_the_53_keeps_its_digits():
    req = _validate(["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "10", "--seed",
                     "123456789012345678"])
    assert req.config["seed"] == 123456789012345678


#: Flags whose values are not expressions: paths, addresses, names checked against a list, and a figure's title
#: (``rsb compare --label``: text drawn, never evaluated).
NOT_EXPRESSIONS = {"--out", "--scheduler", "--algo", "--label"}


def test_every_value_flag_is_tried_with_code_carrying_strings():
    """Every flag that takes a value is in EXPRESSION_FLAGS (code-carrying strings are tried on it), or
    has argparse choices, or is a path/address/name (NOT_EXPRESSIONS): a new flag cannot skip the test."""
    import argparse

    from proofs_checks.cli.parser import build_parser

    tried = {(argv[0], flag) for argv, flag in EXPRESSION_FLAGS}
    missing = []

    def walk(action, prefix):
        for name, parser in action.choices.items():
            nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            if nested:
                walk(nested[0], prefix or name)
                continue
            for a in parser._actions:
                if not a.option_strings or a.nargs == 0 or a.choices is not None:
                    continue
                flag = a.option_strings[0]
                if flag not in NOT_EXPRESSIONS and ((prefix or name), flag) not in tried:
                    missing.append(f"{prefix or name} {flag}")

    walk(next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)), "")
    assert not missing, "flags never tried with code-carrying strings: " + ", ".join(missing)


# ---------------------------------------------------------------------------
# rsb compare (the competitors)
# ---------------------------------------------------------------------------
def test_compare_writes_the_tidy_csv_tests_and_figure_and_resumes(tmp_path):
    from proofs_checks.cli import main

    out = tmp_path / "cmp"
    argv = ["compare", "--algos", "ucb-fw,dr-ucb,u-ucb", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "60,120",
            "--trials", "3", "--radius-scale", "0.05", "--out", str(out), "--quiet", "--format", "json"]
    assert main(argv) == 0
    names = {p.name for p in out.iterdir()}
    assert {"compare.csv", "compare_tests.csv", "compare.png", "compare.pdf", "runs"} <= names
    rows = [ln for ln in (out / "compare.csv").read_text().splitlines() if not ln.startswith("#")]
    assert rows[0] == "algo,setting,multiplier,T,trial,regret,pseudo_regret,pulls_1,pulls_2"
    assert len(rows) == 1 + 3 * 2 * 3
    tests = [ln for ln in (out / "compare_tests.csv").read_text().splitlines() if not ln.startswith("#")]
    assert len(tests) == 1 + 2 * 2 * 3  # three pairs at each of two horizons, for each of the two metrics
    first = (out / "compare.csv").read_text()
    assert main(argv) == 0 and (out / "compare.csv").read_text() == first  # resumed from OUT/runs, same numbers


@pytest.mark.parametrize("bad, flag", [
    (["--algos", "ucb-fw,nope"], "--algos"),
    (["--algos", "ucb-fw,ucb-fw"], "--algos"),
    (["--algos", "cvar-ucb"], "--algos"),
    (["--Ts", "1"], "--Ts"),
    (["--trials", "1"], "--trials"),
    (["--p", "0.4,1.5"], "--p"),
    (["--algos", "ucb1", "--radius-scale", "0.1"], "--radius-scale"),  # ucb1 has no constant it scales
    (["--radius-scale", "0"], "--radius-scale"),
    (["--tune-grid", "0.1,1"], "--tune-grid"),  # only with --tune
    (["--tune-trials", "5"], "--tune-trials"),
    (["--tune-instances", "0.2,0.45"], "--tune-instances"),
    (["--tune", "", "--radius-scale", "0.1"], "--radius-scale"),  # --tune chooses the multiplier itself
    (["--algos", "ucb1,uniform", "--tune", ""], "--tune"),  # nothing to tune
    (["--tune", "", "--tune-grid", "0,1"], "--tune-grid"),
    (["--tune", "", "--tune-grid", "1"], "--tune-grid"),
    (["--tune", "", "--tune-instances", "0.2,1.5"], "--tune-instances"),
    (["--tune", "", "--tune-trials", "1"], "--tune-trials"),
    (["--Ts", "2,10", "--tune", "", "--tune-instances", "0.1,0.2,0.3"], "--tune-instances"),
    (["--label", " "], "--label"),
])
def test_compare_bad_input_is_one_line_naming_the_flag_and_writes_nothing(tmp_path, capsys, bad, flag):
    from proofs_checks.cli import main

    argv = ["compare", "--algos", "ucb-fw", "--dr", "gini", "--p", "0.4,0.9", "--out", str(tmp_path / "o"), "--quiet"]
    for i in range(0, len(bad), 2):
        j = argv.index(bad[i]) if bad[i] in argv else None
        if bad[i] == "--tune":  # a switch: no value
            argv.append("--tune")
        elif j is None:
            argv += bad[i:i + 2]
        else:
            argv[j + 1] = bad[i + 1]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"argument '{flag}'" in err[0]
    assert not (tmp_path / "o").exists()
