"""Every claim rsb checks, found in :mod:`proofs_checks.checks`, in ledger order; running them.

Each public module of ``proofs_checks/checks/`` (a name not starting with an
underscore) exports ``CLAIMS``, a mapping from ledger id to
:class:`proofs_checks.claims.Claim`; this module imports them all, so adding a
check is adding a file.  The ledger lists the claims in the order the paper
defines their labels (:data:`proofs_checks.paper_claims.LEDGER_LABELS`), then
by module name, then in the order of the module's ``CLAIMS``.

``rsb verify`` calls :func:`run_all`; with ``jobs > 1`` the claims run on
forked worker processes, which look each claim up by its id (no state is
handed to them), so the ledger does not depend on ``jobs`` (tested).
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
    work = [(ident, bool(mutants)) for ident in ids]
    if jobs == 1 or len(work) < 2:
        return list(_progress(map(_run_one, work), progress, len(work)))
    import multiprocessing as mp

    with mp.get_context("fork").Pool(min(jobs, len(work))) as pool:
        return list(_progress(pool.imap(_run_one, work, chunksize=1), progress, len(work)))


def _run_one(item: tuple[str, bool]) -> CheckResult:
    """Worker: look the claim up by its id and judge it (and its mutants)."""
    ident, with_mutants = item
    return evaluate(claims()[ident], with_mutants)


def _progress(items, enabled: bool, total: int | None = None):
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return tqdm(items, total=total, desc="checks", unit="claim", leave=False)
