"""RS-ETC-M's exact rules, shared by the checks of its proof: the ETC grid of ``eq:etc_discrete_set`` and the final
counts of the commit rule ``eq: ETC_samp`` (exact rationals and integers)."""

from __future__ import annotations

import math
from fractions import Fraction


def etc_grid(K: int, eps: Fraction) -> list[tuple[Fraction, ...]]:
    """Points eps*n of ``eq:etc_discrete_set``, first K-1 coordinates on the grid, last = 1 - sum (exact)."""
    m = math.floor(1 / eps)
    out = []

    def rec(prefix, left):
        if len(prefix) == K - 1:
            head = [eps * k for k in prefix]
            out.append(tuple(head + [1 - sum(head)]))
            return
        for k in range(left + 1):
            rec(prefix + [k], left - k)

    rec([], m)
    return out


def commit_counts(a, T: int, n0: int) -> list[int]:
    """Final counts tau_T of RS-ETC-M for commit target ``a`` (``eq: ETC_samp``), exact integers."""
    K = len(a)
    if K * n0 >= T:
        steps = T
        return [steps // K + (i < steps % K) for i in range(K)]
    tau = [n0] * K
    used = K * n0
    for i in range(K - 1):
        target = math.floor(T * Fraction(a[i]))
        if target > n0:
            extra = min(target - n0, T - used)
            tau[i] += extra
            used += extra
    tau[K - 1] += T - used
    return tau
