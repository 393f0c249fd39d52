"""Work budgets of the symbolic routes (rsb_theory.budgets): decided from the input's structure, never by a clock."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from rsb_theory import budgets
from rsb_theory.distortions import U, from_string, get
from rsb_theory.holder import mixture_holder, sup_one_point_ratio, sup_ratio_budget
from rsb_theory.oracle.sign import nonnegative_on_unit

ROOT = Path(__file__).resolve().parents[2] / "rsb_theory"
HALF = sp.Rational(1, 2)

#: The calls of sup_one_point_ratio the ledger makes for the rows of table:table_risks (h, p*, r, a, b).
LEDGER_CALLS = [
    ("gini", {}, HALF, 2, 0, 1), ("right_tail", {}, sp.Rational(1, 4), 2, 0, 1), ("pht", {"s": 0.5}, 1, HALF, 0, 1),
    ("dual_power", {"s": 3}, 1, 1, 0, 1), ("mean_median", {}, HALF, 1, 0, 1), ("inter_es", {"alpha": 0.75}, HALF, 1, 0, 1),
    ("quadratic", {"s": 1}, 1, 2, 0, 1), ("cvar", {"alpha": 0.5}, sp.Rational(3, 10), 1, sp.Rational(1, 10),
                                              sp.Rational(3, 10)),
    ("pht", {"s": 0.25}, sp.Rational(1, 10), 1, 0, sp.Rational(1, 10)),
]


@pytest.mark.parametrize("name, params, p_star, r, a, b", LEDGER_CALLS)
def test_registry_rows_take_the_symbolic_route(name, params, p_star, r, a, b):
    d = get(name, **params)
    assert sup_ratio_budget(d, p_star, r, a, b) is None
    value, exact, method = sup_one_point_ratio(d, p_star, r, a, b)
    assert method == "symbolic" and exact is not None and value == pytest.approx(float(exact))


@pytest.mark.parametrize("text, needle", [
    ("u**0.3*(1-u)", "common denominator 10"),
    ("sin(pi*u)", "not an algebraic expression"),
    ("u*exp(-u)", "not an algebraic expression"),
    ("min(u, (1-u)**0.7)", "implicit root"),
    ("sqrt(u) - u**2", "radical base"),
])
def test_user_h_outside_the_budget_take_the_numeric_route_at_once(text, needle):
    """Refused before SymPy runs: the same route (and ledger method) on an idle or a busy machine."""
    d = from_string(text)
    a, b = (sp.Rational(2, 5), sp.Rational(9, 10)) if text == "sqrt(u) - u**2" else (0, 1)
    from rsb_theory.holder import optimal_means

    p_star = optimal_means(d, a, b)[0]
    r = HALF if text == "sqrt(u) - u**2" else 2
    why = sup_ratio_budget(d, p_star, r, a, b)
    assert why is not None and needle in why
    value, exact, method = sup_one_point_ratio(d, p_star, r, a, b)
    assert method == "numeric" and exact is None and np.isfinite(value)


def test_user_h_route_is_recorded_by_mixture_holder():
    res = mixture_holder(from_string("u**0.3*(1-u)"), (0.2, 0.9))
    assert res.L_method == "numeric" and res.L_exact is None and res.r == 2


def test_budget_profile():
    prof, why = budgets.algebraic_degree(sp.sqrt(U) * (1 - U) ** 3, U)
    assert why is None and prof.degree == sp.Rational(7, 2) and prof.root_denominator == 2 and prof.bases == {U}
    assert budgets.within_budget(prof) is None
    _, why = budgets.algebraic_degree(2**U, U)
    assert "not a rational number" in why
    _, why = budgets.algebraic_degree(sp.sqrt(U - U**2), U)
    assert "not affine" in why
    assert budgets.explicit_number(sp.sqrt(2) / 2) is None
    assert budgets.explicit_number(sp.CRootOf(U**5 - U - 1, 0)) is not None


@settings(max_examples=80, deadline=None)
@given(coeffs=st.lists(st.fractions(-3, 3, max_denominator=6), min_size=1, max_size=7),
       square=st.booleans())
def test_polynomial_signs_are_exact(coeffs, square):
    """Proven >= 0 only when it holds (dense grid); a square is always proven; a negative value is never."""
    P = sum(sp.Rational(c.numerator, c.denominator) * U**k for k, c in enumerate(coeffs))
    if square:
        P = sp.expand(P**2)
    proven = nonnegative_on_unit(P)
    xs = np.linspace(0.0, 1.0, 2001)
    vals = np.asarray(sp.lambdify(U, P, "numpy")(xs)) * np.ones_like(xs)
    if proven:
        assert np.all(vals >= -1e-9)
    if np.any(vals < -1e-9):
        assert not proven
    if square:
        assert proven


@pytest.mark.parametrize("text, expected", [
    ("u*(1-u)", True), ("u**2 - u/2", False), ("u/(1+u)", True), ("u/(u-1/2)", False), ("sqrt(u) - u", True),
    ("(1-u)**(1/2) - (1-u)", True), ("sqrt(u) - 2*u", False), ("exp(u) - 1", False), ("sqrt(2)*u - u**2", False),
])
def test_sign_decisions(text, expected):
    """Exact decisions within the budget; outside it (exp, irrational coefficients) "not proven"."""
    from rsb_theory.expressions import to_sympy

    assert nonnegative_on_unit(to_sympy(text, "e", {"u": U})) is expected


def test_no_clock_in_the_mathematics():
    """No module of rsb_theory reads a clock or arms a signal, nor parses text outside the one parser."""
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                names.add(node.module or "")
        assert not names & {"time", "signal", "threading", "sympy.parsing", "sympy.parsing.sympy_parser"}, path
        if path.name != "expressions.py":
            assert not re.search(r"\bparse_expr\b|sympify\(text", path.read_text()), path
