"""Plug-in tracking with forced exploration -- rsb's construction (the tracking rule of ``eq:UCB_sampling_rule``
with the plug-in estimate in place of the paper's optimistic one), not in the paper.

Before the pull of step t (n = t - 1 pulls made, after ``explore`` rounds of round robin, default 1):

1. forced exploration: if an arm has tau_i < ceil(t^x) pulls, pull the lowest arm of the fewest pulls
   (x = :attr:`PluginTrack.force_exponent`, 1/2: every arm is pulled at least about sqrt(t) times by step t);
2. else alpha(F-hat) = argmax_alpha V(alpha; F-hat), the mixture of largest value on the empirical laws
   (``eq:empirical_CDF``), the first point of largest value on the simplex grid of step 1/N
   (:func:`rsb_sim.policies._ts_loop.simplex_grid`, N = 200 for K = 2), and the arm of the tracking rule
   ``eq:UCB_sampling_rule``: the largest deficit n alpha_i - tau_i (lowest arm within the tolerance).

This is the D-tracking of Garivier and Kaufmann (2016, "Optimal best arm identification with fixed confidence":
track the plug-in optimal allocation, forcing sqrt(t) pulls per arm) applied to the mixture objective; the
forced exploration keeps every estimate consistent, so alpha(F-hat) converges to the optimal set where V's maximiser
is continuous in the laws.  Deterministic given the rewards.  The engine runs the compiled loop of
:mod:`rsb_sim.policies._ts_loop` (mode 2, no sampling); the plain reference loop computes the same grid search with
plain loops.  Every h and every arm kind.

The exponent is a class attribute (a subclass with another ``force_exponent`` is another policy object for the
Python API); the command line runs the default 1/2.
"""

from __future__ import annotations

from ._index import IndexPolicy
from rsb_theory.errors import ArgumentError


class PluginTrack(IndexPolicy):
    name = "plugin-track"
    title = "Plug-in tracking"
    family = "competitor"
    rank = 7
    summary = "track the plug-in optimum alpha(F-hat), sqrt(t) forced pulls per arm (rsb's construction)"
    reads = frozenset({"explore"})
    compiled = True
    force_exponent = 0.5

    def constants_of(self, cfg, instance, d, warnings):
        """The exponent of the forced exploration (``Setup.constants['force_exponent']``)."""
        x = float(self.force_exponent)
        if not 0.0 < x < 1.0:
            raise ArgumentError("algo", f"the forced-exploration exponent of {self.name} must be in (0, 1), "
                             f"got {x}")
        return {"constants": {"force_exponent": x}}

    def step_work(self, K: int, levels: int = 2) -> int:
        """The mixture's value at every point of the simplex grid."""
        from rsb_theory.workload import grid_step_work

        return grid_step_work(K, levels)

    @staticmethod
    def levels(instance):
        return [float(v) for v in instance.support]

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        from ._ts_loop import run, simplex_grid

        ext = self.levels(instance)
        return run(setup, d, instance, table, ext=ext, prior=[0.0] * len(ext), sample=False, mode=2,
                   grid=simplex_grid(setup.K), force=setup.constants["force_exponent"],
                   record_actions=record_actions, progress=progress)

    def reference_state(self, setup, table, k):
        from ._ts_loop import simplex_grid

        return simplex_grid(setup.K).tolist()

    def reference_choice(self, setup, d, instance, hists, n, state):
        """The forced arm, else the largest deficit to the grid's best point on the empirical laws (plain loops)."""
        from ._solitary import choose_arm
        from ._ts_loop import forced_arm, reference_values, reference_weights

        pulls = [sum(h) for h in hists]
        arm = forced_arm(pulls, n + 1, setup.constants["force_exponent"])
        if arm is not None:
            return arm
        ext = self.levels(instance)
        weights = reference_weights(hists, [0.0] * len(ext), None)
        return choose_arm(reference_values(d, ext, weights, 2, pulls, n, state))


POLICY = PluginTrack()
