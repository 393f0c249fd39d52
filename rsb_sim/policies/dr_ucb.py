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

from ._index import IndexPolicy


class DRUCB(IndexPolicy):
    name = "dr-ucb"
    title = "DR-UCB"
    color = "tab:purple"
    family = "baseline"
    rank = 2
    summary = "U_h(F_i) + L_H r_i^q on the paper's W1 radius"
    reads = frozenset({"radius_scale", "explore"})
    state = "ucb"
    constants = (("radius_c", "radius_scale * 16 (sqrt(2 e log T) + 32), the W1 radius of eq:UCB_confidence_sets "
                              "is radius_c / sqrt(tau)"),
                 ("L_bonus", "L b^(1-q), the W1-Hölder constant of U_h (assumption:Holder)"),
                 ("q", "the Hölder exponent of h"))

    def constants_of(self, cfg, instance, d, warnings):
        from ..setup import radius_covers, w1_bonus_constants

        out = w1_bonus_constants(cfg, instance, d, self.name)
        n0 = int(cfg.explore) if cfg.explore is not None else 1
        smallest = radius_covers(out, cfg, instance, n0)
        if smallest is not None:
            max_tau = cfg.T - (instance.K - 1) * n0
            warnings.append(
                f"DR-UCB: the confidence radius of eq:UCB_confidence_sets is >= {instance.width:g} at every t "
                f"(radius_scale*16(sqrt(2e log T)+32)/sqrt(tau) >= {smallest:.3g} "
                f"for tau <= {max_tau}), so every law on the support is in every confidence set; the bonus L_H r^q "
                f"dominates the estimate and the pulls stay nearly balanced, like uniform sampling")
        return out

    def vector_index(self, setup, d, instance):
        import numpy as np

        from ..rules import confidence_radius

        support = np.asarray(instance.support, dtype=float)
        widths = np.diff(support)
        h = d.numeric

        def index(counts_m, tau, t):
            probs = counts_m / tau[:, :, None]
            surv = np.clip(np.cumsum(probs[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:], 0.0, 1.0)
            value = support[0] + np.asarray(h(surv), dtype=float) @ widths
            return value + setup.L_bonus * confidence_radius(setup.radius_c, tau) ** setup.q

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        """U_h of each arm's empirical masses (:func:`rsb_theory.riskmetric.finite_support`, not the cumulative
        sums) plus L_H radius^q."""
        import numpy as np

        from rsb_theory.riskmetric import finite_support

        from ..rules import confidence_radius

        x = [float(v) for v in instance.support]
        out = []
        for hist in hists:
            tau = sum(hist)
            masses = np.array([c / tau for c in hist])
            value = float(finite_support(d.numeric, x, masses))
            out.append(value + setup.L_bonus * float(confidence_radius(setup.radius_c, float(tau))) ** setup.q)
        return out


POLICY = DRUCB()
