"""CE-UCB-M (``algorithm:UCB-M``), vectorised across trials.

Mixture estimate of ``eq:UCB_alpha2``: UCB_t(a) = h(<a, phat>) + L sum_i
(a_i radius_i)^q with q, L from :func:`rsb_theory.holder.holder` (not typed
in) and the radius of ``eq:UCB_confidence_sets`` times ``radius_scale``.
The loop is :func:`rsb_sim.policies._ucb.run`.

With q = 1 (Gini, mean-median, inter-ES, CVaR, dual power, ...) the objective
is h(<a, phat>) + <a, c> with c = L radius, and for concave h the whole
time loop (rewards, counts, estimates, exact decision, next arm) is compiled
(:mod:`rsb_sim.policies._ce_compiled`, :mod:`rsb_sim.policies._ce_loop`) unless
``SimConfig.compiled`` is False; otherwise the decisions come from
:class:`rsb_sim.search.Searcher`.  Same decisions either way (tests run both
routes).

Finite-support arms on [0, b]: UCB_t(a) = U_h(sum_i a_i F_i,t) +
L_bonus sum_i (a_i radius_i)^q (:func:`rsb_theory.argmax.ce_ucb_objective_finite`)
on the empirical laws of ``eq:empirical_CDF`` (per-support-point counts),
with the same radius and L_bonus = L b^(1-q), the W1-Hölder constant of U_h on
laws on [0, b] (:class:`rsb_sim.setup.Setup`); L_bonus = L for Bernoulli arms.
"""

from __future__ import annotations

from .base import Policy


class CEUCBM(Policy):
    name = "ce-ucb-m"
    title = "CE-UCB-M"
    color = "tab:green"
    family = "paper"
    rank = 3
    summary = "algorithm:UCB-M"
    reads = frozenset({"eps", "rho", "radius_scale", "explore", "threads", "quantize"})
    state = "ucb"
    grid = "ucb"
    theorem = "theorem:UCB upper bound"
    proof = "Appendix:CE-UCB-M_algorithm"
    compiled = True
    constants = (("radius_c", "radius_scale * 16 (sqrt(2 e log T) + 32): the W1 radius of eq:UCB_confidence_sets "
                              "is radius_c / sqrt(tau)"),
                 ("q", "the Hölder exponent of h (assumption:Holder)"),
                 ("L_bonus", "L_H of the bonus of eq:UCB_alpha2, the W1-Hölder constant of U_h (L on [0, 1], "
                             "L b^(1-q) on [0, b])"))

    def prepare(self, cfg, instance, d, eps):
        from ..setup import ucb_setup

        return ucb_setup(cfg, instance, d, self.name, eps, True, "; the exploration bonus dominates the estimate")

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        return simulate(setup, d, instance, table, record_actions, progress)

    def threads_used(self, setup, d, instance, trials):
        from ._driver import thread_count

        return thread_count(setup, trials) if runs_compiled_loop(setup, d, instance) else 1

    def reference_values(self, setup, d, instance, points, hist):
        """``eq:UCB_alpha2`` at every grid point: V(a) + L_bonus sum_i (a_i radius_i)^q."""
        import numpy as np

        from ..reference import empirical_values

        radius = setup.radius(hist.sum(axis=1).astype(float))
        return empirical_values(d, instance, points, hist) + setup.L_bonus * np.sum((points * radius) ** setup.q,
                                                                                   axis=1)

    def reference_trial(self, setup, d, instance, table, k, decisions=None):
        from ..reference import tracking_trial

        return tracking_trial(self, setup, d, instance, table, k, decisions)


POLICY = CEUCBM()

#: Largest grid for the compiled path.  Its pruning bounds g beyond the sampled line by secant
#: extensions, which are loose when the optimum sits at a hull vertex with a steep bonus (the
#: paper's radius with unequal counts): then it visits most of the grid.  Measured at the paper's
#: K = 6, T = 3e5 grid (7.6e6 points, 1000 trials, benchmarks/bench_argmax.py instances): 21.8 s per
#: batched call against 0.4-0.6 s for the branch and bound; on grids of up to 2e5 points the worst
#: case stays a few milliseconds per trial.  Larger grids use the NumPy searcher.
COMPILED_MAX_GRID = 200_000


def compiled_applies(setup, d, instance, max_grid: int = COMPILED_MAX_GRID) -> bool:
    """True when the compiled loop (:mod:`rsb_sim.policies._ce_loop`) applies: ``setup.compiled``,
    Bernoulli arms, q = 1, a grid of at most ``max_grid`` points and a concave h that numba compiles."""
    from rsb_theory.argmax import edge_lines

    return (setup.compiled and instance.kind == "bernoulli" and setup.q == 1.0
            and setup.grid.size <= max_grid and edge_lines.available(d))


def runs_compiled_loop(setup, d, instance) -> bool:
    """True when :func:`simulate` goes through the compiled loop (it applies and there is a tracking phase)."""
    return compiled_applies(setup, d, instance) and setup.explore_steps < setup.T


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
    """The vectorised run (module docstring): the compiled loops where they apply, else the NumPy searcher."""
    import numpy as np

    from rsb_theory import argmax as am

    from . import _ce_compiled, _ce_levels, _ucb

    if runs_compiled_loop(setup, d, instance):
        return _ce_compiled.run(setup, d, instance, table, record_actions=record_actions, progress=progress)
    if _ce_levels.applies(setup, d, instance):
        return _ce_levels.run(setup, d, instance, table, record_actions=record_actions, progress=progress)
    if instance.kind != "bernoulli":
        support = np.asarray(instance.support, dtype=float)

        def make(probs, radius):
            return am.ce_ucb_objective_finite(d, support, probs, radius, setup.q, setup.L_bonus)
    else:
        def make(phat, radius):
            return am.ce_ucb_objective(d, phat, radius, setup.q, setup.L_bonus, validate=False)

    return _ucb.run(setup, d, instance, table, make, use_upper_bound=False, bonus=True,
                    record_actions=record_actions, progress=progress)
