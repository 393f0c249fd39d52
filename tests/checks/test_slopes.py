"""proofs_checks.slopes, slope_fit, bound_rates, ``rsb slopes``, the slope and theorem-vs-experiment ledger entries."""

import json

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks import bound_rates, slopes
from proofs_checks.cli import main
from proofs_checks.slope_fit import fit_slope
from rsb_theory import rates


def _synthetic(Ts, power, trials=40, seed=0, noise=0.2):
    rng = np.random.default_rng(seed)
    return [T ** power * (1 + noise * rng.standard_normal(trials)).clip(0.01) for T in Ts]


@settings(max_examples=25, deadline=None)
@given(power=st.floats(-1.5, 0.2), seed=st.integers(0, 1000))
def test_fit_recovers_power_law(power, seed):
    Ts = [1000, 2000, 4000, 8000, 16000]
    fit = fit_slope(Ts, _synthetic(Ts, power, seed=seed), n_boot=300, seed=seed)
    assert abs(fit.slope - power) < 0.12
    assert fit.ci_low <= fit.slope <= fit.ci_high
    assert fit.ci_low - 0.05 <= power <= fit.ci_high + 0.05


def test_log_correction_removes_log_factor():
    Ts = [10**3, 10**4, 10**5, 10**6]
    regs = [np.full(5, T ** -0.5 * np.log(T) ** 0.5) for T in Ts]
    fit = fit_slope(Ts, regs, n_boot=50, log_power=0.5)
    assert abs(fit.slope_log_corrected + 0.5) < 1e-9
    assert fit.slope > -0.5  # the log factor flattens the raw slope


def test_nonpositive_means_are_excluded_or_no_slope():
    Ts = [100, 200, 400]
    fit = fit_slope(Ts, [np.zeros(4), np.full(4, 0.1), np.full(4, 0.05)], n_boot=50)
    assert fit.excluded_T == (100,) and abs(fit.slope + 1) < 1e-9
    none = fit_slope(Ts, [np.zeros(4), np.zeros(4), np.full(4, 0.05)], n_boot=50)
    assert none.slope is None and none.ci_low is None and none.excluded_T == (100, 200)


def test_bootstrap_is_seeded():
    Ts = [1000, 4000, 16000]
    regs = _synthetic(Ts, -0.5, seed=3)
    a = fit_slope(Ts, regs, n_boot=200, seed=9)
    b = fit_slope(Ts, regs, n_boot=200, seed=9)
    c = fit_slope(Ts, regs, n_boot=200, seed=10)
    assert a == b and (a.ci_low, a.ci_high) != (c.ci_low, c.ci_high)


def _table(algo, a, b, q, r, beta, solitary):
    """The bounds' exponents along eps ~ T^-a (log T)^b worked out by hand (the other route):

    ====================  ============================  =====================
    term                  T-exponent x                  log power y
    ====================  ============================  =====================
    UCB discrete          -(q/2)(1 - a)                 q/2 - q b/2
    ETC discrete, mixture 2 a beta - q                  q - 2 b beta
    ETC discrete, solit.  -q                            q
    Delta(eps)            -a r                          b r
    ====================  ============================  =====================
    """
    if algo != "rs-etc-m":
        terms = [(-(q / 2) * (1 - a), q / 2 - q * b / 2), (-a * r, b * r)]
    elif solitary:
        terms = [(-q, q)]
    else:
        terms = [(2 * a * beta - q, q - 2 * b * beta), (-a * r, b * r)]
    return max(terms)


@pytest.mark.parametrize("algo", ["rs-ucb-m", "rs-etc-m"])
@pytest.mark.parametrize("q,r,beta,solitary", [(1, 2, 2, False), (sp.Rational(1, 2), sp.Rational(1, 2), 1, False),
                                               (1, 1, 1, True)])
@pytest.mark.parametrize("eps,ab", [("experiments", (0.5, 0.5)), ("0.05", (0, 0)), ("T^(-1/3)", (1 / 3, 0)),
                                    ("(log(T)/T)^(1/4)", (0.25, 0.25))])
def test_derived_slope_read_off_the_theorems_matches_the_hand_table(algo, q, r, beta, solitary, eps, ab):
    K = 2
    e, a, b = bound_rates.eps_schedule(eps, algo, K)
    assert (a, b) == pytest.approx(ab)
    x, y, src = bound_rates.derived_rate(algo, eps, e, K, q, r, beta, solitary)
    a, b = (sp.Rational(v).limit_denominator(1000) for v in (a, b))  # exact, so that ties between terms stay ties
    want = _table(algo, a, b, sp.sympify(q), sp.sympify(r), sp.sympify(beta), solitary)
    assert (x, y) == pytest.approx(tuple(float(v) for v in want), abs=1e-9)
    assert "slowest term" in src


def test_theorem_rule_matches_table_rates():
    tr = rates.table_rates(1, 2, 2, False)
    x, y, _ = bound_rates.derived_rate("rs-ucb-m", "theorem", None, 2, 1, 2, 2, False)
    assert abs(-x - float(tr.ucb_exponent) / 2) < 1e-12 and abs(x + 1 / 3) < 1e-12
    x, y, _ = bound_rates.derived_rate("rs-etc-m", "theorem", None, 2, 1, 2, 2, False)
    assert abs(x + 1 / 3) < 1e-12  # gamma e/2 = (2/3)(1)/2
    x, y, _ = bound_rates.derived_rate("rs-etc-m", "theorem", None, 2, 1, 1, 1, True)
    assert x == -1.0 and y == 1.0


def test_eps_schedule_exponents():
    _e, a, b = bound_rates.eps_schedule("experiments", "rs-ucb-m", 2)
    assert (a, b) == (0.5, 0.5)
    _e, a, b = bound_rates.eps_schedule("0.05", "rs-ucb-m", 2)
    assert (a, b) == (0.0, 0.0)
    with pytest.raises(ValueError, match="argument 'eps'"):
        bound_rates.eps_schedule("x + T", "rs-ucb-m", 2)


@pytest.mark.parametrize("x,y,text", [(-0.25, 0.25, "T^(-0.25) (log T)^(+0.25)"), (0.9608, -0.9608, "T^(+0.9608) (log T)^(-0.9608)"),
                                      (-1.0, 0.0, "T^(-1)"), (0.0, 0.0, "T^(0)"), (None, None, "none")])
def test_rates_print_one_sign_convention(x, y, text):
    """The exponent of T in the regret with its sign: never 'T^--1.22' for a growing bound."""
    assert bound_rates.format_rate(x, y) == text
    assert "--" not in bound_rates.format_rate(x, y)


@pytest.mark.parametrize("kw,arg", [({"algo": "nope"}, "algo"), ({"Ts": (100,)}, "Ts"), ({"Ts": (200, 100)}, "Ts"),
                                    ({"trials": 1}, "trials"), ({"n_boot": 2}, "n_boot"), ({"tol": -1.0}, "tol"),
                                    ({"algo": "rs-etc-m", "radius_scale": 0.1}, "radius_scale"),
                                    ({"algo": "rs-etc-m", "rho": 0.2}, "rho"),
                                    ({"algo": "rs-ucb-m", "rho": 0.2, "explore": "T/10"}, "rho"),
                                    ({"algo": "uniform", "explore": "5"}, "explore"),
                                    ({"algo": "uniform", "eps": "0.1"}, "eps"),
                                    ({"explore": "T/1000", "Ts": (100, 2000)}, "explore"),
                                    ({"eps": "T/10", "Ts": (100, 200)}, "eps")])
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
    assert not over.degenerate and any("replaces the ceil(N(eps)/K) pulls per arm" in n for n in over.notes)


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
    # the theorem's bound is informative at none of the simulated horizons: vacuous first
    assert r.id == "corollary:RS-UCB-M#slope.gini" and r.status == "vacuous" and r.method == "simulation"
    assert "degenerate = True" in r.evidence and "informative at none" in r.evidence
    c = slopes_gini.CLAIMS["corollary:RS-UCB-M#slope.gini"]
    assert [m.run().status for m in slopes_gini.mutants(c, r)] == ["verified"]  # the measured decay alone
    for part in theorems_experiments.PARTS:
        res = theorems_experiments.check(part)
        assert res.id == theorems_experiments.IDS[part] and res.status == "vacuous"


def test_vacuous_slope_entries_never_say_a_growing_regret_holds():
    """Where the theorem's bound says nothing, the entry's claim is the bound (which holds) and the measured regret is
    said as measured: RS-UCB-M on Gini (0.1, 0.3) with the overrides grows, and the sentence says so."""
    from proofs_checks.checks import slopes_gini
    from proofs_checks.findings import sentence

    for ident in ("corollary:RS-UCB-M#slope.gini_solitary", "theorem:RS-ETC-M#slope.gini_solitary"):
        c = slopes_gini.CLAIMS[ident]
        r = c.run()
        assert r.status == "vacuous" and "'s bound on the regret" in r.claim
        assert "cannot be contradicted" in r.derived and "decays at the derived rate (slope" not in r.claim
        assert [m.run().status for m in slopes_gini.mutants(c, r)] == ["refuted"]
    r = slopes_gini.CLAIMS["corollary:RS-UCB-M#slope.gini_solitary"].run()
    assert "the regret grows" in r.derived and "the regret grows" in sentence(r)


def test_horizons_are_streams_of_one_root_seed():
    """Horizon j runs on stream (j,) of the same seed (never seed + j): no two horizons share rewards."""
    req = slopes.SlopeRequest(algo="rs-ucb-m", Ts=(200, 400, 800), trials=3, seed=5, radius_scale=0.01,
                              explore="T/10")
    e, _a, _b = bound_rates.eps_schedule("experiments", "rs-ucb-m", 2)
    specs = slopes.specs_for(req, e)
    assert [s["config"]["seed"] for s in specs] == [5, 5, 5]
    assert [s["config"]["stream"] for s in specs] == [[0], [1], [2]]
    assert [s["config"]["explore"] for s in specs] == [20, 40, 80]  # pulls per arm, T/10 at each horizon
    assert all("rho" not in s["config"] for s in specs)  # SimConfig's default, not a second copy of it


def test_cli_slopes_override_goes_where_it_applies(capsys):
    from proofs_checks.cli import slopes as cli_slopes
    from proofs_checks.cli.parser import build_parser

    args = build_parser().parse_args(["slopes", "--algo", "rs-ucb-m,rs-etc-m", "--radius-scale", "0.01",
                                      "--explore", "T/10", "--no-cache"])
    reqs = {r.algo: r for r in cli_slopes.validate(args).requests}
    assert reqs["rs-ucb-m"].radius_scale == 0.01 and reqs["rs-etc-m"].radius_scale is None
    assert reqs["rs-ucb-m"].explore == reqs["rs-etc-m"].explore == "T/10"
    rc = main(["slopes", "--algo", "rs-etc-m,uniform", "--radius-scale", "0.01", "--no-cache"])
    assert rc == 2 and "argument '--radius-scale': rs-etc-m does not use" in capsys.readouterr().err


def test_cli_slopes_one_sign_convention(capsys):
    """The derived slope of a growing bound is printed +0.961 in the table and in the note, never -0.96."""
    rc = main(["slopes", "--algo", "rs-etc-m", "--Ts", "200,400", "--trials", "3", "--bootstrap", "20",
               "--no-cache", "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0
    row = next(line for line in out.splitlines() if line.startswith("gini"))
    assert row.split()[-3] == "+0.961"
    assert "derived slope +0.9608" in out and "T^(+0.9608) (log T)^(-0.9608)" in out
    assert "T^(-0.96" not in out and "exponent -0.96" not in out
    rc = main(["slopes", "--algo", "rs-etc-m", "--Ts", "200,400", "--trials", "3", "--bootstrap", "20",
               "--no-cache", "--quiet", "--format", "json"])
    d = json.loads(capsys.readouterr().out)[0]
    assert d["derived_slope"] == pytest.approx(0.9608, abs=1e-4) and d["derived_exponent"] == -d["derived_slope"]
