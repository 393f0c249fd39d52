"""The certificate kernel: re-checks a stored certificate from its data alone (``rsb verify --recheck``).

Small and independent on purpose: it imports SymPy, z3 (``z3-solver``), python-flint's arb balls and the safe
expression parser :func:`rsb_theory.expressions.to_sympy`, and none of the check modules
(:mod:`proofs_checks.checks`), so a certificate is judged by what it records, not by the code that made it.

A certificate (``docs/theory.md``, "Certificates") is a dict ``{"kind", "domain", "whole", "parts", ...}``;
every *part* states one obligation over a domain and how it is proved:

* ``identity``: ``{"lhs", "rhs", "vars"}``; ``simplify(lhs - rhs)`` is 0 (piece by piece: ``pieces`` lists the
  pairs when the claim has several);
* ``decision``: ``{"expr", "vars", "constraints", "smt2", "rlimit"}``: the claim ``expr <= 0`` for every point of
  the domain (``vars``: name -> [low, high, low_open, high_open], ``constraints``: extra ``g <= 0``); ``smt2`` is
  the SMT-LIB text of its negation, which the kernel re-derives from ``expr`` (so the text is the claim's) and
  re-runs: z3 must answer *unsat* within ``rlimit`` (a work budget, never seconds);
* ``interval``: ``{"expr", "vars", "tree", "substitution"}``: ``expr <= 0`` on the box ``vars``, by a branch and
  bound recorded as a tree whose nodes are ``split`` (a variable halved at ``at``), ``bound`` (the arb enclosure's
  upper end <= 0 on the node's box), ``mono`` (the enclosure of the partial derivative in ``var`` has one sign,
  so the maximum is on the face ``var = low`` or ``high``, itself a node) and ``point`` (every variable fixed: the
  exact value is <= 0).  The kernel walks the tree itself, re-deriving every box, derivative and face, so the
  leaves cover the box by construction; an open end of a box is never a face;
* ``enumeration``: ``{"expr", "vars", "points"}``: ``expr <= 0`` exactly at each listed point (the stated finite
  set);
* ``sampled``: nothing to re-check (tested only; ``count`` says how many points).

Interval arithmetic: every enclosure is a pair of end points, each an exact arb point or +-inf, computed from arb
balls rounded outward; powers with an interval exponent take the extreme of the four corners (x^e is monotone in
each argument), so 0^e = 0 for e > 0 and x^(+oo) = 0 for x < 1.
"""

from __future__ import annotations

from fractions import Fraction

#: Kinds of certificate, strongest first ("proved" kinds are the first three).
KINDS = ("identity", "decision", "interval", "enumeration", "sampled")
PROVED = ("identity", "decision", "interval")
#: Default work budgets (counts): nodes of a branch-and-bound tree; z3's resource limit.
MAX_NODES = 20000
RLIMIT = 5_000_000
#: Working precision of the arb balls (bits).
PREC = 80

INF = float("inf")


class KernelError(ValueError):
    """A certificate that fails its re-check; the message says which obligation and why."""


# ---------------------------------------------------------------------------------------------- expressions
def symbols_for(vars_: dict):
    """SymPy symbols for a part's variables, with the sign their box gives them (0**s needs s > 0)."""
    import sympy as sp

    out = {}
    for name, (lo, hi, lo_open, _hi_open) in vars_.items():
        low = _num(lo)
        kw = {"real": True}
        if low is not None and (low > 0 or (low == 0 and lo_open)):
            kw["positive"] = True
        elif low is not None and low >= 0:
            kw["nonnegative"] = True
        out[name] = sp.Symbol(name, **kw)
    return out


def _num(text):
    """An end of a box (``"1/2"``, ``"-oo"``, ``"oo"``) as a Fraction (None for an infinite end)."""
    if text in ("oo", "-oo", None):
        return None
    return Fraction(str(text))


def parse(text: str, syms: dict):
    """A stored expression, through the one safe parser (never ``eval`` or ``sympify`` of text)."""
    from rsb_theory.expressions import to_sympy

    return to_sympy(text, "certificate", syms)


# ---------------------------------------------------------------------------------------------- intervals
def _flint():
    import flint

    flint.ctx.prec = PREC
    return flint


class Iv:
    """A closed interval [lo, hi]; each end an exact arb point or +-inf (a Python float)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    @staticmethod
    def ball(b) -> "Iv":
        if not b.is_finite():
            return Iv(-INF, INF)
        return Iv(b.lower(), b.upper())

    @staticmethod
    def point(q: Fraction) -> "Iv":
        fl = _flint()
        b = fl.arb(fl.fmpq(q.numerator, q.denominator))
        return Iv.ball(b)

    def __repr__(self):
        return f"[{self.lo}, {self.hi}]"


def _is_inf(x) -> bool:
    return isinstance(x, float)


def _le(a, b) -> bool:
    """a <= b for ends (exact points or infinities)."""
    if _is_inf(a) or _is_inf(b):
        if _is_inf(a) and _is_inf(b):
            return a <= b
        return (a == -INF) if _is_inf(a) else (b == INF)
    return bool(a <= b)


def _sign(x) -> int:
    if _is_inf(x):
        return 1 if x > 0 else -1
    return 1 if x > 0 else (-1 if x < 0 else 0)


def _add_end(a, b, lower: bool):
    if _is_inf(a) or _is_inf(b):
        vals = [v for v in (a, b) if _is_inf(v)]
        if len(vals) == 2 and vals[0] != vals[1]:
            return -INF if lower else INF
        return vals[0]
    s = a + b
    return s.lower() if lower else s.upper()


def _mul_end(a, b, lower: bool):
    if _is_inf(a) or _is_inf(b):
        if _sign(a) == 0 or _sign(b) == 0:
            return _flint().arb(0)
        return INF if _sign(a) * _sign(b) > 0 else -INF
    p = a * b
    return p.lower() if lower else p.upper()


def _min(vals):
    out = vals[0]
    for v in vals[1:]:
        if not _le(out, v):
            out = v
    return out


def _max(vals):
    out = vals[0]
    for v in vals[1:]:
        if _le(out, v):
            out = v
    return out


def iv_add(x: Iv, y: Iv) -> Iv:
    return Iv(_add_end(x.lo, y.lo, True), _add_end(x.hi, y.hi, False))


def iv_neg(x: Iv) -> Iv:
    return Iv(-x.hi if not _is_inf(x.hi) else -x.hi, -x.lo if not _is_inf(x.lo) else -x.lo)


def iv_mul(x: Iv, y: Iv) -> Iv:
    los = [_mul_end(a, b, True) for a in (x.lo, x.hi) for b in (y.lo, y.hi)]
    his = [_mul_end(a, b, False) for a in (x.lo, x.hi) for b in (y.lo, y.hi)]
    return Iv(_min(los), _max(his))


def iv_inv(x: Iv) -> Iv:
    fl = _flint()
    zero = fl.arb(0)
    if _le(x.lo, zero) and _le(zero, x.hi):
        if _sign(x.lo) == 0 and _sign(x.hi) > 0:  # [0, b]: [1/b, oo]
            return Iv((1 / x.hi).lower() if not _is_inf(x.hi) else zero, INF)
        if _sign(x.hi) == 0 and _sign(x.lo) < 0:
            return Iv(-INF, (1 / x.lo).upper() if not _is_inf(x.lo) else zero)
        return Iv(-INF, INF)
    lo = zero if _is_inf(x.hi) else (1 / x.hi).lower()
    hi = zero if _is_inf(x.lo) else (1 / x.lo).upper()
    return Iv(lo, hi)


def _monotone(x: Iv, f, increasing: bool, at_lo_inf=None, at_hi_inf=None) -> Iv:
    """f applied to a monotone function's interval argument (f maps an exact arb point to a ball)."""
    def end(v, lower):
        if _is_inf(v):
            return (at_lo_inf if v < 0 else at_hi_inf)
        b = f(v)
        if not b.is_finite():
            return -INF if lower else INF
        return b.lower() if lower else b.upper()
    if increasing:
        return Iv(end(x.lo, True), end(x.hi, False))
    return Iv(end(x.hi, True), end(x.lo, False))


def _pow_point(b, e, lower: bool):
    """b^e for exact ends b >= 0, e (either may be infinite)."""
    fl = _flint()
    if _is_inf(e):
        if _is_inf(b):
            return INF if e > 0 else fl.arb(0)
        if b == 1:
            return fl.arb(1)
        if (b < 1) == (e > 0):
            return fl.arb(0)
        return INF
    if _is_inf(b):
        return INF if e > 0 else (fl.arb(1) if e == 0 else fl.arb(0))
    if b == 0:
        if e > 0:
            return fl.arb(0)
        if e == 0:
            return fl.arb(1)
        return INF
    r = b ** e
    if not r.is_finite():
        return -INF if lower else INF
    return r.lower() if lower else r.upper()


def iv_pow(x: Iv, e: Iv, integer: int | None) -> Iv:
    fl = _flint()
    if integer is not None:
        n = integer
        if n == 0:
            return Iv(fl.arb(1), fl.arb(1))
        if n < 0:
            return iv_inv(iv_pow(x, e, -n))
        if n % 2 == 1 or _sign(x.lo) >= 0:  # increasing on the interval
            return Iv(_ipow(x.lo, n, True), _ipow(x.hi, n, False))
        if _sign(x.hi) <= 0:
            return Iv(_ipow(x.hi, n, True), _ipow(x.lo, n, False))
        return Iv(fl.arb(0), _max([_ipow(x.lo, n, False), _ipow(x.hi, n, False)]))
    if _sign(x.lo) < 0:
        raise KernelError("a real power of a base that may be negative")
    los = [_pow_point(b, t, True) for b in (x.lo, x.hi) for t in (e.lo, e.hi)]
    his = [_pow_point(b, t, False) for b in (x.lo, x.hi) for t in (e.lo, e.hi)]
    return Iv(_min(los), _max(his))


def _ipow(v, n, lower):
    if _is_inf(v):
        return v if n % 2 == 1 else INF
    r = v ** n
    return r.lower() if lower else r.upper()


def enclose(expr, box: dict) -> Iv:
    """A rigorous enclosure of the SymPy expression ``expr`` over ``box`` (symbol -> Iv)."""
    import sympy as sp

    fl = _flint()
    if expr in box:
        return box[expr]
    if expr.is_Rational:
        return Iv.point(Fraction(int(expr.p), int(expr.q)))
    if expr is sp.oo:
        return Iv(INF, INF)
    if expr is sp.S.NegativeInfinity:
        return Iv(-INF, -INF)
    if expr is sp.E:
        return Iv.ball(fl.arb(1).exp())
    if expr is sp.pi:
        return Iv.ball(fl.arb.pi())
    if isinstance(expr, sp.Add):
        out = None
        for a in expr.args:
            v = enclose(a, box)
            out = v if out is None else iv_add(out, v)
        return out
    if isinstance(expr, sp.Mul):
        out = None
        for a in expr.args:
            v = enclose(a, box)
            out = v if out is None else iv_mul(out, v)
        return out
    if isinstance(expr, sp.Pow):
        base, e = expr.args
        if e.is_Integer:
            return iv_pow(enclose(base, box), None, int(e))
        if e == sp.Rational(1, 2):
            return _monotone(enclose(base, box), lambda v: v.sqrt(), True, None, INF)
        return iv_pow(enclose(base, box), enclose(e, box), None)
    if isinstance(expr, sp.exp):
        return _monotone(enclose(expr.args[0], box), lambda v: v.exp(), True, fl.arb(0), INF)
    if isinstance(expr, sp.log):
        x = enclose(expr.args[0], box)
        if _sign(x.lo) < 0:
            raise KernelError("log of a value that may be negative")
        return _monotone(x, lambda v: v.log() if v > 0 else fl.arb("-inf"), True, None, INF)
    if isinstance(expr, (sp.Min, sp.Max)):
        vals = [enclose(a, box) for a in expr.args]
        pick = _min if isinstance(expr, sp.Min) else _max
        return Iv(pick([v.lo for v in vals]), pick([v.hi for v in vals]))
    if isinstance(expr, sp.Abs):
        x = enclose(expr.args[0], box)
        if _sign(x.lo) >= 0:
            return x
        if _sign(x.hi) <= 0:
            return iv_neg(x)
        return Iv(fl.arb(0), _max([iv_neg(x).hi, x.hi]))
    raise KernelError(f"no enclosure for {type(expr).__name__} in {expr}")


def _box(vars_: dict, syms: dict) -> dict:
    out = {}
    for name, (lo, hi, _lo_open, _hi_open) in vars_.items():
        a, b = _num(lo), _num(hi)
        lo_iv = Iv.point(a).lo if a is not None else -INF
        hi_iv = Iv.point(b).hi if b is not None else INF
        out[syms[name]] = Iv(lo_iv, hi_iv)
    return out


# ---------------------------------------------------------------------------------------------- tree walk
def walk(expr, vars_: dict, tree: dict, syms: dict, budget: int = MAX_NODES) -> int:
    """Re-check a branch-and-bound tree for ``expr <= 0`` on ``vars_``; the number of nodes, or KernelError."""
    import sympy as sp

    count = [0]

    def rec(f, box: dict, node: dict, path: str):
        count[0] += 1
        if count[0] > budget:
            raise KernelError(f"more than {budget} nodes")
        kind = node.get("node")
        if kind == "point":
            if any(lo != hi for lo, hi, *_ in box.values()):
                raise KernelError(f"{path}: a point leaf on a box with a free variable")
            if not point_holds(f, box, syms):
                raise KernelError(f"{path}: the value {f} at the point is not <= 0")
            return
        if kind == "bound":
            env = _box(box, syms)
            hi = enclose(f, env).hi
            if not _le(hi, _flint().arb(0)):
                raise KernelError(f"{path}: the enclosure's upper end {hi} is not <= 0 on {_show(box)}")
            return
        if kind == "mono":
            v = node["var"]
            side = node["side"]
            lo, hi, lo_open, hi_open = box[v]
            if (side == "low" and lo_open) or (side == "high" and hi_open):
                raise KernelError(f"{path}: a face on the open end of {v}")
            d = enclose(derivative(f, syms[v]), _box(box, syms))
            zero = _flint().arb(0)
            ok = _le(zero, d.lo) if side == "high" else _le(d.hi, zero)
            if not ok:
                raise KernelError(f"{path}: the derivative in {v} has no sign {d} toward the {side} face")
            at = hi if side == "high" else lo
            face = dict(box)
            face[v] = [at, at, False, False]
            rec(f.subs(syms[v], sp.Rational(at)), face, node["face"], f"{path}/{v}={at}")
            return
        if kind == "split":
            v, at = node["var"], node["at"]
            lo, hi, lo_open, hi_open = box[v]
            a, m, b = _num(lo), Fraction(at), _num(hi)
            if not (a < m < b):
                raise KernelError(f"{path}: split of {v} at {at} outside ({lo}, {hi})")
            left, right = dict(box), dict(box)
            left[v] = [lo, at, lo_open, False]
            right[v] = [at, hi, False, hi_open]
            rec(f, left, node["low"], f"{path}/{v}<={at}")
            rec(f, right, node["high"], f"{path}/{v}>={at}")
            return
        raise KernelError(f"{path}: unknown node {kind!r}")

    rec(expr, {k: list(v) for k, v in vars_.items()}, tree, "root")
    return count[0]


def derivative(f, v):
    """df/dv with same-base powers combined (x^(1/t)/x as x^(1/t - 1)) and common factors taken out (x/t (1 - ...)
    rather than x/t - x (...)/t), so that its enclosure keeps its sign."""
    import sympy as sp

    return sp.factor_terms(sp.powsimp(sp.diff(f, v)))


def _check_reduction(part: dict, syms: dict) -> None:
    """The interval part proves ``expr <= 0``; its ``original`` claim is ``factor * expr`` after the substitution,
    with ``factor >= 0`` on the box: both re-checked here."""
    import sympy as sp

    orig = part["original"]
    osyms = symbols_for(orig["vars"])
    f = parse(orig["expr"], osyms)
    f = f.subs({osyms[k]: parse(v, syms) for k, v in orig.get("substitution", {}).items()})
    f = f.xreplace({osyms[k]: syms[k] for k in osyms if k in syms})
    factor = parse(orig.get("factor", "1"), syms)
    if sp.simplify(f - factor * parse(part["expr"], syms)) != 0:
        raise KernelError(f"the reduced claim {part['expr']} times {factor} is not {orig['expr']} after "
                          f"{orig.get('substitution')}")
    lo = enclose(factor, _box(part["vars"], syms)).lo
    if not _le(_flint().arb(0), lo):
        raise KernelError(f"the factor {factor} may be negative on the box")


def point_holds(f, box: dict, syms: dict) -> bool:
    """``f <= 0`` at a point (every variable of ``box`` fixed): the arb enclosure's upper end, else exactly."""
    import sympy as sp

    e = enclose(f, _box(box, syms))
    zero = _flint().arb(0)
    if _le(e.hi, zero):
        return True
    if not _le(e.lo, zero):
        return False
    # the enclosure straddles 0: decide exactly (the value is 0 or within rounding of it)
    val = sp.simplify(f.subs({syms[k]: sp.Rational(v[0]) for k, v in box.items()}))
    return bool(val.is_zero) or bool(val <= 0)


def _show(box) -> str:
    return ", ".join(f"{k} in [{v[0]}, {v[1]}]" for k, v in box.items())


# ---------------------------------------------------------------------------------------------- z3
def smt2(expr_text: str, vars_: dict, constraints: tuple[str, ...] = (), strict: bool = False) -> str:
    """The SMT-LIB text of the negation of ``expr <= 0`` (``expr < 0`` when ``strict``) over the domain, printed
    here term by term (:func:`smt_term`), so the same data gives the same text on any machine and in any process."""
    syms = symbols_for(vars_)
    expr = parse(expr_text, syms)
    aux: list[str] = []
    lines = ["(set-logic ALL)"]
    body = []
    for name, (lo, hi, lo_open, hi_open) in vars_.items():
        a, b = _num(lo), _num(hi)
        if a is not None:
            body.append(f"(assert ({'>' if lo_open else '>='} {name} {_q(a)}))")
        if b is not None:
            body.append(f"(assert ({'<' if hi_open else '<='} {name} {_q(b)}))")
    for c in constraints:
        body.append(f"(assert (<= {smt_term(parse(c, syms), aux)} 0.0))")
    goal = smt_term(expr, aux)
    body.append(f"(assert ({'>=' if strict else '>'} {goal} 0.0))")
    lines += [f"(declare-fun {name} () Real)" for name in vars_]
    lines += [f"(declare-fun {a.split()[0]} () Real)" for a in aux]
    lines += [f"(assert {a.split(' ', 1)[1]})" for a in aux]
    return "\n".join(lines + body + ["(check-sat)"]) + "\n"


def _q(q: Fraction) -> str:
    num = f"{abs(q.numerator)}.0" if q.denominator == 1 else f"(/ {abs(q.numerator)}.0 {q.denominator}.0)"
    return f"(- {num})" if q < 0 else num


def smt_term(expr, aux: list) -> str:
    """A SymPy expression as an SMT-LIB real term.  A rational power b^(p/q) becomes a fresh v >= 0 with
    v^q = b^p and b >= 0 (exact; recorded in ``aux`` as ``"name constraint"``); Min, Max and Abs become ite.
    Anything else (a power with a symbolic exponent, log, exp) is refused: not polynomial real arithmetic."""
    import sympy as sp

    if expr.is_Symbol:
        return expr.name
    if expr.is_Rational:
        return _q(Fraction(int(expr.p), int(expr.q)))
    if isinstance(expr, sp.Add):
        return "(+ " + " ".join(smt_term(a, aux) for a in expr.args) + ")"
    if isinstance(expr, sp.Mul):
        return "(* " + " ".join(smt_term(a, aux) for a in expr.args) + ")"
    if isinstance(expr, sp.Pow):
        base, e = expr.args
        b = smt_term(base, aux)
        if e.is_Integer:
            n = int(e)
            if n == 0:
                return "1.0"
            prod = b if abs(n) == 1 else "(* " + " ".join([b] * abs(n)) + ")"
            return prod if n > 0 else f"(/ 1.0 {prod})"
        if e.is_Rational:
            p, q = int(e.p), int(e.q)
            v = f"pow{len(aux)}"
            bp = "1.0" if p == 0 else (b if abs(p) == 1 else "(* " + " ".join([b] * abs(p)) + ")")
            vq = v if q == 1 else "(* " + " ".join([v] * q) + ")"
            aux.append(f"{v} (and (>= {v} 0.0) (>= {b} 0.0) (= {vq} {bp}))")
            return v if p > 0 else f"(/ 1.0 {v})"
        raise KernelError(f"the power {expr} is not polynomial")
    if isinstance(expr, (sp.Min, sp.Max)):
        args = [smt_term(a, aux) for a in expr.args]
        out = args[0]
        op = "<" if isinstance(expr, sp.Min) else ">"
        for a in args[1:]:
            out = f"(ite ({op} {a} {out}) {a} {out})"
        return out
    if isinstance(expr, sp.Abs):
        a = smt_term(expr.args[0], aux)
        return f"(ite (>= {a} 0.0) {a} (- {a}))"
    raise KernelError(f"{type(expr).__name__} is not polynomial real arithmetic: {expr}")


def run_smt2(text: str, rlimit: int = RLIMIT) -> tuple[str, str]:
    """z3's answer to an SMT-LIB query within ``rlimit`` (a work budget): (``unsat``/``sat``/``unknown``, model)."""
    import z3

    s = z3.Solver()
    s.set("rlimit", int(rlimit))
    s.from_string(text)
    r = s.check()
    model = ""
    if r == z3.sat:
        m = s.model()
        model = ", ".join(f"{d.name()} = {m[d]}" for d in sorted(m.decls(), key=lambda d: d.name()))
    return str(r), model


# ---------------------------------------------------------------------------------------------- re-check
def recheck_part(part: dict) -> str:
    """Re-check one part of a certificate; a line saying what was re-checked, or KernelError."""
    import sympy as sp

    kind = part["kind"]
    if kind == "identity":
        pieces = part.get("pieces") or [[part["lhs"], part["rhs"]]]
        syms = symbols_for(part.get("vars", {}))
        for lhs, rhs in pieces:
            diff = sp.simplify(parse(lhs, syms) - parse(rhs, syms))
            if diff != 0:
                raise KernelError(f"identity {lhs} = {rhs}: the difference simplifies to {diff}, not 0")
        return f"identity: {len(pieces)} piece(s) simplify to 0"
    if kind == "decision":
        text = smt2(part["expr"], part["vars"], tuple(part.get("constraints", ())), bool(part.get("strict")))
        if text != part["smt2"]:
            raise KernelError(f"decision: the stored SMT-LIB text is not the negation of {part['expr']} <= 0")
        answer, model = run_smt2(text, part.get("rlimit", RLIMIT))
        if answer != "unsat":
            raise KernelError(f"decision: z3 answers {answer} to the negation of {part['expr']} <= 0"
                              + (f" (model {model})" if model else ""))
        return "decision: z3 answers unsat"
    if kind == "interval":
        syms = symbols_for(part["vars"])
        if "original" in part:
            _check_reduction(part, syms)
        n = walk(parse(part["expr"], syms), part["vars"], part["tree"], syms, part.get("max_nodes", MAX_NODES))
        return f"interval: {n} nodes re-evaluated"
    if kind == "enumeration":
        syms = symbols_for(part["vars"])
        f = parse(part["expr"], syms)
        strict = bool(part.get("strict"))
        for pt in part["points"]:
            val = sp.simplify(f.subs({syms[k]: sp.Rational(v) for k, v in pt.items()}))
            if not (bool(val < 0) if strict else bool(val <= 0)):
                raise KernelError(f"enumeration: {part['expr']} = {val} is not {'<' if strict else '<='} 0 at {pt}")
        return f"enumeration: {len(part['points'])} points"
    if kind == "sampled":
        return "sampled: nothing to re-check"
    raise KernelError(f"unknown kind {kind!r}")


def recheck(cert: dict) -> list[str]:
    """Re-check every part of a certificate; the lines of what was re-checked, or KernelError naming the part.

    Also checks the record's own claims: its kind is the weakest of its parts', and a ``whole`` certificate is
    made of proved parts only.
    """
    if cert.get("kind") not in KINDS:
        raise KernelError(f"unknown kind {cert.get('kind')!r}")
    parts = cert.get("parts", [])
    if cert["kind"] in PROVED:
        if not parts:
            raise KernelError("a proved kind with no parts")
        weakest = max(KINDS.index(p["kind"]) for p in parts)
        if KINDS[weakest] != cert["kind"]:
            raise KernelError(f"kind {cert['kind']} but the weakest part is {KINDS[weakest]}")
    out = []
    for i, part in enumerate(parts):
        try:
            out.append(recheck_part(part))
        except KernelError as exc:
            raise KernelError(f"part {i} ({part.get('claim', part['kind'])}): {exc}") from None
    return out
