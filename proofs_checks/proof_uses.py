"""What a proof uses (``rsb verify --proof LABEL``): the results and rules its steps rest on, where, and how
each used result fares.

For a lemma or theorem R, the *places* are R itself and the labelled displays of its proof and
statement (:mod:`proofs_checks.paper_labels`); each place's uses (:mod:`proofs_checks.paper_uses`) are
followed through labels that are not nodes of the graph of results (definitions, displays of another
proof that R borrows) until a node is reached (:func:`proofs_checks.graph.node_uses` does the same for the
picture).  Each used result gets its bottom line (:func:`proofs_checks.bottom_lines.bottom_line`: its
statement's and its proof's verdicts).  A used result whose statement does not hold as printed
(:data:`proofs_checks.verdict.BROKEN`) is named with the places of R's proof that use it, and the
evidence of its statement, so that a reader sees where the proof leans on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import bottom_lines, graph, paper_labels, proof_view
from .ledger import CheckResult
from .statuses import BROKEN


@dataclass(frozen=True)
class ProofUse:
    """One node a proof uses.

    Attributes
    ----------
    label : str
        The used result, rule or table.
    kind : str
        ``result``, ``rule`` or ``table``.
    places : tuple of str
        The labels of the proof (the result itself, or a display of its proof or statement) that use it, in the
        paper's order.
    reasons : tuple of str
        The reasons transcribed on the edges from those places (where the paper's citation is not plain).
    statement, proof : str or None
        The used result's two verdicts (:class:`proofs_checks.bottom_lines.BottomLine`); None for a rule.
    at : str or None
        Where the used result's own proof is not complete.
    evidence : str
        The evidence of the used result's worst statement entry (empty when it holds).
    """

    label: str
    kind: str
    places: tuple[str, ...]
    reasons: tuple[str, ...]
    statement: str | None
    proof: str | None
    at: str | None
    evidence: str

    @property
    def fails(self) -> bool:
        """The used result's statement does not hold as printed (refuted or conditional)."""
        return self.statement in BROKEN

    def to_dict(self) -> dict:
        return {"label": self.label, "kind": self.kind, "places": list(self.places), "reasons": list(self.reasons),
                "statement": self.statement, "proof": self.proof, "at": self.at, "fails": self.fails,
                "evidence": self.evidence}


places = graph.proof_places
used_nodes = graph.used_nodes
_kind = graph.node_kind


def ids_needed(result: str, ids) -> tuple[str, ...]:
    """The ids (of ``ids``, in their order) whose entries :func:`build` needs: the proof's and the used results'."""
    ids = list(ids)
    wanted = {result, *(n for n in used_nodes(result) if _kind(n) == "result")}
    keep = {i for r in wanted for i in proof_view.ids_of(r, ids)}
    return tuple(i for i in ids if i in keep)


def build(result: str, entries: list[CheckResult]) -> tuple[ProofUse, ...]:
    """What ``result``'s proof uses, from the ledger entries ``entries`` (a superset of :func:`ids_needed`)."""
    order = paper_labels.POSITION.__getitem__
    out = []
    for node, where in sorted(used_nodes(result).items(), key=lambda kv: order(kv[0])):
        kind = _kind(node)
        reasons = tuple(dict.fromkeys(r for rs in where.values() for r in rs))
        if kind == "result":
            view = proof_view.build(node, entries)
            line = bottom_lines.bottom_line(view)
            worst = [r for r in view.statement if r.status == line.statement]
            evidence = worst[0].evidence if worst and line.statement != "verified" else ""
            out.append(ProofUse(node, kind, tuple(sorted(where, key=order)), reasons, line.statement, line.proof,
                                line.at, evidence))
        else:
            out.append(ProofUse(node, kind, tuple(sorted(where, key=order)), reasons, None, None, None, ""))
    return tuple(out)


def _short(text: str, n: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def to_text(result: str, used: tuple[ProofUse, ...]) -> str:
    """Lines for a terminal: each used node with its verdicts and places, then the used claims that fail."""
    if not used:
        return "uses: nothing of the paper (the dependency graph, proofs_checks/paper_uses.py)"
    width = max(len(u.label) for u in used)
    lines = [f"uses ({len(used)}; the dependency graph, proofs_checks/paper_uses.py):"]
    for u in used:
        verdict = (f"statement {u.statement:<11} proof {u.proof:<9}" if u.kind == "result" else f"{u.kind:<37}")
        where = ", ".join(f"{result} (its text)" if p == result else p for p in u.places)
        lines.append(f"  {u.label:<{width}}  {verdict}  at {where}")
    failing = [u for u in used if u.fails]
    if failing:
        lines.append("used claims that do not hold as printed:")
        for u in failing:
            where = ", ".join(u.places)
            lines.append(f"  {u.label} ({u.statement}), used at {where}: {_short(u.evidence)}")
    else:
        lines.append("used claims that do not hold as printed: none")
    return "\n".join(lines)


def to_markdown(result: str, used: tuple[ProofUse, ...]) -> str:
    cell = lambda t: str(t).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["", "Uses (the dependency graph):", "", "| used | statement | proof | where |", "|---|---|---|---|"]
    for u in used:
        lines.append(f"| `{cell(u.label)}` | {u.statement or u.kind} | {u.proof or ''} | "
                     + ", ".join(f"`{cell(p)}`" for p in u.places) + " |")
    failing = [u for u in used if u.fails]
    lines += ["", "Used claims that do not hold as printed: " + ("none." if not failing else "; ".join(
        f"`{cell(u.label)}` ({u.statement}) at " + ", ".join(f"`{cell(p)}`" for p in u.places) for u in failing)
        + ".")]
    return "\n".join(lines)
