"""The exploration lengths stated in ``sec: experiments`` against the algorithms' own rule.

RS-UCB-M explores each arm ceil(rho T eps / 4) times with rho in (0, 1)
(``algorithm:B-UCB-M``, "Initial rounds").  The main text says "explore each arm
T/10 times" (regret vs T) and "T/20 times" (regret vs K) with
eps = sqrt(K log T / T); the appendix states rho = 0.1 for the same instance.
The rho that the stated length implies is 4 x (fraction) / eps, computed here.
"""

from __future__ import annotations

import math

import sympy as sp

from .. import paper_claims
from ..ledger import CheckResult

ID = "sec: experiments#exploration"


def _eps(K: int, T: int) -> float:
    return math.sqrt(K * math.log(T) / T)


def check() -> CheckResult:
    rows, bad = [], []
    for exp in paper_claims.EXPERIMENTS:
        for K in exp.K:
            for T in exp.T:
                eps = _eps(K, T)
                if exp.explore_per_arm is not None:
                    frac = sp.Rational(sp.sympify(exp.explore_per_arm.replace("T", "1")))
                    implied = float(4 * frac) / eps
                    rows.append(f"{exp.figure} K={K} T={T}: {exp.explore_per_arm} per arm needs rho = 4*{frac}/eps "
                                f"= {implied:.1f}")
                    if not 0 < implied < 1:
                        bad.append(exp.figure)
                if exp.rho is not None:
                    n0 = math.ceil(exp.rho * T * eps / 4)
                    rows.append(f"{exp.figure} K={K} T={T}: rho={exp.rho} gives ceil(rho T eps/4) = {n0} pulls per arm")
    ok = not bad
    return CheckResult(ID, "The experiments' exploration lengths follow the algorithm's rule ceil(rho T eps/4) with "
                           "rho in (0, 1)", "T/10 and T/20 per arm; rho = 0.1",
                       "consistent" if ok else "implied rho outside (0, 1) for " + ", ".join(sorted(set(bad))),
                       "verified" if ok else "refuted", "symbolic",
                       "; ".join(rows) + ". The same instance (Bern(0.4), Bern(0.9), K=2) is described with T/10 "
                       "pulls per arm (sec: experiments) and with rho = 0.1 (Appendix: Additional Experiments).")
