"""The steps of ``proof:lemma_example`` (the proof of ``example utility``, Gini deviation).

* ``eq:h_1_p`` -- U_h(Bern(p)) = h(p), "readily verified" for any h: eq:wang_def integrated (SymPy) for every
  registered family at the parameter values of the tables;
* the sentence after it -- "owing to concavity of h, the maximiser p* is unique" and, h non-monotone, interior:
  tried on every concave, non-monotone registered h over the family's domain.  Concavity does not give uniqueness
  (inter-ES at alpha > 1/2 has a flat top); strict concavity does, and the lemma's u(1 - u) is strictly concave;
* ``eq:p_max_def`` -- p* = lambda p_1 + (1 - lambda) p_2 with lambda in (0, 1) (symbolic);
* the display after it -- U_h(F*) = h(p*) > max{h(p_1), h(p_2)} (Gini, symbolic).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import sympy as sp

from rsb_theory.distortions import REGISTRY, U, get
from rsb_theory.expressions import to_sympy
from rsb_theory.profile import of
from rsb_theory.riskmetric import P

from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide, fmt_set
from . import _holder as hl
from . import _steps_a as st
from rsb_theory.errors import ArgumentError

IDS = ("example utility#step:eq:h_1_p", "example utility#step:after:eq:h_1_p", "example utility#step:eq:p_max_def",
       "example utility#step:after:eq:p_max_def")
STRICT = "h strictly concave"
#: Grid of the numeric strict-concavity test (second differences).
CONCAVITY_GRID = 2001


# --- eq:h_1_p ------------------------------------------------------------------------------------------------------

def _h_1_p(claim: Claim) -> CheckResult:
    c = claim.printed
    arg = to_sympy(c.printed, "argument", {"p": P})
    rows = [(key,) + st.bernoulli_matches(key, REGISTRY[key].expression().subs(U, arg)) for key in REGISTRY]
    bad = [r for r in rows if not r[1]]
    ev = (f"eq:wang_def integrated by SymPy over the CDF of Bern(p) (0 below 0, 1 - p on [0, 1), 1 from 1) minus "
          f"h({c.printed}), identically 0 on [0, 1]: " + "; ".join(f"{k}: {ok} ({how})" for k, ok, how, _w in rows)
          + "; parameter values of the tables: " + ", ".join(st.tag(k, fp) for k, fp in st.table_sweep()
                                                            if st.piecewise(REGISTRY[k].expression())))
    if bad:
        key, _ok, _how, (fp, x) = bad[0]
        ev += f"; smallest counterexample: {st.tag(key, fp)} at p = {x}"
    return CheckResult(c.id, c.claim, f"U_h(Bern(p)) = h({c.printed})", "h(p)" if not bad else "differs",
                       decide(holds=not bad), "symbolic", ev)


# --- the sentence after eq:h_1_p -----------------------------------------------------------------------------------

def strictly_concave(key: str, fp: tuple) -> bool:
    """Second differences of h on a uniform grid of [0, 1] all negative (numeric test of strict concavity)."""
    u = np.linspace(0, 1, CONCAVITY_GRID)
    v = st.dist(key, fp).numeric(u)
    return bool(np.all(v[:-2] - 2 * v[1:-1] + v[2:] < -1e-15))


@lru_cache(maxsize=1)
def _maximisers() -> tuple[tuple[str, tuple, tuple, bool], ...]:
    """(key, params, maximisers of h on [0, 1], strictly concave) for every concave, non-monotone h of the domains."""
    out = []
    for key, fp in st.hypothesis_sweep():
        d = st.dist(key, fp)
        if d.shape.is_concave and not d.shape.is_monotone:
            out.append((key, fp, of(d).maximisers((0, 1)), strictly_concave(key, fp)))
    return tuple(out)


def _unique(claim: Claim) -> CheckResult:
    c = claim.printed
    # In the lemma's proof h is fixed: the Gini deviation u(1 - u) (example utility); other h are outside it.
    in_context = claim.fixed("h") is not None
    restrict = claim.assumes("class") == STRICT
    rows = [r for r in _maximisers() if (r[0] == "gini" if in_context else r[3] or not restrict)]
    outside = ([r for r in _maximisers() if r[0] != "gini" and (len(r[2]) != 1 or not 0 < r[2][0] < 1)]
               if in_context else [])
    bad = [r for r in rows if len(r[2]) != 1 or not 0 < r[2][0] < 1]
    strict_ok = all(len(r[2]) == 1 and 0 < r[2][0] < 1 for r in _maximisers() if r[3])
    status = decide(holds=not bad, repair=STRICT if bad and strict_ok else None)
    ev = ("concave, non-monotone registered h (the tables' parameters; inter-ES also at the midpoint of its domain)" + (f" ({STRICT})" if restrict else "") + ": "
          + "; ".join(f"{st.tag(k, fp)}: maximisers {[str(x) for x in opts]}{' (strictly concave)' if s else ''}"
                      for k, fp, opts, s in rows))
    if bad:
        k, fp, opts, _s = st.smallest(bad, lambda r: (sum(sp.fraction(v)[1] for _n, v in r[1]), r[0]))
        ev += (f". Smallest counterexample: {st.tag(k, fp)} (h = {st.dist(k, fp).expr}) is concave and not monotone "
               f"but maximal on all of [{opts[0]}, {opts[-1]}]: concavity gives a convex set of maximisers, not a "
               f"point. Every strictly concave h tried has one interior maximiser ({strict_ok}); the lemma's "
               "h = u(1 - u) is one")
    text = c.claim + (f" (for {STRICT})" if restrict else "")
    note = ("Outside the proof's context (h other than the Gini deviation): the maximiser is not unique for "
            + ", ".join(st.tag(k, fp) for k, fp, _o, _s in outside) + "." if outside else "")
    return CheckResult(c.id, text, c.printed, "unique for strictly concave h" if bad and strict_ok else
                       ("unique" if not bad else "not unique"), status, "symbolic", ev, note=note)


# --- eq:p_max_def and the display after it -------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*([\[(])\s*(.+?)\s*,\s*(.+?)\s*([\])])\s*$")


def parse_range(text: str) -> sp.Interval:
    """A printed interval ``(0, 1)``, ``[0, 1/2)`` as a SymPy interval (ends through the one parser)."""
    m = _RANGE.match(text)
    if m is None:
        raise ArgumentError("printed", f"not an interval: {text!r}")
    lo, hi = to_sympy(m.group(2), "range"), to_sympy(m.group(3), "range")
    return sp.Interval(lo, hi, m.group(1) == "(", m.group(4) == ")")


def _p_max_def(claim: Claim) -> CheckResult:
    c = claim.printed
    a, b, p_star, t = sp.symbols("a b p_star t", positive=True)
    p1, p2 = p_star - a, p_star + b  # p_1 < p* < p_2
    lam = (p2 - p_star) / (p2 - p1)
    solves = sp.simplify(lam * p1 + (1 - lam) * p2 - p_star) == 0
    image = sp.imageset(sp.Lambda(t, 1 / (1 + t)), sp.Interval.open(0, sp.oo))  # lambda = 1/(1 + a/b)
    claimed = parse_range(c.printed)
    holds = solves and bool(image.is_subset(claimed))
    status = decide(holds=holds, sharper=holds and image != claimed)
    return CheckResult(c.id, c.claim, f"lambda in {c.printed}", f"lambda = (p_2 - p*)/(p_2 - p_1) in "
                       f"{fmt_set(image)}", status, "symbolic",
                       f"with p_1 = p* - a, p_2 = p* + b (a, b > 0): lambda = (p_2 - p*)/(p_2 - p_1) = {sp.simplify(lam)} "
                       f"solves p* = lambda p_1 + (1 - lambda) p_2 ({solves}); as a/b ranges over (0, oo) lambda "
                       f"ranges over {fmt_set(image)}; printed {fmt_set(claimed)}")


def _dominates(claim: Claim) -> CheckResult:
    c = claim.printed
    d = get("gini")
    margin = to_sympy(c.printed, "margin")
    x = sp.Symbol("x", real=True)
    (p_star,) = of(d).maximisers((0, 1))
    gap = sp.factor(st.h_of(d, p_star) - st.h_of(d, x))  # U_h(F*) - U_h(F_i) for an arm with mean x != p*
    sides = (sp.Interval.Ropen(0, p_star), sp.Interval.Lopen(p_star, 1))
    holds = all(sp.solveset(gap > margin, x, side) == side for side in sides)
    inf = sp.Min(*[sp.limit(gap, x, p_star, dr) for dr in ("-", "+")])
    ev = (f"Gini: p* = {p_star} (the unique maximiser of h), h(p*) - h(x) = {gap}, which exceeds "
          f"{c.printed} for every x in [0, 1] other than p* ({holds}); when p_1 < p* < p_2, both arms differ from p*")
    if claim.fixed("laws") is not None:
        # In the lemma's own context the arms are Bern(p), Bern(1 - p) for p in [0, 1], and the proof fixes the
        # case it treats ("choose the mean values of the arms such that p_1 < p* and p_2 > p*"): the step is
        # judged there.  The case the choice leaves out (both arms equal to F*) is where the statement itself
        # fails; that is the `example utility` entry's condition, not a false step of the proof.
        p = sp.Symbol("p", real=True)
        both = sp.simplify(gap.subs(x, p)), sp.simplify(gap.subs(x, 1 - p))
        fails = sp.solveset(sp.Min(*both) > margin, p, sp.Interval(0, 1)).complement(sp.Interval(0, 1))
        if not fails.is_empty:
            ev += (f". In the lemma's context (arms Bern(p), Bern(1 - p), p in [0, 1]) the proof's choice "
                   f"p_1 < p* < p_2 leaves out p in {fmt_set(fails)}, where both arms are Bern({p_star}) = F* and the "
                   f"strict inequality fails: the proof covers exactly the p where the statement holds (the "
                   f"`example utility` entry states the condition)")
    return CheckResult(c.id, c.claim + f" {c.printed}", f"U_h(F*) - max_i U_h(F_i) > {c.printed}",
                       f"U_h(F*) - U_h(F_i) = {gap} > 0 for p_i != {p_star}, infimum {inf} (not attained)",
                       decide(holds=holds), "symbolic", ev)


CHECKS = {IDS[0]: _h_1_p, IDS[1]: _unique, IDS[2]: _p_max_def, IDS[3]: _dominates}


def check(claim: Claim) -> CheckResult:
    return CHECKS[claim.id](claim)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    if claim.id == IDS[0]:
        return [hl.reprint(claim, "1 - p", "another argument")]
    if claim.id == IDS[1]:
        return st.mutants_by_status(claim, result, "equal", repair=("class", STRICT, f"for {STRICT}"))
    if claim.id == IDS[2]:
        return [hl.reprint(claim, "(0, 1/2)", "a narrower range")] if result.status == "verified" else \
            st.mutants_by_status(claim, result, "equal", "(0, 1)")
    return st.mutants_by_status(claim, result, "larger")


CLAIMS = claim_map(*st.step_claims(IDS, check, mutants))
