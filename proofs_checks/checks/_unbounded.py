"""Arms on Omega subset of R_+ with unbounded support (the paper's sub-Gaussian setting, sec:setting), for the
ETC-side checks that otherwise sweep bounded laws.

Each law is a ``scipy.stats`` law on [lo, oo) (route 1: its own cdf/sf/ppf, integrals by ``scipy.integrate.quad``
on [lo, oo)) and, for :mod:`rsb_theory.laws` (whose quadrature needs a bounded support), the same law truncated at
a point ``cut`` where the tail it drops weighs less than :data:`TAIL` in every integral used here (route 2:
``truncexpon`` / ``truncnorm`` through :func:`rsb_theory.laws.continuous_law`).  Every integrand used here
(|S_X - S_Y|, |h(S_a) - h(S_b)| <= |S_a - S_b| for a 1-Lipschitz h, S itself) is at most the survival functions'
sum, so the dropped tail is at most sum_i int_cut^oo S_i, which the table records.

* exponential(1): sub-exponential, not sub-Gaussian (a control: the identities of W1 do not need sub-Gaussian
  tails);
* half-normal(1): |N(0, 1)|, 1-sub-Gaussian in the reading P(|X| > u) <= 2 exp(-u^2/2) (theorem:W's context);
* N(2, 1) conditioned on X >= 0 and 1 + half-normal(1/2): shifted sub-Gaussian laws on R_+ (the centred reading).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import integrate, stats

#: Bound on the tail dropped by the truncated copies (checked per law in :func:`laws`).
TAIL = 1e-14


@dataclass(frozen=True)
class UnboundedLaw:
    name: str
    frozen: object  # scipy.stats frozen law on [lo, oo)
    proxy: object  # rsb_theory.laws.ContinuousLaw, the law truncated at cut
    cut: float
    tail: float  # int_cut^oo S(x) dx of the untruncated law

    @property
    def lo(self) -> float:
        return float(self.frozen.support()[0])


@lru_cache(maxsize=1)
def laws() -> tuple[UnboundedLaw, ...]:
    from rsb_theory.laws import continuous_law

    specs = (
        ("exponential(1)", stats.expon(), "truncexpon", lambda c: (c,)),
        ("half-normal(1)", stats.halfnorm(), "truncnorm", lambda c: (0.0, c)),
        ("N(2, 1) on [0, oo)", stats.truncnorm(-2.0, np.inf, loc=2.0), "truncnorm", lambda c: (-2.0, c - 2.0, 2.0)),
        ("1 + half-normal(1/2)", stats.halfnorm(loc=1.0, scale=0.5), "truncnorm",
         lambda c: (0.0, (c - 1.0) / 0.5, 1.0, 0.5)),
    )
    out = []
    for name, fr, kind, args in specs:
        cut = 45.0
        tail = integrate.quad(fr.sf, cut, np.inf)[0]
        if tail > TAIL:
            raise ArithmeticError(f"{name}: the tail beyond {cut} is {tail}")
        out.append(UnboundedLaw(name, fr, continuous_law(kind, args(cut)), cut, tail))
    return tuple(out)


def quad_inf(f, lo: float = 0.0) -> float:
    """int_lo^oo f by scipy.integrate.quad (route 1), split at a few points for accuracy."""
    pts = [lo, lo + 1.0, lo + 4.0, lo + 12.0]
    total = sum(integrate.quad(f, a, b, limit=200, epsabs=1e-13)[0] for a, b in zip(pts, pts[1:]))
    return total + integrate.quad(f, pts[-1], np.inf, limit=200, epsabs=1e-13)[0]


def w1_quantile(x: UnboundedLaw, y: UnboundedLaw) -> float:
    """int_0^1 |F_X^-1 - F_Y^-1| d beta on the untruncated laws (route 1)."""
    g = lambda u: abs(float(x.frozen.ppf(u)) - float(y.frozen.ppf(u)))  # noqa: E731
    return sum(integrate.quad(g, a, b, limit=200, epsabs=1e-12)[0]
               for a, b in ((0, 0.5), (0.5, 0.99), (0.99, 1 - 1e-9), (1 - 1e-9, 1)))


def dual_value(x: UnboundedLaw, y: UnboundedLaw, lipschitz: float) -> float:
    """E f(X) - E f(Y) for the ``lipschitz``-Lipschitz f with f' = lipschitz sign(S_X - S_Y), f(0) = 0 (route 1):
    int f'(t) (S_X(t) - S_Y(t)) dt over [0, oo)."""
    return lipschitz * quad_inf(lambda t: abs(float(x.frozen.sf(t)) - float(y.frozen.sf(t))))


def pht_two_point(s, M) -> dict:
    """The PHT distortion h(u) = u^s against a 1-sub-Gaussian two-point law on R_+ (exact, SymPy).

    F = delta_0 and G = (1 - e) delta_0 + e delta_M with e = 2 exp(-M^2/2): P(G > u) = e <= 2 exp(-u^2/2) for every
    u < M, so G is 1-sub-Gaussian in the reading of theorem:W.  U_h(G) - U_h(F) = int_0^M e^s dx = M e^s and
    W1(F, G) = M e, so |U_h(G) - U_h(F)| / W1^s = M^(1 - s): no constant L makes U_h Hölder with exponent s on
    1-sub-Gaussian laws (the ratio grows without bound with M), while lemma:PHT's q = s, L = tau^(1-s) holds on
    [0, tau].  Returns the exact quantities.
    """
    import sympy as sp

    s, M = sp.nsimplify(s), sp.nsimplify(M)
    e = 2 * sp.exp(-M ** 2 / 2)
    dU = M * e ** s
    w1 = M * e
    return {"e": e, "dU": dU, "W1": w1, "ratio": sp.simplify(dU / w1 ** s)}
