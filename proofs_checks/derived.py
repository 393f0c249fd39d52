"""Derived rows shared by the table checks, computed once per process.

This module only *calls* ``rsb_theory``; it reads the paper's parameter values
(e.g. PHT at s = 1/2) from :mod:`proofs_checks.paper_claims` because those fix
which member of a family a printed cell is about.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from rsb_theory import distortions
from rsb_theory.gap import BetaEstimate, estimate_beta  # noqa: F401  (re-exported for checks)
from rsb_theory.holder import MixtureHolderResult, mixture_holder
from rsb_theory.profile import FamilyProfile, family_profile

from . import paper_claims

#: Bernoulli instances used for numeric confirmations: solitary-optimal with
#: means below every threshold of the registry (CVaR footnote: < 1 - alpha),
#: and mixture-optimal, bracketing the maximiser of every non-monotone h.
SOLITARY_INSTANCE = (0.2, 0.4)
MIXTURE_INSTANCE = (0.1, 0.9)


def table_params(key: str) -> dict[str, str]:
    """Parameter values a printed row refers to (its fixed value, else the family default)."""
    return dict(paper_claims.TABLE_PARAMETERS.get(key, {}))


def parameter_sweep(key: str) -> list[dict[str, sp.Expr]]:
    """Parameter values at which family-wide cells are checked.

    The value fixed by the table if any; otherwise the default and the closed
    finite ends of the declared domain, plus one interior point.
    """
    fam = distortions.REGISTRY[key]
    fixed = table_params(key)
    if not fam.parameters:
        return [{}]
    (par,) = fam.parameters  # every registered family has at most one parameter
    if par.name in fixed:
        return [{par.name: sp.Rational(fixed[par.name])}]
    dom = par.domain
    vals = {par.default}
    for end, closed in ((dom.start, not dom.left_open), (dom.end, not dom.right_open)):
        if end.is_finite and closed:
            vals.add(end)
    vals.add(par.default + 1 if dom.end == sp.oo else (par.default + (dom.end if dom.end.is_finite else 1)) / 2)
    return [{par.name: v} for v in sorted(vals, key=float) if bool(dom.contains(v))]


@lru_cache(maxsize=None)
def _profile(key: str, frozen: tuple[tuple[str, sp.Expr], ...]) -> FamilyProfile:
    return family_profile(distortions.get(key, **dict(frozen)))


def profile(key: str, params: dict | None = None) -> FamilyProfile:
    """Cached :func:`rsb_theory.profile.family_profile` for a registry row."""
    params = table_params(key) if params is None else params
    return _profile(key, tuple(sorted((k, sp.Rational(v) if isinstance(v, str) else sp.sympify(v)) for k, v in params.items())))


@lru_cache(maxsize=None)
def beta_numeric(key: str, instance: tuple[float, ...]) -> BetaEstimate:
    """Numeric beta along eps = 1/n on the mid-point grid at ``instance``."""
    return estimate_beta(profile(key).distortion, instance, grid="ucb")


@lru_cache(maxsize=None)
def mixture_at(key: str, instance: tuple[float, ...]) -> MixtureHolderResult:
    return mixture_holder(profile(key).distortion, instance)


def printed(text: str, params: dict[str, sp.Expr]) -> sp.Expr:
    """A printed table entry (``"s"``, ``"1+s"``, ``"1/2"``) evaluated at ``params``."""
    syms = {k: sp.Symbol(k, positive=True) for k in params}
    expr = distortions.parse_expression(text, syms)
    return sp.simplify(expr.subs({syms[k]: v for k, v in params.items()}))
