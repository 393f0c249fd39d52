"""Hölder exponents and constants (assumption:Holder, assumption:Holder_opt) for Bernoulli mixtures.

Every exponent and constant returned by rsb_theory.holder is checked by a second route that
does not use the module: suprema of the Hölder ratios over dense grids (refined geometrically
towards the ends, breakpoints and singular points), growth of the ratio at a larger exponent,
and local log-log slopes of h near the points that decide the exponent.  The means of an
instance enter only through [min p, max p]: for Bernoulli arms U_h(G) = h(p_G) and
||G_1 - G_2||_W = |p_1 - p_2|.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings, strategies as st

from rsb_theory.distortions import U, Distortion, Shape, from_string, get, parse_expression, validate
from rsb_theory.holder import HolderError, holder, mixture_holder

NINE = (
    "mean", "dual_power", "quadratic", "cvar", "pht",
    "mean_median", "inter_es", "right_tail", "gini",
)

# (registry name, parameters) -> independent NumPy formula and the points where h is not smooth
VARIANTS = {
    "mean": ("mean", {}, lambda x: x, ()),
    "dual_power": ("dual_power", {}, lambda x: x * (2 - x), ()),  # 1 - (1 - u)^2, no cancellation
    "quadratic": ("quadratic", {}, lambda x: 1.5 * x - 0.5 * x**2, ()),
    "cvar": ("cvar", {}, lambda x: np.minimum(2 * x, 1.0), (0.5,)),
    "pht": ("pht", {}, lambda x: np.sqrt(x), ()),
    "mean_median": ("mean_median", {}, lambda x: np.minimum(x, 1 - x), (0.5,)),
    "inter_es": ("inter_es", {}, lambda x: np.minimum(2 * x, 1.0) + np.minimum(1 - 2 * x, 0.0), (0.5,)),
    "right_tail": ("right_tail", {}, lambda x: np.sqrt(x) - x, ()),
    "gini": ("gini", {}, lambda x: x * (1 - x), ()),
    # non-default parameters
    "dual_power:s=3": ("dual_power", {"s": 3}, lambda x: x * (3 - 3 * x + x**2), ()),  # 1 - (1 - u)^3
    "quadratic:s=1": ("quadratic", {"s": 1}, lambda x: 2 * x - x**2, ()),
    "cvar:alpha=0.8": ("cvar", {"alpha": 0.8}, lambda x: np.minimum(5 * x, 1.0), (0.2,)),
    "pht:s=0.3": ("pht", {"s": 0.3}, lambda x: x**0.3, ()),
    "inter_es:alpha=0.75": (
        "inter_es", {"alpha": 0.75}, lambda x: np.minimum(4 * x, 1.0) + np.minimum(3 - 4 * x, 0.0), (0.25, 0.75),
    ),
}


@functools.lru_cache(maxsize=None)
def dist(key: str) -> Distortion:
    name, params, _, _ = VARIANTS[key]
    return get(name, **params)


@functools.lru_cache(maxsize=None)
def hres(key: str):
    return holder(dist(key), (0, 1))


@functools.lru_cache(maxsize=None)
def mres(key: str, p: tuple):
    return mixture_holder(dist(key), list(p))


def ref(key: str):
    return VARIANTS[key][2]


def h_exact(d: Distortion, x) -> float:
    """h(x) at 40 digits from the exact expression (x a SymPy number)."""
    return float(d.expr.subs(U, sp.nsimplify(x) if not isinstance(x, sp.Basic) else x).evalf(40))


def refined_grid(a: float, b: float, points, n: int = 1001, m: int = 80, smallest: float = 1e-8) -> np.ndarray:
    """Uniform grid on [a, b] plus points geometrically close to each of ``points`` (both sides)."""
    parts = [np.linspace(a, b, n)]
    off = np.geomspace(smallest, max(b - a, smallest), m)
    for c in points:
        parts += [c - off, c + off, np.array([c])]
    x = np.concatenate(parts)
    return np.unique(x[(x >= a) & (x <= b)])


def sup_pair_ratio(f, x: np.ndarray, q: float) -> float:
    """sup over grid pairs of |h(x) - h(y)| / |x - y|^q."""
    hx = f(x)
    dh = np.abs(hx[:, None] - hx[None, :])
    dx = np.abs(x[:, None] - x[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        r = dh / dx**q
    r[dx == 0] = 0.0
    return float(r.max())


def log_slope(delta, t1: float = 1e-3, t2: float = 1e-6) -> float:
    """Local exponent of |delta(t)| between t1 and t2 (inf where delta vanishes at t2)."""
    d1, d2 = abs(delta(t1)), abs(delta(t2))
    if d2 == 0:
        return math.inf
    return math.log(d2 / d1) / math.log(t2 / t1)


# ---------------------------------------------------------------------------
# assumption:Holder on [0, 1]
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(VARIANTS))
def test_holder_constant_is_the_sup_of_the_ratio_on_a_dense_grid(key):
    res = hres(key)
    assert res.attained and res.interval == (0, 1)
    assert 0 < res.q <= 1
    q = float(res.q)
    x = refined_grid(0.0, 1.0, [0.0, 1.0, *VARIANTS[key][3]])
    sup = sup_pair_ratio(ref(key), x, q)
    assert sup <= res.L_H * (1 + 1e-7)  # L_H is a valid constant on every grid pair (up to rounding)
    assert sup == pytest.approx(res.L_H, rel=1e-3)  # and it is the smallest one
    if res.L_exact is not None:
        assert float(res.L_exact) == pytest.approx(res.L_H, rel=1e-12)


@pytest.mark.parametrize("key", list(VARIANTS))
def test_holder_exponent_is_the_largest(key):
    res, f = hres(key), ref(key)
    q = float(res.q)
    t = 10.0 ** -np.arange(2, 9, 2)  # pairs (c, c +- t) shrinking towards the point

    def ratio(c0, s, exponent):
        x = c0 + s * t
        return np.abs(f(x) - f(c0)) / np.abs(x - c0) ** exponent  # the float pair actually evaluated

    if q < 1:
        assert res.critical
        for c in res.critical:
            c0, s = float(c.point), c.side
            at_q, above = ratio(c0, s, q), ratio(c0, s, q + 0.05)
            assert np.all(at_q <= res.L_H * (1 + 1e-7))  # bounded at q
            assert np.all(np.diff(above) > 0)  # unbounded at q + 0.05: grows as the pair shrinks
            assert above[-1] / above[0] > 1.5  # ~ (1e6)^0.05 = 2
    else:
        assert res.q == 1 and res.critical == ()
        # exponent 1 is bounded at every end and breakpoint, from both sides
        for c0 in (0.0, 1.0, *VARIANTS[key][3]):
            for s in (+1, -1):
                if 0 <= c0 + s * t[0] <= 1:
                    assert np.all(ratio(c0, s, 1.0) <= res.L_H * (1 + 1e-7))


@pytest.mark.parametrize("key", list(VARIANTS))
def test_local_log_log_slopes_decide_the_exponent(key):
    res, f = hres(key), ref(key)
    q = float(res.q)
    for c in res.critical:
        c0, s = float(c.point), c.side
        slope = log_slope(lambda t: f(c0 + s * t) - f(c0))
        assert slope == pytest.approx(q, abs=0.02)
        assert float(c.order) == pytest.approx(q)
    # no end or breakpoint has a smaller local exponent than q; if q < 1 the smallest is q itself
    slopes = {}
    for c0 in (0.0, 1.0, *VARIANTS[key][3]):
        for s in (+1, -1):
            if 0 <= c0 + s * 1e-3 <= 1:
                slopes[(c0, s)] = log_slope(lambda t: f(c0 + s * t) - f(c0))
    assert min(slopes.values()) >= q - 0.02
    if q < 1:
        assert min(slopes.values()) == pytest.approx(q, abs=0.02)
        singular = {k for k, v in slopes.items() if v < 1 - 0.05}
        assert singular == {(float(c.point), c.side) for c in res.critical}


@pytest.mark.parametrize(
    "key, interval, q, L",
    [
        ("pht", (0.25, 1), 1, 1.0),  # h'(1/4) = 1
        ("right_tail", (0.25, 1), 1, 0.5),  # |h'| = |1/(2 sqrt u) - 1| <= 1/2 on [1/4, 1]
        ("right_tail", (0, 0.25), 0.5, 1.0),
        ("gini", (0.4, 0.9), 1, 0.8),  # |1 - 2u| max at 0.9
        ("pht:s=0.3", (0.5, 0.5), 1, 0.0),  # a single point
    ],
)
def test_holder_on_a_sub_interval(key, interval, q, L):
    res = holder(dist(key), interval)
    assert res.q == sp.nsimplify(q)
    assert res.L_H == pytest.approx(L, rel=1e-9, abs=1e-12)
    a, b = interval
    if a < b:
        x = refined_grid(a, b, [a, b])
        assert sup_pair_ratio(ref(key), x, float(res.q)) == pytest.approx(L, rel=1e-3)


# ---------------------------------------------------------------------------
# assumption:Holder_opt at instances
# ---------------------------------------------------------------------------

INSTANCES = [
    (0, 1),
    (0.4, 0.9),
    (0.1, 0.2),
    (0.5, 0.9),  # min p = 1/2 exactly: the Gini maximiser is an end
    (0.6, 0.9),
    (0.3, 0.3, 0.8),  # ties
    (0.05, 0.2, 0.35, 0.6, 0.75, 0.95),  # K = 6, brackets every interior maximiser
    (0.1, 0.15, 0.2, 0.22, 0.23, 0.24),  # K = 6, below every interior maximiser
]


def _sides(p_star: float, a: float, b: float):
    return [s for s in (+1, -1) if (s > 0 and p_star < b) or (s < 0 and p_star > a)]


@pytest.mark.parametrize("p", INSTANCES, ids=str)
@pytest.mark.parametrize("key", NINE)
def test_mixture_holder_against_grids_and_slopes(key, p):
    d, f = dist(key), ref(key)
    m = mres(key, p)
    a, b = min(p), max(p)
    ps = float(m.p_star)
    h_star = h_exact(d, m.p_star)

    # p* is a maximiser of h on [min p, max p] (dense grid) and the reported set covers the argmax
    x = np.linspace(a, b, 20001)
    hx = f(x)
    step = (b - a) / 20000
    assert a <= ps <= b
    assert h_star >= hx.max() - 1e-12
    assert all(abs(h_exact(d, o) - h_star) < 1e-12 for o in m.optimal_means)
    top = x[hx >= hx.max() - 1e-12]
    opts = [float(o) for o in m.optimal_means]
    assert min(opts) - step <= top.min() and top.max() <= max(opts) + step
    assert m.solitary == any(abs(ps - pi) < 1e-12 for pi in p)

    if m.r == sp.oo:
        # h is constant next to p* on every side inside the interval: every r > 0 holds
        for s in _sides(ps, a, b):
            t = np.geomspace(1e-9, 1e-3, 20)
            assert np.all(f(ps + s * t) == h_star)
        assert m.holds_with(50)
        return

    r = float(m.r)
    # r is the local log-log slope of h(p*) - h(p* +- t) (exact evaluation, t from 1e-3 to 1e-6)
    sides = _sides(ps, a, b)
    assert sides

    def gap(s):
        return lambda t: float((d.expr.subs(U, m.p_star) - d.expr.subs(U, m.p_star + s * sp.Rational(t))).evalf(40))

    slopes = [log_slope(gap(s)) for s in sides]
    assert min(slopes) == pytest.approx(r, abs=0.02)
    for s in sides:  # at r + 1/2 the ratio blows up as t -> 0 (by ~ (1e3)^(1/2) on the side of order r)
        g = gap(s)
        grows = g(1e-6) / 1e-6 ** (r + 0.5) / (g(1e-3) / 1e-3 ** (r + 0.5))
        assert grows > 10 or slopes[sides.index(s)] > r + 0.5

    # L_MH is the sup of (h(p*) - h(x)) / |p* - x|^r over a dense grid of [min p, max p]
    xs = refined_grid(a, b, [ps], n=10001, m=300, smallest=1e-5)
    xs = xs[np.abs(xs - ps) > 5e-6]
    ratio = (h_star - f(xs)) / np.abs(xs - ps) ** r
    sup = float(ratio.max())
    assert m.attained
    assert sup <= m.L_MH * (1 + 1e-6)
    assert sup == pytest.approx(m.L_MH, rel=1e-3)

    # any smaller exponent holds (|p* - x| <= 1), a larger one does not
    assert m.holds_with(sp.nsimplify(r))
    assert m.holds_with(sp.nsimplify(r) / 2)
    if r > 0.5:
        assert m.holds_with(sp.nsimplify(r) - sp.Rational(1, 2))
    assert not m.holds_with(sp.nsimplify(r) + sp.Rational(1, 2))


@pytest.mark.parametrize(
    "key, p, p_star, r, L",
    [
        ("gini", (0.5, 0.9), 0.5, 2, 1.0),  # min p = 1/2 exactly
        ("gini", (0.4, 0.9), 0.5, 2, 1.0),
        ("gini", (0.6, 0.9), 0.6, 1, 0.5),  # (h(a) - h(x))/(x - a) = x + a - 1 <= a + b - 1
        ("gini", (0.1, 0.2), 0.2, 1, 0.7),  # 1 - a - b
        ("right_tail", (0, 1), 0.25, 2, 4.0),  # (1/2 - sqrt x)^2/(x - 1/4)^2 = 1/(1/2 + sqrt x)^2, max at x = 0
        ("dual_power", (0, 1), 1, 2, 1.0),  # h(1) - h(1 - t) = t^2
        ("mean_median", (0.5, 0.9), 0.5, 1, 1.0),
        ("inter_es", (0.3, 0.3, 0.8), 0.5, 1, 2.0),
    ],
)
def test_mixture_holder_closed_forms(key, p, p_star, r, L):
    m = mres(key, p)
    assert float(m.p_star) == pytest.approx(p_star, abs=1e-15)
    assert m.r == r
    assert m.L_MH == pytest.approx(L, rel=1e-12)


# ---------------------------------------------------------------------------
# hypothesis over instances: Gini (maximiser 1/2) and right-tail deviation (maximiser 1/4)
# ---------------------------------------------------------------------------

MAXIMISER = {"gini": 0.5, "right_tail": 0.25}


def closed_form_L(key: str, a: float, b: float, r: int) -> float:
    """L_MH by hand (see the derivations in the comments)."""
    sa, sb = math.sqrt(a), math.sqrt(b)
    if key == "gini":
        if r == 2:
            return 1.0  # 1/4 - x(1 - x) = (x - 1/2)^2
        # p* = b < 1/2: (h(b) - h(x))/(b - x) = 1 - b - x, max at x = a;  p* = a > 1/2: x + a - 1, max at x = b
        return 1 - a - b if b < 0.5 else a + b - 1
    if r == 2:
        return 1 / (0.5 + sa) ** 2  # (1/2 - sqrt x)^2 / (x - 1/4)^2, max at x = a
    # p* = b < 1/4: (1 - sqrt a - sqrt b)/(sqrt a + sqrt b);  p* = a > 1/4: 1 - 1/(sqrt a + sqrt b)
    return (1 - sa - sb) / (sa + sb) if b < 0.25 else 1 - 1 / (sa + sb)


_means = st.lists(st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0, 1)), min_size=2, max_size=6)


@settings(max_examples=10, deadline=None)
@given(key=st.sampled_from(["gini", "right_tail"]), p=_means)
def test_mixture_exponent_rule_over_random_instances(key, p):
    c = MAXIMISER[key]
    # the module reads floats through nsimplify, which snaps e.g. 0.25000000000000006 to 1/4;
    # keep the exact-math rule away from that convention
    assume(all(x == c or abs(x - c) > 1e-9 for x in p))
    a, b = min(p), max(p)
    m = mixture_holder(dist(key), p)
    if a == b:
        assert m.r == sp.oo and m.solitary and float(m.p_star) == pytest.approx(a, abs=1e-12)
        return
    assume(b - a > 1e-6)
    r = 2 if a <= c <= b else 1  # p* is the unconstrained maximiser iff the interval contains it
    p_star = c if r == 2 else (b if b < c else a)
    assert m.r == r
    assert float(m.p_star) == pytest.approx(p_star, abs=1e-12)
    if r == 2:  # (for an end p*, see test_best_single_arm_is_solitary_and_inside_the_interval)
        assert m.solitary == any(abs(p_star - x) < 1e-12 for x in p)
    L = closed_form_L(key, a, b, r)
    assert m.L_MH == pytest.approx(L, rel=1e-6)
    # numeric route
    f = VARIANTS[key][2]
    xs = refined_grid(a, b, [p_star], n=5001, m=200, smallest=1e-5)
    xs = xs[np.abs(xs - p_star) > 5e-6]
    sup = float(((f(np.array(p_star)) - f(xs)) / np.abs(xs - p_star) ** r).max())
    assert sup <= m.L_MH * (1 + 1e-6)
    assert sup == pytest.approx(m.L_MH, rel=2e-3)


# ---------------------------------------------------------------------------
# an interior singular point (classify handles the infinite derivative jump)
# ---------------------------------------------------------------------------


def _cusp() -> Distortion:
    text = "sqrt(1/2) - sqrt(abs(u-1/2))"  # h(0) = h(1) = 0, h(1/2) = 1/sqrt(2), h' infinite at 1/2
    expr = parse_expression(text)
    v = validate(expr, sp.lambdify(U, expr, "numpy"))
    return Distortion("custom", expr, (), text, v, Shape("neither", "", "", "neither", "", ""))


def test_interior_cusp_exponents_and_constants():
    d = _cusp()
    f = lambda x: np.sqrt(0.5) - np.sqrt(np.abs(x - 0.5))  # noqa: E731
    res = holder(d, (0, 1))
    assert res.q == sp.Rational(1, 2)
    assert {(c.point, c.side) for c in res.critical} == {(sp.Rational(1, 2), 1), (sp.Rational(1, 2), -1)}
    for c in res.critical:
        assert log_slope(lambda t: f(0.5 + c.side * t) - f(0.5)) == pytest.approx(0.5, abs=0.02)
    x = refined_grid(0.0, 1.0, [0.0, 0.5, 1.0])
    assert sup_pair_ratio(f, x, 0.5) == pytest.approx(res.L_H, rel=1e-3)  # |sqrt s - sqrt t| <= sqrt|s - t|
    m = mixture_holder(d, [0, 1])
    assert m.p_star == sp.Rational(1, 2) and not m.solitary
    assert m.r == sp.Rational(1, 2)
    xs = refined_grid(0.0, 1.0, [0.5], n=20001, m=400, smallest=1e-6)
    xs = xs[xs != 0.5]
    sup = float(((f(np.array(0.5)) - f(xs)) / np.abs(xs - 0.5) ** 0.5).max())
    assert sup == pytest.approx(m.L_MH, rel=1e-3)
    assert not m.holds_with(1)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [[-0.1, 0.5], [0.5, 1.2], [0.3, 2], [], [-1e-9, 0.5]], ids=str)
def test_means_outside_unit_interval_are_rejected(p):
    with pytest.raises(HolderError, match="argument 'p'"):
        mixture_holder(dist("gini"), p)


@pytest.mark.parametrize("interval", [(0, 1.5), (-0.1, 0.5), (0.8, 0.2)], ids=str)
def test_bad_holder_interval_is_rejected(interval):
    with pytest.raises(HolderError, match="argument 'p'"):
        holder(dist("gini"), interval)


def test_nan_mean_is_rejected_naming_p():
    with pytest.raises(HolderError, match="argument 'p'"):
        mixture_holder(dist("gini"), [float("nan"), 0.5])


def test_discontinuous_h_is_not_holder_continuous():
    # h jumps at u = 1/3 from 0 (left limit) to 1/3 (right limit); h(0) = 0 and h([0,1]) within [0, 1]
    d = from_string("u*(atan(1/(3*u-1))+pi/2)/pi")
    f = sp.lambdify(U, d.expr, "numpy")
    left, right = f(1 / 3 - 1e-9), f(1 / 3 + 1e-9)
    assert right - left == pytest.approx(1 / 3, abs=1e-6)  # the jump, numerically
    with pytest.raises(HolderError, match="argument 'h'.*jumps"):
        holder(d, (0, 1))


def test_abs_step_is_reported_as_a_jump():
    d = from_string("u/2 + (1 + abs(3*u-1)/(3*u-1))/4")  # 0 on [0, 1/3), then u/2 + 1/2
    with pytest.raises(HolderError, match="jumps"):
        holder(d, (0, 1))


# ---------------------------------------------------------------------------
# regressions: exact values must stay exact (no sp.nsimplify of rationals)
# ---------------------------------------------------------------------------


def test_best_single_arm_is_solitary_and_inside_the_interval():
    # h(u) = u: the optimum on [0.1, 0.15265625] is the arm with mean 0.15265625 = 977/6400 alone
    m = mixture_holder(dist("mean"), [0.1, 0.15265625])
    assert m.r == 1 and m.L_MH == pytest.approx(1.0)
    assert m.p_star == sp.Rational(977, 6400)
    assert m.solitary


def test_exact_mixture_constant_is_exact():
    # Gini on [a, b] with a > 1/2: p* = a, L_MH = a + b - 1 = 0.55265625 + 0.6 - 1 = 977/6400
    m = mixture_holder(dist("gini"), [0.55265625, 0.6])
    assert m.r == 1 and m.L_MH == pytest.approx(977 / 6400, rel=1e-12)
    assert m.L_exact is None or sp.simplify(m.L_exact - sp.Rational(977, 6400)) == 0
