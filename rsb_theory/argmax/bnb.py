"""Branch and bound over prefixes of the grid coordinates (concave h): the fast exact route.

All objectives of :mod:`rsb_theory.objectives` are concave in the continuous
mixture when h is concave.  The grid is searched by branch and bound over
prefixes (n_1, ..., n_k), vectorised over (trial, prefix) rows and processed in
slices of at most :data:`rsb_theory.argmax.rows.CHUNK` rows (bounded memory):

* bound of a prefix -- the continuous relaxation of the objective
  (:meth:`rsb_theory.objectives.Objective.bound`: the remaining mass is spread
  arbitrarily over the remaining arms); for CE-UCB (K > 2) also the Lagrangian
  bound (:class:`rsb_theory.objectives.LagrangianBound`) at the mean of the
  first incumbent; the minimum of both is used;
* leaves are *lines* (:mod:`rsb_theory.argmax.lines`): the prefix
  (n_1, ..., n_{K-2}) fixed and t = n_{K-1} free;
* the walk is depth first over slices whose rows are in *rank-major* order (the
  r-th prefix of every trial, then the (r+1)-th, ...), handed over in windows of
  growing rank, so a trial that is finished early costs nothing more;
* phase 1 (:meth:`Search.maximum`) finds M, ranking a trial's prefixes by
  decreasing bound (best first), from a first incumbent (the values of
  ``previous`` and its unit-move neighbours, and a greedy dive); prefixes whose
  bound + guard is not above the incumbent are pruned; when the incumbent
  reaches the objective's certificate (the computed max of h for ETC and
  RS-UCB) no grid value can exceed it and the trial stops;
* phase 2 (:meth:`Search.first_optimal`, only when ``previous`` is not kept)
  walks each trial's prefixes in lexicographic order, pruning those whose
  bound + guard is below M - tol, and stops for a trial at its first line whose
  maximum is >= M - tol; within that line the smallest t with v(t) >= M - tol
  is located.  Pruned prefixes contain no point of the optimal set, so the
  lexicographic rule is unaffected;
* :meth:`Search.second` counts the optimal set and finds the best value
  outside it (``eq:discrete_gap``).

For ETC and RS-UCB a prefix's children are restricted in closed form to those
whose interval of means meets the superlevel set of h at the level
(:meth:`Search._child_range`).
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..objectives import GUARD, MARGIN, Objective, guard
from .lattice import points_of
from .lines import LineSearch
from .rows import CHUNK, Keep, Rows, rank_major

__all__ = ["MIN_SLICE", "Search"]

#: Smallest slice handed over by the progressive walk (amortises Python overhead).
MIN_SLICE = 1 << 12


class Search(LineSearch):
    """Branch and bound for one objective (concave h) on one grid (see the module docstring).

    Attributes
    ----------
    lines : numpy.ndarray, shape (B,), int64
        Leaf lines evaluated per trial so far.
    dived : bool
        :meth:`start` ran (the greedy dive for a first incumbent).
    """

    def __init__(self, obj: Objective, grid: Grid):
        self.obj, self.grid = obj, grid
        self.K, self.m = obj.K, grid.budget
        self.eps, self.off = grid.eps, grid.offset
        self.suf = obj.suffix()
        self.dual = None
        self.dived = False
        self._sl_key, self._sl = None, None
        self.lines = np.zeros(obj.B, dtype=np.int64)
        self.line_cost = obj.line_cost  # work of a line, in children-equivalents
        self.cert = obj.certificate  # no grid value exceeds it (ETC, RS-UCB: the computed max of h)
        # the guard scales with the support's length for finite-support arms (rounding of a sum over the steps)
        self.g = guard(self.bound(obj.zero((obj.B,)), 0, np.arange(obj.B))) * obj.guard_scale

    @property
    def needs_start(self) -> bool:
        """:meth:`start` also sets up a bound used later (CE-UCB, K > 2): it cannot be skipped."""
        return self.obj.lagrangian and self.K > 2

    def start(self) -> np.ndarray:
        """Dive for a first incumbent and, for CE-UCB, switch on the Lagrangian bound at its mean."""
        B = self.obj.B
        self.dived = True
        inc, counts = self.dive(np.arange(B))
        if self.needs_start:
            y0 = np.einsum("bk,bk->b", points_of(self.grid, counts), self.obj.phat)
            self.dual = self.obj.lagrangian_bound(y0)
        return inc

    def bound(self, acc: tuple, i_next: int, trial: np.ndarray) -> np.ndarray:
        b = self.obj.bound(self.suf, acc, i_next, trial)
        if self.dual is not None:
            b = np.minimum(b, self.dual.bound(acc, i_next, trial))
        return b

    # -- rows ---------------------------------------------------------------

    def root(self, trials: np.ndarray) -> Rows:
        obj = self.obj
        n = trials.size
        acc = obj.zero((n,))
        return Rows(trials, np.zeros((n, 0), dtype=np.int64), np.zeros(n, dtype=np.int64), acc,
                     self.bound(acc, 0, trials), 0, np.zeros(n, dtype=np.int64))

    def expand(self, rows: Rows, keep=None) -> Rows:
        """Children of ``rows`` (one more coordinate) that pass ``keep(bound, trial)``.

        Bounds are computed on a (parents, values) array; only the children that pass
        are materialised.  Order: parent-major, value-minor (lexicographic per trial).
        """
        r = self.m - rows.used
        if keep is not None and self.obj.mean_lines:
            nlo, nhi = self._child_range(rows, keep)
        else:
            nlo, nhi = np.zeros_like(r), r
        width = int((nhi - nlo).max(initial=-1)) + 1
        if width <= 0:
            e = np.zeros(0, dtype=np.int64)
            return Rows(e, np.zeros((0, rows.depth + 1), dtype=np.int64), e, tuple(a[e] for a in rows.acc),
                         np.zeros(0), rows.depth + 1)
        n = nlo[:, None] + np.arange(width)[None, :]
        tr = rows.trial[:, None]
        acc = self.obj.push(tuple(a[:, None] for a in rows.acc), rows.depth, self.grid.weights(n), tr)
        bound = self.obj.bound(self.suf, acc, rows.depth + 1, tr)
        ok = n <= nhi[:, None]
        if keep is not None:
            ok &= keep(bound, tr)
        pi, ji = np.nonzero(ok)
        ni = n[pi, ji]
        acc = tuple(a[pi, ji] for a in acc)
        bound = bound[pi, ji]
        trial = rows.trial[pi]
        if self.dual is not None and pi.size:  # the (dearer) Lagrangian bound only where the interval bound passes
            bound = np.minimum(bound, self.dual.bound(acc, rows.depth + 1, trial))
            if keep is not None:
                sel = np.flatnonzero(keep(bound, trial))
                pi, ni, trial, bound = pi[sel], ni[sel], trial[sel], bound[sel]
                acc = tuple(a[sel] for a in acc)
        cols = np.column_stack([rows.cols[pi], ni])
        return Rows(trial, cols, rows.used[pi] + ni, acc, bound, rows.depth + 1)

    def _superlevel(self, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[y_L, y_R] containing {y in [0, 1] : h(y) >= level} (bisection, outward-rounded); cached."""
        key = level.tobytes()
        if self._sl_key == key:
            return self._sl
        obj = self.obj
        h = obj.h
        lam = level
        # left side: h non-decreasing on [0, xs_lo]; keep h(lo) < lam <= h(hi)
        lo = np.zeros_like(lam)
        hi = np.full_like(lam, obj.xs_lo)
        left_all = h(lo) >= lam
        for _ in range(55):
            mid = 0.5 * (lo + hi)
            up = h(mid) >= lam
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid)
        yl = np.where(left_all, 0.0, lo) - 1e-12
        lo = np.full_like(lam, obj.xs_hi)
        hi = np.ones_like(lam)
        right_all = h(hi) >= lam
        for _ in range(55):
            mid = 0.5 * (lo + hi)
            up = h(mid) >= lam
            lo = np.where(up, mid, lo)
            hi = np.where(up, hi, mid)
        yr = np.where(right_all, 1.0, hi) + 1e-12
        empty = ~(obj.h_max + GUARD * max(1.0, abs(obj.h_max)) >= lam)
        yl = np.where(empty, 2.0, yl)
        yr = np.where(empty, -1.0, yr)
        self._sl_key, self._sl = key, (yl, yr)
        return yl, yr

    def _child_range(self, rows: Rows, keep: "Keep") -> tuple[np.ndarray, np.ndarray]:
        """Per parent, a range [nlo, nhi] of child values containing every child whose interval
        bound can pass ``keep`` (ETC, RS-UCB): the child's interval of means must meet the
        superlevel set of h at the level (closed form, linear in the child's weight; widened by 2)."""
        obj, suf = self.obj, self.suf
        tr = rows.trial
        i = rows.depth
        yl, yr = self._superlevel(keep.level - keep.g)
        yl, yr = yl[tr], yr[tr]
        sa = rows.acc[0]
        R = np.maximum(1.0 - sa, 0.0)
        fams = obj.mean_families(rows.acc)
        (s_lo, P_lo), (s_hi, P_hi) = fams[0], fams[-1]
        p_lo, p_hi = P_lo[tr, i], P_hi[tr, i]
        pmin, pmax = suf.pmin[tr, i + 1], suf.pmax[tr, i + 1]
        r = self.m - rows.used
        amin = np.zeros_like(R)
        amax = np.full_like(R, np.inf)
        # lower end of the child's interval: (s_lo + R pmin) + a (p_lo - pmin) <= yr + margin
        for a0, a1, y, upper in ((s_lo + R * pmin, p_lo - pmin, yr + 2 * MARGIN, True),
                                 (s_hi + R * pmax, p_hi - pmax, yl - 2 * MARGIN, False)):
            flat = np.abs(a1) < 1e-9
            with np.errstate(divide="ignore", invalid="ignore"):
                cut = (y - a0) / np.where(flat, 1.0, a1)
            if upper:   # a0 + a a1 <= y
                none = flat & (a0 - 1e-9 > y)
                amax = np.where(~flat & (a1 > 0), np.minimum(amax, cut), amax)
                amin = np.where(~flat & (a1 < 0), np.maximum(amin, cut), amin)
            else:       # a0 + a a1 >= y
                none = flat & (a0 + 1e-9 < y)
                amax = np.where(~flat & (a1 < 0), np.minimum(amax, cut), amax)
                amin = np.where(~flat & (a1 > 0), np.maximum(amin, cut), amin)
            amax = np.where(none, -np.inf, amax)
        with np.errstate(invalid="ignore", over="ignore"):
            nlo = np.floor(np.clip(amin / self.eps - self.off, -4.0, r + 4.0)).astype(np.int64) - 2
            nhi = np.ceil(np.clip(amax / self.eps - self.off, -4.0, r + 4.0)).astype(np.int64) + 2
        return np.maximum(nlo, 0), np.minimum(nhi, r)

    def _slice_end(self, rows: Rows, start: int, sizes: np.ndarray, progressive: bool) -> int:
        """End of the slice of ``rows`` starting at ``start`` (``sizes``: work per row from ``start``).

        The work of a slice is at most CHUNK; when ``progressive`` the slice also ends at
        the next rank window edge (windows [0, 1), [1, 2), [2, 4), ...) unless its work
        would then be below MIN_SLICE (amortises the per-slice overhead).
        """
        cnt = np.cumsum(sizes)
        end = max(1, int(np.searchsorted(cnt, CHUNK, side="right")))
        if progressive:
            r0 = int(rows.rank[start])
            edge = 1 if r0 == 0 else 1 << r0.bit_length()
            stop = int(np.searchsorted(rows.rank[start:start + cnt.size], edge))
            least = int(np.searchsorted(cnt, MIN_SLICE, side="left")) + 1
            end = min(end, max(stop, least))
        return start + max(1, end)

    def walk(self, trials: np.ndarray, keep, on_lines, progressive: bool, by_bound: bool = False) -> None:
        """Depth-first walk over chunks of rows; each trial's prefixes in lexicographic order.

        ``keep(rows)`` -> bool mask of rows to explore (re-evaluated with the current
        state before and after every expansion); ``on_lines(rows)`` processes lines
        (rows of depth K-2).  With ``progressive``, rows are kept in rank-major order
        and handed over in windows of growing rank per trial, so a trial that is
        finished early stops costing anything; ``by_bound`` ranks a trial's rows by
        decreasing bound instead of lexicographically (best first).
        """
        stack: list[tuple[Rows, int]] = [(self.root(trials), 0)]
        K = self.K
        while stack:
            rows, start = stack.pop()
            if rows.depth == K - 2:
                n = len(rows)
                while start < n:
                    end = self._slice_end(rows, start, np.full(min(n - start, CHUNK), self.line_cost),
                                          progressive and rows.rank is not None)
                    part = rows.take(slice(start, end))
                    start = end
                    k = keep(part.bound, part.trial)
                    if k.any():
                        on_lines(part.take(k))
                continue
            end = self._slice_end(rows, start, self.m - rows.used[start:start + CHUNK] + 1, progressive)
            if end < len(rows):
                stack.append((rows, end))
            par = rows.take(slice(start, end))
            k = keep(par.bound, par.trial)
            if not k.any():
                continue
            ch = self.expand(par.take(k), keep)
            if not len(ch):
                continue
            if progressive and not (by_bound and ch.depth == K - 2):  # best-first lines: order is irrelevant
                ch = rank_major(ch, by_bound)
            stack.append((ch, 0))


    def dive(self, trials: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Greedy descent by best bound (first child on ties): (value, counts) per trial."""
        rows = self.root(trials)
        for _ in range(self.K - 2):
            ch = self.expand(rows)
            cnt = self.m - rows.used + 1
            starts = np.cumsum(cnt) - cnt
            gmax = np.maximum.reduceat(ch.bound, starts)
            best = np.flatnonzero(ch.bound >= np.repeat(gmax, cnt))
            par = np.repeat(np.arange(len(rows)), cnt)[best]
            _, first = np.unique(par, return_index=True)
            rows = ch.take(best[first])
        v, t = self.line_max(rows)
        return v, np.column_stack([rows.cols, t])

    # -- phase 1: M ------------------------------------------------------------

    def maximum(self, inc: np.ndarray) -> np.ndarray:
        """Maximum M per trial, starting from lower bounds ``inc`` (values of grid points)."""
        inc = inc.copy()
        done = inc >= self.cert
        g = self.g

        keep = Keep(inc, g, True, done)

        def on_lines(rows):
            v, _ = self.line_max(rows)
            np.maximum.at(inc, rows.trial, v)
            done[:] |= inc >= self.cert

        trials = np.flatnonzero(~done)
        if trials.size:
            self.walk(trials, keep, on_lines, progressive=True, by_bound=True)
        return inc

    # -- phase 2: the lexicographically first optimal point ---------------------

    def first_optimal(self, trials: np.ndarray, thr: np.ndarray) -> np.ndarray:
        """Counts (len(trials), K-1) of the first grid point with v >= thr[trial], in lexicographic order."""
        B, K = self.obj.B, self.K
        g = self.g
        found = np.ones(B, dtype=bool)
        found[trials] = False
        hits = []

        keep = Keep(thr, g, False, found)

        def on_lines(rows):
            v, t = self.line_max(rows)
            ok = np.flatnonzero(v >= thr[rows.trial])
            if ok.size:
                tr, first = np.unique(rows.trial[ok], return_index=True)
                sel = ok[first]
                found[tr] = True
                hits.append((rows.take(sel), t[sel]))

        self.walk(trials, keep, on_lines, progressive=True)
        out = np.full((B, K - 1), -1, dtype=np.int64)
        for part, t in hits:
            tf = self.first_at_least(part, thr[part.trial], t)
            out[part.trial] = np.column_stack([part.cols, tf])
        if np.any(~found[trials]):  # pragma: no cover - M is the value of a line maximum, always found
            raise RuntimeError("argmax: no grid point reaches M - tol; please report this instance")
        return out[trials]


    def second(self, M: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
        """Largest value below M - tol and the number of grid points at or above it, per trial."""
        B = self.obj.B
        thr = M - tol
        g = self.g
        inc2 = np.full(B, -np.inf)
        nopt = np.zeros(B, dtype=np.int64)

        keep = Keep(inc2, g, True)

        def on_lines(rows):
            self.lines += np.bincount(rows.trial, minlength=B)
            c, s = self._line_stats(rows, thr[rows.trial])
            np.add.at(nopt, rows.trial, c)
            np.maximum.at(inc2, rows.trial, s)

        self.walk(np.arange(B), keep, on_lines, progressive=False)
        return inc2, nopt
