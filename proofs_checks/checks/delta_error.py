"""``lemma:Delta_error``: Delta(eps) <= L (K W)^r (eps/2)^r.

Delta(eps) by the exact discrete optimum (:func:`rsb_theory.discretization.discrete_optimum`),
r and L_MH at the instance (:func:`rsb_theory.holder.mixture_holder`; the
proof's step eq:delta_error_43 uses only assumption:Holder_opt, and
L_MH <= L; where h is flat at p* the pair (q, L_H) on the hull of the means is
used instead), W = (max p - min p)/2.  The lemma is stated for every K, every
instance and every eps, so the check sweeps K = 2..6 with Bernoulli instances
drawn by one seeded generator for every registered distortion (plus a fixed
list of instances), both grids, and eps with 1/eps an integer and not.

The proof's last step (eq:Delta_error_2) needs every coordinate of the nearest
grid point within eps/2 of alpha*, which the footnote of eq:etc_discrete_set
(the last coordinate takes up the deficit when the grid is not exact) does not
give; the condition found is therefore "the grid is exact" (1/eps an integer
on the ETC grid, 1/eps - K/2 an integer on the mid-point grid).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.discretization import discrete_optimum
from rsb_theory.oracle import W_bernoulli
from rsb_theory.distortions import get, names
from rsb_theory.expressions import to_sympy
from rsb_theory.grids import Grid
from rsb_theory.profile import of

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num
from ..causes import because
from ..statuses import Status

ID = "lemma:Delta_error"
SEED = 20250305
#: Fixed instances (distortion, Bernoulli means) besides the drawn ones; the last puts alpha* at a vertex with the
#: other arms at the smallest mean, the farthest a mid-point grid keeps its nearest point (every coordinate >= eps/2).
INSTANCES = (("gini", (0.4, 0.9)), ("right_tail", (0.1, 0.9)), ("mean_median", (0.1, 0.9)),
             ("mean", (0.2, 0.4)), ("mean", (0.9, 0.1)), ("pht", (0.8, 0.3)), ("mean", (0.1, 0.1, 0.1, 0.9)))
#: Numbers of arms and drawn instances per K.
KS, DRAWN_PER_K = (2, 3, 4, 5, 6), 2
#: eps with 1/eps an integer, and not.
EPS_INTEGER = tuple(1 / n for n in (4, 5, 8))
EPS_OTHER = (0.35, 0.3, 0.13)
#: Conditions tried, in order, when the bound fails: (name, which cases they keep).
REPAIRS = (
    ("exact grids (1/eps an integer on the ETC grid, 1/eps - K/2 an integer on the mid-point grid)",
     lambda c: c.exact),
    ("the ETC grid eq:etc_discrete_set with 1/eps an integer", lambda c: c.exact and c.grid == "etc"),
)
_SYMS = {n: sp.Symbol(n, positive=True) for n in ("L", "K", "W", "r", "eps")}


def instances() -> tuple[tuple[str, tuple[float, ...]], ...]:
    """The fixed instances, then DRAWN_PER_K per K from one seeded generator: means with two decimals, the
    distortion drawn alternately from the monotone families (a solitary optimum, alpha* a vertex) and the others
    (a mixture optimum when the means bracket the maximiser of h), so both kinds of alpha* are drawn for every K."""
    rng = np.random.default_rng(np.random.SeedSequence(SEED))
    strata = ([k for k in names() if get(k).shape.is_monotone], [k for k in names() if not get(k).shape.is_monotone])
    drawn = []
    for K in KS:
        for j in range(DRAWN_PER_K):
            keys = strata[j % 2]
            key = keys[int(rng.integers(len(keys)))]
            p = tuple(float(x) for x in np.round(rng.uniform(0, 1, K), 2))
            drawn.append((key, p))
    return INSTANCES + tuple(drawn)


@dataclass(frozen=True)
class Case:
    key: str
    p: tuple[float, ...]
    grid: str
    eps: float
    exact: bool
    Delta: float
    L: float
    r: float
    W: float
    pair: str
    a_star: tuple[float, ...]


@lru_cache(maxsize=1)
def cases() -> tuple[Case, ...]:
    """Every (instance, grid, eps) with its exact Delta(eps) and the instance's (L, r, W)."""
    out = []
    for key, p in instances():
        d = get(key)
        mix = of(d).mixture(p)
        if mix.r != sp.oo and mix.attained:
            r, L, pair = float(mix.r), float(mix.L_MH), f"r={mix.r}, L_MH={num(float(mix.L_MH))}"
        else:  # h flat at p*: use the Hölder pair of the hull
            hh = of(d).holder((min(p), max(p)))
            r, L, pair = float(hh.q), float(hh.L_H), f"r=q={hh.q}, L=L_H={num(float(hh.L_H))}"
        W = float(W_bernoulli(p))
        for grid in ("etc", "ucb"):
            for eps in EPS_INTEGER + EPS_OTHER:
                if grid == "ucb" and 1 / eps - len(p) / 2 < 0:
                    continue
                opt = discrete_optimum(d, p, eps, grid)
                out.append(Case(key, p, grid, eps, Grid(len(p), eps, grid).exact, float(opt.Delta), L, r, W, pair,
                                tuple(np.round(opt.a_star, 4))))
    return tuple(out)


def _ratios(bound_text: str) -> list[tuple[float, Case, float]]:
    f = sp.lambdify(list(_SYMS.values()), to_sympy(bound_text, "bound", _SYMS), "math")
    out = []
    for c in cases():
        b = f(c.L, len(c.p), c.W, c.r, c.eps)
        ratio = c.Delta / b if b > 0 else (0.0 if c.Delta <= 1e-15 else np.inf)
        out.append((ratio, c, b))
    return out


@because("delta_error_grid")
def check(claim: Claim) -> CheckResult:
    restriction = claim.assumes("cases")
    # A repair must hold wherever the paper uses the lemma: on the grid of every algorithm that applies it.
    uses = claim.assumes("uses", paper_claims.DELTA_ERROR_USES)
    used_grids = {g for g, _where in uses}
    keep = dict(REPAIRS).get(restriction, lambda c: True)
    rows = [(x, c, b) for x, c, b in _ratios(claim.printed) if keep(c) and c.grid in used_grids]
    tol = 1 + 1e-9
    worst = max(x for x, _c, _b in rows)
    repair = next((name for name, k in REPAIRS if all(x <= tol for x, c, _b in rows if k(c))), None)
    at_uses = repair is None or all(any(dict(REPAIRS)[repair](c) for _x, c, _b in rows if c.grid == g)
                                    for g in used_grids)
    status = decide(holds=worst <= tol, repair=repair, repair_at_uses=at_uses)
    scope = (f"{len(instances())} instances (K = {min(KS)}..{max(KS)}, seed {SEED}), both grids, eps in "
             f"{[round(e, 4) for e in EPS_INTEGER + EPS_OTHER]}: {len(rows)} cases"
             + (f" on {restriction}" if restriction else ""))
    text = f"Delta(eps) <= {claim.printed}" + (f" on {restriction}" if restriction else "")
    if worst <= tol:
        return CheckResult(ID, text, claim.printed, "holds", status, "numeric",
                           f"largest Delta/bound = {num(worst, 3, 'f')} over {scope}")
    parts = [f"largest Delta/bound = {num(worst, 3, 'f')} over {scope}"]
    for name, k in REPAIRS:
        sub = [r for r in rows if k(r[1])]
        if sub:
            parts.append(f"{num(max(x for x, _c, _b in sub), 3, 'f')} on {name}")
    examples = []
    for name, k in ((None, lambda c: True),) + REPAIRS:
        bad = [r for r in rows if r[0] > tol and k(r[1])]
        if bad:
            x, c, b = max(bad, key=lambda r: r[0])
            examples.append(f"{c.key}, p={c.p}, {c.grid} grid, eps={num(c.eps)}{' (exact)' if c.exact else ''}: "
                            f"Delta = {num(c.Delta)} > bound {num(b)} ({c.pair}, W={num(c.W)}); a* = "
                            f"{[float(a) for a in c.a_star]}")
    ev = ("; ".join(parts) + "; e.g. " + " | ".join(dict.fromkeys(examples))
          + ". Where the grid is not exact, the footnote of eq:etc_discrete_set keeps the first K-1 coordinates on the "
          "eps-lattice, so the nearest grid point can be up to eps - (1 - eps*floor(1/eps)) away in a coordinate, not "
          "eps/2 (eq:Delta_error_2); on the mid-point grid a vertex alpha* = e_i is (K-1) eps away in L1 (every other "
          "coordinate is at least eps/2), more than the K eps/2 of the proof when K >= 3")
    if repair and not at_uses:
        missed = [f"the {g} grid of {where}" for g, where in uses if not any(
            dict(REPAIRS)[repair](c) for _x, c, _b in rows if c.grid == g)]
        ev += (f".  The bound holds on {repair}, but that excludes {', '.join(missed)}, where the paper uses the "
               "lemma: no repair where it is used")
    derived = f"holds on {repair}" if repair else "fails"
    return CheckResult(ID, text, claim.printed, derived, status, "numeric", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    out = []
    if result.status == "refuted" and result.derived.startswith("holds on "):
        # used only where the repair holds (the ETC grid): the repair is then one, and the lemma conditional
        out.append(claim.assuming("uses", paper_claims.DELTA_ERROR_USES[:1],
                                  "used only on the ETC grid (RS-ETC-M)"))
    if result.status == "conditional":
        repair = next(name for name, _k in REPAIRS if result.derived == f"holds on {name}")
        out.append(claim.assuming("cases", repair, f"the bound claimed on {repair}"))
    if Status(result.status).holds:
        half = f"({claim.printed})/2"
        out.append(claim.reprinted(half, f"Delta(eps) <= {half}"))
    return out


# --- the order form the theorems' proofs take from the lemma --------------------------------------------------------

ORDER_ID = ID + "#order"
#: The L1 distance from any alpha in the simplex to the nearest grid point, on both grids with the footnote of
#: eq:etc_discrete_set (any eps), in place of the proof's K eps/2 (eq:Delta_error_2): on the mid-point grid the vertex
#: e_j (j < K) is (K - 1 + 2 f) eps from the grid, f = 1/eps - K/2 - floor(1/eps - K/2) in [0, 1) (the largest first
#: coordinate is eps(m + 1/2), the last coordinate keeps eps(1/2 + f)); on the ETC grid a vertex is at most 2 eps away
#: and an interior point at most K eps/2 + 2 eps.  ``tests`` compare it with the nearest grid point by enumeration.
COVERING = "(K + 1)*eps"


def order_constant(covering: str = COVERING) -> sp.Expr:
    """c with covering radius <= c K eps for every K >= 2: the sup over K >= 2 of covering/(K eps) (3/2 for
    :data:`COVERING`); with eq:delta_error_43 and eq:delta_error_5, Delta(eps) <= L (c W)^r K^r eps^r."""
    K, eps = sp.Symbol("K", positive=True), sp.Symbol("eps", positive=True)
    ratio = sp.simplify(to_sympy(covering, "covering", {"K": K, "eps": eps}) / (K * eps))
    return sp.maximum(ratio, K, sp.Interval(2, sp.oo))


def check_order(claim: Claim) -> CheckResult:
    """The order form Delta(eps) <= C K^a eps^b (a, b the printed powers, C = L (c W)^r independent of K and eps,
    c from the covering radius, :func:`order_constant`) on every case of :func:`cases`: both grids, every eps."""
    covering = claim.assumes("covering", COVERING)
    c = order_constant(covering)
    shape = sp.lambdify([_SYMS["K"], _SYMS["eps"], _SYMS["r"]], to_sympy(claim.printed, "order", _SYMS), "math")
    rows = []
    for k in cases():
        b = k.L * (float(c) * k.W) ** k.r * shape(len(k.p), k.eps, k.r)
        rows.append((k.Delta / b if b > 0 else (0.0 if k.Delta <= 1e-15 else np.inf), k, b))
    tol = 1 + 1e-9
    worst = max(x for x, _k, _b in rows)
    by_grid = {g: max(x for x, k, _b in rows if k.grid == g) for g in ("etc", "ucb")}
    holds = worst <= tol
    text = f"Delta(eps) = O({claim.printed}): Delta(eps) <= L (c W)^r {claim.printed}, c = {c} (covering {covering})"
    ev = (f"Delta(eps) <= L (c W)^r * {claim.printed} with c = {c} = sup_(K >= 2) ({covering})/(K eps), the L1 covering "
          f"radius of the grid in place of the proof's K eps/2 (eq:delta_error_43 and eq:delta_error_5 give Delta <= "
          f"L (W d)^r, d the distance to the nearest grid point), so C = L (c W)^r depends on neither K nor eps.  "
          f"{len(rows)} cases of {ID} ({len(instances())} instances, K = {min(KS)}..{max(KS)}, seed {SEED}; both grids, "
          f"eps in {[round(e, 4) for e in EPS_INTEGER + EPS_OTHER]}, exact and not): largest Delta/bound = "
          f"{num(worst, 3, 'f')} (ETC grid {num(by_grid['etc'], 3, 'f')}, mid-point grid {num(by_grid['ucb'], 3, 'f')})")
    x, k, b = max(rows, key=lambda t: t[0])
    ev += (f"; the largest ratio at {k.key}, p={k.p}, {k.grid} grid, eps={num(k.eps)}{' (exact)' if k.exact else ''}: Delta = "
           f"{num(k.Delta)} vs {num(b)} ({k.pair}, W={num(k.W)})")
    if not holds:
        bad = [t for t in rows if t[0] > tol]
        ev += (f".  Fails in {len(bad)} cases, down to eps = {num(min(t[1].eps for t in bad))}, on the "
               f"{', '.join(sorted({t[1].grid for t in bad}))} grid(s)")
    return CheckResult(ORDER_ID, text, claim.printed, "holds" if holds else "fails", decide(holds=holds), "numeric",
                       ev)


def mutants_order(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status != "verified":
        return [claim.reprinted(paper_claims.DELTA_ERROR_ORDER, "the printed order form")]
    return [claim.reprinted("K**r*eps**(r + 1)", "exponent r + 1 on eps"),
            claim.assuming("covering", "K*eps/2", "the proof's covering radius K eps/2 (eq:Delta_error_2)")]


CLAIMS = claim_map(Claim(ID, paper_claims.DELTA_ERROR_BOUND, check, mutants),
                   Claim(ORDER_ID, paper_claims.DELTA_ERROR_ORDER, check_order, mutants_order))
