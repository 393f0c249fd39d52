"""Every registered check, in ledger order.

A check is a zero-argument callable returning a :class:`CheckResult` (or None
when the paper prints nothing for that cell).  ``rsb verify`` runs them all.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from . import paper_claims
from .checks import (beta_lemma_monotone, discussion_etc_vs_ucb, concentration, delta_error, example_utility, experiments_alpha_star,
                     experiments_exploration, experiments_n_eps, experiments_radius,
                     grid_size, holder_dual_power, holder_gini, holder_inter_es, holder_mean_median, holder_pht,
                     holder_quadratic, holder_rtd, lipschitz_wasserstein, literature_comparison, risk_concave,
                     table_regrets, table_risks, theorem_W, wasserstein_dual)
from .checks import etc_commit, oversampling, probability_E3, slopes_gini, theorems_experiments, undersampling
from .ledger import CheckResult

Check = Callable[[], "CheckResult | None"]

#: One module per Hölder lemma of the appendix, in the paper's order.
HOLDER_LEMMA_CHECKS = (holder_gini, holder_pht, holder_rtd, holder_mean_median, holder_inter_es, holder_dual_power,
                       holder_quadratic)


def registered() -> list[tuple[str, Check]]:
    """(id, check) pairs for every claim rsb checks."""
    out: list[tuple[str, Check]] = []
    for row in paper_claims.TABLE_REGRETS:
        for col in table_regrets.COLUMNS:
            out.append((f"table:table_regrets#{row.key}.{col}", partial(table_regrets.check, row.key, col)))
    for row in paper_claims.TABLE_RISKS:
        for col in table_risks.COLUMNS:
            if col == "L" and row.L is None:
                continue
            out.append((f"table:table_risks#{row.key}.{col}", partial(table_risks.check, row.key, col)))
    for col in literature_comparison.COLUMNS:
        out.append((f"table:literature_comparison#{col}", partial(literature_comparison.check, col)))
    for mod in (example_utility, experiments_alpha_star, risk_concave, theorem_W, delta_error,
                beta_lemma_monotone, grid_size):
        out.append((mod.ID, mod.check))
    for mod in (lipschitz_wasserstein, wasserstein_dual):
        out.append((mod.ID, mod.check))
    for mod in (experiments_radius, experiments_n_eps, experiments_exploration):
        out.append((mod.ID, mod.check))
    for part in discussion_etc_vs_ucb.PARTS:
        out.append((f"{discussion_etc_vs_ucb.LABEL}#{part}", partial(discussion_etc_vs_ucb.check, part)))
    for part in ("bound", "radius"):
        out.append((f"lemma: concentration#{part}", partial(concentration.check, part)))
    for mod in HOLDER_LEMMA_CHECKS:
        for part in mod.PARTS:
            out.append((f"{mod.LABEL}#{part}", partial(mod.check, part)))
    # lemma:undersampling, lemma:oversampling, lemma:probability of E3, eq: ETC commit 5/6, theorems vs experiments
    out.append((undersampling.ID, partial(undersampling.check, "bound")))
    out.append((undersampling.ID_RHO, partial(undersampling.check, "rhoT2")))
    out.append((oversampling.ID, oversampling.check))
    out.append((probability_E3.ID, probability_E3.check))
    out.append((etc_commit.ID, partial(etc_commit.check, "6")))
    out.append((etc_commit.ID5, partial(etc_commit.check, "5")))
    for part in theorems_experiments.PARTS:
        out.append((theorems_experiments.IDS[part], partial(theorems_experiments.check, part)))
    for algo in slopes_gini.LABELS:
        for row in slopes_gini.INSTANCES:
            out.append((f"{slopes_gini.LABELS[algo]}#slope.{row}", partial(slopes_gini.check, algo, row)))
    return out


def run_all(progress: bool = False, jobs: int = 1) -> list[CheckResult]:
    """Run every registered check; results in registration order.

    Parameters
    ----------
    progress : bool
        tqdm bar on stderr.
    jobs : int
        Worker processes (>= 1).  Every check is deterministic (explicit
        seeds), so the ledger does not depend on ``jobs`` (tested); each worker
        keeps its own caches, so two workers do more work in total but finish
        sooner.
    """
    return run_checks(registered(), progress, jobs)


def run_checks(checks: list[tuple[str, Check]], progress: bool = False, jobs: int = 1) -> list[CheckResult]:
    """Run the given (id, check) pairs on ``jobs`` processes; results in the given order (see :func:`run_all`)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"argument 'jobs': need an integer >= 1, got {jobs!r}")
    if jobs == 1 or len(checks) < 2:
        outcomes = (fn() for _ident, fn in checks)
        return _collect(checks, _progress(outcomes, progress, len(checks)))
    import multiprocessing as mp

    global _CHECKS
    _CHECKS = checks  # inherited by the forked workers
    try:
        with mp.get_context("fork").Pool(min(jobs, len(checks))) as pool:
            outcomes = pool.imap(_run_one, range(len(checks)), chunksize=1)
            return _collect(checks, _progress(outcomes, progress, len(checks)))
    finally:
        _CHECKS = None


#: The checks handed to forked workers by :func:`run_checks` (None otherwise).
_CHECKS: list | None = None


def _run_one(i: int):
    return _CHECKS[i][1]()


def _collect(checks, outcomes) -> list[CheckResult]:
    results = []
    for (ident, _fn), res in zip(checks, outcomes):
        if res is None:
            continue
        if res.id != ident:
            raise RuntimeError(f"check registered as {ident!r} returned id {res.id!r}")
        results.append(res)
    return results


def _progress(items, enabled: bool, total: int | None = None):
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return tqdm(items, total=total, desc="checks", unit="claim", leave=False)
