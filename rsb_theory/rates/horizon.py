"""The set Q, T_0(eps) and T(eps) of section ``sec:analysis`` (definitions before ``theorem:UCB upper bound``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import sympy as sp

from ..workload import T0_MAX
from .symbols import Delta_min, K, L, T0_eps, eps, q, rho, s
from ..errors import ArgumentError

__all__ = ["Q_condition", "T_eps_definition", "T_eps_matches_appendix", "in_Q", "Q_tail_start", "TofEps",
           "T_of_eps"]

_E = sp.E


def Q_condition(s_: sp.Expr = s) -> sp.Rel:
    """Membership inequality of the set Q (section ``sec:analysis``).

    ``(sqrt(2 e log s) + 32) / sqrt(rho s eps / 4) <= (1/16) (Delta_min / (2 K L))^(1/q)``.

    Parameters
    ----------
    s_ : sympy.Expr, optional
        The time index (default: the symbol ``s``).

    Returns
    -------
    sympy.Rel
    """
    lhs = (sp.sqrt(2 * _E * sp.log(s_)) + 32) / sp.sqrt(rho * s_ * eps / 4)
    rhs = sp.Rational(1, 16) * (Delta_min / (2 * K * L)) ** (1 / q)
    return sp.Le(lhs, rhs)


def T_eps_definition() -> sp.Expr:
    """T(eps) = (2/eps) (T_0(eps) - 1) in terms of the symbol ``T_0``.

    Implements the definition of T(eps) in section ``sec:analysis``; it
    coincides with ``eq:T_epsilon_actual`` (T_0 + m with ``eq:m``), see
    :func:`T_eps_matches_appendix`.

    Returns
    -------
    sympy.Expr
    """
    return 2 / eps * (T0_eps - 1)


def T_eps_matches_appendix() -> bool:
    """Check T_0 + m (``eq:T_epsilon_actual``, ``eq:m``) == (2/eps)(T_0 - 1).

    Returns
    -------
    bool
    """
    m = (2 / eps - 1) * T0_eps - 2 / eps
    return sp.simplify(T0_eps + m - T_eps_definition()) == 0


# ------------------------------ numeric T_0 -------------------------------
_WORK_DPS = 50


def _q_threshold(eps_, rho_, Delta_min_, K_, L_, q_):
    """Right side of Q and the factor 2/sqrt(rho eps) of its left side (mpf)."""
    rhs = mpmath.mpf(1) / 16 * (mpmath.mpf(Delta_min_) / (2 * mpmath.mpf(K_) * mpmath.mpf(L_))) ** (
        1 / mpmath.mpf(q_)
    )
    return rhs, 2 / mpmath.sqrt(mpmath.mpf(rho_) * mpmath.mpf(eps_))


def in_Q(s_: int, eps: float, rho: float, Delta_min: float, K: int, L: float, q: float) -> bool:
    """Membership of the integer ``s_ >= 1`` in the set Q (section ``sec:analysis``).

    Evaluated with mpmath at 50 significant digits so that neighbours
    ``s`` and ``s - 1`` are resolved even for s ~ 1e15.

    Parameters
    ----------
    s_ : int
        Time index, ``s_ >= 1``.
    eps, rho, Delta_min, K, L, q : float
        Discretisation level, exploration rate, Delta_min(eps), number of arms,
        Hölder constant and exponent.

    Returns
    -------
    bool
    """
    if s_ < 1:
        raise ArgumentError("s_", "Q is defined on the natural numbers s >= 1")
    with mpmath.workdps(_WORK_DPS):
        rhs, factor = _q_threshold(eps, rho, Delta_min, K, L, q)
        sv = mpmath.mpf(int(s_))
        lhs = (mpmath.sqrt(2 * mpmath.e * mpmath.log(sv)) + 32) * factor / mpmath.sqrt(sv)
        return bool(lhs <= rhs)


def Q_tail_start() -> float:
    """Point s* beyond which the left side of Q is strictly decreasing in s.

    With a = sqrt(2e) and x = sqrt(log s), d/ds log[(a x + 32)/sqrt(s)] has the
    sign of a - x (a x + 32); it is negative iff a x^2 + 32 x - a > 0, i.e.
    x > x* = (-32 + sqrt(1024 + 4 a^2)) / (2 a); s* = exp(x*^2) ~ 1.0053.

    Returns
    -------
    float
    """
    a = math.sqrt(2 * math.e)
    x_star = (-32 + math.sqrt(1024 + 4 * a * a)) / (2 * a)
    return math.exp(x_star**2)


@dataclass(frozen=True)
class TofEps:
    """T_0(eps) and T(eps) of section ``sec:analysis``.

    Attributes
    ----------
    T0 : int
        inf{t in N : s in Q for all s >= t}.
    T_eps : float
        (2/eps)(T0 - 1).
    tail_start : int
        First integer of the strictly decreasing tail of Q's left side.
    """

    T0: int
    T_eps: float
    tail_start: int


#: Largest horizon :func:`T_of_eps` searches (T_eps = 2/eps (T_0 - 1) must stay a float).
_T_MAX = T0_MAX  # one bound: the estimate (rsb_theory.workload) refuses a tiny rho before any run


def T_of_eps(eps: float, rho: float, Delta_min: float, K: int, L: float, q: float) -> TofEps:
    """Compute T_0(eps) and T(eps) (definitions before ``theorem:UCB upper bound``).

    The left side of the Q inequality is strictly decreasing for
    s > :func:`Q_tail_start` (so on the integers s >= 2), hence Q restricted
    to that tail is an interval [t1, oo).  t1 is found by doubling and integer
    bisection; then the integers below the tail start are walked down while
    they stay in Q.  The result is verified: T0 in Q, T0 - 1 not in Q (or
    T0 = 1), and T0, 2 T0, 10 T0, 1000 T0 in Q.

    Parameters
    ----------
    eps, rho, Delta_min, K, L, q : float
        As in :func:`in_Q`.

    Returns
    -------
    TofEps

    Raises
    ------
    ArithmeticError
        If the verification fails.
    """
    for name, val in (("eps", eps), ("rho", rho), ("Delta_min", Delta_min), ("K", K), ("L", L), ("q", q)):
        if not val > 0:
            raise ArgumentError(name, f"must be positive, got {val!r}")
    args = (eps, rho, Delta_min, K, L, q)
    start = max(1, math.ceil(Q_tail_start()))
    if in_Q(start, *args):
        t = start
    else:
        lo, hi = start, 2 * start
        while not in_Q(hi, *args):
            lo, hi = hi, 2 * hi
            if hi > _T_MAX:  # no horizon a float can hold: the constants (rho, eps, Delta_min) are too small
                raise ArgumentError("rho", f"T_0(eps) of eq:T_eps exceeds {_T_MAX:.3g} with rho = {rho!r}, "
                                 f"eps = {eps!r}, Delta_min = {Delta_min!r}; use a larger rho")
        while hi - lo > 1:  # invariant: lo not in Q, hi in Q
            mid = (lo + hi) // 2
            if in_Q(mid, *args):
                hi = mid
            else:
                lo = mid
        t = hi
    while t > 1 and in_Q(t - 1, *args):
        t -= 1
    ok = in_Q(t, *args) and (t == 1 or not in_Q(t - 1, *args))
    ok = ok and all(in_Q(m * t, *args) for m in (2, 10, 1000))
    if not ok:
        raise ArithmeticError("T_0(eps) verification failed")
    return TofEps(T0=t, T_eps=2.0 / eps * (t - 1), tail_start=start)
