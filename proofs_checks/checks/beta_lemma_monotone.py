"""``lemma:beta_lemma_monotone``: beta = 1 for concave, strictly increasing h,
and its best / second-best grid points eq:astar_lemma14, eq:aprime_lemma14.

The lemma's class is every registered h that is concave and strictly
increasing on [0, 1] (derived shapes); each is tried at K = 2, 3 and 4 instances
with distinct increasing means, one per K with max p = 1.  At every instance: the
enumeration of the mid-point grid (1/eps - K/2 an integer) must put
eq:astar_lemma14 and eq:aprime_lemma14 first and second, and the numeric beta
(:func:`rsb_theory.gap.estimate_beta`) must be the printed value within
:data:`TOL`.  The proof's last step also needs h'(max p) > 0
(:func:`rsb_theory.gap.beta_monotone`), which the lemma does not state: where
it fails (dual power at p_K = 1: Delta_min = Theta(eps^2)) the claimed value
fails too, and that premise is the condition found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rsb_theory.distortions import get, names
from rsb_theory.expressions import evaluate
from rsb_theory.gap import beta_monotone, estimate_beta
from rsb_theory.grids import Grid

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..mutants import stronger
from ..verdict import decide
from ..numfmt import num

ID = "lemma:beta_lemma_monotone"
#: eps = 1/n for the numeric beta (branch and bound: the grids are never enumerated).
N_VALUES = (10, 14, 20, 28, 40, 56, 80, 113)
#: Instances per h, K = 2, 3, 4: means inside (0, 1), max p = 1, and the largest mean shared by two arms (then
#: several grid points are optimal and Delta_min(eps) = 0: beta does not exist).
MEANS = ((0.3, 0.8), (0.4, 1.0), (0.2, 0.5, 0.7), (0.3, 0.6, 1.0), (0.1, 0.3, 0.6, 0.8), (0.1, 0.3, 0.6, 1.0),
         (0.3, 0.8, 0.8))
#: 1/eps - K/2 = n: exact mid-point grids.
GRID_N = (10, 20, 30)
#: A numeric beta within TOL of the printed value confirms it.
TOL = 0.15
PREMISE = "h'(max p) > 0 and the largest mean unique"


def lemma_class() -> tuple[str, ...]:
    """Registered distortions that are concave and strictly increasing on [0, 1] (the lemma's hypothesis)."""
    return tuple(n for n in names() if get(n).shape.is_concave and get(n).shape.monotone == "increasing")


def _lemma_points(K, eps):
    a_star = np.full(K, eps / 2)
    a_star[-1] = 1 - (K - 1) * eps / 2
    a_prime = a_star.copy()
    a_prime[-1] -= eps
    a_prime[-2] += eps
    return a_star, a_prime


@dataclass(frozen=True)
class Instance:
    key: str
    p: tuple[float, ...]
    premise: bool
    premise_reason: str
    points_ok: bool
    beta: float
    beta_evidence: str


@lru_cache(maxsize=1)
def instances() -> tuple[Instance, ...]:
    out = []
    for key in lemma_class():
        d = get(key)
        for p in MEANS:
            p_arr = np.array(p)
            ok, K = True, len(p)
            for n in GRID_N:
                eps = 1.0 / (n + K / 2)
                pts = Grid(K, eps, "ucb").points()
                vals = d.numeric(pts @ p_arr)
                order = np.argsort(-vals, kind="stable")
                a_star, a_prime = _lemma_points(K, eps)
                ok &= bool(np.allclose(pts[order[0]], a_star) and np.allclose(pts[order[1]], a_prime)
                           and vals[order[1]] > vals[order[2]])
            an = beta_monotone(d, p)
            est = estimate_beta(d, p, n_values=N_VALUES)
            out.append(Instance(key, p, an.applies, an.reason, ok, est.beta_fit, est.evidence()))
    return tuple(out)


def check(claim: Claim) -> CheckResult:
    printed = evaluate(claim.printed, "beta")
    with_premise = claim.assumes("premise") == PREMISE
    tried = [i for i in instances() if i.premise or not with_premise]
    bad_points = [i for i in tried if not i.points_ok]
    off = [i for i in tried if not abs(i.beta - printed) <= TOL]  # a beta that does not exist (nan) is off too
    holds = not bad_points and not off
    repair = PREMISE if not holds and all(not i.premise for i in bad_points + off) else None
    status = decide(holds=holds, repair=repair)
    ev = (f"the lemma's class (concave, strictly increasing on [0, 1]): {', '.join(lemma_class())}; instances "
          f"{list(MEANS)}; eq:astar_lemma14 and eq:aprime_lemma14 are the best and second-best grid points in "
          f"{len(tried) - len(bad_points)}/{len(tried)} instances (eps = 1/(n + K/2), n in {GRID_N})"
          + (f"; mismatches: {[(i.key, i.p) for i in bad_points]}" if bad_points else "")
          + "; numeric beta: " + ", ".join(f"{i.key} {i.p}: {num(i.beta, 3, 'f')}" for i in tried)
          + f". Premise of eq:delta_min_conc_mon_analysis: {PREMISE}"
          + (" (stated)" if with_premise else " (not stated by the lemma)"))
    for j, i in enumerate(off):
        detail = f" ({i.premise_reason}; {i.beta_evidence})" if j == 0 else f" ({i.premise_reason})"
        ev += f"; {i.key} at p={i.p}: beta = {num(i.beta, 3, 'f')}, not {claim.printed}{detail}"
    text = ("For concave, strictly increasing h on K-arm Bernoulli instances"
            + (f" with {PREMISE}" if with_premise else "") + f", beta = {claim.printed}")
    return CheckResult(ID, text, f"beta = {claim.printed}",
                       f"beta = 1 if {PREMISE}" if repair is not None else
                       ("beta = " + ", ".join(sorted({num(i.beta, 2, "f") for i in tried})) if off else "beta = 1"),
                       status, "numeric", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    out = []
    if result.status == "conditional":
        out.append(claim.assuming("premise", PREMISE, f"{PREMISE} stated"))
    premised = claim.assuming("premise", PREMISE, "")
    other = stronger(claim.printed, "equal")
    out.append(premised.reprinted(other, f"beta = {other} (with {PREMISE})"))
    return out


STEP = f"{ID}#step:after:eq:delta_min_conc_mon_analysis"


def check_conclusion(claim: Claim) -> CheckResult:
    """The proof's conclusion: 'h'(p) != 0 on (0, 1), so by eq:delta_min_conc_mon_analysis Delta_min(eps) =
    Omega(eps) and beta = 1', judged in the proof's context (concave, strictly increasing h; Bernoulli arms with the
    largest mean unique): the lower bound h'(p(K)) (p(K) - p(K-1)) eps is 0 when p(K) = 1 and h'(1) = 0, which the
    context allows, and then beta is not the printed one."""
    printed = evaluate(claim.printed, "beta")
    with_premise = claim.assumes("premise") == PREMISE
    in_context = [i for i in instances() if len(set(i.p)) == len(i.p)]  # the largest mean unique
    tried = [i for i in in_context if i.premise or not with_premise]
    off = [i for i in tried if not abs(i.beta - printed) <= TOL]
    holds = not off
    repair = PREMISE if off and all(not i.premise for i in off) else None
    ev = (f"the proof's context: h concave and strictly increasing ({', '.join(lemma_class())}), Bernoulli arms "
          f"with distinct means ({[i.p for i in in_context if i.key == in_context[0].key]}); the step needs h'(p(K)) > 0, "
          "but 'h'(p) != 0 for p in (0, 1)' does not cover p(K) = 1")
    if off:
        i = off[0]
        ev += (f"; witness: {i.key} at p = {i.p} ({i.premise_reason}): Delta_min(eps) decays like eps^beta with beta "
               f"= {num(i.beta, 3, 'f')}, not {claim.printed} ({i.beta_evidence})")
        if len(off) > 1:
            ev += "; also " + ", ".join(f"{j.key} at p = {j.p}" for j in off[1:])
    return CheckResult(STEP, "'h'(p) != 0 on (0, 1); from eq:delta_min_conc_mon_analysis Delta_min(eps) = "
                       f"Omega(eps), hence beta = {claim.printed}"
                       + (f" (with {PREMISE})" if with_premise else ""), f"beta = {claim.printed}",
                       f"beta = {claim.printed} if {PREMISE}" if repair else f"beta = {claim.printed}",
                       decide(holds=holds, repair=repair), "numeric", ev)


def mutants_conclusion(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "conditional":
        return [claim.assuming("premise", PREMISE, f"{PREMISE} stated")]
    return [claim.reprinted(stronger(claim.printed, "equal"), "another beta")]


CLAIMS = claim_map(Claim(ID, paper_claims.BETA_MONOTONE, check, mutants),
                   Claim(STEP, paper_claims.BETA_MONOTONE_CONCLUSION, check_conclusion, mutants_conclusion))
