"""``rsb reproduce mixture-vs-solitary``: mixture algorithms beside the solitary baselines, two instances."""

from __future__ import annotations

from dataclasses import replace

import pytest

from proofs_checks import experiments as ex
from proofs_checks.cli import main
from proofs_checks.outputs import read_csv
from proofs_checks.reproduce import COLUMNS, reproduce_one


def _small(exp, Ts=(300, 1200)):
    pts = tuple(replace(pt, x=T, T=T) for pt in exp.points if pt.T == exp.points[0].T for T in Ts)
    return replace(exp, points=pts)


def test_definition():
    e = ex.get_experiment("mixture-vs-solitary")
    assert "mixture-vs-solitary" not in ex.NAMES and "mixture-vs-solitary" in ex.COMMAND_NAMES
    assert e.panels == "series" and {"ucb1", "dr-ucb"} <= set(e.algos) and {"rs-ucb-m", "ce-ucb-m"} <= set(e.algos)
    assert {pt.p for pt in e.points} == {ex.MIXTURE_OPTIMAL, ex.SOLITARY}
    cfg = {r.algo: r.spec["config"] for r in e.runs(2, 0)}
    assert cfg["dr-ucb"]["radius_scale"] == cfg["rs-ucb-m"]["radius_scale"] == ex.RSB_RADIUS_SCALE
    assert cfg["ucb1"]["radius_scale"] == 1.0 and cfg["ucb1"]["explore"] is None  # reads neither


def test_small_run_draws_both_cases_with_the_floor(tmp_path):
    exp = _small(ex.get_experiment("mixture-vs-solitary"))
    res = reproduce_one(exp, tmp_path, trials=4, seed=2)
    rows = read_csv(res["csv"])
    assert tuple(rows[0].keys()) == COLUMNS and len(rows) == len(exp.runs(4, 2))
    gap = {r["series"]: float(r["best_arm_gap"]) for r in rows}
    mixture, solitary = (next(s for s in gap if s.startswith(k)) for k in ("mixture", "solitary"))
    assert gap[mixture] == pytest.approx(0.01) and gap[solitary] == pytest.approx(0.0, abs=1e-15)
    ucb1 = [float(r["mean_regret"]) for r in rows if r["algo"] == "ucb1" and r["series"] == mixture]
    assert min(ucb1) > gap[mixture]  # UCB1 follows the larger mean: 0.25 - h(0.9) = 0.16 in the limit
    cap = open(res["txt"]).read()
    assert "beyond the paper" in cap and "One panel per instance" in cap
    assert (tmp_path / "mixture-vs-solitary.png").stat().st_size > 1000


def test_cli_accepts_the_name_and_all_stays_the_papers_five(tmp_path, capsys):
    assert main(["reproduce", "mixture-vs-solitary", "--out", str(tmp_path / "o"), "--trials", "0"]) == 2
    assert "argument '--trials'" in capsys.readouterr().err and not (tmp_path / "o").exists()
    assert [e.name for e in ex.all_experiments()] == list(ex.NAMES)


@pytest.mark.parametrize("algo", ["ucb1", "dr-ucb"])
def test_no_bound_is_derived_for_a_baseline(algo):
    from proofs_checks.bound_rates import derived_rate

    x, y, why = derived_rate(algo, "experiments", None, 2, 1, 1, 1, False)
    assert x is None and y is None and "no bound in the paper" in why
