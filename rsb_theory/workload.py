"""Work estimates, computed before any search (light: the standard library only).

A command that enumerates or searches a discrete simplex, or simulates trials x T steps, first
computes the size of what it will read and an estimate of its work, and refuses above a limit
(``--max-work``) in well under a second, instead of running silently for minutes or for ever
(issue 18).  The estimates are counts (never timings): the same input gives the same answer on
any machine.

* Grid size: C(m + K - 1, K - 1) points (:attr:`rsb_theory.grids.Grid.size`), with m the
  budget of :attr:`rsb_theory.grids.Grid.budget`; recomputed here without NumPy (tests compare
  the two).
* ``rsb optimize --eps``: the discrete optimum enumerates every grid point, K multiply-adds each
  (:func:`rsb_theory.discretization.discrete_optimum`): work = points x K.
* ``rsb simulate`` (and the runs of ``slopes``, ``plot``): every trial-step updates K counts, and
  the policies that search (not the uniform one) build or walk the grid (materialised up to
  :data:`rsb_sim.search.STORE_MAX` points, branch and bound above, both growing with it): work =
  trials x T x K + points x K.  The estimate is a scale, not a forecast: the searches of the UCBs
  cost more per step on larger grids, and their certificates skip most of them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

#: Default limit of ``--max-work`` (multiply-adds; about a minute of NumPy or compiled work).
DEFAULT_MAX_WORK = 10**10

#: The offset of the coordinates eps (n + offset) of each grid kind (rsb_theory.grids.Grid.offset).
_OFFSET = {"etc": 0.0, "ucb": 0.5}


class Estimate(NamedTuple):
    """What a command would read: ``points`` of the grid (0: no grid) and ``work`` (multiply-adds)."""

    points: int
    work: int

    def refusal(self, limit: int, flag: str = "--max-work",
                hint: str = "a coarser --eps, fewer arms or trials, or a shorter --T") -> str | None:
        """None within ``limit``, else the one-line reason (size, estimate, the flag to change)."""
        if self.work <= limit:
            return None
        size = f"the grid has {_num(self.points)} points, " if self.points else ""
        return (f"{size}the work estimate is {_num(self.work)} multiply-adds, above the limit {_num(limit)}; "
                f"raise {flag} to run it anyway, or use {hint}")


def _num(x: int) -> str:
    return str(x) if x < 10**6 else f"{float(x):.3g}"


def grid_budget(K: int, eps: float, kind: str = "ucb") -> int:
    """m = max total of the integer coordinates (:attr:`rsb_theory.grids.Grid.budget`)."""
    return int(math.floor(1.0 / eps - K * _OFFSET[kind] + 1e-9))


def grid_points(K: int, eps: float, kind: str = "ucb") -> int:
    """Points of the grid Delta^{K-1}_eps: C(m + K - 1, K - 1) (0 when m < 0)."""
    m = grid_budget(K, eps, kind)
    return math.comb(m + K - 1, K - 1) if m >= 0 else 0


def optimize_work(K: int, eps: float, kind: str = "ucb") -> Estimate:
    """The enumeration of the discrete optimum (``rsb optimize --eps``)."""
    n = grid_points(K, eps, kind)
    return Estimate(n, n * K)


def simulate_work(algo: str, K: int, T: int, trials: int, eps: float | None) -> Estimate:
    """One simulation: trials x T x K, plus the grid's points x K for the policies that search."""
    steps = trials * T * K
    if algo == "uniform" or eps is None:
        return Estimate(0, steps)
    n = grid_points(K, eps, "etc" if algo == "rs-etc-m" else "ucb")
    return Estimate(n, steps + n * K)


def total(estimates) -> Estimate:
    """The sum of several runs' estimates (the largest grid)."""
    est = list(estimates)
    return Estimate(max((e.points for e in est), default=0), sum(e.work for e in est))
