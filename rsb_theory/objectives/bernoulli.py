"""The objectives for Bernoulli arms: ``eq:ETC_alpha``, ``eq:UCB_alpha`` (concave h) and ``eq:UCB_alpha2``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..distortions import Distortion
from .base import Bonus, Objective, Suffix, suffix_min_max, unit
from .validation import check_bonus, check_distortion, check_phat, check_radius, concave_fields, frozen, trusted
from ..errors import ArgumentError

__all__ = ["ETCObjective", "RSUCBObjective", "CEUCBObjective", "etc_objective", "rs_ucb_objective",
           "ce_ucb_objective"]


@dataclass(frozen=True, eq=False, kw_only=True)
class ETCObjective(Objective):
    """``eq:ETC_alpha`` for Bernoulli arms: V(a) = h(<a, phat>).  Accumulator (sum a, <a, phat>)."""

    kind: ClassVar[str] = "etc"
    mean_lines: ClassVar[bool] = True
    line_cost: ClassVar[int] = 2

    @classmethod
    def build(cls, d: Distortion, phat) -> "ETCObjective":
        """Validate and build.

        Parameters
        ----------
        d : Distortion
        phat : array_like, shape (B, K) (or (K,) for one trial)
            Estimated means in [0, 1].
        """
        d = check_distortion(d)
        return cls(d=d, phat=check_phat(phat), **concave_fields(d))

    @property
    def certificate(self) -> float:
        return self.h_max

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(shape)

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a * self.phat[rows, i]

    def value(self, acc, rows):
        return self.h(unit(acc[1]))

    def suffix(self) -> Suffix:
        pmin, pmax = suffix_min_max(self.phat, self.phat)
        return Suffix(pmin, pmax, np.zeros(self.phat.shape))

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        return self.hmax_on(acc[1] + R * suf.pmin[rows, i_next], acc[1] + R * suf.pmax[rows, i_next])

    def mean_families(self, acc):
        return [(acc[1], self.phat)]


@dataclass(frozen=True, eq=False, kw_only=True)
class RSUCBObjective(Objective):
    """``eq:UCB_alpha`` over the W1 balls of ``eq:UCB_confidence_sets``, Bernoulli arms, concave h.

    g(a) = max_{x in [<a, lo>, <a, hi>]} h(x) = h(clip(x*, <a, lo>, <a, hi>)) with
    lo = clip(phat - radius, 0, 1), hi = clip(phat + radius, 0, 1) and x* a
    maximiser of h.  Accumulator (sum a, <a, lo>, <a, hi>).
    """

    kind: ClassVar[str] = "rs_ucb"
    mean_lines: ClassVar[bool] = True
    line_cost: ClassVar[int] = 2

    lo: np.ndarray = field(repr=False)
    hi: np.ndarray = field(repr=False)
    radius: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, d: Distortion, phat, radius, validate: bool = True) -> "RSUCBObjective":
        """Validate and build.

        Parameters
        ----------
        d : Distortion
            Concave distortion (ValueError naming ``d`` otherwise: the reduction is Jensen's inequality).
        phat : array_like, shape (B, K)
        radius : float or array_like broadcastable to (B, K)
            Radii >= 0; ``inf`` allowed (the interval is then [0, 1]).
        validate : bool
            Check ``phat`` and ``radius`` (default).  The simulator passes False
            for arrays it built itself (shape (B, K), values in range), saving
            the checks at every step; the result is the same for valid input.
        """
        d = check_distortion(d)
        if not d.shape.is_concave:
            raise ArgumentError(
                "d", f"the RS-UCB reduction needs a concave h (Jensen); {d.describe()} is "
                f"{d.shape.curvature} ({d.shape.curvature_witness})"
            )
        if validate:
            phat = check_phat(phat)
            radius = check_radius(radius, phat.shape, finite=False)
        else:
            phat, radius = trusted(phat), trusted(radius)
        with np.errstate(invalid="ignore"):
            lo = np.clip(phat - radius, 0.0, 1.0)
            hi = np.clip(phat + radius, 0.0, 1.0)
        frozen(lo, hi)
        return cls(d=d, phat=phat, lo=lo, hi=hi, radius=radius, **concave_fields(d))

    @property
    def certificate(self) -> float:
        return self.h_max

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a * self.lo[rows, i], acc[2] + a * self.hi[rows, i]

    def value(self, acc, rows):
        return self.h(np.minimum(np.maximum(self.xs_lo, acc[1]), acc[2]))

    def suffix(self) -> Suffix:
        pmin, pmax = suffix_min_max(self.lo, self.hi)
        return Suffix(pmin, pmax, np.zeros(self.phat.shape))

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        return self.hmax_on(acc[1] + R * suf.pmin[rows, i_next], acc[2] + R * suf.pmax[rows, i_next])

    def mean_families(self, acc):
        return [(acc[1], self.lo), (acc[2], self.hi)]


@dataclass(frozen=True, eq=False, kw_only=True)
class CEUCBObjective(Bonus, Objective):
    """``eq:UCB_alpha2`` for Bernoulli arms: h(<a, phat>) + L sum_i (a_i radius_i)^q.

    Accumulator (sum a, <a, phat>, sum (a_i r_i)^q).
    """

    kind: ClassVar[str] = "ce_ucb"
    lagrangian: ClassVar[bool] = True

    radius: np.ndarray = field(repr=False)
    q: float = 1.0
    L: float = 0.0

    @classmethod
    def build(cls, d: Distortion, phat, radius, q: float, L: float, validate: bool = True) -> "CEUCBObjective":
        """Validate and build.

        Parameters
        ----------
        d : Distortion
        phat : array_like, shape (B, K)
        radius : float or array_like broadcastable to (B, K)
            Finite radii >= 0.
        q : float
            Hölder exponent, 0 < q <= 1.
        L : float
            Hölder constant, L >= 0 (finite).
        validate : bool
            As in :meth:`RSUCBObjective.build` (q and L are checked either way).
        """
        d = check_distortion(d)
        if validate:
            phat = check_phat(phat)
            radius = check_radius(radius, phat.shape, finite=True)
        else:
            phat, radius = trusted(phat), trusted(radius)
        q, L = check_bonus(q, L)
        return cls(d=d, phat=phat, radius=radius, q=q, L=L, **concave_fields(d))

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a * self.phat[rows, i], acc[2] + self.term(a, self.radius[rows, i])

    def value(self, acc, rows):
        return self.h(unit(acc[1])) + self.L * acc[2]

    def suffix(self) -> Suffix:
        pmin, pmax = suffix_min_max(self.phat, self.phat)
        return Suffix(pmin, pmax, self.bonus_suffix())

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        b = self.hmax_on(acc[1] + R * suf.pmin[rows, i_next], acc[1] + R * suf.pmax[rows, i_next])
        return b + self.bonus_bound(suf, acc[2], R, i_next, rows)

    def lagrangian_bound(self, y0):
        from .lagrangian import LagrangianBound  # noqa: PLC0415 - the bound needs the class it bounds

        return LagrangianBound(self, y0)


def etc_objective(d: Distortion, phat) -> ETCObjective:
    """``eq:ETC_alpha`` for Bernoulli arms, V(a) = h(<a, phat>) (:meth:`ETCObjective.build`)."""
    return ETCObjective.build(d, phat)


def rs_ucb_objective(d: Distortion, phat, radius, validate: bool = True) -> RSUCBObjective:
    """``eq:UCB_alpha`` with the W1 balls of ``eq:UCB_confidence_sets`` (:meth:`RSUCBObjective.build`)."""
    return RSUCBObjective.build(d, phat, radius, validate)


def ce_ucb_objective(d: Distortion, phat, radius, q: float, L: float, validate: bool = True) -> CEUCBObjective:
    """``eq:UCB_alpha2``, h(<a, phat>) + L sum_i (a_i radius_i)^q (:meth:`CEUCBObjective.build`)."""
    return CEUCBObjective.build(d, phat, radius, q, L, validate)
