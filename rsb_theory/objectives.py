"""The objectives of the algorithms' grid searches: one small class per objective.

Every class holds the estimates of a batch of B trials and K arms and owns

* its **validation** (a ``build`` class method; messages name the argument);
* its **evaluation** -- the one NumPy evaluation of the objective.  Values are
  computed by *accumulators*: the linear statistics of the objective are summed
  over the arms in the order 1, 2, ..., K (``push``), then the objective is
  closed over the sums (``value``).  :meth:`Objective.values_at` takes grid
  coordinates (the last arm takes the deficit 1 - sum of the others, clamped
  at 0: the footnote to ``eq:etc_discrete_set``), :meth:`Objective.at_points`
  explicit mixtures; both add the arms in the same order, so two routes that
  see the same weights see bit-identical values;
* the **bound pieces** the branch and bound of :mod:`rsb_theory.argmax` needs:
  suffix statistics of the arms, the continuous relaxation of a prefix
  (:meth:`Objective.bound`), the certificate that no grid value can exceed
  (max h for ETC and RS-UCB), and for CE-UCB the Lagrangian bound
  (:class:`LagrangianBound`).

The objectives (``phat`` the estimated means, shape (B, K)):

* :class:`ETCObjective` -- ``eq:ETC_alpha`` for Bernoulli arms:
  V(a) = U_h(sum_i a_i Bern(phat_i)) = h(<a, phat>) (``eq:h_1_p``);
* :class:`RSUCBObjective` -- ``eq:UCB_alpha`` over the balls of
  ``eq:UCB_confidence_sets``, concave h: g(a) = max of h over
  [<a, lo>, <a, hi>], lo/hi = clip(phat -/+ radius, 0, 1) (the proof is in
  the docstring of :mod:`rsb_theory.argmax`);
* :class:`CEUCBObjective` -- ``eq:UCB_alpha2``: h(<a, phat>) + L sum_i (a_i r_i)^q;
* :class:`FiniteETCObjective`, :class:`FiniteCEUCBObjective` -- the same two on
  empirical laws over a common support, by the step identity of
  :mod:`rsb_theory.riskmetric`: U_h(sum_i a_i F_i) = sum_j w_j (h(S_j(a)) -
  [x_{j+1} <= 0] h(1)), S_j(a) = sum_i a_i S_ij affine in a.

The mean <a, phat> is clipped to [0, 1] before h is applied (a sum of weights
that rounds above 1 would otherwise evaluate h at 1 + 1 ulp), as the compiled
copy in :mod:`rsb_theory.edge_lines` does.

Floating point.  The bounds widen every interval of means by :data:`MARGIN`
and the branch and bound compares them with a guard :data:`GUARD` relative to
the size of the objective (:func:`guard`), so pruning never removes a point an
enumeration could select.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

import numpy as np

from .distortions import Distortion, numeric_derivative
from .grids import Grid
from .holder import optimal_means

__all__ = [
    "MARGIN",
    "GUARD",
    "guard",
    "Objective",
    "ETCObjective",
    "RSUCBObjective",
    "CEUCBObjective",
    "FiniteETCObjective",
    "FiniteCEUCBObjective",
    "LagrangianBound",
    "Suffix",
    "etc_objective",
    "rs_ucb_objective",
    "ce_ucb_objective",
    "etc_objective_finite",
    "ce_ucb_objective_finite",
]

#: Widening of every interval of means in the bounds (absolute, on [0, 1]).
MARGIN = 1e-13

#: Guard on bound comparisons, relative to max(1, |objective|): a prefix (or a point outside a
#: candidate set) is discarded only when its bound + guard is below the threshold.
GUARD = 1e-12


def guard(level: np.ndarray) -> np.ndarray:
    """:data:`GUARD` * max(1, |level|): the rounding allowance of a bound at ``level``."""
    return GUARD * np.maximum(1.0, np.abs(level))


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def check_distortion(d) -> Distortion:
    if not isinstance(d, Distortion):
        raise ValueError(f"argument 'd': expected a Distortion (rsb_theory.distortions.get/resolve), got {d!r}")
    return d


def check_phat(phat) -> np.ndarray:
    """Bernoulli means as a read-only (B, K) array (a (K,) vector is one trial); errors name ``phat``."""
    try:
        arr = np.array(phat, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("argument 'phat': expected an array of numbers") from None
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ValueError(f"argument 'phat': expected shape (B, K) with B >= 1 and K >= 2, got {np.shape(phat)}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError("argument 'phat': Bernoulli means must be finite and lie in [0, 1]")
    arr.setflags(write=False)
    return arr


def check_radius(radius, shape: tuple[int, int], finite: bool) -> np.ndarray:
    """Radii >= 0 broadcast to ``shape``; ``finite`` refuses inf (a CE-UCB bonus)."""
    try:
        arr = np.array(radius, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("argument 'radius': expected a number or an array of numbers") from None
    try:
        arr = np.array(np.broadcast_to(arr, shape), dtype=float)
    except ValueError:
        raise ValueError(f"argument 'radius': shape {arr.shape} does not broadcast to {shape}") from None
    if np.any(np.isnan(arr)) or np.any(arr < 0):
        raise ValueError("argument 'radius': radii must be >= 0 (not nan)")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError("argument 'radius': CE-UCB needs finite radii (the bonus would be infinite)")
    arr.setflags(write=False)
    return arr


def check_bonus(q, L) -> tuple[float, float]:
    """Hölder exponent 0 < q <= 1 and constant L >= 0 of the bonus of ``eq:UCB_alpha2``."""
    try:
        q, L = float(q), float(L)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'q': q and L must be numbers, got q={q!r}, L={L!r}") from None
    if not (0 < q <= 1):
        raise ValueError(f"argument 'q': need 0 < q <= 1, got {q!r}")
    if not (math.isfinite(L) and L >= 0):
        raise ValueError(f"argument 'L': need a finite L >= 0, got {L!r}")
    return q, L


def _trusted(arr) -> np.ndarray:
    """A float array taken as valid (``validate=False``): read-only, no checks."""
    arr = np.asarray(arr, dtype=float)
    arr.setflags(write=False)
    return arr


def _frozen(*arrays: np.ndarray) -> None:
    for arr in arrays:
        arr.setflags(write=False)


@lru_cache(maxsize=256)
def _maximisers_cached(d: Distortion) -> tuple[float, float, float]:
    tops = [float(t) for t in optimal_means(d, 0, 1)]
    lo, hi = min(tops), max(tops)
    return lo, hi, float(d.numeric(np.array([lo]))[0])


def _concave_fields(d: Distortion) -> dict:
    """xs_lo, xs_hi (the maximisers of h on [0, 1]) and h_max = h(xs_lo) for a concave h."""
    if not d.shape.is_concave:
        return {"concave": False}
    try:
        lo, hi, hmax = _maximisers_cached(d)
    except TypeError:  # pragma: no cover - unhashable distortion
        lo, hi, hmax = _maximisers_cached.__wrapped__(d)
    return {"concave": True, "xs_lo": lo, "xs_hi": hi, "h_max": hmax}


# ---------------------------------------------------------------------------
# The base class
# ---------------------------------------------------------------------------


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
        """
        P = np.asarray(P, dtype=float)
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


def _unit(x: np.ndarray) -> np.ndarray:
    """x clipped to [0, 1] in place: ``x`` is a sum an accumulator has just made (never shared), and the
    objective is evaluated on large arrays, where a copy costs as much as a cheap h."""
    return np.clip(x, 0.0, 1.0, out=x)


def _suffix_min_max(lo_src: np.ndarray, hi_src: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pmin = np.minimum.accumulate(lo_src[:, ::-1], axis=1)[:, ::-1]
    pmax = np.maximum.accumulate(hi_src[:, ::-1], axis=1)[:, ::-1]
    return pmin, pmax


# ---------------------------------------------------------------------------
# Bernoulli arms
# ---------------------------------------------------------------------------


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
        return cls(d=d, phat=check_phat(phat), **_concave_fields(d))

    @property
    def certificate(self) -> float:
        return self.h_max

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(shape)

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a * self.phat[rows, i]

    def value(self, acc, rows):
        return self.h(_unit(acc[1]))

    def suffix(self) -> Suffix:
        pmin, pmax = _suffix_min_max(self.phat, self.phat)
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
            raise ValueError(
                f"argument 'd': the RS-UCB reduction needs a concave h (Jensen); {d.describe()} is "
                f"{d.shape.curvature} ({d.shape.curvature_witness})"
            )
        if validate:
            phat = check_phat(phat)
            radius = check_radius(radius, phat.shape, finite=False)
        else:
            phat, radius = _trusted(phat), _trusted(radius)
        with np.errstate(invalid="ignore"):
            lo = np.clip(phat - radius, 0.0, 1.0)
            hi = np.clip(phat + radius, 0.0, 1.0)
        _frozen(lo, hi)
        return cls(d=d, phat=phat, lo=lo, hi=hi, radius=radius, **_concave_fields(d))

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
        pmin, pmax = _suffix_min_max(self.lo, self.hi)
        return Suffix(pmin, pmax, np.zeros(self.phat.shape))

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        return self.hmax_on(acc[1] + R * suf.pmin[rows, i_next], acc[2] + R * suf.pmax[rows, i_next])

    def mean_families(self, acc):
        return [(acc[1], self.lo), (acc[2], self.hi)]


class _Bonus:
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
        return self.L * (sb + Rq * suf.bmax[rows, i_next]) * (1.0 + 1e-12)


@dataclass(frozen=True, eq=False, kw_only=True)
class CEUCBObjective(_Bonus, Objective):
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
            phat, radius = _trusted(phat), _trusted(radius)
        q, L = check_bonus(q, L)
        return cls(d=d, phat=phat, radius=radius, q=q, L=L, **_concave_fields(d))

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(shape), np.zeros(shape)

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a * self.phat[rows, i], acc[2] + self.term(a, self.radius[rows, i])

    def value(self, acc, rows):
        return self.h(_unit(acc[1])) + self.L * acc[2]

    def suffix(self) -> Suffix:
        pmin, pmax = _suffix_min_max(self.phat, self.phat)
        return Suffix(pmin, pmax, self.bonus_suffix())

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        b = self.hmax_on(acc[1] + R * suf.pmin[rows, i_next], acc[1] + R * suf.pmax[rows, i_next])
        return b + self.bonus_bound(suf, acc[2], R, i_next, rows)

    def lagrangian_bound(self, y0):
        return LagrangianBound(self, y0)


# ---------------------------------------------------------------------------
# Finite-support arms
# ---------------------------------------------------------------------------


def _finite_fields(d: Distortion, support, probs_hat) -> dict:
    from .riskmetric import _as_probs, _as_support, _survival_after_atoms

    xs = _as_support(support)
    probs = _as_probs(probs_hat, xs.size, "probs_hat", min_ndim=2)
    if probs.ndim == 2:
        probs = probs[None]
    if probs.ndim != 3 or probs.shape[1] < 2:
        raise ValueError(f"argument 'probs_hat': expected shape (B, K, {xs.size}) with K >= 2, got {probs.shape}")
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(probs, k, 0.0, axis=-1)
    surv = _survival_after_atoms(probs0)  # (B, K, J): P(X > x_j) on the step [x_j, x_{j+1})
    widths = np.diff(xs0)
    means = probs @ xs
    left = xs0[1:] <= 0.0
    _frozen(surv, widths, means, left)
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
        return cls(d=d, **_finite_fields(d, support, probs_hat), **_concave_fields(d))

    @property
    def guard_scale(self) -> float:
        return max(1.0, float(np.abs(self.widths).sum()))

    def zero(self, shape) -> tuple:
        return np.zeros(shape), np.zeros(tuple(shape) + (self.widths.size,))

    def push(self, acc, i, a, rows):
        return acc[0] + a, acc[1] + a[..., None] * self.surv[rows, i]

    def _steps_value(self, per_step: np.ndarray) -> np.ndarray:
        """sum_j w_j (per_step_j - [x_{j+1} <= 0] h(1)) over the steps of non-zero width."""
        val = np.zeros(per_step.shape[:-1])
        for j in range(per_step.shape[-1]):
            w = self.widths[j]
            if w != 0.0:
                val = val + w * (per_step[..., j] - (self.h1 if self.left[j] else 0.0))
        return val

    def value(self, acc, rows):
        return self._steps_value(self.h(np.clip(acc[1], 0.0, 1.0)))

    def suffix(self) -> Suffix:
        pmin, pmax = _suffix_min_max(self.surv, self.surv)
        return Suffix(pmin, pmax, np.zeros(self.phat.shape))

    def bound(self, suf, acc, i_next, rows):
        """Each step: max of h over the reachable survival probabilities."""
        R = np.maximum(1.0 - acc[0], 0.0)
        hm = self.hmax_on(acc[1] + R[..., None] * suf.pmin[rows, i_next], acc[1] + R[..., None] * suf.pmax[rows, i_next])
        b = self._steps_value(hm)
        return b + 1e-12 * np.abs(b)


@dataclass(frozen=True, eq=False, kw_only=True)
class FiniteCEUCBObjective(_Bonus, FiniteETCObjective):
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
        return cls(d=d, radius=radius, q=q, L=L, **f, **_concave_fields(d))

    def zero(self, shape) -> tuple:
        return super().zero(shape) + (np.zeros(shape),)

    def push(self, acc, i, a, rows):
        return super().push(acc[:2], i, a, rows) + (acc[2] + self.term(a, self.radius[rows, i]),)

    def value(self, acc, rows):
        return super().value(acc, rows) + self.L * acc[2]

    def suffix(self) -> Suffix:
        pmin, pmax = _suffix_min_max(self.surv, self.surv)
        return Suffix(pmin, pmax, self.bonus_suffix())

    def bound(self, suf, acc, i_next, rows):
        R = np.maximum(1.0 - acc[0], 0.0)
        return super().bound(suf, acc, i_next, rows) + self.bonus_bound(suf, acc[2], R, i_next, rows)


# ---------------------------------------------------------------------------
# The Lagrangian bound of CE-UCB (Bernoulli arms)
# ---------------------------------------------------------------------------


class LagrangianBound:
    """Lagrangian bound for CE-UCB prefixes (``eq:UCB_alpha2``), tight near a chosen mean y0.

    For concave h and a supergradient mu of h at y0, h(y) <= h(y0) + mu (y - y0), so
    on the prefix's completions (remaining mass R spread as w over the arms J)

        UCB(a) <= h(y0) + mu (S_x - y0) + L S_b + max_{w >= 0, sum w = R} sum_j phi_j(w_j),
        phi_j(w) = mu p_j w + L (w r_j)^q.

    The last term is a separable concave maximisation: for q = 1 it is
    R max_j (mu p_j + L r_j); for q < 1 weak duality gives, for every
    lambda > max_j mu p_j,

        <= lambda R + sum_j (1 - q) A_j (q A_j / (lambda - mu p_j))^{q/(1-q)},  A_j = L r_j^q,

    and lambda is chosen by a few safeguarded Newton steps on the stationarity
    condition sum_j w_j(lambda) = R (any lambda gives a valid bound).  The branch
    and bound uses the minimum of this and the interval bound.
    """

    #: Offsets of the tangent points around y0 (q = 1: the bound is the minimum over them).
    OFFSETS = (0.0, -0.002, 0.002, -0.006, 0.006, -0.015, 0.015, -0.04, 0.04, -0.1, 0.1)

    def __init__(self, obj: CEUCBObjective, y0: np.ndarray):
        self.obj = obj
        h = obj.h
        q, L = obj.q, obj.L
        self.linear = q == 1.0 or L == 0.0
        offs = np.array(self.OFFSETS if self.linear else self.OFFSETS[:1])
        y0 = np.clip(np.asarray(y0, dtype=float)[:, None] + offs[None, :], 1e-6, 1 - 1e-6)  # (B, T)
        mu = numeric_derivative(obj.d)(y0)
        h0 = h(y0)
        ys = np.linspace(0.0, 1.0, 129)
        with np.errstate(invalid="ignore"):
            tangent_ok = np.all(h(ys)[None, None, :] <= h0[..., None] + mu[..., None] * (ys - y0[..., None]) + 1e-12,
                                axis=2)
        self.valid = np.isfinite(mu) & np.isfinite(h0) & tangent_ok
        mu = np.where(self.valid, mu, 0.0)
        self.y0, self.mu, self.h0 = y0, mu, np.where(self.valid, h0, 0.0)
        self.c = mu[:, :, None] * obj.phat[:, None, :]  # (B, T, K)
        if self.linear:
            lin = self.c + (L * obj.radius[:, None, :] if q == 1.0 else 0.0)
            self.sufmax = np.maximum.accumulate(lin[:, :, ::-1], axis=2)[:, :, ::-1]
        else:
            self.A = L * np.power(obj.radius, q)

    def bound(self, acc: tuple, i_next: int, trial: np.ndarray) -> np.ndarray:
        obj = self.obj
        shape = np.broadcast(acc[0], trial).shape
        tr = np.broadcast_to(trial, shape).ravel()
        sa, sx, sb = (np.broadcast_to(a, shape).ravel() for a in acc)
        R = np.maximum(1.0 - sa, 0.0)
        base = self.h0[tr] + self.mu[tr] * (sx[:, None] - self.y0[tr]) + (obj.L * sb)[:, None]  # (n, T)
        if self.linear:
            val = base + R[:, None] * self.sufmax[tr, :, i_next]
        else:
            val = base + self._separable(R, tr, i_next)[:, None]
        val = np.where(self.valid[tr], val, np.inf).min(axis=1)
        return val.reshape(shape)

    def _separable(self, R: np.ndarray, tr: np.ndarray, i_next: int) -> np.ndarray:
        q = self.obj.q
        e, s = 1.0 / (1.0 - q), q / (1.0 - q)
        c = self.c[tr, 0, i_next:]
        A = self.A[tr, i_next:]
        qA = q * A
        cmax = c.max(axis=1)
        pos = R > 0
        Rs = np.where(pos, R, 1.0)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            lam = cmax + np.power(np.power(qA, e).sum(axis=1) / Rs, 1.0 / e)
            best = np.full(R.shape, np.inf)
            for _ in range(6):
                gap = np.maximum(lam[:, None] - c, 1e-300)
                w = np.power(qA / gap, e)
                D = lam * Rs + ((1.0 - q) * A * np.power(qA / gap, s)).sum(axis=1)
                best = np.minimum(best, np.where(np.isfinite(D), D, np.inf))
                F = w.sum(axis=1) - Rs
                dF = -(e * w / gap).sum(axis=1)
                step = np.where(dF < 0, F / dF, 0.0)
                new = lam - step
                lam = np.where(np.isfinite(new), np.maximum(new, 0.5 * (lam + cmax)), lam)
        return np.where(pos, best, 0.0)


# ---------------------------------------------------------------------------
# Constructors (the public names of rsb_theory.argmax)
# ---------------------------------------------------------------------------


def etc_objective(d: Distortion, phat) -> ETCObjective:
    """``eq:ETC_alpha`` for Bernoulli arms, V(a) = h(<a, phat>) (:meth:`ETCObjective.build`)."""
    return ETCObjective.build(d, phat)


def rs_ucb_objective(d: Distortion, phat, radius, validate: bool = True) -> RSUCBObjective:
    """``eq:UCB_alpha`` with the W1 balls of ``eq:UCB_confidence_sets`` (:meth:`RSUCBObjective.build`)."""
    return RSUCBObjective.build(d, phat, radius, validate)


def ce_ucb_objective(d: Distortion, phat, radius, q: float, L: float, validate: bool = True) -> CEUCBObjective:
    """``eq:UCB_alpha2``, h(<a, phat>) + L sum_i (a_i radius_i)^q (:meth:`CEUCBObjective.build`)."""
    return CEUCBObjective.build(d, phat, radius, q, L, validate)


def etc_objective_finite(d: Distortion, support, probs_hat) -> FiniteETCObjective:
    """``eq:ETC_alpha`` on empirical laws over a common support (:meth:`FiniteETCObjective.build`)."""
    return FiniteETCObjective.build(d, support, probs_hat)


def ce_ucb_objective_finite(d: Distortion, support, probs_hat, radius, q: float, L: float) -> FiniteCEUCBObjective:
    """``eq:UCB_alpha2`` on empirical laws over a common support (:meth:`FiniteCEUCBObjective.build`)."""
    return FiniteCEUCBObjective.build(d, support, probs_hat, radius, q, L)
