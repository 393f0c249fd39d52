"""The vocabulary of causes: why a ledger entry is not verified, grouped so that a reader reads one finding per cause.

A *cause* is one reason several entries fail in the same way (``docs/theory.md``, "What matters"): the paper's
constants make every bound say nothing at the experiments' horizons; Hölder continuity is applied to empirical laws
outside Xi; the rates need the gap exponent beta to exist.  Each cause is data (:data:`CAUSES`): a key, a short title,
ONE sentence saying what a reader of the paper should conclude, and its rank category (:data:`RANKS`, in the order of
consequence); and the facts of an entry that make it a member (:class:`Rule`).

Membership is derived from an entry's facts (:func:`cause_of`): its status, impact, node kind (:func:`node_of`), the
part of its id, and — where the cause is a fact only the check knows — the explicit ``CheckResult.cause`` the check
set.  The specific causes are tried first, in the order of :data:`CAUSES`, then the generic cause of each category;
an entry whose impact is ``none`` (it holds, or its condition holds at every use) belongs to no cause.

Light: the standard library only (``rsb verify --status`` reads a stored ledger without NumPy or SymPy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .statuses import BROKEN, Status

#: The rank categories, in the order of consequence (the first matters most): a statement false where the paper uses
#: it; a wrong rate; experiments that do not test what is analysed; systematic proof gaps; a condition that excludes a
#: use; constants; typos.
RANKS = ("statement", "rate", "experiments", "proof", "condition", "constant", "typo")


@dataclass(frozen=True)
class Rule:
    """The facts that make an entry a member of a cause (every field given must hold; None: any).

    Attributes
    ----------
    statuses, impacts, nodes : tuple of str or None
        The entry's status, impact and node kind (:func:`node_of`) must be one of these.
    parts : tuple of str or None
        The part of the id after ``#`` must start with one of these.
    conditions : tuple of str or None
        One of the entry's unstated conditions (``CheckResult.condition``, parts separated by ``"; "``) must start
        with one of these (the repair :func:`proofs_checks.verdict.on_range` names for an unknown: ``beta in ...``,
        ``beta exists``).
    explicit : bool
        Only entries whose check set this cause (``CheckResult.cause``) are members.
    """

    statuses: tuple[str, ...] | None = None
    impacts: tuple[str, ...] | None = None
    nodes: tuple[str, ...] | None = None
    parts: tuple[str, ...] | None = None
    conditions: tuple[str, ...] | None = None
    explicit: bool = False

    def matches(self, entry, node: str) -> bool:
        part = entry.id.partition("#")[2]
        named = (getattr(entry, "condition", None) or "").split("; ")
        return (not self.explicit and (self.statuses is None or entry.status in self.statuses)
                and (self.impacts is None or entry.impact in self.impacts)
                and (self.nodes is None or node in self.nodes)
                and (self.parts is None or part.startswith(self.parts))
                and (self.conditions is None or any(c.startswith(self.conditions) for c in named)))


@dataclass(frozen=True)
class Cause:
    """One cause: what a reader reads first, and which entries belong to it.

    Attributes
    ----------
    key : str
    title : str
        A short title (no final full stop).
    conclusion : str
        ONE sentence: what a reader of the paper should conclude.
    rank : str
        Its category, one of :data:`RANKS`.
    rule : Rule
        The facts that make an entry a member.
    generic : bool
        The catch-all of its category, tried after every specific cause.
    """

    key: str
    title: str
    conclusion: str
    rank: str
    rule: Rule
    generic: bool = False

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise ValueError(f"cause {self.key!r}: rank {self.rank!r} is not one of {RANKS}")
        if not self.conclusion.endswith(".") or self.conclusion.count(". ") or self.title.endswith("."):
            raise ValueError(f"cause {self.key!r}: one sentence of conclusion, a title without a full stop")


_FAILS = tuple(s.value for s in Status if s.fails)

#: Every cause, specific ones first within each category; :func:`cause_of` tries the specific ones in this order, then
#: the generic ones.
CAUSES: dict[str, Cause] = {c.key: c for c in (
    Cause("false_statement", "Statements false where the paper uses them",
          "These statements are false as printed in a case the paper itself uses, so a result built on them needs "
          "the corrected statement rsb gives.",
          "statement", Rule(statuses=("refuted",), impacts=("statement",)), generic=True),
    Cause("beta_unstated", "Rates and comparisons that need the gap exponent beta to exist (and r <= beta + q/2)",
          "The mixture rates of Table 1 and Table 3, and the comparisons of the discussion, hold only when "
          "Delta_min(eps) = Omega(eps^beta) for some beta, some only for a range of beta (RS-UCB-M's needs "
          "r <= beta + q/2), which their statements do not say, so where that fails the printed rate or winner is "
          "wrong.",
          "rate", Rule(statuses=("conditional",), impacts=("rate",), conditions=("beta in ", "beta exists"))),
    Cause("solitary_optimum", "Running-text rates that hold only when the optimum is a single arm",
          "The O(log T/T)-type rates the text quotes for RS-ETC-M hold only when the optimal mixture is a single arm "
          "(the footnote of Table 3), so for a mixture optimum the rate is theorem:RS-ETC-M's, not the one quoted.",
          "rate", Rule(statuses=("conditional",), impacts=("rate",), conditions=("the optimum is a solitary arm",))),
    Cause("wrong_rate", "Rates and exponents wrong as printed, or right only under an unstated condition",
          "These rates or exponents are not what the paper's own theorems give in every case the text covers, so a "
          "comparison built on them (with the literature, between the algorithms) must use rsb's derived value or "
          "state its condition.",
          "rate", Rule(statuses=BROKEN, impacts=("rate",)), generic=True),
    Cause("experiments_not_analysed", "The experiments do not run the analysed algorithms",
          "With the paper's constants RS-ETC-M never commits and RS-UCB-M's confidence sets contain every law at "
          "the experiments' horizons, so the figures show the algorithms run with other, unstated constants and do "
          "not test the bounds that are analysed.",
          "experiments", Rule(statuses=BROKEN, nodes=("experiment",))),
    Cause("holder_outside_xi", "Hölder continuity is applied to empirical laws outside Xi",
          "The regret theorems need Hölder continuity on every law the algorithms form, not only on the hull Xi of "
          "assumption:Holder (a non-monotone h that is Hölder on Xi only makes theorem: ETC upper bound and "
          "theorem:RS-ETC-M false, and the ETC and UCB proofs apply eq:Holder to empirical or optimistic laws "
          "outside Xi), but every distortion of the tables has it on all Bernoulli laws, so the tables stand.",
          "proof", Rule(explicit=True)),
    Cause("proof_steps", "Other proof steps that do not follow, or are false in their context",
          "These steps leave the proofs incomplete or wrong as written; where a step's failure makes its result's own "
          "statement false, that statement's entry says so, and a result's bottom line says where its proof breaks.",
          "proof", Rule(statuses=_FAILS, impacts=("proof",)), generic=True),
    Cause("unstated_condition", "Statements that need a condition they do not state",
          "These statements hold only under the condition named, which the paper does not state and which excludes "
          "some laws or instances the statement covers.",
          "condition", Rule(statuses=("conditional",), impacts=("statement",)), generic=True),
    Cause("vacuous_at_experiments", "With the paper's constants every bound says nothing at the experiments' horizons",
          "The constants of the bounds and of the confidence radius make each bound exceed the trivial one at every "
          "horizon the experiments use, so the figures can neither confirm nor contradict the theorems.",
          "experiments", Rule(statuses=("vacuous",))),
    Cause("chained_constants", "Theorem constants smaller than their proofs give",
          "The constants (and powers of K) printed in the theorems are smaller than what their own proofs chain to, "
          "so the displayed bounds do not follow with the printed constants.",
          "constant", Rule(statuses=_FAILS, parts=("chain",))),
    Cause("wrong_constant", "Constants wrong as printed",
          "These constants hold only in part of the setting they are stated for, so a bound that uses them must "
          "take rsb's derived constant.",
          "constant", Rule(statuses=BROKEN, impacts=("constant",)), generic=True),
    Cause("typos", "Evident typos whose corrected form holds",
          "Each is false as printed but holds with the evident correction shown, which a reader can apply.",
          "typo", Rule(impacts=("typo",)), generic=True),
)}


def node_of(entry_or_id) -> str:
    """The kind of node of the paper an entry judges (:data:`proofs_checks.ledger.NODES`): the entry's own ``node``
    when it has one, otherwise the results' records' (:func:`proofs_checks.results.node_of`)."""
    node = getattr(entry_or_id, "node", None)
    if node:
        return node
    from .results import node_of as record_node

    return record_node(entry_or_id if isinstance(entry_or_id, str) else entry_or_id.id)[0]


def cause_of(entry) -> Cause | None:
    """The cause an entry belongs to, or None (it holds, is not assessed, or its impact is ``none`` without a cause
    its check set).

    The cause its check set (``CheckResult.cause``) when the entry fails, even with impact ``none`` (a statement
    conditional on a condition that holds at every use, listed beside the steps of the same cause); else the first
    specific cause of :data:`CAUSES` whose rule its facts satisfy, else the first generic one.
    """
    if not Status(entry.status).fails:
        return None
    explicit = getattr(entry, "cause", None)
    # a check's own cause lists the entry even when its condition holds at every use (impact none): the statements
    # a systematic gap makes conditional belong to its finding; a finding of such entries only is not shown
    # (:func:`proofs_checks.findings.what_matters`)
    if explicit and entry.impact is not None:
        return CAUSES[explicit]
    if entry.impact in (None, "none"):
        return None
    node = node_of(entry)
    ordered = [c for c in CAUSES.values() if not c.generic] + [c for c in CAUSES.values() if c.generic]
    return next((c for c in ordered if c.rule.matches(entry, node)), None)
