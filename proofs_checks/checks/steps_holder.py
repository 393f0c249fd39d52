"""The labelled steps of the seven Hölder lemmas' proofs (each printed step an entry of its own).

For Bernoulli arms a mixture is Bern(p) with p = <alpha, p> and ||F - G||_W = |p_F - p_G|
(``lemma:lipschitz-wasserstein``); the steps are checked by their kind:

* ``U_h(F) = <formula>`` ("it can be easily verified"): the mixture CDF sum_i alpha_i Bern(p_i) is the CDF of
  Bern(<alpha, p>) (symbolic, K = 2..6), eq:wang_def integrated for Bern(p) equals the printed formula (SymPy,
  :func:`_steps_a.bernoulli_matches`), and numerically for K = 2..6 (seeded);
* factorisations (eq:LALL2_1, eq:LALL2): h(a) - h(b) minus the printed product simplifies to 0;
* a chain's last line "... <= C |p_F - p_G|^e = C ||F - G||_W^e": the W identity (symbolic) and the bound on a
  grid of (p_F, p_G) (a grid can refute a constant, never prove a smaller one);
* case steps on a region of (p_F, p_G): :func:`_holder.region_step`;
* case 2 of item 2 ("p* = ... is viable, U_h(F*) = v, U_h(F*) - U_h(G) = gap"): the oracle value on seeded
  instances of the case (K = 2..6) and the gap identity (exact, piece by piece);
* the displays eq:last_lemm_1_mean and eq:last_lemm_1_ES, which write ||F - G||_W for ||F* - G||_W;
* the mean-value step eq:dp_beforelast: a root p_M strictly between p_F and p_G on a grid;
* the remark "r = q is always a valid choice" (proof of ``lemma:PHT``, ``Appendix:Additinal Tables``): every
  registered h at the tables' parameters, on seeded instances and mixtures approaching the optimum.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import REGISTRY, U
from rsb_theory.expressions import to_sympy
from rsb_theory.profile import of
from rsb_theory.oracle.closed_form import alpha_star_bernoulli
from rsb_theory.riskmetric import P, bernoulli_cdf, mixture_value

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import SEVERITY, compare, decide, worst
from . import _holder as hl
from . import _steps_a as st
from ..numfmt import num, resid

SEED = 20250318
KS = (2, 3, 4, 5, 6)
#: Grid of (p_F, p_G) for the chain bounds (n x n points of [0, 1]^2).
GRID = 401
#: Distances t of the mixtures (1 - t) alpha* + t e_j approaching the optimum in the r = q check.
TOWARDS = tuple(np.geomspace(1e-6, 1, 25))

GINI, RTD, MM, IES, DP, QUAD, PHT = ("lemma:example_utility_Holder", "lemma:RTD", "lemma:mean_median_Holder",
                                     "lemma:inter_ES_Holder", "lemma:Dual_Power", "lemma:Quadratic", "lemma:PHT")
_a, _b = sp.symbols("a b", real=True)

#: id -> (kind, family key, arguments of the kind)
SPEC: dict[str, tuple] = {
    f"{GINI}#step:eq:lemma_5_def_gd": ("formula", "gini"),
    f"{GINI}#step:eq:LALL2_1": ("factor", "gini"),
    f"{GINI}#step:eq:last_lemma_2": ("bound", "gini", None),
    f"{GINI}#step:eq:Gini_case1": ("region", "gini", "solitary"),
    f"{GINI}#step:eq:LALL": ("case2", "gini"),
    f"{RTD}#step:eq:lemma_5_def": ("formula", "right_tail"),
    f"{RTD}#step:eq:LALL2": ("factor", "right_tail"),
    f"{RTD}#step:eq:last_lemma_rtd": ("bound", "right_tail", None),
    f"{RTD}#step:eq:LALL_1": ("case2", "right_tail"),
    f"{RTD}#step:eq:last_lemm_1_2": ("bound", "right_tail", "optimum"),
    f"{MM}#step:eq:lemma_5_def_mean": ("formula", "mean_median"),
    f"{MM}#step:eq:lemma_5_p_mean_1_MD": ("region", "mean_median", "same"),
    f"{MM}#step:eq:LALL_mean_MD": ("case2", "mean_median"),
    f"{MM}#step:eq:last_lemm_1_mean": ("typo", "mean_median", 1),
    f"{IES}#step:eq:lemma_5_p_mean_1": ("region", "inter_es", "same"),
    f"{IES}#step:eq:lemma_5_p_mean_2": ("region", "inter_es", "below_above"),
    f"{IES}#step:eq:lemma_5_p_mean_3": ("region", "inter_es", "above_below"),
    f"{IES}#step:eq:LALL_mean": ("case2", "inter_es"),
    f"{IES}#step:eq:last_lemm_1_ES": ("typo", "inter_es", 2),
    f"{DP}#step:eq:lemma_5_def_DP": ("formula", "dual_power"),
    f"{DP}#step:eq:dp_beforelast": ("mvt", "dual_power"),
    f"{DP}#step:eq:dp_final": ("bound", "dual_power", None),
    f"{QUAD}#step:eq:lemma_5_def_quadratic": ("formula", "quadratic"),
    f"{QUAD}#step:eq:quadratic_lastline": ("bound", "quadratic", None),
    f"{PHT}#step:r_equals_q": ("r_equals_q", None),
}
IDS = tuple(SPEC)
#: The middle expression and the region of (p_F, p_G) = (a, b) of each case step (p_F is F* for eq:Gini_case1).
REGIONS = {
    "solitary": (None, lambda A, B: ((A < 0.5) & (B <= A)) | ((A > 0.5) & (B >= A))),
    "same": (None, lambda A, B: ((A > 0.5) & (B > 0.5)) | ((A < 0.5) & (B < 0.5))),
    "below_above": (2 * (_a - 1 + _b), lambda A, B: (A < 0.5) & (B > 0.5)),
    "above_below": (2 * (1 - _a - _b), lambda A, B: (A > 0.5) & (B < 0.5)),
}


def sweep(key: str) -> tuple[tuple, ...]:
    """Frozen parameter values of a lemma's family: the tables' values (:func:`_steps_a.table_sweep`)."""
    return tuple(fp for _k, fp in st.table_sweep((key,)))


def _param_symbols(key: str) -> dict:
    return {p.name: p.symbol for p in REGISTRY[key].parameters}


# --- U_h(F) = formula ----------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def mixture_is_bernoulli(K: int) -> bool:
    """sum_i alpha_i CDF(Bern(p_i)) = CDF(Bern(<alpha, p>)) (alpha_K = 1 - sum of the others), exactly.

    Every CDF involved is constant on x < 0, on [0, 1) and on [1, oo) (``rsb_theory.riskmetric.bernoulli_cdf``),
    so the identity is decided at one point of each piece.
    """
    alphas, ps = sp.symbols(f"alpha1:{K + 1}", real=True), sp.symbols(f"p1:{K + 1}", real=True)
    x = sp.Symbol("x", real=True)
    w = list(alphas[:-1]) + [1 - sum(alphas[:-1])]
    mean = sum(wi * pi for wi, pi in zip(w, ps))
    diff = sum(wi * bernoulli_cdf(pi, x) for wi, pi in zip(w, ps)) - bernoulli_cdf(mean, x)
    return all(sp.expand(diff.subs(x, point)) == 0 for point in (-1, sp.Rational(1, 2), 2))


def _formula(claim: Claim, key: str) -> CheckResult:
    c = claim.printed
    syms = _param_symbols(key)
    rhs = to_sympy(c.printed, "formula", {"p": P, **syms})
    mix = all(mixture_is_bernoulli(K) for K in KS)
    ok, how, fail = st.bernoulli_matches(key, rhs)
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(1,)))
    err = 0.0
    for fp in sweep(key):
        d = st.dist(key, fp)
        f = sp.lambdify(P, rhs.subs({syms[n]: v for n, v in fp}), "numpy")
        for K in KS:
            p = rng.uniform(0, 1, K)
            alpha = rng.dirichlet(np.ones(K), size=20)
            v = mixture_value(d.numeric, [0.0, 1.0], np.stack([1 - p, p], 1), alpha)
            err = max(err, float(np.max(np.abs(v - np.asarray(f(alpha @ p), float)))))
    holds = mix and ok and err < 1e-12
    ev = (f"the mixture of K Bernoulli CDFs is the CDF of Bern(<alpha, p>) on every piece (symbolic, K = 2..6): {mix}; "
          f"eq:wang_def integrated for Bern(p) minus {c.printed}: identically 0 ({how}): {ok}; seed {SEED}: K = 2..6, "
          f"20 mixtures each, parameters {[dict(fp) for fp in sweep(key)]}: max |U_h - formula| = {resid(err, 2)}")
    if fail:
        ev += f"; counterexample: {st.tag(key, fail[0])} at p = {fail[1]}"
    return CheckResult(claim.id, c.claim, c.printed, c.printed if holds else "differs", decide(holds=holds),
                       "symbolic", ev)


# --- factorisations ------------------------------------------------------------------------------------------------

def _factor(claim: Claim, key: str) -> CheckResult:
    c = claim.printed
    a, b = sp.symbols("a b", nonnegative=True)
    h = REGISTRY[key].expression()
    printed = to_sympy(c.printed, "product", {"a": a, "b": b})
    diff = sp.simplify(h.subs(U, a) - h.subs(U, b) - printed)
    return CheckResult(claim.id, c.claim, c.printed, f"h(a) - h(b) - ({c.printed}) = {diff}", decide(holds=diff == 0),
                       "symbolic", f"h = {h}, a = p_F, b = p_G >= 0: h(a) - h(b) - ({c.printed}) simplifies to {diff}; "
                       "the next line x <= |x| = |y||z| for x = y z is immediate")


# --- a chain's last line -------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def w_identity() -> tuple[bool, float]:
    """||Bern(a) - Bern(b)||_W = |a - b|: the CDF integral symbolically, and numerically on a grid."""
    a, b, x = sp.symbols("a b x", real=True)
    t = sp.Symbol("t", positive=True)
    w1 = sp.integrate(sp.Abs(bernoulli_cdf(a, x) - bernoulli_cdf(b, x)), (x, -1, 2))  # the CDFs differ on [0, 1)
    sym = all(sp.simplify(w1.subs(a, b + side * t) - t) == 0 for side in (1, -1))  # |a - b| = t on either side
    g = np.linspace(0, 1, 101)
    A, B = np.meshgrid(g, g, indexing="ij")
    return sym, float(np.max(np.abs(hl.bernoulli_w1(A.ravel(), B.ravel()) - np.abs(A - B).ravel())))


def _bound(claim: Claim, key: str, mode: str | None) -> CheckResult:
    c = claim.printed
    syms = _param_symbols(key)
    w = sp.Symbol("w", nonnegative=True)
    bound = to_sympy(c.printed, "bound", {"w": w, **syms})
    sym, w_err = w_identity()
    g = np.linspace(0, 1, GRID)
    statuses, rows, bad = [], [], []
    for fp in sweep(key):
        d = st.dist(key, fp)
        f = sp.lambdify(w, bound.subs({syms[n]: v for n, v in fp}), "numpy")
        if mode == "optimum":
            (p_star,) = of(d).maximisers((0, 1))
            A, B = np.full_like(g, float(p_star)), g
        else:
            A, B = (m.ravel() for m in np.meshgrid(g, g, indexing="ij"))
        gap = d.numeric(A) - d.numeric(B)
        excess = gap - np.asarray(f(np.abs(A - B)), float) * np.ones_like(gap)
        i = int(np.argmax(excess))
        ok = bool(excess[i] <= 1e-12)
        statuses.append(decide(holds=ok and sym))
        rows.append(f"{st.tag(key, fp)}: max of U_h(F) - U_h(G) - bound = {num(excess[i], 3)}")
        if not ok:
            bad.append((fp, A[i], B[i], gap[i], excess[i]))
    status = worst(*statuses)
    where = "p_F = p* (the optimum), p_G on" if mode == "optimum" else f"{GRID}^2 grid of (p_F, p_G) over"
    ev = (f"||Bern(a) - Bern(b)||_W = |a - b| (CDF integral, symbolic): {sym}, on a 101^2 grid max error {resid(w_err, 2)}; "
          f"{where} [0, 1]: " + "; ".join(rows))
    if bad:
        fp, a, b, gap, ex = st.smallest(bad, lambda t: (sum(float(v) for _n, v in t[0]), abs(t[1] - t[2])))
        ev += (f"; smallest counterexample: {st.tag(key, fp)}, p_F = {num(a)}, p_G = {num(b)}: U_h(F) - U_h(G) = "
               f"{num(gap)} exceeds the bound by {num(ex, 3)}")
    return CheckResult(claim.id, c.claim, c.printed, "holds" if status == "verified" else "fails", status, "numeric",
                       ev)


# --- case steps on a region ----------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def solitary_optima(key: str) -> tuple[int, int]:
    """(instances whose alpha* is the arm of largest mean below the maximiser / smallest above, instances tried):
    seeded K = 2..6, means all below or all above the maximiser of h."""
    d = st.dist(key, ())
    (m,) = of(d).maximisers((0, 1))
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(2,)))
    good = total = 0
    for K in KS:
        for below in (True, False):
            p = np.round(rng.uniform(0, float(m), K) if below else rng.uniform(float(m), 1, K), 3)
            p_star = of(d).maximisers((min(p), max(p)))
            alpha = alpha_star_bernoulli(p, p_star[0])
            want = int(np.argmax(p)) if below else int(np.argmin(p))
            good += int(np.allclose(alpha, np.eye(K)[want]))
            total += 1
    return good, total


def _region(claim: Claim, key: str, region: str) -> CheckResult:
    middle, mask = REGIONS[region]
    results = []
    for fp in sweep(key):
        h = REGISTRY[key].expression().subs({_param_symbols(key)[n]: v for n, v in fp})
        mid = middle if middle is not None else h.subs(U, _a) - h.subs(U, _b)
        results.append(hl.region_step(key, claim.printed, mid, mask, dict(fp), n=GRID))
    res = max(results, key=lambda r: SEVERITY[r.status])
    if region != "solitary":
        return res
    good, total = solitary_optima(key)
    return replace(res, status=worst(res.status, decide(holds=good == total)),
                   evidence=res.evidence + f"; 'the optimal solution is a solitary arm' (a_max when max p < 1/2, a_min "
                   f"when min p > 1/2): {good}/{total} seeded instances (K = 2..6, seed {SEED}), alpha* by the closed "
                   "form")


# --- case 2: the optimum's value and the gap identity --------------------------------------------------------------

@lru_cache(maxsize=None)
def case2_values(key: str) -> tuple[tuple[tuple[float, ...], sp.Expr, float], ...]:
    """(instance, its optimal mean p*, V(alpha*)) for seeded instances bracketing the maximiser of h, K = 2..6."""
    d = st.dist(key, ())
    (m,) = of(d).maximisers((0, 1))
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(3,)))
    out = []
    for K in KS:
        lo = np.round(rng.uniform(0, float(m), 1), 3)
        hi = np.round(rng.uniform(float(m), 1, 1), 3)
        p = tuple(float(x) for x in np.concatenate([lo, hi, np.round(rng.uniform(0, 1, K - 2), 3)]))
        p_star = of(d).maximisers((min(p), max(p)))
        alpha = alpha_star_bernoulli(p, p_star[0])
        value = float(mixture_value(d.numeric, [0.0, 1.0], np.stack([1 - np.array(p), np.array(p)], 1), alpha))
        out.append((p, p_star[0], value))
    return tuple(out)


def _case2(claim: Claim, key: str) -> CheckResult:
    c = claim.printed
    parts = hl.parse_summary(c.printed)
    value = to_sympy(parts["value"], "value")
    gap = to_sympy(parts["gap"], "gap", {"b": _b})
    d = st.dist(key, ())
    rows = case2_values(key)
    (m,) = of(d).maximisers((0, 1))
    value_ok = all(abs(v - float(value)) < 1e-12 for _p, _ps, v in rows)
    gap_ok = st.zero_on_unit(value - d.expr.subs(U, _b) - gap, _b, tuple(hl_breaks(d)))
    holds = value_ok and gap_ok
    bad = [(p, v) for p, _ps, v in rows if abs(v - float(value)) >= 1e-12]
    ev = (f"seed {SEED}: {len(rows)} instances (K = 2..6, one mean below and one above the maximiser {m} of h): "
          f"p* = {sorted({str(ps) for _p, ps, _v in rows})}, V(alpha*) = {sorted({round(v, 12) for _p, _ps, v in rows})}"
          f" (printed {parts['value']}); {parts['value']} - h(p_G) - ({parts['gap']}) identically 0 on [0, 1] "
          f"(piece by piece): {gap_ok}")
    if bad:
        p, v = min(bad, key=lambda t: len(t[0]))
        ev += f"; smallest counterexample: p = {p}: V(alpha*) = {num(v, 6)}, not {parts['value']}"
    return CheckResult(claim.id, c.claim, c.printed, f"value={d.expr.subs(U, m)}; gap={sp.simplify(value - d.expr.subs(U, _b))}"
                       if gap_ok else "differs", decide(holds=holds), "symbolic", ev)


def hl_breaks(d) -> tuple:
    from rsb_theory.distortions import breakpoints
    return tuple(b.subs(U, _b) if hasattr(b, "subs") else b for b in breakpoints(d.expr))


# --- ||F - G||_W where ||F* - G||_W is meant -------------------------------------------------------------------------

#: Simple values of (p_F, p_G) tried first for a readable counterexample, then a grid.
SIMPLE = (0, sp.Rational(1, 2), 1, sp.Rational(1, 4), sp.Rational(3, 4))
READ_F_STAR = "F read as F* (p_F = 1/2)"


def _typo(claim: Claim, key: str, factor: int) -> CheckResult:
    c = claim.printed
    reading = claim.assumes("reading", c.printed)
    d = st.dist(key, ())
    (m,) = of(d).maximisers((0, 1))
    values = list(SIMPLE) + [sp.Rational(k, 20) for k in range(21)]
    pairs = [(a, b) for a in values for b in values]
    if reading != "F":
        pairs = [(m, b) for _a2, b in pairs]
    bad = [(a, b) for a, b in pairs if factor * abs(m - b) != factor * abs(a - b)]
    # Reading F as F* corrects an evident typo (the line before has F*); a corrected value is no condition, so the
    # display is false as printed (the registry runs the corrected claim, Claim.typo, for the entry's impact).
    status = decide(holds=not bad)
    ev = (f"case 1 (p* = {m}): the line before gives {factor}|{m} - p_G| = {factor}||F* - G||_W (W1 of Bernoulli laws "
          f"= |p_F - p_G|); as printed, with F the mixture p_F of the proof: {len(pairs)} pairs (p_F, p_G) tried")
    if bad:
        a, b = bad[0]
        ev += (f"; smallest counterexample: p_F = {a}, p_G = {b}: {factor}|{m} - p_G| = {factor * abs(m - b)}, "
               f"{factor}||F - G||_W = {factor * abs(a - b)}; it holds with F* (p_F = {m}) in every pair")
    return CheckResult(claim.id, c.claim + (f" ({READ_F_STAR})" if reading != "F" else ""), f"||{c.printed} - G||_W",
                       "||F* - G||_W", status, "symbolic", ev)


# --- the mean-value step -------------------------------------------------------------------------------------------

def _mvt(claim: Claim, key: str) -> CheckResult:
    c = claim.printed
    syms = _param_symbols(key)
    m = sp.Symbol("m", real=True)
    expr = to_sympy(c.printed, "mean value", {"a": _a, "b": _b, "m": m, **syms})
    g = np.linspace(0, 1, 81)
    A, B = (x.ravel() for x in np.meshgrid(g, g, indexing="ij"))
    keep = np.abs(A - B) > 1e-12
    A, B = A[keep], B[keep]
    bad, tried = [], 0
    for fp in sweep(key):
        d = st.dist(key, fp)
        f = sp.lambdify((_a, _b, m), expr.subs({syms[n]: v for n, v in fp}), "numpy")
        lhs = d.numeric(A) - d.numeric(B)  # (1 - p_G)^s - (1 - p_F)^s = h(p_F) - h(p_G)
        lo, hi = np.minimum(A, B), np.maximum(A, B)
        g_lo, g_hi = f(A, B, lo) - lhs, f(A, B, hi) - lhs
        ok = (g_lo * g_hi < 0) | (np.abs(g_lo) + np.abs(g_hi) < 1e-15)
        tried += int(ok.size)
        for i in np.flatnonzero(~ok)[:1]:
            bad.append((fp, A[i], B[i]))
    holds = not bad
    ev = (f"for every pair (p_F, p_G) of an 81^2 grid (p_F != p_G) and s in {[dict(fp)['s'] for fp in sweep(key)]}: "
          f"the printed right-hand side minus the left changes sign between p_M = min and p_M = max, so some p_M "
          f"strictly between solves the display (intermediate values): {tried - len(bad)}/{tried} pairs")
    if bad:
        fp, a, b = bad[0]
        ev += f"; smallest counterexample: {st.tag(key, fp)}, p_F = {num(a)}, p_G = {num(b)}"
    return CheckResult(claim.id, c.claim, c.printed, "a p_M exists" if holds else "no p_M", decide(holds=holds),
                       "numeric", ev)


# --- r = q is always valid -----------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _instances() -> tuple[tuple[float, ...], ...]:
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(4,)))
    return tuple(tuple(float(x) for x in np.round(rng.uniform(0, 1, K), 3)) for K in KS for _ in range(2)) + \
        ((0.1, 0.9), (0.2, 0.4), (0.6, 0.8))


def maximiser_on(d, top: tuple, lo: float, hi: float) -> sp.Expr:
    """A maximiser of h on [lo, hi] from its maximisers ``top`` on [0, 1] (ends of a flat top): for concave h the
    nearest point of [top[0], top[-1]]; otherwise :func:`rsb_theory.holder.optimal_means` on [lo, hi]."""
    lo_, hi_ = sp.Rational(str(lo)), sp.Rational(str(hi))
    if not d.shape.is_concave:
        return of(d).maximisers((lo_, hi_))[0]
    return hi_ if hi_ < top[0] else (lo_ if lo_ > top[-1] else max(lo_, top[0]))


def _r_equals_q(claim: Claim) -> CheckResult:
    c = claim.printed
    q = sp.Symbol("q", positive=True)
    r_of = to_sympy(c.printed, "r", {"q": q})
    rows, bad = [], []
    for key, fp in st.table_sweep():
        d = st.dist(key, fp)
        hol = hl.holder_on(key, fp)
        r = float(r_of.subs(q, hol.q))
        worst_ratio = 0.0
        top = of(d).maximisers((0, 1))
        for p in _instances():
            p_arr = np.array(p)
            p_star = maximiser_on(d, top, min(p), max(p))
            alpha = alpha_star_bernoulli(p, p_star)
            K = len(p)
            mixes = np.array([(1 - t) * alpha + t * np.eye(K)[j] for j in range(K) for t in TOWARDS])
            x = mixes @ p_arr
            dist_ = np.abs(float(p_star) - x)
            keep = dist_ > 1e-12
            ratio = (float(d.numeric(np.array([float(p_star)]))[0]) - d.numeric(x[keep])) / dist_[keep] ** r
            if ratio.size:
                worst_ratio = max(worst_ratio, float(np.max(ratio)))
                j = int(np.argmax(ratio))
                if ratio[j] > hol.L_H * (1 + 1e-9):
                    bad.append((key, fp, p, float(x[keep][j]), float(ratio[j]), hol.L_H, r))
        rows.append(f"{st.tag(key, fp)}: q = {hol.q}, L_H = {round(hol.L_H, 6)}, max ratio {num(worst_ratio)}")
    status = decide(holds=not bad)
    ev = (f"(U_h(F*) - U_h(G)) / ||F* - G||_W^r with r = {c.printed} against L_MH = L_H (assumption:Holder on [0, 1], "
          f"rsb_theory.holder), F* the optimum (closed form), G = (1 - t) alpha* + t e_j, t in [1e-6, 1] (25 values), "
          f"on {len(_instances())} seeded instances (K = 2..6, seed {SEED}) plus (0.1, 0.9), (0.2, 0.4), (0.6, 0.8): "
          + "; ".join(rows) + ". eq:Holder_opt is eq:Holder with G_1 = F*, so the pair (q, L_H) always qualifies")
    if bad:
        key, fp, p, x, ratio, L, r = st.smallest(bad, lambda t: (len(t[2]), t[0]))
        ev += (f"; smallest counterexample: {st.tag(key, fp)}, p = {p}, p_G = {num(x, 6)}: ratio {num(ratio)} > L_H = "
               f"{num(L)} with r = {num(r, 6)}")
    return CheckResult(claim.id, c.claim, f"r = {c.printed}", "r = q holds with L_MH = L_H" if not bad else "fails",
                       status, "numeric", ev)


# --- the constants L, chained through each proof's displays ---------------------------------

#: Per lemma: the displays whose printed constants give L_H (multiplied along the chain; ``max`` over cases) and
#: L_MH ("same": the proof sets L_MH = L_H), each as (ledger id of the printed display, how its constant is read):
#: ``const`` a printed constant, ``coef`` the coefficient of a printed bound C w^e (w = ||F - G||_W), ``gap:<r>``
#: the coefficient of a printed U_h(F*) - U_h(G) against |p* - p_G|^r.
CHAINS: dict[str, dict[str, tuple]] = {
    GINI: {"L_H": ("prod", (f"{GINI}#step:eq:lemma_5_p", "const"), (f"{GINI}#step:eq:last_lemma_2", "coef")),
           "L_MH": ("prod", (f"{GINI}#step:eq:LALL", "gap:r.case2"))},
    PHT: {"L_H": ("prod", (f"{PHT}#step:power", "const"), (f"{PHT}#step:jensen", "const")), "L_MH": "same"},
    RTD: {"L_H": ("prod", (f"{RTD}#step:eq:lemma_RTD_p", "const"), (f"{RTD}#step:eq:WRTD_lemma_0", "const"),
                  (f"{RTD}#step:eq:last_lemma_rtd", "coef")),
          "L_MH": ("prod", (f"{RTD}#step:eq:last_lemm_1_2", "coef"))},
    MM: {"L_H": ("max", (f"{MM}#step:eq:lemma_5_p_mean_1_MD", "const"), (f"{MM}#step:eq:lemma_5_p_mean_2_MD", "const"),
                 (f"{MM}#step:eq:lemma_5_p_mean_3_MD", "const")),
         "L_MH": ("prod", (f"{MM}#step:eq:LALL_mean_MD", "gap:r.case1"))},
    IES: {"L_H": ("max", (f"{IES}#step:eq:lemma_5_p_mean_1", "const"), (f"{IES}#step:eq:lemma_5_p_mean_2", "const"),
                  (f"{IES}#step:eq:lemma_5_p_mean_3", "const")),
          "L_MH": ("prod", (f"{IES}#step:eq:LALL_mean", "gap:r.case1"))},
    DP: {"L_H": ("prod", (f"{DP}#step:eq:dp_final", "coef")), "L_MH": "same"},
    QUAD: {"L_H": ("prod", (f"{QUAD}#step:eq:quadratic_lastline_2", "const")), "L_MH": "same"},
}
KEYS = {GINI: "gini", PHT: "pht", RTD: "right_tail", MM: "mean_median", IES: "inter_es", DP: "dual_power",
        QUAD: "quadratic"}
CONSTANT_IDS = tuple(f"{label}#chain" for label in CHAINS)
_s, _w, _t = sp.Symbol("s", positive=True), sp.Symbol("w", nonnegative=True), sp.Symbol("t", positive=True)


def _printed_display(ident: str):
    """The printed display ``ident`` (this module's steps, or the Hölder lemmas' own step items)."""
    try:
        return st.printed(ident)
    except KeyError:
        return hl.paper_claims.lemma_claim(ident)


def display_constant(label: str, ident: str, how: str) -> sp.Expr:
    """The constant a printed display contributes to the chain of ``label``'s proof (see :data:`CHAINS`)."""
    text = _printed_display(ident).printed
    if how == "const":
        return to_sympy(text, "constant", {"s": _s})
    if how == "coef":
        return sp.simplify(to_sympy(text, "bound", {"w": _w, "s": _s}).subs(_w, 1))
    r = to_sympy(hl.printed(label, how.split(":")[1]).printed, "r")
    (m,) = of(st.dist(KEYS[label], sweep(KEYS[label])[0])).maximisers((0, 1))
    gap = to_sympy(hl.parse_summary(text)["gap"], "gap", {"b": _b})
    # the coefficient of |p* - p_G|^r on either side of p* (p_G = p* -+ t)
    sides = {sp.simplify(gap.subs(_b, m + side * _t) / _t ** r) for side in (-1, 1)}
    return sides.pop() if len(sides) == 1 else sp.Max(*sides)


def chained_L(label: str) -> tuple[sp.Expr, str]:
    """max(L_H, L_MH) as the proof's displays give them (symbolic in s where the lemma has a parameter)."""
    parts, how = {}, []
    for name in ("L_H", "L_MH"):
        spec = CHAINS[label][name]
        if spec == "same":
            parts[name] = parts["L_H"]
            how.append(f"{name} = L_H (as the proof sets it)")
            continue
        op, *items = spec
        vals = [display_constant(label, ident, kind) for ident, kind in items]
        parts[name] = sp.Mul(*vals) if op == "prod" else sp.Max(*vals)
        how.append(f"{name} = {op}({', '.join(f'{i.partition(chr(35))[2]}: {v}' for (i, _k), v in zip(items, vals))})"
                   f" = {parts[name]}")
    return sp.simplify(sp.Max(parts["L_H"], parts["L_MH"])), "; ".join(how)


def _constant(claim: Claim) -> CheckResult:
    label = claim.id.partition("#")[0]
    c = claim.printed
    printed = to_sympy(c.printed, "L", {"s": _s})
    derived, how = chained_L(label)
    ratio = sp.simplify(printed / derived)
    status = compare(ratio, 1, "smaller", comparable=bool(ratio.is_number))  # not a number: not of the chain's form
    note = ""
    if label == PHT:
        # the chain's link step:jensen holds only for CDFs on [0, tau] with tau <= 1, and the lemma is stated for any
        # tau: the chained constant is the lemma's only where that link is (holder_pht.L_on_support, its witness)
        from .holder_pht import L_on_support

        on_support, _derived, why = L_on_support(claim, c.printed)
        status = worst(status, on_support)
        note = (" The chain uses step:jensen's constant 1, which needs CDFs on [0, tau] with tau <= 1 "
                f"(lemma:PHT#step:jensen); on the lemma's domain, the smallest counterexample: {why}.")
    return CheckResult(claim.id, f"{c.claim.split(':')[0]}: the printed L = {c.printed} against the constants of the "
                       "proof's own displays", c.printed, str(derived), status, "symbolic",
                       f"chained: {how}; L = max(L_H, L_MH) = {derived}; printed {c.printed}; printed / chained = "
                       f"{ratio}. (The smallest valid L is the entry {label}#L.){note}")


KINDS = {"formula": _formula, "factor": _factor, "bound": _bound, "region": _region, "case2": _case2, "typo": _typo,
         "mvt": _mvt}


def check(claim: Claim) -> CheckResult:
    if claim.id in CONSTANT_IDS:
        return _constant(claim)
    kind, key, *args = SPEC[claim.id]
    if kind == "r_equals_q":
        return _r_equals_q(claim)
    return KINDS[kind](claim, key, *args)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if claim.id in CONSTANT_IDS:
        out = st.mutants_by_status(claim, result, "smaller", mutant_text(chained_L(claim.id.partition("#")[0])[0]))
        if result.status == "conditional" and claim.id.startswith(PHT):
            from .holder_pht import TAU_AT_MOST_ONE

            out.append(claim.assuming("support", TAU_AT_MOST_ONE, f"{TAU_AT_MOST_ONE} stated"))
        return out
    kind = SPEC[claim.id][0]
    if kind in ("formula", "factor", "mvt"):
        return st.mutants_by_status(claim, result, "equal")
    if kind == "case2":
        parts = hl.parse_summary(claim.printed.printed)
        text = "; ".join(f"{k}={v}" for k, v in (parts | {"value": f"{parts['value']} + 1/2"}).items())
        return [hl.reprint(claim, text, "another value of U_h(F*)")]
    if kind == "typo":
        return st.mutants_by_status(claim, result, "equal", "F*", repair=("reading", "F*", READ_F_STAR))
    if kind == "r_equals_q":
        return st.mutants_by_status(claim, result, "larger")
    return st.mutants_by_status(claim, result, "smaller")


def mutant_text(value: sp.Expr) -> str:
    return str(value).replace(" ", "")


def _with_typo(claim: Claim) -> Claim:
    """The claim with its evident typo recorded (F for F* in the displays of kind ``typo``)."""
    if SPEC.get(claim.id, ("",))[0] != "typo":
        return claim
    return replace(claim, typo=("F* for F, as in the line before", replace(claim.printed, printed="F*")))


CLAIMS = claim_map(*(_with_typo(c) for c in st.step_claims(IDS, check, mutants)),
                   *(Claim(i, hl.printed(i.partition("#")[0], "L"), check, mutants) for i in CONSTANT_IDS))
