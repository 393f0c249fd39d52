"""Memory bounded by a budget stated before the work.

* Expressions: the structural budget of :mod:`rsb_theory.budgets` refuses, before SymPy runs, the
  exponents and degrees that took gigabytes or minutes (``u**(10**8)`` 10.9 GB, ``u**1e308``,
  ``u**1000`` minutes), for --h texts and for --param values alike; what the paper uses passes.
* Horizons: no route keeps an array of length T (RS-UCB-M's radius table reached 23.7 GB at
  T = 1e9); the peak resident memory of such a run, measured from a wrapper process with
  ``resource.getrusage``, stays small.
* Sizes: ``--max-memory`` (default 4 GiB) refuses, in validation and in one line naming the flag,
  runs whose estimate (:mod:`rsb_theory.workload`) is above it: many trials, recorded actions of a
  long horizon, a CSV of arm data with many distinct values (CVXPY took 15.2 GB for a 200 MB file).
* The estimates bound what is measured (peak RSS of real runs).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from rsb_theory import budgets, workload
from rsb_theory.distortions import DistortionError, U, resolve

RSB = [sys.executable, "-m", "proofs_checks.cli"]

# Runs a command as its child and prints the child's peak resident memory (kB) and its exit status as JSON:
# this process's RUSAGE_CHILDREN covers that one command only (the test session's would cover every child so far).
# With a delay, the child is sent SIGTERM after that many seconds (a run that would go on for hours).
_WRAPPER = """
import json, resource, signal, subprocess, sys, time
delay = float(sys.argv[1])
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if delay > 0:
    try:
        p.wait(delay)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
err = p.communicate()[1]
print(json.dumps({"status": p.returncode, "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "err": err}))
"""


def _measured(argv, cwd, stop_after: float = 0.0) -> dict:
    out = subprocess.run([sys.executable, "-c", _WRAPPER, str(stop_after)] + RSB + list(argv), cwd=cwd,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _refused(got: dict, flag: str) -> str:
    lines = got["err"].strip().splitlines()
    assert got["status"] == 2 and len(lines) == 1 and "Traceback" not in got["err"], got
    assert f"argument '{flag}'" in lines[0], lines[0]
    return lines[0]


# --- expressions -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["u**(10**8)", "(u**2)**(10**8)", "u**(2**64)", "u**1e308", "u**1000",
                                  "1-(1-u)**1000", "u**40*(1-u)**40", "(u**8)**9",
                                  "min(u, u**100)", "sqrt(u)**200"])
def test_the_issues_expressions_are_refused_before_sympy_runs(text):
    """Each is refused by the structural budget (a walk of the tree as built), naming h."""
    with pytest.raises(DistortionError, match=r"argument 'h':.*rsb_theory.budgets"):
        resolve(text)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(65, 10**30), form=st.sampled_from(["u**{n}", "(1-u)**{n}*u", "1-(1-u)**{n}",
                                                        "(u**2)**{h}", "u**({n}+1/3)", "u**{n}.5"]))
def test_any_large_exponent_or_degree_is_beyond_the_budget(n, form):
    expr = sp.sympify(form.format(n=n, h=n // 2 + 1, d=n + 10**5), locals={"u": U})
    assert budgets.structural_budget(expr, U) is not None


@settings(max_examples=40, deadline=None)
@given(a=st.integers(0, 32), b=st.integers(0, 32), q=st.integers(1, 10**17))
def test_degrees_within_the_budget_pass(a, b, q):
    """Products of degree <= 64 and exponents with any denominator (u**0.3, a float 1/3 as a parameter) pass."""
    expr = U ** a * (1 - U) ** b + U ** sp.Rational(1, q)
    assert budgets.structural_budget(expr, U) is None


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 10**6), q=st.integers(budgets.MAX_EXPONENT_DENOMINATOR + 1, 10**400))
def test_long_exponent_denominators_are_beyond_the_exact_budget(k, q):
    """u**(k/q) with q above 10^4 (reduced): the local expansion at p = 0.4 builds numbers of about q digits."""
    e = sp.Rational(k, q)
    assert (budgets.exact_budget(U ** e) is None) == (e.q <= budgets.MAX_EXPONENT_DENOMINATOR)


@pytest.mark.parametrize("depth, within", [(1, True), (2, True), (3, False), (50, False)])
def test_nested_functions_are_counted(depth, within):
    text = "sin(" * depth + "u" + ")" * depth
    expr = resolve_tree(text)
    assert budgets.function_depth(expr, U) == depth
    assert (budgets.structural_budget(expr, U) is None) is within


def resolve_tree(text: str):
    from rsb_theory.expressions import to_sympy

    return to_sympy(text, "h", {"u": U})


def _no_symbolic_work(monkeypatch):
    """Any SymPy analysis of h (validation, shape, Hölder data) fails the test: a refusal must come first."""
    import rsb_theory.distortions as dist

    def forbidden(*args, **kwargs):
        raise AssertionError("the symbolic analysis of h started before the budget refused it")

    monkeypatch.setattr(dist, "_make", forbidden)


_SLOW_WITHOUT_BUDGET = [  # each ran past 90 s in rsb derive --p or api.profile (never finished nor refused)
    (("--h", "u**1e-300"), "--h", False),
    (("--h", "pht", "--param", "s=5e-324"), "--param", False),
    (("--h", "sin(" * 50 + "u" + ")" * 50), "--h", True),
]


@pytest.mark.parametrize("args, flag, structural", _SLOW_WITHOUT_BUDGET, ids=["1e-300", "pht-5e-324", "nested-50"])
def test_derive_refuses_symbolic_work_beyond_the_budget(args, flag, structural, capsys, monkeypatch):
    """One line naming the flag, exit 2: the nesting before any symbolic analysis of h starts; an exponent with a
    denominator beyond the exact budget where Taylor's route cannot decide the local order at a mean (h' = 1e-300
    there), instead of SymPy's simplify building numbers of 10^300 digits."""
    from proofs_checks.cli.app import main

    if structural:
        _no_symbolic_work(monkeypatch)
    code = main(["derive", *args, "--p", "0.4,0.9"])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert f"argument '{flag}" in lines[0] and "rsb_theory.budgets" in lines[0], lines[0]


@pytest.mark.parametrize("text, q", [("u**63.999999999", "1"), ("u**0.1234567", "1234567/10000000")])
def test_long_denominators_take_taylors_route(text, q):
    """u**63.999999999 and u**0.1234567 ran for minutes in the exact expansion at p = 0.4; Taylor's route decides."""
    from proofs_checks.instance_reports import derive_report

    out = derive_report(text, {}, [0.4, 0.9])
    assert out["q"] == q and out["r"] == "1"


def test_the_api_has_the_same_budget(monkeypatch):
    """api.profile on fifty nested functions (which the parser's depth of 60 admits) is refused like the command line."""
    from proofs_checks import api

    # a Python float as a parameter (3333333333333333/10^16) is common: Taylor's route, no refusal
    assert api.profile("pht", params={"s": 1 / 3}, p=[0.4, 0.9])["r"] == "1"
    _no_symbolic_work(monkeypatch)
    with pytest.raises(ValueError, match=r"argument 'h': functions of u are nested 50 deep"):
        api.profile("sin(" * 50 + "u" + ")" * 50, p=[0.4, 0.9])


@pytest.mark.parametrize("name, s", [("dual_power", "65"), ("dual_power", "1000"), ("dual_power", "2**64")])
def test_a_parameter_value_is_within_the_budget_too(name, s):
    """--param values go into h before the budget is checked (and before SymPy simplifies): named --param."""
    with pytest.raises(DistortionError, match=r"argument '--param'"):
        resolve(name, s=s)
    with pytest.raises(DistortionError, match=r"argument 'h'"):
        resolve("u**s", s=s)


def test_the_registry_is_within_the_budget():
    from rsb_theory.distortions import FAMILIES

    for name in FAMILIES:
        assert budgets.structural_budget(resolve(name).expr, U) is None, name


def test_derive_refuses_in_one_line_with_little_memory(tmp_path):
    """rsb derive --h "u**(10**8)" --p 0.4,0.9 took 10.9 GB in 30 s: now one line, exit 2, the memory of a start-up."""
    got = _measured(["derive", "--h", "u**(10**8)", "--p", "0.4,0.9"], tmp_path)
    assert "larger than 64" in _refused(got, "--h")
    assert got["peak_kb"] < 600_000, got


# --- horizons -------------------------------------------------------------------------------------------------------

def test_a_horizon_of_1e9_keeps_no_array_of_length_T(tmp_path):
    """RS-UCB-M, one trial of T = 1e9 (23.7 GB before: a radius table of T + 1 floats), stopped after 8 s: the
    peak stays within the estimate, far below 8 GB (8 bytes per step)."""
    argv = ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e9", "--trials", "1",
            "--quiet"]
    got = _measured(argv, tmp_path, stop_after=8.0)
    assert got["status"] in (143, 0), got
    est = workload.simulate_memory("rs-ucb-m", 2, 10**9, 1, (2 * math.log(1e9) / 1e9) ** 0.5, state="ucb", grid="ucb")
    assert got["peak_kb"] * 1024 < est.bytes < 2 << 30, (got, est)


# --- sizes ----------------------------------------------------------------------------------------------------------

def test_many_trials_are_refused_naming_max_memory_and_accepted_above_it(tmp_path):
    argv = ["simulate", "--algo", "ce-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1000", "--trials", "1e6"]
    line = _refused(_measured(argv, tmp_path), "--max-memory")
    assert "memory estimate" in line and "raise --max-memory" in line
    est = workload.simulate_memory("ce-ucb-m", 2, 1000, 10**6, 0.1, state="ucb", grid="ucb")
    assert est.bytes > workload.DEFAULT_MAX_MEMORY
    # a limit above the estimate passes validation (the work limit is then what refuses)
    got = _measured(argv + ["--max-memory", "64G", "--max-work", "10"], tmp_path)
    assert "argument '--max-work'" in _refused(got, "--max-work")


def test_recorded_actions_of_a_long_horizon_count(tmp_path):
    argv = ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "1e9", "--trials", "1",
            "--record", "T/2", "--max-memory", "1G"]
    assert "recorded actions" in _refused(_measured(argv, tmp_path), "--max-memory")


@pytest.mark.parametrize("text", ["1x", "-4G", "0", "G"])
def test_a_bad_max_memory_is_refused(text, tmp_path):
    argv = ["optimize", "--dr", "gini", "--p", "0.4,0.9", "--max-memory", text]
    _refused(_measured(argv, tmp_path), "--max-memory")


def test_units_of_max_memory():
    assert workload.parse_bytes("4G") == 4 << 30 and workload.parse_bytes("512MiB") == 512 << 20
    assert workload.parse_bytes("0.5g") == 512 << 20 and workload.parse_bytes("2^32") is None


def test_a_csv_of_many_distinct_values_is_refused_before_cvxpy(tmp_path):
    """optimize --arms empirical(...) with 200 000 distinct values per arm: CVXPY would take about 1 kB per level
    and arm; with --max-memory 600M it is refused in one line before the program is built (its peak stays
    near the start-up's)."""
    import numpy as np

    rng = np.random.default_rng(0)
    data = tmp_path / "arms.csv"
    with open(data, "w") as fh:
        fh.write("a,b\n")
        for x, y in zip(rng.beta(2, 5, 200_000), rng.beta(5, 2, 200_000)):
            fh.write(f"{x:.9f},{y:.9f}\n")
    argv = ["optimize", "--dr", "gini", "--arms", f"empirical({data}:a);empirical({data}:b)", "--max-memory", "600M"]
    got = _measured(argv, tmp_path)
    line = _refused(got, "--max-memory")
    assert "distinct values" in line and "CVXPY" in line
    assert got["peak_kb"] < 600 * 1024, got


def test_estimates_bound_measured_peaks(tmp_path):
    """Peak RSS of real runs (wrapper process, getrusage) below their estimates."""
    for algo, trials, T in (("ce-ucb-m", 20_000, 300), ("rs-etc-m", 200_000, 300)):
        argv = ["simulate", "--algo", algo, "--dr", "gini", "--p", "0.4,0.9", "--T", str(T), "--trials", str(trials),
                "--quiet"]
        got = _measured(argv, tmp_path)
        assert got["status"] == 0, got
        eps = (2 * math.log(T) / T) ** 0.5  # the experiments' default eps
        est = workload.simulate_memory(algo, 2, T, trials, eps, state={"ce-ucb-m": "ucb", "rs-etc-m": "other"}[algo],
                                       grid={"ce-ucb-m": "ucb", "rs-etc-m": "etc"}[algo])
        assert got["peak_kb"] * 1024 < est.bytes, (algo, got["peak_kb"], est)


# ---------------------------------------------------------------------------
# every command that takes --trials, --Ts, --bootstrap, --jobs or --chunk: estimated before any allocation
# ---------------------------------------------------------------------------
def _refused_in_process(capsys, argv, flag):
    from proofs_checks.cli import main

    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert code == 2, (code, out.err[-400:])
    lines = [ln for ln in out.err.split("\n") if ln]
    assert len(lines) == 1 and "Traceback" not in out.err, out.err
    assert f"argument '{flag}'" in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("argv, flag", [
    # the list of chunks: 1e8 entries before any trial runs
    (["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "2", "--trials", "1e8", "--chunk",
      "1", "--out", "OUT"], "--max-memory"),
    (["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "2", "--trials", "1e7", "--chunk",
      "1", "--out", "OUT", "--max-memory", "64G"], "--chunk"),
    (["slopes", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--trials", "1e7", "--chunk", "1", "--out",
      "OUT", "--max-work", "1e18", "--max-memory", "1T"], "--chunk"),
    (["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "1e7",
      "--chunk", "1", "--out", "OUT", "--max-work", "1e18", "--max-memory", "1T"], "--chunk"),
    # the bootstrap: 1e9 replicates of 100 trials
    (["slopes", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--bootstrap", "1e9", "--out", "OUT"],
     "--max-memory"),
    # rsb compare had no budget at all
    (["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--trials", "1e18", "--out", "OUT"],
     "--max-work"),
    (["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--trials", "1e6",
      "--out", "OUT", "--max-memory", "300M"], "--max-memory"),
    (["compare", "--algos", "rs-etc-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--jobs", "1e18", "--out", "OUT"],
     "--jobs"),
    # rsb reproduce had no memory budget
    (["reproduce", "vs-gap", "--trials", "1e12", "--out", "OUT"], "--max-memory"),
    (["reproduce", "vs-gap", "--trials", "1e7", "--chunk", "1", "--out", "OUT", "--max-memory", "1T"], "--chunk"),
])
def test_lists_and_arrays_are_estimated_before_any_allocation(tmp_path, capsys, argv, flag):
    out = tmp_path / "D"
    _refused_in_process(capsys, [str(out) if a == "OUT" else a for a in argv], flag)
    assert not out.exists()  # nothing written: not even D/runs


def test_chunk_list_and_bootstrap_estimates():
    assert workload.chunk_list_memory(1, 10**8, 1) == 10**8 * workload.CHUNK_BYTES
    assert workload.chunk_list_memory(3, 1000, None) == 3 * workload.CHUNK_BYTES
    assert workload.chunk_count(1001, 1000) == 2
    m = workload.bootstrap_memory(10**9, 100, 4)
    assert m.bytes > 74 << 30 and "bootstrap" in m.what  # the 74.5 GiB of the traceback, and more


# ---------------------------------------------------------------------------
# every float flag of every subcommand at its extremes: one line naming a flag, or a normal (small) run
# ---------------------------------------------------------------------------
_BASE = {
    "simulate": ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "60", "--trials", "2",
                 "--quiet", "--out", "OUT"],
    "optimize": ["optimize", "--dr", "gini", "--p", "0.4,0.9"],
    "slopes": ["slopes", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "60,120", "--trials", "2",
               "--quiet", "--out", "OUT"],
    "compare": ["compare", "--algos", "rs-ucb-m,uniform", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "60,120",
                "--trials", "2", "--quiet", "--out", "OUT"],
    "plot": ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--Ts", "60,120", "--trials",
             "2", "--quiet", "--out", "OUT"],
    "reproduce": ["reproduce", "vs-gap", "--trials", "2", "--quiet", "--out", "OUT"],
}
_FLAGS = {
    "simulate": ["--eps", "--rho", "--radius-scale", "--T", "--trials", "--explore", "--chunk", "--max-work",
                 "--max-memory", "--quantize", "--threads", "--p"],
    "optimize": ["--eps", "--max-work", "--max-memory", "--p"],
    "slopes": ["--eps", "--rho", "--radius-scale", "--trials", "--bootstrap", "--tol", "--jobs", "--chunk",
               "--max-work", "--max-memory", "--Ts"],
    "compare": ["--radius-scale", "--trials", "--jobs", "--chunk", "--max-work", "--max-memory", "--Ts"],
    "plot": ["--rho", "--radius-scale", "--trials", "--jobs", "--chunk", "--max-work", "--max-memory", "--Ts"],
    "reproduce": ["--trials", "--jobs", "--chunk", "--max-memory"],
}
#: The extremes: the smallest subnormal, a subnormal whose reciprocal overflows, the largest floats (whose square,
#: reciprocal-product or product with T overflows), and what is not a number (1e18 counts: the budget tests above).
_EXTREMES = ["5e-324", "1e-320", "1e308", "nan"]


def _with(argv, flag, value):
    argv = list(argv)
    if flag == "--p":
        value = f"0.4,{value}"
    if flag == "--Ts":
        value = f"60,{value}"
    if flag in argv:
        argv[argv.index(flag) + 1] = value
    else:
        argv += [flag, value]
    return argv


@pytest.mark.parametrize("value", _EXTREMES)
@pytest.mark.parametrize("command, flag", [(c, f) for c, fs in _FLAGS.items() for f in fs])
def test_every_float_flag_at_its_extremes(tmp_path, capsys, command, flag, value):
    from proofs_checks.cli import main

    out = tmp_path / "D"
    argv = _with([str(out) if a == "OUT" else a for a in _BASE[command]], flag, value)
    code = main(argv)
    got = capsys.readouterr()
    assert "Traceback" not in got.err and code in (0, 2), (argv, code, got.err[-500:])
    if code == 2:
        lines = [ln for ln in got.err.split("\n") if ln]
        assert len(lines) == 1 and "argument '" in lines[0], got.err


# --- the shape budget: slow symbolic routes skipped, by counts, for numeric or Taylor routes with the same answers ---

_EIGHT = "*".join(["(1-(1-u)**8)"] * 8)


@pytest.mark.parametrize("text", [_EIGHT, "min(u, (1-u)**0.7)"])
def test_beyond_the_shape_budget_no_slow_symbolic_route_runs(text, monkeypatch):
    """Each took 17 s on an idle machine (90 s and more under load) in SymPy's minimum, solveset and expansions.

    Beyond :func:`rsb_theory.budgets.shape_budget` (degree 64; a breakpoint that is a root of a degree-10
    polynomial) h is validated, classified and its Hölder data at an instance derived without them.
    """
    import rsb_theory.distortions as dist
    import rsb_theory.gap as gap
    import rsb_theory.holder as hol

    from rsb_theory.distortions import _pieces

    expr = resolve_tree(text)
    assert budgets.shape_budget(_pieces(expr), U) is not None
    _forbid = _forbidder(monkeypatch)
    _forbid(sp.calculus.util, "minimum")
    _forbid(sp.calculus.util, "maximum")
    _forbid(dist, "_sign_on_unit_interval")
    _forbid(hol, "_sup_abs_derivative")
    _forbid(gap, "_sign_on_unit_interval_on")
    d = resolve(text)
    assert d.validation.method_range == "numeric"
    res = hol.holder(d, (0.4, 0.9))
    assert res.q == 1 and res.L_method == "numeric"
    assert not gap.beta_monotone(d, [0.4, 0.9]).applies


def _forbidder(monkeypatch):
    def forbid(module, name):
        def forbidden(*args, **kwargs):
            raise AssertionError(f"{module.__name__}.{name} ran beyond the budget")

        monkeypatch.setattr(module, name, forbidden)

    return forbid


@pytest.mark.parametrize("text, interval", [("1-(1-u)**3", (0.2, 0.7)), ("u*(1-u)**2", (0, 1)), ("sqrt(u)-u", (0.3, 0.9)),
                                            ("min(2*u, 1)*(1-u/4)", (0.1, 0.8)), ("(1+1/2)*u-u**2/2", (0, 1))])
def test_sup_of_h_prime_two_routes(text, interval):
    """The numeric route beyond the budget and the symbolic one within it give the same L_H (q = 1)."""
    from rsb_theory.holder import _sup_abs_derivative, _sup_abs_derivative_numeric

    d = resolve(text)
    exact = float(_sup_abs_derivative(d, *[sp.Rational(str(x)) for x in interval]))
    assert _sup_abs_derivative_numeric(d, *interval) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("text, c", [("1-(1-u)**3", "2/5"), ("u*(1-u)**2", "1/3"), ("sqrt(u)-u", "1/4"),
                                     ("u*(1-u)", "1/2"), ("min(u, 1-u)", "1/2"), ("1-(1-u)**3", "1/2"),
                                     ("sin(pi*u/2)", "7/10")])
def test_local_orders_two_routes(text, c):
    """Taylor's route (beyond the budget) and the expansion (within it) give the same order and coefficient."""
    from rsb_theory.distortions import _pieces
    from rsb_theory.holder import _piece_at, _taylor_order, local_order

    d = resolve(text)
    c = sp.Rational(c)
    for side in (+1, -1):
        expansion = local_order(d, c, side)
        taylor = _taylor_order(_piece_at(_pieces(d.expr), c, side), c, side, d.expr)
        assert taylor is not None
        assert taylor.order == expansion.order
        assert float(taylor.coeff) == pytest.approx(float(expansion.coeff), rel=1e-12, abs=1e-15)
