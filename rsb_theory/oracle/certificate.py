"""The supergradient certificate of an oracle mixture for concave h (:func:`optimality_gap`)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from ..distortions import U, Distortion, _pieces, numeric_derivative
from ..riskmetric import _as_probs
from .dcp import as_float
from .instance import check_instance, steps
from ..errors import ArgumentError

__all__ = ["KINK_SNAP", "optimality_gap", "min_max_bound", "min_max_choice", "kinks"]

#: A survival value this close to a breakpoint of h is anchored at the breakpoint (:func:`optimality_gap`).
KINK_SNAP = 1e-6


def optimality_gap(d: Distortion, support, arm_probs, alpha) -> float | None:
    """Upper bound on max_beta V(beta) - V(alpha) for concave h (supergradient inequality).

    For concave h, V(beta) = sum_j w_j h(S_j(beta)) + const with S_j affine in
    beta (module docstring), and for *any* anchor c_j in [0, 1] and any
    supergradient g_j of h at c_j, h(t) <= h(c_j) + g_j (t - c_j).  Hence

        V(beta) - V(alpha) <= sum_j w_j [h(c_j) - h(S_j(alpha)) + g_j (S_j(beta) - c_j)],

    affine in beta, so its maximum over the simplex is at a vertex e_i
    (S_j(e_i) = S_ij).  The anchor is c_j = S_j(alpha) with g_j = h'(c_j)
    (SymPy derivative) on smooth steps; when S_j(alpha) lies within
    :data:`KINK_SNAP` of a breakpoint c of h (Min/Max/Abs), c_j = c and g_j
    is free in [h'(c+), h'(c-)], and the smallest bound over those g_j is a
    small linear program (scipy ``linprog``/HiGHS): min t subject to
    bound_i(g) <= t for every arm i.  The inequality holds for every anchor,
    so snapping costs only tightness, never validity.  At an optimum of a
    smooth concave V the bound is 0 (KKT), so it measures how far alpha is
    from optimal.  Terms with S_ij = c_j vanish even where h' is infinite;
    an infinite slope (u**s at 0) times a nonzero difference gives ``inf``.

    Returns
    -------
    float or None
        None when h is not concave (``d.shape.is_concave`` is False).

    Raises
    ------
    ValueError
        Bad ``support``, ``arm_probs`` or ``alpha``.
    """
    if not d.shape.is_concave:
        return None
    xs, arms = check_instance(support, arm_probs)
    a = _as_probs(alpha, arms.shape[0], "alpha")
    if a.ndim != 1:
        raise ArgumentError("alpha", f"expected shape ({arms.shape[0]},), got {a.shape}")
    widths, S, _ = steps(xs, arms)
    s_alpha = np.clip(a @ S, 0.0, 1.0)
    anchor = s_alpha.copy()
    dh = numeric_derivative(d)
    with np.errstate(all="ignore"):
        g_lo = np.array(dh(s_alpha), dtype=float)
    g_hi = g_lo.copy()
    for c, slope_left, slope_right in _kinks(d.expr):
        near = np.abs(s_alpha - c) <= KINK_SNAP
        anchor[near], g_lo[near], g_hi[near] = c, slope_right, slope_left
    h = d.numeric
    base = float(np.sum(widths * (h(anchor) - h(s_alpha))))
    D = widths * (S - anchor)  # (K, n): bound_i(g) = base + sum_j g_j D_ij
    return min_max_bound(base, D, g_lo, g_hi)


def min_max_bound(base: float, D: np.ndarray, g_lo: np.ndarray, g_hi: np.ndarray) -> float:
    """min over g in the box [g_lo, g_hi] of max_i (base + sum_j g_j D_ij), and at least 0.

    Coordinates with g_lo = g_hi are fixed (a term with D_ij = 0 vanishes even
    where g_j is infinite); the free ones (anchors snapped to a kink of h) are
    chosen by a small linear program (scipy ``linprog``/HiGHS), and the bound is
    re-evaluated at the LP's g clipped into the box, so that it does not rest on
    the LP's tolerance.  NaN or +inf in a fixed term gives ``inf``.
    """
    return min_max_choice(base, D, g_lo, g_hi)[0]


def min_max_choice(base: float, D: np.ndarray, g_lo: np.ndarray, g_hi: np.ndarray) -> tuple[float, np.ndarray]:
    """:func:`min_max_bound` and the g that attains it (g_lo where nothing was chosen)."""
    g_out = g_lo.copy()
    free = g_lo < g_hi
    with np.errstate(all="ignore"):
        fixed = np.where(D[:, ~free] == 0.0, 0.0, g_lo[~free] * D[:, ~free]).sum(axis=1)
    if np.any(np.isnan(fixed)) or np.any(fixed == np.inf):
        return float("inf"), g_out
    if not np.any(free):
        return float(max(base + np.max(fixed), 0.0)), g_out
    if not (np.all(np.isfinite(g_lo[free])) and np.all(np.isfinite(g_hi[free]))):  # pragma: no cover
        return float("inf"), g_out
    from scipy.optimize import linprog

    nf = int(free.sum())
    # variables (g_free, t): minimise t subject to D_free g - t <= -fixed
    res = linprog(np.r_[np.zeros(nf), 1.0],
                  A_ub=np.c_[D[:, free], -np.ones(D.shape[0])], b_ub=-fixed,
                  bounds=[(lo, hi) for lo, hi in zip(g_lo[free], g_hi[free])] + [(None, None)],
                  method="highs")
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        g_mid = 0.5 * (g_lo[free] + g_hi[free])
        g_out[free] = g_mid
        return float(max(base + np.max(fixed + D[:, free] @ g_mid), 0.0)), g_out
    # re-evaluate at the LP's g (clipped into the box) so the bound does not rest on the LP tolerance
    g = np.clip(res.x[:nf], g_lo[free], g_hi[free])
    g_out[free] = g
    return float(max(base + np.max(fixed + D[:, free] @ g), 0.0)), g_out


def kinks(d: Distortion) -> tuple[tuple[float, float, float], ...]:
    """(c, h'(c-), h'(c+)) at each interior breakpoint c of h."""
    return _kinks(d.expr)


@lru_cache(maxsize=256)
def _kinks(expr: sp.Expr) -> tuple[tuple[float, float, float], ...]:
    """(c, h'(c-), h'(c+)) at each interior breakpoint c of h (from the smooth pieces)."""
    pieces = _pieces(expr)
    out = []
    for (left, _), (right, iv) in zip(pieces, pieces[1:]):
        c = iv.start
        out.append((as_float(c), as_float(sp.diff(left, U).subs(U, c)), as_float(sp.diff(right, U).subs(U, c))))
    return tuple(out)
