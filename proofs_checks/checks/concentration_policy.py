"""``lemma: concentration``, "for any policy": the fixed-n bound at the count of an adaptive policy.

The lemma states eq:meta_concentration "for any policy pi" with n = tau_t^pi(i), the policy's own count of arm
i, on the right side.  A bound for n i.i.d. samples (Prashanth et al., Lemma 8) says nothing about a count chosen
by looking at the rewards.  The witness is a stopping rule on one Bernoulli arm (a law on {0, 1}, inside the
paper's setting Omega subset of R_+): pull the arm n1 times; stop if ||F_n1 - F||_W = |p_hat - p| exceeds y, else
continue to n2.  Every quantity is exact up to a bracket of the binomial tail
(:func:`proofs_checks.checks.concentration_exact.log_tail`, the first term and the geometric bound of the rest):

* P(||F_tau - F||_W > y) >= P(|p_hat_n1 - p| > y) = P1 (stopping there leaves the deviation above y);
* the right side at the stopped count, in expectation: E[b(tau)] = P1 b(n1) + (1 - P1) b(n2) with b the printed
  bound (paper_claims.CONCENTRATION_BOUND), and conditionally on tau = n1 the probability is 1 > b(n1).

y >= 512/sqrt(n) at both counts, so the witness also meets the condition under which the fixed-n bound holds
(``lemma: concentration#bound``).  A policy whose counts do not depend on the rewards (the mutant) meets the bound
at each count.  Where the paper uses the lemma at a random count (the UCB proof's P(F_i not in C_T(i)) <= 1/T^2
before eq:probi, at tau_T(i)) the step does not follow from the fixed-n lemma (a union over the T possible counts
gives T times the bound); its conclusion still holds there, by a wide margin of the radius (see the evidence).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import decide
from .concentration_exact import _log_bound, log_tail
from ..causes import because

ID = "lemma: concentration#any_policy"
#: The witness: Bernoulli(p), threshold y, the counts n1 (where the rule may stop) and n2 (where it otherwise ends).
P, Y, N1, N2 = Fraction(1, 2), Fraction(9, 20), 1_500_000, 10 ** 10
#: Which policies the claim is about: every policy (the printed "any policy"), or those whose counts do not depend
#: on the rewards (the mutant).
ADAPTIVE, FIXED = "any policy (counts may depend on the rewards)", "policies whose counts do not depend on the rewards"


def witness(bound_text: str) -> dict:
    """The exact quantities of the stopping rule (logs, natural base)."""
    lb = _log_bound(bound_text)
    lo1, hi1 = log_tail(N1, P, Y)
    lo2, hi2 = log_tail(N2, P, Y)
    b1, b2 = lb(N1, Y), lb(N2, Y)
    with mpmath.workdps(40):
        # E[b(tau)] <= P1 b(n1) + b(n2), with P1 at its upper bracket
        e_upper = float(mpmath.log(mpmath.exp(hi1 + b1) + mpmath.exp(b2)))
    return {"lo1": lo1, "hi1": hi1, "lo2": lo2, "hi2": hi2, "b1": b1, "b2": b2, "e_upper": e_upper}


def _l10(x: float) -> str:
    return num(x / math.log(10), 6)


@because("concentration_adaptive")
def check(claim: Claim) -> CheckResult:
    c: paper_claims.LemmaClaim = claim.printed
    policies = claim.assumes("policies", ADAPTIVE)
    w = witness(c.printed)
    # Fixed counts n1 and n2: the bound must hold at each (upper bracket of the tail against the bound).
    fixed_ok = w["hi1"] <= w["b1"] and w["hi2"] <= w["b2"]
    # The stopping rule: P(dev_tau > y) >= P1 (lower bracket) against E[b(tau)] (upper bracket), and the
    # conditional probability 1 at tau = n1 against b(n1).
    adaptive_bad = w["lo1"] > w["e_upper"] and w["b1"] < 0.0
    holds = fixed_ok and (policies == FIXED or not adaptive_bad)
    y_ok = all(float(Y) >= 512 / math.sqrt(n) for n in (N1, N2))
    ev = (f"Bernoulli({P}) arm (a law on {{0, 1}}, W1 = |p_hat - p|), y = {Y} (>= 512/sqrt(n) at both counts: "
          f"{y_ok}), printed bound b(n) = {c.printed}.  Counts fixed in advance: P(|p_hat_n - p| > y) = "
          f"10^[{_l10(w['lo1'])}, {_l10(w['hi1'])}] <= b(n1) = 10^{_l10(w['b1'])} at n1 = {N1}, and 10^[{_l10(w['lo2'])}, "
          f"{_l10(w['hi2'])}] <= b(n2) = 10^{_l10(w['b2'])} at n2 = {N2}: {fixed_ok}.  ")
    if policies == ADAPTIVE:
        ev += (f"Policy 'stop once the deviation exceeds y' (pull n1 = {N1} times; stop if |p_hat - p| > y, else go on to "
               f"n2 = {N2}): P(||F_tau - F||_W > y) >= P1 = 10^{_l10(w['lo1'])}, while the printed right side at the "
               f"stopped count has E[b(tau)] <= P1 b(n1) + b(n2) <= 10^{_l10(w['e_upper'])} (b(n1) = "
               f"{num(math.exp(w['b1']), 4)}): P(||F_tau - F||_W > y) / E[b(tau)] >= "
               f"{num(math.exp(w['lo1'] - w['e_upper']), 4)} > 1; conditionally on tau = n1 (probability P1 > 0) the deviation exceeds y "
               f"surely, 1 > b(n1).  {'The bound fails at the random count' if adaptive_bad else 'No failure'}: a "
               "fixed-n bound does not hold at a count the policy chooses from the rewards.  Where the paper uses it "
               "(the UCB proof's P(F_i not in C_T(i)) <= 1/T^2 before eq:probi, at tau_T(i)) the step does not follow "
               "from the lemma (a union over the counts n <= T gives 2T/T^2); its conclusion still holds there: the "
               "radius of eq:UCB_confidence_sets is r(n) = c/sqrt(n) with c = 16(sqrt(2 e log T) + 32), c^2 >= "
               "512 e log T, and for the paper's Bernoulli arms Hoeffding bounds every count's miss by 2 exp(-2 c^2) "
               "<= 2 T^(-1024 e), so the union over n <= T is far below 1/T^2 (a gap of the UCB proof, not a false "
               "step).")
    claim_text = c.claim if policies == ADAPTIVE else c.claim.replace("For any policy pi", f"For {policies}")
    return CheckResult(ID, claim_text, c.printed, "fails at an adaptive count; holds at counts fixed in advance"
                       if fixed_ok and adaptive_bad else "see evidence", decide(holds=holds), "symbolic", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "refuted":
        return [claim.assuming("policies", FIXED, f"the bound claimed for {FIXED} only")]
    return [claim.assuming("policies", ADAPTIVE, "the bound claimed for any policy")]


CLAIMS = claim_map(Claim(ID, paper_claims.CONCENTRATION_ANY_POLICY, check, mutants))
