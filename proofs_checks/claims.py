"""The shape every check has: a claim as data, the function that judges it, and its mutants.

A check module of :mod:`proofs_checks.checks` exports one mapping, ``CLAIMS``,
from ledger id to :class:`Claim`.  A claim carries *the printed claim it
judges* (``printed``, taken from :mod:`proofs_checks.paper_claims`, the only
place printed values live), the hypotheses it states beyond the paper's text
(``given``, empty for the printed claim), the function that judges it
(``check(claim) -> CheckResult``) and the function that alters it
(``mutants(claim, result) -> list of claims``): an altered claim whose correct
verdict differs from ``result``'s (a stronger exponent or constant for a
verified value, the derived value for a loose or refuted one, the missing
condition added for a conditional one, a horizon where the bound is
informative for a vacuous one).  Running the same check on its mutants shows
that the check can fail (``rsb verify --mutants``).

The registry (:mod:`proofs_checks.registry`) finds the modules itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from .results import Context
from .ledger import CheckResult
from rsb_theory.errors import ArgumentError


@dataclass(frozen=True)
class Claim:
    """One claim of the paper, as data.

    Attributes
    ----------
    id : str
        The ledger id (``label`` or ``label#part``, ARCHITECTURE.md).
    printed : object
        What the paper prints (a row of a table, a :class:`proofs_checks.paper_claims.LemmaClaim`,
        a formula as text, ...); the check reads the printed claim from here only.
    check : callable
        ``check(claim) -> CheckResult``.
    mutants : callable or None
        ``mutants(claim, result) -> list[Claim]`` (``result``: the check's verdict on ``claim``).
    given : tuple of (str, object)
        Hypotheses the claim states in addition to the paper's (a mutant adds the missing condition here).
    note : str
        How this claim differs from the printed one ("" for the printed claim); the ``claim`` of a
        mutant in ``rsb verify --mutants``.
    about : str or None
        What the printed value is (:data:`proofs_checks.verdict.ABOUT`: a rate, an exponent, a constant, a
        bound, a statement); None: derived from the id by the registry.  Decides the entry's ``impact`` and
        ``loose_in``.
    context : Context or None
        The proof's context (its result's record, :mod:`proofs_checks.results`) for a claim of a proof, attached
        by the registry; None: judged as printed, in the generality it states.
    typo : tuple of (str, object) or None
        An evident typo: (the correction in words, the corrected printed value).  The registry runs the check on
        the corrected claim; when that holds, the entry's impact is ``typo``.
    """

    id: str
    printed: Any
    check: Callable[["Claim"], CheckResult]
    mutants: Callable[["Claim", CheckResult], list["Claim"]] | None = None
    given: tuple[tuple[str, Any], ...] = ()
    note: str = ""
    about: str | None = None
    context: Context | None = None
    typo: tuple[str, Any] | None = None

    def run(self) -> CheckResult:
        """The check's verdict on this claim (its ``id`` must be the claim's).

        A ``conditional`` verdict carries its condition in words (``CheckResult.condition``): the one the check set,
        else the repairs the check gave :func:`proofs_checks.statuses.decide` for its conditional verdicts.
        """
        from .statuses import recording

        with recording() as repairs:
            res = self.check(self)
        if res.id != self.id:
            raise RuntimeError(f"the check of {self.id!r} returned an entry for {res.id!r}")
        if res.status == "conditional" and not res.condition and repairs:
            res = replace(res, condition="; ".join(dict.fromkeys(repairs)))
        return res

    def assumes(self, key: str, default: Any = None) -> Any:
        """The value of the stated hypothesis ``key`` (``default`` when the claim states none)."""
        return dict(self.given).get(key, default)

    def assuming(self, key: str, value: Any, note: str) -> "Claim":
        """A mutant stating the hypothesis ``key = value`` in addition."""
        return replace(self, given=tuple((k, v) for k, v in self.given if k != key) + ((key, value),), note=note)

    def reprinted(self, printed: Any, note: str) -> "Claim":
        """A mutant with another printed value."""
        return replace(self, printed=printed, note=note)

    def fixed(self, key: str) -> str | None:
        """The value the proof's context fixes for ``key`` (None: no context, or the proof does not fix it)."""
        return None if self.context is None else self.context.value(key)

    def without_context(self) -> "Claim":
        """A mutant judged as printed, outside its proof's context (the fixed quantities free)."""
        return replace(self, context=None, note="context of the proof dropped (the fixed quantities free)")

    def corrected(self) -> "Claim | None":
        """The claim with its evident typo corrected (None: no typo recorded)."""
        if self.typo is None:
            return None
        return replace(self, printed=self.typo[1], note=f"evident typo corrected: {self.typo[0]}", typo=None)


def claim_map(*claims: Claim) -> dict[str, Claim]:
    """``CLAIMS`` of a check module: id -> claim, in the order given; ids must be unique."""
    out: dict[str, Claim] = {}
    for c in claims:
        if c.id in out:
            raise ArgumentError("claims", f"duplicate ledger id {c.id!r}")
        out[c.id] = c
    return out
