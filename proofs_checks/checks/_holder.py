"""Shared machinery of the seven Hölder lemmas (``lemma:example_utility_Holder`` ..
``lemma:Quadratic``); one file per lemma (``holder_<name>.py``) uses it.  (A
helper, not a check module: the registry skips names starting with ``_``.)

Everything is derived from h for Bernoulli arms, where a mixture of arms is
Bern(<alpha, p>), U_h = h(<alpha, p>) and ||F - G||_W = |p_F - p_G|
(``lemma:lipschitz-wasserstein``):

* q, L_H: :func:`rsb_theory.holder.holder` on [0, 1];
* the instance classes of item 2.  With m the maximiser of the concave h on
  [0, 1] (:func:`rsb_theory.holder.optimal_means`):

  - *mixture* instances (min p < m < max p): p* = m and the hull of the means
    is inside [0, 1], so r is the two-sided order of h at m and the largest
    L_MH over the class is the one-point ratio at m over [0, 1];
  - *solitary* instances (max p < m or min p > m): p* = max p (resp. min p)
    and the pairs (p*, x) with x in the hull fill {0 <= x < p* < m} (resp.
    {m < p* < x <= 1}).  Per instance, r is the one-sided order of h at p*
    (1 wherever h'(p*) is finite and non-zero); with one constant for the
    whole class the exponent is min(r, q_region), q_region the Hölder
    exponent of h on [0, m] (resp. [m, 1]), because the ratio at x = c,
    p* -> c blows up at a point c of order q_region.

* L = max(L_H, L_MH) over all instances with the printed exponents: L_MH is
  exact at the mixture optimum (symbolic sup of the one-point ratio) and a
  dense-grid supremum over the solitary region, reported exactly when it
  matches the symbolic Hölder constant of h on the region.

Printed values come from :mod:`proofs_checks.paper_claims` and are only
compared against.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import Distortion, get
from rsb_theory.holder import HolderResult, local_order, sup_one_point_ratio
from rsb_theory.profile import of

from .. import derived, paper_claims
from ..claims import Claim
from ..ledger import CheckResult
from ..mutants import as_text, stronger
from ..verdict import compare, decide, worst
from ..numfmt import num, resid
from rsb_theory.errors import ArgumentError
from ..statuses import Status

#: Relative tolerance for "a dense-grid supremum equals the symbolic value".
GRID_RTOL = 1e-4


def printed(label: str, part: str) -> paper_claims.LemmaClaim:
    """The printed item ``label#part`` (:data:`proofs_checks.paper_claims.HOLDER_LEMMAS`)."""
    return paper_claims.lemma_claim(f"{label}#{part}")


def printed_r_cases(label: str) -> dict[str, str]:
    """{instances: printed r} for the two cases ``r.case1`` / ``r.case2`` of a lemma's item 2."""
    return {printed(label, p).instances: printed(label, p).printed for p in ("r.case1", "r.case2")}


def frozen(params: dict) -> tuple:
    return tuple(sorted((k, sp.sympify(v)) for k, v in params.items()))


@lru_cache(maxsize=None)
def dist(key: str, params: tuple = ()) -> Distortion:
    """The registered distortion ``key`` at frozen parameters."""
    return get(key, **dict(params))


def holder_on(key: str, params: tuple, a: sp.Expr = sp.Integer(0), b: sp.Expr = sp.Integer(1)) -> HolderResult:
    """q and L_H of h on [a, b], from the distortion's profile (:func:`rsb_theory.profile.of`)."""
    return of(dist(key, params)).holder((a, b))


def maximiser(key: str, params: tuple) -> sp.Expr:
    """The largest maximiser m of h on [0, 1] (m = 1 for increasing h).

    The largest, because it splits the solitary instances by the optimal arm: for a non-decreasing h with
    a flat top (CVaR) every mean of the top is optimal (``eq:optimal alpha``) and the lemmas take the arm
    of the largest mean, p* = max p.
    """
    return of(dist(key, params)).maximisers()[-1]


def printed_value(text: str, params: dict) -> sp.Expr:
    """A printed value (``"s"``, ``"1+s"``, ``"1/2"``) at the parameter values."""
    return derived.printed(text, params)


def parse_summary(text: str) -> dict[str, str]:
    """``"L=1; q=1; r=1"`` -> {"L": "1", "q": "1", "r": "1"}."""
    return dict(item.strip().split("=", 1) for item in text.split(";"))


def fmt(params: dict) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in params.items()) + "] " if params else ""


# ---------------------------------------------------------------------------
# instance classes of item 2
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassExponent:
    """Derived exponent of ``eq:Holder_opt`` over one class of Bernoulli instances.

    Attributes
    ----------
    r_instance : sympy.Expr
        Largest r valid at every instance of the class (each with its own L_MH).
    r_uniform : sympy.Expr
        Largest r valid with one L_MH for the whole class.
    evidence : str
    """

    r_instance: sp.Expr
    r_uniform: sp.Expr
    evidence: str


def _regions(m: sp.Expr) -> list[tuple[sp.Expr, sp.Expr, int]]:
    """Solitary regions (lo, hi, side): side -1 means p* = max p in (lo, hi), x < p*."""
    out = []
    if m > 0:
        out.append((sp.Integer(0), m, -1))
    if m < 1:
        out.append((m, sp.Integer(1), +1))
    return out


@lru_cache(maxsize=None)
def class_exponent(key: str, params: tuple, instances: str) -> ClassExponent:
    """r per instance and uniformly, for the ``mixture`` or ``solitary`` class."""
    d = dist(key, params)
    m = maximiser(key, params)
    if instances == "mixture":
        if not 0 < m < 1:
            raise ArgumentError("instances", f"{key} has no interior maximiser (m = {m})")
        mix = of(d).mixture([0, 1])
        L = mix.L_exact if mix.L_exact is not None else round(mix.L_MH, 6)
        return ClassExponent(mix.r, mix.r, f"mixture instances (min p < {m} < max p): {mix.evidence()}; the hull "
                                          f"of any such instance lies in [0, 1], so L_MH <= {L} for all of them")
    r_inst, r_unif, parts = sp.oo, sp.oo, []
    for lo, hi, side in _regions(m):
        samples = [lo + (hi - lo) * sp.Rational(k, 4) for k in (1, 2, 3)]
        orders = [local_order(d, c, side) for c in samples]
        r_here = min(o.order for o in orders)
        q_reg = holder_on(key, params, lo, hi)
        r_inst = min(r_inst, r_here)
        r_unif = min(r_unif, r_here, q_reg.q)
        where = f"max p in ({lo}, {hi})" if side < 0 else f"min p in ({lo}, {hi})"
        parts.append(
            f"{where}: h(p*) - h(p*{'-' if side < 0 else '+'}t) ~ "
            + ", ".join(f"({sp.simplify(-o.coeff)})*t^{o.order} at p*={o.point}" for o in orders)
            + f"; Hölder exponent of h on [{lo}, {hi}] is {q_reg.q}"
        )
    ev = ("solitary instances: " + " | ".join(parts)
          + f" => r = {r_inst} per instance; with one constant for the class r = {r_unif}")
    return ClassExponent(r_inst, r_unif, ev)


def _region_grid(lo: float, hi: float, side: int, n: int = 700) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (p*, x) of the solitary region, refined geometrically towards both ends."""
    base = np.unique(np.concatenate([np.linspace(lo, hi, n), lo + (hi - lo) * np.geomspace(1e-9, 1, n // 2),
                                     hi - (hi - lo) * np.geomspace(1e-9, 1, n // 2)]))
    base = base[(base >= lo) & (base <= hi)]
    P, X = np.meshgrid(base, base, indexing="ij")
    keep = (X < P) if side < 0 else (X > P)
    if side < 0:
        keep &= P < hi
    else:
        keep &= P > lo
    return P[keep], X[keep]


def _exact_max(vals: list[tuple[float, sp.Expr | None]]) -> sp.Expr | None:
    """The exact maximum of (value, exact-or-None) pairs, or None.

    A grid supremum is only a lower bound of the true one, so the maximum is
    exact only if every inexact value lies clearly (0.1 %) below the largest exact one.
    """
    exact = [e for _, e in vals if e is not None]
    if not exact:
        return None
    top = max(exact, key=float)
    if all(e is not None or v < (1 - 1e-3) * float(top) for v, e in vals):
        return top
    return None


@lru_cache(maxsize=None)
def solitary_LMH(key: str, params: tuple, r: sp.Expr) -> tuple[float, sp.Expr | None, str]:
    """sup over solitary instances of (h(p*) - h(x)) / |p* - x|^r: (value, exact or None, evidence)."""
    d = dist(key, params)
    m = maximiser(key, params)
    best, vals, parts = 0.0, [], []
    for lo, hi, side in _regions(m):
        P, X = _region_grid(float(lo), float(hi), side)
        with np.errstate(all="ignore"):
            ratio = (d.numeric(P) - d.numeric(X)) / np.abs(P - X) ** float(r)
        sup = float(np.nanmax(ratio[np.isfinite(ratio)]))
        reg = holder_on(key, params, lo, hi)
        cand = reg.L_exact if (reg.q == r and reg.L_exact is not None) else None
        exact = cand if cand is not None and abs(float(cand) - sup) <= GRID_RTOL * max(1.0, abs(sup)) else None
        vals.append((float(exact) if exact is not None else sup, exact))
        best = max(best, float(exact) if exact is not None else sup)
        parts.append(f"p* {'<' if side < 0 else '>'} {m}: grid sup {num(sup, 6)}"
                     + (f" = Hölder constant {exact} of h on [{lo}, {hi}]" if exact is not None else ""))
    return best, _exact_max(vals), "; ".join(parts)


@lru_cache(maxsize=None)
def mixture_LMH(key: str, params: tuple, r: sp.Expr) -> tuple[float, sp.Expr | None, str]:
    """sup over mixture instances (hull within [0, 1]) of the one-point ratio at p* = m."""
    d = dist(key, params)
    m = maximiser(key, params)
    val, exact, method = sup_one_point_ratio(d, m, r, 0, 1)
    return val, exact, f"p* = {m}: sup over x in [0, 1] = {exact if exact is not None else round(val, 6)} ({method})"


# ---------------------------------------------------------------------------
# generic parts
# ---------------------------------------------------------------------------


def compare_exponent(printed: sp.Expr, derived_value: sp.Expr) -> str:
    """Exponents: larger is stronger (:func:`proofs_checks.verdict.compare`)."""
    return compare(printed, derived_value, "larger")


def compare_constant(printed: sp.Expr, derived_value: sp.Expr) -> str:
    """Constants: smaller is stronger (:func:`proofs_checks.verdict.compare`)."""
    return compare(printed, derived_value, "smaller")


def check_q(key: str, claim: paper_claims.LemmaClaim, sweep: list[dict]) -> CheckResult:
    statuses, got, ev = [], [], []
    for params in sweep:
        h = holder_on(key, frozen(params))
        statuses.append(compare_exponent(printed_value(claim.printed, params), h.q))
        got.append(f"{fmt(params)}{h.q}")
        ev.append(f"{fmt(params)}{h.evidence()}")
    return CheckResult(claim.id, claim.claim + f" is {claim.printed}", claim.printed, "; ".join(got), worst(*statuses),
                       "symbolic", "Bernoulli family, U_h = h(p), W = |p_F - p_G|: " + " | ".join(ev))


def r_status(key: str, claim: paper_claims.LemmaClaim, sweep: list[dict]) -> tuple[str, str, list[str]]:
    """(status, derived text, evidence parts) of a printed r for its class of instances."""
    statuses, got, ev = [], [], []
    for params in sweep:
        ce = class_exponent(key, frozen(params), claim.instances)
        pr = printed_value(claim.printed, params)
        statuses.append(compare_exponent(pr, ce.r_instance))
        txt = f"{ce.r_instance}" if ce.r_uniform == ce.r_instance else \
            f"{ce.r_instance} per instance ({ce.r_uniform} with one constant)"
        got.append(f"{fmt(params)}{txt}")
        ev.append(f"{fmt(params)}{ce.evidence}")
    return worst(*statuses), "; ".join(got), ev


def check_r(key: str, claim: paper_claims.LemmaClaim, sweep: list[dict], extra: str = "") -> CheckResult:
    status, got, ev = r_status(key, claim, sweep)
    text = " | ".join(ev) + (f" | {extra}" if extra else "")
    cond = f" ({claim.condition})" if claim.condition else ""
    return CheckResult(claim.id, claim.claim + f" is {claim.printed}{cond}", claim.printed, got, status, "symbolic",
                       text)


@dataclass(frozen=True)
class LValue:
    value: float
    exact: sp.Expr | None
    evidence: str


def derived_L(key: str, params: dict, r_by_class: dict[str, sp.Expr]) -> LValue:
    """max(L_H, L_MH) over all Bernoulli instances, L_MH with the given exponent per class."""
    fp = frozen(params)
    h = holder_on(key, fp)
    vals = [(h.L_H, h.L_exact, f"L_H = {h.L_exact if h.L_exact is not None else round(h.L_H, 6)} "
                               f"(q = {h.q}, {h.L_method})")]
    if "mixture" in r_by_class:
        v, e, why = mixture_LMH(key, fp, r_by_class["mixture"])
        vals.append((v, e, f"L_MH(mixture, r = {r_by_class['mixture']}): {why}"))
    if "solitary" in r_by_class:
        v, e, why = solitary_LMH(key, fp, r_by_class["solitary"])
        vals.append((v, e, f"L_MH(solitary, r = {r_by_class['solitary']}): {why}"))
    top = max(vals, key=lambda t: t[0])
    exact = _exact_max([(t[0], t[1]) for t in vals])
    return LValue(top[0], sp.nsimplify(exact) if exact is not None else None, "; ".join(t[2] for t in vals))


def check_L(key: str, claim: paper_claims.LemmaClaim, sweep: list[dict], r_claims: dict[str, str],
            extra: str = "") -> CheckResult:
    """``r_claims``: printed r per instance class ("mixture"/"solitary")."""
    statuses, got, ev, method = [], [], [], "symbolic"
    for params in sweep:
        r_by = {cls: printed_value(txt, params) for cls, txt in r_claims.items()}
        L = derived_L(key, params, r_by)
        val = L.exact if L.exact is not None else sp.Float(L.value, 8)
        if L.exact is None:
            method = "numeric"
        statuses.append(compare_constant(printed_value(claim.printed, params), val))
        got.append(f"{fmt(params)}{val}")
        ev.append(f"{fmt(params)}{L.evidence}")
    return CheckResult(claim.id, claim.claim + f" is {claim.printed} (with the printed exponents)", claim.printed,
                       "; ".join(got), worst(*statuses), method, " | ".join(ev) + (f" | {extra}" if extra else ""))


def instance_classes(key: str, params: tuple) -> tuple[str, ...]:
    """The classes of Bernoulli instances h has: ("solitary",) or ("mixture", "solitary")."""
    return ("mixture", "solitary") if 0 < maximiser(key, params) < 1 else ("solitary",)


def check_summary(key: str, claim: paper_claims.LemmaClaim, sweep: list[dict],
                  r_claims: dict[str, str] | None = None,
                  overrides: dict[str, tuple[str, str, str]] | None = None,
                  notes: dict[str, str] | None = None) -> CheckResult:
    """The closing sentence, each listed value re-derived as in the items.

    q against the Hölder exponent on [0, 1]; r against the per-instance exponent of
    every instance class (a single r for all instances); L against max(L_H, L_MH)
    with the summary's r (or ``r_claims`` per class when the summary lists none).
    ``overrides`` maps a name to (status, derived, evidence) decided by the lemma's file; ``notes`` adds
    evidence to an entry.
    """
    listed = parse_summary(claim.printed)
    overrides, notes = overrides or {}, notes or {}
    statuses, got, ev = [], [], []
    for name, value in listed.items():
        if name in overrides:
            st, short, text = overrides[name]
        else:
            sts, bits = [], []
            for params in sweep:
                fp = frozen(params)
                pv = printed_value(value, params)
                if name == "q":
                    h = holder_on(key, fp)
                    sts.append(compare_exponent(pv, h.q))
                    bits.append(f"{fmt(params)}q = {h.q}")
                elif name == "r":
                    for cls in instance_classes(key, fp):
                        ce = class_exponent(key, fp, cls)
                        sts.append(compare_exponent(pv, ce.r_instance))
                        bits.append(f"{fmt(params)}{cls} instances: r = {ce.r_instance}")
                elif name == "L":
                    r_by = ({cls: printed_value(listed["r"], params) for cls in instance_classes(key, fp)}
                            if "r" in listed else {c: printed_value(t, params) for c, t in (r_claims or {}).items()})
                    L = derived_L(key, params, r_by)
                    val = L.exact if L.exact is not None else sp.Float(L.value, 8)
                    sts.append(compare_constant(pv, val))
                    bits.append(f"{fmt(params)}L = {val} with r = {r_by}")
                else:  # pragma: no cover - transcription error
                    raise ArgumentError("claim", f"unknown summary entry {name!r}")
            text = f"{name} = {value}: derived " + "; ".join(bits) + (f"; {notes[name]}" if name in notes else "")
            short = "; ".join(bits)
            st = worst(*sts)
        statuses.append(st)
        got.append(f"{name}: {short}")
        ev.append(text)
    return CheckResult(claim.id, claim.claim, claim.printed, "; ".join(got), worst(*statuses), "symbolic",
                       " | ".join(ev))


def numeric_order(d: Distortion, p_star: float, side: int) -> float:
    """Log-log slope of h(p*) - h(p* + side*t) for t in [1e-6, 1e-3] (independent of SymPy)."""
    t = np.geomspace(1e-6, 1e-3, 40)
    with np.errstate(all="ignore"):
        gap = float(d.numeric(np.array([p_star]))[0]) - d.numeric(p_star + side * t)
    return float(np.polyfit(np.log(t), np.log(np.abs(gap)), 1)[0])


def bernoulli_w1(pf, pg) -> np.ndarray:
    """||Bern(p_F) - Bern(p_G)||_W by ``lemma:lipschitz-wasserstein`` (CDF integral)."""
    from rsb_theory.riskmetric import wasserstein1_finite

    pf, pg = np.asarray(pf, float), np.asarray(pg, float)
    return wasserstein1_finite([0.0, 1.0], np.stack([1 - pf, pf], -1), np.stack([1 - pg, pg], -1))


def box_sup(expr: sp.Expr, syms: tuple[sp.Symbol, ...], region=None, n: int = 801) -> float:
    """Dense-grid sup of ``expr`` over [0, 1]^len(syms) (optionally masked by ``region``)."""
    f = sp.lambdify(syms, expr, "numpy")
    grids = np.meshgrid(*[np.linspace(0, 1, n)] * len(syms), indexing="ij")
    with np.errstate(all="ignore"):
        vals = np.broadcast_to(np.asarray(f(*grids), float), grids[0].shape)
    mask = np.isfinite(vals)
    if region is not None:
        mask &= region(*grids)
    return float(vals[mask].max())

def region_step(key: str, claim: paper_claims.LemmaClaim, middle: sp.Expr, region,
                params: dict | None = None, n: int = 801) -> CheckResult:
    """A case step "U_h(F) - U_h(G) = middle <= C |p_F - p_G|" on a region of (p_F, p_G), C the printed constant.

    ``middle`` is an expression in the symbols ``a`` (p_F) and ``b`` (p_G);
    both the equality (against h itself) and the inequality are checked on a
    dense grid of the region, and the smallest valid constant is reported.
    """
    a, b = sp.symbols("a b", real=True)
    const = printed_value(claim.printed, params or {})
    d = dist(key, frozen(params or {}))
    f = sp.lambdify((a, b), middle, "numpy")
    x = np.linspace(0, 1, n)
    A, B = np.meshgrid(x, x, indexing="ij")
    mask = region(A, B) & (np.abs(A - B) > 1e-12)
    A, B = A[mask], B[mask]
    gap = d.numeric(A) - d.numeric(B)
    eq_err = float(np.max(np.abs(gap - np.broadcast_to(f(A, B), A.shape))))
    best = float(np.max(gap / np.abs(A - B)))
    slack = float(np.max(gap - float(const) * np.abs(A - B)))
    ok_eq, ok_le = eq_err < 1e-12, slack <= 1e-12
    # a grid proves no smaller constant: the step is verified when it holds, refuted when it fails
    st = decide(holds=ok_eq and ok_le)
    return CheckResult(claim.id, claim.claim, claim.printed, f"holds; grid max of (U_h(F) - U_h(G)) / |p_F - p_G| "
                       f"= {num(best, 6)} <= {const}" if ok_eq and ok_le else
                       f"fails: max of U_h(F) - U_h(G) - {const}|p_F - p_G| = {num(slack, 3)}", st,
                       "numeric", f"{int(mask.sum())} grid points of the region ({claim.condition}): "
                       f"max |U_h(F) - U_h(G) - ({middle})| = {resid(eq_err, 3)}; max of U_h(F) - U_h(G) - "
                       f"{const}|p_F - p_G| = {num(slack, 3)} (<= 0: {ok_le}); smallest constant on the region {num(best, 6)}")


# ---------------------------------------------------------------------------
# claims and mutants
# ---------------------------------------------------------------------------


def lemma_claims(label: str, parts: tuple[str, ...], check, mutants) -> list[Claim]:
    """One :class:`Claim` per printed item ``label#part`` (:data:`proofs_checks.paper_claims.HOLDER_LEMMAS`)."""
    return [Claim(f"{label}#{part}", printed(label, part), check, mutants) for part in parts]


def part_of(claim: Claim) -> str:
    return claim.id.partition("#")[2]


def common(values) -> sp.Expr | None:
    """The one value of a sweep, or None when it differs between parameter values."""
    vals = {sp.nsimplify(v) for v in values}
    return next(iter(vals)) if len(vals) == 1 else None


def q_common(key: str, sweep: list[dict]) -> sp.Expr | None:
    return common(holder_on(key, frozen(p)).q for p in sweep)


def r_common(key: str, c: paper_claims.LemmaClaim, sweep: list[dict]) -> sp.Expr | None:
    return common(class_exponent(key, frozen(p), c.instances).r_instance for p in sweep)


def reprint(claim: Claim, text: str, why: str) -> Claim:
    """A mutant of a lemma item with another printed value."""
    c: paper_claims.LemmaClaim = claim.printed
    return claim.reprinted(replace(c, printed=text), f"{text} ({why})")


def value_mutants(claim: Claim, result: CheckResult, sense: str, derived_value: sp.Expr | None) -> list[Claim]:
    """A stronger value (than the printed one if it is verified, than the derived one if loose), and the derived
    value for a loose or refuted item (:mod:`proofs_checks.mutants`)."""
    c: paper_claims.LemmaClaim = claim.printed
    out = []
    if result.status == "verified":
        out.append(reprint(claim, stronger(c.printed, sense), "stronger"))
    if result.status == "loose" and derived_value is not None:
        out.append(reprint(claim, stronger(as_text(derived_value), sense), "stronger than the derived value"))
    if result.status in ("loose", "refuted") and derived_value is not None:
        out.append(reprint(claim, as_text(derived_value), "the derived value"))
    return out


def summary_mutants(claim: Claim, result: CheckResult, derived_values: dict[str, sp.Expr | None]) -> list[Claim]:
    """The closing sentence with one entry stronger (verified, loose) or with its derived values (refuted)."""
    c: paper_claims.LemmaClaim = claim.printed
    listed = parse_summary(c.printed)

    def text(entries: dict) -> str:
        return "; ".join(f"{k}={v}" for k, v in entries.items())

    out = []
    if Status(result.status).holds and "q" in listed:
        out.append(reprint(claim, text(listed | {"q": stronger(listed["q"], "larger")}), "q stronger"))
    if result.status == "refuted":
        fixed = {k: as_text(v) for k, v in derived_values.items() if v is not None and k in listed}
        if fixed:
            out.append(reprint(claim, text(listed | fixed), "the derived values"))
    return out


def lemma_mutants(key: str, sweep: list[dict], claim: Claim, result: CheckResult, sense: str = "smaller",
                  derived_value: sp.Expr | None = None) -> list[Claim]:
    """The mutants of an item by its kind: q and r (exponents, against the derived value common to the sweep), the
    closing sentence, and otherwise a constant or a step (``sense``, ``derived_value``)."""
    part = part_of(claim)
    if part == "q":
        return value_mutants(claim, result, "larger", q_common(key, sweep))
    if part == "r" or part.startswith("r."):
        return value_mutants(claim, result, "larger", r_common(key, claim.printed, sweep))
    if part == "summary":
        return summary_mutants(claim, result, {"q": q_common(key, sweep)})
    return value_mutants(claim, result, sense, derived_value)
