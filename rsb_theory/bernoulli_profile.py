"""The view of one Bernoulli instance p that ``rsb derive --p`` reports: q, L_H, r, L_MH, alpha*, beta and the rate
exponents (:func:`instance_profile`).

It sits above :mod:`rsb_theory.profile` (it reads the profile, the gap's beta and the oracle's alpha*, and those
read the profile's maximisers), so that the profile imports neither.
"""

from __future__ import annotations

from .errors import ArgumentError

from dataclasses import dataclass

import numpy as np
import sympy as sp

from . import rates
from .distortions import Distortion
from .gap import AnalyticBeta, BetaEstimate, beta_monotone, estimate_beta
from .holder import HolderResult, MixtureHolderResult
from .oracle import alpha_star_bernoulli
from .profile import of


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
