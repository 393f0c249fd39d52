"""The experiments' constants: radius, N(eps) and exploration lengths, recomputed independently."""

import math

from proofs_checks.checks import experiments_exploration, experiments_n_eps, experiments_radius


def _run(module, ident=None):
    """The ledger entry of a one-claim module (or of ``ident``)."""
    return (module.CLAIMS[ident] if ident else next(iter(module.CLAIMS.values()))).run()


def test_radius_exceeds_one_at_every_stated_horizon():
    for T in (75_000, 100_000, 300_000):
        plain = 16 * (math.sqrt(2 * math.e * math.log(T)) + 32) / math.sqrt(T)
        assert abs(experiments_radius.radius(T, T) - plain) < 1e-12
        assert plain > 1
    res = _run(experiments_radius)
    assert res.status == "conditional"


def test_smallest_informative_horizon_is_a_threshold():
    T1 = experiments_radius.smallest_informative_T(1)
    assert experiments_radius.radius(T1, T1) < 1 <= experiments_radius.radius(T1 - 1, T1 - 1)


def test_exploration_lengths_imply_rho_outside_unit_interval():
    T, K = 100_000, 2
    eps = math.sqrt(K * math.log(T) / T)
    assert 4 * 0.1 / eps > 1  # T/10 per arm = ceil(rho T eps / 4) needs rho = 0.4 / eps
    res = _run(experiments_exploration)
    assert res.status == "refuted" and "fig:T_experiment" in res.derived


def test_n_eps_exceeds_horizon():
    # N(eps) >= 256 K e (2 K L / Delta_min)^2 (32/sqrt(e))^2 with Delta_min <= 1/4 (Gini values lie in [0, 1/4])
    lower = 256 * 2 * math.e * (2 * 2 * 1 / 0.25) ** 2 * (32 / math.sqrt(math.e)) ** 2
    assert lower > 300_000
    res = _run(experiments_n_eps)
    assert res.status == "conditional"


def _plain_rates(q: float, r: float, b: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Independent arithmetic: (T-decay, log power) of RS-ETC-M's and RS-UCB-M's eps-independent bounds at beta = b.

    RS-ETC-M: T^-(qr/(2b + r)) (log T)^(qr/(2b)).  RS-UCB-M: (log T/T)^e with e = r kappa where the corollary's
    r <= b + q/2 holds, and e = (1 - kappa) q/2 (the slower term of its proof) where it does not; kappa = 1/(2b/q + 2).
    """
    kappa = 1 / (2 * b / q + 2)
    e = r * kappa if r <= b + q / 2 else (1 - kappa) * q / 2
    return (q * r / (2 * b + r), q * r / (2 * b)), (e, e)


def _better(q, r, b) -> str:
    (d_e, l_e), (d_u, l_u) = _plain_rates(q, r, b)
    if abs(d_e - d_u) > 1e-12:
        return "RS-ETC-M" if d_e > d_u else "RS-UCB-M"
    return "RS-ETC-M" if l_e < l_u else "RS-UCB-M"


def test_discussion_honours_the_corollarys_side_condition():
    """Which bound wins depends on beta once r <= beta + q/2 is honoured: both printed claims are conditional."""
    from proofs_checks.checks import discussion_etc_vs_ucb as m

    # right-tail deviation, q = 1/2 and the derived r = 2: RS-ETC-M below (3 + sqrt 57)/8 ~ 1.32, RS-UCB-M above
    cut = (3 + math.sqrt(57)) / 8
    assert [_better(0.5, 2.0, b) for b in (0.1, 1.0, cut - 1e-6, cut + 1e-6, 7.0)] == \
        ["RS-ETC-M"] * 3 + ["RS-UCB-M"] * 2
    rtd = _run(m, "eq:UCB_alpha2#discussion.right_tail")
    assert rtd.status == "conditional" and "RS-ETC-M for beta in (0, 3/8 + sqrt(57)/8)" in rtd.derived
    # Gini, q = 1, r = 2: RS-ETC-M below beta = 3/2, RS-UCB-M from 3/2 on (the same power of T, less log T)
    assert [_better(1.0, 2.0, b) for b in (0.5, 1.0, 1.49, 1.5, 2.0, 9.0)] == ["RS-ETC-M"] * 3 + ["RS-UCB-M"] * 3
    gini = _run(m, "eq:UCB_alpha2#discussion.gini")
    assert gini.status == "conditional" and gini.derived.startswith("RS-UCB-M for beta in [3/2, oo)")
    # stating the range makes it hold
    claim = m.CLAIMS["eq:UCB_alpha2#discussion.gini"]
    import sympy as sp

    assert claim.assuming("beta_in", sp.Interval(sp.Rational(3, 2), sp.oo), "").run().status == "verified"
    assert claim.assuming("beta_in", sp.Interval(1, 2), "").run().status == "conditional"


def test_exploration_lengths_are_read_from_the_claim():
    """An experiment stating rho T eps/4 per arm with rho = 1/2 is consistent; T/10 is not."""
    from dataclasses import replace

    claim = experiments_exploration.CLAIMS[experiments_exploration.ID]
    fixed = tuple(replace(e, explore_per_arm=f"T*({e.eps})/8") if e.explore_per_arm else e for e in claim.printed)
    assert claim.reprinted(fixed, "rho = 1/2").run().status == "verified"


def test_a_horizon_past_the_threshold_makes_the_radius_informative():
    claim = experiments_radius.CLAIMS[experiments_radius.ID]
    T1 = experiments_radius.smallest_informative_T(1)
    assert claim.reprinted((("x", T1),), "").run().status == "verified"
    assert claim.reprinted((("x", T1 - 1),), "").run().status == "conditional"
