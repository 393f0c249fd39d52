"""Exact mixture decisions for a batch of trials, skipping searches that provably cannot matter.

The decision rule (ARCHITECTURE.md): with M the maximum of the objective over
the grid, keep the previous mixture while v(prev) >= M - TIE_TOL, otherwise
take the first grid point in lexicographic order with v >= M - TIE_TOL.  All
values are computed by :func:`rsb_theory.argmax.values` (one canonical
floating-point routine), full searches by :func:`rsb_theory.argmax.argmax`
or, for grids small enough, by enumerating every point with the same routine.

Two certificates avoid a search; neither approximates a decision.

1. *Upper bound* (:func:`rsb_theory.argmax.upper_bound`, a continuous
   relaxation with M <= UB): if v(prev) >= UB - TIE_TOL then prev is kept.
   Used for RS-UCB-M, whose value is max h on an interval of means and often
   equals the global max of h.

2. *Candidate set* (small grids).  At a full search at time s the objective is
   evaluated on the whole grid; we keep the n best points S (plus the choice),
   sorted in lexicographic order, and out_s = the best value outside S.  For any
   point a outside S and any later t

       v_t(a) <= out_s + L_H D^q + L_bonus max_i (r_{t,i}^q - r_{s,i}^q)       (CE-UCB-M)
       v_t(a) <= out_s + L_H D^q                                             (RS-UCB-M)

   with D = max_i |phat_{t,i} - phat_{s,i}| and (q, L_H) the Hölder exponent and
   *exact* constant of h (:func:`rsb_theory.holder.holder`, ``L_exact``):
   h(<a, phat_t>) - h(<a, phat_s>) <= L_H |<a, phat_t - phat_s>|^q <= L_H D^q;
   the radii only shrink (counts only grow), so with c_i = r_{t,i}^q - r_{s,i}^q
   <= 0 and sum_i a_i^q >= 1, the bonus changes by L sum_i a_i^q c_i <= L max_i c_i;
   for RS-UCB-M the interval of means [<a, lo>, <a, hi>] at t lies within D of
   the one at s, so its max of h grows by at most L_H D^q.  If the exact maximum
   over S, Mhat_t, satisfies Mhat_t - TIE_TOL >= bound + guard, no point
   outside S is optimal or can beat prev, so M_t = Mhat_t and the rule applied
   within S gives the exact decision.  Otherwise the trial gets a full search.
   The guard 1e-12 * max(1, |value|) absorbs floating-point rounding.

   Finite-support arms (``etc_finite``/``ce_finite`` objectives).  With the
   support x_1 < ... < x_m in [0, b], V(a) = x_1 h(1) + sum_j w_j h(S_j(a)),
   w_j = x_{j+1} - x_j, S_j(a) = sum_i a_i S_ij and S_ij = P_i(X > x_j) the
   empirical survival of arm i on the step [x_j, x_{j+1})
   (:func:`rsb_theory.argmax.etc_objective_finite`).  S_j(a) is a convex
   combination of the S_ij, so |S_j,t(a) - S_j,s(a)| <= D_j = max_i |S_ij,t -
   S_ij,s| and (clipping to [0, 1] is 1-Lipschitz)

       |V_t(a) - V_s(a)| <= L_H sum_j w_j D_j^q,

   which replaces L_H D^q above (the bonus part is unchanged; its constant is
   the objective's L).  Bernoulli arms are the case m = 2, x = (0, 1): one step,
   w = 1, S_i1 = phat_i, D_1 = D.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rsb_theory import argmax as am
from rsb_theory.grids import Grid

from .rules import TIE_TOL

#: Grids with at most this many points are always enumerated (and may get candidate sets).
ENUM_MAX = 20_000

#: Grids with at most this many points are materialised (points and their lexicographic keys), so a
#: search for a few trials can enumerate them even above ENUM_MAX.
STORE_MAX = 200_000

#: Above ENUM_MAX, a search enumerates when (trials searched) x (grid points) is at most this; the
#: branch and bound of :func:`rsb_theory.argmax.argmax` has a fixed cost of about 10-20 ms per call,
#: far more than enumerating 26 334 points (K = 6, eps = 0.05) for one or two trials, which is the
#: typical RS-UCB-M search (measured: K = 6, T = 6e4, 1000 trials: 13 517 searches of 1.6 trials on
#: average took 214 s by branch and bound).
ENUM_BUDGET = 1 << 22

#: (trials x points) values evaluated at once by the enumeration.
ENUM_CHUNK = 1 << 21

#: Size of the candidate set S kept per trial.
N_CAND = 12

GUARD = 1e-12


def fast_values(obj, P: np.ndarray) -> np.ndarray:
    """Objective of ``obj`` at mixtures ``P``: shape (n, K) shared by all trials or (b, n, K); returns (b, n).

    The same mathematics as :func:`rsb_theory.argmax.values` with matrix
    products (rounding differs by a few ulps; decisions use TIE_TOL).
    """
    h = obj.d.numeric

    def dot(x):  # <a, x> per trial and point (elementwise: BLAS is slow for these shapes)
        if P.ndim == 2:
            out = x[:, 0, None] * P[None, :, 0]
            for k in range(1, P.shape[1]):
                out += x[:, k, None] * P[None, :, k]
            return out
        return (P * x[:, None, :]).sum(axis=-1)

    if obj.kind == "rs_ucb":
        return h(np.minimum(np.maximum(obj.xs_lo, dot(obj.lo)), dot(obj.hi)))
    if obj.finite:
        v = None
        for j in range(obj.widths.size):
            w = float(obj.widths[j])
            if w == 0.0:
                continue
            term = w * (h(np.clip(dot(obj.surv[:, :, j]), 0.0, 1.0)) - (obj.h1 if obj.left[j] else 0.0))
            v = term if v is None else v + term
        if v is None:  # a support {0}: cannot happen (two points at least), kept for safety
            v = np.zeros((obj.B, P.shape[-2]))
    else:
        v = h(np.clip(dot(obj.phat), 0.0, 1.0))
    if obj.kind in ("ce_ucb", "ce_finite"):
        if obj.q == 1.0:
            v = v + obj.L * dot(obj.radius)
        else:
            Pb = P[None, :, :] if P.ndim == 2 else P
            v = v + obj.L * np.sum((Pb * obj.radius[:, None, :]) ** obj.q, axis=-1)
    return v


@dataclass
class SearchStats:
    """Counters: full searches, candidate-set decisions and upper-bound certificates (trial-steps)."""

    full: int = 0
    candidate: int = 0
    upper_bound: int = 0
    quick: int = 0


class Searcher:
    """Current decision (grid coordinates) of B trials and the state of the certificates.

    Parameters
    ----------
    grid : Grid
    B : int
    holder_q, holder_L : float
        Hölder exponent and exact constant of h (``holder_L = nan`` disables the
        candidate certificate).
    L_bonus : float
        CE-UCB-M bonus constant (0 for the other objectives).
    use_upper_bound : bool
        Try certificate 1 first.
    n_cand : int
    use_candidates : bool
        Keep candidate sets (certificate 2).  Turning it off never changes a
        decision, only which searches run; it is off for RS-UCB-M, where the
        interval certificate of the policy decides almost every step and the
        candidate bookkeeping (a partial sort of every enumerated grid) cost
        more than it saved (measured: 0 of 3e6 trial-steps decided by it at
        K = 4, 18 at K = 2).
    step_widths : numpy.ndarray, shape (J,), optional
        Finite-support arms: the widths w_j of the steps of the survival
        functions; the drift statistic passed as ``phat`` to :meth:`full` and
        :meth:`step` is then the survival array S_ij of shape (B, K, J) and the
        candidate bound uses L_H sum_j w_j D_j^q (module docstring).  None:
        Bernoulli arms, ``phat`` of shape (B, K).
    """

    def __init__(self, grid: Grid, B: int, holder_q: float, holder_L: float, L_bonus: float,
                 use_upper_bound: bool, n_cand: int = N_CAND, enum_max: int = ENUM_MAX,
                 step_widths: np.ndarray | None = None, use_candidates: bool = True) -> None:
        self.grid, self.B = grid, B
        self.w = None if step_widths is None else np.asarray(step_widths, dtype=float)
        self.q, self.Lh, self.Lb = float(holder_q), float(holder_L), float(L_bonus)
        self.use_ub = use_upper_bound
        self.small = grid.size <= enum_max
        self.stored = self.small or grid.size <= STORE_MAX
        self.cand_ok = self.small and math.isfinite(self.Lh) and use_candidates
        self.stats = SearchStats()
        K1 = grid.K - 1
        self.cur = np.full((B, K1), -1, dtype=np.int64)
        self.a = np.zeros((B, grid.K))
        if self.stored:
            self.all_counts = grid.counts()
            self.all_points = am.points_of(grid, self.all_counts)
            self.idx = np.full(B, -1, dtype=np.int64)
            # mixed-radix keys of the counts: increasing in lexicographic order (rank of a point)
            self._radix = (grid.budget + 1) ** np.arange(K1 - 1, -1, -1, dtype=np.int64)
            self._keys = self.all_counts @ self._radix
        if self.small:
            n = min(n_cand, grid.size)
            self.S = np.zeros((B, n), dtype=np.int64)
            self.out = np.full(B, -np.inf)  # best value outside S (-inf: S is the whole grid)
            self.has_S = np.zeros(B, dtype=bool)
            self.phat_s = np.zeros((B, grid.K) if self.w is None else (B, grid.K, self.w.size))
            self.rq_s = np.zeros((B, grid.K))

    # ------------------------------------------------------------------
    def _enumerate(self, obj, rows: np.ndarray, phat: np.ndarray, rq: np.ndarray | None) -> None:
        """Full enumeration for ``rows`` (obj built for exactly these rows): decide, rebuild S."""
        b, size = rows.size, self.grid.size
        V = np.empty((b, size))
        J = 1 if self.w is None else self.w.size
        step = max(1, ENUM_CHUNK // max(b * self.grid.K * J, 1))
        for lo in range(0, size, step):
            V[:, lo:lo + step] = fast_values(obj, self.all_points[lo:lo + step])
        M = V.max(axis=1)
        thr = M - TIE_TOL
        prev = self.idx[rows]
        has = prev >= 0
        keep = np.zeros(b, dtype=bool)
        if has.any():
            keep[has] = V[np.flatnonzero(has), prev[has]] >= thr[has]
        first = np.argmax(V >= thr[:, None], axis=1)
        new = np.where(keep, prev, first)
        changed = new != prev
        if changed.all():
            self._set(rows, new)
        elif changed.any():
            self._set(rows[changed], new[changed])
        if self.cand_ok:
            n = self.S.shape[1]
            if n < size:
                part = np.argpartition(-V, n - 1, axis=1)[:, :n]
                inS = np.zeros((b, size), dtype=bool)
                np.put_along_axis(inS, part, True, axis=1)
                missing = ~inS[np.arange(b), new]
                if missing.any():  # the choice must be in S: replace the worst member
                    mr = np.flatnonzero(missing)
                    worst = np.argmin(np.take_along_axis(V[mr], part[mr], axis=1), axis=1)
                    inS[mr, part[mr, worst]] = False
                    part[mr, worst] = new[mr]
                    inS[mr, new[mr]] = True
                out = np.where(inS, -np.inf, V).max(axis=1)
            else:
                part = np.broadcast_to(np.arange(size), (b, size))
                out = np.full(b, -np.inf)
            self.S[rows] = np.sort(part, axis=1)
            self.out[rows] = out
            self.has_S[rows] = True
            self.phat_s[rows] = phat
            if rq is not None:
                self.rq_s[rows] = rq
        self.stats.full += b

    def _set(self, rows: np.ndarray, new_idx: np.ndarray) -> None:
        self.idx[rows] = new_idx
        self.cur[rows] = self.all_counts[new_idx]
        self.a[rows] = self.all_points[new_idx]

    def _bnb(self, obj, rows: np.ndarray) -> None:
        prev = self.cur[rows]
        dec = am.argmax(obj, self.grid, previous=prev)
        self.cur[rows] = dec.counts
        self.a[rows] = dec.points
        if self.stored:
            self.idx[rows] = np.searchsorted(self._keys, dec.counts @ self._radix)
        self.stats.full += rows.size

    def full(self, obj, rows: np.ndarray, phat: np.ndarray, rq: np.ndarray | None = None) -> None:
        """Full search for ``rows`` (obj built for exactly these rows).

        Enumeration of every grid point for small grids, and for materialised
        grids when few trials are searched (:data:`ENUM_BUDGET`); otherwise the
        branch and bound of :func:`rsb_theory.argmax.argmax`.  Both apply the
        same decision rule (tests compare each with the reference loop).
        """
        if rows.size == 0:
            return
        if self.small or (self.stored and rows.size * self.grid.size <= ENUM_BUDGET):
            self._enumerate(obj, rows, phat, rq)
        else:
            self._bnb(obj, rows)

    # ------------------------------------------------------------------
    def step(self, build, phat: np.ndarray, rq: np.ndarray | None, rows=None) -> None:
        """Update every trial's decision for new estimates.

        Parameters
        ----------
        build : callable(rows) -> Objective
            Builds the objective for the trials ``rows`` (int array).
        phat : numpy.ndarray, shape (B, K), or (B, K, J) for finite-support arms
            Current estimated means (survival functions S_ij for finite support).
        rq : numpy.ndarray, shape (B, K) or None
            Current radius^q (CE-UCB-M), else None.
        rows : int array, optional
            Only these trials (the others are known to keep their mixture).
        """
        B = self.B
        todo = np.arange(B) if rows is None else np.asarray(rows)
        last: list = []  # (rows, objective) of the last build: rebuilt only when the rows change

        def objective(r: np.ndarray):
            if not last or last[0].size != r.size or not np.array_equal(last[0], r):
                last[:] = [r, build(r)]
            return last[1]

        if self.use_ub:
            obj = objective(todo)
            vp = am.values(obj, self.grid, self.cur[todo][:, None, :])[:, 0]
            ok = vp >= am.upper_bound(obj) - TIE_TOL
            self.stats.upper_bound += int(ok.sum())
            if ok.all():
                return
            todo = todo[~ok]
        if self.cand_ok:
            valid = self.has_S[todo]
            if valid.any():
                rows = todo[valid]
                o = objective(rows)
                S = self.S[rows]
                vS = fast_values(o, self.all_points[S])
                Mhat = vS.max(axis=1)
                D = np.abs(phat[rows] - self.phat_s[rows]).max(axis=1)  # (b,) or (b, J)
                if self.w is None:
                    drift = D ** self.q
                else:
                    drift = (D ** self.q) @ self.w
                bound = self.out[rows] + self.Lh * (1 + 1e-12) * drift
                if rq is not None:
                    bound = bound + self.Lb * np.minimum((rq[rows] - self.rq_s[rows]).max(axis=1), 0.0)
                with np.errstate(invalid="ignore"):
                    bound = bound + GUARD * np.maximum(1.0, np.maximum(np.abs(self.out[rows]), np.abs(Mhat)))
                ok = (Mhat - TIE_TOL >= bound) | np.isneginf(self.out[rows])
                if ok.any():
                    r_ok = np.flatnonzero(ok)
                    rr = rows[r_ok]
                    v = vS[r_ok]
                    thr = Mhat[r_ok] - TIE_TOL
                    pos_prev = np.argmax(S[r_ok] == self.idx[rr][:, None], axis=1)
                    keep = v[np.arange(r_ok.size), pos_prev] >= thr
                    first = np.argmax(v >= thr[:, None], axis=1)
                    new = np.where(keep, self.idx[rr], S[r_ok, first])
                    changed = new != self.idx[rr]
                    if changed.any():
                        self._set(rr[changed], new[changed])
                    self.stats.candidate += int(r_ok.size)
                    done = np.zeros(B, dtype=bool)
                    done[rr] = True
                    todo = todo[~done[todo]]
                    if todo.size == 0:
                        return
        self.full(objective(todo), todo, phat[todo], None if rq is None else rq[todo])
