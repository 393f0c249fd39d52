"""A witness inside the paper's setting that Hölder continuity on the hull Xi (assumption:Holder, "for all G1, G2 in
Xi") does not give the regret theorems: the ETC analysis applies eq:Holder to empirical laws outside Xi.

The paper's h is any h: [0, 1] -> [0, 1], "not necessarily monotonic" (sec:setting).  Take

    h(0) = 0,  h = 1 on (0, 0.4),  h(u) = u on [0.4, 0.6],  h = 0 on (0.6, 1],

and two Bernoulli arms Bern(0.4), Bern(0.6).  For a Bernoulli law U_h(Bern(p)) = h(p) and W1 is the difference of the
means (lemma:lipschitz-wasserstein), so on Xi = {Bern(p): p in [0.4, 0.6]} U_h(G) = p_G: Hölder with q = 1, L_H = 1,
mixture-Hölder with r = 1, L_MH = 1 (the optimum a* = e_2 sits at p = 0.6), W = 0.1, B = 1.  On the ETC grid with
eps = 1/m the values are V(a) = 0.4 + 0.2 a_2, so Delta(eps) = 0 (a* is on the grid) and Delta_min(eps) = 0.2 eps.

After exploration RS-ETC-M / ETC holds n = ceil(N(eps)/K) samples per arm (N(eps) of eq:number of samples main paper,
:func:`rsb_theory.rates.N_eps_value`).  If the empirical mean of arm 1 lands in (0, 0.4) its vertex e_1 has empirical
value h = 1, the largest possible; it is the unique empirical maximiser when every other grid point's empirical mean
is >= 0.4 (there h < 1), i.e. when (1 - eps) k_1 + eps k_2 >= 0.4 n (the grid point nearest e_1; the others have
larger means since p_hat_2 > p_hat_1 then).  The algorithm then commits to e_1: every remaining pull goes to arm 1,
tau_T/T = (1 - n/T, n/T), and the regret is V(a*) - V(tau_T/T) = 0.2 (1 - n/T).  The probability of that event is an
exact finite sum of binomial terms (scipy's regularised incomplete beta), about 1/2 at the proof's n.

The witness h is data here (a SymPy Piecewise: the one parser has no piecewise functions); every number is derived
from it and the instance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp

from ..numfmt import num
from rsb_theory.errors import ArgumentError

_u = sp.Symbol("u", real=True)
#: The witness distortion h: [0, 1] -> [0, 1] (not monotone, as sec:setting allows).
H = sp.Piecewise((0, sp.Eq(_u, 0)), (1, _u < sp.Rational(2, 5)), (_u, _u <= sp.Rational(3, 5)), (0, True))
#: The arms' means.
MEANS = (Fraction(2, 5), Fraction(3, 5))
#: T as a multiple of N(eps) at which the display is judged (the theorem needs T > N(eps)).
T_OVER_N = (1000, 10**6)
#: The grids eps = 1/m of the witness (ETC grid; e_1 is on every one).
GRID_M = (2, 4, 8)


def h(x) -> Fraction | sp.Expr:
    """h at an exact point."""
    return sp.nsimplify(H.subs(_u, sp.Rational(x)))


@dataclass(frozen=True)
class OnHull:
    """The constants of the witness on Xi, derived from :data:`H` and :data:`MEANS`."""

    q: float
    L: float
    r: float
    L_MH: float
    W: float
    B: float


@lru_cache(maxsize=1)
def on_hull() -> OnHull:
    """q = 1, L_H = 1 on Xi: h restricted to [min p, max p] is one piece, linear (checked symbolically: its derivative
    and its value); r = 1, L_MH = 1: U* - U(G) = max p - p_G; W = (max p - min p)/2 (eq:W for two Bernoulli arms);
    B = max h on [0, 1]."""
    lo, hi = (sp.Rational(m) for m in MEANS)
    piece = H.subs(_u, (lo + hi) / 2)
    # the piece of H on [lo, hi]: every point of the closed hull evaluates to u itself
    linear = all(sp.simplify(H.subs(_u, x) - x) == 0 for x in (lo, hi, (lo + hi) / 2, lo + (hi - lo) / 7))
    slope = sp.Integer(1) if linear else sp.nan
    B = max(sp.Integer(1), *(H.subs(_u, sp.Rational(k, 100)) for k in range(101)))
    assert piece == (lo + hi) / 2
    return OnHull(q=1.0, L=float(slope), r=1.0, L_MH=float(slope), W=float((hi - lo) / 2), B=float(B))


def grid(m: int) -> list[tuple[Fraction, Fraction]]:
    """The ETC grid with eps = 1/m for K = 2: (1 - j/m, j/m), j = 0..m."""
    return [(1 - Fraction(j, m), Fraction(j, m)) for j in range(m + 1)]


def value(a) -> Fraction:
    """V(a) = U_h(sum_i a_i F_i) = h(sum_i a_i p_i) for Bernoulli arms (exact)."""
    return Fraction(str(h(sum(ai * p for ai, p in zip(a, MEANS)))))


def gaps(m: int) -> tuple[Fraction, Fraction]:
    """(Delta(eps), Delta_min(eps)) on the grid eps = 1/m, exactly: V(a*) over the simplex (h is the identity on Xi,
    so a* = e_2) minus the grid's best, and the gap between the grid's two best values."""
    vals = sorted({value(a) for a in grid(m)}, reverse=True)
    star = max(MEANS)  # sup of V over the simplex: h(p) = p on Xi
    return Fraction(star) - vals[0], vals[0] - vals[1]


@dataclass(frozen=True)
class Witness:
    """One (eps, T) of the witness: the proof's N(eps), n per arm, the probability that the algorithm commits to the
    wrong vertex e_1, the resulting lower bound on the expected regret, and the printed bound there."""

    eps: float
    T: float
    N: float
    n: int
    probability: float
    regret_lower: float
    Delta: float
    Delta_min: float


def commit_probability(n: int, eps: Fraction) -> float:
    """P(1 <= k_1 < p_1 n and (1 - eps) k_1 + eps k_2 >= p_1 n), k_i ~ Bin(n, p_i) independent: e_1 is the unique
    empirical maximiser with value h = 1 (a lower bound on the probability of committing to e_1) (a sum of binomial terms over the k_1 within 40 standard deviations, which carry all the mass
    to double precision; thresholds in exact integer arithmetic)."""
    from scipy.stats import binom

    p1, p2 = (float(p) for p in MEANS)
    a, b = MEANS[0].numerator, MEANS[0].denominator  # p_1 = a/b
    k1_max = -((-a * n) // b) - 1  # the largest k_1 < p_1 n
    sd = math.sqrt(n * p1 * (1 - p1))
    k1 = np.arange(max(1, int(k1_max - 40 * sd)), k1_max + 1, dtype=np.int64)
    m_num, m_den = eps.denominator, eps.numerator  # 1/eps = m_num/m_den
    # k_2 >= (p_1 n - (1 - eps) k_1)/eps = p_1 n/eps - (1/eps - 1) k_1, rounded up exactly
    top = -((-a * n * m_num) // (b * m_den))
    if m_den != 1:
        raise ArgumentError("eps", "need 1/eps an integer")
    thr = top - (m_num - 1) * k1
    return float(np.sum(binom.pmf(k1, n, p1) * binom.sf(thr - 1, n, p2)))


@lru_cache(maxsize=None)
def witness(m: int, t_over_n: int) -> Witness:
    """The witness on the grid eps = 1/m at T = t_over_n N(eps) (a fixed point of T -> t_over_n N(eps; T), a count
    of iterations, no tolerance on time)."""
    from rsb_theory import rates

    c = on_hull()
    eps = Fraction(1, m)
    Delta, Dmin = gaps(m)
    K = len(MEANS)
    T = float(t_over_n)
    for _ in range(60):
        T = t_over_n * rates.N_eps_value(K, max(1, int(T)), float(eps), c.L, c.q, float(Dmin))
    N = rates.N_eps_value(K, int(T), float(eps), c.L, c.q, float(Dmin))
    n = math.ceil(N / K)
    P = commit_probability(n, eps)
    regret = (max(MEANS) - min(MEANS)) * (1 - n / T)  # V(a*) - V(tau/T) after committing to e_1
    return Witness(float(eps), T, N, n, P, P * float(regret), float(Delta), float(Dmin))


def witnesses() -> tuple[Witness, ...]:
    return tuple(witness(m, k) for m in GRID_M for k in T_OVER_N)


#: The repair: what the regret theorems need in place of Hölder continuity on Xi.
REPAIR = "U_h Hölder (q, L) on all laws the algorithm can form (the empirical laws), not only on Xi"


def describe(w: Witness) -> str:
    return (f"eps = {num(w.eps)}: N(eps) = {num(w.N, 4)}, T = {num(w.T, 4)}, n = {w.n} per arm, P(commit to e_1) = "
            f"{num(w.probability, 4)}, E regret >= {num(w.regret_lower, 4)}")


@lru_cache(maxsize=1)
def tables_hold_everywhere() -> tuple[bool, str]:
    """Does the repair hold at the paper's uses?  For each distortion of the tables (table:table_risks), its family
    constants (q, L) of the Hölder lemmas bound |h(x) - h(y)| / |x - y|^q on a grid of all pairs in [0, 1] (every
    Bernoulli law, so every empirical law of Bernoulli arms)."""
    from . import _steps

    x = np.linspace(0.0, 1.0, 401)
    worst, names = 0.0, []
    for m in _steps.holder_sweep():
        f = np.asarray(m.d.numeric(x), dtype=float)
        dx = np.abs(x[:, None] - x[None, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(dx > 0, np.abs(f[:, None] - f[None, :]) / dx ** m.q, 0.0)
        worst = max(worst, float(np.max(ratio)) / m.L)
        names.append(m.name)
    ok = worst <= 1 + 1e-9
    return ok, (f"the family constants (q, L) of the Hölder lemmas hold on all pairs of Bernoulli laws (401-point grid "
                f"of [0, 1]) for {', '.join(names)}: largest ratio / L = {num(worst, 6)}")


def deviation_probabilities(w: Witness, y: float) -> tuple[float, float]:
    """At the witness ``w`` (n samples per arm): (a lower bound on P(not E_1,N(Delta_min/2)), i.e. P(|U_h(F_hat_2) -
    U_h(F_2)| > Delta_min/2) for a* = e_2, from the event p_hat_2 > 0.6 where h = 0; and sum_i P(||F_i,N - F_i||_W >
    y) = sum_i P(|p_hat_i - p_i| > y)), both exact binomial tails."""
    from scipy.stats import binom

    n = w.n
    hi = MEANS[1]
    lhs = float(binom.sf((hi.numerator * n) // hi.denominator, n, float(hi)))  # k_2 > 0.6 n: h(p_hat_2) = 0
    assert float(abs(value((0, 1)) - 0)) > w.Delta_min / 2  # the deviation there is V(a*) = 0.6
    rhs = 0.0
    for p in MEANS:
        pf = float(p)
        rhs += float(binom.cdf(math.ceil((pf - y) * n) - 1, n, pf) + binom.sf(math.floor((pf + y) * n), n, pf))
    return lhs, rhs
