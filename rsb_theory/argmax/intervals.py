"""RS-UCB-M's exact discrete argmax for one trial, compiled (Bernoulli arms, concave h).

The objective of ``eq:UCB_alpha`` over the W1 balls of ``eq:UCB_confidence_sets`` is, for concave h
(:class:`rsb_theory.objectives.RSUCBObjective`),

    v(a) = h(clip(x*, A(a), B(a))),   A = <a, lo>, B = <a, hi>,

with lo/hi the clipped ends of the confidence intervals and x* = ``xs_lo`` a maximiser of h.  No grid
value exceeds h_max = h(x*) (the objective's certificate, as in the branch and bound), and a point
whose interval [A, B] contains x* has exactly that value.  The decision rule is that of
:mod:`rsb_theory.argmax.rule`: with M the maximum, keep the previous choice while
v(prev) >= M - tol, else the first point in lexicographic order with v >= M - tol.  So:

1. v(prev) >= h_max - tol: the previous choice is kept (M <= h_max);
2. else the first point n1 in lexicographic order with v >= h_max - tol is found by a depth-first
   walk over the coordinates in lexicographic order, pruning a prefix when no completion can reach
   the threshold: every completion's [A, B] lies in [A_prefix + R min lo, B_prefix + R max hi] (R
   the remaining mass, min and max over the remaining arms), and v >= theta needs [A, B] to meet
   the level set {h >= theta}, an interval around x* whose ends are found once per decision by
   bisection (outer ends, with a guard);
3. if v(n1) = h_max, M = h_max and n1 is the decision; otherwise a point with v = h_max is looked
   for the same way (threshold h_max): if there is one, M = h_max and n1 is the decision;
4. otherwise M < h_max and is not known: :data:`FALLBACK` is returned, and the caller decides
   with :func:`rsb_theory.argmax.argmax` (the branch and bound).  So is a walk that would read more
   than ``budget`` points (a count).

Values are computed as :meth:`rsb_theory.objectives.Objective.at_points` computes them (A and B
summed over the arms in order, the last weight 1 - the sum of the others, clipped at 0); the walk
only skips points whose value is provably below the threshold, so the decision is the
enumeration's (tests: ``tests/theory/test_intervals.py``, and the reference loop in
``tests/sim/test_exactness.py``).  The functions are plain Python compiled by numba (cached on
disk like :mod:`rsb_theory.argmax.edge_lines`); h is :func:`rsb_theory.argmax.edge_lines.compiled_h`.
"""

from __future__ import annotations

import numpy as np

from ..objectives.base import GUARD, MARGIN
from . import edge_lines

#: Returned when the compiled search cannot decide (M below h_max, or the work budget exceeded).
FALLBACK = -(1 << 62)

#: Default work budget of one decision (points and prefixes read).
WORK_BUDGET = 200_000

#: Bisection steps of the ends of a level set.
LEVEL_ITERS = 64

_COMPILED: dict = {}


def scratch(K: int) -> tuple:
    """Work arrays of :func:`decide_one` for K arms: (n, sa, sA, sB, tot, minlo, maxhi)."""
    return (np.zeros(K - 1, dtype=np.int64), np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K, dtype=np.int64),
            np.zeros(K + 1), np.zeros(K + 1))


def _point(h, n, K, eps, off, lo, hi, xs):
    """(A, B, v) at explicit coordinates n (K-1,), summed as Objective.at_points sums them."""
    s = 0.0
    A = 0.0
    B = 0.0
    for k in range(K - 1):
        a = eps * (n[k] + off)
        s += a
        A += a * lo[k]
        B += a * hi[k]
    last = 1.0 - s
    if last < 0.0:
        last = 0.0
    A = A + last * lo[K - 1]
    B = B + last * hi[K - 1]
    return A, B, h(min(max(xs, A), B))


def _level_set(h, xs, hmax, theta):
    """Outer ends (x1, x2) of {x : h(x) >= theta} (concave h, maximal at xs): every computed h(x) with
    x < x1 or x > x2 is below theta.  Returns (x1, x2, evaluations); x1 > x2 when hmax < theta."""
    g = GUARD * max(1.0, abs(theta))
    if hmax < theta - g:
        return 1.0, 0.0, 0
    x1, e1 = _end(h, 0.0, xs, theta - g)
    x2, e2 = _end(h, 1.0, xs, theta - g)
    return x1, x2, e1 + e2


def _end(h, a, xs, level):
    """The outer end of {h >= level} between a (0 or 1) and xs: a point c with h(c) < level (h monotone
    between c and xs), or -inf / inf when h(a) >= level.  Returns (c, evaluations)."""
    side = -1.0 if a == 0.0 else 1.0
    if h(a) >= level:
        return side * np.inf, 1
    ev = 1
    b = xs
    for _ in range(LEVEL_ITERS):
        if abs(b - a) <= 1e-15:
            break
        mid = 0.5 * (a + b)
        ev += 1
        if h(mid) < level:
            a = mid
        else:
            b = mid
    return a, ev


def _first(h, K, m, eps, off, lo, hi, xs, theta, x1, x2, sc, out, budget):
    """The first point in lexicographic order with v >= theta into out (x1, x2: the outer level set).

    Returns (found, its value, points and prefixes read); found is -1 when more than ``budget`` were read.
    """
    n, sa, sA, sB, tot, minlo, maxhi = sc
    K1 = K - 1
    work = 0
    i = 0
    n[0] = -1
    sa[0] = 0.0
    sA[0] = 0.0
    sB[0] = 0.0
    tot[0] = 0
    while i >= 0:
        n[i] += 1
        used = tot[i] + n[i]
        if used > m:
            i -= 1
            continue
        work += 1
        if work > budget:
            return -1, 0.0, work
        a = eps * (n[i] + off)
        s = sa[i] + a
        A = sA[i] + a * lo[i]
        B = sB[i] + a * hi[i]
        if i == K1 - 1:  # a point: the last arm takes the rest
            last = 1.0 - s
            if last < 0.0:
                last = 0.0
            A = A + last * lo[K1]
            B = B + last * hi[K1]
            if B < x1 or A > x2:  # h at clip(x*, A, B), a point of [A, B], is below theta
                continue
            v = h(min(max(xs, A), B))
            if v >= theta:
                for k in range(K1):
                    out[k] = n[k]
                return 1, v, work
            continue
        R = 1.0 - s
        if R < 0.0:
            R = 0.0
        if B + R * maxhi[i + 1] + MARGIN < x1 or A + R * minlo[i + 1] - MARGIN > x2:
            continue  # no completion's [A, B] meets the level set
        sa[i + 1] = s
        sA[i + 1] = A
        sB[i + 1] = B
        tot[i + 1] = used
        n[i + 1] = -1
        i += 1
    return 0, 0.0, work


def decide_one(h, lo, hi, xs, hmax, prev, out, m, eps, off, tol, sc, budget):
    """The decision of one trial into ``out`` (K-1 coordinates), or :data:`FALLBACK`.

    ``prev``: the previous choice (a first entry of -1: none).  Returns the points and prefixes
    read (the previous choice kept: 0), or :data:`FALLBACK` (``out`` is then undefined).
    """
    n, sa, sA, sB, tot, minlo, maxhi = sc
    K = lo.shape[0]
    K1 = K - 1
    if prev[0] >= 0:
        for k in range(K1):
            n[k] = prev[k]
        vprev = _point(h, n, K, eps, off, lo, hi, xs)[2]
        if vprev >= hmax - tol:  # M <= h_max: kept
            for k in range(K1):
                out[k] = prev[k]
            return 1
    # suffix minima of lo and maxima of hi (the relaxation of a prefix)
    minlo[K] = np.inf
    maxhi[K] = -np.inf
    for k in range(K - 1, -1, -1):
        minlo[k] = min(minlo[k + 1], lo[k])
        maxhi[k] = max(maxhi[k + 1], hi[k])
    theta = hmax - tol
    x1, x2, work = _level_set(h, xs, hmax, theta)
    found, v1, w = _first(h, K, m, eps, off, lo, hi, xs, theta, x1, x2, sc, out, budget)
    work += w
    if found < 0 or found == 0:
        return FALLBACK  # no point within tol of h_max (M < h_max - tol), or too much work
    if v1 >= hmax:
        return work  # M = h_max; out is the first point with v >= M - tol
    # is there a point with v = h_max? (then M = h_max and out is the decision)
    y1, y2, w = _level_set(h, xs, hmax, hmax)
    work += w
    found, v2, w = _first(h, K, m, eps, off, lo, hi, xs, hmax, y1, y2, sc, n, budget)
    work += w
    if found <= 0:
        return FALLBACK
    return work


def _decide_rows(h, LO, HI, xs, hmax, PREV, m, eps, off, tol, sc, budget, out, work):
    for b in range(LO.shape[0]):
        work[b] = _decide(h, LO[b], HI[b], xs, hmax, PREV[b], out[b], m, eps, off, tol, sc, budget)
    return 0


_decide = decide_one

#: Inlined into their callers by numba.
_INLINE = ("_point",)


def compiled_search():
    """:func:`decide_one` compiled (on first use, or loaded from the on-disk cache), for compiled callers."""
    if not _COMPILED:
        g = globals()
        for name in ("_point", "_end", "_level_set", "_first", "decide_one"):
            _COMPILED[name] = g[name] = edge_lines.njit_cached(
                g[name], inline="always" if name in _INLINE else "never", nrt=False)
        g["_decide"] = g["decide_one"]
        _COMPILED["_decide_rows"] = edge_lines.njit_cached(_decide_rows, nrt=False)
    return _COMPILED["decide_one"]


def decide(d, grid, lo, hi, previous=None, tol: float = edge_lines.TIE_TOL, budget: int = WORK_BUDGET):
    """Decisions of rows by :func:`decide_one` (for tests and benchmarks).

    Returns (counts (B, K-1), work (B,)); rows with work == :data:`FALLBACK` were not decided.
    """
    from ..objectives.validation import concave_fields

    edge_lines._require(d)
    lo = np.ascontiguousarray(lo, dtype=float)
    hi = np.ascontiguousarray(hi, dtype=float)
    B, K = lo.shape
    prev = np.full((B, K - 1), -1, dtype=np.int64) if previous is None else np.ascontiguousarray(previous,
                                                                                                  dtype=np.int64)
    h = edge_lines.compiled_h(d)
    xs = float(concave_fields(d)["xs_lo"])
    out = np.zeros((B, K - 1), dtype=np.int64)
    work = np.zeros(B, dtype=np.int64)
    compiled_search()
    _COMPILED["_decide_rows"](h, lo, hi, xs, h.ctypes(xs), prev, int(grid.budget), float(grid.eps),
                              float(grid.offset), float(tol), scratch(K), int(budget), out, work)
    return out, work
