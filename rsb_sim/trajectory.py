"""Regret over time within one run, and the confidence interval of a mean regret.

The regret at step t of a run of horizon T is V(alpha*) - V(tau_t / t) (``eq:regret`` read at t:
tau_t are the pull counts after t pulls), per trial; a trajectory is its mean over trials with a
95 % Student-t interval at a few recorded steps t_1 < ... < t_n = T.  The counts tau_t are read off
the policy's actions, so every policy (baselines included) is recorded by the same code and its
decisions are not touched: the run is the same run, its last point is ``mean_regret`` exactly.

Actions are recorded in chunks of trials (:data:`CHUNK_CELLS` int8 cells each): a trial's actions
depend on its own rewards only (local trial k of a chunk is trial ``first + lo + k`` of the reward
table), so chunks change no result.
"""

from __future__ import annotations

import math

import numpy as np
from rsb_theory.errors import ArgumentError

#: The level of every confidence interval of a mean regret.
CI_LEVEL = 0.95
#: Trials x T action cells recorded at once (int8: 16 MiB).
CHUNK_CELLS = 1 << 24


def check_record(record, T: int) -> tuple[int, ...]:
    """The recorded steps, increasing, with T last (ValueError naming ``record``)."""
    try:
        steps = sorted({int(t) for t in record})
    except (TypeError, ValueError):
        raise ArgumentError("record", f"expected steps (integers), got {record!r}") from None
    if any(isinstance(t, bool) or t != int(t) for t in record):
        raise ArgumentError("record", f"expected integer steps, got {record!r}")
    bad = [t for t in steps if not 1 <= t <= T]
    if bad:
        raise ArgumentError("record", f"step {bad[0]} is outside 1..T = 1..{T}")
    if not steps or steps[-1] != T:
        steps.append(int(T))
    return tuple(steps)


def mean_ci(regrets, level: float = CI_LEVEL) -> tuple[float | None, float | None]:
    """Student-t interval of the mean of ``regrets`` at ``level``; (None, None) for one trial."""
    x = np.asarray(regrets, dtype=float)
    n = x.size
    if n < 2:
        return None, None
    from scipy.stats import t as student

    m = float(x.mean())
    half = float(student.ppf(0.5 + level / 2.0, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
    return m - half, m + half


def counts_at(actions: np.ndarray, K: int, steps: tuple[int, ...]) -> np.ndarray:
    """Pull counts tau_t after t pulls for every recorded t: shape (len(steps), trials, K), int64."""
    B = actions.shape[0]
    out = np.zeros((len(steps), B, K), dtype=np.int64)
    run = np.zeros((B, K), dtype=np.int64)
    lo = 0
    for j, t in enumerate(steps):
        seg = actions[:, lo:t]
        for i in range(K):
            run[:, i] += (seg == i).sum(axis=1)
        out[j] = run
        lo = t
    return out


def run_recorded(policy, setup, d, instance, table, steps: tuple[int, ...], progress=None,
                 chunk_cells: int = CHUNK_CELLS):
    """Run ``policy`` on ``table`` in chunks of trials with its actions; (PolicyRun, counts at ``steps``).

    The returned PolicyRun has the final counts and the summed counters, and no actions.
    ``chunk_cells``: trials x T action cells per chunk (changes no result; a parameter, not a switch).
    """
    from .policies import PolicyRun
    from .rewards import RewardTable

    T, K, B = setup.T, setup.K, table.trials
    size = max(1, int(chunk_cells) // T)
    finals, at, stats = [], [], {}
    for lo in range(0, B, size):
        part = RewardTable(table.entropy, min(size, B - lo), instance, table.first + lo, table.stream)
        pr = policy(setup, d, instance, part, record_actions=True, progress=progress)
        finals.append(pr.counts)
        at.append(counts_at(pr.actions, K, steps))
        for name, v in pr.stats.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and name in stats:
                stats[name] += v
            else:
                stats.setdefault(name, v)
    return PolicyRun(np.concatenate(finals), None, stats), np.concatenate(at, axis=1)


def regrets_at(counts: np.ndarray, steps: tuple[int, ...], instance, d, v_star: float) -> np.ndarray:
    """V* - V(tau_t / t) per recorded step and trial: shape (len(steps), trials)."""
    return np.stack([v_star - instance.value(d, counts[j] / float(t)) for j, t in enumerate(steps)]) \
        if steps else np.zeros((0, counts.shape[1]))


def trajectory_points(regrets: np.ndarray, steps: tuple[int, ...]) -> tuple[dict, ...]:
    """``[{"t", "mean_regret", "ci_low", "ci_high"}]`` from per-trial regrets at ``steps`` (:func:`regrets_at`).

    A chunked sweep merges the per-trial values of its chunks and calls this once, so its
    trajectory is the one big run's, bit for bit.
    """
    out = []
    for j, t in enumerate(steps):
        reg = np.asarray(regrets[j], dtype=float)
        lo, hi = mean_ci(reg)
        out.append({"t": int(t), "mean_regret": float(reg.mean()), "ci_low": lo, "ci_high": hi})
    return tuple(out)


def points(counts: np.ndarray, steps: tuple[int, ...], instance, d, v_star: float) -> tuple[dict, ...]:
    """``[{"t", "mean_regret", "ci_low", "ci_high"}]``: V* - V(tau_t / t) per trial, mean and interval."""
    return trajectory_points(regrets_at(counts, steps, instance, d, v_star), steps)


def spread_text(mean: float, stderr: float, trials: int, digits: int = 4) -> str:
    """``"0.01234 +- 0.0021"``, or ``"0.0005973 (all 20 trials identical)"`` when the trials do not differ.

    A zero spread over several trials is not an error bar of 0: every trial ended with the same
    counts (the same tau_T / T), which a reader should be told in words.
    """
    if trials > 1 and stderr == 0:
        return f"{mean:.{digits}g} (all {trials} trials identical)"
    return f"{mean:.{digits}g} +- {stderr:.2g}"
