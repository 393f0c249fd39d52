"""The compiled per-trial loop of the posterior-sampling and plug-in learners (``b-cvts``, ``m-cvts``, ``ts-mix``,
``plugin-track``; their modules declare them and give the plain reference loops).

One trial at a time, numba's ``numpy.random.Generator`` on the sampler streams :func:`sampler` (the PCG64 stream of
``SeedSequence(entropy, spawn_key=stream + (first + k, i, 0))`` for arm i of local trial k; numba's Gamma sampler
is NumPy's, bit for bit: tested).  A model is a law per arm on the levels ``ext`` (the support,
and, when the policy adds it, the known upper bound b of the support as one more level), given by weights w_ij:

* ``sample`` true: w_ij ~ Gamma(c_ij + prior_j, 1), drawn arm by arm (0..K-1), level by level in increasing order,
  levels with c_ij + prior_j = 0 skipped (weight 0); normalised, a draw of Dirichlet(c_i + prior);
* ``sample`` false: w_ij = c_ij (the empirical law, ``eq:empirical_CDF``).

S_ij = sum_{l > j} w_il / sum_l w_il is the model's survival on [ext_j, ext_{j+1}).  Then ``mode``:

* 0 (index): pull the arm of largest U_h(model_i) = ext_0 + sum_j (ext_{j+1} - ext_j) h(S_ij);
* 1 (Frank-Wolfe): pull the arm of largest partial derivative of V at p = tau / n (n = t - 1),
  sum_j (ext_{j+1} - ext_j) h'(sum_k p_k S_kj) S_ij (terms with S_ij = 0 left out);
* 2 (tracking): alpha = the first point of ``grid`` (rows on the simplex) of largest
  V(alpha) = ext_0 + sum_j (ext_{j+1} - ext_j) h(sum_k alpha_k S_kj), and the arm of ``eq:UCB_sampling_rule``:
  the largest deficit n alpha_i - tau_i.

Ties: the lowest arm (grid point) within ``tol``.  ``force`` > 0: before any of this, an arm with
tau_i < ceil(t^force) (the lowest of the smallest tau) is pulled (forced exploration).  The first K n0 steps are the
round robin.
"""

from __future__ import annotations

import math

import numpy as np

from . import PolicyRun

_COMPILED: dict = {}


def sampler(table, k: int, i: int) -> np.random.Generator:
    """The sampler stream of arm i in local trial k of ``table`` (module docstring)."""
    key = table.stream + (table.first + int(k), int(i), 0)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(table.entropy, spawn_key=key)))


def simplex_grid(K: int, per_axis: int | None = None) -> np.ndarray:
    """The points of the simplex with coordinates in multiples of 1/N, (G, K), in lexicographic order of the first
    K - 1 coordinates (the last is 1 minus their sum).  N = ``per_axis`` or the largest with at most ~2000 points
    (200 for K = 2, 60 for K = 3, 20 for K = 4)."""
    from rsb_theory.workload import simplex_per_axis

    N = int(simplex_per_axis(K) if per_axis is None else per_axis)
    pts: list = []

    def rec(prefix, left, depth):
        if depth == K - 1:
            pts.append(prefix + [left])
            return
        for c in range(left + 1):
            rec(prefix + [c], left - c, depth + 1)

    rec([], N, 0)
    return np.asarray(pts, dtype=float) / N


def _trial(gens, outcomes, ext, prior, sample, mode, h, hp, grid, n0, tol, force, actions, record):
    """One trial, compiled: pulls per arm (K,) int64; ``actions`` filled when ``record`` (module docstring)."""
    K, T = outcomes.shape
    M = ext.shape[0]
    counts = np.zeros((K, M), dtype=np.int64)
    pulls = np.zeros(K, dtype=np.int64)
    w = np.empty(M)
    S = np.zeros((K, M))
    vals = np.empty(K)
    G = grid.shape[0]
    for t in range(1, T + 1):
        arm = -1
        if t <= K * n0:
            arm = (t - 1) % K
        elif force > 0.0:
            need = math.ceil(t ** force)
            low = pulls[0]
            for i in range(1, K):
                if pulls[i] < low:
                    low = pulls[i]
            if low < need:
                for i in range(K):
                    if pulls[i] == low:
                        arm = i
                        break
        if arm < 0:
            for i in range(K):
                total = 0.0
                for j in range(M):
                    a = counts[i, j] + prior[j]
                    if sample:
                        w[j] = gens[i].standard_gamma(a) if a > 0.0 else 0.0
                    else:
                        w[j] = a
                    total += w[j]
                above = total
                for j in range(M - 1):
                    above -= w[j]
                    s = above / total
                    if s < 0.0:
                        s = 0.0
                    S[i, j] = s
            n = t - 1
            if mode == 0:
                for i in range(K):
                    value = ext[0]
                    for j in range(M - 1):
                        value += (ext[j + 1] - ext[j]) * h(S[i, j])
                    vals[i] = value
            elif mode == 1:
                for i in range(K):
                    vals[i] = 0.0
                for j in range(M - 1):
                    pooled = 0.0
                    for k in range(K):
                        pooled += (pulls[k] / n) * S[k, j]
                    slope = hp(pooled)
                    for i in range(K):
                        if S[i, j] > 0.0:
                            vals[i] += (ext[j + 1] - ext[j]) * slope * S[i, j]
            else:
                best = -np.inf
                gbest = 0
                for g in range(G):
                    value = ext[0]
                    for j in range(M - 1):
                        mix = 0.0
                        for k in range(K):
                            mix += grid[g, k] * S[k, j]
                        value += (ext[j + 1] - ext[j]) * h(mix)
                    if value > best + tol:
                        best = value
                        gbest = g
                for i in range(K):
                    vals[i] = n * grid[gbest, i] - pulls[i]
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


def compiled_derivative(d):
    """h' compiled as a C callback (:func:`rsb_theory.argmax.edge_lines.compiled_h` of h's SymPy derivative), or
    None when it cannot be compiled (a kink written with Heaviside)."""
    from types import SimpleNamespace

    import sympy as sp

    from rsb_theory.argmax.edge_lines import compiled_h
    from rsb_theory.distortions import numeric_derivative

    u = sorted(d.expr.free_symbols, key=str)
    if not u:
        return None
    deriv = sp.diff(d.expr, u[0])
    if deriv.has(sp.Heaviside, sp.DiracDelta, sp.Derivative):
        return None
    return compiled_h(SimpleNamespace(expr=deriv, numeric=numeric_derivative(d)))


def run(setup, d, instance, table, *, ext, prior, sample, mode, grid=None, force=0.0, hp=None,
        record_actions=False, progress=None):
    """Every trial of ``table`` in the compiled :func:`_trial` (module docstring for the arguments)."""
    from rsb_theory.argmax.edge_lines import compiled_h

    from ._solitary import INDEX_TOL

    B, K, T, n0 = table.trials, setup.K, setup.T, setup.n0
    h = compiled_h(d)
    if h is None:  # pragma: no cover - numba or the compiled h unavailable
        raise RuntimeError(f"{setup.algo} needs numba and a compiled h")
    loop = compiled_trial()
    grid = np.zeros((1, K)) if grid is None else np.ascontiguousarray(grid, dtype=float)
    ext = np.ascontiguousarray(ext, dtype=float)
    prior = np.ascontiguousarray(prior, dtype=float)
    actions = np.empty((B, T), dtype=np.int8) if record_actions else None
    dummy = np.empty(1, dtype=np.int8)
    counts = np.empty((B, K), dtype=np.int64)
    bar = progress(total=B) if progress is not None else None
    for k in range(B):
        outcomes = np.stack([np.asarray(table.outcomes(k, i, T), dtype=np.int64) for i in range(K)])
        gens = tuple(sampler(table, k, i) for i in range(K))
        row = np.empty(T, dtype=np.int8) if record_actions else dummy
        counts[k] = loop(gens, outcomes, ext, prior, bool(sample), int(mode), h, h if hp is None else hp, grid,
                         int(n0), float(INDEX_TOL), float(force), row, bool(record_actions))
        if record_actions:
            actions[k] = row
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return PolicyRun(counts, actions, {})


def reference_values(d, ext, weights, mode, pulls, n, grid=None, hp=None):
    """The reference loop's scores of one step from the model's weights (list per arm), by plain loops:
    ``mode`` 0 the arms' U_h, 1 the partial derivatives at tau / n, 2 the deficits to the grid's best point."""
    K, M = len(weights), len(ext)
    surv = []
    for wi in weights:
        total = sum(wi)
        surv.append([max(0.0, sum(wi[j + 1:]) / total) for j in range(M - 1)])
    h = d.numeric
    if mode == 0:
        return [ext[0] + sum((ext[j + 1] - ext[j]) * float(h(np.array([s[j]]))[0]) for j in range(M - 1))
                for s in surv]
    if mode == 1:
        out = [0.0] * K
        for j in range(M - 1):
            pooled = sum((pulls[k] / n) * surv[k][j] for k in range(K))
            slope = float(hp(np.array([pooled]))[0])
            for i in range(K):
                if surv[i][j] > 0:
                    out[i] += (ext[j + 1] - ext[j]) * slope * surv[i][j]
        return out
    from ._solitary import INDEX_TOL

    best, gbest = -math.inf, 0
    for g, point in enumerate(grid):
        value = ext[0]
        for j in range(M - 1):
            value += (ext[j + 1] - ext[j]) * float(h(np.array([sum(point[k] * surv[k][j] for k in range(K))]))[0])
        if value > best + INDEX_TOL:
            best, gbest = value, g
    return [n * float(grid[gbest][i]) - pulls[i] for i in range(K)]


def reference_weights(hists, prior, gens):
    """The model's weights per arm (lists): Gamma(c + prior) from each arm's NumPy stream (levels of zero shape
    skipped), or the counts when ``gens`` is None."""
    out = []
    for i, hist in enumerate(hists):
        c = list(hist) + [0] * (len(prior) - len(hist))
        shapes = [c[j] + prior[j] for j in range(len(prior))]
        if gens is None:
            out.append([float(a) for a in shapes])
        else:
            out.append([float(gens[i].standard_gamma(float(a))) if a > 0 else 0.0 for a in shapes])
    return out


def forced_arm(pulls, t, force):
    """The forced-exploration arm of step t (plain Python), or None."""
    if force <= 0:
        return None
    low = min(pulls)
    return pulls.index(low) if low < math.ceil(t ** force) else None
