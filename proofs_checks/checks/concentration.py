"""``lemma: concentration`` (eq:meta_concentration): Monte Carlo and the radius it implies.

The printed bound is P(||F_n - F||_W > y) <= 2 exp(-n/(256 e) (y - 512/sqrt n)^2)
"for any y in R_+".  For y < 512/sqrt(n) the square is still positive and
the right side is astronomically small (at y = 0 it is 2 exp(-1024/e)), so
the statement as printed is false; the intended reading restricts it to
y >= 512/sqrt(n) (or uses the positive part).  Under that reading, for arms
supported on an interval of length 1 (W1 <= 1) the bound only says
something once 512/sqrt(n) < 1, i.e. n > 262144.

Monte Carlo (fixed seed): the empirical CDF of n samples is a multinomial
count vector on the law's atoms, and ||F_n - F||_W is the CDF integral of
``lemma:lipschitz-wasserstein`` — exact for every n, so n = 10^6 is cheap.
The frequencies do not depend on the claim; the printed bound (and the range of
y the claim is stated for) does, so an altered claim reuses the simulation.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import parse_expression
from rsb_theory.rates import T as T_SYM
from rsb_theory.rates import ucb_radius

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num
from ..causes import because
from rsb_theory.errors import ArgumentError
from ..statuses import Status

SEED = 20250304
#: laws on [0, 1]: (name, atoms, masses)
LAWS = (
    ("Bern(1/2)", (0.0, 1.0), (0.5, 0.5)),
    ("Bern(0.9)", (0.0, 1.0), (0.1, 0.9)),
    ("4-atom law", (0.0, 0.25, 0.5, 1.0), (0.1, 0.4, 0.3, 0.2)),
)
NS = (10, 100, 1_000, 10_000, 1_000_000)
YS = (0.01, 0.05, 0.1, 0.3, 0.6, 0.9)
TRIALS = 4000

_n, _y, _delta = sp.symbols("n y delta", positive=True)


#: The lower end of y the bound is claimed from ("any y in R_+"), and the one its proof needs.
Y_FROM_PRINTED, Y_FROM_NEEDED = "0", "512/sqrt(n)"


@lru_cache(maxsize=None)
def printed_bound(text: str = paper_claims.CONCENTRATION_BOUND):
    """A printed right side of eq:meta_concentration as a SymPy expression and a numpy callable."""
    expr = parse_expression(text, {"n": _n, "y": _y})
    return expr, sp.lambdify((_n, _y), expr, "numpy")


def w1_samples(rng: np.random.Generator, atoms, probs, n: int, trials: int) -> np.ndarray:
    """||F_n - F||_W for ``trials`` empirical CDFs of n samples (multinomial counts, exact W1)."""
    counts = rng.multinomial(n, probs, size=trials)
    gap = np.cumsum(counts / n - np.asarray(probs), axis=1)[:, :-1]
    return np.abs(gap) @ np.diff(np.asarray(atoms))


@lru_cache(maxsize=None)
def monte_carlo(seed: int = SEED) -> tuple[tuple, ...]:
    """Rows (law, n, y, frequency of W1 > y), one generator spawned per (law, n) from ``seed``."""
    streams = iter(np.random.SeedSequence(seed).spawn(len(LAWS) * len(NS)))
    rows = []
    for name, atoms, probs in LAWS:
        for n in NS:
            w = w1_samples(np.random.default_rng(next(streams)), atoms, probs, n, TRIALS)
            for y in YS:
                rows.append((name, n, y, float(np.mean(w > y))))
    return tuple(rows)


def bound_rows(bound_text: str, y_from: str) -> list[tuple]:
    """Rows (law, n, y, frequency, bound, y >= y_from(n)) of the Monte Carlo against a printed bound."""
    _, bound = printed_bound(bound_text)
    low = sp.lambdify(_n, parse_expression(y_from, {"n": _n}), "math")
    return [(name, n, y, f, float(bound(n, y)), y >= low(n)) for name, n, y, f in monte_carlo()]


def radius() -> tuple[sp.Expr, sp.Expr]:
    """y solving (printed bound) = delta for y >= 512/sqrt n, and the same at delta = 2/T^2."""
    expr, _ = printed_bound()
    # 2 exp(-n/(256 e) (y - c)^2) = delta  <=>  y = c + sqrt(256 e log(2/delta) / n)   (y >= c)
    c = 512 / sp.sqrt(_n)
    y_delta = c + sp.sqrt(256 * sp.E * sp.log(2 / _delta) / _n)
    assert sp.simplify(expr.subs(_y, y_delta) - _delta) == 0
    return y_delta, sp.simplify(y_delta.subs(_delta, 2 / T_SYM ** 2))


#: Where the paper uses eq:meta_concentration: (place, y, sample count) as functions of the proofs' symbols.
def uses_of_bound() -> tuple[tuple[str, sp.Expr, sp.Expr], ...]:
    """The places the paper applies the bound, with the y and the sample count it applies it at: eq:E1C and eq:E2C
    (RS-ETC-M: y = (Delta_min/(2 K L))^(1/q) at N(eps)/K samples, rsb_theory.rates.N_eps) and the confidence sets of
    eq:UCB_confidence_sets (RS-UCB-M: y = the radius at tau samples, rsb_theory.rates.ucb_radius)."""
    from rsb_theory.rates.constants import N_eps
    from rsb_theory.rates.symbols import Delta_min, K, L, q, tau

    return (("eq:E1C, eq:E2C (RS-ETC-M at N(eps)/K samples)", (Delta_min / (2 * K * L)) ** (1 / q), N_eps() / K),
            ("eq:UCB_confidence_sets (RS-UCB-M at tau samples)", ucb_radius(tau), tau))


#: Values of the proofs' symbols at which the margin y sqrt(n) - 512 of each use is evaluated (the second route).
USE_GRID = {"K": (2, 3, 6), "T": (2, 10, 10**5), "eps": (1, "1/10", "1/100"), "L": ("1/2", 1, 4), "q": ("1/2", 1),
            "Delta_min": ("1/1000", "1/2", 1), "tau": (1, 100, 10**6)}


def condition_at_uses() -> tuple[bool, str]:
    """Does y >= 512/sqrt(n) hold at every place the paper uses the bound?  At each use the margin y sqrt(n) - 512 is
    simplified symbolically (to 16 sqrt(e log(...)) >= 0) and evaluated on :data:`USE_GRID`; returns (holds at every
    use, the evidence)."""
    import itertools

    parts, ok = [], True
    for where, y, n in uses_of_bound():
        margin = sp.simplify(y * sp.sqrt(n) - 512)
        free = sorted(margin.free_symbols, key=str)
        values = [[sp.Rational(v) for v in USE_GRID[str(x)]] for x in free]
        smallest = min(float(margin.subs(dict(zip(free, combo)))) for combo in itertools.product(*values))
        ok = ok and smallest >= 0
        parts.append(f"{where}: y sqrt(n) - 512 = {margin}, smallest on the grid {num(smallest, 4)}")
    return ok, "; ".join(parts)


def _at_zero(bound_text: str) -> float:
    """The printed right side at y = 0 (any n: n (512/sqrt n)^2 = 512^2)."""
    _, bound = printed_bound(bound_text)
    return float(bound(100, 0.0))


def check_bound(claim: Claim) -> CheckResult:
    c: paper_claims.LemmaClaim = claim.printed
    y_from = claim.assumes("y_from", Y_FROM_PRINTED)
    rows = bound_rows(c.printed, y_from)
    viol = [r for r in rows if r[5] and r[3] > r[4]]
    ok_needed = all(r[3] <= r[4] for r in bound_rows(c.printed, Y_FROM_NEEDED) if r[5])
    status = decide(holds=not viol, repair=f"y >= {Y_FROM_NEEDED}" if viol and ok_needed else None)
    claimed = "y in R_+" if y_from == Y_FROM_PRINTED else f"y >= {y_from}"
    ev = (f"seed {SEED}, {TRIALS} empirical CDFs per (law, n) for laws {[l[0] for l in LAWS]}, n in {NS}, y in "
          f"{YS}: for {claimed} the MC frequency of ||F_n - F||_W > y exceeds the printed bound in {len(viol)} of "
          f"{sum(r[5] for r in rows)} cells")
    if viol:
        big = max(viol, key=lambda r: r[3] - r[4])
        at0 = 2 * np.exp(-1024 / np.e)
        ev += (f", all with y < 512/sqrt(n); e.g. {big[0]}, n = {big[1]}, y = {big[2]}: frequency {num(big[3], 3, 'f')} vs "
               f"bound {num(big[4], 3)}. At y = 0 the printed right side is 2 exp(-1024/e) = {num(at0, 2)} for every n, yet "
               "P(W1 > 0) = 1 - P(F_n = F) is near 1")
    ev += (". On unbounded laws of R_+ (exponential(1), half-normal(1), N(2, 1) on [0, oo), 1 + half-normal(1/2)): "
           "a continuous law is never its own empirical law, so P(||F_n - F||_W > 0) = 1 exactly for every n, "
           f"against the printed {num(_at_zero(c.printed), 2)} "
           "at y = 0: the same failure below 512/sqrt(n)")
    ev += (f". In the cells with y >= 512/sqrt(n) (only n = 10^6 here: 512/sqrt(n) = 0.512) the frequency never "
           f"exceeds the bound: {ok_needed}. The statement holds if restricted to y >= 512/sqrt(n) (or with "
           "(y - 512/sqrt n)_+); for arms on [0, 1] that is vacuous for n < 262144 since W1 <= 1 < 512/sqrt(n)")
    derived = ("false for y < 512/sqrt(n); holds (MC) for y >= 512/sqrt(n)" if viol else
               f"holds (MC) for {claimed}")
    at_uses, where = condition_at_uses()
    ev += f". Where the paper uses the bound, y >= 512/sqrt(n) holds: {at_uses} ({where})"
    return CheckResult(c.id, c.claim if y_from == Y_FROM_PRINTED else c.claim.replace("for any y in R_+", claimed),
                       c.printed, derived, status, "simulation", ev, condition_at_uses=at_uses)


def radius_at(T: int) -> float:
    """The radius the bound gives at n = T samples and delta = 2/T^2."""
    _, y_T = radius()
    return float(y_T.subs({_n: T, T_SYM: T}))


@because("experiments_not_analysed")
def check_radius(claim: Claim) -> CheckResult:
    c, horizons = claim.printed
    y_delta, y_T = radius()
    same = sp.simplify(y_T - ucb_radius(_n)) == 0
    nT = [(T, radius_at(T)) for T in horizons]
    n_needed = [(T, int(np.ceil(float((512 + 16 * sp.sqrt(2 * sp.E * sp.log(T))) ** 2)))) for T in horizons]
    vac = all(v >= 1 for _, v in nT)
    ev = (f"solving 2 exp(-n/(256 e)(y - 512/sqrt n)^2) = delta for y >= 512/sqrt n: y = {y_delta}; at delta = 2/T^2: "
          f"y = {y_T}, identical to eq:UCB_confidence_sets (rates.ucb_radius): {same}. At the largest sample count "
          f"n = T of each horizon the radius is " + ", ".join(f"T={T}: {num(v, 3, 'f')}" for T, v in nT)
          + "; W1 between laws on [0, 1] (the paper's Bernoulli arms) is at most 1, so the confidence sets contain "
          "every arm law at every t <= T. The radius drops below 1 only for n >= "
          + ", ".join(f"{m} (T={T})" for T, m in n_needed) + "; 512/sqrt(n) alone is >= 1 for n <= 262144")
    return CheckResult(c.id, c.claim if tuple(horizons) == paper_claims.EXPERIMENT_HORIZONS else
                       f"The W1 radius the bound gives at delta = 2/T^2 is informative at T in {list(horizons)}",
                       "radius < 1 (informative)", ", ".join(f"{num(v, 3, 'f')} at n=T={T}" for T, v in nT),
                       decide(holds=True, vacuous=vac), "symbolic", ev)


def smallest_informative_T() -> int:
    """Smallest T with radius_at(T) < 1 (bisection on the decreasing radius)."""
    lo, hi = 2, 2
    while radius_at(hi) >= 1:
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if radius_at(mid) < 1 else (mid, hi)
    return hi


def mutants_bound(claim: Claim, result: CheckResult) -> list[Claim]:
    if Status(result.status).broken:
        return [claim.assuming("y_from", Y_FROM_NEEDED, f"the bound claimed for y >= {Y_FROM_NEEDED} only")]
    return [claim.assuming("y_from", Y_FROM_PRINTED, "the bound claimed for every y in R_+")]


def mutants_radius(claim: Claim, result: CheckResult) -> list[Claim]:
    c, horizons = claim.printed
    T = smallest_informative_T() if result.status == "vacuous" else smallest_informative_T() - 1
    return [claim.reprinted((c, (T,)), f"the horizon T = {T}")]


CLAIMS = claim_map(
    Claim("lemma: concentration#bound", paper_claims.lemma_claim("lemma: concentration#bound"), check_bound,
          mutants_bound),
    Claim("lemma: concentration#radius", (paper_claims.lemma_claim("lemma: concentration#radius"),
                                          paper_claims.EXPERIMENT_HORIZONS), check_radius, mutants_radius),
)


def check(part: str) -> CheckResult:
    """``lemma: concentration#bound`` or ``#radius`` (kept for callers of the part-wise interface)."""
    if part not in ("bound", "radius"):
        raise ArgumentError("part", f"{part!r} is not 'bound' or 'radius'")
    return CLAIMS[f"lemma: concentration#{part}"].run()
