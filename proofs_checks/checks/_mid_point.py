"""A point of the mid-point grid of section ``RS_UCB_M`` (exact), shared by the tracking checks without an import
cycle (:mod:`.oversampling` judges the lemma in RS-UCB-M's context through :mod:`._ucb_run`, which needs the grid)."""

from __future__ import annotations

from fractions import Fraction
from rsb_theory.errors import ArgumentError


def grid_point(K: int, eps: Fraction, n: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Mid-point grid point eps (n_i + 1/2), i < K, last coordinate = 1 - sum (footnote); exact."""
    head = [eps * (Fraction(k) + Fraction(1, 2)) for k in n]
    if len(head) != K - 1:
        raise ArgumentError("n", f"need K-1 = {K - 1} coordinates, got {len(head)}")
    last = 1 - sum(head)
    if last < eps / 2:
        raise ArgumentError("n", f"{n} is not on the mid-point grid (last coordinate {last} < eps/2)")
    return tuple(head + [last])
