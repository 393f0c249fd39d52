"""U_h (``eq:wang_def``) of a law, V(alpha) (``eq:V``) of a mixture of laws, and the W1 distance.

Exactness
---------
* Discrete laws (Bernoulli, finite, empirical): exact, by the step identity of
  :mod:`rsb_theory.riskmetric` on the union of the atoms (an empirical law is
  the finite law of its sorted distinct samples; the value is an L-statistic).
* Anything with a continuous component: V(alpha) = int_0^b h(S_alpha(x)) dx with
  S_alpha = sum_i alpha_i S_i (rewards are >= 0, so the negative half-line of
  ``eq:wang_def`` contributes nothing, and S_alpha = 1 on [0, min lo]) by
  adaptive Gauss–Kronrod quadrature (:mod:`rsb_theory.laws.quadrature`), split at
  0, at every support end, every atom and every known kink of a density
  (:func:`knots`), and at every x where S_alpha crosses a breakpoint c of h
  (``min``/``max``/``abs`` in h; :func:`crossings`, by bisection to the last
  bit), so that the integrand is smooth on every panel.  The target is
  :data:`TOL` times the length of the range; the tests compare with closed forms
  to 1e-9.

The survival function is SciPy's ``sf`` (the complementary CDF computed
directly, not 1 - cdf), clipped to [0, 1].
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from ..distortions import U, Distortion, breakpoints, numeric_derivative
from ..riskmetric import finite_support, mixture_value as _finite_mixture_value, wasserstein1_finite
from .law import FiniteLaw
from .quadrature import Integral, integrate
from ..errors import ArgumentError

__all__ = ["TOL", "knots", "survival", "complement", "h_at_mixture", "h_prime_at_mixture", "survival_left", "crossings", "union_support", "all_discrete",
           "value", "arm_values", "mixture_value", "mixture_integral", "mixture_gradient", "wasserstein1",
           "h_breakpoints"]

#: Target of the quadrature's summed error estimate, per unit length of the range of integration.
TOL = 1e-12


def all_discrete(laws) -> bool:
    """True if every law is Bernoulli, finite or empirical."""
    return all(isinstance(law, FiniteLaw) for law in laws)


def _check_laws(laws) -> tuple:
    laws = tuple(laws)
    if not laws:
        raise ArgumentError("laws", "need at least one law")
    for i, law in enumerate(laws, start=1):
        if not hasattr(law, "sf") or not hasattr(law, "support"):
            raise ArgumentError("laws", f"arm {i} is not a law: {law!r}")
    return laws


def _check_alpha(alpha, K: int) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    if a.ndim == 0 or a.shape[-1] != K:
        raise ArgumentError("alpha", f"expected shape (..., {K}), got {a.shape}")
    if np.any(~np.isfinite(a)) or np.any(a < 0) or np.any(np.abs(a.sum(axis=-1) - 1.0) > 1e-9):
        raise ArgumentError("alpha", "rows must be non-negative and sum to 1 (within 1e-9)")
    return a


def union_support(laws) -> tuple[np.ndarray, np.ndarray]:
    """(xs, probs): the sorted union of the atoms of discrete laws and each law's masses on it (K, m)."""
    xs = np.unique(np.concatenate([np.asarray(law.atoms, dtype=float) for law in laws]))
    probs = np.zeros((len(laws), xs.size))
    for i, law in enumerate(laws):
        probs[i, np.searchsorted(xs, law.atoms)] = law.masses
    return xs, probs


def knots(laws) -> np.ndarray:
    """0, each support's ends, every atom and every known density kink, sorted and distinct."""
    pts = [0.0]
    for law in laws:
        lo, hi = law.support
        pts += [lo, hi]
        pts += list(getattr(law, "atoms", ()) if isinstance(law, FiniteLaw) else getattr(law, "kinks", ()))
    return np.unique(np.asarray(pts, dtype=float))


def survival(laws, x) -> np.ndarray:
    """S_i(x) = P(X_i > x) of every law at the points x: shape (K, n)."""
    x = np.asarray(x, dtype=float)
    return np.vstack([np.asarray(law.sf(x), dtype=float).reshape(x.shape) for law in laws])


def survival_left(laws, x) -> np.ndarray:
    """P(X_i >= x): the left limit S_i(x-) (continuous laws: S_i(x))."""
    x = np.asarray(x, dtype=float)
    rows = []
    for law in laws:
        if isinstance(law, FiniteLaw):
            k = np.searchsorted(np.asarray(law.atoms), x, side="left")
            tails = np.concatenate([[1.0], law.tails()])
            rows.append(tails[k])
        else:
            rows.append(np.asarray(law.sf(x), dtype=float))
    return np.vstack(rows)


@lru_cache(maxsize=512)
def _breakpoints(expr: sp.Expr) -> tuple[float, ...]:
    return tuple(float(c) for c in breakpoints(expr))


def h_breakpoints(d: Distortion) -> tuple[float, ...]:
    """Interior points of (0, 1) where h switches pieces (kinks of ``min``/``max``/``abs``)."""
    return _breakpoints(d.expr)


def crossings(levels, laws, alpha, grid: np.ndarray) -> np.ndarray:
    """The x inside the panels of ``grid`` where S_alpha = sum_i alpha_i S_i falls through a level c.

    On each open panel (k_j, k_{j+1}) of ``grid`` (which contains every atom and
    support end), S_alpha is continuous and non-increasing, from S_alpha(k_j)
    to S_alpha(k_{j+1}-); a level strictly between them is crossed once, at the
    point found by ``brentq`` (to xtol 4e-16 relative).  Levels met at a knot need
    no new point.
    """
    levels = [float(c) for c in levels]
    if not levels or grid.size < 2:
        return np.empty(0)
    a = np.asarray(alpha, dtype=float)
    right = a @ survival(laws, grid)
    left = a @ survival_left(laws, grid)
    out = []
    for j in range(grid.size - 1):
        s0, s1 = right[j], left[j + 1]
        for c in levels:
            if s1 < c < s0:
                g = lambda x, c=c: float(a @ survival(laws, np.array([x]))[:, 0]) - c
                lo, hi = grid[j], grid[j + 1]
                try:
                    out.append(brentq(g, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=400))
                except ValueError:  # an end of the bracket already sits on the level: no interior kink
                    continue
    return np.unique(np.asarray(out, dtype=float))


def complement(laws, x) -> np.ndarray:
    """F_i(x) = P(X_i <= x) = 1 - S_i(x) of every law at the points x, each from the law's own CDF: shape (K, n).

    Not 1 - S_i(x): where S_i(x) is within 1e-8 of 1 that difference keeps few of its digits (beta(5, 2) at
    x = 1e-3 has F = 6e-15, of which 1 - S keeps one digit).
    """
    x = np.asarray(x, dtype=float)
    return np.vstack([np.asarray(law.cdf(x), dtype=float).reshape(x.shape) for law in laws])


_V = sp.Symbol("v", real=True)


@lru_cache(maxsize=256)
def _two_sided(expr: sp.Expr):
    """h as a function of u and v = 1 - u, v given, when h has a root or a negative power of 1 - u; else None.

    (1 - u)**0.2 near u = 1 is an integrable singularity of h(S_alpha(x)) at the lower end of the support;
    with 1 - S_alpha from 1 - u computed in floats, the integrand is noise there (beta(5, 2):
    one digit at x = 1e-3) and adaptive quadrature never meets its tolerance: 274 680 nodes for
    ``u**0.3*(1-u)**0.2`` on three beta arms, against 750 with v from the CDFs.
    """
    singular = any(p.is_Pow and p.base == 1 - U and not (p.exp.is_Integer and p.exp >= 0)
                   for p in sp.preorder_traversal(expr))
    if not singular:
        return None
    raw = sp.lambdify((U, _V), expr.subs(1 - U, _V), modules="numpy")

    def fn(s, c):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(raw(s, c), dtype=float) * np.ones_like(s)

    return fn


#: Where 1 - S_alpha is below this, it is taken from the CDFs (:func:`complement`); above, 1 - S_alpha keeps at
#: least 10 of its digits and is used as it is (the same value as the route without the complement).
NEAR_ONE = 2.0**-20


def _one_minus(s: np.ndarray, laws, a: np.ndarray, x) -> np.ndarray:
    """1 - s, from the CDFs where s is within :data:`NEAR_ONE` of 1 (where the difference loses its digits).

    1 - sum_i a_i S_i = (1 - sum_i a_i) + sum_i a_i F_i: the first term keeps the weights as the floats they
    are (they may sum to 1 - 1e-16), so that the value is 1 - s exactly where s is a sum of S_i = 1.
    """
    c = 1.0 - s
    near = c < NEAR_ONE
    if np.any(near):
        rest = 1.0 - np.sum(a, axis=-1)
        F = a @ complement(laws, x)
        c = np.where(near, np.clip((rest[:, None] if np.ndim(rest) else rest) + F, 0.0, 1.0), c)
    return c


def h_at_mixture(d: Distortion, laws, a: np.ndarray, x) -> np.ndarray:
    """h(S_a(x)) for the rows ``a`` of mixture weights (shape (m, K) or (K,)), at the points x.

    Where h has a root or a negative power of 1 - u (:func:`_two_sided`) 1 - S_a is taken from the
    CDFs (:func:`complement`), so h keeps its digits near the lower end of the support.
    """
    s = np.clip(a @ survival(laws, x), 0.0, 1.0)
    two = _two_sided(d.expr)
    if two is None:
        return d.numeric(s)
    return two(s, _one_minus(s, laws, a, x))


def h_prime_at_mixture(d: Distortion, laws, a: np.ndarray, x, S: np.ndarray) -> np.ndarray:
    """h'(S_a(x)) given S = survival(laws, x), with 1 - S_a from the CDFs where h' has a root or a negative power
    of 1 - u (:func:`_two_sided`): (1 - u)**(-4/5) at S_a rounded to 1 is inf, where the exact h' is finite."""
    s = np.clip(a @ S, 0.0, 1.0)
    two = _two_sided(sp.diff(d.expr, U))
    if two is None:
        return numeric_derivative(d)(s)
    return two(s, _one_minus(s, laws, a, x))


def _integrand(d: Distortion, laws, a: np.ndarray):
    def f(x):
        return h_at_mixture(d, laws, a, x)

    return f


def mixture_integral(d: Distortion, laws, alpha, tol: float = TOL) -> Integral:
    """V(alpha) = int_0^b h(S_alpha(x)) dx by adaptive quadrature, with its error estimate.

    Arms with alpha_i = 0 are left out (their atoms and kinks do not matter).
    Used for laws with a continuous component; discrete laws are exact in
    :func:`mixture_value`.
    """
    laws = _check_laws(laws)
    a = _check_alpha(alpha, len(laws))
    if a.ndim != 1:
        raise ArgumentError("alpha", f"expected shape ({len(laws)},), got {a.shape}")
    keep = a > 0
    sub = tuple(law for law, k in zip(laws, keep) if k)
    w = a[keep]
    grid = knots(sub)
    pts = np.union1d(grid, crossings(h_breakpoints(d), sub, w, grid))
    span = float(pts[-1] - pts[0]) if pts.size > 1 else 0.0
    return integrate(_integrand(d, sub, w), pts, tol * max(1.0, span))


def mixture_gradient(d: Distortion, laws, alpha, tol: float = TOL) -> tuple[float, np.ndarray]:
    """V(alpha) and its gradient dV/dalpha_i = int h'(S_alpha(x)) S_i(x) dx, one vector quadrature.

    The range is cut as in :func:`mixture_integral` (the kinks of h are crossed at knots), so the
    integrand is smooth on every panel; at a kink the one-sided derivative that SymPy's lambdified
    h' gives is used, which matters only where S_alpha stays at a kink on a whole piece (then V is
    not differentiable and this is one of its one-sided directional slopes).
    """
    laws = _check_laws(laws)
    a = _check_alpha(alpha, len(laws))
    grid = knots(laws)
    pts = np.union1d(grid, crossings(h_breakpoints(d), laws, a, grid))

    def f(x):
        S = survival(laws, x)
        with np.errstate(all="ignore"):
            # where S_i = 0 the weight of arm i does not move S_alpha: no slope, even where h' is infinite
            return np.vstack([h_at_mixture(d, laws, a, x)[None, :],
                              np.where(S == 0.0, 0.0, h_prime_at_mixture(d, laws, a, x, S) * S)])

    span = float(pts[-1] - pts[0]) if pts.size > 1 else 0.0
    out = np.asarray(integrate(f, pts, tol * max(1.0, span)).value, dtype=float)
    return float(out[0]), out[1:]


def mixture_value(d: Distortion, laws, alpha) -> np.ndarray:
    """V(alpha) = U_h(sum_i alpha_i F_i) (``eq:V``) for any laws, vectorised over leading axes of alpha.

    Exact for discrete laws (union of the atoms, :func:`rsb_theory.riskmetric.mixture_value`);
    adaptive quadrature otherwise (:func:`mixture_integral`, row by row).
    """
    laws = _check_laws(laws)
    a = _check_alpha(alpha, len(laws))
    if all_discrete(laws):
        xs, probs = union_support(laws)
        return np.asarray(_finite_mixture_value(d.numeric, xs, probs, a), dtype=float)
    rows = a.reshape(-1, len(laws))
    out = np.array([mixture_integral(d, laws, row).value for row in rows], dtype=float)
    return out.reshape(a.shape[:-1]) if a.ndim > 1 else out[0]


def value(d: Distortion, law) -> float:
    """U_h(F) of one law (``eq:wang_def``): exact for discrete laws, adaptive quadrature otherwise."""
    if isinstance(law, FiniteLaw):
        return float(finite_support(d.numeric, law.atoms, law.masses))
    return float(mixture_integral(d, (law,), np.array([1.0])).value)


def arm_values(d: Distortion, laws) -> np.ndarray:
    """U_h(F_i) of each arm alone (the solitary values)."""
    return np.array([value(d, law) for law in _check_laws(laws)], dtype=float)


def wasserstein1(law_a, law_b, tol: float = TOL) -> float:
    """W1(F_a, F_b) = int |F_a - F_b| dx (``lemma:lipschitz-wasserstein``).

    Exact on the union of the atoms for two discrete laws; otherwise adaptive
    quadrature of |S_a - S_b| split at both laws' knots (the crossings of the two
    survival functions are found by the refinement).
    """
    pair = (law_a, law_b)
    if all_discrete(pair):
        xs, probs = union_support(pair)
        return float(wasserstein1_finite(xs, probs[0], probs[1]))
    grid = knots(pair)
    span = float(grid[-1] - grid[0]) if grid.size > 1 else 0.0
    res = integrate(lambda x: np.abs(np.diff(survival(pair, x), axis=0))[0], grid, tol * max(1.0, span))
    return float(res.value)
