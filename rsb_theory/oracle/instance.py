"""Finite-support instances for the oracle: validation, the steps of the survival functions, V(alpha).

For arms on a common sorted support x_1 <= ... <= x_m the step identity of
:mod:`rsb_theory.riskmetric` (``eq:wang_def`` with 0 inserted as a massless
atom) gives V(alpha) = sum_j w_j h(S_j(alpha)) - h(1) L_-, with w_j the step
widths, S_j(alpha) = sum_i alpha_i S_ij affine in alpha and L_- the length of
the negative part of the support (:func:`steps`).
"""

from __future__ import annotations

import numpy as np

from ..distortions import Distortion
from ..riskmetric import _as_probs, _as_support, mixture_value
from ..errors import ArgumentError

__all__ = ["check_instance", "steps", "value", "project", "project_rows", "as_means", "bernoulli_arms",
           "is_two_point"]


def check_instance(support, arm_probs) -> tuple[np.ndarray, np.ndarray]:
    xs = _as_support(support)
    arms = _as_probs(arm_probs, xs.size, "arm_probs", min_ndim=2)
    if arms.ndim != 2:
        raise ArgumentError("arm_probs", f"expected shape (K, {xs.size}), got {arms.shape}")
    if arms.shape[0] < 2:
        raise ArgumentError("arm_probs", f"need K >= 2 arms, got K = {arms.shape[0]}")
    return xs, arms


def steps(xs: np.ndarray, arms: np.ndarray):
    """Widths w_j > 0, survival matrix S (K, n) of the steps, and the constant of V."""
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(arms, k, 0.0, axis=-1)
    widths = np.diff(xs0)
    left = xs0[1:] <= 0.0
    tail = np.cumsum(probs0[:, ::-1], axis=-1)[:, ::-1][:, 1:]
    S = np.clip(tail, 0.0, 1.0)
    keep = widths > 0
    return widths[keep], S[:, keep], left[keep]


def value(d: Distortion, xs, arms, alpha) -> float:
    return float(mixture_value(d.numeric, xs, arms, alpha))


def project(alpha) -> np.ndarray:
    a = np.clip(np.asarray(alpha, dtype=float), 0.0, None)
    s = a.sum()
    if s <= 0:  # pragma: no cover
        return np.full(a.size, 1.0 / a.size)
    return a / s


def project_rows(A) -> np.ndarray:
    """Rows clipped at 0 and renormalised onto the simplex (an all-zero row becomes uniform)."""
    A = np.clip(np.atleast_2d(np.asarray(A, dtype=float)), 0.0, None)
    total = A.sum(axis=1, keepdims=True)
    return np.where(total > 0, A / np.where(total > 0, total, 1.0), 1.0 / A.shape[1])


def is_two_point(xs: np.ndarray) -> bool:
    return xs.size == 2 and xs[1] > xs[0]


def as_means(p) -> np.ndarray:
    try:
        p = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("p", "expected a 1-d array of means in [0, 1]") from None
    if p.ndim != 1:
        raise ArgumentError("p", f"expected a 1-d array of means, got shape {p.shape}")
    if p.size < 2:
        raise ArgumentError("p", f"need K >= 2 arms, got K = {p.size}")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or np.any(p > 1):
        raise ArgumentError("p", f"Bernoulli means must lie in [0, 1], got {p.tolist()}")
    return p


def bernoulli_arms(p) -> tuple[np.ndarray, np.ndarray]:
    """(support [0, 1], arm_probs rows [1 - p_i, p_i]) for Bernoulli arms; K >= 2."""
    p = as_means(p)
    return np.array([0.0, 1.0]), np.stack([1.0 - p, p], axis=-1)
