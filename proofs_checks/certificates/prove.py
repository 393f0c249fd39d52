"""Making certificates: an identity simplified, a z3 decision, an interval branch and bound.

Each function returns a *part* (a dict the kernel, :mod:`proofs_checks.certificates.kernel`, re-checks from its
data alone) or raises :class:`NotProved` with what it found: a counterexample (a point where the claim fails,
re-checked exactly) or the exhausted work budget.  Budgets are counts (tree nodes, z3's rlimit), never seconds.
"""

from __future__ import annotations

from fractions import Fraction

from . import kernel
from .kernel import INF, KernelError, _box, _le, _num, enclose, parse, symbols_for


class NotProved(Exception):
    """The attempt did not prove the obligation.

    Attributes
    ----------
    witness : dict or None
        A point of the domain where the claim fails (variable -> exact value as text), re-checked exactly.
    value : str
        The claim's value there (> 0), or why no proof was found.
    """

    def __init__(self, why: str, witness: dict | None = None, value: str = ""):
        super().__init__(why)
        self.witness, self.value = witness, value


def identity(claim: str, pieces: list[tuple[str, str]], vars_: dict) -> dict:
    """``lhs = rhs`` for every piece, by ``simplify(lhs - rhs) == 0``."""
    part = {"kind": "identity", "claim": claim, "vars": vars_, "pieces": [list(p) for p in pieces]}
    try:
        kernel.recheck_part(part)
    except KernelError as exc:
        raise NotProved(str(exc)) from None
    return part


def decision(claim: str, expr: str, vars_: dict, constraints: tuple[str, ...] = (),
             rlimit: int = kernel.RLIMIT, strict: bool = False) -> dict:
    """``expr <= 0`` (``< 0`` when ``strict``) over the domain, by z3 proving its negation unsat (polynomial real
    arithmetic)."""
    try:
        text = kernel.smt2(expr, vars_, constraints, strict)
    except KernelError as exc:
        raise NotProved(str(exc)) from None
    answer, model = kernel.run_smt2(text, rlimit)
    if answer == "sat":
        raise NotProved(f"z3 finds a model of the negation: {model}", _model_point(model, vars_), "> 0")
    if answer != "unsat":
        raise NotProved(f"z3 answers {answer} within rlimit {rlimit}")
    out = {"kind": "decision", "claim": claim, "expr": expr, "vars": vars_, "constraints": list(constraints),
           "smt2": text, "rlimit": rlimit}
    if strict:
        out["strict"] = True
    return out


def _model_point(model: str, vars_: dict) -> dict:
    out = {}
    for item in model.split(", "):
        name, _, val = item.partition(" = ")
        if name in vars_:
            out[name] = val
    return out


def interval(claim: str, expr: str, vars_: dict, max_nodes: int = 4000, substitution: str = "") -> dict:
    """``expr <= 0`` on the bounded box ``vars_`` by branch and bound with arb enclosures and monotonicity faces."""
    import sympy as sp

    syms = symbols_for(vars_)
    f0 = parse(expr, syms)
    count = [0]
    zero = kernel._flint().arb(0)

    def rec(f, box: dict) -> dict:
        count[0] += 1
        if count[0] > max_nodes:
            raise NotProved(f"budget of {max_nodes} nodes exhausted")
        free = [k for k, v in box.items() if v[0] != v[1]]
        if not free:
            if kernel.point_holds(f, box, syms):
                return {"node": "point"}
            raise NotProved("fails at a point", {k: v[0] for k, v in box.items()}, str(f))
        env = _box(box, syms)
        try:
            ub = enclose(f, env).hi
        except KernelError:
            ub = INF
        if _le(ub, zero):
            return {"node": "bound"}
        # a point of the box where the claim fails ends the attempt with a counterexample
        mid = {k: [str(_mid(v)), str(_mid(v)), False, False] if v[0] != v[1] else v for k, v in box.items()}
        try:
            at_mid = enclose(f, _box(mid, syms))
            if not _le(at_mid.lo, zero):
                raise NotProved("fails at a point", {k: v[0] for k, v in mid.items()}, str(at_mid.lo))
        except KernelError:
            pass
        for v in free:
            lo, hi, lo_open, hi_open = box[v]
            try:
                d = enclose(kernel.derivative(f, syms[v]), env)
            except KernelError:
                continue
            for side, ok, is_open, at in (("high", _le(zero, d.lo), hi_open, hi), ("low", _le(d.hi, zero), lo_open, lo)):
                if ok and not is_open:
                    face = dict(box)
                    face[v] = [at, at, False, False]
                    return {"node": "mono", "var": v, "side": side,
                            "face": rec(f.subs(syms[v], sp.Rational(at)), face)}
        v = max(free, key=lambda k: _num(box[k][1]) - _num(box[k][0]))
        lo, hi, lo_open, hi_open = box[v]
        at = str(_mid(box[v]))
        if Fraction(hi) - Fraction(lo) < Fraction(1, 2**40):
            raise NotProved(f"boxes below 2^-40 near {box}")
        left, right = dict(box), dict(box)
        left[v] = [lo, at, lo_open, False]
        right[v] = [at, hi, False, hi_open]
        return {"node": "split", "var": v, "at": at, "low": rec(f, left), "high": rec(f, right)}

    for name, (lo, hi, *_r) in vars_.items():
        if _num(lo) is None or _num(hi) is None:
            raise NotProved(f"the box is unbounded in {name}: substitute onto a bounded box first")
    tree = rec(f0, {k: list(v) for k, v in vars_.items()})
    part = {"kind": "interval", "claim": claim, "expr": expr, "vars": vars_, "tree": tree, "nodes": count[0],
            "max_nodes": max(max_nodes, count[0])}
    if substitution:
        part["substitution"] = substitution
    return part


def _mid(v) -> Fraction:
    a, b = Fraction(v[0]), Fraction(v[1])
    m = (a + b) / 2
    # a short dyadic-ish midpoint keeps the stored tree readable
    return m.limit_denominator(2**20) if a < m.limit_denominator(2**20) < b else m
