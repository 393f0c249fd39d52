"""Everything rsb derives about one distortion: family-level and per instance.

:func:`family_profile` is the Bernoulli-family view of ``table:table_risks``
and ``table:table_regrets`` (q and L_H on [0, 1], r for the class of
instances the row's shading refers to, beta from ``lemma:beta_lemma_monotone``
where it applies, and the regret exponents).  :func:`instance_profile` is the
view of one Bernoulli instance p, used by ``rsb derive``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from . import rates
from .distortions import U, Distortion, _pieces, _sign_on_unit_interval_on
from .gap import AnalyticBeta, BetaEstimate, beta_monotone, estimate_beta
from .distortions import exact_number
from .holder import HolderResult, MixtureHolderResult, family_mixture_exponent, holder, mixture_holder, optimal_means
from .oracle import alpha_star_bernoulli


@dataclass(frozen=True)
class FamilyBeta:
    """beta for the solitary-optimal Bernoulli instances of a concave monotone h.

    ``value`` is 1 (``lemma:beta_lemma_monotone``) when it applies.  ``bound``
    is the restriction max p < bound that the lemma's proof needs beyond its
    statement (None if none), e.g. 1 where h'(1) = 0; ``counterexample`` is an
    instance violating it, for a numeric look at Delta_min there.
    """

    value: sp.Expr | None
    bound: sp.Expr | None
    counterexample: tuple[float, ...] | None
    evidence: str

    @property
    def condition(self) -> str:
        return f"max p < {self.bound}" if self.bound is not None else ""


@dataclass(frozen=True)
class FamilyProfile:
    """Derived row of ``table:table_risks`` / ``table:table_regrets``."""

    distortion: Distortion
    solitary: bool
    solitary_evidence: str
    holder: HolderResult
    r: sp.Expr
    r_evidence: str
    beta: FamilyBeta

    @property
    def q(self) -> sp.Expr:
        return self.holder.q

    def table_rates(self, r: sp.Expr | None = None, beta: sp.Expr | None = None) -> rates.TableRates:
        """Regret exponents from (q, r, beta); unknown beta stays the symbol ``beta``."""
        b = beta if beta is not None else (self.beta.value if self.solitary and self.beta.value is not None else rates.beta)
        return rates.table_rates(self.q, self.r if r is None else r, b, self.solitary)


def mixture_witness(d: Distortion) -> tuple[bool, str]:
    """Whether some Bernoulli instance has a mixture optimum, with the witness.

    With V(alpha) = h(<alpha, p>), the instance p = (0, 1) reaches every mean
    in [0, 1]; a mixture is optimal iff some maximiser of h on [0, 1] is
    interior.  For a monotone h the maximum over [min p, max p] is at max p
    for every instance, so a solitary arm is always optimal.
    """
    if d.shape.is_monotone:
        return False, f"h is {d.shape.monotone} ({d.shape.monotone_method}): argmax over [min p, max p] is max p"
    tops = optimal_means(d, 0, 1)
    interior = [t for t in tops if 0 < t < 1]
    if interior:
        t = interior[0]
        return True, (f"h is not monotone; argmax of h on [0, 1] is u = {t}: for p = (0, 1) the optimal "
                      f"mixture is alpha* = ({1 - t}, {t}) with V = {sp.simplify(d.expr.subs(U, t))} "
                      f"> max(h(0), h(1)) = {sp.Max(d.expr.subs(U, 0), d.expr.subs(U, 1))}")
    return False, f"h is not monotone but its maximum on [0, 1] is at an end {tops}"


def family_beta(d: Distortion) -> FamilyBeta:
    """beta = 1 of ``lemma:beta_lemma_monotone`` for the family, with its real condition.

    The proof needs h concave, strictly increasing on the hull of the means and
    h'(max p) > 0.  The largest c such that h is strictly increasing on [0, c]
    is found piece by piece; when h'(c-) = 0 or c < 1 the lemma holds only for
    instances with max p < c, which is returned as the condition.
    """
    if not d.shape.is_concave:
        return FamilyBeta(None, None, None, f"h is {d.shape.curvature}: lemma:beta_lemma_monotone does not apply")
    c = sp.Integer(0)
    for piece, iv in _pieces(d.expr):
        if _sign_on_unit_interval_on(sp.diff(piece, U), iv) == "+":
            c = iv.end
        else:
            break
    if c == 0:
        return FamilyBeta(None, None, None,
                          "h is not strictly increasing near 0: lemma:beta_lemma_monotone does not apply")
    piece = next(e for e, iv in _pieces(d.expr) if iv.start < c <= iv.end)
    slope = sp.limit(sp.diff(piece, U), U, c, "-")
    if c == 1 and bool(slope > 0):
        return FamilyBeta(sp.Integer(1), None, None,
                          f"h concave, strictly increasing on [0, 1], h'(1-) = {slope} > 0")
    if c == 1:
        why, bad = f"h'(1-) = {slope}", (float(c) / 2, float(c))
    else:
        why, bad = f"h is strictly increasing only on [0, {c}]", (float(c) / 2, (float(c) + 1) / 2)
    return FamilyBeta(sp.Integer(1), c, bad,
                      f"{why}: the lemma's bound Delta_min >= h'(p_K)(p_K - p_(K-1)) eps needs max p < {c}")


def family_profile(d: Distortion) -> FamilyProfile:
    """The derived row of ``table:table_risks`` for distortion ``d``."""
    mixture, why = mixture_witness(d)
    h = holder(d, (0, 1))
    r, r_ev = family_mixture_exponent(d, solitary=not mixture)
    beta = family_beta(d) if not mixture else FamilyBeta(None, None, None, "mixture-optimal rows: no analytic beta")
    return FamilyProfile(d, not mixture, why, h, r, r_ev, beta)


@dataclass(frozen=True)
class InstanceProfile:
    """What ``rsb derive --p`` reports for a Bernoulli instance."""

    distortion: Distortion
    p: tuple[float, ...]
    holder_family: HolderResult
    holder_instance: HolderResult
    mixture: MixtureHolderResult
    alpha_star: tuple[float, ...]
    value: float
    beta_analytic: AnalyticBeta
    beta_numeric: BetaEstimate | None
    rates: rates.TableRates

    @property
    def beta_value(self):
        if self.beta_analytic.applies:
            return self.beta_analytic.beta
        return None


def instance_profile(d: Distortion, p, numeric_beta: bool = True) -> InstanceProfile:
    """Derive q, L_H, r, L_MH, alpha*, beta and the rate exponents at ``p``.

    Raises
    ------
    ValueError
        ``p`` empty or outside [0, 1] (message names argument ``p``).
    """
    arr = np.asarray(p, dtype=float)
    if arr.ndim != 1 or arr.size < 2 or np.any(~np.isfinite(arr)) or np.any((arr < 0) | (arr > 1)):
        raise ValueError(f"argument 'p': need at least two Bernoulli means in [0, 1], got {list(p)!r}")
    fam = holder(d, (0, 1))
    inst = holder(d, (min(arr), max(arr)))
    mix = mixture_holder(d, arr)
    alpha = alpha_star_bernoulli(arr, mix.p_star)
    b_an = beta_monotone(d, arr)
    b_num = estimate_beta(d, arr) if numeric_beta and arr.size <= 4 else None
    beta_for_rates = b_an.beta if b_an.applies else rates.beta
    r_use = mix.r if mix.r != sp.oo else inst.q
    tr = rates.table_rates(inst.q, r_use, beta_for_rates, mix.solitary)
    return InstanceProfile(d, tuple(arr.tolist()), fam, inst, mix, tuple(alpha.tolist()),
                           float(d.numeric(np.array([float(mix.p_star)]))[0]), b_an, b_num, tr)


def optimal_set(d: Distortion, p, p_star) -> str | None:
    """The optimal mixtures of ``eq:optimal alpha`` in words when there are several, else None.

    For Bernoulli arms V(alpha) = h(<alpha, p>) (``eq:V``), so alpha is optimal exactly when its mean
    <alpha, p> maximises h on [min p, max p] (:func:`~rsb_theory.holder.optimal_means`: a flat top
    gives an interval).  The optimum is one point only when that maximiser is a single mean reached
    by one alpha: with K = 2 distinct means any single mean; with K >= 3 a smallest or largest mean
    held by one arm.
    """
    ps = [exact_number(x) for x in p]
    lo, hi = min(ps), max(ps)
    tops = list(optimal_means(d, lo, hi))
    top_value = d.expr.subs(U, tops[0])
    parts: list[sp.Set] = []
    i = 0
    while i < len(tops):  # consecutive maximisers with h at their mid-point on top are the ends of a flat top
        j = i
        while j + 1 < len(tops) and sp.simplify(d.expr.subs(U, (tops[j] + tops[j + 1]) / 2) - top_value) == 0:
            j += 1
        parts.append(sp.Interval(tops[i], tops[j]) if j > i else sp.FiniteSet(tops[i]))
        i = j + 1
    means = sp.Union(*parts)
    if isinstance(means, sp.FiniteSet) and len(means) == 1:
        m = tops[0]
        distinct = len(set(ps)) == len(ps)
        if (len(ps) == 2 and distinct) or (m in (lo, hi) and ps.count(m) == 1):
            return None
        where = f"<alpha, p> = {m}"
    else:
        where = f"<alpha, p> in {means}"
    return (f"not unique: every alpha with {where} is optimal (V(alpha) = h(<alpha, p>)); the reported alpha* is "
            f"the one of eq:optimal alpha's closed form at p* = {p_star}")
