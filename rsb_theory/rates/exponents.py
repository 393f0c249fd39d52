"""The eps-independent exponents of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` and the exponent reader.

A rate is read as ``C * K^k * T^a * (log T)^b`` as T -> oo (resp. K -> oo):
log T is replaced by an independent symbol ``ell`` and the exponents are the
logarithmic derivatives ``x d/dx log(rate)`` (with a limit x -> oo when the
factor is not a pure power, e.g. ``(sqrt(2 e ell) + 32)^q``)
(:func:`term_exponents`).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .symbols import K, T, beta, ell, q, r

__all__ = ["gamma_E", "kappa", "c_E", "c_U", "etc_rate", "ucb_rate", "ucb_side_condition",
           "ucb_exponent_unconditional", "RateOrder", "compare_etc_ucb", "TermExponents", "term_exponents",
           "same", "same_exponents", "log_derivative"]


def gamma_E(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """gamma = 2 beta / (2 beta + r) of ``theorem:RS-ETC-M`` (q unused).

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 2 * beta / (2 * beta + r)


def kappa(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """kappa = (2 beta / q + 2)^-1 of ``corollary:RS-UCB-M`` (r unused).

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 1 / (2 * beta / q + 2)


def c_E(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K-exponent c_E = 2 (1 + (beta + 1)/q) of ``theorem:RS-ETC-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 2 * (1 + (beta + 1) / q)


def c_U(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K-exponent c_U = max(r (1 + 2 kappa / q), 1 - kappa) of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    k = kappa(q, r, beta)
    return sp.Max(r * (1 + 2 * k / q), 1 - k)


def etc_rate(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """[K^c_E log T / T^gamma]^(q r / (2 beta)) of ``theorem:RS-ETC-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return (K ** c_E(q, r, beta) * sp.log(T) / T ** gamma_E(q, r, beta)) ** (q * r / (2 * beta))


def ucb_rate(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K^c_U (log T / T)^(r kappa) of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return K ** c_U(q, r, beta) * (sp.log(T) / T) ** (r * kappa(q, r, beta))


def ucb_side_condition(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Basic:
    """The hypothesis r <= beta + q/2 of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Rel or sympy.logic.boolalg.BooleanAtom
        A relational for symbolic arguments, ``sympy.true``/``sympy.false``
        for numbers.
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return sp.Le(r, beta + q / 2)


def ucb_exponent_unconditional(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """Exponent of log T / T in RS-UCB-M's regret without r <= beta + q/2.

    From ``eq:UCB upper bound appendix`` the regret is the larger of the two
    terms, i.e. the exponent is min(r kappa, (1 - kappa) q / 2); it equals
    r kappa exactly under ``corollary:RS-UCB-M``'s hypothesis.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    k = kappa(q, r, beta)
    return sp.Min(r * k, (1 - k) * q / 2)


@dataclass(frozen=True)
class RateOrder:
    """T-decay and log-power of the two eps-independent rates.

    Attributes
    ----------
    etc_T_decay, ucb_T_decay : sympy.Expr
        d such that the rate is T^-d (log T)^l: q r/(2 beta + r) and
        q r/(2 beta + 2 q).
    etc_log_power, ucb_log_power : sympy.Expr
        q r/(2 beta) and r kappa.
    T_decay_difference : sympy.Expr
        etc_T_decay - ucb_T_decay (positive: RS-ETC-M's bound decays faster).
    """

    etc_T_decay: sp.Expr
    ucb_T_decay: sp.Expr
    etc_log_power: sp.Expr
    ucb_log_power: sp.Expr
    T_decay_difference: sp.Expr


def compare_etc_ucb(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> RateOrder:
    """Compare the rates of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` in T.

    For the claim of section ``RS_UCB_M`` (Discussion) that RS-ETC-M is better
    for Wang's right-tail deviation and RS-UCB-M for Gini deviation.  The
    T-decays q r/(2 beta + r) and q r/(2 beta + 2 q) coincide iff r = 2 q
    (both of those DRs); the log powers then differ.

    Returns
    -------
    RateOrder
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    etc = etc_rate(q, r, beta)
    ucb = ucb_rate(q, r, beta)
    e_T, u_T = -log_derivative(etc, T), -log_derivative(ucb, T)
    return RateOrder(
        etc_T_decay=sp.simplify(e_T),
        ucb_T_decay=sp.simplify(u_T),
        etc_log_power=log_derivative(etc, ell),
        ucb_log_power=log_derivative(ucb, ell),
        T_decay_difference=sp.factor(sp.simplify(e_T - u_T)),
    )


def log_derivative(expr: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """lim_{x->oo} x d/dx log(expr), with log T replaced by ``ell``."""
    e = sp.expand_log(sp.sympify(expr), force=True).subs(sp.log(T), ell)
    le = sp.expand_log(sp.log(e), force=True)
    d = sp.simplify(x * sp.diff(le, x))
    if x in d.free_symbols:
        d = sp.limit(d, x, sp.oo)
    return sp.simplify(d)


@dataclass(frozen=True)
class TermExponents:
    """Leading behaviour C K^K_exponent T^T_exponent (log T)^log_exponent.

    Attributes
    ----------
    T_exponent, K_exponent, log_exponent : sympy.Expr
    """

    T_exponent: sp.Expr
    K_exponent: sp.Expr
    log_exponent: sp.Expr


def term_exponents(expr: sp.Expr) -> TermExponents:
    """Read off the (T, K, log T) exponents of a rate expression.

    Used to re-derive ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``
    (see the module docstring, "Exponent extraction").

    Parameters
    ----------
    expr : sympy.Expr
        A product of powers of T, K, log T and factors with a power-law limit.

    Returns
    -------
    TermExponents
    """
    return TermExponents(
        T_exponent=log_derivative(expr, T),
        K_exponent=log_derivative(expr, K),
        log_exponent=log_derivative(expr, ell),
    )


def same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0


def same_exponents(a: TermExponents, b: TermExponents) -> bool:
    return (
        same(a.T_exponent, b.T_exponent)
        and same(a.K_exponent, b.K_exponent)
        and same(a.log_exponent, b.log_exponent)
    )
