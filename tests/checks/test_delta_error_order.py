"""lemma:Delta_error in the order form the theorems' proofs take from it (``lemma:Delta_error#order``), the covering
radius its constant comes from, and the evident typos of eq:probi and eq:oversampling2."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from proofs_checks.checks import delta_error as de
from proofs_checks.checks import steps_tracking, steps_ucb
from rsb_theory.expressions import to_sympy
from rsb_theory.grids import Grid


def _nearest_l1(K: int, eps: float, kind: str, alphas: np.ndarray) -> np.ndarray:
    pts = Grid(K, eps, kind).points()
    return np.abs(alphas[:, None, :] - pts[None, :, :]).sum(axis=2).min(axis=1)


@pytest.mark.parametrize("kind", ["etc", "ucb"])
@pytest.mark.parametrize("K", [2, 3, 4, 5])
def test_the_covering_radius_bounds_the_nearest_grid_point(kind, K):
    """Route 1: the closed form COVERING; route 2: the L1-nearest grid point by enumeration, at the vertices (the
    farthest points of the mid-point grid) and seeded Dirichlet points, exact and non-exact eps."""
    rng = np.random.default_rng(np.random.SeedSequence(20251128))
    Ksym, esym = sp.Symbol("K", positive=True), sp.Symbol("eps", positive=True)
    cover = sp.lambdify((Ksym, esym), to_sympy(de.COVERING, "covering", {"K": Ksym, "eps": esym}), "math")
    alphas = np.concatenate([np.eye(K), rng.dirichlet(np.full(K, 0.3), size=400)])
    for inv in np.linspace(K / 2 + 1.05, 9, 15):
        d = _nearest_l1(K, float(1 / inv), kind, alphas)
        assert d.max() <= cover(K, 1 / inv) * (1 + 1e-9)


def test_the_mid_point_vertex_distance_is_k_minus_1_plus_2f_eps():
    """The vertex e_1 of the mid-point grid with the footnote is (K - 1 + 2f) eps from the grid: the covering radius
    approaches (K + 1) eps, so the lemma's K eps/2 (and the K eps of a naive order constant) is too small."""
    for K, eps in ((2, 0.35), (3, 0.13), (4, 0.11)):
        f = 1 / eps - K / 2 - np.floor(1 / eps - K / 2)
        d = _nearest_l1(K, eps, "ucb", np.eye(K)[:1])[0]
        assert d == pytest.approx((K - 1 + 2 * f) * eps)
    assert de.order_constant() == sp.Rational(3, 2)


def test_the_order_form_holds_on_both_grids_and_its_mutants_fail():
    claim = de.CLAIMS[de.ORDER_ID]
    res = claim.run()
    assert res.status == "verified" and "mid-point grid" in res.evidence
    notes = {m.note: m.run().status for m in claim.mutants(claim, res)}
    assert notes == {"exponent r + 1 on eps": "refuted",
                     "the proof's covering radius K eps/2 (eq:Delta_error_2)": "refuted"}


@pytest.mark.parametrize("claims, ident", [
    (steps_ucb.CLAIMS, "theorem:UCB upper bound#step:eq:probi"),
    (steps_tracking.CLAIMS, "lemma:oversampling#step:eq:oversampling2"),
])
def test_evident_typos_hold_when_corrected(claims, ident):
    claim = claims[ident]
    assert claim.typo is not None
    assert claim.run().status == "refuted"
    assert claim.corrected().run().status == "verified"
