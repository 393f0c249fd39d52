"""Distortion functions h : [0, 1] -> [0, 1] with h(0) = 0 (``eq:wang_def``).

A distortion is a SymPy expression in the symbol :data:`U` (printed ``u``) with
declared parameters and domains.  The nine distortions of
``table:table_regrets`` live in :data:`REGISTRY`; a user-defined distortion is
parsed from a string by :func:`parse_expression`, which builds the SymPy tree
from Python's ``ast`` itself and never evaluates user code.

Everything a check needs about the *shape* of h (monotone, concave) is derived
here by :func:`classify`, not declared.

Families beyond the table live in :data:`EXTENSIONS` (``cvar_lower``, the mean
of the worst alpha-fraction); :func:`dual` builds h*(u) = h(1) - h(1 - u) of any
distortion, and :func:`resolve` reads ``dual(NAME)`` and ``dual(EXPR)``.
:data:`REGISTRY` stays the nine rows of ``table:table_regrets`` (the ledger
iterates it).  Which tail of the reward law each family weights is
:data:`TAILS` (``docs/arms.md``): with X >= 0 and the quantile function Q,
U_h(F) = int_0^1 Q(t) h'(1 - t) dt, so h' near 0 weights the upper quantiles
and h' near 1 the lower ones.

Examples
--------
>>> from rsb_theory.distortions import get, from_string
>>> get("gini").expr
u*(1 - u)
>>> from_string("u**0.3*(1-u)").expr
u**(3/10)*(1 - u)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Mapping

import numpy as np
import sympy as sp

from . import expressions
from .budgets import shape_budget, structural_budget

#: The argument of every distortion function.
U = sp.Symbol("u", real=True)

#: Tolerance of the numeric fall-backs (range and shape checks on a grid).
NUMERIC_TOL = 1e-12


class DistortionError(expressions.ExpressionError):
    """Raised for an invalid distortion, expression, name or parameter.

    The message always names the offending argument.
    """


# ---------------------------------------------------------------------------
# Safe parsing (the grammar lives in rsb_theory.expressions, the one parser)
# ---------------------------------------------------------------------------

#: Elementary functions a user expression may call (see :data:`rsb_theory.expressions.FUNCTIONS`).
ALLOWED_FUNCTIONS = expressions.FUNCTIONS
#: Largest |exponent| allowed between two numeric constants.
MAX_CONSTANT_EXPONENT = expressions.MAX_CONSTANT_EXPONENT


def parse_expression(text: str, parameters: Mapping[str, sp.Symbol] | None = None, flag: str = "h") -> sp.Expr:
    """Parse a distortion expression without evaluating any code.

    Parameters
    ----------
    text : str
        Expression in ``u``, e.g. ``"u**0.3*(1-u)"`` or ``"min(2*u, 1)"``.
        Decimal literals become exact rationals (``0.3`` -> ``3/10``).
    parameters : mapping of str to sympy.Symbol, optional
        Names of declared parameters that may appear in ``text``.
    flag : str
        The argument named in error messages (default ``h``).

    Returns
    -------
    sympy.Expr

    Raises
    ------
    DistortionError
        If ``text`` is not a well-formed expression, or uses a name, attribute,
        subscript, keyword or construct outside the grammar of
        :mod:`rsb_theory.expressions` (numbers, ``u``, declared parameters,
        ``pi``, ``e``, ``+ - * / ** ^`` and its functions).
    """
    try:
        return expressions.to_sympy(text, flag, {"u": U, **dict(parameters or {})})
    except expressions.ExpressionError as exc:
        raise DistortionError(exc.name, exc.message) from None


# ---------------------------------------------------------------------------
# Parameters and the registry of table:table_regrets
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Parameter:
    """A declared parameter of a distortion family.

    Parameters
    ----------
    name : str
        Name used in expressions and on the command line (``--param s=0.5``).
    domain : sympy.Interval
        Admissible values, as stated in ``table:table_regrets``.
    default : sympy.Rational
        Value used when the caller gives none (the paper's value where the
        table fixes one, e.g. ``s = 1/2`` for PHT).
    """

    name: str
    domain: sp.Interval
    default: sp.Expr

    @property
    def symbol(self) -> sp.Symbol:
        return sp.Symbol(self.name, positive=True)


@dataclass(frozen=True)
class Family:
    """A registered distortion family (one row of ``table:table_regrets``)."""

    key: str
    title: str
    template: str
    parameters: tuple[Parameter, ...] = ()
    label: str = "table:table_regrets"

    def expression(self) -> sp.Expr:
        """The family's SymPy expression in ``u`` and its parameter symbols."""
        return parse_expression(self.template, {p.name: p.symbol for p in self.parameters})


_HALF = sp.Rational(1, 2)

#: The nine distortions of ``table:table_regrets`` (row keys of the ledger).
REGISTRY: Mapping[str, Family] = {
    f.key: f
    for f in (
        Family("mean", "Risk-neutral mean value", "u"),
        Family("dual_power", "Dual power", "1 - (1 - u)**s",
               (Parameter("s", sp.Interval(2, sp.oo), sp.Integer(2)),), "lemma:Dual_Power"),
        Family("quadratic", "Quadratic", "(1 + s)*u - s*u**2",
               (Parameter("s", sp.Interval(0, 1), _HALF),), "lemma:Quadratic"),
        Family("cvar", "CVaR", "min(u/(1 - alpha), 1)",
               (Parameter("alpha", sp.Interval.Ropen(0, 1), _HALF),)),
        Family("pht", "Proportional hazard transform", "u**s",
               (Parameter("s", sp.Interval.open(0, 1), _HALF),), "lemma:PHT"),
        Family("mean_median", "Mean-median deviation", "min(u, 1 - u)", (), "lemma:mean_median_Holder"),
        Family("inter_es", "Inter-ES range", "min(u/(1 - alpha), 1) + min((alpha - u)/(1 - alpha), 0)",
               (Parameter("alpha", sp.Interval.Ropen(_HALF, 1), _HALF),), "lemma:inter_ES_Holder"),
        Family("right_tail", "Wang's right-tail deviation", "sqrt(u) - u", (), "lemma:RTD"),
        Family("gini", "Gini deviation", "u*(1 - u)", (), "lemma:example_utility_Holder"),
    )
}


#: Families beyond ``table:table_regrets``: :func:`get` and :func:`resolve` accept them, the ledger
#: (which iterates :data:`REGISTRY`) does not see them.
#:
#: ``cvar_lower`` (param ``alpha`` in (0, 1], the tail fraction): h(u) = max(0, (u - 1 + alpha)/alpha),
#: the mean of the worst alpha-fraction of the rewards, (1/alpha) int_0^alpha Q(t) dt -- the CVaR of
#: the bandit literature on rewards.  It is convex, so V(alpha) is convex and a single arm is optimal.
#: ``dual(cvar)`` with parameter alpha is ``cvar_lower`` with parameter 1 - alpha.
EXTENSIONS: Mapping[str, Family] = {
    f.key: f
    for f in (
        Family("cvar_lower", "Lower-tail CVaR (mean of the worst alpha-fraction)", "max(0, (u - 1 + alpha)/alpha)",
               (Parameter("alpha", sp.Interval.Lopen(0, 1), _HALF),), "eq:wang_def"),
    )
}

#: Every family :func:`get` builds: the nine rows, then the extensions.
FAMILIES: Mapping[str, Family] = {**REGISTRY, **EXTENSIONS}

#: Which part of the reward law each family weights (U_h(F) = int_0^1 Q(t) h'(1 - t) dt for X >= 0:
#: the weight of the quantile level t is h'(1 - t)).  ``dual(h)`` mirrors it: the weight of level t
#: becomes h'(t), so the upper tail becomes the lower one.
TAILS: Mapping[str, str] = {
    "mean": "the mean: every quantile level weighted equally",
    "dual_power": "upper tail: weight s t^(s-1) on level t (for integer s, the mean of the best of s draws)",
    "quadratic": "upper-weighted: weight 1 - s + 2 s t on level t",
    "cvar": "upper tail: the mean of the best (1 - alpha)-fraction, (1/(1 - alpha)) int_alpha^1 Q(t) dt",
    "pht": "upper tail: weight s (1 - t)^(s-1) on level t, unbounded as t -> 1",
    "mean_median": "a deviation: E|X - median|, the upper half minus the lower half",
    "inter_es": "a deviation: the mean of the best (1 - alpha)-fraction minus the mean of the worst (1 - alpha)-fraction",
    "right_tail": "a deviation of the upper tail: pht with s = 1/2 minus the mean",
    "gini": "a deviation: Gini's mean difference E|X - X'| / 2",
    "cvar_lower": "lower tail: the mean of the worst alpha-fraction, (1/alpha) int_0^alpha Q(t) dt",
}


def names() -> tuple[str, ...]:
    """Registered distortion names, in the row order of ``table:table_regrets``."""
    return tuple(REGISTRY)


def family_names() -> tuple[str, ...]:
    """Every name :func:`get` accepts: the nine rows, then :data:`EXTENSIONS`."""
    return tuple(FAMILIES)


# ---------------------------------------------------------------------------
# Validation and shape, derived
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Validation:
    """Outcome of the distortion checks h(0) = 0 and h([0,1]) within [0,1].

    ``method`` says how each was decided: ``"symbolic"`` (exact) or
    ``"numeric"`` (a grid of :data:`_GRID` points plus the endpoints, with
    tolerance :data:`NUMERIC_TOL`).
    """

    h0: sp.Expr
    h_min: float
    h_max: float
    method_h0: str
    method_range: str


@dataclass(frozen=True)
class Shape:
    """Derived monotonicity and curvature of h on [0, 1].

    ``monotone`` is ``"increasing"``, ``"nondecreasing"``, ``"decreasing"``,
    ``"nonincreasing"``, ``"constant"`` or ``"neither"``; ``curvature`` is
    ``"affine"``, ``"concave"``, ``"convex"`` or ``"neither"``.  Each carries
    the method (``symbolic`` or ``numeric``) and, for "neither", an exact
    witness.
    """

    monotone: str
    monotone_method: str
    monotone_witness: str
    curvature: str
    curvature_method: str
    curvature_witness: str

    @property
    def is_monotone(self) -> bool:
        return self.monotone in {"increasing", "nondecreasing", "constant"}

    @property
    def is_concave(self) -> bool:
        return self.curvature in {"affine", "concave"}


_GRID = 20001


def _grid_values(f: Callable[[np.ndarray], np.ndarray], n: int = _GRID) -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(0.0, 1.0, n)
    with np.errstate(all="ignore"):
        y = np.asarray(f(x), dtype=float) * np.ones_like(x)
    return x, y


def exact_number(x, name: str = "p") -> sp.Expr:
    """An exact SymPy number for ``x``: floats by their shortest decimal repr (0.1 -> 1/10).

    Unlike ``nsimplify`` this never guesses a nearby irrational or a shorter
    rational, so a mean is never moved (0.25000000000000006 stays off 1/4).

    Raises
    ------
    DistortionError
        ``x`` is not a finite real number (message names ``name``).
    """
    if isinstance(x, sp.Basic):
        if not (x.is_number and x.is_real and x.is_finite):
            raise DistortionError(name, f"not a finite real number: {x}")
        return x
    if isinstance(x, (bool, np.bool_)):
        raise DistortionError(name, f"not a number: {x!r}")
    if isinstance(x, (int, np.integer)):
        return sp.Integer(int(x))
    try:
        xf = float(x)
    except (TypeError, ValueError):
        raise DistortionError(name, f"not a number: {x!r}") from None
    if not math.isfinite(xf):
        raise DistortionError(name, f"not a finite number: {x!r}")
    return sp.Rational(repr(xf))


def validate(expr: sp.Expr, f: Callable[[np.ndarray], np.ndarray], low: int = 0) -> Validation:
    """Check that ``expr`` is a distortion function: h(0) = 0, h([0,1]) in [low, 1].

    Symbolic where SymPy decides it (``sympy.calculus.util.minimum``/``maximum``
    over the closed interval) within the work budget of
    :func:`rsb_theory.budgets.shape_budget` (decided from the structure of h), numeric
    otherwise; the method is recorded.
    ``low`` is 0 (the paper's h: [0, 1] -> [0, 1]) except for :func:`dual`, whose
    h*(u) = h(1) - h(1 - u) lies in [-1, 1] (``low = -1``).

    Raises
    ------
    DistortionError
        Naming argument ``h``, with the failing value.
    """
    h0 = sp.simplify(expr.subs(U, 0))
    if h0.is_number and h0.is_finite is not False:
        method_h0 = "symbolic"
        if h0 != 0:
            raise DistortionError("h", f"not a distortion function, h(0) = {h0} != 0")
    else:  # pragma: no cover - h(0) of an expression in u alone is a number
        method_h0 = "numeric"
        if abs(float(f(np.array([0.0]))[0])) > NUMERIC_TOL:
            raise DistortionError("h", "not a distortion function, h(0) != 0")
    method_range = "symbolic"
    try:
        if shape_budget(_pieces(expr), U) is not None:
            raise ValueError("beyond the work budget of the symbolic route")
        lo = sp.calculus.util.minimum(expr, U, sp.Interval(0, 1))
        hi = sp.calculus.util.maximum(expr, U, sp.Interval(0, 1))
        if not (lo.is_number and hi.is_number and lo.is_real and hi.is_real):
            raise ValueError("not numeric")
        h_min, h_max = float(lo), float(hi)
        bad = bool(lo < low) or bool(hi > 1)
    except Exception:  # SymPy could not decide: fall back to a grid
        method_range = "numeric"
        _, y = _grid_values(f)
        if not np.all(np.isfinite(y)):
            raise DistortionError("h", "h is not finite on [0, 1]") from None
        h_min, h_max = float(y.min()), float(y.max())
        bad = h_min < low - NUMERIC_TOL or h_max > 1 + NUMERIC_TOL
    if bad:
        raise DistortionError(
            "h", f"not a distortion function, h([0,1]) = [{h_min:.6g}, {h_max:.6g}] "
            f"is not within [{low}, 1] ({method_range})"
        )
    return Validation(h0, h_min, h_max, method_h0, method_range)


def _sign_on_unit_interval(expr: sp.Expr) -> str | None:
    """Sign of ``expr`` on (0, 1) if SymPy can decide it: '+', '-', '0', '>=0', '<=0'."""
    expr = sp.simplify(expr)
    if expr == 0:
        return "0"
    open_ = sp.Interval.open(0, 1)
    try:
        neg = sp.solveset(expr < 0, U, open_)
        pos = sp.solveset(expr > 0, U, open_)
    except Exception:
        return None
    if not isinstance(neg, sp.Set) or not isinstance(pos, sp.Set):  # pragma: no cover
        return None
    if isinstance(neg, sp.ConditionSet) or isinstance(pos, sp.ConditionSet):
        return None
    neg_empty = neg.is_empty or neg.measure == 0
    pos_empty = pos.is_empty or pos.measure == 0
    if neg.is_empty and not pos_empty:
        return "+" if (open_ - pos).measure == 0 else ">=0"
    if pos.is_empty and not neg_empty:
        return "-" if (open_ - neg).measure == 0 else "<=0"
    if neg_empty and pos_empty:
        return "0"
    return "mixed"


def _pieces(expr: sp.Expr) -> list[tuple[sp.Expr, sp.Interval]]:
    """Smooth pieces of a piecewise-smooth h on [0, 1] (Min/Max/Abs rewritten).

    Cached per expression (SymPy expressions are immutable); a fresh list is returned.
    """
    return list(_pieces_cached(expr))


@lru_cache(maxsize=512)
def _pieces_cached(expr: sp.Expr) -> tuple[tuple[sp.Expr, sp.Interval], ...]:
    pw = sp.piecewise_fold(expr.rewrite(sp.Piecewise))
    if not isinstance(pw, sp.Piecewise):
        return ((expr, sp.Interval(0, 1)),)
    out, covered = [], sp.EmptySet
    for piece, cond in pw.args:
        region = (cond.as_set() if cond is not sp.true else sp.Reals).intersect(sp.Interval(0, 1)) - covered
        covered = covered.union(region)
        for part in (region.args if isinstance(region, sp.Union) else (region,)):
            if isinstance(part, sp.Interval) and part.measure > 0:
                out.append((piece, sp.Interval(part.start, part.end)))
    return tuple(sorted(out, key=lambda t: float(t[1].start)))


def breakpoints(expr: sp.Expr) -> tuple[sp.Expr, ...]:
    """Interior points of (0, 1) where the piecewise definition of h switches."""
    pts = sorted({iv.start for _, iv in _pieces(expr)} - {sp.Integer(0)}, key=float)
    return tuple(p for p in pts if 0 < p < 1)


def _witness_pair(f, sign: int) -> tuple[float, float] | None:
    """Grid points x < y with sign*(h(y) - h(x)) < 0, or None."""
    x, y = _grid_values(f, 2001)
    d = np.diff(y) * sign
    idx = np.nonzero(d < -1e-9)[0]
    return (float(x[idx[0]]), float(x[idx[0] + 1])) if idx.size else None


def _exact_decrease(expr: sp.Expr, a: float, b: float, sign: int) -> str | None:
    """Confirm with exact rationals that h fails monotonicity between a and b."""
    ra, rb = sp.Rational(str(round(a, 6))), sp.Rational(str(round(b, 6)))
    diff = sp.simplify(expr.subs(U, rb) - expr.subs(U, ra))
    if (sign * diff).is_negative:
        return f"h({rb}) - h({ra}) = {diff}"
    return None


def classify(expr: sp.Expr, f: Callable[[np.ndarray], np.ndarray]) -> Shape:
    """Derive monotonicity and curvature of h on [0, 1].

    Symbolic route: on each smooth piece the sign of h' (monotone) and h''
    (curvature) is decided by ``solveset``; at each breakpoint of a piecewise h
    the jump of h' decides concavity (downward jumps keep h concave).  A
    "neither" verdict comes with an exact witness evaluated in rationals.  When
    SymPy cannot decide a sign, or h is beyond the work budget of
    :func:`rsb_theory.budgets.shape_budget` (decided from its structure before SymPy solves
    anything), a grid of :data:`_GRID` points decides and the method says ``numeric``.
    """
    pieces = _pieces(expr)
    symbolic = shape_budget(pieces, U) is None
    # --- monotonicity --------------------------------------------------------
    mono, mono_method, mono_witness = None, "symbolic", ""
    signs = [_sign_on_unit_interval_on(sp.diff(p, U), iv) if symbolic else None for p, iv in pieces]
    if all(s is not None for s in signs) and all(s != "mixed" for s in signs):
        if all(s == "0" for s in signs):
            mono = "constant"
        elif all(s in {"+", "0", ">=0"} for s in signs):
            mono = "increasing" if all(s == "+" for s in signs) else "nondecreasing"
        elif all(s in {"-", "0", "<=0"} for s in signs):
            mono = "decreasing" if all(s == "-" for s in signs) else "nonincreasing"
    if mono is None:
        up, down = _witness_pair(f, +1), _witness_pair(f, -1)
        if up and down:
            w_up, w_down = _exact_decrease(expr, *up, +1), _exact_decrease(expr, *down, -1)
            if w_up and w_down:
                mono, mono_witness = "neither", f"{w_up}; {w_down}"
            else:
                mono, mono_method, mono_witness = "neither", "numeric", f"grid pairs {up}, {down}"
        else:
            mono_method = "numeric"
            mono = "nondecreasing" if not up else "nonincreasing"
    # --- curvature -----------------------------------------------------------
    curv, curv_method, curv_witness = None, "symbolic", ""
    second = [_sign_on_unit_interval_on(sp.diff(p, U, 2), iv) if symbolic else None for p, iv in pieces]
    jumps = []
    for (p_left, _), (p_right, iv_right) in zip(pieces, pieces[1:]) if symbolic else ():
        c = iv_right.start
        jumps.append(sp.simplify(sp.diff(p_right, U).subs(U, c) - sp.diff(p_left, U).subs(U, c)))
    if all(s is not None and s != "mixed" for s in second) and all(j.is_real and j.is_finite for j in jumps):
        concave_ok = all(s in {"-", "0", "<=0"} for s in second) and all(j <= 0 for j in jumps)
        convex_ok = all(s in {"+", "0", ">=0"} for s in second) and all(j >= 0 for j in jumps)
        if concave_ok and convex_ok:
            curv = "affine"
        elif concave_ok:
            curv = "concave"
        elif convex_ok:
            curv = "convex"
    if curv is None:
        curv, curv_method, curv_witness = _curvature_by_midpoints(expr, f)
    return Shape(mono, mono_method, mono_witness, curv, curv_method, curv_witness)


@lru_cache(maxsize=1024)
def _sign_on_unit_interval_on(expr: sp.Expr, iv: sp.Interval) -> str | None:
    """Sign of ``expr`` on the open interval ``iv`` (see :func:`_sign_on_unit_interval`).

    Kept per (expr, iv): the sign of h' on a piece is derived when h is built (:func:`classify`) and asked
    again by ``lemma:beta_lemma_monotone``'s conditions (:func:`rsb_theory.profile.family_beta`,
    :func:`rsb_theory.gap.beta_monotone`); SymPy's solveset is the slow part of both.
    """
    a, b = iv.start, iv.end
    t = sp.Symbol("t", real=True)
    # affine change of variable maps (a, b) onto (0, 1)
    return _sign_on_unit_interval(sp.simplify(expr.subs(U, a + (b - a) * t).subs(t, U)))


def _curvature_by_midpoints(expr: sp.Expr, f) -> tuple[str, str, str]:
    """Midpoint test h((x+y)/2) vs (h(x)+h(y))/2 on a grid, witnesses made exact."""
    x, y = _grid_values(f, 401)
    mid = 0.5 * (y[:-2] + y[2:])
    gap = y[1:-1] - mid  # >= 0 for concave
    found_concave_violation = np.nonzero(gap < -1e-12)[0]
    found_convex_violation = np.nonzero(gap > 1e-12)[0]

    def exact(i: int) -> str:
        a, m, b = (sp.Rational(str(round(float(v), 6))) for v in (x[i], x[i + 1], x[i + 2]))
        val = sp.simplify(expr.subs(U, m) - (expr.subs(U, a) + expr.subs(U, b)) / 2)
        return f"h({m}) - (h({a}) + h({b}))/2 = {val}"

    if found_concave_violation.size and found_convex_violation.size:
        return "neither", "numeric", f"{exact(found_concave_violation[0])}; {exact(found_convex_violation[0])}"
    if found_concave_violation.size:
        return "convex", "numeric", ""
    if found_convex_violation.size:
        return "concave", "numeric", ""
    return "affine", "numeric", ""


# ---------------------------------------------------------------------------
# The Distortion object
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Distortion:
    """A validated distortion function with all parameters fixed.

    Attributes
    ----------
    key : str
        Registry key (``"gini"``) or ``"custom"`` for a user expression.
    expr : sympy.Expr
        h as an expression in :data:`U` only.
    params : tuple of (str, sympy.Expr)
        Parameter values substituted into the family template.
    source : str
        The expression text the distortion came from.
    validation : Validation
    shape : Shape
    """

    key: str
    expr: sp.Expr
    params: tuple[tuple[str, sp.Expr], ...]
    source: str
    validation: Validation = field(repr=False)
    shape: Shape = field(repr=False)

    @property
    def numeric(self) -> Callable[[np.ndarray], np.ndarray]:
        """Vectorised NumPy evaluation of h (``lambdify``, cached per object)."""
        return _lambdify(self.expr)

    def __call__(self, x):
        """Evaluate h numerically at ``x`` (array-like)."""
        return self.numeric(np.asarray(x, dtype=float))

    @property
    def signed(self) -> bool:
        """True if h takes negative values on [0, 1] (a :func:`dual` of a non-monotone h).

        The paper states its results for h: [0, 1] -> [0, 1]; rsb computes U_h, alpha* and the
        Hölder constants of a signed h the same way, and says so where it reports them.
        """
        return self.validation.h_min < 0

    def describe(self) -> str:
        """The name with its parameters (``pht(s=1/2)``); a user's h by its expression, never ``custom``."""
        if self.key == "custom":
            return str(self.expr)
        if self.key == "dual(custom)":
            return f"dual({self.source[5:-1]})" if not self.params else str(self.expr)
        ps = ", ".join(f"{k}={v}" for k, v in self.params)
        if ps and self.key.startswith("dual(") and self.key.endswith(")"):
            return f"{self.key[:-1]}({ps}))"  # dual(pht(s=1/2)), not dual(pht)(s=1/2)
        return f"{self.key}({ps})" if ps else self.key


_LAMBDA_CACHE: dict[sp.Expr, Callable[[np.ndarray], np.ndarray]] = {}


def _lambdify(expr: sp.Expr) -> Callable[[np.ndarray], np.ndarray]:
    fn = _LAMBDA_CACHE.get(expr)
    if fn is None:
        raw = sp.lambdify(U, expr, modules="numpy")

        def fn(x, _raw=raw):
            x = np.asarray(x, dtype=float)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.asarray(_raw(x), dtype=float) * np.ones_like(x)

        _LAMBDA_CACHE[expr] = fn
    return fn


@lru_cache(maxsize=256)
def _derivative(expr: sp.Expr) -> Callable[[np.ndarray], np.ndarray]:
    raw = sp.lambdify(U, sp.diff(expr, U), modules="numpy")

    def fn(x):
        x = np.asarray(x, dtype=float)
        with np.errstate(all="ignore"):
            return np.asarray(raw(x), dtype=float) * np.ones_like(x)

    return fn


def numeric_derivative(d: "Distortion | sp.Expr") -> Callable[[np.ndarray], np.ndarray]:
    """Vectorised h' (``lambdify`` of the SymPy derivative, cached per expression).

    Where h' is not finite (u**s at 0, a kink of Min/Max) the value is whatever
    the lambdified derivative gives there (inf or nan); callers check.
    """
    return _derivative(d.expr if isinstance(d, Distortion) else d)


def _coerce_value(name: str, value) -> sp.Expr:
    if isinstance(value, sp.Expr):
        return value
    if isinstance(value, str):
        try:
            return parse_expression(value)
        except DistortionError:
            raise DistortionError(f"--param {name}", f"not a number: {value!r}") from None
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)):
            raise DistortionError(f"--param {name}", f"not finite: {value!r}")
        return sp.Rational(repr(float(value)))
    raise DistortionError(f"--param {name}", f"unsupported value {value!r}")


#: Points of [0, 1] where h is evaluated in complex arithmetic before anything else (:func:`check_real`).
_REAL_PROBES = tuple(sp.Rational(k, 16) for k in range(17))


def check_real(expr: sp.Expr, flag: str = "h") -> None:
    """DistortionError naming ``flag`` unless ``expr`` is a finite real function of u on [0, 1].

    ``u/0`` (SymPy's ``zoo``), ``u*log(0)`` and ``u*tan(pi/2)`` are not finite; ``sqrt(-u)`` and
    ``u*sqrt(-1)`` are complex-valued (SymPy's principal roots).  Checked before h is compiled or
    analysed: a complex h would otherwise pass as "constant" or "nondecreasing", and the
    numeric routes would drop its imaginary part.  The probe is exact where SymPy decides it
    (``I`` or ``zoo`` in the tree) and otherwise h at 17 points of [0, 1] evaluated to 30 digits.
    """
    bad = [a for a in (sp.zoo, sp.nan, sp.oo, -sp.oo) if expr.has(a)]
    if bad:
        raise DistortionError(flag, f"h is not finite on [0, 1] (SymPy reads it as {expr}, "
                              f"with {bad[0]})")
    if expr.has(sp.I):
        raise DistortionError(flag, f"h is complex-valued (SymPy reads it as {expr}); h must be real "
                              f"on [0, 1]")
    for x in _REAL_PROBES:
        try:
            v = expr.evalf(30, subs={U: x})  # numeric: never the exact power of a rational (u**(10**8))
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):  # pragma: no cover - SymPy's limits
            continue
        if v.has(sp.zoo, sp.nan) or v in (sp.oo, -sp.oo):
            if x in (0, 1):  # an end may be a removable point of an expression (sin(u)/u); the range check decides
                continue
            raise DistortionError(flag, f"h is not finite at u = {x} (h({x}) = {v})")
        re, im = v.as_real_imag()
        if im.is_number and abs(float(im)) > 1e-20 * max(1.0, abs(float(re)) if re.is_number else 1.0):
            raise DistortionError(flag, f"h is complex-valued: h({x}) = {sp.N(v, 6)}; h must be real "
                                  f"on [0, 1]")


def check_probed_range(expr: sp.Expr, low: int = 0, flag: str = "h") -> None:
    """DistortionError naming ``flag`` when h is outside [low, 1] at one of the probe points, with that value.

    The cheap part of the range check of :func:`validate`, run before it: h at the 17 points of
    :data:`_REAL_PROBES`, evaluated to 30 digits (the probes of :func:`check_real`), so that an h such as
    ``2*u`` is refused before SymPy's ``minimum``/``maximum`` or the shape analysis run.  Only a value
    outside the range by more than 1e-20 refuses; the exact check stays :func:`validate`'s.
    """
    worst, excess = None, 1e-20
    try:
        if abs(float(expr.evalf(30, subs={U: 0}))) > excess:
            return  # h(0) != 0: validate names that first, before its range check (it decides h(0) exactly)
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):  # a removable point at 0: validate decides
        pass
    for x in _REAL_PROBES:
        try:
            v = expr.evalf(30, subs={U: x})
            if not v.is_number or v.has(sp.zoo, sp.nan):
                continue
            value = float(v)
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):  # pragma: no cover - SymPy's limits
            continue
        if max(value - 1, low - value) > excess:
            worst, excess = (x, v), max(value - 1, low - value)
    if worst is not None:
        raise DistortionError(flag, f"not a distortion function, h({worst[0]}) = {sp.N(worst[1], 6)} is not within "
                                    f"[{low}, 1]")


def _make(key: str, expr: sp.Expr, params, source: str, low: int = 0) -> Distortion:
    check_real(expr)
    check_probed_range(expr, low)
    f = _lambdify(expr)
    validation = validate(expr, f, low)
    try:
        shape = classify(expr, f)
    except NotImplementedError as exc:  # SymPy cannot split h into pieces (abs of a periodic function, ...)
        reason = " ".join(str(exc).split())[:160]
        raise DistortionError("h", f"SymPy cannot analyse this h on [0, 1] ({reason}); rsb needs h as "
                              f"finitely many smooth pieces") from None
    return Distortion(key, expr, tuple(params), source, validation, shape)


def get(name: str, **params) -> Distortion:
    """A registered distortion: a row of ``table:table_regrets`` or an extension (cached: see :func:`_get`)."""
    try:
        key = tuple(sorted((k, v if isinstance(v, (str, int, float, sp.Expr)) else repr(v)) for k, v in params.items()))
        hash(key)
    except TypeError:  # pragma: no cover - unhashable parameter value
        return _get(name, **params)
    return _get_cached(name, key)


@lru_cache(maxsize=256)
def _get_cached(name: str, key: tuple) -> Distortion:
    return _get(name, **dict(key))


def _get(name: str, **params) -> Distortion:
    """A registered distortion (a row of ``table:table_regrets`` or an extension) with its parameters.

    Parameters
    ----------
    name : str
        One of :func:`family_names` (:data:`REGISTRY`, then :data:`EXTENSIONS`).
    **params
        Parameter values (numbers or strings such as ``"1/2"``); missing ones
        take the family default.

    Raises
    ------
    DistortionError
        Unknown ``name``, unknown parameter, or a value outside its domain.
    """
    if name not in FAMILIES:
        raise DistortionError("--dr", f"unknown distortion {name!r}; known: {', '.join(FAMILIES)}")
    fam = FAMILIES[name]
    declared = {p.name: p for p in fam.parameters}
    unknown = set(params) - set(declared)
    if unknown:
        raise DistortionError(
            "--param", f"{name} has no parameter {sorted(unknown)[0]!r}; "
            f"declared: {', '.join(declared) or 'none'}"
        )
    values = []
    for p in fam.parameters:
        v = _coerce_value(p.name, params[p.name]) if p.name in params else p.default
        if not v.is_number or not bool(p.domain.contains(v)):
            raise DistortionError(f"--param {p.name}", f"{v} is outside the domain {p.domain} of {name}")
        values.append((p.name, v))
    expr = fam.expression().subs({declared[k].symbol: v for k, v in values})
    too_big = structural_budget(expr, U)
    if too_big is not None:
        raise DistortionError("--param", f"{name} with {', '.join(f'{k}={str(v)[:40]}' for k, v in values)}: {too_big}")
    return _make(name, sp.simplify(expr) if fam.parameters else expr, values, fam.template)


def from_string(text: str, **params) -> Distortion:
    """A user-defined distortion from an expression string.

    Parameters
    ----------
    text : str
        Expression in ``u`` (see :func:`parse_expression`).
    **params
        Values for any other names used in ``text`` (``--param k=v``).

    Raises
    ------
    DistortionError
        Malformed expression, unknown name, or h not a distortion function.
    """
    symbols = {k: sp.Symbol(k, real=True) for k in params}
    expr = parse_expression(text, symbols)
    unused = [k for k in params if symbols[k] not in expr.free_symbols]
    if unused:  # an option that changes nothing is an error (README), not echoed as if it had an effect
        raise DistortionError(f"--param {unused[0]}", f"h = {text} does not use {unused[0]!r}")
    expr = expr.subs({symbols[k]: _coerce_value(k, v) for k, v in params.items()})
    if expr.free_symbols - {U}:
        raise DistortionError("h", f"free symbols {sorted(map(str, expr.free_symbols - {U}))} need --param values")
    too_big = structural_budget(expr, U)
    if too_big is not None:
        raise DistortionError("h", too_big)
    return _make("custom", expr, [(k, _coerce_value(k, v)) for k, v in params.items()], text)


def dual(d: Distortion) -> Distortion:
    """The dual distortion h*(u) = h(1) - h(1 - u) (cached per distortion).

    For X >= 0, U_{h*}(F) = int_0^oo (h(1) - h(F(x))) dx: the weight h'(1 - t) that
    U_h puts on the quantile level t (module docstring) moves to level 1 - t, so the
    upper tail becomes the lower one: ``dual(cvar)`` with parameter alpha is
    ``cvar_lower`` with parameter 1 - alpha, ``dual(dual(h)) = h``, ``dual(mean) = mean``.
    The dual of a concave h is convex (V(alpha) is then convex and a single arm is
    optimal), and Hölder exponents and constants are those of h (|h*(x) - h*(y)| =
    |h(1 - x) - h(1 - y)|).  For a non-monotone h with h(1) = 0 (gini, mean_median,
    inter_es, right_tail) h* = -h(1 - u) <= 0: minus the deviation, which a bandit
    maximising U_{h*} keeps small; such an h* lies outside the paper's
    h: [0, 1] -> [0, 1] (:attr:`Distortion.signed`).

    Returns
    -------
    Distortion
        Key ``dual(<key of d>)``, the parameters of ``d``, source ``dual(<source of d>)``.
    """
    return _dual_cached(d)


@lru_cache(maxsize=256)
def _dual_cached(d: Distortion) -> Distortion:
    expr = d.expr.subs(U, 1) - d.expr.subs(U, 1 - U)
    # expand polynomials so that SymPy's shape and DCP routes see them as they see the table's rows
    expr = sp.expand(expr) if expr.is_polynomial(U) else expr
    return _make(f"dual({d.key})", expr, d.params, f"dual({d.source})", low=-1)


def _dual_argument(text: str) -> str | None:
    """``"gini"`` for ``"dual(gini)"`` (the whole text one call of ``dual``), else None."""
    src = text.strip()
    if not (src.startswith("dual") and src.endswith(")")):
        return None
    rest = src[4:].lstrip()
    if not rest.startswith("("):
        return None
    depth = 0
    for i, ch in enumerate(rest):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            # the parenthesis opened after "dual" must close at the very end: "dual(u)*dual(u)" is not one call
            return rest[1:i] if i == len(rest) - 1 else None
    return None


def resolve(name_or_expr: str, **params) -> Distortion:
    """A family name (:func:`family_names`), ``dual(NAME)`` or ``dual(EXPR)``, else a user expression.

    ``dual(...)`` wraps any text this function accepts (``dual(cvar)``, ``dual(u**2)``,
    ``dual(dual(gini))``); ``params`` go to the inner distortion.  The inner text is a
    family name or goes through the one parser (:mod:`rsb_theory.expressions`).
    """
    if isinstance(name_or_expr, str):
        inner = _dual_argument(name_or_expr)
        if inner is not None:
            return dual(resolve(inner.strip(), **params))
    if name_or_expr in FAMILIES:
        return get(name_or_expr, **params)
    text = name_or_expr.strip() if isinstance(name_or_expr, str) else name_or_expr
    if isinstance(text, str) and text.isidentifier() and text not in {"u", *params}:
        if text.lower() in FAMILIES:  # names are case-insensitive (Gini, CVaR); expressions are not (u, s)
            return get(text.lower(), **params)
        from .arguments import closest

        near = closest(text, tuple(FAMILIES))
        hint = f" (did you mean {near}?)" if near else ""
        raise DistortionError(
            "h", f"{text!r} is neither a registered distortion{hint} ({', '.join(FAMILIES)}, or dual(NAME)) "
            f"nor an expression in u"
        )
    return from_string(name_or_expr, **params)
