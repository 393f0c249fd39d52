"""The ``search`` route of the oracle: any h, a lower bound on the optimum (not a certificate).

Vertices, every edge (at most 60, a 201-point grid + bounded Brent refinement
around the best cell), a simplex grid of step 1/120 (K = 3) or 2 x 2000
Dirichlet(1), Dirichlet(0.3) samples (K > 3, seeded), then SLSQP polish of
the 8 best distinct points.  For a concave h the supergradient bound of
:func:`rsb_theory.oracle.certificate.optimality_gap` certifies the result.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..distortions import Distortion
from ..riskmetric import mixture_value
from .instance import project, project_rows, value
from .result import Oracle

__all__ = ["search_route", "search"]


def search_route(d: Distortion, xs, arms, seed: int = 0) -> Oracle:
    f = lambda A: np.asarray(mixture_value(d.numeric, xs, arms, np.atleast_2d(project_rows(A))), dtype=float)
    return search(f, lambda a: value(d, xs, arms, a), arms.shape[0], seed)


def search(f, exact, K: int, seed: int = 0, what: str = "") -> Oracle:
    """The search of the module docstring for any V.

    Parameters
    ----------
    f : callable
        Rows of mixtures (n, K) -> V of each row (vectorised; may be an approximation of V).
    exact : callable
        One mixture -> the V that is reported (for finite arms the same V as ``f``).
    K : int
    seed : int
    what : str
        Appended to the evidence (how ``f`` relates to ``exact``).
    """
    from scipy.optimize import minimize, minimize_scalar

    rng = np.random.default_rng(seed)

    cands = [np.eye(K)]
    # every edge: 1-D grid, then bounded Brent refinement around the best cell
    pairs = list(itertools.combinations(range(K), 2))
    if len(pairs) > 60:
        pairs = [pairs[i] for i in rng.choice(len(pairs), 60, replace=False)]
    lam = np.linspace(0.0, 1.0, 201)
    edge_best = []
    for i, j in pairs:
        A = np.zeros((lam.size, K))
        A[:, i], A[:, j] = 1 - lam, lam
        v = f(A)
        t = int(np.argmax(v))
        lo, hi = lam[max(t - 1, 0)], lam[min(t + 1, lam.size - 1)]

        def g(x, i=i, j=j):
            a = np.zeros(K)
            a[i], a[j] = 1 - x, x
            return -float(f(a)[0])

        r = minimize_scalar(g, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        a = np.zeros(K)
        a[i], a[j] = 1 - r.x, r.x
        edge_best.append(a)
        cands.append(A)
    cands.append(np.array(edge_best))
    if K == 3:
        N = 120
        grid = np.array([(i, j, N - i - j) for i in range(N + 1) for j in range(N + 1 - i)], dtype=float) / N
        cands.append(grid)
        n_interior = len(grid)
    elif K > 3:
        samples = np.vstack([rng.dirichlet(np.full(K, c), size=2000) for c in (1.0, 0.3)])
        cands.append(samples)
        n_interior = len(samples)
    else:
        n_interior = 0
    A = np.vstack(cands)
    v = f(A)
    order = np.argsort(-v)
    best_a, best_v = A[order[0]], float(v[order[0]])

    # SLSQP polish of the best distinct points
    starts = []
    for idx in order:
        if all(np.abs(A[idx] - s).sum() > 1e-3 for s in starts):
            starts.append(A[idx])
        if len(starts) >= 8:
            break
    n_polish = 0
    for s in starts:
        r = minimize(lambda a: -float(f(a)[0]), s, method="SLSQP", bounds=[(0.0, 1.0)] * K,
                     constraints=[{"type": "eq", "fun": lambda a: np.sum(a) - 1.0}],
                     options={"ftol": 1e-14, "maxiter": 300})
        n_polish += 1
        a = project(r.x)
        val = exact(a)
        if val > best_v:
            best_a, best_v = a, val
    best_a = project(best_a)
    best_v = exact(best_a)
    evidence = (
        f"search (on its own a lower bound on the optimum, not a certificate): {K} vertices, {len(pairs)} edges "
        f"(201-point grid + bounded Brent), {n_interior} interior points "
        f"({'simplex grid step 1/120' if K == 3 else 'Dirichlet(1) and Dirichlet(0.3) samples' if K > 3 else 'none'}), "
        f"{n_polish} SLSQP polishes; best V = {best_v:.12g}{what}"
    )
    return Oracle(tuple(float(x) for x in best_a), best_v, "search", evidence)
