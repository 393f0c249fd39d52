"""The results' records (proofs_checks/results.py): invariants, the facts derived from them, and the bottom lines
(proofs_checks/bottom_lines.py) read off them.  Invariants only, no counts."""

import json
import subprocess
import sys

import pytest

from proofs_checks import bottom_lines, contexts, graph, paper_claims, paper_labels, results
from proofs_checks.ledger import AXES, NODES, CheckResult
from proofs_checks.registry import _order_key, claims, label_of, step_of


def test_one_record_per_result_in_the_papers_order():
    assert [r.label for r in results.RECORDS] == list(paper_labels.RESULTS)
    for rec in results.RECORDS:
        assert rec.kind in ("lemma", "theorem"), rec.label
        names = [p.name for p in rec.every_part()]
        assert len(names) == len(set(names)), rec.label
        assert rec.parts and all(p.node == "statement" for p in rec.parts), rec.label
        assert all(p.node in NODES and p.node != "statement" for p in rec.attached), rec.label
        assert rec.context is None or rec.context.result == rec.label


def test_every_statement_part_and_attached_node_has_an_entry():
    """Every lemma and theorem has statement entries for each part; no record names a node nothing judges."""
    ids = list(claims())
    for rec in results.RECORDS:
        for p in rec.every_part():
            assert results.ids_of_part(rec.label, p.name, ids), (rec.label, p.name)


def test_every_entry_of_a_result_is_placed_in_its_record():
    """An entry of a result that is not a step, chained constant or display of its proof is named by a part or an
    attached node of the result's record (so a new part of a statement cannot escape its record)."""
    for ident in claims():
        label = label_of(ident)
        info = paper_labels.BY_LABEL[label]
        owner = label if label in results.BY_LABEL else info.statement if info.statement in results.BY_LABEL else None
        if owner is None or results.proof_result(ident) is not None:
            continue
        where = results.placed(ident)
        assert where is not None and where[0] == owner, ident


def test_node_part_and_axis_of_every_entry():
    for ident in claims():
        node, part = results.node_of(ident)
        assert node in NODES, ident
        assert results.axis_of(ident) in AXES
        assert (results.axis_of(ident) == "statement") == (node == "statement"), ident
        if part is not None:
            assert node == "statement" and part in {p.name for p in results.record(results.result_of(ident)).parts}
        if step_of(ident) is not None or "#chain" in ident:
            assert node == "proof", ident


def test_sketches_remarks_summaries_and_experiments_are_not_the_statement():
    assert results.node_of("theorem:UCB upper bound#sketch.E3") == ("sketch", None)
    assert results.node_of("theorem: ETC upper bound#choosing_eps") == ("remark", None)
    assert results.node_of("lemma:RTD#summary") == ("proof", None)
    assert results.node_of("corollary:RS-UCB-M#slope.gini") == ("experiment", None)
    assert results.node_of("lemma:RTD#r.case1") == ("statement", "r")
    assert results.node_of("eq:UCB regret#rs-ucb-m") == ("statement", "display")
    assert results.node_of("table:table_regrets#gini.ucb") == ("statement", None)


def test_uses_name_existing_labels_and_parts():
    for rec in results.RECORDS:
        for use in rec.uses:
            assert use.label in paper_labels.POSITION, (rec.label, use.label)
            if use.part is not None:
                assert use.label in results.BY_LABEL, (rec.label, use.label)
                results.record(use.label).part(use.part)  # KeyError: no such part
    from proofs_checks import paper_uses

    for user, used in paper_uses.USES.items():
        for use in used:
            if use.part is not None:
                results.record(use.label).part(use.part)
    assert graph.cycle() is None


def test_a_use_names_the_part_used():
    assert graph.used_parts("lemma:Dual_Power")["lemma:PHT"] == {"lemma:Dual_Power": frozenset({"r_equals_q"})}
    assert graph.used_parts("theorem:RS-ETC-M")["theorem: ETC upper bound"]["theorem:RS-ETC-M"] == {"display"}
    # a display of a statement stands for its part
    assert graph.used_parts("theorem: ETC upper bound")["lemma: concentration"]["eq:E1C"] == {"bound"}


def test_contexts_and_the_row_lemmas_are_read_from_the_records():
    assert contexts.CONTEXTS == results.contexts()
    for ident, claim in claims().items():
        owner = results.proof_result(ident)
        if owner is not None and claim.context is not None and claim.context.result == owner:
            assert claim.context == results.context_of(owner)
    for row in paper_claims.TABLE_RISKS:
        lemma = results.HOLDER_LEMMA[row.key]
        assert lemma is None or lemma in results.BY_LABEL
        assert (lemma is None) == (row.key == "cvar")


def test_the_distortions_cite_the_rows_lemma():
    """rsb_theory's registry cites a lemma for some rows (it cannot read the records, a layer up): where it does, it
    is the row's lemma of the records (the one row-to-lemma map)."""
    from rsb_theory.distortions import REGISTRY

    for key, family in REGISTRY.items():
        if family.label.startswith("lemma:"):
            assert family.label == results.HOLDER_LEMMA[key], key


def test_a_new_step_needs_nothing_but_its_claim():
    """A new ``R#step:LABEL`` gets its node, axis, context, order and uses from its id and the records alone."""
    rec = next(r for r in results.RECORDS if r.context is not None and paper_labels.proof_labels(r.label))
    label = paper_labels.proof_labels(rec.label)[-1]
    ident = f"{rec.label}#step:{label}"
    assert results.node_of(ident) == ("proof", None) and results.axis_of(ident) == "proof"
    assert results.context_of(results.proof_result(ident)) == rec.context
    assert results.about_of(ident) in ("statement", "exponent", "constant", "rate", "bound")
    assert graph.uses_of_entry(ident) == graph.uses(label)
    assert _order_key(ident, 0, 0) > _order_key(rec.label, 0, 0)


def _e(ident: str, status: str) -> CheckResult:
    node, part = results.node_of(ident)
    return CheckResult(ident, "c", "p", "d", status, "symbolic", "e", axis=results.axis_of(ident), node=node,
                       part=part)


def _line(entries, label):
    return {b.label: b for b in bottom_lines.bottom_lines(entries)}[label]


def test_the_statement_verdict_comes_from_its_parts_only():
    entries = [_e("theorem: ETC upper bound#display", "loose"), _e("theorem: ETC upper bound#choosing_eps", "refuted"),
               _e("theorem: ETC upper bound#experiments", "refuted")]
    line = _line(entries, "theorem: ETC upper bound")
    assert line.statement == "loose" and dict(line.parts) == {"display": "loose"}
    entries = [_e("lemma:RTD#q", "verified"), _e("lemma:RTD#r.case1", "loose"), _e("lemma:RTD#L", "verified"),
               _e("lemma:RTD#summary", "refuted")]
    line = _line(entries, "lemma:RTD")
    assert line.statement == "loose" and (line.proof, line.at) == ("broken", "lemma:RTD#summary")
    assert "q, L hold as printed; r holds as printed" in line.sentence
    assert _line([_e("lemma:RTD#q", "verified")], "lemma:RTD").parts == (
        ("q", "verified"), ("r", "unchecked"), ("L", "unchecked"))


def test_a_proof_is_broken_only_through_the_part_it_uses():
    pht = [_e("lemma:PHT#q", "verified"), _e("lemma:PHT#r", "verified"), _e("lemma:PHT#L", "conditional")]
    dp = [_e("lemma:Dual_Power#q", "verified"), _e("lemma:Dual_Power#step:eq:dp_final", "verified")]
    ok = _line(pht + dp + [_e("lemma:PHT#step:r_equals_q", "verified")], "lemma:Dual_Power")
    assert ok.proof == "complete"
    bad = _line(pht + dp + [_e("lemma:PHT#step:r_equals_q", "refuted")], "lemma:Dual_Power")
    assert (bad.proof, bad.at) == ("broken", "lemma:PHT") and "part r_equals_q is false as printed" in bad.sentence


def test_a_gap_is_named():
    line = _line([_e("lemma:risk-concave", "verified"), _e("lemma:risk-concave#step:after:eq: concave 2", "gap")],
                 "lemma:risk-concave")
    assert (line.statement, line.proof, line.at) == ("verified", "gap", "lemma:risk-concave#step:after:eq: concave 2")
    assert "has a gap at" in line.sentence


@pytest.mark.parametrize("module", ["proofs_checks.results", "proofs_checks.bottom_lines"])
def test_the_records_are_light(module):
    """Reading the records and a stored ledger's bottom lines imports no NumPy, SymPy or networkx."""
    code = (f"import sys, json, {module}; print(json.dumps(sorted(m for m in ('numpy', 'sympy', 'networkx') "
            "if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_an_entry_is_placed_by_the_most_specific_prefix():
    """``lemma:Delta_error`` judges the statement; ``lemma:Delta_error#order`` is the remark of the theorems' proofs."""
    assert results.node_of("lemma:Delta_error") == ("statement", "bound")
    assert results.node_of("lemma:Delta_error#order") == ("remark", None)
    assert results.node_of("lemma: concentration#any_policy") == ("statement", "any_policy")
    assert results.node_of("eq:meta_concentration") == ("statement", "bound")


def test_the_theorems_use_the_order_form_of_delta_error_and_the_adaptive_count_of_concentration():
    assert graph.used_parts("theorem:RS-ETC-M")["lemma:Delta_error"] == {"eq:delta_order": {"order"}}
    assert graph.used_parts("corollary:RS-UCB-M")["lemma:Delta_error"] == {
        "eq:delta_order_UCB_RS": {"order"}, "eq:delta_order_ce": {"order"}}
    assert graph.used_parts("theorem:UCB upper bound")["lemma: concentration"] == {"eq:probi": {"any_policy"}}
    # the ETC proof uses the bound at the fixed count N(eps)/K only
    assert set().union(*graph.used_parts("theorem: ETC upper bound")["lemma: concentration"].values()) == {"bound"}


def test_a_cited_failing_result_before_the_first_false_step_names_the_break():
    conc = [_e("lemma: concentration#bound", "verified"), _e("lemma: concentration#any_policy", "refuted")]
    ucb = [_e("eq:UCB regret#rs-ucb-m", "verified"), _e("theorem:UCB upper bound#step:eq:UCB_UB10-1", "refuted")]
    line = _line(conc + ucb, "theorem:UCB upper bound")
    assert (line.proof, line.at) == ("broken", "lemma: concentration") and "any_policy" in line.sentence
    # the same proof with the adaptive count sound: its own false step names the break
    ok = [_e("lemma: concentration#bound", "verified"), _e("lemma: concentration#any_policy", "verified")]
    assert _line(ok + ucb, "theorem:UCB upper bound").at == "theorem:UCB upper bound#step:eq:UCB_UB10-1"
    # reached only through another proof's displays (eq:T_epsilon), it does not pre-empt the proof's own false step
    ov = [_e("lemma:oversampling", "conditional"), _e("lemma:oversampling#step:eq:m_finite", "refuted")]
    assert _line(conc + ov, "lemma:oversampling").at == "lemma:oversampling#step:eq:m_finite"


def test_a_failing_order_remark_breaks_the_theorems_and_a_failing_constant_does_not():
    base = [_e("theorem:RS-ETC-M#step:eq:delta_order", "verified")]
    line = _line(base + [_e("lemma:Delta_error", "refuted"), _e("lemma:Delta_error#order", "verified")],
                 "theorem:RS-ETC-M")
    assert line.proof == "complete"
    line = _line(base + [_e("lemma:Delta_error", "verified"), _e("lemma:Delta_error#order", "refuted")],
                 "theorem:RS-ETC-M")
    assert (line.proof, line.at) == ("broken", "lemma:Delta_error") and "part order" in line.sentence
