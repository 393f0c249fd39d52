"""The oracle mixture of ``eq:optimal alpha`` and its certificate for any arm laws (:mod:`rsb_theory.laws`).

Routes of :func:`optimal_mixture_laws` (``auto`` takes the first that applies):

``closed_form``, ``cvxpy``, ``search`` on discrete arms
    Bernoulli, finite and empirical arms are finite-support arms on the union
    of their atoms: :func:`rsb_theory.oracle.optimal_mixture`, exactly as for
    ``--support/--probs`` (closed form for two-point arms).
``vertex``
    h convex (derived symbolically: ``d.shape``): V(alpha) = int h(S_alpha(x)) dx
    is convex in alpha (h of an affine map of alpha, integrated with a
    non-negative measure), so its maximum over the simplex is at a vertex: the
    arm with the largest U_h(F_i) alone (lowest index among ties: values equal
    within their error estimates and :data:`TIE_TOL`).  Exact up to
    the accuracy of the arm values; ``gap`` is max_i(U_i + err_i) - (U_best -
    err_best) with err the quadrature error estimates (0 for discrete arms).
    This is every ``dual`` of a concave row, ``cvar_lower`` and h = u.
``cvxpy`` on a quadrature rule (continuous arms, DCP-concave h)
    V(alpha) ~= sum_k w_k h(sum_i alpha_i S_i(x_k)) (:func:`rsb_theory.laws.rule.step_form`),
    the finite-step form solved by :func:`rsb_theory.oracle.convex.solve_steps`.
    The solution is snapped (weights below :data:`ALPHA_SNAP` set to 0); while
    its certificate exceeds :data:`GAP_TARGET` it is polished by SLSQP on the
    exact V with its exact gradient int h'(S_alpha) S_i dx (V is differentiable
    wherever S_alpha crosses the kinks of h transversally), and the rule is rebuilt
    with the solution as a hint (the crossings of its S_alpha with the kinks of h
    become knots) and re-solved, at most :data:`REFINE_ROUNDS` times.
``search`` on the rule (any h; and concave h when Clarabel fails on the rule)
    :func:`rsb_theory.oracle.search.search` with the rule as the fast V and the
    exact V for every reported value.

Whatever the route, ``value`` is the exact V(alpha) (adaptive quadrature,
:func:`rsb_theory.laws.values.mixture_value`), and for concave h ``gap`` is
:func:`optimality_gap_laws`: the supergradient bound of
:func:`rsb_theory.oracle.certificate.optimality_gap` with the integrals of
``eq:V`` in place of its sums, computed by adaptive quadrature.
"""

from __future__ import annotations

import numpy as np

from ..distortions import Distortion, numeric_derivative
from ..laws.quadrature import integrate
from ..laws.rule import step_form
from ..laws.values import (TOL, all_discrete, crossings, h_breakpoints, knots, mixture_gradient, mixture_integral,
                           h_prime_at_mixture, mixture_value, survival, union_support, value)
from .certificate import KINK_SNAP, kinks, min_max_choice
from .convex import solve_steps
from .dcp import NotDCPError
from .mixture import check_arguments, optimal_mixture
from .result import ALPHA_SNAP, METHODS, Oracle
from .search import search
from ..workload import DEFAULT_MAX_MEMORY, cvxpy_memory
from ..errors import ArgumentError

__all__ = ["LAW_METHODS", "ALPHA_SNAP", "GAP_TARGET", "REFINE_ROUNDS", "optimal_mixture_laws",
           "optimality_gap_laws", "vertex_route", "is_convex"]

#: Routes :func:`optimal_mixture_laws` accepts (the finite oracle's, and ``vertex``).
LAW_METHODS = (*METHODS, "vertex")
#: The quadrature-rule route stops refining once its certificate is this small.
GAP_TARGET = 1e-9
#: Most rebuilds of the rule with the previous solution as a hint.
REFINE_ROUNDS = 3
#: Cells a flat piece at a kink starts with in :func:`optimality_gap_laws` (when an idle arm moves on it).
CELLS = 16
#: Most refinements of those cells, and most cells per piece.
CELL_ROUNDS = 16
MAX_CELLS = 4096
#: Most SLSQP iterations of the polish on the exact V.
POLISH_ITERATIONS = 60
#: Arm values this close (relative, plus their error estimates) are ties for the ``vertex`` route.
TIE_TOL = 1e-12


def is_convex(d: Distortion) -> bool:
    """h convex (or affine), decided symbolically (a numeric verdict is not a proof)."""
    return d.shape.curvature in ("convex", "affine") and d.shape.curvature_method == "symbolic"


def _check(d: Distortion, laws, method: str, seed) -> tuple:
    check_arguments(d, method, seed, LAW_METHODS)
    laws = tuple(laws)
    if len(laws) < 2:
        raise ArgumentError("laws", f"need K >= 2 arms, got K = {len(laws)}")
    return laws


def _snap(alpha) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    a = np.where(a < ALPHA_SNAP, 0.0, a)
    return a / a.sum()


def vertex_route(d: Distortion, laws) -> Oracle:
    """The best single arm, optimal for convex h (module docstring)."""
    vals, errs = [], []
    for law in laws:
        if all_discrete((law,)):
            vals.append(value(d, law))
            errs.append(0.0)
        else:
            r = mixture_integral(d, (law,), np.array([1.0]))
            vals.append(float(r.value))
            errs.append(float(r.error))
    vals, errs = np.array(vals), np.array(errs)
    # values equal within their error estimates (and TIE_TOL) are ties, and ties go to the lowest index
    top = np.max(vals - errs)
    best = int(np.nonzero(vals + errs + TIE_TOL * np.maximum(1.0, np.abs(vals)) >= top)[0][0])
    alpha = np.zeros(len(laws))
    alpha[best] = 1.0
    gap = float(max(np.max(vals + errs) - (vals[best] - errs[best]), 0.0))
    shown = ", ".join(f"{i + 1}: {v:.10g}" for i, v in enumerate(vals))
    evidence = (f"vertex: h = {d.expr} is {d.shape.curvature} (symbolic), so V(alpha) = int h(S_alpha(x)) dx is "
                f"convex in alpha and its maximum over the simplex is at a vertex: arm {best + 1} alone; "
                f"U_h(F_i) of the arms {shown}; largest quadrature error estimate {float(errs.max()):.2g}")
    return Oracle(tuple(float(x) for x in alpha), float(vals[best]), "vertex", evidence, gap)


def optimality_gap_laws(d: Distortion, laws, alpha) -> float | None:
    """Upper bound on max_beta V(beta) - V(alpha) for concave h and any laws (supergradient inequality).

    As in :func:`rsb_theory.oracle.certificate.optimality_gap`, for concave h and
    any anchor c(x) with a supergradient g(x) of h at c(x),

        V(beta) - V(alpha) <= int [h(c) - h(S_alpha) + g (S_beta - c)] dx,

    affine in beta, so the largest value is at a vertex.  The range is cut at
    the knots of the laws and at the crossings of S_alpha with the kinks of h.
    On a piece where some arm with alpha_i > 0 has a density, S_alpha moves and
    c = S_alpha, g = h'(S_alpha) pointwise (the kinks are crossed only at knots);
    the contribution int g (S_i - S_alpha) dx of vertex i is one vector integral.
    On a piece where S_alpha is constant (every arm with alpha_i > 0 is flat
    there) the piece is one step of width w and level s: c = s and g = h'(s),
    or, when s is within :data:`~rsb_theory.oracle.certificate.KINK_SNAP` of a
    kink of h, c = the kink and g free between the one-sided slopes, chosen by
    the linear program of :func:`~rsb_theory.oracle.certificate.min_max_bound`.
    On such a piece an arm with alpha_i = 0 may still have a density, and the
    best g then varies along the piece (V is not differentiable at alpha): the
    piece is cut into :data:`CELLS` cells with one free g each, and the cells
    where the LP's g switches are halved, at most :data:`CELL_ROUNDS` times.
    Any cut gives a valid bound (g piecewise constant is a measurable
    supergradient selection); the smallest is returned.
    The integrals are adaptive quadrature (error about :data:`rsb_theory.laws.values.TOL`);
    the bound holds up to that error.

    Returns
    -------
    float or None
        None when h is not concave.
    """
    if not d.shape.is_concave:
        return None
    laws = tuple(laws)
    a = np.asarray(alpha, dtype=float)
    if a.shape != (len(laws),) or np.any(a < 0) or abs(a.sum() - 1) > 1e-9:
        raise ArgumentError("alpha", f"expected a point of the simplex of dimension {len(laws)}, got {alpha!r}")
    grid = knots(laws)
    pts = np.union1d(grid, crossings(h_breakpoints(d), laws, a, grid))
    left, right = pts[:-1], pts[1:]
    width = right - left
    moving_law = np.array([[not all_discrete((law,)) and law.support[0] <= x0 and x1 <= law.support[1]
                            for x0, x1 in zip(left, right)] for law in laws])  # (K, n): S_i varies on the piece
    moving = np.any(moving_law & (a > 0)[:, None], axis=0)
    flat = ~moving & (width > 0)
    dh = numeric_derivative(d)
    h = d.numeric
    # flat pieces: steps of level s (S_alpha is constant there; its value at the left end is that level)
    S_left = survival(laws, left[flat])
    s = np.clip(a @ S_left, 0.0, 1.0)
    anchor = s.copy()
    with np.errstate(all="ignore"):
        g_lo = np.array(dh(s), dtype=float)
    g_hi = g_lo.copy()
    for c, slope_left, slope_right in kinks(d):
        near = np.abs(s - c) <= KINK_SNAP
        anchor[near], g_lo[near], g_hi[near] = c, slope_right, slope_left
    base = float(np.sum(width[flat] * (h(anchor) - h(s))))
    # moving pieces: int g (S_i - S_alpha) over them, one vector integral (0 on the flat pieces)
    if np.any(moving):
        def f(x):
            piece = np.clip(np.searchsorted(pts, x, side="right") - 1, 0, moving.size - 1)
            S = survival(laws, x)
            sa = np.clip(a @ S, 0.0, 1.0)
            with np.errstate(all="ignore"):
                # a term with S_i = S_alpha vanishes even where h' is infinite (S_alpha rounded to 0 at an end);
                # h' near S_alpha = 1 with 1 - S_alpha from the CDFs (laws.values.h_prime_at_mixture)
                out = np.where(S == sa, 0.0, h_prime_at_mixture(d, laws, a, x, S) * (S - sa))
            return np.where(moving[piece], out, 0.0)

        span = float(pts[-1] - pts[0])
        moving_part = np.asarray(integrate(f, pts, TOL * max(1.0, span)).value, dtype=float)
    else:
        moving_part = np.zeros(len(laws))
    # a flat piece at a kink on which an arm with alpha_i = 0 has a density: g may vary along it (V is not
    # differentiable there), so the piece is cut into cells with one free g each, refined where the LP's g
    # switches; every cut gives a valid bound, and a finer one is never worse
    pieces = []  # (piece index among the flat ones, cell edges)
    for col, j in enumerate(np.nonzero(flat)[0]):
        split = g_lo[col] < g_hi[col] and bool(np.any(moving_law[:, j]))
        pieces.append((col, np.linspace(left[j], right[j], CELLS + 1 if split else 2), j))
    best = np.inf
    for _ in range(CELL_ROUNDS + 1):
        cols, lo, hi, owner = [], [], [], []
        for col, edges, j in pieces:
            if np.any(moving_law[:, j]):
                ints = integrate(lambda x: survival(laws, x), edges, TOL * max(1.0, width[j])).pieces
            else:  # every S_i is constant on the piece
                ints = S_left[:, [col]] * np.diff(edges)[None, :]
            cols.append(ints - anchor[col] * np.diff(edges)[None, :])
            lo += [g_lo[col]] * (edges.size - 1)
            hi += [g_hi[col]] * (edges.size - 1)
            owner += [col] * (edges.size - 1)
        D = np.column_stack(cols + [moving_part[:, None]])
        bound, g = min_max_choice(base, D, np.r_[lo, 1.0], np.r_[hi, 1.0])
        best = min(best, bound)
        if best <= GAP_TARGET * 1e-3:
            break
        refined, at = [], 0
        for col, edges, j in pieces:
            n = edges.size - 1
            gc = g[at:at + n]
            at += n
            if n == 1 or edges.size > MAX_CELLS:
                refined.append((col, edges, j))
                continue
            inside = (gc > g_lo[col] + 1e-12) & (gc < g_hi[col] - 1e-12)
            switch = np.r_[False, gc[1:] != gc[:-1]] | np.r_[gc[1:] != gc[:-1], False]
            cut = np.nonzero(inside | switch)[0]
            mids = 0.5 * (edges[cut] + edges[cut + 1])
            refined.append((col, np.union1d(edges, mids), j))
        if all(e1.size == e2.size for (_, e1, _), (_, e2, _) in zip(pieces, refined)):
            break
        pieces = refined
    return float(best)


def _with_gap(d: Distortion, laws, o: Oracle) -> Oracle:
    gap = optimality_gap_laws(d, laws, o.alpha)
    if gap is None:
        return o
    note = f"; supergradient bound on the exact V (h concave, {d.shape.curvature_method}): V(alpha*) - V(alpha) <= {gap:.3g}"
    return Oracle(o.alpha, o.value, o.method, o.evidence + note, gap)


def _polish(d: Distortion, laws, start: np.ndarray) -> tuple[np.ndarray, int]:
    """SLSQP on the exact V with its exact gradient (:func:`~rsb_theory.laws.values.mixture_gradient`) from ``start``.

    Returns SLSQP's point, snapped (the start if SLSQP failed), and its iterations.
    """
    from scipy.optimize import minimize

    K = len(laws)

    def fun(a):
        v, g = mixture_gradient(d, laws, np.clip(a, 0.0, None) / max(np.clip(a, 0.0, None).sum(), 1e-300))
        return -v, -g

    with np.errstate(all="ignore"):
        r = minimize(fun, start, jac=True, method="SLSQP", bounds=[(0.0, 1.0)] * K,
                     constraints=[{"type": "eq", "fun": lambda a: np.sum(a) - 1.0, "jac": lambda a: np.ones(K)}],
                     options={"ftol": 1e-15, "maxiter": POLISH_ITERATIONS})
    if not np.all(np.isfinite(r.x)) or np.all(np.clip(r.x, 0.0, None) == 0):
        return start, int(r.nit)
    return _snap(np.clip(r.x, 0.0, None)), int(r.nit)


def _better(d: Distortion, laws, a: np.ndarray, gap, b: np.ndarray):
    """(point, gap) of the better of a (with its gap) and b: the smaller certificate, then the larger V.

    Near a smooth optimum V is flat to rounding, so the certificate (a first-order quantity)
    tells the points apart where V cannot.
    """
    gap_b = optimality_gap_laws(d, laws, b)
    key = lambda g, p: (np.inf if g is None else g, -float(mixture_value(d, laws, p)))
    return (b, gap_b) if key(gap_b, b) < key(gap, a) else (a, gap)


def _rule_cvxpy(d: Distortion, laws, max_memory: int = DEFAULT_MAX_MEMORY) -> Oracle:
    exact = lambda a: float(mixture_value(d, laws, a))
    hints, rounds, polished = [], [], 0
    for k in range(REFINE_ROUNDS + 1):
        rule = step_form(d, laws, hints)
        # the program has one step per node of the rule: counted before it is built, as for levels of data
        too_big = cvxpy_memory(int(rule.widths.size), len(laws)).refusal(int(max_memory), hint="--method search")
        if too_big is not None:
            if not rounds:
                raise RuntimeError(f"the quadrature rule has {rule.widths.size} nodes; {too_big}")
            break
        try:
            a, _, status, objective, tol, n = solve_steps(d, rule.widths, rule.S, 0.0, exact)
        except RuntimeError:
            if not rounds:
                raise
            break  # keep the rounds solved so far
        a = _snap(a)
        gap = optimality_gap_laws(d, laws, a)
        if gap is not None and gap > GAP_TARGET:
            # the rule is accurate near its hints only (kinked h): finish on the exact V and its gradient
            b, nit = _polish(d, laws, a)
            polished += nit
            a, gap = _better(d, laws, a, gap, b)
        rounds.append((a, gap, rule, status, objective, tol))
        if gap is not None and gap <= GAP_TARGET:
            break
        if any(np.array_equal(a, hint) for hint in hints):
            break
        hints.append(a)
    a, gap, rule, status, objective, tol = min(rounds, key=lambda r: (np.inf if r[1] is None else r[1]))
    v = exact(a)
    evidence = (f"cvxpy on a quadrature rule: V(alpha) ~= sum_k w_k h(sum_i alpha_i S_i(x_k)) with {rule.widths.size} "
                f"Gauss-Kronrod nodes adapted to {rule.designs} mixtures (error estimate {rule.error:.2g}), "
                f"{len(rounds)} solve(s), solver CLARABEL ({tol} tolerances) status {status}, rule objective "
                f"{objective:.12g}"
                + (f"; {polished} SLSQP iterations on the exact V and its gradient" if polished else "")
                + f"; weights below {ALPHA_SNAP:g} set to 0; exact V(alpha) {v:.12g} by adaptive quadrature")
    note = "" if gap is None else (f"; supergradient bound on the exact V (h concave, {d.shape.curvature_method}): "
                                   f"V(alpha*) - V(alpha) <= {gap:.3g}")
    return Oracle(tuple(float(x) for x in a), v, "cvxpy", evidence + note, gap)


def _rule_search(d: Distortion, laws, seed: int) -> Oracle:
    rule = step_form(d, laws)
    f = lambda A: np.asarray(rule.value(d, np.atleast_2d(A)), dtype=float)
    exact = lambda a: float(mixture_value(d, laws, _snap(a)))
    o = search(f, exact, len(laws), seed, what=(f"; candidates ranked on a quadrature rule ({rule.widths.size} nodes), "
                                                 f"reported V exact by adaptive quadrature"))
    a, evidence = _snap(o.alpha), o.evidence
    if d.shape.is_concave:
        gap = optimality_gap_laws(d, laws, a)
        if gap is not None and gap > GAP_TARGET:  # finish on the exact V and its gradient, as the cvxpy route does
            b, nit = _polish(d, laws, a)
            a, _ = _better(d, laws, a, gap, b)
            evidence += f"; {nit} SLSQP iterations on the exact V and its gradient"
    return _with_gap(d, laws, Oracle(tuple(float(x) for x in a), exact(a), "search", evidence))


def optimal_mixture_laws(d: Distortion, laws, method: str = "auto", seed: int = 0,
                         max_memory: int = DEFAULT_MAX_MEMORY) -> Oracle:
    """alpha* of ``eq:optimal alpha`` and V(alpha*) for any arm laws (routes: module docstring).

    Parameters
    ----------
    d : Distortion
    laws : sequence of laws
        K >= 2 laws of :mod:`rsb_theory.laws` (``parse_arms``).
    method : {"auto", "cvxpy", "closed_form", "search", "vertex"}
        ``closed_form`` needs discrete two-point arms; ``vertex`` a convex h.
    seed : int
        Seed of the ``search`` route's samples.
    max_memory : int
        Bytes CVXPY's program on the common levels of discrete laws may take
        (:func:`rsb_theory.workload.cvxpy_memory`, checked before it is built: 1 kB per level
        and arm; a 200 MB CSV took 15.2 GB), and on the nodes of the quadrature rule of laws with a
        continuous part (beyond it ``auto`` searches, ``cvxpy`` fails naming the count).

    Returns
    -------
    Oracle
        ``value`` is the exact V(alpha); ``gap`` bounds V(alpha*) - value (concave or convex h).

    Raises
    ------
    ValueError
        Bad arguments; ``closed_form`` on arms that are not two-point; ``vertex`` for an h
        that is not convex.
    NotDCPError
        ``cvxpy`` for an h that :func:`~rsb_theory.oracle.dcp.to_cvxpy` refuses.
    """
    laws = _check(d, laws, method, seed)
    discrete = all_discrete(laws)
    if discrete:
        xs, probs = union_support(laws)
        two_point = xs.size == 2
        if method in ("closed_form", "cvxpy", "search") or (method == "auto" and (two_point or not is_convex(d))):
            if method in ("cvxpy", "auto") and not two_point:
                too_big = cvxpy_memory(int(xs.size), len(laws)).refusal(
                    int(max_memory), hint="fewer distinct values (rounded data) or --method search")
                if too_big is not None:
                    raise ArgumentError("max_memory", f"the arms have {xs.size} distinct values; {too_big}")
            return optimal_mixture(d, xs, probs, method, seed)
    elif method == "closed_form":
        raise ArgumentError("method", "closed_form needs two-point (e.g. Bernoulli) arms, not continuous laws")
    if method == "vertex" or (method == "auto" and is_convex(d)):
        if not is_convex(d):
            raise ArgumentError("method", f"vertex needs a convex h (derived symbolically); h = {d.expr} is "
                             f"{d.shape.curvature} ({d.shape.curvature_method})")
        return vertex_route(d, laws)
    if method == "search":
        return _rule_search(d, laws, seed)
    if method == "cvxpy":
        return _rule_cvxpy(d, laws, max_memory)
    try:
        return _rule_cvxpy(d, laws, max_memory)
    except NotDCPError:
        return _rule_search(d, laws, seed)
    except RuntimeError as exc:  # the solver failed on the rule: search it, and certify as always
        o = _rule_search(d, laws, seed)
        return Oracle(o.alpha, o.value, o.method, f"{o.evidence}; (cvxpy on the rule failed: {exc})", o.gap)
