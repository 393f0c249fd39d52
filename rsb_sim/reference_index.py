"""The plain per-trial reference loop of every index policy: the independent route of the engine's time loop.

One loop for all of them (the baselines, the competitors, the Thompson sampler and a user's :class:`~rsb_sim.policies.base.
IndexRule` or :class:`~rsb_sim.policies.base.TargetRule`): one trial at a time, a Python list per arm of how many
of its rewards fell on each level, the round robin of ``explore`` pulls per arm written out, then at every step
the policy's own :meth:`~rsb_sim.policies.base.IndexPolicy.reference_choice` -- the largest of its
``reference_index`` (each index the formula of its module's docstring written out with plain loops, not the
cumulative sums of the vectorised ``vector_index``) under the tie rule
:func:`rsb_sim.policies._solitary.choose_arm`.  The engine must take identical actions on the same reward table
(``tests/sim/test_baselines.py``, ``tests/sim/test_competitors.py``).
"""

from __future__ import annotations

import numpy as np

from .rewards import RewardTable, ScalarRewards


def reference_trial(policy, setup, d, instance, table: RewardTable, k: int) -> np.ndarray:
    """Actions A_1..A_T (0-based) of trial k of an index policy, by plain loops; shape (T,), int64."""
    K, T = setup.K, setup.T
    if hasattr(instance, "for_trial"):  # continuous arms: this trial's own levels (rsb_sim.arm_laws)
        from .arm_laws import trial_draws

        table, k, instance = instance.for_trial(table, k, trial_draws(setup))
    rew = ScalarRewards(table, k)
    state = policy.reference_state(setup, table, k)
    m = len(instance.support)
    hists: list[list[int]] = [[0] * m for _ in range(K)]  # rewards of arm i on level j
    actions: list[int] = []
    for t in range(1, T + 1):
        if t <= setup.explore_steps:
            arm = (t - 1) % K
        else:
            arm = policy.reference_choice(setup, d, instance, hists, t - 1, state)
        hists[arm][rew.next(arm)] += 1
        actions.append(arm)
    return np.array(actions, dtype=np.int64)
