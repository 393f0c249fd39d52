"""Signs of expressions in u on [0, 1], decided exactly within a work budget (no clock).

The DCP translator (:mod:`rsb_theory.oracle.dcp`) must know that the base of a
power is >= 0 on [0, 1] before it hands the power to CVXPY (whose ``power``
adds the implicit constraint base >= 0).  :func:`nonnegative_on_unit` decides
it exactly -- integer arithmetic, no floating point, no SymPy search with
unbounded work -- for the class of inputs where that is cheap, and answers
"not proven" (False) for everything else:

* a polynomial P in u with rational coefficients and degree at most
  :data:`MAX_SIGN_DEGREE`: P >= 0 on [0, 1] iff P is identically 0, or no
  factor of odd multiplicity of P (square-free decomposition) has a root in
  the open interval (0, 1) -- counted by Sturm sequences
  (``Poly.count_roots``) -- and P > 0 at a point of (0, 1) where it does not
  vanish (P keeps one sign between roots of odd multiplicity);
* a rational function P/Q of such polynomials whose denominator Q has no root
  in [0, 1]: then Q has one sign s on [0, 1], and P/Q >= 0 iff s P >= 0;
* an algebraic expression with roots of u alone, or of 1 - u alone, of order
  D <= :data:`rsb_theory.budgets.MAX_ROOT_DENOMINATOR` (``sqrt(u) - u``): the
  substitution u = t^D (resp. 1 - u = t^D) maps [0, 1] onto t in [0, 1] and the
  expression onto a rational function of t, decided as above.

Every other expression (transcendental functions such as exp(u) - 1,
irrational coefficients, higher degrees, other roots) is "not proven": the
caller refuses the translation, and the oracle takes its next route
(``search``, certified by the supergradient bound for a concave h) -- the same
route on every machine.  (SymPy's ``minimum``, which decided these under a
5-second alarm before, proves some of them but has no bound on its work.)
"""

from __future__ import annotations

import sympy as sp

from ..budgets import MAX_ROOT_DENOMINATOR, algebraic_degree
from ..distortions import U

__all__ = ["MAX_SIGN_DEGREE", "polynomial", "affine_sign", "nonnegative_on_unit"]

#: Largest degree of a polynomial (numerator and denominator of a rational function) whose sign is decided.
MAX_SIGN_DEGREE = 12


def polynomial(e: sp.Expr, var: sp.Symbol = U) -> sp.Poly | None:
    """e as a polynomial in ``var`` (default u) with numeric real coefficients, or None."""
    if not e.is_polynomial(var):
        return None
    try:
        poly = sp.Poly(sp.expand(e), var)
    except sp.PolynomialError:  # pragma: no cover
        return None
    if not all(c.is_number and c.is_real for c in poly.all_coeffs()):
        return None
    return poly


def affine_sign(poly: sp.Poly) -> str:
    """Sign of an affine a*u + b on [0, 1] (its values at the ends decide): '+', '-' or 'mixed'.

    '+' means >= 0 on [0, 1], '-' means <= 0 (an affine function attains its
    extremes on an interval at the ends).
    """
    lo, hi = (poly.as_expr().subs(U, t) for t in (0, 1))
    if lo >= 0 and hi >= 0:
        return "+"
    if lo <= 0 and hi <= 0:
        return "-"
    return "mixed"


_T = sp.Dummy("t", positive=True)


def _rational_poly(e: sp.Expr, var: sp.Symbol = U) -> sp.Poly | None:
    """e as a polynomial in ``var`` with rational coefficients and degree <= MAX_SIGN_DEGREE, or None."""
    poly = polynomial(e, var)
    if poly is None or poly.degree() > MAX_SIGN_DEGREE:
        return None
    try:
        poly = poly.set_domain(sp.QQ)
    except (sp.polys.polyerrors.CoercionFailed, sp.polys.polyerrors.OptionError):
        return None
    return poly


def _polynomial_nonnegative(P: sp.Poly) -> bool:
    """P >= 0 on [0, 1] for a polynomial over QQ (module docstring)."""
    if P.is_zero:
        return True
    odd = sp.Poly(1, P.gen, domain=sp.QQ)
    for factor, multiplicity in P.sqf_list()[1]:
        if multiplicity % 2:
            odd = odd * factor
    if odd.degree() > 0:
        roots = odd.count_roots(0, 1) - int(odd.eval(0) == 0) - int(odd.eval(1) == 0)
        if roots > 0:
            return False  # a sign change inside (0, 1)
    # P has one sign on (0, 1) away from its roots: read it at a point where P does not vanish
    for k in range(2, P.degree() + 3):
        value = P.eval(sp.Rational(1, k))
        if value != 0:
            return bool(value > 0)
    return True  # pragma: no cover - a non-zero polynomial has at most deg roots


def _without_roots(e: sp.Expr) -> tuple[sp.Expr, sp.Symbol] | None:
    """(e in a variable on [0, 1] without roots, that variable), or None outside the class."""
    if not any(p.is_Pow and p.has(U) and not p.exp.is_Integer for p in sp.preorder_traversal(e)):
        return e, U  # no roots of u: a rational function or outside the class (decided by the caller)
    profile, why = algebraic_degree(e, U)
    if why is not None:
        return None
    if not profile.bases:
        return e, U
    D = profile.root_denominator
    if len(profile.bases) > 1 or D > MAX_ROOT_DENOMINATOR:
        return None
    base = next(iter(profile.bases))
    if base == U:
        u_of_t = _T**D
    elif base == U - 1:
        u_of_t = 1 - _T**D
    else:
        return None
    return e.subs(U, u_of_t), _T


def nonnegative_on_unit(e: sp.Expr) -> bool:
    """True only if e >= 0 on [0, 1] is *proven* (exactly, within the budget of the module docstring)."""
    e = sp.sympify(e)
    if U not in e.free_symbols:
        return bool(e.is_number and e.is_real and e >= 0)
    poly = polynomial(e)
    if poly is not None and poly.degree() <= 1:
        return affine_sign(poly) == "+"
    sub = _without_roots(e)
    if sub is None:
        return False
    e, var = sub
    num, den = sp.fraction(sp.together(e))
    P, Q = _rational_poly(num, var), _rational_poly(den, var)
    if P is None or Q is None:
        return False
    if Q.degree() > 0:
        if Q.count_roots(0, 1) > 0:
            return False  # a pole or a removable singularity in [0, 1]: not decided here
        if Q.eval(sp.Rational(1, 2)) < 0:
            P = -P
    elif Q.LC() < 0:
        P = -P
    return _polynomial_nonnegative(P)
