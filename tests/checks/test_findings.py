"""What a reader reads first: the findings grouped by cause and ranked, their sentences for every status and node
kind, the facts that move an entry's impact, the conditions conditional entries carry, and the entry points
(``api.findings``, the stored ledger's key)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from proofs_checks import causes, findings, statuses
from proofs_checks.ledger import IMPACTS, STATUSES, CheckResult

#: One id per node kind (as :func:`proofs_checks.causes.node_of` reads it from the id).
NODE_IDS = {
    "statement": "lemma:Delta_error",
    "proof": "theorem:UCB upper bound#step:eq:E3_1",
    "sketch": "theorem:UCB upper bound#sketch.E3",
    "remark": "appendix:lit_comp#text.pht_rs_ucb_m",
    "experiment": "theorem: ETC upper bound#experiments",
}
#: Derived texts of every form a check writes: a value, a phrase, "holds", a condition-like phrase.
DERIVED = ("T^-(1) K^4 (polylog aside)", "holds on the ETC grid eq:etc_discrete_set with 1/eps an integer", "holds",
           "varpi^(1/3)", "fails", "q = 1: K*L (64 X)^q", "")
CONDITION = "beta in [1/2, oo)"


def _entry(status: str, node: str, derived: str = DERIVED[0], impact: str | None = None, **kw) -> CheckResult:
    ident = NODE_IDS[node]
    if impact is None:
        impact = statuses.impact(axis="proof" if node == "proof" else "statement",
                                 status=status if status != "unchecked" else "verified", about="rate", node=node)
    return CheckResult(ident, "A claim about O(log T/T).", "O(log T/T)", derived, status, "symbolic",
                       "some evidence", axis="proof" if node == "proof" else "statement", impact=impact, **kw)


def _synthetic() -> list[CheckResult]:
    out = []
    for status in STATUSES:
        for node in statuses.NODES:
            if status == "gap" and node not in ("proof", "sketch"):
                continue
            for derived in DERIVED:
                for condition in ((None, CONDITION) if status == "conditional" else (None,)):
                    out.append(_entry(status, node, derived, condition=condition))
    return out


# --- the vocabulary ------------------------------------------------------------------------------------------------

def test_every_cause_has_a_rank_a_title_and_one_concluding_sentence():
    assert list(causes.RANKS) == ["statement", "rate", "experiments", "proof", "condition", "constant", "typo"]
    assert {c.rank for c in causes.CAUSES.values()} == set(causes.RANKS)
    for c in causes.CAUSES.values():
        assert c.title and not c.title.endswith(".") and c.conclusion.endswith(".")
        assert c.conclusion.count(". ") == 0, c.key
    # each category has exactly one generic cause, the catch-all of :func:`cause_of`
    for rank in causes.RANKS:
        assert sum(c.generic for c in causes.CAUSES.values() if c.rank == rank) <= 1


def test_a_bad_cause_key_is_refused():
    with pytest.raises(ValueError, match="cause"):
        _entry("refuted", "statement", cause="no_such_cause")


@pytest.mark.parametrize("ident, node", [
    ("theorem:UCB upper bound#step:eq:E3_1", "proof"), ("theorem:RS-ETC-M#chain", "proof"),
    ("lemma:RTD#summary", "proof"), ("theorem:UCB upper bound#sketch.tracking", "sketch"),
    ("theorem:RS-ETC-M#slope.gini", "experiment"), ("corollary:RS-UCB-M#experiments", "experiment"),
    ("sec: experiments#exploration", "experiment"), ("sec:analysis#text.gini_discrete_etc", "remark"),
    ("eq:UCB_alpha2#discussion.gini", "remark"), ("theorem: ETC upper bound#choosing_eps", "remark"),
    ("table:table_regrets#gini.ucb", "statement"), ("lemma:Delta_error", "statement"),
])
def test_node_kind_from_the_id(ident, node):
    assert causes.node_of(ident) == node
    # an entry on the proof axis is a proof node whatever its id (the display of a proof, eq:E2C)
    assert causes.node_of(CheckResult("eq:E2C", "c", "p", "d", "refuted", "symbolic", "e", axis="proof")) == "proof"


# --- impact: node kind and a condition that holds at every use -----------------------------------------------------

def test_impact_reads_the_node_kind():
    imp = statuses.impact
    assert imp(axis="statement", status="refuted", about="rate", node="remark") == "rate"
    assert imp(axis="statement", status="conditional", about="exponent", node="remark") == "rate"
    assert imp(axis="statement", status="refuted", about="statement", node="remark") == "statement"
    assert imp(axis="statement", status="gap", about="statement", node="sketch") == "proof"
    assert imp(axis="statement", status="refuted", about="statement", node="sketch") == "proof"
    assert imp(axis="statement", status="refuted", about="rate", node="sketch") == "rate"
    assert imp(axis="statement", status="refuted", about="rate", node="proof") == "proof"
    assert imp(axis="statement", status="vacuous", about="bound", node="experiment") == "statement"
    with pytest.raises(ValueError, match="node"):
        imp(axis="statement", status="refuted", about="rate", node="footnote")


def test_a_condition_that_holds_at_every_use_changes_nothing():
    imp = statuses.impact
    assert imp(axis="statement", status="conditional", about="statement", condition_at_uses=True) == "none"
    assert imp(axis="statement", status="conditional", about="statement", condition_at_uses=False) == "statement"
    # the fact concerns a condition: a refuted entry stays what it is
    assert imp(axis="statement", status="refuted", about="statement", condition_at_uses=True) == "statement"
    e = _entry("conditional", "statement", impact="none", condition=CONDITION, condition_at_uses=True)
    assert causes.cause_of(e) is None and findings.what_matters([e]) == []


def test_conditions_at_uses_are_shown_by_the_checks():
    """y >= 512/sqrt(n) at RS-ETC-M's N(eps)/K samples and at RS-UCB-M's radius: the margin is >= 0 (simplified and
    on a grid); and no result uses `example utility`."""
    from proofs_checks.checks import concentration, example_utility

    ok, where = concentration.condition_at_uses()
    assert ok and "16*sqrt(2)*exp(1/2)*sqrt(log(T))" in where
    import sympy as sp

    ok, _where = example_utility.condition_at_uses(sp.Interval(0, 1) - sp.FiniteSet(sp.Rational(1, 2)))
    assert ok
    # a use at p = 1/2 would break it: the check reads the uses, it does not assume them
    ok, _where = example_utility.condition_at_uses(sp.FiniteSet(sp.Rational(1, 2)))
    assert ok  # no experiment has arms Bern(p), Bern(1 - p): nothing to break


# --- the condition a conditional entry carries ---------------------------------------------------------------------

def test_a_conditional_entry_carries_the_repair_given_to_decide():
    from proofs_checks.claims import Claim

    def check(claim):
        statuses.decide(holds=True)
        inner = Claim("inner", None, lambda c: CheckResult("inner", "c", "p", "d",
                                                            statuses.decide(holds=False, repair="x > 1"),
                                                            "symbolic", "e")).run()
        assert inner.condition == "x > 1"  # a nested run collects its own
        st = statuses.worst(statuses.decide(holds=False, repair="p != 1/2"), statuses.decide(holds=True))
        return CheckResult(claim.id, "c", "p", "d", st, "symbolic", "e")

    res = Claim("outer", None, check).run()
    assert res.status == "conditional" and res.condition == "p != 1/2"
    # outside a run nothing is recorded, and a check that names its condition keeps it
    assert statuses.decide(holds=False, repair="y") == "conditional"
    named = Claim("named", None, lambda c: CheckResult("named", "c", "p", "d", statuses.decide(
        holds=False, repair="r"), "symbolic", "e", condition="in words")).run()
    assert named.condition == "in words"


def test_a_refuted_entry_carries_no_condition():
    from proofs_checks.claims import Claim

    def check(claim):
        st = statuses.worst(statuses.decide(holds=False, repair="p != 1/2"), statuses.decide(holds=False))
        return CheckResult(claim.id, "c", "p", "d", st, "symbolic", "e")

    assert Claim("x", None, check).run().condition is None


# --- sentences: every status and node kind --------------------------------------------------------------------------

def _grammar(text: str, e: CheckResult) -> None:
    assert "rsb derives holds" not in text and "rsb derives fails" not in text, text
    assert not re.search(r"rsb derives [a-z]{2,} ", text.replace("rsb derives varpi", "")), text
    assert "  " not in text and ". ." not in text and ";;" not in text and " ;" not in text, text
    assert text.endswith(f". [{e.id}]"), text
    assert text.count(" — ") == 1, text
    if e.status == "conditional":
        assert "condition the paper does not state" in text
        if e.condition:
            assert f"does not state: {e.condition}" in text  # the condition, never the derived rate
        assert "^" not in e.derived or e.derived not in text.split(" — ")[1], text  # no rate where a condition is
    if e.status == "vacuous":
        assert "holds" not in text.split(" — ")[1].split(";")[0], text  # vacuous is not "holds"
    if e.status in ("verified", "loose"):
        assert " — holds" in text
    if e.status == "refuted":
        assert " — is false as printed" in text


def test_every_sentence_reads_for_every_status_and_node_kind():
    entries = _synthetic()
    assert {e.status for e in entries} == set(STATUSES)
    for e in entries:
        _grammar(findings.sentence(e), e)
    # typo: false as printed, but the correction holds
    typo = _entry("refuted", "proof", "||F* - G||_W", impact="typo")
    assert "but holds with the evident correction" in findings.sentence(typo)


def test_every_finding_renders_and_lists_its_members():
    entries = _synthetic()
    found = findings.what_matters(entries)
    assert found
    listed = [i for f in found for i in f.ids]
    assert len(listed) == sum(causes.cause_of(e) is not None for e in entries)
    for f in found:
        assert f.sentence.startswith(f.title) and f.sentence.endswith(f.conclusion)
        assert f.impact in IMPACTS and f.status in STATUSES and 1 <= f.rank <= len(causes.RANKS)
        for m in f.members:
            assert m.line.endswith(f"[{m.id}]")
    text, md = findings.to_text(entries), findings.to_markdown(entries)
    for f in found:
        assert f.title in text and f.title in md
    data = json.loads(json.dumps(findings.to_dict(entries)))
    assert set(data) == {"what_matters", "bottom_lines"}
    assert all(d["ids"] == [m["id"] for m in d["members"]] for d in data["what_matters"])
    block = findings.readme_block(entries)
    assert block.startswith(findings.README_START) and block.endswith(findings.README_END)
    # the Markdown ledger (rsb verify --format md, docs/ledger.md) opens with them, then the table
    doc = findings.document(entries[:2], entries)
    assert doc.index("## What matters") < doc.index("## Bottom lines") < doc.index("## Entries")
    assert found[0].title in doc


def test_every_bottom_line_reads_for_every_status():
    """The statement of a result with one entry of each status, and a proof step of each status."""
    for status in STATUSES:
        if status == "unchecked":
            continue
        statement = CheckResult("lemma:Delta_error", "c", "p", "d", status, "symbolic", "e", axis="statement")
        step_status = status if status != "vacuous" else "gap"
        step = CheckResult("lemma:Delta_error#step:eq:Delta_error_2", "c", "p", "holds on a grid", step_status,
                           "symbolic", "e", axis="proof")
        for entries in ([statement], [statement, step], [step]):
            for b in findings.bottom_lines(entries):
                assert b.sentence.endswith(".") and "  " not in b.sentence and ".." not in b.sentence, b.sentence
                head = b.sentence[len(b.label):]
                assert re.match(r"^: the statement( \([^)]*\))? (holds|is|has|says) ", head), b.sentence
                assert re.search(r"; (the proof|every checked step|no step)", head), b.sentence
                if status in ("gap", "vacuous") and b.label == "lemma:Delta_error" and step in entries:
                    assert "the proof has a gap at" in head, b.sentence


# --- membership and ranking -----------------------------------------------------------------------------------------

def _named(ident, status, impact, **kw):
    return CheckResult(ident, f"claim {ident}", "p", "2", status, "symbolic", "e", impact=impact,
                       axis="proof" if "#step:" in ident else "statement", **kw)


def test_findings_are_grouped_by_cause_and_ranked_by_consequence():
    entries = [
        _named("lemma:RTD#summary", "refuted", "typo"),
        _named("theorem:UCB upper bound#step:eq:E3_1", "gap", "proof", cause="holder_outside_xi"),
        _named("theorem: ETC upper bound#step:eq:alpha_to_1", "gap", "proof", cause="holder_outside_xi"),
        _named("theorem:UCB upper bound#step:eq:probi", "refuted", "proof"),
        _named("theorem:RS-ETC-M#experiments", "vacuous", "statement"),
        _named("corollary:RS-UCB-M#slope.gini", "vacuous", "statement"),
        _named("theorem:W", "conditional", "statement", condition="X centred"),
        _named("table:table_regrets#gini.ucb", "conditional", "rate", condition=CONDITION),
        _named("table:table_regrets#gini.etc", "conditional", "rate", condition="beta exists"),
        _named("appendix:lit_comp#text.pht_rs_ucb_m", "refuted", "rate"),
        _named("eq:number of samples main paper#experiments", "conditional", "statement", condition="N < T"),
        _named("lemma:Delta_error", "refuted", "statement"),
        _named("lemma:PHT#L", "conditional", "constant", condition="tau <= 1"),
        _named("theorem:UCB upper bound#chain.rs-ucb-m", "gap", "proof", cause="k_power"),
        _named("lemma:example_utility_Holder#summary", "loose", "none"),
    ]
    found = findings.what_matters(entries)
    keys = [f.key for f in found]
    # within a category the specific causes come first, its catch-all last
    assert keys == ["false_statement", "beta_unstated", "wrong_rate", "experiments_not_analysed",
                    "vacuous_at_experiments", "holder_outside_xi", "proof_steps", "unstated_condition",
                    "pht_constant", "k_power", "typos"], keys
    by = {f.key: f for f in found}
    # members in ledger order, one finding for the two vacuous entries (the same cause)
    assert by["holder_outside_xi"].ids == ("theorem:UCB upper bound#step:eq:E3_1",
                                           "theorem: ETC upper bound#step:eq:alpha_to_1")
    assert by["vacuous_at_experiments"].ids == ("theorem:RS-ETC-M#experiments", "corollary:RS-UCB-M#slope.gini")
    assert by["beta_unstated"].ids == ("table:table_regrets#gini.ucb", "table:table_regrets#gini.etc")
    assert [r for f in found for r in f.ids].count("lemma:example_utility_Holder#summary") == 0
    assert [f.rank for f in found] == sorted(f.rank for f in found)
    # the ranks follow the categories; within one, the worse status first
    assert by["wrong_rate"].rank == by["beta_unstated"].rank == 2 and by["wrong_rate"].status == "refuted"


def test_the_cause_a_check_sets_wins():
    e = _named("theorem:UCB upper bound#step:eq:CEUCB1", "gap", "proof", cause="holder_outside_xi")
    assert causes.cause_of(e).key == "holder_outside_xi"
    assert causes.cause_of(replace(e, cause=None)).key == "proof_steps"


# --- the checks' facts: sketch.E3, Hölder outside Xi ----------------------------------------------------------------

def test_the_sketch_that_states_less_than_its_proof_is_a_gap_not_false():
    """T((1/T^2+1)^K - 1) is below the appendix's T((2/T^2+1)^K - 1), but at the paper's radius each arm misses with
    probability <= 1/T^2, so no instance exceeds it: a gap (impact proof); printing the appendix's bound follows."""
    from proofs_checks.registry import claims, evaluate

    res = evaluate(claims()["theorem:UCB upper bound#sketch.E3"], mutants=True)
    assert res.status == "gap" and res.impact == "proof" and "No counterexample in context" in res.evidence
    assert res.mutant_caught and [m.status for m in res.mutants] == ["verified"]


def test_steps_applying_holder_outside_xi_carry_the_cause():
    from proofs_checks.registry import claims, evaluate

    for ident, status in (("theorem:UCB upper bound#step:eq:UCB_UB9", "refuted"),
                          ("theorem:UCB upper bound#step:eq:CEUCB1", "gap")):
        res = evaluate(claims()[ident], mutants=True)
        assert res.status == status and res.cause == "holder_outside_xi", (ident, res.evidence)
        assert "outside Xi" in res.evidence and res.mutant_caught


# --- entry points ---------------------------------------------------------------------------------------------------

def test_api_findings_returns_the_objects_of_the_command_line():
    from proofs_checks import api

    entries = _synthetic()
    got = api.findings(entries)
    assert [f.key for f in got] == [f.key for f in findings.what_matters(entries)]
    assert json.loads(got.to_json()) == json.loads(json.dumps(findings.to_dict(entries)))
    frame = got.to_frame()
    assert len(frame) == sum(len(f.members) for f in got) and frame["rank"].is_monotonic_increasing


def test_api_reads_and_stores_the_whole_ledger(monkeypatch):
    """api.ledger(status=...) asks the store for the whole ledger (computed and stored once), a subset only with id."""
    from proofs_checks import api, stored
    from proofs_checks.registry import claims

    calls = []

    def fake(**kw):
        calls.append(kw)
        ids = list(claims()) if kw["subset"] is None else kw["subset"](list(claims()))
        entries = tuple(CheckResult(i, "c", "p", "d", "verified", "symbolic", "e") for i in ids)
        return stored.Ledger(entries, "computed", "k", None, None, "")

    monkeypatch.setattr(stored, "load_or_compute", fake)
    assert len(api.ledger(status="verified")) == len(claims()) and calls[-1]["subset"] is None
    assert [e.id for e in api.ledger(id="lemma:RTD")] and calls[-1]["subset"] is not None


class _Dist:
    def __init__(self, name, version):
        self.metadata, self.version = {"Name": name}, version


def test_installing_an_unrelated_distribution_keeps_the_stored_key():
    from proofs_checks import stored

    base = [_Dist("numpy", "2.1.0"), _Dist("SymPy", "1.13.3"), _Dist("requests", "2.32.0")]
    with_jupyter = base + [_Dist("jupyterlab", "4.2.0"), _Dist("ipykernel", "6.29.0")]
    assert stored.installed_versions(base) == stored.installed_versions(with_jupyter) == {
        "numpy": "2.1.0", "sympy": "1.13.3"}
    roots = stored.package_roots()
    key = stored.ledger_key(roots, stored.installed_versions(base), "cpython 3.11.7")
    assert key == stored.ledger_key(roots, stored.installed_versions(with_jupyter), "cpython 3.11.7")
    # a package that can change a number does change it
    upgraded = [_Dist("numpy", "2.2.0")] + base[1:]
    assert key != stored.ledger_key(roots, stored.installed_versions(upgraded), "cpython 3.11.7")
    assert {"numpy", "scipy", "sympy", "mpmath", "cvxpy", "numba", "pandas", "networkx"} <= set(
        stored.KEYED_DISTRIBUTIONS)


# --- one cause per entry, each cause with its own kind of members ----------------------------------------------------

def test_a_condition_is_matched_as_a_whole_term():
    """max p < 1 (dual power's h'(1) = 0) is not the start of CVaR's max p < 1/2: one cause each."""
    one = _named("table:table_risks#dual_power.beta", "conditional", "rate", condition="max p < 1")
    half = _named("appendix:lit_comp#text.cvar_rs_ucb_m", "conditional", "rate", condition="max p < 3/4; max p < 1/2")
    assert causes.cause_of(one).key == "max_p_one"
    assert causes.cause_of(half).key == "wrong_rate"
    # the prefixes that end in a space, or a whole condition, still match
    assert causes.cause_of(_named("table:table_regrets#gini.ucb", "conditional", "rate",
                                  condition="beta in [3/2, oo)")).key == "beta_unstated"


def test_a_check_names_the_cause_of_its_failures_only():
    @causes.because("integer_counts")
    def check(status):
        return _named("eq: ETC commit 5", status, "proof")

    assert check("refuted").cause == "integer_counts" and check("verified").cause is None
    assert check.__name__ == "check"  # picklable by name for the worker processes
    with pytest.raises(ValueError, match="cause"):
        causes.because("no_such_cause")


def _rule_matches(e):
    """The specific causes whose rule an entry's facts satisfy (a cause its check names is not a rule's)."""
    node = causes.node_of(e)
    return {c.key for c in causes.CAUSES.values() if not c.generic and c.rule.matches(e, node)}


def _groups(ledger):
    out = {}
    for e in ledger:
        c = causes.cause_of(e)
        if c is not None:
            out.setdefault(c.key, []).append(e)
    return out


def test_no_entry_belongs_to_two_causes(ledger):
    """The specific causes' rules are disjoint on the ledger (no entry satisfies two, so the order of
    :data:`causes.CAUSES` never decides a membership); the cause a check names wins over a rule (the confidence
    radius is vacuous, but its consequence is that RS-UCB-M cannot learn at the experiments' horizons), except over
    an evident typo; and each
    entry is listed in one finding at most."""
    for e in ledger:
        if causes.cause_of(e) is None:
            continue
        assert len(_rule_matches(e)) <= 1, (e.id, _rule_matches(e))
        if e.cause:  # an evident typo whose corrected form holds is a typo, whatever its check knows
            assert causes.cause_of(e).key == ("typos" if e.impact == "typo" else e.cause)
    listed = [i for f in findings.what_matters(ledger) for i in f.ids]
    assert len(listed) == len(set(listed))


def test_each_named_cause_has_its_kind_of_members(ledger):
    by = _groups(ledger)
    ids = {k: {e.id for e in v} for k, v in by.items()}
    # the fixed-count bound at the policy's own count: the lemma's part and the UCB steps that read 1/T^2 from it
    assert "lemma: concentration#any_policy" in ids["concentration_adaptive"]
    assert all(i.startswith(("lemma: concentration#", "theorem:UCB upper bound#")) for i in ids["concentration_adaptive"])
    assert {"lemma:Delta_error", "lemma:Delta_error#step:eq:Delta_error_2"} <= ids["delta_error_grid"]
    # h'(max p) = 0 at max p = 1: the lemma, its step and the tables' rows, ranked by the worst (a rate)
    assert {"lemma:beta_lemma_monotone", "lemma:beta_lemma_monotone#step:after:eq:delta_min_conc_mon_analysis",
            "table:table_risks#dual_power.beta", "table:table_regrets#quadratic.ucb"} <= ids["max_p_one"]
    assert causes.CAUSES["max_p_one"].rank == "rate"
    # PHT's tau^(1-s): the constant, its Jensen step, its summary and its chain, one finding
    assert {"lemma:PHT#L", "lemma:PHT#step:jensen", "lemma:PHT#summary", "lemma:PHT#chain"} <= ids["pht_constant"]
    assert all(i.startswith(("lemma:PHT", "table:table_risks#pht")) for i in ids["pht_constant"])
    # the forced exploration past T(eps): the tracking lemmas' statements (which hold at the use) and steps
    assert {"lemma:undersampling", "lemma:oversampling", "lemma:undersampling#step:eq:UK_oneside",
            "lemma:oversampling#step:eq:m_finite"} <= ids["forced_exploration"]
    assert "corollary:RS-UCB-M#hypothesis.beta" in ids["grid_ties"]
    # the identification steps fail at the witness with Hölder continuity on Xi only (no tie there)
    assert {"theorem:UCB upper bound#step:eq:UCB_UB10-1", "theorem:UCB upper bound#step:eq:UCB_UB9"} <= \
        ids["holder_outside_xi"]
    # tied top arms: Table 1's solitary RS-ETC-M rates, ranked by the worst (a rate)
    assert {"table:table_regrets#cvar.etc", "table:table_regrets#mean.etc"} <= ids["grid_ties"]
    assert causes.CAUSES["grid_ties"].rank == "rate"
    assert {"theorem:UCB upper bound#chain.rs-ucb-m", "theorem:UCB upper bound#step:eq:theorem_lastline"} <= \
        ids["k_power"]
    assert all(e.node == "proof" or causes.node_of(e) == "proof" for e in by["integer_counts"] + by["appendix_n_eps"])
    # the confidence radius is owned by the experiments that cannot learn with it, not by the vacuous bounds
    assert "lemma: concentration#radius" in ids["experiments_not_analysed"]
    assert "lemma: concentration#radius" not in ids.get("vacuous_at_experiments", set())
    # a closing summary's evident typo is a typo
    assert "lemma:RTD#summary" in ids["typos"]


def test_no_catch_all_outgrows_its_limit(ledger):
    """A category's catch-all holds what has no cause of its own, not a cause in disguise."""
    for key, members in _groups(ledger).items():
        if causes.CAUSES[key].generic and key != "typos":
            assert len(members) <= causes.CATCH_ALL_LIMIT, (key, [e.id for e in members])
