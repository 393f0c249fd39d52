"""The exact law of RS-ETC-M's commit decision for two-point arms (shared by the ETC proof-step checks).

RS-ETC-M's decision a^E_N (``eq:ETC_alpha``) depends only on the n0 = ceil(N/K)
exploration rewards of each arm.  For arms on two points {lo, hi} (Bernoulli:
lo = 0, hi = 1) the empirical law of arm i is fixed by its count k_i of high
rewards, k_i ~ Binomial(n0, p_i) independently, so the (n0 + 1)^K outcomes and
their probabilities give every event of the proof in ``Appendix:RS-ETC-M``
*exactly* -- no sampling.  A mixture of such laws is again a two-point law,
and ``eq:wang_def`` gives U_h = (hi - lo) h(m) + lo h(1) for its mean weight m
of the high point (the signed Choquet integral; lo < 0 allowed), so V(a) and
its estimate are closed forms in <a, p> and <a, p_hat>.

The grid is ``eq:etc_discrete_set`` in exact rationals
(:func:`proofs_checks.checks._etc_rule.etc_grid`, lexicographic order =
the tie order of ARCHITECTURE.md), ties within
:data:`rsb_sim.rules.TIE_TOL` as in the simulator, and the commit counts are
:func:`proofs_checks.checks._etc_rule.commit_counts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy.stats import binom

from rsb_sim.rules import TIE_TOL

from ._etc_rule import commit_counts, etc_grid
from ..numfmt import num


@dataclass(frozen=True)
class TwoPointArms:
    """K arms on the points {lo, hi}: arm i gives hi with probability p[i] (Bernoulli: lo = 0, hi = 1)."""

    p: tuple[float, ...]
    lo: float = 0.0
    hi: float = 1.0

    @property
    def K(self) -> int:
        return len(self.p)

    @property
    def W(self) -> float:
        """W of ``eq:W``: max_{i<j} W1(F_i, F_j) / 2 = (hi - lo)(max p - min p) / 2."""
        return (self.hi - self.lo) * (max(self.p) - min(self.p)) / 2

    def describe(self) -> str:
        pts = "Bern" if (self.lo, self.hi) == (0.0, 1.0) else f"two-point on {{{num(self.lo, 6)}, {num(self.hi, 6)}}},"
        return f"{pts} p = ({', '.join(f'{num(x, 6)}' for x in self.p)})"


@dataclass(frozen=True)
class EtcLaw:
    """Every quantity of the ETC proof on one (distortion, arms, eps, n0, T), one row per exploration outcome.

    Attributes
    ----------
    grid : tuple of tuple of Fraction
        The etc grid, lexicographic order.
    V : numpy.ndarray, shape (G,)
        V(a) = U_h(sum_i a(i) F_i).
    opt : numpy.ndarray of bool, shape (G,)
        OPT_eps (within TIE_TOL of the maximum).
    Delta_min : float
        V* - max_{a not in OPT} V(a) (inf when every grid point is optimal).
    prob : numpy.ndarray, shape (R,)
        Probability of each exploration outcome (sums to 1).
    phat : numpy.ndarray, shape (R, K)
        Empirical high-point frequencies k_i / n0.
    Vhat : numpy.ndarray, shape (R, G)
        U_h(sum_i a(i) F_i,N) for every outcome and grid point.
    choice : numpy.ndarray of int, shape (R,)
        Index of a^E_N (first grid point within TIE_TOL of the estimated maximum).
    regret_commit : numpy.ndarray, shape (R,)
        V(a^E_N) - V(tau_T / T) (the integrand of A_3).
    """

    arms: TwoPointArms
    eps: Fraction
    n0: int
    T: int
    grid: tuple
    V: np.ndarray
    opt: np.ndarray
    Delta_min: float
    prob: np.ndarray
    phat: np.ndarray
    Vhat: np.ndarray
    choice: np.ndarray
    regret_commit: np.ndarray

    @property
    def star(self) -> int:
        """Index of a* (the first optimal grid point)."""
        return int(np.flatnonzero(self.opt)[0])

    @property
    def v_star(self) -> float:
        return float(self.V[self.star])

    @property
    def wrong(self) -> np.ndarray:
        """Outcomes with a^E_N not in OPT_eps."""
        return ~self.opt[self.choice]

    def dev(self, index) -> np.ndarray:
        """|Vhat(a) - V(a)| per outcome, for a = grid[index] (an int or one index per outcome)."""
        idx = np.broadcast_to(np.asarray(index), self.prob.shape)
        rows = np.arange(self.prob.size)
        return np.abs(self.Vhat[rows, idx] - self.V[idx])

    def w1(self) -> np.ndarray:
        """||F_i,N - F_i||_W per outcome and arm: (hi - lo) |p_hat - p|."""
        a = self.arms
        return (a.hi - a.lo) * np.abs(self.phat - np.asarray(a.p)[None, :])


def mixture_value(h, arms: TwoPointArms, means: np.ndarray) -> np.ndarray:
    """U_h of the two-point law with high-point weight ``means`` (``eq:wang_def``): (hi - lo) h(m) + lo h(1)."""
    m = np.clip(np.asarray(means, dtype=float), 0.0, 1.0)
    return (arms.hi - arms.lo) * np.asarray(h(m), dtype=float) + arms.lo * float(np.asarray(h(np.array([1.0])))[0])


def _outcomes(K: int, n0: int) -> np.ndarray:
    """All count vectors k in {0..n0}^K, shape ((n0+1)^K, K)."""
    axes = np.meshgrid(*([np.arange(n0 + 1)] * K), indexing="ij")
    return np.stack([a.ravel() for a in axes], axis=1)


@lru_cache(maxsize=None)
def etc_law(d, arms: TwoPointArms, eps: Fraction, n0: int, T: int) -> EtcLaw:
    """The exact law of RS-ETC-M's decision and commit on ``arms`` (see the module docstring).

    Parameters
    ----------
    d : Distortion
    arms : TwoPointArms
    eps : Fraction
        Discretisation level of the etc grid.
    n0 : int
        Exploration pulls per arm (ceil(N/K)).
    T : int
        Horizon (> K n0 for a commit phase).
    """
    grid = tuple(etc_grid(arms.K, eps))
    A = np.array([[float(x) for x in a] for a in grid])
    p = np.asarray(arms.p, dtype=float)
    h = d.numeric
    V = mixture_value(h, arms, A @ p)
    vmax = V.max()
    opt = V >= vmax - TIE_TOL
    Delta_min = float(vmax - V[~opt].max()) if (~opt).any() else math.inf
    ks = _outcomes(arms.K, n0)
    prob = np.prod(binom.pmf(ks, n0, p[None, :]), axis=1)
    phat = ks / n0
    Vhat = mixture_value(h, arms, phat @ A.T)
    best = Vhat.max(axis=1, keepdims=True)
    choice = np.argmax(Vhat >= best - TIE_TOL, axis=1)
    regret_commit = np.empty(prob.size)
    cache: dict[int, float] = {}
    for r, c in enumerate(choice):
        c = int(c)
        if c not in cache:
            tau = commit_counts(grid[c], T, n0)
            cache[c] = float(V[c] - mixture_value(h, arms, np.array([np.dot(np.asarray(tau) / T, p)]))[0])
        regret_commit[r] = cache[c]
    return EtcLaw(arms, eps, n0, T, grid, V, opt, Delta_min, prob, phat, Vhat, choice, regret_commit)
