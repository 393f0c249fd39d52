"""UCB1 (Auer, Cesa-Bianchi and Fischer 2002), risk-neutral: a solitary baseline, not in the paper.

Index of arm i before the pull of step t (t - 1 pulls done): muhat_i + b sqrt(2 log(t - 1) / tau_i),
with muhat_i the empirical mean of arm i and b the width of the support [0, b] (1 for Bernoulli
arms).  It ignores h: it converges to the arm of largest mean, whose U_h need not be the largest.
The loop is :func:`rsb_sim.policies._solitary.run`; the reference loop
:func:`rsb_sim.reference_index.reference_trial` reads :meth:`UCB1.reference_index`.
"""

from __future__ import annotations

import math

from ._index import IndexPolicy


class UCB1(IndexPolicy):
    name = "ucb1"
    title = "UCB1"
    color = "tab:red"
    family = "baseline"
    rank = 1
    summary = "risk-neutral, Auer et al. 2002"
    reads = frozenset({"explore"})
    state = "ucb"
    reads_h = False

    def vector_index(self, setup, d, instance):
        import numpy as np

        support = np.asarray(instance.support, dtype=float)
        b = float(instance.width)

        def index(counts_m, tau, t):
            return (counts_m @ support) / tau + b * np.sqrt(2.0 * math.log(t - 1) / tau)

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        """The plain mean sum_j c_j x_j / tau of each arm plus b sqrt(2 log n / tau)."""
        x = [float(v) for v in instance.support]
        out = []
        for hist in hists:
            tau = sum(hist)
            mean = sum(c * x[j] for j, c in enumerate(hist)) / tau
            out.append(mean + float(instance.width) * math.sqrt(2.0 * math.log(n) / tau))
        return out


POLICY = UCB1()
