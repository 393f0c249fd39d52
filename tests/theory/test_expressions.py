"""The one safe parser (rsb_theory.expressions): nothing runs, errors name the flag, two evaluators agree."""

from __future__ import annotations

import math
import sys

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from rsb_theory import expressions as ex

#: Strings that would run code (or exhaust memory) if they reached eval/sympify.
CODE = (
    "__import__('os').system('touch pwned')",
    "__import__('os').system('touch pwned')*0+T/10",
    "().__class__.__bases__[0].__subclasses__()",
    "(lambda: 1)()",
    "open('/etc/passwd').read()",
    "T.__class__",
    "[x for x in (1,)]",
    "exec('1')",
    "eval('1')",
    "globals()",
    "f'{1}'",
    "'a'*10",
    "T if T else K",
    "T < K",
    "sqrt(x=1)",
    "sqrt(*[1])",
    "9**9**9",
    "(" * 500 + "1" + ")" * 500,
    "1+" * 600 + "1",
    "T; import os",
    "",
    "   ",
)


@pytest.mark.parametrize("text", CODE)
@pytest.mark.parametrize("route", ["evaluate", "to_sympy", "count"])
def test_code_carrying_strings_are_refused_with_the_flag_named(tmp_path, monkeypatch, text, route):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ex.ExpressionError, match=r"^argument '--explore': "):
        if route == "evaluate":
            ex.evaluate(text, "--explore", {"T": 100.0, "K": 2.0})
        elif route == "count":
            ex.parse_count(text, "--explore", {"T": 100.0, "K": 2.0})
        else:
            ex.to_sympy(text, "--explore", {"T": sp.Symbol("T"), "K": sp.Symbol("K")})
    assert not (tmp_path / "pwned").exists()


def test_the_numeric_route_does_not_import_sympy():
    import subprocess

    code = ("import sys; from rsb_theory.expressions import evaluate; evaluate('sqrt(K*log(T)/T)', 'eps', "
            "{'T': 1e5, 'K': 2}); print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_counts():
    assert ex.parse_count("T/10", "explore", {"T": 3000}) == 300
    assert ex.parse_count("3*10^5", "T") == 300_000
    assert ex.parse_count("1e3", "trials") == 1000
    assert ex.parse_count("T**(2/3)", "explore", {"T": 1000}, rounding="ceil") == 100
    with pytest.raises(ex.ExpressionError, match="argument '--T': need an integer"):
        ex.parse_count("2.5", "--T")
    with pytest.raises(ex.ExpressionError, match="argument '--explore': need an integer >= 1"):
        ex.parse_count("T/10000", "--explore", {"T": 100}, rounding="ceil")
    with pytest.raises(ex.ExpressionError, match="larger than"):
        ex.parse_count("2^60*2^10", "--T")
    with pytest.raises(ex.ExpressionError, match="exponent 70(.0)? is too large"):
        ex.parse_count("2^70", "--T")
    with pytest.raises(ex.ExpressionError, match="argument '--trials': unknown name 'T'"):
        ex.parse_count("T/10", "--trials")


def test_domain_errors_name_the_flag():
    for text in ("log(-1)", "1/0", "sqrt(-1)", "(-1)^0.5", "exp(1000)"):
        with pytest.raises(ex.ExpressionError, match=r"^argument '--eps': "):
            ex.evaluate(text, "--eps")


def test_juxtaposition_is_only_for_the_paper():
    k = sp.Symbol("kappa")
    assert ex.to_sympy("2 kappa", "cell", {"kappa": k}, juxtaposition=True) == 2 * k
    assert ex.to_sympy("1/(2 kappa)", "cell", {"kappa": k}, juxtaposition=True) == 1 / (2 * k)
    assert ex.to_sympy("sqrt(2 kappa)", "cell", {"kappa": k}, juxtaposition=True) == sp.sqrt(2 * k)
    with pytest.raises(ex.ExpressionError):
        ex.to_sympy("2 kappa", "cell", {"kappa": k})


def test_bound_values_must_be_objects_not_text():
    with pytest.raises(TypeError):
        ex.to_sympy("T", "x", {"T": "__import__('os')"})


_names = st.sampled_from(["T", "K", "2", "3.5", "pi", "e"])


@st.composite
def _expr(draw, depth=0):
    if depth > 3 or draw(st.booleans()):
        return draw(_names)
    kind = draw(st.sampled_from(["bin", "fn", "neg"]))
    if kind == "neg":
        return f"-({draw(_expr(depth + 1))})"
    if kind == "fn":
        fn = draw(st.sampled_from(["sqrt", "log", "exp", "atan", "tanh", "abs", "min", "max"]))
        a = draw(_expr(depth + 1))
        if fn in ("min", "max"):
            return f"{fn}({a}, {draw(_expr(depth + 1))})"
        return f"{fn}({a})"
    op = draw(st.sampled_from(["+", "-", "*", "/", "^"]))
    return f"({draw(_expr(depth + 1))}) {op} ({draw(_expr(depth + 1))})"


@settings(max_examples=300, deadline=None)
@given(_expr(), st.integers(2, 10**6), st.integers(2, 8))
def test_the_two_evaluators_agree(text, T, K):
    """Two routes to every value: math-only evaluation against SymPy's exact tree evaluated at 30 digits."""
    try:
        v = ex.evaluate(text, "x", {"T": T, "K": K})
    except ex.ExpressionError:
        return  # a domain error or overflow on the float route: nothing to compare
    s = ex.to_sympy(text, "x", {"T": sp.Integer(T), "K": sp.Integer(K)})
    w = complex(sp.N(s, 30))
    assert abs(w.imag) <= 1e-9 * max(1.0, abs(w.real))
    assert math.isclose(v, w.real, rel_tol=1e-9, abs_tol=1e-12)
