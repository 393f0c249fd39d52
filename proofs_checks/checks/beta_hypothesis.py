"""The eps-independent results' hypothesis "when beta exists" at the paper's own instance (exact arithmetic).

``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` state their rates "when beta exists", beta = lim_{eps -> 0}
log Delta_min(eps)/log eps; their proofs assume Delta_min(eps) = Omega(eps^beta), a lower bound at every eps the
algorithm uses, which a limit does not give.  Table 1 (``table:table_risks``) leaves beta of Gini open ("-"), yet
the experiments (``sec: experiments``) and Table 2's Gini row apply the rates to Gini on Bern(0.4), Bern(0.9).

Delta_min(eps) of ``eq:discrete_gap`` is min over a != a* of V(a*) - V(a): 0 when two grid points tie at the
maximum.  For Bernoulli arms V(a) = h(<a, p>) and Gini's h(u) = u(1 - u) is a polynomial, so every Delta_min(eps),
eps = 1/n, n = 2..80, is an exact rational on the grid points of :class:`rsb_theory.grids.Grid` (integer counts,
coordinates eps (n_i + offset), the last one taking up the deficit).  The claim judged here: the printed hypothesis
holds at that use and gives the proofs' assumption there.  On the mid-point grid the optimum ties on 16 of the 79
grids (Delta_min = 0: the limit does not exist, the corollary says nothing at the paper's instance); restricted to
the eps without a tie, Delta_min(eps) >= c eps^2 holds (the unstated condition, which an eps = Theta(...) choice
can meet), so the verdict is ``conditional``.  On the etc grid no grid ties and Delta_min(eps)/eps^2 stays in a
fixed range: beta = 2 and Omega(eps^2) hold there.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from rsb_theory.grids import Grid

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import decide

#: The experiments' instance and the grids eps = 1/n, n in NS.
P = (Fraction(2, 5), Fraction(9, 10))
NS = tuple(range(2, 81))
#: The unstated condition: the eps the algorithm uses avoid ties, with a lower bound c eps^beta there.
CONDITION = ("Delta_min(eps) = Omega(eps^beta) on the eps the algorithm uses (eps chosen where no two grid points "
             "tie at the optimum)")


def gini(u):
    return u * (1 - u)


def grid_points(n, kind: str) -> list[tuple[Fraction, ...]]:
    """The grid of rsb_theory.grids at eps = 1/n (``n`` an integer or a Fraction), exact: coordinates eps (count +
    offset), the last the deficit (the footnote to eq:etc_discrete_set when 1/eps is not an integer)."""
    eps = 1 / Fraction(n)
    g = Grid(len(P), float(eps), kind)
    off = Fraction(0) if kind == "etc" else Fraction(1, 2)
    out = []
    for row in g.counts():
        head = [eps * (int(c) + off) for c in row[:len(P) - 1]]
        out.append(tuple(head + [1 - sum(head)]))
    return out


#: The eps the algorithms may choose off the grids eps = 1/n: eps = k/100 whose 1/eps is not an integer (the eps =
#: Theta(...) of the statements is any real number).
OFF_GRID = tuple(Fraction(k, 100) for k in range(2, 51) if 100 % k)


@lru_cache(maxsize=None)
def off_grid_ties(kind: str) -> tuple[Fraction, ...]:
    """The eps of :data:`OFF_GRID` at which two grid points tie at the optimum (Delta_min(eps) = 0), exactly."""
    return tuple(eps for eps in OFF_GRID if delta_min(1 / eps, kind)[1] > 1)


@lru_cache(maxsize=None)
def delta_min(n, kind: str) -> tuple[Fraction, int]:
    """(Delta_min(1/n) of eq:discrete_gap, exact; the number of optimal grid points); ``n`` an integer or a
    Fraction (1/eps)."""
    V = sorted((gini(sum(a * p for a, p in zip(pt, P))) for pt in grid_points(n, kind)), reverse=True)
    n_opt = sum(v == V[0] for v in V)
    return (Fraction(0) if n_opt > 1 else V[0] - V[1]), n_opt


#: Candidate exponents for beta (quarter steps) and the split of the grids into coarse (n <= SPLIT) and fine.
CANDIDATES = tuple(Fraction(k, 4) for k in range(2, 17))
SPLIT = 40


def _band(kept, b: Fraction) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(min, max) of Delta_min(eps)/eps^b over the coarse grids and over the fine ones (exact)."""
    def r(n, d):
        return d * Fraction(n) ** b if b.denominator == 1 else Fraction(float(d) * n ** float(b))
    coarse = [r(n, d) for n, d in kept if n <= SPLIT]
    fine = [r(n, d) for n, d in kept if n > SPLIT]
    return min(coarse), max(coarse), min(fine), max(fine)


def bounded_below(kept, b: Fraction) -> bool:
    """Delta_min(eps) >= c eps^b across the grids: the ratio's minimum over the fine grids is no less than 3/4 of
    its minimum over the coarse ones (a ratio falling like n^-(1/4), for a b a quarter too small, falls by 2^(-1/4)
    = 0.84 from n = 40 to n = 80)."""
    lo_c, _hi_c, lo_f, _hi_f = _band(kept, b)
    return lo_f > 0 and lo_f >= Fraction(19, 20) * lo_c


def bounded_above(kept, b: Fraction) -> bool:
    _lo_c, hi_c, _lo_f, hi_f = _band(kept, b)
    return hi_f <= Fraction(20, 19) * hi_c


def facts(kind: str, exponent: Fraction | None, avoid_ties: bool) -> dict:
    rows = [(n, *delta_min(n, kind)) for n in NS]
    ties = [n for n, _d, k in rows if k > 1]
    kept = [(n, d) for n, d, k in rows if not (avoid_ties and k > 1)]
    zero = any(d == 0 for _n, d in kept)
    # beta: the exponent with Delta_min(eps)/eps^beta bounded above and below across the grids (none with a zero)
    beta = None if zero else next((b for b in CANDIDATES if bounded_below(kept, b) and bounded_above(kept, b)), None)
    b = exponent if exponent is not None else beta
    band = _band(kept, b) if b is not None and not zero else None
    return {"rows": rows, "ties": ties, "kept": kept, "beta": beta, "b": b, "band": band,
            "omega": band is not None and bounded_below(kept, b),
            "slopes": [math.log(d) / math.log(n) for n, d in kept if d > 0 and n >= 10]}


def check(claim: Claim) -> CheckResult:
    label = claim.id.partition("#")[0]
    kind = paper_claims.BETA_USES[label]
    exponent = claim.assumes("exponent")
    f = facts(kind, exponent, avoid_ties=False)
    # the printed hypothesis holds at the use and gives Omega(eps^beta): no tie, a limit, Delta_min/eps^beta bounded
    # below (the smallest ratio over the grids, against the ratio's scale at the coarsest ones)
    off = off_grid_ties(kind)
    holds = not f["ties"] and not off and f["b"] is not None and f["omega"]
    g = facts(kind, exponent, avoid_ties=True)
    repair = CONDITION if (not holds and g["b"] is not None and g["omega"]) else None
    stated = claim.assumes("condition") == CONDITION
    if stated and not holds:
        holds, f = (g["b"] is not None and g["omega"]), g
    grid_words = "the etc grid eq:etc_discrete_set" if kind == "etc" else "the mid-point grid of section RS_UCB_M"
    ev = (f"The experiments' instance (sec: experiments: Gini h(u) = u(1 - u) on Bern(2/5), Bern(9/10)) on {grid_words} "
          f"(rsb_theory.grids, exact rationals), eps = 1/n, n = {NS[0]}..{NS[-1]}: Delta_min(eps) of eq:discrete_gap "
          "(0 when two grid points tie at the optimum).  ")
    if f["ties"] or (not stated and g["ties"]):
        t = f["ties"] or g["ties"]
        ev += (f"The optimum ties on {len(t)} of {len(NS)} grids (n = {', '.join(map(str, t))}; {sum(n <= 40 for n in t)} of "
               f"the {sum(n <= 40 for n in NS)} grids with n <= 40): Delta_min(eps) = 0 "
               "there, log Delta_min(eps)/log eps = +inf, so the limit beta does not exist and the printed hypothesis "
               "'when beta exists' fails at the paper's own instance; the proof's assumption "
               f"{paper_claims.BETA_PROOF_ASSUMPTION} fails with it (N(eps) and T(eps) are infinite at those eps).  ")
    else:
        ev += "No grid eps = 1/n ties.  "
    ev += (f"Off those grids (eps = k/100, 1/eps not an integer, {len(OFF_GRID)} values; the eps = Theta(...) of the "
           f"statement is any real): the optimum ties at eps = {', '.join(map(str, off))}, where Delta_min(eps) = 0.  "
           if off else f"Off those grids (eps = k/100, 1/eps not an integer, {len(OFF_GRID)} values): no tie.  ")
    h = f if f["band"] is not None else g
    if h["b"] is not None and h["band"] is not None:
        lo_c, hi_c, lo_f, hi_f = h["band"]
        ev += (f"On the grids {'without a tie' if h is g and f is not g else 'used'}: log Delta_min/log(1/eps) at "
               f"n = 10..80 runs {num(min(h['slopes']), 4)}..{num(max(h['slopes']), 4)} (slowly: Delta_min = c eps^2 "
               f"gives 2 + log(1/c)/log n); with beta = {h['b']}{' (stated)' if exponent is not None else ''}, "
               f"Delta_min(eps)/eps^beta lies in [{num(float(lo_c), 4)}, {num(float(hi_c), 4)}] for n <= {SPLIT} and "
               f"[{num(float(lo_f), 4)}, {num(float(hi_f), 4)}] for n > {SPLIT}"
               + (": bounded below, Omega(eps^beta) holds there." if h["omega"] else
                  ": falling, Omega(eps^beta) fails.") + "  ")
    if repair:
        ev += (f"Unstated condition: {CONDITION}.  It holds at the use: the eps = Theta(...) of the statement can be "
               "taken off the tie grids, where Delta_min(eps) = Omega(eps^2).  Without it the result says nothing "
               "at the experiments' instance, which Table 2's Gini row and the experiments apply it to.")
    text = (f"{label}: the hypothesis '{paper_claims.BETA_HYPOTHESIS}' holds at the experiments' instance on its grid "
            f"and gives the proof's assumption {paper_claims.BETA_PROOF_ASSUMPTION} there"
            + (f" (beta = {exponent} stated)" if exponent is not None else "") + (f"; {CONDITION}" if stated else ""))
    derived = ("no beta: Delta_min(eps) = 0 on " + f"{len(f['ties'])} of {len(NS)} grids" if f["ties"] else
               f"Delta_min(eps) = 0 at eps = {', '.join(map(str, off))} (1/eps not an integer); on eps = 1/n: "
               f"beta = {f['b']}" if off and not stated else
               f"beta = {f['b']}, Omega(eps^beta) {'holds' if f['omega'] else 'fails'}"
               if f["b"] is not None else "no beta found")
    return CheckResult(claim.id, text, paper_claims.BETA_HYPOTHESIS, derived, decide(holds=holds, repair=repair),
                       "symbolic", ev)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if result.status == "conditional":
        return [claim.assuming("condition", CONDITION, f"{CONDITION} stated")]
    # a verified hypothesis: a smaller beta (a stronger lower bound) must fail
    return [claim.assuming("exponent", Fraction(1), "beta = 1 (Delta_min = Omega(eps), as for strictly monotone h)")]


CLAIMS = claim_map(*(Claim(f"{label}#hypothesis.beta", paper_claims.BETA_HYPOTHESIS, check, mutants)
                     for label in paper_claims.BETA_USES))
