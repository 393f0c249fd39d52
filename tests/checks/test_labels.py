"""Every label of the paper classified (``rsb labels``), and the per-proof view (``rsb verify --proof``)."""

import json

import pytest

from proofs_checks import paper_labels, proof_view
from proofs_checks.cli import main
from proofs_checks.ledger import CheckResult
from proofs_checks.registry import claims, ids_by_label, label_of, labels_checked, ledger_ids_of, step_position

#: The number of \label commands of the paper's LaTeX source (counted once, when the data was transcribed).
N_LABELS = 212
#: Of them, displayed equations (the issue: "of the paper's 212 labels, 152 are equations").
N_DISPLAYS = 152
#: The lemmas and theorems (incl. corollary:RS-UCB-M, a theorem environment).
N_RESULTS = 22


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_label_is_classified():
    labels = paper_labels.LABELS
    assert len(labels) == N_LABELS and len(set(paper_labels.ORDER)) == N_LABELS
    assert sum(x.element == "display" for x in labels) == N_DISPLAYS
    assert len(paper_labels.RESULTS) == N_RESULTS
    for x in labels:
        assert x.kind in paper_labels.KINDS
        if x.element in ("lemma", "theorem"):
            assert x.kind == "claim", x.label
        if x.element == "display" and x.proof and x.relation in paper_labels.INEQUALITIES:
            assert x.kind == "claim", x.label  # every displayed inequality of a proof is a claim
        if x.element == "display" and x.statement and x.relation in paper_labels.INEQUALITIES:
            # an inequality of a statement is a claim, or an assumption's defining inequality that says why
            assert x.kind == "claim" or (x.kind == "definition" and x.note), x.label
        if x.relation == "def":  # introduced with ≜: a definition, or a choice in a proof with an attached assertion
            assert x.kind in ("definition", "algorithm") or (x.label in paper_labels.DEFINING_CLAIMS and x.proof
                                                             and "readily verified" in x.note), x.label
        if x.kind in ("definition", "algorithm") and x.relation:
            assert x.note, f"{x.label}: a definition with a relation sign needs the reason it is one"
        for ref in (x.proof, x.statement):
            assert ref is None or ref in paper_labels.BY_LABEL, (x.label, ref)
        if x.proof:
            assert paper_labels.BY_LABEL[x.proof].is_result, x.label
            assert paper_labels.POSITION[x.label] > paper_labels.POSITION[x.proof], x.label
    # the labels the ledger's ids use are the paper's
    assert all(label in paper_labels.BY_LABEL for label in map(label_of, claims()))


def test_ledger_ids_are_derived_from_the_registry():
    by = ids_by_label()
    assert list(by) == list(paper_labels.ORDER)
    for ident in claims():
        for label in labels_checked(ident):
            assert ident in by[label]
    assert ledger_ids_of("eq:WRTD_lemma_0") == ("lemma:RTD#step:eq:WRTD_lemma_0",)
    assert "lemma:RTD#step:eq:WRTD_lemma_0" in ledger_ids_of("lemma:RTD")
    assert ledger_ids_of("eq:E2C") == ("eq:E2C",)
    # eq:number of samples is a claim: the proof's choice of N(eps) with the assertion attached to it
    assert paper_labels.DEFINING_CLAIMS == ("eq:number of samples",)
    assert ledger_ids_of("eq:number of samples") == ("theorem: ETC upper bound#step:eq:number of samples",)
    # an entry of a result's statement checks the statement's display
    assert ledger_ids_of("eq:meta_concentration") == ("lemma: concentration#bound", "lemma: concentration#radius",
                                                      "lemma: concentration#any_policy", "eq:meta_concentration")
    assert ledger_ids_of("lipwass2") == ("lemma:lipschitz-wasserstein", "lipwass2")
    # a step after a display is not that display's check
    assert ledger_ids_of("eq:lemma_5_p_mean_3") == ("lemma:inter_ES_Holder#step:eq:lemma_5_p_mean_3",)
    assert step_position("lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3") == \
        paper_labels.POSITION["eq:lemma_5_p_mean_3"] + 0.5


def by_label(data):
    return {d["label"]: d for d in data}


def test_rsb_labels_json(capsys):
    code, out, err = run(capsys, "labels", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert len(data) == N_LABELS
    assert all(list(d) == ["label", "kind", "ledger_ids", "uses"] for d in data)
    assert by_label(data)["eq:E3C"]["uses"] == ["eq:E1C", "eq:E2C"]  # the dependency graph (paper_uses.py)
    assert [d["label"] for d in data] == list(paper_labels.ORDER)
    by = {d["label"]: d for d in data}
    assert by["lemma:RTD"]["kind"] == "claim" and "lemma:RTD#q" in by["lemma:RTD"]["ledger_ids"]
    assert by["eq:V"]["kind"] == "definition" and by["table:table_risks"]["kind"] == "table"
    code, out, _ = run(capsys, "labels")
    assert code == 0 and out.startswith(f"{N_LABELS} labels: ")


def _claim_labels_without_entries(ledger) -> list[str]:
    checked = {label for r in ledger if r.status != "unchecked" for label in labels_checked(r.id)}
    return [x.label for x in paper_labels.LABELS if x.kind == "claim" and x.label not in checked]


def test_every_claim_has_an_entry_that_is_checked(ledger):
    """Coverage of the ledger: every claim label (every lemma, theorem and corollary, every displayed inequality of
    the proofs) has a ledger entry whose status is not unchecked."""
    missing = _claim_labels_without_entries(ledger)
    assert not missing, f"{len(missing)} claim labels without a checked entry: {missing}"
    results = [x for x in paper_labels.LABELS if x.element in ("lemma", "theorem")]
    assert len(results) == N_RESULTS and all(x.kind == "claim" for x in results)
    assert "corollary:RS-UCB-M" in {x.label for x in results}
    inequalities = [x for x in paper_labels.LABELS if x.element == "display" and x.proof
                    and x.relation in paper_labels.INEQUALITIES]
    assert inequalities and all(x.kind == "claim" for x in inequalities)
    # and the rsb labels output agrees: each claim lists an id, and each listed id is an entry of the ledger
    by_status = {r.id: r.status for r in ledger}
    for label, ids in ids_by_label([r.id for r in ledger]).items():
        if paper_labels.BY_LABEL[label].kind == "claim":
            assert any(by_status[i] != "unchecked" for i in ids), label


# --- the per-proof view ------------------------------------------------------------------------------------------------

def _entry(ident, status):
    return CheckResult(ident, "c", "p", "d", status, "numeric", "e")


def test_proof_view_orders_the_steps_as_the_paper():
    results = [_entry("lemma:RTD#q", "verified"), _entry("lemma:RTD#step:eq:lemma_RTD_p", "refuted"),
               _entry("lemma:RTD#step:eq:WRTD_lemma_0", "conditional"), _entry("lemma:PHT#q", "verified")]
    view = proof_view.build("lemma:RTD", results)
    assert [r.id for r in view.statement] == ["lemma:RTD#q"]
    assert [s.name for s in view.steps] == list(paper_labels.proof_labels("lemma:RTD"))
    assert view.first_broken.name == "eq:WRTD_lemma_0"  # the first in the paper's order, not in the input's
    assert view.steps[0].status == "unchecked" and view.steps[0].entry is None
    assert view.counts()["refuted"] == 1 and view.counts()["unchecked"] == 5
    etc = proof_view.build("theorem: ETC upper bound", [_entry("eq:E2C", "verified")])
    kinds = {s.name: s.status for s in etc.steps}
    assert kinds["eq:E2C"] == "verified" and kinds["eq:ETC set"] == "definition" and etc.first_broken is None
    # unlabelled steps come before the labelled displays, in ledger order; "after:" right after its label
    ies = proof_view.build("lemma:inter_ES_Holder", [_entry("lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3",
                                                            "refuted")])
    names = [s.name for s in ies.steps]
    assert names.index("after:eq:lemma_5_p_mean_3") == names.index("eq:lemma_5_p_mean_3") + 1
    pht = proof_view.build("lemma:PHT", [_entry("lemma:PHT#step:power", "verified"),
                                         _entry("lemma:PHT#step:jensen", "conditional")])
    assert [s.name for s in pht.steps] == ["power", "jensen"] and pht.first_broken.name == "jensen"
    with pytest.raises(ValueError, match="'proof'"):
        proof_view.build("eq:E2C", results)
    d = proof_view.to_dict(view)
    assert d["first_broken"]["step"] == "eq:WRTD_lemma_0" and d["steps"][1]["id"] == "lemma:RTD#step:eq:WRTD_lemma_0"


def test_every_result_has_a_view(ledger):
    views = proof_view.views(ledger)
    assert [v.result for v in views] == list(paper_labels.RESULTS)
    shown = ({r.id for v in views for r in v.statement + v.attached}
             | {s.entry.id for v in views for s in v.steps if s.entry})
    # every entry of a result or of a display of a proof is in some view (its statement, its proof, or a sketch,
    # remark or experiment attached to it)
    for r in ledger:
        info = paper_labels.BY_LABEL[r.id.partition("#")[0]]
        if info.is_result or info.proof or info.statement:
            assert r.id in shown, r.id


def test_verify_proof(capsys, stored_ledger):
    code, out, err = run(capsys, "verify", "--proof", "lemma:RTD")
    assert code == 0, err
    lines = out.splitlines()
    last = lines.index(next(x for x in lines if x.startswith("first broken step:")))
    assert lines[0].startswith("Proof of lemma:RTD")
    steps = [ln.split()[1] for ln in lines[lines.index(next(x for x in lines if x.startswith("steps"))) + 1:last]]
    # the proof's displays, then its closing summary and chained constant (nodes of the proof, from the records)
    assert steps == [*paper_labels.proof_labels("lemma:RTD"), "summary", "chain"]
    # then what the proof uses (the dependency graph), with the used lemma's verdicts and where it is used
    assert lines[last + 1].startswith("uses (1;") and lines[last + 2].split()[0] == "lemma:lipschitz-wasserstein"
    assert "eq:last_lemma_rtd" in lines[last + 2] and lines[-1].startswith("used claims that do not hold")
    code, out, _ = run(capsys, "verify", "--proof", "theorem: ETC upper bound", "--format", "json")
    d = json.loads(out)
    used = {u["label"]: u for u in d["uses"]}
    assert {"lemma: concentration", "theorem:W", "eq:ETC_alpha", "eq: ETC_samp"} <= set(used)
    assert "eq:E1C" in used["lemma: concentration"]["places"] and used["eq:ETC_alpha"]["kind"] == "rule"
    assert used["theorem:W"]["statement"] in ("verified", "loose", "refuted", "conditional", "vacuous")
    # the first broken step in the paper's order: eq:ETC_2 (a tie on the boundary of E_N at the proof's own N(eps);
    # 'A_2 <= B P(...)', eq: A2first, holds in the paper's setting of rewards >= 0; eq:alpha_to_1 applies eq:Holder
    # to an empirical law outside Xi, false in context at the non-monotone witness)
    assert d["proof"] == "theorem: ETC upper bound" and d["first_broken"]["step"] == "eq:ETC_2"
    assert {s["step"] for s in d["steps"] if s["status"] in ("refuted", "conditional")} >= {"eq:ETC_2", "eq:E2C",
                                                                                            "eq:alpha_to_1"}


@pytest.mark.parametrize("argv, needle", [
    (["verify", "--proof", "lemma:nope"], "argument '--proof': unknown label 'lemma:nope'"),
    (["verify", "--proof", "eq:E2C"], "argument '--proof': 'eq:E2C' is a claim (display), not a lemma or theorem"),
    (["verify", "--proof", "lemma:RTD", "--status", "refuted"], "argument '--proof': shows one proof"),
    (["verify", "--id", "nothing-like-this"], "argument '--id': no ledger id can start with"),
    (["verify", "--id", "lemma:RTD#nope"], "argument '--id': no ledger id starts with 'lemma:RTD#nope'"),
    (["verify", "--status", "proven"], "argument '--status': unknown status 'proven'"),
])
def test_bad_filters_name_the_flag(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert needle in err, err


def test_filters_and_the_summary_line(capsys, stored_ledger):
    code, out, err = run(capsys, "verify", "--id", "lemma:RTD", "--status", "refuted,loose")
    assert code == 0, err
    lines = out.splitlines()
    n_rtd = sum(i.startswith("lemma:RTD") for i in claims())  # the statement's entries and the proof's steps
    assert lines[0].startswith(f"Summary: {n_rtd} entries: ") and \
        "; 3 shown (--status refuted,loose, --id 'lemma:RTD')" in lines[0]
    assert sorted(ln.split()[0] for ln in lines[2:]) == ["lemma:RTD#r.case1", "lemma:RTD#r.case2", "lemma:RTD#summary"]
    code, out, err = run(capsys, "verify", "--id", "lemma:RTD#summary", "--format", "json")
    assert code == 0 and err.splitlines()[-1].startswith("Summary: 1 entries: 1 refuted; 1 shown")
    assert [d["id"] for d in json.loads(out)] == ["lemma:RTD#summary"]
    code, out, _ = run(capsys, "verify", "--id", "lemma:RTD#summary", "--format", "md")
    assert out.splitlines()[2].startswith("Summary: 1 entries")
