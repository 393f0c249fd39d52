"""The base class of the objectives, the constants of their bounds and the exploration bonus."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..distortions import Distortion
from ..grids import Grid
from ..errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    from .lagrangian import LagrangianBound

__all__ = ["MARGIN", "GUARD", "guard", "Suffix", "Objective", "Bonus", "unit", "suffix_min_max"]

#: Widening of every interval of means in the bounds (absolute, on [0, 1]).
MARGIN = 1e-13

#: Guard on bound comparisons, relative to max(1, |objective|): a prefix (or a point outside a
#: candidate set) is discarded only when its bound + guard is below the threshold.
GUARD = 1e-12


def guard(level: np.ndarray) -> np.ndarray:
    """:data:`GUARD` * max(1, |level|): the rounding allowance of a bound at ``level``."""
    return GUARD * np.maximum(1.0, np.abs(level))


@dataclass(frozen=True)
class Suffix:
    """Per-trial statistics of the arms i..K-1 (0-based) for the relaxation of a prefix.

    ``pmin``/``pmax``: smallest lower and largest upper statistic of the rest
    (means, interval ends, or per-step survival probabilities), shape (B, K)
    or (B, K, J); ``bmax``: the largest bonus of the rest per unit mass^q (CE-UCB).
    """

    pmin: np.ndarray
    pmax: np.ndarray
    bmax: np.ndarray


@dataclass(frozen=True, eq=False, kw_only=True)
class Objective:
    """An objective of the grid searches for B trials and K arms (see the module docstring).

    Attributes
    ----------
    d : Distortion
    phat : numpy.ndarray, shape (B, K)
        Estimated means (finite-support arms: the means of the empirical laws).
    xs_lo, xs_hi : float
        The maximisers of h on [0, 1] (an interval for a flat top); nan for a
        non-concave h.
    h_max : float
        h(xs_lo) as computed (nan for a non-concave h).
    concave : bool
        h is concave: the branch and bound applies.
    """

    #: Name of the objective (for messages and counters).
    kind: ClassVar[str] = ""
    #: Arms with a finite support of more than two points (``surv`` and ``widths`` exist).
    finite: ClassVar[bool] = False
    #: The value is h at a point of an interval of linear means (ETC, RS-UCB): the branch
    #: and bound locates line maxima in closed form (:meth:`mean_families`).
    mean_lines: ClassVar[bool] = False
    #: The Lagrangian bound (:class:`LagrangianBound`) applies.
    lagrangian: ClassVar[bool] = False
    #: Work of one leaf line, in children-equivalents (slices of the branch and bound).
    line_cost: ClassVar[int] = 8

    d: Distortion
    phat: np.ndarray = field(repr=False)
    xs_lo: float = math.nan
    xs_hi: float = math.nan
    h_max: float = math.nan
    concave: bool = False

    @property
    def B(self) -> int:
        return int(self.phat.shape[0])

    @property
    def K(self) -> int:
        return int(self.phat.shape[1])

    @property
    def h(self):
        return self.d.numeric

    @property
    def certificate(self) -> float:
        """No grid value exceeds this (ETC, RS-UCB: the computed max of h; else inf)."""
        return math.inf

    @property
    def guard_scale(self) -> float:
        """Factor on :func:`guard` (rounding of a sum over the steps of a support grows with its length)."""
        return 1.0

    # -- evaluation -----------------------------------------------------------

    def zero(self, shape) -> tuple:
        """An empty accumulator: (sum of weights, the statistics' sums...)."""
        raise NotImplementedError

    def push(self, acc: tuple, i: int, a: np.ndarray, rows: np.ndarray) -> tuple:
        """Add arm ``i`` (0-based) with weight ``a`` (broadcast with ``rows``, the trials)."""
        raise NotImplementedError

    def value(self, acc: tuple, rows: np.ndarray) -> np.ndarray:
        """The objective of a complete accumulator (every arm pushed)."""
        raise NotImplementedError

    def close(self, acc: tuple, rows: np.ndarray) -> np.ndarray:
        """Push the last arm with the deficit 1 - sum a_i (clamped at 0) and evaluate."""
        # 1 - sum a_i can round to -2e-16 on an exact grid
        return self.value(self.push(acc, self.K - 1, np.maximum(1.0 - acc[0], 0.0), rows), rows)

    def values_at(self, grid: Grid, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The objective at integer grid coordinates ``counts`` (..., K-1) for the trials ``rows`` (...)."""
        acc = self.zero(counts.shape[:-1])
        for i in range(self.K - 1):
            acc = self.push(acc, i, grid.weights(counts[..., i]), rows)
        return self.close(acc, rows)

    def at_points(self, P: np.ndarray) -> np.ndarray:
        """The objective at explicit mixtures ``P``: shape (n, K) shared by every trial, or (B, n, K).

        Returns
        -------
        numpy.ndarray, shape (B, n)

        Raises
        ------
        ValueError
            Naming ``P``: not numbers, a shape other than (n, K) or (B, n, K) for this objective's K
            and B, an entry not finite or negative, a row not summing to 1 (within 1e-9): a point
            outside the simplex has no value of ``eq:V``.
        """
        try:
            P = np.asarray(P, dtype=float)
        except (TypeError, ValueError):
            raise ArgumentError("P", f"expected an array of mixtures, got {type(P).__name__}") from None
        if P.ndim not in (2, 3) or P.shape[-1] != self.K or (P.ndim == 3 and P.shape[0] != self.B):
            want = f"(n, {self.K}) or ({self.B}, n, {self.K})"
            raise ArgumentError("P", f"expected shape {want} (K = {self.K} arms), got {P.shape}")
        if not np.all(np.isfinite(P)) or np.any(P < 0) or np.any(np.abs(P.sum(axis=-1) - 1.0) > 1e-9):
            raise ArgumentError("P", "every point must be a mixture of the simplex (finite, non-negative "
                             "weights summing to 1)")
        rows = np.arange(self.B)[:, None]
        n = P.shape[-2]
        col = (lambda k: P[None, :, k]) if P.ndim == 2 else (lambda k: P[:, :, k])
        acc = self.zero((self.B, n))
        for k in range(self.K):
            acc = self.push(acc, k, col(k), rows)
        return self.value(acc, rows)

    # -- bounds ------------------------------------------------------------------

    def suffix(self) -> Suffix:
        """Suffix statistics of the arms (:class:`Suffix`)."""
        raise NotImplementedError

    def hmax_on(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """max of h over [lo, hi] widened by :data:`MARGIN` (concave h: clip a maximiser into it)."""
        lo = np.clip(lo - MARGIN, 0.0, 1.0)
        hi = np.clip(hi + MARGIN, 0.0, 1.0)
        return self.h(np.minimum(np.maximum(self.xs_lo, lo), hi))

    def bound(self, suf: Suffix, acc: tuple, i_next: int, rows: np.ndarray) -> np.ndarray:
        """Upper bound of the objective over every completion of a prefix (concave h).

        The prefix has pushed arms 0..i_next-1; the remaining mass R = 1 - sum a_i
        is spread arbitrarily over the arms i_next..K-1 (continuous relaxation).
        """
        raise NotImplementedError

    def mean_families(self, acc: tuple) -> list[tuple[np.ndarray, np.ndarray]]:
        """(accumulated sum, per-arm statistic (B, K)) of each linear mean h is maximised over
        (``mean_lines`` objectives: the lower end first, the upper end last)."""
        raise NotImplementedError

    def lagrangian_bound(self, y0: np.ndarray) -> "LagrangianBound":
        """The Lagrangian bound tight near the means ``y0`` (B,) (``lagrangian`` objectives)."""
        raise NotImplementedError


def unit(x: np.ndarray) -> np.ndarray:
    """x clipped to [0, 1] in place: ``x`` is a sum an accumulator has just made (never shared), and the
    objective is evaluated on large arrays, where a copy costs as much as a cheap h."""
    return np.clip(x, 0.0, 1.0, out=x)


def suffix_min_max(lo_src: np.ndarray, hi_src: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pmin = np.minimum.accumulate(lo_src[:, ::-1], axis=1)[:, ::-1]
    pmax = np.maximum.accumulate(hi_src[:, ::-1], axis=1)[:, ::-1]
    return pmin, pmax


class Bonus:
    """The exploration bonus L sum_i (a_i r_i)^q of ``eq:UCB_alpha2`` (mixed into the CE-UCB classes)."""

    radius: np.ndarray
    q: float
    L: float

    def term(self, a: np.ndarray, r: np.ndarray) -> np.ndarray:
        """(a r)^q, computed as a r when q = 1."""
        return a * r if self.q == 1.0 else np.power(a * r, self.q)

    def bonus_suffix(self) -> np.ndarray:
        """max over mixtures of mass 1 of the arms i..K-1 of sum (a_j r_j)^q: max r (q = 1),
        else (sum r^{q/(1-q)})^{1-q} (Hölder)."""
        r = self.radius
        if self.q == 1.0:
            return np.maximum.accumulate(r[:, ::-1], axis=1)[:, ::-1]
        s = self.q / (1.0 - self.q)
        with np.errstate(over="ignore"):
            tot = np.cumsum(np.power(r[:, ::-1], s), axis=1)[:, ::-1]
            return np.power(tot, 1.0 - self.q)

    def bonus_bound(self, suf: Suffix, sb: np.ndarray, R: np.ndarray, i_next: int, rows: np.ndarray) -> np.ndarray:
        """Largest bonus reachable from a prefix with bonus sum ``sb`` and remaining mass ``R``."""
        Rq = R if self.q == 1.0 else np.power(R, self.q)
        return self.L * (sb + Rq * suf.bmax[rows, i_next]) * (1.0 + GUARD)
