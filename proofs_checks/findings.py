"""What matters first: a bottom line per lemma and theorem, and the findings, one per cause, ranked.

Two verdicts per result, as blueprint tools keep them (``docs/theory.md``, "Statement and proof"):

* the **statement** — the worst status of the entries that judge what the result states
  (``axis == "statement"``); ``unchecked`` when none does;
* the **proof** — ``complete`` (every step holds in the proof's context), ``gap`` (some step does not
  follow from what the proof has established, with no counterexample in context: status ``gap``), or
  ``broken`` (some step is false in context, or holds only under a condition the proof does not have:
  ``refuted`` or ``conditional``; or the proof uses a lemma or theorem whose statement is refuted or
  conditional, :mod:`proofs_checks.graph`); the first such step in the paper's order, or the used result
  and the places that use it, is named.

The findings a reviewer reads first (:func:`what_matters`) are the causes of :mod:`proofs_checks.causes`, one
finding per cause, each with the entries it explains (every entry whose impact,
:data:`proofs_checks.ledger.IMPACTS`, is not ``none``): ranked by the cause's category — a statement false where the
paper uses it, a wrong rate, experiments that do not test what is analysed, systematic proof gaps, a condition that
excludes a use, constants, typos — then by the worst status of its members, then in the ledger's order.  Every
sentence is built from the entries and the causes' data; nothing here is typed in per entry, and every sentence
reads correctly for every status (:func:`verdict_clause`; a test renders them all).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import causes
from .bottom_lines import PROOF_VERDICTS, BottomLine, bottom_line, bottom_lines  # noqa: F401 (re-exported)
from .ledger import IMPACTS, CheckResult
from .statuses import SEVERITY, worst

@dataclass(frozen=True)
class Member:
    """One entry of a finding.

    Attributes
    ----------
    id : str
        The ledger id.
    status, impact, node : str
        Its status, impact and node kind (:func:`proofs_checks.causes.node_of`).
    line : str
        One sentence a reviewer can quote (:func:`sentence`): the claim, what is wrong, the correct value or the
        condition.
    """

    id: str
    status: str
    impact: str
    node: str
    line: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """One cause (:data:`proofs_checks.causes.CAUSES`) and the entries it explains.

    Attributes
    ----------
    key, title, conclusion : str
        The cause's key, short title and the one sentence a reader of the paper should conclude.
    rank : int
        The cause's category, 1 (a statement false where the paper uses it) to 7 (typos)
        (:data:`proofs_checks.causes.RANKS`).
    category : str
        The category's name.
    impact : str
        The most important impact among the members (:data:`proofs_checks.ledger.IMPACTS`).
    status : str
        The worst status among the members.
    members : tuple of Member
        In ledger order.
    """

    key: str
    title: str
    conclusion: str
    rank: int
    category: str
    impact: str
    status: str
    members: tuple[Member, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """The members' ledger ids, in ledger order."""
        return tuple(m.id for m in self.members)

    @property
    def sentence(self) -> str:
        """The finding in one line: its title, how many entries, and what to conclude."""
        n = len(self.members)
        return f"{self.title} ({n} {'entry' if n == 1 else 'entries'}): {self.conclusion}"

    def to_dict(self) -> dict:
        """The object of ``rsb verify --findings --format json``: the cause, its member ids and one line each."""
        return {"key": self.key, "title": self.title, "conclusion": self.conclusion, "rank": self.rank,
                "category": self.category, "impact": self.impact, "status": self.status, "ids": list(self.ids),
                "members": [m.to_dict() for m in self.members]}


#: Words that start a formula, not a phrase (``varpi^(1/3)``, ``log T``): a derived value starting with one is a value.
_MATH_WORDS = frozenset({"exp", "log", "min", "max", "sqrt", "ceil", "floor", "varpi", "sup", "inf", "lim"})


def _is_phrase(text: str) -> bool:
    """Is a derived text a phrase in words ("holds on the ETC grid ...", "fails") rather than a value (``2``,
    ``T^-(1) K^4``, ``varpi^(1/3)``, ``q = 1: ...``)?"""
    first = text.split(" ", 1)[0].rstrip(",;:")
    return len(first) > 1 and first.isalpha() and first.islower() and first not in _MATH_WORDS


def _found(derived: str) -> str:
    """What rsb found, as a clause that reads after a semicolon whatever the derived text is."""
    return f"rsb finds: {derived}" if _is_phrase(derived) else f"rsb derives {derived}"


def verdict_clause(e: CheckResult) -> str:
    """What is wrong with an entry (or that nothing is), as a clause that reads after its claim and a dash, for every
    status: a refuted entry with its correct value, a conditional one with its condition (never a rate), a gap with
    what the steps before it give, a vacuous one with where it says nothing."""
    derived = (e.derived or "").strip().rstrip(".")
    status = e.status
    if status == "verified":
        return "holds as printed"
    if status == "unchecked":
        return "is not checked"
    if status == "loose":
        return "holds; a better value is proven" + (f": {derived}" if derived else "")
    if status == "conditional":
        where = ", which holds wherever the paper uses it" if e.condition_at_uses else ""
        if e.condition:
            return f"holds only under a condition the paper does not state: {e.condition.rstrip('.')}{where}"
        return f"holds only under a condition the paper does not state (its evidence names it){where}"
    if status == "vacuous":
        return "says nothing where the paper applies it" + (f"; rsb finds: {derived}" if derived else "")
    if status == "gap":
        text = "does not follow from what the proof has established (no counterexample is known in its context)"
        if derived and not _is_phrase(derived):
            return f"{text}; the steps before it give {derived}"
        return text + (f"; rsb finds: {derived}" if derived and derived != "holds" else "")
    # refuted
    text = "is false as printed" + (", but holds with the evident correction" if e.impact == "typo" else "")
    return text + (f"; {_found(derived)}" if derived else "")


def sentence(e: CheckResult) -> str:
    """One sentence a reviewer can quote: the claim, what is wrong, the correct value or the condition, and the id."""
    return f"{e.claim.strip().rstrip('.')} — {verdict_clause(e)}. [{e.id}]"


def what_matters(entries: list[CheckResult]) -> list[Finding]:
    """One finding per cause (:func:`proofs_checks.causes.cause_of`) among the entries that change something (impact
    not ``none``), ranked by the cause's category (:data:`proofs_checks.causes.RANKS`: a false statement, a wrong rate,
    experiments that do not test the analysis, systematic proof gaps, a condition that excludes a use, constants,
    typos), within a category the specific causes before its catch-all, then by the worst status of its members, then
    by where its first member is in the ledger."""
    groups: dict[str, list[tuple[int, CheckResult]]] = {}
    for k, e in enumerate(entries):
        cause = causes.cause_of(e)
        if cause is not None:
            groups.setdefault(cause.key, []).append((k, e))
    impact_rank = {imp: k for k, imp in enumerate(IMPACTS)}
    out = []
    for key, members in groups.items():
        if all(e.impact == "none" for _k, e in members):
            continue  # every member's condition holds at every use: the paper loses nothing
        cause = causes.CAUSES[key]
        worst_status = worst(*(e.status for _k, e in members))
        impact = min((e.impact for _k, e in members if e.impact != "none"), key=impact_rank.__getitem__)
        finding = Finding(key, cause.title, cause.conclusion, causes.RANKS.index(cause.rank) + 1, cause.rank, impact,
                          worst_status, tuple(Member(e.id, e.status, e.impact, causes.node_of(e), sentence(e))
                                              for _k, e in members))
        # a category's catch-all comes after its specific causes: what it holds has no cause of its own
        out.append(((finding.rank, cause.generic, -SEVERITY.get(worst_status, 0), members[0][0]), finding))
    return [f for _key, f in sorted(out, key=lambda kf: kf[0])]


def _count(found: list[Finding]) -> str:
    n = sum(len(f.members) for f in found)
    return f"{len(found)} {'finding' if len(found) == 1 else 'findings'} ({n} {'entry' if n == 1 else 'entries'})"


_NOTHING = "No entry changes a statement, a rate, a constant, a proof or the experiments."


def to_markdown(entries: list[CheckResult]) -> str:
    """"What matters" (one finding per cause, ranked, each with its members) and the bottom lines, as Markdown
    (``rsb verify --format md``, ``rsb verify --findings --format md``)."""
    found = what_matters(entries)
    lines = ["## What matters", ""]
    if found:
        lines += [f"{_count(found)}, grouped by cause, most consequential first.", ""]
    for k, f in enumerate(found, 1):
        lines += [f"{k}. **{f.title}** ({len(f.members)}; {f.category}). {f.conclusion}", ""]
        lines += [f"   * {m.line}" for m in f.members] + [""]
    if not found:
        lines += [_NOTHING, ""]
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
    """"What matters" (one finding per cause, ranked, each with its members) and the bottom lines for a terminal
    (``rsb verify``, ``rsb verify --findings``)."""
    found = what_matters(entries)
    lines = [f"What matters: {_count(found)}, grouped by cause, most consequential first:" if found else
             f"What matters: {_NOTHING}"]
    for k, f in enumerate(found, 1):
        lines.append(f"  {k}. [{f.category}] {f.sentence}")
        lines += [f"       - {m.line}" for m in f.members]
    lines += ["Bottom lines:"] + [f"  {b.sentence}" for b in bottom_lines(entries)]
    return "\n".join(lines)


def to_dict(entries: list[CheckResult]) -> dict:
    """``rsb verify --findings --format json``: ``what_matters`` (the findings, each with its member ids) and
    ``bottom_lines``."""
    return {"what_matters": [f.to_dict() for f in what_matters(entries)],
            "bottom_lines": [b.to_dict() for b in bottom_lines(entries)]}

#: The markers of the generated block of the README (``make docs`` writes between them; a test keeps it current).
README_START = "<!-- what-matters:start (generated by `make docs` from proofs_checks.findings; do not edit) -->"
README_END = "<!-- what-matters:end -->"


def readme_block(entries: list[CheckResult]) -> str:
    """The README's list of findings: one per cause, ranked, each with what to conclude and its member ids."""
    found = what_matters(entries)
    lines = [README_START, "", f"What matters: {_count(found) if found else 'no finding'}, grouped by cause, most "
             "consequential first (`rsb verify --findings`; each entry's sentence, and the bottom line of every lemma "
             "and theorem, are in [docs/ledger.md](docs/ledger.md)).", ""]
    for k, f in enumerate(found, 1):
        ids = ", ".join(f"`{i}`" for i in f.ids)
        lines += [f"{k}. **{f.title}** ({len(f.members)}; {f.category}). {f.conclusion} Entries: {ids}.", ""]
    return "\n".join(lines + [README_END])

def splice_readme(text: str, block: str) -> str:
    """``text`` (the README) with the generated block replaced by ``block``."""
    a, b = text.index(README_START), text.index(README_END) + len(README_END)
    return text[:a] + block + text[b:]
