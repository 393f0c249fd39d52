"""UCB-FW: Upper-Confidence Frank-Wolfe (Berthet and Perchet, NeurIPS 2017, arXiv 1702.06917), a mixture competitor.

Bandit optimisation: the learner's loss is a function of the proportions of pulls p_t = tau_t / t,
here -V(p) with V(alpha) = U_h(sum_i alpha_i F_i) (``eq:V``), so that the regret ``eq:regret`` is
exactly the bandit-optimisation regret of that paper.  Algorithm 1 (UCB Frank-Wolfe) of the paper,
written for maximisation: after each arm is pulled once (``explore`` rounds of round robin, default 1),
before the pull of step t (n = t - 1 pulls made) pull

    A_t = argmax_i  dV_i(p_n) + L_grad * (radius_scale * sqrt(2 log n / tau_i))^q,

the estimated partial derivative of V at the current proportions plus Algorithm 1's bonus
sqrt(2 log(t) / T_i(t)) in the objective's units.  Algorithm 1's bonus is a confidence width on the gradient
coordinate itself; here the gradient coordinate dV_i = int h'(S_p(x)) S_i(x) dx is estimated through S_i, whose
sup-norm confidence width is the DKW-type r = sqrt(2 log n / tau_i), and |dV_i(S_i) - dV_i(S'_i)| <=
sup|h'| b ||S_i - S'_i||_inf: so the width of dV_i is L_grad r with L_grad = sup|h'| b, derived by rsb
(:func:`rsb_theory.holder.holder`: sup |h'| on [0, 1] is the Hölder constant L_H at exponent q = 1; b the width of
the rewards' support, 1 for Bernoulli arms).  Without that factor the bonus is in the units of a mean, not of the
gradient: on CVaR(1/2) (h' = 2 where it is not 0) UCB-FW at radius_scale 2 took exactly UCB1's actions.  Where h'
is unbounded (q < 1, e.g. pht) the width is rsb's choice L_H b r^q, the sup-norm stability of U_h itself
(as for U-UCB).  ``radius_scale``, default 1, is the named override (``Setup.constants['bonus_scale']``;
``Setup.constants['L_grad']`` holds L_grad).  The Frank-Wolfe step p_{n+1} = p_n + (e_A - p_n)/(n+1)
is the pull itself.

The partial derivative of V(alpha) = int_0^b h(sum_i alpha_i S_i(x)) dx at alpha = p_n is

    dV_i = int h'(S_p(x)) S_i(x) dx = sum_j (x_{j+1} - x_j) h'(S_{p,j}) S_{i,j}

on the levels x_1 < ... < x_m of the empirical laws (``eq:empirical_CDF``), with S_{i,j} the empirical
P(X_i > x_j) and S_{p,j} = sum_i p_i S_{i,j} the *pooled* empirical survival function (rewards above x_j
over all arms, divided by n: exact integers divided once, so both routes compute the same float); for
Bernoulli arms dV_i = h'(<p, phat>) phat_i.  The term of [0, x_1), h'(1) x_1, is common to every arm and
left out (it changes no argmax).  Where h has a kink (CVaR, mean-median, inter-ES) h' is SymPy's derivative
evaluated there, the mean of the one-sided derivatives (Heaviside(0) = 1/2): a supergradient of a concave
h (:meth:`UCBFW.constants_of` says so in words, with the smoothness the paper's rates need).  Where
S_{i,j} = 0 the term is 0 (h'(0) may be infinite, pht and right-tail).  Ties: the lowest arm within
:data:`rsb_sim.policies._solitary.INDEX_TOL`.  The loop is :func:`rsb_sim.policies._solitary.run`.
"""

from __future__ import annotations

import math

from ._index import IndexPolicy
from rsb_theory.errors import ArgumentError


class UCBFW(IndexPolicy):
    name = "ucb-fw"
    title = "UCB-FW"
    family = "competitor"
    rank = 1
    summary = "Upper-Confidence Frank-Wolfe, Berthet and Perchet 2017"
    reads = frozenset({"radius_scale", "explore"})
    state = "ucb"
    constants = (("bonus_scale", "radius_scale, the factor on the radius sqrt(2 log n / tau_i) of Algorithm 1's bonus"),
                 ("L_grad", "sup|h'| b, the Lipschitz constant of the gradient coordinate in S_i (L_H b where q < 1)"),
                 ("q", "the Hölder exponent of h (assumption:Holder): 1 unless h' is unbounded"))

    def constants_of(self, cfg, instance, d, warnings):
        """The scale of the bonus; notes in words when h is not concave (V is then not concave and Frank-Wolfe is
        a local rule) or not smooth (a kink: the derivative there is a supergradient, and the fast rates of
        Berthet and Perchet, which assume a smooth objective, do not apply)."""
        from rsb_theory.distortions import breakpoints

        kinks = [float(x) for x in breakpoints(d.expr)]
        if not d.shape.is_concave:
            warnings.append(f"UCB-FW: h = {d.describe()} is not concave, so V(alpha) is not concave in alpha: "
                            f"Frank-Wolfe's step toward the largest partial derivative is a local rule, and the "
                            f"guarantees of Berthet and Perchet (2017) do not apply")
        if kinks:
            warnings.append(f"UCB-FW: h = {d.describe()} has a kink at u = {', '.join(f'{x:g}' for x in kinks)}: V "
                            f"is not smooth there, the derivative used at a kink is a supergradient (the mean of the "
                            f"one-sided derivatives), and the fast rates of Berthet and Perchet (2017, smooth "
                            f"objective) do not apply")
        from rsb_theory.holder import holder

        hr = holder(d)
        q, L = float(hr.q), float(hr.L_H)
        if not (hr.attained and math.isfinite(L)):
            raise ArgumentError("dr", f"h has no finite Hölder constant at exponent q = {hr.q}; "
                             f"ucb-fw needs one for the width of its gradient estimate")
        return {"q": q, "L": L, "constants": {"bonus_scale": float(cfg.radius_scale),
                                              "L_grad": L * float(instance.width)}}

    def vector_index(self, setup, d, instance):
        import numpy as np

        from rsb_theory.distortions import numeric_derivative

        support = np.asarray(instance.support, dtype=float)
        widths = np.diff(support)
        hp = numeric_derivative(d)
        scale, L_grad, q = setup.constants["bonus_scale"], setup.constants["L_grad"], setup.q

        def index(counts_m, tau, t):
            n = t - 1
            above = np.cumsum(counts_m[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]  # rewards above x_j, per arm
            pooled = above.sum(axis=1) / n  # S_p on the levels, (B, m - 1)
            surv = above / tau[:, :, None]
            slope = np.asarray(hp(pooled), dtype=float)[:, None, :]
            with np.errstate(invalid="ignore"):
                terms = np.where(surv > 0, slope * surv, 0.0)
            return terms @ widths + L_grad * (scale * np.sqrt(2.0 * math.log(n) / tau)) ** q

        return index

    def reference_index(self, setup, d, instance, hists, n, state):
        """The partial derivatives summed level by level with plain loops, the pooled survival of integers
        divided once, plus the bonus L_grad (radius_scale sqrt(2 log n / tau_i))^q."""
        import numpy as np

        from rsb_theory.distortions import numeric_derivative

        x = [float(v) for v in instance.support]
        m, K = len(x), len(hists)
        hp = numeric_derivative(d)
        above = [[sum(hists[i][j + 1:]) for j in range(m - 1)] for i in range(K)]
        out = []
        for i in range(K):
            grad = 0.0
            tau = sum(hists[i])
            for j in range(m - 1):
                s_i = above[i][j] / tau
                if s_i == 0:
                    continue
                pooled = sum(above[a][j] for a in range(K)) / n  # the pooled survival: integers divided once
                grad += (x[j + 1] - x[j]) * float(hp(np.array([pooled]))[0]) * s_i
            radius = setup.constants["bonus_scale"] * math.sqrt(2.0 * math.log(n) / tau)
            bonus = setup.constants["L_grad"] * radius ** setup.q
            out.append(grad + bonus)
        return out


POLICY = UCBFW()
