"""The statuses and the rule that decides one from a check's facts, without SymPy (the light half of
:mod:`proofs_checks.verdict`, which re-exports everything here).

:func:`decide` is the decision rule of ``docs/theory.md`` ("The decision rule"); :func:`worst` combines the
verdicts of a sweep; :func:`impact` says what an entry changes.  Kept free of SymPy and NumPy so that reading a
stored ledger (``rsb verify --status``, :mod:`proofs_checks.findings`, :mod:`proofs_checks.proof_view`) imports
neither.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from rsb_theory.errors import ArgumentError

#: How bad a status is when several cases are combined (:func:`worst`); ``unchecked`` (no information) is below all.
SEVERITY = {"unchecked": -1, "verified": 0, "loose": 1, "gap": 2, "vacuous": 3, "conditional": 4, "refuted": 5}
#: Statuses of a step that does not hold as printed in its proof's context (the per-proof view's "broken").
BROKEN = ("refuted", "conditional")
#: What a ``loose`` verdict's better value is better in (the entry's ``loose_in``).
LOOSE_IN = ("exponent", "constant", "bound")
#: What a claim's printed value is (:attr:`proofs_checks.claims.Claim.about`): a rate or an exponent that sets one,
#: a constant, a bound as a whole, or a statement (anything else).
ABOUT = ("rate", "exponent", "constant", "bound", "statement")
#: The kinds of node of the paper an entry judges (``docs/theory.md``, "What matters"): a part of a result's displayed
#: statement, a step (or chained constant, or closing summary) of a proof, a proof sketch of the main text, a remark
#: or running-text sentence, a result applied at the experiments' setting.
NODES = ("statement", "proof", "sketch", "remark", "experiment")

#: The repairs :func:`decide` turned into ``conditional`` while a check runs (:func:`recording`); None: not recording.
_REPAIRS: ContextVar[list | None] = ContextVar("rsb_repairs", default=None)


@contextmanager
def recording():
    """Collect the repair of every ``conditional`` verdict :func:`decide` gives inside the block (a list, in the order
    given): :meth:`proofs_checks.claims.Claim.run` wraps a check in it, so a conditional entry carries its condition in
    words (``CheckResult.condition``) without the check passing it twice.  Nested blocks collect their own."""
    token = _REPAIRS.set([])
    try:
        yield _REPAIRS.get()
    finally:
        _REPAIRS.reset(token)


def decide(*, holds: bool, repair: str | None = None, vacuous: bool = False, sharper: bool = False,
           untestable: bool = False, follows: bool = True, repair_at_uses: bool = True) -> str:
    """The status of a claim from what its check found (the rule of `docs/theory.md`, "The decision rule").

    Parameters
    ----------
    holds : bool
        The claim holds in every case its hypotheses (as printed, plus any the
        claim states) allow, among the cases tried.
    repair : str or None
        When it does not hold: an unstated condition under which it held in
        every case tried (and which some tried case satisfies).
    vacuous : bool
        A bound informative at none of the cases the claim is about.
    sharper : bool
        A strictly better value is proven.
    untestable : bool
        The failure was only observed where the claim cannot be contradicted
        (e.g. a measured rate at horizons where the theorem's bound is not
        informative).
    follows : bool
        For a proof step: it follows from what the proof has established (False with ``holds``: a gap).
    repair_at_uses : bool
        The repair holds wherever the paper uses the claim (False: it is no repair).

    Returns
    -------
    str
        One of ``verified, loose, gap, vacuous, conditional, refuted``.
    """
    if vacuous:
        return "vacuous"
    if not holds:
        if repair and repair_at_uses:
            found = _REPAIRS.get()
            if found is not None:
                found.append(repair)
            return "conditional"
        return "vacuous" if untestable else "refuted"
    if not follows:
        return "gap"
    return "loose" if sharper else "verified"


def impact(*, axis: str, status: str, about: str, typo: bool = False, node: str | None = None,
           condition_at_uses: bool = False) -> str:
    """What a ledger entry changes, from its axis, node kind, status and what its printed value is about.

    * ``none`` — verified or loose (the printed claim holds), or conditional on a condition that holds at every
      place the paper uses the claim (``condition_at_uses``: the check showed it; the paper loses nothing);
    * ``typo`` — refuted or conditional as printed, and the evident correction holds (``typo``: the check found
      the corrected claim verified or loose);
    * ``proof`` — a step of a proof (``node`` ``proof``; without a node, axis ``proof``) that is a gap, refuted or
      conditional: the result's proof is affected, not (by this entry) its statement; so is a proof sketch
      (``sketch``) unless what it gets wrong is a rate;
    * for a statement, a remark or the running text that is refuted or conditional: ``rate`` (a rate, or an exponent
      that sets one — a wrong rate in a remark still misleads a reader as a rate), ``constant`` (a constant), else
      ``statement``;
    * a vacuous entry: ``statement`` (it says nothing where the paper applies it).
    """
    if about not in ABOUT:
        raise ArgumentError("about", f"{about!r} is not one of {ABOUT}")
    if node is not None and node not in NODES:
        raise ArgumentError("node", f"{node!r} is not one of {NODES}")
    if status in ("verified", "loose", "unchecked"):
        return "none"
    if status == "conditional" and condition_at_uses:
        return "none"
    if typo and status in ("refuted", "conditional"):
        return "typo"
    kind = node if node is not None else ("proof" if axis == "proof" else "statement")
    by_about = {"rate": "rate", "exponent": "rate", "constant": "constant"}
    if kind == "proof" or status == "gap":
        return "proof"
    if kind == "sketch":
        return "rate" if by_about.get(about) == "rate" else "proof"
    if status == "vacuous":
        return "statement"
    return by_about.get(about, "statement")


def worst(*statuses: str) -> str:
    """The worst of several statuses (:data:`SEVERITY`); ``verified`` for none."""
    return max(statuses, key=SEVERITY.__getitem__, default="verified")
