"""The eps-independent results' hypothesis "when beta exists" at the experiments' instance, on each grid."""

from fractions import Fraction

import pytest

from proofs_checks.checks import beta_hypothesis as bh
from proofs_checks.registry import claims, evaluate
from rsb_theory.discretization import enumerate_optimum
from rsb_theory.distortions import get


@pytest.mark.parametrize("ident, status, phrase", [
    ("corollary:RS-UCB-M#hypothesis.beta", "conditional", "8 of the 39 grids with n <= 40"),
    ("theorem:RS-ETC-M#hypothesis.beta", "conditional", "the optimum ties at eps = 8/25"),
])
def test_hypothesis_verdicts_and_mutants(ident, status, phrase):
    res = evaluate(claims()[ident], mutants=True)
    assert res.status == status, res.evidence
    assert phrase in res.evidence
    assert res.mutant_caught


def test_ties_exact_and_by_enumeration():
    """Route 1: exact rationals on the grid points; route 2: rsb_theory's enumeration (floats, TIE_TOL)."""
    d = get("gini")
    for kind in ("ucb", "etc"):
        exact = [n for n in bh.NS if bh.delta_min(n, kind)[1] > 1]
        floats = [n for n in bh.NS if enumerate_optimum(d, [0.4, 0.9], 1 / n, kind).n_optimal > 1]
        assert exact == floats
    assert [n for n in bh.NS if n <= 40 and bh.delta_min(n, "ucb")[1] > 1] == [5, 10, 15, 20, 25, 30, 35, 40]
    # on the etc grid Delta_min(eps) = c eps^2 with c in [1/20, 1/4] (the optimum a(1) = 4/5: the nearest grid
    # points are at distances d1 + d2 = eps/2 in the mean, d2 - d1 >= eps/10)
    for n in bh.NS:
        c = bh.delta_min(n, "etc")[0] * n * n
        assert Fraction(1, 20) <= c <= Fraction(1, 4)


def test_off_grid_ties_exact_and_by_enumeration():
    """The ETC grid ties off the eps = 1/n grids (1/eps not an integer, the footnote's deficit in the last
    coordinate): exact rationals against rsb_theory's enumeration."""
    d = get("gini")
    exact = list(bh.off_grid_ties("etc"))
    floats = [e for e in bh.OFF_GRID if enumerate_optimum(d, [0.4, 0.9], float(e), "etc").n_optimal > 1]
    assert exact == floats and exact
