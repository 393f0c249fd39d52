"""``lemma:risk-concave``: for concave h, alpha -> V(alpha, F) is concave.

Numeric: midpoint concavity along random segments of the simplex for random
finite-support arms (one seeded generator; K = 2, 3 and 6), for every
registered h that satisfies the claim's hypothesis; u^2 (convex) is among the
distortions tried, so a claim without the hypothesis is caught by it.  The
lemma's displayed proof only shows V(sum alpha_i F_i) >= sum alpha_i U_h(F_i)
(Jensen at the vertices), which is weaker than concavity; concavity itself
follows because each term of the step-function form of eq:wang_def is h of an
affine function of alpha.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rsb_theory.distortions import from_string, get, names
from rsb_theory.riskmetric import mixture_value

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num, resid

ID = "lemma:risk-concave"
SEED = 20250101
#: Numbers of arms, random instances per K, segments per instance, support points.
KS, INSTANCES, SEGMENTS, SUPPORT = (2, 3, 6), 4, 200, 5
#: The convex distortion tried besides the registry (the hypothesis' counterexample).
CONVEX = "u**2"
TOL = 1e-12


def _min_midpoint_gap(h, rng) -> float:
    worst = np.inf
    for K in KS:
        for _ in range(INSTANCES):
            support = np.sort(rng.uniform(0, 1, SUPPORT))
            arms = rng.dirichlet(np.ones(SUPPORT), size=K)
            a = rng.dirichlet(np.ones(K), size=SEGMENTS)
            b = rng.dirichlet(np.ones(K), size=SEGMENTS)
            gap = mixture_value(h, support, arms, (a + b) / 2) - (mixture_value(h, support, arms, a)
                                                                    + mixture_value(h, support, arms, b)) / 2
            worst = min(worst, float(gap.min()))
    return worst


@lru_cache(maxsize=1)
def gaps() -> dict[str, tuple[bool, float]]:
    """name -> (h is concave, smallest midpoint gap V((a+b)/2) - (V(a)+V(b))/2), each h on its own generator."""
    dists = {n: get(n) for n in names()} | {CONVEX: from_string(CONVEX)}
    streams = np.random.SeedSequence(SEED).spawn(len(dists))
    return {n: (bool(d.shape.is_concave), _min_midpoint_gap(d.numeric, np.random.default_rng(s)))
            for (n, d), s in zip(dists.items(), streams)}


def check(claim: Claim) -> CheckResult:
    hypothesis = claim.printed
    found = gaps()
    tried = {n: g for n, (concave, g) in found.items() if concave or hypothesis != "concave"}
    bad = {n: g for n, g in tried.items() if g < -TOL}
    ev = (f"seed {SEED} (one stream per h): K in {KS}, {INSTANCES} instances x {SEGMENTS} segments per K, {SUPPORT} "
          f"support points; h with the hypothesis ({hypothesis}): {', '.join(tried)}; smallest midpoint gap "
          "V((a+b)/2) - (V(a)+V(b))/2 per h: " + ", ".join(f"{k} {resid(v, 3)}" for k, (_c, v) in found.items())
          + f"; the convex {CONVEX} gives {num(found[CONVEX][1])} < 0 (the hypothesis is needed). The displayed proof "
          "shows only V(alpha) >= sum alpha_i U_h(F_i); concavity follows since V = sum_j w_j h(S_j(alpha)) with "
          "S_j affine")
    if bad:
        ev += "; not concave in alpha for: " + ", ".join(bad)
    return CheckResult(ID, f"If h is {hypothesis}, V(alpha, F) is concave in alpha", hypothesis,
                       "concave" if not bad else "not concave", decide(holds=not bad), "numeric", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted("any h", "the hypothesis 'h concave' dropped")]


CLAIMS = claim_map(Claim(ID, paper_claims.RISK_CONCAVE_HYPOTHESIS, check, mutants))
