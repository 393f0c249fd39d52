"""Adaptive Gauss–Kronrod quadrature with its nodes and weights (vectorised, deterministic).

:func:`integrate` integrates a vectorised f (scalar or vector valued) over
[knots[0], knots[-1]], never across a knot: the caller puts a knot at every
point where f may jump or have a kink (support ends, atoms, the x where a
survival function crosses a breakpoint of h), so that f is smooth inside every
panel, up to integrable endpoint singularities.  Each panel is integrated by
the 15-point Kronrod rule with the embedded 7-point Gauss rule; the error of a
panel is QUADPACK's estimate (Piessens et al. 1983, ``qk15``):

    err = resasc * min(1, (200 |K15 - G7| / resasc)^1.5),

resasc the K15 integral of |f - K15 mean| (the raw |K15 - G7| where resasc is
0).  While the summed error exceeds ``tol``, every panel whose error is at least
a quarter of the largest is halved (QUADPACK's global strategy, splitting a
batch per round so that one call of f serves the whole round).  Work is
bounded by counts: at most :data:`MAX_PANELS` panels and :data:`MAX_ROUNDS`
rounds; a panel narrower than 1e-14 of its position is not split.  The result
says whether the tolerance was met.

The error estimate is QUADPACK's heuristic, not a proof; the tests compare
the results with closed forms (uniform, beta and power laws under every
distortion, ``tests/theory/test_laws_values.py``) to 1e-9.

The accepted panels give a quadrature rule: nodes x_k and weights w_k > 0
(Kronrod weights are positive) with int f ~= sum_k w_k f(x_k).  For
V(alpha) = int h(sum_i alpha_i S_i(x)) dx this is the finite-step form
sum_k w_k h(S_k(alpha)) that the oracle's convex program solves
(:mod:`rsb_theory.oracle.laws`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["Integral", "integrate", "MAX_PANELS", "MAX_ROUNDS", "XGK", "WGK", "WG"]

#: Most panels one integral may use.
MAX_PANELS = 20_000
#: Most refinement rounds.
MAX_ROUNDS = 200

# 15-point Kronrod nodes on [-1, 1] (the positive half, descending, and 0) and weights; the 7-point
# Gauss rule uses the odd-numbered nodes XGK[1], XGK[3], XGK[5], XGK[7] (QUADPACK qk15).
_XGK_HALF = np.array([
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.000000000000000000000000000000000])
_WGK_HALF = np.array([
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714])
_WG_HALF = np.array([0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                     0.381830050505118944950369775488975, 0.417959183673469387755102040816327])

#: The 15 Kronrod nodes on [-1, 1], ascending.
XGK = np.concatenate([-_XGK_HALF[:-1], _XGK_HALF[::-1]])
#: Their Kronrod weights.
WGK = np.concatenate([_WGK_HALF[:-1], _WGK_HALF[::-1]])
#: Gauss weights on the same 15 nodes (0 at the Kronrod-only nodes).
WG = np.zeros(15)
WG[[1, 3, 5]] = _WG_HALF[:3]
WG[7] = _WG_HALF[3]
WG[[9, 11, 13]] = _WG_HALF[2::-1]


@dataclass(frozen=True)
class Integral:
    """The result of :func:`integrate`.

    Attributes
    ----------
    value : float or numpy.ndarray
        The integral (an array of the components for a vector-valued f).
    error : float
        Summed QUADPACK error estimate (largest over the components).
    converged : bool
        ``error <= tol`` was reached within the panel and round budgets.
    nodes, weights : numpy.ndarray
        The rule of the accepted panels, ascending in x: int f ~= weights @ f(nodes).
    panels : int
        How many panels were used.
    evaluations : int
        How many points f was evaluated at.
    pieces : numpy.ndarray
        The integral over each interval between consecutive knots, shape (c, n - 1)
        (``(n - 1,)`` for a scalar f).
    """

    value: object
    error: float
    converged: bool
    nodes: np.ndarray
    weights: np.ndarray
    panels: int
    evaluations: int
    pieces: np.ndarray = None


def _panel_estimates(f, a: np.ndarray, b: np.ndarray):
    """K15 values, error estimates (per panel, largest over components) and the panels' nodes."""
    half = 0.5 * (b - a)
    mid = 0.5 * (a + b)
    x = mid[:, None] + half[:, None] * XGK[None, :]  # (n, 15)
    y = np.asarray(f(x.ravel()), dtype=float)
    vector = y.ndim == 2
    y = y.reshape((y.shape[0] if vector else 1, a.size, 15))
    k = (y @ WGK) * half  # (c, n)
    g = (y @ WG) * half
    mean = (y @ WGK) / 2.0
    resasc = (np.abs(y - mean[..., None]) @ WGK) * np.abs(half)
    raw = np.abs(k - g)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = np.where(resasc > 0, resasc * np.minimum(1.0, (200.0 * raw / np.where(resasc > 0, resasc, 1.0)) ** 1.5),
                          raw)
    err = np.max(scaled, axis=0)
    if np.any(~np.isfinite(k)):
        err = np.where(np.all(np.isfinite(k), axis=0), err, np.inf)
    return k, err, x, vector


def integrate(f: Callable[[np.ndarray], np.ndarray], knots, tol: float = 1e-12, *,
              max_panels: int = MAX_PANELS, max_rounds: int = MAX_ROUNDS) -> Integral:
    """int_{knots[0]}^{knots[-1]} f(x) dx, adaptively, never across a knot (module docstring).

    Parameters
    ----------
    f : callable
        Vectorised: an array x of shape (n,) -> f(x) of shape (n,), or (c, n) for c components.
    knots : array_like
        Increasing points; repeated points are dropped.
    tol : float
        Target for the summed error estimate (absolute).
    max_panels, max_rounds : int
        Work budgets (counts).

    Returns
    -------
    Integral
    """
    knots = np.unique(np.asarray(knots, dtype=float))
    if knots.size < 2:
        return Integral(0.0, 0.0, True, np.empty(0), np.empty(0), 0, 0, np.empty(0))
    a, b = knots[:-1].copy(), knots[1:].copy()
    k, err, x, vector = _panel_estimates(f, a, b)
    evaluations = x.size
    rounds = 0
    while rounds < max_rounds:
        total = float(np.sum(err))
        if total <= tol or not np.isfinite(total) and not np.any(np.isfinite(err)):
            break
        worst = float(np.max(err))
        splittable = (b - a) > 1e-14 * np.maximum(1.0, np.abs(a))
        split = (err >= 0.25 * worst) & splittable & (err > 0)
        n_split = int(split.sum())
        if n_split == 0 or a.size + n_split > max_panels:
            break
        m = 0.5 * (a[split] + b[split])
        na = np.concatenate([a[split], m])
        nb = np.concatenate([m, b[split]])
        k2, err2, x2, _ = _panel_estimates(f, na, nb)
        evaluations += x2.size
        keep = ~split
        a, b = np.concatenate([a[keep], na]), np.concatenate([b[keep], nb])
        k = np.concatenate([k[:, keep], k2], axis=1)
        err = np.concatenate([err[keep], err2])
        x = np.concatenate([x[keep], x2])
        rounds += 1
    order = np.argsort(a, kind="stable")
    a, b, k, err, x = a[order], b[order], k[:, order], err[order], x[order]
    total = float(np.sum(err))
    value = np.sum(k, axis=1)
    weights = (0.5 * (b - a))[:, None] * WGK[None, :]
    pieces = np.zeros((k.shape[0], knots.size - 1))
    np.add.at(pieces, (slice(None), np.searchsorted(knots, a, side="right") - 1), k)
    return Integral(value if vector else float(value[0]), total, bool(total <= tol), x.ravel(), weights.ravel(),
                    int(a.size), int(evaluations), pieces if vector else pieces[0])
