"""The oracle mixture of ``eq:optimal alpha`` and the constant W of ``theorem:W``.

For finite-support arms on a common sorted support x_1 <= ... <= x_m, the
step identity of :mod:`rsb_theory.riskmetric` (``eq:wang_def`` with 0 inserted
as a massless atom) gives

    V(alpha) = U_h(sum_i alpha_i F_i) = sum_j w_j h(S_j(alpha)) - h(1) * L_-,

where w_j = x_{j+1} - x_j >= 0 are the step widths, S_j(alpha) =
sum_i alpha_i S_ij is the survival probability of the mixture on step j
(affine in alpha, in [0, 1] on the simplex) and L_- is the length of the
negative part [min(x_1, 0), 0] (a constant: it does not depend on alpha).
For concave h this is a concave function of alpha: each h(S_j(.)) is a
concave function of an affine map and the w_j are >= 0.  (``lemma:risk-concave``
states this; its printed proof only shows V(alpha) >= sum_i alpha_i U_h(F_i),
the Jensen inequality at the vertices, and integrates over [0, oo) only.
The same pointwise argument applied to two mixtures gives concavity, and the
h(1) term of a signed support is constant.)  So ``eq:optimal alpha`` is a
convex program: :func:`to_cvxpy` turns the SymPy h into a DCP-concave CVXPY
expression and Clarabel solves it.

Three routes (:func:`optimal_mixture`):

``closed_form``
    Two-point arms (Bernoulli on {0, 1}, or any common {a, b}): V(alpha) =
    const + (b - a) h(<alpha, p>), so the optimum is any maximiser q* of h on
    [min p, max p] (:func:`rsb_theory.holder.optimal_means`, exact), reached
    by one arm if some p_i = q*, else by mixing the arms of smallest and
    largest mean.  Exact, any h.
``cvxpy``
    The convex program above, for h that :func:`to_cvxpy` translates (DCP
    concavity is a certificate of concavity).  Global optimum up to solver
    tolerance.
``search``
    Any h, meant for non-concave h.  Vertices, every edge (at most 60, a
    201-point grid + bounded Brent refinement around the best cell), a
    simplex grid of step 1/120 (K = 3) or 2 x 2000 Dirichlet(1), Dirichlet(0.3)
    samples (K > 3, seeded), then SLSQP polish of the 8 best distinct points.
    **Not a certificate** by itself: a lower bound on the optimum.

For concave h every route also reports ``gap``, an upper bound on
V(alpha*) - V(alpha) from the supergradient inequality
(:func:`optimality_gap`): with it a ``search`` result on a concave h that
DCP cannot express (sin(pi u)) is certified too, and the solver tolerance of
``cvxpy`` is measured rather than assumed.

The value reported is always V(alpha) recomputed by
:func:`rsb_theory.riskmetric.mixture_value` at the returned alpha.

W of ``eq:W`` (:func:`W_finite`, :func:`W_bernoulli`) is exact: half the
largest pairwise 1-Wasserstein distance between arms (proof in
:func:`W_finite`), well below the bound sqrt(2 pi) of ``theorem:W`` on
bounded instances.
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import U, Distortion, exact_number
from rsb_theory.riskmetric import _as_probs, _as_support, mixture_value, wasserstein1_finite

__all__ = [
    "NotDCPError",
    "Oracle",
    "to_cvxpy",
    "optimality_gap",
    "optimal_mixture",
    "optimal_mixture_bernoulli",
    "bernoulli_arms",
    "W_bernoulli",
    "W_finite",
]


class NotDCPError(ValueError):
    """h cannot be written as a DCP-concave CVXPY expression by :func:`to_cvxpy`."""


# ---------------------------------------------------------------------------
# SymPy -> CVXPY
# ---------------------------------------------------------------------------


def _cp():
    import cvxpy as cp  # deferred: importing cvxpy costs ~1 s

    return cp


#: Seconds allowed for a symbolic sign certificate of a non-affine base.
SIGN_SECONDS = 5.0

#: Points of [0, 1] on which every translation is compared with h (:func:`_self_check`).
CHECK_POINTS = 257

#: Relative tolerance of that comparison.
CHECK_TOL = 1e-9


def _num(c: sp.Expr) -> float:
    return float(sp.N(c, 30))


def _exponent(n: sp.Expr):
    """A Fraction for a rational exponent (exact in CVXPY), else a float."""
    if isinstance(n, sp.Rational):
        return Fraction(int(n.p), int(n.q))
    return _num(n)


def _poly(e: sp.Expr) -> sp.Poly | None:
    """e as a polynomial in u with numeric real coefficients, or None."""
    if not e.is_polynomial(U):
        return None
    try:
        poly = sp.Poly(sp.expand(e), U)
    except sp.PolynomialError:  # pragma: no cover
        return None
    if not all(c.is_number and c.is_real for c in poly.all_coeffs()):
        return None
    return poly


def _affine_sign(poly: sp.Poly) -> str:
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


def _nonnegative_on_unit(e: sp.Expr) -> bool:
    """True only if e >= 0 on [0, 1] is *proven* (SymPy minimum, time-guarded)."""
    poly = _poly(e)
    if poly is not None and poly.degree() <= 1:
        return _affine_sign(poly) == "+"
    from rsb_theory._timeout import SymbolicTimeout, call_with_timeout

    try:
        lo = call_with_timeout(lambda: sp.calculus.util.minimum(e, U, sp.Interval(0, 1)), SIGN_SECONDS)
    except (SymbolicTimeout, Exception):  # noqa: BLE001 - any failure means "not proven"
        return False
    return bool(lo.is_number and lo.is_real and lo >= 0)


def _power(arg, n: sp.Expr):
    """arg**n as a CVXPY atom: exact power cones (``approx=False``), sqrt for n = 1/2."""
    cp = _cp()
    if n == 1:
        return arg
    if n == sp.Rational(1, 2):
        return cp.sqrt(arg)
    return cp.power(arg, _exponent(n), approx=False)


def _shifted_power(poly: sp.Poly):
    """(c, r, n, h_r) with poly = h_r + c (u - r)**n exactly, for degree n >= 3; else None.

    Such a polynomial has all derivatives of order 1..n-1 vanishing at one
    point r = -a_{n-1} / (n a_n); the identity is checked exactly after
    expansion.  This is how 1 - (1 - u)**s (dual power, integer s) comes back
    when SymPy expands it.
    """
    n = poly.degree()
    if n < 3:
        return None
    coeffs = poly.all_coeffs()
    c, a1 = coeffs[0], coeffs[1]
    r = -a1 / (n * c)
    e = poly.as_expr()
    h_r = e.subs(U, r)
    if sp.expand(h_r + c * (U - r) ** n - e) != 0:
        return None
    return c, r, n, h_r


def _translate_pow(base: sp.Expr, n: sp.Expr, e: sp.Expr, var, whole: sp.Expr):
    """(base)**n.  The sign of the base on [0, 1] decides which CVXPY atom equals it.

    CVXPY's ``power(x, p)`` is x**p only where it is finite: for p > 1 not an
    even integer and for p < 0 it is +oo when x < 0, for 0 < p < 1 it is -oo
    when x < 0 (an implicit constraint x >= 0).  So the base must be proven
    >= 0 on [0, 1] unless p is a positive even integer (|x|**p, the true
    value) or the base is affine and <= 0 with p an integer
    (x**p = (-1)**p (-x)**p).
    """
    if U in n.free_symbols or not (n.is_number and n.is_real):
        raise NotDCPError(f"argument 'h': power {e} of {whole} needs a constant real exponent")
    if n == 0:
        return 1.0
    arg = _translate(base, var, whole)
    if n == 1:
        return arg
    if n.is_integer and int(n) % 2 == 0 and n > 0:
        return _power(arg, n)  # |x|^n = x^n for even n: exact on the whole line
    bpoly = _poly(base)
    if bpoly is not None and bpoly.degree() <= 1:
        sign = _affine_sign(bpoly)
        if sign == "+":
            return _power(arg, n)
        if sign == "-" and n.is_integer:  # x**n = (-1)**n (-x)**n with -x >= 0
            return (-1.0 if int(n) % 2 else 1.0) * _power(-arg, n)
        raise NotDCPError(f"argument 'h': {e} in {whole}: the base {base} is not >= 0 on [0, 1], "
                          f"so CVXPY's power would add the constraint {base} >= 0")
    if not _nonnegative_on_unit(base):
        raise NotDCPError(f"argument 'h': {e} in {whole}: cannot prove the base {base} >= 0 on [0, 1] "
                          f"(CVXPY's power would add that constraint)")
    return _power(arg, n)


def _translate_product(e: sp.Expr, var, whole: sp.Expr):
    """prod_i (a_i u + b_i)**e_i with affine bases >= 0 on [0, 1], e_i > 0 and sum e_i <= 1.

    With S = sum e_i and weights w_i = e_i / S, the product is
    (prod_i x_i**w_i)**S = power(geo_mean(x, w), S): the weighted geometric mean
    is concave and nondecreasing on x >= 0 and t -> t**S (0 < S <= 1) is
    concave and nondecreasing, so the composition with affine x_i is
    DCP-concave (e.g. sqrt(u)*sqrt(1 - u) = geo_mean(u, 1 - u)).  Returns None
    when e is not of this form.
    """
    cp = _cp()
    bases, exps = [], []
    for f in e.args:
        base, n = f.as_base_exp()
        bpoly = _poly(base)
        if (bpoly is None or bpoly.degree() != 1 or not (n.is_number and n.is_real and n > 0)
                or _affine_sign(bpoly) != "+"):
            return None
        bases.append(base)
        exps.append(n)
    total = sp.Add(*exps)
    if len(bases) < 2 or total > 1:
        return None
    xs = [_translate(b, var, whole) for b in bases]
    w = [_num(n / total) for n in exps]
    if not xs[0].shape:
        g = cp.geo_mean(cp.hstack(xs), w, approx=False)
    else:
        flat = [cp.reshape(x, (-1,), order="F") for x in xs]
        g = cp.reshape(cp.geo_mean(cp.vstack(flat).T, w, axis=1, approx=False), xs[0].shape, order="F")
    return g if total == 1 else _power(g, total)


def _translate_piecewise(e: sp.Piecewise, var, whole: sp.Expr):
    """A continuous, concave, piecewise-affine function of u on [0, 1] as the min of its pieces.

    Proof that min_i l_i = h on [0, 1] under these conditions: let the
    pieces l_1, ..., l_k live on consecutive intervals [c_0, c_1], ...,
    [c_{k-1}, c_k] with slopes s_1 >= ... >= s_k (concavity) and h continuous.
    Take u in [c_{j-1}, c_j].  For i < j, h(u) = l_i(c_i) + int_{c_i}^u h'
    with h' in {s_{i+1}, ..., s_j}, all <= s_i, and u >= c_i, so
    h(u) <= l_i(c_i) + s_i (u - c_i) = l_i(u); for i > j the same argument
    runs leftwards (u <= c_{i-1}, h' >= s_i on the way).  Hence
    min_i l_i(u) = l_j(u) = h(u).  With curved concave pieces the extension
    of a piece can dip below h (u on [0, 1/2] and u - 10 (u - 1/2)**2 on
    [1/2, 1] is concave, yet the second piece is below u left of 1/2), so
    those are refused rather than translated wrongly.
    """
    from rsb_theory.distortions import _pieces

    cp = _cp()
    pieces = _pieces(e)
    lines = []
    for expr, iv in pieces:
        poly = _poly(expr)
        if poly is None or poly.degree() > 1:
            raise NotDCPError(f"argument 'h': Piecewise {e} of {whole}: piece {expr} on {iv} is not affine; "
                              f"only continuous concave piecewise-affine Piecewise are translated (min of the pieces)")
        lines.append((poly, iv))
    for (p1, iv1), (p2, iv2) in zip(lines, lines[1:]):
        c = iv2.start
        if sp.simplify(p1.as_expr().subs(U, c) - p2.as_expr().subs(U, c)) != 0:
            raise NotDCPError(f"argument 'h': Piecewise {e} of {whole} is discontinuous at u = {c}")
        if p2.as_expr().diff(U) > p1.as_expr().diff(U):
            raise NotDCPError(f"argument 'h': Piecewise {e} of {whole} is not concave (slope increases at u = {c})")
    args = [_translate(p.as_expr(), var, whole) for p, _ in lines]
    args = [a if isinstance(a, cp.Expression) else cp.Constant(a) + 0 * var for a in args]
    return args[0] if len(args) == 1 else cp.minimum(*args)


def _translate(e: sp.Expr, var, whole: sp.Expr):
    cp = _cp()
    if U not in e.free_symbols:
        if not (e.is_number and e.is_real and e.is_finite):
            raise NotDCPError(f"argument 'h': sub-expression {e} of {whole} is not a finite real constant")
        return _num(e)

    poly = _poly(e)
    if poly is not None:
        if poly.degree() <= 2:
            c2, c1, c0 = [0] * (3 - len(poly.all_coeffs())) + poly.all_coeffs()
            out = _num(c1) * var + _num(c0)
            if c2 != 0:
                # a u^2 is -|a| square(u) (concave) if a < 0, convex otherwise (the final check refuses it)
                out = out + _num(c2) * cp.square(var)
            return out
        shifted = _shifted_power(poly)
        if shifted is not None:
            c, r, n, h_r = shifted
            return _num(h_r) + _num(c) * _translate_pow(U - r, sp.Integer(n), e, var, whole)

    if isinstance(e, sp.Add):
        # gather the polynomial terms so that cancellations (u**2 - u**2) happen before translation
        poly_terms = [t for t in e.args if _poly(t) is not None]
        other = [t for t in e.args if _poly(t) is None]
        parts = []
        if len(poly_terms) > 1:
            psum = sp.Add(*poly_terms)
            p = _poly(psum)
            if p is not None and (p.degree() <= 2 or _shifted_power(p) is not None):
                parts.append(_translate(psum, var, whole))
            else:
                other = list(poly_terms) + other
        else:
            other = list(poly_terms) + other
        parts.extend(_translate(t, var, whole) for t in other)
        out = parts[0]
        for p in parts[1:]:
            out = out + p
        return out

    if isinstance(e, sp.Mul):
        const, rest = e.as_independent(U, as_Add=False)
        if const != 1:
            return _num(const) * _translate(rest, var, whole)
        prod = _translate_product(e, var, whole)
        if prod is not None:
            return prod
        expanded = sp.expand(e)
        if expanded != e:  # u**(3/10)*(1 - u) -> u**(3/10) - u**(13/10)
            return _translate(expanded, var, whole)
        if e.is_rational_function(U):
            parts = sp.apart(e, U)
            if parts != e:  # u/(1 + u) -> 1 - 1/(u + 1) = 1 - power(u + 1, -1)
                return _translate(parts, var, whole)
        raise NotDCPError(
            f"argument 'h': product {e} of {whole} is not supported (constant multiples, polynomials, "
            f"products that expand into supported terms, and prod (affine >= 0)**e_i with sum e_i <= 1); "
            f"it has no DCP translation here"
        )

    if isinstance(e, sp.Pow):
        return _translate_pow(e.args[0], e.args[1], e, var, whole)

    if isinstance(e, (sp.Min, sp.Max)):
        args = [_translate(a, var, whole) for a in e.args]
        args = [a if isinstance(a, cp.Expression) else cp.Constant(a) + 0 * var for a in args]
        return cp.minimum(*args) if isinstance(e, sp.Min) else cp.maximum(*args)

    if isinstance(e, sp.Piecewise):
        return _translate_piecewise(e, var, whole)
    if isinstance(e, sp.Abs):
        return cp.abs(_translate(e.args[0], var, whole))
    if isinstance(e, sp.log):
        return cp.log(_translate(e.args[0], var, whole))
    if isinstance(e, sp.exp):
        return cp.exp(_translate(e.args[0], var, whole))

    raise NotDCPError(f"argument 'h': sub-expression {e} of {whole} has no DCP translation "
                      f"(supported: polynomials of degree <= 2 and c + k (u - r)**n, (affine)**n, sqrt, "
                      f"products of (affine)**e_i with sum e_i <= 1, Min, Max, continuous concave "
                      f"piecewise-affine Piecewise, Abs, log, exp, sums and constant multiples)")


@lru_cache(maxsize=256)
def _self_check(expr: sp.Expr) -> None:
    """Compare the translation with h on :data:`CHECK_POINTS` points of [0, 1].

    A guard against a translation rule that is wrong, not a proof: the rules
    themselves are the argument.  Raises NotDCPError on a mismatch.
    """
    cp = _cp()
    u = np.linspace(0.0, 1.0, CHECK_POINTS)
    probe = cp.Variable(u.size)
    out = _translate(expr, probe, expr)
    probe.value = u
    with np.errstate(all="ignore"):
        got = np.broadcast_to(np.asarray(out.value if isinstance(out, cp.Expression) else out, dtype=float), u.shape)
        want = np.broadcast_to(np.asarray(sp.lambdify(U, expr, modules="numpy")(u), dtype=float), u.shape)
    ok = np.isfinite(want)
    bad = ok & ~(np.abs(got - want) <= CHECK_TOL * (1.0 + np.abs(want)))
    if np.any(bad):
        i = int(np.argmax(bad))
        raise NotDCPError(f"argument 'expr': the CVXPY translation of {expr} is {got[i]!r} at u = {u[i]:g}, "
                          f"h is {want[i]!r} (translation rule error)")


def to_cvxpy(expr: sp.Expr, var):
    """A DCP-concave CVXPY expression equal to h(var) elementwise for var in [0, 1].

    Parameters
    ----------
    expr : sympy.Expr
        h in the symbol :data:`rsb_theory.distortions.U` (a :class:`Distortion`
        is accepted too: its ``.expr`` is used).
    var : cvxpy.Expression
        Affine argument (scalar or vector), taking values in [0, 1] where the
        expression is used (the sign rules for (affine)**n rely on that).

    Supported: constants; polynomials of degree <= 2 (a u^2 + b u + c becomes
    a*square(var) + b*var + c, so u(1 - u) is var - square(var)); polynomials
    of the form c + k (u - r)**n (expanded dual powers); (base)**n for real n,
    as an exact power cone (``approx=False``), with the sign of the base on
    [0, 1] taken into account (1 - (1 - u)**3 -> 1 - power(1 - var, 3)) so that
    CVXPY's implicit constraint base >= 0 never cuts the domain; u**s and
    sqrt; products prod_i (affine_i)**e_i with affine_i >= 0, e_i > 0 and
    sum e_i <= 1 (weighted ``geo_mean``); Min/Max; continuous concave
    piecewise-affine ``Piecewise`` (min of its pieces: proof in
    :func:`_translate_piecewise`); Abs, log, exp; sums and constant
    multiples; other products after expansion (u**(3/10)*(1 - u) =
    power(var, 3/10) - power(var, 13/10)) or partial fractions
    (u/(1 + u) = 1 - power(1 + var, -1)).  The nine distortions of
    ``table:table_regrets`` translate for all parameters in their domains.

    Every translation is compared with h on :data:`CHECK_POINTS` points of
    [0, 1] (:func:`_self_check`, cached per expression).

    Raises
    ------
    NotDCPError
        A sub-expression has no translation (named in the message), or the
        translation is not DCP-concave (e.g. u**2 is convex; for a sum, the
        first term that is not concave is named).  DCP is sufficient, not
        necessary, for concavity: a concave h may still be refused (e.g.
        sin(pi*u), or 3u - 3u^2 + u^3 - u^4/4 written as a sum of monomials).
    ValueError
        ``var`` is not an affine CVXPY expression.
    """
    cp = _cp()
    if isinstance(expr, Distortion):
        expr = expr.expr
    if not isinstance(expr, sp.Basic):
        raise NotDCPError(f"argument 'expr': expected a SymPy expression in u, got {expr!r}")
    if not isinstance(var, cp.Expression) or not var.is_affine():
        raise ValueError(f"argument 'var': expected an affine CVXPY expression, got {var!r}")
    expr = sp.sympify(expr)
    extra = expr.free_symbols - {U}
    if extra:
        raise NotDCPError(f"argument 'expr': free symbols {sorted(map(str, extra))} besides u")
    out = _translate(expr, var, expr)
    if not isinstance(out, cp.Expression):
        out = cp.Constant(out) + 0 * var
    if not out.is_dcp() or not out.is_concave():
        culprit = ""
        if isinstance(expr, sp.Add):
            for t in expr.args:
                try:
                    tt = _translate(t, var, expr)
                except NotDCPError:
                    continue
                if isinstance(tt, cp.Expression) and not (tt.is_dcp() and tt.is_concave()):
                    culprit = f"; the term {t} translates to a {tt.curvature} expression"
                    break
        raise NotDCPError(f"argument 'expr': {expr} translates to a {out.curvature} expression, "
                          f"not DCP-concave{culprit}")
    _self_check(expr)
    return out


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Oracle:
    """Solution of ``eq:optimal alpha``.

    Attributes
    ----------
    alpha : tuple of float
        Optimal (``closed_form``, ``cvxpy``) or best found (``search``) mixture.
    value : float
        V(alpha) of ``eq:V`` recomputed by :func:`rsb_theory.riskmetric.mixture_value`.
    method : str
        ``"closed_form"``, ``"cvxpy"`` or ``"search"``.
    evidence : str
        What the route proves (``search`` alone proves nothing: a lower bound).
    gap : float or None
        Upper bound on V(alpha*) - value from the supergradient inequality
        (:func:`optimality_gap`) when h is concave (``d.shape.is_concave``);
        ``inf`` when a one-sided derivative of h is infinite where it matters;
        None for non-concave h.  It turns a ``search`` result on a concave h
        into a certified interval [value, value + gap].
    """

    alpha: tuple[float, ...]
    value: float
    method: str
    evidence: str
    gap: float | None = None

    @property
    def certified(self) -> bool:
        """True if value is proven within 1e-6 of the optimum (exact route, or a small gap)."""
        return self.method == "closed_form" or (self.gap is not None and self.gap <= 1e-6)


def _check_instance(support, arm_probs) -> tuple[np.ndarray, np.ndarray]:
    xs = _as_support(support)
    arms = _as_probs(arm_probs, xs.size, "arm_probs", min_ndim=2)
    if arms.ndim != 2:
        raise ValueError(f"argument 'arm_probs': expected shape (K, {xs.size}), got {arms.shape}")
    if arms.shape[0] < 2:
        raise ValueError(f"argument 'arm_probs': need K >= 2 arms, got K = {arms.shape[0]}")
    return xs, arms


def _steps(xs: np.ndarray, arms: np.ndarray):
    """Widths w_j > 0, survival matrix S (K, n) of the steps, and the constant of V."""
    k = int(np.searchsorted(xs, 0.0))
    xs0 = np.insert(xs, k, 0.0)
    probs0 = np.insert(arms, k, 0.0, axis=-1)
    widths = np.diff(xs0)
    left = xs0[1:] <= 0.0
    tail = np.cumsum(probs0[:, ::-1], axis=-1)[:, ::-1][:, 1:]
    S = np.clip(tail, 0.0, 1.0)
    keep = widths > 0
    return widths[keep], S[:, keep], left[keep]


def _value(d: Distortion, xs, arms, alpha) -> float:
    return float(mixture_value(d.numeric, xs, arms, alpha))


def _project(alpha) -> np.ndarray:
    a = np.clip(np.asarray(alpha, dtype=float), 0.0, None)
    s = a.sum()
    if s <= 0:  # pragma: no cover
        return np.full(a.size, 1.0 / a.size)
    return a / s


#: Clarabel tolerances of the ``cvxpy`` route (defaults are 1e-8; tighter makes the reported gap small).
CLARABEL_OPTIONS = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}

#: A survival value this close to a breakpoint of h is anchored at the breakpoint (:func:`optimality_gap`).
KINK_SNAP = 1e-6


def optimality_gap(d: Distortion, support, arm_probs, alpha) -> float | None:
    """Upper bound on max_beta V(beta) - V(alpha) for concave h (supergradient inequality).

    For concave h, V(beta) = sum_j w_j h(S_j(beta)) + const with S_j affine in
    beta (module docstring), and for *any* anchor c_j in [0, 1] and any
    supergradient g_j of h at c_j, h(t) <= h(c_j) + g_j (t - c_j).  Hence

        V(beta) - V(alpha) <= sum_j w_j [h(c_j) - h(S_j(alpha)) + g_j (S_j(beta) - c_j)],

    affine in beta, so its maximum over the simplex is at a vertex e_i
    (S_j(e_i) = S_ij).  The anchor is c_j = S_j(alpha) with g_j = h'(c_j)
    (SymPy derivative) on smooth steps; when S_j(alpha) lies within
    :data:`KINK_SNAP` of a breakpoint c of h (Min/Max/Abs), c_j = c and g_j
    is free in [h'(c+), h'(c-)], and the smallest bound over those g_j is a
    small linear program (scipy ``linprog``/HiGHS): min t subject to
    bound_i(g) <= t for every arm i.  The inequality holds for every anchor,
    so snapping costs only tightness, never validity.  At an optimum of a
    smooth concave V the bound is 0 (KKT), so it measures how far alpha is
    from optimal.  Terms with S_ij = c_j vanish even where h' is infinite;
    an infinite slope (u**s at 0) times a nonzero difference gives ``inf``.

    Returns
    -------
    float or None
        None when h is not concave (``d.shape.is_concave`` is False).

    Raises
    ------
    ValueError
        Bad ``support``, ``arm_probs`` or ``alpha``.
    """
    if not d.shape.is_concave:
        return None
    xs, arms = _check_instance(support, arm_probs)
    a = _as_probs(alpha, arms.shape[0], "alpha")
    if a.ndim != 1:
        raise ValueError(f"argument 'alpha': expected shape ({arms.shape[0]},), got {a.shape}")
    widths, S, _ = _steps(xs, arms)
    s_alpha = np.clip(a @ S, 0.0, 1.0)
    anchor = s_alpha.copy()
    dh = _derivative(d.expr)
    with np.errstate(all="ignore"):
        g_lo = np.broadcast_to(np.asarray(dh(s_alpha), dtype=float), s_alpha.shape).copy()
    g_hi = g_lo.copy()
    for c, slope_left, slope_right in _kinks(d.expr):
        near = np.abs(s_alpha - c) <= KINK_SNAP
        anchor[near], g_lo[near], g_hi[near] = c, slope_right, slope_left
    h = d.numeric
    base = float(np.sum(widths * (h(anchor) - h(s_alpha))))
    D = widths * (S - anchor)  # (K, n): bound_i(g) = base + sum_j g_j D_ij
    free = g_lo < g_hi
    with np.errstate(all="ignore"):
        fixed = np.where(D[:, ~free] == 0.0, 0.0, g_lo[~free] * D[:, ~free]).sum(axis=1)
    if np.any(np.isnan(fixed)) or np.any(fixed == np.inf):
        return float("inf")
    if not np.any(free):
        return float(max(base + np.max(fixed), 0.0))
    if not (np.all(np.isfinite(g_lo[free])) and np.all(np.isfinite(g_hi[free]))):  # pragma: no cover
        return float("inf")
    from scipy.optimize import linprog

    nf = int(free.sum())
    # variables (g_free, t): minimise t subject to D_free g - t <= -fixed
    res = linprog(np.r_[np.zeros(nf), 1.0],
                  A_ub=np.c_[D[:, free], -np.ones(D.shape[0])], b_ub=-fixed,
                  bounds=[(lo, hi) for lo, hi in zip(g_lo[free], g_hi[free])] + [(None, None)],
                  method="highs")
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        g_mid = 0.5 * (g_lo[free] + g_hi[free])
        return float(max(base + np.max(fixed + D[:, free] @ g_mid), 0.0))
    # re-evaluate at the LP's g (clipped into the box) so the bound does not rest on the LP tolerance
    g = np.clip(res.x[:nf], g_lo[free], g_hi[free])
    return float(max(base + np.max(fixed + D[:, free] @ g), 0.0))


@lru_cache(maxsize=256)
def _derivative(expr: sp.Expr):
    return sp.lambdify(U, sp.diff(expr, U), modules="numpy")


@lru_cache(maxsize=256)
def _kinks(expr: sp.Expr) -> tuple[tuple[float, float, float], ...]:
    """(c, h'(c-), h'(c+)) at each interior breakpoint c of h (from the smooth pieces)."""
    from rsb_theory.distortions import _pieces

    pieces = _pieces(expr)
    out = []
    for (left, _), (right, iv) in zip(pieces, pieces[1:]):
        c = iv.start
        out.append((_num(c), _num(sp.diff(left, U).subs(U, c)), _num(sp.diff(right, U).subs(U, c))))
    return tuple(out)


def _with_gap(d: Distortion, xs, arms, o: Oracle) -> Oracle:
    gap = optimality_gap(d, xs, arms, o.alpha)
    if gap is None:
        return o
    note = (f"; supergradient bound (h concave, {d.shape.curvature_method}): V(alpha*) - V(alpha) <= {gap:.3g}")
    return Oracle(o.alpha, o.value, o.method, o.evidence + note, gap)


def _closed_form(d: Distortion, xs, arms) -> Oracle:
    from rsb_theory.holder import optimal_means

    K = arms.shape[0]
    p = arms[:, 1]
    pe = [exact_number(float(v), "p") for v in p]
    lo_i = int(np.argmin(p))
    hi_i = int(np.argmax(p))
    a, b = pe[lo_i], pe[hi_i]
    qs = optimal_means(d, a, b)
    # prefer a maximiser reached by a single arm (a solitary optimum)
    q = next((q for q in qs if q in pe), qs[0])
    alpha = np.zeros(K)
    if q in pe:
        alpha[pe.index(q)] = 1.0
        how = f"arm {pe.index(q)} alone (p = {q})"
    else:
        lam = (q - a) / (b - a)
        alpha[hi_i] = float(lam)
        alpha[lo_i] = float(1 - lam)
        how = f"arms {lo_i} and {hi_i} mixed with weight {lam} on arm {hi_i}"
    evidence = (
        f"closed form: two-point arms on {{{xs[0]:g}, {xs[1]:g}}} give V(alpha) = const + "
        f"{xs[1] - xs[0]:g} h(<alpha, p>) (eq:V, eq:h_1_p); exact maximisers of h on [{a}, {b}]: "
        f"{', '.join(map(str, qs))} (holder.optimal_means); optimum q* = {q} by {how}"
    )
    return Oracle(tuple(float(v) for v in alpha), _value(d, xs, arms, alpha), "closed_form", evidence)


def _cvxpy(d: Distortion, xs, arms) -> Oracle:
    cp = _cp()
    K = arms.shape[0]
    widths, S, left = _steps(xs, arms)
    alpha = cp.Variable(K, nonneg=True)
    cons = [cp.sum(alpha) == 1]
    h1 = float(d.numeric(np.array([1.0]))[0])
    const = -h1 * float(widths[left].sum())
    varying = np.ptp(S, axis=0) > 0
    const += float(widths[~varying] @ d.numeric(S[0, ~varying])) if np.any(~varying) else 0.0
    if np.any(varying):
        Sv = S[:, varying]
        objective = widths[varying] @ to_cvxpy(d.expr, Sv.T @ alpha) + const
    else:  # every alpha gives the same law
        objective = cp.Constant(const) + 0 * cp.sum(alpha)
    prob = cp.Problem(cp.Maximize(objective), cons)
    best = None
    # tight tolerances first; if Clarabel reports them unreachable (optimal_inaccurate) its
    # defaults (1e-8) are tried too and the better recomputed V is kept
    for options in (CLARABEL_OPTIONS, {}):
        try:
            # CVXPY evaluates the objective at the solver's point, which may leave the simplex by
            # ~1e-10 (power of a tiny negative number: nan); V is recomputed at the projected alpha
            with warnings.catch_warnings(), np.errstate(invalid="ignore"):
                warnings.filterwarnings("ignore", message="Solution may be inaccurate")
                prob.solve(solver=cp.CLARABEL, **options)
        except cp.error.SolverError as exc:  # pragma: no cover
            raise RuntimeError(f"CVXPY/Clarabel failed on h = {d.expr}: {exc}") from None
        if prob.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) and alpha.value is not None:
            a = _project(alpha.value)
            value = _value(d, xs, arms, a)
            if best is None or value > best[1]:
                best = (a, value, prob.status, float(prob.value if prob.value is not None else np.nan),
                        "tight" if options else "default")
        if prob.status == cp.OPTIMAL:
            break
    if best is None:
        raise RuntimeError(f"CVXPY/Clarabel returned status {prob.status} for h = {d.expr}")
    a, value, status, objective_value, tol = best
    evidence = (
        f"cvxpy: DCP-concave program max_alpha sum_j w_j h(S_j(alpha)) over the simplex "
        f"(lemma:risk-concave; {int(varying.sum())} steps), solver CLARABEL ({tol} tolerances) status {status}, "
        f"solver objective {objective_value:.12g}, recomputed V(alpha) {value:.12g}"
    )
    return Oracle(tuple(float(v) for v in a), value, "cvxpy", evidence)


def _search(d: Distortion, xs, arms, seed: int = 0) -> Oracle:
    from scipy.optimize import minimize, minimize_scalar

    K = arms.shape[0]
    rng = np.random.default_rng(seed)
    f = lambda A: np.asarray(mixture_value(d.numeric, xs, arms, np.atleast_2d(_proj_rows(A))), dtype=float)

    cands = [np.eye(K)]
    # every edge: 1-D grid, then bounded Brent refinement around the best cell
    pairs = list(itertools.combinations(range(K), 2))
    if len(pairs) > 60:
        pairs = [pairs[i] for i in rng.choice(len(pairs), 60, replace=False)]
    lam = np.linspace(0.0, 1.0, 201)
    edge_best = []
    for i, j in pairs:
        A = np.zeros((lam.size, K))
        A[:, i], A[:, j] = 1 - lam, lam
        v = f(A)
        t = int(np.argmax(v))
        lo, hi = lam[max(t - 1, 0)], lam[min(t + 1, lam.size - 1)]

        def g(x, i=i, j=j):
            a = np.zeros(K)
            a[i], a[j] = 1 - x, x
            return -float(f(a)[0])

        r = minimize_scalar(g, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        a = np.zeros(K)
        a[i], a[j] = 1 - r.x, r.x
        edge_best.append(a)
        cands.append(A)
    cands.append(np.array(edge_best))
    if K == 3:
        N = 120
        grid = np.array([(i, j, N - i - j) for i in range(N + 1) for j in range(N + 1 - i)], dtype=float) / N
        cands.append(grid)
        n_interior = len(grid)
    elif K > 3:
        samples = np.vstack([rng.dirichlet(np.full(K, c), size=2000) for c in (1.0, 0.3)])
        cands.append(samples)
        n_interior = len(samples)
    else:
        n_interior = 0
    A = np.vstack(cands)
    v = f(A)
    order = np.argsort(-v)
    best_a, best_v = A[order[0]], float(v[order[0]])

    # SLSQP polish of the best distinct points
    starts = []
    for idx in order:
        if all(np.abs(A[idx] - s).sum() > 1e-3 for s in starts):
            starts.append(A[idx])
        if len(starts) >= 8:
            break
    n_polish = 0
    for s in starts:
        r = minimize(lambda a: -float(f(a)[0]), s, method="SLSQP", bounds=[(0.0, 1.0)] * K,
                     constraints=[{"type": "eq", "fun": lambda a: np.sum(a) - 1.0}],
                     options={"ftol": 1e-14, "maxiter": 300})
        n_polish += 1
        a = _project(r.x)
        val = _value(d, xs, arms, a)
        if val > best_v:
            best_a, best_v = a, val
    best_a = _project(best_a)
    best_v = _value(d, xs, arms, best_a)
    evidence = (
        f"search (on its own a lower bound on the optimum, not a certificate): {K} vertices, {len(pairs)} edges "
        f"(201-point grid + bounded Brent), {n_interior} interior points "
        f"({'simplex grid step 1/120' if K == 3 else 'Dirichlet(1) and Dirichlet(0.3) samples' if K > 3 else 'none'}), "
        f"{n_polish} SLSQP polishes; best V = {best_v:.12g}"
    )
    return Oracle(tuple(float(x) for x in best_a), best_v, "search", evidence)


def _proj_rows(A) -> np.ndarray:
    """Rows clipped at 0 and renormalised onto the simplex (an all-zero row becomes uniform)."""
    A = np.clip(np.atleast_2d(np.asarray(A, dtype=float)), 0.0, None)
    total = A.sum(axis=1, keepdims=True)
    return np.where(total > 0, A / np.where(total > 0, total, 1.0), 1.0 / A.shape[1])


def _is_two_point(xs: np.ndarray) -> bool:
    return xs.size == 2 and xs[1] > xs[0]


METHODS = ("auto", "cvxpy", "closed_form", "search")


def optimal_mixture(d: Distortion, support, arm_probs, method: str = "auto", seed: int = 0) -> Oracle:
    """The oracle mixture alpha* of ``eq:optimal alpha`` for finite-support arms.

    Parameters
    ----------
    d : Distortion
    support : array_like, shape (m,)
        Common support of the arms, sorted ascending (negative points allowed).
    arm_probs : array_like, shape (K, m)
        Row i is the law of arm i (entries in [0, 1], rows summing to 1), K >= 2.
    method : {"auto", "cvxpy", "closed_form", "search"}
        ``auto``: closed form for two-point arms (Bernoulli), else cvxpy if
        :func:`to_cvxpy` translates h (a DCP-concave translation certifies
        that h is concave), else search.  See the module docstring for what
        each route proves.
    seed : int, optional
        Seed of the Dirichlet samples of the ``search`` route (K > 3).

    Returns
    -------
    Oracle

    Raises
    ------
    ValueError
        Bad ``support``, ``arm_probs`` (shape, K < 2, entries, row sums) or
        ``method``; ``closed_form`` on arms that are not two-point.
    NotDCPError
        ``cvxpy`` requested for an h that :func:`to_cvxpy` refuses.
    """
    if method not in METHODS:
        raise ValueError(f"argument 'method': expected one of {METHODS}, got {method!r}")
    if not isinstance(d, Distortion):
        raise ValueError(f"argument 'd': expected a Distortion, got {d!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"argument 'seed': expected a non-negative integer, got {seed!r}")
    xs, arms = _check_instance(support, arm_probs)
    if method == "closed_form":
        if not _is_two_point(xs):
            raise ValueError(f"argument 'support': closed form needs two-point arms, got support of size {xs.size}")
        return _with_gap(d, xs, arms, _closed_form(d, xs, arms))
    if method == "cvxpy":
        return _with_gap(d, xs, arms, _cvxpy(d, xs, arms))
    if method == "search":
        return _with_gap(d, xs, arms, _search(d, xs, arms, seed))
    if _is_two_point(xs):
        return _with_gap(d, xs, arms, _closed_form(d, xs, arms))
    try:  # a DCP-concave translation is itself a certificate that h is concave
        return _with_gap(d, xs, arms, _cvxpy(d, xs, arms))
    except NotDCPError:
        return _with_gap(d, xs, arms, _search(d, xs, arms, seed))


def _as_means(p) -> np.ndarray:
    try:
        p = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("argument 'p': expected a 1-d array of means in [0, 1]") from None
    if p.ndim != 1:
        raise ValueError(f"argument 'p': expected a 1-d array of means, got shape {p.shape}")
    if p.size < 2:
        raise ValueError(f"argument 'p': need K >= 2 arms, got K = {p.size}")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or np.any(p > 1):
        raise ValueError(f"argument 'p': Bernoulli means must lie in [0, 1], got {p.tolist()}")
    return p


def bernoulli_arms(p) -> tuple[np.ndarray, np.ndarray]:
    """(support [0, 1], arm_probs rows [1 - p_i, p_i]) for Bernoulli arms; K >= 2."""
    p = _as_means(p)
    return np.array([0.0, 1.0]), np.stack([1.0 - p, p], axis=-1)


def optimal_mixture_bernoulli(d: Distortion, p, method: str = "auto", seed: int = 0) -> Oracle:
    """:func:`optimal_mixture` for Bernoulli arms with means ``p`` (K >= 2, in [0, 1]).

    A mixture of Bernoulli arms is Bern(<alpha, p>), so V(alpha) = h(<alpha, p>)
    (``eq:V``, ``eq:h_1_p``) and ``auto`` is the exact closed form.
    """
    support, arms = bernoulli_arms(p)
    return optimal_mixture(d, support, arms, method, seed)


# ---------------------------------------------------------------------------
# W of theorem:W
# ---------------------------------------------------------------------------


def W_bernoulli(p) -> float:
    """W of ``eq:W`` (section ``sec:setting``) for Bernoulli arms: (max p - min p) / 2.

    This is the one implementation (``rsb_theory.discretization.W_bernoulli``
    is this function); it equals :func:`W_finite` on the support {0, 1}.

    Proof.  For Bernoulli laws sum_i d_i F_i(x) = -<d, p> on [0, 1) and 0
    elsewhere when sum_i d_i = 0, so ||sum_i (alpha_i - beta_i) F_i||_W =
    |<d, p>| with d = alpha - beta (``lemma:lipschitz-wasserstein``: W1 is
    the integral of |F_a - F_b|).  Let c = (max p + min p)/2; since
    sum d = 0, <d, p> = <d, p - c 1>, and |p_i - c| <= (max p - min p)/2 gives
    |<d, p>| <= ||d||_1 (max p - min p)/2.  Equality holds at alpha = e_i,
    beta = e_j with p_i = max p, p_j = min p (||d||_1 = 2, <d, p> = max p -
    min p).  Hence W = (max p - min p)/2 (0 when all means tie: W is then a
    max of zeros).

    Raises
    ------
    ValueError
        ``p`` not a 1-d array of K >= 2 means in [0, 1].
    """
    p = _as_means(p)
    return float(p.max() - p.min()) / 2.0


def W_finite(support, arm_probs) -> float:
    """W of ``eq:W`` for finite-support arms: max_{i<j} W1(F_i, F_j) / 2, exactly.

    Proof.  Write d = alpha - beta and N(d) = ||sum_i d_i F_i||_W =
    int |sum_i d_i F_i(x)| dx, a seminorm (convex and positively homogeneous)
    in d.  The ratio N(d)/||d||_1 is invariant under d -> t d (t > 0), and
    every d != 0 with sum d = 0 is a positive multiple of some d in
    D = {sum d = 0, ||d||_1 = 2}; conversely each d in D is alpha - beta with
    alpha = d+, beta = d- (both of mass 1, so in the simplex).  Hence
    W = max_{d in D} N(d) / 2.  Every d with sum d = 0 and ||d||_1 <= 2 is a
    convex combination of the points e_i - e_j (i != j): with t = |d+|_1 =
    |d-|_1 <= 1, d = sum_{i,j} (d+_i d-_j / t)(e_i - e_j) has weights summing
    to t, and the remaining 1 - t goes half to e_1 - e_2 and half to e_2 - e_1.
    A convex function on a polytope is maximised at an extreme point, so
    max_D N <= max_{i != j} N(e_i - e_j) = max_{i<j} W1(F_i, F_j), and
    e_i - e_j lies in D, so equality holds.  (The argument needs only finite
    first moments; finite support makes W1 exact via
    :func:`rsb_theory.riskmetric.wasserstein1_finite`.)

    Raises
    ------
    ValueError
        Bad ``support`` or ``arm_probs`` (shape, K < 2, entries, row sums).
    """
    xs, arms = _check_instance(support, arm_probs)
    i, j = np.triu_indices(arms.shape[0], k=1)
    return float(np.max(wasserstein1_finite(xs, arms[i], arms[j]))) / 2.0
