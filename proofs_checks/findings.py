"""What matters first: a bottom line per lemma and theorem, and the ranked findings (issue 25).

Two verdicts per result, as blueprint tools keep them (``docs/theory.md``, "Statement and proof"):

* the **statement** — the worst status of the entries that judge what the result states
  (``axis == "statement"``); ``unchecked`` when none does;
* the **proof** — ``complete`` (every step holds in the proof's context), ``gap`` (some step does not
  follow from what the proof has established, with no counterexample in context: status ``gap``), or
  ``broken`` (some step is false in context, or holds only under a condition the proof does not have:
  ``refuted`` or ``conditional``; or the proof uses a lemma or theorem whose statement is refuted or
  conditional, :mod:`proofs_checks.graph`); the first such step in the paper's order, or the used result
  and the places that use it, is named.

The findings a reviewer reads first are the non-verified entries whose impact
(:data:`proofs_checks.ledger.IMPACTS`) changes what the paper states — a statement, a rate or a
constant — ranked by impact, then in the paper's order.  Every sentence is built from the entries;
nothing here is typed in per entry.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import graph, paper_labels, proof_view
from .ledger import IMPACTS, CheckResult
from .statuses import BROKEN, SEVERITY, worst

#: Impacts that change what the paper states: the findings :func:`what_matters` lists.
MATTERS = ("statement", "rate", "constant")
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
        The status of the statement (a ledger status; ``unchecked`` when no entry judges it).
    proof : str
        One of :data:`PROOF_VERDICTS`.
    at : str or None
        The id of the first step, in the paper's order, that makes the proof not complete.
    sentence : str
        One sentence a reviewer can quote.
    """

    label: str
    statement: str
    proof: str
    at: str | None
    sentence: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """One non-verified entry that changes what the paper states.

    Attributes
    ----------
    id : str
        The ledger id.
    status, impact : str
    sentence : str
        One sentence a reviewer can quote: the claim, what is wrong, the correct value or the condition.
    """

    id: str
    status: str
    impact: str
    sentence: str

    def to_dict(self) -> dict:
        return asdict(self)


def _first_sentence(text: str, limit: int = 260) -> str:
    cut = text.split(". ")[0].strip().rstrip(".")
    return cut if len(cut) <= limit else cut[: limit - 3].rstrip() + "..."


def _proof_verdict(view: proof_view.ProofView) -> tuple[str, str | None]:
    steps = [s for s in view.steps if s.entry is not None]
    if not steps:
        return "unchecked", None
    broken = next((s for s in steps if s.status in ("refuted", "conditional")), None)
    if broken is not None:
        return "broken", broken.entry.id
    gap = next((s for s in steps if s.status == "gap"), None)
    if gap is not None:
        return "gap", gap.entry.id
    return "complete", None


def _statement_text(status: str) -> str:
    return {"verified": "holds as printed", "loose": "holds as printed, and a better value is proven",
            "conditional": "holds only under a condition it does not state", "refuted": "is false as printed",
            "vacuous": "holds but says nothing where the paper applies it",
            "unchecked": "has no entry of its own"}.get(status, status)


def _statement_of(view: proof_view.ProofView) -> str:
    return worst(*(r.status for r in view.statement)) if view.statement else "unchecked"


def bottom_line(view: proof_view.ProofView, statements: dict[str, str] | None = None) -> BottomLine:
    """The bottom line of one result's view (:func:`proofs_checks.proof_view.build`).

    ``statements``: the statement verdict of every result (label -> status); with it, a proof that uses a result
    whose statement is refuted or conditional is ``broken`` there, unless one of its own steps is broken first.
    """
    statement = _statement_of(view)
    proof, at = _proof_verdict(view)
    text = f"{view.result}: the statement {_statement_text(statement)}"
    failing = [(node, where) for node, where in graph.used_nodes(view.result).items()
               if (statements or {}).get(node) in BROKEN]
    if proof != "broken" and failing:
        node, where = min(failing, key=lambda nw: paper_labels.POSITION[min(nw[1], key=paper_labels.POSITION.get)])
        places = ", ".join(sorted(where, key=paper_labels.POSITION.get))
        proof, at = "broken", node
        text += f"; the proof uses {node}, whose statement is {statements[node]} as printed, at {places}"
    elif proof == "complete":
        text += "; every checked step of the proof holds in its context"
    elif proof == "unchecked":
        text += "; no step of its proof is checked"
    else:
        entry = next(s.entry for s in view.steps if s.entry is not None and s.entry.id == at)
        what = "has a gap" if proof == "gap" else "uses a false step"
        text += f"; the proof {what} at {at} ({_first_sentence(entry.derived or entry.evidence, 160)})"
    return BottomLine(view.result, statement, proof, at, text + ".")


def bottom_lines(entries: list[CheckResult]) -> list[BottomLine]:
    """One bottom line per lemma and theorem of the paper, in the paper's order (a proof that uses a result whose
    statement fails as printed names it)."""
    views = proof_view.views(entries)
    statements = {v.result: _statement_of(v) for v in views}
    return [bottom_line(v, statements) for v in views]


#: How a finding's sentence names its verdict, by status.
_PHRASES = {"refuted": "false as printed; rsb derives", "conditional": "holds only under a condition the paper "
            "does not state:", "vacuous": "holds, but says nothing where the paper applies it:",
            "loose": "holds; a better value is proven:"}


def sentence(e: CheckResult) -> str:
    """One sentence a reviewer can quote: the claim, what is wrong, the correct value or the condition."""
    claim = e.claim.rstrip(".")
    return f"{claim} — {_PHRASES.get(e.status, e.status)} {e.derived.rstrip('.')}. [{e.id}]"


def what_matters(entries: list[CheckResult]) -> list[Finding]:
    """The entries whose impact is in :data:`MATTERS` (a false statement, a wrong rate, a wrong constant), ranked by
    impact, then by how bad the status is (refuted, conditional, vacuous), then in ledger order."""
    rank = {imp: k for k, imp in enumerate(IMPACTS)}
    out = [(rank[e.impact], -SEVERITY.get(e.status, 0), k, e) for k, e in enumerate(entries) if e.impact in MATTERS]
    out.sort(key=lambda t: t[:3])
    return [Finding(e.id, e.status, e.impact, sentence(e)) for _r, _s, _k, e in out]


_HEADINGS = {"statement": "Statements that are false, need an unstated condition, or say nothing where applied",
             "rate": "Rates and exponents", "constant": "Constants"}


def to_markdown(entries: list[CheckResult]) -> str:
    """"What matters" and the bottom lines, as Markdown (``rsb verify --format md``, the report, the README)."""
    lines = ["## What matters", ""]
    found = what_matters(entries)
    for impact in MATTERS:
        mine = [f for f in found if f.impact == impact]
        if mine:
            lines += [f"**{_HEADINGS[impact]}** ({len(mine)})", ""] + [f"1. {f.sentence}" for f in mine] + [""]
    if not found:
        lines += ["No entry changes a statement, a rate or a constant.", ""]
    lines += ["## Bottom lines", ""] + [f"* {b.sentence}" for b in bottom_lines(entries)]
    return "\n".join(lines) + "\n"


def document(shown: list[CheckResult], everything: list[CheckResult], filters: str = "") -> str:
    """The Markdown ledger (``rsb verify --format md``, ``docs/ledger.md``): title, summary and versions, what
    matters and the bottom lines (of ``everything``), then the table of the ``shown`` entries."""
    from .ledger import to_markdown as table

    md = table(shown, everything, filters)
    head, _sep, rows = md.partition("| id |")
    return head + to_markdown(everything) + "\n## Entries\n\n| id |" + rows


def to_text(entries: list[CheckResult]) -> str:
    """"What matters" and the bottom lines for a terminal (``rsb verify``)."""
    found = what_matters(entries)
    lines = [f"What matters ({len(found)} findings that change a statement, a rate or a constant):"]
    lines += [f"  {k}. [{f.impact}] {f.sentence}" for k, f in enumerate(found, 1)]
    lines += ["Bottom lines:"] + [f"  {b.sentence}" for b in bottom_lines(entries)]
    return "\n".join(lines)


def to_dict(entries: list[CheckResult]) -> dict:
    """``rsb verify --findings --format json``."""
    return {"what_matters": [f.to_dict() for f in what_matters(entries)],
            "bottom_lines": [b.to_dict() for b in bottom_lines(entries)]}



#: The markers of the generated block of the README (``make docs`` writes between them; a test keeps it current).
README_START = "<!-- what-matters:start (generated by `make docs` from proofs_checks.findings; do not edit) -->"
README_END = "<!-- what-matters:end -->"


def readme_block(entries: list[CheckResult]) -> str:
    """The README's list of findings: what matters, ranked, one quotable sentence each."""
    found = what_matters(entries)
    lines = [README_START, "", f"What matters: {len(found)} findings change a statement, a rate or a constant "
             "(`rsb verify --findings`; the bottom line of every lemma and theorem is in "
             "[docs/ledger.md](docs/ledger.md)).", ""]
    for impact in MATTERS:
        mine = [f for f in found if f.impact == impact]
        if mine:
            lines += [f"**{_HEADINGS[impact]}** ({len(mine)})", ""] + [f"1. {f.sentence}" for f in mine] + [""]
    return "\n".join(lines + [README_END])


def splice_readme(text: str, block: str) -> str:
    """``text`` (the README) with the generated block replaced by ``block``."""
    a, b = text.index(README_START), text.index(README_END) + len(README_END)
    return text[:a] + block + text[b:]
