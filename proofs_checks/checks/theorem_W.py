"""``theorem:W``: W <= sqrt(2 pi) for 1-sub-Gaussian arms.

W is computed exactly as max over arm pairs of W1(F_i, F_j) / 2 (the ratio in
eq:W is maximised at alpha - beta = e_i - e_j; see
:func:`rsb_theory.discretization.W_bernoulli` for the Bernoulli case), with
W1 by quadrature of |F_i - F_j| (lemma:lipschitz-wasserstein).
"""

from __future__ import annotations

import math

from scipy import integrate, stats

from rsb_theory.discretization import W_bernoulli

from ..ledger import CheckResult

ID = "theorem:W"


def _w1(a, b) -> float:
    lo = min(a.ppf(1e-12), b.ppf(1e-12))
    hi = max(a.ppf(1 - 1e-12), b.ppf(1 - 1e-12))
    val, _ = integrate.quad(lambda x: abs(a.cdf(x) - b.cdf(x)), lo, hi, limit=200, points=[a.mean(), b.mean()])
    return val


def check() -> CheckResult:
    bound = math.sqrt(2 * math.pi)
    w_bern = W_bernoulli([0.0, 1.0])  # largest W over Bernoulli instances
    shift = 10.0
    w_norm = _w1(stats.norm(0, 1), stats.norm(shift, 1)) / 2
    ev = (f"Bernoulli arms: W = (max p - min p)/2 <= {w_bern} <= sqrt(2 pi) = {bound:.4f}. "
          f"The proof's step eq:W_7 -> eq:W_8 bounds E|X| by integrating P(|X| > u) <= 2 exp(-u^2/2), a tail bound "
          f"on X itself (so |E X| is bounded). With the usual centred definition (X - E X is 1-sub-Gaussian) the "
          f"bound fails: arms N(0,1) and N({shift:g},1) have W = W1/2 = {w_norm:.4f} > {bound:.4f}")
    return CheckResult(ID, "W <= sqrt(2 pi) for 1-sub-Gaussian arms", "sqrt(2 pi)",
                       "holds iff P(|X| > u) <= 2exp(-u^2/2) (uncentred)", "conditional", "numeric", ev)
