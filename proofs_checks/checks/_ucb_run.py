"""RS-UCB-M's arm counts in the context of its proof: the forced exploration, then the tracking rule with a fixed
target, at the horizons ``theorem:UCB upper bound`` allows (T > max(e^K, T(eps))), exactly.

The steps of ``lemma:oversampling`` and ``lemma:undersampling`` are about the counts tau_t(i) of
``algorithm:B-UCB-M`` from T_0(eps) on.  In that context:

* the grid is the mid-point grid of section ``RS_UCB_M`` with 1/eps - K/2 a non-negative integer (every point is
  eps (n + 1/2), the printed definition; no footnote rule);
* each arm is first explored N = ceil(rho T eps/4) times, round robin (arm t mod K at step t + 1, 0-based), for
  E = K N steps, rho in (0, 1);
* T_0(eps) and T(eps) = (2/eps)(T_0 - 1) are the paper's (:func:`rsb_theory.rates.horizon.T_of_eps`, with
  Delta_min(eps) the gap between the optimal set and the rest, :func:`rsb_theory.gap.delta_min`, and q, L of the
  distortion);
* from E on the rule ``eq:UCB_sampling_rule`` tracks a fixed target a* (the complement of E_3 fixes it from T_0 on;
  a run that tracks a* from E on is one of its sample paths), lowest arm on ties.

T_0 is of order 10^11 at the paper's constants, so the run is not stepped one pull at a time: the exploration has a
closed form, and the tracking is advanced exactly by two facts of the integer deficits D_i = (t a(i) - tau_t(i)) den
(den the common denominator of a): while every arm but one has D < 0, that arm is pulled (it has the largest
deficit, the deficits summing to 0), so a stretch of such pulls is one jump; and the map D -> D' does not depend on
t, so once a deficit vector repeats the run is periodic and whole periods are skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..numfmt import num
from . import _steps
from ._mid_point import grid_point
from rsb_theory.errors import ArgumentError


def mid_point_aligned(K: int, eps: Fraction) -> bool:
    """eps gives the printed mid-point grid: 1/eps - K/2 is a non-negative integer (every point is eps (n + 1/2))."""
    x = 1 / Fraction(eps) - Fraction(K, 2)
    return x >= 0 and x.denominator == 1


def explore_counts(K: int, t: int) -> tuple[int, ...]:
    """tau_t of the round-robin exploration after t <= K N steps (arm s mod K at step s + 1, 0-based)."""
    return tuple(t // K + (1 if i < t % K else 0) for i in range(K))


@dataclass(frozen=True)
class Setting:
    """One instance of the proof's context.

    Attributes
    ----------
    member : str
        The distortion (``_steps.member`` name).
    p : tuple of Fraction
        Bernoulli means.
    eps, rho : Fraction
    a : tuple of Fraction
        The discrete optimum a* on the mid-point grid (exact).
    n_optimal : int
        How many grid points are optimal.
    delta_min : float
        Delta_min(eps): the gap between the optimal set and the best point outside it.
    T0 : int
        T_0(eps) (definition before ``theorem:UCB upper bound``).
    T_eps : Fraction
        T(eps) = (2/eps)(T_0 - 1).
    """

    member: str
    p: tuple
    eps: Fraction
    rho: Fraction
    a: tuple
    n_optimal: int
    delta_min: float
    T0: int
    T_eps: Fraction

    @property
    def K(self) -> int:
        return len(self.p)

    def T_min(self) -> int:
        """The smallest horizon the theorem allows: the first integer T > max(e^K, T(eps))."""
        return max(math.floor(math.exp(self.K)), math.floor(self.T_eps)) + 1

    def N(self, T: int) -> int:
        """ceil(rho T eps/4), the exploration count of each arm (``algorithm:B-UCB-M``), exact."""
        return math.ceil(self.rho * T * self.eps / 4)

    def describe(self) -> str:
        a = ", ".join(str(x) for x in self.a)
        p = ", ".join(str(x) for x in self.p)
        return (f"{self.member} on Bern({p}), mid-point grid eps = {self.eps}, rho = {self.rho}: a* = ({a}), "
                f"Delta_min = {_steps.fmt(self.delta_min)}, T_0(eps) = {self.T0}, T(eps) = {num(float(self.T_eps), 6)}")


@lru_cache(maxsize=None)
def setting(member: str, p: tuple, eps: Fraction, rho: Fraction) -> Setting:
    """The context's quantities for one instance (a* exact on the printed mid-point grid)."""
    from rsb_theory.discretization import fast_optimum
    from rsb_theory.rates.horizon import T_of_eps

    K = len(p)
    if not mid_point_aligned(K, eps):
        raise ArgumentError("eps", f"{eps} does not give the printed mid-point grid for K = {K}")
    m = _steps.member(member)
    opt = fast_optimum(m.d, tuple(float(x) for x in p), float(eps), "ucb")
    n = tuple(int(round(float(x) / float(eps) - 0.5)) for x in opt.a_star[:-1])
    a = grid_point(K, Fraction(eps), n)
    h = T_of_eps(float(eps), float(rho), float(opt.Delta_min), K, m.L, m.q)
    return Setting(member, tuple(Fraction(x) for x in p), Fraction(eps), Fraction(rho), a, int(opt.n_optimal),
                   float(opt.Delta_min), int(h.T0), Fraction(2) / Fraction(eps) * (h.T0 - 1))


class Tracker:
    """The tracking rule with a fixed target ``a`` from counts ``tau0`` at time ``t0``, advanced exactly.

    :meth:`advance` moves to a later time; :meth:`step` makes one pull and returns the pulled arm and the deficits
    (scaled by ``den``) it was chosen from.
    """

    def __init__(self, a, tau0, t0: int):
        self.a = tuple(Fraction(x) for x in a)
        self.den = math.lcm(*(x.denominator for x in self.a))
        self.A = [int(x * self.den) for x in self.a]
        self.t = int(t0)
        self.tau = [int(c) for c in tau0]
        if sum(self.tau) != self.t:
            raise ArgumentError("tau0", "the counts must sum to t0")

    def deficits(self) -> list[int]:
        """(t a(i) - tau_t(i)) den, exact integers summing to 0."""
        return [self.t * A - c * self.den for A, c in zip(self.A, self.tau)]

    def step(self) -> tuple[int, list[int]]:
        d = self.deficits()
        i = d.index(max(d))
        self.tau[i] += 1
        self.t += 1
        return i, d

    def _jump(self, d: list[int], limit: int) -> int:
        """Pulls of the one arm with D >= 0 while every other arm has D < 0 (at most ``limit``): done at once when
        there are more than 4 den of them."""
        up = [i for i, x in enumerate(d) if x >= 0]
        if len(up) != 1:
            return 0
        j = up[0]
        k = min(-(x // A) for i, (x, A) in enumerate(zip(d, self.A)) if i != j)  # ceil(-x/A)
        k = min(k, limit)
        if k > 4 * self.den:  # a short stretch is stepped, so that a periodic run is recognised by its deficits
            self.tau[j] += k
            self.t += k
            return k
        return 0

    def advance(self, t_end: int) -> None:
        """Move to time ``t_end`` (exact: jumps, then whole periods once the deficits repeat)."""
        seen: dict[tuple, int] = {}
        while self.t < t_end:
            d = self.deficits()
            if self._jump(d, t_end - self.t):
                seen.clear()
                continue
            key = tuple(d)
            if key in seen:
                period = self.t - seen[key]
                skip = (t_end - self.t) // period
                if skip:
                    # a whole period adds period * a(i) pulls to arm i (the deficits return to the same vector)
                    self.tau = [c + skip * period * A // self.den for c, A in zip(self.tau, self.A)]
                    self.t += skip * period
                seen.clear()
                if self.t >= t_end:
                    break
            else:
                seen[key] = self.t
            self.step()


@dataclass(frozen=True)
class Run:
    """A run of RS-UCB-M in the context: the setting, the horizon, the exploration's length."""

    setting: Setting
    T: int

    @property
    def N(self) -> int:
        return self.setting.N(self.T)

    @property
    def E(self) -> int:
        """The last step of the forced exploration, K N."""
        return self.setting.K * self.N

    def counts(self, t: int) -> tuple[int, ...]:
        """tau_t: the exploration's counts for t <= E, then the tracker's from (N, ..., N) at E."""
        if t <= self.E:
            return explore_counts(self.setting.K, t)
        tr = Tracker(self.setting.a, (self.N,) * self.setting.K, self.E)
        tr.advance(t)
        return tuple(tr.tau)

    def tracker(self, t: int) -> Tracker:
        """A tracker positioned at t >= E."""
        tr = Tracker(self.setting.a, (self.N,) * self.setting.K, self.E)
        tr.advance(max(t, self.E))
        return tr


def over_sampled(a, tau, t: int, threshold=1) -> tuple[int, ...]:
    """O_t = {i : tau_t(i)/t > a(i) + threshold/t} (0-based arms; the proof's threshold is 1), exact."""
    return tuple(i for i, (x, c) in enumerate(zip(a, tau)) if c > t * Fraction(x) + threshold)


def exploration_pulls_of_over_sampled(run: Run, start: int, threshold=1) -> tuple[int, int]:
    """(pulls at steps start + 1 .. E of arms that are in O_t when pulled, the first such t >= start), exact.

    During the exploration step t + 1 pulls arm t mod K.  For an arm with a(i) < 1/K, tau_t(i) >= (t - K + 1)/K, so
    tau_t(i) - t a(i) - c >= t (1/K - a(i)) - (K - 1)/K - c (c the threshold), increasing in t: once it is positive
    the arm stays in O_t until E.  The count is a sum over residues; below that bound the times are checked exactly.
    """
    K, a, E = run.setting.K, run.setting.a, run.E
    pulls, first = 0, None
    for i in range(K):
        if a[i] >= Fraction(1, K):
            if threshold < 1:
                raise ArgumentError("threshold", "below 1 an arm with a(i) >= 1/K can be in O_t; not counted here")
            continue  # tau_t(i) <= t/K + 1 <= t a(i) + 1: never in O_t during the exploration
        lo = max(start, math.floor((Fraction(K - 1, K) + Fraction(threshold)) / (Fraction(1, K) - a[i])) + 1)
        # O membership holds for every t >= lo (bound above); below lo check exactly (a few K steps)
        t = start
        while t < lo and t < E:
            if i in over_sampled(a, explore_counts(K, t), t, threshold) and t % K == i:
                pulls += 1
                first = t if first is None else min(first, t)
            t += 1
        if lo < E:
            # t in [lo, E - 1] with t mod K == i
            n_i = (E - 1 - i) // K - (lo - 1 - i) // K
            pulls += n_i
            t_i = lo + ((i - lo) % K)
            if n_i:
                first = t_i if first is None else min(first, t_i)
    return pulls, first


def exploration_pulls_loop(run: Run, start: int, threshold=1) -> int:
    """The same count stepped one pull at a time (the second route, for small horizons in tests)."""
    K, a = run.setting.K, run.setting.a
    return sum(1 for t in range(start, run.E) if (t % K) in over_sampled(a, explore_counts(K, t), t, threshold))


def first_boundary_pull(run: Run, t_from: int, budget: int = 200_000) -> tuple[int, int, tuple[int, ...]] | None:
    """The first t >= max(t_from, E) at which the arm pulled at t + 1 is in case (b) of ``lemma:oversampling``
    (a*(j) <= tau_t(j)/t <= a*(j) + 1/t): (t, j, tau_t), or None within ``budget`` single pulls.

    A pulled arm has the largest deficit, which is >= 0, so case (b) and a pull mean D_j = 0: the pulled arm is
    exactly on target.  No such pull happens inside a jump (the pulled arm's deficit is then > 0), so jumps are
    taken whole."""
    tr = run.tracker(t_from)
    for _ in range(budget):
        d = tr.deficits()
        if tr._jump(d, 10**30):
            continue
        t, tau = tr.t, tuple(tr.tau)
        j, d = tr.step()
        if -tr.den <= d[j] <= 0:
            return t, j, tau
    return None


#: Instances of the proof's context for the tracking steps: (distortion, Bernoulli means, eps, rho).  The first
#: family is ``example utility`` (Gini deviation on Bern(p), Bern(1 - p)), whose discrete optimum (1/2, 1/2) reaches
#: the largest Gini value 1/4 with the true laws: on E_0 it is optimistic-optimal at every t, so the rule that keeps
#: a^U_(t-1) while it is optimistic-optimal keeps it from the end of the exploration on (a path of positive
#: probability once it is drawn first).  The others have targets below 1/K, which the exploration over-samples.
EXAMPLE_UTILITY = tuple(("gini", (Fraction(1, 4), Fraction(3, 4)), eps, rho)
                        for eps in (Fraction(1, 3), Fraction(1, 5)) for rho in (Fraction(1, 10), Fraction(1, 2))) + (
    ("gini", (Fraction(1, 10), Fraction(9, 10)), Fraction(1, 7), Fraction(9, 10)),)
UNBALANCED = (
    ("mean", (Fraction(1, 10), Fraction(1, 5), Fraction(3, 10), Fraction(9, 10)), Fraction(1, 10), Fraction(1, 2)),
    ("gini", (Fraction(2, 5), Fraction(9, 10)), Fraction(1, 12), Fraction(1, 2)),
    ("gini", (Fraction(2, 5), Fraction(9, 10)), Fraction(1, 12), Fraction(9, 10)),
)
#: Horizons of each instance: the smallest the theorem allows, and 400 T_0(eps) (large enough that the exploration
#: K ceil(rho T eps/4) ends after T(eps) = (2/eps)(T_0 - 1): T > 8 T_0/(K rho eps^2) roughly).
HORIZONS = ("T_min", "400 T_0")


def horizon(s: Setting, which: str) -> int:
    return s.T_min() if which == "T_min" else 400 * s.T0


@lru_cache(maxsize=None)
def runs(family: str) -> tuple[Run, ...]:
    """The runs of a family of :data:`EXAMPLE_UTILITY` (``"example"``) or :data:`UNBALANCED` (``"unbalanced"``)."""
    cases = EXAMPLE_UTILITY if family == "example" else UNBALANCED
    return tuple(Run(s, horizon(s, w)) for c in cases for s in (setting(*c),) for w in HORIZONS)
