"""Arms on R_+ with unbounded support (the paper's sub-Gaussian setting): the forms of W1 and the Hölder pairs."""

import sympy as sp

from proofs_checks.checks import _unbounded
from proofs_checks.checks.lipschitz_wasserstein import compare_unbounded


def test_pht_is_not_holder_with_exponent_s_on_subgaussian_laws():
    """Exact (SymPy) against rsb_theory.laws' exact finite-law value: |U(G) - U(delta_0)| / W1^s = M^(1-s)."""
    import numpy as np
    import sympy as sp

    from rsb_theory.distortions import get
    from rsb_theory.laws import finite_law, value, wasserstein1

    d = get("pht")  # s = 1/2 by default
    for M in (2, 4, 6):
        f = _unbounded.pht_two_point(sp.Rational(1, 2), M)
        assert sp.simplify(f["ratio"] - sp.sqrt(M)) == 0
        e = float(f["e"])
        G, F = finite_law([0.0, float(M)], [1 - e, e]), finite_law([0.0, float(M)], [1.0, 0.0])
        du = value(d, G) - value(d, F)
        assert np.isclose(du, float(f["dU"]), rtol=1e-9) and np.isclose(wasserstein1(F, G), float(f["W1"]), rtol=1e-9)
        assert np.isclose(du / wasserstein1(F, G) ** 0.5, M ** 0.5, rtol=1e-9)


def test_w1_forms_agree_on_unbounded_laws_and_the_doubled_ball_does_not():
    one, two = compare_unbounded(1.0), compare_unbounded(2.0)
    assert one["pairs"] == 6 and max(one["quantile_vs_cdf"], one["dual_vs_cdf"]) < 1e-8 * max(1.0, one["max_w"])
    assert two["dual_vs_cdf"] > 0.1  # 2 W1 against W1
    assert all(x.tail < _unbounded.TAIL and x.frozen.support()[1] == float("inf") for x in _unbounded.laws())


def test_pht_two_point_family_has_a_finite_constant_on_its_own_hull():
    """Across all sub-Gaussian laws the ratio |U(G) - U(F)| / W1^s grows like M^(1 - s), but assumption:Holder is
    stated on the hull Xi of one instance's laws, where the same family has the finite constant M^(1 - s)."""
    s = sp.Rational(1, 2)
    ratios = [sp.simplify(_unbounded.pht_two_point(s, M)["ratio"]) for M in (2, 4, 8)]
    assert ratios == [sp.Integer(M) ** (1 - s) for M in (2, 4, 8)]
