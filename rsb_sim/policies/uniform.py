"""Uniform sampling (``sec: experiments``): arm (t-1) mod K at step t, i.e. about T/K pulls per arm."""

from __future__ import annotations

from .base import Policy


class Uniform(Policy):
    name = "uniform"
    title = "Uniform"
    color = "tab:gray"
    family = "paper"
    rank = 4
    summary = "arm (t-1) mod K at step t"
    reads = frozenset()
    reads_rewards = False
    reads_h = False

    def prepare(self, cfg, instance, d, eps):
        from ..setup import plain_setup

        return plain_setup(cfg, instance, self.name, eps)

    def simulate(self, setup, d, instance, table, record_actions: bool = False, progress=None):
        """Counts (and actions) of the uniform policy; no reward is needed (the schedule is fixed)."""
        import numpy as np

        from ..rules import round_robin_counts
        from . import PolicyRun

        B, K, T = table.trials, setup.K, setup.T
        counts = np.broadcast_to(round_robin_counts(T, K), (B, K)).copy()
        actions = None
        if record_actions:
            # the cycle 0..K-1 repeated in int8 (T bytes, as rsb_theory.workload counts): arange(T) % K held two
            # int64 arrays of T (T = 1e9: 7.45 GiB each, above the memory budget the estimate had admitted)
            actions = np.broadcast_to(np.tile(np.arange(K).astype(np.int8), -(-T // K))[:T], (B, T)).copy()
        return PolicyRun(counts, actions, {})

    def reference_trial(self, setup, d, instance, table, k, decisions=None):
        """A_t = (t - 1) mod K, written out."""
        import numpy as np

        return np.array([(t - 1) % setup.K for t in range(1, setup.T + 1)], dtype=np.int64)


POLICY = Uniform()
