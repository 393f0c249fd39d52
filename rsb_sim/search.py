"""Exact mixture decisions for a batch of trials over time, skipping searches that provably cannot matter.

The decision rule (ARCHITECTURE.md, :mod:`rsb_theory.argmax.rule`): with M the
maximum of the objective over the grid, keep the previous mixture while
v(prev) >= M - TIE_TOL, otherwise take the first grid point in lexicographic
order with v >= M - TIE_TOL.  Every value is the objective's own evaluation
(:mod:`rsb_theory.objectives`); a full search is the branch and bound of
:func:`rsb_theory.argmax.argmax` or, for grids small enough, the enumeration of
every point of the materialised grid.  Before a full search, two certificates
of :mod:`rsb_theory.argmax.certificates` are tried (the upper bound, the
candidate sets); neither approximates a decision.  This module only decides,
per step, which trials need which route.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rsb_theory import argmax as am
from rsb_theory.argmax.certificates import CandidateSets, kept_by_upper_bound
from rsb_theory.argmax.enumeration import ENUM_CHUNK
from rsb_theory.argmax.rule import choose
from rsb_theory.grids import Grid

#: Grids with at most this many points are always enumerated (and may get candidate sets).
ENUM_MAX = 20_000

#: Grids with at most this many points are materialised (points and their lexicographic keys), so a
#: search for a few trials can enumerate them even above ENUM_MAX.
STORE_MAX = 200_000

#: Default of ``Searcher(enum_budget=...)``: above ENUM_MAX, a search enumerates the materialised grid
#: when (trials searched) x (grid points) is at most this.  The branch and bound of
#: :func:`rsb_theory.argmax.argmax` has a fixed cost of about 10-20 ms per call, far more than
#: enumerating 26 334 points (K = 6, eps = 0.05) for one or two trials, which is the typical RS-UCB-M
#: search (docs/simulation.md).
ENUM_BUDGET = 1 << 22

#: Size of the candidate set S kept per trial.
N_CAND = 12


@dataclass
class SearchStats:
    """Counters (trial-steps): full searches (``bnb`` of them by branch and bound), candidate-set
    decisions, upper-bound certificates and the policy's own quick certificate."""

    full: int = 0
    bnb: int = 0
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
        Try certificate 1 (:func:`rsb_theory.argmax.certificates.kept_by_upper_bound`) first.
    n_cand : int
    enum_max : int
        Grids of at most this many points are always enumerated.
    step_widths : numpy.ndarray, shape (J,), optional
        Finite-support arms: the widths w_j of the steps of the survival
        functions; the drift statistic passed as ``phat`` to :meth:`full` and
        :meth:`step` is then the survival array S_ij of shape (B, K, J).  None:
        Bernoulli arms, ``phat`` of shape (B, K).
    use_candidates : bool
        Keep candidate sets (certificate 3, :class:`rsb_theory.argmax.certificates.CandidateSets`).
        Turning it off never changes a decision, only which searches run; it is
        off for RS-UCB-M, where the interval certificate of the policy decides
        almost every step and the candidate bookkeeping (a partial sort of every
        enumerated grid) costs more than it saves (docs/simulation.md).
    enum_budget : int
        Above ``enum_max``, a search for b trials enumerates the materialised grid
        (at most :data:`STORE_MAX` points) when b x (grid points) <= enum_budget,
        else runs the branch and bound (default :data:`ENUM_BUDGET`; 0: every
        search above ``enum_max`` runs the branch and bound).  Never changes a
        decision, only the route.
    """

    def __init__(self, grid: Grid, B: int, holder_q: float, holder_L: float, L_bonus: float,
                 use_upper_bound: bool, n_cand: int = N_CAND, enum_max: int = ENUM_MAX,
                 step_widths: np.ndarray | None = None, use_candidates: bool = True,
                 enum_budget: int = ENUM_BUDGET) -> None:
        self.grid, self.B = grid, B
        self.J = 1 if step_widths is None else int(np.size(step_widths))
        self.use_ub = use_upper_bound
        self.enum_budget = int(enum_budget)
        self.small = grid.size <= enum_max
        self.stored = self.small or grid.size <= STORE_MAX
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
        self.cands = None
        if self.small and math.isfinite(float(holder_L)) and use_candidates:
            self.cands = CandidateSets(B, grid.size, n_cand, grid.K, holder_q, holder_L, L_bonus, step_widths)

    # ------------------------------------------------------------------
    def _enumerate(self, obj, rows: np.ndarray, phat: np.ndarray, rq: np.ndarray | None) -> None:
        """Full enumeration for ``rows`` (obj built for exactly these rows): decide, rebuild S."""
        b, size = rows.size, self.grid.size
        V = np.empty((b, size))
        step = max(1, ENUM_CHUNK // max(b * self.grid.K * self.J, 1))
        for lo in range(0, size, step):
            V[:, lo:lo + step] = obj.at_points(self.all_points[lo:lo + step])
        prev = self.idx[rows]
        new, _ = choose(V, prev)
        changed = new != prev
        if changed.all():
            self._set(rows, new)
        elif changed.any():
            self._set(rows[changed], new[changed])
        if self.cands is not None:
            self.cands.rebuild(rows, V, new, phat, rq)
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
        self.stats.bnb += rows.size

    def full(self, obj, rows: np.ndarray, phat: np.ndarray, rq: np.ndarray | None = None) -> None:
        """Full search for ``rows`` (obj built for exactly these rows).

        Enumeration of every grid point for small grids, and for materialised
        grids when few trials are searched (``enum_budget``); otherwise the
        branch and bound of :func:`rsb_theory.argmax.argmax`.  Both apply the
        same decision rule (tests compare each with the reference loop).
        """
        if rows.size == 0:
            return
        if self.small or (self.stored and rows.size * self.grid.size <= self.enum_budget):
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
            ok = kept_by_upper_bound(objective(todo), self.grid, self.cur[todo])
            self.stats.upper_bound += int(ok.sum())
            if ok.all():
                return
            todo = todo[~ok]
        if self.cands is not None:
            valid = self.cands.valid[todo]
            if valid.any():
                rows = todo[valid]
                S = self.cands.S[rows]
                vS = objective(rows).at_points(self.all_points[S])
                ok = self.cands.certified(rows, vS, phat[rows], None if rq is None else rq[rows])
                if ok.any():
                    r_ok = np.flatnonzero(ok)
                    rr = rows[r_ok]
                    pos_prev = np.argmax(S[r_ok] == self.idx[rr][:, None], axis=1)
                    col, _ = choose(vS[r_ok], pos_prev)
                    new = S[r_ok, col]
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
