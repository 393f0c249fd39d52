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
from enum import StrEnum
from rsb_theory.errors import ArgumentError

#: The two axes of the ledger: a claim of a result's statement, a step of its proof.
AXES = ("statement", "proof")


class Status(StrEnum):
    """The one vocabulary of verdicts (``docs/theory.md``, "The decision rule"), in the ledger's order.

    A ``str`` (``Status.GAP == "gap"``, ``str(Status.GAP) == "gap"``), so JSON, stored ledgers and comparisons with
    text keep working.  Each carries:

    Attributes
    ----------
    severity : int
        How bad it is when several cases are combined (:func:`worst`); ``unchecked`` (no information) is below all.
    axis : tuple of str
        The axes (:data:`AXES`) it can stand on: ``gap`` (a step that does not follow) only on ``proof``.
    holds : bool
        The printed claim holds (``verified``, ``loose``).
    broken : bool
        It does not hold as printed in its context (``refuted``, ``conditional``): the per-proof view's "broken".
    """

    VERIFIED = ("verified", 0, AXES, True, False)
    REFUTED = ("refuted", 5, AXES, False, True)
    LOOSE = ("loose", 1, AXES, True, False)
    CONDITIONAL = ("conditional", 4, AXES, False, True)
    VACUOUS = ("vacuous", 3, AXES, False, False)
    GAP = ("gap", 2, ("proof",), False, False)
    UNCHECKED = ("unchecked", -1, AXES, False, False)

    def __new__(cls, value: str, severity: int, axis: tuple[str, ...], holds: bool, broken: bool):
        member = str.__new__(cls, value)
        member._value_ = value
        member.severity = severity
        member.axis = axis
        member.holds = holds
        member.broken = broken
        return member

    @property
    def fails(self) -> bool:
        """Checked and the printed claim does not hold (``refuted``, ``conditional``, ``vacuous``, ``gap``)."""
        return not self.holds and self is not Status.UNCHECKED

    @property
    def needs_evidence(self) -> bool:
        """Every verdict but ``verified`` (and ``unchecked``, which has none) says why in its evidence."""
        return self.fails or self is Status.LOOSE


#: The statuses as text, in the ledger's order.
STATUSES = tuple(s.value for s in Status)
#: How bad a status is (:attr:`Status.severity`), by its text.
SEVERITY = {s.value: s.severity for s in Status}
#: Statuses of a step that does not hold as printed in its proof's context (the per-proof view's "broken").
BROKEN = tuple(s.value for s in Status if s.broken)
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
    Status
        One of ``verified, loose, gap, vacuous, conditional, refuted`` (a ``str``).
    """
    if vacuous:
        return Status.VACUOUS
    if not holds:
        if repair and repair_at_uses:
            found = _REPAIRS.get()
            if found is not None:
                found.append(repair)
            return Status.CONDITIONAL
        return Status.VACUOUS if untestable else Status.REFUTED
    if not follows:
        return Status.GAP
    return Status.LOOSE if sharper else Status.VERIFIED


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
    status = Status(status)
    if status.holds or status is Status.UNCHECKED:
        return "none"
    if status is Status.CONDITIONAL and condition_at_uses:
        return "none"
    if typo and status.broken:
        return "typo"
    kind = node if node is not None else ("proof" if axis == "proof" else "statement")
    by_about = {"rate": "rate", "exponent": "rate", "constant": "constant"}
    if kind == "proof" or status is Status.GAP:
        return "proof"
    if kind == "sketch":
        return "rate" if by_about.get(about) == "rate" else "proof"
    if status is Status.VACUOUS:
        return "statement"
    return by_about.get(about, "statement")


def worst(*statuses: str) -> str:
    """The worst of several statuses (:attr:`Status.severity`); ``verified`` for none."""
    return max(statuses, key=SEVERITY.__getitem__, default=Status.VERIFIED)
