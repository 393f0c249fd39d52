"""The tie rule of the grid searches (binding: every search route applies it).

With M the maximum of the computed objective over the grid and
O = {a : v(a) >= M - tol}: a ``previous`` choice with v(previous) >= M - tol is
kept (section ``RS_UCB_M``, "tracking a single mixture"); otherwise the first
point of O in lexicographic order of (n_1, ..., n_{K-1}) is taken (the order of
:meth:`rsb_theory.grids.Grid.counts`).  ARCHITECTURE.md states the same rule
for the simulator, whose reference loop applies it independently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..grids import Grid
from ..objectives import Objective
from .lattice import points_of
from ..errors import ArgumentError

__all__ = ["TIE_TOL", "Decision", "check_previous", "check_tol", "choose", "finish"]

#: Two grid values closer than this are a tie (floating-point comparisons).
TIE_TOL = 1e-12


@dataclass(frozen=True, eq=False)
class Decision:
    """Result of :func:`rsb_theory.argmax.argmax` for a batch of trials.

    Attributes
    ----------
    counts : numpy.ndarray, shape (B, K-1), int64
        Chosen grid coordinates (n_1, ..., n_{K-1}).
    points : numpy.ndarray, shape (B, K)
        The chosen mixtures (last coordinate takes the deficit).
    value : numpy.ndarray, shape (B,)
        Objective at the choice.
    best : numpy.ndarray, shape (B,)
        M, the maximum of the objective over the grid.
    kept : numpy.ndarray, shape (B,), bool
        The previous choice was kept.
    method : str
        "bnb" or "enumerate".
    lines : numpy.ndarray, shape (B,), int64
        Branch and bound: number of leaf lines (prefixes (n_1..n_{K-2})) evaluated
        per trial; enumeration: grid points evaluated.
    dived : bool
        Branch and bound: the greedy dive for a first incumbent ran.  It is
        skipped when ``previous`` and its unit-move neighbours already reach the
        certificate of every trial (no grid value can exceed it).
    """

    counts: np.ndarray
    points: np.ndarray
    value: np.ndarray
    best: np.ndarray
    kept: np.ndarray
    method: str = "enumerate"
    lines: np.ndarray | None = field(default=None, repr=False)
    dived: bool = False


def check_previous(obj, grid: Grid, previous) -> np.ndarray | None:
    """``previous`` as (B, K-1) int64 rows: grid points, or all -1 for none; errors name ``previous``.

    ``obj`` needs only ``B`` and ``K``.
    """
    if previous is None:
        return None
    try:
        arr = np.asarray(previous)
    except (TypeError, ValueError):  # pragma: no cover
        raise ArgumentError("previous", "expected an integer array") from None
    if arr.ndim != 2 or arr.shape != (obj.B, obj.K - 1):
        raise ArgumentError("previous", f"expected shape ({obj.B}, {obj.K - 1}), got {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ArgumentError("previous", "grid coordinates must be integers")
    arr = arr.astype(np.int64)
    none = np.all(arr == -1, axis=1)
    bad = ~none & ((arr < 0).any(axis=1) | (arr.sum(axis=1) > grid.budget))
    if np.any(bad):
        raise ArgumentError(
            "previous", f"row {int(np.argmax(bad))} is neither all -1 (no previous choice) nor a grid "
            f"point (coordinates >= 0 with sum <= {grid.budget})"
        )
    return arr


def check_tol(tol) -> float:
    try:
        tol = float(tol)
    except (TypeError, ValueError):
        raise ArgumentError("tol", f"expected a number, got {tol!r}") from None
    if not (math.isfinite(tol) and tol >= 0):
        raise ArgumentError("tol", f"need a finite tol >= 0, got {tol!r}")
    return tol


def choose(V: np.ndarray, prev: np.ndarray, tol: float = TIE_TOL) -> tuple[np.ndarray, np.ndarray]:
    """The rule on a value matrix whose columns are grid points in lexicographic order.

    Parameters
    ----------
    V : numpy.ndarray, shape (b, n)
        Values of every point that can be optimal (its maximum is M).
    prev : numpy.ndarray, shape (b,), int
        Column of the previous choice, -1 for none.
    tol : float

    Returns
    -------
    column : numpy.ndarray, shape (b,), int64
        The chosen column per row.
    kept : numpy.ndarray, shape (b,), bool
    """
    thr = V.max(axis=1) - tol
    has = prev >= 0
    kept = np.zeros(V.shape[0], dtype=bool)
    if has.any():
        kept[has] = V[np.flatnonzero(has), prev[has]] >= thr[has]
    first = np.argmax(V >= thr[:, None], axis=1)
    return np.where(kept, prev, first), kept


def finish(obj: Objective, grid: Grid, M: np.ndarray, first: np.ndarray, prev: np.ndarray | None, tol: float,
           method: str, lines: np.ndarray, dived: bool = False) -> Decision:
    """Apply the rule given M and the first point of O per trial (rows of ``first``)."""
    B = obj.B
    rows = np.arange(B)
    kept = np.zeros(B, dtype=bool)
    if prev is not None:
        has = ~np.all(prev == -1, axis=1)
        if np.any(has):
            vp = obj.values_at(grid, prev[has], rows[has])
            kept[has] = vp >= M[has] - tol
    counts = np.where(kept[:, None], prev if prev is not None else first, first)
    value = obj.values_at(grid, counts, rows)
    return Decision(counts, points_of(grid, counts), value, M, kept, method, lines, dived)
