"""The Hölder claims of ``table:table_risks`` and the seven Hölder lemmas as obligations ``f <= 0`` on a domain.

For Bernoulli arms a mixture is Bern(<alpha, p>), U_h = h(<alpha, p>) and ||F - G||_W = |p_F - p_G|
(``lemma:lipschitz-wasserstein``), so each printed value is an inequality in the means and the family's parameter:

* q with a constant L (``def:Holder``): |h(x) - h(y)| <= L |x - y|^q for x, y in [0, 1];
* r with a constant L (``def:mixture_Holder``) at the instances of a class:

  - *mixture* (p* = m, the interior maximiser of h): h(m) - h(x) <= L |m - x|^r for x in [0, 1];
  - *solitary* (p* = max p < m, or min p > m): h(p) - h(x) <= L |p - x|^r for 0 <= x <= p <= m and
    m <= p <= x <= 1;
* L = max(L_H, L_MH) (the table's column, each lemma's item "L"): both, with the printed exponents.

The printed values are read from :mod:`proofs_checks.paper_claims` (the rows and items themselves), h and the
stated parameter ranges from :mod:`rsb_theory.distortions` and :func:`proofs_checks.derived.stated_domain`.  The
constant of a claim that prints none (the mean and CVaR rows' q and r) is a witness: the slope of h at 0, which the
proof then checks like any printed value.  A polynomial obligation (after sqrt(u) = v, v >= 0, v^2 = u) is decided
by z3; the others (PHT's u^s, dual power's (1 - u)^s) go through the interval branch and bound, on the substitution
y = x w (w in [0, 1], the symmetric case y <= x) and, for s in [2, oo), s = 1/t with t in (0, 1/2].
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from . import prove
from .kernel import symbols_for
from .prove import NotProved

W, T_ = sp.symbols("w t", nonnegative=True)


def family(key: str):
    from rsb_theory import distortions

    return distortions.REGISTRY[key]


def _range_data(interval) -> list:
    lo = "-oo" if interval.start is sp.S.NegativeInfinity else str(interval.start)
    hi = "oo" if interval.end is sp.oo else str(interval.end)
    return [lo, hi, bool(interval.left_open), bool(interval.right_open)]


def param_domain(key: str, table: str) -> tuple[dict, dict]:
    """(parameter -> [low, high, low_open, high_open] of its stated range, parameter -> pinned value)."""
    from .. import derived

    dom = derived.stated_domain(key, table)
    if dom is None:
        return {}, {}
    name, iv = dom
    if isinstance(iv, sp.FiniteSet):
        (v,) = tuple(iv)
        return {}, {name: v}
    return {name: _range_data(iv)}, {}


def h_of(key: str, pinned: dict) -> sp.Expr:
    """h(u) with the pinned parameters substituted; free parameters as plain symbols named as in the registry."""
    from rsb_theory.distortions import U

    fam = family(key)
    h = fam.expression()
    sub = {U: sp.Symbol("u")}
    for p in fam.parameters:
        sub[p.symbol] = pinned[p.name] if p.name in pinned else sp.Symbol(p.name)
    return h.xreplace(sub)


def printed_value(text: str, key: str, pinned: dict) -> sp.Expr:
    """A printed cell (``"1+s"``) through the safe parser, the pinned parameters substituted."""
    from rsb_theory.expressions import to_sympy

    names = {p.name: (pinned[p.name] if p.name in pinned else sp.Symbol(p.name)) for p in family(key).parameters}
    return to_sympy(text, "printed", names)


def slope_witness(h: sp.Expr, params: dict) -> sp.Expr:
    """The slope of h at 0+ (the Lipschitz constant of a concave h whose slope at 1 is smaller in size): the
    constant a claim printing none is proved with."""
    u = sp.Symbol("u")
    probe = {sp.Symbol(k): (sp.Rational(v[0]) + sp.Rational(v[1])) / 2 if v[1] != "oo" else sp.Rational(v[0]) + 1
             for k, v in params.items()}

    def active(e):  # the branch of a Min/Max active just right of u = 0 (at a probe of the parameters)
        if isinstance(e, (sp.Min, sp.Max)):
            at = [(float(a.subs(probe).subs(u, sp.Rational(1, 10**6))), a) for a in e.args]
            pick = min if isinstance(e, sp.Min) else max
            return active(pick(at, key=lambda z: z[0])[1])
        if e.args:
            return e.func(*[active(a) for a in e.args])
        return e

    return sp.simplify(sp.diff(active(h), u).subs(u, 0))


def maximiser(key: str, pinned: dict) -> sp.Expr | None:
    """The interior maximiser m of h on [0, 1] when it is one number for the whole range (None: m = 1 or a
    parameter-dependent or flat top)."""
    from rsb_theory import distortions
    from rsb_theory.profile import of

    fam = family(key)
    if any(p.name not in pinned for p in fam.parameters):
        return None
    d = distortions.get(key, **{k: v for k, v in pinned.items()})
    best = of(d).maximisers((0, 1))
    if len(best) == 1 and 0 < best[0] < 1:
        return best[0]
    return None


def _words(vars_: dict) -> str:
    out = []
    for k, (lo, hi, lo_open, hi_open) in vars_.items():
        out.append(f"{k} in {'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}")
    return ", ".join(out)


def _prove_le(claim: str, f: sp.Expr, vars_: dict, constraints: tuple[str, ...] = (), pair: tuple = ()) -> dict:
    """``f <= 0``: z3 when polynomial, else the interval branch and bound (after y = x w and s = 1/t)."""
    try:
        return prove.decision(claim, str(f), vars_, constraints)
    except NotProved as exc:
        if exc.witness is not None:
            exc.claim, exc.expr, exc.vars = claim, str(f), vars_
            raise
    # interval route: a bounded box
    g, box, subst = f, dict(vars_), {}
    if pair:  # y = x w, w in [0, 1]: the constraint y <= x made a box
        big, small = pair
        g = g.subs(sp.Symbol(small), sp.Symbol(big) * W)
        box.pop(small)
        box["w"] = ["0", "1", False, False]
        subst[small] = f"{big}*w"
    for k, (lo, hi, lo_open, hi_open) in list(box.items()):
        if hi == "oo":
            g = g.subs(sp.Symbol(k), 1 / T_)
            box.pop(k)
            box["t"] = ["0", str(1 / sp.Rational(lo)), True, lo_open]
            subst[k] = "1/t"
    # a bounded open end is closed: the claim on the closure implies it on the stated domain
    box = {k: [lo, hi, lo_open and hi == "oo", hi_open and hi == "oo"] if k != "t" else [lo, hi, True, False]
           for k, (lo, hi, lo_open, hi_open) in box.items()}
    syms = symbols_for(box)
    g = g.xreplace({sp.Symbol(k): v for k, v in syms.items()} | {W: syms.get("w", W), T_: syms.get("t", T_)})
    factor, core = reduce(g, syms)
    part = prove.interval(claim, str(core), box, max_nodes=3000)
    part["original"] = {"expr": str(f), "vars": vars_, "substitution": subst, "factor": str(factor)}
    return part


def reduce(g: sp.Expr, syms: dict) -> tuple[sp.Expr, sp.Expr]:
    """g = factor * core, factor a product of powers of the box's (non-negative) variables, so that core <= 0
    proves g <= 0 (a common power x^s is what makes the branch and bound stall at x = 0)."""
    g = g.replace(lambda e: e.is_Pow, lambda e: sp.Pow(sp.factor_terms(e.base), e.exp))
    g = sp.factor_terms(sp.expand_power_base(g, force=True))
    if not isinstance(g, sp.Mul):
        return sp.Integer(1), g
    keep, drop = [], []
    for a in g.args:
        base = a.base if isinstance(a, sp.Pow) else a
        (drop if base in syms.values() else keep).append(a)
    return sp.Mul(*drop), sp.Mul(*keep)


def hoelder_parts(key: str, q: sp.Expr, L: sp.Expr, params: dict, pinned: dict) -> list[dict]:
    """|h(x) - h(y)| <= L |x - y|^q on [0, 1]^2 (two one-sided obligations for y <= x)."""
    h = h_of(key, pinned)
    u = sp.Symbol("u")
    x, y = sp.Symbol("x"), sp.Symbol("y")
    vars_ = {"x": ["0", "1", False, False], "y": ["0", "1", False, False], **params}
    out = []
    for sign, what in ((1, "h(x) - h(y)"), (-1, "h(y) - h(x)")):
        f = sign * (h.subs(u, x) - h.subs(u, y)) - L * (x - y) ** q
        out.append(_prove_le(f"{what} <= {L} (x - y)^{q} for 0 <= y <= x <= 1", f, vars_, ("y - x",), ("x", "y")))
    return out


def mixture_parts(key: str, cls: str, r: sp.Expr, L: sp.Expr, params: dict, pinned: dict) -> list[dict]:
    """h(p*) - h(x) <= L |p* - x|^r over the class's pairs (module docstring)."""
    h = h_of(key, pinned)
    u = sp.Symbol("u")
    x, p = sp.Symbol("x"), sp.Symbol("p")
    m = maximiser(key, pinned)
    out = []
    if cls == "mixture":
        if m is None:
            raise NotProved(f"no single interior maximiser of h for the mixture class of {key}")
        for lo, hi, dist in (("0", str(m), m - x), (str(m), "1", x - m)):
            vars_ = {"x": [lo, hi, False, False], **params}
            f = h.subs(u, m) - h.subs(u, x) - L * dist ** r
            out.append(_prove_le(f"h({m}) - h(x) <= {L} |{m} - x|^{r} for x in [{lo}, {hi}]", f, vars_))
        return out
    top = m if m is not None else sp.Integer(1)
    vars_ = {"p": ["0", str(top), False, False], "x": ["0", str(top), False, False], **params}
    f = h.subs(u, p) - h.subs(u, x) - L * (p - x) ** r
    out.append(_prove_le(f"h(p) - h(x) <= {L} (p - x)^{r} for 0 <= x <= p <= {top}", f, vars_, ("x - p",), ("p", "x")))
    if m is not None:
        vars_ = {"p": [str(m), "1", False, False], "x": [str(m), "1", False, False], **params}
        f = h.subs(u, p) - h.subs(u, x) - L * (x - p) ** r
        out.append(_prove_le(f"h(p) - h(x) <= {L} (x - p)^{r} for {m} <= p <= x <= 1", f, vars_, ("p - x",)))
    return out


@lru_cache(maxsize=None)
def _cached(kind: str, key: str, a: str, b: str, cls: str, table: str) -> tuple:
    params, pinned = param_domain(key, table)
    A, B = printed_value(a, key, pinned), printed_value(b, key, pinned) if b else None
    if B is None:
        B = slope_witness(h_of(key, pinned), params)
    try:
        parts = (hoelder_parts(key, A, B, params, pinned) if kind == "H"
                 else mixture_parts(key, cls, A, B, params, pinned))
        return tuple(parts), None
    except NotProved as exc:
        return (), exc


def obligation(kind: str, key: str, exponent: str, constant: str | None, cls: str = "",
               table: str = "table:table_risks") -> list[dict]:
    """The parts proving one obligation (``H``: Hölder with q = ``exponent``; ``M``: mixture Hölder of class
    ``cls`` with r = ``exponent``), the constant printed or (None) the slope witness; NotProved otherwise."""
    parts, exc = _cached(kind, key, exponent, constant or "", cls, table)
    if exc is not None:
        raise exc
    return [dict(p) for p in parts]


def domain_of(key: str, table: str = "table:table_risks") -> tuple[str, dict]:
    """The claim's stated domain: words and data (the means in [0, 1], the parameter's stated range)."""
    params, pinned = param_domain(key, table)
    words = "Bernoulli means in [0, 1]"
    if params:
        words += ", " + _words(params)
    if pinned:
        words += ", " + ", ".join(f"{k} = {v}" for k, v in pinned.items())
    return words, {"means": ["0", "1", False, False], "params": params,
                   "pinned": {k: str(v) for k, v in pinned.items()}}
