"""``lemma:probability of E3``: P(E3) <= T((2/T^2 + 1)^K - 1), E3 = {exists t in [T_0(eps), T]: OPT~_t != OPT}.

What is checked (each from the printed data: the bound and the constant of the set Q that defines T_0(eps)):

1. Arithmetic (exact): the printed bound is at least 2K/T (K = 1..8 symbolically: the difference times T^(2K-1)
   has non-negative coefficients; and on a grid of (T, K)), so it dominates the union bound over arms *and sample
   sizes*: P(exists t, i: F_i not in C_t(i)) <= sum_i sum_{n <= T} P(||F_{i,n} - F_i||_W > radius(n)) <= K T (2/T^2)
   = 2K/T, using lemma: concentration at y = radius(n) (exponent exactly 2 log T).  The printed proof instead uses
   eq:probi, an *equality* sum_S P(F_i not in C_T(i), i in S) = (2/T^2 + 1)^K - 1, which needs independent events of
   probability exactly 2/T^2 at a fixed sample size; tau_T(i) is random, so the per-arm bound at a random time is
   2/T, not 2/T^2.  The conclusion survives through the (i, n) union above.
2. The step eq:UCB_UB10 (t >= T_0(eps) and E0 imply OPT~ = OPT): F and the optimistic F~ are both within the
   radius r of the empirical law, so ||F~ - F||_W <= 2r (triangle inequality), attained for Bernoulli laws; the
   proof (eq:E3_1) uses r.  With the radius' prefactor c (16, read off ``rates.ucb_radius``) the proof's own route
   (a*(i)^q <= 1, then a union over the K arms at threshold Delta_min/(2 K L)) would need the constant k of Q to be
   at most 1/(2c).  The conclusion needs less: keeping the factors the proof drops, sum_i a*(i)^q (2 r_i)^q <=
   K^(1-q) (2 c k)^q Delta_min/(2 K L) = (2 c k/K)^q Delta_min/(2L), which stays within Delta_min/(2L) iff
   k <= K/(2c) — for every K >= 2 iff k <= 1/c (equality in the chain only at K = 2 with every bound attained, a
   boundary case; ``theorem:UCB upper bound#step:eq:E3_1`` finds no state where the event occurs).  The printed
   constant is compared with 1/c; the evidence gives both values.
3. At the paper's constants the radius is >= 1 for tau <= T < 4e5 and W1 between laws on [0, 1] is <= 1, so
   E0 holds surely, P(E0^c) = 0 exactly, and T_0(eps) is far beyond any horizon: E3 is empty and the bound
   holds trivially there.  A Monte Carlo of P(E3) at a smaller radius would test a different algorithm (lemma:
   concentration no longer gives 2/T^2), so none is reported as evidence for the lemma.
"""

from __future__ import annotations

import math

import sympy as sp

from functools import lru_cache

from rsb_theory.expressions import to_sympy
from rsb_theory.rates import T_of_eps, ucb_radius
from rsb_theory.rates import T as T_sym
from rsb_theory.rates import tau as tau_sym

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "lemma:probability of E3"
_T, _K = sp.symbols("T K", positive=True)
#: (T, K) at which the printed bound is compared with 2K/T numerically.
GRID = tuple((T, K) for T in (2, 10, 10**3, 10**5, 10**7) for K in (1, 2, 6, 20))


def printed_bound(T: int, K: int) -> float:
    """T((2/T^2 + 1)^K - 1), evaluated without cancellation (expm1/log1p)."""
    return T * math.expm1(K * math.log1p(2.0 / T**2))


@lru_cache(maxsize=None)
def arithmetic_ok(bound_text: str = paper_claims.E3_BOUND) -> tuple[bool, str]:
    """The printed bound is >= 2K/T: exactly for K = 1..8 (coefficients of the difference times T^(2K-1)), and at
    :data:`GRID` (mpmath, 50 digits)."""
    bound = to_sympy(bound_text, "bound", {"T": _T, "K": _K})
    rows = []
    for K in range(1, 9):
        diff = sp.expand(sp.expand(bound.subs(_K, K) - 2 * K / _T) * _T ** (2 * K - 1))
        numer, den = sp.fraction(sp.together(diff))
        coeffs = sp.Poly(sp.expand(numer), _T).coeffs() if numer.has(_T) else [numer]
        rows.append(all(c >= 0 for c in coeffs) and bool(den.is_positive is not False))
    f = sp.lambdify((_T, _K), bound * _T / (2 * _K) - 1, "mpmath")
    import mpmath

    with mpmath.workdps(50):  # the ratio minus one is 0 for K = 1: exact up to the working precision
        grid_ok = all(f(mpmath.mpf(T), K) >= -mpmath.mpf(10) ** -40 for T, K in GRID)
    return all(rows) and grid_ok, (f"{bound_text} - 2K/T: non-negative coefficients (times T^(2K-1)) for K = 1..8: "
                                   f"{all(rows)}; >= 0 at {len(GRID)} (T, K) up to T = 1e7, K = 20: {grid_ok}")


def radius_prefactor() -> sp.Expr:
    """c in radius = c (sqrt(2 e log T) + 32)/sqrt(tau) (eq:UCB_confidence_sets, from ``rates.ucb_radius``)."""
    return sp.simplify(ucb_radius(tau_sym) * sp.sqrt(tau_sym) / (sp.sqrt(2 * sp.E * sp.log(T_sym)) + 32))


def triangle_example(r: float = 0.1, p: float = 0.5) -> float:
    """Bernoulli: F = Bern(p), F_hat = Bern(p + r), F~ = Bern(p + 2r): both within r of F_hat; W1(F~, F) = 2r."""
    return abs((p + 2 * r) - p)


def paper_T0(eps: float, rho: float, Delta_min: float, K: int, L: float, q: float) -> int:
    return T_of_eps(eps, rho, Delta_min, K, L, q).T0


def check(claim: Claim) -> CheckResult:
    bound_text, q_text = claim.printed
    ok, arith = arithmetic_ok(bound_text)
    q_const = to_sympy(q_text, "Q constant")
    factor = sp.nsimplify(triangle_example() / 0.1)  # ||F~ - F||_W / r at r = 0.1 (Bernoulli, attained)
    route, needed = needed_constants()
    slack_ok, slack = simplex_power_sums()
    step_ok = bool(q_const <= needed) and slack_ok
    status = decide(holds=ok and step_ok, repair=f"T_0(eps) defined with {needed} in Q" if ok and not step_ok else None)
    rad = float(ucb_radius(sp.Integer(300_000)).subs(T_sym, 300_000))
    d = triangle_example()
    # T_0 for the experiments' instance with a generous gap (Delta_min = 0.01, eps = 0.05, K = 2, L = 1, q = 1)
    T0 = paper_T0(0.05, 0.1, 0.01, 2, 1.0, 1.0)
    ev = (f"(1) {arith}; with lemma: concentration at y = radius(n) (exponent = 2 log T exactly) the union over arms "
          f"and sample sizes n <= T gives P(exists t, i: F_i not in C_t(i)) <= 2K/T <= the printed bound (e.g. "
          f"T = 1e5, K = 2: {num(printed_bound(100_000, 2), 6)} >= {num(4 / 100_000, 6)}).  The proof's eq:probi is stated as "
          f"an equality and treats tau_T(i) as fixed (per-arm 2/T^2); at a random sample size the per-arm bound is "
          f"2/T.  (2) eq:E3_1 bounds ||F~_i - F_i||_W by the radius r, but both laws are only within r of the "
          f"empirical law: Bernoulli example W1 = {num(d, 2, 'f')} = {factor} r at r = 0.1; with the radius prefactor "
          f"{radius_prefactor()} the proof's route (a*(i)^q <= 1, a union over arms at Delta_min/(2KL)) would need at "
          f"most {route} in Q, but the factors it drops leave the slack: max of sum_i a(i)^q over the simplex = "
          f"K^(1-q) ({slack}), so sum_i a*(i)^q (2 r_i)^q <= (2 c k/K)^q Delta_min/(2L) and the "
          f"conclusion needs k <= K/(2c) for every K >= 2, i.e. at most {needed} in Q (equality only at K = 2 with "
          f"every bound attained), printed {q_text}: {step_ok}.  (3) At the "
          f"paper's constants radius(tau) >= {num(rad, 2, 'f')} > 1 even at tau = T = 3e5, so E0 holds surely, and T_0(eps) = "
          f"{num(T0, 3)} for a generous instance (eps = 0.05, Delta_min = 0.01, K = 2, L = q = 1, rho = 0.1): E3 is empty "
          f"at every horizon of the experiments, P(E3) = 0 <= bound trivially.  Not checkable by simulation at the "
          f"printed constants (T_0 is astronomically large).")
    derived = ("holds via a union over (arm, sample size) (2K/T <= printed)"
               + (f"; T_0(eps) with {q_text} in Q suffices only through the factors eq:E3_1 drops (its own route "
                  f"needs {route})" if step_ok else f" if T_0(eps) has at most {needed} in Q")
               + "; eq:probi as printed is not valid")
    return CheckResult(ID, f"P(E3) <= {bound_text}" + ("" if q_text == paper_claims.Q_CONSTANT else
                                                        f" with {q_text} in the set Q defining T_0(eps)"),
                       paper_claims.SAMPLING_CLAIMS[ID] if bound_text == paper_claims.E3_BOUND else bound_text,
                       derived, status, "symbolic", ev)


#: The numbers of arms the slack of eq:E3_1 is computed for (the constant needed is K/(2c), smallest at K = 2).
ARMS = (2, 3, 4, 5, 6)
#: Hölder exponents of the numeric part of the sweep: the edges of (0, 1] and between (the paper's families reach any
#: q in (0, 1]); the exact part is symbolic in q.
Q_SWEEP = (sp.Rational(1, 100), sp.Rational(1, 10), sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(3, 4),
           sp.Rational(99, 100), sp.Integer(1))


@lru_cache(maxsize=None)
def simplex_power_sums(draws: int = 2000, seed: int = 20250316) -> tuple[bool, str]:
    """max of sum_i a(i)^q over the simplex is K^(1-q) (concavity of x^q: attained at the uniform point), for every
    K >= 2 and q in (0, 1]: the uniform point gives it exactly (symbolic in K and q), and ``draws`` seeded Dirichlet
    points per K of :data:`ARMS` and q of :data:`Q_SWEEP` never exceed it; (whether both hold, the text)."""
    import numpy as np

    Ks, qs = sp.Symbol("K", positive=True, integer=True), sp.Symbol("q", positive=True)
    ok = sp.simplify(sp.powsimp(Ks * (1 / Ks) ** qs - Ks ** (1 - qs), force=True)) == 0
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(3,)))
    worst_ratio = 0.0
    for K in ARMS:
        pts = rng.dirichlet(np.full(K, 0.5), size=draws)
        for q in Q_SWEEP:
            ratio = float(np.max(np.sum(pts ** float(q), axis=1))) / float(K ** (1 - q))
            worst_ratio = max(worst_ratio, ratio)
    ok = ok and worst_ratio <= 1 + 1e-12
    return ok, (f"the uniform point gives K (1/K)^q = K^(1-q) for every K and q (SymPy); K = {ARMS[0]}..{ARMS[-1]}, "
                f"q in {[str(q) for q in Q_SWEEP]}: {draws} seeded Dirichlet points per K (seed {seed}) reach at most "
                f"{num(worst_ratio, 4, 'f')} of it: {ok}")


def needed_constants() -> tuple[sp.Expr, sp.Expr]:
    """(the constant of Q the proof's own route needs, 1/(2c); the one its conclusion needs, min_K K/(2c) = 1/c),
    with c the radius prefactor and 2 the triangle factor (:func:`triangle_example`)."""
    factor = sp.nsimplify(triangle_example() / 0.1)
    c = radius_prefactor()
    return 1 / (c * factor), min(sp.Integer(K) / (c * factor) for K in ARMS)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    bound_text, q_text = claim.printed
    _route, needed = needed_constants()
    if result.status == "conditional":
        return [claim.reprinted((bound_text, str(needed)), f"T_0(eps) defined with {needed} in Q")]
    return [claim.reprinted((bound_text, str(2 * needed)), f"T_0(eps) defined with {2 * needed} in Q")]


#: The entry that judges the lemma with assumption:Holder as printed (Hölder on Xi only).
HOLDER_ID = f"{ID}#holder_xi"


def check_holder_xi(claim: Claim) -> CheckResult:
    """The lemma at the in-setting witness of :mod:`._holder_witness` (:func:`ucb_witness`): from the end of the
    forced exploration on (before T_0(eps)), the wrong grid point is the unique optimistic maximiser, so
    OPT~_t != OPT_eps at every t in [T_0(eps), T] unless an empirical mean strays; the printed bound is read from the
    claim and evaluated at the witness's T and K."""
    from dataclasses import replace

    from . import _holder_witness as hw
    from . import _steps
    from ._steps import HOLDER_CAUSE
    from ..verdict import decide

    bound_text, _q = claim.printed
    w = hw.ucb_witness()
    K = len(hw.UCB_MEANS)
    bound = float(sp.N(to_sympy(bound_text, "bound", {"T": sp.Integer(w.T), "K": sp.Integer(K)}), 30))
    p_e3 = 1 - 10 ** w.stray_log10 if w.tracks_wrong else 0.0
    on_xi = _steps.holder_on_xi_only(claim)
    counter = on_xi and p_e3 > bound
    at_uses, where = hw.tables_hold_everywhere()
    ev = (hw.describe_ucb(w) + f".  T_0(eps) = {w.T0} >= K n = {K * w.n} (the end of the exploration), so E_3,T "
          f"(some t in [T_0(eps), T] with OPT~_t != OPT) has probability >= {num(p_e3, 6)} against the printed "
          f"{bound_text} = {num(bound, 4)} at T = {w.T}, K = {K}.  "
          + ("The lemma is false with Hölder continuity on Xi only: its proof (eq:E3_1, eq:UCB_UB9) applies eq:Holder "
             "to the optimistic laws, outside Xi." if counter else
             "The claim assumes Hölder continuity on every law, which the witness lacks: it is excluded." if not on_xi
             else "The witness stays below the bound.")
          + f"  The repair holds at the paper's uses: {at_uses} ({where}).")
    status = decide(holds=not counter, repair=hw.REPAIR if counter else None, repair_at_uses=at_uses)
    res = CheckResult(claim.id, f"P(E3) <= {bound_text} with assumption:Holder as printed (U_h Hölder (q, L) on Xi)",
                      paper_claims.SAMPLING_CLAIMS[ID] if bound_text == paper_claims.E3_BOUND else bound_text,
                      (f"P(E3) >= {num(p_e3, 6)} > {num(bound, 4)} at the witness with Hölder continuity on Xi only"
                       if counter else "holds (witness excluded)"), status, "numeric", ev)
    return replace(res, condition=hw.REPAIR, condition_at_uses=at_uses, cause=HOLDER_CAUSE) \
        if status == "conditional" else res


def mutants_holder_xi(claim: Claim, result: CheckResult) -> list[Claim]:
    from . import _holder_witness as hw

    from . import _steps

    return [_steps.on_every_law(claim, hw.REPAIR)]


CLAIMS = claim_map(Claim(ID, (paper_claims.E3_BOUND, paper_claims.Q_CONSTANT), check, mutants),
                   Claim(HOLDER_ID, (paper_claims.E3_BOUND, paper_claims.Q_CONSTANT), check_holder_xi,
                         mutants_holder_xi))
