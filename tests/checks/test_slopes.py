"""proofs_checks.slopes, ``rsb slopes``, the slope and theorem-vs-experiment ledger entries."""

import json

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks import slopes
from proofs_checks.cli import main
from rsb_theory import rates


def _synthetic(Ts, power, trials=40, seed=0, noise=0.2):
    rng = np.random.default_rng(seed)
    return [T ** power * (1 + noise * rng.standard_normal(trials)).clip(0.01) for T in Ts]


@settings(max_examples=25, deadline=None)
@given(power=st.floats(-1.5, 0.2), seed=st.integers(0, 1000))
def test_fit_recovers_power_law(power, seed):
    Ts = [1000, 2000, 4000, 8000, 16000]
    fit = slopes.fit_slope(Ts, _synthetic(Ts, power, seed=seed), n_boot=300, seed=seed)
    assert abs(fit.slope - power) < 0.12
    assert fit.ci_low <= fit.slope <= fit.ci_high
    assert fit.ci_low - 0.05 <= power <= fit.ci_high + 0.05


def test_log_correction_removes_log_factor():
    Ts = [10**3, 10**4, 10**5, 10**6]
    regs = [np.full(5, T ** -0.5 * np.log(T) ** 0.5) for T in Ts]
    fit = slopes.fit_slope(Ts, regs, n_boot=50, log_power=0.5)
    assert abs(fit.slope_log_corrected + 0.5) < 1e-9
    assert fit.slope > -0.5  # the log factor flattens the raw slope


def test_nonpositive_means_are_excluded_or_no_slope():
    Ts = [100, 200, 400]
    fit = slopes.fit_slope(Ts, [np.zeros(4), np.full(4, 0.1), np.full(4, 0.05)], n_boot=50)
    assert fit.excluded_T == (100,) and abs(fit.slope + 1) < 1e-9
    none = slopes.fit_slope(Ts, [np.zeros(4), np.zeros(4), np.full(4, 0.05)], n_boot=50)
    assert none.slope is None and none.ci_low is None and none.excluded_T == (100, 200)


def test_bootstrap_is_seeded():
    Ts = [1000, 4000, 16000]
    regs = _synthetic(Ts, -0.5, seed=3)
    a = slopes.fit_slope(Ts, regs, n_boot=200, seed=9)
    b = slopes.fit_slope(Ts, regs, n_boot=200, seed=9)
    c = slopes.fit_slope(Ts, regs, n_boot=200, seed=10)
    assert a == b and (a.ci_low, a.ci_high) != (c.ci_low, c.ci_high)


@pytest.mark.parametrize("q,r", [(1, 2), (1, 1), (sp.Rational(1, 2), sp.Rational(1, 2))])
def test_ucb_experiments_exponent_matches_symbolic_reader(q, r):
    # independent route: read the exponents of the printed eps-dependent bound with eps = sqrt(K log T / T)
    eps_e = sp.sqrt(rates.K * sp.log(rates.T) / rates.T)
    disc = rates.ucb_bound_eps().discrete_regret.subs({rates.q: q, rates.eps: eps_e})
    delta = rates.delta_error_bound().subs({rates.r: r, rates.eps: eps_e})
    terms = [rates.term_exponents(disc), rates.term_exponents(delta)]
    slowest = max(terms, key=lambda t: (float(t.T_exponent), float(t.log_exponent)))
    e, y, _src = slopes.derived_rate("rs-ucb-m", "experiments", 0.5, 0.5, float(q), float(r), 2.0, False)
    assert abs(e + float(slowest.T_exponent)) < 1e-9 and abs(y - float(slowest.log_exponent)) < 1e-9


def test_theorem_rule_matches_table_rates():
    tr = rates.table_rates(1, 2, 2, False)
    e, y, _ = slopes.derived_rate("rs-ucb-m", "theorem", 0, 0, 1.0, 2.0, 2.0, False)
    assert abs(e - float(tr.ucb_exponent) / 2) < 1e-12 and abs(e - 1 / 3) < 1e-12
    e, y, _ = slopes.derived_rate("rs-etc-m", "theorem", 0, 0, 1.0, 2.0, 2.0, False)
    assert abs(e - 1 / 3) < 1e-12  # gamma e/2 = (2/3)(1)/2
    e, y, _ = slopes.derived_rate("rs-etc-m", "theorem", 0, 0, 1.0, 1.0, 1.0, True)
    assert e == 1.0 and y == 1.0


def test_eps_schedule_exponents():
    _e, a, b = slopes.eps_schedule("experiments", "rs-ucb-m", 2)
    assert (a, b) == (0.5, 0.5)
    _e, a, b = slopes.eps_schedule("0.05", "rs-ucb-m", 2)
    assert (a, b) == (0.0, 0.0)
    with pytest.raises(ValueError, match="argument 'eps'"):
        slopes.eps_schedule("x + T", "rs-ucb-m", 2)


@pytest.mark.parametrize("kw,arg", [({"algo": "nope"}, "algo"), ({"Ts": (100,)}, "Ts"), ({"Ts": (200, 100)}, "Ts"),
                                    ({"trials": 1}, "trials"), ({"n_boot": 2}, "n_boot"), ({"tol": -1.0}, "tol")])
def test_request_validation(kw, arg):
    with pytest.raises(ValueError, match=f"argument '{arg}'"):
        slopes.SlopeRequest(**kw)


def test_measure_caches_and_flags_degenerate(tmp_path):
    req = slopes.SlopeRequest(algo="rs-etc-m", Ts=(200, 400, 800), trials=4, n_boot=20)
    r1 = slopes.measure(req, tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len([f for f in files if f.endswith(".json")]) == 3
    r2 = slopes.measure(req, tmp_path)
    assert r1.mean_regret == r2.mean_regret and sorted(p.name for p in tmp_path.iterdir()) == files
    assert r1.degenerate and r1.warnings and abs(r1.slope) < 1e-9  # never commits: uniform sampling
    over = slopes.measure(slopes.SlopeRequest(algo="rs-etc-m", Ts=(200, 400, 800), trials=4, n_boot=20,
                                              explore="T/10"), None)
    assert not over.degenerate and any("replaces N(eps)" in n for n in over.notes)


def test_cli_slopes_json_and_errors(capsys):
    rc = main(["slopes", "--algo", "rs-etc-m", "--Ts", "200,400", "--trials", "3", "--bootstrap", "20",
               "--no-cache", "--quiet", "--format", "json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == 1
    for k in ("slope", "ci_low", "ci_high", "derived_exponent", "consistent", "degenerate"):
        assert k in out[0]
    for argv, flag in ((["--algo", "bad"], "--algo"), (["--Ts", "400,200"], "--Ts"), (["--eps", "zz(T"], "--eps"),
                       (["--p", "0.4"], "--p"), (["--trials", "1"], "--trials")):
        rc = main(["slopes", "--no-cache", "--quiet"] + argv)
        err = capsys.readouterr().err
        assert rc == 2 and f"argument '{flag}'" in err


def test_slope_ledger_entries_and_theorem_entries():
    from proofs_checks.checks import slopes_gini, theorems_experiments

    r = slopes_gini.check("rs-ucb-m", "gini")
    assert r.id == "corollary:RS-UCB-M#slope.gini" and r.status == "conditional" and r.method == "simulation"
    assert "degenerate = True" in r.evidence
    for part in theorems_experiments.PARTS:
        res = theorems_experiments.check(part)
        assert res.id == theorems_experiments.IDS[part] and res.status == "vacuous"
