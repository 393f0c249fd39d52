"""Issue property: the symbolic Bernoulli closed form (a result of integrating eq:wang_def
with the family's parameters left symbolic) against scipy quadrature, for random p and
parameters drawn from their declared domains; and user-defined h round-trips."""

from functools import lru_cache

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from scipy import stats

from rsb_theory import distortions
from rsb_theory.riskmetric import P, bernoulli_closed_form, quadrature

EDGE_P = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0))


@lru_cache(maxsize=None)
def family_closed_form(key):
    """U_h(Bern(p)) integrated with the family's parameters left symbolic, or None.

    SymPy cannot always integrate with a symbolic parameter (inter_es: it does not
    know alpha < 1 from the symbol's assumptions); the test then integrates at the
    drawn parameter value instead.
    """
    fam = distortions.REGISTRY[key]
    try:
        expr = bernoulli_closed_form(fam.expression())  # parameters stay symbolic
    except ValueError:
        return None
    syms = [P] + [p.symbol for p in fam.parameters]
    return sp.lambdify(syms, expr, modules="numpy")


def closed_form_value(key, d, p, params):
    fn = family_closed_form(key)
    if fn is not None:
        return float(fn(p, *[float(v) for v in params.values()]))
    return float(bernoulli_closed_form(d).subs(P, sp.Rational(repr(float(p)))))


def param_strategy(key):
    fam = distortions.REGISTRY[key]
    if not fam.parameters:
        return st.just({})
    (par,) = fam.parameters
    lo = float(par.domain.start)
    hi = float(par.domain.end) if par.domain.end.is_finite else lo + 6.0
    eps = 1e-3
    lo_v = lo + eps if par.domain.left_open else lo
    hi_v = hi - eps if (par.domain.right_open and par.domain.end.is_finite) else hi
    # subnormal parameters (s = 2.2e-309) make lambdify print integers beyond float range: not a parameter
    # anyone uses, and a limitation of the numeric h (noted in the redesign's report), not of the closed form
    vals = st.one_of(st.sampled_from([lo_v, hi_v]), st.floats(lo_v, hi_v, allow_subnormal=False))
    return vals.map(lambda v: {par.name: v})


@pytest.mark.parametrize("key", distortions.names())
@settings(max_examples=8, deadline=None)
@given(data=st.data(), p=EDGE_P)
def test_closed_form_matches_quadrature(key, data, p):
    params = data.draw(param_strategy(key))
    d = distortions.get(key, **params)
    closed = closed_form_value(key, d, p, params)
    quad = quadrature(d.numeric, stats.bernoulli(p))
    assert closed == pytest.approx(quad, abs=1e-9)
    assert closed == pytest.approx(float(d(np.array([p]))[0]), abs=1e-12)


@pytest.mark.parametrize("key", distortions.names())
def test_registry_expressions_round_trip(key):
    d = distortions.get(key)
    again = distortions.from_string(str(d.expr))
    assert sp.simplify(again.expr - d.expr) == 0
    assert again.shape.monotone == d.shape.monotone and again.shape.curvature == d.shape.curvature


@settings(max_examples=20, deadline=None)
@given(a=st.integers(1, 9), b=st.integers(0, 9))
def test_user_polynomials_round_trip(a, b):
    # h = a/10 u + b/10 u (1 - u) maps [0, 1] into [0, 1] for these a, b
    text = f"{a}/10*u + {b}/10*u*(1-u)"
    d = distortions.from_string(text)
    again = distortions.from_string(str(d.expr))
    assert sp.expand(again.expr - d.expr) == 0
    assert d.expr == sp.Rational(a, 10) * distortions.U + sp.Rational(b, 10) * distortions.U * (1 - distortions.U)
