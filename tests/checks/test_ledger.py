"""The ledger contract of ARCHITECTURE.md and the table checks."""

import json
import re

import pytest

from proofs_checks import paper_claims
from proofs_checks.cli import main
from proofs_checks.ledger import METHODS, STATUSES, CheckResult, to_json, to_markdown
from proofs_checks.registry import registered, run_all

#: LaTeX labels of the paper (verbatim) that ledger ids may use; a part after '#' is free.
PAPER_LABELS = {
    "table:table_regrets", "table:table_risks", "table:literature_comparison", "example utility",
    "sec: experiments", "lemma:risk-concave", "theorem:W", "lemma:Delta_error", "lemma:beta_lemma_monotone", "eq:E2C",
    "lemma:example_utility_Holder", "lemma:PHT", "lemma:RTD", "lemma:mean_median_Holder", "lemma:inter_ES_Holder",
    "lemma:Dual_Power", "lemma:Quadratic", "lemma:lipschitz-wasserstein", "theorem:Wasserstein_dual",
    "lemma: concentration", "eq:UCB_confidence_sets", "eq:UCB_alpha2", "eq:number of samples main paper",
    "theorem: ETC upper bound", "theorem:RS-ETC-M", "theorem:UCB upper bound", "corollary:RS-UCB-M",
    "lemma:probability of E3", "lemma:undersampling", "lemma:oversampling", "eq: ETC commit 6",
    "eq: ETC commit 5", "eq:oversampledproof",
}
TABLE_CELL_RE = re.compile(r"^(table:table_regrets#[a-z_]+\.(h|ucb|etc)|table:table_risks#[a-z_]+\.(q|r|beta|L)"
                           r"|table:literature_comparison#(rs_etc_m|rs_ucb_m))$")


def _id_ok(ident: str) -> bool:
    label, _, part = ident.partition("#")
    if label.startswith("table:"):
        return bool(TABLE_CELL_RE.match(ident))
    return label in PAPER_LABELS and (part == "" or part.strip() == part and part != "")


@pytest.fixture(scope="module")
def ledger():
    return run_all()


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
    assert len(ids) == len(ledger) == len([i for i, _ in registered()])


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
    assert set(data[0]) == {"id", "claim", "paper", "derived", "status", "method", "evidence"}


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
    # the footnote grid breaks the eps/2-per-coordinate step of lemma:Delta_error
    assert by["lemma:Delta_error"].status == "conditional"
    assert by["theorem:W"].status == "conditional"


def test_status_validation():
    with pytest.raises(ValueError, match="status"):
        CheckResult("x", "c", "p", "d", "proven", "symbolic", "")
    with pytest.raises(ValueError, match="evidence"):
        CheckResult("x", "c", "p", "d", "refuted", "symbolic", "")


def test_cli_verify_json(capsys):
    assert main(["verify", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, list) and len(data) > 50


def test_docs_ledger_matches_verify(capsys, ledger):
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"
    assert path.read_text() == to_markdown(ledger), "docs/ledger.md is stale: run `make docs`"


def test_parallel_checks_give_the_same_ledger(ledger):
    """run_checks on two worker processes returns the sequential results, in order (a slice of the ledger)."""
    from proofs_checks.registry import run_checks

    picked = [c for c in registered() if c[0].startswith(("table:table_risks#gini", "theorem:W", "eq:E2C"))]
    assert len(picked) >= 4
    par = run_checks(picked, jobs=2)
    by_id = {r.id: r for r in ledger}
    assert [r.id for r in par] == [i for i, _fn in picked if i in by_id]
    assert [to_json([r]) for r in par] == [to_json([by_id[r.id]]) for r in par]
    with pytest.raises(ValueError, match="'jobs'"):
        run_checks(picked, jobs=0)
