"""The bottom line of each result: its statement's verdict, part by part, and its proof's verdict.

Two verdicts per result, as blueprint tools keep them (``docs/theory.md``, "Statement and proof"), read off
the results' records (:mod:`proofs_checks.results`) and the ledger's entries:

* the **statement** — per part of the displayed statement (the items of a lemma, a display, the cases of a
  piecewise value), the worst status of the entries that judge that part (``unchecked`` when none does); the
  statement's verdict is the worst of its checked parts, and the sentence names the parts ("q, L hold as
  printed; r holds, and a better value is proven").  A sketch, a remark or an application at the experiments'
  setting is not the statement and does not decide it;
* the **proof** — ``complete`` (every checked step, chained constant and closing summary holds in the proof's
  context), ``gap`` (some step does not follow from what the proof has established, with no counterexample in
  context: status ``gap``), or ``broken`` (some step is false in context, or holds only under a condition the
  proof does not have: ``refuted`` or ``conditional``; or the proof uses a *part* of another result that is
  refuted or conditional).  A use propagates only through the part used (:func:`proofs_checks.graph.used_parts`):
  ``lemma:Dual_Power`` uses ``lemma:PHT``'s remark that r = q is always valid, not its conditional constant.
  The first such step in the paper's order, or the used result and the places that use it, is named.

Every sentence is built from the entries and the records; nothing here is typed in per result.  Light: reading a
stored ledger's bottom lines imports neither NumPy nor SymPy (networkx, for the graph, only when called).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import graph, paper_labels, proof_view, results
from .ledger import CheckResult
from .statuses import BROKEN, worst

#: Proof verdicts, best first.
PROOF_VERDICTS = ("complete", "gap", "broken", "unchecked")


@dataclass(frozen=True)
class BottomLine:
    """The two verdicts of one lemma, theorem or corollary, and the sentence that sums them up.

    Attributes
    ----------
    label : str
        The result's LaTeX label.
    statement : str
        The status of the statement: the worst of its checked parts (a ledger status; ``unchecked`` when no
        entry judges any part).
    proof : str
        One of :data:`PROOF_VERDICTS`.
    at : str or None
        The id of the first step, in the paper's order, that makes the proof not complete, or the used result.
    sentence : str
        One sentence a reviewer can quote.
    parts : tuple of (str, str)
        Each statement part of the record and its status (``unchecked``: no entry judges it).
    """

    label: str
    statement: str
    proof: str
    at: str | None
    sentence: str
    parts: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        out = asdict(self)
        out["parts"] = {name: status for name, status in self.parts}
        return out


def _first_sentence(text: str, limit: int = 260) -> str:
    cut = text.split(". ")[0].strip().rstrip(".")
    return cut if len(cut) <= limit else cut[: limit - 3].rstrip() + "..."


def _proof_verdict(view: proof_view.ProofView) -> tuple[str, str | None]:
    steps = [s for s in view.steps if s.entry is not None]
    if not steps:
        return "unchecked", None
    # a step false only through an evident typo (its corrected form holds: impact "typo") does not break the proof
    broken = next((s for s in steps if s.status in BROKEN and s.entry.impact != "typo"), None)
    if broken is not None:
        return "broken", broken.entry.id
    gap = next((s for s in steps if s.status == "gap"), None)
    if gap is not None:
        return "gap", gap.entry.id
    return "complete", None


#: How a sentence says a status of a statement (or of a part of it), singular and plural.
_SAYS = {"verified": ("holds as printed", "hold as printed"),
         "loose": ("holds as printed, and a better value is proven", "hold as printed, and better values are proven"),
         "conditional": ("holds only under a condition it does not state",
                         "hold only under a condition they do not state"),
         "refuted": ("is false as printed", "are false as printed"),
         "vacuous": ("says nothing where the paper applies it", "say nothing where the paper applies them"),
         "gap": ("is argued with a step that does not follow (no counterexample is known)",
                 "are argued with a step that does not follow (no counterexample is known)"),
         "unchecked": ("has no entry of its own", "have no entry of their own")}


def _says(status: str, many: bool = False) -> str:
    return _SAYS.get(status, (status, status))[many]


def part_statuses(label: str, entries: list[CheckResult]) -> tuple[tuple[str, str], ...]:
    """(part, status) for every statement part of ``label``'s record: the worst status of the statement entries
    judging the part (:func:`proofs_checks.results.ids_of_part`), ``unchecked`` when none does."""
    by_id = {e.id: e for e in entries}
    out = []
    for name, ids in results.statement_ids(label, by_id).items():
        out.append((name, worst(*(by_id[i].status for i in ids)) if ids else "unchecked"))
    return tuple(out)


def _conditions(label: str, entries: list[CheckResult], parts: tuple[tuple[str, str], ...]) -> str:
    """The unstated conditions of the statement's conditional parts, from their entries (``CheckResult.condition``),
    each once, in the parts' order ("" when no conditional part names one)."""
    by_id = {e.id: e for e in entries}
    ids = results.statement_ids(label, by_id)
    seen: list[str] = []
    for name, status in parts:
        if status != "conditional":
            continue
        for i in ids.get(name, ()):
            c = by_id[i].condition if by_id[i].status == "conditional" else None
            if c and c not in seen:
                seen.append(c)
    return "; ".join(seen)


def statement_of(parts: tuple[tuple[str, str], ...]) -> str:
    """The statement's verdict: the worst of its checked parts; ``unchecked`` when no part is checked."""
    checked = [s for _n, s in parts if s != "unchecked"]
    return worst(*checked) if checked else "unchecked"


def _parts_text(parts: tuple[tuple[str, str], ...]) -> str:
    """"q, L hold as printed; r holds as printed, and a better value is proven" (parts grouped by status)."""
    groups: dict[str, list[str]] = {}
    for name, status in parts:
        groups.setdefault(status, []).append(name)
    return "; ".join(f"{', '.join(names)} {_says(status, len(names) > 1)}" for status, names in groups.items())


def _used_verdict(node: str, used: frozenset, entries: list[CheckResult], statements: dict) -> str | None:
    """The verdict of the parts ``used`` of the result ``node`` (None in ``used``: its whole statement)."""
    if node not in results.BY_LABEL:
        return None
    by_id = {e.id: e for e in entries}
    if None in used and not by_id:
        return statements.get(node)
    names = [p.name for p in results.BY_LABEL[node].parts] if None in used else list(used)
    # a condition that holds wherever the paper uses the claim (condition_at_uses) does not break the user's proof
    found = [by_id[i].status if not (by_id[i].status == "conditional" and by_id[i].condition_at_uses) else "verified"
             for name in names for i in results.ids_of_part(node, name, by_id)]
    return worst(*found) if found else (statements.get(node) if None in used else None)


def _cites(place: str, node: str, result: str) -> bool:
    """Whether ``place`` (a label of ``result``'s statement or proof) uses ``node`` by an edge of its own (the node,
    or a display of its statement), not only through the displays of another proof."""
    return any(graph.stands_for(e.label, result) == node for e in graph.edges(place))


def bottom_line(view: proof_view.ProofView, statements: dict[str, str] | None = None,
                entries: list[CheckResult] | None = None) -> BottomLine:
    """The bottom line of one result's view (:func:`proofs_checks.proof_view.build`).

    ``statements``: the statement verdict of every result (label -> status) and ``entries`` the ledger's; with
    them, a proof that uses a part of a result whose verdict is refuted or conditional is ``broken`` there,
    unless one of its own steps is broken first; a place citing that result directly (:func:`_cites`) before its
    first false step names the break.  A step false only through an evident typo (impact ``typo``) is not a break.
    """
    mine = list(view.statement) + [s.entry for s in view.steps if s.entry is not None] + list(view.attached)
    parts = part_statuses(view.result, mine)
    statement = statement_of(parts)
    proof, at = _proof_verdict(view)
    if len(parts) == 1:  # the part named: "the statement (display) holds as printed"
        text = f"{view.result}: the statement ({parts[0][0]}) {_says(statement)}"
    else:
        text = f"{view.result}: the statement {_says(statement)}" + (f" ({_parts_text(parts)})" if parts else "")
    conditions = _conditions(view.result, mine, parts)
    if conditions:
        text += f"; the unstated condition: {conditions}"
    failing = []
    if statements is not None:
        for node, where in graph.used_parts(view.result).items():
            used = frozenset().union(*where.values())
            verdict = _used_verdict(node, used, entries or [], statements)
            if verdict in BROKEN:
                failing.append((node, where, used, verdict))
    first_use = min(failing, key=lambda f: paper_labels.POSITION[min(f[1], key=paper_labels.POSITION.get)],
                    default=None)
    if first_use is not None and proof == "broken":
        # a false step of its own names the break, unless a place before it cites the failing result directly
        # (eq:probi cites lemma: concentration before the later false steps of the UCB proof); a failing part reached
        # only through the displays of another proof does not pre-empt the proof's own false step
        own = next(s.position for s in view.steps if s.entry is not None and s.entry.id == at)
        cited = [(min(places, key=paper_labels.POSITION.get), f) for f in failing
                 if (places := [p for p in f[1] if _cites(p, f[0], view.result)])]
        earlier = [(paper_labels.POSITION[p], f) for p, f in cited if paper_labels.POSITION[p] < own]
        first_use = min(earlier, key=lambda t: t[0])[1] if earlier else None
    if first_use is not None:
        node, where, used, verdict = first_use
        places = ", ".join(sorted(where, key=paper_labels.POSITION.get))
        what = "statement" if None in used else "part " + ", ".join(sorted(used))
        proof, at = "broken", node
        text += f"; the proof uses {node}, whose {what} {_says(verdict)}, at {places}"
    elif proof == "complete":
        text += "; every checked step of the proof holds in its context"
        typos = [s.entry.id for s in view.steps if s.entry is not None and s.entry.impact == "typo"]
        if typos:
            text += f" (read with the evident correction of the typo at {', '.join(typos)})"
    elif proof == "unchecked":
        text += "; no step of its proof is checked"
    else:
        entry = next(s.entry for s in view.steps if s.entry is not None and s.entry.id == at)
        if proof == "gap":
            text += f"; the proof has a gap at {at} ({_first_sentence(entry.derived or entry.evidence, 160)})"
        elif entry.status == "conditional" and entry.condition:
            text += f"; the proof uses a step that holds only if {entry.condition}, at {at}"
        else:
            text += f"; the proof uses a false step at {at} ({_first_sentence(entry.derived or entry.evidence, 160)})"
    return BottomLine(view.result, statement, proof, at, text + ".", parts)


def bottom_lines(entries: list[CheckResult]) -> list[BottomLine]:
    """One bottom line per result of the paper, in the paper's order (a proof that uses a part of a result that
    fails as printed names it)."""
    views = proof_view.views(entries)
    statements = {}
    for v in views:
        mine = list(v.statement)
        statements[v.result] = statement_of(part_statuses(v.result, mine))
    return [bottom_line(v, statements, entries) for v in views]
