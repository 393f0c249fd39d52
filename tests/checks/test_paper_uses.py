"""The dependency graph (proofs_checks/paper_uses.py, with the results' uses from proofs_checks/results.py) and its
queries (proofs_checks/graph.py, on networkx)."""

import pytest

from proofs_checks import graph, paper_labels, paper_uses
from proofs_checks.registry import claims


def test_every_label_of_the_graph_is_a_label_of_the_paper():
    for user, used in paper_uses.USES.items():
        assert user in paper_labels.POSITION, user
        for u in used:
            assert u.label in paper_labels.POSITION, (user, u.label)
            assert u.label != user, user
        assert len({u.label for u in used}) == len(used), f"{user} lists a use twice"
    for (table, row, _col), used in paper_uses.CELL_USES.items():
        assert paper_labels.get(table).kind == "table" and row
        assert all(u.label in paper_labels.POSITION for u in used)


def test_the_graph_is_acyclic():
    assert graph.cycle() is None
    for n in graph.nodes():  # and so is its projection on the results
        assert n not in graph.node_ancestors(n), n


def test_every_result_table_and_rule_has_an_entry():
    for label in (*paper_labels.RESULTS, *graph.TABLES, *graph.RULES):
        assert label in paper_uses.USES, label


def test_every_claim_display_of_a_proof_uses_something():
    """A display inside a proof follows from something; one that uses nothing was forgotten (except the facts the
    paper states as evident)."""
    evident = {"eq:WRTD_lemma_0", "eq:solitary_best"}  # |sqrt a - sqrt b| <= sqrt|a - b|; h strictly increasing
    missing = [x.label for x in paper_labels.LABELS if x.kind == "claim" and x.proof
               and not graph.uses(x.label) and x.label not in evident]
    assert missing == []


def test_a_small_cycle_is_found():
    """The acyclicity test can fail: a graph with a cycle is reported with the cycle's labels."""
    bad = dict(paper_uses.USES)
    bad["eq:lemma_5_def"] = (paper_uses.Use("eq:last_lemma_rtd"),)
    found = graph.cycle(bad)
    assert found is not None and found[0] == found[-1] and "eq:last_lemma_rtd" in found


def test_queries():
    assert graph.uses("eq:E3C") == ("eq:E1C", "eq:E2C")
    assert "eq:E3C" in graph.used_by("eq:E1C")
    assert "lemma: concentration" not in graph.ancestors("eq:E1C")  # the display, not the lemma
    assert "eq:meta_concentration" in graph.ancestors("theorem: ETC upper bound")
    assert "theorem:RS-ETC-M" in graph.descendants("eq:E1C")
    assert "table:table_regrets" in graph.descendants("lemma:RTD")
    assert graph.reason("eq:theorem_lastline_CE", "theorem:W").startswith("'W > 1")
    with pytest.raises(KeyError, match="no label"):
        graph.uses("eq:nonexistent")
    with pytest.raises(KeyError):
        graph.reason("eq:E3C", "eq:W")
    # the results' projection: the theorems use the lemmas their proofs cite
    assert {"lemma:probability of E3", "lemma:undersampling", "lemma:oversampling", "theorem:W"} <= set(
        graph.node_uses("theorem:UCB upper bound"))
    assert "lemma:Delta_error" in graph.node_uses("corollary:RS-UCB-M")
    assert "lemma: concentration" in graph.node_uses("theorem: ETC upper bound")


def test_table_cells_come_from_the_corollaries_and_the_lemmas():
    assert graph.uses_of_entry("table:table_regrets#gini.ucb") == ("corollary:RS-UCB-M",
                                                                    "lemma:example_utility_Holder")
    assert graph.uses_of_entry("table:table_regrets#gini.etc") == ("theorem:RS-ETC-M",
                                                                    "lemma:example_utility_Holder")
    assert "lemma:beta_lemma_monotone" in graph.uses_of_entry("table:table_regrets#dual_power.ucb")
    assert graph.uses_of_entry("table:table_risks#right_tail.q") == ("lemma:RTD",)
    assert graph.uses_of_entry("table:table_risks#pht.beta") == ("lemma:beta_lemma_monotone",)
    assert graph.uses_of_entry("table:table_risks#gini.beta") == ()
    assert graph.uses_of_entry("table:literature_comparison#rs_ucb_m") == ("corollary:RS-UCB-M",)
    # a table's node uses the union of its cells
    assert set(graph.uses("table:table_risks")) == {u.label for (t, _r, _c), us in paper_uses.CELL_USES.items()
                                                    if t == "table:table_risks" for u in us}


def test_uses_of_every_ledger_entry():
    """Every ledger id has its uses (labels of the paper, in its order); a step uses what its display uses."""
    for ident in claims():
        got = graph.uses_of_entry(ident)
        assert all(x in paper_labels.POSITION for x in got), ident
        assert list(got) == sorted(got, key=paper_labels.POSITION.__getitem__), ident
    assert graph.uses_of_entry("theorem: ETC upper bound#step:eq:E1C") == graph.uses("eq:E1C")
    assert graph.uses_of_entry("eq:E2C") == graph.uses("eq:E2C")
    assert "eq:LALL" in graph.uses_of_entry("lemma:example_utility_Holder#step:after:eq:LALL")


def test_layout_is_layered_and_in_the_papers_order():
    pos = graph.layout()
    assert set(pos) == set(graph.nodes())
    for n in graph.nodes():
        for m in graph.node_uses(n):
            assert pos[m][0] < pos[n][0], (n, m)  # a node sits beyond everything it uses
    by_layer: dict[int, list[str]] = {}
    for n, (layer, slot) in sorted(pos.items(), key=lambda kv: kv[1]):
        by_layer.setdefault(layer, []).append(n)
    for layer, names in by_layer.items():
        assert names == sorted(names, key=paper_labels.POSITION.__getitem__), layer
    assert graph.layout() == pos  # deterministic


def test_a_used_claim_that_fails_is_named_with_its_places():
    """``rsb verify --proof``'s uses: a used lemma whose statement does not hold as printed is named with the places
    of the proof that use it (built from entries, no check runs)."""
    from proofs_checks import proof_uses
    from proofs_checks.ledger import CheckResult

    bad = CheckResult("lemma:Delta_error", "Delta <= L (K W)^r (eps/2)^r", "bound", "larger", "conditional",
                      "numeric", "holds on the ETC grid only")
    used = {u.label: u for u in proof_uses.build("corollary:RS-UCB-M", [bad])}
    assert used["lemma:Delta_error"].fails and used["lemma:Delta_error"].places == (
        "eq:delta_order_UCB_RS", "eq:delta_order_ce")
    assert used["theorem:UCB upper bound"].statement == "unchecked" and not used["theorem:UCB upper bound"].fails
    text = proof_uses.to_text("corollary:RS-UCB-M", tuple(used.values()))
    assert "lemma:Delta_error (conditional), used at eq:delta_order_UCB_RS, eq:delta_order_ce: holds on the ETC" in text
    ok = CheckResult("lemma:Delta_error", "c", "p", "d", "verified", "numeric", "e")
    again = {u.label: u for u in proof_uses.build("corollary:RS-UCB-M", [ok])}
    assert not again["lemma:Delta_error"].fails and again["lemma:Delta_error"].evidence == ""
    assert proof_uses.ids_needed("corollary:RS-UCB-M", ["lemma:Delta_error", "lemma:RTD#q"]) == ("lemma:Delta_error",)


def test_the_docs_count_the_graph():
    """docs/theory.md states the graph's size; it must match the data."""
    import re
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "theory.md").read_text().split())
    labels, edges, reasons = map(int, re.search(r"`paper_uses.USES`: (\d+) labels, (\d+) edges, (\d+) of them",
                                                text).groups())
    assert labels == len(paper_uses.USES)
    assert edges == sum(len(v) for v in paper_uses.USES.values())
    assert reasons == sum(1 for v in paper_uses.USES.values() for u in v if u.reason)
    layers = int(re.search(r"tool: (\d+) layers by longest path", text).group(1))
    assert layers == 1 + max(layer for layer, _slot in graph.layout().values())
    assert f"the {len(graph.nodes())} nodes are" in text
