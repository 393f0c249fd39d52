"""Hölder continuity on Xi only: the in-setting witness against theorem: ETC upper bound and theorem:RS-ETC-M, the
steps that apply eq:Holder outside Xi, and the finding that lists them."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from scipy.stats import binom

from proofs_checks import causes, findings
from proofs_checks.checks import _holder_witness as hw
from proofs_checks.ledger import CheckResult


def test_witness_constants_on_the_hull():
    c = hw.on_hull()
    assert (c.q, c.L, c.r, c.L_MH, c.W, c.B) == (1.0, 1.0, 1.0, 1.0, pytest.approx(0.1), 1.0)
    assert hw.gaps(2) == (0, Fraction(1, 10)) and hw.gaps(8) == (0, Fraction(1, 40))  # Delta(eps) = 0, 0.2 eps
    # h is not monotone and jumps at 0 and at 0.6: Hölder on Xi = [0.4, 0.6] only
    assert hw.h(0) == 0 and hw.h(Fraction(1, 10)) == 1 and hw.h(Fraction(1, 2)) == Fraction(1, 2) and hw.h(Fraction(7, 10)) == 0


def _brute_commit(n: int, m: int) -> float:
    """Reference: enumerate (k_1, k_2), compute every grid point's empirical value h(sum a_i k_i/n) and add the
    probability where e_1 is the unique maximiser with value h = 1 (the event the witness counts; committing to e_1
    otherwise only adds regret)."""
    total = 0.0
    for k1 in range(n + 1):
        for k2 in range(n + 1):
            vals = [hw.h(a1 * Fraction(k1, n) + a2 * Fraction(k2, n)) for a1, a2 in hw.grid(m)]
            best = vals[0]  # grid(m)[0] is e_1 = (1, 0)
            if best == 1 and all(best > v for v in vals[1:]):
                total += binom.pmf(k1, n, 0.4) * binom.pmf(k2, n, 0.6)
    return total


@pytest.mark.parametrize("n,m", [(15, 2), (20, 4)])
def test_commit_probability_two_routes(n, m):
    assert hw.commit_probability(n, Fraction(1, m)) == pytest.approx(_brute_commit(n, m), rel=1e-9, abs=1e-15)


def test_witness_beats_the_etc_display_at_the_proofs_N():
    w = hw.witness(2, 1000)
    from rsb_theory import rates

    assert w.N == pytest.approx(rates.N_eps_value(2, int(w.T), 0.5, 1.0, 1.0, 0.1)) and w.T == pytest.approx(1000 * w.N, rel=1e-6)
    assert w.n == math.ceil(w.N / 2) and w.probability == pytest.approx(0.5, abs=1e-3)
    bound = (1 * 2 + 0.1 ** -1) * (3 * 0.1 * w.N / w.T)  # (L K + W^-q)(3 W N/T)^q + Delta(eps), Delta = 0
    assert w.regret_lower > 0.0999 and 0.0036 > bound * 0.99


def test_displays_conditional_on_holder_on_every_law_with_mutants():
    from proofs_checks.registry import claims, evaluate

    for ident in ("theorem: ETC upper bound#display", "theorem:RS-ETC-M#display"):
        res = evaluate(claims()[ident], mutants=True)
        assert res.status == "conditional" and res.condition == hw.REPAIR and res.condition_at_uses is True, ident
        assert res.impact == "none" and res.cause == "holder_outside_xi" and res.mutant_caught
        assert {m.status for m in res.mutants} >= {"refuted"}
        assert any(m.status in ("verified", "loose") for m in res.mutants)  # Hölder on all laws: the witness is excluded


def test_alpha_to_1_false_in_context_at_the_witness():
    from proofs_checks.registry import claims, evaluate

    res = evaluate(claims()["theorem: ETC upper bound#step:eq:alpha_to_1"], mutants=True)
    assert res.status == "refuted" and res.cause == "holder_outside_xi" and res.mutant_caught
    lhs, rhs = hw.deviation_probabilities(hw.witness(2, 1000), 0.025)
    assert lhs == pytest.approx(0.5, abs=1e-3) and rhs < 1e-100


def _e(ident, status, impact, **kw):
    return CheckResult(ident, f"claim {ident}", "p", "2", status, "symbolic", "e", impact=impact,
                       axis="proof" if "#step:" in ident else "statement", **kw)


def test_holder_finding_lists_the_statements_and_the_steps():
    entries = [
        _e("theorem: ETC upper bound#display", "conditional", "none", cause="holder_outside_xi", condition=hw.REPAIR,
           condition_at_uses=True),
        _e("theorem: ETC upper bound#step:eq:alpha_to_1", "refuted", "proof", cause="holder_outside_xi"),
        _e("theorem:UCB upper bound#step:eq:UCB_UB9", "gap", "proof", cause="holder_outside_xi"),
    ]
    found = findings.what_matters(entries)
    assert [f.key for f in found] == ["holder_outside_xi"]
    assert found[0].ids == tuple(e.id for e in entries) and found[0].impact == "proof"
    assert "the tables stand" in found[0].conclusion
    # statements alone, each condition holding at every use: the paper loses nothing, no finding
    assert findings.what_matters(entries[:1]) == [] and causes.cause_of(entries[0]).key == "holder_outside_xi"


def test_tables_are_holder_on_every_bernoulli_law():
    ok, where = hw.tables_hold_everywhere()
    assert ok and "gini" in where


def test_rs_ucb_m_witness_beats_the_display_and_the_e3_bound():
    """RS-UCB-M at the spike witness: the wrong grid point is the optimistic maximiser at every t from the end of the
    exploration to T (margin at the corners of the radii's box, which bound the linear margin), so the display and
    lemma:probability of E3 fail with Hölder continuity on Xi only; stated on every law, both hold."""
    from proofs_checks.registry import claims, evaluate

    w = hw.ucb_witness()
    assert w.margin > 0 and w.T > w.T_eps and w.T0 >= 2 * w.n and w.regret_lower > w.bound
    assert w.Delta_min > 0  # no tie: the witness is inside every T the theorem allows
    for ident in ("eq:UCB regret#rs-ucb-m.holder_xi", "lemma:probability of E3#holder_xi"):
        res = evaluate(claims()[ident], mutants=True)
        assert res.status == "conditional" and res.condition_at_uses and res.cause == "holder_outside_xi", ident
        assert res.mutant_caught and "verified" in [m.status for m in res.mutants], ident
    step = evaluate(claims()["theorem:UCB upper bound#step:eq:UCB_UB10"], mutants=True)
    assert step.status == "refuted" and step.cause == "holder_outside_xi" and step.mutant_caught
