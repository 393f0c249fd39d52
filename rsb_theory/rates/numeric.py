"""Numeric helpers for the vacuity checks of the bounds (mpmath evaluation, no overflow)."""

from __future__ import annotations

import math
from typing import Callable, Mapping

import mpmath
import sympy as sp

from .symbols import T
from ..errors import ArgumentError

__all__ = ["numeric_in_T", "smallest_nontrivial_T"]


def numeric_in_T(expr: sp.Expr, values: Mapping[sp.Symbol, float]) -> Callable[[float], float]:
    """Turn a bound into a float function of T after substituting ``values``.

    For numeric vacuity checks of ``theorem: ETC upper bound`` and
    ``theorem:UCB upper bound`` (mpmath evaluation, no overflow).

    Parameters
    ----------
    expr : sympy.Expr
    values : mapping Symbol -> number
        Must fix every free symbol except ``T``.

    Returns
    -------
    callable
    """
    e = sp.sympify(expr).subs(dict(values))
    free = e.free_symbols - {T}
    if free:
        raise ValueError(f"unassigned symbols: {sorted(map(str, free))}")
    f = sp.lambdify(T, e, "mpmath")
    return lambda t: float(f(mpmath.mpf(t)))


def smallest_nontrivial_T(
    bound_fn: Callable[[float], float],
    trivial: float,
    T_max: float,
    T_min: int = 2,
    points_per_doubling: int = 4,
) -> int | None:
    """Smallest integer T from which a bound stays below a trivial value.

    Vacuity check for the bounds of ``sec:analysis`` (e.g. the regret is
    trivially at most the range of U_h).

    Evaluates ``bound_fn`` on a geometric grid from ``T_min`` to ``T_max``
    (``points_per_doubling`` points per factor 2), takes the last grid point
    where ``bound_fn >= trivial`` (or is nan), and bisects on the integers
    between it and the next grid point for the crossing.  For bounds that are
    eventually decreasing (all bounds of this module) this is the horizon
    from which the bound is non-vacuous; between grid points monotonicity is
    assumed.

    Parameters
    ----------
    bound_fn : callable float -> float
    trivial : float
        E.g. the largest possible regret.
    T_max : float
    T_min : int, optional
    points_per_doubling : int, optional

    Returns
    -------
    int or None
        None if the bound is not below ``trivial`` at ``T_max``.
    """

    def below(t: float) -> bool:
        v = bound_fn(t)
        return v == v and v < trivial

    T_min = int(T_min)
    T_max_i = int(math.floor(T_max))
    if T_max_i < T_min:
        raise ArgumentError("T_max", f"T_max < T_min = {T_min}")
    ratio = 2.0 ** (1.0 / points_per_doubling)
    grid = [T_min]
    while grid[-1] < T_max_i:
        nxt = max(grid[-1] + 1, int(math.floor(grid[-1] * ratio)))
        grid.append(min(nxt, T_max_i))
    flags = [below(t) for t in grid]
    if not flags[-1]:
        return None
    last_bad = max((i for i, f in enumerate(flags) if not f), default=None)
    if last_bad is None:
        return T_min
    lo, hi = grid[last_bad], grid[last_bad + 1]  # lo not below, hi below
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(mid):
            hi = mid
        else:
            lo = mid
    return hi
