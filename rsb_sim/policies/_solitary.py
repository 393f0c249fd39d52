"""The loop shared by the solitary baselines (UCB1, DR-UCB): pull the arm with the largest index.

Not in the paper: these are the single-arm algorithms that the mixture algorithms are compared
with (``rsb reproduce mixture-vs-solitary``).  Each converges to *one* arm, so on an instance
whose optimal mixture alpha* (``eq:optimal alpha``) is not a vertex of the simplex its regret
(``eq:regret``) stays at least V(alpha*) - max_i U_h(F_i).

1. Round-robin exploration: n0 pulls per arm in arm order 0..K-1 (``explore``, default 1).
2. For t = K n0 + 1, ..., T: pull A_t = argmax_i index_i(t) over the arms, the lowest arm among
   those within :data:`INDEX_TOL` of the largest index (the tie rule the reference loop applies,
   :func:`choose_arm`).

The state is the exact sufficient statistic of each arm's empirical law ``eq:empirical_CDF``:
counts of each support point, shape (trials, K, m) (m = 2 for Bernoulli arms); the only Python
loop is over time.
"""

from __future__ import annotations

import numpy as np

from ..rewards import VectorRewards
from ..rules import TRACK_TOL
from . import PolicyRun, round_robin_start

#: Indices within this of the largest count as tied (floating-point sums of different routes
#: may differ in the last bits); the lowest arm among them is pulled.
INDEX_TOL = TRACK_TOL


def choose_arm(values) -> int:
    """The arm with the largest index, lowest arm among those within :data:`INDEX_TOL` (one trial).

    Plain Python (the reference loop calls it); :func:`choose` is the same rule across trials.
    """
    top = max(values)
    for i, v in enumerate(values):
        if v >= top - INDEX_TOL:
            return i
    return 0  # unreachable


def choose(values: np.ndarray) -> np.ndarray:
    """:func:`choose_arm` for every row of ``values`` (trials, K)."""
    top = values.max(axis=1, keepdims=True)
    return np.argmax(values >= top - INDEX_TOL, axis=1)


def run(setup, instance, table, index, record_actions: bool = False, progress=None) -> PolicyRun:
    """Simulate an index policy for every trial of ``table``.

    Parameters
    ----------
    index : callable(counts (B, K, m) float, tau (B, K) float, t int) -> (B, K) float
        The index of every arm before the pull of step t (t - 1 pulls done).
    """
    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    actions, finished = round_robin_start(setup, B, record_actions)
    if finished is not None:
        return finished
    rew = VectorRewards(table, block=setup.block)
    counts_m = rew.take(np.full(K, n0)).astype(float)
    tau = np.full((B, K), float(n0))
    rows = np.arange(B)
    t0 = K * n0 + 1
    bar = progress(total=T - t0 + 1) if progress is not None else None
    for t in range(t0, T + 1):
        arm = choose(index(counts_m, tau, t))
        out = rew.next(arm)
        tau[rows, arm] += 1
        counts_m[rows, arm, out] += 1
        if actions is not None:
            actions[:, t - 1] = arm
        if bar is not None and (t - t0) % 1000 == 999:
            bar.update(1000)
    if bar is not None:
        bar.close()
    return PolicyRun(tau.astype(np.int64), actions, {})
