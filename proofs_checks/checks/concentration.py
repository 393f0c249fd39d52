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
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import parse_expression
from rsb_theory.rates import T as T_SYM
from rsb_theory.rates import ucb_radius

from .. import paper_claims
from ..ledger import CheckResult

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


@lru_cache(maxsize=None)
def printed_bound():
    """The printed right side of eq:meta_concentration as a SymPy expression and a numpy callable."""
    expr = parse_expression(paper_claims.CONCENTRATION_BOUND, {"n": _n, "y": _y})
    return expr, sp.lambdify((_n, _y), expr, "numpy")


def w1_samples(rng: np.random.Generator, atoms, probs, n: int, trials: int) -> np.ndarray:
    """||F_n - F||_W for ``trials`` empirical CDFs of n samples (multinomial counts, exact W1)."""
    counts = rng.multinomial(n, probs, size=trials)
    gap = np.cumsum(counts / n - np.asarray(probs), axis=1)[:, :-1]
    return np.abs(gap) @ np.diff(np.asarray(atoms))


@lru_cache(maxsize=None)
def monte_carlo(seed: int = SEED) -> tuple[tuple, ...]:
    """Rows (law, n, y, frequency of W1 > y, printed bound, y >= 512/sqrt n)."""
    rng = np.random.default_rng(seed)
    _, bound = printed_bound()
    rows = []
    for name, atoms, probs in LAWS:
        for n in NS:
            w = w1_samples(rng, atoms, probs, n, TRIALS)
            for y in YS:
                rows.append((name, n, y, float(np.mean(w > y)), float(bound(n, y)), y >= 512 / np.sqrt(n)))
    return tuple(rows)


def radius() -> tuple[sp.Expr, sp.Expr]:
    """y solving (printed bound) = delta for y >= 512/sqrt n, and the same at delta = 2/T^2."""
    expr, _ = printed_bound()
    # 2 exp(-n/(256 e) (y - c)^2) = delta  <=>  y = c + sqrt(256 e log(2/delta) / n)   (y >= c)
    c = 512 / sp.sqrt(_n)
    y_delta = c + sp.sqrt(256 * sp.E * sp.log(2 / _delta) / _n)
    assert sp.simplify(expr.subs(_y, y_delta) - _delta) == 0
    return y_delta, sp.simplify(y_delta.subs(_delta, 2 / T_SYM ** 2))


def check(part: str) -> CheckResult:
    """``lemma: concentration#bound`` or ``#radius``."""
    if part not in ("bound", "radius"):
        raise ValueError(f"argument 'part': {part!r} is not 'bound' or 'radius'")
    c = paper_claims.lemma_claim(f"lemma: concentration#{part}")
    if part == "bound":
        rows = monte_carlo()
        viol = [r for r in rows if r[3] > r[4]]
        ok_large = all(r[3] <= r[4] for r in rows if r[5])
        big = max(viol, key=lambda r: r[3] - r[4]) if viol else None
        at0 = 2 * np.exp(-1024 / np.e)
        ev = (f"seed {SEED}, {TRIALS} empirical CDFs per (law, n) for laws {[l[0] for l in LAWS]}, n in {NS}, y in "
              f"{YS}: the MC frequency of ||F_n - F||_W > y exceeds the printed bound in {len(viol)} of {len(rows)} "
              f"cells, all with y < 512/sqrt(n)")
        if big:
            ev += (f"; e.g. {big[0]}, n = {big[1]}, y = {big[2]}: frequency {big[3]:.3f} vs bound {big[4]:.2e}. At y = 0 "
                   f"the printed right side is 2 exp(-1024/e) = {at0:.1e} for every n, yet P(W1 > 0) = 1 - P(F_n = F) "
                   "is near 1")
        ev += (f". In the cells with y >= 512/sqrt(n) (only n = 10^6 here: 512/sqrt(n) = 0.512) the frequency never "
               f"exceeds the bound: {ok_large}. The statement holds if restricted to y >= 512/sqrt(n) (or with "
               "(y - 512/sqrt n)_+); for arms on [0, 1] that is vacuous for n < 262144 since W1 <= 1 < 512/sqrt(n)")
        st = "refuted" if viol else "verified"
        return CheckResult(c.id, c.claim, c.printed, "false for y < 512/sqrt(n); holds (MC) for y >= 512/sqrt(n)", st,
                           "simulation", ev)
    y_delta, y_T = radius()
    same = sp.simplify(y_T - ucb_radius(_n)) == 0
    nT = [(T, float(y_T.subs({_n: T, T_SYM: T}))) for T in paper_claims.EXPERIMENT_HORIZONS]
    n_needed = [(T, int(np.ceil(float((512 + 16 * sp.sqrt(2 * sp.E * sp.log(T))) ** 2)))) for T in
                paper_claims.EXPERIMENT_HORIZONS]
    vac = all(v >= 1 for _, v in nT)
    ev = (f"solving 2 exp(-n/(256 e)(y - 512/sqrt n)^2) = delta for y >= 512/sqrt n: y = {y_delta}; at delta = 2/T^2: "
          f"y = {y_T}, identical to eq:UCB_confidence_sets (rates.ucb_radius): {same}. At the largest sample count "
          f"n = T of each horizon of sec: experiments the radius is " + ", ".join(f"T={T}: {v:.3f}" for T, v in nT)
          + "; W1 between laws on [0, 1] (the paper's Bernoulli arms) is at most 1, so the confidence sets contain "
          "every arm law at every t <= T. The radius drops below 1 only for n >= "
          + ", ".join(f"{m} (T={T})" for T, m in n_needed) + "; 512/sqrt(n) alone is >= 1 for n <= 262144")
    return CheckResult(c.id, c.claim, "radius < 1 (informative)", ", ".join(f"{v:.3f} at n=T={T}" for T, v in nT),
                       "vacuous" if vac else "verified", "symbolic", ev)
