"""Cells of ``table:table_risks``: q, r, beta and the lemmas' constant L.

Each cell is re-derived from h (``rsb_theory.profile.family_profile``) for the
Bernoulli family at every parameter value of the range the table states
(:func:`proofs_checks.derived.parameter_sweep`: PHT s in (0, 1), dual power
s in [2, oo), quadratic s in [0, 1], CVaR alpha over its domain, inter-ES at
alpha = 1/2); the worst verdict over the sweep is the cell's.  q and r are
exponents (larger is stronger), L a constant (smaller is stronger), beta a
defined limit (equal or false).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import sympy as sp

from rsb_theory.gap import beta_monotone, estimate_beta
from rsb_theory.holder import sup_one_point_ratio
from rsb_theory.profile import of

from .. import derived, paper_claims, results
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..mutants import as_text, stronger
from ..verdict import compare, decide, worst
from ..numfmt import num
from ..statuses import Status

TABLE = "table:table_risks"
COLUMNS = ("q", "r", "beta", "L")
#: What a stronger value of each column is (:func:`proofs_checks.verdict.compare`).
SENSE = {"q": "larger", "r": "larger", "beta": "equal", "L": "smaller"}


@dataclass(frozen=True)
class SweepFacts:
    status: str
    derived_text: str
    evidence: str
    common: sp.Expr | None  # the derived value when it is the same at every swept parameter


def _sweep(key: str, text: str, value_of, sense: str) -> SweepFacts:
    """Compare printed and derived at every swept parameter value; worst verdict wins."""
    statuses, parts, got, values = [], [], [], set()
    for params in derived.parameter_sweep(key, TABLE):
        d_val, why = value_of(params)
        statuses.append(compare(derived.printed(text, params), d_val, sense))
        tag = derived.fmt_params(params)
        parts.append(f"{tag}{why}")
        got.append(f"{tag}{d_val}".strip())
        values.add(d_val)
    common = next(iter(values)) if len(values) == 1 else None
    return SweepFacts(worst(*statuses), "; ".join(got), " | ".join(parts), common)


def _q(key: str, text: str) -> SweepFacts:
    def value(params):
        h = derived.profile(key, params).holder
        return h.q, h.evidence()

    return _sweep(key, text, value, "larger")


def _r(key: str, text: str) -> SweepFacts:
    def value(params):
        prof = derived.profile(key, params)
        return prof.r, prof.r_evidence

    return _sweep(key, text, value, "larger")


def _L(key: str, text: str, r_text: str) -> SweepFacts:
    def value(params):
        prof = derived.profile(key, params)
        r_printed = derived.printed(r_text, params)
        mix = _mixture01(key, tuple(sorted(params.items())))
        L_mh, L_mh_exact, _ = _sup_ratio(key, tuple(sorted(params.items())), mix.p_star, r_printed)
        L_h = prof.holder.L_exact if prof.holder.L_exact is not None else sp.Float(prof.holder.L_H, 8)
        L_mh_v = L_mh_exact if L_mh_exact is not None else sp.Float(L_mh, 8)
        total = sp.Max(L_h, L_mh_v)
        note = ""
        if bool(mix.r > r_printed) and mix.r != sp.oo:
            L_best = mix.L_exact if mix.L_exact is not None else round(mix.L_MH, 6)
            note = f"; with the derived r = {mix.r} instead, L_MH = {L_best}"
        return sp.nsimplify(total, tolerance=1e-9, rational=True), (
            f"L_H = {L_h} ({prof.holder.L_method}); L_MH for the printed r = {r_printed} at p* = {mix.p_star} "
            f"over [0, 1] = {L_mh_v}{note}"
        )

    return _sweep(key, text, value, "smaller")


@lru_cache(maxsize=None)
def _mixture01(key: str, params: tuple):
    return of(derived.profile(key, dict(params)).distortion).mixture([0, 1])


@lru_cache(maxsize=None)
def _sup_ratio(key: str, params: tuple, p_star, r):
    return sup_one_point_ratio(derived.profile(key, dict(params)).distortion, p_star, r, sp.Integer(0), sp.Integer(1))


def check_q(claim: Claim) -> CheckResult:
    row: paper_claims.RiskRow = claim.printed
    f = _q(row.key, row.q)
    return CheckResult(claim.id, f"Hölder exponent q of {row.key} (Bernoulli family) is {row.q}",
                       row.q, f.derived_text, f.status, "symbolic", f.evidence)


def check_r(claim: Claim) -> CheckResult:
    row: paper_claims.RiskRow = claim.printed
    f = _r(row.key, row.r)
    ev = f.evidence
    prof = derived.profile(row.key)
    if f.status == "loose" and prof.solitary:
        # the better r holds per instance; say how its constant depends on the instance
        consts = []
        for c in ("1/100", "1/10", "1"):
            m = of(prof.distortion).mixture([0, sp.Rational(c)])
            consts.append(f"L_MH(r={m.r}) at p=(0,{c}) is {m.L_exact if m.L_exact is not None else round(m.L_MH, 6)}")
        ev += " | per-instance constants: " + "; ".join(consts)
    cls = "solitary" if prof.solitary else "mixture"
    return CheckResult(claim.id,
                       f"Mixture Hölder exponent r of {row.key} at {cls}-optimal Bernoulli instances is {row.r}",
                       row.r, f.derived_text, f.status, "symbolic", ev)


#: Rows whose parameters the table states beyond the Bernoulli family: the footnote of the q column reports q "for
#: K-arm Bernoulli bandit distributions except for CVaR and PHT Measure", and lemma:PHT (whose constant the L cell
#: is) is stated for CDFs supported on [0, tau].  Their L is judged on that domain too.
SUPPORT_ROWS = ("pht",)


def _L_support(claim: Claim, row: paper_claims.RiskRow):
    """(status, derived, evidence) of the PHT constant for CDFs on [0, tau] (:func:`holder_pht.L_on_support`)."""
    from .holder_pht import L_on_support

    return L_on_support(claim, row.L)


def check_L(claim: Claim) -> CheckResult:
    row: paper_claims.RiskRow = claim.printed
    f = _L(row.key, row.L, row.r)
    status, derived_text, ev = f.status, f.derived_text, f.evidence
    domain = ""
    if row.key in SUPPORT_ROWS:
        st, der, why = _L_support(claim, row)
        status = worst(status, st)
        derived_text = f"Bernoulli (tau = 1): {derived_text}; {der}"
        ev = (f"{ev} | The table states the PHT row beyond the Bernoulli family (the q column's footnote excepts PHT; "
              f"the constant is lemma:PHT's, stated for CDFs on [0, tau]): {why}.")
        domain = " for CDFs on [0, tau]" + (" with tau <= 1" if claim.assumes("support") else "")
    return CheckResult(claim.id, f"Hölder constant L = max(L_H, L_MH) of {row.key} is {row.L} ({results.HOLDER_LEMMA[row.key]}){domain}",
                       row.L, derived_text, status, "symbolic" if "numeric" not in ev else "numeric", ev)


@dataclass(frozen=True)
class BetaFacts:
    status: str
    derived_text: str
    evidence: str
    method: str
    needed_bound: str | None  # solitary rows: the bound on the means beta = 1 needs, when the same everywhere
    derived_value: str | None  # the value a printed beta must have ('-' when none is found)


def _beta_mixture(claim: Claim, row: paper_claims.RiskRow) -> BetaFacts:
    prof = derived.profile(row.key)
    est = derived.beta_numeric(row.key, derived.MIXTURE_INSTANCE)
    lemma = beta_monotone(prof.distortion, derived.MIXTURE_INSTANCE)
    found = "1" if lemma.applies else None
    if row.beta.strip() == "-":
        # '-': no analytic value; a proven value makes the '-' loose
        status = decide(holds=True, sharper=found is not None)
    else:  # a printed value: equal to the proven one, or false (nothing proven to compare it with)
        status = compare(derived.printed(row.beta, {}), sp.Integer(1), "equal", comparable=found is not None)
    return BetaFacts(status, found or ("no limit found" if not est.converged else f"~{num(est.beta_fit, 3, 'f')}"),
                     f"lemma:beta_lemma_monotone at p={derived.MIXTURE_INSTANCE}: "
                     f"{'applies: ' if lemma.applies else 'does not apply: '}{lemma.reason}. Numerically: {est.evidence()}",
                     "numeric", None, found or "-")


def _beta_solitary(claim: Claim, row: paper_claims.RiskRow) -> BetaFacts:
    stated = claim.assumes("means_below", row.beta_bound)
    statuses, evid, bounds, values = [], [], set(), set()
    for params in derived.parameter_sweep(row.key, TABLE):
        prof = derived.profile(row.key, params)
        fb = prof.beta
        tag = derived.fmt_params(params)
        if fb.value is None:  # nothing derived to compare the printed value with
            statuses.append(compare(None, None, "equal", comparable=False))
            evid.append(f"{tag}{fb.evidence}")
            continue
        values.add(fb.value)
        if row.beta.strip() == "-":
            st = decide(holds=True, sharper=True)
        else:
            st = compare(derived.printed(row.beta, params), fb.value, "equal")
        evid.append(f"{tag}beta = {fb.value} by lemma:beta_lemma_monotone: {fb.evidence}")
        if fb.bound is not None:
            bounds.add(fb.bound)
            ok = stated is not None and bool(derived.printed(stated, params) <= fb.bound)
            if ok:
                evid.append(f"{tag}the condition {fb.condition} is stated (means < {stated})")
            else:
                st = worst(st, decide(holds=False, repair=fb.condition))
                est = estimate_beta(prof.distortion, fb.counterexample, grid="ucb")
                evid.append(f"{tag}{fb.condition} is not stated; counterexample p={fb.counterexample}: {est.evidence()}")
        statuses.append(st)
    status = worst(*statuses)
    conf = derived.beta_numeric(row.key, derived.SOLITARY_INSTANCE)
    evid.append(f"numeric confirmation at p={derived.SOLITARY_INSTANCE}: {conf.evidence()}")
    unstated = [e for e in evid if "is not stated" in e]
    if unstated:
        evid.insert(0, "holds only under the unstated condition(s): " + "; ".join(u.split(" is not stated")[0]
                                                                              for u in unstated))
    value = as_text(next(iter(values))) if len(values) == 1 else None
    return BetaFacts(status, value if value else "-", " | ".join(evid), "symbolic",
                     as_text(next(iter(bounds))) if len(bounds) == 1 else None, value)


@lru_cache(maxsize=None)
def beta_facts(claim: Claim) -> BetaFacts:
    row: paper_claims.RiskRow = claim.printed
    return _beta_solitary(claim, row) if derived.profile(row.key).solitary else _beta_mixture(claim, row)


def check_beta(claim: Claim) -> CheckResult:
    row: paper_claims.RiskRow = claim.printed
    f = beta_facts(claim)
    if derived.profile(row.key).solitary:
        text = f"Gap exponent beta of {row.key} (solitary-optimal Bernoulli instances) is {row.beta}"
    else:
        text = (f"beta of {row.key} is not characterised analytically ('-'): lemma:beta_lemma_monotone does not "
                f"apply to its mixture-optimal instances" if row.beta.strip() == "-"
                else f"Gap exponent beta of {row.key} (mixture-optimal Bernoulli instances) is {row.beta}")
    given = claim.assumes("means_below")
    if given is not None:
        text += f" (for arm means < {given})"
    return CheckResult(claim.id, text, row.beta, f.derived_text, f.status, f.method, f.evidence)


# ---------------------------------------------------------------------------
# mutants
# ---------------------------------------------------------------------------
def _value_mutants(claim: Claim, result: CheckResult, column: str, facts: SweepFacts) -> list[Claim]:
    row: paper_claims.RiskRow = claim.printed
    text = getattr(row, column)
    out = []
    if Status(result.status).holds:
        new = stronger(text, SENSE[column])
        out.append(claim.reprinted(replace(row, **{column: new}), f"{column} = {new} (stronger)"))
    if result.status in ("loose", "refuted") and facts.common is not None:
        new = as_text(facts.common)
        out.append(claim.reprinted(replace(row, **{column: new}), f"{column} = {new} (the derived value)"))
    return out


def mutants_q(claim: Claim, result: CheckResult) -> list[Claim]:
    return _value_mutants(claim, result, "q", _q(claim.printed.key, claim.printed.q))


def mutants_r(claim: Claim, result: CheckResult) -> list[Claim]:
    return _value_mutants(claim, result, "r", _r(claim.printed.key, claim.printed.r))


def mutants_L(claim: Claim, result: CheckResult) -> list[Claim]:
    row = claim.printed
    out = []
    if result.status == "conditional" and row.key in SUPPORT_ROWS:
        from .holder_pht import TAU_AT_MOST_ONE

        out.append(claim.assuming("support", TAU_AT_MOST_ONE, f"CDFs on [0, tau] with {TAU_AT_MOST_ONE} stated"))
    return out + _value_mutants(claim, result, "L", _L(row.key, row.L, row.r))


def mutants_beta(claim: Claim, result: CheckResult) -> list[Claim]:
    row: paper_claims.RiskRow = claim.printed
    f = beta_facts(claim)
    out = []
    if result.status == "conditional" and f.needed_bound is not None:
        out.append(claim.assuming("means_below", f.needed_bound, f"arm means < {f.needed_bound} stated"))
    if result.status in ("loose", "refuted") and f.derived_value is not None and f.derived_value != row.beta:
        out.append(claim.reprinted(replace(row, beta=f.derived_value), f"beta = {f.derived_value} (the derived value)"))
    if result.status == "verified":
        new = "1" if row.beta.strip() == "-" else stronger(row.beta, "equal")
        out.append(claim.reprinted(replace(row, beta=new), f"beta = {new} (another value)"))
    return out


def _claims():
    for row in paper_claims.TABLE_RISKS:
        yield Claim(f"{TABLE}#{row.key}.q", row, check_q, mutants_q)
        yield Claim(f"{TABLE}#{row.key}.r", row, check_r, mutants_r)
        yield Claim(f"{TABLE}#{row.key}.beta", row, check_beta, mutants_beta)
        if row.L is not None:
            yield Claim(f"{TABLE}#{row.key}.L", row, check_L, mutants_L)


CLAIMS = claim_map(*_claims())
