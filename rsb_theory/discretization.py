"""Discretisation error and gap for Bernoulli instances.

* Delta(eps) of ``eq:regret_decomposition1``: V(alpha*) - V(a*), with a* the
  discrete optimum ``eq:discrete optimal mixture``;
* Delta_min(eps) of ``eq:discrete_gap``: the gap between the optimum and the
  best value *outside* the set of optimal grid points (``n_optimal`` says how
  many there are; with several, the literal ``a != a*`` reading is 0);
* (W of the paper's assumptions is :func:`rsb_theory.oracle.W_bernoulli`.)

The discrete optimum is found here by full enumeration of the grid (the
definition), with the objective's one evaluation
(:class:`rsb_theory.objectives.ETCObjective` at the true means), or by the
branch and bound of :mod:`rsb_theory.argmax`; :data:`MAX_ENUMERATION` caps the
grid size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import argmax as am
from .argmax import MAX_ENUMERATION, TIE_TOL
from .distortions import Distortion
from .grids import Grid
from .objectives import ETCObjective
from .profile import of
from .errors import ArgumentError


def check_p(p) -> np.ndarray:
    """Bernoulli means as a float array; ValueError naming ``p`` if invalid."""
    arr = np.asarray(p, dtype=float)
    if arr.ndim != 1 or arr.size < 2:
        raise ArgumentError("p", f"need at least two Bernoulli means, got {p!r}")
    if np.any(~np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ArgumentError("p", f"means must lie in [0, 1], got {p!r}")
    return arr


@dataclass(frozen=True)
class DiscreteOptimum:
    """The discrete optimum of a Bernoulli instance on one grid.

    Attributes
    ----------
    alpha_star_value : float
        V(alpha*) = max of h on [min p, max p] (``eq:optimal alpha``).
    a_star : numpy.ndarray
        First optimal grid point in lexicographic order of (n_1, ..., n_K).
    value : float
        V(a*).
    Delta : float
        ``eq:regret_decomposition1``.
    Delta_min : float
        ``eq:discrete_gap`` (gap to the best non-optimal grid point).
    n_optimal : int
        Number of grid points within :data:`TIE_TOL` of the optimum.
    grid_size : int
    """

    eps: float
    grid: str
    alpha_star_value: float
    a_star: np.ndarray
    value: float
    Delta: float
    Delta_min: float
    n_optimal: int
    grid_size: int


@dataclass(frozen=True)
class GridOptimum:
    """The optimum of V over one grid, by enumeration (no reference to alpha*)."""

    a_star: np.ndarray
    value: float
    Delta_min: float
    n_optimal: int
    grid_size: int


def enumerate_optimum(d: Distortion, p, eps: float, grid: str = "ucb") -> GridOptimum:
    """Best grid point (first in lexicographic order of (n_1, ..., n_K)), Delta_min and ties.

    V(a) = h(<a, p>) for Bernoulli arms (``eq:V``); every grid point is evaluated
    by :meth:`rsb_theory.objectives.Objective.values_at` (the evaluation of the
    grid searches).

    Raises
    ------
    ValueError
        Bad ``p``, ``eps`` or ``grid`` (message names the argument), or a grid
        larger than :data:`MAX_ENUMERATION`.
    """
    p = check_p(p)
    g = Grid(p.size, float(eps), grid)
    if g.size > MAX_ENUMERATION:
        raise ArgumentError("eps", f"the {grid} grid has {g.size} points, more than {MAX_ENUMERATION} to enumerate")
    pts = g.points()
    values = ETCObjective.build(d, p[None, :]).values_at(g, g.counts(), np.zeros(g.size, dtype=np.int64))
    best = float(values.max())
    optimal = values >= best - TIE_TOL
    first = int(np.argmax(optimal))
    rest = values[~optimal]
    return GridOptimum(pts[first], float(values[first]), float(best - rest.max()) if rest.size else float("inf"),
                       int(optimal.sum()), g.size)


def fast_optimum(d: Distortion, p, eps: float, grid: str = "ucb") -> GridOptimum:
    """:func:`enumerate_optimum` without enumerating the grid (concave h).

    The ETC objective of :mod:`rsb_theory.argmax` evaluated at the true means
    is V(a) = h(<a, p>) (``eq:V``); its exact branch and bound gives the
    first optimal grid point, and :func:`rsb_theory.argmax.second_best` the
    best value outside the optimal set and the size of that set.  Tests check
    that it agrees with :func:`enumerate_optimum`.

    Raises
    ------
    ValueError
        Bad ``p``, ``eps`` or ``grid``; an h that is not concave (argument ``d``).
    """
    p = check_p(p)
    g = Grid(p.size, float(eps), grid)
    obj = am.etc_objective(d, p[None, :])
    dec = am.argmax(obj, g, method="bnb")
    best, second, n_opt = am.second_best(obj, g, method="bnb")
    gap = float(best[0] - second[0]) if np.isfinite(second[0]) else float("inf")
    return GridOptimum(dec.points[0], float(dec.value[0]), gap, int(n_opt[0]), g.size)


def discrete_optimum(d: Distortion, p, eps: float, grid: str = "ucb", method: str = "auto") -> DiscreteOptimum:
    """Delta(eps), Delta_min(eps) and a* for Bernoulli arms.

    ``method``: ``"enumerate"`` (:func:`enumerate_optimum`, the definition),
    ``"bnb"`` (:func:`fast_optimum`, concave h), ``"auto"`` (bnb for concave h,
    else enumeration).
    """
    if method not in ("auto", "enumerate", "bnb"):
        raise ArgumentError("method", f"expected auto, enumerate or bnb, got {method!r}")
    if method == "auto":
        method = "bnb" if d.shape.is_concave else "enumerate"
    opt = fast_optimum(d, p, eps, grid) if method == "bnb" else enumerate_optimum(d, p, eps, grid)
    p = check_p(p)
    v_star = of(d).sup_h((float(p.min()), float(p.max())))  # V* = max of h on the hull of the means (eq:V)
    return DiscreteOptimum(float(eps), grid, v_star, opt.a_star, opt.value, v_star - opt.value, opt.Delta_min,
                           opt.n_optimal, opt.grid_size)
