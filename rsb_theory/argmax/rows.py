"""Rows of the branch and bound: (trial, prefix) pairs at one depth, their order and their filter."""

from __future__ import annotations

import numpy as np

__all__ = ["CHUNK", "Rows", "rank_major", "Keep"]

#: Rows (trial x prefix) processed at once by the branch and bound (bounds its memory).
CHUNK = 1 << 17


class Rows:
    """A set of (trial, prefix) rows at one depth (arms 0..depth-1 pushed)."""

    __slots__ = ("trial", "cols", "used", "acc", "bound", "depth", "rank")

    def __init__(self, trial, cols, used, acc, bound, depth, rank=None):
        self.trial, self.cols, self.used, self.acc, self.bound, self.depth = trial, cols, used, acc, bound, depth
        self.rank = rank

    def __len__(self) -> int:
        return int(self.trial.size)

    def take(self, idx) -> "Rows":
        return Rows(self.trial[idx], self.cols[idx], self.used[idx], tuple(a[idx] for a in self.acc),
                    self.bound[idx], self.depth, None if self.rank is None else self.rank[idx])


def rank_major(rows: Rows, by_bound: bool) -> Rows:
    """Reorder rows by (rank within trial, trial).

    The rank is the position of a row among its trial's rows: in the given order
    (rows of one trial are in lexicographic order of their prefixes, so slices of
    the result visit every trial's prefixes in lexicographic order, a few at a time),
    or by decreasing bound (``by_bound``: best first, for the search of M).
    """
    n = len(rows)
    order = np.lexsort((-rows.bound, rows.trial)) if by_bound else np.argsort(rows.trial, kind="stable")
    st = rows.trial[order]
    first = np.r_[0, np.flatnonzero(st[1:] != st[:-1]) + 1]
    size = np.diff(np.r_[first, n])
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - np.repeat(first, size)
    out = rows.take(np.lexsort((rows.trial, rank)))
    out.rank = np.sort(rank)
    return out


class Keep:
    """Row filter ``bound + guard > level`` (``strict``) or ``>= level``, rows of finished trials dropped.

    ``level`` and ``finished`` are (B,) arrays that the caller updates in place.
    """

    def __init__(self, level: np.ndarray, g: np.ndarray, strict: bool, finished: np.ndarray | None = None):
        self.level, self.g, self.strict, self.finished = level, g, strict, finished

    def __call__(self, bound: np.ndarray, tr: np.ndarray) -> np.ndarray:
        b = bound + self.g[tr]
        ok = b > self.level[tr] if self.strict else b >= self.level[tr]
        if self.finished is not None:
            ok &= ~self.finished[tr]
        return ok
