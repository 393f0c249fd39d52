"""``eq:UCB_confidence_sets`` at the horizons of ``sec: experiments``.

The radius 16 (sqrt(2 e log T) + 32) / sqrt(tau) of the confidence sets is at
its smallest when one arm has all T pulls (tau = T).  Laws on [0, 1] are at
1-Wasserstein distance at most 1 from each other (``lemma:lipschitz-wasserstein``:
int_0^1 |F - G| <= 1), so a radius >= 1 puts *every* law on [0, 1] in every
confidence set: the optimistic value of ``eq:UCB_alpha`` is then max of h on
[0, 1] for every mixture, all grid points tie, and the tie rule keeps the first
mixture for the whole run.  The check evaluates the radius exactly (SymPy) at
each horizon the claim is about (the experiments' stated horizons) and the
smallest horizon at which the radius at tau = T (one arm) or tau = T/K
(balanced) drops below 1.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory.rates import T as T_sym
from rsb_theory.rates import ucb_radius

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "eq:UCB_confidence_sets#experiments"
#: What makes the sets informative when the printed radius does not (rsb: --radius-scale).
REPAIR = "a confidence radius below the printed one (unstated; rsb --radius-scale)"


def radius(T: int, tau: float) -> float:
    """The radius of ``eq:UCB_confidence_sets`` at horizon T after tau pulls (exact SymPy, then float)."""
    return float(ucb_radius(sp.Integer(int(tau)) if float(tau).is_integer() else tau).subs(T_sym, T))


@lru_cache(maxsize=None)
def smallest_informative_T(K: int) -> int:
    """Smallest T with radius(T, tau = floor(T/K)) < 1 (bisection on the monotone condition)."""
    def ok(T: int) -> bool:
        return radius(T, max(T // K, 1)) < 1
    lo, hi = 2, 2
    while not ok(hi):
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def stated_horizons() -> tuple[tuple[str, int], ...]:
    """(figure, T) for every horizon ``sec: experiments`` states."""
    return tuple((exp.figure, T) for exp in paper_claims.EXPERIMENTS for T in exp.T)


def check(claim: Claim | None = None) -> CheckResult:
    """The entry of ``claim`` (default: the printed claim, for the example of docs/api.md)."""
    if claim is None:
        claim = CLAIMS[ID]
    rows, degenerate, largest = [], True, 0.0
    for figure, T in claim.printed:
        r_one = radius(T, T)
        degenerate &= r_one >= 1
        largest = max(largest, r_one)
        rows.append(f"{figure} T={T}: radius at tau=T is {num(r_one, 3, 'f')}")
    T1, T2, T6 = smallest_informative_T(1), smallest_informative_T(2), smallest_informative_T(6)
    status = decide(holds=not degenerate, repair=REPAIR)
    derived = ("radius >= 1 at every tau <= T for every stated horizon: every law on [0, 1] is in every confidence set"
               if degenerate else "radius < 1 at some stated horizon")
    ev = ("; ".join(rows) + f". W1 between laws on [0, 1] is at most 1, so with radius >= 1 the optimistic value of "
          f"eq:UCB_alpha is max_[0,1] h for every mixture and the tie rule keeps the first mixture: RS-UCB-M as printed "
          f"cannot learn at these horizons. Smallest T with radius < 1: {T1} (tau = T, one arm), {T2} (tau = T/2, K=2 "
          f"balanced), {T6} (tau = T/6, K=6 balanced)."
          + (f" The figures need a radius below 1/{num(largest, 3, 'f')} of the printed one (rsb: --radius-scale)."
             if degenerate else ""))
    return CheckResult(ID, "The confidence sets of eq:UCB_confidence_sets are informative at the horizons "
                           + ", ".join(str(T) for _f, T in claim.printed)
                           + " (RS-UCB-M as printed is what the figures show)",
                       "radius 16(sqrt(2e log T)+32)/sqrt(tau)", derived, status, "symbolic", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "verified":
        T = smallest_informative_T(1) - 1
        return [claim.reprinted((("radius >= 1", T),), f"the horizon T = {T} (radius at tau = T still >= 1)")]
    T = smallest_informative_T(1)
    return [claim.reprinted((("informative", T),), f"the horizon T = {T} (radius < 1 at tau = T)")]


CLAIMS = claim_map(Claim(ID, stated_horizons(), check, mutants))
