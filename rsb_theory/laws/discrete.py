"""The discrete optimum a* of ``eq:discrete optimal mixture`` for any arm laws, by enumeration of the grid.

For Bernoulli arms :func:`rsb_theory.discretization.discrete_optimum` is the route (exact, branch and
bound); for any laws of :mod:`rsb_theory.laws` this module evaluates V(a) = U_h(sum_i a_i F_i)
(``eq:V``, :func:`rsb_theory.laws.values.mixture_value`: exact for discrete laws, adaptive quadrature
to 1e-9 otherwise) at every point of the grid -- the definition -- and returns the first optimal point
in lexicographic order, Delta(eps) = V(alpha*) - V(a*) (``eq:regret_decomposition1``) and
Delta_min(eps), the gap to the best point outside the optimal set (``eq:discrete_gap``).  The grid is
enumerated only up to a work budget by counts (:data:`MAX_POINTS_CONTINUOUS` quadratures,
:data:`rsb_theory.argmax.MAX_ENUMERATION` exact values), never a time.
"""

from __future__ import annotations

import numpy as np

from ..argmax import MAX_ENUMERATION, TIE_TOL
from ..distortions import Distortion
from ..discretization import DiscreteOptimum
from ..grids import Grid
from .values import all_discrete, mixture_value
from ..errors import ArgumentError

__all__ = ["discrete_optimum_laws", "MAX_POINTS_CONTINUOUS"]

#: Most grid points valued by quadrature (about 2-7 ms of CPU each for K = 4, docs/arms.md).
MAX_POINTS_CONTINUOUS = 20_000


def discrete_optimum_laws(d: Distortion, laws, eps: float, grid: str = "ucb", v_star: float | None = None
                          ) -> DiscreteOptimum:
    """a*, Delta(eps) and Delta_min(eps) of any arm laws on the ``grid`` of level ``eps``.

    Parameters
    ----------
    d : Distortion
    laws : sequence of laws
    eps : float
    grid : {"ucb", "etc"}
    v_star : float, optional
        V(alpha*) (from :func:`rsb_theory.oracle.optimal_mixture_laws`); Delta is then
        v_star - V(a*), else the grid's best value is used and Delta is 0.

    Raises
    ------
    ValueError
        (names ``eps``) a grid above the enumeration budget.
    """
    laws = tuple(laws)
    g = Grid(len(laws), float(eps), grid)
    cap = MAX_ENUMERATION if all_discrete(laws) else MAX_POINTS_CONTINUOUS
    if g.size > cap:
        raise ArgumentError("eps", f"the {grid} grid has {g.size} points; more than {cap} "
                         f"{'exact values' if cap == MAX_ENUMERATION else 'quadratures'} to enumerate")
    pts = g.points()
    values = np.atleast_1d(np.asarray(mixture_value(d, laws, pts), dtype=float))
    best = float(values.max())
    optimal = values >= best - TIE_TOL
    first = int(np.argmax(optimal))
    rest = values[~optimal]
    top = best if v_star is None else float(v_star)
    return DiscreteOptimum(float(eps), grid, top, pts[first], float(values[first]), top - float(values[first]),
                           float(best - rest.max()) if rest.size else float("inf"), int(optimal.sum()), g.size)
