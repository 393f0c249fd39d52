"""The one safe parser for every expression rsb reads from a user or from the paper's text.

Every expression-taking input goes through here: the distortion ``h`` (``--h``,
``--dr``), parameter values (``--param s=1/2``), discretisation levels
(``--eps "sqrt(K*log(T)/T)"``), counts (``--explore T/10``, ``--T 3*10^5``) and
the printed cells of ``proofs_checks.paper_claims``.  Nothing is ever passed to
``eval``, ``exec`` or ``sympy.sympify``: the text is parsed by Python's ``ast``
module into a tree, every node is checked against a small grammar, and the tree
is then *interpreted* by one of two evaluators:

* :func:`evaluate` — a float, with :mod:`math` only (no SymPy import, so a
  command line can reject bad input before it imports anything heavy);
* :func:`to_sympy` — a SymPy expression (decimal literals become exact
  rationals: ``0.3`` -> ``3/10``).

Grammar: numbers; the names the caller allows (``u``, ``T``, ``K``, declared
parameters); the constants ``pi`` and ``e``; ``+ - * / **`` and ``^`` (read as a
power, as users write it); unary ``+``/``-``; calls of the functions of
:data:`FUNCTIONS` with positional arguments.  Attributes, subscripts, keywords,
strings, comparisons, lambdas, comprehensions, starred arguments and every
other construct are refused with a one-line message naming the flag.

Work is bounded by counts, never by time: at most :data:`MAX_LENGTH`
characters, :data:`MAX_NODES` tree nodes and :data:`MAX_DEPTH` levels of
nesting; a power whose base and exponent are both numbers (literals, or the
values bound to names) may not have an exponent above
:data:`MAX_CONSTANT_EXPONENT` in absolute value unless the base is +-1
(``9**9**9`` would make SymPy build a number with 10^8 digits).  Both
evaluators apply the same rule, so they accept the same texts.

Examples
--------
>>> from rsb_theory.expressions import evaluate, parse_count
>>> evaluate("sqrt(K*log(T)/T)", "eps", {"T": 100000, "K": 2}) < 0.02
True
>>> parse_count("T/10", "explore", {"T": 3000, "K": 2})
300
"""

from __future__ import annotations

import ast
import io
import math
import re
import sys
import tokenize
from typing import Callable, Mapping
from .errors import ArgumentError, ArgumentTypeError

__all__ = [
    "ExpressionError",
    "FUNCTIONS",
    "CONSTANTS",
    "check",
    "evaluate",
    "to_sympy",
    "parse_count",
    "parse_number",
    "flag_name",
]

#: Longest expression accepted (characters).
MAX_LENGTH = 1000
#: Most nodes of a parsed tree.
MAX_NODES = 2000
#: Deepest nesting of a parsed tree.
MAX_DEPTH = 60
#: Largest |exponent| allowed in a power of two numeric constants.
MAX_CONSTANT_EXPONENT = 64
#: Most decimal digits of a power of two numbers built by :func:`to_sympy` (exact numbers: SymPy's work and memory
#: grow with their size).
MAX_CONSTANT_DIGITS = 1000
#: Largest count :func:`parse_count` returns (beyond it int64 arithmetic overflows).
MAX_COUNT = 2**62

#: Functions an expression may call: name -> (fewest, most) positional arguments.
FUNCTIONS: Mapping[str, tuple[int, int | None]] = {
    "sqrt": (1, 1),
    "exp": (1, 1),
    "log": (1, 2),
    "sin": (1, 1),
    "cos": (1, 1),
    "tan": (1, 1),
    "atan": (1, 1),
    "tanh": (1, 1),
    "abs": (1, 1),
    "Abs": (1, 1),
    "min": (1, None),
    "Min": (1, None),
    "max": (1, None),
    "Max": (1, None),
}

#: Named constants every expression may use.
CONSTANTS: tuple[str, ...] = ("pi", "e", "E")


class ExpressionError(ArgumentError):
    """An expression outside the grammar, or one that cannot be evaluated: an ``ArgumentError`` naming the flag."""


def flag_name(name: str) -> str:
    """``'explore'`` -> ``'--explore'``, ``'radius_scale'`` -> ``'--radius-scale'``; ``'--x'`` and ``'h'``-style
    names that already carry dashes are returned as given."""
    if name.startswith("-"):
        return name
    return "--" + name.replace("_", "-")


def _fail(flag: str, message: str) -> ExpressionError:
    return ExpressionError(flag, message)


def _juxtaposition(text: str) -> str:
    """Insert ``*`` between operands written side by side (``2 kappa`` -> ``2*kappa``, ``2(x)`` -> ``2*(x)``).

    Used for the printed cells of the paper (``varpi^(2 kappa)``), never for user input.
    """
    out, prev = [], None
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    for tok in toks:
        if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT):
            continue
        operand_end = prev is not None and (prev.type in (tokenize.NAME, tokenize.NUMBER) or prev.string == ")")
        operand_start = tok.type in (tokenize.NAME, tokenize.NUMBER) or tok.string == "("
        call = prev is not None and prev.type == tokenize.NAME and prev.string in FUNCTIONS and tok.string == "("
        if operand_end and operand_start and not call:
            out.append("*")
        out.append(tok.string)
        prev = tok
    return " ".join(out)


def check(text, flag: str, names: tuple[str, ...] | frozenset[str] = (), *, juxtaposition: bool = False) -> ast.AST:
    """Parse ``text`` and check it against the grammar; return the tree's body (no evaluation).

    Parameters
    ----------
    text : str
        The expression.  ``^`` is read as a power.
    flag : str
        Name used in error messages (``"--explore"``, ``"h"``).
    names : collection of str
        Free names the expression may use besides :data:`CONSTANTS`.
    juxtaposition : bool
        Read operands written side by side as a product (``2 kappa``); for the
        paper's printed cells, not for user input.

    Raises
    ------
    ExpressionError
        Empty or too long text, a syntax error, or a construct outside the grammar.
    """
    if not isinstance(text, str):
        raise _fail(flag, f"expected an expression string, got {type(text).__name__}")
    src = text.strip()
    if not src:
        raise _fail(flag, "expected a non-empty expression")
    if len(src) > MAX_LENGTH:
        raise _fail(flag, f"expression longer than {MAX_LENGTH} characters")
    # "u^2" means a power, as users write it; replacing the token (rather than mapping XOR to a
    # power) gives it the precedence of ** (there are no strings in the grammar, so every "^" is
    # an operator)
    src = src.replace("^", "**")
    if juxtaposition:
        src = _juxtaposition(src)
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError as exc:
        raise _fail(flag, f"malformed expression {text!r}: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise _fail(flag, f"expression {text!r} is nested too deeply") from None
    allowed = set(names)
    count = 0

    def walk(node: ast.AST, depth: int) -> None:
        nonlocal count
        count += 1
        if count > MAX_NODES:
            raise _fail(flag, f"expression has more than {MAX_NODES} parts")
        if depth > MAX_DEPTH:
            raise _fail(flag, f"expression {text!r} is nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _fail(flag, f"constant {v!r} is not a number in {text!r}")
            if isinstance(v, float) and not math.isfinite(v):
                raise _fail(flag, f"non-finite constant in {text!r}")
            return
        if isinstance(node, ast.Name):
            if node.id in allowed or node.id in CONSTANTS:
                return
            if node.id in FUNCTIONS:
                raise _fail(flag, f"function {node.id!r} needs an argument in {text!r}")
            shown = ", ".join(sorted(allowed))
            raise _fail(flag, f"unknown name {node.id!r} in {text!r}; allowed: "
                              f"{shown + ', ' if shown else ''}pi, e and the functions {', '.join(sorted(FUNCTIONS))}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
            walk(node.left, depth + 1)
            walk(node.right, depth + 1)
            return
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            walk(node.operand, depth + 1)
            return
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                raise _fail(flag, f"attribute access (.{node.func.attr}) is not allowed in {text!r}")
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                what = node.func.id if isinstance(node.func, ast.Name) else type(node.func).__name__
                raise _fail(flag, f"function {what!r} is not allowed in {text!r}; allowed: "
                                  f"{', '.join(sorted(FUNCTIONS))}")
            if node.keywords:
                raise _fail(flag, f"keyword arguments are not allowed in {text!r}")
            lo, hi = FUNCTIONS[node.func.id]
            if any(isinstance(a, ast.Starred) for a in node.args):
                raise _fail(flag, f"starred arguments are not allowed in {text!r}")
            if len(node.args) < lo or (hi is not None and len(node.args) > hi):
                raise _fail(flag, f"{node.func.id}() takes {lo if hi == lo else f'{lo} or more' if hi is None else f'{lo} to {hi}'}"
                                  f" argument{'s' if (hi or 2) > 1 else ''}, got {len(node.args)} in {text!r}")
            for a in node.args:
                walk(a, depth + 1)
            return
        if isinstance(node, ast.Attribute):
            raise _fail(flag, f"attribute access (.{node.attr}) is not allowed in {text!r}")
        raise _fail(flag, f"construct {type(node).__name__} is not allowed in {text!r}")

    walk(tree.body, 0)
    return tree.body


# ---------------------------------------------------------------------------
# numeric evaluation (math only)
# ---------------------------------------------------------------------------

_MATH: Mapping[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "atan": math.atan, "tanh": math.tanh, "abs": abs, "Abs": abs, "min": min, "Min": min, "max": max, "Max": max,
}
_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "E": math.e}


def _constant_power_guard(base, exponent, flag: str, text: str) -> None:
    if abs(exponent) > MAX_CONSTANT_EXPONENT and abs(base) != 1:
        raise _fail(flag, f"constant power with exponent {exponent} is too large in {text!r}")


def evaluate(text, flag: str, values: Mapping[str, float] | None = None) -> float:
    """The value of ``text`` as a float, with the names bound to ``values`` (math only, no SymPy).

    Parameters
    ----------
    text : str
    flag : str
        Named in every error message.
    values : mapping of str to float, optional
        Values of the free names (the only names allowed besides the constants).

    Raises
    ------
    ExpressionError
        Grammar violations (see :func:`check`), a domain error (``log(-1)``, ``1/0``), an
        overflow, or a value that is not a finite real number.
    """
    values = dict(values or {})
    body = check(text, flag, tuple(values))

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Constant):
            return float(node.value)
        if isinstance(node, ast.Name):
            return float(values[node.id]) if node.id in values else _MATH_CONSTANTS[node.id]
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return v if isinstance(node.op, ast.UAdd) else -v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                return a / b
            # every value here is a number, so the guard of to_sympy (a power of two numbers)
            # applies to every power: both routes refuse the same texts
            _constant_power_guard(a, b, flag, text)
            r = a ** b
            if isinstance(r, complex):
                raise ValueError("complex result")
            return r
        assert isinstance(node, ast.Call)  # check() admits nothing else
        return float(_MATH[node.func.id](*(ev(a) for a in node.args)))

    try:
        out = ev(body)
    except ExpressionError:
        raise
    except ZeroDivisionError:
        raise _fail(flag, f"division by zero in {text!r}") from None
    except OverflowError:
        raise _fail(flag, f"{text!r} overflows") from None
    except (ValueError, TypeError):
        raise _fail(flag, f"{text!r} is not a real number at {_show(values)}") from None
    if not math.isfinite(out):
        raise _fail(flag, f"{text!r} is not finite at {_show(values)}")
    return out


def _show(values: Mapping[str, float]) -> str:
    return ", ".join(f"{k} = {v:g}" for k, v in values.items()) or "no free names"


def parse_number(text, flag: str, values: Mapping[str, float] | None = None, *, low: float | None = None,
                 high: float | None = None, low_open: bool = False, high_open: bool = False) -> float:
    """:func:`evaluate`, then a range check ``low <= v <= high`` (open ends when asked); errors name ``flag``."""
    v = evaluate(text, flag, values)
    if v != 0 and abs(v) < sys.float_info.min:  # subnormal: 1/v overflows, and v*v is 0
        raise _fail(flag, f"{text!r} = {v!r} is below the smallest normal floating-point number "
                          f"({sys.float_info.min:.3g}): its reciprocal overflows; give 0 or a larger number")

    def outside(x: float) -> bool:
        return (low is not None and (x < low or (low_open and x == low))) or \
               (high is not None and (x > high or (high_open and x == high)))

    if outside(v):
        lo = "" if low is None else f"{low:g} {'<' if low_open else '<='} "
        hi = "" if high is None else f" {'<' if high_open else '<='} {high:g}"
        where = f" at {_show(values)}" if values else ""
        shown = f"{v:.6g}"
        if not outside(float(shown)):  # 1.0000001 is not "= 1": show every digit where 6 hide the fault
            shown = repr(v)
        raise _fail(flag, f"need {lo}value{hi}, got {text!r} = {shown}{where}")
    return v


#: A count written in ASCII digits only (read exactly, not through a float).
_DIGITS = re.compile(r"\s*[0-9]+\s*")


def parse_count(text, flag: str, values: Mapping[str, float] | None = None, *, minimum: int = 1,
                rounding: str = "exact") -> int:
    """A count written as an expression (``"1000"``, ``"1e3"``, ``"3*10^5"``, ``"T/10"``).

    Parameters
    ----------
    text : str or int
        An int is taken as it is (after the range check).
    flag : str
    values : mapping, optional
        Values of the free names (``{"T": 3000, "K": 2}`` for ``--explore``).
    minimum : int
    rounding : {"exact", "ceil"}
        ``"exact"``: the value must be an integer (within 1e-9); ``"ceil"``: the
        smallest integer >= value - 1e-9 (``T**(2/3)`` at T = 1000 is 100, not 101).
        Either way the value itself must be at least ``minimum`` (``T/10000`` at
        T = 100 is refused, not rounded up to 1).

    Raises
    ------
    ExpressionError
        Naming ``flag``: grammar, evaluation, a non-integer (``exact``), a value
        below ``minimum`` or above :data:`MAX_COUNT`.
    """
    if isinstance(text, bool):
        raise _fail(flag, f"not a count: {text!r}")
    if isinstance(text, int):
        v = float(text) if abs(text) <= MAX_COUNT else math.inf if text > 0 else -math.inf  # float(10**400) raises
        shown = str(text) if abs(text) <= MAX_COUNT else f"an integer of {len(str(abs(text)))} digits"
    else:
        v = evaluate(text, flag, values)
        shown = repr(text)
    where = f" at {_show(values)}" if values else ""
    exact = text if isinstance(text, int) else int(text) if _DIGITS.fullmatch(text) else None
    if exact is not None:  # digits are read exactly: a float holds 53 bits, and 2^53 + 1 is not 2^53 (a seed)
        n = exact
    elif rounding == "exact":
        n = round(v)
        if abs(v - n) > 1e-9 * max(1.0, abs(v)):
            raise _fail(flag, f"need an integer >= {minimum}, got {shown} = {v:.6g}{where}")
    elif rounding == "ceil":
        n = math.ceil(v - 1e-9)
    else:  # pragma: no cover - programming error
        raise ArgumentError("rounding", f"must be 'exact' or 'ceil', got {rounding!r}")
    if n < minimum or v < minimum - 1e-9:
        raise _fail(flag, f"need an integer >= {minimum}, got {shown} = {v:.6g}{where}")
    if n > MAX_COUNT:
        raise _fail(flag, f"{shown} = {v:.6g}{where} is larger than {MAX_COUNT}")
    return int(n)


# ---------------------------------------------------------------------------
# SymPy construction
# ---------------------------------------------------------------------------


def _digits(a, b) -> float:
    """log10 |a ** b| of two SymPy numbers (b real), from their parts: nothing of the size of the power is built."""
    try:
        a, b = abs(a), float(b)
        if a.is_Rational:
            if a == 0:
                return 0.0
            lg = math.log10(a.p) - math.log10(a.q)  # exact integers of any size
        else:
            lg = math.log10(float(a))
        return abs(b * lg)
    except (TypeError, ValueError, OverflowError):
        return 0.0  # not a real number: SymPy builds it symbolically (no digits)


def to_sympy(text, flag: str, symbols: Mapping[str, object] | None = None, *, juxtaposition: bool = False):
    """``text`` as a SymPy expression, built node by node (decimal literals as exact rationals).

    Parameters
    ----------
    text : str
    flag : str
        Named in every error message.
    symbols : mapping of str to sympy.Expr, optional
        What each free name stands for (a Symbol, or a value to substitute).
    juxtaposition : bool
        See :func:`check` (the paper's printed cells only).

    Raises
    ------
    ExpressionError
    """
    import sympy as sp

    symbols = dict(symbols or {})
    body = check(text, flag, tuple(symbols), juxtaposition=juxtaposition)
    funcs = {"sqrt": sp.sqrt, "exp": sp.exp, "log": sp.log, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan,
             "atan": sp.atan, "tanh": sp.tanh, "abs": sp.Abs, "Abs": sp.Abs, "min": sp.Min, "Min": sp.Min,
             "max": sp.Max, "Max": sp.Max}
    consts = {"pi": sp.pi, "e": sp.E, "E": sp.E}
    bound = {}
    for name, value in symbols.items():
        # the caller's objects, never text: a string here would be a route around the grammar
        if isinstance(value, bool) or not isinstance(value, (sp.Basic, int, float)):
            raise ArgumentTypeError("symbols", f"the value bound to {name!r} must be a SymPy object or a number, "
                                               f"got {type(value).__name__}")
        bound[name] = value if isinstance(value, sp.Basic) else (
            sp.Integer(value) if isinstance(value, int) else sp.Rational(repr(float(value))))

    def build(node: ast.AST):
        if isinstance(node, ast.Constant):
            v = node.value
            return sp.Rational(repr(v)) if isinstance(v, float) else sp.Integer(v)
        if isinstance(node, ast.Name):
            return bound[node.id] if node.id in bound else consts[node.id]
        if isinstance(node, ast.UnaryOp):
            v = build(node.operand)
            return v if isinstance(node.op, ast.UAdd) else -v
        if isinstance(node, ast.BinOp):
            a, b = build(node.left), build(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                return a / b
            if a.is_number and b.is_number and abs(b) > MAX_CONSTANT_EXPONENT and abs(a) != 1:
                raise _fail(flag, f"constant power with exponent {b} is too large in {text!r}")
            if a.is_number and b.is_number and _digits(a, b) > MAX_CONSTANT_DIGITS:
                # exponents within the guard, nested: ((10**64)**64)**64 has 262 145 digits
                raise _fail(flag, f"a constant power in {text!r} has more than {MAX_CONSTANT_DIGITS} digits")
            return a ** b
        assert isinstance(node, ast.Call)
        return funcs[node.func.id](*(build(a) for a in node.args))

    return sp.sympify(build(body))
