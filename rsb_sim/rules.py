"""Shared rules of the policies: tie tolerances, the tracking rule, the ETC commit targets.

* :data:`TIE_TOL` — mixture ties (``rsb_theory.discretization.TIE_TOL``): a
  previous mixture is kept while v(prev) >= M - TIE_TOL.
* :data:`TRACK_TOL` — arm ties in ``eq:UCB_sampling_rule``: the deficits
  (t-1) a(i) - tau(i) are computed in floating point from float grid points, so
  deficits within TRACK_TOL of the largest count as tied and the lowest arm
  index among them is pulled.
* :data:`FLOOR_GUARD` — the ETC target of arm i is floor(T a(i) + FLOOR_GUARD)
  (``eq: ETC_samp`` does not say how T a(i) is rounded; we floor, and the guard
  keeps 100 * 0.7 = 69.999... from flooring to 69).
"""

from __future__ import annotations

import numpy as np

from rsb_theory.discretization import TIE_TOL

TRACK_TOL = 1e-9
FLOOR_GUARD = 1e-9

__all__ = ["TIE_TOL", "TRACK_TOL", "FLOOR_GUARD", "track", "etc_targets", "round_robin_counts"]


def track(t_minus_1: int, a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """``eq:UCB_sampling_rule`` for every trial: argmax_i ((t-1) a(i) - tau(i)), lowest index on ties.

    Parameters
    ----------
    t_minus_1 : int
        Pulls made so far.
    a : numpy.ndarray, shape (B, K)
        Current mixtures.
    tau : numpy.ndarray, shape (B, K)
        Pull counts.

    Returns
    -------
    numpy.ndarray, shape (B,), int64
    """
    dfc = t_minus_1 * a - tau
    top = dfc.max(axis=1, keepdims=True)
    return np.argmax(dfc >= top - TRACK_TOL, axis=1)


def etc_targets(T: int, a: np.ndarray) -> np.ndarray:
    """floor(T a(i) + FLOOR_GUARD) for the first K-1 arms, shape (B, K-1), int64."""
    return np.floor(T * a[:, :-1] + FLOOR_GUARD).astype(np.int64)


def round_robin_counts(steps: int, K: int) -> np.ndarray:
    """Pulls per arm after ``steps`` round-robin pulls in arm order 0..K-1, shape (K,)."""
    return steps // K + (np.arange(K) < steps % K).astype(np.int64)
