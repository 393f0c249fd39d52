"""N(eps) of ``eq:number of samples main paper`` at the horizons of ``sec: experiments``.

RS-ETC-M explores ceil(N(eps)/K) pulls per arm and commits only if
K ceil(N(eps)/K) < T.  N(eps) is evaluated with q, L derived from h
(:func:`rsb_theory.holder.holder`), Delta_min(eps) of the instance on the ETC
grid (:func:`rsb_theory.gap.delta_min`) and the experiment's eps rule (text,
evaluated by :func:`rsb_theory.expressions.evaluate`; sqrt(K log T / T) in the
paper), at every horizon of every experiment with a stated instance.
"""

from __future__ import annotations

import math
from dataclasses import replace

import sympy as sp

from rsb_theory import rates
from rsb_theory.distortions import get
from rsb_theory.expressions import evaluate
from rsb_theory.gap import delta_min
from rsb_theory.profile import of

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "eq:number of samples main paper#experiments"
#: What lets RS-ETC-M commit when N(eps) does not (rsb: --explore).
REPAIR = "an exploration length below N(eps) (unstated; rsb --explore)"
#: Largest horizon tried when looking for one at which RS-ETC-M commits (a work budget).
T_SEARCH_MAX = 2**90


def n_eps(K: int, T: int, eps: float, q, L, dmin: float) -> float:
    """N(eps) evaluated exactly then as a float."""
    subs = {rates.K: K, rates.T: T, rates.eps: sp.nsimplify(eps), rates.q: q, rates.L: L,
            rates.Delta_min: sp.nsimplify(dmin)}
    return float(rates.N_eps().subs(subs).evalf(30))


def horizon_row(exp: paper_claims.ExperimentSetup, T: int) -> tuple[bool, str]:
    """(RS-ETC-M commits before T, the evidence line) for one stated horizon."""
    d = get("gini")
    hr = of(d).holder()
    K = len(exp.p)
    eps = evaluate(exp.eps, "eps", {"T": T, "K": K})
    gp = delta_min(d, exp.p, eps, "etc")
    L = hr.L_exact if hr.L_exact is not None else hr.L_H
    N = n_eps(K, T, eps, hr.q, L, gp.delta_min)
    commits = K * math.ceil(N / K) < T
    return commits, (f"{exp.figure} K={K} T={T} eps={num(eps, 4, 'f')}: Delta_min={num(gp.delta_min)}, N(eps)={num(N)} "
                     f"({num(N / T, 2)} T)")


def check(claim: Claim) -> CheckResult:
    rows, never = [], True
    for exp in claim.printed:
        for T in exp.T:
            commits, line = horizon_row(exp, T)
            never &= not commits
            rows.append(line)
    hr = of(get("gini")).holder()
    status = decide(holds=not never, repair=REPAIR)
    horizons = ", ".join(f"{e.figure} (eps = {e.eps})" for e in claim.printed)
    return CheckResult(ID, "RS-ETC-M with the exploration length N(eps) of eq:number of samples main paper commits "
                           f"before the horizons of {horizons}", "N(eps) = O(log T)",
                       "N(eps) > T at every stated horizon: RS-ETC-M never commits" if never else "commits",
                       status, "numeric",
                       f"q = {hr.q}, L_H = {hr.L_exact if hr.L_exact is not None else hr.L_H} derived for Gini; "
                       + "; ".join(rows)
                       + (". RS-ETC-M as printed is uniform sampling at these horizons; the figures need an unstated "
                          "exploration length (rsb: --explore)." if never else "."))


def committing_horizon(exp: paper_claims.ExperimentSetup) -> int | None:
    """The first T = 2^k >= the stated horizon at which RS-ETC-M commits with the experiment's eps rule."""
    T = max(exp.T)
    while T <= T_SEARCH_MAX:
        if horizon_row(exp, T)[0]:
            return T
        T *= 2
    return None


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """A fixed eps (N(eps) = O(log T) then) and the first horizon at which RS-ETC-M commits with it."""
    exp = claim.printed[0]
    fixed = replace(exp, eps="1/10")
    T = committing_horizon(fixed)
    if T is None:  # pragma: no cover - N(1/10) is finite for the experiments' instance
        return []
    return [claim.reprinted((replace(fixed, T=(T,)),), f"eps = 1/10 fixed and the horizon T = {T} ({exp.figure})")]


CLAIMS = claim_map(Claim(ID, tuple(e for e in paper_claims.EXPERIMENTS if e.p is not None), check, mutants))
