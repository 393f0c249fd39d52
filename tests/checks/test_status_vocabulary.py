"""One status vocabulary: :class:`proofs_checks.statuses.Status`, a ``str`` enum with severity and axis.

Stored ledgers, JSON and comparisons with text keep working because a status is its text; every list of the
statuses (the ledger's order, the severities, the broken ones) derives from the enum, and no module lists the
vocabulary again.
"""

from __future__ import annotations

import ast
import json
import pathlib
import pickle

from proofs_checks import ledger, verdict
from proofs_checks.statuses import AXES, BROKEN, SEVERITY, STATUSES, Status, decide, impact, worst
from rsb_sim import jsontext

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_status_is_its_text():
    assert Status.GAP == "gap" and str(Status.GAP) == "gap" and f"{Status.REFUTED}" == "refuted"
    assert json.loads(jsontext.dumps({"status": Status.CONDITIONAL})) == {"status": "conditional"}
    assert {"verified": 1}[Status.VERIFIED] == 1 and Status("loose") is Status.LOOSE
    assert pickle.loads(pickle.dumps(Status.VACUOUS)) is Status.VACUOUS


def test_the_lists_derive_from_the_enum():
    assert STATUSES == ("verified", "refuted", "loose", "conditional", "vacuous", "gap", "unchecked")
    assert ledger.STATUSES is STATUSES and verdict.Status is Status and ledger.AXES is AXES
    assert set(SEVERITY) == set(STATUSES)  # unchecked included, below every verdict
    assert min(SEVERITY, key=SEVERITY.get) == "unchecked" and max(SEVERITY, key=SEVERITY.get) == "refuted"
    assert BROKEN == ("refuted", "conditional")
    assert [s.value for s in Status if s.holds] == ["verified", "loose"]
    assert [s.value for s in Status if s.fails] == ["refuted", "conditional", "vacuous", "gap"]


def test_gap_stands_on_the_proof_axis_only():
    assert Status.GAP.axis == ("proof",)
    assert all(s.axis == AXES for s in Status if s is not Status.GAP)


def test_decide_gives_members_and_worst_orders_by_severity():
    assert decide(holds=True) is Status.VERIFIED
    assert decide(holds=True, follows=False) is Status.GAP
    assert decide(holds=False) is Status.REFUTED
    assert worst("verified", "gap", "loose") == "gap" and worst("unchecked", "verified") == "verified"
    assert worst() == "verified"
    assert impact(axis="statement", status="loose", about="rate") == "none"
    assert impact(axis="proof", status=Status.GAP, about="rate") == "proof"


def test_no_module_lists_the_vocabulary_again():
    """A tuple, list or set of four or more status words outside :mod:`proofs_checks.statuses` is a copy."""
    words = set(STATUSES)
    copies = []
    for package in ("proofs_checks", "rsb_sim", "rsb_theory"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "statuses.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 4 and all(
                        isinstance(e, ast.Constant) and e.value in words for e in node.elts):
                    copies.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not copies, copies
