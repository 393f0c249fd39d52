"""rsb from a notebook (proofs_checks.api, tidy results) and the nine things a new user tripped over."""

import json
from dataclasses import dataclass

import pytest

from proofs_checks import api
from proofs_checks.cli import main
from proofs_checks.ledger import CheckResult


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _without(d: dict, *keys) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


# --- entry points and tidy results ---------------------------------------------------------------------------------
def test_simulate_json_is_the_command_lines(capsys):
    res = api.simulate("gini", "rs-etc-m", p=[0.4, 0.9], T=300, trials=3, seed=2, record=[100])
    code, out, _ = run(capsys, "simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "300",
                       "--trials", "3", "--seed", "2", "--record", "100", "--format", "json")
    assert code == 0
    assert _without(json.loads(res.to_json()), "seconds") == _without(json.loads(out), "seconds")


def test_to_frame_one_row_per_trial_and_step():
    res = api.simulate("gini", "uniform", p=[0.4, 0.9], T=200, trials=3, seed=0, record=[50, 100])
    f = res.to_frame()
    assert list(f.columns) == ["algo", "distortion", "T", "trial", "t", "regret"]
    assert len(f) == 3 * 3 and sorted(set(f.t)) == [50, 100, 200]
    final = f[f.t == 200].sort_values("trial").regret.to_numpy()
    assert final.tolist() == pytest.approx(res.regrets.tolist(), abs=0)
    no_record = api.simulate("gini", "uniform", p=[0.4, 0.9], T=200, trials=3).to_frame()
    assert len(no_record) == 3 and set(no_record.t) == {200}


def test_compare_runs_each_algorithm_on_the_same_table():
    from rsb_sim.config import SimConfig
    from rsb_sim.engine import run as engine_run
    from rsb_sim.instances import make_instance
    from rsb_theory.distortions import resolve

    c = api.compare("gini", ["ce-ucb-m", "ucb1"], p=[0.4, 0.9], T=300, trials=3, seed=5, radius_scale=0.01,
                    record=[100])
    # one horizon is stream (0,) of the root, as rsb compare's first horizon
    alone = engine_run(SimConfig(T=300, trials=3, seed=5, radius_scale=0.01, stream=(0,)), make_instance([0.4, 0.9]),
                       resolve("gini"), "ce-ucb-m")
    assert c["ce-ucb-m"].regrets.tolist() == alone.regrets.tolist()
    assert c["ucb1"].config.radius_scale == 1.0  # radius_scale went to the algorithm that reads it only
    f = c.to_frame()
    assert len(f) == 2 * 3 * 2 and list(f.algo.unique()) == ["ce-ucb-m", "ucb1"]
    assert [d["algo"] for d in c.runs()] == ["ce-ucb-m", "ucb1"]
    assert set(json.loads(c.to_json())) == set(c.summary())
    assert set(c.table().columns) == {"algo", "T", "t", "mean_regret", "ci_low", "ci_high"}
    with pytest.raises(ValueError, match="rho"):
        api.compare("gini", ["ucb1", "uniform"], p=[0.4, 0.9], T=100, rho=0.2)


def test_arms_given_once_for_every_algorithm():
    arms = "finite(0:0.5, 1:0.5); finite(0:0.2, 0.5:0.3, 1:0.5)"
    for algo in ("ce-ucb-m", "ucb1", "rs-etc-m"):
        assert api.simulate("gini", algo, arms=arms, T=200, trials=2).regrets.shape == (2,)
    with pytest.raises(ValueError, match="'arms'"):
        api.simulate("gini", "ucb1", p=[0.4, 0.9], arms=arms, T=200)


def test_profile_and_optimum_are_the_commands(capsys):
    prof = api.profile("gini", p=[0.4, 0.9])
    _, out, _ = run(capsys, "derive", "--h", "gini", "--p", "0.4,0.9", "--format", "json")
    assert prof.to_dict() == json.loads(out) and prof.r == "2"
    opt = api.optimum(api.distortion("gini"), p=[0.4, 0.9], eps=0.1)
    _, out, _ = run(capsys, "optimize", "--dr", "gini", "--p", "0.4,0.9", "--eps", "0.1", "--format", "json")
    assert opt.to_dict() == json.loads(out)


def test_one_distortion_constructor():
    from rsb_theory.distortions import from_string, get

    assert api.distortion("pht", s="1/2") == get("pht", s="1/2")
    assert api.distortion("u**s", s=0.5).expr == from_string("u**s", s=0.5).expr
    assert api.distortion("dual(gini)").key == "dual(gini)"
    h = api.distortion("gini")
    assert api.distortion(h) is h


def test_check_result_to_dict_is_generic():
    @dataclass(frozen=True)
    class Richer(CheckResult):  # a field added later
        weight: float | None = None
        places: tuple | None = None

    plain = Richer("lemma:RTD", "c", "1", "1", "verified", "symbolic", "e")
    assert list(plain.to_dict()) == ["id", "claim", "paper", "derived", "status", "method", "evidence"]
    rich = Richer("lemma:RTD", "c", "1", "1", "verified", "symbolic", "e", axis="proof", uses=("a", "b"),
                  weight=0.5, places=("p",))
    d = rich.to_dict()
    assert d["axis"] == "proof" and d["uses"] == ["a", "b"] and d["weight"] == 0.5 and d["places"] == ["p"]
    json.dumps(d)


def test_ledger_filters():
    entries = api.ledger(id="eq:UCB_confidence_sets#experiments")
    assert [e.id for e in entries] == ["eq:UCB_confidence_sets#experiments"]
    assert entries[0].to_dict()["status"] == "conditional"
    assert api.ledger(status="verified", id="eq:UCB_confidence_sets#experiments") == []
    with pytest.raises(ValueError, match="'status'"):
        api.ledger(status="fine")
    with pytest.raises(ValueError, match="'id'"):
        api.ledger(id="no-such-label")
    with pytest.raises(ValueError, match="'proof'"):
        api.ledger(proof="eq:UCB_confidence_sets")


# --- 1. beta when the local slopes agree; ties named -----------------------------------------------------------------
def test_beta_given_when_local_slopes_agree(capsys):
    code, out, _ = run(capsys, "derive", "--h", "sqrt(u*(1-u))", "--p", "0.3,0.9", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["beta"] == "2.000" and d["beta_method"].startswith("numeric")
    est = d["beta_estimate"]
    assert "several optimal grid points" in est["reading"] and "agree" in est["reading"]
    assert "do not settle" not in est["evidence"] and "tied" in est["evidence"]


def test_no_beta_when_the_optimum_is_a_set_at_every_eps():
    from rsb_theory.distortions import from_string
    from rsb_theory.gap import estimate_beta

    beta, why = estimate_beta(from_string("min(u,0.3)"), [0.2, 0.5], n_values=[8, 16, 32]).reading()
    assert beta is None and "is a set" in why


# --- 2. an unused --param is refused ---------------------------------------------------------------------------------
def test_unused_param_is_refused(capsys):
    code, out, err = run(capsys, "derive", "--h", "u**0.5", "--param", "s=0.3")
    assert code == 2 and out == "" and "argument '--param s'" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(ValueError, match="does not use 's'"):
        api.distortion("u**0.5", s=0.3)


# --- 3. a non-unique optimum is a set ---------------------------------------------------------------------------------
@pytest.mark.parametrize("h, p, unique, needle", [
    ("min(u,0.3)", "0.2,0.5", False, "Interval(3/10, 1/2)"),
    ("gini", "0.2,0.5,0.9", False, "<alpha, p> = 1/2"),
    ("gini", "0.4,0.9", True, None),
    ("mean", "0.2,0.5,0.9", True, None),
])
def test_non_unique_optimum_is_a_set(capsys, h, p, unique, needle):
    code, out, _ = run(capsys, "derive", "--h", h, "--p", p, "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["alpha_star_unique"] is unique
    if not unique:
        assert needle in d["optimal_set"] and "reported alpha*" in d["optimal_set"]


# --- 4. names, eps, aligned tables, ticks, titles ----------------------------------------------------------------------
def test_a_users_h_is_named_by_its_expression():
    res = api.simulate("u**0.3*(1-u)", "ucb1", p=[0.4, 0.9], T=100, trials=2)
    assert res.distortion == "u**(3/10)*(1 - u)"
    assert res.summary()["eps"] is None  # ucb1 searches no grid
    assert api.simulate("gini", "rs-etc-m", p=[0.4, 0.9], T=100, trials=2).summary()["eps"] is not None


def test_slopes_table_aligned_and_no_eps_rule_for_baselines():
    from proofs_checks.slopes import SlopeResult, format_table

    base = dict(params={}, p=(0.4, 0.9), Ts=(100, 200), trials=2, eps_rule="experiments", eps=(0.1, 0.1),
                mean_regret=(0.1, 0.1), std_regret=(0.0, 0.0), slope=-0.1, ci_low=-0.2, ci_high=0.0,
                slope_log_corrected=-0.1, ci_low_log_corrected=-0.2, ci_high_log_corrected=0.0,
                derived_exponent=None, derived_log_power=None, derived_rate="none", derived_from="x", consistent=None,
                degenerate=False, warnings=(), excluded_T=(), bootstrap_dropped=0, notes=(), seconds=0.0, cache="",
                derived_slope=None, overrides={}, arms=None)
    rows = [SlopeResult(dr="u**0.3*(1-u)+0.1*u", algo="ucb1", **base), SlopeResult(dr="gini", algo="ce-ucb-m", **base)]
    lines = format_table(rows).splitlines()
    head, first, second = lines[1], lines[2], lines[3]
    assert head.index("algo") == first.index("ucb1") == second.index("ce-ucb-m")
    assert head.index("p ") == first.index("0.4,0.9") == second.index("0.4,0.9")
    text = format_table(rows)
    assert "ucb1 p=[0.4, 0.9]: no eps" in text and "ce-ucb-m p=[0.4, 0.9]: eps rule experiments" in text


def test_bound_figure_ticks_and_short_titles():
    from proofs_checks.bound_plot import short_arms, title_of

    assert short_arms("empirical(/very/long/path/r.csv:ret); beta(2,5)") == "empirical(r.csv:ret); beta(2,5)"
    title = title_of("gini", {}, (None, None), "ucb1", 3, {"rho": 0.1, "radius_scale": 1.0}, None,
                     "empirical(/very/long/path/r.csv:ret); beta(2,5)")
    assert "/very/long" not in title and "r.csv:ret" in title


def test_horizons_label_the_log_axis_and_minor_ticks_stay_unlabelled():
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter

    from proofs_checks.figures import _horizon_ticks

    ax = Figure().subplots()
    ax.plot([1000, 3000, 10000], [1e-3, 5e-4, 2e-4])
    ax.set_xscale("log")
    _horizon_ticks(ax, [1000, 3000, 10000])
    assert list(ax.get_xticks()) == [1000, 3000, 10000]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1e3", "3e3", "1e4"]
    assert isinstance(ax.xaxis.get_minor_formatter(), NullFormatter)


# --- 5. plot bounds: the variant's caveat, not "warnings": [] -----------------------------------------------------------
def test_plot_bounds_radius_scale_caveat(capsys, tmp_path):
    from proofs_checks.outputs import read_csv  # noqa: F401  (the CSV's header is read below)

    code, out, _ = run(capsys, "plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "ce-ucb-m",
                       "--radius-scale", "0.01", "--Ts", "100,200", "--trials", "2", "--out", str(tmp_path))
    assert code == 0 and "not proven for this variant" in out
    csv_head = (tmp_path / "bounds-gini-ce-ucb-m.csv").read_text().split("\n")[0]
    header = json.loads(csv_head[2:])
    assert any("not proven for this variant" in w for w in header["warnings"])
    assert "not proven" in (tmp_path / "bounds-gini-ce-ucb-m.txt").read_text()


# --- 6. all trials identical --------------------------------------------------------------------------------------------
def test_zero_spread_said_in_words():
    from rsb_sim.trajectory import spread_text

    assert spread_text(0.0005973, 0.0, 20) == "0.0005973 (all 20 trials identical)"
    assert spread_text(0.5, 0.0, 1) == "0.5 +- 0"
    assert spread_text(0.5, 0.01, 3) == "0.5 +- 0.01"


# --- 7. the report's figures: captions, the user's own first -------------------------------------------------------------
def test_report_captions_and_own_figures_first(tmp_path):
    from proofs_checks import report
    from proofs_checks.experiments import get_experiment
    from proofs_checks.outputs import csv_text

    out = tmp_path / "out"
    own = out / "mine"
    own.mkdir(parents=True)
    exp = get_experiment("regret-vs-T")
    (own / "regret-vs-T.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (own / "regret-vs-T.csv").write_text(csv_text([], ("x",), {"experiment": exp.describe(), "trials": 7, "seed": 3}))
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("regret-vs-T.png", "vs-gap.png"):
        (docs / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    figs = report.figures(out, docs)
    assert [f[0] for f in figs] == ["mine/regret-vs-T.png", "vs-gap.png"]  # the user's wins, and comes first
    mine, pre = figs[0][3], figs[1][3]
    assert "rsb reproduce regret-vs-T --out DIR --trials 7 --seed 3" in mine and "fig:T_experiment" in mine
    assert "7 trials" in mine and "your run" in mine
    assert "fig:ucb_eta" in pre and "pre-computed" in pre and "rsb reproduce vs-gap" in pre


# --- 8. optimize --support/--probs; tiny weights zeroed on every route ------------------------------------------------
def test_optimize_finite_support(capsys):
    code, out, _ = run(capsys, "optimize", "--dr", "gini", "--support", "0,0.5,1", "--probs",
                       "0.2,0.3,0.5;0.6,0.2,0.2", "--eps", "0.1", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["alpha_star"] == pytest.approx([0.52, 0.48], abs=1e-6) and d["a_star"] == pytest.approx(
        [0.55, 0.45])
    code, _, err = run(capsys, "optimize", "--dr", "gini", "--support", "0,1", "--p", "0.4,0.9")
    assert code == 2 and "argument '--support'" in err


def test_tiny_weights_zeroed_for_discrete_laws(capsys):
    code, out, _ = run(capsys, "optimize", "--dr", "gini", "--arms",
                       "finite(0:0.9,0.5:0.05,1:0.05);finite(0:0.6,0.5:0.2,1:0.2)", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["alpha_star"] == [0.0, 1.0] and "set to 0" in d["evidence"]
