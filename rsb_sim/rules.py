"""Shared rules of the policies: tie tolerances, the tracking rule, the radius, the ETC commit targets.

* :data:`TIE_TOL` — mixture ties (``rsb_theory.argmax.rule.TIE_TOL``): a
  previous mixture is kept while v(prev) >= M - TIE_TOL.
* :data:`TRACK_TOL` — arm ties in ``eq:UCB_sampling_rule``: the deficits
  (t-1) a(i) - tau(i) are computed in floating point from float grid points, so
  deficits within TRACK_TOL of the largest count as tied and the lowest arm
  index among them is pulled.
* :data:`FLOOR_GUARD` — the ETC target of arm i is floor(T a(i) + FLOOR_GUARD)
  (``eq: ETC_samp`` does not say how T a(i) is rounded; we floor, and the guard
  keeps 100 * 0.7 = 69.999... from flooring to 69).

:func:`track_arm` (``eq:UCB_sampling_rule``) and :func:`confidence_radius`
(``eq:UCB_confidence_sets``) are written once, for one trial, in plain Python that
numba compiles: CE-UCB-M's compiled loop (:mod:`rsb_sim.policies._ce_loop`) compiles
them, the reference loop calls them, and the vectorised :func:`track` of the NumPy
loop is tested equal to :func:`track_arm` row by row (``tests/sim/test_rules.py``).
"""

from __future__ import annotations

import math

import numpy as np

from rsb_theory.argmax.rule import TIE_TOL

TRACK_TOL = 1e-9
FLOOR_GUARD = 1e-9

__all__ = ["TIE_TOL", "TRACK_TOL", "FLOOR_GUARD", "track_arm", "track", "confidence_radius", "etc_targets",
           "round_robin_counts"]


def track_arm(t_minus_1, a, tau):
    """``eq:UCB_sampling_rule`` for one trial: argmax_i ((t-1) a(i) - tau(i)), lowest index on ties.

    The deficits (t-1) a(i) - tau(i) are computed in floating point from float grid points,
    so those within :data:`TRACK_TOL` of the largest count as tied.  Plain Python compiled by
    numba in CE-UCB-M's loop; the reference loop calls it as it is.

    Parameters
    ----------
    t_minus_1 : int
        Pulls made so far (t - 1 before the pull of step t).
    a : numpy.ndarray, shape (K,)
        Current mixture.
    tau : numpy.ndarray, shape (K,)
        Pull counts.

    Returns
    -------
    int
        The arm to pull (0-based).
    """
    top = -math.inf
    for i in range(a.shape[0]):
        deficit = t_minus_1 * a[i] - tau[i]
        if deficit > top:
            top = deficit
    for i in range(a.shape[0]):
        if t_minus_1 * a[i] - tau[i] >= top - TRACK_TOL:
            return i
    return 0  # unreachable: the largest deficit is within TRACK_TOL of itself


def track(t_minus_1: int, a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """:func:`track_arm` for every trial (``eq:UCB_sampling_rule``), vectorised.

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


def confidence_radius(radius_c, tau):
    """radius_c / sqrt(tau): the radius of ``eq:UCB_confidence_sets`` after tau pulls of an arm.

    ``radius_c`` is radius_scale * 16 (sqrt(2 e log T) + 32) (:attr:`rsb_sim.setup.Setup.radius_c`).
    ``tau`` is a count or an array of counts (the NumPy loop); compiled by numba in CE-UCB-M's
    loop (the square root is correctly rounded on both routes).
    """
    return radius_c / np.sqrt(tau)


#: Most pull counts :func:`radius_table` tabulates (8 MB): no array of length T for a long horizon (at
#: T = 1e9 it would be a table of 8 GB); the loops compute the radius of larger counts by the same formula.
RADII_MAX = 2**20


def radius_table(radius_c: float, T: int, most: int = RADII_MAX) -> np.ndarray:
    """:func:`confidence_radius` for 0..min(T, ``most``) pulls (the compiled loops read it instead of a
    square root and a division per arm and step: the same bits, both correctly rounded; tested).  Entry 0 is
    never read."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return confidence_radius(float(radius_c), np.arange(min(int(T), int(most)) + 1, dtype=float))


def etc_targets(T: int, a: np.ndarray) -> np.ndarray:
    """floor(T a(i) + FLOOR_GUARD) for the first K-1 arms, shape (B, K-1), int64."""
    return np.floor(T * a[:, :-1] + FLOOR_GUARD).astype(np.int64)


def round_robin_counts(steps: int, K: int) -> np.ndarray:
    """Pulls per arm after ``steps`` round-robin pulls in arm order 0..K-1, shape (K,)."""
    return steps // K + (np.arange(K) < steps % K).astype(np.int64)
