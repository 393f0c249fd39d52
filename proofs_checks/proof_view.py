"""The per-proof view: a lemma's or theorem's statement entries, then its steps in the paper's order, then the
sketches, remarks and applications at the experiments' setting attached to it.

Which entries are R's statement (node ``statement``), R's proof (node ``proof``) or attached to R (``sketch``,
``remark``, ``experiment``) comes from the results' records (:func:`proofs_checks.results.node_of`).  The steps
of a result R are (all derived from the ids, the records and :mod:`proofs_checks.paper_labels`, never listed by
hand):

* the entries ``R#step:LABEL`` (at LABEL's place in the paper; ``R#step:after:LABEL``
  just after it; a step that names no label, such as ``lemma:PHT#step:jensen``,
  before the first display of the proof);
* the entries whose own label is a display of R's proof (``eq:E2C`` in the proof of
  ``theorem: ETC upper bound``);
* R's chained constants ``R#chain...`` and its proof's closing summary (``lemma:RTD#summary``), after the
  last display of the proof;
* every other labelled display of R's proof, without an entry (a claim is then
  shown as ``unchecked``; a definition as what it defines).

The *first broken step* is the first step, in the paper's order, whose status is
one of :data:`proofs_checks.verdict.BROKEN` (it does not hold as printed in the
generality the proof uses).  ``rsb verify --proof LABEL`` prints a view;
``rsb report`` draws one section per result.
"""

from __future__ import annotations

from rsb_sim import jsontext
from dataclasses import dataclass

from . import paper_labels, results
from .ledger import STATUSES, CheckResult
from .registry import label_of, step_of, step_position
from .statuses import BROKEN
from rsb_theory.errors import ArgumentError

#: Where a step that names no label of the paper sits, relative to its result's label.
UNLABELLED_OFFSET = 0.25


@dataclass(frozen=True)
class Step:
    """One row of a proof: a labelled display, a checked step, or both.

    Attributes
    ----------
    position : float
        Place in the paper (:data:`proofs_checks.paper_labels.POSITION`).
    name : str
        The display's label, or the step's part (``after:eq:...``, ``jensen``).
    label : str or None
        The display's label when the step is one (None for a step the paper does not label).
    kind : str
        ``claim`` or ``definition`` (a labelled display), or ``step`` (an unlabelled step).
    note : str
        What the display asserts or defines (:attr:`proofs_checks.paper_labels.PaperLabel.note`).
    entry : CheckResult or None
        The ledger entry checking it (None: no entry).
    """

    position: float
    name: str
    label: str | None
    kind: str
    note: str
    entry: CheckResult | None

    @property
    def status(self) -> str:
        """The entry's status; ``unchecked`` for a claim without an entry; ``definition`` for a definition."""
        if self.entry is not None:
            return self.entry.status
        return "definition" if self.kind == "definition" else "unchecked"

    def to_dict(self) -> dict:
        out = {"step": self.name, "label": self.label, "kind": self.kind, "status": self.status,
               "note": self.note, "id": None if self.entry is None else self.entry.id}
        if self.entry is not None:
            out.update({k: getattr(self.entry, k) for k in ("method", "paper", "derived", "evidence")})
        return out


@dataclass(frozen=True)
class ProofView:
    """A result's statement entries and its steps in order.

    Attributes
    ----------
    result : str
        The lemma's or theorem's label.
    note : str
        What it states (:mod:`proofs_checks.paper_labels`).
    statement : tuple of CheckResult
        Entries of the statement (node ``statement``: ``R``, ``R#part``, and displays of the statement).
    steps : tuple of Step
    attached : tuple of CheckResult
        Entries of the nodes attached to the result that are neither its statement nor its proof: a proof
        sketch, a remark, an application at the experiments' setting (:mod:`proofs_checks.results`).
    """

    result: str
    note: str
    statement: tuple[CheckResult, ...]
    steps: tuple[Step, ...]
    attached: tuple[CheckResult, ...] = ()

    @property
    def first_broken(self) -> Step | None:
        """The first step whose status is refuted or conditional (None: no such step)."""
        return next((s for s in self.steps if s.status in BROKEN), None)

    def counts(self) -> dict[str, int]:
        """Steps by status (``unchecked``: a labelled claim display without an entry); definitions not counted."""
        out = {s: 0 for s in STATUSES}
        for s in self.steps:
            if s.kind != "definition" or s.entry is not None:
                out[s.status] += 1
        return out


def _is_result(label: str) -> bool:
    return label in paper_labels.BY_LABEL and paper_labels.BY_LABEL[label].is_result


def _belongs(ident: str, result: str) -> str | None:
    """"statement", "step", "attached" or None: where ``ident`` sits in ``result``'s view (its node, from the
    results' records: a statement part, a node of the proof, or a sketch, remark or experiment)."""
    label = label_of(ident)
    info = paper_labels.BY_LABEL.get(label)
    mine = label == result or results.result_of(ident) == result or (
        info is not None and result in (info.proof, info.statement))
    if not mine:
        return None
    node = results.node_of(ident)[0]
    return "statement" if node == "statement" else "step" if node == "proof" else "attached"


def ids_of(result: str, ids) -> tuple[str, ...]:
    """The ids (of ``ids``, in their order) that the view of ``result`` shows."""
    return tuple(i for i in ids if _belongs(i, result) is not None)


def _position(ident: str, result: str, order: int, total: int) -> float:
    pos = step_position(ident)
    if pos is not None:
        return pos
    label = label_of(ident)
    if label != result:  # the entry of a display of the proof (eq:E2C)
        return float(paper_labels.POSITION[label])
    if step_of(ident) is None:  # a proof's closing summary or chained constant: after its last display and
        # after its unlabelled steps (which sit below UNLABELLED_OFFSET * 2 past the result's label)
        last = max((paper_labels.POSITION[x] for x in paper_labels.proof_labels(result)),
                   default=paper_labels.POSITION[result])
        return last + 2 * UNLABELLED_OFFSET + UNLABELLED_OFFSET * order / (total + 1)
    # a step that names no label: before the proof's first display, in ledger order
    return paper_labels.POSITION[result] + UNLABELLED_OFFSET * (1 + order / (total + 1))


def build(result: str, results: list[CheckResult]) -> ProofView:
    """The view of ``result`` from the entries ``results`` (any superset of :func:`ids_of`'s)."""
    if not _is_result(result):
        raise ArgumentError("proof", f"{result!r} is not a lemma or theorem of the paper")
    mine = [r for r in results if _belongs(r.id, result) is not None]
    statement = tuple(r for r in mine if _belongs(r.id, result) == "statement")
    attached = tuple(r for r in mine if _belongs(r.id, result) == "attached")
    step_entries = [r for r in mine if _belongs(r.id, result) == "step"]
    rows: list[Step] = []
    covered: set[str] = set()
    for k, r in enumerate(step_entries):
        pos = _position(r.id, result, k, len(step_entries))
        step = (step_of(r.id) or r.id.partition("#")[2]) if label_of(r.id) == result else label_of(r.id)
        label = step if step in paper_labels.BY_LABEL else None
        info = paper_labels.BY_LABEL.get(label) if label else None
        rows.append(Step(pos, step, label, info.kind if info else "step", info.note if info else "", r))
        if label:
            covered.add(label)
    for label in paper_labels.proof_labels(result):
        if label not in covered:
            info = paper_labels.BY_LABEL[label]
            rows.append(Step(float(paper_labels.POSITION[label]), label, label, info.kind, info.note, None))
    rows.sort(key=lambda s: s.position)  # stable: entries of one label keep their ledger order
    return ProofView(result, paper_labels.BY_LABEL[result].note, statement, tuple(rows), attached)


def views(results: list[CheckResult]) -> list[ProofView]:
    """One view per lemma and theorem of the paper, in the paper's order."""
    return [build(r, results) for r in paper_labels.RESULTS]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _short(text: str, n: int = 110) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "none"


def to_text(view: ProofView) -> str:
    """The view as lines for a terminal (``rsb verify --proof LABEL``)."""
    width = max([len(s.name) for s in view.steps] + [len(r.id) for r in view.statement] + [10])
    lines = [f"Proof of {view.result}: {view.note}",
             f"statement: {_plural(len(view.statement), 'entry', 'entries')}"
             + (f" ({_counts_text({s: sum(r.status == s for r in view.statement) for s in STATUSES})})"
                if view.statement else "")]
    lines += [f"  {r.status:<11}  {r.id:<{width}}  {r.paper} -> {r.derived}" for r in view.statement]
    lines.append(f"steps in the paper's order: {len(view.steps)} ({_counts_text(view.counts())})")
    for s in view.steps:
        if s.entry is not None:
            what = ("" if s.entry.id == s.name else f"{s.entry.id}: ") + _short(f"{s.entry.paper} -> {s.entry.derived}")
        else:
            what = s.note if s.kind == "definition" else f"(no entry) {s.note}"
        lines.append(f"  {s.status:<11}  {s.name:<{width}}  {what}")
    fb = view.first_broken
    lines.append("first broken step: " + ("none (no step is refuted or conditional)" if fb is None else
                                          f"{fb.name} ({fb.status}): {fb.entry.id}: {fb.entry.derived}"))
    if view.attached:
        lines.append(f"attached (sketch, remark, experiment): {_plural(len(view.attached), 'entry', 'entries')}")
        lines += [f"  {r.status:<11}  {r.id:<{width}}  [{r.node}] {r.paper} -> {r.derived}" for r in view.attached]
    return "\n".join(lines)


def to_dict(view: ProofView) -> dict:
    """The view as a JSON object (``rsb verify --proof LABEL --format json``)."""
    fb = view.first_broken
    return {"proof": view.result, "note": view.note,
            "statement": [r.to_dict() for r in view.statement],
            "steps": [s.to_dict() for s in view.steps],
            "attached": [r.to_dict() for r in view.attached],
            "counts": view.counts(),
            "first_broken": None if fb is None else fb.to_dict()}


def to_json(view: ProofView) -> str:
    return jsontext.dumps(to_dict(view), indent=2, ensure_ascii=False)


def to_markdown(view: ProofView) -> str:
    """The view as Markdown: the statement's entries, then a table of the steps."""
    cell = lambda t: str(t).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = [f"## Proof of `{view.result}`", "", cell(view.note), ""]
    if view.statement:
        lines += ["Statement: " + "; ".join(f"`{cell(r.id)}` {r.status}" for r in view.statement), ""]
    lines += ["| # | step | status | entry | note |", "|---|---|---|---|---|"]
    for k, s in enumerate(view.steps, start=1):
        lines.append(f"| {k} | `{cell(s.name)}` | {s.status} | {'' if s.entry is None else '`' + cell(s.entry.id) + '`'}"
                     f" | {cell(s.note)} |")
    fb = view.first_broken
    lines += ["", "First broken step: " + ("none." if fb is None else f"`{cell(fb.name)}` ({fb.status}).")]
    if view.attached:
        lines += ["", "Attached (sketch, remark, experiment): " + "; ".join(
            f"`{cell(r.id)}` ({r.node}) {r.status}" for r in view.attached)]
    return "\n".join(lines)
