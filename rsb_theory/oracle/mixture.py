"""The oracle mixture of ``eq:optimal alpha``: the choice of route and the certificate of the result."""

from __future__ import annotations

import numpy as np

from ..distortions import Distortion
from .certificate import optimality_gap
from .closed_form import closed_form_route
from .convex import cvxpy_route
from .dcp import NotDCPError
from .instance import bernoulli_arms, check_instance, is_two_point
from .instance import value as mixture_value
from .result import ALPHA_SNAP, METHODS, Oracle
from .search import search_route
from ..errors import ArgumentError

__all__ = ["optimal_mixture", "optimal_mixture_bernoulli", "check_arguments"]


def check_arguments(d: Distortion, method: str, seed, methods: tuple[str, ...]) -> None:
    """The checks of ``d``, ``method`` (one of ``methods``) and ``seed`` shared by the oracle's entry points."""
    if method not in methods:
        raise ArgumentError("method", f"expected one of {methods}, got {method!r}")
    if not isinstance(d, Distortion):
        raise ArgumentError("d", f"expected a Distortion, got {d!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ArgumentError("seed", f"expected a non-negative integer, got {seed!r}")


def _with_gap(d: Distortion, xs, arms, o: Oracle) -> Oracle:
    """``o`` with the supergradient bound of :func:`optimality_gap` (concave h) in its evidence and ``gap``.

    A numeric route's weights below :data:`ALPHA_SNAP` are set to 0 first (V recomputed), as for
    continuous laws, so that every kind of arm reports alpha* the same way.
    """
    a = np.asarray(o.alpha, dtype=float)
    if o.method != "closed_form" and np.any((a > 0) & (a < ALPHA_SNAP)):
        a = np.where(a < ALPHA_SNAP, 0.0, a)
        a = a / a.sum()
        o = Oracle(tuple(float(x) for x in a), float(mixture_value(d, xs, arms, a)), o.method,
                   o.evidence + f"; weights below {ALPHA_SNAP:g} set to 0", o.gap)
    gap = optimality_gap(d, xs, arms, o.alpha)
    if gap is None:
        return o
    note = (f"; supergradient bound (h concave, {d.shape.curvature_method}): V(alpha*) - V(alpha) <= {gap:.3g}")
    return Oracle(o.alpha, o.value, o.method, o.evidence + note, gap)


def optimal_mixture(d: Distortion, support, arm_probs, method: str = "auto", seed: int = 0) -> Oracle:
    """The oracle mixture alpha* of ``eq:optimal alpha`` for finite-support arms.

    Parameters
    ----------
    d : Distortion
    support : array_like, shape (m,)
        Common support of the arms, sorted ascending (negative points allowed).
    arm_probs : array_like, shape (K, m)
        Row i is the law of arm i (entries in [0, 1], rows summing to 1), K >= 2.
    method : {"auto", "cvxpy", "closed_form", "search"}
        ``auto``: closed form for two-point arms (Bernoulli), else cvxpy if
        :func:`to_cvxpy` translates h (a DCP-concave translation certifies
        that h is concave), else search.  See the module docstring for what
        each route proves.
    seed : int, optional
        Seed of the Dirichlet samples of the ``search`` route (K > 3).

    Returns
    -------
    Oracle

    Raises
    ------
    ValueError
        Bad ``support``, ``arm_probs`` (shape, K < 2, entries, row sums) or
        ``method``; ``closed_form`` on arms that are not two-point.
    NotDCPError
        ``cvxpy`` requested for an h that :func:`to_cvxpy` refuses.
    """
    check_arguments(d, method, seed, METHODS)
    xs, arms = check_instance(support, arm_probs)
    if method == "closed_form":
        if not is_two_point(xs):
            raise ArgumentError("support", f"closed form needs two-point arms, got support of size {xs.size}")
        return _with_gap(d, xs, arms, closed_form_route(d, xs, arms))
    if method == "cvxpy":
        return _with_gap(d, xs, arms, cvxpy_route(d, xs, arms))
    if method == "search":
        return _with_gap(d, xs, arms, search_route(d, xs, arms, seed))
    if is_two_point(xs):
        return _with_gap(d, xs, arms, closed_form_route(d, xs, arms))
    try:  # a DCP-concave translation is itself a certificate that h is concave
        return _with_gap(d, xs, arms, cvxpy_route(d, xs, arms))
    except NotDCPError:
        return _with_gap(d, xs, arms, search_route(d, xs, arms, seed))


def optimal_mixture_bernoulli(d: Distortion, p, method: str = "auto", seed: int = 0) -> Oracle:
    """:func:`optimal_mixture` for Bernoulli arms with means ``p`` (K >= 2, in [0, 1]).

    A mixture of Bernoulli arms is Bern(<alpha, p>), so V(alpha) = h(<alpha, p>)
    (``eq:V``, ``eq:h_1_p``) and ``auto`` is the exact closed form.
    """
    support, arms = bernoulli_arms(p)
    return optimal_mixture(d, support, arms, method, seed)
