"""Hölder exponents and constants for the Bernoulli family.

For Bernoulli arms every mixture is Bernoulli (see
:func:`rsb_theory.riskmetric.mixture_of_bernoullis`): U_h(G) = h(p_G) and
||G_1 - G_2||_W = |p_1 - p_2| (``lemma:lipschitz-wasserstein``).  Hence

* ``assumption:Holder`` (exponent q, constant L_H) is the Hölder continuity of
  h itself on the convex hull of the arm means — on [0, 1] for the whole
  family, the setting of ``table:table_risks``;
* ``assumption:Holder_opt`` (exponent r, constant L_MH) is the one-sided bound
  h(p*) - h(x) <= L_MH |p* - x|^r on [min p, max p], with p* = <alpha*, p>.

Derivation (symbolic): h is split into smooth pieces (Min/Max/Abs rewritten
as Piecewise).  The only places where a ratio |h(x) - h(y)| / |x - y|^q can
blow up are points where h is not Lipschitz; the candidates are the interval's
ends, the breakpoints and the singularities of each piece's derivative.  At
each candidate c the one-sided leading term of h(c +- t) - h(c) as t -> 0+
(a Puiseux expansion) gives the local exponent; q is the smallest of these,
capped at 1.  r is the order of vanishing of h(p*) - h(p* +- t) on the sides
of p* that lie inside [min p, max p] (not capped: r may exceed 1).

Constants: L_H for q = 1 is sup |h'| over the pieces (symbolic maximum);
otherwise a supremum of the two-point ratio, computed numerically and never
below the symbolic limit of the ratio at the singular point.  L_MH is the
supremum of the one-variable ratio, symbolic where SymPy decides it within
the work budget of :mod:`rsb_theory.budgets` (decided from the structure of h,
never from the time taken), else numeric; the method is recorded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from .budgets import Algebraic, algebraic_degree, exact_budget, explicit_number, shape_budget, within_budget
from .distortions import U, Distortion, DistortionError, _pieces, exact_number
from .errors import ArgumentError

_T = sp.Symbol("t", positive=True)


class HolderError(ArgumentError):
    """h is not Hölder continuous (e.g. discontinuous) or input is invalid."""


@dataclass(frozen=True)
class LocalOrder:
    """One-sided leading behaviour h(c +- t) - h(c) ~ coeff * t**order (t -> 0+).

    ``log_factor`` is True when the leading term carries a log(t), in which
    case every exponent below ``order`` works but ``order`` itself does not.
    ``order`` is ``oo`` where h is locally constant.
    """

    point: sp.Expr
    side: int
    order: sp.Expr
    coeff: sp.Expr
    log_factor: bool


@dataclass(frozen=True)
class HolderResult:
    """Exponent q and constant L_H of ``assumption:Holder`` on an interval.

    Attributes
    ----------
    q : sympy.Expr
        Largest exponent in (0, 1] with a finite constant.
    attained : bool
        False when only exponents strictly below ``q`` have finite constants.
    L_H : float
        The smallest constant for exponent ``q`` (``inf`` if not attained).
    L_exact : sympy.Expr or None
        The constant in closed form when derived symbolically.
    L_method : str
        ``"symbolic"`` or ``"numeric"``.
    critical : tuple of LocalOrder
        The local orders that determine ``q``.
    interval : tuple of sympy.Expr
    """

    q: sp.Expr
    attained: bool
    L_H: float
    L_exact: sp.Expr | None
    L_method: str
    critical: tuple[LocalOrder, ...]
    interval: tuple[sp.Expr, sp.Expr]

    def evidence(self) -> str:
        crit = ", ".join(
            f"h(u{'+' if c.side > 0 else '-'}t)-h(u) ~ ({c.coeff})*t^{c.order} at u={c.point}" for c in self.critical
        )
        L = f"{self.L_exact}" if self.L_exact is not None else f"{self.L_H:.6g}"
        return (
            f"q = {self.q} on [{self.interval[0]}, {self.interval[1]}]"
            f"{' (limit only)' if not self.attained else ''}"
            f"{'; limiting points: ' + crit if crit else '; h is Lipschitz'}; L_H = {L} ({self.L_method})"
        )


@dataclass(frozen=True)
class MixtureHolderResult:
    """Exponent r and constant L_MH of ``assumption:Holder_opt`` at an instance.

    Attributes
    ----------
    p_star : sympy.Expr
        Mean of the optimal mixture, argmax of h on [min p, max p].
    optimal_means : tuple of sympy.Expr
        All maximisers (several when h has ties or flat tops).
    solitary : bool
        True when p_star is one of the arm means (a solitary arm is optimal).
    r : sympy.Expr
        Largest valid exponent (``oo`` if h is locally constant at p*).
    attained : bool
    L_MH : float
        Smallest constant for ``r``.
    L_exact : sympy.Expr or None
    L_method : str
    orders : tuple of LocalOrder
    """

    p_star: sp.Expr
    optimal_means: tuple[sp.Expr, ...]
    solitary: bool
    r: sp.Expr
    attained: bool
    L_MH: float
    L_exact: sp.Expr | None
    L_method: str
    orders: tuple[LocalOrder, ...]
    interval: tuple[sp.Expr, sp.Expr]

    def holds_with(self, r_value: sp.Expr) -> bool:
        """Whether a (smaller) exponent ``r_value`` is also valid: any r' <= r is.

        On [min p, max p] within [0, 1], |p* - x| <= 1, so |p* - x|^r <= |p* - x|^r'
        for r' <= r and the constant for r carries over.
        """
        r_value = exact_number(r_value, "r")
        return bool(r_value <= self.r) if self.attained else bool(r_value < self.r)

    def evidence(self) -> str:
        orders = ", ".join(
            f"h(p*)-h(p*{'+' if o.side > 0 else '-'}t) ~ ({sp.simplify(-o.coeff)})*t^{o.order}" for o in self.orders
        )
        L = f"{self.L_exact}" if self.L_exact is not None else f"{self.L_MH:.6g}"
        if self.r == sp.oo:
            L = "any (h is constant near p*, so every r > 0 holds)"
        kind = "solitary" if self.solitary else "mixture"
        return (
            f"p* = {self.p_star} ({kind}) on [{self.interval[0]}, {self.interval[1]}]; {orders}; "
            f"r = {self.r}{'' if self.attained else ' (limit only)'}, L_MH = {L} ({self.L_method})"
        )


# ---------------------------------------------------------------------------
# local expansions
# ---------------------------------------------------------------------------


def _piece_at(pieces, c: sp.Expr, side: int) -> sp.Expr:
    """The smooth piece of h that governs (c, c + delta) (side=+1) or (c - delta, c)."""
    for expr, iv in pieces:
        if side > 0 and iv.start <= c < iv.end:
            return expr
        if side < 0 and iv.start < c <= iv.end:
            return expr
    raise HolderError("h", f"no piece of h covers u = {c} from side {side}")


def _is_zero(x: sp.Expr) -> bool:
    """True if the number ``x`` is 0: by SymPy's ``equals``, else to 100 significant digits.

    A jump between two pieces of ``min(u, (1-u)**0.7)`` at their crossing is ``-r + (1-r)**(7/10)``
    with r a root of a polynomial (``CRootOf``): exactly 0, but not simplified to 0.  A
    difference of algebraic numbers that is not 0 is far above 1e-90 for any expression a user types.
    """
    try:
        if x.equals(0):
            return True
        v = sp.N(x, 100)
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):  # pragma: no cover - SymPy's limits
        return False
    if not v.is_number or v.has(sp.nan, sp.zoo) or v.is_finite is False:
        return False
    return bool(abs(v) < sp.Float("1e-90", 100))


def local_order(d: Distortion, c: sp.Expr, side: int) -> LocalOrder:
    """Leading term of h(c + side*t) - h(c) as t -> 0+ (Puiseux, via SymPy).

    Raises
    ------
    HolderError
        If h jumps at c (order 0): h is then not Hölder continuous.
    """
    pieces = _pieces(d.expr)
    piece = _piece_at(pieces, c, side)
    inexact = exact_budget(piece) if c not in (0, 1) else None
    if inexact is not None or shape_budget(pieces, U) is not None:  # beyond simplify's budget: Taylor where it applies
        taylor = _taylor_order(piece, c, side, d.expr)
        if taylor is not None:
            return taylor
        if inexact is not None:  # simplify would build numbers of that many digits, for minutes or for ever
            flag = "--param" if d.params and d.key != "custom" else "h"
            raise HolderError(flag, f"the local order of h = {str(d.expr)[:60]} at u = {c} is not decided: its "
                                    f"derivatives there vanish to 90 digits or h is not analytic there, and {inexact}")
    h_c = d.expr.subs(U, c)
    g = sp.simplify(piece.subs(U, c + side * _T) - h_c)
    if g == 0:
        return LocalOrder(c, side, sp.oo, sp.Integer(0), False)
    jump = sp.limit(g, _T, 0, "+")
    if jump != 0:
        if not _is_zero(jump):
            raise HolderError("h", f"h jumps by {jump} at u = {c}; it is not Hölder continuous")
        # h(c) is the piece's value at c, in another form (a CRootOf crossing): expand the piece about itself
        g = sp.simplify(piece.subs(U, c + side * _T) - piece.subs(U, c))
        if g == 0:
            return LocalOrder(c, side, sp.oo, sp.Integer(0), False)
    try:
        lead = sp.simplify(g.as_leading_term(_T))
    except (sp.PoleError, NotImplementedError) as exc:  # u**(1-u) at 0: SymPy finds no expansion
        raise HolderError("h", f"SymPy cannot expand h about u = {c} ({' '.join(str(exc).split())[:120]}); "
                          f"rsb needs its leading term for the Hölder exponent") from None
    log_factor = lead.has(sp.log)
    base = lead.subs(sp.log(_T), 1) if log_factor else lead
    coeff, power = base.as_coeff_exponent(_T)
    if power == 0 or coeff.has(_T):  # pragma: no cover - unusual leading term
        power = sp.nsimplify(sp.limit(sp.log(sp.Abs(g)) / sp.log(_T), _T, 0, "+"))
        coeff = sp.nan
    return LocalOrder(c, side, sp.sympify(power), sp.simplify(coeff), bool(log_factor))


#: Highest derivative :func:`_taylor_order` tries.
TAYLOR_ORDERS = 8
#: Digits of the evaluations of :func:`_taylor_order`; a value below 10^-(TAYLOR_DIGITS - 10) counts as 0, the rule of
#: :func:`_is_zero`.
TAYLOR_DIGITS = 100


def _analytic_at(piece: sp.Expr, c: sp.Expr) -> bool:
    """True when ``piece`` is analytic at ``c``: every base of a non-integer or negative power, every log's
    argument and every tan's cosine is non-zero there (to 30 digits, far from 0); the other functions are entire."""
    for node in sp.preorder_traversal(piece):
        if not node.has(U):
            continue
        if node.is_Pow and not (node.exp.is_Integer and node.exp >= 0):
            at = node.base
        elif isinstance(node, sp.log):
            at = node.args[0]
        elif isinstance(node, sp.tan):
            at = sp.cos(node.args[0])
        elif isinstance(node, (sp.Abs, sp.Min, sp.Max, sp.Piecewise, sp.sign)):
            return False
        else:
            continue
        try:
            v = sp.N(at.subs(U, c), 30)
            if not (v.is_number and v.is_real and abs(float(v)) > 1e-20) or (isinstance(node, sp.log) and v < 0):
                return False
        except (TypeError, ValueError, ArithmeticError):
            return False
    return True


def _taylor_order(piece: sp.Expr, c: sp.Expr, side: int, h: sp.Expr) -> LocalOrder | None:
    """The leading term of h(c + side t) - h(c) from the derivatives of the piece at c (Taylor), or None.

    The route for pieces beyond the budget of :func:`rsb_theory.budgets.shape_budget` (a degree-64
    polynomial, the crossing of ``min(u, (1-u)**0.7)``, a root of a polynomial of degree 10), where the
    expansion by ``simplify`` and ``limit`` took seconds to minutes per point: where the piece is
    analytic at c, the order is the first k with a non-zero k-th derivative and the coefficient is
    side^k h^(k)(c) / k!.  Each is evaluated to :data:`TAYLOR_DIGITS` digits, with the rule of
    :func:`_is_zero` (below 1e-90 is 0); the coefficient stays exact when it is an explicit number and is
    a float otherwise.  None (the expansion decides) where the piece is not analytic at c or its first
    :data:`TAYLOR_ORDERS` derivatives vanish there.  A number of derivatives, never a time.
    """
    if not _analytic_at(piece, c):
        return None
    import mpmath

    tiny = sp.Float(10) ** (10 - TAYLOR_DIGITS)
    try:
        with mpmath.workdps(TAYLOR_DIGITS + 10):  # h(c) numerically: Min(c, ...) at an implicit root c would be
            h_c = sp.lambdify(U, h, "mpmath")(sp.N(c, TAYLOR_DIGITS + 10))  # decided symbolically, for seconds
            jump = sp.N(piece.subs(U, c), TAYLOR_DIGITS) - sp.Float(h_c, TAYLOR_DIGITS)
    except (TypeError, ValueError, ArithmeticError):
        return None
    if not jump.is_number or abs(jump) > tiny:
        return None  # a jump, or a value SymPy cannot evaluate: the expansion decides and words it
    dk = piece
    for k in range(1, TAYLOR_ORDERS + 1):
        dk = sp.diff(dk, U)
        exact = dk.subs(U, c)
        value = sp.N(exact, TAYLOR_DIGITS)
        if not value.is_number:
            return None
        if abs(value) > tiny:
            coeff = exact * side**k / sp.factorial(k)
            if explicit_number(coeff) is not None:
                coeff = sp.Float(value * side**k / sp.factorial(k), 15)
            return LocalOrder(c, side, sp.Integer(k), coeff, False)
    return None


def _candidate_points(d: Distortion, a: sp.Expr, b: sp.Expr) -> list[sp.Expr]:
    """Ends, breakpoints and derivative singularities of h within [a, b]."""
    pts = {a, b}
    for expr, iv in _pieces(d.expr):
        for end in (iv.start, iv.end):
            if a < end < b:
                pts.add(end)
        lo, hi = sp.Max(iv.start, a), sp.Min(iv.end, b)
        if lo < hi:
            try:
                sing = sp.singularities(sp.diff(expr, U), U, sp.Interval(lo, hi))
            except (NotImplementedError, ValueError):  # pragma: no cover
                sing = sp.EmptySet
            if isinstance(sing, sp.FiniteSet):
                pts.update(s for s in sing if s.is_real)
    return sorted(pts, key=float)


def _check_interval(a, b) -> tuple[sp.Expr, sp.Expr]:
    try:
        a, b = exact_number(a, "p"), exact_number(b, "p")
    except DistortionError as exc:
        raise HolderError(exc.name, exc.message) from None
    if not (0 <= a <= b <= 1):
        raise HolderError("p", f"need 0 <= min p <= max p <= 1, got [{a}, {b}]")
    return a, b


# ---------------------------------------------------------------------------
# assumption:Holder
# ---------------------------------------------------------------------------


def _sup_abs_derivative(d: Distortion, a, b) -> sp.Expr:
    """sup |h'| over [a, b], symbolically piece by piece (critical points + ends)."""
    best = sp.Integer(0)
    for expr, iv in _pieces(d.expr):
        lo, hi = sp.Max(iv.start, a), sp.Min(iv.end, b)
        if not lo < hi:
            continue
        dh = sp.diff(expr, U)
        cand = [sp.limit(dh, U, lo, "+"), sp.limit(dh, U, hi, "-")]
        crit = sp.solveset(sp.diff(dh, U), U, sp.Interval.open(lo, hi))
        if isinstance(crit, sp.FiniteSet):
            cand += [dh.subs(U, c) for c in crit]
        elif crit != sp.EmptySet and not crit.is_empty:
            # a whole interval of critical points means dh is constant there
            cand.append(dh.subs(U, (lo + hi) / 2))
        for v in cand:
            v = sp.Abs(sp.simplify(v))
            if v == sp.oo or v.has(sp.zoo):
                return sp.oo
            if v.is_number and bool(v > best):
                best = v
    return sp.simplify(best)


def _sup_abs_derivative_numeric(d: Distortion, a, b, n: int = 20001) -> float:
    """sup |h'| over [a, b] from h' of each piece on a grid of ``n`` points, refined around the largest.

    The route beyond the work budget of the symbolic one (:func:`_sup_abs_derivative`): h' itself, not a
    difference quotient of h (whose rounding error on close points is of the order of 1e-4 here).
    """
    from scipy import optimize

    best = 0.0
    for expr, iv in _pieces(d.expr):
        lo, hi = float(sp.Max(iv.start, a)), float(sp.Min(iv.end, b))
        if not lo < hi:
            continue
        dh = sp.lambdify(U, sp.diff(expr, U), "numpy")
        x = np.linspace(lo, hi, n)
        with np.errstate(all="ignore"):
            y = np.abs(np.asarray(dh(x), dtype=float) * np.ones_like(x))
        if not np.all(np.isfinite(y)):
            return math.inf
        i = int(np.argmax(y))
        step = (hi - lo) / (n - 1)
        res = optimize.minimize_scalar(lambda t: -abs(float(dh(t))), bounds=(max(lo, x[i] - step), min(hi, x[i] + step)),
                                       method="bounded", options={"xatol": 1e-14})
        best = max(best, float(y[i]), -float(res.fun))
    return best


def _geometric_grid(a: float, b: float, singular: list[float], n: int = 1500) -> np.ndarray:
    """Uniform grid on [a, b] refined geometrically towards singular points."""
    pts = [np.linspace(a, b, n)]
    for c in singular:
        for sgn in (-1, 1):
            off = np.geomspace(1e-12, 1.0, 300) * sgn
            pts.append(np.clip(c + off, a, b))
    return np.unique(np.concatenate(pts))


def _sup_two_point_ratio(f, q: float, a: float, b: float, singular: list[float]) -> float:
    """sup |h(x) - h(y)| / |x - y|^q over a <= x < y <= b, numerically."""
    x = _geometric_grid(a, b, singular, 900)
    hx = f(x)
    X, Y = np.meshgrid(x, x, indexing="ij")
    HX, HY = np.meshgrid(hx, hx, indexing="ij")
    with np.errstate(divide="ignore", invalid="ignore"):
        R = np.abs(HX - HY) / np.abs(X - Y) ** q
    R[~np.isfinite(R)] = 0.0
    i, j = np.unravel_index(np.argmax(R), R.shape)
    best = float(R[i, j])

    def neg(v):
        xx, yy = np.clip(v, a, b)
        if abs(xx - yy) < 1e-14:
            return 0.0
        return -abs(float(f(np.array([xx]))[0] - f(np.array([yy]))[0])) / abs(xx - yy) ** q

    from scipy import optimize  # here: importing SciPy's optimizer costs every `rsb simulate` 0.3-0.5 s of start-up

    res = optimize.minimize(neg, x0=[x[i], x[j]], method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-14})
    return max(best, -float(res.fun))


def _check_distortion(d) -> None:
    """HolderError naming ``d`` unless it is a Distortion (a name or an expression string is not)."""
    if not isinstance(d, Distortion):
        raise HolderError("d", "expected a Distortion (rsb_theory.distortions.get or resolve), got "
                          f"{type(d).__name__} {str(d)[:40]!r}")


def holder(d: Distortion, interval=(0, 1)) -> HolderResult:
    """Exponent q and constant L_H of ``assumption:Holder`` for Bernoulli mixtures.

    Parameters
    ----------
    d : Distortion
    interval : (a, b)
        Convex hull of the arm means; (0, 1) is the whole Bernoulli family, the
        setting of ``table:table_risks``.

    Returns
    -------
    HolderResult
    """
    _check_distortion(d)
    a, b = _check_interval(*interval)
    if a == b:
        return HolderResult(sp.Integer(1), True, 0.0, sp.Integer(0), "symbolic", (), (a, b))
    orders = []
    for c in _candidate_points(d, a, b):
        for side in (+1, -1):
            if (side > 0 and c < b) or (side < 0 and c > a):
                orders.append(local_order(d, c, side))
    limiting = [o for o in orders if o.order < 1 or (o.order == 1 and o.log_factor)]
    if limiting:
        q = min(o.order for o in limiting)
        critical = tuple(o for o in limiting if o.order == q)
        attained = not any(o.log_factor for o in critical)
    else:
        q, critical, attained = sp.Integer(1), (), True
    if not attained:
        return HolderResult(q, False, math.inf, None, "symbolic", critical, (a, b))
    if q == 1:
        if shape_budget(_pieces(d.expr), U) is not None:  # solveset of h'' = 0 beyond its budget: h' on a grid
            return HolderResult(q, True, _sup_abs_derivative_numeric(d, a, b), None, "numeric", critical, (a, b))
        try:
            L = _sup_abs_derivative(d, a, b)
        except NotImplementedError:  # SymPy cannot solve h'' = 0 in closed form (radicals, ...): sup |h'| on a grid
            L = _sup_two_point_ratio(d.numeric, 1.0, float(a), float(b), [])
            return HolderResult(q, True, L, None, "numeric", critical, (a, b))
        return HolderResult(q, True, float(L), L, "symbolic", critical, (a, b))
    lower = max(float(sp.Abs(o.coeff)) for o in critical)
    sup = _sup_two_point_ratio(d.numeric, float(q), float(a), float(b), [float(o.point) for o in critical])
    L = max(lower, sup)
    exact = sp.simplify(max(sp.Abs(o.coeff) for o in critical)) if abs(sup - lower) <= 1e-6 * max(1.0, lower) else None
    return HolderResult(q, True, L, exact, "numeric" if exact is None else "symbolic+numeric", critical, (a, b))


# ---------------------------------------------------------------------------
# assumption:Holder_opt
# ---------------------------------------------------------------------------


def optimal_means(d: Distortion, a, b) -> tuple[sp.Expr, ...]:
    """All maximisers of h on [a, b] (exact: ends, breakpoints, critical points).

    For Bernoulli arms V(alpha) = h(<alpha, p>) (``eq:V``), so the optimal
    mixtures of ``eq:optimal alpha`` are those with <alpha, p> in this set.
    A flat top contributes its two ends.
    """
    _check_distortion(d)
    a, b = _check_interval(a, b)
    cand = set(_candidate_points(d, a, b))
    for expr, iv in _pieces(d.expr):
        lo, hi = sp.Max(iv.start, a), sp.Min(iv.end, b)
        if lo < hi:
            crit = sp.solveset(sp.diff(expr, U), U, sp.Interval.open(lo, hi))
            if isinstance(crit, sp.FiniteSet):
                cand.update(crit)
            elif isinstance(crit, sp.Interval):
                cand.update({crit.start, crit.end})
    values = {c: sp.simplify(d.expr.subs(U, c)) for c in cand}
    top = max(values.values(), key=lambda v: float(v.evalf(30)))
    best = [c for c, v in values.items() if abs(float((v - top).evalf(30))) < 1e-25 and sp.simplify(v - top) == 0]
    return tuple(sorted(best, key=float))


def _symbolic_sup_ratio(d: Distortion, p_star, r, a, b) -> sp.Expr:
    """Exact sup of (h(p*) - h(x)) / |p* - x|^r over [a, b] (ends, limits, critical points)."""
    h_star = d.expr.subs(U, p_star)
    best = sp.Integer(0)
    for expr, iv in _pieces(d.expr):
        lo, hi = sp.Max(iv.start, a), sp.Min(iv.end, b)
        for side, s_lo, s_hi in ((-1, lo, sp.Min(hi, p_star)), (+1, sp.Max(lo, p_star), hi)):
            if not s_lo < s_hi:
                continue
            ratio = sp.simplify((h_star - expr) / (side * (U - p_star)) ** r)
            cand = [sp.limit(ratio, U, s_lo, "+"), sp.limit(ratio, U, s_hi, "-")]
            crit = sp.solveset(sp.diff(ratio, U), U, sp.Interval.open(s_lo, s_hi))
            if isinstance(crit, sp.FiniteSet):
                cand += [ratio.subs(U, c) for c in crit]
            elif not (crit.is_empty or isinstance(crit, sp.Interval)):
                raise ValueError("critical points not found in closed form")
            for v in cand:
                v = sp.simplify(v)
                if not (v.is_number and v.is_finite):
                    raise ValueError(f"non-finite candidate {v}")
                if bool(v > best):
                    best = v
    return best


def sup_ratio_budget(d: Distortion, p_star, r, a, b) -> str | None:
    """Why :func:`_symbolic_sup_ratio` is not tried on this input (None: it is).

    The work budget of :mod:`rsb_theory.budgets`, decided from the structure of
    the input before any SymPy call: p*, a and b explicit numbers, r rational,
    the pieces of h on [a, b] algebraic with few simple radicals, and the degree
    of the ratio (h(p*) - h(u)) / |u - p*|^r -- the piece's degree plus r, in
    powers of u^(1/D) -- at most :data:`rsb_theory.budgets.MAX_DEGREE`.  So the
    same h takes the same route on any machine, and ``u**0.3*(1-u)`` or
    ``sin(pi*u)`` go to the numeric route at once instead of running SymPy for
    seconds to minutes.
    """
    for x, name in ((p_star, "p*"), (a, "a"), (b, "b")):
        why = explicit_number(x)
        if why is not None:
            return f"{name}: {why}"
    r = sp.sympify(r)
    if not (r.is_Rational and r > 0):
        return f"the exponent r = {r} is not a positive rational"
    profile = Algebraic()
    for expr, iv in _pieces(d.expr):
        if not sp.Max(iv.start, a) < sp.Min(iv.end, b):
            continue
        profile, why = algebraic_degree(expr, U, profile)
        if why is not None:
            return why
    if not r.is_Integer:
        profile.add_radical(U - p_star, r, U)
    profile.degree = profile.degree + r
    return within_budget(profile)


def sup_one_point_ratio(d: Distortion, p_star, r, a, b) -> tuple[float, sp.Expr | None, str]:
    """sup over x in [a, b], x != p*, of (h(p*) - h(x)) / |p* - x|^r.

    Symbolic route :func:`_symbolic_sup_ratio`, tried only within the work
    budget of :func:`sup_ratio_budget`, against a dense numeric grid refined
    geometrically towards p*; the symbolic value is reported (method
    ``"symbolic"``) only when both agree to 1e-4 relative, else the larger of
    the two (``"numeric"``).
    """
    x = _geometric_grid(float(a), float(b), [float(p_star)], 20000)
    x = x[np.abs(x - float(p_star)) > 1e-5]
    with np.errstate(all="ignore"):
        ratio = (float(d.expr.subs(U, p_star)) - d.numeric(x)) / np.abs(float(p_star) - x) ** float(r)
    num = float(np.nanmax(ratio)) if x.size else 0.0
    if sup_ratio_budget(d, p_star, r, a, b) is not None:
        return num, None, "numeric"
    try:
        exact = _symbolic_sup_ratio(d, p_star, r, a, b)
    except (NotImplementedError, ValueError, TypeError):
        return num, None, "numeric"
    if abs(float(exact) - num) <= 1e-4 * max(1.0, num):
        return float(exact), exact, "symbolic"
    return max(num, float(exact)), None, "numeric"


def mixture_holder(d: Distortion, p) -> MixtureHolderResult:
    """Exponent r and constant L_MH of ``assumption:Holder_opt`` at instance ``p``.

    Parameters
    ----------
    d : Distortion
    p : sequence of float
        Bernoulli means in [0, 1].

    Returns
    -------
    MixtureHolderResult
        The largest valid r (with its constant); use
        :meth:`MixtureHolderResult.holds_with` for a smaller printed value.
    """
    _check_distortion(d)
    try:
        p = [exact_number(x, "p") for x in p]
    except DistortionError as exc:
        raise HolderError(exc.name, exc.message) from None
    if len(p) < 1 or any(not (0 <= x <= 1) for x in p):
        raise HolderError("p", f"means must lie in [0, 1], got {[str(x) for x in p]}")
    a, b = min(p), max(p)
    opts = optimal_means(d, a, b)
    if a == b:
        return MixtureHolderResult(a, opts, True, sp.oo, True, 0.0, sp.Integer(0), "symbolic", (), (a, b))
    best = None
    for p_star in opts:
        orders = tuple(local_order(d, p_star, s) for s in (+1, -1) if (s > 0 and p_star < b) or (s < 0 and p_star > a))
        r = min(o.order for o in orders)
        attained = not any(o.log_factor for o in orders if o.order == r)
        cand = (r, attained, p_star, orders)
        if best is None or bool(r > best[0]):
            best = cand
    r, attained, p_star, orders = best
    solitary = any(sp.simplify(p_star - x) == 0 for x in p)
    if r == sp.oo or not attained:
        return MixtureHolderResult(p_star, opts, solitary, r, attained, math.inf if not attained else math.nan,
                                   None, "symbolic", orders, (a, b))
    L, L_exact, method = sup_one_point_ratio(d, p_star, r, a, b)
    return MixtureHolderResult(p_star, opts, solitary, r, attained, L, L_exact, method, orders, (a, b))


def family_mixture_exponent(d: Distortion, solitary: bool) -> tuple[sp.Expr, str]:
    """The r of ``table:table_risks`` for the Bernoulli family, per class of instances.

    For instances whose optimum is a mixture, p* is an interior maximiser of h
    on [0, 1] and r is the two-sided order there (the instance p = (0, 1)
    brackets it).  For solitary-optimal instances p* = max p = c (h monotone)
    and r is the smallest left order over c in (0, 1]: 1 at every point where
    h' is finite and non-zero, smaller only at singularities of h'.

    Returns
    -------
    (r, evidence)
    """
    if not solitary:
        res = mixture_holder(d, [0, 1])
        return res.r, res.evidence()
    orders = []
    for c in _candidate_points(d, sp.Integer(0), sp.Integer(1)):
        if c > 0:
            orders.append(local_order(d, c, -1))
    singular = [o for o in orders if o.order < 1]
    if singular:
        r = min(o.order for o in singular)
        return r, f"left order {r} at u = {[str(o.point) for o in singular if o.order == r]}"
    return sp.Integer(1), ("h(c) - h(c - t) ~ h'(c) t with h'(c) finite and non-zero for generic c in (0, 1]; "
                           "no singularity of h' in (0, 1]")
