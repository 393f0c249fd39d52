"""The steps of the proofs of ``lemma:risk-concave``, ``lemma:Delta_error`` (and its constant) and
``lemma:beta_lemma_monotone``.

``lemma:risk-concave`` (arms on [0, oo), Omega in R_+ as the paper's setting): eq:concave 1 (Jensen, pointwise in x)
and eq: concave 2 (Fubini: a finite sum and an integral), on seeded finite-support arms, K = 2..6, for every
registered h at the tables' parameters (all concave) and, when the hypothesis is dropped, the convex u^2.

``lemma:Delta_error``: the instances, grids and eps of the lemma's own check (:mod:`.delta_error`: K = 2..6, seeded
Bernoulli instances for every kind of h, both grids, 1/eps an integer and not), with abar the L1-nearest grid point
to alpha* (closed form) and Delta(eps) by enumerating the grid; the steps eq:delta_error_43 (with the instance's r
and L_MH, as the lemma's check), eq:delta_error_5 (also on seeded finite-support arms), eq:Delta_error_2 and the
reason given for it (also for Dirichlet-drawn alpha*, vertices and the centroid).  The constant is re-derived by
substituting each step's printed bound into the one before.

``lemma:beta_lemma_monotone``: every concave, strictly increasing registered h at the tables' parameters, the
instances of the lemma's check (K = 2, 3, 4, with and without max p = 1) plus tied largest means, on both grids
with 1/eps (resp. 1/eps - K/2) an integer and not; the grid is enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import REGISTRY, from_string, numeric_derivative
from rsb_theory.expressions import to_sympy
from rsb_theory.grids import Grid
from rsb_theory.profile import of
from rsb_theory.oracle import W_bernoulli, W_finite
from rsb_theory.oracle.closed_form import alpha_star_bernoulli
from rsb_theory.riskmetric import finite_support, mixture_value, wasserstein1_finite

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import compare, decide
from . import _holder as hl
from . import _steps_a as st
from . import beta_lemma_monotone as blm
from . import delta_error as de
from .risk_concave import CONVEX
from ..numfmt import num, resid
from ..causes import because

SEED = 20250319
KS = (2, 3, 4, 5, 6)
RC, DE, BL = "lemma:risk-concave", "lemma:Delta_error", "lemma:beta_lemma_monotone"
IDS = (f"{RC}#step:eq:concave 1", f"{RC}#step:eq: concave 2",
       f"{DE}#step:eq:delta_error_43", f"{DE}#step:eq:delta_error_5", f"{DE}#step:eq:Delta_error_2",
       f"{DE}#step:eq:Delta_error_2.reason", f"{DE}#chain",
       f"{BL}#step:eq:solitary_best", f"{BL}#step:eq:astar_lemma14", f"{BL}#step:eq:aprime_lemma14",
       f"{BL}#step:eq:concavity_h", f"{BL}#step:eq:best_second_deff", f"{BL}#step:eq:delta_min_conc_mon_analysis")
TOL = 1e-12
#: Small eps (1/eps an integer and not) tried where the grid has at most MAX_POINTS points (a count, decided from
#: K and eps before enumerating: the same cases on any machine).
SMALL_EPS, MAX_POINTS = (1 / 40, 0.024), 20_000


def eps_list(K: int, grid: str, base: tuple[float, ...], max_points: int = MAX_POINTS) -> tuple[float, ...]:
    """``base`` and :data:`SMALL_EPS`, keeping the eps whose grid exists (mid-point: 1/eps >= K/2) and is small
    enough to enumerate (``max_points``)."""
    out = []
    for eps in base + SMALL_EPS:
        if grid == "ucb" and 1 / eps - K / 2 < 0:
            continue
        if eps in SMALL_EPS and Grid(K, eps, grid).size > max_points:
            continue
        out.append(eps)
    return tuple(out)


# --- lemma:risk-concave ------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _arms() -> tuple:
    """Seeded finite-support instances on [0, 3] (K = 2..6, 4 atoms) with 20 Dirichlet mixtures each."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(1,)))
    out = []
    for K in KS:
        xs = np.sort(np.round(rng.uniform(0, 3, 4), 3))
        arms = rng.dirichlet(np.ones(4), size=K)
        out.append((xs, arms, rng.dirichlet(np.ones(K), size=20)))
    return tuple(out)


def _distortions(hypothesis: str):
    """(name, numeric h) of every registered h at the tables' parameters, and u^2 unless the hypothesis holds it out."""
    out = [(st.tag(k, fp), st.dist(k, fp)) for k, fp in st.table_sweep()]
    extra = from_string(CONVEX)
    out.append((CONVEX, extra))
    return [(n, d.numeric) for n, d in out if d.shape.is_concave or hypothesis != "concave"]


def _jensen(claim: Claim) -> CheckResult:
    c = claim.printed
    rows, bad = [], []
    for name, h in _distortions(c.printed):
        worst_gap = np.inf
        for xs, arms, alphas in _arms():
            lhs = mixture_value(h, xs, arms, alphas)  # int_0^oo h(sum_i alpha_i (1 - F_i)): the support is >= 0
            rhs = alphas @ finite_support(h, xs, arms)
            worst_gap = min(worst_gap, float(np.min(lhs - rhs)))
        rows.append(f"{name} {resid(worst_gap, 3)}")
        if worst_gap < -TOL:
            bad.append((name, worst_gap))
    ev = (f"seed {SEED}: K = 2..6, atoms in [0, 3] (4 per instance), 20 mixtures each; hypothesis: h {c.printed}; "
          f"smallest LHS - RHS per h: " + ", ".join(rows) + ". The two lines before are identities: the support is "
          "in R_+, so eq:wang_def is the integral over [0, oo), and 1 - sum alpha_i F_i = sum alpha_i (1 - F_i) "
          "since sum alpha_i = 1")
    if bad:
        ev += f"; counterexample: h = {bad[0][0]}: LHS - RHS = {num(bad[0][1], 3)}"
    return CheckResult(claim.id, c.claim, c.printed, "holds" if not bad else "fails for non-concave h",
                       decide(holds=not bad), "numeric", ev)


def _fubini(claim: Claim) -> CheckResult:
    c = claim.printed
    a = sp.Symbol("alpha", nonnegative=True)
    weight = sp.lambdify(a, to_sympy(c.printed, "weight", {"alpha": a}), "numpy")
    err = 0.0
    for _name, h in _distortions("concave"):
        for xs, arms, alphas in _arms():
            # LHS: the integrand sum_i alpha_i h(1 - F_i(x)) is a step function: integrate it step by step
            surv = 1 - np.cumsum(arms, axis=1)[:, :-1]  # P(X_i > x_j) on [x_j, x_{j+1})
            integrand = alphas @ h(np.clip(surv, 0, 1))
            lhs = integrand @ np.diff(xs) + xs[0] * alphas.sum(axis=1) * h(np.ones(1))[0]
            rhs = (np.asarray(weight(alphas), float) * np.ones_like(alphas)) @ finite_support(h, xs, arms)
            err = max(err, float(np.max(np.abs(lhs - rhs))))
    holds = err < 1e-12
    return CheckResult(claim.id, c.claim, c.printed, "equal" if holds else f"differ by {num(err, 3)}", decide(holds=holds),
                       "numeric", f"seed {SEED}: the integral of the step function sum_i alpha_i h(1 - F_i(x)) against "
                       f"sum_i ({c.printed}) U_h(F_i), K = 2..6, every registered h at the tables' parameters: max "
                       f"difference {resid(err, 2)}")


# --- lemma:Delta_error ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DeltaCase:
    key: str
    p: tuple[float, ...]
    grid: str
    eps: float
    exact: bool
    alpha: tuple[float, ...]
    abar: tuple[float, ...]
    Delta: float
    gap_abar: float
    w: float
    d: float
    W: float
    L: float
    r: float


@lru_cache(maxsize=None)
def alpha_star(key: str, p: tuple[float, ...]) -> tuple[tuple[float, ...], float]:
    """alpha* (closed form, at the first maximiser of h on [min p, max p]) and V(alpha*)."""
    d = st.dist(key, ())
    p_star = of(d).maximisers((min(p), max(p)))[0]
    return tuple(float(x) for x in alpha_star_bernoulli(p, p_star)), float(d.numeric(np.array([float(p_star)]))[0])


@lru_cache(maxsize=1)
def delta_cases() -> tuple[DeltaCase, ...]:
    """The cases of lemma:Delta_error with abar and Delta(eps) by enumerating the grid; (r, L) of the instance as
    :func:`.delta_error.cases` takes them (shared, not recomputed), its Delta(eps) (branch and bound) compared."""
    pairs = {(c.key, c.p): (c.r, c.L) for c in de.cases()}
    theirs = {(c.key, c.p, c.grid, c.eps): c.Delta for c in de.cases()}
    out = []
    for key, p in de.instances():
        d = st.dist(key, ())
        r, L = pairs[(key, p)]
        alpha, v_star = alpha_star(key, p)
        p_arr, a_arr = np.array(p), np.array(alpha)
        for grid in ("etc", "ucb"):
            for eps in eps_list(len(p), grid, de.EPS_INTEGER + de.EPS_OTHER):
                g, pts = grid_points(len(p), eps, grid)
                values = d.numeric(pts @ p_arr)
                i = int(np.argmin(np.abs(pts - a_arr).sum(axis=1)))
                Delta = v_star - float(values.max())
                if abs(Delta - theirs.get((key, p, grid, eps), Delta)) > 1e-12:
                    raise RuntimeError(f"Delta(eps) by enumeration and by branch and bound differ: {key}, {p}, {grid}, "
                                       f"{eps}")
                out.append(DeltaCase(key, p, grid, eps, g.exact, alpha, tuple(pts[i]), Delta,
                                     v_star - float(values[i]), abs(float((a_arr - pts[i]) @ p_arr)),
                                     float(np.abs(a_arr - pts[i]).sum()), W_bernoulli(p), L, r))
    return tuple(out)


def _syms(**values):
    return {k: sp.Symbol(k, positive=True) for k in values}


def _bound_of(text: str, names: tuple[str, ...]):
    syms = {n: sp.Symbol(n, positive=True) for n in names}
    return sp.lambdify(list(syms.values()), to_sympy(text, "bound", syms), "math")


def _delta_43(claim: Claim) -> CheckResult:
    c = claim.printed
    f = _bound_of(c.printed, ("L", "w", "r"))
    bad, opt_bad, worst = [], [], -np.inf
    for k in delta_cases():
        if k.Delta > k.gap_abar + TOL:
            opt_bad.append(k)
        excess = k.gap_abar - f(k.L, k.w, k.r)
        worst = max(worst, excess)
        if excess > TOL:
            bad.append((k, excess))
    holds = not bad and not opt_bad
    ev = (f"{len(delta_cases())} cases (the instances of lemma:Delta_error, both grids, eps in "
          f"{[round(e, 4) for e in de.EPS_INTEGER + de.EPS_OTHER + SMALL_EPS]}, the small ones where the grid has at most "
          f"{MAX_POINTS} points): Delta(eps) <= U_h(F*) - U_h(abar) (a* is the grid "
          f"optimum) in all but {len(opt_bad)}; U_h(F*) - U_h(abar) - {c.printed} (r, L_MH of the instance) at most "
          f"{resid(worst, 3)}")
    if bad:
        k, ex = st.smallest(bad, lambda t: (len(t[0].p), -t[0].eps))
        ev += f"; smallest counterexample: {k.key}, p = {k.p}, {k.grid} grid, eps = {k.eps}: excess {num(ex, 3)}"
    return CheckResult(claim.id, c.claim, c.printed, "holds" if holds else "fails", decide(holds=holds), "numeric", ev)


@lru_cache(maxsize=1)
def _finite_pairs() -> tuple[tuple[float, float, float], ...]:
    """(||sum_i (alpha_i - a_i) F_i||_W, ||alpha - a||_1, W) for seeded finite-support arms (K = 2..6): random pairs
    and the vertex pairs e_i, e_j (where the definition of W is attained)."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(2,)))
    out = []
    for K in KS:
        xs = np.sort(np.round(rng.normal(0, 2, 5), 3))
        arms = rng.dirichlet(np.ones(5), size=K)
        W = W_finite(xs, arms)
        pairs = [tuple(rng.dirichlet(np.ones(K), size=2)) for _ in range(10)]
        pairs += [(np.eye(K)[i], np.eye(K)[j]) for i in range(K) for j in range(K) if i != j]
        for a, b in pairs:
            out.append((float(wasserstein1_finite(xs, a @ arms, b @ arms)), float(np.abs(a - b).sum()), W))
    return tuple(out)


def _delta_5(claim: Claim) -> CheckResult:
    c = claim.printed
    f = _bound_of(c.printed, ("d", "W"))
    rows = [(k.w, k.d, k.W, k) for k in delta_cases()] + [(w, d, W, None) for w, d, W in _finite_pairs()]
    excess = [(w - f(d, W), k) for w, d, W, k in rows]
    worst = max(e for e, _k in excess)
    holds = worst <= TOL
    ev = (f"{len(delta_cases())} Bernoulli cases of eq:delta_error_43 (W = (max p - min p)/2, "
          f"rsb_theory.oracle.W_bernoulli) and {len(_finite_pairs())} pairs on seeded finite-support arms (K = 2..6, "
          f"5 atoms ~ N(0, 4), 10 random pairs and every vertex pair e_i, e_j; W = max_(i<j) W1(F_i, F_j)/2): "
          f"||sum (alpha_i - a_i) F_i||_W - {c.printed} at most {resid(worst, 3)} (0 at the vertex pairs)")
    return CheckResult(claim.id, c.claim, c.printed, "holds" if holds else "fails", decide(holds=holds), "numeric", ev)


#: eps tried for eq:Delta_error_2 beyond those of lemma:Delta_error: coarse grids, where counterexamples are smallest.
COARSE_EPS = (1.0, 0.5)


@lru_cache(maxsize=1)
def simplex_cases() -> tuple[tuple[int, str, float, bool, tuple, tuple, str], ...]:
    """(K, grid, eps, exact, alpha*, abar, origin): Bernoulli optima, then vertices, the centroid and 5 Dirichlet
    points per K (seeded), on both grids and eps in :data:`COARSE_EPS` + the eps of lemma:Delta_error."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(3,)))
    alphas = [(np.array(alpha_star(k, p)[0]), f"alpha* of {k} at p = {p}") for k, p in de.instances()]
    for K in KS:
        alphas += [(np.eye(K)[-1], "a vertex"), (np.full(K, 1 / K), "the centroid")]
        alphas += [(a, "Dirichlet") for a in rng.dirichlet(np.ones(K), size=5)]
    out = []
    for a, origin in alphas:
        K = a.size
        for grid in ("etc", "ucb"):
            for eps in eps_list(K, grid, COARSE_EPS + de.EPS_INTEGER + de.EPS_OTHER):
                g, pts = grid_points(K, eps, grid)
                i = int(np.argmin(np.abs(pts - a).sum(axis=1)))
                out.append((K, grid, eps, g.exact, tuple(a), tuple(pts[i]), origin))
    return tuple(out)


def _case_size(t) -> tuple:
    """Smaller K, then the coarser grid, then vertices and the centroid before drawn points."""
    K, grid, eps, _exact, a, _abar, origin = t[0]
    return (K, -eps, origin not in ("a vertex", "the centroid"), grid)


def _fmt_case(t) -> str:
    K, grid, eps, exact, a, abar, origin = t[0]
    return (f"K = {K}, {grid} grid, eps = {num(eps, 6)}{' (exact)' if exact else ''}, alpha* = "
            f"{[round(float(x), 4) for x in a]} ({origin}), nearest grid point {[round(float(x), 4) for x in abar]}")


@because("delta_error_grid")
def _delta_2(claim: Claim, reason: bool) -> CheckResult:
    c = claim.printed
    f = _bound_of(c.printed, ("K", "eps"))
    restriction = claim.assumes("cases")
    keep = dict(RESTRICTIONS).get(restriction, lambda case: True)
    rows = []
    for t in simplex_cases():
        K, grid, eps, exact, a, abar, _origin = t
        dist = float(np.max(np.abs(np.subtract(a, abar)))) if reason else float(np.abs(np.subtract(a, abar)).sum())
        rows.append((t, dist, f(K, eps)))
    # the lemma is used on the grid of each algorithm (paper_claims.DELTA_ERROR_USES): a repair must keep them all
    used = {g for g, _where in claim.assumes("uses", paper_claims.DELTA_ERROR_USES)}
    rows = [r for r in rows if r[0][1] in used]
    tried = [r for r in rows if keep(_Case(r[0]))]
    bad = [r for r in tried if r[1] > r[2] * (1 + 1e-9) + TOL]
    repair = None
    if bad and not reason:
        repair = next((name for name, k in de.REPAIRS
                       if all(r[1] <= r[2] * (1 + 1e-9) + TOL for r in rows if k(_Case(r[0])))), None)
    at_uses = repair is None or all(any(dict(de.REPAIRS)[repair](_Case(r[0])) for r in rows if r[0][1] == g)
                                    for g in used)
    status = decide(holds=not bad, repair=repair, repair_at_uses=at_uses)
    what = "max_i |alpha*_i - abar_i|" if reason else "||alpha* - abar||_1"
    ev = (f"{len(tried)} cases{f' on {restriction}' if restriction else ''} (alpha*: the optima of the instances of "
          f"lemma:Delta_error, vertices, centroids and 5 Dirichlet points per K = 2..6, seed {SEED}; both grids, eps in "
          f"{list(COARSE_EPS)}, those of lemma:Delta_error and {[round(e, 4) for e in SMALL_EPS]} where the grid has at "
          f"most {MAX_POINTS} points), abar the L1-nearest grid point: {what} <= {c.printed} "
          f"fails in {len(bad)}")
    if bad:
        t, dist, b = st.smallest(bad, _case_size)
        ev += f"; smallest counterexample: {_fmt_case((t,))}: {what} = {num(dist)} > {num(b)}"
        if not reason:
            ev += "; " + "; ".join(f"{name}: {sum(1 for r in bad if k(_Case(r[0])))} failures"
                                   for name, k in de.REPAIRS)
            ev += (". On the exact ETC grid the bound holds although the per-coordinate reason does not: rounding "
                   "the m largest fractional parts up keeps the sum and costs 2 sum_(i>m) f_i eps <= 2 m (K - m)/K eps "
                   "<= K eps/2")
            if repair and not at_uses:
                ev += (f"; but {repair} excludes the mid-point grid, where theorem:UCB upper bound uses the lemma: "
                       "no repair where it is used")
        else:
            exact_etc = [r for r in bad if r[0][3] and r[0][1] == "etc"]
            if exact_etc:
                t2, dist2, b2 = st.smallest(exact_etc, _case_size)
                ev += f"; smallest on the exact ETC grid: {_fmt_case((t2,))}: {what} = {num(dist2)} > {num(b2)}"
            ok2 = all(r[1] <= r[2] + TOL for r in rows if r[0][0] == 2 and r[0][3])
            ev += f"; for K = 2 on exact grids it holds ({ok2}): the proof needs it for every K"
    return CheckResult(claim.id, c.claim + (f" on {restriction}" if restriction else ""), c.printed,
                       f"holds on {repair}" if repair else ("holds" if not bad else "fails"), status, "numeric", ev)


#: A restriction under which the per-coordinate reason of eq:Delta_error_2 holds (a mutant states it; the lemma is
#: about every K, so it is not offered as a repair).
K2_EXACT = "K = 2 on an exact grid"
RESTRICTIONS = de.REPAIRS + ((K2_EXACT, lambda case: case.t[0] == 2 and case.exact),)


@dataclass(frozen=True)
class _Case:
    """The view of a case that :data:`.delta_error.REPAIRS` reads (``exact``, ``grid``)."""

    t: tuple

    @property
    def exact(self) -> bool:
        return self.t[3]

    @property
    def grid(self) -> str:
        return self.t[1]


def chained_delta_bound() -> tuple[sp.Expr, str]:
    """The bound the proof's displays give: eq:delta_error_43's bound with eq:delta_error_5's bound for w and
    eq:Delta_error_2's bound for d substituted (each as printed)."""
    names = ("L", "w", "r", "d", "W", "K", "eps")
    syms = {n: sp.Symbol(n, positive=True) for n in names}
    b43 = to_sympy(st.printed(f"{DE}#step:eq:delta_error_43").printed, "bound", syms)
    b5 = to_sympy(st.printed(f"{DE}#step:eq:delta_error_5").printed, "bound", syms)
    b2 = to_sympy(st.printed(f"{DE}#step:eq:Delta_error_2").printed, "bound", syms)
    chained = sp.simplify(b43.subs(syms["w"], b5).subs(syms["d"], b2))
    return chained, f"{b43} with w <= {b5}, d <= {b2}"


def _constant(claim: Claim) -> CheckResult:
    c = claim.printed
    syms = {n: sp.Symbol(n, positive=True) for n in ("L", "K", "W", "r", "eps")}
    printed = to_sympy(c.printed, "bound", syms)
    chained, how = chained_delta_bound()
    ratio = sp.simplify(sp.powsimp(sp.expand_power_base(printed / chained, force=True), force=True))
    status = compare(ratio, 1, "smaller", comparable=bool(ratio.is_number))  # not a number: not of the chain's form
    return CheckResult(claim.id, c.claim, c.printed, str(chained), status, "symbolic",
                       f"chained from the proof's displays: {how} gives {chained}; printed {c.printed}; printed / "
                       f"chained = {ratio}. (The chain's last step fails off the exact ETC grid: "
                       f"{DE}#step:eq:Delta_error_2.)")


# --- lemma:beta_lemma_monotone -------------------------------------------------------------------------------------

#: The beta steps enumerate every grid for 13 distortions: small eps only where the grid has this many points at most.
BETA_MAX_POINTS = 2_000
#: Instances: those of the lemma's check, plus tied largest means.
TIES = ((0.3, 0.8, 0.8), (0.2, 0.5, 0.5))
#: (grid, eps) per K: exact and not, both grids.
def _grids(K: int) -> tuple[tuple[str, float], ...]:
    """Exact mid-point grids (coarse and small eps), a non-exact one, and ETC grids, plus :data:`SMALL_EPS`."""
    base = {"ucb": (1 / (4 + K / 2), 1 / (10 + K / 2), 0.13), "etc": (0.5, 0.25, 0.3)}
    return tuple((grid, eps) for grid in ("ucb", "etc") for eps in eps_list(K, grid, base[grid], BETA_MAX_POINTS))


@lru_cache(maxsize=1)
def lemma_class() -> tuple[tuple[str, tuple], ...]:
    """Every registered h that is concave and strictly increasing, at the tables' parameters."""
    keys = tuple(k for k in REGISTRY if k in blm.lemma_class())
    return tuple((k, fp) for k, fp in st.table_sweep(keys)
                 if st.dist(k, fp).shape.is_concave and st.dist(k, fp).shape.monotone == "increasing")


@dataclass(frozen=True)
class BetaCase:
    key: str
    fp: tuple
    p: tuple[float, ...]
    grid: str
    eps: float
    exact: bool
    best: float
    second: float
    x_max: float
    h_pK: float
    dh_pK: float
    dh_xstar: float
    x_star: float | None
    x_prime: float | None
    star_in: bool
    star_best: bool
    prime_in: bool
    prime_second: bool


def _printed_point(ident: str, K: int, eps: float) -> np.ndarray:
    parts = hl.parse_summary(st.printed(ident).printed)
    val = {k: float(to_sympy(v, "coordinate", {"eps": sp.Symbol("eps", positive=True),
                                              "K": sp.Symbol("K", positive=True)}).subs(
        {sp.Symbol("eps", positive=True): eps, sp.Symbol("K", positive=True): K})) for k, v in parts.items()}
    a = np.full(K, val["a_other"])
    a[-2] = val["a_Km1"]
    a[-1] = val["a_K"]
    return a


@lru_cache(maxsize=None)
def grid_points(K: int, eps: float, kind: str) -> tuple[Grid, np.ndarray]:
    """A grid and its points (enumerated once per process)."""
    g = Grid(K, eps, kind)
    return g, g.points()


@lru_cache(maxsize=None)
def beta_cases(star_text: str, prime_text: str) -> tuple[BetaCase, ...]:
    """Every (h, instance, grid, eps) with the enumerated best and second-best values and the printed a*, a'."""
    out = []
    for key, fp in lemma_class():
        d = st.dist(key, fp)
        dh = numeric_derivative(d)
        for p in blm.MEANS + TIES:
            p_arr = np.array(p)
            K = len(p)
            for grid, eps in _grids(K):
                g, pts = grid_points(K, eps, grid)
                vals = d.numeric(pts @ p_arr)
                order = np.argsort(-vals, kind="stable")
                best, second = float(vals[order[0]]), float(vals[order[1]])
                a_star, a_prime = _printed_point(f"{BL}#step:eq:astar_lemma14", K, eps), \
                    _printed_point(f"{BL}#step:eq:aprime_lemma14", K, eps)
                on = lambda a: bool(np.any(np.all(np.abs(pts - a) < 1e-9, axis=1)))  # noqa: E731
                star_in, prime_in = on(a_star), on(a_prime)
                v_star = float(d.numeric(np.array([a_star @ p_arr]))[0])
                v_prime = float(d.numeric(np.array([a_prime @ p_arr]))[0])
                others = vals[np.any(np.abs(pts - a_star) > 1e-9, axis=1)]
                x_star, x_prime = float(a_star @ p_arr), float(a_prime @ p_arr)
                out.append(BetaCase(key, fp, p, grid, eps, g.exact, best, second, float(np.max(pts @ p_arr)),
                                    float(d.numeric(np.array([p_arr.max()]))[0]),
                                    float(dh(np.array([p_arr.max()]))[0]), float(dh(np.array([x_star]))[0]),
                                    x_star, x_prime, star_in, star_in and v_star >= best - TOL,
                                    prime_in, prime_in and others.size > 0 and v_prime >= float(others.max()) - TOL))
    return tuple(out)


def _cases() -> tuple[BetaCase, ...]:
    return beta_cases(st.printed(f"{BL}#step:eq:astar_lemma14").printed,
                      st.printed(f"{BL}#step:eq:aprime_lemma14").printed)


MID = "the mid-point grid of RS_UCB_M"


def _beta_size(k: BetaCase) -> tuple:
    return (len(k.p), -k.eps, k.key != "mean", k.p)


def _fmt_beta(k: BetaCase) -> str:
    return (f"{st.tag(k.key, k.fp)}, p = {k.p}, {k.grid} grid, eps = {num(k.eps)}"
            f"{' (exact)' if k.exact else ''}")


def _grid_claim(claim: Claim, holds_at, what: str) -> CheckResult:
    """A claim about the lemma's grid points, tried on both grids; repaired by the mid-point grid."""
    c = claim.printed
    # In the proof's context the grid is the mid-point grid (the lemma serves the UCB algorithms' Delta_min):
    # the ETC grid's cases are outside it.
    in_context = claim.fixed("grid") is not None
    restricted = in_context or claim.assumes("grid") == MID
    cases = [k for k in _cases() if k.grid == "ucb" or not restricted]
    outside = [k for k in _cases() if k.grid != "ucb" and not holds_at(k, c)] if in_context else []
    bad = [k for k in cases if not holds_at(k, c)]
    mid_ok = all(holds_at(k, c) for k in _cases() if k.grid == "ucb")
    status = decide(holds=not bad, repair=MID if bad and mid_ok else None)
    ev = (f"{len(cases)} cases: concave, strictly increasing h ({', '.join(st.tag(*x) for x in lemma_class())}) on "
          f"{list(blm.MEANS + TIES)}, {'the mid-point grid' if restricted else 'both grids'}, 1/eps (1/eps - K/2) an "
          f"integer and not: {what} fails in {len(bad)}; on the mid-point grid in "
          f"{sum(1 for k in _cases() if k.grid == 'ucb' and not holds_at(k, c))}")
    if bad:
        k = st.smallest(bad, _beta_size)
        ev += f"; smallest counterexample: {_fmt_beta(k)}"
    note = (f"Outside the proof's context (the ETC grid, which this proof does not use): fails in {len(outside)} "
            f"cases, smallest {_fmt_beta(st.smallest(outside, _beta_size))}." if outside else "")
    return CheckResult(claim.id, c.claim + (f" (on {MID})" if restricted and not in_context else ""), c.printed,
                       f"holds on {MID}" if status == "conditional" else ("holds" if not bad else "fails"), status,
                       "numeric", ev, note=note)


def _solitary_best(claim: Claim) -> CheckResult:
    def holds_at(k: BetaCase, c) -> bool:
        # h strictly increasing: h(<a, p>) < h(p_K) iff <a, p> < p_K (compared in the means, where floats separate
        # them; h(x) and h(1) agree to 1e-15 for dual power s = 10 at x near 1)
        return bool(k.x_max < max(k.p) - TOL) if c.printed == "<" else bool(k.best <= k.h_pK + TOL)
    res = _grid_claim(claim, holds_at, f"max over the grid of h(<a, p>) {claim.printed.printed} h(p_K) (for the "
                      "strict relation: max <a, p> < p_K, h being strictly increasing)")
    return replace(res, evidence=res.evidence + "; on the ETC grid the vertex e_K is a grid point, where equality "
                   "holds (a* = e_K: eq:astar_lemma14 describes the mid-point grid only)")


def _astar(claim: Claim) -> CheckResult:
    return _grid_claim(claim, lambda k, c: k.star_best, "the printed a* is a grid point attaining the maximum")


def _aprime(claim: Claim) -> CheckResult:
    return _grid_claim(claim, lambda k, c: k.prime_second, "the printed a' is a grid point attaining the maximum "
                       "over a != a*")


def _concavity(claim: Claim) -> CheckResult:
    c = claim.printed
    factor = float(to_sympy(c.printed, "factor"))
    rows = []
    for k in _cases():
        if k.grid != "ucb":
            continue
        d = st.dist(k.key, k.fp)
        hx, hxp = (float(v) for v in d.numeric(np.array([k.x_star, k.x_prime])))
        rows.append((k, hx - hxp - factor * k.dh_xstar * (k.x_star - k.x_prime)))
    worst = min(v for _k, v in rows)
    bad = [(k, v) for k, v in rows if v < -TOL]
    ev = (f"{len(rows)} cases on the mid-point grid (x* = <a*, p>, x' = <a', p> from the printed points): smallest "
          f"h(x*) - h(x') - {c.printed} h'(x*)(x* - x') = {resid(worst, 3)} (the supergradient inequality of a concave h)")
    if bad:
        k, v = st.smallest(bad, lambda t: _beta_size(t[0]))
        ev += f"; smallest counterexample: {_fmt_beta(k)}: {num(v, 3)}"
    return CheckResult(claim.id, c.claim, c.printed, "holds" if not bad else "fails", decide(holds=not bad),
                       "numeric", ev)


def _best_second(claim: Claim) -> CheckResult:
    c = claim.printed
    eps = sp.Symbol("eps", positive=True)
    rows = []
    for K in KS:
        ps = sp.symbols(f"p1:{K + 1}", real=True)
        coords = {}
        for ident in (f"{BL}#step:eq:astar_lemma14", f"{BL}#step:eq:aprime_lemma14"):
            parts = {n: to_sympy(v, "coordinate", {"eps": eps, "K": sp.Integer(K)})
                     for n, v in hl.parse_summary(st.printed(ident).printed).items()}
            coords[ident] = [parts["a_other"]] * (K - 2) + [parts["a_Km1"], parts["a_K"]]
        a_star, a_prime = coords.values()
        lhs = sum((s - t) * p for s, t, p in zip(a_star, a_prime, ps))
        printed = to_sympy(c.printed, "difference", {"eps": eps, "pK": ps[-1], "pKm1": ps[-2]})
        rows.append((K, sp.simplify(lhs - printed)))
    ok = all(v == 0 for _K, v in rows)
    return CheckResult(claim.id, c.claim, c.printed, "equal" if ok else "differs", decide(holds=ok), "symbolic",
                       "with a* and a' as printed (eq:astar_lemma14, eq:aprime_lemma14), sum_i (a*(i) - a'(i)) p(i) - "
                       f"({c.printed}) simplifies to " + ", ".join(f"{v} (K = {K})" for K, v in rows))


def _delta_min(claim: Claim) -> CheckResult:
    c = claim.printed
    f = _bound_of(c.printed, ("dh", "pK", "pKm1", "eps"))
    rows = []
    for k in _cases():
        ps = sorted(k.p)
        rows.append((k, (k.best - k.second) - f(k.dh_pK, ps[-1], ps[-2], k.eps)))
    worst = min(v for _k, v in rows)
    bad = [(k, v) for k, v in rows if v < -TOL]
    ties = [k for k in _cases() if k.p in TIES and k.best - k.second <= TOL]
    flat = [k for k in _cases() if k.dh_pK <= TOL]
    ev = (f"{len(rows)} cases (both grids): Delta_min(eps) = best - second best grid value (enumerated) minus "
          f"{c.printed}: smallest {resid(worst, 3)}. The bound is 0 where the two largest means tie "
          f"({len(ties)} cases with Delta_min(eps) = 0: beta is undefined there) or h'(p(K)) = 0 "
          f"({sorted({st.tag(k.key, k.fp) + ' at p(K) = 1' for k in flat})}): Delta_min = Omega(eps) then does not "
          "follow, which is the premise h'(max p) > 0 of lemma:beta_lemma_monotone; the proof also shows only "
          "Delta_min = Omega(eps), i.e. beta <= 1 (beta >= 1 needs Delta_min = O(eps), true by concavity at x' but "
          "not shown)")
    if bad:
        k, v = st.smallest(bad, lambda t: _beta_size(t[0]))
        ev += f"; smallest counterexample: {_fmt_beta(k)}: {num(v, 3)}"
    return CheckResult(claim.id, c.claim, c.printed, "holds" if not bad else "fails", decide(holds=not bad),
                       "numeric", ev)


CHECKS = {IDS[0]: _jensen, IDS[1]: _fubini, IDS[2]: _delta_43, IDS[3]: _delta_5,
          IDS[4]: lambda c: _delta_2(c, False), IDS[5]: lambda c: _delta_2(c, True), IDS[6]: _constant,
          IDS[7]: _solitary_best, IDS[8]: _astar, IDS[9]: _aprime, IDS[10]: _concavity, IDS[11]: _best_second,
          IDS[12]: _delta_min}


def check(claim: Claim) -> CheckResult:
    return CHECKS[claim.id](claim)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    i = IDS.index(claim.id)
    if i == 0:
        return [hl.reprint(claim, "any h", "the hypothesis 'h concave' dropped")]
    if i == 1:
        return [hl.reprint(claim, "alpha**2", "another weight")]
    if i in (2, 3):
        return st.mutants_by_status(claim, result, "smaller")
    if i == 4:
        repair = next((n for n, _k in de.REPAIRS if result.derived == f"holds on {n}"), None)
        used_etc = ([claim.assuming("uses", paper_claims.DELTA_ERROR_USES[:1], "used only on the ETC grid (RS-ETC-M)")]
                    if result.status == "refuted" and repair else [])
        return st.mutants_by_status(claim, result, "smaller",
                                    repair=("cases", repair, f"on {repair}") if repair else None) + used_etc
    if i == 5:
        return st.mutants_by_status(claim, result, "smaller") + (
            [claim.assuming("cases", K2_EXACT, f"on {K2_EXACT}")] if result.status == "refuted" else [])
    if i == 6:
        return st.mutants_by_status(claim, result, "smaller", str(chained_delta_bound()[0]))
    if i in (7, 8, 9):
        extra = [hl.reprint(claim, "<=", "the weak relation")] if i == 7 and result.status != "verified" else []
        return st.mutants_by_status(claim, result, "equal", repair=("grid", MID, f"on {MID}")) + extra
    if i in (10, 12):
        return st.mutants_by_status(claim, result, "larger")
    return st.mutants_by_status(claim, result, "equal")


CLAIMS = claim_map(*st.step_claims(IDS, check, mutants))
