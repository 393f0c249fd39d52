"""The ``cvxpy`` route of the oracle: ``eq:optimal alpha`` as a convex program (concave h).

V(alpha) = sum_j w_j h(S_j(alpha)) + const with S_j affine in alpha is concave
for concave h (``lemma:risk-concave``; proof in :mod:`rsb_theory.oracle`), so
its maximum over the simplex is a convex program; :func:`rsb_theory.oracle.dcp.to_cvxpy`
translates h and Clarabel solves it.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..distortions import Distortion
from .dcp import _cp, to_cvxpy
from .instance import project, steps, value
from .result import Oracle

__all__ = ["CLARABEL_OPTIONS", "cvxpy_route", "solve_steps"]

#: Clarabel tolerances of the ``cvxpy`` route (defaults are 1e-8; tighter makes the reported gap small).
CLARABEL_OPTIONS = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}


def cvxpy_route(d: Distortion, xs, arms) -> Oracle:
    widths, S, left = steps(xs, arms)
    h1 = float(d.numeric(np.array([1.0]))[0])
    a, v, status, objective_value, tol, n = solve_steps(d, widths, S, -h1 * float(widths[left].sum()),
                                                         lambda a: value(d, xs, arms, a))
    evidence = (
        f"cvxpy: DCP-concave program max_alpha sum_j w_j h(S_j(alpha)) over the simplex "
        f"(lemma:risk-concave; {n} steps), solver CLARABEL ({tol} tolerances) status {status}, "
        f"solver objective {objective_value:.12g}, recomputed V(alpha) {v:.12g}"
    )
    return Oracle(tuple(float(x) for x in a), v, "cvxpy", evidence)


def solve_steps(d: Distortion, widths, S, const: float, evaluate):
    """max_alpha sum_j w_j h(sum_i alpha_i S_ij) + const over the simplex, by CVXPY/Clarabel.

    Parameters
    ----------
    d : Distortion
        h must translate (:func:`~rsb_theory.oracle.dcp.to_cvxpy`; else ``NotDCPError``).
    widths : numpy.ndarray, shape (n,)
        Non-negative weights w_j.
    S : numpy.ndarray, shape (K, n)
    const : float
    evaluate : callable
        alpha -> the V(alpha) that decides between the solver's answers (the exact V).

    Returns
    -------
    (alpha, V, status, solver objective, "tight" or "default", number of varying steps)
    """
    cp = _cp()
    K = S.shape[0]
    alpha = cp.Variable(K, nonneg=True)
    cons = [cp.sum(alpha) == 1]
    varying = np.ptp(S, axis=0) > 0
    const += float(widths[~varying] @ d.numeric(S[0, ~varying])) if np.any(~varying) else 0.0
    if np.any(varying):
        Sv = S[:, varying]
        objective = widths[varying] @ to_cvxpy(d.expr, Sv.T @ alpha) + const
    else:  # every alpha gives the same law
        objective = cp.Constant(const) + 0 * cp.sum(alpha)
    prob = cp.Problem(cp.Maximize(objective), cons)
    best = None
    # tight tolerances first; if Clarabel reports them unreachable (optimal_inaccurate) or fails on
    # them (arm means 1e-277 apart), its defaults (1e-8) are tried too and the better recomputed V is kept
    for options in (CLARABEL_OPTIONS, {}):
        try:
            # CVXPY evaluates the objective at the solver's point, which may leave the simplex by
            # ~1e-10 (power of a tiny negative number: nan); V is recomputed at the projected alpha
            with warnings.catch_warnings(), np.errstate(invalid="ignore"):
                warnings.filterwarnings("ignore", message="Solution may be inaccurate")
                prob.solve(solver=cp.CLARABEL, **options)
        except cp.error.SolverError as exc:
            if options:
                continue
            raise RuntimeError(f"CVXPY/Clarabel failed on h = {d.expr}: {exc}") from None
        if prob.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) and alpha.value is not None:
            a = project(alpha.value)
            v = evaluate(a)
            if best is None or v > best[1]:
                best = (a, v, prob.status, float(prob.value if prob.value is not None else np.nan),
                        "tight" if options else "default")
        if prob.status == cp.OPTIMAL:
            break
    if best is None:
        raise RuntimeError(f"CVXPY/Clarabel returned status {prob.status} for h = {d.expr}")
    return (*best, int(varying.sum()))
