"""Exact argmax of ``eq:UCB_alpha2`` and ``eq:ETC_alpha`` on empirical laws over common levels, compiled.

The objective (concave h with a finite Lipschitz constant, q = 1):

    f(a) = sum_j w_j h(S_j(a)) + L_b sum_i a_i r_i,    S_j(a) = sum_i a_i S_ij,

with levels 0 <= x_0 < ... < x_{J-1}, steps [x_{j-1}, x_j) of width w_j (x_{-1} = 0) and
S_ij = P_i(X >= x_j) the survival of arm i on step j (``eq:empirical_CDF``; the step identity of
:mod:`rsb_theory.riskmetric`).  ``r`` = 0 gives ``eq:ETC_alpha``.  The decision is the rule of
:mod:`rsb_theory.argmax.rule`: M = the largest grid value; keep the previous choice while
f(prev) >= M - tol, else the first grid point in lexicographic order with f >= M - tol.

The search is exact and evaluates few points:

1. *hill climb* on the grid by unit moves from the best of the previous choice and the K vertices,
   to a grid point x whose neighbours are not better;
2. *planes*: at x and its neighbours, f(a) <= f(a0) + E + <G, a - a0> for every mixture a.
   Since f is concave (h concave), h(v) <= h(s) + s_j (v - s) + e_j |v - s| where s_j +- e_j are
   the one-sided chords of h over +-:data:`DELTA` (a chord on the left bounds h'(s-) from above,
   on the right h'(s+) from below; at an end of [0, 1] the Lipschitz constant L takes the missing
   side), and |S_j(a) - S_j(a0)| <= D_j = max_i S_ij - min_i S_ij.  Two forms of h are evaluated
   and bounded exactly instead (:func:`forms`): a quadratic h = c0 + c1 u + c2 u^2 (mean, Gini,
   quadratic, dual power), whose U_h of a mixture is c0 W + c1 <m, a> + c2 a'Q a with m_i =
   sum_j w_j S_ij, Q_ik = sum_j w_j S_ij S_kj (K^2 operations per value; its lines are read
   outwards from the parabola's vertex), and a concave piecewise-linear h = min_k (alpha_k +
   beta_k u) (CVaR, mean-median, inter-ES), whose levels fall into runs by active piece
   (:func:`_pl_sum`; each level's active piece bounds h everywhere, so its planes have no slack);
3. *branch and bound* over prefixes (n_1, ..., n_k) of the grid coordinates: the bound of a
   prefix is the least over the planes of their maximum over the prefix's continuous
   relaxation; the leaves are lines (the last coordinate free), where every plane is linear in
   the free coordinate, so the points that may beat the threshold form one interval and only
   those are evaluated; phase 1 finds M (evaluating every point that may reach M - tol), phase 2
   the first point with f >= M - tol in lexicographic order, needed only when the previous choice
   is not kept and another evaluated point is within tol of M;
4. ``Q``, an upper bound on the value of every grid point other than the decision (M - tol for
   the points not evaluated; the evaluated ones by their values), returned with the decision and
   tested as such.  CE-UCB-M's loop does not use Q (``rsb_sim/policies/_ce_levels.py`` says why).

Every bound is widened by a rounding guard (:func:`_guard`), so no point whose computed value
could reach a threshold is skipped.  Plain Python below, compiled by numba
(:func:`compiled`); the NumPy reference is :func:`rsb_theory.argmax.argmax` (tests compare the
two on random laws, K = 2..5, both grids, with and without a previous choice, the forms on and
off: ``tests/sim/test_ce_levels.py``).
"""

from __future__ import annotations

import math

import numpy as np

from . import edge_lines
from ..errors import ArgumentError

__all__ = ["DELTA", "applies", "available", "compiled", "decide", "forms", "piecewise_linear", "quadratic", "scratch",
           "steps_of"]

#: Half-width of the chords of h that bound its one-sided derivatives (a smaller one makes the planes
#: tighter and the rounding of the chords larger; both are accounted for in the bound).
DELTA = 1e-6

#: Most hill-climbing moves per decision, in units of the grid budget m (a work budget: the climb
#: stops there and the branch and bound, which is exact from any start, does the rest).
CLIMB_MOVES = 4

_EPS52 = 2.0 ** -52
_COMPILED: dict = {}


def available(d) -> bool:
    """True when h is concave and numba compiles it (:func:`rsb_theory.argmax.edge_lines.available`)."""
    return edge_lines.available(d)


def applies(d, q: float, L: float, levels) -> bool:
    """True when the compiled search handles h = ``d`` on ``levels``: h concave and compilable
    (:func:`available`), q = 1 with a finite Lipschitz constant L, levels increasing and >= 0
    (:func:`steps_of`).  The one route condition of CE-UCB-M's loop and RS-ETC-M's commit."""
    if not _h_applies(d, q, L):
        return False
    x = np.asarray(levels, dtype=float)
    return bool(x.ndim == 1 and x.size > 0 and np.all(np.isfinite(x)) and x[0] >= 0.0 and np.all(np.diff(x) > 0.0))


def _h_applies(d, q: float, L: float) -> bool:
    return float(q) == 1.0 and math.isfinite(float(L)) and available(d)


def steps_of(levels) -> np.ndarray:
    """Widths w_j = x_j - x_{j-1} of the steps of increasing levels x >= 0 (x_{-1} = 0).

    Raises
    ------
    ValueError
        (names ``support``) levels that are not increasing or have a negative one.
    """
    x = np.asarray(levels, dtype=float)
    if x.ndim != 1 or x.size == 0 or not np.all(np.isfinite(x)) or x[0] < 0.0 or np.any(np.diff(x) <= 0.0):
        raise ArgumentError("support", "the compiled levels route needs increasing levels >= 0")
    return np.diff(np.concatenate([[0.0], x]))


# ---------------------------------------------------------------------------------------------------
# Compiled code (plain Python, compiled by numba; readable and runnable as Python)
# ---------------------------------------------------------------------------------------------------


def _point(n, K, eps, off, a):
    """The mixture of integer coordinates n (K-1,) into a (K,): eps (n_k + off), the last one
    1 - sum (summed in order), clipped at 0 (as :func:`rsb_theory.argmax.points_of`)."""
    s = 0.0
    for k in range(K - 1):
        v = eps * (n[k] + off)
        a[k] = v
        s += v
    last = 1.0 - s
    a[K - 1] = last if last > 0.0 else 0.0


def _pl_sum(ob, a, G, grad):
    """A concave piecewise-linear h = min_k (alpha_k + beta_k u), pieces by increasing slope: S_j(a)
    falls with j, so piece 0 is active on the first levels, piece 1 on the next, ...; each run of
    levels is found by bisection and summed from prefix sums PS[j, i] = sum_{j' < j} w_j' S_ij'.
    Returns sum_j w_j h(S_j(a)); with ``grad``, adds sum_j w_j beta_k(j) S_ij to G[i] instead."""
    ST, w, r, Lb, mode, qc, mq, Qm, pl, bk, PS, WP = ob
    J, K = ST.shape
    p = pl.shape[0]
    val = 0.0
    lo = 0
    for k in range(p):
        hi = J
        if k < p - 1:  # the first level >= lo where S_j(a) < bk[k]
            x = lo
            y = J
            while x < y:
                mid = (x + y) // 2
                s = 0.0
                for i in range(K):
                    s += a[i] * ST[mid, i]
                if s < bk[k]:
                    y = mid
                else:
                    x = mid + 1
            hi = x
        if hi > lo:
            if grad:
                for i in range(K):
                    G[i] += pl[k, 1] * (PS[hi, i] - PS[lo, i])
            else:
                lin = 0.0
                for i in range(K):
                    lin += a[i] * (PS[hi, i] - PS[lo, i])
                val += pl[k, 0] * (WP[hi] - WP[lo]) + pl[k, 1] * lin
        lo = hi
    return val


def _value(h, ob, a):
    """f(a) of the objective ``ob`` (:func:`objective`): sum_j w_j h(clip(sum_i a_i S_ij)) summed in order,
    or, for a quadratic h = c0 + c1 u + c2 u^2 (mode 1), c0 W + c1 <m, a> + c2 a'Q a with
    m_i = sum_j w_j S_ij and Q_ik = sum_j w_j S_ij S_kj, or, for a concave piecewise-linear h (mode 2),
    by runs of levels (:func:`_pl_sum`) -- the same number up to rounding (a mixture's S_j is in
    [0, 1]); plus L_b sum_i a_i r_i."""
    ST, w, r, Lb, mode, qc, mq, Qm, pl, bk, PS, WP = ob
    J, K = ST.shape
    val = 0.0
    if mode == 2:
        val = _pl_sum(ob, a, a, False)
    elif mode == 1:
        lin = 0.0
        sq = 0.0
        for i in range(K):
            lin += a[i] * mq[i]
            t = 0.0
            for k in range(K):
                t += Qm[i, k] * a[k]
            sq += a[i] * t
        val = qc[0] + qc[1] * lin + qc[2] * sq
    else:
        for j in range(J):
            s = 0.0
            for i in range(K):
                s += a[i] * ST[j, i]
            if s < 0.0:
                s = 0.0
            elif s > 1.0:
                s = 1.0
            val += w[j] * h(s)
    bon = 0.0
    for i in range(K):
        bon += a[i] * r[i]
    return val + Lb * bon


def _plane(h, ob, a, Lh, G):
    """The plane of f at a: returns (f(a), offset) with f(b) <= offset + <G, b - a> for every mixture b.

    G (K,) is written.  See the module docstring, step 2; a quadratic h has its exact gradient
    c1 m + 2 c2 Q a and no slack, a piecewise-linear one the slopes of its active pieces.
    """
    ST, w, r, Lb, mode, qc, mq, Qm, pl, bk, PS, WP = ob
    J, K = ST.shape
    for i in range(K):
        G[i] = Lb * r[i]
    if mode == 2:  # each level's active piece is a global upper bound of h: an exact plane
        _pl_sum(ob, a, G, True)
        f = _value(h, ob, a)
        return f, f
    if mode == 1:
        for i in range(K):
            t = 0.0
            for k in range(K):
                t += Qm[i, k] * a[k]
            G[i] += qc[1] * mq[i] + 2.0 * qc[2] * t
        f = _value(h, ob, a)
        return f, f
    val = 0.0
    E = 0.0
    for j in range(J):
        s = 0.0
        lo = 1.0
        hi = 0.0
        for i in range(K):
            x = ST[j, i]
            s += a[i] * x
            if x < lo:
                lo = x
            if x > hi:
                hi = x
        if s < 0.0:
            s = 0.0
        elif s > 1.0:
            s = 1.0
        hs = h(s)
        val += w[j] * hs
        if hi <= lo:  # S_j(b) is the same for every mixture b: no slope needed
            continue
        rho = 4.0 * _EPS52 * (abs(hs) + 1.0) / DELTA
        if s >= DELTA:
            left = (hs - h(s - DELTA)) / DELTA + rho  # >= h'(s-)
            if left > Lh:
                left = Lh
        else:
            left = Lh
        if s <= 1.0 - DELTA:
            right = (h(s + DELTA) - hs) / DELTA - rho  # <= h'(s+)
            if right < -Lh:
                right = -Lh
        else:
            right = -Lh
        if right > left:  # rounding only (h concave): take the wider interval
            t = right
            right = left
            left = t
        sj = 0.5 * (left + right)
        E += w[j] * 0.5 * (left - right) * (hi - lo)
        ws = w[j] * sj
        for i in range(K):
            G[i] += ws * ST[j, i]
    bon = 0.0
    for i in range(K):
        bon += a[i] * r[i]
    f = val + Lb * bon
    return f, f + E


def _guard(w, r, Lb, Lh, K):
    """A bound on the rounding of a computed value, plane or bound: (J + 4K + 16) 2^-52 times the
    scale of the terms (sum_j w_j (L + 1) twice for h and its chords, L_b sum_i r_i for the bonus)."""
    J = w.shape[0]
    scale = 0.0
    for j in range(J):
        scale += abs(w[j])
    Hs = 0.0
    for i in range(K):
        Hs += abs(r[i])
    return (J + 4 * K + 16) * _EPS52 * (scale * (Lh + 1.0) * 2.0 + abs(Lb) * Hs + 1.0)


def _offer(v, n, K1, best, bestn, second):
    """Record an evaluated value: best (value, coordinates) and the best value at other coordinates."""
    same = True
    for k in range(K1):
        if n[k] != bestn[k]:
            same = False
            break
    if same:
        return
    if v > best[0]:
        second[0] = best[0]
        best[0] = v
        for k in range(K1):
            bestn[k] = n[k]
    elif v > second[0]:
        second[0] = v


def _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats):
    _point(n, K, eps, off, a)
    v = _value(h, ob, a)
    stats[0] += 1
    _offer(v, n, K - 1, best, bestn, second)
    return v


def _move(n, K, m, i, j):
    """Apply the unit move +1 on coordinate i, -1 on coordinate j (K-1: the implicit last one);
    return False (and leave n unchanged) when it leaves the grid."""
    K1 = K - 1
    tot = 0
    for k in range(K1):
        tot += n[k]
    if j < K1 and n[j] < 1:
        return False
    if i == K1 and j == K1:
        return False
    if j == K1 and tot + 1 > m:  # +1 on a head coordinate, taken from the last one
        return False
    if i < K1:
        n[i] += 1
    if j < K1:
        n[j] -= 1
    return True


def _undo(n, K, i, j):
    K1 = K - 1
    if i < K1:
        n[i] -= 1
    if j < K1:
        n[j] += 1


def _climb(h, ob, n, K, m, eps, off, a, best, bestn, second, stats):
    """Steepest ascent by unit moves from n (in place) to a point no neighbour beats, at most
    :data:`CLIMB_MOVES` m + K moves (a work budget: the branch and bound is exact from any start)."""
    v = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
    for _ in range(CLIMB_MOVES * m + K):
        bv = v
        bi = -1
        bj = -1
        for i in range(K):
            for j in range(K):
                if i == j or not _move(n, K, m, i, j):
                    continue
                u = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
                _undo(n, K, i, j)
                if u > bv:
                    bv = u
                    bi = i
                    bj = j
        if bi < 0:
            break
        _move(n, K, m, bi, bj)
        v = bv
    return v


def _planes(h, ob, Lh, n, K, m, eps, off, a, G, C, stats):
    """Planes at n and at each of its grid neighbours: G[p] (gradient), C[p] = offset - <G[p], a_p>.

    Returns the number of planes."""
    P = 0
    for i in range(-1, K):
        for j in range(K):
            if i >= 0:
                if i == j or not _move(n, K, m, i, j):
                    continue
            elif j > 0:
                continue  # (i, j) = (-1, 0): the point n itself, once
            _point(n, K, eps, off, a)
            f, off_p = _plane(h, ob, a, Lh, G[P])
            stats[0] += 1
            dot = 0.0
            for k in range(K):
                dot += G[P, k] * a[k]
            C[P] = off_p - dot
            P += 1
            if i >= 0:
                _undo(n, K, i, j)
    return P


def _suffix_max(G, P, K, SM):
    """SM[p, k] = max_{i >= k} G[p, i]."""
    for p in range(P):
        SM[p, K - 1] = G[p, K - 1]
        for k in range(K - 2, -1, -1):
            v = G[p, k]
            SM[p, k] = v if v > SM[p, k + 1] else SM[p, k + 1]


def _range(P, G, C, SM, part, A, d, eps, off, tmax, thr, g):
    """The values t in [0, tmax] of coordinate d (coordinates 0..d-1 fixed: head sum A, partial sums
    part[p]) whose subtree may reach thr: (lo, hi), lo > hi when none.

    The bound of plane p over the subtree is C_p + part_p + a_d G_pd + (1 - A - a_d) max_{i>d} G_pi
    with a_d = eps (t + off), linear in t (for the last free coordinate, d = K-2, it is the plane
    itself on the line); so the t whose bounds all reach thr - g form one interval.
    """
    lo = 0.0
    hi = float(tmax)
    for p in range(P):
        alpha = C[p] + part[p] + eps * off * G[p, d] + (1.0 - A - eps * off) * SM[p, d + 1] + g
        beta = eps * (G[p, d] - SM[p, d + 1])
        if beta > 0.0:
            t = (thr - alpha) / beta
            if t > lo:
                lo = t
        elif beta < 0.0:
            t = (thr - alpha) / beta
            if t < hi:
                hi = t
        elif alpha < thr:
            return 1, 0
        if lo > hi + 1.0:
            return 1, 0
    # alpha carries the guard g, so only the division's rounding (relative 2^-52 of t <= m) is left
    ilo = int(math.ceil(lo - 1e-9))
    ihi = int(math.floor(hi + 1e-9))
    if ilo < 0:
        ilo = 0
    if ihi > tmax:
        ihi = tmax
    return ilo, ihi


def _scan_line(h, ob, n, K, L, lo, hi, eps, off, a, best, bestn, second, stats, margin, g):
    """Phase 1 on a line of a quadratic h (coordinates 0..L-1 of n fixed, t = n[L] in [lo, hi]).

    Along the line f(t) is a concave quadratic in t: its values fall on each side of the integer t0
    nearest to its vertex.  t0 is evaluated, then the points on each side in turn while the last
    value + g reaches best[0] - margin: every point left out is below that (exactly below a point
    that was; g covers the rounding of both), as the branch and bound requires.
    """
    ST, w, r, Lb, mode, qc, mq, Qm, pl, bk, PS, WP = ob
    K1 = K - 1
    # slope and curvature of f(base + t dvec), dvec = eps (e_L - e_{K-1}), base: the point t = 0
    n[L] = 0
    _point(n, K, eps, off, a)
    dm = eps * (mq[L] - mq[K1])
    dr = eps * (r[L] - r[K1])
    qa = 0.0
    for k in range(K):
        qa += (Qm[L, k] - Qm[K1, k]) * a[k]
    qa *= eps
    dqd = eps * eps * (Qm[L, L] - 2.0 * Qm[L, K1] + Qm[K1, K1])
    slope = qc[1] * dm + 2.0 * qc[2] * qa + Lb * dr
    curv = qc[2] * dqd
    if curv < 0.0:
        ts = -slope / (2.0 * curv)
    elif slope > 0.0:
        ts = float(hi)
    else:
        ts = float(lo)
    if ts < lo:
        ts = float(lo)
    if ts > hi:
        ts = float(hi)
    t0 = int(math.floor(ts + 0.5))
    n[L] = t0
    u = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
    if u + g < best[0] - margin:
        return
    t = t0 - 1
    while t >= lo:
        n[L] = t
        u = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
        if u + g < best[0] - margin:
            break
        t -= 1
    t = t0 + 1
    while t <= hi:
        n[L] = t
        u = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
        if u + g < best[0] - margin:
            break
        t += 1


def _walk(h, ob, K, m, eps, off, P, G, C, SM, g, first, thr0, margin, best, bestn, second,
          n, a, part, used, A, lim, out, stats):
    """Branch and bound over the grid in lexicographic order (module docstring, step 3).

    At each depth the children that may reach the threshold form an interval (:func:`_range`); a
    child prefix is checked again against the current threshold before its subtree is entered.
    ``first`` False (phase 1): raise best[0] to the maximum M; subtrees and points whose bound + g
    is below best[0] - margin are skipped.  ``first`` True (phase 2): the first point in
    lexicographic order with f >= thr0 is written to out; returns True when found.
    """
    K1 = K - 1
    L = K - 2  # the last free coordinate: its values are the points of a line
    for p in range(P):
        part[0, p] = 0.0
    used[0] = 0
    A[0] = 0.0
    d = 0
    thr = thr0 if first else best[0] - margin
    lo, hi = _range(P, G, C, SM, part[0], 0.0, 0, eps, off, m, thr, g)
    if L == 0:
        stats[2] += 1
        if ob[4] == 1 and not first:
            _scan_line(h, ob, n, K, L, lo, hi, eps, off, a, best, bestn, second, stats, margin, g)
            return False
    n[0] = lo - 1
    lim[0] = hi
    while True:
        n[d] += 1
        if n[d] > lim[d]:
            if d == 0:
                return False
            d -= 1
            continue
        if d == L:  # a point of a line
            u = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
            if first and u >= thr0:
                for k in range(K1):
                    out[k] = n[k]
                return True
            continue
        v = eps * (n[d] + off)
        used[d + 1] = used[d] + n[d]
        A[d + 1] = A[d] + v
        R = 1.0 - A[d + 1]
        if R < 0.0:
            R = 0.0
        bound = np.inf
        for p in range(P):
            s = part[d, p] + v * G[p, d]
            part[d + 1, p] = s
            b = C[p] + s + R * SM[p, d + 1]
            if b < bound:
                bound = b
        stats[1] += 1
        thr = thr0 if first else best[0] - margin
        if bound + g < thr:
            continue  # prune this prefix; next sibling
        lo, hi = _range(P, G, C, SM, part[d + 1], A[d + 1], d + 1, eps, off, m - used[d + 1], thr, g)
        if d + 1 == L:
            stats[2] += 1
            if ob[4] == 1 and not first:  # a quadratic h: the line from its vertex outwards
                if lo <= hi:
                    _scan_line(h, ob, n, K, L, lo, hi, eps, off, a, best, bestn, second, stats, margin, g)
                continue
        d += 1
        n[d] = lo - 1
        lim[d] = hi


def _decide(h, ob, Lh, K, m, eps, off, tol, prev, out, sc, stats):
    """The decision (module docstring) written to out (K-1 coordinates); returns (M, Q, f(out)).

    prev[0] = -1: no previous choice.  stats: [evaluations, prefixes, lines].
    """
    n, a, G, C, SM, part, used, A, best, bestn, second, start, lim = sc
    K1 = K - 1
    best[0] = -np.inf
    second[0] = -np.inf
    for k in range(K1):
        bestn[k] = -1
    g = _guard(ob[1], ob[2], ob[3], Lh, K)
    has_prev = prev[0] >= 0
    fprev = -np.inf
    if has_prev:
        for k in range(K1):
            n[k] = prev[k]
        fprev = _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
    # the climb starts from the best of the previous choice and the vertices (all of the budget on
    # one coordinate, or on the last one): with a dominant bonus the maximum jumps between vertices
    for i in range(K):
        for k in range(K1):
            n[k] = 0
        if i < K1:
            n[i] = m
        _eval_at(h, ob, n, K, eps, off, a, best, bestn, second, stats)
    for k in range(K1):
        start[k] = bestn[k]
    _climb(h, ob, start, K, m, eps, off, a, best, bestn, second, stats)
    P = _planes(h, ob, Lh, start, K, m, eps, off, a, G, C, stats)
    _suffix_max(G, P, K, SM)
    # phase 1 skips only points below best - tol: every point it does not evaluate is then below
    # M - tol, so when no other evaluated point reaches M - tol the maximiser is the only point of
    # the optimal set and phase 2 is not needed
    _walk(h, ob, K, m, eps, off, P, G, C, SM, g, False, 0.0, tol, best, bestn, second,
          n, a, part, used, A, lim, out, stats)
    M = best[0]
    if has_prev and fprev >= M - tol:
        for k in range(K1):
            out[k] = prev[k]
        fdec = fprev
    elif second[0] < M - tol:
        for k in range(K1):
            out[k] = bestn[k]
        fdec = M
    else:
        found = _walk(h, ob, K, m, eps, off, P, G, C, SM, g, True, M - tol, 0.0, best, bestn,
                      second, n, a, part, used, A, lim, out, stats)
        if not found:  # cannot happen (the maximiser qualifies); keep the maximiser
            for k in range(K1):
                out[k] = bestn[k]
        _point(out, K, eps, off, a)
        fdec = _value(h, ob, a)
    same = True
    for k in range(K1):
        if out[k] != bestn[k]:
            same = False
            break
    other = second[0] if same else best[0]
    Q = M - tol
    if other > Q:
        Q = other
    return M, Q + g, fdec


def _scratch(K, m, Pmax):
    K1 = K - 1
    return (np.zeros(K1, dtype=np.int64), np.zeros(K), np.zeros((Pmax, K)), np.zeros(Pmax), np.zeros((Pmax, K)),
            np.zeros((K, Pmax)), np.zeros(K, dtype=np.int64), np.zeros(K), np.zeros(1), np.zeros(K1, dtype=np.int64),
            np.zeros(1), np.zeros(K1, dtype=np.int64), np.zeros(K, dtype=np.int64))


def _decide_all(h, STs, w, R, Lb, Lh, K, m, eps, off, tol, PREV, out, vals, stats, mode, qc, MQ, QM, pl, bk,
                PSs, WP):
    """Decisions of a batch: STs (B, J, K), R (B, K) radii, PREV (B, K-1); vals (B, 3) = (M, Q, f(out)).
    ``mode`` 1: h is quadratic with coefficients qc, MQ (B, K) and QM (B, K, K) (:func:`quad_forms`);
    2: piecewise linear with pieces pl, breakpoints bk, prefix sums PSs (B, J+1, K) and WP (:func:`pl_sums`)."""
    sc = _scratch(K, m, K * K + 1)
    for b in range(STs.shape[0]):
        ob = (STs[b], w, R[b], Lb, mode, qc, MQ[b], QM[b], pl, bk, PSs[b], WP)
        M, Q, f = _decide(h, ob, Lh, K, m, eps, off, tol, PREV[b], out[b], sc, stats)
        vals[b, 0] = M
        vals[b, 1] = Q
        vals[b, 2] = f


def pl_sums(ST, w, PS, i0, i1):
    """PS[j, i] = sum_{j' < j} w_j' S_ij' for the arms i0 <= i < i1 (summed in order)."""
    J = ST.shape[0]
    for i in range(i0, i1):
        c = 0.0
        PS[0, i] = 0.0
        for j in range(J):
            c += w[j] * ST[j, i]
            PS[j + 1, i] = c


def quad_forms(ST, w, mq, Qm):
    """m_i = sum_j w_j S_ij and Q_ik = sum_j w_j S_ij S_kj of ST (J, K), into mq (K,) and Qm (K, K)."""
    J, K = ST.shape
    for i in range(K):
        _quad_row(ST, w, i, mq, Qm)


def _quad_row(ST, w, i, mq, Qm):
    """Row and column i of :func:`quad_forms` (arm i's survival changed)."""
    J, K = ST.shape
    s = 0.0
    for j in range(J):
        s += w[j] * ST[j, i]
    mq[i] = s
    for k in range(K):
        t = 0.0
        for j in range(J):
            t += w[j] * ST[j, i] * ST[j, k]
        Qm[i, k] = t
        Qm[k, i] = t


_INLINE = ("_point", "_guard", "_offer", "_move", "_undo", "_eval_at")
_ALLOCATING = ("_scratch", "_decide_all")
_NAMES = ("pl_sums", "_quad_row", "quad_forms", "_pl_sum", "_point", "_guard", "_value", "_plane", "_offer", "_eval_at", "_move", "_undo", "_climb", "_planes", "_suffix_max",
          "_range", "_scan_line", "_walk", "_decide", "_scratch", "_decide_all")


def compiled() -> dict:
    """The compiled functions by name (compiled on first use, then loaded from the on-disk cache)."""
    if not _COMPILED:
        g = globals()
        for name in _NAMES:
            inline = "always" if name in _INLINE else "never"
            _COMPILED[name] = g[name] = edge_lines.njit_cached(g[name], inline=inline, nrt=name in _ALLOCATING)
    return _COMPILED


_QUADRATIC: dict = {}


def quadratic(d):
    """(c0, c1, c2) when h = c0 + c1 u + c2 u^2 (the mean, Gini, quadratic, dual power with s = 2): then
    U_h of a mixture is a quadratic form in the weights (:func:`_value`); else None."""
    if d.expr not in _QUADRATIC:
        _QUADRATIC[d.expr] = _quadratic(d)
    return _QUADRATIC[d.expr]


def _quadratic(d):
    import sympy as sp

    u = [s for s in d.expr.free_symbols if s.name == "u"]
    if len(u) != 1:
        return (float(d.expr), 0.0, 0.0) if not d.expr.free_symbols else None
    try:
        poly = sp.Poly(d.expr, u[0])
    except sp.PolynomialError:
        return None
    if poly.degree() > 2 or len(poly.free_symbols) != 1:
        return None
    c = [float(x) for x in reversed(poly.all_coeffs())] + [0.0, 0.0]
    return c[0], c[1], c[2]


def piecewise_linear(d):
    """The pieces (alpha_k, beta_k) by increasing slope and the breakpoints when h is concave and
    piecewise linear, h = min_k (alpha_k + beta_k u) on [0, 1] (CVaR, mean-median, inter-ES), else None.

    The pieces are read from SymPy's piecewise form of h; that h equals their minimum is checked at
    2001 points of [0, 1] and at every breakpoint (to 1e-12), pieces never active on [0, 1] dropped.
    """
    if d.expr not in _PIECEWISE:
        _PIECEWISE[d.expr] = _piecewise_linear(d)
    return _PIECEWISE[d.expr]


_PIECEWISE: dict = {}


def _piecewise_linear(d):
    import sympy as sp

    u = [s for s in d.expr.free_symbols if s.name == "u"]
    if len(u) != 1 or len(d.expr.free_symbols) != 1:
        return None
    try:
        pw = sp.piecewise_fold(d.expr.rewrite(sp.Piecewise))
        exprs = [e for e, _ in pw.args] if isinstance(pw, sp.Piecewise) else [pw]
        pieces = set()
        for e in exprs:
            poly = sp.Poly(e, u[0])
            if poly.degree() > 1 or len(poly.free_symbols) > 1:
                return None
            c = [float(x) for x in reversed(poly.all_coeffs())] + [0.0]
            pieces.add((c[0], c[1]))
    except (sp.PolynomialError, TypeError, ValueError):
        return None
    pl = np.array(sorted(pieces, key=lambda p: (p[1], p[0])), dtype=float)
    xs = np.linspace(0.0, 1.0, 2001)
    env = np.min(pl[:, :1] + pl[:, 1:] * xs, axis=0)
    active = np.unique(np.argmin(pl[:, :1] + pl[:, 1:] * xs, axis=0))
    pl = pl[np.sort(active)]
    bk = np.array([(pl[k, 0] - pl[k + 1, 0]) / (pl[k + 1, 1] - pl[k, 1]) for k in range(len(pl) - 1)])
    probe = np.concatenate([xs, bk[(bk >= 0.0) & (bk <= 1.0)]])
    env = np.min(pl[:, :1] + pl[:, 1:] * probe, axis=0)
    if len(pl) < 1 or np.any(np.diff(pl[:, 1]) <= 0.0) or not np.allclose(env, d.numeric(probe), rtol=0.0,
                                                                            atol=1e-12):
        return None
    return pl, bk


def forms(d) -> tuple:
    """(mode, data) of h for the compiled evaluation: (1, (c0, c1, c2)) quadratic, (2, (pieces,
    breakpoints)) concave piecewise linear, (0, None) level by level."""
    cq = quadratic(d)
    if cq is not None:
        return 1, cq
    pw = piecewise_linear(d)
    if pw is not None:
        return 2, pw
    return 0, None


def form_arrays(form, w) -> tuple:
    """The arrays the compiled code reads for a form of :func:`forms`: qc (3,), pl (p, 2), bk (p-1,)."""
    mode, data = form
    qc = np.zeros(3)
    pl, bk = np.zeros((1, 2)), np.zeros(0)
    if mode == 1:
        qc = np.array([data[0] * float(np.sum(w)), data[1], data[2]])
    if mode == 2:
        pl, bk = np.ascontiguousarray(data[0]), np.ascontiguousarray(data[1])
    return qc, pl, bk


def prefix_widths(w) -> np.ndarray:
    """WP[j] = sum_{j' < j} w_j' (summed in order)."""
    return np.concatenate([[0.0], np.cumsum(w)])


def scratch(K: int, m: int) -> tuple:
    """Work arrays of the compiled ``_decide`` for K arms and grid budget m (one set per thread)."""
    return compiled()["_scratch"](int(K), int(m), int(K) * int(K) + 1)


def decide(d, grid, levels, surv, radius=None, L_bonus: float = 0.0, previous=None, tol: float | None = None,
           polynomial: bool = True, L: float | None = None):
    """Exact decisions for a batch of trials (module docstring; the Python entry point for tests).

    Parameters
    ----------
    d : Distortion
        Concave h with q = 1 (its Lipschitz constant is :func:`rsb_theory.holder.holder`'s L_H).
    grid : Grid
    levels : array_like, shape (J,)
        Increasing levels >= 0.
    surv : array_like, shape (B, K, J)
        S_ij = P_i(X >= x_j).
    radius : array_like, shape (B, K), optional
        Radii r_i of the bonus L_b sum_i a_i r_i (none: ``eq:ETC_alpha``).
    L_bonus : float
    previous : array_like of int, shape (B, K-1), optional
        Rows of -1: none.
    tol : float, optional
        Default :data:`rsb_theory.argmax.rule.TIE_TOL`.
    polynomial : bool
        Evaluate a quadratic or piecewise-linear h by its form (:func:`forms`); False: level by level.
    L : float, optional
        The Lipschitz constant of h when the caller has it (``Setup.L``, from the same
        :func:`rsb_theory.holder.holder`): it saves a symbolic derivation per call.

    Returns
    -------
    counts : numpy.ndarray, shape (B, K-1), int64
    values : numpy.ndarray, shape (B, 3)
        M, the certificate Q and the value of the decision.
    stats : numpy.ndarray, shape (3,)
        Evaluations, prefixes, lines.
    """
    from .rule import TIE_TOL

    if L is None:
        from ..profile import of

        hr = of(d).holder()
        q, L = float(hr.q), float(hr.L_H)
    else:
        q = 1.0
    if not _h_applies(d, q, L):
        raise ArgumentError("d", "the compiled levels search needs a concave h that numba compiles, q = 1 "
                         f"and a finite L; {d.describe()} has q = {q}, L = {L}")
    w = steps_of(levels)
    S = np.asarray(surv, dtype=float)
    B, K, J = S.shape
    if J != w.size or K != grid.K:
        raise ArgumentError("surv", f"expected shape (B, {grid.K}, {w.size}), got {S.shape}")
    STs = np.ascontiguousarray(np.transpose(S, (0, 2, 1)))
    R = np.zeros((B, K)) if radius is None else np.ascontiguousarray(np.broadcast_to(radius, (B, K)), dtype=float)
    prev = np.full((B, K - 1), -1, dtype=np.int64) if previous is None else np.ascontiguousarray(previous,
                                                                                                  dtype=np.int64)
    out = np.zeros((B, K - 1), dtype=np.int64)
    vals = np.zeros((B, 3))
    stats = np.zeros(3, dtype=np.int64)
    fns = compiled()
    form = forms(d) if polynomial else (0, None)
    qc, pl, bk = form_arrays(form, w)
    MQ, QM = np.zeros((B, K)), np.zeros((B, K, K))
    PSs = np.zeros((B, J + 1, K))
    for b in range(B):
        if form[0] == 1:
            fns["quad_forms"](STs[b], w, MQ[b], QM[b])
        if form[0] == 2:
            fns["pl_sums"](STs[b], w, PSs[b], 0, K)
    fns["_decide_all"](edge_lines.compiled_h(d), STs, w, R, float(L_bonus), float(L), K, int(grid.budget),
                       float(grid.eps), float(grid.offset), float(TIE_TOL if tol is None else tol), prev, out, vals, stats, form[0], qc, MQ, QM, pl, bk, PSs, prefix_widths(w))
    return out, vals, stats
