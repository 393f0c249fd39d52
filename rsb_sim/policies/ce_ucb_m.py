"""CE-UCB-M (``algorithm:UCB-M``), vectorised across trials.

Mixture estimate of ``eq:UCB_alpha2``: UCB_t(a) = h(<a, phat>) + L sum_i
(a_i radius_i)^q with q, L from :func:`rsb_theory.holder.holder` (not typed
in) and the radius of ``eq:UCB_confidence_sets`` times ``radius_scale``.
The loop is :func:`rsb_sim.policies._ucb.run`.

Finite-support arms on [0, b]: UCB_t(a) = U_h(sum_i a_i F_i,t) +
L_bonus sum_i (a_i radius_i)^q (:func:`rsb_theory.argmax.ce_ucb_objective_finite`)
on the empirical laws of ``eq:empirical_CDF`` (per-support-point counts),
with the same radius and L_bonus = L b^(1-q), the W1-Hölder constant of U_h on
laws on [0, b] (:class:`rsb_sim.setup.Setup`); L_bonus = L for Bernoulli arms.
"""

from __future__ import annotations

import numpy as np

from rsb_theory import argmax as am

from . import _ucb


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    if instance.kind != "bernoulli":
        support = np.asarray(instance.support, dtype=float)

        def make(probs, radius):
            return am.ce_ucb_objective_finite(d, support, probs, radius, setup.q, setup.L_bonus)
    else:
        def make(phat, radius):
            return am.ce_ucb_objective(d, phat, radius, setup.q, setup.L_bonus, validate=False)

    return _ucb.run(setup, d, instance, table, make, use_upper_bound=False, bonus=True,
                    record_actions=record_actions, progress=progress)
