"""Distortion functions of eq:wang_def: registry, safe parsing, validation and derived shape.

Every derived verdict is checked against a second route: exact re-evaluation of the
printed witness with SymPy rationals, or a numeric grid of h, h' and h''.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings, strategies as st

from rsb_theory.distortions import (
    REGISTRY,
    U,
    Distortion,
    DistortionError,
    from_string,
    get,
    names,
    parse_expression,
    resolve,
)

NINE = (
    "mean", "dual_power", "quadratic", "cvar", "pht",
    "mean_median", "inter_es", "right_tail", "gini",
)

#: Independent NumPy reference formulas of table:table_regrets at the default parameters.
REF = {
    "mean": lambda x: x,
    "dual_power": lambda x: 1 - (1 - x) ** 2,  # s = 2
    "quadratic": lambda x: 1.5 * x - 0.5 * x**2,  # s = 1/2
    "cvar": lambda x: np.minimum(2 * x, 1.0),  # alpha = 1/2
    "pht": lambda x: np.sqrt(x),  # s = 1/2
    "mean_median": lambda x: np.minimum(x, 1 - x),
    "inter_es": lambda x: np.minimum(2 * x, 1.0) + np.minimum(1 - 2 * x, 0.0),  # alpha = 1/2
    "right_tail": lambda x: np.sqrt(x) - x,
    "gini": lambda x: x * (1 - x),
}

DEFAULTS = {
    "mean": (),
    "dual_power": (("s", sp.Integer(2)),),
    "quadratic": (("s", sp.Rational(1, 2)),),
    "cvar": (("alpha", sp.Rational(1, 2)),),
    "pht": (("s", sp.Rational(1, 2)),),
    "mean_median": (),
    "inter_es": (("alpha", sp.Rational(1, 2)),),
    "right_tail": (),
    "gini": (),
}

GRID = np.linspace(0.0, 1.0, 4001)


@functools.lru_cache(maxsize=None)
def dist(key: str) -> Distortion:
    return get(key) if key in REGISTRY else from_string(key)


def exact(expr: sp.Expr, x) -> sp.Expr:
    return expr.subs(U, sp.Rational(x))


def numeric_sign(value: sp.Expr) -> int:
    """Sign of an exact real number, decided at 60 digits (never 0 unless exactly 0)."""
    value = sp.sympify(value)
    if value == 0:
        return 0
    v = sp.N(value, 60)
    assert v.is_real and v != 0, value
    return 1 if v > 0 else -1


# ---------------------------------------------------------------------------
# registry, parameters, errors
# ---------------------------------------------------------------------------


def test_registry_is_the_nine_rows_in_order():
    assert names() == NINE
    assert tuple(REGISTRY) == NINE


@pytest.mark.parametrize("key", NINE)
def test_every_registry_name_builds_with_its_defaults(key):
    d = dist(key)  # get(key), built once per session
    assert d.key == key
    assert d.params == DEFAULTS[key]
    assert d.expr.free_symbols <= {U}
    assert d.validation.h0 == 0
    # the expression is the table's formula at the default parameters (independent NumPy route)
    np.testing.assert_allclose(d(GRID), REF[key](GRID), rtol=0, atol=1e-13)
    assert d.describe().startswith(key)


def test_resolve_dispatches_names_and_expressions():
    assert resolve("gini").key == "gini" and resolve("gini").expr == dist("gini").expr
    custom = resolve("u*(1-u)")
    assert custom.key == "custom" and custom.expr == dist("gini").expr
    assert resolve("pht", s="1/4").expr == U ** sp.Rational(1, 4)


@pytest.mark.parametrize(
    "key, params, expected",
    [
        ("dual_power", {"s": 3}, 1 - (1 - U) ** 3),
        ("dual_power", {"s": "5/2"}, 1 - (1 - U) ** sp.Rational(5, 2)),
        ("quadratic", {"s": 0}, U),
        ("quadratic", {"s": 1}, 2 * U - U**2),
        ("pht", {"s": "1/3"}, U ** sp.Rational(1, 3)),
        ("pht", {"s": 0.3}, U ** sp.Rational(3, 10)),
        ("cvar", {"alpha": 0}, sp.Min(U, 1)),
        ("cvar", {"alpha": 0.75}, sp.Min(4 * U, 1)),
        ("inter_es", {"alpha": 0.75}, sp.Min(4 * U, 1) + sp.Min(3 - 4 * U, 0)),
    ],
)
def test_parameter_values_are_substituted_exactly(key, params, expected):
    d = get(key, **params)
    f = sp.lambdify(U, expected, "numpy")
    np.testing.assert_allclose(d(GRID), f(GRID) * np.ones_like(GRID), atol=1e-13)
    name = next(iter(params))
    assert dict(d.params)[name] == sp.nsimplify(sp.Rational(str(params[name])))


@pytest.mark.parametrize(
    "key, name, value",
    [
        ("pht", "s", 1.5),
        ("pht", "s", 0),
        ("pht", "s", 1),
        ("pht", "s", -0.5),
        ("dual_power", "s", 1),
        ("dual_power", "s", 1.99),
        ("quadratic", "s", 2),
        ("quadratic", "s", -0.1),
        ("cvar", "alpha", 1),
        ("cvar", "alpha", -0.1),
        ("inter_es", "alpha", 0.4),
        ("inter_es", "alpha", 1),
        ("pht", "s", float("nan")),
        ("pht", "s", float("inf")),
        ("pht", "s", "abc"),
        ("pht", "s", [0.5]),
    ],
)
def test_parameter_domain_errors_name_the_parameter(key, name, value):
    with pytest.raises(DistortionError, match=re.escape(f"--param {name}")):
        get(key, **{name: value})


def test_pht_s_one_and_a_half_names_param_s():
    with pytest.raises(DistortionError) as info:
        get("pht", s=1.5)
    assert "--param s" in str(info.value)
    assert "3/2" in str(info.value)


@pytest.mark.parametrize("name", ["foo", "Gini", "", "cvar ", "u"])
def test_unknown_name_names_dr(name):
    with pytest.raises(DistortionError, match="--dr"):
        get(name)


@pytest.mark.parametrize("key, bad", [("gini", "s"), ("pht", "t"), ("cvar", "s"), ("mean", "alpha")])
def test_unknown_parameter_is_rejected(key, bad):
    with pytest.raises(DistortionError, match=re.escape("--param")) as info:
        get(key, **{bad: 0.5})
    assert repr(bad) in str(info.value)


# ---------------------------------------------------------------------------
# parse_expression safety
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "u.real",
        "(1).__class__",
        "u[0]",
        "[u][0]",
        "lambda: u",
        "(lambda x: x)(u)",
        "min(u, key=abs)",
        "sqrt(u, **{})",
        "foo",
        "foo(u)",
        "eval('u')",
        "x + u",
        "",
        "   ",
        "u**",
        "u +* 2",
        "True",
        "'u'",
        "1j*u",
        "u < 1",
        "u if u else 1",
        "u // 2",
        "u % 2",
        "~u",
        "not u",
        "sqrt()",
        "abs(u)(u)",
        "1e999*u",
    ],
)
def test_parse_rejects_everything_outside_the_grammar(text):
    with pytest.raises(DistortionError, match="argument 'h'"):
        parse_expression(text)


@pytest.mark.parametrize("text", [None, 3, b"u"])
def test_parse_rejects_non_strings(text):
    with pytest.raises(DistortionError, match="argument 'h'"):
        parse_expression(text)


def test_from_string_rejects_unsafe_text_before_evaluating_it():
    with pytest.raises(DistortionError, match="argument 'h'"):
        from_string("__import__('os').system('echo PWNED')")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("u^2", U**2),
        ("u^0.5", U ** sp.Rational(1, 2)),
        ("(2^3)*u", 8 * U),
        ("1 - ((1-u)^2)", 1 - (1 - U) ** 2),
        ("0.3*u", sp.Rational(3, 10) * U),
        ("u**0.3*(1-u)", U ** sp.Rational(3, 10) * (1 - U)),
        ("1e-3*u", U / 1000),
        ("0.1 + 0.2", sp.Rational(3, 10)),
        ("-u + +u", sp.Integer(0)),
        ("pi*u/e", sp.pi * U / sp.E),
        ("min(u, 1-u)", sp.Min(U, 1 - U)),
        ("Abs(u - 1/2)", sp.Abs(U - sp.Rational(1, 2))),
    ],
)
def test_parse_builds_the_exact_tree(text, expected):
    got = parse_expression(text)
    assert sp.simplify(got - expected) == 0
    assert not got.atoms(sp.Float), "decimals must become exact rationals"


def test_caret_is_power_not_xor():
    assert parse_expression("u^2") == U**2
    assert parse_expression("u^2") == parse_expression("u**2")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2*u - u^2", 2 * U - U**2),
        ("2*u^2", 2 * U**2),
        ("u^2/2", U**2 / 2),
        ("-u^2 + u", U - U**2),
        ("1 - (1-u)^2", 1 - (1 - U) ** 2),
    ],
)
def test_caret_has_power_precedence(text, expected):
    assert sp.expand(parse_expression(text) - expected) == 0


@pytest.mark.parametrize("text, value", [("0.1", "1/10"), ("0.3", "3/10"), ("2.5", "5/2"), ("1e-7", "1/10000000")])
def test_decimals_become_exact_rationals(text, value):
    got = parse_expression(text)
    assert isinstance(got, sp.Rational)
    assert got == sp.Rational(value)


def test_declared_parameters_and_user_params():
    s = sp.Symbol("k", positive=True)
    assert parse_expression("u**k", {"k": s}) == U**s
    with pytest.raises(DistortionError, match="argument 'h'"):
        parse_expression("u**k")
    d = from_string("u**k", k="1/4")
    assert d.expr == U ** sp.Rational(1, 4)
    with pytest.raises(DistortionError, match="--param k"):
        from_string("u**k", k="abc")


def test_parse_of_a_tiny_power_tower_returns_promptly():
    code = (
        "import sys\n"
        "from rsb_theory.distortions import DistortionError, parse_expression\n"
        "print('ready', flush=True)\n"
        "try:\n    parse_expression('9**9**9')\nexcept DistortionError:\n    pass\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"  # imports done; now time the parse alone
        try:
            proc.wait(timeout=1.5)
        except subprocess.TimeoutExpired:
            pytest.fail("parse_expression('9**9**9') did not return within 1.5 s")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("u+1", "h(0) = 1"),
        ("cos(u)", "h(0) = 1"),
        ("2*u", "not within [0, 1]"),
        ("-u", "not within [0, 1]"),
        ("u - u**2/2 - 3*u**3", "not within [0, 1]"),  # h(1) = -5/2
        ("min(3*u, 1) - u/2 + u**2", "not within [0, 1]"),  # numeric range route: h(1) = 3/2
        ("sin(4*pi*u)/2", "not within [0, 1]"),  # dips below 0
    ],
)
def test_invalid_distortions_are_rejected(text, fragment):
    with pytest.raises(DistortionError, match="argument 'h'") as info:
        from_string(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "text", ["u", "u**2", "sqrt(u)", "min(2*u, 1)", "u*(1-u)", "(sin(3*pi*u)+3*pi*u)/(3*pi)", "u - u**2 + u**3/2"]
)
def test_valid_h_records_its_methods_and_range(text):
    d = dist(text)  # from_string(text), built once
    v = d.validation
    assert v.method_h0 in {"symbolic", "numeric"}
    assert v.method_range in {"symbolic", "numeric"}
    assert v.h0 == 0
    y = d(GRID)
    # the recorded range is the true range (numeric grid route)
    assert v.h_min == pytest.approx(y.min(), abs=1e-6)
    assert v.h_max == pytest.approx(y.max(), abs=1e-6)
    assert 0 <= v.h_min <= v.h_max <= 1


def test_validation_methods_of_the_registry():
    for key in NINE:
        v = dist(key).validation
        assert v.method_h0 in {"symbolic", "numeric"}
        assert v.method_range in {"symbolic", "numeric"}
        y = REF[key](GRID)
        assert v.h_min == pytest.approx(y.min(), abs=1e-9)
        assert v.h_max == pytest.approx(y.max(), abs=1e-9)


# ---------------------------------------------------------------------------
# shape: monotonicity and curvature, with exact witnesses
# ---------------------------------------------------------------------------

_MONO_WITNESS = re.compile(r"h\(([^()]+)\) - h\(([^()]+)\) = ([^;]+)")
_CURV_WITNESS = re.compile(r"h\(([^()]+)\) - \(h\(([^()]+)\) \+ h\(([^()]+)\)\)/2 = ([^;]+)")


def check_monotone_witness(d: Distortion, check_value: bool = True):
    """Re-evaluate both pairs of the witness exactly: one strict decrease, one strict increase.

    With ``check_value`` the printed difference must also be the exact difference (see
    test_printed_witness_value_is_exact for a case where it is not).
    """
    pairs = _MONO_WITNESS.findall(d.shape.monotone_witness)
    assert len(pairs) == 2, d.shape.monotone_witness
    signs = []
    for b, a, stated in pairs:
        ra, rb = sp.Rational(a), sp.Rational(b)
        assert 0 <= ra < rb <= 1
        diff = d.expr.subs(U, rb) - d.expr.subs(U, ra)
        # the printed value is the true exact difference
        if check_value:
            assert abs(sp.N(sp.sympify(stated) - diff, 50)) < 1e-45
        signs.append(numeric_sign(diff))
    assert signs == [-1, +1], (d.shape.monotone_witness, signs)


def check_curvature_witness(d: Distortion):
    """Both midpoint gaps h(m) - (h(a)+h(b))/2 recomputed exactly: one < 0 (not concave), one > 0."""
    triples = _CURV_WITNESS.findall(d.shape.curvature_witness)
    assert len(triples) == 2, d.shape.curvature_witness
    signs = []
    for m, a, b, stated in triples:
        rm, ra, rb = sp.Rational(m), sp.Rational(a), sp.Rational(b)
        assert 0 <= ra < rm < rb <= 1 and rm == (ra + rb) / 2
        gap = d.expr.subs(U, rm) - (d.expr.subs(U, ra) + d.expr.subs(U, rb)) / 2
        assert abs(sp.N(sp.sympify(stated) - gap, 50)) < 1e-45
        signs.append(numeric_sign(gap))
    assert signs == [-1, +1], (d.shape.curvature_witness, signs)


MONOTONE = {
    "mean": "increasing",
    "dual_power": "increasing",
    "quadratic": "increasing",
    "cvar": "nondecreasing",  # flat at 1 on [1/2, 1]
    "pht": "increasing",
    "mean_median": "neither",
    "inter_es": "neither",
    "right_tail": "neither",
    "gini": "neither",
}


@pytest.mark.parametrize("key", NINE)
def test_registry_monotonicity_matches_a_grid_and_exact_witnesses(key):
    d = dist(key)
    assert d.shape.monotone == MONOTONE[key]
    steps = np.diff(REF[key](GRID))
    if MONOTONE[key] == "neither":
        assert steps.min() < 0 < steps.max()
        assert not d.shape.is_monotone
        check_monotone_witness(d)
    else:
        assert steps.min() >= -1e-15
        assert d.shape.is_monotone
        assert (steps.min() > 0) == (MONOTONE[key] == "increasing")


def test_mean_is_affine_and_increasing():
    s = dist("mean").shape
    assert (s.monotone, s.curvature) == ("increasing", "affine")
    assert s.monotone_method == s.curvature_method == "symbolic"
    assert s.is_concave and s.is_monotone


@pytest.mark.parametrize("key", NINE)
def test_registry_rows_are_concave(key):
    d = dist(key)
    assert d.shape.is_concave
    assert d.shape.curvature == ("affine" if key == "mean" else "concave")
    # midpoint route on a grid: h((x+y)/2) >= (h(x)+h(y))/2 everywhere, strictly somewhere unless affine
    y = REF[key](GRID)
    gap = y[1:-1] - (y[:-2] + y[2:]) / 2
    assert gap.min() >= -1e-14
    if key != "mean":
        assert gap.max() > 1e-12


def test_u_squared_is_convex_and_increasing():
    s = dist("u**2").shape
    assert (s.monotone, s.curvature) == ("increasing", "convex")
    assert not s.is_concave


@pytest.mark.parametrize(
    "text, monotone",
    [
        ("u - u**2 + u**3/2", "increasing"),  # h' = 1 - 2u + 3u^2/2 > 0 (discriminant < 0); h'' = 3u - 2
        ("(sin(3*pi*u)+3*pi*u)/(3*pi)", "nondecreasing"),  # h' = 1 + cos(3 pi u) >= 0, = 0 at u = 1/3
    ],
)
def test_neither_convex_nor_concave_with_exact_witness(text, monotone):
    d = dist(text)  # from_string(text), built once
    f = sp.lambdify(U, d.expr, "numpy")
    y = f(GRID)
    # it is a valid distortion (independently: h(0) = 0 exactly, range on a dense grid)
    assert d.expr.subs(U, 0) == 0
    assert -1e-15 <= y.min() and y.max() <= 1 + 1e-15
    assert d.shape.monotone == monotone
    assert d.shape.curvature == "neither"
    assert not d.shape.is_concave
    check_curvature_witness(d)
    # grid route: h'' takes both signs
    h2 = sp.lambdify(U, sp.diff(d.expr, U, 2), "numpy")(GRID)
    assert h2.min() < -1e-6 and h2.max() > 1e-6


def test_witness_of_a_non_monotone_custom_h():
    d = from_string("u*(1-u)**2*27/4")  # max 1 at u = 1/3, h(1) = 0
    assert d.validation.h_max == pytest.approx(1.0)
    assert d.shape.monotone == "neither"
    check_monotone_witness(d)


# ---------------------------------------------------------------------------
# random quadratics a*u + b*u**2 against a numeric grid of h' and h''
# ---------------------------------------------------------------------------

_DENSE = np.linspace(0.0, 1.0, 20001)
_INTERIOR = np.concatenate([np.geomspace(1e-9, 1e-3, 50), np.linspace(1e-3, 1 - 1e-3, 4001), 1 - np.geomspace(1e-9, 1e-3, 50)])


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_quadratic_polynomials_shape_matches_grid(data):
    # h(0) = 0 always; h >= 0 near 0 needs a >= 0 and h(1) = a + b in [0, 1]: draw in that box, then filter
    i = data.draw(st.integers(0, 32), label="16a")
    j = data.draw(st.integers(-i, 16 - i), label="16b")
    a, b = Fraction(i, 16), Fraction(j, 16)
    h = float(a) * _DENSE + float(b) * _DENSE**2
    assume(h.min() >= -1e-12 and h.max() <= 1 + 1e-12)  # h within [0, 1] on [0, 1]
    d = from_string(f"({i}/16)*u + ({j}/16)*u**2")
    hp = float(a) + 2 * float(b) * _INTERIOR  # h' on the open interval
    if np.all(hp == 0):
        mono = "constant"
    elif np.all(hp >= 0):
        mono = "increasing"  # a linear h' >= 0 vanishes at most at one point
    elif np.all(hp <= 0):
        mono = "decreasing"
    else:
        mono = "neither"
    curv = "affine" if b == 0 else ("convex" if b > 0 else "concave")  # h'' = 2b on the grid
    assert d.shape.monotone == mono, (a, b, d.shape)
    assert d.shape.curvature == curv, (a, b, d.shape)
    if mono == "neither":
        check_monotone_witness(d, check_value=False)


# ---------------------------------------------------------------------------
# numeric evaluation
# ---------------------------------------------------------------------------

CUSTOM = ["u**0.3*(1-u)", "(sin(3*pi*u)+3*pi*u)/(3*pi)", "min(2*u, 1) - u/2 + u**2/2", "u*exp(u-1)"]


@settings(max_examples=15, deadline=None)
@given(key=st.sampled_from(NINE + tuple(CUSTOM)), xs=st.lists(st.floats(0, 1), min_size=1, max_size=5))
def test_numeric_evaluation_agrees_with_evalf(key, xs):
    d = dist(key)
    got = d(np.array(xs))
    assert got.shape == (len(xs),)
    for x, g in zip(xs, got):
        want = float(d.expr.subs(U, sp.Float(x, 40)).evalf(30))
        assert g == pytest.approx(want, rel=1e-12, abs=1e-14)


def test_numeric_evaluation_of_a_constant_is_broadcast():
    d = from_string("0*u")
    assert d.shape.monotone == "constant" and d.shape.curvature == "affine"
    np.testing.assert_array_equal(d(np.array([0.0, 0.5, 1.0])), np.zeros(3))


# ---------------------------------------------------------------------------
# known defects
# ---------------------------------------------------------------------------


def test_printed_witness_value_is_exact():
    d = from_string("(7/16)*u - (3/8)*u**2")  # h' = 7/16 - 3u/4 changes sign at 7/12
    assert d.shape.monotone == "neither"
    check_monotone_witness(d, check_value=False)  # the verdict and the pairs are right
    # h(1/2000) - h(0) = 7/32000 - 3/32000000 = 6997/32000000, the printed value must be that number
    assert "h(1/2000) - h(0) = 6997/32000000" in d.shape.monotone_witness


def test_distortion_with_an_interior_cusp_builds():
    d = from_string("sqrt(1/2) - sqrt(abs(u-1/2))")  # h(0) = 0, h([0,1]) = [0, 1/sqrt(2)]
    assert d.shape.monotone == "neither"
    assert d.shape.curvature == "neither"  # convex on each side of the cusp, not concave overall
