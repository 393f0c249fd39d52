"""The constants of the eps-dependent theorems chained through their proofs' own displayed steps.

Each proof in the appendix ends with a bound assembled from the bounds of its steps; this module writes that
assembly once, as SymPy expressions in the symbols of :mod:`.symbols` (plus ``S`` = sqrt(2 e log T) + 32, the
radius of ``eq:UCB_confidence_sets`` without 16/sqrt(tau), ``G`` the size of the etc grid, ``N`` the exploration
length, ``delta``), so that a check can compare the theorem's printed constant with what its proof gives:

* :func:`etc_discrete_chain` -- ``theorem: ETC upper bound``: A_1 = 0, A_2 <= B P(a_N not in OPT) with the union
  bound of ``eq:E2C`` / ``eq:E3C`` at the exploration length N (``eq: ETC A2T final``), A_3 <= L K W^q (2N/T)^q
  (``eq: ETC A3T final``);
* :func:`etc_miss_probability` -- the right side of ``eq:E3C`` at a given N: 1/delta with the N printed in the
  appendix (``eq:number of samples``, delta inside the log), delta (G + 1)/(eps^-(K-1) + 1) with 1/delta;
* :func:`ucb_discrete_chain` -- ``theorem:UCB upper bound``: for RS-UCB-M the terms B_1 (``eq:A_1 bound
  refer``), B_21 (``eq:A21``), B_22 (``eq:UCB_UB12``); for CE-UCB-M the bracket of ``eq:discrete_error_CE``
  (C_5, the C_4 and C_1 terms), with the per-arm miss probability of the proof (2/T^2 by ``eq:probi``) as a
  parameter;
* :func:`rate_unit` and :func:`leading_coefficient` -- the common factor (c eps^-1/2 rho^-1/2 T^-1/2 S)^q of the
  UCB bounds and the coefficient of a bound in front of it as T -> oo (log T kept apart).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .symbols import B, K, L, T, W, eps, q, rho
from ..errors import ArgumentError

__all__ = ["S", "G", "N", "delta", "EtcChain", "etc_discrete_chain", "etc_miss_probability", "UcbChain",
           "ucb_discrete_chain", "rate_unit", "leading_coefficient"]

#: sqrt(2 e log T) + 32, the radius of ``eq:UCB_confidence_sets`` is 16 S/sqrt(tau).
S = sp.Symbol("S", positive=True)
#: The number of points of the etc grid (``eq:E2C``: printed as at most eps^-(K-1)).
G = sp.Symbol("G", positive=True)
#: The exploration length N(eps) of RS-ETC-M.
N = sp.Symbol("N", positive=True)
#: The confidence level of ``eq:number of samples``.
delta = sp.Symbol("delta", positive=True)


@dataclass(frozen=True)
class EtcChain:
    """The discrete regret of RS-ETC-M as the proof of ``theorem: ETC upper bound`` assembles it.

    Attributes
    ----------
    A2 : sympy.Expr
        B x (miss probability) with delta = 1/T^2, the miss probability given.
    A3 : sympy.Expr
        L K W^q (2 N/T)^q.
    total : sympy.Expr
        A_1 + A_2 + A_3 with A_1 = 0.
    """

    A2: sp.Expr
    A3: sp.Expr
    total: sp.Expr


def etc_miss_probability(corrected: bool) -> sp.Expr:
    """The right side of ``eq:E3C`` at the exploration length of ``eq:number of samples`` (y = (D/(2KL))^(1/q)).

    With n = N/K and sqrt(n) = (2KL/D)^(1/q) (512 + 16 sqrt(e) s), s^2 the logarithm of ``eq:number of samples``,
    the exponent of eq:E1C is exactly s^2, so 2K e^(-s^2) (eps^-(K-1) + 1) (the printed count) times
    (G + 1)/(eps^-(K-1) + 1) (the union of eq:E2C over all G grid points) is returned:

    * ``corrected=False``: the log as printed, log(2 K delta (eps^-(K-1) + 1)) -> (G + 1)/(2 K delta (E + 1)) 2K
      = (G + 1)/(delta (E + 1));
    * ``corrected=True``: log(2 K (eps^-(K-1) + 1)/delta) -> delta (G + 1)/(E + 1).
    """
    E = eps ** (1 - K)
    arg = 2 * K * (E + 1) / delta if corrected else 2 * K * delta * (E + 1)
    return sp.simplify(2 * K * (G + 1) / arg)


def etc_discrete_chain(corrected: bool = True) -> EtcChain:
    """A_1 + A_2 + A_3 of ``eq: Regret_DISCRET_ETC`` from the bounds of the steps (delta = 1/T^2).

    ``corrected``: the exploration length with 1/delta in the log (the theorem's own N(eps) of
    ``eq:number of samples main paper``, T^2 = 1/delta); False: the appendix's ``eq:number of samples``.
    """
    A2 = B * sp.Min(1, etc_miss_probability(corrected).subs(delta, 1 / T**2))
    A3 = L * K * W**q * (2 * N / T) ** q
    return EtcChain(A2, A3, A2 + A3)


@dataclass(frozen=True)
class UcbChain:
    """The discrete regret of RS-UCB-M or CE-UCB-M as its proof assembles it.

    Attributes
    ----------
    terms : dict of str to sympy.Expr
        The bounds of the steps (already divided by T where the proof writes (1/T)[...]).
    dominating : str
        The key of the term the proof calls dominating (B_3 / C_5).
    total : sympy.Expr
    unit : sympy.Expr
        The rate (c eps^-1/2 rho^-1/2 T^-1/2 S)^q the printed bound is a multiple of (c = 64 or 32).
    """

    terms: dict
    dominating: str
    total: sp.Expr
    unit: sp.Expr


def rate_unit(c: int) -> sp.Expr:
    """(c eps^-1/2 rho^-1/2 T^-1/2 S)^q, the factor of ``eq:theorem_lastline`` (c = 64) and ``eq:theorem_lastline_CE``
    (c = 32)."""
    return (c * S / sp.sqrt(eps * rho * T)) ** q


def _rs_ucb_terms(B, L, K, W, P0) -> tuple[dict, str, int]:
    """RS-UCB-M's terms (``proof:UCB upper bound``), the dominating one and the rate's c."""
    return ({
        "B_1": B * P0,  # eq:A_1 bound refer
        "B_21": L * K / T * (32 / sp.sqrt(rho / 4)) ** q * T ** (1 - q / 2) * (S / sp.sqrt(eps)) ** q,  # eq:A21
        "B_22": 2 * L * K * W**q * (T * P0 + (K / T) ** q),  # eq:UCB_UB12 with lemma:probability of E3
    }, "B_21", 64)


def _ce_ucb_terms(B, L, K, W, P0) -> tuple[dict, str, int]:
    """CE-UCB-M's terms (``Appendix:CE-UCB-M_algorithm``), the dominating one and the rate's c."""
    return ({
        "C_1": B * P0,
        "C_5": 2 * T ** (1 - q / 2) * L * K * (32 * S / sp.sqrt(rho * eps)) ** q / T,  # eq:CEUCB3 twice
        "C_4": 2 * L * K * W**q * (T * P0 + (K / T) ** q),
    }, "C_5", 32)


#: The proofs of ``theorem:UCB upper bound``, by the paper's label of each (a policy's ``proof``).
UCB_PROOFS = {"proof:UCB upper bound": _rs_ucb_terms, "Appendix:CE-UCB-M_algorithm": _ce_ucb_terms}


def ucb_discrete_chain(proof: str, miss: sp.Expr = 2) -> UcbChain:
    """The terms of the discrete regret of ``theorem:UCB upper bound``'s proof.

    Parameters
    ----------
    proof : {"proof:UCB upper bound", "Appendix:CE-UCB-M_algorithm"}
        The paper's label of the proof (RS-UCB-M's or CE-UCB-M's; :data:`UCB_PROOFS`).
    miss : sympy.Expr
        The per-arm miss probability times T^2 (2 by ``eq:probi``; the CE-UCB-M section prints 1).
    """
    if proof not in UCB_PROOFS:
        raise ArgumentError("proof", f"{proof!r} is not one of {', '.join(UCB_PROOFS)}")
    P0 = (miss / T**2 + 1) ** K - 1  # eq:probi's sum over non-empty sets of arms
    terms, dominating, c = UCB_PROOFS[proof](B, L, K, W, P0)
    return UcbChain(terms, dominating, sum(terms.values()), rate_unit(c))


def leading_coefficient(expr: sp.Expr, unit: sp.Expr) -> sp.Expr:
    """lim_{T -> oo} expr/unit with S (log T) held fixed: the constant in front of the rate.

    Term by term: the T-exponent of each term of ``expr`` (:func:`.exponents.log_derivative`) is compared with the
    unit's; a term of lower order (e.g. T ((2/T^2 + 1)^K - 1) ~ 2K/T against T^(-q/2), for a numeric q) contributes
    0, a term of the same order its ratio to the unit (free of T).
    """
    from .exponents import log_derivative

    target = log_derivative(unit, T)
    out = sp.Integer(0)
    for t in sp.Add.make_args(expr):
        e = log_derivative(t.subs(K, 2), T)  # the order in T does not depend on K (SymPy's limit needs a number)
        diff = sp.simplify(e - target)
        if diff.is_negative:
            continue
        if diff != 0:
            raise ArgumentError("expr", f"the term {t} grows faster than the unit {unit}")
        out += sp.powsimp(sp.expand_power_base(t / unit, force=True), force=True)
    return sp.simplify(out)
