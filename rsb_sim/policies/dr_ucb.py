"""DR-UCB: a solitary risk-aware UCB (a baseline, not in the paper).

Index of arm i: U_h(F_i,t) + L_H r_i^q, the distortion riskmetric (``eq:wang_def``) of the arm's
empirical law (``eq:empirical_CDF``) plus the largest change of U_h over the W1 ball of radius
r_i = radius_c / sqrt(tau_i) of ``eq:UCB_confidence_sets`` (|U_h(F) - U_h(G)| <= L_H W1(F, G)^q,
``assumption:Holder``; L_H = L b^(1-q) on [0, b]); radius_c = radius_scale * 16 (sqrt(2 e log T) + 32),
the paper's radius family, so ``--radius-scale`` scales it as for RS-UCB-M and CE-UCB-M.  It is
the single-arm special case of CE-UCB-M's ``eq:UCB_alpha2`` (a vertex of the simplex): it
converges to an arm of largest U_h(F_i).  The loop is :func:`rsb_sim.policies._solitary.run`.

U_h of a law with atoms x_1 < ... < x_m is x_1 + sum_j (x_{j+1} - x_j) h(S_j), S_j = P(X > x_j)
(``rsb_theory.riskmetric``); for Bernoulli arms it is h(phat).
"""

from __future__ import annotations

import numpy as np

from ..rules import confidence_radius
from . import _solitary


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    support = np.asarray(instance.support, dtype=float)
    widths = np.diff(support)
    h = d.numeric

    def index(counts_m, tau, t):
        probs = counts_m / tau[:, :, None]
        surv = np.clip(np.cumsum(probs[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:], 0.0, 1.0)
        value = support[0] + np.asarray(h(surv), dtype=float) @ widths
        return value + setup.L_bonus * confidence_radius(setup.radius_c, tau) ** setup.q

    return _solitary.run(setup, instance, table, index, record_actions, progress)
