"""``lemma:PHT`` (proportional hazard transform, h(u) = u^s, s in (0, 1)): q, r, L and steps.

The lemma is stated for CDFs supported on [0, tau].  Its chain is
(1-F)^s - (1-G)^s <= |F - G|^s (pointwise, ``step:power``), then
int_0^tau |F-G|^s <= (int_0^tau |F-G|)^s ("Jensen", ``step:jensen``).  Jensen
for the concave t -> t^s under the *normalised* measure dx/tau gives
int_0^tau g^s <= tau^(1-s) (int_0^tau g)^s, with equality for g = 1 (delta_0
against delta_tau): the printed constant 1 needs tau <= 1.  The Bernoulli
family (tau = 1) is the setting of ``table:table_risks``.  The supports tried
are :data:`TAUS`; a claim stating ``tau <= 1`` keeps those only.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.riskmetric import finite_support, wasserstein1_finite

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from . import _holder as hl
from ..numfmt import num

LABEL = "lemma:PHT"
KEY = "pht"
PARTS = ("q", "r", "L", "summary", "step:power", "step:jensen")
#: s in (0, 1): an interior point on each side of the table's s = 1/2.
SWEEP: list[dict] = [{"s": sp.Rational(1, 4)}, {"s": sp.Rational(1, 2)}, {"s": sp.Rational(3, 4)}]
#: support lengths tau for the Jensen step and the constant (<= 1 and > 1).
TAUS = (0.5, 1.0, 2.0, 4.0)
SEED = 20250301
#: The condition under which the printed constant holds (a mutant states it).
TAU_AT_MOST_ONE = "tau <= 1"


def _taus(claim: Claim) -> tuple[float, ...]:
    return tuple(t for t in TAUS if t <= 1) if claim.assumes("support") == TAU_AT_MOST_ONE else TAUS


@lru_cache(maxsize=None)
def _jensen_ratios(seed: int = SEED, n_pairs: int = 400, m: int = 12) -> dict[tuple[float, float], float]:
    """max over random CDF pairs on [0, tau] of int|F-G|^s / (int|F-G|)^s, per (s, tau); plus delta_0 vs delta_tau."""
    rng = np.random.default_rng(seed)
    out = {}
    for params in SWEEP:
        s = float(params["s"])
        for tau in TAUS:
            xs = np.sort(np.concatenate([[0.0, tau], rng.uniform(0, tau, m - 2)]))
            a = rng.dirichlet(np.ones(m) * 0.3, size=n_pairs)
            b = rng.dirichlet(np.ones(m) * 0.3, size=n_pairs)
            # add the extreme pair delta_0 vs delta_tau
            a = np.vstack([a, np.eye(m)[0]])
            b = np.vstack([b, np.eye(m)[-1]])
            gap = np.abs(np.cumsum(a - b, axis=1)[:, :-1])
            w = np.diff(xs)
            lhs = (w * gap ** s).sum(axis=1)
            rhs = ((w * gap).sum(axis=1)) ** s
            ok = rhs > 1e-12
            out[(s, tau)] = float(np.max(lhs[ok] / rhs[ok]))
    return out


def _dirac_ratio(s: sp.Expr, tau: float) -> float:
    """(U_h(delta_tau) - U_h(delta_0)) / W1(delta_0, delta_tau)^s, by eq:wang_def and lemma:lipschitz-wasserstein."""
    d = hl.dist(KEY, hl.frozen({"s": s}))
    xs = [0.0, tau]
    gap = float(finite_support(d.numeric, xs, [0.0, 1.0]) - finite_support(d.numeric, xs, [1.0, 0.0]))
    w = float(wasserstein1_finite(xs, [0.0, 1.0], [1.0, 0.0]))
    return gap / w ** float(s)


def _step_power(c) -> CheckResult:
    a, b = sp.symbols("a b", nonnegative=True)
    sups = []
    for params in SWEEP:
        s = params["s"]
        expr = sp.Abs(a ** s - b ** s) / sp.Abs(a - b) ** s
        sups.append((s, hl.box_sup(expr, (a, b), region=lambda A, B: np.abs(A - B) > 1e-9, n=601)))
    worst = max(v for _, v in sups)
    const = float(hl.printed_value(c.printed, {}))
    # a grid supremum is a lower bound of the true one: it can refute the constant, not prove a smaller one
    st = hl.decide(holds=worst <= const * (1 + 1e-9))
    return CheckResult(c.id, c.claim, c.printed, f"sup |a^s - b^s| / |a - b|^s = {num(worst, 6)}", st, "numeric",
                       "grid over [0,1]^2 (601^2): " + ", ".join(f"s={s}: {num(v, 6)}" for s, v in sups)
                       + f"; the sup 1 is attained at b = 0 (subadditivity of t^s); printed constant {c.printed}")


def _step_jensen(claim: Claim) -> CheckResult:
    c = claim.printed
    const = float(hl.printed_value(c.printed, {}))
    taus = _taus(claim)
    ratios = {k: v for k, v in _jensen_ratios().items() if k[1] in taus}
    bad = [(s, tau, v) for (s, tau), v in ratios.items() if v > const * (1 + 1e-9)]
    within = all(v <= tau ** (1 - s) * (1 + 1e-9) for (s, tau), v in ratios.items())
    tight = all(abs(v - tau ** (1 - s)) < 1e-9 for (s, tau), v in ratios.items())
    repair = TAU_AT_MOST_ONE if bad and all(tau > 1 for _s, tau, _v in bad) and within else None
    st = hl.decide(holds=not bad, repair=repair)
    s0, tau0 = 0.5, 2.0
    ev = (f"seed {SEED}: 400 random CDF pairs + (delta_0, delta_tau) on [0, tau], 12 atoms, tau in {taus}; max of "
          "int|F-G|^s / (int|F-G|)^s: " + ", ".join(f"(s={num(s, 6)}, tau={num(t, 6)}) {num(v)}" for (s, t), v in ratios.items())
          + f"; every value <= tau^(1-s): {within}; the max equals tau^(1-s) (pair delta_0, delta_tau): {tight}. "
          + (f"Counterexample to the printed step: s = {s0}, delta_0 vs delta_{num(tau0, 6)}: lhs = {num(tau0, 6)}, rhs = "
             f"{num(tau0 ** s0, 4, 'f')}. " if bad else "")
          + "Jensen under dx/tau gives int g^s <= tau^(1-s) (int g)^s, so the step needs tau <= 1")
    text = c.claim + f" (constant {c.printed})" + (f", {TAU_AT_MOST_ONE}" if claim.assumes("support") else "")
    return CheckResult(c.id, text, c.printed, "tau^(1-s) (= 1 iff tau <= 1)", st, "numeric", ev)


def _L_general(claim: Claim, printed_L: str) -> tuple[str, str, str]:
    """(status, derived, evidence) of the constant L for CDFs on [0, tau], tau in the claim's supports."""
    taus = _taus(claim)
    ratios = [(p["s"], t, _dirac_ratio(p["s"], t)) for p in SWEEP for t in taus]
    const = float(hl.printed_value(printed_L, {}))
    bad = [(s, t, v) for s, t, v in ratios if v > const * (1 + 1e-9)]
    st = hl.decide(holds=not bad, repair=TAU_AT_MOST_ONE if bad and all(t > 1 for _s, t, _v in bad) else None)
    vals = ", ".join(f"(s={s}, tau={num(t, 6)}) {num(v)}" for s, t, v in ratios)
    return (st, "1 for tau <= 1 (Bernoulli), tau^(1-s) for CDFs on [0, tau]",
            f"for CDFs on [0, tau] the constant is tau^(1-s): (U_h(delta_tau) - U_h(delta_0)) / W1^s = {vals} "
            "(eq:wang_def, finite support), > 1 for tau > 1; L = 1 holds iff tau <= 1 (Bernoulli arms: tau = 1)")


def L_on_support(claim: Claim, printed_L: str) -> tuple[str, str, str]:
    """(status, derived, evidence) of a printed constant L of the PHT measure for CDFs on [0, tau], the lemma's
    domain (``table:table_risks`` reads its PHT constant from here); ``claim.assumes("support")`` may state tau <= 1."""
    return _L_general(claim, printed_L)


def _r_extra() -> str:
    bits = []
    for params in SWEEP:
        d = hl.dist(KEY, hl.frozen(params))
        for ps in (sp.Rational(1, 10),):
            val, exact, _ = hl.sup_one_point_ratio(d, ps, 1, 0, ps)
            bits.append(f"s={params['s']}, p*={ps}: L_MH(r=1) = {exact if exact is not None else round(val, 6)} "
                        f"= p*^(s-1): {abs(val - float(ps) ** (float(params['s']) - 1)) < 1e-6}")
    return ("per Bernoulli instance (p* = max p > 0), r = 1 with L_MH = p*^(s-1), unbounded as p* -> 0: "
            + "; ".join(bits) + ". The remark 'r = q is always valid' holds (eq:Holder_opt is eq:Holder with "
            "G_1 = F*, so L_MH <= L_H)")


def check(claim: Claim) -> CheckResult:
    """The ledger entry ``lemma:PHT#<part>``."""
    c, part = claim.printed, hl.part_of(claim)
    if part == "q":
        res = hl.check_q(KEY, c, SWEEP)
        return replace(res, evidence=res.evidence + " | q = s also for CDFs on [0, tau] (constant tau^(1-s), see "
                       "step:jensen); no larger q: h(t) - h(0) = t^s")
    if part == "r":
        return hl.check_r(KEY, c, SWEEP, _r_extra())
    if part == "L":
        res = hl.check_L(KEY, c, SWEEP, {"solitary": hl.printed(LABEL, "r").printed})
        st, _, why = _L_general(claim, c.printed)
        return replace(res, status=hl.worst(res.status, st), derived=f"Bernoulli (tau = 1): {res.derived}; "
                       "CDFs on [0, tau]: tau^(1-s)", evidence=res.evidence + " | " + why)
    if part == "summary":
        L_text = hl.parse_summary(c.printed)["L"]
        return hl.check_summary(KEY, c, SWEEP, overrides={"L": _L_general(claim, L_text)})
    if part == "step:power":
        return _step_power(c)
    return _step_jensen(claim)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    out = []
    if result.status == "conditional":
        out.append(claim.assuming("support", TAU_AT_MOST_ONE, f"CDFs on [0, tau] with {TAU_AT_MOST_ONE} stated"))
    return out + hl.lemma_mutants(KEY, SWEEP, claim, result)

CLAIMS = claim_map(*hl.lemma_claims(LABEL, PARTS, check, mutants))
