"""Every ``\\label`` of the paper, in the order of the LaTeX source, classified by reading the paper.

This is data, transcribed once (nothing reads the paper at run or test time):
for each of the paper's 212 labels its *kind* — what ``rsb labels`` reports —
and the facts the kind was decided from:

* ``kind``: ``claim`` (it asserts something that can be true or false: a
  lemma, a theorem, an inequality, an identity that is not a definition, a
  bound, a "it can be readily verified that ..." display), ``definition`` (a
  display introduced with ≜, "we define", "is defined as", "is denoted by",
  "let ... be such that", or a definition environment), ``algorithm`` (pseudo
  code, or a rule that says what an algorithm does), ``figure``, ``table``,
  ``section``;
* ``element``: what carries the label in the LaTeX source (``section``,
  ``table``, ``figure``, ``algorithm``, ``list``, ``lemma``, ``theorem``,
  ``definition``, ``display``);
* ``relation``: for a display, the relation of its labelled row: ``=``,
  ``<=``, ``<``, ``>=``, ``def`` (≜), ``in`` (∈ argmax), ``=O`` (an order
  statement ``= O(...)``); empty otherwise;
* ``proof`` / ``statement``: the lemma or theorem whose proof (resp.
  statement) contains the display;
* ``note``: for a ``definition`` or an ``algorithm`` rule whose display has a
  relation sign, *why it is not a claim*; for a claim display, what it asserts.

The rule used: a displayed relation inside a proof that asserts
something — an inequality, an identity that is not a definition, a bound,
"it can be readily verified that ..." — is a ``claim``; a display introduced
with ≜ or "we define" is a ``definition``, unless it is a choice made inside a
proof whose attached sentence, with no label of its own, asserts what the choice
achieves (``eq:number of samples``: :data:`DEFINING_CLAIMS`).

Which ledger entries check a label is *derived* from the registry
(:func:`proofs_checks.registry.ledger_ids_of`), never typed here.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The kinds ``rsb labels`` reports.
KINDS = ("claim", "definition", "algorithm", "figure", "table", "section")
#: What carries a label in the LaTeX source.
ELEMENTS = ("section", "table", "figure", "algorithm", "list", "lemma", "theorem", "definition", "display")
#: Relations of a labelled display row ("" for non-displays).
RELATIONS = ("", "=", "<=", "<", ">=", "def", "in", "=O")
#: Relations that make a display of a proof an inequality (a claim by the rule).
INEQUALITIES = ("<=", "<", ">=")


@dataclass(frozen=True)
class PaperLabel:
    """One ``\\label`` of the paper, classified.

    Attributes
    ----------
    label : str
        The LaTeX label verbatim (spaces kept).
    kind : str
        One of :data:`KINDS`.
    element : str
        One of :data:`ELEMENTS`.
    relation : str
        One of :data:`RELATIONS` (displays only).
    proof : str or None
        The result (lemma, theorem) whose proof contains this display.
    statement : str or None
        The result or definition whose statement contains this display.
    note : str
        Why a definition (or an algorithm rule) with a relation sign is not a claim; what a claim asserts.
    """

    label: str
    kind: str
    element: str
    relation: str = ""
    proof: str | None = None
    statement: str | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.label!r}: kind {self.kind!r} is not one of {KINDS}")
        if self.element not in ELEMENTS:
            raise ValueError(f"{self.label!r}: element {self.element!r} is not one of {ELEMENTS}")
        if self.relation not in RELATIONS:
            raise ValueError(f"{self.label!r}: relation {self.relation!r} is not one of {RELATIONS}")

    @property
    def is_result(self) -> bool:
        """A lemma, theorem or corollary (a result with a statement, and usually a proof)."""
        return self.element in ("lemma", "theorem")


# constructors, so that each row of the table below reads as the paper does
def _section(label: str) -> PaperLabel:
    return PaperLabel(label, "section", "section")


def _table(label: str) -> PaperLabel:
    return PaperLabel(label, "table", "table")


def _figure(label: str) -> PaperLabel:
    return PaperLabel(label, "figure", "figure")


def _algorithm(label: str, element: str = "algorithm", relation: str = "", note: str = "") -> PaperLabel:
    return PaperLabel(label, "algorithm", element, relation, note=note)


def _result(label: str, element: str, note: str) -> PaperLabel:
    return PaperLabel(label, "claim", element, note=note)


def _definition(label: str, relation: str, note: str, proof: str | None = None, statement: str | None = None,
                element: str = "display") -> PaperLabel:
    return PaperLabel(label, "definition", element, relation, proof, statement, note)


def _claim(label: str, relation: str, note: str, proof: str | None = None, statement: str | None = None) -> PaperLabel:
    return PaperLabel(label, "claim", "display", relation, proof, statement, note)


_GINI = "lemma:example_utility_Holder"
_RTD = "lemma:RTD"
_MMD = "lemma:mean_median_Holder"
_IES = "lemma:inter_ES_Holder"
_DP = "lemma:Dual_Power"
_QU = "lemma:Quadratic"
_DE = "lemma:Delta_error"
_BM = "lemma:beta_lemma_monotone"
_ETC = "theorem: ETC upper bound"
_ETC2 = "theorem:RS-ETC-M"
_UCB = "theorem:UCB upper bound"
_COR = "corollary:RS-UCB-M"
_OV = "lemma:oversampling"

#: The paper's 212 labels in the order of the LaTeX source.
LABELS: tuple[PaperLabel, ...] = (
    _section("sec:introduction"),
    _definition("eq:wang_def", "=", "'the distortion riskmetric U_h is defined as the signed Choquet integral': "
                "defines U_h"),
    _table("table:table_regrets"),
    _section("sec:setting"),
    _definition("eq:U", "=", "'the overall risk associated with the sequence of arm selections is given by': defines "
                "the risk of a policy; the second '=' counts the indicators, which is the definition of tau_t(i)"),
    _definition("eq:optimal alpha", "in", "'the vector of optimal mixture coefficients is denoted by': defines "
                "alpha* as a maximiser of U_h over the simplex"),
    _definition("eq:V", "def", "≜: defines V(alpha, F)"),
    _result("example utility", "lemma", "Gini deviation, Bern(p) and Bern(1-p): the mixture (F_1 + F_2)/2 is "
            "optimal and strictly better than either arm"),
    _definition("eq:regret", "def", "≜: defines the regret R^pi(T)"),
    _definition("assumption:Holder", "", "definition environment: Hölder continuity of U_h (exponent q, L_H)",
                element="definition"),
    _definition("eq:Holder", "<=", "the inequality that defines Hölder continuity (assumption:Holder): assumed of "
                "U_h, not asserted", statement="assumption:Holder"),
    _definition("assumption:Holder_opt", "", "definition environment: mixture Hölder continuity of U_h (exponent "
                "r, L_MH)", element="definition"),
    _definition("eq:Holder_opt", "<=", "the inequality that defines mixture Hölder continuity "
                "(assumption:Holder_opt): assumed of U_h, not asserted", statement="assumption:Holder_opt"),
    _section("sec:algorithm"),
    _definition("eq:empirical_CDF", "def", "≜: defines the empirical CDF F_{i,t}^pi"),
    _result("lemma: concentration", "lemma", "W1 concentration of the empirical CDF (cited: Prashanth et al., "
            "Lemma 8)"),
    _claim("eq:meta_concentration", "<=", "P(||F_{i,t} - F_i||_W > y) <= 2 exp(-tau/(256 e) (y - 512/sqrt(tau))^2)",
           statement="lemma: concentration"),
    _definition("eq:discrete optimal mixture", "def", "≜: defines a* as the maximiser over the discrete simplex"),
    _definition("eq:discrete_gap", "def", "≜: defines the minimum sub-optimality gap Delta_min(eps)"),
    _section("Section:RS_ETC_M"),
    _definition("eq:etc_discrete_set", "def", "≜: defines the ETC grid Delta_eps^{K-1}"),
    _definition("eq:number of samples main paper", "def", "≜: defines the exploration length N(eps) "
                "(the sentence after it, 'N(eps) scales as O(log T)', is checked under this label)"),
    _algorithm("eq:ETC_alpha", "display", "in", "'∈ argmax': the mixture RS-ETC-M commits to (its rule, defined "
               "by the algorithm)"),
    _algorithm("eq: ETC_samp", "list", "<=", "the commit rule of RS-ETC-M (an enumerated procedure; its "
               "comparisons choose the branch)"),
    _algorithm("algorithm:RS-ETC-M-Alg"),
    _section("RS_UCB_M"),
    _definition("eq:UCB_confidence_sets", "def", "≜: defines the confidence set C_t(i) (its radius is a choice of "
                "the algorithm)"),
    _algorithm("eq:UCB_alpha", "display", "in", "'∈ argmax max': RS-UCB-M's optimistic mixture (its rule)"),
    _algorithm("eq:UCB_sampling_rule", "display", "def", "≜: RS-UCB-M's arm selection (the most under-sampled arm)"),
    _algorithm("algorithm:B-UCB-M"),
    _algorithm("eq:UCB_alpha2", "display", "in", "'∈ argmax UCB_t(a)': CE-UCB-M's mixture estimate (its rule)"),
    _section("sec:analysis"),
    _claim("eq:regret_decomposition", "=", "R(T) = Delta(eps) + discrete regret (eq:regret telescoped through "
           "V(a*, F))"),
    _definition("eq:regret_decomposition1", "def", "≜: defines the discretisation error Delta(eps)"),
    _definition("eq:regret_decomposition2", "def", "≜: defines the discrete regret"),
    _result(_ETC, "theorem", "eps-dependent regret bound of RS-ETC-M"),
    _result(_ETC2, "theorem", "eps-independent regret rate of RS-ETC-M"),
    _result(_UCB, "theorem", "eps-dependent regret bound of RS-UCB-M and CE-UCB-M"),
    _claim("eq:UCB regret", "<=", "the bound of theorem:UCB upper bound", statement=_UCB),
    _result(_COR, "theorem", "eps-independent regret rate of RS-UCB-M and CE-UCB-M (a theorem environment with a "
            "corollary label), under r <= beta + q/2"),
    _figure("fig:T_experiment"),
    _figure("fig:K_experiment"),
    _section("sec: experiments"),
    _section("Appendix:Specializing"),
    _section("Appendix:Additinal Tables"),
    _table("table:table_risks"),
    _section("appendix:lit_comp"),
    _table("table:literature_comparison"),
    _section("proof:lemma_example"),
    _claim("eq:h_1_p", "=", "'it can be readily verified that' U_h(Bern(p)) = h(p)", proof="example utility"),
    _claim("eq:p_max_def", "=", "p* = lambda p_1 + (1 - lambda) p_2 for some lambda in (0, 1)",
           proof="example utility"),
    _section("Appendix:W_finitess"),
    _definition("eq:W", "def", "≜: defines W (largest ratio of W1 to L1 distance between mixtures)"),
    _result("theorem:Wasserstein_dual", "theorem", "Kantorovich-Rubinstein duality (cited: Villani)"),
    _result("theorem:W", "theorem", "W <= sqrt(2 pi) for 1-sub-Gaussian arms"),
    _claim("eq:W_1", "=", "W1 of the signed mixture = sup over 1-Lipschitz f (theorem:Wasserstein_dual)",
           proof="theorem:W"),
    _claim("eq:W_2", "<=", "<= sup |sum (alpha - beta)(E[f(X) - f(0)] + f(0))|", proof="theorem:W"),
    _claim("eq:W_3", "=", "the f(0) terms cancel (sum alpha = sum beta = 1)", proof="theorem:W"),
    _claim("eq:W_4", "<=", "triangle inequality", proof="theorem:W"),
    _claim("eq:W_5", "<=", "sup of a sum <= sum of sups", proof="theorem:W"),
    _claim("eq:W_7", "<=", "<= sum |alpha(i) - beta(i)| E|X| (f 1-Lipschitz)", proof="theorem:W"),
    _claim("eq:W_8", "<=", "<= sqrt(2 pi) ||alpha - beta||_1 (E|X| <= sqrt(2 pi) for 1-sub-Gaussian X)",
           proof="theorem:W"),
    _section("proof:Aux_Lemma"),
    _result("lemma:lipschitz-wasserstein", "lemma", "three equal forms of W1 (cited: Prashanth et al., Lemma 2)"),
    _claim("lipwass2", "=", "W1 = sup over 1-Lipschitz f = int |F_X - F_Y| = int |F_X^-1 - F_Y^-1|",
           statement="lemma:lipschitz-wasserstein"),
    _result("lemma:risk-concave", "lemma", "concave h makes the DR of a mixture concave in the mixing coefficient"),
    _claim("eq:concave 1", ">=", "Jensen for the concave h, pointwise in x", proof="lemma:risk-concave"),
    _claim("eq: concave 2", "=", "Fubini-Tonelli", proof="lemma:risk-concave"),
    _result(_GINI, "lemma", "Gini deviation: q = 1, r = 1 or 2, L = 1"),
    _claim("eq:lemma_5_def_gd", "=", "'it can be easily verified that' U_h(F) = p_F (1 - p_F)", proof=_GINI),
    _claim("eq:LALL2_1", "=", "U_h(F) - U_h(G) = p_F(1 - p_F) - p_G(1 - p_G)", proof=_GINI),
    _claim("eq:lemma_5_p", "<=", "|p_F - p_G| |1 - p_F - p_G| <= |p_F - p_G|", proof=_GINI),
    _claim("eq:last_lemma_2", "=", "|p_F - p_G| = ||F - G||_W", proof=_GINI),
    _claim("eq:Gini_case1", "<=", "solitary case: U_h(F*) - U_h(G) <= |a_max - p_G|", proof=_GINI),
    _claim("eq:LALL", "=", "p* = 1/2: U_h(F*) - U_h(G) = 1/4 - p_G(1 - p_G)", proof=_GINI),
    _claim("eq:last_lemm_1", "=", "(1/2 - p_G)^2 = ||F* - G||_W^2", proof=_GINI),
    _result("lemma:PHT", "lemma", "PHT: q = r = s, L = 1 for CDFs on [0, tau]"),
    _result(_RTD, "lemma", "Wang's right-tail deviation: q = 1/2, r = 1 or 1/2, L = 1"),
    _claim("eq:lemma_5_def", "=", "'it can be easily verified that' U_h(F) = sqrt(p_F) - p_F", proof=_RTD),
    _claim("eq:WRTD_lemma_0", "<=", "|sqrt a - sqrt b| <= sqrt|a - b| for a, b >= 0", proof=_RTD),
    _claim("eq:LALL2", "=", "U_h(F) - U_h(G) = sqrt(p_F)(1 - sqrt(p_F)) - sqrt(p_G)(1 - sqrt(p_G))", proof=_RTD),
    _claim("eq:lemma_RTD_p", "<=", "|1 - sqrt(p_F) - sqrt(p_G)| <= 1", proof=_RTD),
    _claim("eq:last_lemma_rtd", "=", "|p_F - p_G|^(1/2) = ||F - G||_W^(1/2)", proof=_RTD),
    _claim("eq:LALL_1", "=", "p* = 1/4: U_h(F*) - U_h(G) = 1/4 - sqrt(p_G) + p_G", proof=_RTD),
    _claim("eq:last_lemm_1_2", "=", "|p*_F - p_G| = ||F* - G||_W", proof=_RTD),
    _result(_MMD, "lemma", "mean-median deviation: q = r = 1, L = 1"),
    _claim("eq:lemma_5_def_mean", "=", "'it can be easily verified that' U_h(F) = min(p_F, 1 - p_F)", proof=_MMD),
    _claim("eq:lemma_5_p_mean_1_MD", "<=", "same side of 1/2: U_h(F) - U_h(G) <= |p_F - p_G|", proof=_MMD),
    _claim("eq:lemma_5_p_mean_2_MD", "<=", "p_F < 1/2 < p_G: p_F - 1 + p_G <= |p_F - p_G|", proof=_MMD),
    _claim("eq:lemma_5_p_mean_3_MD", "<=", "p_G < 1/2 < p_F: 1 - p_F - p_G <= |p_F - p_G|", proof=_MMD),
    _claim("eq:LALL_mean_MD", "=", "p* = 1/2: U_h(F*) - U_h(G) = 1/2 - min(p_G, 1 - p_G)", proof=_MMD),
    _claim("eq:last_lemm_1_mean", "=", "|1/2 - p_G| = ||F - G||_W (F* meant)", proof=_MMD),
    _result(_IES, "lemma", "inter-ES range at alpha = 1/2: q = r = 1, L = 2"),
    _claim("eq:lemma_5_def_ES", "=", "'it can be easily verified that' U_h(F) = 2 min(p_F, 1 - p_F)", proof=_IES),
    _claim("eq:lemma_5_p_mean_1", "<=", "same side of 1/2: U_h(F) - U_h(G) <= 2|p_F - p_G|", proof=_IES),
    _claim("eq:lemma_5_p_mean_2", "<=", "p_F < 1/2 < p_G: 2(p_F - 1 + p_G) <= 2|p_F - p_G|", proof=_IES),
    _claim("eq:lemma_5_p_mean_3", "<=", "p_G < 1/2 < p_F: 2(1 - p_F - p_G) <= 2|p_F - p_G|", proof=_IES),
    _claim("eq:LALL_mean", "=", "p* = 1/2: U_h(F*) - U_h(G) = 2(1/2 - min(p_G, 1 - p_G))", proof=_IES),
    _claim("eq:last_lemm_1_ES", "=", "2|1/2 - p_G| = 2||F - G||_W (F* meant)", proof=_IES),
    _result(_DP, "lemma", "dual power, s >= 2: q = r = 1, L = s"),
    _claim("eq:lemma_5_def_DP", "=", "'it can be easily verified that' U_h(F) = 1 - (1 - p_F)^s", proof=_DP),
    _claim("eq:dp_beforelast", "=", "mean-value theorem: (p_F - p_G) s (1 - p_M)^(s-1)", proof=_DP),
    _claim("eq:dp_last", "<=", "|p_F - p_G| s (1 - p_M)^(s-1) <= |p_F - p_G| s", proof=_DP),
    _claim("eq:dp_final", "=", "s |p_F - p_G| = s ||F - G||_W", proof=_DP),
    _result(_QU, "lemma", "quadratic, s in [0, 1]: q = r = 1, L = 1 + s"),
    _claim("eq:lemma_5_def_quadratic", "=", "'it can be easily verified that' U_h(F) = (1 + s) p_F - s p_F^2",
           proof=_QU),
    _claim("eq:quadratic_lastline_2", "<=", "(p_F - p_G)((1 + s) - s(p_F + p_G)) <= (1 + s)|p_F - p_G|", proof=_QU),
    _claim("eq:quadratic_lastline", "=", "(1 + s)|p_F - p_G| = (1 + s)||F - G||_W", proof=_QU),
    _result(_DE, "lemma", "Delta(eps) <= L (K W)^r (eps/2)^r"),
    _claim("eq:delta_error_43", "<=", "mixture Hölder continuity at the nearest grid point", proof=_DE),
    _claim("eq:delta_error_5", "<=", "definition of W: <= L ||alpha* - a_bar||_1^r W^r", proof=_DE),
    _claim("eq:Delta_error_2", "<=", "||alpha* - a_bar||_1 <= K eps/2", proof=_DE),
    _result(_BM, "lemma", "beta = 1 for concave, strictly monotone h (Bernoulli arms)"),
    _claim("eq:solitary_best", "<", "h(<a, p>) < h(p_K) for every grid point a", proof=_BM),
    _claim("eq:astar_lemma14", "=", "'it can be readily verified that' the best grid point is a* (eps/2 on arms "
           "1..K-1)", proof=_BM),
    _claim("eq:aprime_lemma14", "=", "the second best grid point a' (3 eps/2 on arm K-1)", proof=_BM),
    _claim("eq:concavity_h", ">=", "concavity: Delta_min >= h'(<a*, p>) <a* - a', p>", proof=_BM),
    _claim("eq:best_second_deff", "=", "<a* - a', p> = eps (p(K) - p(K-1))", proof=_BM),
    _claim("eq:delta_min_conc_mon_analysis", ">=", "Delta_min >= h'(p(K)) (p(K) - p(K-1)) eps", proof=_BM),
    _section("Appendix:RS-ETC-M"),
    _section("proof:ETC upper bound"),
    _claim("eq: Regret_DISCRET_ETC", "=", "discrete regret = A_1(T) + A_2(T) + A_3(T) (the A_i are defined in "
           "its underbraces)", proof=_ETC),
    _section("appendix:RS-ETC-M mixing error"),
    _claim("eq: A2first", "<=", "A_2(T) <= B P(a^E_N not in OPT_eps) (U_h <= B)", proof=_ETC),
    _claim("eq:ETC_A21", "=", "law of total probability over E_N(Delta_min/2) (first term)", proof=_ETC),
    _claim("eq:ETC_A22", "=", "law of total probability (second term)", proof=_ETC),
    _claim("eq:ETC_1", "<=", "on E_N(Delta_min/2) the estimates are within Delta_min/2", proof=_ETC),
    _claim("eq:ETC_2", "=", "the conditional probability is 0 (a^E_N maximises the estimate)", proof=_ETC),
    _claim("eq:alpha_to_1", "<=", "(a*(i))^q <= 1 and a union bound over the arms", proof=_ETC),
    _claim("eq:E1C", "=", "P(not E_1) <= 2K exp(-N/(256 e K)(...)^2) (lemma: concentration at tau = N/K)",
           proof=_ETC),
    _claim("eq:E2C", "<=", "union bound over at most (1/eps)^(K-1) grid points", proof=_ETC),
    _claim("eq:E3C", "=", "sum of eq:E1C and eq:E2C", proof=_ETC),
    _claim("eq:number of samples", "def", "a claim although introduced with ≜: inside the proof, 'at "
           "this step, for some delta in (0, 1), choosing N(eps) as' this display 'and leveraging eq:E3C, it can be "
           "readily verified that' P(not E_1) + P(not E_2) <= delta. The display defines N(eps) (the appendix form of "
           "eq:number of samples main paper, with delta for 1/T^2) and the sentence attached to it, which has no "
           "label of its own, asserts what this choice achieves: the step of the proof is the display with that "
           "assertion (checked as theorem: ETC upper bound#step:eq:number of samples)", proof=_ETC),
    _claim("eq: ETC A2T final", "<=", "A_2(T) <= B delta", proof=_ETC),
    _claim("eq:lemma_8_2", "<=", "Hölder continuity and W: A_3(T) <= L E[||a^E_N - tau_T/T||_1^q W^q]", proof=_ETC),
    _definition("eq:ETC set", "def", "≜: defines the set S' of over-explored arms", proof=_ETC),
    _claim("eq: ETC commit 3", "<", "|tau_T(i)/T - a(i)| < 1/T for a committed arm i != K", proof=_ETC),
    _claim("eq: ETC commit 1", "=", "arms of S' keep their N/K exploration pulls", proof=_ETC),
    _claim("eq: ETC commit 2", "<=", "a(i) < N/(KT) on S'", proof=_ETC),
    _claim("eq: ETC commit 4", "<=", "arm K: |tau_T(K)/T - a(K)| <= 2N/T", proof=_ETC),
    _claim("eq: ETC commit 5", "<", "arms of S': |tau_T(i)/T - a(i)| < N/(KT)", proof=_ETC),
    _claim("eq: ETC commit 6", "<=", "every arm: |tau_T(i)/T - a(i)| <= 2N/T", proof=_ETC),
    _claim("eq: ETC A3T final", "<=", "A_3(T) <= L K W^q (2N/T)^q", proof=_ETC),
    _claim("eq:UP_ETC_eqn1", "<=", "B/T^2 + L K (3 W N/T)^q <= (L K + W^-q)(3 W N/T)^q", proof=_ETC),
    _claim("eq:disc_up_ETC", "=", "R = Delta(eps) + discrete regret <= Delta + (L K + W^-q)(2N/T)^q", proof=_ETC),
    _claim("eq:ETC_M_eps", "=", "= Delta + (L K + W^-q)(3 W M(eps) log T/T)^q with M = N/log T", proof=_ETC),
    _claim("eq:Discrete_order", "=O", "discrete regret = O(K T^((gamma - 1) q))", proof=_ETC2),
    _claim("eq:delta_order", "=O", "Delta(eps) = O(K^(r + r(q+1)/beta) T^(-rq gamma/(2 beta)) (log T)^(rq/(2 beta)))",
           proof=_ETC2),
    _claim("eq:ETC upper bound gamma appendix", "=O", "regret = O(max of the two terms)", proof=_ETC2),
    _section("proof:UCB upper bound"),
    _claim("eq:probi", "=", "sum over non-empty S of P(F_i not in C_T(i), i in S) = (2/T^2 + 1)^K - 1", proof=_UCB),
    _claim("eq:A_1 bound refer", "<=", "B_1(T) <= B((2/T^2 + 1)^K - 1)", proof=_UCB),
    _definition("eq:UCB_alpha_def", "def", "≜: defines UCB_t(alpha), the optimistic value", proof=_UCB),
    _claim("eq:UUB_1", "<=", "a_T(i) <= 1", proof=_UCB),
    _claim("eq:UUB_2", "<=", "forced exploration: tau_T(i) >= rho T eps/4", proof=_UCB),
    _claim("eq:A21", "=", "B_21(T) <= (L K/T)(32/sqrt(rho/4))^q T^(1-q/2)((sqrt(2 e log T) + 32)/sqrt(eps))^q",
           proof=_UCB),
    _section("appendix: UCB sampling estimation error"),
    _claim("eq:UCB_UB2", "<=", "B_22(T) <= L E[W^q ||a_T - tau_T/T||_1^q | E_0]", proof=_UCB),
    _claim("eq:UCB_UBh1", "<=", "P(a_t not in OPT) <= ((2/T^2 + 1)^K - 1) + P(a_t not in OPT | E_0)", proof=_UCB),
    _claim("eq:UCB_UB3", "<=", "definition of the event E_t(Delta_min/2)", proof=_UCB),
    _claim("eq:UCB_UB4", "=", "a* and a_t are optimal for their objectives", proof=_UCB),
    _claim("eq:UCB_UB5", "<=", "union bound over E_1, E_2", proof=_UCB),
    _claim("eq:E3_1", "<=", "union bound over the arms, (a*(i))^q <= 1", proof=_UCB),
    _claim("eq:E3_2", "<=", "forced exploration: tau_T(i) >= rho T eps/4", proof=_UCB),
    _definition("eq:T_epsilon", "def", "≜: defines T_0(eps), the first time after which the radius is below "
                "the gap condition", proof=_UCB),
    _claim("eq:UCB_UB8", "=", "P(not E_1 | E_0) = 0 for t >= T_0(eps)", proof=_UCB),
    _claim("eq:UCB_UB9", "=", "P(not E_2 | E_0) = 0 for t >= T_0(eps)", proof=_UCB),
    _claim("eq:UCB_UB10", "=", "P(a_t not in OPT | E_0) = 0 for t >= T_0(eps)", proof=_UCB),
    _claim("eq:UCB_UB10-1", "=", "P(OPT~_t != OPT | E_0) = 0 for t >= T_0(eps)", proof=_UCB),
    _result("lemma:probability of E3", "lemma", "P(E_3) <= T((2/T^2 + 1)^K - 1)"),
    _claim("eq:samlingequiv", "=", "an arm not sampled after the forced exploration has tau_t(i) = rho T eps/4",
           proof=_UCB),
    _claim("eq:oversampledproof", ">=", "an arm that is not under-sampled has tau_t(i) >= t a_t(i); hence "
           "under-sampled at the latest at rho T/2", proof=_UCB),
    _claim("eq:replace", ">=", "rho T eps/(4t) >= a_t(i)", proof=_UCB),
    _claim("eq:midpointsmatter", ">=", "a_t(i) >= eps/2 on the mid-point grid", proof=_UCB),
    _result("lemma:undersampling", "lemma", "|tau_t(i)/t - a*(i)| < K/t for t >= T(eps) under not E_3"),
    _claim("eq:UK_oneside", "<", "tau_t(i)/t - a*(i) < K/t", proof="lemma:undersampling"),
    _result(_OV, "lemma", "the over-sampled set O_t is empty after T(eps)"),
    _claim("eq:oversampling1", "<=", "case (a): (a*(j) t + 1)/(t + 1)", proof=_OV),
    _claim("eq:UK_1", "<=", "<= a*(j) + 1/(t + 1)", proof=_OV),
    _claim("eq:oversampling2", "<=", "case (b): (a*(j) + 1/t) t/(t + 1)", proof=_OV),
    _claim("eq:UK_2", "<=", "<= a*(j) + 1/(t + 1)", proof=_OV),
    _claim("eq:oversampling3", "<=", "'Let m be such that' the inequality holds, 'which implies that the arm i has left "
           "the set O': an m exists and the inequality takes arm i out of O_t (it also picks m)", proof=_OV),
    _claim("eq:m_finite", "<=", "eq:oversampling3 'can be equivalently written' with tau at T_0(eps) (arm i is not "
           "sampled)", proof=_OV),
    _claim("eq:m", "=", "the choice m = (2/eps - 1) T_0(eps) - 2/eps satisfies eq:m_finite (tau <= t, "
           "a*(i) >= eps/2)", proof=_OV),
    _definition("eq:T_epsilon_actual", "def", "≜: defines T(eps) = T_0(eps) + m", proof=_OV),
    _claim("eq:UCB_f1", "<=", "E[A | B] <= E[A]/P(B)", proof=_UCB),
    _claim("eq:UCB_f2", "<=", "P(F_i in C_T(i) for all i) >= 2 - (1/T^2 + 1)^K (eq:probi)", proof=_UCB),
    _claim("eq:UCB_UB11", "<=", "B_22(T) <= 2 L K W^q (P(E_3) + K (K/T)^q) (lemma:oversampling)", proof=_UCB),
    _claim("eq:UCB_UB12", "<=", "lemma:probability of E3", proof=_UCB),
    _claim("eq:Discretized_regret", "=", "discrete regret = B_1 + B_21 + B_22 <= the sum of their bounds",
           proof=_UCB),
    _claim("eq:theorem_lastline", "<=", "R(T) <= Delta(eps) + (B + L(W^q + 1))(64 (eps rho T)^(-1/2) "
           "(sqrt(2 e log T) + 32))^q for T > e^K", proof=_UCB),
    _claim("eq:Discrete_order_UCB_RS", "=O", "discrete regret = O((K^(2/q) log T/T)^((1 - kappa) q/2))",
           proof=_COR),
    _claim("eq:delta_order_UCB_RS", "=O", "Delta(eps) = O(K^(r(1 + 2 kappa/q)) (log T/T)^(r kappa))", proof=_COR),
    _claim("eq:UCB upper bound appendix", "=O", "regret = O(max of the two terms)", proof=_COR),
    _section("sec:SE-UCB-M proofs"),
    _section("Appendix:Upper_last_UCB"),
    _section("Appendix:CE-UCB-M-alg"),
    _algorithm("algorithm:UCB-M"),
    _section("Appendix:CE-UCB-M_algorithm"),
    _claim("eq:CEUCB1", "<=", "CE-UCB-M: Hölder continuity inside the confidence sets", proof=_UCB),
    _claim("eq:CEUCB2", "<=", "CE-UCB-M: a^C_T maximises UCB_T (eq:UCB_alpha2)", proof=_UCB),
    _claim("eq:CEUCB3", "<=", "CE-UCB-M: forced exploration bounds the bonus by L K (32 ... /sqrt(rho T eps))^q",
           proof=_UCB),
    _claim("eq:discrete_error_CE", "<=", "CE-UCB-M: the sum of the bounds on C_1..C_4", proof=_UCB),
    _claim("eq:theorem_lastline_CE", "<=", "CE-UCB-M: R(T) <= Delta(eps) + 5 L K W (32 ...)^q for T > e^K",
           proof=_UCB),
    _claim("eq:Discrete_order_CE", "=O", "CE-UCB-M: discrete regret = O((K^(2/q) log T/T)^((1 - kappa) q/2))",
           proof=_COR),
    _claim("eq:delta_order_ce", "=O", "CE-UCB-M: Delta(eps) = O(K^(r(1 + 2 kappa/q)) (log T/T)^(r kappa))",
           proof=_COR),
    _claim("eq:UCB upper bound appendix CE", "=O", "CE-UCB-M: regret = O(max of the two terms)", proof=_COR),
    _section("Appendix: Additional Experiments"),
    _figure("fig:regret_uniform"),
    _figure("fig:ucb_eta"),
    _figure("fig:ucb_zeta"),
    _figure("fig:2x2images"),
)

#: The labels, in order.
ORDER: tuple[str, ...] = tuple(x.label for x in LABELS)
#: label -> its position in :data:`ORDER`.
POSITION: dict[str, int] = {label: i for i, label in enumerate(ORDER)}
#: label -> :class:`PaperLabel`.
BY_LABEL: dict[str, PaperLabel] = {x.label: x for x in LABELS}
#: Displays introduced with ≜ that are claims: a choice made inside a proof together with the unlabelled assertion
#: attached to it ("choosing N(eps) as ..., it can be readily verified that ... <= delta"); the label's note says why.
DEFINING_CLAIMS: tuple[str, ...] = tuple(x.label for x in LABELS if x.kind == "claim" and x.relation == "def")
#: The lemmas and theorems (incl. the corollary), in order.
RESULTS: tuple[str, ...] = tuple(x.label for x in LABELS if x.is_result)


def get(label: str) -> PaperLabel:
    """The classified label ``label``; ``KeyError`` naming it when the paper has no such label."""
    try:
        return BY_LABEL[label]
    except KeyError:
        raise KeyError(f"the paper has no label {label!r}") from None


def proof_labels(result: str) -> tuple[str, ...]:
    """The labels of the displays in ``result``'s proof, in the paper's order."""
    return tuple(x.label for x in LABELS if x.proof == result)


def statement_labels(result: str) -> tuple[str, ...]:
    """The labels of the displays in ``result``'s statement (``eq:meta_concentration`` of ``lemma: concentration``)."""
    return tuple(x.label for x in LABELS if x.statement == result)
