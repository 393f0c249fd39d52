"""Work budgets of the symbolic routes: which inputs SymPy is asked to solve, decided before trying.

SymPy has no limit of its own on the work of ``solveset``, ``limit`` or
``minimum``, and on some inputs (``u**0.3*(1-u)``: 18 s for one supremum;
``min(u, (1-u)**0.7)``, whose maximiser is a root of a degree-10 polynomial)
it runs for a long time or for ever.  A wall-clock budget would make the route
-- and the ``method`` recorded in the ledger -- depend on how busy the machine
is.  Instead, a symbolic route is tried only on inputs in a class where SymPy's
work is bounded by the size of the input, and the class is decided from the
structure of the input alone, so the same input takes the same route on any
machine:

* **algebraic pieces** (:func:`algebraic_degree`): every smooth piece of h is
  built from u and numbers by ``+``, ``*`` and powers with rational exponents;
  no function of u (exp, log, sin, ...);
* **few simple radicals**: every non-integer power has an affine base
  (``u``, ``1 - u``, ``2*u - 1``), at most :data:`MAX_RADICAL_BASES` distinct
  bases occur, and the least common denominator D of the exponents is at most
  :data:`MAX_ROOT_DENOMINATOR` (so with t = u^(1/D) the pieces are polynomials
  in t);
* **bounded degree**: D times the degree of the problem (in powers of u) is at
  most :data:`MAX_DEGREE` (:data:`MAX_DEGREE_TWO_BASES` with two radical
  bases), and every piece has at most :data:`MAX_OPS` operations
  (``sympy.count_ops``);
* **explicit numbers**: the points involved (p*, the ends of the interval) are
  rationals or radicals of at most :data:`MAX_NUMBER_OPS` operations, never an
  implicit root (``CRootOf``) or a function value.

The bounds admit every distortion of ``table:table_regrets`` with the
parameters the ledger uses (so the ledger's methods are those of the symbolic
routes) and refuse, e.g., ``u**0.3*(1-u)`` (D = 10), ``sin(pi*u)``,
``u*exp(-u)`` and ``min(u, (1-u)**0.7)``, which then take the numeric route.
"""

from __future__ import annotations

import math

import sympy as sp

__all__ = [
    "MAX_OPS",
    "MAX_DEGREE",
    "MAX_ROOT_DENOMINATOR",
    "MAX_RADICAL_BASES",
    "MAX_DEGREE_TWO_BASES",
    "MAX_NUMBER_OPS",
    "Algebraic",
    "algebraic_degree",
    "explicit_number",
]

#: Most operations (``sympy.count_ops``) of one piece of h on a symbolic route.
MAX_OPS = 40

#: Largest degree of a symbolic problem, counted in powers of t = u^(1/D).
MAX_DEGREE = 16

#: Largest least common denominator D of the rational exponents.
MAX_ROOT_DENOMINATOR = 4

#: Most distinct bases of non-integer powers (e.g. u and 1 - u in sqrt(u)/sqrt(1-u)).
MAX_RADICAL_BASES = 2

#: Largest degree (in powers of t = u^(1/D)) of a problem with two distinct radical bases: eliminating
#: two different roots squares the degree of the equations SymPy solves (sqrt(u) - u**2 against
#: |u - 2/5|^(1/2), degree 5, ran for minutes).
MAX_DEGREE_TWO_BASES = 4

#: Most operations of a number (p*, an interval end) on a symbolic route.
MAX_NUMBER_OPS = 12


class Algebraic:
    """Degree, radical bases and exponent denominators of an algebraic expression in one variable."""

    __slots__ = ("degree", "bases", "denominators")

    def __init__(self) -> None:
        self.degree = sp.Integer(0)
        self.bases: set[sp.Expr] = set()
        self.denominators: set[int] = set()

    @property
    def root_denominator(self) -> int:
        """Least common denominator D of the non-integer exponents (1 when there are none)."""
        return math.lcm(1, *self.denominators)

    def add_radical(self, base: sp.Expr, exponent: sp.Rational, var: sp.Symbol) -> None:
        """Record a power ``base**exponent`` with a non-integer rational exponent and an affine base."""
        poly = sp.Poly(base, var)
        self.bases.add(poly.monic().as_expr())
        self.denominators.add(int(exponent.q))


def _degree(e: sp.Expr, var: sp.Symbol, out: Algebraic) -> sp.Expr:
    """Degree of ``e`` in powers of ``var`` (rational), recording radicals; ValueError outside the class."""
    if not e.has(var):
        return sp.Integer(0)
    if e == var:
        return sp.Integer(1)
    if e.is_Add:
        return max(_degree(a, var, out) for a in e.args)
    if e.is_Mul:
        return sp.Add(*(_degree(a, var, out) for a in e.args))
    if e.is_Pow:
        base, n = e.args
        if n.has(var) or not n.is_Rational:
            raise ValueError(f"the power {e} has an exponent that is not a rational number")
        if not n.is_Integer:
            if not (base.is_polynomial(var) and sp.Poly(base, var).degree() == 1):
                raise ValueError(f"the power {e} is a root of a base that is not affine in {var}")
            out.add_radical(base, n, var)
        return _degree(base, var, out) * abs(n)
    raise ValueError(f"{e} is not an algebraic expression in {var} (a function of {var})")


def algebraic_degree(expr: sp.Expr, var: sp.Symbol, out: Algebraic | None = None) -> tuple[Algebraic, str | None]:
    """Profile of ``expr`` for the budget: (profile, None) inside the class, (partial profile, reason) outside.

    Parameters
    ----------
    expr : sympy.Expr
    var : sympy.Symbol
    out : Algebraic, optional
        Accumulate into this profile (several pieces of one problem); the
        degree of the result is the largest degree seen.
    """
    out = Algebraic() if out is None else out
    ops = sp.count_ops(expr)
    if ops > MAX_OPS:
        return out, f"{expr} has {ops} operations (more than {MAX_OPS})"
    try:
        deg = _degree(sp.sympify(expr), var, out)
    except ValueError as exc:
        return out, str(exc)
    out.degree = sp.Max(out.degree, deg)
    return out, None


def within_budget(profile: Algebraic) -> str | None:
    """None when the radicals and the degree of a profile are within the budget, else the reason."""
    if len(profile.bases) > MAX_RADICAL_BASES:
        return f"{len(profile.bases)} distinct bases of roots (more than {MAX_RADICAL_BASES})"
    D = profile.root_denominator
    if D > MAX_ROOT_DENOMINATOR:
        return f"exponents with common denominator {D} (more than {MAX_ROOT_DENOMINATOR})"
    limit = MAX_DEGREE if len(profile.bases) < 2 else MAX_DEGREE_TWO_BASES
    if D * profile.degree > limit:
        return (f"degree {profile.degree} in u with roots of order {D} and {len(profile.bases)} radical base(s) "
                f"(more than {limit} in u^(1/{D}))")
    return None


def explicit_number(x: sp.Expr) -> str | None:
    """None when ``x`` is a rational or a short radical expression, else the reason."""
    x = sp.sympify(x)
    if x.is_Rational:
        return None
    if not x.is_number:
        return f"{x} is not a number"
    if x.atoms(sp.CRootOf) or x.atoms(sp.Function):
        return f"{x} is an implicit root or a function value"
    if any(p.is_Pow and not p.exp.is_Rational for p in sp.preorder_traversal(x)):
        return f"{x} has a power with an irrational exponent"
    ops = sp.count_ops(x)
    if ops > MAX_NUMBER_OPS:
        return f"{x} has {ops} operations (more than {MAX_NUMBER_OPS})"
    return None
