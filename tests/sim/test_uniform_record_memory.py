"""The uniform policy's recorded actions take T bytes per trial, as ``rsb_theory.workload`` counts them.

``rsb simulate --algo uniform --T 1e9 --trials 1 --record 1`` built ``np.arange(T) % K`` (two int64 arrays of T:
7.45 GiB each) where the estimate had admitted 2 GB: a ``MemoryError`` traceback under a 3 GB limit, 114 s and
the machine's memory without one.
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from proofs_checks import api


def test_uniform_recorded_actions_are_the_cycle():
    res = api.simulate("gini", "uniform", [0.4, 0.9, 0.5], T=1001, trials=2, record=[1, 500])
    assert res.mean_regret >= 0


def test_uniform_record_peak_is_a_few_bytes_per_step():
    T = 10**7
    api.simulate("gini", "uniform", [0.4, 0.9], T=1000, trials=1, record=[1])  # imports and compiles first
    tracemalloc.start()
    try:
        api.simulate("gini", "uniform", [0.4, 0.9], T=T, trials=1, record=[1], max_work=10**15)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * T, peak  # int8 actions and their copy: 2 T; arange(T) % K alone was 16 T


def test_cycle_matches_modulo():
    for K, T in [(2, 7), (3, 10), (200, 1000), (5, 1)]:
        a = (np.arange(T) % K).astype(np.int8)
        b = np.tile(np.arange(K).astype(np.int8), -(-T // K))[:T]
        assert a.dtype == b.dtype and (a == b).all()
