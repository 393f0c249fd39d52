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


@lru_cache(maxsize=None)
def _member(name: str, params: tuple[tuple[str, str], ...]) -> Member:
    from rsb_theory.distortions import get
    from rsb_theory.holder import holder

    d = get(name, **dict(params))
    hr = holder(d)
    L = hr.L_exact if hr.L_exact is not None else hr.L_H
    return Member(d.describe(), d, float(hr.q), float(L))


def defaults() -> tuple[Member, ...]:
    """The nine registered distortions at their default parameters, with q, L from rsb_theory.holder."""
    from rsb_theory.distortions import names

    return tuple(_member(n, ()) for n in names())


def holder_sweep() -> tuple[Member, ...]:
    """:func:`defaults` and :data:`EXTRA_PARAMETERS` (cached per member)."""
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


@lru_cache(maxsize=None)
def top(name: str) -> float:
    """A maximiser of h on [0, 1] (rsb_theory.holder.optimal_means)."""
    from rsb_theory.holder import optimal_means

    return float(optimal_means(member(name).d, 0, 1)[0])


def sup_h(name: str) -> float:
    """max of h on [0, 1]: the supremum B of U_h over laws on [0, 1]."""
    return float(np.asarray(member(name).d.numeric(np.array([top(name)])))[0])


@lru_cache(maxsize=None)
def bernoulli_instances(K: int, count: int, purpose: int) -> tuple[tuple[float, ...], ...]:
    """``count`` seeded Bernoulli mean vectors of K arms (two decimals, sorted), stream ``purpose``."""
    seq = np.random.SeedSequence(SEED, spawn_key=(purpose, K))
    rng = np.random.default_rng(seq)
    return tuple(tuple(float(x) for x in np.round(np.sort(rng.uniform(0.02, 0.98, K)), 2)) for _ in range(count))


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
          paper: str | None = None) -> CheckResult:
    """The ledger entry of a step check (status by :func:`proofs_checks.verdict.decide`).

    ``claim_text``/``paper`` default to the printed step's words and formula; a mutant's note is appended to
    the words so that an altered claim reads differently.
    """
    st: paper_claims.ProofStep = claim.printed if isinstance(claim.printed, paper_claims.ProofStep) else step(claim.id)
    words = claim_text if claim_text is not None else st.claim
    if claim.note:
        words = f"{words} [altered: {claim.note}]"
    return CheckResult(claim.id, words, paper if paper is not None else st.shown(),
                       derived, decide(holds=holds, repair=repair, vacuous=vacuous, sharper=sharper), method, evidence)


def condition_mutants(condition: str, key: str, text: str, note: str):
    """The mutants of a claim whose repair is ``condition``: the condition stated (for a conditional verdict), else
    the printed piece ``key`` replaced by the stronger ``text``."""
    def mutants(claim: Claim, result: CheckResult) -> list[Claim]:
        if result.status == "conditional":
            return [claim.assuming("condition", condition, f"{condition} stated")]
        return [claim.reprinted(claim.printed.with_value(key, text), note)]
    return mutants


def fmt(x: float, digits: int = 4) -> str:
    """A float as evidence text (fixed significant digits, so that the ledger is byte-stable)."""
    return f"{x:.{digits}g}"
