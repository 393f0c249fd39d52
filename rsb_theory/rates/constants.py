"""The constants of the algorithms: N(eps), M(eps) and the confidence radius -- one formula each.

* N(eps) of ``eq:number of samples main paper`` (RS-ETC-M's exploration) and
  M(eps) = N(eps) / log T;
* the numerator 16 (sqrt(2 e log T) + 32) of the radius of
  ``eq:UCB_confidence_sets``.

Each formula is written once, as SymPy factors (:func:`N_factors`,
:func:`radius_numerator`).  The symbolic expressions (:func:`N_eps`,
:func:`ucb_radius`) are their evaluated products; the numeric evaluations the
simulator uses (:func:`N_eps_value`, :func:`radius_constant`) are the same
factors compiled by ``lambdify`` (cached), N(eps) in log space (it overflows a
float for small Delta_min).  The factors are built unevaluated and printed in
the order they are written, so the compiled code performs the floating-point
operations in the order of the formula as printed above -- the order
``rsb_sim.config`` used when it typed the formulas by hand; the values are the
same floats bit for bit (tested), so no tie of the simulator moves.
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache

import sympy as sp

from .symbols import Delta_min, K, L, T, eps, q, tau
from ..errors import ArgumentError

__all__ = ["N_factors", "N_eps", "M_eps", "radius_numerator", "ucb_radius", "N_eps_value", "radius_constant"]


def _u(f, *args):
    """``f(*args)`` without SymPy's automatic evaluation (the operands stay in the written order)."""
    return f(*args, evaluate=False)


def N_factors() -> tuple[tuple[sp.Expr, sp.Expr], ...]:
    """N(eps) as (base, exponent) factors, unevaluated (``eq:number of samples main paper``)::

        N(eps) = (256 K e)^1 (2 K L / Delta_min)^(2/q)
                 [32/sqrt(e) + log^(1/2)(2 K T^2 (eps^-(K-1) + 1))]^2

    with ``L`` the Hölder constant (``\\mcL``) and ``Delta_min`` the symbol for
    Delta_min(eps).
    """
    inner = _u(sp.Mul, 2, K, _u(sp.Pow, T, 2), _u(sp.Add, _u(sp.Pow, eps, 1 - K), 1))
    bracket = _u(sp.Add, _u(sp.Mul, 32, _u(sp.Pow, _u(sp.Pow, sp.E, sp.S.Half), -1)),
                 _u(sp.Pow, _u(sp.log, inner), sp.S.Half))
    return ((_u(sp.Mul, 256, K, sp.E), sp.Integer(1)),
            (_u(sp.Mul, 2, K, L, _u(sp.Pow, Delta_min, -1)), _u(sp.Mul, 2, _u(sp.Pow, q, -1))),
            (bracket, sp.Integer(2)))


def N_eps() -> sp.Expr:
    """Exploration length N(eps) of RS-ETC-M (``eq:number of samples main paper``), the product of :func:`N_factors`.

    Returns
    -------
    sympy.Expr
    """
    return sp.Mul(*(_u(sp.Pow, base, e) for base, e in N_factors())).doit()


def M_eps() -> sp.Expr:
    """M(eps) = N(eps) / log T (``eq:number of samples main paper``).

    Returns
    -------
    sympy.Expr
    """
    return N_eps() / sp.log(T)


def radius_numerator() -> sp.Expr:
    """16 (sqrt(2 e log T) + 32): the numerator of ``eq:UCB_confidence_sets``, unevaluated."""
    return _u(sp.Mul, 16, _u(sp.Add, _u(sp.Pow, _u(sp.Mul, 2, sp.E, _u(sp.log, T)), sp.S.Half), 32))


def ucb_radius(tau_: sp.Expr | float | int = tau) -> sp.Expr:
    """Wasserstein radius of the confidence set C_t(i).

    Implements ``eq:UCB_confidence_sets``: 16 (sqrt(2 e log T) + 32) / sqrt(tau).

    Parameters
    ----------
    tau_ : sympy.Expr or number, optional
        Number of samples tau_t^U(i) of the arm (default: the symbol ``tau``).

    Returns
    -------
    sympy.Expr
    """
    return radius_numerator().doit() / sp.sqrt(sp.sympify(tau_))


def _printer():
    """Python code printer that keeps the written order of sums and products."""
    from sympy.printing.pycode import PythonCodePrinter

    return PythonCodePrinter({"order": "none", "fully_qualified_modules": False, "inline": True,
                              "allow_unknown_functions": True, "user_functions": {}})


@lru_cache(maxsize=None)
def _log_N():
    terms = [sp.log(base, evaluate=False) if e == 1 else _u(sp.Mul, e, sp.log(base, evaluate=False))
             for base, e in N_factors()]
    return sp.lambdify((K, T, eps, L, q, Delta_min), _u(sp.Add, *terms), modules="math", printer=_printer())


@lru_cache(maxsize=None)
def _radius():
    return sp.lambdify((T,), radius_numerator(), modules="math", printer=_printer())


def N_eps_value(K: int, T: int, eps: float, L: float, q: float, Delta_min: float) -> float:
    """N(eps) of ``eq:number of samples main paper`` in floating point (:func:`N_factors`, compiled).

    ``inf`` when Delta_min <= 0 (no gap: the formula's limit) or when N exceeds
    e^700; 0 when Delta_min = inf (every grid point ties).

    Raises
    ------
    ValueError
        Naming the argument: ``K`` or ``T`` below 1, ``eps`` not in (0, 1], ``L`` negative, ``q``
        not positive, or any of them (or ``Delta_min``) not a number.
    """
    for name, v in (("K", K), ("T", T), ("eps", eps), ("L", L), ("q", q), ("Delta_min", Delta_min)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or math.isnan(v):
            raise ArgumentError(name, f"need a number, got {v!r}")
    if K < 1 or T < 1:
        raise ArgumentError("K" if K < 1 else "T", f"need >= 1, got {K if K < 1 else T!r}")
    if not 0 < eps <= 1:
        raise ArgumentError("eps", f"need 0 < eps <= 1, got {eps!r}")
    if L < 0 or not q > 0:
        raise ArgumentError("L" if L < 0 else "q", f"need {'L >= 0' if L < 0 else 'q > 0'}, got "
                                                        f"{L if L < 0 else q!r}")
    if Delta_min <= 0:
        return math.inf
    if math.isinf(Delta_min):
        return 0.0
    log_n = _log_N()(K, T, eps, L, q, Delta_min)
    return math.exp(log_n) if log_n < 700 else math.inf


def radius_constant(T: int) -> float:
    """16 (sqrt(2 e log T) + 32), the numerator of ``eq:UCB_confidence_sets``, in floating point
    (:func:`radius_numerator`, compiled).

    Raises
    ------
    ValueError
        Naming ``T`` unless it is a number >= 1.
    """
    if isinstance(T, bool) or not isinstance(T, numbers.Real) or not T >= 1:
        raise ArgumentError("T", f"need a horizon >= 1, got {T!r}")
    return _radius()(T)
