"""The Discussion after ``eq:UCB_alpha2``: "for Wang's right-tail deviation RS-ETC-M is better, whereas for Gini
deviation RS-UCB-M outperforms RS-ETC-M".

The eps-independent bounds of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``
are compared by :func:`proofs_checks.verdict.compare_bounds` at every
beta > 0 (beta is left open by ``table:table_risks`` for both rows), honouring
the corollary's side condition r <= beta + q/2: where it holds, RS-UCB-M's
bound is the corollary's (log T/T)^(r kappa); where it fails, the corollary
does not apply and RS-UCB-M's bound is what its proof gives without it
(``eq:UCB upper bound appendix``: the slower of the two terms,
(log T/T)^((1 - kappa) q/2); :func:`rsb_theory.rates.derive_ucb_exponents`).
RS-ETC-M's rate T^-(qr/(2 beta + r)) (log T)^(qr/(2 beta)) has no side
condition on beta.  At each beta the faster power of T wins, then the smaller
power of log T.  q is derived from h (:func:`rsb_theory.holder.holder`) and r
at a mixture optimum (:func:`rsb_theory.holder.family_mixture_exponent`); the
comparison with the paper's printed (q, r) of ``table:table_risks`` is in the
evidence.  The evidence says for which beta each algorithm wins.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory import rates
from rsb_theory.distortions import get
from rsb_theory.holder import family_mixture_exponent
from rsb_theory.profile import of

from .. import derived, paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import Rate, compare_bounds, fmt_set

LABEL = "eq:UCB_alpha2"
PARTS = tuple(f"discussion.{k}" for k in paper_claims.DISCUSSION_BETTER)
ALGORITHMS = ("RS-ETC-M", "RS-UCB-M")
#: Every beta > 0: the range of beta the claim is read over (it states none).
ALL_BETA = sp.Interval.open(0, sp.oo)


@lru_cache(maxsize=None)
def bounds(q: sp.Expr, r: sp.Expr) -> dict[str, tuple[Rate, ...]]:
    """The two eps-independent bounds as functions of beta, each with the pieces its side conditions give."""
    b = rates.beta
    order = rates.compare_etc_ucb(q, r, b)
    etc = (Rate(order.etc_T_decay, order.etc_log_power, ALL_BETA, "theorem:RS-ETC-M"),)
    ud = derived.ucb_exponents()
    at = {rates.q: q, rates.r: r}
    delta, discrete = sp.simplify(ud.delta_decay.subs(at)), sp.simplify(ud.discrete_decay.subs(at))
    side = sp.solveset(rates.ucb_side_condition(q, r, b), b, ALL_BETA)
    ucb = (Rate(delta, delta, side, "corollary:RS-UCB-M, r <= beta + q/2"),
           Rate(discrete, discrete, sp.Complement(ALL_BETA, side), "eq:UCB upper bound appendix without it"))
    return {"RS-ETC-M": etc, "RS-UCB-M": ucb}


@lru_cache(maxsize=None)
def _qr(key: str) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """(derived q, derived r at a mixture optimum, printed q, printed r) for row ``key``."""
    d = get(key)
    r, _ = family_mixture_exponent(d, solitary=False)
    row = paper_claims.risk_row(key)
    return of(d).q, r, derived.printed(row.q, {}), derived.printed(row.r, {})


def check(claim: Claim) -> CheckResult:
    key, claimed = claim.printed
    other = next(a for a in ALGORITHMS if a != claimed)
    domain = claim.assumes("beta_in", ALL_BETA)
    q, r, pq, pr = _qr(key)
    b = rates.beta
    got = compare_bounds((claimed, bounds(q, r)[claimed]), (other, bounds(q, r)[other]), b, domain)
    paper = compare_bounds((claimed, bounds(pq, pr)[claimed]), (other, bounds(pq, pr)[other]), b, domain)
    if got.claimed_wins == domain:
        derived_text = claimed
    elif got.other_wins == domain:
        derived_text = other
    else:
        derived_text = (f"{claimed} for beta in {fmt_set(got.claimed_wins)}; {other} for beta in "
                        f"{fmt_set(got.other_wins)}" if got.other_wins != sp.EmptySet else
                        f"{claimed} for beta in {fmt_set(got.claimed_wins)}")
    ev = (f"derived q = {q}, r = {r} (mixture optimum), beta over {fmt_set(domain)}"
          f"{' (stated)' if claim.assumes('beta_in') is not None else ' (the claim states no range)'}: "
          f"{got.evidence}. With the printed q = {pq}, r = {pr} of table:table_risks: {paper.evidence}.")
    where = "" if claim.assumes("beta_in") is None else f" for beta in {fmt_set(domain)}"
    return CheckResult(claim.id, f"For {key} the better eps-independent regret bound is {claimed}'s{where} "
                       "(Discussion after eq:UCB_alpha2)", claimed, derived_text, got.status, "symbolic", ev,
                       condition=got.repair)  # the derived comparison's condition, not the printed values' one


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    key, claimed = claim.printed
    other = next(a for a in ALGORITHMS if a != claimed)
    out = [claim.reprinted((key, other), f"{other} is the better one for {key}")]
    if result.status == "conditional":
        q, r, _pq, _pr = _qr(key)
        wins = compare_bounds((claimed, bounds(q, r)[claimed]), (other, bounds(q, r)[other]), rates.beta,
                              claim.assumes("beta_in", ALL_BETA)).claimed_wins
        out.append(claim.assuming("beta_in", wins, f"beta in {fmt_set(wins)} stated"))
    return out


CLAIMS = claim_map(*(Claim(f"{LABEL}#{part}", (part.split(".", 1)[1],
                                                paper_claims.DISCUSSION_BETTER[part.split(".", 1)[1]]),
                           check, mutants) for part in PARTS))
