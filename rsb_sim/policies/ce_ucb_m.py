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

import numpy as np

from rsb_theory import argmax as am
from rsb_theory.argmax import edge_lines

from . import _ce_compiled, _ce_levels, _ucb

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
    return (setup.compiled and instance.kind == "bernoulli" and setup.q == 1.0
            and setup.grid.size <= max_grid and edge_lines.available(d))


def runs_compiled_loop(setup, d, instance) -> bool:
    """True when :func:`simulate` goes through the compiled loop (it applies and there is a tracking phase)."""
    return compiled_applies(setup, d, instance) and setup.explore_steps < setup.T


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None):
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
