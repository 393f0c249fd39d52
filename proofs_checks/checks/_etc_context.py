"""RS-ETC-M inside the proof's own context: N = N(eps) of ``eq:number of samples main paper``, T > N(eps), the etc grid.

The steps of ``Appendix:RS-ETC-M`` are judged where the proof uses them (:mod:`proofs_checks.contexts`): each arm
is explored n0 = ceil(N(eps)/K) times with N(eps) the printed formula (:func:`rsb_theory.rates.constants.N_eps`)
at the instance's own q, L and Delta_min(eps), and T > N(eps).  N(eps) is of the order 1e11 here, so nothing is
simulated: every quantity is exact.

* The instance is the paper's (``sec:experiments``): Gini deviation h(u) = u(1 - u) (q = L = 1, the values rsb
  derives) on Bernoulli arms, whose U_h of a mixture is h of its mean (``eq:wang_def``), a polynomial -- so V(a),
  its estimate from the exploration counts and Delta_min(eps) are exact rationals (:func:`values`).
* N(eps) depends on T (through log T^2), and T must exceed it: :func:`horizons` walks the integers T upward from the
  fixed point of T = N(T) and evaluates N(eps) with 60 significant digits (mpmath); every comparison of N with a
  rational is made at that precision and refused when closer than :data:`MARGIN` (none is).
* A grid point a is a possible decision a^E_N (``eq:ETC_alpha``) when some exploration outcome, of positive
  probability since 0 < p_i < 1, makes it the unique empirical maximiser: :func:`outcome_for` finds one and
  checks it exactly on every grid point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy as sp

from rsb_theory.rates import constants as rc

from ._etc_rule import commit_counts, etc_grid

#: Significant digits of N(eps).
DPS = 60
#: A comparison of N(eps) with a rational closer than this (relative) is refused (not decided at DPS digits).
MARGIN = mpmath.mpf(10) ** -40
#: The experiments' instance (sec:experiments): Gini on Bern(0.4), Bern(0.9).
PAPER_P = (Fraction(2, 5), Fraction(9, 10))


def gini(u):
    """h(u) = u(1 - u), exact on Fractions and SymPy numbers."""
    return u * (1 - u)


def mean(a, p):
    return sum(x * y for x, y in zip(a, p))


def values(p, eps: Fraction, h=gini):
    """(grid, V, V*, OPT, Delta_min) on the etc grid, exact (V(a) = h(<a, p>) for Bernoulli arms)."""
    grid = etc_grid(len(p), eps)
    V = [h(mean(a, p)) for a in grid]
    vmax = max(V)
    opt = [v == vmax for v in V]
    rest = [v for v, o in zip(V, opt) if not o]
    return grid, V, vmax, opt, (vmax - max(rest)) if rest else None


@lru_cache(maxsize=None)
def _n_eps_expr():
    return rc.N_eps()


def n_eps(K: int, T: int, eps, L, q, D) -> mpmath.mpf:
    """N(eps) of ``eq:number of samples main paper`` at DPS significant digits (the formula of rsb_theory)."""
    from rsb_theory.rates.symbols import Delta_min, K as sK, L as sL, T as sT, eps as seps, q as sq

    subs = {sK: K, sT: T, seps: sp.Rational(eps), sL: sp.Rational(L), sq: sp.Rational(q), Delta_min: sp.Rational(D)}
    val = _n_eps_expr().subs(subs).evalf(DPS)
    with mpmath.workdps(DPS):
        return mpmath.mpf(str(val))


@dataclass(frozen=True)
class Horizon:
    """One horizon T of the context: N = N(eps) at T (DPS digits, and a rational copy), n0 = ceil(N/K)."""

    T: int
    N: mpmath.mpf
    Nq: Fraction
    n0: int

    def describe(self) -> str:
        return f"T = {self.T}, N(eps) = {mpmath.nstr(self.N, 20)}, n0 = ceil(N(eps)/K) = {self.n0}"


def _rational(x: mpmath.mpf) -> Fraction:
    with mpmath.workdps(DPS):
        return Fraction(mpmath.nstr(x, DPS, min_fixed=-math.inf, max_fixed=math.inf))


def horizon(K: int, T: int, eps, L, q, D) -> Horizon:
    N = n_eps(K, T, eps, L, q, D)
    with mpmath.workdps(DPS):
        x = N / K
        frac = x - mpmath.floor(x)
        if frac < MARGIN * x or 1 - frac < MARGIN * x:
            raise ArithmeticError(f"N(eps)/K = {x} too close to an integer at {DPS} digits")
        n0 = int(mpmath.ceil(x))
    return Horizon(T, N, _rational(N), n0)


def first_horizon(K: int, eps, L, q, D, factor: int = 1, start: int | None = None) -> Horizon:
    """The smallest integer T >= ``start`` with T > factor N(eps) at T (N grows like log T, so T = N(T) once)."""
    T = start if start is not None else 2
    # Fixed-point iteration: T <- floor(factor N(T)) + 1 converges upward in a few rounds (N is concave in log T).
    for _ in range(60):
        h = horizon(K, T, eps, L, q, D)
        if T > factor * h.N:
            return h
        T = int(mpmath.floor(factor * h.N)) + 1
    raise ArithmeticError("no horizon found")


def rel(x: Fraction, N: Fraction, y: Fraction) -> None:
    """Refuse a comparison of x with y (both built from N) that the DPS digits of N cannot decide."""
    if x != y and abs(x - y) <= Fraction(1, 10 ** 40) * max(abs(x), abs(y), Fraction(1)) * max(N, Fraction(1)):
        raise ArithmeticError("comparison too close to decide at the precision of N(eps)")


def outcome_for(a, n0: int, eps: Fraction, h=gini) -> tuple[int, ...] | None:
    """Exploration counts k (k_i high rewards out of n0) under which ``a`` is the unique maximiser of
    h(<a', k/n0>) over the etc grid (K = 2), or None.  One arm's estimate 0, the other's near 1/(2 a(i))."""
    grid = etc_grid(len(a), eps)
    if len(a) != 2:
        return None
    for j in (1, 0):
        if a[j] == 0 or 2 * a[j] < 1:
            continue
        k = [0, 0]
        k[j] = min(n0, round(Fraction(n0) / (2 * a[j])))
        ph = [Fraction(x, n0) for x in k]
        vals = [h(mean(b, ph)) for b in grid]
        best = max(vals)
        if vals.count(best) == 1 and grid[vals.index(best)] == tuple(a):
            return tuple(k)
    if tuple(a) in ((Fraction(0), Fraction(1)), (Fraction(1), Fraction(0))):
        j = 0 if a[0] == 1 else 1
        k = [0, 0]
        k[j] = (n0 + 1) // 2
        ph = [Fraction(x, n0) for x in k]
        vals = [h(mean(b, ph)) for b in grid]
        best = max(vals)
        if vals.count(best) == 1 and grid[vals.index(best)] == tuple(a):
            return tuple(k)
    return None


def log10_prob(p, k, n0: int) -> float:
    """log10 of the probability of the exploration counts k (independent Binomial(n0, p_i)), > -inf iff 0 < p < 1."""
    with mpmath.workdps(30):
        tot = mpmath.mpf(0)
        for pi, ki in zip(p, k):
            pi = mpmath.mpf(sp.N(pi, 30)) if not isinstance(pi, Fraction) else mpmath.mpf(pi.numerator) / pi.denominator
            tot += (mpmath.loggamma(n0 + 1) - mpmath.loggamma(ki + 1) - mpmath.loggamma(n0 - ki + 1)
                    + ki * mpmath.log(pi) + (n0 - ki) * mpmath.log(1 - pi))
        return float(tot / mpmath.log(10))


@dataclass(frozen=True)
class CommitCase:
    """One in-context commit: decision a (reachable by outcome k), horizon, counts tau, S' (0-based arms)."""

    eps: Fraction
    a: tuple
    k: tuple
    hz: Horizon
    tau: tuple
    S: frozenset

    @property
    def K(self) -> int:
        return len(self.a)

    def describe(self) -> str:
        return (f"Gini on Bern(2/5), Bern(9/10) (the experiments' instance), etc grid eps = {self.eps}, "
                f"{self.hz.describe()}, a^E_N = ({', '.join(map(str, self.a))}) (the unique empirical maximiser "
                f"for exploration counts k = {self.k}, probability > 0), tau_T = {self.tau}, "
                f"S' = {sorted(i + 1 for i in self.S)}")


def skipped_not_in_S(K: int, eps, D, a1: Fraction, start: int, width: int = 12) -> Horizon | None:
    """A horizon T > K n0 with N/K <= T a1 < ceil(N/K) (an arm with weight a1 skipped by eq: ETC_samp although not
    in S'), near the fixed point T = N(T)/(K a1); None when none of the ``width`` integers after it qualifies."""
    hz = first_horizon(K, eps, 1, 1, D, factor=1, start=start)
    T = hz.T
    for _ in range(60):  # T <- ceil(N(T)/(K a1)) converges (N grows like log T)
        hz = horizon(K, T, eps, 1, 1, D)
        nxt = math.ceil(hz.Nq / (K * a1))
        if nxt == T:
            break
        T = nxt
    for t in range(T - 2, T + width):
        hz = horizon(K, t, eps, 1, 1, D)
        if hz.Nq / K <= t * a1 < hz.n0 and t > K * hz.n0 and t > hz.Nq:
            return hz
    return None


@lru_cache(maxsize=1)
def commit_cases() -> tuple[CommitCase, ...]:
    """In-context commits, K = 2: eps in 1/2, 1/3, 1/4, 1/5; every reachable grid point; horizons: the first T
    with T > N(eps) and a commit phase and the next, T > 2N, 3N (and 3N + 1) and, for each a(1) < 1/2, the T with
    N/K <= T a(1) <= ceil(N/K) (arm 1 skipped but not in S')."""
    out = []
    for eps in (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(1, 5)):
        grid, V, vmax, opt, D = values(PAPER_P, eps)
        if D is None or D <= 0:
            continue
        K = 2
        hzs = []
        h1 = first_horizon(K, eps, 1, 1, D)
        while h1.T <= K * h1.n0:
            h1 = horizon(K, h1.T + 1, eps, 1, 1, D)
        hzs += [h1, horizon(K, h1.T + 1, eps, 1, 1, D)]
        for f in (2, 3):
            hf = first_horizon(K, eps, 1, 1, D, factor=f, start=h1.T)
            hzs += [hf, horizon(K, hf.T + 1, eps, 1, 1, D)]
        for a in grid:
            if 0 < a[0] < Fraction(1, 2):
                hz = skipped_not_in_S(K, eps, D, a[0], h1.T)
                if hz is not None:
                    hzs.append(hz)
        for hz in hzs:
            for a in grid:
                k = outcome_for(a, hz.n0, eps)
                if k is None:
                    continue
                tau = tuple(commit_counts(a, hz.T, hz.n0))
                S = frozenset(i for i in range(K) if a[i] < hz.Nq / (K * hz.T))
                for i in range(K):
                    rel(a[i] * K * hz.T, hz.Nq, hz.Nq)
                out.append(CommitCase(eps, tuple(a), k, hz, tau, S))
    return tuple(out)


# ------------------------------------------------------------------ eq:ETC_2: a tie on the boundary of E_N
@dataclass(frozen=True)
class BoundaryWitness:
    """The in-context witness of ``eq:ETC_2``: a_N not in OPT, on E_N(Delta_min/2) with '<='."""

    p: tuple  # SymPy numbers
    eps: Fraction
    D: sp.Expr
    hz: Horizon
    k: tuple
    grid: tuple
    choice: int
    star: int
    dev_star: sp.Expr
    dev_choice: sp.Expr
    Vhat: tuple
    log10p: float


@lru_cache(maxsize=1)
def boundary_witness() -> BoundaryWitness:
    """Gini, K = 2, etc grid eps = 1/2, outcome p_hat = (1/5, 3/5) at n0 = ceil(N(eps)/2) a multiple of 5.

    p_hat = (1/5, 3/5) gives U_hat((0, 1)) = h(3/5) = h(2/5) = U_hat((1/2, 1/2)), the tie going to (0, 1) (the
    first in the grid's order).  With p_2 = 31/50 and the mean m* of a* = (1/2, 1/2) solving
    h(m*) = 2 h(3/5) - h(p_2) (the root below 1/2), U(a*) - U_hat(a*) = U_hat(a_N) - U(a_N) = Delta_min/2 exactly.
    Delta_min = 2 (h(3/5) - h(31/50)) = 11/1250 does not depend on n0, so T is chosen (T > N(eps)) to make n0 a
    multiple of 5.
    """
    u = sp.Symbol("u", positive=True)
    p2 = sp.Rational(31, 50)
    target = 2 * gini(sp.Rational(3, 5)) - gini(p2)
    m_star = min(sp.solve(sp.Eq(gini(u), target), u), key=lambda v: float(v))
    p = (sp.nsimplify(2 * m_star - p2), p2)
    eps = Fraction(1, 2)
    grid = etc_grid(2, eps)
    V = [sp.expand(gini(sum(sp.Rational(x) * y for x, y in zip(a, p)))) for a in grid]
    vmax = max(V, key=lambda v: float(v))
    opt = [sp.simplify(v - vmax) == 0 for v in V]
    D = sp.nsimplify(min((vmax - v for v, o in zip(V, opt) if not o), key=lambda v: float(v)))
    hz = first_horizon(2, eps, 1, 1, Fraction(str(D)))
    while hz.n0 % 5 or hz.T <= 2 * hz.n0:
        hz = horizon(2, hz.T + 1, eps, 1, 1, Fraction(str(D)))
    k = (hz.n0 // 5, 3 * hz.n0 // 5)
    ph = [sp.Rational(x, hz.n0) for x in k]
    Vhat = tuple(gini(sum(sp.Rational(x) * y for x, y in zip(a, ph))) for a in grid)
    best = max(Vhat)
    choice = Vhat.index(best)  # first maximiser in the grid's order (ARCHITECTURE.md's tie rule)
    star = opt.index(True)
    dev_star = sp.nsimplify(sp.Abs(Vhat[star] - V[star]))
    dev_choice = sp.nsimplify(sp.Abs(Vhat[choice] - V[choice]))
    return BoundaryWitness(p, eps, D, hz, k, tuple(grid), choice, star, dev_star, dev_choice, Vhat,
                           log10_prob(p, k, hz.n0))
