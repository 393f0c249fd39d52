"""lemma: concentration "for any policy": the fixed-n bound fails at a count chosen from the rewards."""

import math

import mpmath

from proofs_checks.checks import concentration_policy as cp
from proofs_checks.registry import claims, evaluate


def _log_tail_by_summation(n: int, p, y) -> float:
    """Route 2: log P(|S/n - p| > y), S ~ Bin(n, p), by summing the binomial terms in mpmath (until negligible)."""
    with mpmath.workdps(50):
        p = mpmath.mpf(p.numerator) / p.denominator
        tot = mpmath.mpf(0)
        for k0, q in ((math.floor(n * (float(p) + float(y))) + 1, p),):
            term = mpmath.exp(mpmath.loggamma(n + 1) - mpmath.loggamma(k0 + 1) - mpmath.loggamma(n - k0 + 1)
                              + k0 * mpmath.log(q) + (n - k0) * mpmath.log(1 - q))
            k = k0
            while term > tot * mpmath.mpf(10) ** -30:
                tot += term
                term *= mpmath.mpf(n - k) / (k + 1) * q / (1 - q)
                k += 1
        return float(mpmath.log(2 * tot))  # p = 1/2: both tails equal


def test_any_policy_is_refuted_and_fixed_counts_hold():
    res = evaluate(claims()[cp.ID], mutants=True)
    assert res.status == "refuted", res.evidence
    assert "The bound fails at the random count" in res.evidence
    assert res.mutant_caught and [m.status for m in res.mutants] == ["verified"]


def test_witness_tail_by_two_routes():
    w = cp.witness(cp.paper_claims.CONCENTRATION_BOUND)
    assert cp.P == cp.Fraction(1, 2)
    lt = _log_tail_by_summation(cp.N1, cp.P, cp.Y)
    assert w["lo1"] - 1e-6 * abs(lt) <= lt <= w["hi1"] + 1e-6 * abs(lt)
    # the stopped probability beats the expected printed bound, and b(n1) < 1 (the conditional reading fails too)
    assert lt > w["e_upper"] and w["b1"] < 0
    assert all(float(cp.Y) >= 512 / math.sqrt(n) for n in (cp.N1, cp.N2))

