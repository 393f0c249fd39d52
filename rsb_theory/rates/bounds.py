"""The eps-dependent regret bounds of ``theorem: ETC upper bound`` and ``theorem:UCB upper bound``
with their side conditions as data, and ``lemma:Delta_error``."""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .constants import M_eps, N_eps
from .symbols import B, Delta_eps, K, L, T, T_eps, W, eps, q, r, rho

__all__ = ["delta_error_bound", "EpsBound", "etc_bound_eps", "ucb_bound_eps"]

_E = sp.E


def delta_error_bound() -> sp.Expr:
    """Upper bound on the discretisation error Delta(eps).

    Implements ``lemma:Delta_error``: Delta(eps) <= L (K W)^r (eps/2)^r.

    Returns
    -------
    sympy.Expr
    """
    return L * (K * W) ** r * (eps / 2) ** r


@dataclass(frozen=True)
class EpsBound:
    """An eps-dependent regret bound with its side conditions as data.

    Attributes
    ----------
    expression : sympy.Expr
        ``discrete_regret + Delta_eps`` (``eq:regret_decomposition``).
    discrete_regret : sympy.Expr
        The bound on the discrete regret (``eq:regret_decomposition2``).
    side_conditions : tuple of sympy relationals
        Conditions on T under which the theorem states the bound.
    parameter_ranges : tuple of sympy relationals
        Standing ranges of the parameters (q in (0, 1], rho in (0, 1)).
    label : str
        The paper label implemented.
    """

    expression: sp.Expr
    discrete_regret: sp.Expr
    side_conditions: tuple
    parameter_ranges: tuple
    label: str


def etc_bound_eps() -> EpsBound:
    """RS-ETC-M regret bound for a fixed eps.

    Implements ``theorem: ETC upper bound``::

        R^E(T) <= (L K + W^-q) (3 W M(eps) log T / T)^q + Delta(eps),
        valid for T > N(eps).

    Returns
    -------
    EpsBound
        ``side_conditions == (T > N(eps),)``.
    """
    discrete = (L * K + W ** (-q)) * (3 * W * M_eps() * sp.log(T) / T) ** q
    return EpsBound(
        expression=discrete + Delta_eps,
        discrete_regret=discrete,
        side_conditions=(sp.StrictGreaterThan(T, N_eps()),),
        parameter_ranges=(sp.Le(q, 1),),
        label="theorem: ETC upper bound",
    )


def ucb_bound_eps() -> EpsBound:
    """RS-UCB-M / CE-UCB-M regret bound for a fixed eps.

    Implements ``theorem:UCB upper bound`` (``eq:UCB regret``)::

        R^pi(T) <= [B + L (W^q + 1)] [64/sqrt(eps rho T) (sqrt(2 e log T) + 32)]^q
                   + Delta(eps),   valid for T > max(e^K, T(eps)).

    Returns
    -------
    EpsBound
        ``side_conditions == (T > exp(K), T > T_eps)``; the numeric T(eps) is
        :func:`T_of_eps`.
    """
    discrete = (B + L * (W**q + 1)) * (
        64 / sp.sqrt(eps * rho * T) * (sp.sqrt(2 * _E * sp.log(T)) + 32)
    ) ** q
    return EpsBound(
        expression=discrete + Delta_eps,
        discrete_regret=discrete,
        side_conditions=(
            sp.StrictGreaterThan(T, sp.exp(K)),
            sp.StrictGreaterThan(T, T_eps),
        ),
        parameter_ranges=(sp.Le(q, 1), sp.StrictLessThan(rho, 1)),
        label="theorem:UCB upper bound",
    )
