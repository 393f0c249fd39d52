"""The DCP translator: h as a SymPy expression in u -> a DCP-concave CVXPY expression.

:func:`to_cvxpy` turns h into an expression CVXPY certifies as concave
(disciplined convex programming), rule by rule; every translation is also
compared with h on :data:`CHECK_POINTS` points of [0, 1] (:func:`_self_check`).
The sign of a power's base on [0, 1] is decided by
:func:`rsb_theory.oracle.sign.nonnegative_on_unit` (exact, work-bounded).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp

from ..distortions import U, Distortion, _pieces
from .sign import affine_sign as _affine_sign
from .sign import nonnegative_on_unit
from .sign import polynomial as _poly
from ..errors import ArgumentError

__all__ = ["NotDCPError", "to_cvxpy", "as_float", "CHECK_POINTS", "CHECK_TOL"]


class NotDCPError(ArgumentError):
    """h cannot be written as a DCP-concave CVXPY expression by :func:`to_cvxpy`."""


def _cp():
    import cvxpy as cp  # deferred: importing cvxpy costs ~1 s

    return cp


#: Points of [0, 1] on which every translation is compared with h (:func:`_self_check`).
CHECK_POINTS = 257

#: Relative tolerance of that comparison.
CHECK_TOL = 1e-9


def as_float(c: sp.Expr) -> float:
    """A SymPy number as a float (evaluated at 30 digits, then rounded once)."""
    return float(sp.N(c, 30))


def _exponent(n: sp.Expr):
    """A Fraction for a rational exponent (exact in CVXPY), else a float."""
    if isinstance(n, sp.Rational):
        return Fraction(int(n.p), int(n.q))
    return as_float(n)


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
        raise NotDCPError("h", f"power {e} of {whole} needs a constant real exponent")
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
        raise NotDCPError("h", f"{e} in {whole}: the base {base} is not >= 0 on [0, 1], "
                          f"so CVXPY's power would add the constraint {base} >= 0")
    if not nonnegative_on_unit(base):
        raise NotDCPError("h", f"{e} in {whole}: cannot prove the base {base} >= 0 on [0, 1] "
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
    w = [as_float(n / total) for n in exps]
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
    cp = _cp()
    pieces = _pieces(e)
    lines = []
    for expr, iv in pieces:
        poly = _poly(expr)
        if poly is None or poly.degree() > 1:
            raise NotDCPError("h", f"Piecewise {e} of {whole}: piece {expr} on {iv} is not affine; "
                              f"only continuous concave piecewise-affine Piecewise are translated (min of the pieces)")
        lines.append((poly, iv))
    for (p1, iv1), (p2, iv2) in zip(lines, lines[1:]):
        c = iv2.start
        if sp.simplify(p1.as_expr().subs(U, c) - p2.as_expr().subs(U, c)) != 0:
            raise NotDCPError("h", f"Piecewise {e} of {whole} is discontinuous at u = {c}")
        if p2.as_expr().diff(U) > p1.as_expr().diff(U):
            raise NotDCPError("h", f"Piecewise {e} of {whole} is not concave (slope increases at u = {c})")
    args = [_translate(p.as_expr(), var, whole) for p, _ in lines]
    args = [a if isinstance(a, cp.Expression) else cp.Constant(a) + 0 * var for a in args]
    return args[0] if len(args) == 1 else cp.minimum(*args)


def _translate(e: sp.Expr, var, whole: sp.Expr):
    cp = _cp()
    if U not in e.free_symbols:
        if not (e.is_number and e.is_real and e.is_finite):
            raise NotDCPError("h", f"sub-expression {e} of {whole} is not a finite real constant")
        return as_float(e)

    poly = _poly(e)
    if poly is not None:
        if poly.degree() <= 2:
            c2, c1, c0 = [0] * (3 - len(poly.all_coeffs())) + poly.all_coeffs()
            out = as_float(c1) * var + as_float(c0)
            if c2 != 0:
                # a u^2 is -|a| square(u) (concave) if a < 0, convex otherwise (the final check refuses it)
                out = out + as_float(c2) * cp.square(var)
            return out
        shifted = _shifted_power(poly)
        if shifted is not None:
            c, r, n, h_r = shifted
            return as_float(h_r) + as_float(c) * _translate_pow(U - r, sp.Integer(n), e, var, whole)

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
            return as_float(const) * _translate(rest, var, whole)
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
            "h", f"product {e} of {whole} is not supported (constant multiples, polynomials, "
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

    raise NotDCPError("h", f"sub-expression {e} of {whole} has no DCP translation "
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
        raise NotDCPError("expr", f"the CVXPY translation of {expr} is {got[i]!r} at u = {u[i]:g}, "
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
        raise NotDCPError("expr", f"expected a SymPy expression in u, got {expr!r}")
    if not isinstance(var, cp.Expression) or not var.is_affine():
        raise ArgumentError("var", f"expected an affine CVXPY expression, got {var!r}")
    expr = sp.sympify(expr)
    extra = expr.free_symbols - {U}
    if extra:
        raise NotDCPError("expr", f"free symbols {sorted(map(str, extra))} besides u")
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
        raise NotDCPError("expr", f"{expr} translates to a {out.curvature} expression, "
                          f"not DCP-concave{culprit}")
    _self_check(expr)
    return out
