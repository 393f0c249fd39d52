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
    (["derive", "--h", "u+1"], "argument 'h'"),
    (["derive", "--h", "__import__('os')"], "argument 'h'"),
    (["derive", "--h", "u**"], "argument 'h'"),
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
