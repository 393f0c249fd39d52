"""Bandit instances: Bernoulli arms and finite-support arms on [0, b].

An instance fixes the arm laws F_1, ..., F_K of ``sec:setting``.  It knows

* how a uniform U in [0, 1) becomes a reward (inverse CDF; :meth:`outcome`),
  the *outcome* being the index of the support point drawn;
* the exact sufficient statistics of a sample (per-arm counts of each support
  point; for Bernoulli arms this is the number of ones), and the empirical law
  of ``eq:empirical_CDF`` they define;
* V(alpha) of ``eq:V``, vectorised, and the optimal mixture alpha* of
  ``eq:optimal alpha`` with V* = V(alpha*) (:meth:`optimal`).

For Bernoulli arms V(alpha) = h(<alpha, p>) and V* = max of h on
[min p, max p] (``eq:h_1_p``), computed from the exact maximisers
:func:`rsb_theory.holder.optimal_means`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rsb_theory.distortions import Distortion
from rsb_theory.laws.spec import MAX_REWARD, reward_too_large
from rsb_theory.riskmetric import finite_support, mixture_value
from rsb_theory.errors import ArgumentError


@dataclass(frozen=True)
class Optimum:
    """alpha* and V* of ``eq:optimal alpha``.

    Attributes
    ----------
    alpha : tuple of float
        An optimal mixture.
    value : float
        V* = V(alpha*) (the regret of ``eq:regret`` is measured from it).
    method : str
        How V* was obtained (``"closed_form"`` for Bernoulli arms, else the
        :func:`rsb_theory.oracle.optimal_mixture` route).
    """

    alpha: tuple[float, ...]
    value: float
    method: str


#: How far from 1 the sum of a row of ``probs`` may be (rounding of exactly given laws only).
PROB_TOL = 1e-9


def _as_float_array(x, name: str, ndim: int) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError(name, f"expected numbers, got {x!r}") from None
    if arr.ndim != ndim:
        raise ArgumentError(name, f"expected a {ndim}-d array, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ArgumentError(name, "entries must be finite")
    return arr


def _check_alpha(alpha, K: int) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    if a.shape[-1:] != (K,):
        raise ArgumentError("alpha", f"expected shape (..., {K}), got {a.shape}")
    if np.any(~np.isfinite(a)) or np.any(a < -1e-12) or np.any(np.abs(a.sum(axis=-1) - 1) > 1e-9):
        raise ArgumentError("alpha", "rows must be non-negative and sum to 1")
    return a


@dataclass(frozen=True)
class BernoulliInstance:
    """K Bernoulli arms with means ``p`` (K >= 2, entries in [0, 1]).

    A reward is 1{U < p_i} for the uniform U of the reward table
    (:mod:`rsb_sim.rewards`); the outcome index equals the reward.
    """

    p: tuple[float, ...]
    kind: str = field(default="bernoulli", init=False)

    def __post_init__(self) -> None:
        arr = _as_float_array(self.p, "p", 1)
        if arr.size < 2:
            raise ArgumentError("p", f"need K >= 2 arms, got {arr.size}")
        if np.any(arr < 0) or np.any(arr > 1):
            raise ArgumentError("p", f"Bernoulli means must lie in [0, 1], got {arr.tolist()}")
        object.__setattr__(self, "p", tuple(float(v) for v in arr))

    @property
    def K(self) -> int:
        return len(self.p)

    @property
    def support(self) -> np.ndarray:
        return np.array([0.0, 1.0])

    @property
    def width(self) -> float:
        """b of the support [0, b]."""
        return 1.0

    @property
    def n_outcomes(self) -> int:
        return 2

    def outcome(self, u: np.ndarray, arm) -> np.ndarray:
        """Outcome index (= reward) of uniforms ``u`` for arm(s) ``arm``: 1{u < p_arm}."""
        return (np.asarray(u) < np.asarray(self.p)[arm]).astype(np.int8)

    def empirical(self, hist: np.ndarray) -> np.ndarray:
        """Empirical means phat = (number of ones) / (number of pulls) from counts ``hist`` (..., K, 2).

        The empirical CDF of ``eq:empirical_CDF`` of a 0/1 sample is Bern(phat).
        """
        hist = np.asarray(hist)
        return hist[..., 1] / hist.sum(axis=-1)

    def value(self, d: Distortion, alpha) -> np.ndarray:
        """V(alpha) = h(<alpha, p>) (``eq:V``), vectorised over leading axes of ``alpha``.

        The inner product is summed left to right over the arms, so the value
        of one row does not depend on the others (a matrix product may round
        differently with the batch size; chunks of a sweep must agree with one
        big run bit for bit).
        """
        a = _check_alpha(alpha, self.K)
        m = a[..., 0] * self.p[0]
        for i in range(1, self.K):
            m = m + a[..., i] * self.p[i]
        return np.asarray(d.numeric(np.clip(m, 0.0, 1.0)), dtype=float)

    def optimal(self, d: Distortion) -> Optimum:
        """alpha* and V* (``eq:optimal alpha``): V* = max h on [min p, max p], exactly.

        alpha* is taken from :func:`rsb_theory.oracle.optimal_mixture_bernoulli`
        (closed form); V* from the exact maximisers of h on the hull of the means.
        """
        from rsb_theory.profile import of
        from rsb_theory.oracle import optimal_mixture_bernoulli

        p = np.asarray(self.p)
        tops = of(d).maximisers((float(p.min()), float(p.max())))
        v_star = float(d.numeric(np.array([float(tops[0])]))[0])
        orc = optimal_mixture_bernoulli(d, p)
        return Optimum(tuple(float(x) for x in orc.alpha), v_star, "closed_form")


@dataclass(frozen=True)
class FiniteSupportInstance:
    """K arms on a common finite support of points in [0, b].

    Parameters
    ----------
    support : sequence of float, shape (m,)
        Strictly increasing, non-negative (``sec:setting``: Omega in R_+), m >= 2.
    probs : sequence of sequences, shape (K, m)
        Row i is the law of arm i (entries in [0, 1], rows summing to 1).

    A reward is the inverse CDF of the uniform U: the support point x_j with
    j = min{j : U < F_i(x_j)}.
    """

    support: tuple[float, ...]
    probs: tuple[tuple[float, ...], ...]
    kind: str = field(default="finite", init=False)

    def __post_init__(self) -> None:
        xs = _as_float_array(self.support, "support", 1)
        if xs.size < 2:
            raise ArgumentError("support", f"need at least two support points, got {xs.size}")
        if np.any(np.diff(xs) <= 0):
            raise ArgumentError("support", "points must be strictly increasing")
        if xs[0] < 0:
            raise ArgumentError("support", f"points must lie in [0, b], got {xs[0]}")
        if xs[-1] > MAX_REWARD:
            raise ArgumentError("support", f"the point {reward_too_large(float(xs[-1]))}")
        ps = _as_float_array(self.probs, "probs", 2)
        if ps.shape[1] != xs.size:
            raise ArgumentError("probs", f"expected shape (K, {xs.size}), got {ps.shape}")
        if ps.shape[0] < 2:
            raise ArgumentError("probs", f"need K >= 2 arms, got {ps.shape[0]}")
        for i, row in enumerate(ps, start=1):  # arms are numbered 1..K, as in the paper
            bad = row[(row < 0) | (row > 1)]
            if bad.size:
                raise ArgumentError("probs", f"row {i} (arm {i}) has the entry {bad[0]:g} outside [0, 1]")
            total = float(row.sum())
            if abs(total - 1) > PROB_TOL:
                raise ArgumentError("probs", f"row {i} (arm {i}) sums to {total:.12g}, not 1 "
                                 f"(tolerance {PROB_TOL:g})")
        object.__setattr__(self, "support", tuple(float(v) for v in xs))
        object.__setattr__(self, "probs", tuple(tuple(float(v) for v in row) for row in ps))

    @property
    def K(self) -> int:
        return len(self.probs)

    @property
    def width(self) -> float:
        """b: the largest support point (the laws live on [0, b])."""
        return float(self.support[-1])

    @property
    def n_outcomes(self) -> int:
        return len(self.support)

    def _cdf(self) -> np.ndarray:
        c = np.cumsum(np.asarray(self.probs), axis=1)
        c[:, -1] = 1.0
        return c

    def outcome(self, u: np.ndarray, arm) -> np.ndarray:
        """Index j of the support point drawn by the inverse CDF: first j with u < F_arm(x_j)."""
        u = np.asarray(u, dtype=float)
        cdf = self._cdf()[arm]  # (..., m) broadcast against u
        idx = np.sum(np.asarray(u)[..., None] >= cdf, axis=-1)
        return np.minimum(idx, self.n_outcomes - 1).astype(np.int16)

    def empirical(self, hist: np.ndarray) -> np.ndarray:
        """Empirical laws (``eq:empirical_CDF``) from per-support counts ``hist`` (..., K, m)."""
        hist = np.asarray(hist, dtype=float)
        return hist / hist.sum(axis=-1, keepdims=True)

    def value(self, d: Distortion, alpha) -> np.ndarray:
        """V(alpha) = U_h(sum_i alpha_i F_i) (``eq:V``) via :func:`rsb_theory.riskmetric.mixture_value`."""
        a = _check_alpha(alpha, self.K)
        a = np.clip(a, 0.0, None)
        a = a / a.sum(axis=-1, keepdims=True)
        return np.asarray(mixture_value(d.numeric, self.support, self.probs, a), dtype=float)

    def arm_values(self, d: Distortion) -> np.ndarray:
        """U_h(F_i) of each arm."""
        return np.asarray(finite_support(d.numeric, self.support, self.probs), dtype=float)

    def optimal(self, d: Distortion) -> Optimum:
        """alpha* and V* by :func:`rsb_theory.oracle.optimal_mixture` (CVXPY for concave h)."""
        from rsb_theory.oracle import optimal_mixture

        orc = optimal_mixture(d, self.support, self.probs)
        alpha = tuple(float(x) for x in orc.alpha)
        return Optimum(alpha, float(orc.value), orc.method)


Instance = BernoulliInstance | FiniteSupportInstance


def make_instance(p=None, support=None, probs=None) -> Instance:
    """A :class:`BernoulliInstance` from ``p`` or a :class:`FiniteSupportInstance` from ``support``/``probs``."""
    if p is not None:
        if support is not None or probs is not None:
            raise ArgumentError("p", "give either p or support/probs, not both")
        return BernoulliInstance(tuple(np.atleast_1d(np.asarray(p, dtype=float)).tolist()))
    if support is None or probs is None:
        raise ArgumentError("p", "give p (Bernoulli) or both support and probs")
    return FiniteSupportInstance(tuple(support), tuple(tuple(r) for r in probs))
