"""CE-UCB-M's exact decision through the grid sorted by x = <a, phat> (compiled; K >= 3).

For Bernoulli arms and q = 1 the objective of ``eq:UCB_alpha2`` is f(a) = h(x) + y with
x = <a, p>, y = <a, c> (:mod:`rsb_theory.argmax.edge_lines`).  Every line l(x) = alpha + beta x
through an edge (i, j) of the upper hull of the points (p_k, c_k) lies above every c_k, so with
d_k = l(p_k) - c_k >= 0 and sum_k a_k = 1,

    y = l(x) - sum_k a_k d_k <= l(x) - delta0,     delta0 = sum_k amin_k d_k,

where amin_k is the smallest weight arm k takes on the grid (eps * offset, and the footnote
deficit for the last arm).  Hence f(a) <= Bd(x(a)) with the concave function

    Bd(x) = h(x) + min over the hull edges e of (l_e(x) - delta0_e).

A point can be within the tie tolerance of the maximum M only if Bd(x(a)) >= M - tol, i.e. if
x(a) lies in the interval W = {x : Bd(x) >= M - tol} (Bd is concave).  The search:

1. M0 = f(previous choice), so W contains x(previous);
2. the two ends of W are bracketed by galloping from x(previous) and narrowed by bisection on Bd
   until a bracket holds about one grid point (concavity: a point where Bd < M0 - tol on the far
   side of x(previous) bounds W there);
3. the grid points are kept sorted by their x at a reference estimate p_ref (one sort per trial,
   then a re-sort of the nearly sorted order when the scans have read about one grid's worth of
   points they did not need); since sum_k a_k = 1,
   x(a) - x_ref(a) = sum_k a_k (p_k - p_ref_k) lies in [min_k delta_k, max_k delta_k], so the
   points with x in W are among a contiguous run of the sorted order (two binary searches);
4. those with x in W are evaluated (f as :func:`rsb_theory.argmax.edge_lines._value` computes it)
   and offered to the candidates within tol of the running maximum; the decision rule is that of
   the line search (keep the previous choice while v(prev) >= M - tol, else the first candidate
   in lexicographic order).

Every point that could be within tol of the maximum is evaluated, so the decision is the line
search's and the enumeration's (tests compare all three).  Rounding: the threshold carries a
guard of 1e-11 relative to the magnitudes involved (plus the size of any d_k computed slightly
below 0), x-intervals a slack of 1e-12; guards only widen the set of evaluated points.  The
route declines (the caller runs the line search) when there is no previous choice, when all
means are equal (no hull edge) or when the run of sorted points to read is longer than
:data:`SCAN_LIMIT` (a count).  Which route decides never changes the decision.

Measured (docs/simulation.md): K = 4, eps = 0.05, radius x 0.01, T = 2e4: about a dozen
evaluations per decision instead of about 50, and no visit of the grid's 190 lines.
"""

from __future__ import annotations

import math

import numpy as np

from . import edge_lines
from .edge_lines import P_SEP

#: Returned by :func:`decide_window` when it declines (the caller runs the line search).
DECLINED = -(1 << 62)

#: Longest run of sorted points the route reads in one decision (else it declines).
SCAN_LIMIT = 96

#: Largest grid for the route (its sorted order costs a sort of the grid per trial and memory per point).
WINDOW_MAX_GRID = 30_000

#: Longest back-off (decisions) after the route declined.
MAX_SKIP = 64

#: Slack on x-intervals (absolute; x is in [0, 1]).
X_SLACK = 1e-12

#: The bisection of an end of W stops when its bracket holds about this many grid points.
END_POINTS = 2.0

# the compiled helpers of the line search, rebound to their dispatchers by compiled_window()
_forms = edge_lines._forms
_hy = edge_lines._hy
_value = edge_lines._value
_offer = edge_lines._offer
_choose = edge_lines._choose
_enumerate = edge_lines._enumerate
_hull_edges = edge_lines._hull_edges

_COMPILED: dict = {}


def window_scratch(grid) -> tuple:
    """Work arrays of :func:`decide_window` for one thread.

    (coords, wts, order, xref, pref, istate, fstate): coords (N, K-1) int64, the grid's
    points in lexicographic order (``Grid.counts``); wts (N, K) their mixtures, computed as
    :func:`rsb_theory.argmax.edge_lines._forms` computes them (so that x and y summed from them are
    its x and y, bit for bit); order (N,) int64 and xref (N,): the points sorted by x at
    pref (K,) (no points: the route is off, K = 2 or a grid above :data:`WINDOW_MAX_GRID`); istate: [trial the order was built for (-1: none), points read outside W since the
    last sort, sorts, decisions left to skip after a decline, the next skip, :func:`scan_limit`]; fstate: [density N / x-range, last lower end, last upper end].
    """
    on = grid.K >= 3 and grid.size <= WINDOW_MAX_GRID
    coords = np.ascontiguousarray(grid.counts() if on else np.zeros((0, grid.K - 1)), dtype=np.int64)
    N = coords.shape[0]
    return (coords, _weights(coords, grid.K, float(grid.eps), float(grid.offset)), np.arange(N, dtype=np.int64),
            np.zeros(N), np.zeros(grid.K),
            np.array([-1, 0, 0, 0, 0, scan_limit(grid)], dtype=np.int64), np.zeros(3))


def scan_limit(grid) -> int:
    """Longest run of sorted points read in one decision: :data:`SCAN_LIMIT`, or half the number of
    lines of the line search (C(m + K - 2, K - 2)) when that is larger (a count)."""
    return max(SCAN_LIMIT, math.comb(grid.budget + grid.K - 2, grid.K - 2) // 2)


def _weights(coords, K, eps, off):
    """The mixtures (N, K) of the points, as :func:`rsb_theory.argmax.edge_lines._forms` computes them:
    a_k = eps (n_k + off) for k < K, the last weight 1 - (their sum in order), clipped at 0."""
    out = np.empty((coords.shape[0], K))
    s = np.zeros(coords.shape[0])
    for k in range(K - 1):
        out[:, k] = eps * (coords[:, k].astype(float) + off)
        s = s + out[:, k]
    out[:, K - 1] = np.maximum(1.0 - s, 0.0)
    return out


def _xy(wts, idx, K, p, c):
    """(x, y) = (<a, p>, <a, c>) of point idx from its weights, summed as _forms sums them."""
    x = 0.0
    y = 0.0
    for k in range(K - 1):
        a = wts[idx, k]
        x += a * p[k]
        y += a * c[k]
    a = wts[idx, K - 1]
    return x + a * p[K - 1], y + a * c[K - 1]


def _sort(xref, order, shell):
    """Sort (xref, order) by xref: Shell sort (``shell``) or insertion sort (a nearly sorted order)."""
    N = xref.shape[0]
    gap = 1
    if shell:
        while gap < N // 3:
            gap = 3 * gap + 1
    while gap >= 1:
        for q in range(gap, N):
            v = xref[q]
            o = order[q]
            r = q
            while r >= gap and xref[r - gap] > v:
                xref[r] = xref[r - gap]
                order[r] = order[r - gap]
                r -= gap
            xref[r] = v
            order[r] = o
        gap //= 3
    return 0


def _rebuild(wts, order, xref, pref, istate, fstate, p, c, K, shell):
    """Sort the points by their x at p (the new reference)."""
    N = order.shape[0]
    for k in range(K):
        pref[k] = p[k]
    for q in range(N):
        xref[q] = _xy(wts, order[q], K, p, c)[0]
    _sort(xref, order, shell)
    span = xref[N - 1] - xref[0]
    fstate[0] = N / span if span > 0.0 else float(N)
    istate[1] = 0
    istate[2] += 1
    return 0


def _lower(xref, v):
    """First q with xref[q] >= v (N if none)."""
    lo = 0
    hi = xref.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if xref[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _upper(xref, v):
    """First q with xref[q] > v (N if none)."""
    lo = 0
    hi = xref.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if xref[mid] <= v:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _bd(h, x, xmin, xmax, ne, al, be, d0):
    """Bd(x) = h(x) + min_e (alpha_e + beta_e x - delta0_e), x clipped to [xmin, xmax] and [0, 1]."""
    if x < xmin:
        x = xmin
    elif x > xmax:
        x = xmax
    return _hy(h, x, _hull(x, ne, al, be, d0))


def _hull(x, ne, al, be, d0):
    """min_e (alpha_e + beta_e x - delta0_e): an upper bound of y - (its smallest deficit) at x."""
    u = np.inf
    for e in range(ne):
        v = al[e] + be[e] * x - d0[e]
        if v < u:
            u = v
    return u


def _end(h, x_in, guess, sign, theta, rho, xmin, xmax, ne, al, be, d0):
    """An end of W on the side ``sign`` (-1: left, +1: right) of x_in (Bd(x_in) >= theta).

    Gallops outwards from x_in (the first step reaches ``guess``, the last end, when it is
    farther than a grid spacing), then bisects the bracket [Bd < theta, Bd >= theta] until it
    holds about :data:`END_POINTS` grid points.  Every x beyond the returned position (on that
    side) has Bd(x) < theta (concavity), or the position is the end of [xmin, xmax].
    Returns (position, evaluations of h).
    """
    unit = 1.0 / rho
    step = sign * (guess - x_in)
    if not step > unit:
        step = unit
    inner = x_in
    ev = 0
    while True:
        a = x_in + sign * step
        ev += 1
        if (sign < 0 and a <= xmin) or (sign > 0 and a >= xmax):
            a = xmin if sign < 0 else xmax
            if _bd(h, a, xmin, xmax, ne, al, be, d0) >= theta:
                return a, ev
            break
        if _bd(h, a, xmin, xmax, ne, al, be, d0) < theta:
            break
        inner = a
        step *= 2.0
    while abs(inner - a) * rho > END_POINTS:
        mid = 0.5 * (a + inner)
        ev += 1
        if _bd(h, mid, xmin, xmax, ne, al, be, d0) < theta:
            a = mid
        else:
            inner = mid
    return a, ev


def decide_window(h, p, c, prev, out, m, eps, off, tol, cap, sc, ws, trial):
    """The decision of one trial into ``out``, or :data:`DECLINED`.

    ``sc`` is the line search's scratch (:func:`rsb_theory.argmax.edge_lines.scratch`), ``ws`` this
    route's (:func:`window_scratch`), ``trial`` the trial's index (the sorted order is rebuilt when
    it changes).  Returns the number of evaluations of h (negated when the grid was enumerated).
    After a decline the route is not tried for the next 1, 2, 4, ... (at most :data:`MAX_SKIP`)
    decisions of the trial (early in a run, when the estimates move fast, the window is wide).
    """
    istate = ws[5]
    if prev[0] < 0 or ws[0].shape[0] == 0:
        return DECLINED
    if istate[0] == trial and istate[3] > 0:  # backing off after a decline (work only: same decision)
        istate[3] -= 1
        return DECLINED
    ev = _window(h, p, c, prev, out, m, eps, off, tol, cap, sc, ws, trial)
    if ev == DECLINED:
        istate[4] = min(max(2 * istate[4], 1), MAX_SKIP)
        istate[3] = istate[4]
    else:
        istate[4] = 0
    return ev


def _decide(h, p, c, prev, out, m, eps, off, tol, cap, sc, ws, trial):
    """The window route proper (:func:`decide_window` without the back-off)."""
    n, nf, cand_v, cand_n, samples, have, al, be, d0, d, w, others, hull = sc
    coords, wts, order, xref, pref, istate, fstate = ws
    K = p.shape[0]
    K1 = K - 1
    pmin = p[0]
    pmax = p[0]
    cmax = 0.0
    for k in range(K):
        pmin = min(pmin, p[k])
        pmax = max(pmax, p[k])
        cmax = max(cmax, abs(c[k]))
    if pmax - pmin < P_SEP:
        return DECLINED
    # ---- the upper hull's edges: lines alpha + beta x with every d_k >= 0 (up to rounding)
    amin = eps * off
    alast = 1.0 - eps * (m + K1 * off)  # the last arm's smallest weight (m on the others)
    if alast < 0.0:
        alast = 0.0
    ne = 0
    dneg = 0.0
    lin = 0.0
    for e in range(min(_hull_edges(p, c, cmax, hull), al.shape[0])):
        i = hull[e, 0]
        j = hull[e, 1]
        beta = (c[i] - c[j]) / (p[i] - p[j])
        alpha = c[i] - beta * p[i]
        dsum = 0.0
        for k in range(K):
            if k == i or k == j:
                continue
            dk = alpha + beta * p[k] - c[k]
            if dk < 0.0:
                dneg = max(dneg, -dk)
            else:
                dsum += (alast if k == K1 else amin) * dk
        al[ne] = alpha
        be[ne] = beta
        d0[ne] = dsum * (1.0 - 1e-12)
        lin = max(lin, abs(alpha) + abs(beta))
        ne += 1
    if ne == 0:
        return DECLINED
    # ---- the sorted order (rebuilt for a new trial, or when the scans have wasted a grid's worth)
    N = order.shape[0]
    if istate[0] != trial:
        _rebuild(wts, order, xref, pref, istate, fstate, p, c, K, True)
        istate[0] = trial
        istate[3] = 0
        istate[4] = 0
        fstate[1] = np.nan
        fstate[2] = np.nan
    elif istate[1] > N:
        _rebuild(wts, order, xref, pref, istate, fstate, p, c, K, False)
    dmin = np.inf
    dmax = -np.inf
    for k in range(K):
        dk = p[k] - pref[k]
        dmin = min(dmin, dk)
        dmax = max(dmax, dk)
    # ---- M0 = f(previous); W = {Bd >= M0 - tol - guard} around x(previous), sampling h
    for k in range(K1):
        n[k] = prev[k]
    x_prev, y_prev = _forms(n, K, eps, off, p, c, True)
    vprev = _hy(h, x_prev, y_prev)
    M = vprev
    guard = 1e-11 * (1.0 + abs(vprev) + lin + cmax) + 2.0 * dneg
    theta = M - tol - guard
    rho = fstate[0]
    x_in = min(max(x_prev, pmin), pmax)
    lo_x, e1 = _end(h, x_in, fstate[1], -1.0, theta, rho, pmin, pmax, ne, al, be, d0)
    hi_x, e2 = _end(h, x_in, fstate[2], 1.0, theta, rho, pmin, pmax, ne, al, be, d0)
    count = 1 + e1 + e2
    fstate[1] = lo_x
    fstate[2] = hi_x
    # ---- the run of sorted points whose x can lie in W
    q0 = _lower(xref, lo_x - dmax - X_SLACK)
    q1 = _upper(xref, hi_x - dmin + X_SLACK)
    if q1 - q0 > istate[5]:
        # too long: re-sort at p if the drift since the last sort is what makes it long, else decline
        if _upper(xref, hi_x + X_SLACK) - _lower(xref, lo_x - X_SLACK) > istate[5] // 2:
            istate[1] += q1 - q0
            return DECLINED
        _rebuild(wts, order, xref, pref, istate, fstate, p, c, K, False)
        q0 = _lower(xref, lo_x - X_SLACK)
        q1 = _upper(xref, hi_x + X_SLACK)
        if q1 - q0 > istate[5]:
            return DECLINED
    lo_f = lo_x - X_SLACK
    hi_f = hi_x + X_SLACK
    nc = 0
    wasted = 0
    overflow = False
    for q in range(q0, q1):
        idx = order[q]
        x, y = _xy(wts, idx, K, p, c)
        if x < lo_f or x > hi_f:
            wasted += 1
            continue
        v = _hy(h, x, y)  # = _value at the point (the same x and y)
        count += 1
        if v >= M - tol:
            for k in range(K1):
                n[k] = coords[idx, k]
            M, nc, ok = _offer(v, n, K1, cand_v, cand_n, M, nc, cap, tol)
            if not ok:
                overflow = True
                break
    istate[1] += wasted
    if overflow:
        return -_enumerate(h, K, m, eps, off, p, c, tol, n, True, prev, out)
    _choose(True, vprev, prev, M, nc, cand_v, cand_n, K1, tol, out)
    return count


def _decide_rows(h, P, C, PREV, trials, m, eps, off, tol, cap, out, evaluated, sc, ws):
    """Rows in order: the window route, or the line search when it declines (for tests and benchmarks)."""
    B = P.shape[0]
    declined = 0
    for b in range(B):
        ev = _rows_window(h, P[b], C[b], PREV[b], out[b], m, eps, off, tol, cap, sc, ws, trials[b])
        if ev == DECLINED:
            declined += 1
            ev = _line(h, P[b], C[b], PREV[b], out[b], m, eps, off, tol, cap, sc)
        evaluated[b] = ev
    return declined


_rows_window = decide_window
_window = _decide
_line = edge_lines._decide_one

#: Inlined into their callers by numba.
_INLINE = ("_xy", "_lower", "_upper", "_bd", "_hull", "_end")


def compiled_window():
    """:func:`decide_window` compiled (on first use, or loaded from the on-disk cache), for compiled callers."""
    if not _COMPILED:
        edge_lines._kernel()
        g = globals()
        for name in ("_forms", "_hy", "_value", "_offer", "_choose", "_enumerate", "_hull_edges"):
            g[name] = edge_lines._COMPILED[name]
        g["_line"] = edge_lines._COMPILED["_decide_one"]
        for name in ("_xy", "_sort", "_rebuild", "_lower", "_upper", "_hull", "_bd", "_end", "_decide", "decide_window"):
            _COMPILED[name] = g[name] = edge_lines.njit_cached(
                g[name], sources=(edge_lines,), inline="always" if name in _INLINE else "never", nrt=False)
        g["_window"] = g["_decide"]
        g["_rows_window"] = g["decide_window"]
        _COMPILED["_decide_rows"] = g["_decide_rows"] = edge_lines.njit_cached(
            _decide_rows, sources=(edge_lines,), nrt=False)
    return _COMPILED["decide_window"]


def decide(d, grid, phat, c, previous, trials=None, tol: float = edge_lines.TIE_TOL):
    """Decisions of rows (trial ``trials[b]``, in order) by the window route or the line search.

    As :func:`rsb_theory.argmax.edge_lines.decide`; the rows of one trial should come in time
    order (the sorted order is kept from row to row of the same trial).  Returns (counts,
    evaluations, number of rows the window route declined).
    """
    edge_lines._require(d)
    phat = np.ascontiguousarray(phat, dtype=float)
    c = np.ascontiguousarray(c, dtype=float)
    prev = np.ascontiguousarray(previous, dtype=np.int64)
    B, K = phat.shape
    trials = np.zeros(B, dtype=np.int64) if trials is None else np.ascontiguousarray(trials, dtype=np.int64)
    out = np.empty((B, K - 1), dtype=np.int64)
    evaluated = np.empty(B, dtype=np.int64)
    compiled_window()
    sc = edge_lines.scratch(K, int(grid.budget))
    ws = window_scratch(grid)
    declined = _COMPILED["_decide_rows"](edge_lines.compiled_h(d), phat, c, prev, trials, int(grid.budget),
                                         float(grid.eps), float(grid.offset), float(tol), edge_lines.CAND_CAP,
                                         out, evaluated, sc, ws)
    return out, evaluated, int(declined)
