"""Leaf lines of the branch and bound: the prefix (n_1, ..., n_{K-2}) fixed, t = n_{K-1} free.

On a line the objective is concave in t (concave h).  For the objectives whose
value is h at a linear mean (ETC, RS-UCB: ``mean_lines``) the maximiser is
located in closed form: the value is monotone between the parameters at which
the means cross the maximisers of h, so the values around those crossings are
evaluated (:meth:`LineSearch._crossings`); for CE-UCB a vectorised binary
search on the sign of v(t+1) - v(t) is used, then the neighbours are evaluated
(:meth:`LineSearch._peak_search`).  (Nearly) flat lines -- tied arms -- carry
mathematically equal values that differ by rounding: their computed maximum
is found by a full scan.  The smallest (largest) t with v(t) >= thr is found
by a scan of short lines or a guarded binary search on long ones.
"""

from __future__ import annotations

import numpy as np

from .rows import CHUNK, Rows

__all__ = ["FLAT", "LINE_SCAN", "LineSearch"]

#: A line whose ends and peak agree within FLAT (relative) is scanned point by point.
FLAT = 1e-9

#: Lines shorter than this are scanned point by point where exactness matters.
LINE_SCAN = 4096


class LineSearch:
    """The line routines of :class:`rsb_theory.argmax.bnb.Search` (a mixin: it needs ``obj``,
    ``grid``, ``K``, ``m`` (the grid budget), ``eps``, ``off`` (the grid offset) and the
    per-trial counter ``lines``)."""

    def line_values(self, rows: Rows, t: np.ndarray) -> np.ndarray:
        """Objective on lines ``rows`` (depth K-2) at t = n_{K-1}, t of shape (n, c)."""
        tr = rows.trial[:, None]
        obj = self.obj
        acc = obj.push(tuple(a[:, None] for a in rows.acc), self.K - 2, self.grid.weights(t), tr)
        return obj.close(acc, tr)

    def _crossings(self, rows: Rows, r: np.ndarray) -> np.ndarray:
        """Candidate t (n, c) around the crossings of the linear means with the maximisers of h.

        Between two crossings the value is monotone in t (h is monotone on each side
        of its maximisers), so a maximiser is within one step of a crossing or at an end.
        """
        obj, K = self.obj, self.K
        tr = rows.trial
        a0 = self.eps * self.off
        fams = obj.mean_families(rows.acc)
        targets = [obj.xs_lo] if obj.xs_lo == obj.xs_hi else [obj.xs_lo, obj.xs_hi]
        cands = []
        sa = rows.acc[0]
        rf = r.astype(float)
        for s, p in fams:
            p1, p2 = p[tr, K - 2], p[tr, K - 1]
            x0 = (s + a0 * p1) + (1.0 - (sa + a0)) * p2
            sl = self.eps * (p1 - p2)
            nz = sl != 0
            for target in targets:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    tc = np.where(nz, (target - x0) / np.where(nz, sl, 1.0), 0.0)
                tc = np.floor(np.clip(tc, -2.0, rf + 2.0)).astype(np.int64)
                cands.extend(tc + j for j in (-1, 0, 1, 2))
        c = np.stack(cands, axis=1)
        return np.clip(c, 0, r[:, None])

    def _peak_search(self, rows: Rows, r: np.ndarray) -> np.ndarray:
        """Candidate t (n, 3) around the peak of a concave line (binary search on v(t+1) - v(t))."""
        lo = np.zeros_like(r)
        hi = r.copy()
        for _ in range(int(r.max()).bit_length() + 1):
            act = lo < hi
            if not act.any():
                break
            mid = (lo + hi) // 2
            v = self.line_values(rows, np.stack([mid, np.minimum(mid + 1, r)], axis=1))
            up = v[:, 1] > v[:, 0]
            lo = np.where(act & up, mid + 1, lo)
            hi = np.where(act & ~up, mid, hi)
        c = np.stack([lo - 1, lo, lo + 1], axis=1)
        return np.clip(c, 0, r[:, None])

    def line_max(self, rows: Rows) -> tuple[np.ndarray, np.ndarray]:
        """(max value, the first maximising candidate t) on each line."""
        self.lines += np.bincount(rows.trial, minlength=self.obj.B)
        r = self.m - rows.used
        c = self._crossings(rows, r) if self.obj.mean_lines else self._peak_search(rows, r)
        c = np.concatenate([c, np.zeros_like(r)[:, None], r[:, None]], axis=1)
        v = self.line_values(rows, c)
        j = np.argmax(v, axis=1)
        ix = np.arange(len(rows))
        vmax, tmax = v[ix, j], c[ix, j]
        # (nearly) flat lines -- e.g. tied arms -- carry mathematically equal values that
        # differ by rounding: their computed maximum is found by a full scan (concavity:
        # the ends and the peak within FLAT bound every value of the line)
        flat = (vmax - v.min(axis=1) <= FLAT * np.maximum(1.0, np.abs(vmax))) & (r > 0)
        if np.any(flat):
            idx = np.flatnonzero(flat)
            vmax[idx], tmax[idx] = self._scan_max(rows.take(idx), r[idx])
        return vmax, tmax

    def _scan_max(self, rows: Rows, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact (computed) maximum and its first t on each line, by evaluating every point."""
        best = np.full(len(rows), -np.inf)
        arg = np.zeros(len(rows), dtype=np.int64)
        width = max(1, min(int(r.max()) + 1, LINE_SCAN))
        step = max(1, CHUNK // width)
        for s0 in range(0, len(rows), step):
            ii = np.arange(s0, min(s0 + step, len(rows)))
            part = rows.take(ii)
            for t0 in range(0, int(r[ii].max()) + 1, width):
                t = np.minimum(t0 + np.arange(width)[None, :], r[ii, None])
                v = self.line_values(part, t)
                j = np.argmax(v, axis=1)
                vj = v[np.arange(ii.size), j]
                better = vj > best[ii]
                best[ii] = np.where(better, vj, best[ii])
                arg[ii] = np.where(better, t[np.arange(ii.size), j], arg[ii])
        return best, arg

    def _whole_lines(self, rows: Rows, idx: np.ndarray, r: np.ndarray):
        """Every point of the lines ``idx``, in blocks of at most CHUNK values: yields
        (line indices (n,), mask t <= r (n, width), values (n, width)) with t = 0..width-1."""
        width = int(r[idx].max()) + 1
        step = max(1, CHUNK // width)
        for s0 in range(0, idx.size, step):
            ii = idx[s0:s0 + step]
            t = np.broadcast_to(np.arange(width), (ii.size, width))
            yield ii, t <= r[ii, None], self.line_values(rows.take(ii), t)

    def first_at_least(self, rows: Rows, thr: np.ndarray, t_best: np.ndarray) -> np.ndarray:
        """Smallest t on each line with v(t) >= thr (one exists: t_best).

        Lines of at most LINE_SCAN points are scanned; longer ones use a binary search
        on [0, t_best] (v is non-decreasing there) followed by a scan of the 64 points
        before the result (rounding guard).
        """
        r = self.m - rows.used
        out = t_best.copy()
        short = r + 1 <= LINE_SCAN
        if np.any(short):
            for ii, inside, v in self._whole_lines(rows, np.flatnonzero(short), r):
                out[ii] = np.argmax(inside & (v >= thr[ii, None]), axis=1)
        if np.any(~short):
            idx = np.flatnonzero(~short)
            sub = rows.take(idx)
            th = thr[idx]
            lo = np.zeros(idx.size, dtype=np.int64)
            hi = t_best[idx].copy()
            for _ in range(int(hi.max()).bit_length() + 1):
                act = lo < hi
                if not act.any():
                    break
                mid = (lo + hi) // 2
                ok = self.line_values(sub, mid[:, None])[:, 0] >= th
                lo = np.where(act & ~ok, mid + 1, lo)
                hi = np.where(act & ok, mid, hi)
            t = np.clip(lo[:, None] + np.arange(-64, 1), 0, None)
            ok = (self.line_values(sub, t) >= th[:, None]) & (t <= lo[:, None])
            out[idx] = t[np.arange(idx.size), np.argmax(ok, axis=1)]
        return out

    def _last_at_least(self, rows: Rows, thr: np.ndarray, t_best: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Largest t >= t_best with v(t) >= thr on each line (mirror of :meth:`first_at_least`, long lines)."""
        lo = t_best.copy()
        hi = r.copy()
        for _ in range(int(r.max()).bit_length() + 1):
            act = lo < hi
            if not act.any():
                break
            mid = (lo + hi + 1) // 2
            ok = self.line_values(rows, mid[:, None])[:, 0] >= thr
            lo = np.where(act & ok, mid, lo)
            hi = np.where(act & ~ok, mid - 1, hi)
        t = np.minimum(lo[:, None] + np.arange(0, 65), r[:, None])
        run = np.cumprod(self.line_values(rows, t) >= thr[:, None], axis=1).astype(bool)
        return t[np.arange(len(rows)), run.sum(axis=1) - 1]

    def _line_stats(self, rows: Rows, thr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per line: number of t with v(t) >= thr and the largest value below thr (-inf if none)."""
        r = self.m - rows.used
        n = len(rows)
        cnt = np.zeros(n, dtype=np.int64)
        sec = np.full(n, -np.inf)
        short = r + 1 <= LINE_SCAN
        if np.any(short):
            for ii, inside, v in self._whole_lines(rows, np.flatnonzero(short), r):
                opt = inside & (v >= thr[ii, None])
                cnt[ii] = opt.sum(axis=1)
                sec[ii] = np.where(inside & ~opt, v, -np.inf).max(axis=1)
        if np.any(~short):
            idx = np.flatnonzero(~short)
            part = rows.take(idx)
            th = thr[idx]
            rr = r[idx]
            vmax, tb = self.line_max(part)
            has = vmax >= th
            left = np.where(has, self.first_at_least(part, th, tb), 0)
            right = np.where(has, self._last_at_least(part, th, tb, rr), -1)
            cnt[idx] = np.where(has, right - left + 1, 0)
            vl = self.line_values(part, np.clip(left - 1, 0, None)[:, None])[:, 0]
            vr = self.line_values(part, np.minimum(right + 1, rr)[:, None])[:, 0]
            s = np.where(has, -np.inf, vmax)
            s = np.where(has & (left > 0), np.maximum(s, vl), s)
            s = np.where(has & (right < rr), np.maximum(s, vr), s)
            sec[idx] = s
        return cnt, sec
