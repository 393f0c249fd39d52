"""U-UCB (Cassel, Mannor and Zeevi, COLT 2018), a solitary risk-aware competitor.

The general-criterion UCB of "A general approach to multi-armed bandits under risk criteria": the index
of arm i is the plug-in criterion of its empirical law plus the criterion's stability function f
evaluated at a DKW-type radius,

    U_h(F_i,n) + f(radius_scale * sqrt(2 log n / tau_i)),   f(r) = L_inf max(r, r^q),

n = t - 1 pulls made.  The criterion U_h (``eq:wang_def``) is stable in the sup norm:
|U_h(F) - U_h(G)| <= int_0^b |h(S_F) - h(S_G)| dx <= L b ||F - G||_inf^q, with q and L the Hölder
exponent and constant of h (``assumption:Holder``) that rsb derives (:func:`rsb_theory.holder.holder`),
so L_inf = L b (``Setup.constants['L_inf']``).  f is the inverse phi^{-1} of Cassel et al.'s stability function
with both of its branches: r^q for r <= 1 and r for r > 1 (for r > 1, r^q < r; the sup-norm radius exceeds 1 early,
while tau_i < 2 log n, where the r^q branch alone understated the bonus).  The exploration constant of the radius, 2 here, is rsb's choice
(``docs/simulation.md``); ``radius_scale`` (default 1) scales the radius
(``Setup.constants['radius_scale']``).  Round robin first
(``explore`` pulls per arm, default 1).

How it differs from ``dr-ucb``: the same shape, estimate + L r^q, but DR-UCB takes the paper's W1 radius
of ``eq:UCB_confidence_sets`` (16 (sqrt(2 e log T) + 32) / sqrt(tau), horizon-dependent) and the W1
constant L b^(1-q); U-UCB the anytime sup-norm radius and L b.  The loop is
:func:`rsb_sim.policies._solitary.run`; U_h of a law on levels is x_1 + sum_j (x_{j+1} - x_j) h(S_j).
"""

from __future__ import annotations

import math

from ._index import IndexPolicy
from rsb_theory.errors import ArgumentError


class UUCB(IndexPolicy):
    name = "u-ucb"
    title = "U-UCB"
    family = "competitor"
    rank = 2
    summary = "Cassel, Mannor and Zeevi 2018"
    reads = frozenset({"radius_scale", "explore"})
    state = "ucb"
    constants = (("radius_scale", "the factor on the sup-norm radius sqrt(2 log n / tau_i)"),
                 ("L_inf", "L b, the sup-norm stability constant of U_h (the bonus is L b max(r, r^q))"),
                 ("q", "the Hölder exponent of h (assumption:Holder)"))

    def constants_of(self, cfg, instance, d, warnings):
        from rsb_theory.profile import of

        hr = of(d).holder()
        q, L = float(hr.q), float(hr.L_H)
        if not (hr.attained and math.isfinite(L)):
            raise ArgumentError("dr", f"h has no finite Hölder constant at exponent q = {hr.q}; "
                             f"u-ucb needs one for its bonus L b r^q")
        return {"q": q, "L": L,
                "constants": {"radius_scale": float(cfg.radius_scale), "L_inf": L * float(instance.width)}}

    def vector_index(self, setup, d, instance):
        import numpy as np

        support = np.asarray(instance.support, dtype=float)
        widths = np.diff(support)
        h = d.numeric
        scale, L_inf = setup.constants["radius_scale"], setup.constants["L_inf"]

        def index(counts_m, tau, t):
            above = np.cumsum(counts_m[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]
            value = support[0] + np.asarray(h(above / tau[:, :, None]), dtype=float) @ widths
            radius = scale * np.sqrt(2.0 * math.log(t - 1) / tau)
            return value + L_inf * np.maximum(radius, radius ** setup.q)

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        """U_h(F_i) (:func:`rsb_theory.riskmetric.finite_support` of the masses) + L b max(r, r^q), r = radius_scale
        sqrt(2 log n / tau_i) (the branch written out as an ``if``)."""
        import numpy as np

        from rsb_theory.riskmetric import finite_support

        x = [float(v) for v in instance.support]
        out = []
        for hist in hists:
            tau = sum(hist)
            masses = np.array([c / tau for c in hist])
            radius = setup.constants["radius_scale"] * math.sqrt(2.0 * math.log(n) / tau)
            phi_inv = radius if radius > 1.0 else radius ** setup.q  # both branches of phi^{-1}: max(r, r^q)
            out.append(float(finite_support(d.numeric, x, masses)) + setup.constants["L_inf"] * phi_inv)
        return out


POLICY = UUCB()
