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


def test_discussion_right_tail_is_refuted_by_plain_exponents():
    """Independent arithmetic: ETC decays T^(qr/(2b+r)), UCB T^(qr/(2b+2q)); q = 1/2, r = 2 (derived)."""
    from proofs_checks.checks import discussion_etc_vs_ucb as m

    q, r = 0.5, 2.0
    for b in (0.1, 1.0, 7.0):
        assert q * r / (2 * b + 2 * q) > q * r / (2 * b + r)  # UCB decays faster
    assert _run(m, "eq:UCB_alpha2#discussion.right_tail").status == "refuted"
    assert _run(m, "eq:UCB_alpha2#discussion.gini").status == "verified"


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
