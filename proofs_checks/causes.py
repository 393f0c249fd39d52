"""The vocabulary of causes: why a ledger entry is not verified, grouped so that a reader reads one finding per cause.

A *cause* is one reason several entries fail in the same way (``docs/theory.md``, "What matters"): the paper's
constants make every bound say nothing at the experiments' horizons; Hölder continuity is applied to empirical laws
outside Xi; the rates need the gap exponent beta to exist.  Each cause is data (:data:`CAUSES`): a key, a short title,
ONE sentence saying what a reader of the paper should conclude, and its rank category (:data:`RANKS`, in the order of
consequence); and the facts of an entry that make it a member (:class:`Rule`).

Membership is derived from an entry's facts (:func:`cause_of`): its status, impact, node kind (:func:`node_of`), the
part of its id, and — where the cause is a fact only the check knows — the explicit ``CheckResult.cause`` the check
set (:func:`because` decorates such a check).  The specific causes are tried first, in the order of :data:`CAUSES`,
then the generic cause of each category; an entry whose impact is ``none`` (it holds, or its condition holds at
every use) belongs to no cause unless its check names one (it is then listed beside the steps of that cause).

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
        ``beta exists``), as a whole term: ``max p < 1`` is not the start of ``max p < 1/2``.
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
                and (self.conditions is None or any(_starts(c, p) for c in named for p in self.conditions)))


def _starts(condition: str, prefix: str) -> bool:
    """Does ``condition`` start with ``prefix`` as a whole term (not ``max p < 1`` in ``max p < 1/2``)?"""
    if not condition.startswith(prefix):
        return False
    rest = condition[len(prefix):]
    return not rest or prefix.endswith(" ") or not (rest[0].isalnum() or rest[0] in "/._^*")


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
#: the generic ones.  A cause whose members span several categories takes the category of its worst consequence (the
#: gap exponent at max p = 1 breaks a lemma, a proof step and the tables' rates: a rate); a cause is a category's
#: generic catch-all only for what no specific cause explains.
CAUSES: dict[str, Cause] = {c.key: c for c in (
    Cause("concentration_adaptive", "lemma: concentration is applied at the random count tau_T(i), where it fails",
          "lemma: concentration bounds the deviation at a count fixed in advance, but the UCB proof applies it at the "
          "count tau_T(i) the policy chooses from the rewards (and reads 1/T^2 per arm where it gives 2/T^2), so the "
          "per-arm miss probability of the confidence sets does not follow from it; for the paper's Bernoulli arms a "
          "union over the counts at the paper's radius keeps each miss far below 1/T^2, so the UCB bounds need that "
          "argument, not the lemma.",
          "statement", Rule(explicit=True)),
    Cause("delta_error_grid", "lemma:Delta_error's bound fails on the grids the algorithms use",
          "The nearest grid point can lie farther than eps/2 per coordinate, and than K eps/2 in L1, from the "
          "optimal mixture (on the mid-point grid where theorem:UCB upper bound uses the lemma, and on the ETC grid "
          "when 1/eps is not an integer), so Delta(eps) <= L (K W)^r (eps/2)^r is false there and every rate built "
          "on it needs Delta(eps)'s bound with a larger, grid-dependent constant.",
          "statement", Rule(explicit=True)),
    Cause("false_statement", "Statements false where the paper uses them",
          "These statements are false as printed in a case the paper itself uses, so a result built on them needs "
          "the corrected statement rsb gives.",
          "statement", Rule(statuses=("refuted",), impacts=("statement",)), generic=True),
    Cause("max_p_one", "beta = 1 for dual power and quadratic needs max p < 1 (h'(max p) = 0 at max p = 1)",
          "lemma:beta_lemma_monotone's beta = 1 needs h'(max p) > 0, which fails for dual power (and quadratic with "
          "s = 1) when an arm has mean 1, where Delta_min(eps) decays like eps^2, so Table 2's beta = 1 and Table 1's "
          "RS-UCB-M rates for these distortions hold only for max p < 1, which the paper does not state.",
          "rate", Rule(statuses=("conditional",), conditions=("max p < 1", "h'(max p) > 0"))),
    Cause("beta_unstated", "Rates and comparisons that need the gap exponent beta to exist (and r <= beta + q/2)",
          "The mixture rates of the tables, and the comparisons of the discussion, hold only when "
          "Delta_min(eps) = Omega(eps^beta) for some beta, some only for a range of beta (RS-UCB-M's needs "
          "r <= beta + q/2), which their statements do not say, so where that fails the printed rate or winner is "
          "wrong.",
          "rate", Rule(statuses=("conditional",), impacts=("rate",),
                       conditions=("beta in ", "beta exists", "r <= beta + q/2"))),
    Cause("solitary_optimum", "Running-text rates that hold only when the optimum is a single arm",
          "The O(log T/T)-type rates the text quotes for RS-ETC-M hold only when the optimal mixture is a single arm "
          "(the footnote of Table 3), so for a mixture optimum the rate is theorem:RS-ETC-M's, not the one quoted.",
          "rate", Rule(statuses=("conditional",), impacts=("rate",), conditions=("the optimum is a solitary arm",))),
    Cause("wrong_rate", "Other rates and exponents wrong as printed, or right only under an unstated condition",
          "These rates or exponents are not what the paper's own theorems give in every case the text covers, so a "
          "comparison built on them (with the literature, between the algorithms) must use rsb's derived value or "
          "state its condition.",
          "rate", Rule(statuses=BROKEN, impacts=("rate",)), generic=True),
    Cause("experiments_not_analysed", "The experiments do not run the analysed algorithms",
          "With the paper's constants RS-ETC-M never commits and RS-UCB-M's confidence radius exceeds 1 (its "
          "confidence sets contain every law) at the experiments' horizons, so the figures show the algorithms run "
          "with other, unstated constants and do not test the bounds that are analysed.",
          "experiments", Rule(statuses=("refuted", "conditional"), nodes=("experiment",))),
    Cause("vacuous_at_experiments", "With the paper's constants every bound says nothing at the experiments' horizons",
          "The constants of the bounds make each bound exceed the trivial one at every horizon the experiments use, "
          "so the figures can neither confirm nor contradict the theorems.",
          "experiments", Rule(statuses=("vacuous",))),
    Cause("holder_outside_xi", "Hölder continuity is applied to empirical laws outside Xi",
          "The regret theorems need Hölder continuity on every law the algorithms form, not only on the hull Xi of "
          "assumption:Holder (a non-monotone h that is Hölder on Xi only makes theorem: ETC upper bound, "
          "theorem:RS-ETC-M, theorem:UCB upper bound and lemma:probability of E3 false, and the ETC and UCB proofs "
          "apply eq:Holder to empirical or optimistic laws outside Xi), but every distortion of the tables has it on all laws on [0, 1], so the tables stand for the "
          "Bernoulli arms they are derived for, with confidence sets of laws on [0, 1] (not, as derived, for arms or "
          "confidence sets on R+).",
          "proof", Rule(explicit=True)),
    Cause("forced_exploration", "The tracking lemmas are proved as if the forced exploration ended by T_0(eps)",
          "RS-UCB-M's forced exploration lasts K ceil(rho T eps/4) rounds, which for large T runs past T_0(eps) and "
          "T(eps), so the proofs of lemma:oversampling and lemma:undersampling, which start the tracking at "
          "T_0(eps), are false in that window and the lemmas hold only once the exploration's over-sampled arms are "
          "back; at t = T, where theorem:UCB upper bound uses them, they hold.",
          "proof", Rule(explicit=True)),
    Cause("integer_counts", "Sample counts treated as real numbers where the algorithms pull whole numbers",
          "These lines of the ETC and UCB proofs count pulls as N/K, rho T eps/4 or T a(i) where the algorithms pull "
          "their ceilings and floors, and RS-ETC-M's last arm takes what the floors leave (which the commit lines "
          "also count with the wrong sign), so they are false as printed, but what they lead to holds with the "
          "rounded counts (eq: ETC commit 6 for RS-ETC-M, eq:replace with ceil(rho T eps/4) for RS-UCB-M).",
          "proof", Rule(explicit=True)),
    Cause("appendix_n_eps", "The appendix's union bound for N(eps) miscounts the ETC grid",
          "eq:E2C counts (1/eps)^(K-1) points of the ETC grid where it has C(1/eps + K - 1, K - 1), so P(a_N not in "
          "OPT) <= delta and A_2(T) <= B delta are off by that bounded factor as written; the grid's size enters "
          "N(eps) only inside its logarithm, so the theorem's order is unchanged (the delta written for 1/delta in "
          "eq:number of samples is listed with the typos).",
          "constant", Rule(explicit=True)),
    Cause("proof_steps", "Other proof steps that do not follow, or are false in their context",
          "These steps leave the proofs incomplete or wrong as written; where a step's failure makes its result's own "
          "statement false, that statement's entry says so, and a result's bottom line says where its proof breaks.",
          "proof", Rule(statuses=_FAILS, impacts=("proof",)), generic=True),
    Cause("grid_ties", "Grids on which two points tie at the optimum",
          "When two grid points tie at the optimum (for the experiments' instance on several mid-point grids, and on "
          "ETC grids whose 1/eps is not an integer; on every grid when two arms tie at the top, as two equal largest "
          "means do), Delta_min(eps) of eq:discrete_gap is 0, so beta does not exist and T_0(eps), T(eps), N(eps) "
          "are infinite there (RS-ETC-M never commits and its regret stays constant, against Table 1's solitary "
          "RS-ETC-M rates), so eps must be taken off the tie grids and tied tops excluded, which the statements do "
          "not say.",
          "rate", Rule(statuses=("conditional",), conditions=("Delta_min(eps) = Omega(eps^beta) on the eps",))),
    Cause("unstated_condition", "Statements that need a condition they do not state",
          "These statements hold only under the condition named, which the paper does not state and which excludes "
          "some laws or instances the statement covers.",
          "condition", Rule(statuses=("conditional",), impacts=("statement",)), generic=True),
    Cause("pht_constant", "lemma:PHT's constant L = 1 needs rewards in [0, 1]",
          "lemma:PHT's Jensen step gives the constant tau^(1-s) for laws on [0, tau], so L = 1 (in the lemma, its "
          "proof's chain and Table 2) holds only for tau <= 1: the paper's Bernoulli arms keep it, but its "
          "sub-Gaussian setting (rewards on R+, where the literature comparison applies the rates) and any reward "
          "range longer than 1 need L = tau^(1-s) in every bound that uses PHT.",
          "constant", Rule(statuses=_FAILS, conditions=("tau <= 1",))),
    Cause("k_power", "Regret bounds printed with a smaller power of K than their proofs give",
          "theorem:UCB upper bound's constant drops the factor K that its proofs carry (B_21 for RS-UCB-M, C_5 for "
          "CE-UCB-M), and theorem:RS-ETC-M prints a power of K below the K^1 of its discrete term for some q, r and "
          "beta, so for K >= 2 the displayed constants do not follow from the proofs as written (the orders in T "
          "and eps do).",
          "constant", Rule(explicit=True)),
    Cause("chained_constants", "Lines of the regret proofs that change a constant factor of the lines before",
          "These displays change a constant factor of what the lines before them give: a W lost, 2^q eps^(-q/2) "
          "lost, 2 replaced by 3 W, or a W > 1 that no instance of the setting has, so they do not follow as "
          "written, but the theorems' orders in T and eps do not depend on these factors.",
          "constant", Rule(explicit=True)),
    Cause("wrong_constant", "Constants wrong as printed",
          "These constants hold only in part of the setting they are stated for, so a bound that uses them must "
          "take rsb's derived constant.",
          "constant", Rule(statuses=BROKEN, impacts=("constant",)), generic=True),
    Cause("typos", "Evident typos whose corrected form holds",
          "Each is false as printed but holds with the evident correction shown, which a reader can apply.",
          "typo", Rule(impacts=("typo",)), generic=True),
)}

#: The largest a category's catch-all may grow on the ledger before its members need a cause of their own
#: (a test holds the ledger to it).
CATCH_ALL_LIMIT = 5


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
    # an evident typo whose corrected form holds has no consequence beyond the typo, whatever else its check knows
    if entry.impact == "typo":
        return CAUSES["typos"]
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


def caused(result, key: str):
    """``result`` (a :class:`~proofs_checks.ledger.CheckResult`) with its cause set to ``key`` when it fails (a status
    of a finding's member) and no cause is set yet, else unchanged: for a check that alone knows why its entry fails
    (a cause the check set on the result itself, for one of its ways to fail, is the more specific and stays)."""
    from dataclasses import replace

    if key not in CAUSES:
        raise ValueError(f"cause {key!r} is not one of {tuple(CAUSES)}")
    return replace(result, cause=key) if result.status in _FAILS and not getattr(result, "cause", None) else result


def because(key: str):
    """Decorate a check whose failures have the cause ``key`` (:func:`caused` on its result): the one line a check
    module adds where only the check knows why its entry fails."""
    import functools

    if key not in CAUSES:
        raise ValueError(f"cause {key!r} is not one of {tuple(CAUSES)}")

    def wrap(check):
        @functools.wraps(check)
        def checked(*args, **kwargs):
            return caused(check(*args, **kwargs), key)
        return checked
    return wrap
