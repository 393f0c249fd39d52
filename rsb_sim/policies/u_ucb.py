"""U-UCB (Cassel, Mannor and Zeevi, COLT 2018), a solitary risk-aware competitor.

The general-criterion UCB of "A general approach to multi-armed bandits under risk criteria": the index
of arm i is the plug-in criterion of its empirical law plus the criterion's stability function f
evaluated at a DKW-type radius,

    U_h(F_i,n) + f(radius_scale * sqrt(2 log n / tau_i)),   f(r) = L_inf r^q,

n = t - 1 pulls made.  The criterion U_h (``eq:wang_def``) is stable in the sup norm:
|U_h(F) - U_h(G)| <= int_0^b |h(S_F) - h(S_G)| dx <= L b ||F - G||_inf^q, with q and L the Hölder
exponent and constant of h (``assumption:Holder``) that rsb derives (:func:`rsb_theory.holder.holder`),
so L_inf = L b (``Setup.L_bonus``).  The exploration constant of the radius, 2 here, is rsb's choice
(``docs/simulation.md``); ``radius_scale`` (default 1) scales the radius.  Round robin first
(``explore`` pulls per arm, default 1).

How it differs from ``dr-ucb``: the same shape, estimate + L r^q, but DR-UCB takes the paper's W1 radius
of ``eq:UCB_confidence_sets`` (16 (sqrt(2 e log T) + 32) / sqrt(tau), horizon-dependent) and the W1
constant L b^(1-q); U-UCB the anytime sup-norm radius and L b.  The loop is
:func:`rsb_sim.policies._solitary.run`; U_h of a law on levels is x_1 + sum_j (x_{j+1} - x_j) h(S_j).
"""

from __future__ import annotations

import math

import numpy as np

from . import _solitary


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    support = np.asarray(instance.support, dtype=float)
    widths = np.diff(support)
    h = d.numeric

    def index(counts_m, tau, t):
        above = np.cumsum(counts_m[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]
        value = support[0] + np.asarray(h(above / tau[:, :, None]), dtype=float) @ widths
        radius = setup.radius_c * np.sqrt(2.0 * math.log(t - 1) / tau)
        return value + setup.L_bonus * radius ** setup.q

    return _solitary.run(setup, instance, table, index, record_actions, progress)
