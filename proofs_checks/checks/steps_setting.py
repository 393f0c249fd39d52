"""Claims of the main text (sections ``sec:introduction`` .. ``sec: experiments``) that are not a table cell or a
theorem's bound.

* ``sec:introduction#mean`` -- with h(u) = u, U_h of ``eq:wang_def`` is the mean (signed supports too);
* ``eq:U`` -- the per-step average of arm laws is the mixture with weights tau_t(i)/t;
* ``eq:regret_decomposition`` -- eq:regret = Delta(eps) + Rbar(T) by the two definitions;
* ``eq:number of samples main paper#scaling`` -- N(eps) = O(log T), M(eps) = O(1);
* ``theorem:UCB upper bound#sketch.E3`` -- the proof sketch's T((1/T^2 + 1)^K - 1) against the bound the
  appendix proves (``lemma:probability of E3``);
* ``sec: experiments#closed_form`` -- V(alpha) = <alpha, p>(1 - <alpha, p>) for Gini and Bernoulli arms.

No probability statement of this range is checkable by Monte Carlo: the sketch's bound concerns RS-UCB-M after
T(eps), which is astronomically large at the paper's constants (``lemma:probability of E3``); it is compared with
the bound its appendix proves instead.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy import stats

from rsb_theory.distortions import U, get, parse_expression
from rsb_theory.expressions import to_sympy
from rsb_theory.discretization import discrete_optimum
from rsb_theory.rates.bounds import delta_error_bound
from rsb_theory.rates.constants import N_eps, N_eps_value, N_factors
from rsb_theory.rates.symbols import K as K_sym
from rsb_theory.rates.symbols import T as T_sym
from rsb_theory.rates.symbols import Delta_min as Delta_min_sym
from rsb_theory.rates.symbols import beta as beta_sym
from rsb_theory.rates.symbols import eps as eps_sym
from rsb_theory.rates.symbols import q as q_sym
from rsb_theory.rates.symbols import r as r_sym
from rsb_theory.riskmetric import finite_support_symbolic, mixture_of_bernoullis, mixture_value, quadrature, \
    step_cdf, wang_integral

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import compare, decide, worst
from . import _holder as hl
from . import _steps_a as st
from ..numfmt import num, resid
from ..causes import because

SEED = 20250316
IDS = ("sec:introduction#mean", "eq:U", "eq:regret_decomposition", "eq:number of samples main paper#scaling",
       "theorem: ETC upper bound#choosing_eps", "theorem:UCB upper bound#sketch.E3", "sec: experiments#closed_form")
#: Numbers of arms of the sweeps.
KS = (2, 3, 4, 5, 6)


# --- sec:introduction#mean ---------------------------------------------------------------------------------------

#: A law with atoms of both signs for the direct integral of eq:wang_def, and continuous laws for quadrature.
SIGNED_ATOMS = (sp.Integer(-2), sp.Rational(1, 2), sp.Integer(3))
SIGNED_MASSES = (sp.Rational(1, 5), sp.Rational(1, 2), sp.Rational(3, 10))
CONTINUOUS = (("norm(0.3, 1)", stats.norm(0.3, 1)), ("expon(-1, 2)", stats.expon(-1, 2)))


def _mean(claim: Claim) -> CheckResult:
    c = claim.printed
    h = parse_expression(c.printed)
    xs = sp.symbols("x1:4", real=True)
    w = sp.symbols("w1:3", positive=True)
    probs = (w[0], w[1], 1 - w[0] - w[1])
    sym = sp.simplify(finite_support_symbolic(h, xs, probs) - sum(x * p for x, p in zip(xs, probs)))
    direct = sp.simplify(wang_integral(h, step_cdf(SIGNED_ATOMS, SIGNED_MASSES))
                         - sum(x * p for x, p in zip(SIGNED_ATOMS, SIGNED_MASSES)))
    f = sp.lambdify(U, h, "numpy")
    quad = [(name, quadrature(lambda u: np.asarray(f(u), float) * np.ones_like(u), law), float(law.mean()))
            for name, law in CONTINUOUS]
    quad_ok = all(abs(a - b) < 1e-7 for _n, a, b in quad)
    ok = sym == 0 and direct == 0 and quad_ok
    return CheckResult(c.id, c.claim, f"h(u) = {c.printed} gives E[X]", "U_h = E[X]" if ok else "U_h != E[X]",
                       decide(holds=ok), "symbolic",
                       f"h(u) = {c.printed}: U_h - E[X] for three symbolic atoms x1 <= x2 <= x3 (sign-free step form of "
                       f"eq:wang_def) = {sym}; eq:wang_def integrated for atoms {list(SIGNED_ATOMS)} with masses "
                       f"{list(SIGNED_MASSES)} (negative part included) minus the mean = {direct}; quadrature: "
                       + ", ".join(f"{n}: U_h = {num(a, 6, 'f')}, mean {num(b, 6, 'f')}" for n, a, b in quad))


# --- eq:U ----------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _sequences() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(K, action sequence A_1..A_t) in increasing size (K, then t): t in 1, 2, 7, 30; one seeded generator."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED))
    return tuple((K, tuple(int(a) for a in rng.integers(1, K + 1, t))) for K in KS for t in (1, 2, 7, 30))


def _eq_U(claim: Claim) -> CheckResult:
    c = claim.printed
    tau_s, t_s = sp.Symbol("tau", positive=True), sp.Symbol("t", positive=True)
    weight = to_sympy(c.printed, "weight", {"tau": tau_s, "t": t_s})
    bad = []
    for K, seq in _sequences():
        t = len(seq)
        avg = [sum(Fraction(1, t) for a in seq if a == i) for i in range(1, K + 1)]
        counts = [seq.count(i) for i in range(1, K + 1)]
        printed_w = [weight.subs({tau_s: n, t_s: t}) for n in counts]
        if any(sp.Rational(a.numerator, a.denominator) != b for a, b in zip(avg, printed_w)):
            bad.append((K, seq, avg, printed_w))
    # the same mixture law has the same U_h: an illustration on random finite-support arms (Gini)
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(1,)))
    support = np.sort(rng.uniform(0, 3, 5))
    arms = rng.dirichlet(np.ones(5), size=3)
    seq = (1, 3, 3, 2, 1, 3, 3)
    a = np.array([seq.count(i) / len(seq) for i in (1, 2, 3)])
    per_step = sum(np.eye(3)[x - 1] for x in seq) / len(seq)  # sum_s e_{A_s} / t
    v_step = float(mixture_value(get("gini").numeric, support, arms, per_step))
    v_tau = float(mixture_value(get("gini").numeric, support, arms, a))
    ok = not bad
    ev = (f"seed {SEED}: {len(_sequences())} action sequences (K = {KS[0]}..{KS[-1]}, t in 1, 2, 7, 30), exact "
          f"fractions: sum_s 1{{A_s = i}}/t against the printed weight {c.printed} with tau = tau_t(i); the two "
          f"mixtures are the same law, so U_h agrees (Gini, 3 arms on 5 atoms, A = {seq}: {num(v_step, 6, 'f')} and "
          f"{num(v_tau, 6, 'f')})")
    if bad:
        K, seq, avg, pw = bad[0]  # the sequences are generated in increasing size: the first is the smallest
        ev += (f"; smallest counterexample: K = {K}, A = {seq}: weights {[str(x) for x in avg]} vs printed "
               f"{[str(x) for x in pw]}")
    return CheckResult(c.id, c.claim, c.printed, "tau_t(i)/t" if ok else "differs", decide(holds=ok), "symbolic", ev)


# --- eq:regret_decomposition ---------------------------------------------------------------------------------------

def _decomposition(claim: Claim) -> CheckResult:
    c = claim.printed
    V_alpha, V_a, EV = sp.symbols("V_alpha V_a EV", real=True)
    regret = V_alpha - EV  # eq:regret
    parts = {"Delta": V_alpha - V_a, "Rbar": V_a - EV}  # eq:regret_decomposition1, eq:regret_decomposition2
    diff = sp.simplify(to_sympy(c.printed, "decomposition", parts) - regret)
    return CheckResult(c.id, c.claim, f"R = {c.printed}", f"R - ({c.printed}) = {diff}", decide(holds=diff == 0),
                       "symbolic", f"with V_alpha = V(alpha*, F), V_a = V(a*, F), EV = E[V(tau_T/T, F)]: eq:regret is "
                       f"V_alpha - EV, eq:regret_decomposition1 gives Delta = V_alpha - V_a and eq:regret_decomposition2 "
                       f"Rbar = V_a - EV; R - ({c.printed}) simplifies to {diff}")


# --- eq:number of samples main paper#scaling -----------------------------------------------------------------------

def _scaling(claim: Claim) -> CheckResult:
    c = claim.printed
    rate = to_sympy(c.printed, "rate", {"T": T_sym})
    N = N_eps()
    lim = sp.limit(N / rate, T_sym, sp.oo)
    lim_log = sp.limit(N / sp.log(T_sym), T_sym, sp.oo)
    finite = bool(lim.is_finite) and bool(lim.is_positive)
    # N(eps) = O(rate) holds when the limit is finite; a rate growing faster than log T (limit 0) is loose
    status = decide(holds=bool(lim.is_finite), sharper=bool(lim == 0))
    return CheckResult(c.id, c.claim, f"N(eps) = O({c.printed})", "N(eps) = Theta(log T), M(eps) -> " + str(lim_log),
                       status, "symbolic",
                       f"N(eps) = {N} (rsb_theory.rates.constants.N_eps, the printed formula); lim_(T->oo) N(eps)/"
                       f"({c.printed}) = {lim} ({'finite and positive' if finite else 'not finite and positive'}); "
                       f"lim N(eps)/log T = {lim_log}: M(eps) = N(eps)/log T tends to this constant, O(1)")


# --- theorem: ETC upper bound#choosing_eps ------------------------------------------------------------------------

#: The instance of the numeric illustration (solitary optimum, beta = 1 by lemma:beta_lemma_monotone) and its eps.
CHOOSING_INSTANCE = ("mean", (0.3, 0.8))
CHOOSING_EPS = (1 / 10, 1 / 20, 1 / 40, 1 / 80)


@lru_cache(maxsize=1)
def eps_exponents() -> tuple[sp.Expr, sp.Expr]:
    """(exponent of eps in the bound of lemma:Delta_error, exponent of eps in N(eps) with Delta_min(eps) = c eps^beta
    (the definition of beta)), each as lim eps d/d eps log(.) as eps -> 0, factor by factor of N(eps)."""
    c, k = sp.Symbol("c", positive=True), sp.Symbol("k", positive=True)
    bound = delta_error_bound()
    e_delta = sp.simplify(eps_sym * sp.diff(sp.expand_log(sp.log(bound), force=True), eps_sym))
    e_N = sp.Integer(0)
    for base, ex in N_factors():
        b = sp.sympify(base).doit().subs({Delta_min_sym: c * eps_sym ** beta_sym, K_sym: k + 1})  # K = k + 1 >= 2
        d = sp.simplify(eps_sym * sp.diff(sp.expand_log(sp.log(b), force=True), eps_sym))
        e_N += ex * (sp.limit(d, eps_sym, 0) if eps_sym in d.free_symbols else d)
    return e_delta, sp.simplify(e_N)


def _choosing_eps(claim: Claim) -> CheckResult:
    c = claim.printed
    parts = hl.parse_summary(c.printed)
    syms = {"q": q_sym, "r": r_sym, "beta": beta_sym}
    e_delta, e_N = eps_exponents()
    printed_delta, printed_N = to_sympy(parts["Delta"], "exponent", syms), to_sympy(parts["N"], "exponent", syms)
    ok_delta, ok_N = sp.simplify(e_delta - printed_delta) == 0, sp.simplify(e_N - printed_N) == 0
    key, p = CHOOSING_INSTANCE
    d = get(key)
    rows = []
    for e in CHOOSING_EPS:
        opt = discrete_optimum(d, p, e, "etc")
        rows.append((e, float(opt.Delta), N_eps_value(len(p), 10**5, e, 1.0, 1.0, float(opt.Delta_min))))
    slope = float(np.polyfit(np.log([r[0] for r in rows]), np.log([r[2] for r in rows]), 1)[0])
    holds = ok_delta and ok_N
    ev = (f"exponent of eps: in lemma:Delta_error's bound L (KW)^r (eps/2)^r: {e_delta} (printed {parts['Delta']}); "
          f"in N(eps) (eq:number of samples main paper) with Delta_min(eps) = c eps^beta (the definition of beta): "
          f"{e_N}, the log factor contributing 0 (printed {parts['N']}); the printed exponents hold only where "
          f"{sp.Eq(e_delta, printed_delta)} and {sp.Eq(e_N, printed_N)}.")
    if not holds:
        ev += (f" Smallest counterexample: {key} (q = r = beta = 1, lemma:beta_lemma_monotone), p = {p}, K = 2, ETC grid, "
               f"T = 1e5, L = q = 1: eps = " + ", ".join(f"{num(e, 6)}: Delta = {num(dl, 3)}, N = {num(n)}" for e, dl, n in rows)
               + f"; log-log slope of N(eps) {num(slope, 3, 'f')} (printed {parts['N']}); Delta(eps) = 0 wherever alpha* = e_2 is "
               "a grid point, not proportional to eps")
    return CheckResult(c.id, c.claim, c.printed, f"Delta={e_delta}; N={e_N}", decide(holds=holds), "symbolic", ev)


# --- theorem:UCB upper bound#sketch.E3 -----------------------------------------------------------------------------

#: (T, K) at which the sketch's bound is compared with the appendix's.
E3_POINTS = tuple((T, K) for K in (1, 2, 6) for T in (2, 10, 10**3, 10**5))


@because("concentration_adaptive")
def _sketch_E3(claim: Claim) -> CheckResult:
    """The sketch's bound on P(E3) against the one the appendix proves (lemma:probability of E3).

    A bound on a probability that is *smaller* than what the proof gives does not follow from the proof; it is false
    only with a counterexample, an instance whose P(E3) exceeds it.  None exists in the proof's context: at the radius
    of eq:UCB_confidence_sets each arm misses its confidence set with probability at most 1/T^2 (laws on [0, 1], DKW;
    the bound eq:UCB_f2's check computes), so P(E3) <= T((1/T^2 + 1)^K - 1), the sketch's value.  Hence a gap in the
    sketch, not a false statement (``decide(holds=True, follows=False)``).
    """
    from .steps_ucb import _miss_in_context

    c = claim.printed
    syms = {"T": sp.Symbol("T", positive=True), "K": sp.Symbol("K", positive=True)}
    sketch = to_sympy(c.printed, "bound", syms)
    proven = to_sympy(paper_claims.E3_BOUND, "bound", syms)
    statuses, rows = [], []
    for T, K in E3_POINTS:
        pv, dv = sketch.subs({syms["T"]: T, syms["K"]: K}), proven.subs({syms["T"]: T, syms["K"]: K})
        statuses.append(compare(sp.nsimplify(pv), sp.nsimplify(dv), "smaller"))
        rows.append((T, K, float(pv), float(dv)))
    below = worst(*statuses) == "refuted"  # smaller than the proven bound somewhere: it does not follow
    misses = [_miss_in_context(T) for T in sorted({T for T, _K in E3_POINTS})]
    per_arm = all(ok for ok, _v in misses)
    # with each arm missing with probability <= 1/T^2, P(E3) <= T((1/T^2 + 1)^K - 1): the sketch's value holds there
    holds = not below or per_arm
    status = decide(holds=holds, follows=not below, sharper=worst(*statuses) == "loose")
    ratio = sp.limit(sketch / proven, syms["T"], sp.oo)
    T0, K0, p0, d0 = rows[0]
    ev = ("the sketch's bound against the one its appendix proves (lemma:probability of E3; that entry checks the "
          "derivation): " + ", ".join(f"(T={num(T, 6)}, K={K}) {num(p, 6)} vs {num(d, 6)}" for T, K, p, d in rows)
          + f"; ratio -> {ratio} as T -> oo")
    if below:
        ev += (f". The sketch states less than its proof gives, first at T = {T0}, K = {K0}: {num(p0, 6)} < "
               f"{num(d0, 6)}, so it does not follow from the appendix (which has 2/T^2 per arm).  No counterexample "
               "in context: at the radius of eq:UCB_confidence_sets, for laws on [0, 1] (W1 <= sup |F_hat - F|, DKW) "
               f"each arm misses with probability at most 10^({num(max(v for _ok, v in misses), 3)}) <= 1/T^2 at "
               f"every T of the sweep: {per_arm}, so P(E3) <= T((1/T^2 + 1)^K - 1), the sketch's value: a gap in the "
               "sketch (or a typo: 1/T^2 for 2/T^2), not a false statement")
    return CheckResult(c.id, c.claim, c.printed, f"{paper_claims.E3_BOUND} (lemma:probability of E3, the appendix's "
                       "proof)", status, "symbolic", ev)


# --- sec: experiments#closed_form ----------------------------------------------------------------------------------

#: Numbers of arms of the symbolic route (eq:wang_def integrated for a K-arm Bernoulli mixture).
SYMBOLIC_KS = (2, 3)


def _closed_form(claim: Claim) -> CheckResult:
    c = claim.printed
    d = get("gini")
    m = sp.Symbol("m", real=True)
    formula = to_sympy(c.printed, "V", {"m": m})
    sym = []
    for K in SYMBOLIC_KS:
        expr, alphas, ps = mixture_of_bernoullis(d, K)
        mean = sum(alphas[i] * ps[i] for i in range(K - 1)) + (1 - sum(alphas[:K - 1])) * ps[K - 1]
        sym.append((K, sp.expand(expr - formula.subs(m, mean)) == 0))
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(2,)))
    f = sp.lambdify(m, formula, "numpy")
    worst_err = 0.0
    for K in KS:
        p = rng.uniform(0, 1, K)
        alpha = rng.dirichlet(np.ones(K), size=50)
        arms = np.stack([1 - p, p], axis=1)
        v = mixture_value(d.numeric, [0.0, 1.0], arms, alpha)
        worst_err = max(worst_err, float(np.max(np.abs(v - f(alpha @ p)))))
    ok = all(s for _K, s in sym) and worst_err < 1e-12
    return CheckResult(c.id, c.claim, f"V = {c.printed}", "V = m*(1 - m)" if ok else "differs", decide(holds=ok),
                       "symbolic", f"eq:wang_def integrated for a K-arm Bernoulli mixture (alpha_K eliminated) minus "
                       f"{c.printed} at m = <alpha, p> expands to 0: "
                       + ", ".join(f"K={K}: {s}" for K, s in sym)
                       + f"; numeric (seed {SEED}, K = 2..6, 50 mixtures each, step form of eq:wang_def): max "
                       f"|V - {c.printed}| = {resid(worst_err, 2)}")


CHECKS = {"theorem: ETC upper bound#choosing_eps": _choosing_eps, "sec:introduction#mean": _mean, "eq:U": _eq_U, "eq:regret_decomposition": _decomposition,
          "eq:number of samples main paper#scaling": _scaling, "theorem:UCB upper bound#sketch.E3": _sketch_E3,
          "sec: experiments#closed_form": _closed_form}
#: A mutant's printed value per claim (the verified ones): another h, a wrong weight, a wrong sum, a faster rate.
STRONGER = {"sec:introduction#mean": ("u**2", "another h"), "eq:U": ("tau/(t + 1)", "another weight"),
            "eq:regret_decomposition": ("Delta - Rbar", "another combination"),
            "eq:number of samples main paper#scaling": ("sqrt(log(T))", "a slower rate")}


def check(claim: Claim) -> CheckResult:
    return CHECKS[claim.id](claim)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if claim.id in STRONGER and result.status == "verified":
        text, why = STRONGER[claim.id]
        return [hl.reprint(claim, text, why)]
    if claim.id == "theorem: ETC upper bound#choosing_eps":
        e_delta, e_N = eps_exponents()
        derived = f"Delta={mutant_text(e_delta)}; N={mutant_text(e_N)}"
        return [hl.reprint(claim, derived, "the derived exponents")] if result.status == "refuted" else \
            [hl.reprint(claim, "Delta=2; N=-1/2", "other exponents")]
    if claim.id == "theorem:UCB upper bound#sketch.E3":
        if result.status == "gap":  # the proven bound printed: it follows
            return [hl.reprint(claim, paper_claims.E3_BOUND, "the appendix's bound (2/T^2 per arm)")]
        return st.mutants_by_status(claim, result, "smaller", paper_claims.E3_BOUND)
    return st.mutants_by_status(claim, result, "equal")


def mutant_text(value) -> str:
    return str(value).replace(" ", "")


CLAIMS = claim_map(*st.step_claims(IDS, check, mutants))
