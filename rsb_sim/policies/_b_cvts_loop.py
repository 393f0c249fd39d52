"""B-CVTS's compiled loop (:mod:`rsb_sim.policies.b_cvts` declares the policy and its reference index).

The sampler of arm i in trial k is the PCG64 stream of ``SeedSequence(entropy, spawn_key=stream + (first + k,
i, 0))`` (:func:`sampler`); the compiled loop draws, at each step, arm by arm, the Gamma variates of the levels
in increasing order (levels with no reward skipped), then the atom at b, with numba's ``numpy.random.Generator``
on those streams (its Gamma sampler is NumPy's, bit for bit: tested).
"""

from __future__ import annotations

import numpy as np

from . import PolicyRun
from ._solitary import INDEX_TOL

_COMPILED: dict = {}


def sampler(table, k: int, i: int) -> np.random.Generator:
    """The sampler stream of arm i in local trial k of ``table`` (module docstring)."""
    key = table.stream + (table.first + int(k), int(i), 0)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(table.entropy, spawn_key=key)))


def _trial(gens, outcomes, ext, h, n0, tol, actions, record):
    """One trial, compiled: counts per arm (K,) int64; ``actions`` filled when ``record``."""
    K, T = outcomes.shape
    m = ext.shape[0] - 1  # ext: the m levels, then b
    counts = np.zeros((K, m), dtype=np.int64)
    pulls = np.zeros(K, dtype=np.int64)
    w = np.empty(m + 1)
    vals = np.empty(K)
    for t in range(1, T + 1):
        if t <= K * n0:
            arm = (t - 1) % K
        else:
            for i in range(K):
                g = gens[i]
                total = 0.0
                for j in range(m):
                    c = counts[i, j]
                    w[j] = g.standard_gamma(float(c)) if c > 0 else 0.0
                    total += w[j]
                w[m] = g.standard_gamma(1.0)
                total += w[m]
                value = ext[0]
                above = total
                for j in range(m):  # S_j = the weight above ext[j], over the total
                    above -= w[j]
                    s = above / total
                    if s < 0.0:
                        s = 0.0
                    value += (ext[j + 1] - ext[j]) * h(s)
                vals[i] = value
            top = vals[0]
            for i in range(1, K):
                if vals[i] > top:
                    top = vals[i]
            arm = 0
            for i in range(K):
                if vals[i] >= top - tol:
                    arm = i
                    break
        out = outcomes[arm, pulls[arm]]
        pulls[arm] += 1
        counts[arm, out] += 1
        if record:
            actions[t - 1] = arm
    return pulls


def compiled_trial():
    """The compiled :func:`_trial` (numba, cached on disk beside this file)."""
    if "trial" not in _COMPILED:
        from rsb_theory.argmax.edge_lines import njit_cached

        _COMPILED["trial"] = njit_cached(_trial)
    return _COMPILED["trial"]


def run(setup, d, instance, table, record_actions: bool = False, progress=None):
    """B-CVTS on every trial of ``table``, one trial at a time in the compiled :func:`_trial`."""
    from rsb_theory.argmax.edge_lines import compiled_h

    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    ext = np.append(np.asarray(instance.support, dtype=float), float(instance.width))
    h = compiled_h(d)
    if h is None:  # pragma: no cover - numba or the compiled h unavailable
        raise RuntimeError("b-cvts needs numba and a compiled h")
    loop = compiled_trial()
    actions = np.empty((B, T), dtype=np.int8) if record_actions else None
    dummy = np.empty(1, dtype=np.int8)
    counts = np.empty((B, K), dtype=np.int64)
    bar = progress(total=B) if progress is not None else None
    for k in range(B):
        outcomes = np.stack([np.asarray(table.outcomes(k, i, T), dtype=np.int64) for i in range(K)])
        gens = tuple(sampler(table, k, i) for i in range(K))
        row = np.empty(T, dtype=np.int8) if record_actions else dummy
        counts[k] = loop(gens, outcomes, ext, h, int(n0), float(INDEX_TOL), row, bool(record_actions))
        if record_actions:
            actions[k] = row
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return PolicyRun(counts, actions, {})
