"""How a uniform of the reward table becomes a reward: bit for bit the rules of ``rsb_sim.instances``.

The convention (``rsb_theory.laws.law``): finite and empirical laws draw x = inf{x : F(x) > U}
(the right-continuous inverse), Bernoulli laws 1{U < p} (the survival-side inverse, kept from the
first release), continuous laws scipy's ppf.  ``ppf`` itself is the generalised inverse
inf{x : F(x) >= u}; the two differ only at the uniforms U = F(x_j).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rsb_sim.instances import BernoulliInstance, FiniteSupportInstance
from rsb_theory.laws import empirical_law, parse_arms
from rsb_theory.laws.build import bernoulli_law, finite_law


def uniforms(cumulative, seed=0, n=20000) -> np.ndarray:
    """Random doubles in [0, 1), the exact boundary values, their neighbours, 0 and the largest double < 1."""
    u = np.random.default_rng(seed).random(n)
    edges = np.concatenate([cumulative, np.nextafter(cumulative, 0.0), np.nextafter(cumulative, 1.0)])
    edges = edges[(edges >= 0) & (edges < 1)]
    return np.concatenate([u, edges, [0.0, np.nextafter(1.0, 0.0)]])


@settings(max_examples=60, deadline=None)
@given(p=st.lists(st.one_of(st.sampled_from([0.0, 0.5, 1.0, 0.1, 0.3]), st.floats(0.0, 1.0)), min_size=2, max_size=6))
def test_bernoulli_draw_is_the_instance_rule_bit_for_bit(p):
    inst = BernoulliInstance(tuple(p))
    for i, pi in enumerate(p):
        law = bernoulli_law(pi)
        u = uniforms(np.array([pi, 1.0 - pi]), seed=i)
        assert np.array_equal(law.outcome(u), inst.outcome(u, i))
        assert np.array_equal(law.draw(u), inst.outcome(u, i).astype(float))


@st.composite
def finite_instances(draw):
    m = draw(st.integers(1, 6))
    K = draw(st.integers(2, 6))
    atoms = sorted(draw(st.lists(st.floats(0.0, 10.0, allow_subnormal=False), min_size=m, max_size=m, unique=True)))
    rows = []
    for _ in range(K):
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=m, max_size=m)), dtype=float)
        if w.sum() == 0:
            w[draw(st.integers(0, m - 1))] = 1.0
        rows.append(tuple(w / w.sum()))
    return tuple(atoms), tuple(rows)


@settings(max_examples=60, deadline=None)
@given(inst=finite_instances())
def test_finite_draw_is_the_instance_rule_bit_for_bit(inst):
    atoms, rows = inst
    if len(atoms) < 2:  # an instance needs two support points; a law does not
        atoms, rows = atoms + (atoms[0] + 1.0,), tuple(r + (0.0,) for r in rows)
    fs = FiniteSupportInstance(atoms, rows)
    for i, row in enumerate(rows):
        law = finite_law(atoms, row)
        assert law.atoms == fs.support
        u = uniforms(law.cumulative(), seed=i)
        assert np.array_equal(law.outcome(u), fs.outcome(u, i))
        assert np.array_equal(law.draw(u), np.asarray(fs.support)[fs.outcome(u, i)])


@settings(max_examples=40, deadline=None)
@given(samples=st.lists(st.integers(0, 20).map(lambda k: k / 8), min_size=1, max_size=40))
def test_empirical_draw_is_the_finite_rule(samples):
    law = empirical_law(samples)
    assert law.n == len(samples)
    np.testing.assert_allclose(np.asarray(law.masses) * law.n, np.unique(samples, return_counts=True)[1])
    if len(law.atoms) >= 2:
        fs = FiniteSupportInstance(law.atoms, (law.masses, law.masses))
        u = uniforms(law.cumulative())
        assert np.array_equal(law.outcome(u), fs.outcome(u, 0))


def test_the_instances_own_example():
    """tests/sim/test_rewards_instances.py: u = 0.2 = F(x_1) draws the second atom."""
    law = finite_law((0.0, 0.5, 2.0), (0.2, 0.3, 0.5))
    u = np.array([0.0, 0.19, 0.2, 0.49, 0.5, 0.999999])
    assert law.outcome(u).tolist() == [0, 0, 1, 1, 2, 2]
    # ppf is the generalised inverse inf{x : F(x) >= u}: at u = F(x_j) it stays on x_j
    assert law.ppf(u).tolist() == [0.0, 0.0, 0.0, 0.5, 0.5, 2.0]


@settings(max_examples=60, deadline=None)
@given(inst=finite_instances(), u=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20))
def test_ppf_is_the_generalised_inverse_and_draw_differs_only_at_jumps(inst, u):
    atoms, rows = inst
    law = finite_law(atoms, rows[0])
    u = np.array(u)
    F = law.cdf(np.asarray(law.atoms))
    # inf{x : F(x) >= u} over the atoms (F is a step function with F(x_m) = 1)
    brute = [min(x for x, Fx in zip(law.atoms, F) if Fx >= v) for v in u]
    assert law.ppf(u).tolist() == [float(b) for b in brute]
    off = ~np.isin(u, law.cumulative())
    np.testing.assert_array_equal(law.draw(u[off & (u < 1)]), law.ppf(u[off & (u < 1)]))


def test_bernoulli_draw_mirrors_the_finite_rule():
    """1{U < p} is the finite rule at 1 - U (the survival-side inverse): same law, mirrored uniforms."""
    p = 0.75  # binary-exact, so 1 - p is exact too
    law, fin = bernoulli_law(p), finite_law((0.0, 1.0), (1 - p, p))
    u = np.random.default_rng(1).random(10000)
    u = u[u >= 0.5]  # 1 - u is exact there (Sterbenz)
    u = np.concatenate([u, [p, 0.5, 0.875]])
    differ = law.draw(u) != fin.draw(1.0 - u)
    assert np.all(u[differ] == p) and differ[-3]  # the two rules part only at U = p


def test_continuous_draw_is_scipys_ppf():
    for law in parse_arms("beta(2,5); uniform(0.3,0.1); truncnorm(-2,2,0.5,0.1); triang(0.5,0,1)"):
        u = np.random.default_rng(2).random(1000)
        assert np.array_equal(law.draw(u), law.frozen.ppf(u))
        x = law.ppf(u)
        np.testing.assert_allclose(law.cdf(x), u, atol=1e-10)
        np.testing.assert_allclose(law.sf(x) + law.cdf(x), 1.0, atol=1e-14)


def test_cdf_sf_of_discrete_laws():
    law = finite_law((0.0, 0.5, 2.0), (0.2, 0.3, 0.5))
    x = np.array([-1.0, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(law.cdf(x), [0.0, 0.2, 0.2, 0.5, 0.5, 1.0, 1.0])
    np.testing.assert_allclose(law.sf(x), [1.0, 0.8, 0.8, 0.5, 0.5, 0.0, 0.0])
    assert law.mean == pytest.approx(0.15 + 1.0)
    with pytest.raises(ValueError, match="argument 'u'"):
        law.ppf([1.5])
