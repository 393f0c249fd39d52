"""Uniform sampling (``sec: experiments``): arm (t-1) mod K at step t, i.e. about T/K pulls per arm."""

from __future__ import annotations

import numpy as np

from ..rules import round_robin_counts
from . import PolicyRun


def simulate(setup, d, instance, table, record_actions: bool = False, progress=None) -> PolicyRun:
    """Counts (and actions) of the uniform policy; no reward is needed (the schedule is fixed)."""
    B, K, T = table.trials, setup.K, setup.T
    counts = np.broadcast_to(round_robin_counts(T, K), (B, K)).copy()
    actions = None
    if record_actions:
        actions = np.broadcast_to((np.arange(T) % K).astype(np.int8), (B, T)).copy()
    return PolicyRun(counts, actions, {})
