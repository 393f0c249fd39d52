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

Before any of that, a distortion itself must be within the **structural budget**
of :func:`structural_budget` (hostile inputs), checked on the tree the parser built and
after ``--param`` values are put in, before SymPy simplifies, expands or solves
anything: every power of a u-dependent base by a number has
|exponent| <= :data:`MAX_SYMBOLIC_EXPONENT`, and the structural degree (u: 1, a sum: the largest
of its terms, a product: the sum, a power by a number n: |n| times the base's, a
function: its arguments') is at most :data:`MAX_SYMBOLIC_DEGREE`, every rational exponent of such a power
functions of u nest at most :data:`MAX_FUNCTION_DEPTH` deep.  Outside it the
distortion is refused (one line, exit 2): ``u**(10**8)`` took 10.9 GB in 30 s,
``u**(2**64)`` and ``u**1e308`` 6.5-10.6 GB, ``u**1000`` and ``1 - (1-u)**1000``
minutes.  Measured with ``rsb derive --h H --p 0.4,0.9`` (about 2.3 s of it importing):
``u**64`` 2.5 s, ``1-(1-u)**64`` 7.2 s, ``u**200`` 9.1 s.  Every bound is a count read from the
tree, so the same h is refused on every machine and in the Python API as on the command line.
The denominators of exponents are not bounded here (a Python float given as a parameter,
``s=1/3``, is 3333333333333333/10^16, and is common); :func:`exact_budget` decides where
``rsb_theory.holder.local_order`` may expand h exactly.  The nesting: ``sin(sin(sin(u)))`` took 13 s and
fifty levels (which the parser's depth of 60 admits) never finished.

Within it, the **shape budget** of :func:`shape_budget` decides from h's pieces whether SymPy's
range, shape and expansion routes are tried (explicit breakpoints, degree at most
:data:`MAX_SHAPE_DEGREE` in u^(1/D)); beyond it the callers take numeric or Taylor routes with
the same answers (``rsb_theory.distortions.validate`` and ``classify``,
``rsb_theory.holder.local_order`` and ``holder``, ``rsb_theory.gap.beta_monotone``).
"""

from __future__ import annotations

import math

import sympy as sp
from .errors import ArgumentTypeError

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
    "MAX_SYMBOLIC_EXPONENT",
    "MAX_SYMBOLIC_DEGREE",
    "structural_budget",
    "MAX_EXPONENT_DENOMINATOR",
    "MAX_FUNCTION_DEPTH",
    "exponent_denominator",
    "exact_budget",
    "MAX_SHAPE_DEGREE",
    "shape_budget",
]

#: Largest |exponent| of a power whose base depends on u (``u**64``, ``(1-u)**64``).
MAX_SYMBOLIC_EXPONENT = 64

#: Largest structural degree of a distortion (u**32 * (1-u)**32 has degree 64).
MAX_SYMBOLIC_DEGREE = 64

#: Largest denominator of a rational exponent of h on the exact expansions at points other than 0 and 1
#: (``rsb_theory.holder.local_order``; ``u**0.7`` has 10); beyond it Taylor's route, else a refusal.  SymPy's ``simplify`` of
#: (2/5 + t)**(k/q) - (2/5)**(k/q), the local expansion of h at a mean p = 0.4, collects the radicals of 2 and 5
#: and builds numbers of about q digits: 0.3 s at q = 10^5, 5.4 s at q = 10^6, more than a minute at q = 10^7
#: (``u**0.1234567``); ``u**63.999999999`` (q = 10^9), ``u**1e-300`` and ``pht`` with ``s=5e-324`` never finished.
MAX_EXPONENT_DENOMINATOR = 10**4

#: Deepest nesting of functions of u (``exp(-u)``: 1, ``sin(sin(u))``: 2).  SymPy's range and shape routes took
#: 13 s on ``sin(sin(sin(u)))`` and did not finish on five levels (nor on fifty, which the parser admits).
MAX_FUNCTION_DEPTH = 2

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


def _structural_degree(e: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """Structural degree of ``e`` in ``var`` (module docstring); ValueError with the reason beyond the budget."""
    if not e.has(var):
        return sp.Integer(0)
    if e == var:
        return sp.Integer(1)
    if e.is_Mul:
        deg = sp.Add(*(_structural_degree(a, var) for a in e.args))
    elif e.is_Pow:
        base, n = e.args
        if n.has(var):  # u**u, 2**u: no expansion a budget would bound
            return _structural_degree(base, var) + _structural_degree(n, var)
        if n.is_number:
            if not n.is_real:
                raise ValueError(f"the power {_short(e)} has a complex exponent")
            if abs(n) > MAX_SYMBOLIC_EXPONENT:
                raise ValueError(f"the exponent {_short(n)} of a power of an expression in {var} is larger than "
                                 f"{MAX_SYMBOLIC_EXPONENT} in absolute value")
            deg = _structural_degree(base, var) * abs(n)
        else:  # a symbolic exponent (a parameter without a value): no number to bound yet
            deg = _structural_degree(base, var)
    else:
        deg = max((_structural_degree(a, var) for a in e.args), default=sp.Integer(0))
    if deg > MAX_SYMBOLIC_DEGREE:
        raise ValueError(f"{_short(e)} has degree {_short(deg)} in {var} (more than {MAX_SYMBOLIC_DEGREE})")
    return deg


def _short(x, n: int = 60) -> str:
    text = str(x)
    return text if len(text) <= n else text[:n - 3] + "..."


def structural_budget(expr: sp.Expr, var: sp.Symbol) -> str | None:
    """None when ``expr`` is within the structural budget of a distortion (module docstring), else the reason.

    A walk of the tree as built (no simplification, expansion or evaluation), so its work is
    the size of the text: it is decided before SymPy runs on the expression.
    """
    if isinstance(expr, str):  # a text goes through the one parser (rsb_theory.expressions), never sympify
        raise ArgumentTypeError("expr", "a SymPy expression built by rsb_theory.expressions, not text")
    try:
        expr = sp.sympify(expr)
        _structural_degree(expr, var)
        depth = function_depth(expr, var)
        if depth > MAX_FUNCTION_DEPTH:
            raise ValueError(f"functions of {var} are nested {depth} deep (more than {MAX_FUNCTION_DEPTH})")
    except ValueError as exc:
        return f"{exc} (the structural budget of symbolic work, rsb_theory.budgets)"
    return None


def exponent_denominator(expr) -> int:
    """The largest denominator of a rational exponent in ``expr`` (1 when every exponent is an integer)."""
    return max([1] + [int(p.exp.q) for p in sp.preorder_traversal(expr) if p.is_Pow and p.exp.is_Rational])


def exact_budget(expr) -> str | None:
    """None when ``expr`` may be expanded exactly at points other than 0 and 1, else the reason.

    A count read from the expression: the denominators of its exponents, at most
    :data:`MAX_EXPONENT_DENOMINATOR` (SymPy's ``simplify`` builds numbers of about that many digits).
    """
    q = exponent_denominator(expr)
    if q > MAX_EXPONENT_DENOMINATOR:
        return (f"an exponent of h has the denominator {_short(q, 24)}, above {MAX_EXPONENT_DENOMINATOR} (the budget "
                f"of exact symbolic work, rsb_theory.budgets)")
    return None


def function_depth(expr: sp.Expr, var: sp.Symbol) -> int:
    """How deeply functions of ``var`` nest in ``expr`` (``u**2``: 0, ``exp(-u)``: 1, ``sin(sin(u))``: 2).

    Min, Max and Abs count like the others.  A walk of the tree as built, iterative: its work is the
    size of the tree, and a deep tree does not reach Python's recursion limit.
    """
    deepest, stack = 0, [(expr, 0)]
    while stack:
        e, depth = stack.pop()
        if e.is_Atom or not e.has(var):
            continue
        depth += isinstance(e, sp.Function)
        deepest = max(deepest, depth)
        stack.extend((a, depth) for a in e.args)
    return deepest


#: Largest degree, in powers of u^(1/D), of a piece of h on the symbolic range and shape routes (SymPy's ``minimum``,
#: ``maximum`` and ``solveset`` of the signs of h' and h''): on a product of eight ``1 - (1-u)**8`` (degree 64) they
#: took most of 17 s on an idle machine, 90 s and more under load.
MAX_SHAPE_DEGREE = 16


def shape_budget(pieces, var: sp.Symbol) -> str | None:
    """None when the symbolic range and shape routes may run on h's smooth ``pieces``, else the reason.

    ``pieces`` are the (expression, interval) pairs of :func:`rsb_theory.distortions._pieces`.  Decided
    from their structure alone, before SymPy solves anything: the ends of the pieces are explicit numbers
    (:func:`explicit_number`: not an implicit root such as the crossing of ``min(u, (1-u)**0.7)``, a root of
    a polynomial of degree 10, on which each of SymPy's ``minimum`` and ``solveset`` took 5-20 s), every
    piece has at most :data:`MAX_OPS` operations and, when it is algebraic, a degree of at most
    :data:`MAX_SHAPE_DEGREE` in powers of u^(1/D).  Outside, the callers take their numeric routes (a
    grid, with exact witnesses) and record ``numeric``.
    """
    for expr, iv in pieces:
        for end in (iv.start, iv.end):
            why = explicit_number(end)
            if why is not None:
                return f"a breakpoint of h: {why}"
        ops = sp.count_ops(expr)
        if ops > MAX_OPS:
            return f"a piece of h has {ops} operations (more than {MAX_OPS})"
        profile = Algebraic()
        try:
            deg = _degree(sp.sympify(expr), var, profile)
        except ValueError:
            continue  # a function of u: the structural budget bounds its nesting
        if profile.root_denominator * deg > MAX_SHAPE_DEGREE:
            return (f"a piece of h has degree {_short(deg)} in {var} with roots of order {profile.root_denominator} "
                    f"(more than {MAX_SHAPE_DEGREE} in {var}^(1/{profile.root_denominator}))")
    return None
