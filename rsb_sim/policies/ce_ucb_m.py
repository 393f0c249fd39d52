"""CE-UCB-M (``algorithm:UCB-M``), vectorised across trials.

Mixture estimate of ``eq:UCB_alpha2``: UCB_t(a) = h(<a, phat>) + L sum_i
(a_i radius_i)^q with q, L from :func:`rsb_theory.holder.holder` (not typed
in) and the radius of ``eq:UCB_confidence_sets`` times ``radius_scale``.
The loop is :func:`rsb_sim.policies._ucb.run`.
"""

from __future__ import annotations

from rsb_theory import argmax as am

from . import _ucb


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    def make(phat, radius):
        return am.ce_ucb_objective(d, phat, radius, setup.q, setup.L_bonus)

    return _ucb.run(setup, d, instance, table, make, use_upper_bound=False, bonus=True,
                    record_actions=record_actions, progress=progress)
