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


# ------------------------------------------------------------------------------------------------ RS-UCB-M's witness
#: The RS-UCB-M witness h: a spike to 1 just below the hull's left end.  h(u) = u - 2/5 on Xi's range [2/5, 21/50],
#: h = 1 on [2/5 - 1/10000, 2/5), h = 0 elsewhere (h(0) = 0; not monotone, as sec:setting allows).
UCB_SPIKE = Fraction(1, 10000)
UCB_MEANS = (Fraction(2, 5), Fraction(21, 50))
H_UCB = sp.Piecewise((0, _u < sp.Rational(UCB_MEANS[0] - UCB_SPIKE)), (1, _u < sp.Rational(UCB_MEANS[0])),
                     (_u - sp.Rational(UCB_MEANS[0]), _u <= sp.Rational(UCB_MEANS[1])), (0, True))
#: The grid and the exploration rate of the witness (mid-point grid of section RS_UCB_M, rho in (0, 1)).
UCB_EPS, UCB_RHO = Fraction(1, 2), Fraction(9, 10)
#: How far the empirical means may stray from the true ones in the argument (a Hoeffding tail bounds the rest).
UCB_SLACK = Fraction(1, 5000)


@dataclass(frozen=True)
class UcbWitness:
    """RS-UCB-M on the witness: the proof's T_0(eps), T(eps), the horizon T, the forced exploration n per arm, the
    smallest margin by which the wrong grid point's optimistic value beats the optimal one's over every t from the
    end of the exploration to T and every split of the counts, the probability that an empirical mean strays
    further than :data:`UCB_SLACK` at some t, the resulting lower bound on the expected regret, and the display."""

    points: tuple
    values: tuple
    wrong: tuple
    best: tuple
    Delta: float
    Delta_min: float
    T0: int
    T_eps: float
    T: int
    n: int
    margin: float
    stray_log10: float
    regret_lower: float
    bound: float

    @property
    def tracks_wrong(self) -> bool:
        """The wrong point is the unique optimistic maximiser from the end of the forced exploration on, which ends
        before T_0(eps): every t in [T_0(eps), T] has it."""
        return self.margin > 0 and self.T0 >= len(UCB_MEANS) * self.n


def _h_ucb(x: Fraction) -> Fraction:
    return Fraction(str(sp.nsimplify(H_UCB.subs(_u, sp.Rational(x)))))


@lru_cache(maxsize=1)
def ucb_witness() -> UcbWitness:
    """The RS-UCB-M witness, every number derived from :data:`H_UCB`, the means and rsb's own T_0(eps), T(eps) and
    confidence radius (eq:UCB_confidence_sets).

    The argument (for Bernoulli arms the empirical laws are Bernoulli; the confidence set C_t(i) is the W1 ball of
    radius r_i around F_hat_i among laws on [0, 1]; a mixture of the balls lies within R = sum_i a_i r_i of the
    empirical mixture, a Bernoulli law with mean m):

    * lower bound for a grid point a with m - 2/5 < 1/50: move mass from 1 to 1 - ell in each arm (arm i by
      r_i/ell), which lowers the mixture's survival function by dd = m - 2/5 + spike/2 on (1 - ell, 1) at W1 cost
      ell dd per unit: with ell = R/dd the survival function sits in the spike there, so the optimistic value is
      >= ell + (1 - ell)(m - 2/5);
    * upper bound for any grid point: for any law M within R of the empirical mixture, the set where its survival
      function is below 2/5 has length <= R/(m - 2/5 - spike) (there |S_M - m| exceeds that), and on the rest h(S)
      <= (m - 2/5) + |S - m|; beyond 1 (laws on R+) h(S) > 0 only where S >= 2/5 - spike, a set of length
      <= R/(2/5 - spike): so the optimistic value is <= (m - 2/5) + R + R/(m - 2/5 - spike) + R/(2/5 - spike).

    Both are linear in (r_1, r_2) (while ell <= 1), so their difference is smallest at a corner of the box of
    radii that t <= T and the forced exploration allow: r_i in [c/sqrt(T - n), c/sqrt(n)].
    """
    from rsb_theory.grids import Grid
    from rsb_theory.rates.constants import radius_constant
    from rsb_theory.rates.horizon import T_of_eps

    K = len(UCB_MEANS)
    g = Grid(K, float(UCB_EPS), "ucb")
    points = tuple(tuple(Fraction(x).limit_denominator(1000) for x in row) for row in g.points())
    values = tuple(_h_ucb(sum(ai * p for ai, p in zip(a, UCB_MEANS))) for a in points)
    order = sorted(range(len(points)), key=lambda i: values[i], reverse=True)
    best, wrong = points[order[0]], points[order[1]]
    v_star = max(_h_ucb(p) for p in UCB_MEANS)  # U_h is affine in the mixture's mean on Xi: the optimum is a vertex
    Delta, Delta_min = float(v_star - values[order[0]]), float(values[order[0]] - values[order[1]])
    c = on_ucb_hull()
    te = T_of_eps(float(UCB_EPS), float(UCB_RHO), Delta_min, K, c.L, c.q)
    T = max(int(math.floor(te.T_eps)) + 1, int(math.floor(math.e ** K)) + 1)
    n = math.ceil(float(UCB_RHO) * T * float(UCB_EPS) / 4)
    rad = radius_constant(T)
    lo_r, hi_r = rad / math.sqrt(T - n), rad / math.sqrt(n)
    spike, left = float(UCB_SPIKE), float(UCB_MEANS[0])
    m_w = sum(float(ai * p) for ai, p in zip(wrong, UCB_MEANS))
    m_b = sum(float(ai * p) for ai, p in zip(best, UCB_MEANS))
    s = float(UCB_SLACK)
    dd = (m_w + s - left) + spike / 2

    def margin(r1: float, r2: float) -> float:
        Rw = sum(float(ai) * r for ai, r in zip(wrong, (r1, r2)))
        Rb = sum(float(ai) * r for ai, r in zip(best, (r1, r2)))
        ell = Rw / dd
        if not ell <= 1:
            raise ArgumentError("UCB_SPIKE", "the lower bound's ell exceeds 1: widen the argument")
        lower = ell + (1 - ell) * (m_w - s - left)
        # on [0, 1] as below; beyond 1 (laws on R+) h(S) > 0 needs S >= 2/5 - spike where the empirical S is 0
        upper = (m_b + s - left) + Rb + Rb / (m_b - s - left - spike) + Rb / (left - spike)
        return lower - upper

    worst = min(margin(r1, r2) for r1 in (lo_r, hi_r) for r2 in (lo_r, hi_r))
    # P(some |p_hat_i - p_i| > slack at some t in [n, T]) <= 2 K T exp(-2 n slack^2) (Hoeffding, a union over t)
    stray = math.log10(2 * K * T) - 2 * n * s * s / math.log(10)
    # on the complement RS-UCB-M targets `wrong` at every t >= K n; the tracking (lemma:undersampling at t = T,
    # where its condition holds) keeps |tau_T(i)/T - wrong(i)| <= K/T, and n < wrong(i) T
    mean_T = sum(float(ai * p) for ai, p in zip(wrong, UCB_MEANS)) + K / T * float(UCB_MEANS[1] - UCB_MEANS[0])
    regret = float(v_star) - float(_h_ucb(Fraction(mean_T).limit_denominator(10**15)))
    regret_lower = regret * (1 - 10 ** stray) if worst > 0 and n < min(wrong) * T else 0.0
    from .. import paper_claims

    step = paper_claims.proof_step("theorem:UCB upper bound#chain.rs-ucb-m")  # the display as printed
    _coefficient, bound = display_bound(step.value("coefficient"), step.value("base"), T, Delta)
    return UcbWitness(points, tuple(float(v) for v in values), wrong, best, Delta, Delta_min, te.T0, te.T_eps, T, n,
                      worst, stray, regret_lower, bound)


def display_bound(coefficient: str, base: str, T: int, Delta: float) -> tuple[float, float]:
    """(the coefficient's value, the bound): the printed display of eq:UCB regret, [coefficient][base/sqrt(eps rho
    T)(sqrt(2 e log T) + 32)]^q + Delta(eps), at the witness's constants (:func:`on_ucb_hull`), eps, rho and horizon
    ``T``; ``coefficient`` and ``base`` as the claim prints them."""
    from . import _steps
    from rsb_theory.expressions import to_sympy

    c = on_ucb_hull()
    coef, syms = _steps.printed(coefficient, ("B", "L", "W", "q"))
    value = float(coef.subs({syms["B"]: c.B, syms["L"]: c.L, syms["W"]: c.W, syms["q"]: c.q}))
    S = math.sqrt(2 * math.e * math.log(T)) + 32
    return value, value * (float(to_sympy(base, "base")) / math.sqrt(float(UCB_EPS) * float(UCB_RHO) * T) * S) ** c.q \
        + Delta


@lru_cache(maxsize=1)
def on_ucb_hull() -> OnHull:
    """The constants of :data:`H_UCB` on Xi = {Bern(p): p in [2/5, 21/50]}: h(u) = u - 2/5 there (checked
    symbolically at the ends and inside), so q = 1, L_H = 1, r = 1, L_MH = 1; W = (21/50 - 2/5)/2; B = sup h = 1."""
    lo, hi = (sp.Rational(m) for m in UCB_MEANS)
    linear = all(sp.simplify(H_UCB.subs(_u, x) - (x - lo)) == 0 for x in (lo, hi, (lo + hi) / 2, lo + (hi - lo) / 7))
    B = max(H_UCB.subs(_u, sp.Rational(UCB_MEANS[0] - UCB_SPIKE / 2)), *(H_UCB.subs(_u, sp.Rational(k, 100))
                                                                       for k in range(101)))
    return OnHull(q=1.0, L=1.0 if linear else float("nan"), r=1.0, L_MH=1.0 if linear else float("nan"),
                  W=float((hi - lo) / 2), B=float(B))


def describe_ucb(w: UcbWitness) -> str:
    """One sentence of evidence for the RS-UCB-M witness."""
    c = on_ucb_hull()
    return (f"Witness in the setting (h: [0, 1] -> [0, 1], not monotone, sec:setting): h(u) = u - 2/5 on [2/5, 21/50], "
            f"h = 1 on [2/5 - {UCB_SPIKE}, 2/5), h = 0 elsewhere; arms Bern(2/5), Bern(21/50).  On Xi U_h(G) = p_G - "
            f"2/5: q = {num(c.q)}, L = {num(c.L)}, r = {num(c.r)}, W = {num(c.W)}, B = {num(c.B)}.  Mid-point grid "
            f"eps = {UCB_EPS}: points {[tuple(str(x) for x in a) for a in w.points]}, V = "
            f"{[num(v, 4) for v in w.values]}, Delta(eps) = {num(w.Delta, 4)}, Delta_min(eps) = {num(w.Delta_min, 4)}; "
            f"rho = {UCB_RHO}: T_0(eps) = {w.T0}, T(eps) = {num(w.T_eps, 6)} (rsb_theory.rates.horizon), T = {w.T}, "
            f"forced exploration n = {w.n} per arm.  The confidence sets (W1 balls of laws on R+, radius of "
            f"eq:UCB_confidence_sets) let the wrong point {tuple(str(x) for x in w.wrong)} push its mixture's "
            f"survival function into the spike at a lower W1 cost than the optimal point "
            f"{tuple(str(x) for x in w.best)}: its optimistic value exceeds the optimal point's by >= "
            f"{num(w.margin, 4)} at every t from the end of the exploration to T and every split of the counts "
            f"(both bounds linear in the radii, checked at the corners of the radii's box), with the empirical means "
            f"within {UCB_SLACK} of the true ones (failure probability <= 10^{num(w.stray_log10, 6)}, Hoeffding "
            f"over t).  RS-UCB-M tracks the wrong point: E regret >= {num(w.regret_lower, 4)} against the display's "
            f"{num(w.bound, 4)}")
