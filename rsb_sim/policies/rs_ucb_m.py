"""RS-UCB-M (``algorithm:B-UCB-M``) for Bernoulli arms and concave h, vectorised across trials.

The optimistic mixture of ``eq:UCB_alpha`` over the W1 balls of
``eq:UCB_confidence_sets`` (radius radius_scale * 16 (sqrt(2 e log T) + 32) /
sqrt(tau_i)) reduces, for concave h and laws on [0, 1], to the max of h over
the interval of mixture means [<a, lo>, <a, hi>] with lo/hi = phat -/+ radius
clipped to [0, 1] (:func:`rsb_theory.argmax.rs_ucb_objective`, proof there).
The loop is :func:`rsb_sim.policies._ucb.run`.

Two exact shortcuts:

* if the current mixture's interval of means contains a maximiser x* of h, its
  value is max h, which no grid point exceeds: it is kept (no search);
* if radius >= 1 for every arm at every t (radius_c / sqrt(T - (K-1) n0) >= 1),
  every interval is [0, 1], every grid value is max h and the first mixture
  (the first grid point) is kept for ever: the run does not depend on the
  rewards, and one trial is simulated and broadcast.

The time loop runs compiled (:mod:`rsb_sim.policies._rs_compiled`, :mod:`rsb_sim.policies._rs_loop`)
unless ``SimConfig.compiled`` is False or numba cannot compile h; otherwise the NumPy loop of
:func:`rsb_sim.policies._ucb.run` with :class:`rsb_sim.search.Searcher`.  Same decisions either way
(tests run both routes).
"""

from __future__ import annotations

from .base import Policy
from rsb_theory.errors import ArgumentError


class RSUCBM(Policy):
    name = "rs-ucb-m"
    title = "RS-UCB-M"
    color = "tab:blue"
    family = "paper"
    rank = 2
    summary = "algorithm:B-UCB-M; Bernoulli arms, concave h"
    reads = frozenset({"eps", "rho", "radius_scale", "explore"})
    arms = ("bernoulli",)
    arms_words = "Bernoulli arms"
    arms_why = "the Jensen reduction of eq:UCB_alpha to an interval of means is exact only there"
    state = "ucb"
    grid = "ucb"
    theorem = "theorem:UCB upper bound"
    proof = "proof:UCB upper bound"
    corollary = "corollary:RS-UCB-M"
    compiled = True
    constants = (("radius_c", "radius_scale * 16 (sqrt(2 e log T) + 32): the W1 radius of eq:UCB_confidence_sets "
                              "is radius_c / sqrt(tau)"),
                 ("u_star", "a maximiser of h on [0, 1]"))

    def prepare(self, cfg, instance, d, eps):
        from ..setup import ucb_setup

        if not d.shape.is_concave:
            raise ArgumentError("dr", "rs-ucb-m needs a concave h (Jensen reduction of eq:UCB_alpha); "
                             f"{d.describe()} is not concave")
        return ucb_setup(cfg, instance, d, self.name, eps, False,
                         "; the optimistic value is the same for every mixture and the first mixture is kept")

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        return simulate(setup, d, instance, table, record_actions, progress)

    def reference_values(self, setup, d, instance, points, hist):
        """``eq:UCB_alpha`` for Bernoulli arms and concave h at every grid point: the max of h over the interval of
        mixture means [<a, lo>, <a, hi>], lo/hi = phat -/+ radius clipped to [0, 1], i.e.
        h(clip(u_star, <a, lo>, <a, hi>))."""
        import numpy as np

        tau = hist.sum(axis=1).astype(float)
        phat = hist[:, 1] / tau
        radius = setup.radius(tau)
        lo = np.maximum(phat - radius, 0.0)
        hi = np.minimum(phat + radius, 1.0)
        return np.asarray(d.numeric(np.clip(setup.u_star, points @ lo, points @ hi)), dtype=float)

    def reference_trial(self, setup, d, instance, table, k, decisions=None):
        from ..reference import tracking_trial

        return tracking_trial(self, setup, d, instance, table, k, decisions)


POLICY = RSUCBM()


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    """The vectorised run (module docstring)."""
    import numpy as np

    from rsb_theory import argmax as am

    from . import _rs_compiled, _ucb

    def make(phat, radius):
        return am.rs_ucb_objective(d, phat, radius, validate=False)

    xs = float(am.etc_objective(d, np.full((1, setup.K), 0.5)).xs_lo)

    def quick_keep(phat, radius, a):
        lo = np.clip(phat - radius, 0.0, 1.0)
        hi = np.clip(phat + radius, 0.0, 1.0)
        return ((a * lo).sum(axis=1) <= xs) & ((a * hi).sum(axis=1) >= xs)

    max_tau = setup.T - (setup.K - 1) * setup.n0
    # radius_c * radius_c, not ** 2: the same bits, and inf (not OverflowError) for a huge --radius-scale
    data_free = setup.explore_steps < setup.T and setup.radius_c * setup.radius_c >= max_tau
    if not data_free and setup.compiled and _rs_compiled.applies(setup, d, instance):
        return _rs_compiled.run(setup, d, instance, table, record_actions=record_actions, progress=progress)
    return _ucb.run(setup, d, instance, table, make, use_upper_bound=True, bonus=False,
                    record_actions=record_actions, progress=progress, quick_keep=quick_keep,
                    data_free=data_free)
