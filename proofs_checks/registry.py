"""Every claim rsb checks, found in :mod:`proofs_checks.checks`, in ledger order; running them.

Each public module of ``proofs_checks/checks/`` (a name not starting with an
underscore) exports ``CLAIMS``, a mapping from ledger id to
:class:`proofs_checks.claims.Claim`; this module imports them all, so adding a
check is adding a file.  The ledger lists the claims in the order the paper
defines their labels (:data:`proofs_checks.paper_claims.LEDGER_LABELS`), then
by module name, then in the order of the module's ``CLAIMS``.

``rsb verify`` calls :func:`run_all`; with ``jobs > 1`` the claims run on
forked worker processes, which look each claim up by its id (no state is
handed to them), so the ledger does not depend on ``jobs`` (tested).  A worker
gets the claims that share derivations together (:func:`work_units`: a row of
the two tables, or one check module), so the caches of one process serve them
all instead of two processes deriving the same profile.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from functools import lru_cache

from . import checks as _checks_package
from . import paper_claims
from .claims import Claim
from .ledger import CheckResult, MutantOutcome


def check_modules() -> tuple[str, ...]:
    """Names of the check modules of :mod:`proofs_checks.checks`, sorted (helpers start with ``_``)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(_checks_package.__path__) if not m.name.startswith("_")))


def _label(ident: str) -> str:
    return ident.partition("#")[0]


@lru_cache(maxsize=1)
def claims() -> dict[str, Claim]:
    """Every claim, id -> :class:`Claim`, in ledger order.

    Raises
    ------
    RuntimeError
        A module without ``CLAIMS``, an id used twice, or a label missing from
        :data:`proofs_checks.paper_claims.LEDGER_LABELS`.
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
            if _label(ident) not in paper_claims.LEDGER_LABELS:
                raise RuntimeError(f"{name}: label {_label(ident)!r} of {ident!r} is not in paper_claims.LEDGER_LABELS")
            owner[ident] = name
            keyed.append(((paper_claims.LEDGER_LABELS.index(_label(ident)), m_index, position), claim))
    return {c.id: c for _key, c in sorted(keyed, key=lambda kc: kc[0])}


#: Ledger labels whose entries are grouped by table row (``label#row.column``) into one unit of work.
ROW_GROUPED = ("table:table_regrets", "table:table_risks")


@lru_cache(maxsize=1)
def _module_of() -> dict[str, str]:
    out = {}
    for name in check_modules():
        module = importlib.import_module(f"{_checks_package.__name__}.{name}")
        out.update(dict.fromkeys(module.CLAIMS, name))
    return out


def work_units(ids: list[str]) -> list[tuple[str, ...]]:
    """The ids grouped into units of work that share derivations, in order of their first id.

    Entries of :data:`ROW_GROUPED` tables are grouped by their row (the two tables share the row's profile);
    every other entry by its check module.
    """
    module_of = _module_of()
    units: dict[str, list[str]] = {}
    for ident in ids:
        label, _, part = ident.partition("#")
        key = f"row:{part.split('.')[0]}" if label in ROW_GROUPED else f"module:{module_of[ident]}"
        units.setdefault(key, []).append(ident)
    return [tuple(u) for u in units.values()]


def evaluate(claim: Claim, mutants: bool = False) -> CheckResult:
    """The check's verdict on ``claim``; with ``mutants``, also on each of its mutants."""
    res = claim.run()
    if not mutants:
        return res
    altered = claim.mutants(claim, res) if claim.mutants is not None else []
    outcomes = tuple(MutantOutcome(m.note, m.run().status) for m in altered)
    return replace(res, mutants=outcomes)


def run_all(progress: bool = False, jobs: int = 1, mutants: bool = False) -> list[CheckResult]:
    """Run every claim's check; results in ledger order.

    Parameters
    ----------
    progress : bool
        tqdm bar on stderr.
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
        raise ValueError(f"argument 'jobs': need an integer >= 1, got {jobs!r}")
    known = claims()
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"argument 'ids': unknown ledger ids {unknown}")
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
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return tqdm(items, total=total, desc="checks", unit="group", leave=False)
