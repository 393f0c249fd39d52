"""Validation of the inputs of the objectives: the estimates, the radii and the bonus constants.

Every message names the argument (``argument 'phat': ...``).
"""

from __future__ import annotations

import math

import numpy as np

from ..distortions import Distortion
from ..profile import of
from ..errors import ArgumentError

__all__ = ["check_distortion", "check_phat", "check_radius", "check_bonus", "trusted", "frozen", "concave_fields"]


def check_distortion(d) -> Distortion:
    if not isinstance(d, Distortion):
        raise ArgumentError("d", f"expected a Distortion (rsb_theory.distortions.get/resolve), got {d!r}")
    return d


def check_phat(phat) -> np.ndarray:
    """Bernoulli means as a read-only (B, K) array (a (K,) vector is one trial); errors name ``phat``."""
    try:
        arr = np.array(phat, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("phat", "expected an array of numbers") from None
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ArgumentError("phat", f"expected shape (B, K) with B >= 1 and K >= 2, got {np.shape(phat)}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ArgumentError("phat", "Bernoulli means must be finite and lie in [0, 1]")
    arr.setflags(write=False)
    return arr


def check_radius(radius, shape: tuple[int, int], finite: bool) -> np.ndarray:
    """Radii >= 0 broadcast to ``shape``; ``finite`` refuses inf (a CE-UCB bonus)."""
    try:
        arr = np.array(radius, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("radius", "expected a number or an array of numbers") from None
    try:
        arr = np.array(np.broadcast_to(arr, shape), dtype=float)
    except ValueError:
        raise ArgumentError("radius", f"shape {arr.shape} does not broadcast to {shape}") from None
    if np.any(np.isnan(arr)) or np.any(arr < 0):
        raise ArgumentError("radius", "radii must be >= 0 (not nan)")
    if finite and not np.all(np.isfinite(arr)):
        raise ArgumentError("radius", "CE-UCB needs finite radii (the bonus would be infinite)")
    arr.setflags(write=False)
    return arr


def check_bonus(q, L) -> tuple[float, float]:
    """Hölder exponent 0 < q <= 1 and constant L >= 0 of the bonus of ``eq:UCB_alpha2``."""
    try:
        q, L = float(q), float(L)
    except (TypeError, ValueError):
        raise ArgumentError("q", f"q and L must be numbers, got q={q!r}, L={L!r}") from None
    if not (0 < q <= 1):
        raise ArgumentError("q", f"need 0 < q <= 1, got {q!r}")
    if not (math.isfinite(L) and L >= 0):
        raise ArgumentError("L", f"need a finite L >= 0, got {L!r}")
    return q, L


def trusted(arr) -> np.ndarray:
    """A float array taken as valid (``validate=False``): read-only, no checks."""
    arr = np.asarray(arr, dtype=float)
    arr.setflags(write=False)
    return arr


def frozen(*arrays: np.ndarray) -> None:
    for arr in arrays:
        arr.setflags(write=False)


def concave_fields(d: Distortion) -> dict:
    """xs_lo, xs_hi (the maximisers of h on [0, 1]) and h_max = h(xs_lo) for a concave h."""
    if not d.shape.is_concave:
        return {"concave": False}
    prof = of(d)
    tops = prof.maximisers((0, 1))  # increasing
    return {"concave": True, "xs_lo": float(tops[0]), "xs_hi": float(tops[-1]), "h_max": prof.sup_h((0, 1))}
