"""The results' records: one frozen record per result of the paper (every lemma, theorem and corollary, and the
lemma ``example utility``), the one place where a fact about a result lives.

A :class:`Record` holds

* its label and kind (the kind is the paper's environment, :data:`proofs_checks.paper_labels.BY_LABEL`);
* its **statement**, split into named :class:`Part` s (the items of an enumerated lemma, a display, the cases of
  a piecewise value), each naming the ledger ids that judge it by their id prefix (``at``: an id ``X`` judges
  the part when it is one of ``at`` or extends one with ``.`` or ``#``: ``lemma:RTD#r`` is judged by
  ``lemma:RTD#r.case1`` and ``lemma:RTD#r.case2``, ``eq:UCB regret`` by ``eq:UCB regret#rs-ucb-m``);
* the **nodes attached** to it that are not its statement (:class:`Part` with another ``node``): a proof sketch
  of the main text (``sketch``), a remark or running-text sentence about it (``remark``), the closing summary of
  its proof or a remark inside the proof that another result uses (``proof``), its application at the
  experiments' setting (``experiment``);
* its proof's **context** (:class:`Context`): the setting and the quantities the proof fixes;
* its **uses** (:class:`Use`): the displays its proof ends with and the results it cites, each use of a result
  naming *which part* of it is used (``lemma:Dual_Power`` uses only ``lemma:PHT``'s remark ``r_equals_q``).

Everything else is derived from the records, never typed again: an entry's node and part (:func:`node_of`),
its axis (:func:`axis_of`), what its printed value is about (:func:`about_of`), the context a proof step is
judged in (:func:`context_of`), the graph of results (:mod:`proofs_checks.graph`) and the bottom lines
(:mod:`proofs_checks.bottom_lines`).  The steps of a proof (``R#step:LABEL``), its chained constants
(``R#chain``) and the entries of the displays of its proof (``eq:E2C``) need no record entry: they are proof
nodes of ``R`` by their id and :data:`proofs_checks.paper_labels.BY_LABEL`.

Light: the standard library and :mod:`proofs_checks.paper_labels` only (reading a stored ledger imports this).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import paper_labels

#: The kinds of node an entry judges (``CheckResult.node``).
NODES = ("statement", "proof", "sketch", "remark", "experiment")


# --------------------------------------------------------------------------------------------- the data types

@dataclass(frozen=True)
class Context:
    """What a proof works with.

    Attributes
    ----------
    result : str
        The label of the lemma or theorem whose proof this is.
    setting : str
        The setting in words, with labels.
    fixes : tuple of (str, str)
        The quantities the proof fixes: a short key a check reads (``"N"``, ``"radius"``, ``"grid"``, ``"T"``,
        ``"h"``, ``"laws"``) and its value in words, with the label that defines it.
    """

    result: str
    setting: str
    fixes: tuple[tuple[str, str], ...]

    def value(self, key: str) -> str | None:
        """The fixed value of ``key`` (None when the proof does not fix it)."""
        return dict(self.fixes).get(key)

    def describe(self) -> str:
        """One line for evidence: the fixed quantities."""
        return "; ".join(f"{k} = {v}" for k, v in self.fixes)


@dataclass(frozen=True)
class Part:
    """A named part of a result: a part of its statement, or a node attached to it.

    Attributes
    ----------
    name : str
        The part's name (``q``, ``r``, ``display``, ``summary``, ``sketch``); unique within its record.
    says : str
        What it says, in words.
    at : tuple of str
        The ledger ids (or id prefixes) that judge it; empty: ``RESULT#name``.
    node : str
        One of :data:`NODES`.
    about : str
        What its printed value is (:data:`proofs_checks.statuses.ABOUT`).
    """

    name: str
    says: str
    at: tuple[str, ...] = ()
    node: str = "statement"
    about: str = "statement"


@dataclass(frozen=True)
class Use:
    """One edge of the paper's graph: the user uses ``label`` (``part`` of it, for a result), for ``reason``.

    Attributes
    ----------
    label : str
        The label used.
    reason : str
        Why, where it is not evident from the paper's own citation.
    part : str or None
        For a used result: the name of the part used (a statement part or an attached node of its record);
        None: its whole statement.
    """

    label: str
    reason: str = ""
    part: str | None = None


@dataclass(frozen=True)
class Record:
    """One result of the paper and every fact rsb keeps about it.

    Attributes
    ----------
    label : str
        Its LaTeX label.
    parts : tuple of Part
        The parts of its displayed statement (``node == "statement"``).
    attached : tuple of Part
        The nodes attached to it that are not its statement: sketch, remark, a proof's summary, experiment.
    uses : tuple of Use
        What its proof uses: the displays it ends with, the results (and their parts) it cites.
    context : Context or None
        The context of its proof (None: its steps are judged as printed).
    """

    label: str
    parts: tuple[Part, ...]
    attached: tuple[Part, ...] = ()
    uses: tuple[Use, ...] = ()
    context: Context | None = None

    @property
    def kind(self) -> str:
        """``lemma`` or ``theorem`` (the paper's environment)."""
        return paper_labels.BY_LABEL[self.label].element

    def every_part(self) -> tuple[Part, ...]:
        """Its statement parts, then its attached nodes."""
        return self.parts + self.attached

    def part(self, name: str) -> Part:
        """The part or attached node called ``name`` (``KeyError``: none)."""
        for p in self.every_part():
            if p.name == name:
                return p
        raise KeyError(f"{self.label!r} has no part {name!r}")

    def at(self, p: Part) -> tuple[str, ...]:
        """The ids (prefixes) judging ``p``."""
        return p.at or (f"{self.label}#{p.name}",)


def _u(*items) -> tuple[Use, ...]:
    """``_u("eq:W", ("theorem:W", "the constant W is finite"), ("lemma:PHT", "why", "r_equals_q"))``."""
    return tuple(Use(*x) if isinstance(x, tuple) else Use(x) for x in items)


# --------------------------------------------------------------------------------------------- shared facts

#: The paper's setting (``sec:setting``), shared by every proof.
SETTING = ("K arms with laws F_i on Omega subset of R_+ (sec:setting), finite first moment, 1-sub-Gaussian; "
           "U_h <= B; h: [0, 1] -> [0, 1]")

_ETC_FIXES = (
    ("N", "N(eps) of eq:number of samples main paper (each arm explored ceil(N(eps)/K) times, "
          "algorithm:RS-ETC-M-Alg); N(eps) >= 256 e K (2KL/Delta_min)^(2/q) (32/sqrt e)^2 > 2.6e5 K"),
    ("grid", "the ETC grid eq:etc_discrete_set (footnote: the last coordinate takes up the deficit)"),
    ("T", "T > N(eps) (theorem: ETC upper bound)"),
    ("q, L", "a Hölder exponent and constant of U_h on the convex hull Xi of the arms' laws (assumption:Holder)"),
)
_UCB_FIXES = (
    ("radius", "the confidence radius of eq:UCB_confidence_sets"),
    ("grid", "the mid-point grid of section RS_UCB_M"),
    ("n0", "forced exploration ceil(rho T eps/4) pulls per arm, rho in (0, 1)"),
    ("T", "T > max(e^K, T(eps)) (theorem:UCB upper bound), T(eps) from Delta_min(eps) > 0"),
    ("q, L", "a Hölder exponent and constant of U_h on the convex hull Xi of the arms' laws (assumption:Holder)"),
)

_W1_BERN = ("lemma:lipschitz-wasserstein", "the W1 distance of two Bernoulli laws is |p_F - p_G| (W1 = the integral "
            "of |F - G|)", "identity")
_R_EQ_Q = ("lemma:PHT", "'similar to Lemma PHT': any Hölder exponent q is a mixture exponent r = q with L_MH = L_H",
           "r_equals_q")
_WD = "eq:wang_def"

_Q = "The Hölder continuity exponent is q = {}"
_L = "The Hölder constant is L = max(L_MH, L_H) = {}"


def _holder(label: str, q: str, r: str, L: str, r_cases: bool = True) -> tuple[Part, ...]:
    """The three items of a Hölder lemma: q (item 1), r (item 2; its cases ``r.case1``/``r.case2``), L (item 3)."""
    return (Part("q", "item 1: " + _Q.format(q), about="exponent"),
            Part("r", "item 2: the mixture Hölder exponent is " + r + (" (two cases)" if r_cases else ""),
                 about="exponent"),
            Part("L", "item 3: " + _L.format(L), about="constant"))


#: The closing summary of a Hölder lemma's proof ("Hence, in summary L = ..., q = ..., r = ...").
def _summary(text: str) -> Part:
    return Part("summary", "the proof's closing summary: " + text, node="proof", about="exponent")


_EXPERIMENTS = Part("experiments", "the bound applied at the experiments' setting (sec: experiments)",
                    node="experiment")
_SLOPES = Part("slope", "the rate against the regret measured in the experiments' setting", node="experiment",
               about="rate")


# --------------------------------------------------------------------------------------------- the records

_GINI, _RTD, _MMD, _IES = ("lemma:example_utility_Holder", "lemma:RTD", "lemma:mean_median_Holder",
                           "lemma:inter_ES_Holder")
_DP, _QU, _PHT = "lemma:Dual_Power", "lemma:Quadratic", "lemma:PHT"
_ETC, _ETC2, _UCB, _COR = "theorem: ETC upper bound", "theorem:RS-ETC-M", "theorem:UCB upper bound", \
    "corollary:RS-UCB-M"
_CLOSED = (_WD, "U_h of a Bernoulli law from the Choquet integral ('it can be easily verified')")

RECORDS: tuple[Record, ...] = (
    Record("example utility",
           (Part("mixture_optimal", "sup_alpha V(alpha, F) = U_h(0.5(F_1 + F_2)) > max_i U_h(F_i) for Gini on "
                                    "Bern(p), Bern(1 - p)", at=("example utility",)),),
           uses=_u("eq:h_1_p", "eq:p_max_def"),
           context=Context("example utility", SETTING + "; K = 2 Bernoulli arms Bern(p), Bern(1 - p)",
                           (("h", "Gini deviation h(u) = u(1 - u) (strictly concave)"),
                            ("laws", "Bern(p), Bern(1 - p), p in [0, 1]")))),
    Record("lemma: concentration",
           (Part("bound", "P(||F_{i,t} - F_i||_W > y) <= 2 exp(-tau/(256 e) (y - 512/sqrt tau)^2) at a sample count "
                          "tau fixed in advance (the ETC exploration's N(eps)/K)",
                 at=("lemma: concentration#bound", "eq:meta_concentration")),
            Part("any_policy", "'for any policy': the same bound at the count tau_t(i) a policy chooses from the data "
                               "(the UCB proofs' tau_T(i), eq:probi)"),
            Part("radius", "the exponent of the radius the bound gives", about="exponent")),
           uses=_u(("eq:meta_concentration", "its statement; the proof is cited (Prashanth et al., Lemma 8)"))),
    Record(_ETC,
           (Part("display", "R^E(T) <= (L K + W^-q)(3 W M(eps) log T/T)^q + Delta(eps) for T > N(eps)",
                 about="constant"),),
           (Part("choosing_eps", "'Choosing eps': Delta(eps) proportional to eps, N(eps) inversely proportional",
                 node="remark", about="exponent"), _EXPERIMENTS),
           _u(("algorithm:RS-ETC-M-Alg", "the algorithm the bound is about"),
              ("eq:number of samples main paper", "N(eps) and M(eps) = N(eps)/log T"),
              ("theorem:W", "the constant W of the bound is finite", "bound"),
              ("eq:Holder", "q and L of the bound (Hölder continuity assumed)"), "eq:ETC_M_eps"),
           Context(_ETC, SETTING, _ETC_FIXES)),
    Record(_ETC2,
           (Part("display", "R^E(T) = O([K^c_E log T/T^gamma]^(q r/(2 beta))), gamma = 2 beta/(2 beta + r)",
                 about="rate"),
            Part("hypothesis", "'when beta exists': the gap exponent of eq:discrete_gap on the algorithm's grid")),
           (_SLOPES, _EXPERIMENTS),
           _u((_ETC, "'under the conditions of Theorem 1': its bound", "display"),
              "eq:ETC upper bound gamma appendix"),
           Context(_ETC2, SETTING + "; beta exists", _ETC_FIXES + (
               ("eps", "Theta((K^(2+2/q) T^-gamma log T)^(q/(2 beta))), gamma = 2 beta/(2 beta + r)"),))),
    Record(_UCB,
           (Part("display", "eq:UCB regret: R^pi(T) <= [B + L(W^q + 1)][64/sqrt(eps rho T)(sqrt(2 e log T) + 32)]^q "
                            "+ Delta(eps), for RS-UCB-M and CE-UCB-M", at=("eq:UCB regret",), about="constant"),),
           (Part("sketch", "the proof sketch of the main text (the error probability, the tracking)", node="sketch"),
            _EXPERIMENTS),
           _u(("algorithm:B-UCB-M", "RS-UCB-M, one of the two algorithms the bound is about"),
              ("algorithm:UCB-M", "CE-UCB-M, the other"), ("eq:T_epsilon_actual", "T > T(eps)"), "eq:UCB regret"),
           Context(_UCB, SETTING, _UCB_FIXES)),
    Record(_COR,
           (Part("display", "R^pi(T) <= O(K^c_U (log T/T)^(r kappa)) when beta exists and r <= beta + q/2",
                 about="rate"),
            Part("hypothesis", "'when beta exists': the gap exponent of eq:discrete_gap on the algorithm's grid")),
           (_SLOPES, _EXPERIMENTS),
           _u((_UCB, "'under the conditions of Theorem 3': its bound", "display"), "eq:UCB upper bound appendix",
              "eq:UCB upper bound appendix CE"),
           Context(_COR, SETTING + "; beta exists, r <= beta + q/2", _UCB_FIXES + (
               ("eps", "Theta((K^(2/q) log T/T)^kappa), kappa = (2 beta/q + 2)^-1"),))),
    Record("theorem:Wasserstein_dual",
           (Part("duality", "||P_1 - P_2||_W = sup over 1-Lipschitz f of int f dP_1 - int f dP_2",
                 at=("theorem:Wasserstein_dual",)),)),  # cited (Villani); uses nothing of the paper
    Record("theorem:W",
           (Part("bound", "W <= sqrt(2 pi) for 1-sub-Gaussian laws", at=("theorem:W",)),),
           uses=_u("eq:W_8"),
           context=Context("theorem:W", "1-sub-Gaussian laws read as P(|X| > u) <= 2 exp(-u^2/2), the reading the "
                           "proof uses (eq:W_5)", (("sub-Gaussian", "P(|X| > u) <= 2 exp(-u^2/2)"),))),
    Record("lemma:lipschitz-wasserstein",
           (Part("identity", "lipwass2: ||F_X - F_Y||_W = sup |E f(X) - E f(Y)| = int |F_X - F_Y| = int |F_X^-1 - "
                             "F_Y^-1|", at=("lemma:lipschitz-wasserstein", "lipwass2")),),
           uses=_u("lipwass2")),
    Record("lemma:risk-concave",
           (Part("concave", "for a concave h, the DR of a mixture is concave in the mixing coefficient",
                 at=("lemma:risk-concave",)),),
           uses=_u("eq: concave 2")),
    Record(_GINI, _holder(_GINI, "1", "r = 1 if all p < 0.5 or all p > 0.5, else r = 2", "1"),
           (_summary("L = 1, q = 1, r = 1"),),
           _u(("eq:last_lemma_2", "q = 1, L_H = 1"), ("eq:Gini_case1", "r = 1 (solitary optimum)"),
              ("eq:last_lemm_1", "r = 2 (p* = 1/2)"))),
    Record(_PHT, _holder(_PHT, "s", "r = s", "1", r_cases=False),
           (_summary("r = q = s, L = L_H = L_MH = 1"),
            Part("r_equals_q", "the remark of the proof: given q, r = q is always a valid mixture exponent (with "
                               "L_MH = L_H)", at=("lemma:PHT#step:r_equals_q",), node="proof", about="exponent")),
           _u(("lemma:lipschitz-wasserstein", "the last inequality of the unlabelled chain", "identity"),
              (_WD, "U_h as the integral of h(1 - F)"))),
    Record(_RTD, _holder(_RTD, "1/2", "r = 1 if max p > 0.25 and min p < 0.25, else r = 1/2", "1"),
           (_summary("L = 1, q = 1, r = 1/2 or r = 1 as specified"),),
           _u(("eq:last_lemma_rtd", "q = 1/2, L_H = 1"), ("eq:last_lemm_1_2", "r = 1 at p* = 1/4"))),
    Record(_MMD, _holder(_MMD, "1", "r = 1 in both cases", "1"),
           (_summary("L = 1, q = 1, r = 1"),),
           _u(("eq:lemma_5_p_mean_1_MD", "q = 1: same side of 1/2"), ("eq:lemma_5_p_mean_2_MD", "q = 1: across"),
              ("eq:lemma_5_p_mean_3_MD", "q = 1: across"), ("eq:last_lemm_1_mean", "r = 1 at p* = 1/2"),
              _W1_BERN)),
    Record(_IES, _holder(_IES, "1", "r = 1 in both cases", "2"),
           (_summary("L = 2, q = 1, r = 1"),),
           _u(("eq:lemma_5_p_mean_1", "q = 1: same side of 1/2"), ("eq:lemma_5_p_mean_2", "q = 1: across"),
              ("eq:lemma_5_p_mean_3", "q = 1: across"), ("eq:last_lemm_1_ES", "r = 1 at p* = 1/2"), _W1_BERN)),
    Record(_DP, _holder(_DP, "1", "r = 1", "s", r_cases=False),
           (_summary("r = q = 1, L = s"),),
           _u(("eq:dp_final", "q = 1, L_H = s"), _R_EQ_Q),
           context=Context(_DP, SETTING + "; Bernoulli laws", (("s", "s >= 2, the lemma's hypothesis"),))),
    Record(_QU, _holder(_QU, "1", "r = 1", "1 + s", r_cases=False),
           (_summary("r = q = 1, L = 1 + s"),),
           _u(("eq:quadratic_lastline", "q = 1, L_H = 1 + s"), _R_EQ_Q)),
    Record("lemma:Delta_error",
           (Part("bound", "Delta(eps) <= L (K W)^r (eps/2)^r", at=("lemma:Delta_error",)),),
           (Part("order", "a remark about the lemma in the running text of the proofs of theorem:RS-ETC-M and "
                          "corollary:RS-UCB-M ('As a result/Hence, Delta(eps) = O(eps^r)', carrying the K^r of the "
                          "lemma's constant into eq:delta_order, eq:delta_order_UCB_RS, eq:delta_order_ce): the form "
                          "those proofs take from the lemma", node="remark", about="rate"),),
           uses=_u("eq:Delta_error_2"),
           context=Context("lemma:Delta_error", SETTING,
                           (("grid", "the grid of the algorithm the lemma is applied to: the ETC grid "
                                     "eq:etc_discrete_set for RS-ETC-M, the mid-point grid of section RS_UCB_M for "
                                     "RS-UCB-M and CE-UCB-M"),))),
    Record("lemma:beta_lemma_monotone",
           (Part("beta", "beta = 1 for a DR with concave and strictly monotone h",
                 at=("lemma:beta_lemma_monotone",)),),
           uses=_u("eq:delta_min_conc_mon_analysis", ("eq:discrete_gap", "beta is read off Delta_min(eps)")),
           context=Context("lemma:beta_lemma_monotone",
                           SETTING + "; h concave and strictly increasing, Bernoulli arms",
                           (("grid", "the mid-point grid of section RS_UCB_M"),
                            ("means", "p(1) < ... < p(K), the arms ordered by their means, the largest unique")))),
    Record("lemma:probability of E3",
           (Part("bound", "P(E_3,T) <= T((2/T^2 + 1)^K - 1)", at=("lemma:probability of E3",)),),
           uses=_u("eq:UCB_UBh1", "eq:UCB_UB10")),
    Record("lemma:undersampling",
           (Part("bound", "under not E_3: |tau_t(i)/t - a*(i)| < K/t for t >= T(eps)", at=("lemma:undersampling",)),),
           uses=_u(("lemma:oversampling", "", "bound"), "eq:UK_oneside"),
           # proved inside the proof of theorem:UCB upper bound: it fixes what that proof fixes
           context=Context("lemma:undersampling", SETTING + "; the complement of E_3 (a fixed target a* in OPT from "
                           "T_0(eps) on)", _UCB_FIXES)),
    Record("lemma:oversampling",
           (Part("bound", "under not E_3: O_t is empty for t > T(eps)", at=("lemma:oversampling",)),),
           uses=_u("eq:UK_1", "eq:UK_2", "eq:m", "eq:T_epsilon_actual",
                   ("lemma:probability of E3", "'under the event not E_3': the optimistic mixture stays in OPT_eps "
                                               "after T_0(eps)", "bound")),
           context=Context("lemma:oversampling", SETTING + "; the complement of E_3 (a fixed target a* in OPT from "
                           "T_0(eps) on)", _UCB_FIXES)),
)

#: Each row of the tables and its Hölder lemma (q, r, L); None where the paper proves none (CVaR: cited from
#: Prashanth et al.).  The mean row (h(u) = u) is lemma:Quadratic at s = 0, inside its range s in [0, 1]: the
#: paper names no lemma for it.
HOLDER_LEMMA: dict[str, str | None] = {
    "mean": _QU, "dual_power": _DP, "quadratic": _QU, "cvar": None, "pht": _PHT, "mean_median": _MMD,
    "inter_es": _IES, "right_tail": _RTD, "gini": _GINI,
}
#: Why a row's lemma is the one named, where the paper does not say it.
HOLDER_REASON = {"mean": "h(u) = u is the quadratic family at s = 0 (the paper names no lemma for this row)"}


# --------------------------------------------------------------------------------------------- derived

BY_LABEL: dict[str, Record] = {r.label: r for r in RECORDS}


def record(label: str) -> Record:
    """The record of ``label`` (``KeyError``: not a result)."""
    return BY_LABEL[label]


def _extends(ident: str, prefix: str) -> bool:
    return ident == prefix or ident.startswith((prefix + ".", prefix + "#"))


def _is_proof_id(ident: str) -> bool:
    part = ident.partition("#")[2]
    return part.startswith(("step:", "chain"))


@lru_cache(maxsize=None)
def placed(ident: str) -> tuple[str, Part] | None:
    """``(result, part)``: the record part or attached node that names ``ident`` (None: no record names it)."""
    proof_id = _is_proof_id(ident)  # a step or chain is named only by its exact id (lemma:PHT#step:r_equals_q)
    # the most specific prefix names it: lemma:Delta_error#order is the remark "order", not the part judged by
    # "lemma:Delta_error"
    found = [(len(a), rec.label, p) for rec in RECORDS for p in rec.every_part() for a in rec.at(p)
             if (ident == a if proof_id else _extends(ident, a))]
    if not found:
        return None
    best = max(n for n, _label, _p in found)
    _n, label, p = next(f for f in found if f[0] == best)
    return label, p


def proof_result(ident: str) -> str | None:
    """The result whose *proof* the entry ``ident`` judges: ``R`` for ``R#step:...`` and ``R#chain...``, the
    result whose proof contains the entry's own label (``eq:E2C``); None for any other entry."""
    label, _, part = ident.partition("#")
    if part.startswith(("step:", "chain")):
        return label
    info = paper_labels.BY_LABEL.get(label)
    return None if info is None else info.proof


def _node_from_id(ident: str) -> str:
    """The node of an entry no record names, read off its id: a sketch, an application at the experiments'
    setting, a sentence of the running text or a discussion (a remark), else a statement of the paper (a table's
    cell, a display)."""
    label, _, part = ident.partition("#")
    if part.startswith("sketch"):
        return "sketch"
    if part.startswith(("experiments", "slope")) or label == "sec: experiments":
        return "experiment"
    if part.startswith(("text.", "discussion")):
        return "remark"  # a sentence of the running text or of a discussion, not a result's displayed statement
    return "statement"


@lru_cache(maxsize=None)
def node_of(ident: str) -> tuple[str, str | None]:
    """``(node, part)`` of a ledger entry: a record's part or attached node names it; else a step, chained
    constant or display of a proof is ``proof``; else :func:`_node_from_id`.  ``part`` is the statement part's
    name for a statement entry of a result (None otherwise)."""
    where = placed(ident)
    if where is not None:
        _result, p = where
        return p.node, (p.name if p.node == "statement" else None)
    if proof_result(ident) is not None:
        return "proof", None
    return _node_from_id(ident), None


def result_of(ident: str) -> str | None:
    """The result an entry belongs to: the record that names it, the result whose proof it judges, else None."""
    where = placed(ident)
    if where is not None:
        return where[0]
    owner = proof_result(ident)
    if owner in BY_LABEL:
        return owner
    return None


def axis_of(ident: str) -> str:
    """``statement`` for an entry of a displayed statement (node ``statement``), else ``proof`` (a step, a
    sketch, a remark, a proof's summary, an application at the experiments' setting)."""
    return "statement" if node_of(ident)[0] == "statement" else "proof"


def about_of(ident: str) -> str:
    """What the printed value of an entry is (a claim may say otherwise, ``Claim.about``): the record's part says
    it for an entry of a result; a chained constant ``R#chain`` is a constant; for the other entries, read off the
    id: a cell of ``table:table_regrets`` or ``table:literature_comparison`` or a measured slope is a rate; the q,
    r, beta of ``table:table_risks`` are exponents and its L a constant; a comparison of rates (``#discussion``)
    and a rate stated in words (``sec:analysis#text.*``, ``appendix:lit_comp#text.*``) a rate."""
    label, _, part = ident.partition("#")
    where = placed(ident)
    if where is not None:
        return where[1].about
    if part.startswith("chain"):
        return "constant"
    if label in ("table:table_regrets", "table:literature_comparison") or part.startswith(("slope", "discussion")):
        return "rate"
    if part.startswith("text.") and label in ("sec:analysis", "appendix:lit_comp"):
        return "rate"
    if label == "table:table_risks":
        return "constant" if part.endswith(".L") else "exponent"
    return "statement"


def context_of(result: str | None) -> Context | None:
    """The context of ``result``'s proof (None: no context recorded; its steps are judged as printed)."""
    rec = BY_LABEL.get(result) if result is not None else None
    return None if rec is None else rec.context


def contexts() -> dict[str, Context]:
    """result -> the context of its proof, for every record that has one."""
    return {r.label: r.context for r in RECORDS if r.context is not None}


def ids_of_part(label: str, name: str, ids) -> tuple[str, ...]:
    """The ids (of ``ids``, in their order) that judge the part or attached node ``name`` of result ``label``."""
    rec = BY_LABEL[label]
    p = rec.part(name)
    return tuple(i for i in ids if placed(i) == (label, p))


def statement_ids(label: str, ids) -> dict[str, tuple[str, ...]]:
    """part name -> the ids (of ``ids``) judging it, for every statement part of ``label`` (in the record's
    order; a part without an entry maps to ``()``)."""
    return {p.name: ids_of_part(label, p.name, ids) for p in BY_LABEL[label].parts}


def result_uses() -> dict[str, tuple[Use, ...]]:
    """result -> its uses, for every record (the edges out of the results of :mod:`proofs_checks.paper_uses`)."""
    return {r.label: r.uses for r in RECORDS}
