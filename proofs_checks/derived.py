"""Derived rows shared by the table checks, computed once per process.

This module only *calls* ``rsb_theory``; it reads the parameter ranges a
table states (:data:`proofs_checks.paper_claims.PARAMETER_RANGES`) because
those fix which members of a family a printed cell is about.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory import distortions
from rsb_theory.expressions import to_sympy
from rsb_theory.gap import BetaEstimate, estimate_beta
from rsb_theory.holder import MixtureHolderResult
from rsb_theory.profile import FamilyProfile, family_profile, of

from . import paper_claims
from rsb_theory.errors import ArgumentError

#: Bernoulli instances used for numeric confirmations: solitary-optimal with
#: means below every threshold of the registry (CVaR footnote: < 1 - alpha),
#: and mixture-optimal, bracketing the maximiser of every non-monotone h.
SOLITARY_INSTANCE = (0.2, 0.4)
MIXTURE_INSTANCE = (0.1, 0.9)
#: Interior points of a bounded range, as fractions of its length; of an unbounded one, offsets from its start.
INTERIOR_FRACTIONS = (sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(3, 4))
UNBOUNDED_OFFSETS = (sp.Rational(1, 2), sp.Integer(1), sp.Integer(8))


def table_params(key: str) -> dict[str, str]:
    """Parameter values a printed row of ``table:table_regrets`` refers to (its fixed value, else none)."""
    return dict(paper_claims.TABLE_PARAMETERS.get(key, {}))


def stated_domain(key: str, table: str = "table:table_regrets") -> tuple[str, sp.Set] | None:
    """(parameter, the range ``table`` states for row ``key`` within the family's domain); None without parameters."""
    fam = distortions.REGISTRY[key]
    if not fam.parameters:
        return None
    (par,) = fam.parameters  # every registered family has at most one parameter
    rng = paper_claims.PARAMETER_RANGES.get(table, {}).get(key)
    if rng is None:
        return par.name, par.domain
    if rng.name != par.name:
        raise ArgumentError("table", f"{table} states a range of {rng.name!r}, {key} has {par.name!r}")
    low = to_sympy(rng.low, "parameter range")
    high = sp.oo if rng.high is None else to_sympy(rng.high, "parameter range")
    stated = sp.FiniteSet(low) if low == high else sp.Interval(low, high, not rng.low_closed, not rng.high_closed)
    return par.name, sp.Intersection(stated, par.domain)


def parameter_sweep(key: str, table: str = "table:table_regrets") -> list[dict[str, sp.Expr]]:
    """Parameter values at which the cells of row ``key`` of ``table`` are checked.

    The pinned value if the table pins one; otherwise the closed finite ends of
    the stated range (:func:`stated_domain`), three interior points (a quarter,
    half and three quarters of a bounded range; start + 1/2, 1, 8 of an
    unbounded one) and the family's default, in increasing order.
    """
    dom = stated_domain(key, table)
    if dom is None:
        return [{}]
    name, interval = dom
    if isinstance(interval, sp.FiniteSet):
        return [{name: v} for v in sorted(interval, key=float)]
    vals = set()
    for end, closed in ((interval.start, not interval.left_open), (interval.end, not interval.right_open)):
        if end.is_finite and closed:
            vals.add(end)
    if interval.end.is_finite:
        vals.update(interval.start + f * (interval.end - interval.start) for f in INTERIOR_FRACTIONS)
    else:
        vals.update(interval.start + d for d in UNBOUNDED_OFFSETS)
    (par,) = distortions.REGISTRY[key].parameters
    vals.add(par.default)
    return [{name: v} for v in sorted(vals, key=float) if bool(interval.contains(v))]


def fmt_params(params: dict) -> str:
    """``[s=1/2] `` (empty without parameters): the tag of one point of a sweep in derived values and evidence."""
    return "[" + ", ".join(f"{k}={v}" for k, v in params.items()) + "] " if params else ""


def _profile(key: str, frozen: tuple[tuple[str, sp.Expr], ...]) -> FamilyProfile:
    return family_profile(distortions.get(key, **dict(frozen)))


def profile(key: str, params: dict | None = None) -> FamilyProfile:
    """:func:`rsb_theory.profile.family_profile` of a registry row (default: ``table_params``), kept on the
    distortion's profile (:func:`rsb_theory.profile.of`)."""
    params = table_params(key) if params is None else params
    return _profile(key, tuple(sorted((k, sp.Rational(v) if isinstance(v, str) else sp.sympify(v))
                                      for k, v in params.items())))


@lru_cache(maxsize=None)
def beta_numeric(key: str, instance: tuple[float, ...]) -> BetaEstimate:
    """Numeric beta along eps = 1/n on the mid-point grid at ``instance``."""
    return estimate_beta(profile(key).distortion, instance, grid="ucb")


def mixture_at(key: str, instance: tuple[float, ...]) -> MixtureHolderResult:
    return of(profile(key).distortion).mixture(instance)


def printed(text: str, params: dict[str, sp.Expr]) -> sp.Expr:
    """A printed table entry (``"s"``, ``"1+s"``, ``"1/2"``) evaluated at ``params``."""
    syms = {k: sp.Symbol(k, positive=True) for k in params}
    expr = distortions.parse_expression(text, syms)
    return sp.simplify(expr.subs({syms[k]: v for k, v in params.items()}))


@lru_cache(maxsize=1)
def ucb_exponents():
    """:func:`rsb_theory.rates.derive_ucb_exponents` (instance-independent; derived once per process)."""
    from rsb_theory import rates

    return rates.derive_ucb_exponents()
