"""``lemma:lipschitz-wasserstein`` (eq lipwass2): three forms of W1 agree.

For random finite-support laws (fixed seed, atoms of either sign) the
dual form sup_{||f||_L <= 1} |E f(X) - E f(Y)| is solved as a linear program
over the values of f at the merged atoms (``scipy.optimize.linprog``; on a
finite set 1-Lipschitz is |f_{j+1} - f_j| <= z_{j+1} - z_j), against the CDF
integral (:func:`rsb_theory.riskmetric.wasserstein1_finite`), the quantile
integral (exact, over the merged cumulative levels) and
``scipy.stats.wasserstein_distance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import optimize, stats

from rsb_theory.expressions import evaluate
from rsb_theory.riskmetric import wasserstein1_finite

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num, resid

ID = "lemma:lipschitz-wasserstein"
SEED = 20250302
TOL = 1e-9


@dataclass(frozen=True)
class DualForm:
    """A printed statement with a sup over Lipschitz functions: the statement and the radius of the ball
    (``||f||_L <= lipschitz``)."""

    statement: paper_claims.LemmaClaim
    lipschitz: str


def random_pair(rng: np.random.Generator, max_atoms: int = 7, scale: float = 3.0):
    """Two finite-support laws (atoms, probs), atoms of either sign, some masses zero."""
    laws = []
    for _ in range(2):
        m = int(rng.integers(1, max_atoms + 1))
        xs = np.sort(rng.normal(0, scale, m))
        ps = rng.dirichlet(np.ones(m) * 0.7)
        laws.append((xs, ps))
    return laws


def merged(law_x, law_y):
    """Both laws on their merged sorted atoms."""
    z = np.union1d(law_x[0], law_y[0])
    px = np.zeros(z.size)
    py = np.zeros(z.size)
    np.add.at(px, np.searchsorted(z, law_x[0]), law_x[1])
    np.add.at(py, np.searchsorted(z, law_y[0]), law_y[1])
    return z, px, py


def dual_lp(z: np.ndarray, px: np.ndarray, py: np.ndarray, sign: int = 1, lipschitz: float = 1.0) -> float:
    """sup over ``lipschitz``-Lipschitz f of sign * (E f(X) - E f(Y)), as an LP on f(z_j) (f(z_0) = 0)."""
    m = z.size
    if m == 1:
        return 0.0
    diff = sign * (px - py)
    gaps = np.diff(z)
    D = np.zeros((m - 1, m))
    D[np.arange(m - 1), np.arange(m - 1)] = -1.0
    D[np.arange(m - 1), np.arange(1, m)] = 1.0
    A = np.vstack([D, -D])
    b = lipschitz * np.concatenate([gaps, gaps])
    bounds = [(0.0, 0.0)] + [(None, None)] * (m - 1)
    res = optimize.linprog(-diff, A_ub=A, b_ub=b, bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"linprog failed: {res.message}")
    return float(-res.fun)


def quantile_integral(law_x, law_y) -> float:
    """int_0^1 |F_X^-1(b) - F_Y^-1(b)| db, exactly: quantiles are constant between merged cumulative levels."""
    cx, cy = np.cumsum(law_x[1]), np.cumsum(law_y[1])
    cx[-1] = cy[-1] = 1.0
    levels = np.unique(np.concatenate([[0.0], cx, cy]))
    levels = levels[(levels >= 0) & (levels <= 1)]
    mids = (levels[:-1] + levels[1:]) / 2
    qx = law_x[0][np.minimum(np.searchsorted(cx, mids, side="left"), cx.size - 1)]
    qy = law_y[0][np.minimum(np.searchsorted(cy, mids, side="left"), cy.size - 1)]
    return float(np.sum(np.diff(levels) * np.abs(qx - qy)))


@lru_cache(maxsize=None)
def compare_forms(seed: int = SEED, n_pairs: int = 150, lipschitz: float = 1.0) -> dict[str, float]:
    """Largest disagreement between the forms over ``n_pairs`` random pairs (dual over ``lipschitz``-Lipschitz f)."""
    rng = np.random.default_rng(seed)
    worst = {"lp_vs_cdf": 0.0, "quantile_vs_cdf": 0.0, "scipy_vs_cdf": 0.0, "abs_sign": 0.0, "max_w": 0.0}
    for _ in range(n_pairs):
        lx, ly = random_pair(rng)
        z, px, py = merged(lx, ly)
        cdf = float(wasserstein1_finite(z, px / px.sum(), py / py.sum()))
        lp_pos, lp_neg = dual_lp(z, px, py, 1, lipschitz), dual_lp(z, px, py, -1, lipschitz)
        q = quantile_integral(lx, ly)
        sc = float(stats.wasserstein_distance(lx[0], ly[0], lx[1], ly[1]))
        worst["lp_vs_cdf"] = max(worst["lp_vs_cdf"], abs(max(lp_pos, lp_neg) - cdf))
        worst["abs_sign"] = max(worst["abs_sign"], abs(lp_pos - lp_neg))
        worst["quantile_vs_cdf"] = max(worst["quantile_vs_cdf"], abs(q - cdf))
        worst["scipy_vs_cdf"] = max(worst["scipy_vs_cdf"], abs(sc - cdf))
        worst["max_w"] = max(worst["max_w"], cdf)
    return worst


#: Agreement required between the quadratures on unbounded laws (relative; each route is good to about 1e-9).
TOL_UNBOUNDED = 1e-8


@lru_cache(maxsize=None)
def compare_unbounded(lipschitz: float = 1.0) -> dict[str, float]:
    """The three forms on every pair of :func:`._unbounded.laws` (laws on [0, oo) with unbounded support): the CDF
    integral by rsb_theory.laws (truncated copies, dropped tail < 1e-14), the quantile integral and the dual value
    of the optimal ``lipschitz``-Lipschitz f by scipy quadrature on the untruncated laws."""
    from rsb_theory.laws import wasserstein1

    from . import _unbounded

    L = _unbounded.laws()
    worst = {"quantile_vs_cdf": 0.0, "dual_vs_cdf": 0.0, "pairs": 0, "max_w": 0.0}
    for i in range(len(L)):
        for j in range(i + 1, len(L)):
            cdf = wasserstein1(L[i].proxy, L[j].proxy)
            worst["quantile_vs_cdf"] = max(worst["quantile_vs_cdf"], abs(_unbounded.w1_quantile(L[i], L[j]) - cdf))
            worst["dual_vs_cdf"] = max(worst["dual_vs_cdf"], abs(_unbounded.dual_value(L[i], L[j], lipschitz) - cdf))
            worst["pairs"] += 1
            worst["max_w"] = max(worst["max_w"], cdf)
    return worst


def check(claim: Claim) -> CheckResult:
    form: DualForm = claim.printed
    c = form.statement
    lip = evaluate(form.lipschitz, "lipschitz")
    w = compare_forms(SEED, lipschitz=lip)
    u = compare_unbounded(float(lip))
    from . import _unbounded

    ok_u = max(u["quantile_vs_cdf"], u["dual_vs_cdf"]) < TOL_UNBOUNDED * max(1.0, u["max_w"])
    ok = max(w["lp_vs_cdf"], w["quantile_vs_cdf"], w["scipy_vs_cdf"]) < TOL * max(1.0, w["max_w"]) and ok_u
    ball = "" if form.lipschitz == "1" else f" (the sup over ||f||_L <= {form.lipschitz})"
    return CheckResult(ID, c.claim + ball, c.printed, "all three equal" if ok else "forms differ", decide(holds=ok),
                       "numeric",
                       f"seed {SEED}: 150 random pairs of finite-support laws (1-7 atoms ~ N(0, 9), Dirichlet masses), "
                       f"W1 up to {num(w['max_w'], 3)}; max |LP dual (||f||_L <= {form.lipschitz}) - CDF integral| = "
                       f"{resid(w['lp_vs_cdf'], 2)}, max |quantile "
                       f"integral - CDF integral| = {resid(w['quantile_vs_cdf'], 2)}, max |scipy.stats.wasserstein_distance - "
                       f"CDF integral| = {resid(w['scipy_vs_cdf'], 2)}; the absolute value is immaterial (f -> -f): max "
                       f"|sup(E f(X) - E f(Y)) - sup(E f(Y) - E f(X))| = {num(w['abs_sign'], 2)}.  Unbounded laws on "
                       f"R_+ ({', '.join(x.name for x in _unbounded.laws())}; {u['pairs']} pairs, W1 up to "
                       f"{num(u['max_w'], 3)}): CDF integral (rsb_theory.laws, copies truncated at 45, dropped tail < "
                       f"{num(_unbounded.TAIL, 1)}) against the quantile integral and the dual value of the optimal f "
                       f"(||f||_L <= {form.lipschitz}) by quadrature on [0, oo): max differences "
                       f"{resid(u['quantile_vs_cdf'], 2)} and {resid(u['dual_vs_cdf'], 2)}: "
                       f"{'they agree' if ok_u else 'they differ'} (tolerance {num(TOL_UNBOUNDED, 1)} relative)")


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    """The unit ball doubled: the dual form then gives 2 W1."""
    form: DualForm = claim.printed
    doubled = f"2*({form.lipschitz})"
    return [claim.reprinted(DualForm(form.statement, doubled), f"the sup taken over ||f||_L <= {doubled}")]


CLAIMS = claim_map(Claim(ID, DualForm(paper_claims.lemma_claim(ID), paper_claims.LIPSCHITZ_BALL), check, mutants))
