"""``lemma:risk-concave``: for concave h, alpha -> V(alpha, F) is concave.

Numeric: midpoint concavity along random segments of the simplex for random
finite-support arms (one seeded generator; K = 2, 3 and 6), for every
registered h that satisfies the claim's hypothesis; u^2 (convex) is among the
distortions tried, so a claim without the hypothesis is caught by it.  The
lemma's displayed proof only shows V(sum alpha_i F_i) >= sum alpha_i U_h(F_i)
(Jensen at the vertices), which is weaker than concavity; concavity itself
follows because each term of the step-function form of eq:wang_def is h of an
affine function of alpha.

``lemma:risk-concave#step:after:eq: concave 2``: the proof's last step, from the
inequality its chain ends with (:data:`proofs_checks.paper_claims.RISK_CONCAVE_CHAIN`,
the values at the vertices) to concavity in alpha.  It does not follow: the DR
of the distortion ``WITNESS`` (increasing, h(0) = 0, h(1) = 1, not concave) on
the arms Dirac(0), Dirac(1) is V(a) = h(a), which satisfies the chain's
inequality at every grid point and is not concave.  The lemma's statement holds
(the check above), so the step is a gap, not a false step.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rsb_theory.distortions import U, from_string, get, names, parse_expression
from rsb_theory.riskmetric import mixture_value

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num, resid
from rsb_theory.errors import ArgumentError

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


#: The last step of the proof: concavity concluded from the chain's inequality.
STEP = ID + "#step:after:eq: concave 2"
#: A distortion that is not concave (h(u) - u >= 0 vanishes at 0 and 1): its DR on Dirac(0), Dirac(1) satisfies the
#: vertex inequality and is not concave in alpha.
WITNESS = "u + sin(2*pi*u)**2/10"
#: Grid of the mixing coefficient a (the weight of Dirac(1)) on which the witness is evaluated.
GRID = 401


@lru_cache(maxsize=1)
def _witness_values() -> np.ndarray:
    """V(a) of the witness on Dirac(0), Dirac(1) over the grid (h parsed by the one parser; its properties as a
    distortion are checked on the same grid by :func:`_is_distortion`)."""
    import sympy as sp

    h = sp.lambdify(U, parse_expression(WITNESS), "numpy")
    a = np.linspace(0.0, 1.0, GRID)
    return mixture_value(h, np.array([0.0, 1.0]), np.eye(2), np.stack([1 - a, a], axis=1))


def _is_distortion(v: np.ndarray) -> bool:
    """h(0) = 0, h(1) = 1 and non-decreasing on the grid (V(a) = h(a) here)."""
    return bool(abs(v[0]) <= TOL and abs(v[-1] - 1) <= TOL and np.all(np.diff(v) >= -TOL))


def _satisfies(chain: str, v: np.ndarray) -> bool:
    """Whether the values ``v`` of V on the grid satisfy the inequality the chain establishes."""
    a = np.linspace(0.0, 1.0, len(v))
    if chain == "vertices":  # V(a) >= (1 - a) V(0) + a V(1)
        return bool(np.all(v - ((1 - a) * v[0] + a * v[-1]) >= -TOL))
    if chain == "pairs":  # midpoint concavity between every two grid points of even distance
        i, j = np.triu_indices(len(v), 2)
        even = (j - i) % 2 == 0
        i, j = i[even], j[even]
        return bool(np.all(v[(i + j) // 2] - (v[i] + v[j]) / 2 >= -TOL))
    raise ArgumentError("chain", f"{chain!r} is not 'vertices' or 'pairs'")


def _concave(v: np.ndarray) -> bool:
    return bool(np.all(v[1:-1] - (v[:-2] + v[2:]) / 2 >= -TOL))


def check_step(claim: Claim) -> CheckResult:
    chain = claim.printed
    v = _witness_values()
    counter = _is_distortion(v) and _satisfies(chain, v) and not _concave(v)
    found = gaps()
    bad = [n for n, (concave, g) in found.items() if concave and g < -TOL]
    ev = (f"The chain establishes the '{chain}' inequality.  Witness h(u) = {WITNESS} on Dirac(0), Dirac(1): "
          f"V(a) = h(a) on {GRID} grid points is a distortion (h(0) = 0, h(1) = 1, non-decreasing): {_is_distortion(v)}; "
          "satisfies the chain's inequality: "
          f"{_satisfies(chain, v)}; concave: {_concave(v)} (smallest second difference "
          f"{num(float(np.min(v[1:-1] - (v[:-2] + v[2:]) / 2)))}).  ")
    ev += ("So the inequality does not imply concavity in alpha: the step does not follow from what the proof has "
           "established.  The lemma's statement holds (midpoint concavity for every concave h of the registry, "
           f"{ID}); concavity follows from the step-function form of eq:wang_def (h of affine functions of alpha), "
           "which the proof does not use" if counter else
           "No witness: the established inequality is concavity itself.")
    return CheckResult(STEP, f"From the chain's inequality ({chain}), V(alpha, F) is concave in alpha", chain,
                       "does not follow (only V(alpha) >= sum_i alpha_i U_h(F_i))" if counter else "follows",
                       decide(holds=not bad, follows=not counter), "numeric", ev)


def mutants_step(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.reprinted("pairs", "the chain established concavity itself (V at any two mixtures)")]


CLAIMS = claim_map(Claim(ID, paper_claims.RISK_CONCAVE_HYPOTHESIS, check, mutants),
                   Claim(STEP, paper_claims.RISK_CONCAVE_CHAIN, check_step, mutants_step))
