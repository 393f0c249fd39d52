"""Every claim rsb checks, found in :mod:`proofs_checks.checks`, in ledger order; running them.

Each public module of ``proofs_checks/checks/`` (a name not starting with an
underscore) exports ``CLAIMS``, a mapping from ledger id to
:class:`proofs_checks.claims.Claim`; this module imports them all, so adding a
check is adding a file.  An id's label (the part before ``#``) may be any of the
paper's labels (:data:`proofs_checks.paper_labels.ORDER`).  The ledger lists
the claims in the order the paper defines their labels, a step of a proof
(``RESULT#step:LABEL``) after its result's other entries in the order of the
step labels, then by module name, then in the order of the module's ``CLAIMS``.
Which entries check a label (:func:`ledger_ids_of`) is derived from the ids.

``rsb verify`` calls :func:`run_all`; with ``jobs > 1`` the claims run on
forked worker processes, which look each claim up by its id (no state is
handed to them), so the ledger does not depend on ``jobs`` (tested).  A worker
gets the claims that share derivations together (:func:`work_units`: a row of
the two tables, or one check module): a distortion's profile
(:func:`rsb_theory.profile.of`) is kept per process, so one worker derives a row's
profile for all of them instead of two workers deriving it each (measured with two
workers on the tables' entries and the text entries that share their rows: 14 s of
CPU time in units by row against 22 s in units by module).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from functools import lru_cache

from . import checks as _checks_package
from . import certificates, paper_labels, results
from .claims import Claim
from .graph import uses_of_entry
from .ledger import CheckResult, MutantOutcome
from .statuses import Status, impact
from rsb_theory.errors import ArgumentError


def check_modules() -> tuple[str, ...]:
    """Names of the check modules of :mod:`proofs_checks.checks`, sorted (helpers start with ``_``)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(_checks_package.__path__) if not m.name.startswith("_")))


def label_of(ident: str) -> str:
    """The paper label of a ledger id (the part before ``#``)."""
    return ident.partition("#")[0]


def step_of(ident: str) -> str | None:
    """The step part of ``RESULT#step:...`` (``"eq:E1C"``, ``"after:eq:LALL"``, ``"jensen"``), None for other ids."""
    part = ident.partition("#")[2]
    return part[len("step:"):] if part.startswith("step:") else None


def step_position(ident: str) -> float | None:
    """Where in the paper a step sits: the position of its label (``after:LABEL``: just after it); None for an id
    that is not a step or whose step names no label."""
    step = step_of(ident)
    if step is None:
        return None
    after = step.startswith("after:")
    name = step[len("after:"):] if after else step
    if name not in paper_labels.POSITION:
        return None
    return paper_labels.POSITION[name] + (0.5 if after else 0.0)


# The node, axis and printed-value kind of an entry, and the result whose proof it judges, are derived from the
# results' records (proofs_checks.results); re-exported here for the registry's callers.
proof_result = results.proof_result
axis_of = results.axis_of
about_of = results.about_of
node_of = results.node_of


def labels_checked(ident: str) -> tuple[str, ...]:
    """The paper labels an entry checks: its label; for ``RESULT#step:LABEL`` the step's label; for another entry
    of a result (``lemma: concentration#bound``) the displays of that result's statement (``eq:meta_concentration``)."""
    step = step_of(ident)
    own = label_of(ident)
    if step is None:
        return (own, *paper_labels.statement_labels(own))
    return (own, step) if step in paper_labels.POSITION and step != own else (own,)


def _order_key(ident: str, module_index: int, position: int) -> tuple:
    pos = step_position(ident)
    return (paper_labels.POSITION[label_of(ident)], pos is not None, pos or 0.0, module_index, position)


@lru_cache(maxsize=1)
def claims() -> dict[str, Claim]:
    """Every claim, id -> :class:`Claim`, in ledger order.

    Raises
    ------
    RuntimeError
        A module without ``CLAIMS``, an id used twice, or a label the paper does not have
        (:data:`proofs_checks.paper_labels.ORDER`).
    """
    keyed = []
    owner: dict[str, str] = {}
    for m_index, name in enumerate(check_modules()):
        module = importlib.import_module(f"{_checks_package.__name__}.{name}")
        found = getattr(module, "CLAIMS", None)
        if not isinstance(found, dict):
            raise RuntimeError(f"check module {name!r} exports no CLAIMS mapping")
        for position, (ident, claim) in enumerate(found.items()):
            if ident != claim.id:
                raise RuntimeError(f"{name}.CLAIMS maps {ident!r} to a claim with id {claim.id!r}")
            if ident in owner:
                raise RuntimeError(f"ledger id {ident!r} is claimed by {owner[ident]!r} and {name!r}")
            if label_of(ident) not in paper_labels.POSITION:
                raise RuntimeError(f"{name}: label {label_of(ident)!r} of {ident!r} is not a label of the paper "
                                   "(proofs_checks.paper_labels)")
            owner[ident] = name
            if claim.context is None and proof_result(ident) is not None:
                claim = replace(claim, context=results.context_of(proof_result(ident)))
            keyed.append((_order_key(ident, m_index, position), claim))
    return {c.id: c for _key, c in sorted(keyed, key=lambda kc: kc[0])}


def ledger_ids_of(label: str, ids=None) -> tuple[str, ...]:
    """The ledger ids that check ``label`` (its own ids and the steps ``RESULT#step:label``), in ledger order.

    ``ids``: the ids to look in (default: every claim's).
    """
    return tuple(i for i in (claims() if ids is None else ids) if label in labels_checked(i))


def ids_by_label(ids=None) -> dict[str, tuple[str, ...]]:
    """label -> the ledger ids that check it, for every label of the paper (in the paper's order)."""
    out: dict[str, list[str]] = {label: [] for label in paper_labels.ORDER}
    for i in (claims() if ids is None else ids):
        for label in labels_checked(i):
            out[label].append(i)
    return {label: tuple(v) for label, v in out.items()}


#: Ledger labels whose entries are grouped by table row (``label#row.column``) into one unit of work.
ROW_GROUPED = ("table:table_regrets", "table:table_risks")


@lru_cache(maxsize=1)
def _module_of() -> dict[str, str]:
    out = {}
    for name in check_modules():
        module = importlib.import_module(f"{_checks_package.__name__}.{name}")
        out.update(dict.fromkeys(module.CLAIMS, name))
    return out


@lru_cache(maxsize=1)
def _shared_rows() -> dict[str, str]:
    """id -> table row key, for entries outside the tables that derive a row's profile (a module's optional
    ``SHARES_ROW`` mapping, e.g. a running-text rate about CVaR): they join that row's unit of work."""
    out: dict[str, str] = {}
    for name in check_modules():
        out.update(getattr(importlib.import_module(f"{_checks_package.__name__}.{name}"), "SHARES_ROW", {}))
    return out


def work_units(ids: list[str]) -> list[tuple[str, ...]]:
    """The ids grouped into units of work that share derivations, in order of their first id.

    Entries of :data:`ROW_GROUPED` tables are grouped by their row (the two tables share the row's profile), and
    so are the entries a module names in its ``SHARES_ROW``; every other entry by its check module.
    """
    module_of, shared = _module_of(), _shared_rows()
    units: dict[str, list[str]] = {}
    for ident in ids:
        label, _, part = ident.partition("#")
        key = (f"row:{part.split('.')[0]}" if label in ROW_GROUPED else f"row:{shared[ident]}" if ident in shared
               else f"module:{module_of[ident]}")
        units.setdefault(key, []).append(ident)
    return [tuple(u) for u in units.values()]


#: What a ``loose`` entry's better value is better in, by what the claim is about.
_LOOSE_IN = {"rate": "exponent", "exponent": "exponent", "constant": "constant"}


def annotate(claim: Claim, res: CheckResult) -> CheckResult:
    """``res`` with what is derived from the claim and the status: the node and part (the results' records,
    :func:`proofs_checks.results.node_of`), the axis (``statement`` for a statement node, else ``proof``), the
    impact (from the node kind; an evident typo is one when the check finds the corrected claim verified or loose; a
    condition that holds at every use of the claim changes nothing), what a loose value is better in, the context.

    Raises
    ------
    RuntimeError
        A ``gap`` outside a proof or a proof sketch (a gap is a property of a proof).
    """
    node, part = node_of(claim.id)
    axis = "statement" if node == "statement" else "proof"
    if "statement" not in Status(res.status).axis and node not in ("proof", "sketch"):
        raise RuntimeError(f"{claim.id!r}: status gap on a {node} (only a proof step or a proof sketch can have a gap)")
    about = claim.about or about_of(claim.id)
    # a check that read the claim with its evident correction itself says so with impact "typo" (refuted entries only:
    # a typo is false as printed); every other impact is derived here
    typo, evidence = res.impact == "typo" and res.status == "refuted", res.evidence
    fixed = claim.corrected()
    if fixed is not None and Status(res.status).broken:
        status = fixed.run().status
        typo = Status(status).holds
        evidence = evidence.rstrip().rstrip(".") + f". Read with the evident correction ({claim.typo[0]}): {status}."
    note = res.note
    if claim.context is not None:
        note = (note + " " if note else "") + f"Judged in the context of the proof of {claim.context.result}: " \
            f"{claim.context.describe()}."
    return replace(res, evidence=evidence, axis=axis, node=node, part=part,
                   impact=impact(axis=axis, status=res.status, about=about, typo=typo, node=node,
                                 condition_at_uses=bool(res.condition_at_uses)),
                   loose_in=_LOOSE_IN.get(about, "bound") if res.status == "loose" else None, note=note)


def mutants_of(claim: Claim, res: CheckResult) -> list[Claim]:
    """The claim's own mutants, and for a claim judged in a proof's context the claim with the context dropped."""
    altered = list(claim.mutants(claim, res)) if claim.mutants is not None else []
    if claim.context is not None:
        altered.append(claim.without_context())
    return altered


def evaluate(claim: Claim, mutants: bool = False) -> CheckResult:
    """The check's verdict on ``claim`` (:func:`annotate`); with ``mutants``, also on each of its mutants.

    The entry's ``uses`` (the paper's labels its claim uses) come from the dependency graph
    (:func:`proofs_checks.graph.uses_of_entry`), here in one place, never from a check.
    """
    res = replace(annotate(claim, claim.run()), uses=uses_of_entry(claim.id))
    res = certificates.attach(claim, res)
    if not mutants:
        return res
    outcomes = tuple(MutantOutcome(m.note, m.run().status) for m in mutants_of(claim, res))
    return replace(res, mutants=outcomes)


def run_all(progress: bool = False, jobs: int = 1, mutants: bool = False) -> list[CheckResult]:
    """Run every claim's check; results in ledger order.

    Parameters
    ----------
    progress : bool
        Progress on stderr: a tqdm bar on a terminal, otherwise a line every :data:`rsb_sim.progress.EVERY` seconds.
    jobs : int
        Worker processes (>= 1).  Every check is deterministic (explicit
        seeds, work budgets), so the ledger does not depend on ``jobs``; each
        worker keeps its own caches, so two workers do more work in total but
        finish sooner.
    mutants : bool
        Also run every check on its mutants (``rsb verify --mutants``).
    """
    return run_claims(list(claims()), progress, jobs, mutants)


def run_claims(ids: list[str], progress: bool = False, jobs: int = 1, mutants: bool = False) -> list[CheckResult]:
    """Run the claims with the given ids on ``jobs`` processes; results in the given order (see :func:`run_all`)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError("jobs", f"need an integer >= 1, got {jobs!r}")
    known = claims()
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ArgumentError("ids", f"unknown ledger ids {unknown}")
    units = work_units(ids)
    work = [(unit, bool(mutants)) for unit in units]
    if jobs == 1 or len(work) < 2:
        done = _progress(map(_run_unit, work), progress, len(work))
        by_id = {r.id: r for rs in done for r in rs}
        return [by_id[i] for i in ids]
    from rsb_sim.workers import worker_pool  # forked workers, killed at once on Ctrl-C/SIGTERM or an error

    with worker_pool(min(jobs, len(work))) as pool:
        done = _progress(pool.imap_unordered(_run_unit, work, chunksize=1), progress, len(work))
        by_id = {r.id: r for rs in done for r in rs}
    return [by_id[i] for i in ids]


def _run_unit(item: tuple[tuple[str, ...], bool]) -> list[CheckResult]:
    """Worker: look the claims of a unit up by their ids and judge them (and their mutants)."""
    unit, with_mutants = item
    return [evaluate(claims()[ident], with_mutants) for ident in unit]


def _progress(items, enabled: bool, total: int | None = None):
    """``items``, with progress on stderr when ``enabled`` (:func:`rsb_sim.progress.track`: a tqdm bar on a
    terminal, else a line every :data:`rsb_sim.progress.EVERY` seconds)."""
    if not enabled:
        return items
    from rsb_sim.progress import track

    return track(items, "checks", total, "group")
