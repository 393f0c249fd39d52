"""The two discrete simplices of the algorithms.

* ``"etc"`` — ``eq:etc_discrete_set``: points eps*n with n in N_0^K and
  sum = 1 (RS-ETC-M).
* ``"ucb"`` — the mid-point grid of section ``RS_UCB_M``: points
  eps*(n + 1/2) with sum = 1 (RS-UCB-M, CE-UCB-M).

When the coordinates cannot sum to one exactly (1/eps not an integer for
``etc``; 1/eps - K/2 not an integer for ``ucb``) the paper's footnote to
``eq:etc_discrete_set`` applies: the first K-1 coordinates are on the grid and
the last coordinate takes up the deficit, ``a_K = 1 - sum_{i<K} a_i``, which is
then at least 0 (``etc``) or eps/2 (``ucb``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from .errors import ArgumentError

GRID_KINDS = ("etc", "ucb")


@dataclass(frozen=True)
class Grid:
    """A discrete simplex Delta^{K-1}_eps.

    Attributes
    ----------
    K : int
        Number of arms (>= 2).
    eps : float
        Discretisation level, 0 < eps <= 1.
    kind : {"etc", "ucb"}
    """

    K: int
    eps: float
    kind: str

    def __post_init__(self) -> None:
        if not isinstance(self.K, (int, np.integer)) or self.K < 2:
            raise ArgumentError("K", f"need an integer K >= 2, got {self.K!r}")
        if not (isinstance(self.eps, (int, float)) and math.isfinite(self.eps) and 0 < self.eps <= 1):
            raise ArgumentError("eps", f"need 0 < eps <= 1, got {self.eps!r}")
        if self.kind not in GRID_KINDS:
            raise ArgumentError("grid", f"unknown grid {self.kind!r}; known: {', '.join(GRID_KINDS)}")
        if self.kind == "ucb" and self.budget < 0:
            raise ArgumentError("eps", f"eps = {self.eps} is too coarse for a mid-point grid with K = {self.K}")

    @property
    def offset(self) -> float:
        """0 for ``etc``, 1/2 for ``ucb``: coordinates are eps*(n + offset)."""
        return 0.0 if self.kind == "etc" else 0.5

    @property
    def budget(self) -> int:
        """m = max total of the integer coordinates n_1 + ... + n_K."""
        total = 1.0 / self.eps - self.K * self.offset
        return int(math.floor(total + 1e-9))

    @property
    def exact(self) -> bool:
        """True when eps*(sum n + K*offset) = 1 has integer solutions (no footnote deficit)."""
        total = 1.0 / self.eps - self.K * self.offset
        return abs(total - round(total)) < 1e-9

    @property
    def size(self) -> int:
        """Number of grid points: C(m + K - 1, K - 1) (exact) or C(m + K - 1, K - 1) with slack.

        With the footnote rule, points are determined by (n_1, ..., n_{K-1}) with
        sum <= m, which is C(m + K - 1, K - 1) points in both cases.
        """
        return math.comb(self.budget + self.K - 1, self.K - 1)

    def weights(self, n) -> np.ndarray:
        """The coordinates eps*(n + offset) of integer counts ``n`` (any shape), as floats."""
        return self.eps * (np.asarray(n, dtype=float) + self.offset)

    def counts(self) -> np.ndarray:
        """All integer vectors (n_1, ..., n_{K-1}) with sum <= m, in lexicographic order.

        Returns
        -------
        numpy.ndarray of shape (size, K-1), dtype int64.
        """
        m, k = self.budget, self.K - 1
        rows = [np.zeros((1, 0), dtype=np.int64)]
        for _ in range(k):
            new = []
            for prefix in rows:
                used = prefix.sum(axis=1) if prefix.shape[1] else np.zeros(prefix.shape[0], dtype=np.int64)
                for base, u in zip(prefix, used):
                    vals = np.arange(m - u + 1, dtype=np.int64)
                    new.append(np.column_stack([np.repeat(base[None, :], vals.size, axis=0), vals]))
            rows = new
        return np.concatenate(rows, axis=0)

    def points(self) -> np.ndarray:
        """The mixture vectors a, shape (size, K); the last coordinate takes the deficit."""
        n = self.counts().astype(float)
        head = self.eps * (n + self.offset)
        last = 1.0 - head.sum(axis=1, keepdims=True)
        return np.concatenate([head, last], axis=1)
