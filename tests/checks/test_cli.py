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
