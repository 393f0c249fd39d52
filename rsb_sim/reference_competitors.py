"""Plain per-trial reference loops of the competitors (UCB-FW, U-UCB, CVaR-UCB, B-CVTS): the independent route.

Written for clarity, one trial at a time, from a Python list per arm of how many of its rewards fell
on each level: the empirical survival function is summed level by level with plain loops, U_h of a law is
:func:`rsb_theory.riskmetric.finite_support` of its masses (not the cumulative sums of the policies),
and each index is the formula of its policy module's docstring written out
(:mod:`rsb_sim.policies.ucb_fw`, :mod:`~rsb_sim.policies.u_ucb`, :mod:`~rsb_sim.policies.cvar_ucb`,
:mod:`~rsb_sim.policies.b_cvts`).  The tie rule is :func:`rsb_sim.policies._solitary.choose_arm`; B-CVTS
draws its Gamma variates with NumPy from the streams of :func:`rsb_sim.policies.b_cvts.sampler`, in the
order the policy draws them.  The policies must take identical actions on the same reward table
(``tests/sim/test_competitors.py``).
"""

from __future__ import annotations

import math

import numpy as np

from rsb_theory.distortions import numeric_derivative
from rsb_theory.riskmetric import finite_support

from .policies._solitary import choose_arm
from .policies.b_cvts import sampler
from .rewards import RewardTable, ScalarRewards
from .setup import Setup


def _above(hist: list[int], m: int) -> list[int]:
    """How many rewards lie above level j, for j = 0..m-2, from the count of each level (plain sums)."""
    return [sum(hist[j + 1:]) for j in range(m - 1)]


def _h(d, u: float) -> float:
    return float(d.numeric(np.array([u]))[0])


def ucb_fw_indices(setup: Setup, d, instance, seen: list[list[int]], n: int) -> list[float]:
    """UCB-FW's indices before the pull of step n + 1 (``seen[i][j]``: rewards of arm i on level j)."""
    x = [float(v) for v in instance.support]
    m, K = len(x), len(seen)
    hp = numeric_derivative(d)
    above = [_above(seen[i], m) for i in range(K)]
    out = []
    for i in range(K):
        grad = 0.0
        tau = sum(seen[i])
        for j in range(m - 1):
            s_i = above[i][j] / tau
            if s_i == 0:
                continue
            pooled = sum(above[a][j] for a in range(K)) / n  # the pooled survival: integers divided once
            grad += (x[j + 1] - x[j]) * float(hp(np.array([pooled]))[0]) * s_i
        bonus = setup.radius_c * float(instance.width) * math.sqrt(2.0 * math.log(n) / tau)
        out.append(grad + bonus)
    return out


def u_ucb_index(setup: Setup, d, instance, hist: list[int], n: int) -> float:
    """U-UCB: U_h(F_i) + L b (radius_scale sqrt(2 log n / tau_i))^q."""
    x = [float(v) for v in instance.support]
    tau = sum(hist)
    masses = np.array([c / tau for c in hist])
    radius = setup.radius_c * math.sqrt(2.0 * math.log(n) / tau)
    return float(finite_support(d.numeric, x, masses)) + setup.L_bonus * radius ** setup.q


def cvar_ucb_index(setup: Setup, d, instance, hist: list[int], n: int) -> float:
    """CVaR-UCB: U_h of the DKW-optimistic law (a mass eps moved from the bottom to b)."""
    x = [float(v) for v in instance.support]
    b, tau = float(instance.width), sum(hist)
    eps = setup.radius_c * math.sqrt(math.log(2.0 * n * n) / (2.0 * tau))
    value = x[0]
    for j, a in enumerate(_above(hist, len(x))):
        value += (x[j + 1] - x[j]) * _h(d, min(1.0, a / tau + eps))
    if b > x[-1]:
        value += (b - x[-1]) * _h(d, min(1.0, eps))
    return value


def b_cvts_sample(d, instance, hist: list[int], gen: np.random.Generator) -> float:
    """B-CVTS: U_h of the law with Dirichlet(c_1, ..., c_m, 1) weights on the levels and b."""
    x = [float(v) for v in instance.support] + [float(instance.width)]
    m = len(x) - 1
    weights = []
    for j in range(m):
        c = hist[j]
        weights.append(float(gen.standard_gamma(float(c))) if c > 0 else 0.0)
    weights.append(float(gen.standard_gamma(1.0)))
    total = sum(weights)
    return float(finite_support(d.numeric, x, np.array(weights) / total))


def reference_trial(setup: Setup, d, instance, table: RewardTable, k: int) -> np.ndarray:
    """Actions A_1..A_T (0-based) of trial k of a competitor, by plain loops; shape (T,), int64."""
    K, T = setup.K, setup.T
    if hasattr(instance, "for_trial"):  # continuous arms: this trial's own levels (rsb_sim.arm_laws)
        from .arm_laws import trial_draws

        table, k, instance = instance.for_trial(table, k, trial_draws(setup))
    rew = ScalarRewards(table, k)
    gens = [sampler(table, k, i) for i in range(K)] if setup.algo == "b-cvts" else None
    m = len(instance.support)
    seen: list[list[int]] = [[0] * m for _ in range(K)]  # rewards of arm i on level j
    actions: list[int] = []
    for t in range(1, T + 1):
        n = t - 1
        if t <= setup.explore_steps:
            arm = (t - 1) % K
        elif setup.algo == "ucb-fw":
            arm = choose_arm(ucb_fw_indices(setup, d, instance, seen, n))
        elif setup.algo == "u-ucb":
            arm = choose_arm([u_ucb_index(setup, d, instance, seen[i], n) for i in range(K)])
        elif setup.algo == "cvar-ucb":
            arm = choose_arm([cvar_ucb_index(setup, d, instance, seen[i], n) for i in range(K)])
        else:
            arm = choose_arm([b_cvts_sample(d, instance, seen[i], gens[i]) for i in range(K)])
        seen[arm][rew.next(arm)] += 1
        actions.append(arm)
    return np.array(actions, dtype=np.int64)
