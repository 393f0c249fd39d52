"""A distortion owns its profile: q, L, the maximisers and the W1 constant are derived once, in one place.

Every consumer (the simulator's set-up, the bounds, ``rsb derive``, the checks) reads them from
:func:`rsb_theory.profile.of`; counting the calls of the underlying derivations
(:func:`rsb_theory.holder.holder`, :func:`rsb_theory.holder.optimal_means`) through two consumers shows
that the second one derives nothing again.
"""

from __future__ import annotations

import types

import pytest
import sympy as sp

from rsb_theory import distortions, holder, profile


@pytest.fixture
def counted(monkeypatch):
    calls = {"holder": [], "optimal_means": []}
    for name in calls:
        real = getattr(holder, name)

        def wrapped(*args, _real=real, _name=name, **kw):
            calls[_name].append(args[1:])
            return _real(*args, **kw)

        monkeypatch.setattr(holder, name, wrapped)
    return calls


def _fresh(text: str) -> distortions.Distortion:
    d = distortions.from_string(text)
    profile._PROFILES.pop(d, None)  # a distortion no earlier test has profiled
    return d


def test_q_L_and_maximisers_are_derived_once_for_two_consumers(counted):
    from proofs_checks.bounds import instance_constants
    from rsb_sim.setup import _holder_of

    text = "u - u**3/3"
    d = _fresh(text)
    c = instance_constants(text, None, (0.2, 0.4))  # resolves the text again: an equal distortion, the same profile
    q, L, L_bonus, u_star = _holder_of(d, types.SimpleNamespace(kind="finite", width=2.0), "test", True)
    assert (c.q, c.L) == (q, L) == (1.0, 1.0)
    assert u_star == 1.0 and c.B == pytest.approx(2 / 3)
    assert len(counted["holder"]) == 1, counted["holder"]
    assert counted["optimal_means"].count((0, 1)) == 1, counted["optimal_means"]
    assert L_bonus == profile.of(d).w1_constant(2.0) == L * 2.0 ** (1 - q)
    assert len(counted["holder"]) == 1  # read again, derived no more


def test_profile_is_one_per_distortion_and_keyed_by_the_exact_interval(counted):
    d = _fresh("u*(1 - u)**2 + u/2")
    prof = profile.of(d)
    assert profile.of(distortions.from_string("u*(1 - u)**2 + u/2")) is prof
    assert prof.holder((0.2, 0.4)) is prof.holder((sp.Rational(1, 5), sp.Rational(2, 5)))
    assert prof.maximisers() == holder.optimal_means(d, 0, 1)
    assert prof.sup_h() == pytest.approx(float(d.expr.subs(distortions.U, prof.maximisers()[0])))
    assert prof.family is profile.family_profile(d)
    assert len(counted["holder"]) == 2  # [1/5, 2/5] for the test, [0, 1] for the family row


def test_profile_refuses_a_name():
    with pytest.raises(holder.HolderError, match="argument 'd'"):
        profile.of("gini")
