"""Full enumeration of a grid: the reference route of every grid search.

Every grid point is evaluated by the objective's own evaluation
(:meth:`rsb_theory.objectives.Objective.values_at`), in lexicographic blocks of
bounded size; the branch and bound (:mod:`rsb_theory.argmax.bnb`) must agree
with it (tests).  :data:`MAX_ENUMERATION` caps the grids enumerated in one
call: a larger grid is refused with a message naming ``eps``.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..objectives import Objective
from .lattice import lex_blocks
from ..errors import ArgumentError

__all__ = ["MAX_ENUMERATION", "ENUM_CHUNK", "check_enumerable", "enumerate_scan"]

#: Largest grid enumerated in one call.
MAX_ENUMERATION = 5_000_000

#: Values evaluated at once by an enumeration: (trials x grid points), times the support's steps
#: for finite-support arms (bounds the memory of one block).
ENUM_CHUNK = 1 << 21


def check_enumerable(grid: Grid) -> None:
    """ValueError naming ``eps`` when the grid is larger than :data:`MAX_ENUMERATION`."""
    if grid.size > MAX_ENUMERATION:
        raise ArgumentError(
            "eps", f"the {grid.kind} grid with K = {grid.K}, eps = {grid.eps} has {grid.size} points, "
            f"more than {MAX_ENUMERATION} to enumerate"
        )


def _values(obj: Objective, grid: Grid, block: np.ndarray) -> np.ndarray:
    """(B, rows) values at the coordinates ``block`` (rows, K-1) shared by every trial."""
    c = np.broadcast_to(block[None], (obj.B,) + block.shape)
    rows = np.broadcast_to(np.arange(obj.B)[:, None], c.shape[:2])
    return obj.values_at(grid, c, rows)


def enumerate_scan(obj: Objective, grid: Grid, tol: float, want_second: bool):
    """Per trial: M, the first point of O (counts), |O| and the best value outside O.

    Two passes over the grid (M first, then O); without ``want_second`` the
    second pass stops once every trial has found its first point of O.

    Returns
    -------
    M : numpy.ndarray, shape (B,)
    first : numpy.ndarray, shape (B, K-1), int64
    n_optimal : numpy.ndarray, shape (B,), int64 (zeros unless ``want_second``)
    second : numpy.ndarray, shape (B,) (-inf unless ``want_second``)
    """
    check_enumerable(grid)
    B = obj.B
    rows_per = max(1, ENUM_CHUNK // max(B, 1))
    M = np.full(B, -np.inf)
    for block in lex_blocks(grid, rows_per):
        M = np.maximum(M, _values(obj, grid, block).max(axis=1))
    thr = M - tol
    first = np.full((B, grid.K - 1), -1, dtype=np.int64)
    found = np.zeros(B, dtype=bool)
    n_opt = np.zeros(B, dtype=np.int64)
    second = np.full(B, -np.inf)
    for block in lex_blocks(grid, rows_per):
        v = _values(obj, grid, block)
        opt = v >= thr[:, None]
        has = opt.any(axis=1)
        new = has & ~found
        if np.any(new):
            idx = np.argmax(opt[new], axis=1)
            first[new] = block[idx]
            found |= new
        if want_second:
            n_opt += opt.sum(axis=1)
            second = np.maximum(second, np.where(opt, -np.inf, v).max(axis=1))
        elif found.all():
            break
    return M, first, n_opt, second
