"""CVaR-UCB (Tamkin, Keramati, Dann and Brunskill 2019, "Distributionally-aware exploration for CVaR bandits").

The index of arm i is the CVaR of an *optimistic* law: the empirical CDF lowered by the
Dvoretzky-Kiefer-Wolfowitz width and clipped at 0, F+(x) = max(0, Fhat(x) - eps_i) below b (so a mass
eps_i moves from the lowest rewards to the upper end b of the support), with

    eps_i = radius_scale * sqrt(log(2 / delta_t) / (2 tau_i)),   delta_t = 1 / n^2,

n = t - 1 pulls made (DKW: P(||Fhat - F||_inf > eps) <= 2 exp(-2 tau eps^2) = delta; the schedule
delta_t = 1/n^2 is rsb's choice, ``docs/simulation.md``).  In survival terms S+ = min(1, Shat + eps_i) on
[x_1, b), so the index is x_1 + sum_j (x_{j+1} - x_j) h(min(1, S_j + eps_i)) + (b - x_m) h(min(1, eps_i)).
It is defined for CVaR (the paper's lower tail, ``cvar_lower``; the same construction is optimistic for
any increasing h, and rsb also accepts the upper-tail ``cvar``): its declaration (``distortions``)
refuses other distortions naming ``algo``.  Round robin first (``explore``, default 1).  The loop is
:func:`rsb_sim.policies._solitary.run`.
"""

from __future__ import annotations

import math

from ._index import IndexPolicy


class CVaRUCB(IndexPolicy):
    name = "cvar-ucb"
    title = "CVaR-UCB"
    family = "competitor"
    rank = 3
    summary = "Tamkin et al. 2019, CVaR only"
    reads = frozenset({"radius_scale", "explore"})
    distortions = ("cvar", "cvar_lower")
    distortions_words = "CVaR"
    example_dr = "cvar_lower"
    state = "ucb"
    constants = (("dkw_scale", "radius_scale, the factor on the DKW width sqrt(log(2 / delta_t) / (2 tau_i))"),)

    def constants_of(self, cfg, instance, d, warnings):
        return {"constants": {"dkw_scale": float(cfg.radius_scale)}}

    def vector_index(self, setup, d, instance):
        import numpy as np

        support = np.asarray(instance.support, dtype=float)
        widths = np.diff(support)
        top = float(instance.width) - float(support[-1])  # from the highest level to b (0 for discrete arms)
        h = d.numeric
        scale = setup.constants["dkw_scale"]

        def index(counts_m, tau, t):
            n = t - 1
            eps = scale * np.sqrt(math.log(2.0 * n * n) / (2.0 * tau))
            above = np.cumsum(counts_m[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]
            surv = np.minimum(1.0, above / tau[:, :, None] + eps[:, :, None])
            value = support[0] + np.asarray(h(surv), dtype=float) @ widths
            if top > 0:
                value = value + top * np.asarray(h(np.minimum(1.0, eps)), dtype=float)
            return value

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        """U_h of the DKW-optimistic law (a mass eps moved from the bottom to b), level by level."""
        import numpy as np

        x = [float(v) for v in instance.support]
        b = float(instance.width)

        def h(u):
            return float(d.numeric(np.array([u]))[0])

        out = []
        for hist in hists:
            tau = sum(hist)
            eps = setup.constants["dkw_scale"] * math.sqrt(math.log(2.0 * n * n) / (2.0 * tau))
            value = x[0]
            for j in range(len(x) - 1):
                value += (x[j + 1] - x[j]) * h(min(1.0, sum(hist[j + 1:]) / tau + eps))
            if b > x[-1]:
                value += (b - x[-1]) * h(min(1.0, eps))
            out.append(value)
        return out


POLICY = CVaRUCB()
