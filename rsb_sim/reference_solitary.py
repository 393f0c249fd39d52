"""Plain per-trial reference loops of the solitary baselines (UCB1, DR-UCB): the independent route.

Written for clarity, one trial at a time, with Python lists of rewards: the mean of UCB1 is a
plain sum of the rewards; U_h of DR-UCB is :func:`rsb_theory.riskmetric.finite_support` of the
empirical masses (not the cumulative sums of :mod:`rsb_sim.policies.dr_ucb`).  The radius and the
tie rule are the definitions (:func:`rsb_sim.rules.confidence_radius`,
:func:`rsb_sim.policies._solitary.choose_arm`), called as they are.  The vectorised policies must
take identical actions on the same reward table (``tests/sim/test_baselines.py``).
"""

from __future__ import annotations

import math

import numpy as np

from rsb_theory.riskmetric import finite_support

from .policies._solitary import choose_arm
from .rewards import RewardTable, ScalarRewards
from .rules import confidence_radius
from .setup import Setup


def arm_index(setup: Setup, d, instance, outcomes: list[int], t: int) -> float:
    """The index of one arm from the outcome indices of its pulls, before the pull of step t."""
    support = [float(x) for x in instance.support]
    n = len(outcomes)
    if setup.algo == "ucb1":
        mean = sum(support[j] for j in outcomes) / n
        return mean + float(instance.width) * math.sqrt(2.0 * math.log(t - 1) / n)
    masses = np.bincount(np.asarray(outcomes, dtype=np.int64), minlength=len(support)) / n
    value = float(finite_support(d.numeric, support, masses))
    return value + setup.L_bonus * float(confidence_radius(setup.radius_c, float(n))) ** setup.q


def reference_trial(setup: Setup, d, instance, table: RewardTable, k: int) -> np.ndarray:
    """Actions A_1..A_T (0-based) of trial k of a baseline, by plain loops; shape (T,), int64."""
    K, T = setup.K, setup.T
    if hasattr(instance, "for_trial"):  # continuous arms: this trial's own levels (rsb_sim.arm_laws)
        from .arm_laws import trial_draws

        table, k, instance = instance.for_trial(table, k, trial_draws(setup))
    rew = ScalarRewards(table, k)
    seen: list[list[int]] = [[] for _ in range(K)]
    actions: list[int] = []
    for t in range(1, T + 1):
        if t <= setup.explore_steps:
            arm = (t - 1) % K
        else:
            arm = choose_arm([arm_index(setup, d, instance, seen[i], t) for i in range(K)])
        seen[arm].append(rew.next(arm))
        actions.append(arm)
    return np.array(actions, dtype=np.int64)
