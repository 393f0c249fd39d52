"""``theorem:W``: W <= sqrt(2 pi) for 1-sub-Gaussian arms, in the paper's setting (sec:setting: laws on
Omega subset of R_+ with a finite first moment).

W (eq:W) divides ||sum_i (alpha_i - beta_i) F_i||_W by ||alpha - beta||_1; the signed measure splits into two
mixtures of mass ||alpha - beta||_1/2 each, so W = (1/2) max over mixture pairs of W1 <= (1/2) max_{i,j}
W1(F_i, F_j) (attained at alpha - beta = e_i - e_j; see :func:`rsb_theory.oracle.W_bernoulli`).  Two readings of
"1-sub-Gaussian" are checked, both with laws on R_+:

* ``centred`` (the usual definition, the theorem's hypothesis as printed): X - E X is 1-sub-Gaussian.  Every point
  mass delta_m (m >= 0) qualifies (X - E X = 0), and the pair delta_0, delta_m has W = m/2, unbounded: the smallest
  m of :data:`SHIFTS` beating the bound is the counterexample (delta_0, delta_6: W = 3 > sqrt(2 pi)).
* ``tail`` (what the proof's step eq:W_7 -> eq:W_8 uses): P(|X| > u) <= 2 exp(-u^2/2).  For two such laws on R_+,
  W1(F, G) = int_0^oo |S_F - S_G| <= int_0^oo min(1, 2 exp(-u^2/2)) du, which delta_0 against the law with survival
  min(1, 2 exp(-u^2/2)) attains: sup W is half that integral, computed by quadrature (two routes).

The tail reading holds at every use of the theorem (theorem: ETC upper bound, eq:theorem_lastline_CE, the tables and
the experiments: Bernoulli arms): a law on [0, b] satisfies it iff b <= sqrt(2 log 2) = 1.177 (where 2 exp(-u^2/2)
reaches 1), and Bernoulli laws live on [0, 1].
"""

from __future__ import annotations

import math
from functools import lru_cache

from scipy import integrate

from rsb_theory.oracle import W_bernoulli
from rsb_theory.expressions import evaluate

from .. import paper_claims
from ..claims import Claim, claim_map
from ..ledger import CheckResult
from ..verdict import decide
from ..numfmt import num

ID = "theorem:W"
#: The reading of "1-sub-Gaussian" the proof uses (a mutant states it).
TAIL = "P(|X| > u) <= 2 exp(-u^2/2)"
#: Atoms m of the centred pair delta_0, delta_m (laws on R_+ with X - E X = 0).
SHIFTS = (1.0, 2.0, 4.0, 6.0, 8.0)
#: The support bound of the laws at the paper's uses (Bernoulli arms: Omega = {0, 1}).
USES_SUPPORT = 1.0


def _w1_point_masses(m: float) -> float:
    """W1(delta_0, delta_m) by quadrature of |F_0 - F_m| = 1 on [0, m) (lemma:lipschitz-wasserstein)."""
    val, _ = integrate.quad(lambda x: 1.0 if x < m else 0.0, 0.0, m + 1.0, points=[m])
    return val


@lru_cache(maxsize=1)
def centred_pairs() -> tuple[tuple[float, float], ...]:
    """(atom m, W of delta_0 and delta_m) for m in :data:`SHIFTS` (W = W1/2 = m/2)."""
    return tuple((m, _w1_point_masses(m) / 2) for m in SHIFTS)


@lru_cache(maxsize=1)
def tail_supremum() -> tuple[float, float]:
    """sup of E X over laws on R_+ under :data:`TAIL` by two routes: int_0^oo min(1, 2 exp(-u^2/2)) du, and the first
    moment of the extremal law (P(X > x) = min(1, 2 exp(-x^2/2)): X >= c = sqrt(2 log 2), density 2 x exp(-x^2/2)
    beyond c), which is W1 of the pair delta_0, X."""
    c = tail_support()
    tail, _ = integrate.quad(lambda u: 2 * math.exp(-u * u / 2), c, math.inf)
    moment, _ = integrate.quad(lambda x: x * 2 * x * math.exp(-x * x / 2), c, math.inf)
    return c + tail, moment


def tail_support() -> float:
    """sqrt(2 log 2), where 2 exp(-u^2/2) = 1: a law on [0, b] satisfies :data:`TAIL` iff b <= this."""
    return math.sqrt(2 * math.log(2))


def sup_W() -> tuple[float, float]:
    """sup W over instances on R_+ under :data:`TAIL`, by the two routes of :func:`tail_supremum` (W = W1/2)."""
    a, b = tail_supremum()
    return a / 2, b / 2


def condition_at_uses() -> tuple[bool, str]:
    """Does :data:`TAIL` hold at every use of the theorem?  The uses (:func:`proofs_checks.graph.used_by`) apply it to
    the tables' and the experiments' Bernoulli arms, laws on [0, :data:`USES_SUPPORT`]."""
    from .. import graph

    users = graph.used_by(ID)
    ok = USES_SUPPORT <= tail_support()
    return ok, (f"used by {', '.join(users)} at Bernoulli arms (the tables, the experiments), laws on [0, "
                f"{num(USES_SUPPORT)}]; a law on [0, b] satisfies {TAIL} iff b <= sqrt(2 log 2) = "
                f"{num(tail_support(), 6, 'f')}")


def check(claim: Claim) -> CheckResult:
    bound_text = claim.printed
    bound = evaluate(bound_text, "bound")
    reading = claim.assumes("reading", "centred")
    sw, sw_extremal = sup_W()
    pairs = centred_pairs()
    beats = [(m, w) for m, w in pairs if w > bound]
    tail_ok = sw_extremal <= bound + 1e-12
    tail = reading == "tail"
    at_uses, where = condition_at_uses()
    # centred reading: a pair of arms on R_+ beating the bound refutes it unless the proof's tail condition repairs it
    # (a repair only if it holds at the uses); the tail reading: the extremal pair decides, and a supremum below the
    # bound is a proven better constant
    status = decide(holds=tail_ok if tail else not beats, repair=TAIL if not tail and beats and tail_ok else None,
                    sharper=tail and sw < bound * (1 - 1e-9), repair_at_uses=at_uses)
    derived = (f"sup W = {num(sw, 6)} under {TAIL}" if tail else
               f"unbounded (centred); sup W = {num(sw, 6)} under {TAIL}")
    w_bern = W_bernoulli([0.0, 1.0])  # largest W over Bernoulli instances
    ev = (f"Setting: laws on R_+ (sec:setting). Bernoulli arms: W = (max p - min p)/2 <= {w_bern}. Centred reading "
          f"(X - E X 1-sub-Gaussian): point masses qualify, and arms delta_0, delta_m have W = W1/2 = "
          + ", ".join(f"{num(w, 4, 'f')} (m={num(m, 6)})" for m, w in pairs)
          + (f": delta_0, delta_{num(beats[0][0], 6)} beat {bound_text} = {num(bound, 4, 'f')}" if beats
             else f", all <= {num(bound, 4, 'f')}")
          + f". The proof's step eq:W_7 -> eq:W_8 integrates {TAIL}, a tail bound on X itself; under it, for laws on "
          f"R_+, W1(F_i, F_j) = int_0^oo |S_i - S_j| <= int_0^oo min(1, 2 exp(-u^2/2)) du = {num(2 * sw, 6, 'f')}, and "
          f"W (eq:W divides by ||alpha - beta||_1, each sign carrying half of it) <= half of that: sup W = "
          f"{num(sw, 6, 'f')}, attained by delta_0 against the law with survival min(1, 2 exp(-u^2/2)) (W = half its "
          f"first moment = {num(sw_extremal, 6, 'f')}); this is < 1. The tail reading holds at every use: {at_uses} "
          f"({where})" + ("" if tail else "; the claim reads 1-sub-Gaussian as centred, the usual definition"))
    return CheckResult(ID, f"W <= {bound_text} for 1-sub-Gaussian arms"
                       + (f" (read as {TAIL})" if tail else ""), bound_text, derived, status,
                       "numeric", ev, condition_at_uses=at_uses if status == "conditional" else None)


def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
    out = []
    if claim.assumes("reading") != "tail":
        out.append(claim.assuming("reading", "tail", f"1-sub-Gaussian read as {TAIL} (the proof's condition)"))
    tail_claim = claim.assuming("reading", "tail", "")
    quarter = f"({claim.printed})/4"  # below sup W = 0.888 under the tail reading: refuted
    out.append(tail_claim.reprinted(quarter, f"W <= {quarter} under {TAIL}"))
    return out


CLAIMS = claim_map(Claim(ID, paper_claims.THEOREM_W_BOUND, check, mutants))
