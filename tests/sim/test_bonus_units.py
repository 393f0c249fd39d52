"""Bonuses in the objective's units: UCB-FW's width on the gradient coordinate is sup|h'| b times the radius, and
U-UCB's bonus is L b phi^{-1}(r) with both branches, max(r, r^q); both routes (engine and reference) agree."""

import math

import numpy as np
import pytest

from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_sim.policies.u_ucb import POLICY as UUCB
from rsb_sim.policies.ucb_fw import POLICY as UCBFW
from rsb_sim.setup import prepare
from rsb_theory.distortions import get, numeric_derivative
from rsb_theory.holder import holder

SOLITARY = BernoulliInstance((0.2, 0.45))


def _actions(algo, d, **cfg):
    return run(SimConfig(T=2000, trials=3, seed=5, record_actions=True, **cfg), SOLITARY, d, algo).actions


def test_ucb_fw_on_cvar_is_no_longer_ucb1_at_scale_2():
    d = get("cvar")  # h' = 2 on [0, 1/2): the gradient coordinate is 2 phat_i there
    assert not np.array_equal(_actions("ucb-fw", d, radius_scale=2.0), _actions("ucb1", d))


@pytest.mark.parametrize("dr", ["cvar", "gini", "dual_power", "pht"])
def test_ucb_fw_width_is_the_gradient_lipschitz_constant_times_the_radius(dr):
    d = get(dr)
    setup = prepare(SimConfig(T=100, trials=1, radius_scale=0.3), SOLITARY, d, "ucb-fw")
    hr = holder(d)
    assert setup.constants["L_grad"] == pytest.approx(float(hr.L_H) * SOLITARY.width)
    counts = np.array([[[3.0, 2.0], [1.0, 4.0]]])  # (B, K, m): arm 0 three zeros two ones
    tau, t = counts.sum(axis=2), 11
    got = UCBFW.vector_index(setup, d, SOLITARY)(counts, tau, t)[0]
    phat, p = counts[0, :, 1] / tau[0], tau[0] / (t - 1)
    slope = float(numeric_derivative(d)(np.array([p @ phat]))[0])
    r = 0.3 * np.sqrt(2 * math.log(t - 1) / tau[0])
    want = slope * phat + float(hr.L_H) * r ** float(hr.q)
    assert np.allclose(got, want, rtol=1e-12)
    ref = UCBFW.reference_index(setup, d, SOLITARY, [[3, 2], [1, 4]], t - 1, None)
    assert np.allclose(ref, want, rtol=1e-12)


@pytest.mark.parametrize("radius_scale", [3.0, 0.2])
def test_u_ucb_bonus_takes_both_branches_of_phi_inverse(radius_scale):
    d = get("pht")  # q = 1/2: r^q > r below 1, r > r^q above
    setup = prepare(SimConfig(T=100, trials=1, radius_scale=radius_scale), SOLITARY, d, "u-ucb")
    counts = np.array([[[1.0, 1.0], [2.0, 3.0]]])
    tau, t = counts.sum(axis=2), 9
    r = radius_scale * np.sqrt(2 * math.log(t - 1) / tau[0])
    value = np.sqrt(counts[0, :, 1] / tau[0])  # U_h of a Bernoulli law: h(p)
    want = value + setup.constants["L_inf"] * np.maximum(r, np.sqrt(r))
    assert (r > 1).all() if radius_scale > 1 else (r < 1).all()
    assert np.allclose(UUCB.vector_index(setup, d, SOLITARY)(counts, tau, t)[0], want, rtol=1e-12)
    assert np.allclose(UUCB.reference_index(setup, d, SOLITARY, [[1, 1], [2, 3]], t - 1, None), want, rtol=1e-12)
