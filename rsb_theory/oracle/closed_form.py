"""The ``closed_form`` route of the oracle (two-point arms) and alpha* for Bernoulli arms -- the one place.

A mixture of arms on a common two-point support {x_1, x_2} is a two-point law
with P(X = x_2) = <alpha, p>, so V(alpha) = const + (x_2 - x_1) h(<alpha, p>)
(``eq:V``, ``eq:h_1_p`` for Bernoulli arms): the optimum of
``eq:optimal alpha`` is any mixture whose mean hits a maximiser p* of h on
[min p, max p] (:meth:`rsb_theory.profile.DistortionProfile.maximisers`, exact).
:func:`alpha_star_bernoulli` builds it in exact arithmetic; both the oracle and
:func:`rsb_theory.bernoulli_profile.instance_profile` use it.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from ..distortions import Distortion, exact_number
from ..profile import of
from .instance import value
from .result import Oracle

__all__ = ["alpha_star_bernoulli", "closed_form_route"]


def _mixture(pe: list[sp.Expr], q: sp.Expr) -> tuple[np.ndarray, str]:
    """(alpha, how) with <alpha, p> = q for exact means ``pe``; arms named 1..K in ``how``."""
    K = len(pe)
    alpha = np.zeros(K)
    if q in pe:
        i = pe.index(q)
        alpha[i] = 1.0
        return alpha, f"arm {i + 1} alone (p = {q})"
    lo_i = min(range(K), key=lambda i: (pe[i], i))
    hi_i = max(range(K), key=lambda i: (pe[i], -i))
    a, b = pe[lo_i], pe[hi_i]
    lam = (q - a) / (b - a)
    alpha[hi_i] = float(lam)
    alpha[lo_i] = float(1 - lam)
    return alpha, f"arms {lo_i + 1} and {hi_i + 1} mixed with weight {lam} on arm {hi_i + 1}"


def alpha_star_bernoulli(p, p_star) -> np.ndarray:
    """An optimal mixture with <alpha, p> = p* (``eq:optimal alpha`` for Bernoulli arms).

    If p* is an arm's mean, that (lowest-index) arm alone; otherwise the arms
    with the smallest and the largest mean (lowest index among ties), mixed
    with weight (p* - min p) / (max p - min p) on the largest.  Computed in
    exact arithmetic (floats are read by their shortest decimal repr) and
    rounded once.

    Parameters
    ----------
    p : sequence of float or SymPy numbers
        The arms' means, K >= 1.
    p_star : float or SymPy number
        A mean in [min p, max p] (a maximiser of h there).
    """
    pe = [exact_number(x, "p") for x in p]
    return _mixture(pe, exact_number(p_star, "p_star"))[0]


def closed_form_route(d: Distortion, xs, arms) -> Oracle:
    """The exact optimum for two-point arms ``arms`` (K, 2) on the support ``xs``."""
    p = arms[:, 1]
    pe = [exact_number(float(v), "p") for v in p]
    a, b = min(pe), max(pe)
    qs = of(d).maximisers((a, b))
    # prefer a maximiser reached by a single arm (a solitary optimum)
    q = next((q for q in qs if q in pe), qs[0])
    alpha, how = _mixture(pe, q)
    evidence = (
        f"closed form: two-point arms on {{{xs[0]:g}, {xs[1]:g}}} give V(alpha) = const + "
        f"{xs[1] - xs[0]:g} h(<alpha, p>) (eq:V, eq:h_1_p); exact maximisers of h on [{a}, {b}]: "
        f"{', '.join(map(str, qs))} (holder.optimal_means); optimum q* = {q} by {how}"
    )
    return Oracle(tuple(float(v) for v in alpha), value(d, xs, arms, alpha), "closed_form", evidence)
