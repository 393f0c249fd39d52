"""The claims ledger: one :class:`CheckResult` per claim, JSON and Markdown.

The JSON schema and the statuses are the contract of ARCHITECTURE.md
(``rsb verify --format json``): a list of objects with keys ``id``, ``claim``,
``paper``, ``derived``, ``status``, ``method``, ``evidence``; with
``rsb verify --mutants`` each object also has ``mutants`` (a list of
``{"claim", "status"}``: the same check run on altered claims) and
``mutant_caught`` (true when some mutant's status differs from the entry's).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, is_dataclass

#: Allowed statuses (ARCHITECTURE.md).
STATUSES = ("verified", "refuted", "loose", "conditional", "vacuous", "unchecked")
#: Allowed methods.
METHODS = ("symbolic", "numeric", "simulation")
#: The keys of an entry of ``rsb verify --format json``, in order.
KEYS = ("id", "claim", "paper", "derived", "status", "method", "evidence")


@dataclass(frozen=True)
class MutantOutcome:
    """The verdict of a check on one altered claim (``rsb verify --mutants``).

    Attributes
    ----------
    claim : str
        How the claim was altered.
    status : str
        The check's status on the altered claim.
    """

    claim: str
    status: str


@dataclass(frozen=True)
class CheckResult:
    """One ledger entry.

    Attributes
    ----------
    id : str
        The paper's LaTeX label, optionally ``#row`` or ``#row.column``.
    claim : str
        The claim in words.
    paper : str
        The printed value.
    derived : str
        The value rsb derives.
    status : str
        One of :data:`STATUSES`.
    method : str
        One of :data:`METHODS`.
    evidence : str
        What a reader needs to rerun or check the verdict.
    mutants : tuple of MutantOutcome or None
        The check run on altered claims (None: not run).
    """

    id: str
    claim: str
    paper: str
    derived: str
    status: str
    method: str
    evidence: str
    mutants: tuple[MutantOutcome, ...] | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r} of {self.id!r} is not one of {STATUSES}")
        if self.method not in METHODS:
            raise ValueError(f"method {self.method!r} of {self.id!r} is not one of {METHODS}")
        if self.status in {"refuted", "loose", "conditional", "vacuous"} and not self.evidence:
            raise ValueError(f"{self.id!r}: status {self.status} needs evidence")

    @property
    def mutant_caught(self) -> bool | None:
        """True when some mutant's status differs from this entry's (None: mutants not run)."""
        if self.mutants is None:
            return None
        return any(m.status != self.status for m in self.mutants)

    def to_dict(self) -> dict:
        """The JSON object of this entry: :data:`KEYS`, then every other field that is set, then
        ``mutants`` and ``mutant_caught`` if run.

        Generic over the dataclass's fields: an optional field added later appears when it is not
        None (tuples as lists), so ``rsb verify --format json``, :func:`to_json` and a notebook's
        ``entry.to_dict()`` stay one serialisation.
        """
        out = {k: getattr(self, k) for k in KEYS}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in out and f.name != "mutants" and value is not None:
                out[f.name] = _plain(value)
        if self.mutants is not None:
            out["mutants"] = [{"claim": m.claim, "status": m.status} for m in self.mutants]
            out["mutant_caught"] = self.mutant_caught
        return out


def _plain(value):
    """A field's value as JSON-ready data (dataclasses as dicts, tuples as lists)."""
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def to_json(results: list[CheckResult]) -> str:
    """The ledger as the JSON list of ARCHITECTURE.md."""
    return json.dumps([r.to_dict() for r in results], indent=2, ensure_ascii=False)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def counts(results: list[CheckResult]) -> dict[str, int]:
    """How many entries have each status (every status of :data:`STATUSES`, in that order)."""
    return {s: sum(r.status == s for r in results) for s in STATUSES}


def summary(results: list[CheckResult], shown: int | None = None, filters: str = "") -> str:
    """The summary line: counts by status of ``results`` and how many entries the filters kept.

    ``"Summary: 137 entries: 87 verified, 9 loose, ...; 14 shown (--status refuted,loose)."``
    """
    c = counts(results)
    text = f"Summary: {len(results)} entries: " + ", ".join(f"{n} {s}" for s, n in c.items() if n)
    if shown is not None:
        text += f"; {shown} shown" + (f" ({filters})" if filters else "")
    return text + "."


def select(results: list[CheckResult], statuses=None, prefix: str | None = None) -> list[CheckResult]:
    """The entries whose status is one of ``statuses`` (None: any) and whose id starts with ``prefix`` (None: any)."""
    return [r for r in results if (statuses is None or r.status in statuses)
            and (prefix is None or r.id.startswith(prefix))]


def to_markdown(results: list[CheckResult], everything: list[CheckResult] | None = None, filters: str = "") -> str:
    """The ledger as a Markdown table (``docs/ledger.md``): the title, the summary line, then one row per entry.

    ``everything``: the entries the summary counts when ``results`` is a selection of them.
    """
    total = results if everything is None else everything
    head = [
        "# Claims ledger",
        "",
        summary(total, len(results), filters),
        "",
        "Generated by `rsb verify --format md` (`make docs`); do not edit by hand.",
        "",
        "| id | status | method | paper | derived | claim | evidence |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [
        f"| `{_cell(r.id)}` | {r.status} | {r.method} | {_cell(r.paper)} | {_cell(r.derived)} | "
        f"{_cell(r.claim)} | {_cell(r.evidence)} |"
        for r in results
    ]
    return "\n".join(head + rows) + "\n"
