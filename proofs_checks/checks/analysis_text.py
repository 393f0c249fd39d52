"""Rates ``sec:analysis`` states in words: the discrete regrets for Gini deviation (``sec:analysis#text.NAME``) and the
tracking block's regret in the proof sketch of ``theorem:UCB upper bound`` (``#sketch.tracking``).

"In the case of Gini deviation, we observe that for discrete regret, the RS-ETC-M algorithm achieves O(K/T)
regret while RS-UCB-M achieves O(K/sqrt(T)) regret, ignoring polylogarithmic factors."
(:data:`proofs_checks.paper_claims.DISCRETE_TEXT`)

Each printed O(K^a T^-b) is compared, ignoring polylogarithmic factors, with the discrete term of the
eps-dependent theorem's bound (``rsb_theory.rates.etc_bound_eps``/``ucb_bound_eps``) at Gini's derived q = 1:
the power of T it decays with and the power of K it grows with, eps, Delta_min(eps), L, W, B, rho held fixed.
The square root of N(eps)'s logarithm is read as a polylogarithmic factor (it carries log T and, through
eps^-(K-1), a further K log(1/eps) that can add one more power of K).  The claim holds when it decays no
faster in T (:func:`proofs_checks.verdict.compare`, ``"larger"``) and grows no slower in K (``"smaller"``).

The proof sketch says lemma:undersampling shows "the regret incurred by the tracking block ... is of the order
O(K/T)".  The lemma bounds the tracking *error* of the mixing coefficients by K/t; the regret it incurs in the proof
(B_22, through eq:Holder and W) is of order K^(1+q) T^-q -- K^2/T at q = 1, slower than 1/T for q < 1.  The
sentence is refuted as a regret and holds read as the coefficients' error (the mutant states that reading; the
impact is ``typo``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import sympy as sp

from rsb_theory import rates
from rsb_theory.distortions import parse_expression
from rsb_theory.rates import chains

from .. import derived, paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import compare, worst

_S = sp.Symbol("s", positive=True)
#: The proof whose chain these sentences are about: RS-UCB-M's (``proof:UCB upper bound``).
RS_UCB_PROOF = "proof:UCB upper bound"
#: What a non-verified rate changes: a wrong power of K or T is a wrong rate; a looser one changes nothing.
IMPACT = {"refuted": "rate", "loose": "none"}


def powers(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(T-decay, K-degree) of a bound ignoring polylogarithmic factors: every sqrt(log(.)) and log(.) is read as
    a constant; the slowest-decaying term in T and the highest power of K."""
    for lg in sorted(expr.atoms(sp.log), key=sp.default_sort_key):
        expr = expr.subs(sp.sqrt(lg), _S).subs(lg, _S**2)
    terms = sp.Add.make_args(sp.expand(expr))
    decay = min(-sp.expand_power_base(t, force=True).as_coeff_exponent(rates.T)[1] for t in terms)
    degree = max(sp.expand_power_base(t, force=True).as_coeff_exponent(rates.K)[1] for t in terms)
    return sp.nsimplify(decay), sp.nsimplify(degree)


@lru_cache(maxsize=None)
def derived_powers(algo: str, q: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(T-decay, K-degree of the theorem's display, K-degree of the proof's chain) of the discrete regret at q."""
    if algo == "RS-ETC-M":
        d = powers(rates.etc_bound_eps().discrete_regret.subs(rates.q, q))
        return d[0], d[1], d[1]
    d = powers(rates.ucb_bound_eps().discrete_regret.subs(rates.q, q))
    chain = chains.ucb_discrete_chain(RS_UCB_PROOF)
    return d[0], d[1], powers(chain.terms[chain.dominating].subs(rates.q, q).subs(chains.S, _S))[1]


def check(claim: Claim) -> CheckResult:
    t: paper_claims.TextRate = claim.printed
    algo = t.who[0]
    q = derived.profile(t.dr).q
    p_decay, p_deg = powers(parse_expression(t.rate, {"K": rates.K, "T": rates.T}))
    d_decay, d_deg, chain_deg = derived_powers(algo, q)
    status = worst(compare(p_decay, d_decay, "larger"), compare(p_deg, d_deg, "smaller"))
    theorem = "theorem: ETC upper bound (eq:disc_up_ETC)" if algo == "RS-ETC-M" else "theorem:UCB upper bound"
    ev = (f"Gini deviation: derived q = {q}. The discrete term of {theorem} at a fixed eps decays as T^-({d_decay}) "
          f"and grows as K^{d_deg} (polylogarithmic factors aside; Delta_min(eps), L, W, B, rho fixed); the sentence's "
          f"O({t.rate}) is T^-({p_decay}) K^{p_deg}")
    if algo == "RS-ETC-M":
        ev += (f". K^{d_deg}: the factor L K of the bound times N(eps)^q, N(eps) ~ K (2 K L/Delta_min)^(2/q) (one more "
               "power of K when K log(1/eps) dominates 2 log T in N(eps)'s logarithm, and Delta_min(eps) may shrink "
               "with K)")
    else:
        ev += (f". The theorem's display has no K (only T > e^K); its proof's chain has K^{chain_deg} (the L K of "
               "eq:UUB_1, theorem:UCB upper bound#chain.rs-ucb-m), so O(K/sqrt(T)) is what the proof gives")
    differs = [w for w, a, b in (("the power of T", p_decay, d_decay), ("the power of K", p_deg, d_deg)) if a != b]
    ev += f". The printed rate differs from the derived one in: {', '.join(differs) or 'nothing'}"
    return CheckResult(claim.id, f"'{t.sentence}'", f"O({t.rate})",
                       f"T^-({d_decay}) K^{d_deg} (polylog aside)", status, "symbolic", ev,
                       uses=(theorem.split(" (")[0],), impact=IMPACT.get(status))


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    t: paper_claims.TextRate = claim.printed
    d_decay, d_deg, _c = derived_powers(t.who[0], derived.profile(t.dr).q)
    own = f"K**({d_deg})/T**({d_decay})"
    out = [claim.reprinted(replace(t, rate=own), f"the derived O({own})")]
    out.append(claim.reprinted(replace(t, rate=f"1/T**({d_decay} + 1/2)"), "a faster decay in T (+1/2)"))
    return out


# ---------------------------------------------------------------------------
# theorem:UCB upper bound#sketch.tracking
# ---------------------------------------------------------------------------
#: The reading under which the sketch's sentence holds: the tracking *error* of the mixing coefficients.
TRACKING_READING = "read as the tracking error |tau_T(i)/T - a*(i)| of the mixing coefficients (lemma:undersampling)"


@lru_cache(maxsize=None)
def tracking_powers() -> tuple[sp.Expr, sp.Expr]:
    """(T-decay, K-degree) of the regret the tracking block incurs in the proof: the (K/T)^q part of B_22
    (``eq:UCB_UB12``: 2 L K W^q (K/T)^q through eq:Holder and W), q free in (0, 1]."""
    chain = chains.ucb_discrete_chain(RS_UCB_PROOF)
    T, K = rates.T, rates.K
    for t in sp.Add.make_args(sp.expand(sp.expand_power_base(chain.terms["B_22"], force=True))):
        decay = sp.simplify(-T * sp.diff(sp.log(t), T))
        if decay.has(rates.q):  # the (K/T)^q part (the other decays as 1/T)
            return decay, sp.simplify(K * sp.diff(sp.log(t), K))
    raise ArithmeticError("B_22 has no (K/T)^q term")  # pragma: no cover - rsb_theory.rates.chains writes one


def check_tracking(claim: Claim) -> CheckResult:
    t: paper_claims.TextRate = claim.printed
    p_decay, p_deg = powers(parse_expression(t.rate, {"K": rates.K, "T": rates.T}))
    d_decay, d_deg = tracking_powers()
    error = claim.assumes("reading") == TRACKING_READING
    # the coefficients' error: |tau_T(i)/T - a*(i)| < K/T for every arm (lemma:undersampling), K^1 T^-1
    got_decay, got_deg = (sp.Integer(1), sp.Integer(1)) if error else (d_decay, d_deg)
    qs = (sp.Rational(1, 100), sp.Rational(1, 2), sp.Integer(1))  # q near 0, the middle, q = 1
    status = worst(*(compare(p_decay, got_decay.subs(rates.q, x), "larger") for x in qs),
                   *(compare(p_deg, got_deg.subs(rates.q, x), "smaller") for x in qs))
    ev = (f"The tracking block's regret in the proof is the (K/T)^q part of B_22 (lemma:undersampling's "
          "|tau_T(i)/T - a*(i)| < K/T through eq:Holder and W: 2 L K W^q (K/T)^q in eq:UCB_UB12, one more K in "
          f"eq:UCB_UB11), at q = 1/100, 1/2, 1: T^-({d_decay}) "
          f"K^({d_deg}), i.e. K^2/T at q = 1 and slower than 1/T for q < 1; the sentence's O({t.rate}) is "
          f"T^-({p_decay}) K^{p_deg}. Read as the tracking error of the mixing coefficients (lemma:undersampling: "
          "< K/T per arm) the sentence holds" + (" (the reading stated here)" if error else ""))
    return CheckResult(claim.id, f"'{t.sentence}'" + (f" ({TRACKING_READING})" if error else ""), f"O({t.rate})",
                       f"T^-({got_decay}) K^({got_deg})", status, "symbolic", ev,
                       uses=("lemma:undersampling", "eq:UCB_UB11", "eq:UCB_UB12"), impact=None if error else "typo")


def mutants_tracking(claim: Claim, result: CheckResult) -> list[Claim]:
    return [claim.assuming("reading", TRACKING_READING, TRACKING_READING)]


CLAIMS = claim_map(*(Claim(t.id, t, check, mutants) for t in paper_claims.DISCRETE_TEXT),
                   *(Claim(t.id, t, check_tracking, mutants_tracking) for t in paper_claims.SKETCH_TEXT))
#: Gini's profile is derived by its table row: run there (:func:`proofs_checks.registry.work_units`).
SHARES_ROW: dict[str, str] = {t.id: t.dr for t in paper_claims.DISCRETE_TEXT}
