"""Integer coordinates of the grids: validation, mixtures, lexicographic blocks and unit moves.

A point of a grid of :mod:`rsb_theory.grids` is given by its integer
coordinates (n_1, ..., n_{K-1}) with sum <= m (the grid budget); the last arm
takes the deficit a_K = 1 - sum_{i<K} a_i (footnote to ``eq:etc_discrete_set``).
The lexicographic order of the coordinates is the order of the tie rule
(:mod:`rsb_theory.argmax.rule`).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ..grids import Grid
from ..errors import ArgumentError

__all__ = ["check_counts", "points_of", "lex_blocks", "unit_moves"]


def check_counts(grid: Grid, counts, name: str = "counts") -> np.ndarray:
    """Integer coordinates (..., K-1) of points of ``grid`` as int64; errors name ``name``."""
    try:
        arr = np.asarray(counts)
    except (TypeError, ValueError):  # pragma: no cover
        raise ArgumentError(name, "expected an integer array") from None
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ArgumentError(name, "grid coordinates must be integers")
    arr = arr.astype(np.int64)
    if arr.ndim < 1 or arr.shape[-1] != grid.K - 1:
        raise ArgumentError(name, f"expected shape (..., {grid.K - 1}) (K - 1 coordinates), got {arr.shape}")
    if np.any(arr < 0) or np.any(arr.sum(axis=-1) > grid.budget):
        raise ArgumentError(name, f"coordinates must be >= 0 with sum <= {grid.budget} (the grid budget)")
    return arr


def points_of(grid: Grid, counts: np.ndarray) -> np.ndarray:
    """Mixtures (..., K) of integer coordinates (..., K-1): the last coordinate takes the deficit."""
    head = grid.weights(counts)
    # as Grid.points(), but 1 - sum can round to -2.2e-16 on an exact grid: clamp at 0
    return np.concatenate([head, np.maximum(1.0 - head.sum(axis=-1, keepdims=True), 0.0)], axis=-1)


def lex_blocks(grid: Grid, max_rows: int = 1 << 20):
    """Yield the grid's integer coordinates in lexicographic order, in blocks of <= max_rows rows.

    Splits on leading coordinates until a subtree fits; each block is (rows, K-1) int64.
    """
    k = grid.K - 1
    m = grid.budget

    def size(r: int, free: int) -> int:
        return math.comb(r + free, free)

    def full(prefix: list[int], r: int) -> np.ndarray:
        free = k - len(prefix)
        rows = np.zeros((1, 0), dtype=np.int64)
        used = np.zeros(1, dtype=np.int64)
        for _ in range(free):
            cnt = r - used + 1
            par = np.repeat(np.arange(rows.shape[0]), cnt)
            start = np.cumsum(cnt) - cnt
            val = np.arange(par.size) - np.repeat(start, cnt)
            rows = np.column_stack([rows[par], val])
            used = used[par] + val
        head = np.broadcast_to(np.asarray(prefix, dtype=np.int64), (rows.shape[0], len(prefix)))
        return np.column_stack([head, rows]) if prefix else rows

    def rec(prefix: list[int], r: int):
        free = k - len(prefix)
        if free == 0 or size(r, free) <= max_rows or free == 1:
            yield full(prefix, r)
            return
        for v in range(r + 1):
            yield from rec(prefix + [v], r - v)

    yield from rec([], m)


@lru_cache(maxsize=16)
def unit_moves(k: int) -> np.ndarray:
    """Unit moves of the coordinates (n_1, ..., n_k) (the last arm takes the deficit): +-e_i and e_i - e_j."""
    eye = np.eye(k, dtype=np.int64)
    pairs = [eye[i] - eye[j] for i in range(k) for j in range(k) if i != j]
    out = np.concatenate([eye, -eye] + ([np.array(pairs)] if pairs else []), axis=0)
    out.setflags(write=False)
    return out
