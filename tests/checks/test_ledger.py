"""The ledger contract of ARCHITECTURE.md, the registry, the decision rule and the mutants."""

import ast
import json
import re
from pathlib import Path

import pytest
import sympy as sp

from proofs_checks import paper_claims, paper_labels, verdict
from proofs_checks.cli import main
from proofs_checks.cli.parser import build_parser
from proofs_checks.ledger import KEYS, METHODS, OPTIONAL_KEYS, STATUSES, CheckResult, MutantOutcome, to_json, to_markdown
from proofs_checks.registry import check_modules, claims, evaluate, run_claims

CHECKS_DIR = Path(__file__).resolve().parents[2] / "proofs_checks" / "checks"
#: The entries other than the proofs' steps (:data:`STEP_MODULES`) and the coverage modules: the tables, the lemma
#: statements, the experiments' constants.
N_BEFORE_STEPS = 139
#: The check modules of the proofs' steps and the constants chained through them.
STEP_MODULES = ("constants_theorems", "steps_aux", "steps_etc", "steps_example", "steps_holder", "steps_setting",
                "steps_tracking", "steps_ucb", "steps_w")
#: The check modules of displays that had no entry of their own, and of running-text claims.
COVERAGE_MODULES = ("analysis_text", "concentration_exact", "lipwass_exact", "literature_text", "ucb_regret_display",
                    "analysis_comparisons")
#: The check modules of hypotheses judged where the paper uses them (a policy's random count, beta at the experiments).
USE_MODULES = ("beta_hypothesis", "concentration_policy")


def _n_entries() -> int:
    """The ledger's size, derived: :data:`N_BEFORE_STEPS` and the entries of :data:`STEP_MODULES` and
    :data:`COVERAGE_MODULES`."""
    import importlib

    from proofs_checks.checks import beta_lemma_monotone, risk_concave

    # lemma:risk-concave's last step (a gap) sits beside the lemma's own check, which it shares its sweep with
    return (N_BEFORE_STEPS + sum(len(importlib.import_module(f"proofs_checks.checks.{m}").CLAIMS)
                                 for m in STEP_MODULES + COVERAGE_MODULES + USE_MODULES)
            + sum("#step:" in i for m in (risk_concave, beta_lemma_monotone) for i in m.CLAIMS))


N_ENTRIES = _n_entries()

#: LaTeX labels of the paper (verbatim) that ledger ids may use; a part after '#' is free.
PAPER_LABELS = set(paper_labels.ORDER)
TABLE_CELL_RE = re.compile(r"^(table:table_regrets#[a-z_]+\.(h|ucb|etc)|table:table_risks#[a-z_]+\.(q|r|beta|L)"
                           r"|table:literature_comparison#(rs_etc_m|rs_ucb_m))$")


def _id_ok(ident: str) -> bool:
    label, _, part = ident.partition("#")
    if label.startswith("table:"):
        return bool(TABLE_CELL_RE.match(ident))
    return label in PAPER_LABELS and (part == "" or part.strip() == part and part != "")


def test_every_table_cell_has_an_entry(ledger):
    ids = {r.id for r in ledger}
    for row in paper_claims.TABLE_REGRETS:
        for col in ("h", "ucb", "etc"):
            assert f"table:table_regrets#{row.key}.{col}" in ids
    for row in paper_claims.TABLE_RISKS:
        for col in ("q", "r", "beta"):
            assert f"table:table_risks#{row.key}.{col}" in ids
        assert (f"table:table_risks#{row.key}.L" in ids) == (row.L is not None)
    assert {"table:literature_comparison#rs_etc_m", "table:literature_comparison#rs_ucb_m"} <= ids
    assert len(ids) == len(ledger) == len(claims()) == N_ENTRIES


def test_entries_follow_the_contract(ledger):
    for r in ledger:
        assert _id_ok(r.id), r.id
        assert r.status in STATUSES and r.status != "unchecked"
        assert r.method in METHODS
        assert r.claim and r.paper and r.derived
        if r.status in {"refuted", "loose", "conditional", "vacuous"}:
            assert r.evidence


def test_json_round_trip(ledger):
    data = json.loads(to_json(ledger))
    assert [d["id"] for d in data] == [r.id for r in ledger]
    # the contract's keys first, in order, then optional keys only (the graph fills every entry's ``uses``)
    assert all(list(d)[:len(KEYS)] == list(KEYS) and set(list(d)[len(KEYS):]) <= set(OPTIONAL_KEYS) for d in data)
    assert {"id", "claim", "paper", "derived", "status", "method", "evidence"} <= set(data[0])
    by_id = {d["id"]: d for d in data}
    assert by_id["table:table_regrets#gini.ucb"]["uses"] == ["corollary:RS-UCB-M", "lemma:example_utility_Holder"]


def test_json_with_mutants_adds_two_keys():
    r = CheckResult("x", "c", "p", "d", "verified", "symbolic", "e",
                    mutants=(MutantOutcome("stronger", "refuted"), MutantOutcome("other", "verified")))
    (d,) = json.loads(to_json([r]))
    assert list(d) == list(KEYS) + ["mutants", "mutant_caught"]
    assert d["mutants"] == [{"claim": "stronger", "status": "refuted"}, {"claim": "other", "status": "verified"}]
    assert d["mutant_caught"] is True
    same = CheckResult("x", "c", "p", "d", "verified", "symbolic", "e", mutants=(MutantOutcome("m", "verified"),))
    assert same.mutant_caught is False and CheckResult("x", "c", "p", "d", "verified", "symbolic", "e").mutant_caught is None


def test_markdown_has_one_row_per_entry(ledger):
    md = to_markdown(ledger)
    assert sum(1 for line in md.splitlines() if line.startswith("| `")) == len(ledger)


def test_known_findings(ledger):
    """Verdicts that follow from the mathematics (each derived, none typed in)."""
    by = {r.id: r for r in ledger}
    # corollary:RS-UCB-M with q = r = 1/2, beta = 1 gives kappa = 1/6: the printed 1/5 does not follow
    pht = by["table:table_regrets#pht.ucb"]
    assert pht.status in {"loose", "refuted"} and "1/6" in pht.evidence
    # h(1/4) - h(x) = (1/2 - sqrt x)^2 vanishes to second order: r = 2 > printed 1
    rt = by["table:table_risks#right_tail.r"]
    assert rt.status == "loose" and rt.derived == "2"
    # dual power: h'(1) = 0, so beta = 1 needs max p < 1
    assert by["table:table_risks#dual_power.beta"].status == "conditional"
    assert by["table:table_risks#gini.r"].status == "verified"
    assert by["table:table_risks#cvar.beta"].status == "verified"
    # Lemma 1 fails at p = 1/2 (both arms Bern(1/2): equality, not strict)
    assert by["example utility"].status == "conditional" and "{1/2}" in by["example utility"].evidence
    assert by["sec: experiments#alpha_star"].status == "verified"
    # C(1/eps + 1, 1) = 1/eps + 1 > 1/eps for K = 2
    assert by["eq:E2C"].status == "refuted" and "K=2" in by["eq:E2C"].evidence
    # the footnote grid, and the mid-point grid at a vertex for K >= 3, break eq:Delta_error_2
    # ... and the repair (the exact ETC grid) excludes the mid-point grid where theorem:UCB upper bound uses it
    assert by["lemma:Delta_error"].status == "refuted" and "K eps/2" in by["lemma:Delta_error"].evidence
    assert "where the paper uses the lemma" in by["lemma:Delta_error"].evidence
    assert by["theorem:W"].status == "conditional"
    # quadratic at s = 1 has h'(1) = 0: beta = 1 (and the UCB cell) need max p < 1, which Table 1 does not state
    assert by["table:table_regrets#quadratic.ucb"].status == "conditional" and "[s=1]" in \
        by["table:table_regrets#quadratic.ucb"].evidence
    # Table 3's RS-UCB-M row omits the corollary's hypothesis r <= beta + q/2
    assert by["table:literature_comparison#rs_ucb_m"].status == "conditional"
    assert "gini: beta in [3/2, oo)" in by["table:literature_comparison#rs_ucb_m"].evidence
    # the Discussion after eq:UCB_alpha2, with the corollary's r <= beta + q/2 honoured: each side wins for some beta
    gini, rtd = by["eq:UCB_alpha2#discussion.gini"], by["eq:UCB_alpha2#discussion.right_tail"]
    assert gini.status == "conditional" and gini.derived.startswith("RS-UCB-M for beta in [3/2, oo)")
    assert rtd.status == "conditional" and "RS-ETC-M for beta in (0, 3/8 + sqrt(57)/8)" in rtd.derived
    assert by["table:literature_comparison#rs_etc_m"].status == "verified"


def test_status_validation():
    with pytest.raises(ValueError, match="status"):
        CheckResult("x", "c", "p", "d", "proven", "symbolic", "")
    with pytest.raises(ValueError, match="evidence"):
        CheckResult("x", "c", "p", "d", "refuted", "symbolic", "")


def test_cli_verify_json(capsys, stored_ledger):
    assert main(["verify", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, list) and len(data) > 50
    assert data == json.loads(to_json(stored_ledger))  # the session's ledger, read from its store


def test_docs_ledger_matches_verify(capsys, ledger):
    from pathlib import Path

    from proofs_checks.findings import document

    path = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"
    assert path.read_text() == document(ledger, ledger), "docs/ledger.md is stale: run `make docs`"


def test_readme_findings_are_generated(ledger):
    """The README's list of findings is "what matters", regenerated by `make docs`, never written by hand."""
    from pathlib import Path

    from proofs_checks.findings import README_END, README_START, readme_block

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = text[text.index(README_START):text.index(README_END) + len(README_END)]
    assert block == readme_block(ledger), "README.md's findings are stale: run `make docs`"


def test_parallel_checks_give_the_same_ledger(ledger):
    """run_claims on two worker processes returns the sequential results, in order (a slice of the ledger)."""
    picked = [i for i in claims() if i.startswith(("table:table_risks#gini", "theorem:W", "eq:E2C"))]
    assert len(picked) >= 4
    par = run_claims(picked, jobs=2)
    by_id = {r.id: r for r in ledger}
    assert [r.id for r in par] == picked
    assert [to_json([r]) for r in par] == [to_json([by_id[r.id]]) for r in par]
    with pytest.raises(ValueError, match="'jobs'"):
        run_claims(picked, jobs=0)
    with pytest.raises(ValueError, match="'ids'"):
        run_claims(["no such claim"])


# --- the registry ----------------------------------------------------------------------------------------------------

def test_every_check_module_is_found_and_every_id_is_unique():
    files = sorted(f.stem for f in CHECKS_DIR.glob("*.py") if not f.stem.startswith("_"))
    assert list(check_modules()) == files
    import importlib

    total = 0
    for name in files:
        module = importlib.import_module(f"proofs_checks.checks.{name}")
        assert isinstance(module.CLAIMS, dict) and module.CLAIMS, name
        assert all(k == c.id for k, c in module.CLAIMS.items())
        total += len(module.CLAIMS)
    assert total == len(claims()) == N_ENTRIES


def test_ledger_order_follows_the_paper():
    labels = [i.partition("#")[0] for i in claims()]
    positions = [paper_labels.POSITION[lab] for lab in labels]
    assert positions == sorted(positions)
    assert set(labels) <= set(paper_labels.ORDER)
    # within a table, the rows in the paper's order
    rows = [i.split("#")[1].split(".")[0] for i in claims() if i.startswith("table:table_regrets#")]
    assert list(dict.fromkeys(rows)) == [r.key for r in paper_claims.TABLE_REGRETS]


#: The functions of proofs_checks.verdict that produce a status.
VERDICT_FUNCTIONS = {"decide", "compare", "compare_on", "compare_rates_on", "compare_bounds", "on_range", "worst",
                     "compare_exponent", "compare_constant"}


def _calls_verdict(node) -> bool:
    return any(isinstance(n, ast.Call) and (getattr(n.func, "id", None) or getattr(n.func, "attr", None))
               in VERDICT_FUNCTIONS for n in ast.walk(node))


def test_no_check_types_a_status():
    """No CheckResult is built with a status literal, no status literal is assigned, and no ``x if c else y`` picks
    between verdicts: every status comes from one call of proofs_checks.verdict on the check's facts."""
    offenders = []
    for path in sorted(CHECKS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.IfExp) and _calls_verdict(node.body) and _calls_verdict(node.orelse):
                offenders.append(f"{path.name}:{node.lineno} (a verdict picked by an if)")
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Constant, ast.Tuple)):
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                if any(isinstance(v, ast.Constant) and v.value in STATUSES for v in values):
                    offenders.append(f"{path.name}:{node.lineno} (a status literal assigned)")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "CheckResult":
                status = node.args[4] if len(node.args) > 4 else next(
                    (k.value for k in node.keywords if k.arg == "status"), None)
                if isinstance(status, ast.Constant) or isinstance(status, ast.IfExp):
                    offenders.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "replace":
                for k in node.keywords:
                    if k.arg == "status" and isinstance(k.value, ast.Constant):
                        offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, offenders


# --- the decision rule -------------------------------------------------------------------------------------------------

def test_decide():
    assert verdict.decide(holds=False, vacuous=True) == "vacuous"  # a bound that says nothing where it is checked
    assert verdict.decide(holds=False, untestable=True) == "vacuous"
    assert verdict.decide(holds=False, repair="c", untestable=True) == "conditional"
    assert verdict.decide(holds=True) == "verified"
    assert verdict.decide(holds=True, sharper=True) == "loose"
    assert verdict.decide(holds=True, vacuous=True, sharper=True) == "vacuous"
    assert verdict.decide(holds=False) == "refuted"
    assert verdict.decide(holds=False, repair="x < 1") == "conditional"
    # a step that does not follow but has no counterexample in context is a gap, not a refutation
    assert verdict.decide(holds=True, follows=False) == "gap"
    assert verdict.decide(holds=True, follows=False, sharper=True) == "gap"
    assert verdict.decide(holds=False, follows=False) == "refuted"
    # a repair that excludes a place where the paper uses the claim is no repair
    assert verdict.decide(holds=False, repair="ETC grid only", repair_at_uses=False) == "refuted"
    assert verdict.worst("gap", "verified", "loose") == "gap" and verdict.worst("gap", "conditional") == "conditional"


def test_impact():
    assert verdict.impact(axis="statement", status="refuted", about="rate") == "rate"
    assert verdict.impact(axis="statement", status="conditional", about="exponent") == "rate"
    assert verdict.impact(axis="statement", status="refuted", about="constant") == "constant"
    assert verdict.impact(axis="statement", status="refuted", about="statement") == "statement"
    assert verdict.impact(axis="statement", status="vacuous", about="bound") == "statement"
    assert verdict.impact(axis="proof", status="gap", about="statement") == "proof"
    assert verdict.impact(axis="proof", status="refuted", about="statement", typo=True) == "typo"
    assert verdict.impact(axis="statement", status="loose", about="rate") == "none"
    with pytest.raises(ValueError, match="'about'"):
        verdict.impact(axis="statement", status="refuted", about="weather")


def test_every_entry_has_an_axis_and_an_impact(ledger):
    from proofs_checks.causes import node_of
    from proofs_checks.ledger import AXES, IMPACTS
    from proofs_checks.verdict import LOOSE_IN

    for r in ledger:
        assert r.axis in AXES and r.impact in IMPACTS, r.id
        assert (r.loose_in in LOOSE_IN) == (r.status == "loose"), r.id
        assert r.status != "gap" or r.axis == "proof" or node_of(r) == "sketch", r.id  # a gap is in a proof (sketch)
    by = {r.id: r for r in ledger}
    assert by["lemma:RTD#r.case1"].loose_in == "exponent"
    assert by["lemma:RTD#summary"].impact == "typo"  # the closing summary's q = 1 for the q = 1/2 of item 1
    # the closing summary of a proof is a node of the proof, not of the statement (the results' records)
    assert (by["lemma:RTD#summary"].node, by["lemma:RTD#summary"].axis) == ("proof", "proof")
    assert (by["lemma:RTD#r.case1"].node, by["lemma:RTD#r.case1"].part) == ("statement", "r")


#: Steps whose verdict depends on their proof's context: dropping the context (the quantities the proof fixes) changes
#: the status.
CONTEXT_DEPENDENT = (
    "theorem: ETC upper bound#step:eq:E1C", "eq: ETC commit 6",
    "theorem: ETC upper bound#step:eq: A2first", "theorem:UCB upper bound#step:after:eq:UCB_f2",
    "example utility#step:after:eq:h_1_p", "lemma:Dual_Power#step:eq:dp_last",
)


@pytest.mark.parametrize("ident", CONTEXT_DEPENDENT)
def test_a_step_judged_without_its_context_changes_status(ident):
    c = claims()[ident]
    assert c.context is not None, ident
    inside, outside = evaluate(c).status, c.without_context().run().status
    assert inside == "verified" and outside != inside, (ident, inside, outside)
    assert "Judged in the context of the proof of" in evaluate(c).note
    assert verdict.worst() == "verified" and verdict.worst("loose", "conditional", "verified") == "conditional"
    assert verdict.worst("vacuous", "refuted") == "refuted"


@pytest.mark.parametrize("printed, derived, sense, want", [
    (1, 1, "larger", "verified"), (sp.Rational(1, 2), 1, "larger", "loose"), (2, 1, "larger", "refuted"),
    (2, 1, "smaller", "loose"), (sp.Rational(1, 2), 1, "smaller", "refuted"), (2, 1, "equal", "refuted"),
    (1.0, 1.0 + 1e-12, "smaller", "verified"), (sp.sqrt(2), sp.sqrt(2), "equal", "verified")])
def test_compare(printed, derived, sense, want):
    assert verdict.compare(printed, derived, sense) == want


def test_compare_on_a_range():
    b = sp.Symbol("beta", positive=True)
    full = sp.Interval.open(0, sp.oo)
    gini = verdict.compare_on(2 / (b + 1), sp.Min(2, b + sp.Rational(1, 2)) / (b + 1), b, full)
    assert gini.status == "conditional" and gini.holds_on == sp.Interval(sp.Rational(3, 2), sp.oo)
    assert verdict.compare_on(2 / (b + 1), sp.Min(2, b + sp.Rational(1, 2)) / (b + 1), b, gini.holds_on).status \
        == "verified"
    assert verdict.compare_on(1 / (b + 2), 1 / (b + 1), b, full).status == "loose"
    assert verdict.compare_on(1 / (b + 1), 1 / (b + 1), b, full, unstated=True).status == "conditional"
    assert verdict.compare_on(2 / b, 1 / b, b, full).status == "refuted"
    assert verdict.fmt_set(sp.Interval(0, 1) - sp.FiniteSet(sp.Rational(1, 2))) == "[0, 1/2) U (1/2, 1]"
    assert verdict.compare_on(b, b, b, full, comparable=False).status == "refuted"


def test_rates_and_bounds_on_a_range():
    """A printed rate against a derived one (power of T, then of log T), and two bounds with side conditions."""
    b = sp.Symbol("beta", positive=True)
    full = sp.Interval.open(0, sp.oo)
    same = verdict.Rate(1 / (b + 1), 1 / b)
    assert verdict.compare_rates_on(same, same, b, full).status == "verified"
    assert verdict.compare_rates_on(verdict.Rate(1 / (b + 1), 1 / b), verdict.Rate(1 / (b + 1), 1 / (b + 1)), b,
                                    full).status == "loose"  # the same power of T, a smaller power of log T derived
    assert verdict.compare_rates_on(same, same, b, full, unstated=True).status == "conditional"
    assert verdict.compare_rates_on(same, same, b, full, comparable=False).status == "refuted"
    # Gini: RS-ETC-M T^-(1/(beta+1)) (log T)^(1/beta); RS-UCB-M the corollary's rate for beta >= 3/2 only
    side = sp.Interval(sp.Rational(3, 2), sp.oo)
    etc = (verdict.Rate(1 / (b + 1), 1 / b, full),)
    ucb = (verdict.Rate(1 / (b + 1), 1 / (b + 1), side),
           verdict.Rate((2 * b + 1) / (4 * b + 4), (2 * b + 1) / (4 * b + 4), sp.Interval.open(0, sp.Rational(3, 2))))
    c = verdict.compare_bounds(("UCB", ucb), ("ETC", etc), b, full)
    assert c.status == "conditional" and c.claimed_wins == side and c.other_wins == full - side
    assert "UCB is better for beta in [3/2, oo), ETC for beta in (0, 3/2)" in c.evidence
    assert verdict.compare_bounds(("UCB", ucb), ("ETC", etc), b, side).status == "verified"
    assert verdict.compare_bounds(("ETC", etc), ("ETC", etc), b, full).status == "refuted"  # a tie is not better
    with pytest.raises(ValueError, match="cover"):
        verdict.compare_bounds(("UCB", ucb[:1]), ("ETC", etc), b, full)


# --- mutants ---------------------------------------------------------------------------------------------------------

#: Claims whose mutants the fast suite runs: every status, cheap checks, several shapes of claim.
MUTANT_SAMPLE = (
    "table:table_regrets#gini.h", "table:table_regrets#pht.etc", "table:table_regrets#gini.ucb",
    "table:table_risks#gini.q", "table:table_risks#gini.L", "table:literature_comparison#rs_etc_m",
    "table:literature_comparison#rs_ucb_m", "example utility", "sec: experiments#alpha_star", "theorem:W",
    "eq:E2C", "eq:UCB_confidence_sets#experiments", "sec: experiments#exploration",
    "eq:UCB_alpha2#discussion.gini", "lemma: concentration#radius", "lemma:example_utility_Holder#summary",
    "lemma:RTD#summary", "lemma:RTD#r.case1", "lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3",
    "lemma:PHT#step:jensen", "lemma:Dual_Power#step:eq:dp_last", "lemma:probability of E3", "eq: ETC commit 5",
    "eq:oversampledproof", "theorem:UCB upper bound#step:eq:UCB_f2", "theorem: ETC upper bound#step:eq:E1C",
)


@pytest.mark.parametrize("ident", MUTANT_SAMPLE)
def test_mutants_of_a_sample_are_caught(ident):
    res = evaluate(claims()[ident], mutants=True)
    assert res.mutants, ident
    assert res.mutant_caught, (ident, res.status, res.mutants)
    assert all(m.claim for m in res.mutants)
    if res.status in ("conditional", "gap"):  # the rule: the repair, added to the claim, makes it hold
        assert any(m.status in ("verified", "loose") for m in res.mutants), (ident, res.mutants)


def test_the_sample_covers_every_status(ledger):
    by = {r.id: r.status for r in ledger}
    assert {by[i] for i in MUTANT_SAMPLE} == {"verified", "loose", "conditional", "vacuous", "refuted", "gap"}


def test_cli_has_the_mutants_flag():
    args = build_parser().parse_args(["verify", "--mutants", "--format", "json"])
    assert args.mutants is True
    assert build_parser().parse_args(["verify"]).mutants is False


@pytest.mark.full
def test_every_mutant_run_and_caught(capsys):
    """``rsb verify --mutants`` (a few minutes): every entry has mutants, and every entry's are caught."""
    assert main(["verify", "--format", "json", "--mutants", "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == N_ENTRIES
    assert all(list(d)[-2:] == ["mutants", "mutant_caught"] for d in data)
    assert all(d["mutant_caught"] for d in data), [d["id"] for d in data if not d["mutant_caught"]]
    unrepaired = [d["id"] for d in data if d["status"] == "conditional"
                  and not any(m["status"] in ("verified", "loose") for m in d["mutants"])]
    assert not unrepaired, f"conditional entries whose repair does not make them hold: {unrepaired}"
