"""Certificates that decide a grid search without searching: exact, never approximate.

1. *Upper bound* (:func:`root_bound`): the continuous relaxation of the root
   of the branch and bound bounds M, the maximum over the grid, from above.
   If v(prev) >= UB - tol the previous choice is kept by the rule of
   :mod:`rsb_theory.argmax.rule` (:func:`kept_by_upper_bound`).  It pays off
   for RS-UCB-M, whose value is max h on an interval of means and often equals
   the global max of h.

2. *Neighbours* (:func:`neighbour_best`): the values of the grid points one
   unit move from ``previous`` are lower bounds on M; for ETC and RS-UCB they
   often reach the objective's certificate (max h) and end the search for M.

3. *Candidate sets* (:class:`CandidateSets`, small grids).  At a full search
   at time s the objective is evaluated on the whole grid; the n best points S
   (plus the choice) are kept, sorted in lexicographic order, with
   out_s = the best value outside S.  For any point a outside S and any later t

       v_t(a) <= out_s + L_H D^q + L_bonus max_i (r_{t,i}^q - r_{s,i}^q)      (CE-UCB-M)
       v_t(a) <= out_s + L_H D^q                                            (RS-UCB-M)

   with D = max_i |phat_{t,i} - phat_{s,i}| and (q, L_H) the Hölder exponent
   and *exact* constant of h (:func:`rsb_theory.holder.holder`, ``L_exact``):
   h(<a, phat_t>) - h(<a, phat_s>) <= L_H |<a, phat_t - phat_s>|^q <= L_H D^q;
   the radii only shrink (counts only grow), so with
   c_i = r_{t,i}^q - r_{s,i}^q <= 0 and sum_i a_i^q >= 1 the bonus changes by
   L sum_i a_i^q c_i <= L max_i c_i; for RS-UCB-M the interval of means
   [<a, lo>, <a, hi>] at t lies within D of the one at s, so its max of h grows
   by at most L_H D^q.  If the exact maximum over S, Mhat_t, satisfies
   Mhat_t - tol >= bound + guard, no point outside S is optimal or can beat
   prev, so M_t = Mhat_t and the rule applied within S gives the exact
   decision.  The guard (:data:`rsb_theory.objectives.GUARD` relative to the
   values) absorbs floating-point rounding.

   Finite-support arms.  With the support x_1 < ... < x_m in [0, b],
   V(a) = x_1 h(1) + sum_j w_j h(S_j(a)), w_j = x_{j+1} - x_j,
   S_j(a) = sum_i a_i S_ij and S_ij = P_i(X > x_j) the empirical survival of
   arm i on the step [x_j, x_{j+1})
   (:class:`rsb_theory.objectives.FiniteETCObjective`).  S_j(a) is a convex
   combination of the S_ij, so |S_j,t(a) - S_j,s(a)| <= D_j = max_i |S_ij,t -
   S_ij,s| and (clipping to [0, 1] is 1-Lipschitz)

       |V_t(a) - V_s(a)| <= L_H sum_j w_j D_j^q,

   which replaces L_H D^q above (the bonus part is unchanged; its constant is
   the objective's L).  Bernoulli arms are the case m = 2, x = (0, 1): one
   step, w = 1, S_i1 = phat_i, D_1 = D.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..objectives import GUARD, Objective, guard
from .lattice import unit_moves
from .rule import TIE_TOL

__all__ = ["root_bound", "kept_by_upper_bound", "neighbour_best", "CandidateSets"]


def root_bound(obj: Objective) -> np.ndarray:
    """Continuous relaxation of the root: an upper bound on M for every trial, shape (B,).

    ETC: max of h on [min phat, max phat]; RS-UCB: max of h on [min lo, max hi];
    CE-UCB: that plus L * max_a sum_i (a_i r_i)^q (= L max r for q = 1, else
    L (sum_i r_i^{q/(1-q)})^{1-q} by Hölder); finite-support arms: the same per
    step of the support.  The intervals are widened by
    :data:`rsb_theory.objectives.MARGIN` and the guard is added, so
    v(previous) >= root_bound - tol certifies that ``previous`` is kept.
    Requires a concave h (the caller checks; :func:`rsb_theory.argmax.upper_bound` is the checked form).
    """
    b = obj.bound(obj.suffix(), obj.zero((obj.B,)), 0, np.arange(obj.B))
    return b + guard(b)


def kept_by_upper_bound(obj: Objective, grid: Grid, counts: np.ndarray, tol: float = TIE_TOL) -> np.ndarray:
    """Certificate 1: v(counts) >= upper_bound - tol per trial (``counts`` (B, K-1) grid points)."""
    v = obj.values_at(grid, counts, np.arange(obj.B))
    return v >= root_bound(obj) - tol


def neighbour_best(obj: Objective, grid: Grid, prev: np.ndarray, has: np.ndarray) -> np.ndarray:
    """Best value among the grid points one unit move from ``prev`` (-inf where none or no previous)."""
    out = np.full(obj.B, -np.inf)
    rows = np.flatnonzero(has)
    cand = prev[rows][:, None, :] + unit_moves(grid.K - 1)[None, :, :]  # (b, moves, K-1)
    ok = np.all(cand >= 0, axis=-1) & (cand.sum(axis=-1) <= grid.budget)
    if not ok.any():
        return out
    r_idx, m_idx = np.nonzero(ok)
    vals = obj.values_at(grid, cand[r_idx, m_idx], rows[r_idx])
    np.maximum.at(out, rows[r_idx], vals)
    return out


class CandidateSets:
    """Certificate 3 for B trials on a materialised grid (module docstring).

    Parameters
    ----------
    B : int
    size : int
        Number of grid points (S holds indices into the grid in lexicographic order).
    n : int
        Size of each candidate set (at most ``size``).
    K : int
    holder_q, holder_L : float
        Hölder exponent and exact constant of h.
    L_bonus : float
        CE-UCB-M bonus constant (0 for the other objectives).
    step_widths : numpy.ndarray, shape (J,), optional
        Finite-support arms: the widths w_j of the steps; the drift statistic is
        then the survival array (B, K, J).  None: Bernoulli arms, means (B, K).
    """

    def __init__(self, B: int, size: int, n: int, K: int, holder_q: float, holder_L: float, L_bonus: float,
                 step_widths: np.ndarray | None = None) -> None:
        self.q, self.Lh, self.Lb = float(holder_q), float(holder_L), float(L_bonus)
        self.w = None if step_widths is None else np.asarray(step_widths, dtype=float)
        self.size = size
        self.S = np.zeros((B, min(n, size)), dtype=np.int64)
        self.out = np.full(B, -np.inf)  # best value outside S (-inf: S is the whole grid)
        self.valid = np.zeros(B, dtype=bool)
        self.stat_s = np.zeros((B, K) if self.w is None else (B, K, self.w.size))
        self.rq_s = np.zeros((B, K))

    def rebuild(self, rows: np.ndarray, V: np.ndarray, choice: np.ndarray, stat: np.ndarray,
                rq: np.ndarray | None) -> None:
        """New sets for ``rows`` from the values ``V`` (b, size) of a full search that chose ``choice`` (b,)."""
        b, size = V.shape
        n = self.S.shape[1]
        if n < size:
            part = np.argpartition(-V, n - 1, axis=1)[:, :n]
            inS = np.zeros((b, size), dtype=bool)
            np.put_along_axis(inS, part, True, axis=1)
            missing = ~inS[np.arange(b), choice]
            if missing.any():  # the choice must be in S: replace the worst member
                mr = np.flatnonzero(missing)
                worst = np.argmin(np.take_along_axis(V[mr], part[mr], axis=1), axis=1)
                inS[mr, part[mr, worst]] = False
                part[mr, worst] = choice[mr]
                inS[mr, choice[mr]] = True
            out = np.where(inS, -np.inf, V).max(axis=1)
        else:
            part = np.broadcast_to(np.arange(size), (b, size))
            out = np.full(b, -np.inf)
        self.S[rows] = np.sort(part, axis=1)
        self.out[rows] = out
        self.valid[rows] = True
        self.stat_s[rows] = stat
        if rq is not None:
            self.rq_s[rows] = rq

    def outside_bound(self, rows: np.ndarray, stat: np.ndarray, rq: np.ndarray | None) -> np.ndarray:
        """Upper bound on the value of every point outside S now (without the guard)."""
        D = np.abs(stat - self.stat_s[rows]).max(axis=1)  # (b,) or (b, J)
        drift = D ** self.q if self.w is None else (D ** self.q) @ self.w
        bound = self.out[rows] + self.Lh * (1.0 + GUARD) * drift
        if rq is not None:
            bound = bound + self.Lb * np.minimum((rq - self.rq_s[rows]).max(axis=1), 0.0)
        return bound

    def certified(self, rows: np.ndarray, vS: np.ndarray, stat: np.ndarray, rq: np.ndarray | None,
                  tol: float = TIE_TOL) -> np.ndarray:
        """Trials of ``rows`` whose decision lies in S: Mhat - tol >= outside bound + guard.

        ``vS`` (b, n): the values of S now; ``stat``, ``rq``: the drift statistics of ``rows`` now.
        """
        Mhat = vS.max(axis=1)
        out = self.out[rows]
        bound = self.outside_bound(rows, stat, rq)
        with np.errstate(invalid="ignore"):
            bound = bound + GUARD * np.maximum(1.0, np.maximum(np.abs(out), np.abs(Mhat)))
        return (Mhat - tol >= bound) | np.isneginf(out)
