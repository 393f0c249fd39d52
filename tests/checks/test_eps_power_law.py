"""``rsb slopes --eps EXPR``: an eps schedule must be a power law in T, refused in one line before any run.

The derived slope reads eps ~ T^-a (log T)^b with SymPy's limit; ``--eps "sin(1e9*T)"`` (valid at every horizon
given) made that limit run for more than a minute, after the runs.
"""

from __future__ import annotations

import ast

import pytest

from proofs_checks.cli.app import main
from proofs_checks.eps_rules import check_eps_rule, power_law
from rsb_theory import expressions as ex

BASE = ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "2",
        "--bootstrap", "10", "--no-cache", "--quiet"]


@pytest.mark.parametrize("rule", ["sin(1e9*T)", "exp(-T/1000)", "1/(1+sin(T)^2)", "T^-1*cos(T)^2"])
def test_non_power_law_eps_refused(rule, capsys):
    assert main(BASE + ["--eps", rule]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument '--eps'" in err[0] and "power law" in err[0]


@pytest.mark.parametrize("rule", ["sqrt(K*log(T)/T)", "T^(-1/3)", "0.1", "log(log(T))/log(T)", "(T+1)^-0.5*log(K*T)",
                                  "0.5*sin(1)"])
def test_power_law_eps_accepted(rule):
    assert power_law(ex.check(rule, "eps", ("T", "K")))
    check_eps_rule(rule, 2, (100, 200))


def test_power_law_reads_the_tree():
    assert not power_law(ast.parse("T**T", mode="eval").body)
    assert power_law(ast.parse("T**(K/2)", mode="eval").body)
