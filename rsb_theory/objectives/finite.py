"""The objectives on empirical laws over a common support: ``eq:ETC_alpha`` and ``eq:UCB_alpha2``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..distortions import Distortion
from .base import GUARD, Bonus, Objective, Suffix, suffix_min_max
from .validation import check_bonus, check_distortion, check_radius, concave_fields, frozen
from ..errors import ArgumentError

__all__ = ["FiniteETCObjective", "FiniteCEUCBObjective", "etc_objective_finite", "ce_ucb_objective_finite"]


def _finite_fields(d: Distortion, support, probs_hat) -> dict:
    from ..riskmetric import _as_probs, _as_support, _survival_after_atoms  # scipy: only when needed

    xs = _as_support(support)
    probs = _as_probs(probs_hat, xs.size, "probs_hat", min_ndim=2)
    if probs.ndim == 2:
        probs = probs[None]
    if probs.ndim != 3 or probs.shape[1] < 2:
        raise ArgumentError("probs_hat", f"expected shape (B, K, {xs.size}) with K >= 2, got {probs.shape}")
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(probs, k, 0.0, axis=-1)
    surv = _survival_after_atoms(probs0)  # (B, K, J): P(X > x_j) on the step [x_j, x_{j+1})
    widths = np.diff(xs0)
    means = probs @ xs
    left = xs0[1:] <= 0.0
    frozen(surv, widths, means, left)
    h1 = float(d.numeric(np.array([1.0]))[0])
    return {"phat": means, "surv": surv, "widths": widths, "left": left, "h1": h1}


@dataclass(frozen=True, eq=False, kw_only=True)
class FiniteETCObjective(Objective):
    """``eq:ETC_alpha`` on empirical laws over a common support: V(a) = U_h(sum_i a_i F_i).

    By the step identity of :mod:`rsb_theory.riskmetric` (0 inserted as a
    massless atom): V(a) = sum_j w_j (h(S_j(a)) - [x_{j+1} <= 0] h(1)) with
    S_j(a) = sum_i a_i S_ij affine in a, hence concave in a for concave h.
    Accumulator (sum a, S(a) of shape (..., J)).

    Attributes
    ----------
    surv : numpy.ndarray, shape (B, K, J)
        Survival probabilities S_ij = P_i(X > x_j) on the steps [x_j, x_{j+1}).
    widths : numpy.ndarray, shape (J,)
        Step widths w_j.
    left : numpy.ndarray, shape (J,), bool
        Steps left of 0.
    h1 : float
        h(1).
    """

    kind: ClassVar[str] = "etc_finite"
    finite: ClassVar[bool] = True

    surv: np.ndarray = field(repr=False)
    widths: np.ndarray = field(repr=False)
    left: np.ndarray = field(repr=False)
    h1: float = 0.0

    @classmethod
    def build(cls, d: Distortion, support, probs_hat) -> "FiniteETCObjective":
        """Validate and build.

        Parameters
        ----------
        d : Distortion
        support : array_like, shape (m,)
            Common sorted support of the arms.
        probs_hat : array_like, shape (B, K, m) (or (K, m))
            Estimated laws, rows summing to 1.
        """
        d = check_distortion(d)
        return cls(d=d, **_finite_fields(d, support, probs_hat), **concave_fields(d))

    @property
    def guard_scale(self) -> float:
        return max(1.0, float(np.abs(self.widths).sum()))

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(tuple(shape) + (self.widths.size,))

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a[..., None] * self.surv[rows, i]

    def _steps_value(self, per_step: np.ndarray) -> np.ndarray:
        """sum_j w_j (per_step_j - [x_{j+1} <= 0] h(1)) over the steps of non-zero width.

        Summed left to right (``np.add.accumulate`` is sequential), so the result is bit for bit
        that of the plain loop ``val = val + w_j (...)`` over the steps: per-step values are finite,
        and a step of zero width adds an exact zero.  Vectorised because an empirical law of
        continuous arms has one step per distinct sample (tens of thousands for RS-ETC-M's commit).
        """
        keep = self.widths != 0.0
        if not np.any(keep):
            return np.zeros(per_step.shape[:-1])
        w = self.widths[keep]
        shift = np.where(self.left[keep], self.h1, 0.0)
        terms = w * (per_step[..., keep] - shift)
        return np.add.accumulate(terms, axis=-1)[..., -1] + 0.0

    def value(self, acc, rows):
        return self._steps_value(self.h(np.clip(acc[1], 0.0, 1.0)))

    def suffix(self) -> Suffix:
        pmin, pmax = suffix_min_max(self.surv, self.surv)
        return Suffix(pmin, pmax, np.zeros(self.phat.shape))

    def bound(self, suf, acc, i_next, rows):
        """Each step: max of h over the reachable survival probabilities."""
        R = np.maximum(1.0 - acc[0], 0.0)
        hm = self.hmax_on(acc[1] + R[..., None] * suf.pmin[rows, i_next], acc[1] + R[..., None] * suf.pmax[rows, i_next])
        b = self._steps_value(hm)
        return b + GUARD * np.abs(b)


@dataclass(frozen=True, eq=False, kw_only=True)
class FiniteCEUCBObjective(Bonus, FiniteETCObjective):
    """``eq:UCB_alpha2`` on empirical laws: U_h(sum_i a_i F_i) + L sum_i (a_i radius_i)^q.

    Accumulator (sum a, S(a), sum (a_i r_i)^q).
    """

    kind: ClassVar[str] = "ce_finite"

    radius: np.ndarray = field(repr=False)
    q: float = 1.0
    L: float = 0.0

    @classmethod
    def build(cls, d: Distortion, support, probs_hat, radius, q: float, L: float) -> "FiniteCEUCBObjective":
        """Validate and build (``support``, ``probs_hat`` as in :meth:`FiniteETCObjective.build`;
        ``radius``, ``q``, ``L`` as in :meth:`CEUCBObjective.build`)."""
        d = check_distortion(d)
        f = _finite_fields(d, support, probs_hat)
        radius = check_radius(radius, f["phat"].shape, finite=True)
        q, L = check_bonus(q, L)
        return cls(d=d, radius=radius, q=q, L=L, **f, **concave_fields(d))

    def zero(self, shape) -> tuple:
        return super().zero(shape) + (np.zeros(shape),)

    def push(self, acc, i, a, rows):
        return super().push(acc[:2], i, a, rows) + (acc[2] + self.term(a, self.radius[rows, i]),)

    def value(self, acc, rows):
        return super().value(acc, rows) + self.L * acc[2]

    def suffix(self) -> Suffix:
        pmin, pmax = suffix_min_max(self.surv, self.surv)
        return Suffix(pmin, pmax, self.bonus_suffix())

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        return super().bound(suf, acc, i_next, rows) + self.bonus_bound(suf, acc[2], R, i_next, rows)


def etc_objective_finite(d: Distortion, support, probs_hat) -> FiniteETCObjective:
    """``eq:ETC_alpha`` on empirical laws over a common support (:meth:`FiniteETCObjective.build`)."""
    return FiniteETCObjective.build(d, support, probs_hat)


def ce_ucb_objective_finite(d: Distortion, support, probs_hat, radius, q: float, L: float) -> FiniteCEUCBObjective:
    """``eq:UCB_alpha2`` on empirical laws over a common support (:meth:`FiniteCEUCBObjective.build`)."""
    return FiniteCEUCBObjective.build(d, support, probs_hat, radius, q, L)
