"""Table 1's solitary RS-ETC-M rates at instances whose top arms tie (eq:discrete_gap read as printed).

Two routes: rsb's grid optimum (:func:`rsb_theory.discretization.enumerate_optimum`) and N(eps)
(:func:`rsb_theory.rates.N_eps_value`) against a brute-force loop over eq:etc_discrete_set written here, and the
regret of the exploration that never ends against a step-by-step round-robin loop.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp

from proofs_checks import derived
from proofs_checks.causes import CAUSES
from proofs_checks.checks import table_regrets as tr
from rsb_theory import rates
from rsb_theory.discretization import enumerate_optimum

SOLITARY = ("mean", "dual_power", "quadratic", "cvar", "pht")


def _brute(h, p, m):
    """(best value, number of optimal points) over the ETC grid with 1/eps = m, by a plain loop."""
    vals = [h(sum(c * x for c, x in zip(n, p)) / m) for n in itertools.product(range(m + 1), repeat=len(p))
            if sum(n) == m]
    best = max(vals)
    return best, sum(v >= best - 1e-12 for v in vals)


def _round_robin_regret(h, p, T):
    """V(a*) - V(a_T) after T round-robin pulls, one pull at a time."""
    counts = [0] * len(p)
    for t in range(T):
        counts[t % len(p)] += 1
    return max(h(x) for x in p) - h(sum(c * x for c, x in zip(counts, p)) / T)


@pytest.mark.parametrize("key, params, p, regret", [
    ("cvar", {"alpha": sp.Rational(1, 2)}, (0, 0, 0, 0.6, 0.7), 0.48),
    ("mean", {}, (0.25, 0.5, 0.5), 0.5 - 1 / 2.4),
])
def test_tied_top_arms_never_end_the_exploration(key, params, p, regret):
    d = derived.profile(key, params).distortion
    h = lambda u: float(d(np.array([u]))[0])  # noqa: E731
    for m in (2, 4, 8):
        opt = enumerate_optimum(d, p, 1.0 / m, "etc")
        best, n_opt = _brute(h, p, m)
        assert opt.n_optimal == n_opt > 1 and opt.value == pytest.approx(best)
        # eq:discrete_gap's minimum over a != a* is 0, so N(eps) is infinite
        assert rates.N_eps_value(len(p), 10**6, 1.0 / m, 1.0, 1.0, 0.0) == float("inf")
    for T in (len(p) * 20, len(p) * 2000):
        assert _round_robin_regret(h, p, T) == pytest.approx(regret)


def test_the_check_finds_the_ties_from_h():
    for key in SOLITARY:
        for params in derived.parameter_sweep(key, tr.TABLE):
            prof = derived.profile(key, params)
            ties = tr.top_ties(prof.distortion, prof.q, prof.holder.L_H)
            # a tie with a regret that does not decay (where the uniform mixture is itself optimal, as for a wide
            # flat top, exploring forever costs nothing and the tie breaks no rate)
            assert any(t.tied and t.regret[-1][1] > 0 for t in ties), (key, params)
            for t in ties:
                h = lambda u, d=prof.distortion: float(d(np.array([u]))[0])  # noqa: E731
                T, r = t.regret[-1]
                assert r == pytest.approx(_round_robin_regret(h, t.p, T), abs=1e-12)
    # CVaR's flat top: two arms with different means tie (an open set of instances)
    prof = derived.profile("cvar", {"alpha": sp.Rational(1, 2)})
    assert any(t.tied and len(set(t.p[1:])) == 2 for t in tr.top_ties(prof.distortion, prof.q, prof.holder.L_H))


@pytest.mark.parametrize("key", SOLITARY)
def test_solitary_etc_rates_need_a_unique_optimal_grid_point(key):
    claim = tr.CLAIMS[f"{tr.TABLE}#{key}.etc"]
    result = claim.run()
    assert result.status == "conditional" and result.condition == tr.UNIQUE_OPT
    assert result.cause == "grid_ties" and CAUSES["grid_ties"].rank == "rate"
    mutants = {m.note: m.run().status for m in tr.mutants_rate(claim, result)}
    assert mutants[f"{tr.UNIQUE_OPT} stated"] == "verified"
