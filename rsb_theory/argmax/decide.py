"""The public entry points: values at grid points, the discrete argmax and the second best value.

:func:`argmax` implements the argmax of ``eq:ETC_alpha``, ``eq:UCB_alpha`` and
``eq:UCB_alpha2`` over the grids of :mod:`rsb_theory.grids` with the rule of
:mod:`rsb_theory.argmax.rule`, by enumeration (:mod:`.enumeration`, the
reference) or by branch and bound (:mod:`.bnb`, concave h); :func:`second_best`
gives what ``eq:discrete_gap`` needs.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..objectives import Objective
from .bnb import Search
from .certificates import neighbour_best, root_bound
from .enumeration import enumerate_scan
from .lattice import check_counts
from .rule import TIE_TOL, Decision, check_previous, check_tol, finish
from ..errors import ArgumentError

__all__ = ["METHODS", "values", "upper_bound", "argmax", "second_best"]

METHODS = ("auto", "bnb", "enumerate")


def check_objective(obj) -> Objective:
    if not isinstance(obj, Objective):
        raise ArgumentError("obj", f"expected an Objective (etc_objective, ...), got {type(obj).__name__}")
    return obj


def check_grid(obj: Objective, grid) -> Grid:
    if not isinstance(grid, Grid):
        raise ArgumentError("grid", f"expected a rsb_theory.grids.Grid, got {type(grid).__name__}")
    if grid.K != obj.K:
        raise ArgumentError("grid", f"grid has K = {grid.K}, the objective has K = {obj.K} arms")
    return grid


def resolve_method(obj: Objective, method: str) -> str:
    """``"auto"`` -> ``"bnb"`` for a concave h, else ``"enumerate"``; ``"bnb"`` needs a concave h."""
    if method not in METHODS:
        raise ArgumentError("method", f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if method == "auto":
        return "bnb" if obj.concave else "enumerate"
    if method == "bnb" and not obj.concave:
        raise ArgumentError(
            "d", f"method='bnb' needs a concave h; {obj.d.describe()} is {obj.d.shape.curvature} "
            f"(use method='enumerate')"
        )
    return method


def values(obj: Objective, grid: Grid, counts) -> np.ndarray:
    """The objective at grid points given by integer coordinates.

    Parameters
    ----------
    obj : Objective
    grid : Grid
        Same K as ``obj``.
    counts : array_like of int, shape (B, n, K-1) or (n, K-1) (shared by all trials)
        Coordinates (n_1, ..., n_{K-1}) with sum <= grid.budget.

    Returns
    -------
    numpy.ndarray, shape (B, n)
    """
    obj = check_objective(obj)
    grid = check_grid(obj, grid)
    c = check_counts(grid, counts)
    if c.ndim == 2:
        c = np.broadcast_to(c[None], (obj.B,) + c.shape)
    elif c.ndim != 3 or c.shape[0] != obj.B:
        raise ArgumentError("counts", f"expected shape ({obj.B}, n, {obj.K - 1}) or (n, {obj.K - 1}), got {c.shape}")
    rows = np.broadcast_to(np.arange(obj.B)[:, None], c.shape[:2])
    return obj.values_at(grid, c, rows)


def upper_bound(obj: Objective) -> np.ndarray:
    """Continuous relaxation of the root: an upper bound on M for every trial, shape (B,).

    See :func:`rsb_theory.argmax.certificates.root_bound`; v(previous) >=
    upper_bound - tol certifies that ``previous`` is kept by :func:`argmax`.
    Requires a concave h (ValueError naming ``d`` otherwise).
    """
    obj = check_objective(obj)
    if not obj.concave:
        raise ArgumentError("d", f"upper_bound needs a concave h; {obj.d.describe()} is not concave")
    return root_bound(obj)


def argmax(obj: Objective, grid: Grid, previous=None, tol: float = TIE_TOL, method: str = "auto") -> Decision:
    """Discrete argmax of an objective over a grid, with the binding tie rule.

    Implements the argmax of ``eq:ETC_alpha``, ``eq:UCB_alpha`` and
    ``eq:UCB_alpha2`` over the grids of :mod:`rsb_theory.grids`.

    Parameters
    ----------
    obj : Objective
    grid : Grid
    previous : array_like of int, shape (B, K-1), optional
        Coordinates of the previous choice per trial; a row of -1 means none.
        It is kept when v(previous) >= M - tol.
    tol : float
        Tie tolerance (default :data:`TIE_TOL`).
    method : {"auto", "bnb", "enumerate"}
        "enumerate" evaluates every grid point (reference; refuses grids larger
        than :data:`rsb_theory.argmax.enumeration.MAX_ENUMERATION`, naming ``eps``); "bnb" is the fast exact
        path (concave h only); "auto" picks "bnb" when available.

    Returns
    -------
    Decision
    """
    obj = check_objective(obj)
    grid = check_grid(obj, grid)
    tol = check_tol(tol)
    prev = check_previous(obj, grid, previous)
    method = resolve_method(obj, method)
    if method == "enumerate":
        M, first, _, _ = enumerate_scan(obj, grid, tol, want_second=False)
        lines = np.full(obj.B, grid.size, dtype=np.int64)
        return finish(obj, grid, M, first, prev, tol, "enumerate", lines)
    search = Search(obj, grid)
    B = obj.B
    rows = np.arange(B)
    vprev = np.full(B, -np.inf)
    known = vprev
    if prev is not None:
        has = ~np.all(prev == -1, axis=1)
        if np.any(has):
            vprev[has] = obj.values_at(grid, prev[has], rows[has])
            # the previous choice's neighbours are grid points: their values are lower bounds on M that
            # often reach the certificate of phase 1 (max h for ETC and RS-UCB) and end it at once
            known = np.maximum(vprev, neighbour_best(obj, grid, prev, has))
    if search.needs_start or np.any(known < search.cert):
        inc = np.maximum(search.start(), known)
    else:
        inc = known  # every trial is certified already: no dive needed
    M = search.maximum(inc)
    need = ~(vprev >= M - tol)
    first = np.zeros((B, grid.K - 1), dtype=np.int64)
    if np.any(need):
        first[need] = search.first_optimal(np.flatnonzero(need), M - tol)
    return finish(obj, grid, M, first, prev, tol, "bnb", search.lines, search.dived)


def second_best(obj: Objective, grid: Grid, tol: float = TIE_TOL, method: str = "auto"):
    """Best value M, best value outside the optimal set and the size of the optimal set.

    For Delta_min of ``eq:discrete_gap``: the optimal set is O = {v >= M - tol};
    ``second`` is the largest value outside O (-inf when O is the whole grid)
    and ``n_optimal`` = |O|, counted exactly.

    Returns
    -------
    best, second : numpy.ndarray, shape (B,)
    n_optimal : numpy.ndarray, shape (B,), int64
    """
    obj = check_objective(obj)
    grid = check_grid(obj, grid)
    tol = check_tol(tol)
    method = resolve_method(obj, method)
    if method == "enumerate":
        M, _, n_opt, second = enumerate_scan(obj, grid, tol, want_second=True)
        return M, second, n_opt
    search = Search(obj, grid)
    M = search.maximum(search.start())
    second, n_opt = search.second(M, tol)
    return M, second, n_opt
