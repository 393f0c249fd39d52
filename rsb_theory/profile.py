"""Everything rsb derives about one distortion: its profile, family-level and per instance.

:class:`DistortionProfile` (one per distortion, from :func:`of`) holds what every consumer reads about
h: its Hölder data q, L_H on an interval (``assumption:Holder``), its maximisers and sup h, h', the
breakpoints, the W1-Hölder constant L_H b^(1-q) of U_h for laws on [0, b], the family row below and
the compiled h of the simulator's kernels (:func:`rsb_theory.argmax.edge_lines.compiled_h`); each is
derived once and kept on the object (per interval where it depends on one).
:func:`family_profile` is the Bernoulli-family view of ``table:table_risks``
and ``table:table_regrets`` (q and L_H on [0, 1], r for the class of
instances the row's shading refers to, beta from ``lemma:beta_lemma_monotone``
where it applies, and the regret exponents).  :func:`instance_profile` is the
view of one Bernoulli instance p, used by ``rsb derive``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable

import numpy as np
import sympy as sp

from . import holder as _holder
from . import rates
from .distortions import (U, Distortion, _pieces, _sign_on_unit_interval_on, breakpoints, exact_number,
                          numeric_derivative)
from .holder import HolderResult, MixtureHolderResult, family_mixture_exponent
from .errors import ArgumentError

if TYPE_CHECKING:  # the beta estimates and the oracle are imported where used: the simulator's set-up reads q and L
    from .gap import AnalyticBeta, BetaEstimate


def _interval(interval) -> tuple[sp.Expr, sp.Expr]:
    """The exact (a, b) of an interval (the key of a profile's per-interval derivations)."""
    return _holder._check_interval(*interval)


@dataclass(frozen=True, eq=False)
class DistortionProfile:
    """What is derived about one distortion h, each piece once (made by :func:`of`, one per distortion).

    The Hölder data (``assumption:Holder``) and the maximisers (``eq:optimal alpha``: for Bernoulli
    arms V(alpha) = h(<alpha, p>), so the optimal mixtures are those whose mean maximises h on
    [min p, max p]) depend on an interval and are kept per interval; the rest once.  Every consumer
    (the simulator's set-up, the bounds, ``rsb derive``, the checks) reads them here.
    """

    distortion: Distortion
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key, make: Callable[[], object]):
        """The value kept under ``key``, made by ``make()`` on first use.

        For what a module below the profile's own imports derives about h and keeps here, e.g. the
        compiled h of :func:`rsb_theory.argmax.edge_lines.compiled_h` (numba, imported only there).
        """
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def holder(self, interval=(0, 1)) -> HolderResult:
        """q and L_H of ``assumption:Holder`` on ``interval`` (:func:`rsb_theory.holder.holder`)."""
        a, b = _interval(interval)
        return self.memo(("holder", a, b), lambda: _holder.holder(self.distortion, (a, b)))

    @property
    def q(self) -> sp.Expr:
        """The Hölder exponent of h on [0, 1]."""
        return self.holder().q

    @property
    def L(self) -> float:
        """The Hölder constant L_H of h on [0, 1] (``inf`` when q is a limit only)."""
        return float(self.holder().L_H)

    def maximisers(self, interval=(0, 1)) -> tuple[sp.Expr, ...]:
        """Every maximiser of h on ``interval``, increasing (:func:`rsb_theory.holder.optimal_means`).

        ``eq:optimal alpha`` takes alpha* in the argmax, a set: with a flat top (CVaR on
        [1 - alpha, 1]) all of them are optimal and h has the same value at each.  A consumer that
        needs one mean for its value (sup h, V*) may take any; one that splits instances by the
        optimal mean of a non-decreasing h takes the largest (the arm of the largest mean).
        """
        a, b = _interval(interval)
        return self.memo(("maximisers", a, b), lambda: _holder.optimal_means(self.distortion, a, b))

    def sup_h(self, interval=(0, 1)) -> float:
        """max of h on ``interval`` (h at a maximiser): B = sup U_h over laws on [0, 1], V* of a Bernoulli hull."""
        a, b = _interval(interval)
        return self.memo(("sup_h", a, b),
                          lambda: float(self.distortion.numeric(np.array([float(self.maximisers((a, b))[0])]))[0]))

    def mixture(self, p) -> MixtureHolderResult:
        """r and L_MH of ``assumption:Holder_opt`` at Bernoulli means ``p`` (:func:`rsb_theory.holder.mixture_holder`).
        """
        try:
            key = tuple(exact_number(x, "p") for x in p)  # exact: 0.25000000000000006 is not 1/4
        except (TypeError, ValueError):  # not numbers: mixture_holder's own message names the argument
            return _holder.mixture_holder(self.distortion, list(p))
        return self.memo(("mixture", key), lambda: _holder.mixture_holder(self.distortion, list(p)))

    def w1_constant(self, b: float) -> float:
        """The W1-Hölder constant L_H b^(1-q) of U_h for laws on [0, b], L_H and q of h on [0, 1].

        U_h(F) = int_0^b h(1 - F(x)) dx, so |U_h(F) - U_h(G)| <= L_H int |F - G|^q dx
        <= L_H b^(1-q) W1(F, G)^q by Hölder's inequality on [0, b] (the appendix's paragraph on
        Hölder exponents); b = 1 gives L_H.
        """
        q = float(self.q)
        return self.L * float(b) ** (1.0 - q)

    @cached_property
    def h_prime(self) -> Callable[[np.ndarray], np.ndarray]:
        """Vectorised h' (:func:`rsb_theory.distortions.numeric_derivative`)."""
        return numeric_derivative(self.distortion)

    @cached_property
    def breakpoints(self) -> tuple[sp.Expr, ...]:
        """Interior points of (0, 1) where the piecewise definition of h switches."""
        return breakpoints(self.distortion.expr)

    @cached_property
    def family(self) -> FamilyProfile:
        """The derived row of ``table:table_risks`` (:func:`family_profile`)."""
        return _family_profile(self.distortion)


#: The one profile of each distortion in this process (equal distortions share it).
_PROFILES: dict[Distortion, DistortionProfile] = {}


def of(d: Distortion) -> DistortionProfile:
    """The profile of ``d``, made on first use and kept for the process.

    Forked workers inherit the profiles their parent made; a worker that meets a distortion
    (by its equal value, however it was resolved) derives its profile once.
    """
    _holder._check_distortion(d)
    prof = _PROFILES.get(d)
    if prof is None:
        prof = _PROFILES[d] = DistortionProfile(d)
    return prof


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
    tops = of(d).maximisers((0, 1))
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
    """The derived row of ``table:table_risks`` for distortion ``d`` (kept on its profile, :func:`of`)."""
    return of(d).family


def _family_profile(d: Distortion) -> FamilyProfile:
    mixture, why = mixture_witness(d)
    h = of(d).holder((0, 1))
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
    from .gap import beta_monotone, estimate_beta
    from .oracle import alpha_star_bernoulli

    arr = np.asarray(p, dtype=float)
    if arr.ndim != 1 or arr.size < 2 or np.any(~np.isfinite(arr)) or np.any((arr < 0) | (arr > 1)):
        raise ArgumentError("p", f"need at least two Bernoulli means in [0, 1], got {list(p)!r}")
    prof = of(d)
    fam = prof.holder((0, 1))
    inst = prof.holder((min(arr), max(arr)))
    mix = prof.mixture(arr)
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
    tops = list(of(d).maximisers((lo, hi)))
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
