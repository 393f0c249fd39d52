"""``eq:meta_concentration`` (the display of ``lemma: concentration``): exact tails against the printed bound.

The display claims, for any policy, arm i and "y in R_+",

    P(||F_{i,t} - F_i||_W > y) <= 2 exp(-tau/(256 e) (y - 512/sqrt(tau))^2),   tau = tau_t(i) samples.

Route 1 (exact, this entry): for a two-point law on {0, a} with P(a) = p the
empirical CDF of tau samples is fixed by the count S ~ Bin(tau, p), and
||F_tau - F||_W = a |S/tau - p| (the CDF integral of ``lipwass2``), so the left
side is a binomial tail.  Every point of the sweep is rational -- p, y/a, and
tau a perfect square so that 512/sqrt(tau) is rational -- and the tail's
integer thresholds are found in exact arithmetic (a tie S = tau (p + y/a) is
not counted: the event is strict).  The tail is bracketed in log space
(:func:`log_tail`) and compared with the logarithm of the printed right side
(mpmath, no underflow).  The paper's setting is 1-sub-Gaussian laws on R_+
(``sec:setting``); a two-point law on {0, a} is 1-sub-Gaussian exactly when
a <= 2 (Hoeffding's lemma: variance proxy a^2/4), so a in {1, 2} spans the
two-point laws of the setting; p runs over the degenerate ends 0 and 1 (W1 = 0),
values near them, and the middle.

Route 2 (Monte Carlo): the frequencies of ``lemma: concentration#bound``'s
simulation (:func:`proofs_checks.checks.concentration.monte_carlo`) for its
Bernoulli laws are compared with the exact tails (evidence; the tests assert
the agreement).

The printed statement fails for y < 512/sqrt(tau): the square is still positive
there and the right side is tiny while the tail is not.  The repair is
``y >= 512/sqrt(tau)`` (or the positive part of y - 512/sqrt(tau)); it holds
where the paper uses the display: in ``eq:E1C``/``eq:E2C`` at tau = N(eps)/K and
y = (Delta_min/(2KL))^(1/q), where sqrt(N/K) = (2KL/Delta_min)^(1/q)(512 + 16
sqrt(e) s) (s^2 the logarithm of N(eps)) makes 512/sqrt(N/K) = y 512/(512 + 16
sqrt(e) s) < y identically (:func:`use_ratio`), and in the radius of
``eq:UCB_confidence_sets``, which is 512/sqrt(tau) plus a positive term.  Under
the repair the display is also implied, for laws of span at most a, by
W1 <= a sup|F_tau - F| and the Dvoretzky-Kiefer-Wolfowitz inequality
2 exp(-2 tau (y/a)^2) (Massart's constant), since 2 (y/a)^2 >= (y - 512/sqrt
tau)^2/(256 e) for a <= 2 -- the exact tails are the check, the inequality the
reason they pass with room.  "For any policy": the sweep reads tau as a fixed
sample size (how the proofs use it: tau = N/K for RS-ETC-M; RS-UCB-M's proof
takes a union over sample sizes, ``lemma:probability of E3``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy as sp
from scipy import stats

from rsb_theory.distortions import parse_expression
from rsb_theory.rates import N_eps
from rsb_theory.rates.symbols import Delta_min, K, L, q

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import decide

ID = "eq:meta_concentration"
#: Sample sizes tau: perfect squares, so 512/sqrt(tau) is rational; 512^2 = 262144 is where 512/sqrt(tau) = 1.
ROOTS = (1, 2, 3, 10, 100, 511, 512, 513, 1000, 2000, 10_000)
#: Spans a of the two-point laws {0, a} (1-sub-Gaussian iff a <= 2).
SPANS = (Fraction(1), Fraction(2))
#: P(X = a): the degenerate ends, values near them, and the middle.
PS = (Fraction(0), Fraction(1, 1000), Fraction(1, 10), Fraction(1, 2), Fraction(9, 10), Fraction(999, 1000),
      Fraction(1))
#: Thresholds y as fractions of the span a (y = 0 included: "y in R_+"), and as multiples of 512/sqrt(tau).
Y_OF_SPAN = (Fraction(0), Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2),
             Fraction(9, 10), Fraction(1))
Y_OF_C = (Fraction(1), Fraction(1001, 1000), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(4))
#: The lower end of y the display is stated for ("y in R_+"), and the one its proof needs.
Y_FROM_PRINTED, Y_FROM_NEEDED = "0", "512/sqrt(n)"

_n, _y = sp.symbols("n y", positive=True)


@lru_cache(maxsize=None)
def _log_bound(text: str):
    """log of a printed right side as a function of (n, y) (mpmath, exact rationals in)."""
    expr = parse_expression(text, {"n": _n, "y": _y})
    f = sp.lambdify((_n, _y), expr, "mpmath")

    def log_bound(n: int, y: Fraction) -> float:
        with mpmath.workdps(30):
            return float(mpmath.log(f(mpmath.mpf(n), mpmath.mpf(y.numerator) / y.denominator)))
    return log_bound


def _log_pmf(n: int, p: float, k: int) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
            + (n - k) * math.log1p(-p))


def _log_upper_tail(n: int, p: Fraction, k0: int) -> tuple[float, float]:
    """(lower, upper) bracket of log P(S >= k0), S ~ Bin(n, p), for k0 >= n p: the first term, and the first term
    over 1 - r with r = P(k0 + 1)/P(k0) (the ratios decrease in k); scipy's sf where it does not underflow."""
    if k0 > n:
        return -math.inf, -math.inf
    if k0 <= 0:
        return 0.0, 0.0
    pf = float(p)
    first = _log_pmf(n, pf, k0)
    r = (n - k0) * pf / ((k0 + 1) * (1 - pf))
    upper = first - math.log1p(-r) if r < 1 else 0.0
    sf = float(stats.binom.sf(k0 - 1, n, pf))
    if sf > 1e-250:  # scipy's value, far from underflow: the bracket is that value (to its rounding)
        return math.log(sf), math.log(sf)
    return first, min(upper, 0.0)


def log_tail(n: int, p: Fraction, y_over_a: Fraction) -> tuple[float, float]:
    """(lower, upper) bracket of log P(|S/n - p| > y/a), S ~ Bin(n, p), exact thresholds (strict inequality)."""
    if p in (0, 1):
        return -math.inf, -math.inf  # S/n = p surely: W1 = 0
    hi = n * (p + y_over_a)  # S > hi  <=>  S >= floor(hi) + 1
    lo = n * (p - y_over_a)  # S < lo  <=>  S <= ceil(lo) - 1  <=>  n - S >= n - ceil(lo) + 1
    k_hi = math.floor(hi) + 1
    k_lo = n - (math.ceil(lo) - 1)  # the lower tail of S is the upper tail of n - S ~ Bin(n, 1 - p)
    a = _log_upper_tail(n, p, k_hi)
    b = _log_upper_tail(n, 1 - p, k_lo)
    if y_over_a == 0:  # P(S != n p): 1, less the mass at n p when n p is an integer
        v = math.log1p(-math.exp(_log_pmf(n, float(p), int(n * p)))) if (n * p).denominator == 1 else 0.0
        return v, v
    return (float(mpmath.log(mpmath.exp(a[0]) + mpmath.exp(b[0]))),
            float(mpmath.log(mpmath.exp(a[1]) + mpmath.exp(b[1]))))


@lru_cache(maxsize=None)
def sweep() -> tuple[tuple, ...]:
    """Rows (tau, a, p, y, lower, upper log tail) over :data:`ROOTS` x :data:`SPANS` x :data:`PS` x the ys."""
    rows = []
    for root in ROOTS:
        n = root * root
        c = Fraction(512, root)
        for a in SPANS:
            ys = sorted({a * f for f in Y_OF_SPAN} | {c * f for f in Y_OF_C if c * f <= a})
            for p in PS:
                for y in ys:
                    lo, up = log_tail(n, p, y / a)
                    rows.append((n, a, p, y, lo, up))
    return tuple(rows)


def _from(y_from: str):
    low = sp.lambdify(_n, parse_expression(y_from, {"n": _n}), "math")
    return lambda n, y: float(y) >= low(n) * (1 - 1e-12) if y_from != "0" else True


def judged(bound_text: str, y_from: str) -> tuple[list, list, float]:
    """(violations, undecided, smallest log-margin where it holds) on the cases with y >= y_from(tau)."""
    lb = _log_bound(bound_text)
    inside = _from(y_from)
    bad, undecided, margin = [], [], math.inf
    for n, a, p, y, lo, up in sweep():
        if not inside(n, y):
            continue
        b = lb(n, y)
        if lo > b:
            bad.append((n, a, p, y, lo, b))
        elif up > b:
            undecided.append((n, a, p, y, up, b))
        elif up > -math.inf:
            margin = min(margin, b - up)
    return bad, undecided, margin


def use_ratio() -> sp.Expr:
    """(512/sqrt(N/K)) / y at N(eps) of eq:number of samples main paper and y = (Delta_min/(2KL))^(1/q), with the
    square root of N(eps)'s logarithm written s (> 0): 32/(32 + sqrt(e) s) = 512/(512 + 16 sqrt(e) s) < 1."""
    s = sp.Symbol("s", positive=True)
    N = N_eps()
    (log_term,) = N.atoms(sp.log)
    y = (Delta_min / (2 * K * L)) ** (1 / q)
    return sp.simplify(sp.powdenest(512 / sp.sqrt(N.subs(sp.sqrt(log_term), s) / K) / y, force=True))


def tie_mass(n: int, p: Fraction, y_over_a: Fraction) -> float:
    """P(|S/n - p| = y/a), S ~ Bin(n, p): the mass the strict event leaves out (exact thresholds)."""
    if p in (0, 1):
        return float(y_over_a == 0)  # S = n p surely
    ks = {k for k in (n * (p + y_over_a), n * (p - y_over_a)) if k.denominator == 1 and 0 <= k <= n}
    return sum(math.exp(_log_pmf(n, float(p), int(k))) for k in ks)


@lru_cache(maxsize=None)
def monte_carlo_agreement() -> tuple[int, int, float]:
    """(cells, agreeing, ties): the simulation of lemma: concentration#bound against the exact tails, on its
    Bernoulli laws.  A cell agrees when its frequency lies within 5 standard errors (plus 1/TRIALS) of
    [P(W1 > y), P(W1 >= y)]: the simulation computes W1 in floating point, so a tie |S/n - p| = y/a (a mass of
    S; e.g. n = 10, p = 1/2, y = 3/10) falls on either side by rounding; ``ties`` counts the cells with such a mass."""
    from .concentration import LAWS, TRIALS, monte_carlo

    law_p = {name: Fraction(probs[1]).limit_denominator(1000) for name, atoms, probs in LAWS if atoms == (0.0, 1.0)}
    cells, agree, ties = 0, 0, 0
    for name, n, y, freq in monte_carlo():
        if name not in law_p:
            continue
        yy = Fraction(y).limit_denominator(10 ** 6)
        strict = math.exp(log_tail(n, law_p[name], yy)[1])
        tie = tie_mass(n, law_p[name], yy)
        se = math.sqrt(max(strict, 1e-300) * (1 - min(strict, 1.0)) / TRIALS) + math.sqrt(tie / TRIALS) + 1 / TRIALS
        cells += 1
        ties += tie > 0
        agree += strict - 5 * se <= freq <= strict + tie + 5 * se
    return cells, agree, ties


def ratio_below_one(ratio) -> bool:
    """Is (512/sqrt(tau))/y < 1 identically at the ETC use (:func:`use_ratio`, a SymPy expression or a number)?"""
    try:
        return bool(sp.sympify(ratio) < 1)
    except TypeError:  # a symbolic ratio SymPy cannot order: not shown
        return False


def _fmt_case(n, a, p, y) -> str:
    return f"two-point law on {{0, {a}}} with P({a}) = {p}, tau = {n}, y = {y}"


def check(claim: Claim) -> CheckResult:
    text: str = claim.printed
    y_from = claim.assumes("y_from", Y_FROM_PRINTED)
    bad, undecided, margin = judged(text, y_from)
    needed_bad, needed_undecided, needed_margin = judged(text, Y_FROM_NEEDED)
    repair = f"y >= {Y_FROM_NEEDED.replace('n', 'tau')}" if bad and not needed_bad and not needed_undecided else None
    status = decide(holds=not bad and not undecided, repair=repair)
    rows = sweep()
    n_cases = sum(_from(y_from)(r[0], r[3]) for r in rows)
    claimed = "y in R_+" if y_from == Y_FROM_PRINTED else f"y >= {y_from.replace('n', 'tau')}"
    ratio = use_ratio()
    cells, agree, ties = monte_carlo_agreement()
    ev = (f"Exact binomial tails (two-point laws on {{0, a}}, a in {{1, 2}} -- the 1-sub-Gaussian two-point laws -- "
          f"P(a) in {{{', '.join(str(p) for p in PS)}}}, tau = m^2 for m in {ROOTS}, y from 0 to a including "
          f"multiples 1 to 4 of 512/sqrt(tau); thresholds in exact arithmetic, logs bracketed): for {claimed}, "
          f"{n_cases} cases, the tail exceeds the printed bound in {len(bad)}")
    if bad:
        # the smallest tau, a y > 0, the middle p first: the plainest counterexample
        n, a, p, y, lo, b = min(bad, key=lambda r: (r[0], r[3] == 0, abs(r[2] - Fraction(1, 2)), r[3], r[1]))
        ev += (f"; smallest: {_fmt_case(n, a, p, y)}: log P = {num(lo)} > log bound = {num(b)} (y < 512/sqrt(tau) = "
               f"{Fraction(512) / math.isqrt(n)}: the square is taken of a negative number)")
    ev += (f". For y >= 512/sqrt(tau) it exceeds the bound in {len(needed_bad)} cases (undecided: "
           f"{len(needed_undecided)}); the smallest log(bound) - log(tail) there is {num(needed_margin, 3)} (far above "
           f"rounding). Where the paper uses the display: in eq:E1C/eq:E2C at tau = N(eps)/K, "
           f"y = (Delta_min/(2KL))^(1/q), (512/sqrt(tau))/y = {ratio} < 1 identically (SymPy; s > 0 the square root of "
           f"the logarithm in N(eps)), and the radius of "
           f"eq:UCB_confidence_sets is 512/sqrt(tau) plus a positive term, so the repair holds wherever the display "
           "is used. Second route: the Monte Carlo of lemma: concentration#bound on its Bernoulli laws agrees "
           "with the "
           f"exact tails in {agree} of {cells} cells (within 5 standard errors of [P(W1 > y), P(W1 >= y)]; {ties} "
           "cells have a mass at |S/tau - p| = y/a, which floating point puts on either side)")
    if undecided:
        ev += f"; {len(undecided)} cases undecided by the log bracket"
    derived = ("false for y < 512/sqrt(tau); holds (exact tails) for y >= 512/sqrt(tau)" if bad else
               f"holds (exact tails) for {claimed}")
    from .concentration import condition_at_uses

    at_uses, _where = condition_at_uses()  # the same margins, simplified and evaluated on a grid (the second route)
    return CheckResult(ID, f"P(||F_tau - F||_W > y) <= 2 exp(-tau/(256 e) (y - 512/sqrt(tau))^2) for {claimed} "
                       "(the display of lemma: concentration)", text, derived, status, "numeric", ev,
                       impact="typo" if repair else None, uses=("lemma: concentration",),
                       condition_at_uses=bool(repair) and ratio_below_one(ratio) and at_uses)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """The repair stated (y >= 512/sqrt tau): verified; the constant 256 e replaced by 1/8 (a bound smaller than
    Hoeffding's where y is just above 512/sqrt(tau))."""
    out = [claim.assuming("y_from", Y_FROM_NEEDED, f"the bound claimed for y >= {Y_FROM_NEEDED} only")]
    stronger = claim.printed.replace("256*e", "1/64")
    out.append(claim.assuming("y_from", Y_FROM_NEEDED, "y >= 512/sqrt(n) with 256 e replaced by 1/64")
               .reprinted(stronger, "y >= 512/sqrt(n) with 256 e replaced by 1/64 (64 tau (y - 512/sqrt tau)^2)"))
    return out


CLAIMS = claim_map(Claim(ID, paper_claims.CONCENTRATION_BOUND, check, mutants))
