"""Shared pieces of the proof-step checks (``steps_*.py``, ``constants_theorems.py``).

* the distortions a step is swept over (the nine rows of ``table:table_regrets`` at their defaults and a
  few more members of the parameter ranges the tables state) with q and L derived once per process
  (:func:`holder_sweep`);
* seeded Bernoulli instances for K = 2..6 (:func:`bernoulli_instances`), spawned from one SeedSequence;
* :func:`entry`: the one way a step check turns its findings into a ledger entry (status from
  :func:`proofs_checks.verdict.decide`);
* :func:`smallest`: the smallest counterexample of a sweep by a size key;
* :func:`printed`: a step's printed formula (text in the toolkit's expression syntax) as SymPy, through the
  one parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

import numpy as np
import sympy as sp

from rsb_theory.expressions import to_sympy

from .. import paper_claims
from ..claims import Claim
from ..ledger import CheckResult
from ..numfmt import num
from ..verdict import decide

#: Root seed of every seeded draw of the proof-step checks (children spawned per purpose).
SEED = 20250316
#: Members of the parameter ranges of ``table:table_regrets`` / ``table:table_risks`` swept besides the defaults.
EXTRA_PARAMETERS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("dual_power", (("s", "3"),)),
    ("quadratic", (("s", "1"),)),
    ("cvar", (("alpha", "3/4"),)),
    ("pht", (("s", "1/4"),)),
)


@dataclass(frozen=True)
class Member:
    """One distortion of the sweep with its derived Hölder exponent q and constant L (``assumption:Holder``)."""

    name: str
    d: object
    q: float
    L: float


def _member(name: str, params: tuple[tuple[str, str], ...]) -> Member:
    from rsb_theory.distortions import get
    from rsb_theory.profile import of

    d = get(name, **dict(params))
    hr = of(d).holder()
    L = hr.L_exact if hr.L_exact is not None else hr.L_H
    return Member(d.describe(), d, float(hr.q), float(L))


def defaults() -> tuple[Member, ...]:
    """The nine registered distortions at their default parameters, with q, L from their profiles."""
    from rsb_theory.distortions import names

    return tuple(_member(n, ()) for n in names())


def holder_sweep() -> tuple[Member, ...]:
    """:func:`defaults` and :data:`EXTRA_PARAMETERS` (q and L kept on each distortion's profile)."""
    return defaults() + tuple(_member(n, p) for n, p in EXTRA_PARAMETERS)


def member(name: str) -> Member:
    """The member named ``name`` (``Distortion.describe()``: ``gini``, ``cvar(alpha=3/4)``)."""
    key, _, rest = name.partition("(")
    params = tuple(tuple(kv.split("=", 1)) for kv in rest.rstrip(")").split(",") if kv) if rest else ()
    m = _member(key, params)
    if m.name != name:  # a default written out (``dual_power(s=2)``) is the default member
        m = _member(key, ())
    if m.name != name:
        raise KeyError(name)
    return m


def top(name: str) -> float:
    """A maximiser of h on [0, 1] (the smallest; h has the same value at each)."""
    from rsb_theory.profile import of

    return float(of(member(name).d).maximisers()[0])


def sup_h(name: str) -> float:
    """max of h on [0, 1]: the supremum B of U_h over laws on [0, 1]."""
    from rsb_theory.profile import of

    return of(member(name).d).sup_h()


@lru_cache(maxsize=None)
def bernoulli_instances(K: int, count: int, purpose: int) -> tuple[tuple[float, ...], ...]:
    """``count`` seeded Bernoulli mean vectors of K arms (two decimals, sorted), stream ``purpose``."""
    seq = np.random.SeedSequence(SEED, spawn_key=(purpose, K))
    rng = np.random.default_rng(seq)
    return tuple(tuple(float(x) for x in np.round(np.sort(rng.uniform(0.02, 0.98, K)), 2)) for _ in range(count))


#: Instances (Bernoulli means) on which Hölder continuity on the hull of the means is compared with the whole of [0, 1].
HULL_INSTANCES = ((0.3, 0.31), (0.05, 0.1), (0.4, 0.9), (0.85, 0.95))


@lru_cache(maxsize=1)
def holder_beyond_hull() -> tuple[tuple[str, tuple[float, float], float, float, float, float] | None, int]:
    """A witness that Hölder continuity on the convex hull Xi of the arms' laws (``assumption:Holder``) does not give
    it between an empirical law and an arm's law: (distortion, hull of the means, q and L_H on the hull, an empirical
    mean x outside the hull, the ratio |h(x) - h(p)| / |x - p|^q > L_H at the nearer end p), and how many
    (distortion, instance) pairs were tried.  For Bernoulli laws U_h = h(mean) and W1 = |difference of means|
    (``lemma:lipschitz-wasserstein``); q, L_H on the hull from :func:`rsb_theory.holder.holder`."""
    from rsb_theory.profile import of

    x = np.linspace(0.0, 1.0, 201)
    tried = 0
    for m in holder_sweep():
        for lo, hi in HULL_INSTANCES:
            tried += 1
            hr = of(m.d).holder((lo, hi))
            q, L = float(hr.q), float(hr.L_exact if hr.L_exact is not None else hr.L_H)
            for p in (lo, hi):
                out = x[(x < lo) | (x > hi)]
                ratio = np.abs(m.d.numeric(out) - m.d.numeric(np.array([p]))[0]) / np.abs(out - p) ** q
                k = int(np.argmax(ratio))
                if ratio[k] > L * (1 + 1e-6) + 1e-12:
                    return (m.name, (lo, hi), q, L, float(out[k]), float(ratio[k])), tried
    return None, tried


def holder_on_xi_only(claim: Claim) -> bool:
    """The claim reads assumption:Holder as printed (Hölder continuity on Xi only), not on every law the algorithm
    forms (a claim that states ``holder_domain``)."""
    return claim.assumes("holder_domain", paper_claims.HOLDER_DOMAIN) == paper_claims.HOLDER_DOMAIN


def on_every_law(claim: Claim, note: str = "Hölder continuity assumed on all laws") -> Claim:
    """The mutant that states Hölder continuity on every law (the in-setting witnesses of :mod:`._holder_witness` are
    then excluded)."""
    return claim.assuming("holder_domain", "all laws on Omega", note)


def holder_domain_follows(claim: Claim) -> tuple[bool, str]:
    """Does a step that applies eq:Holder between an empirical law and an arm's law follow from the Hölder
    continuity the theorem assumes?  Only if the assumption covers those laws: ``HOLDER_DOMAIN`` (printed: Xi, the
    convex hull of the arms' laws) or the domain a claim states (``given`` key ``holder_domain``), and no witness
    shows that continuity on Xi misses them.  Returns (follows, evidence)."""
    domain = claim.assumes("holder_domain", paper_claims.HOLDER_DOMAIN)
    if domain != paper_claims.HOLDER_DOMAIN:
        return True, f"Hölder continuity assumed on {domain}, which contains the empirical laws."
    witness, tried = holder_beyond_hull()
    if witness is None:
        return True, f"Hölder continuity on the hull of the means extends to [0, 1] in all {tried} cases tried."
    name, (lo, hi), q, L, x, ratio = witness
    return False, (f"The step applies eq:Holder to an empirical law F_i,N, which is outside Xi, the convex hull of the "
                   f"arms' laws on which assumption:Holder is stated: with q and L_H of U_h on Xi it does not follow "
                   f"({tried} (h, instance) pairs tried; e.g. {name} on Bern({lo}), Bern({hi}): q = {num(q)}, L_H = "
                   f"{num(L)} on the hull, but an empirical mean {num(x, 3)} gives the ratio {num(ratio)}).  The "
                   "family constants of the Hölder lemmas (all pairs of Bernoulli laws, table:table_risks) close it.")


#: The cause (:data:`proofs_checks.causes.CAUSES`) of a step that does not follow because it applies eq:Holder outside Xi.
HOLDER_CAUSE = "holder_outside_xi"


def holder_cause(res: CheckResult, follows: bool) -> CheckResult:
    """``res`` with its cause set when the step is a gap because eq:Holder is applied outside Xi (``follows`` from
    :func:`holder_domain_follows`): a fact only the check knows, so the findings group these steps as one cause."""
    from dataclasses import replace

    return replace(res, cause=HOLDER_CAUSE) if not follows and res.status == "gap" else res


def printed(text: str, names: Iterable[str], flag: str = "printed formula") -> tuple[sp.Expr, dict[str, sp.Symbol]]:
    """``text`` as SymPy with positive symbols for ``names`` (the one parser)."""
    syms = {n: sp.Symbol(n, positive=True) for n in names}
    return to_sympy(text, flag, syms), syms


def smallest(cases: Iterable, key: Callable):
    """The case with the smallest ``key`` (the "smallest counterexample" of a sweep), or None."""
    return min(cases, key=key, default=None)


def step(ident: str) -> paper_claims.ProofStep:
    """The printed step with ledger id ``ident``."""
    return paper_claims.proof_step(ident)


def entry(claim: Claim, *, holds: bool, method: str, derived: str, evidence: str, repair: str | None = None,
          sharper: bool = False, vacuous: bool = False, claim_text: str | None = None,
          paper: str | None = None, follows: bool = True, note: str = "",
          repair_at_uses: bool = True) -> CheckResult:
    """The ledger entry of a step check (status by :func:`proofs_checks.verdict.decide`).

    ``claim_text``/``paper`` default to the printed step's words and formula; a mutant's note is appended to
    the words so that an altered claim reads differently.  ``follows=False`` with ``holds``: a gap (no
    counterexample in the proof's context, but the step does not follow from what the proof has established).
    ``note``: what was seen outside the proof's context (never the status).
    """
    st: paper_claims.ProofStep = claim.printed if isinstance(claim.printed, paper_claims.ProofStep) else step(claim.id)
    words = claim_text if claim_text is not None else st.claim
    if claim.note:
        words = f"{words} [altered: {claim.note}]"
    status = decide(holds=holds, repair=repair, vacuous=vacuous, sharper=sharper, follows=follows,
                    repair_at_uses=repair_at_uses)
    return CheckResult(claim.id, words, paper if paper is not None else st.shown(), derived, status, method, evidence,
                       note=note)


def condition_mutants(condition: str, key: str, text: str, note: str):
    """The mutants of a claim whose repair is ``condition``: the condition stated (for a conditional verdict, or a gap
    the condition closes), else the printed piece ``key`` replaced by the stronger ``text``."""
    def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
        if result.status in ("conditional", "gap"):
            return [claim.assuming("condition", condition, f"{condition} stated")]
        return [claim.reprinted(claim.printed.with_value(key, text), note)]
    return mutants


def fmt(x: float, digits: int = 4) -> str:
    """A float as evidence text: :func:`proofs_checks.numfmt.num` (exact where exact, never rounding noise)."""
    return num(x, digits)
