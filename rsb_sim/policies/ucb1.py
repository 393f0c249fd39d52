"""UCB1 (Auer, Cesa-Bianchi and Fischer 2002), risk-neutral: a solitary baseline, not in the paper.

Index of arm i before the pull of step t (t - 1 pulls done): muhat_i + b sqrt(2 log(t - 1) / tau_i),
with muhat_i the empirical mean of arm i and b the width of the support [0, b] (1 for Bernoulli
arms).  It ignores h: it converges to the arm of largest mean, whose U_h need not be the largest.
The loop is :func:`rsb_sim.policies._solitary.run`.
"""

from __future__ import annotations

import math

import numpy as np

from . import _solitary


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    support = np.asarray(instance.support, dtype=float)
    b = float(instance.width)

    def index(counts_m, tau, t):
        return (counts_m @ support) / tau + b * np.sqrt(2.0 * math.log(t - 1) / tau)

    return _solitary.run(setup, instance, table, index, record_actions, progress)
