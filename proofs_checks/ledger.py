"""The claims ledger: one :class:`CheckResult` per claim, JSON and Markdown.

The JSON schema and the statuses are the contract of ARCHITECTURE.md
(``rsb verify --format json``): a list of objects with keys ``id``, ``claim``,
``paper``, ``derived``, ``status``, ``method``, ``evidence``; with
``rsb verify --mutants`` each object also has ``mutants`` (a list of
``{"claim", "status"}``: the same check run on altered claims) and
``mutant_caught`` (true when some mutant's status differs from the entry's).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any

from rsb_sim import jsontext

# The statuses (ARCHITECTURE.md) and the two axes live in one place, :class:`proofs_checks.statuses.Status`.
from .statuses import AXES, STATUSES, Status
#: What a non-verified entry changes (``docs/theory.md``, "What matters"), most important first: the printed
#: statement is false, its rate is wrong, only a constant is wrong, the proof alone is affected, an evident typo
#: whose corrected form holds, nothing.
IMPACTS = ("statement", "rate", "constant", "proof", "typo", "none")
#: Optional keys of an entry, in order, written only when set (``docs/architecture.md``).
OPTIONAL_KEYS = ("axis", "impact", "loose_in", "uses", "note", "node", "part", "cause", "condition",
                 "condition_at_uses", "certificate")
#: The kinds of node of the paper an entry judges (:data:`proofs_checks.results.NODES`): a part of a result's
#: displayed statement, a step or summary of a proof, a proof sketch, a remark, an application at the experiments'
#: setting.  The axis is derived from it: ``statement`` for a statement, ``proof`` for every other node.
NODES = ("statement", "proof", "sketch", "remark", "experiment")
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
    axis : str or None
        ``statement`` (the entry judges a displayed statement: a part of a result's, a table's, the running
        text's) or ``proof`` (a step, a chained constant or the summary of a proof, a sketch, a remark, an
        application at the experiments' setting); one of :data:`AXES`, derived from ``node`` by the registry.
    impact : str or None
        One of :data:`IMPACTS` (None: not assessed).
    loose_in : str or None
        For a ``loose`` entry, what the proven better value is better in: ``exponent``, ``constant`` or ``bound``
        (:data:`proofs_checks.verdict.LOOSE_IN`).
    uses : tuple of str
        The paper's labels the claimed step or result uses (the dependency graph), in the paper's order.
    note : str
        What the check saw outside the claim's context (a failure where the proof's fixed quantities are
        replaced by others): reported beside the status, never as it.
    node : str or None
        The kind of node of the paper the entry judges, one of :data:`NODES` (None: not assessed), derived from
        the results' records by the registry (:func:`proofs_checks.results.node_of`).
    part : str or None
        For a statement entry of a result, the name of the statement part it judges (the record's
        :class:`proofs_checks.results.Part`).
    cause : str or None
        The key of the cause (:data:`proofs_checks.causes.CAUSES`) the entry belongs to when that is a fact only its
        check knows (Hölder applied outside Xi); None: derived from the entry's other facts
        (:func:`proofs_checks.causes.cause_of`).
    condition : str or None
        For a ``conditional`` entry: the unstated condition in words (the repair its check gave
        :func:`proofs_checks.statuses.decide`).
    condition_at_uses : bool or None
        For a ``conditional`` entry: True when its check found that the condition holds at every place the paper
        uses the claim (its impact is then ``none``: :func:`proofs_checks.statuses.impact`).
    certificate : dict or None
        How far the verdict is proved (:mod:`proofs_checks.certificates`): ``{"kind", "domain": {"words",
        "data"}, "whole", "parts", ...}``, a plain JSON-able dict (None: none made).
    """

    id: str
    claim: str
    paper: str
    derived: str
    status: str
    method: str
    evidence: str
    mutants: tuple[MutantOutcome, ...] | None = None
    axis: str | None = None
    impact: str | None = None
    loose_in: str | None = None
    uses: tuple[str, ...] = ()
    note: str = ""
    node: str | None = None
    part: str | None = None
    cause: str | None = None
    condition: str | None = None
    condition_at_uses: bool | None = None
    certificate: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r} of {self.id!r} is not one of {STATUSES}")
        if self.method not in METHODS:
            raise ValueError(f"method {self.method!r} of {self.id!r} is not one of {METHODS}")
        if self.axis is not None and self.axis not in AXES:
            raise ValueError(f"axis {self.axis!r} of {self.id!r} is not one of {AXES}")
        if self.node is not None and self.node not in NODES:
            raise ValueError(f"node {self.node!r} of {self.id!r} is not one of {NODES}")
        if self.impact is not None and self.impact not in IMPACTS:
            raise ValueError(f"impact {self.impact!r} of {self.id!r} is not one of {IMPACTS}")
        if self.cause is not None:
            from .causes import CAUSES

            if self.cause not in CAUSES:
                raise ValueError(f"cause {self.cause!r} of {self.id!r} is not one of {tuple(CAUSES)}")
        if Status(self.status).needs_evidence and not self.evidence:
            raise ValueError(f"{self.id!r}: status {self.status} needs evidence")

    @property
    def mutant_caught(self) -> bool | None:
        """True when some mutant's status differs from this entry's (None: mutants not run)."""
        if self.mutants is None:
            return None
        return any(m.status != self.status for m in self.mutants)

    def to_dict(self) -> dict:
        """The JSON object of this entry: :data:`KEYS`, then every other field that is set (not None, not empty:
        the :data:`OPTIONAL_KEYS` and any field added later, tuples as lists), then ``mutants`` and
        ``mutant_caught`` if run.

        Generic over the dataclass's fields, so ``rsb verify --format json``, :func:`to_json` and a notebook's
        ``entry.to_dict()`` stay one serialisation.
        """
        out = {k: getattr(self, k) for k in KEYS}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in out and f.name != "mutants" and value is not None and value != "" and value != ():
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
    return jsontext.dumps([r.to_dict() for r in results], indent=2, ensure_ascii=False)


#: The packages whose versions can change a computed number (pinned in constraints.txt; recorded with a ledger).
COMPUTING_PACKAGES = ("numpy", "scipy", "sympy", "mpmath", "cvxpy", "clarabel", "ecos", "osqp", "scs", "numba",
                      "llvmlite", "pandas", "networkx", "z3-solver", "python-flint", "gmpy2")


def computed_with() -> dict[str, str]:
    """The versions a ledger is computed with: Python (major.minor) and :data:`COMPUTING_PACKAGES` (read from the
    installed metadata; nothing is imported)."""
    import sys
    from importlib import metadata

    out = {"python": f"{sys.version_info.major}.{sys.version_info.minor}"}
    for name in COMPUTING_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - every one is a dependency
            out[name] = "absent"
    return out


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
    if any(getattr(r, "certificate", None) for r in results):
        from .certificates import summary_counts

        k = summary_counts(results)
        text += (f"; proved on the whole domain {k['whole']}, on a sub-domain {k['sub']}, "
                 f"tested only {k['tested']}")
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
        "Computed with " + ", ".join(f"{k} {v}" for k, v in computed_with().items()) + " (constraints.txt).",
        "",
        "| id | status | method | paper | derived | claim | evidence | certificate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    from .certificates import short

    rows = [
        f"| `{_cell(r.id)}` | {r.status} | {r.method} | {_cell(r.paper)} | {_cell(r.derived)} | "
        f"{_cell(r.claim)} | {_cell(r.evidence)} | {_cell(short(r.certificate))} |"
        for r in results
    ]
    return "\n".join(head + rows) + "\n"
