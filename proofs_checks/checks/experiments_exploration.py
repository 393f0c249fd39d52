"""The exploration lengths stated in ``sec: experiments`` against the algorithms' own rule.

RS-UCB-M explores each arm ceil(rho T eps / 4) times with rho in (0, 1)
(``algorithm:B-UCB-M``, "Initial rounds").  The main text says "explore each arm
T/10 times" (regret vs T) and "T/20 times" (regret vs K) with
eps = sqrt(K log T / T); the appendix states rho = 0.1 for the same instance.
The rho that a stated length n implies is 4 n / (T eps), computed here at every
(K, T) of every experiment (lengths and eps rules are text, evaluated by
:func:`rsb_theory.expressions.evaluate`).
"""

from __future__ import annotations

import math
from dataclasses import replace

from rsb_theory.expressions import evaluate

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "sec: experiments#exploration"


def check(claim: Claim) -> CheckResult:
    rows, bad = [], []
    for exp in claim.printed:
        for K in exp.K:
            for T in exp.T:
                eps = evaluate(exp.eps, "eps", {"T": T, "K": K})
                if exp.explore_per_arm is not None:
                    n = evaluate(exp.explore_per_arm, "explore", {"T": T, "K": K})
                    implied = 4 * n / (T * eps)
                    rows.append(f"{exp.figure} K={K} T={T}: {exp.explore_per_arm} = {num(n, 6)} per arm needs rho = "
                                f"4 n/(T eps) = {num(implied, 3)}")
                    if not 0 < implied < 1:
                        bad.append(exp.figure)
                if exp.rho is not None:
                    n0 = math.ceil(exp.rho * T * eps / 4)
                    rows.append(f"{exp.figure} K={K} T={T}: rho={exp.rho} gives ceil(rho T eps/4) = {n0} pulls per arm")
    ok = not bad
    stated = sorted({e.explore_per_arm for e in claim.printed if e.explore_per_arm})
    return CheckResult(ID, "The experiments' exploration lengths follow the algorithm's rule ceil(rho T eps/4) with "
                           "rho in (0, 1)", " and ".join(stated) + " per arm; rho = 0.1",
                       "consistent" if ok else "implied rho outside (0, 1) for " + ", ".join(sorted(set(bad))),
                       decide(holds=ok), "symbolic",
                       "; ".join(rows) + ". The same instance (Bern(0.4), Bern(0.9), K=2) is described with T/10 "
                       "pulls per arm (sec: experiments) and with rho = 0.1 (Appendix: Additional Experiments).")


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """Every stated length replaced by the rule's own at rho = 1/2 (consistent), or by T/10 (inconsistent)."""
    if result.status == "verified":
        altered = tuple(replace(e, explore_per_arm="T/10") if e.explore_per_arm else e for e in claim.printed)
        return [claim.reprinted(altered, "T/10 per arm in every experiment that states a length")]
    altered = tuple(replace(e, explore_per_arm=f"T*({e.eps})/8") if e.explore_per_arm else e for e in claim.printed)
    return [claim.reprinted(altered, "rho T eps/4 with rho = 1/2 per arm in every experiment that states a length")]


CLAIMS = claim_map(Claim(ID, paper_claims.EXPERIMENTS, check, mutants))
