"""The paper's printed values, transcribed once, with their LaTeX labels.

Everything here is *data to compare against*: no module of ``rsb_theory`` or
``rsb_sim`` imports it, and no derived quantity reads it.  Strings are kept as
printed (LaTeX reduced to the toolkit's expression syntax: ``varpi`` for
varpi(T) = sqrt(log T / T), ``kappa``, ``beta``; ``(T^gamma)`` marks a rate
evaluated at T^gamma).

Sources: ``table:table_regrets`` (Table 1, with the parameter ranges it states
and its CVaR footnote), ``table:table_risks`` (Table 2),
``table:literature_comparison`` (Table 3, this work's rows and footnote), the
lemmas ``lemma:example_utility_Holder`` .. ``lemma:Quadratic`` item by item,
``lemma:lipschitz-wasserstein``, ``theorem:Wasserstein_dual``,
``lemma: concentration``, the settings of ``sec: experiments``, and the
printed bounds, constants and hypotheses of the other checked results
(``example utility``, ``lemma:risk-concave``, ``theorem:W``,
``lemma:Delta_error``, ``lemma:beta_lemma_monotone``, ``eq:E2C``, the
sampling lemmas and ``eq: ETC commit 5/6``).  Each check module reads its
claim's printed values from here through its ``CLAIMS`` (an altered claim
replaces them; :mod:`proofs_checks.claims`).  The ledger's order is the order
in which the paper defines the labels (:data:`proofs_checks.paper_labels.POSITION`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegretRow:
    """A row of ``table:table_regrets`` as printed."""

    key: str
    name: str
    h: str
    parameter: str
    shaded: bool
    ucb: str
    etc: str


@dataclass(frozen=True)
class RiskRow:
    """A row of ``table:table_risks`` as printed, with the constant L of the row's lemma (which lemma:
    :data:`proofs_checks.results.HOLDER_LEMMA`)."""

    key: str
    q: str
    r: str
    beta: str
    L: str | None
    beta_bound: str | None = None


#: ``table:table_regrets``: h, parameter domain, shading (mixture optimal), rates.
TABLE_REGRETS: tuple[RegretRow, ...] = (
    RegretRow("mean", "Risk-neutral Mean Value", "u", "", False, "varpi^(1/2)", "varpi^2"),
    RegretRow("dual_power", "Dual Power", "1-(1-u)**s", "s in [2, oo)", False, "varpi^(1/2)", "varpi^2"),
    RegretRow("quadratic", "Quadratic", "(1+s)*u - s*u**2", "s in [0, 1]", False, "varpi^(1/2)", "varpi^2"),
    RegretRow("cvar", "CVaR_alpha", "min(u/(1-alpha), 1)", "", False, "varpi^(1/2)", "varpi^2"),
    RegretRow("pht", "PHT", "u**s", "s = 1/2", False, "varpi^(1/5)", "varpi"),
    RegretRow("mean_median", "Mean-Median Deviation", "min(u, 1-u)", "", True, "varpi^(2*kappa)",
              "varpi^(1/beta)(T^gamma)"),
    RegretRow("inter_es", "Inter-ES Range", "min(u/(1-alpha), 1) + min((alpha-u)/(1-alpha), 0)", "alpha = 1/2",
              True, "varpi^(2*kappa)", "varpi^(1/beta)(T^gamma)"),
    RegretRow("right_tail", "Wang's Right-Tail Deviation", "sqrt(u) - u", "", True, "varpi^(2*kappa)",
              "varpi^(1/(2*beta))(T^gamma)"),
    RegretRow("gini", "Gini Deviation", "u*(1-u)", "", True, "varpi^(4*kappa)", "varpi^(2/beta)(T^gamma)"),
)

#: ``table:table_risks`` (q, r, beta; "-" where the paper leaves beta open)
#: and L = max(L_MH, L_H) as each row's lemma states it (None: the paper prints none for the row).
#: ``beta_bound``: a footnote's condition "means smaller than <bound>".
TABLE_RISKS: tuple[RiskRow, ...] = (
    RiskRow("mean", "1", "1", "1", None),
    RiskRow("dual_power", "1", "1", "1", "s"),
    RiskRow("quadratic", "1", "1", "1", "1+s"),
    # footnote: beta = 1 "when the arms' mean values are smaller than 1 - alpha"
    RiskRow("cvar", "1", "1", "1", None, beta_bound="1 - alpha"),
    RiskRow("pht", "s", "s", "1", "1"),
    RiskRow("mean_median", "1", "1", "-", "1"),
    RiskRow("inter_es", "1", "1", "-", "2"),
    RiskRow("right_tail", "1/2", "1", "-", "1"),
    RiskRow("gini", "1", "2", "-", "1"),
)

#: ``table:literature_comparison``, this work's rows (footnote: RS-ETC-M
#: assumes that the optimal solution is a solitary arm).
LITERATURE_THIS_WORK: dict[str, str] = {
    "rs_etc_m": "varpi^(2*q)",
    "rs_ucb_m": "varpi^(2*r*kappa)",
}
#: What each of this work's rows assumes beyond "sub-Gaussian" (the footnote of the RS-ETC-M row: "Assuming that
#: the optimal solution is a solitary arm").
LITERATURE_ASSUMES: dict[str, tuple[str, ...]] = {"rs_etc_m": ("solitary",), "rs_ucb_m": ()}


@dataclass(frozen=True)
class LiteratureRow:
    """A row of ``table:literature_comparison`` about a cited work: its citation key, DR, distribution assumption
    and regret (in powers of varpi(T) = sqrt(log T/T))."""

    work: str
    dr: str
    assumption: str
    rate: str


#: ``table:literature_comparison``, the rows of the cited works, as printed.
LITERATURE_PRIOR: tuple[LiteratureRow, ...] = (
    LiteratureRow("baudry2021optimal", "CVaR", "Bounded", "varpi^2"),
    LiteratureRow("tamkin2019cvar", "CVaR", "Bounded", "varpi^2"),
    LiteratureRow("cassel2018general", "CVaR", "Bounded", "varpi^2"),
    LiteratureRow("chang2022", "DRM", "Bounded", "varpi^2"),
    LiteratureRow("aditya2016weighted", "DRM", "Bounded", "varpi^2"),
    LiteratureRow("liang2023distribution", "DRM", "Bounded", "varpi^2"),
    LiteratureRow("prashanth2022wasserstein", "DRM", "Sub-Gaussian", "varpi"),
)


@dataclass(frozen=True)
class TextRate:
    """A regret rate stated in running text (ledger id ``SECTION#text.NAME``).

    ``rate`` is the printed O(.) as an expression in T (``"log(T)/T"``); ``who`` the cited works (citation keys)
    or this work's algorithm (``"RS-ETC-M"``, ``"RS-UCB-M"``); ``dr`` the DR the sentence is about (a row key of
    ``table:table_regrets`` for this work's algorithms, ``"CVaR"``/``"DRM"`` for cited works, ``"q=1"`` for "the
    DRMs with q = 1"); ``assumption`` the distribution assumption the sentence states (``"Bounded"``,
    ``"Sub-Gaussian"``, ``"Bernoulli"``).
    """

    id: str
    sentence: str
    rate: str
    who: tuple[str, ...]
    dr: str
    assumption: str


_LIT = "appendix:lit_comp#text."
_REL = "sec:analysis#text."
#: The rates of the comparison with the literature stated in words: the main text's paragraph "Relevance to the
#: existing literature" (section sec:analysis) and appendix:lit_comp's paragraphs "CVaR" and "DRMs".
LITERATURE_TEXT: tuple[TextRate, ...] = (
    TextRate(_REL + "cvar_bounded", "For the well-investigated CVaR, the existing literature establishes a regret "
             "bound of O(log T/T) for bounded support [baudry2021optimal]", "log(T)/T", ("baudry2021optimal",),
             "CVaR", "Bounded"),
    TextRate(_REL + "cvar_subgaussian", "... and O(sqrt(log T/T)) for sub-Gaussian distributions "
             "[prashanth2022wasserstein]", "sqrt(log(T)/T)", ("prashanth2022wasserstein",), "CVaR", "Sub-Gaussian"),
    TextRate(_REL + "cvar_rs_etc_m", "Under the same sub-Gaussian assumption, RS-ETC-M improves the regret bound to "
             "O(log T/T) (CVaR)", "log(T)/T", ("RS-ETC-M",), "cvar", "Sub-Gaussian"),
    TextRate(_LIT + "cvar_bounded", "For CVaR, the best-known regret is O(log(T)/T) under the assumption of bounded "
             "support [baudry2021optimal, cassel2018general, tamkin2019cvar]", "log(T)/T",
             ("baudry2021optimal", "cassel2018general", "tamkin2019cvar"), "CVaR", "Bounded"),
    TextRate(_LIT + "cvar_subgaussian", "When the assumption is loosened to sub-Gaussian, the regret weakens to "
             "O(sqrt(log(T)/T)) for [prashanth2022wasserstein]", "sqrt(log(T)/T)", ("prashanth2022wasserstein",),
             "CVaR", "Sub-Gaussian"),
    TextRate(_LIT + "cvar_rs_etc_m", "for sub-Gaussian models, RS-ETC-M achieves a regret bound of O(log(T)/T) "
             "(CVaR)", "log(T)/T", ("RS-ETC-M",), "cvar", "Sub-Gaussian"),
    TextRate(_LIT + "cvar_rs_ucb_m", "while for Bernoulli model RS-UCB-M achieves a regret bound of "
             "O((log(T)/T))^(1/4) (CVaR)", "(log(T)/T)**(1/4)", ("RS-UCB-M",), "cvar", "Bernoulli"),
    TextRate(_LIT + "drm_bounded", "For the more general class of DRMs, under the assumption of bounded support, the "
             "study in [chang2022, aditya2016weighted] reports a regret of O(log(T)/T)", "log(T)/T",
             ("chang2022", "aditya2016weighted"), "DRM", "Bounded"),
    TextRate(_LIT + "drm_subgaussian", "For the sub-Gaussian support, [prashanth2022wasserstein] reports a regret "
             "bound of O(sqrt(log(T)/T))", "sqrt(log(T)/T)", ("prashanth2022wasserstein",), "DRM", "Sub-Gaussian"),
    TextRate(_LIT + "drm_q1_rs_etc_m", "In the sub-Gaussian setting, the regret bound of RS-ETC-M depends on q, and "
             "hence, for the DRMs with q = 1, we achieve the same regret as in CVaR (O(log(T)/T))", "log(T)/T",
             ("RS-ETC-M",), "q=1", "Sub-Gaussian"),
    TextRate(_LIT + "pht_rs_etc_m", "For q < 1, which is the case for PHT with s = 1/2, we report a regret of "
             "O(sqrt(log(T)/T)) for RS-ETC-M (sub-Gaussian setting)", "sqrt(log(T)/T)", ("RS-ETC-M",), "pht",
             "Sub-Gaussian"),
    TextRate(_LIT + "pht_rs_ucb_m", "and under Bernoulli model we report O((log(T)/T)^(1/5)) for RS-UCB-M (PHT, "
             "s = 1/2)", "(log(T)/T)**(1/5)", ("RS-UCB-M",), "pht", "Bernoulli"),
)


#: The discrete regrets ``sec:analysis`` states in words after corollary:RS-UCB-M: "In the case of Gini deviation,
#: we observe that for discrete regret, the RS-ETC-M algorithm achieves O(K/T) regret while RS-UCB-M achieves
#: O(K/sqrt(T)) regret, ignoring polylogarithmic factors" (``rate``: an expression in K and T).
DISCRETE_TEXT: tuple[TextRate, ...] = (
    TextRate(_REL + "gini_discrete_etc", "In the case of Gini deviation, ... for discrete regret, the RS-ETC-M algorithm "
             "achieves O(K/T) regret ..., ignoring polylogarithmic factors", "K/T", ("RS-ETC-M",), "gini", "Bernoulli"),
    TextRate(_REL + "gini_discrete_ucb", "... while RS-UCB-M achieves O(K/sqrt(T)) regret, ignoring polylogarithmic "
             "factors (Gini deviation, discrete regret)", "K/sqrt(T)", ("RS-UCB-M",), "gini", "Bernoulli"),
)


#: The proof sketch of theorem:UCB upper bound: "in Lemma lemma:undersampling ... we show that the regret incurred
#: by the tracking block of the RS-UCB-M and CE-UCB-M algorithms is of the order O(K/T)".
SKETCH_TEXT: tuple[TextRate, ...] = (
    TextRate("theorem:UCB upper bound#sketch.tracking", "Proof sketch: in lemma:undersampling 'we show that the "
             "regret incurred by the tracking block of the RS-UCB-M and CE-UCB-M algorithms is of the order O(K/T)'",
             "K/T", ("RS-UCB-M",), "any", "Sub-Gaussian"),
)


#: Parameter values the printed rows of ``table:table_regrets`` are read at where the table fixes one.
TABLE_PARAMETERS: dict[str, dict[str, str]] = {
    "pht": {"s": "1/2"},
    "inter_es": {"alpha": "1/2"},
}


@dataclass(frozen=True)
class ParameterRange:
    """A parameter range a table states, e.g. ``s in [2, +oo)`` (``high=None``: unbounded)."""

    name: str
    low: str
    high: str | None
    low_closed: bool = True
    high_closed: bool = True


#: The parameter ranges each table states for its rows ("parameter" column of ``table:table_regrets``; row
#: names of ``table:table_risks`` such as "PHT Measure (s in (0,1))" and "IER_{alpha=1/2}").  A pinned value is a
#: range with low = high.  Table 2 restates Table 1's rows, so Table 1's ranges hold there unless it pins
#: another; a row without an entry is read over its family's whole domain.
PARAMETER_RANGES: dict[str, dict[str, ParameterRange]] = {
    "table:table_regrets": {
        "dual_power": ParameterRange("s", "2", None),
        "quadratic": ParameterRange("s", "0", "1"),
        "pht": ParameterRange("s", "1/2", "1/2"),
        "inter_es": ParameterRange("alpha", "1/2", "1/2"),
    },
    "table:table_risks": {
        "dual_power": ParameterRange("s", "2", None),
        "quadratic": ParameterRange("s", "0", "1"),
        "pht": ParameterRange("s", "0", "1", low_closed=False, high_closed=False),
        "inter_es": ParameterRange("alpha", "1/2", "1/2"),
    },
}

#: Footnote of the CVaR row of ``table:table_regrets``: "Arm means < 1 - alpha for R^U" (row key -> bound on the
#: arms' means the RS-UCB-M cell assumes).
UCB_MEANS_BELOW: dict[str, str] = {"cvar": "1 - alpha"}


def regret_row(key: str) -> RegretRow:
    """The printed row of ``table:table_regrets`` for ``key``."""
    return next(r for r in TABLE_REGRETS if r.key == key)


def risk_row(key: str) -> RiskRow:
    """The printed row of ``table:table_risks`` for ``key``."""
    return next(r for r in TABLE_RISKS if r.key == key)


# ---------------------------------------------------------------------------
# Auxiliary lemmas (appendix proof:Aux_Lemma, Appendix:W_finitess) and
# lemma: concentration: the printed value of each item, transcribed once.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LemmaClaim:
    """One printed item of a lemma, keyed by its ledger id ``<label>#<part>``.

    ``printed`` is the printed value in the toolkit's expression syntax
    (``"1/2"``, ``"1+s"``); a summary sentence lists several as
    ``"L=1; q=1; r=1"``.  ``condition`` is the printed case condition or
    hypothesis ("" if none); ``instances`` says which Bernoulli instances a
    case of item 2 is about as the paper describes them ("mixture": p* is
    the interior maximiser, "solitary": a single arm is optimal, "all").
    """

    id: str
    claim: str
    printed: str
    condition: str = ""
    instances: str = "all"


#: ``lemma:example_utility_Holder`` .. ``lemma:Quadratic`` (parameters as
#: in the lemmas: PHT s in (0, 1), dual power s >= 2, quadratic s in [0, 1],
#: inter-ES at alpha = 1/2).
HOLDER_LEMMAS: tuple[LemmaClaim, ...] = (
    # Gini deviation, h = u(1-u)
    LemmaClaim("lemma:example_utility_Holder#q", "Gini: Hölder exponent q", "1"),
    LemmaClaim("lemma:example_utility_Holder#r.case1", "Gini: mixture Hölder exponent r when max p < 0.5 or "
               "min p > 0.5 (solitary optimum)", "1", "max p < 1/2 or min p > 1/2", "solitary"),
    LemmaClaim("lemma:example_utility_Holder#r.case2", "Gini: mixture Hölder exponent r otherwise (p* = 1/2)", "2",
               "otherwise (some p <= 1/2 and some p >= 1/2)", "mixture"),
    LemmaClaim("lemma:example_utility_Holder#L", "Gini: L = max(L_MH, L_H)", "1"),
    LemmaClaim("lemma:example_utility_Holder#summary", "Gini: 'Hence, in summary L=1, q=1, and r=1'",
               "L=1; q=1; r=1"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:lemma_5_p", "Gini: |1 - p_F - p_G| <= 1, so "
               "U_h(F) - U_h(G) <= |p_F - p_G|", "1"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:last_lemm_1", "Gini, p* = 1/2: "
               "U_h(F*) - U_h(G) = (1/2 - p_G)^2 = ||F* - G||_W^2", "1"),
    # PHT, h = u^s
    LemmaClaim("lemma:PHT#q", "PHT (CDFs on [0, tau]): Hölder exponent q", "s", "s in (0, 1)"),
    LemmaClaim("lemma:PHT#r", "PHT: mixture Hölder exponent r", "s", "s in (0, 1)", "solitary"),
    LemmaClaim("lemma:PHT#L", "PHT (CDFs on [0, tau]): L = max(L_MH, L_H)", "1", "s in (0, 1)"),
    LemmaClaim("lemma:PHT#summary", "PHT: 'Hence, we have r = q = s and L = L_H = L_MH = 1'", "L=1; q=s; r=s"),
    LemmaClaim("lemma:PHT#step:power", "PHT: (1-F)^s - (1-G)^s <= |F - G|^s pointwise", "1"),
    LemmaClaim("lemma:PHT#step:jensen", "PHT (Jensen): int_0^tau |F-G|^s dx <= (int_0^tau |F-G| dx)^s", "1",
               "CDFs supported on [0, tau]"),
    # Wang's right-tail deviation, h = sqrt(u) - u
    LemmaClaim("lemma:RTD#q", "RTD: Hölder exponent q", "1/2"),
    LemmaClaim("lemma:RTD#r.case1", "RTD: mixture Hölder exponent r when max p > 0.25 and min p < 0.25 "
               "(p* = 1/4), with L_MH = 1", "1", "max p > 1/4 and min p < 1/4", "mixture"),
    LemmaClaim("lemma:RTD#r.case2", "RTD: mixture Hölder exponent r otherwise (proof: max p < 0.25 or "
               "min p > 0.25, solitary optimum, 'r = q')", "1/2", "otherwise", "solitary"),
    LemmaClaim("lemma:RTD#L", "RTD: L = max(L_MH, L_H)", "1"),
    LemmaClaim("lemma:RTD#summary", "RTD: 'Hence, in summary L=1, q=1, and r=1/2 or r=1 as specified'",
               "L=1; q=1"),
    LemmaClaim("lemma:RTD#step:eq:WRTD_lemma_0", "RTD: |sqrt(a) - sqrt(b)| <= sqrt(|a - b|) for a, b >= 0", "1"),
    LemmaClaim("lemma:RTD#step:eq:lemma_RTD_p", "RTD: |1 - sqrt(p_F) - sqrt(p_G)| <= 1", "1"),
    # Mean-median deviation, h = min(u, 1-u)
    LemmaClaim("lemma:mean_median_Holder#q", "Mean-median: Hölder exponent q", "1"),
    LemmaClaim("lemma:mean_median_Holder#r.case1", "Mean-median: r when max p > 0.5 and min p < 0.5 (p* = 1/2), "
               "with U_h(F*) - U_h(G) = ||F* - G||_W", "1", "max p > 1/2 and min p < 1/2", "mixture"),
    LemmaClaim("lemma:mean_median_Holder#r.case2", "Mean-median: r when max p < 0.5 or min p > 0.5 "
               "(solitary, 'r = q', L_MH = 1)", "1", "max p < 1/2 or min p > 1/2", "solitary"),
    LemmaClaim("lemma:mean_median_Holder#L", "Mean-median: L = max(L_MH, L_H)", "1"),
    LemmaClaim("lemma:mean_median_Holder#summary", "Mean-median: 'Hence, in summary L=1, q=1, and r=1'",
               "L=1; q=1; r=1"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:lemma_5_p_mean_2_MD", "Mean-median, p_F < 1/2 < p_G: "
               "U_h(F) - U_h(G) = p_F - 1 + p_G <= |p_F - p_G|", "1", "p_F < 1/2 < p_G"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:lemma_5_p_mean_3_MD", "Mean-median, p_G < 1/2 < p_F: "
               "U_h(F) - U_h(G) = 1 - p_F - p_G <= |p_F - p_G|", "1", "p_G < 1/2 < p_F"),
    # Inter-ES range, alpha = 1/2
    LemmaClaim("lemma:inter_ES_Holder#q", "Inter-ES (alpha = 1/2): Hölder exponent q", "1"),
    LemmaClaim("lemma:inter_ES_Holder#r.case1", "Inter-ES: r when max p > 0.5 and min p < 0.5 (p* = 1/2)", "1",
               "max p > 1/2 and min p < 1/2", "mixture"),
    LemmaClaim("lemma:inter_ES_Holder#r.case2", "Inter-ES: r when max p < 0.5 or min p > 0.5 (solitary, "
               "L_MH = 2)", "1", "max p < 1/2 or min p > 1/2", "solitary"),
    LemmaClaim("lemma:inter_ES_Holder#L", "Inter-ES: L = max(L_MH, L_H)", "2"),
    LemmaClaim("lemma:inter_ES_Holder#summary", "Inter-ES: 'Hence, in summary L=2, q=1, and r=1'",
               "L=2; q=1; r=1"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:lemma_5_def_ES", "Inter-ES: h(u) = min(2u, 1) + min(1 - 2u, 0) "
               "= 2 min(u, 1 - u), so U_h(F) = 2 min(p_F, 1 - p_F)", "2*min(u, 1 - u)"),
    LemmaClaim("lemma:inter_ES_Holder#step:after:eq:lemma_5_p_mean_3", "Inter-ES: 'Hence, overall, "
               "|p_F - p_G| = 2||F - G||_W' (the display after eq:lemma_5_p_mean_3)", "2"),
    # Dual power, h = 1 - (1-u)^s
    LemmaClaim("lemma:Dual_Power#q", "Dual power: Hölder exponent q", "1", "s >= 2"),
    LemmaClaim("lemma:Dual_Power#r", "Dual power: mixture Hölder exponent r", "1", "s >= 2", "solitary"),
    LemmaClaim("lemma:Dual_Power#L", "Dual power: L = max(L_MH, L_H)", "s", "s >= 2"),
    LemmaClaim("lemma:Dual_Power#summary", "Dual power: 'r = q, L_MH = L_H, which means L = s'", "L=s; q=1; r=1"),
    LemmaClaim("lemma:Dual_Power#step:eq:dp_last", "Dual power: s (1 - p_M)^(s-1) <= s 'follows from s >= 2 and "
               "p_M <= 1'", "2", "s >= 2"),
    # Quadratic, h = (1+s)u - s u^2
    LemmaClaim("lemma:Quadratic#q", "Quadratic: Hölder exponent q", "1", "s in [0, 1]"),
    LemmaClaim("lemma:Quadratic#r", "Quadratic: mixture Hölder exponent r", "1", "s in [0, 1]", "solitary"),
    LemmaClaim("lemma:Quadratic#L", "Quadratic: L = max(L_MH, L_H)", "1+s", "s in [0, 1]"),
    LemmaClaim("lemma:Quadratic#summary", "Quadratic: 'r = q, L_MH = L_H, and hence L = 1+s'", "L=1+s; q=1; r=1"),
    LemmaClaim("lemma:Quadratic#step:eq:quadratic_lastline_2", "Quadratic: (p_F - p_G)((1+s) - s(p_F + p_G)) "
               "<= (1+s)|p_F - p_G|", "1+s", "s in [0, 1]"),
)

#: ``lemma:lipschitz-wasserstein`` (eq lipwass2) and ``theorem:Wasserstein_dual``.
WASSERSTEIN_CLAIMS: tuple[LemmaClaim, ...] = (
    LemmaClaim("lemma:lipschitz-wasserstein", "||F_X - F_Y||_W = sup_{||f||_L <= 1} |E f(X) - E f(Y)| = "
               "int |F_X - F_Y| ds = int_0^1 |F_X^-1 - F_Y^-1| dbeta", "all three equal"),
    LemmaClaim("theorem:Wasserstein_dual", "Kantorovich-Rubinstein: ||P1 - P2||_W = sup_{||f||_L <= 1} "
               "(int f dP1 - int f dP2)", "equal"),
)

#: ``lemma: concentration`` (eq:meta_concentration): P(||F_n - F||_W > y) <= this, for n = tau_t(i) samples
#: and "any y in R_+"; and the horizons of ``sec: experiments`` (largest T = 3*10^5, fig:K_experiment).
CONCENTRATION_BOUND = "2*exp(-n/(256*e)*(y - 512/sqrt(n))**2)"
CONCENTRATION_CLAIMS: tuple[LemmaClaim, ...] = (
    LemmaClaim("lemma: concentration#bound", "P(||F_n - F||_W > y) <= 2 exp(-n/(256 e) (y - 512/sqrt(n))^2) "
               "for any y in R_+", CONCENTRATION_BOUND, "y in R_+"),
    LemmaClaim("lemma: concentration#radius", "The W1 radius the bound gives at confidence delta = 2/T^2 "
               "(the radius of eq:UCB_confidence_sets) is informative at the paper's horizons",
               CONCENTRATION_BOUND, "T in {7.5*10^4, 10^5, 3*10^5}"),
)
#: ``lemma: concentration``'s "for any policy pi": the bound with n = tau_t^pi(i), the policy's own count of arm i
#: (random when the policy adapts to the rewards); the right side read at that count.
CONCENTRATION_ANY_POLICY = LemmaClaim(
    "lemma: concentration#any_policy", "For any policy pi and y in R_+: P(||F_{i,t} - F_i||_W > y) <= "
    "2 exp(-tau_t(i)/(256 e) (y - 512/sqrt(tau_t(i)))^2), at the policy's own count tau_t(i)",
    CONCENTRATION_BOUND, "any policy pi")
@dataclass(frozen=True)
class ExperimentSetup:
    """One experiment of ``sec: experiments`` / ``Appendix: Additional Experiments`` as printed.

    ``explore_per_arm`` is the stated exploration length of RS-UCB-M as a fraction of T ("explore each arm T/10
    times"), None where the text gives rho instead; ``rho`` the stated exploration coefficient.
    """

    figure: str
    K: tuple[int, ...]
    T: tuple[int, ...]
    p: tuple[float, ...] | None
    eps: str
    explore_per_arm: str | None
    rho: float | None


#: ``sec: experiments`` and ``Appendix: Additional Experiments`` (Gini deviation, Bernoulli arms, 1000 trials).
#: The regret-vs-T figure states no horizons; 10^5 is the largest horizon of the appendix experiments.
EXPERIMENTS: tuple[ExperimentSetup, ...] = (
    ExperimentSetup("fig:T_experiment", (2,), (100_000,), (0.4, 0.9), "sqrt(K*log(T)/T)", "T/10", None),
    ExperimentSetup("fig:K_experiment", (2, 3, 4, 5, 6), (300_000,), None, "sqrt(K*log(T)/T)", "T/20", None),
    ExperimentSetup("fig:regret_uniform", (2,), (100_000,), (0.4, 0.9), "sqrt(K*log(T)/T)", None, 0.1),
    ExperimentSetup("fig:ucb_eta", (2,), (100_000,), None, "sqrt(K*log(T)/T)", None, 0.1),
    ExperimentSetup("fig:ucb_zeta", (3,), (75_000,), None, "sqrt(K*log(T)/T)", None, None),
)

#: Discussion after ``eq:UCB_alpha2``: the algorithm said to have the better regret guarantee, per row.
DISCUSSION_BETTER: dict[str, str] = {"right_tail": "RS-ETC-M", "gini": "RS-UCB-M"}

@dataclass(frozen=True)
class Comparison:
    """A sentence of ``sec:analysis`` or of the Discussion after ``eq:UCB_alpha2`` that compares RS-ETC-M with
    RS-UCB-M / CE-UCB-M.

    Attributes
    ----------
    id : str
        Ledger id (``sec:analysis#text.NAME`` or ``eq:UCB_alpha2#discussion.NAME``).
    sentence : str
        The sentence, LaTeX reduced to text.
    says : str
        What it says, as data: the algorithm with the better guarantee (``RS-ETC-M``, ``RS-UCB-M``), ``neither``
        (no uniform winner), ``depends`` (the winner depends on the DR); for ``scope`` ``parameters`` the one algorithm
        that needs instance-dependent parameters.
    scope : str
        What is compared: ``parameters`` (the algorithms' inputs), ``discrete`` (the discrete regret of the
        eps-dependent theorems), ``solitary`` / ``mixture`` / ``all`` (the eps-independent rates of the rows of
        table:table_regrets with a solitary optimum, a mixture optimum, all rows), ``gini_orderwise`` (Gini
        deviation's eps-independent rates, an order-wise improvement: a larger power of T).
    """

    id: str
    sentence: str
    says: str
    scope: str


_DIS = "eq:UCB_alpha2#discussion."
#: The comparative sentences of sec:analysis and of the Discussion after eq:UCB_alpha2 not covered by
#: :data:`DISCRETE_TEXT`, :data:`LITERATURE_TEXT` or :data:`DISCUSSION_BETTER`.
COMPARISONS: tuple[Comparison, ...] = (
    Comparison(_DIS + "instance_parameters", "Unlike RS-ETC-M, RS-UCB-M and the CE-UCB-M are independent of "
               "instance-dependent parameters.", "RS-ETC-M", "parameters"),
    Comparison(_DIS + "neither_dominates", "The performance of RS-ETC-M and RS-UCB-M depends on the choice of DR, with "
               "neither uniformly dominating the other.", "neither", "all"),
    Comparison(_DIS + "solitary", "In Section sec:analysis we show that RS-ETC-M has better regret guarantees for DRs "
               "favoring a solitary arm policy.", "RS-ETC-M", "solitary"),
    Comparison(_DIS + "mixture_depends", "In contrast, for the DRs that have a mixture optimal policy, the performance "
               "advantage depends on the DR.", "depends", "mixture"),
    Comparison(_REL + "instance_parameters", "In the mixtures setting, however, access to instance-dependent "
               "parameters yields better regret guarantees for the ETC-type algorithm (i.e., RS-ETC-M).", "RS-ETC-M",
               "discrete"),
    Comparison(_REL + "weaker_discrete", "An important observation is that these algorithms [RS-UCB-M, CE-UCB-M] "
               "yield weaker discrete regret guarantees compared to RS-ETC-M.", "RS-ETC-M", "discrete"),
    Comparison(_REL + "gini_orderwise", "However, when we optimize the algorithms for the discretization level eps, "
               "we observe an order-wise improvement in the regret of the RS-UCB-M and CE-UCB-M algorithms (Gini "
               "deviation).", "RS-UCB-M", "gini_orderwise"),
)


#: ``sec: experiments``: "the optimal mixing coefficient is alpha* = [0.8, 0.2]" (Gini, Bern(0.4), Bern(0.9)).
EXPERIMENT_ALPHA_STAR: tuple[float, ...] = (0.8, 0.2)

#: The horizons the experiments state (from :data:`EXPERIMENTS`).
EXPERIMENT_HORIZONS: tuple[int, ...] = tuple(sorted({T for e in EXPERIMENTS for T in e.T}))


def lemma_claim(ident: str) -> LemmaClaim:
    """The printed item with ledger id ``ident``."""
    for c in HOLDER_LEMMAS + WASSERSTEIN_CLAIMS + CONCENTRATION_CLAIMS:
        if c.id == ident:
            return c
    raise KeyError(ident)


#: Printed bounds of the sampling lemmas and proof steps of appendix ``proof:UCB upper bound`` /
#: ``Appendix:RS-ETC-M`` (keyed by ledger id; expression syntax of this module).
SAMPLING_CLAIMS: dict[str, str] = {
    "lemma:undersampling": "|tau_t(i)/t - a*(i)| < K/t for t >= T(eps)",
    "lemma:oversampling": "O_t = {} for t > T(eps) = T_0 + m, m = (2/eps - 1)*T_0 - 2/eps",
    "eq:oversampledproof": "under-sampled at the latest at t = rho*T/2",
    "lemma:probability of E3": "T*((2/T**2 + 1)**K - 1)",
    "eq: ETC commit 6": "2*N(eps)/T",
    "eq: ETC commit 5": "N(eps)/(K*T)",
}


# ---------------------------------------------------------------------------
# Claims of the main text and the appendix checked one by one (printed values and hypotheses as data)
# ---------------------------------------------------------------------------

#: ``example utility`` (Lemma 1): two arms Bern(p) and Bern(1 - p), "for a given p in [0, 1]".
EXAMPLE_UTILITY_P = ParameterRange("p", "0", "1")

#: ``lemma:risk-concave``: "if the distortion function h is concave, ... concave in the mixing coefficient".
RISK_CONCAVE_HYPOTHESIS = "concave"
#: ``lemma:risk-concave``'s proof: the inequality its displayed chain ends with (eq:concave 1 .. eq: concave 2), from
#: which the lemma concludes concavity: ``vertices`` -- U_h(sum_i alpha(i) F_i) >= sum_i alpha(i) U_h(F_i), V at a
#: mixture against the values at the vertices of the simplex (``pairs`` would be V(lambda a + (1 - lambda) b) >=
#: lambda V(a) + (1 - lambda) V(b), concavity itself).
RISK_CONCAVE_CHAIN = "vertices"

#: ``theorem:W``: W <= sqrt(2 pi) for arms that are "1-sub-Gaussian".
THEOREM_W_BOUND = "sqrt(2*pi)"
THEOREM_W_HYPOTHESIS = "1-sub-Gaussian"

#: ``lemma:Delta_error``: Delta(eps) <= L (K W)^r (eps/2)^r, for every eps (the footnote of
#: ``eq:etc_discrete_set`` defines the grid when 1/eps is not an integer).
DELTA_ERROR_BOUND = "L*(K*W)**r*(eps/2)**r"
#: The order form the proofs of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` take from the lemma: "As a
#: result/Hence, Delta(eps) = O(eps^r)", with the K^r of the lemma's constant carried into ``eq:delta_order``,
#: ``eq:delta_order_UCB_RS`` and ``eq:delta_order_ce`` (their K-exponents r + r(q+1)/beta and r(1 + 2 kappa/q)):
#: Delta(eps) <= C K^r eps^r with C independent of K and eps -- the shape (the powers of K and eps).
DELTA_ERROR_ORDER = "K**r*eps**r"
#: ``assumption:Holder``: U_h(G_1) - U_h(G_2) <= L_H ||G_1 - G_2||_W^q "for all distributions G_1, G_2 in (Xi, W_1)",
#: Xi the convex hull of the arms' laws (sec:setting) -- the domain on which the theorems assume Hölder continuity.
HOLDER_DOMAIN = "Xi"

#: Where the paper uses ``lemma:Delta_error``: the grid of each algorithm whose regret decomposition
#: (``eq:regret_decomposition``) bounds Delta(eps) by it -- the ETC grid ``eq:etc_discrete_set`` in
#: ``theorem: ETC upper bound`` (RS-ETC-M), the mid-point grid of section ``RS_UCB_M`` in ``theorem:UCB upper bound``
#: (RS-UCB-M and CE-UCB-M).
DELTA_ERROR_USES = (("etc", "theorem: ETC upper bound"), ("ucb", "theorem:UCB upper bound"))

#: ``lemma:beta_lemma_monotone``: beta = 1 "for a DR with concave and strictly monotone distortion function".
BETA_MONOTONE = "1"
#: The proof's last sentence after ``eq:delta_min_conc_mon_analysis``: "For a strictly increasing function, the
#: derivative h'(p) != 0 for all p in (0, 1). From eq:delta_min_conc_mon_analysis, ... Delta_min(eps) = Omega(eps),
#: and hence beta = 1": the beta it concludes.
BETA_MONOTONE_CONCLUSION = "1"

#: ``eq:E2C``: "the total number of discrete a values may not exceed (1/eps)^(K-1)".
GRID_SIZE_BOUND = "(1/eps)**(K - 1)"

#: The unit ball of Lipschitz functions, ||f||_L <= 1, in ``lemma:lipschitz-wasserstein`` (lipwass2) and
#: ``theorem:Wasserstein_dual``.
LIPSCHITZ_BALL = "1"

#: ``lemma:undersampling``: |tau_t(i)/t - a*(i)| < K/t for t >= T(eps): the numerator and the relation.
UNDERSAMPLING_BOUND = ("K", "<")
#: ``eq:oversampledproof``: "it becomes under sampled at the latest at the time instant rho T / 2".
UNDERSAMPLED_BY = "rho*T/2"
#: ``lemma:oversampling`` (``eq:m``): m = (2/eps - 1) T_0(eps) - 2/eps, T(eps) = T_0(eps) + m.
OVERSAMPLING_M = "(2/eps - 1)*T_0 - 2/eps"
#: ``lemma:probability of E3``: P(E3) <= T((2/T^2 + 1)^K - 1); and the constant of the set Q that defines
#: T_0(eps) (section ``sec:analysis``, ``eq:T_epsilon``): (sqrt(2 e log s) + 32)/sqrt(rho s eps/4) <= this
#: constant times (Delta_min/(2 K L))^(1/q).
E3_BOUND = "T*((2/T**2 + 1)**K - 1)"
Q_CONSTANT = "1/16"
#: ``eq: ETC commit 6`` and ``eq: ETC commit 5``: the bound on |tau_T(i)/T - a(i)| and the relation.
ETC_COMMIT_6 = ("2*N/T", "<=")
ETC_COMMIT_5 = ("N/(K*T)", "<")


# ---- proof steps before Appendix:RS-ETC-M ----
#
# The printed steps of the proofs and the claims of the running text before ``Appendix:RS-ETC-M`` (the main text,
# ``proof:lemma_example``, ``Appendix:W_finitess``, ``proof:Aux_Lemma``), one :class:`LemmaClaim` per ledger id
# ``RESULT#step:LABEL`` (a labelled display of RESULT's proof; ``step:after:LABEL`` for an unlabelled sentence that
# follows LABEL), ``LABEL#part`` (a claim of the running text) or ``RESULT#chain`` (the constant of RESULT's
# statement, to be re-derived by chaining its proof's steps).  ``printed`` is the printed value in the toolkit's
# expression syntax: a right-hand side (``"p*(1 - p)"``: ``p`` the mean of a Bernoulli mixture, ``a``/``b`` the means
# p_F/p_G of two mixtures), a constant factor of a displayed relation (``"1"`` where the display has none), a bound
# (``"sqrt(2*pi)"``), a relation sign, a rate (``"log(T)"``), a hypothesis (``"concave"``), or several values
# ``"name=value; ..."``.  ``condition`` is the hypothesis or case the display states ("" if none).

#: Printed steps and running-text claims before ``Appendix:RS-ETC-M``.
PROOF_STEPS_A: tuple[LemmaClaim, ...] = (
    # --- main text
    LemmaClaim("sec:introduction#mean", "'by setting h(u) = u, the DR U_h(Q) simplifies to the expected value of Q' "
               "(Contributions)", "u"),
    LemmaClaim("eq:U", "U_h(sum_s sum_i 1{A_s = i}/t F_i) = U_h(sum_i tau_t(i)/t F_i): the weight of arm i",
               "tau/t"),
    LemmaClaim("eq:regret_decomposition", "R(T) = Delta(eps) + Rbar(T) with eq:regret_decomposition1 and "
               "eq:regret_decomposition2 (R of eq:regret)", "Delta + Rbar"),
    LemmaClaim("eq:number of samples main paper#scaling", "'This implies that N(eps) scales as O(log T)' (and "
               "M(eps) = N(eps)/log T as O(1)), for fixed K, eps, L, q, Delta_min(eps)", "log(T)"),
    LemmaClaim("theorem: ETC upper bound#choosing_eps", "'Choosing eps': 'Delta(eps) is proportional to eps, and "
               "N(eps) is inversely proportional to eps': the exponents of eps", "Delta=1; N=-1"),
    LemmaClaim("theorem:UCB upper bound#sketch.E3", "Proof sketch: 'the probability of error ... in identifying the "
               "discrete optimal mixture is upper bounded by T((1/T^2 + 1)^K - 1)'", "T*((1/T**2 + 1)**K - 1)"),
    LemmaClaim("sec: experiments#closed_form", "Gini deviation, Bernoulli arms: 'the DR has a closed-form expression "
               "for the case of mixtures, V(alpha, F) = <alpha, p>(1 - <alpha, p>)' (m = <alpha, p>)", "m*(1 - m)"),
    # --- proof:lemma_example
    LemmaClaim("example utility#step:eq:h_1_p", "'It can be readily verified that' U_h(Bern(p)) = "
               "int_0^oo h(1 - F(x)) dx = h(p) for any p in [0, 1]: the argument of h", "p"),
    LemmaClaim("example utility#step:after:eq:h_1_p", "'Owing to concavity of the distortion function h, the "
               "maximizer p* = argmax h is unique' and, h being non-monotone, p* in (0, 1)", "concave",
               "h concave and not monotone"),
    LemmaClaim("example utility#step:eq:p_max_def", "For p_1 < p* < p_2 'there exists lambda in (0, 1) such that "
               "p* = lambda p_1 + (1 - lambda) p_2': the range of lambda", "(0, 1)", "p_1 < p* < p_2"),
    LemmaClaim("example utility#step:after:eq:p_max_def", "U_h(F*) = h(p*) > max{h(p_1), h(p_2)} for Gini "
               "deviation: the gap U_h(F*) - max_i U_h(F_i) exceeds", "0", "p_1 < p* < p_2"),
    # --- Appendix:W_finitess (proof of theorem:W): the constant factor of each displayed relation
    LemmaClaim("theorem:W#step:eq:W_1", "||sum_i (alpha(i) - beta(i)) F_i||_W = sup_{||f||_L <= 1} "
               "sum_i (alpha(i) - beta(i)) E_i[f(X)] (Theorem theorem:Wasserstein_dual): the Lipschitz ball", "1"),
    LemmaClaim("theorem:W#step:eq:W_2", "eq:W_1 <= sup |sum_i (alpha(i) - beta(i)) (E_i[f(X) - f(0)] + f(0))| "
               "('since we take the absolute value'): factor", "1"),
    LemmaClaim("theorem:W#step:eq:W_3", "= sup |sum_i (alpha(i) - beta(i)) E_i[f(X) - f(0)]| ('sum alpha = "
               "sum beta = 1'): factor", "1"),
    LemmaClaim("theorem:W#step:eq:W_4", "<= sup sum_i |(alpha(i) - beta(i)) E_i[f(X) - f(0)]| (triangle "
               "inequality): factor", "1"),
    LemmaClaim("theorem:W#step:eq:W_5", "<= sum_i |alpha(i) - beta(i)| sup |E_i[f(X) - f(0)]| ('sup of a sum <= "
               "sum of sups'): factor", "1"),
    LemmaClaim("theorem:W#step:eq:W_7", "<= sum_i |alpha(i) - beta(i)| E_i[|X|] ('1-Lipschitzness of f'): "
               "factor", "1"),
    LemmaClaim("theorem:W#step:after:eq:W_7", "'Since all distributions are 1-sub-Gaussian', E[|X|] = "
               "int_0^oo P(|X| > u) du <= int_0^oo 2 exp(-t^2/2) dt = sqrt(2 pi)", "sqrt(2*pi)",
               "1-sub-Gaussian"),
    LemmaClaim("theorem:W#step:eq:W_8", "||sum_i (alpha(i) - beta(i)) F_i||_W <= sqrt(2 pi) ||alpha - beta||_1",
               "sqrt(2*pi)", "1-sub-Gaussian"),
    LemmaClaim("theorem:W#chain", "W <= sqrt(2 pi): the constant re-derived by chaining eq:W_1 .. eq:W_8",
               "sqrt(2*pi)"),
    # --- lemma:risk-concave
    LemmaClaim("lemma:risk-concave#step:eq:concave 1", "int_0^oo h(sum_i alpha(i)(1 - F_i(x))) dx >= int_0^oo "
               "sum_i alpha(i) h(1 - F_i(x)) dx, 'from the concavity of the distortion function': the hypothesis",
               "concave"),
    LemmaClaim("lemma:risk-concave#step:eq: concave 2", "int_0^oo sum_i alpha(i) h(1 - F_i(x)) dx = sum_i "
               "alpha(i) int_0^oo h(1 - F_i(x)) dx (Fubini-Tonelli): the weight of arm i", "alpha"),
    # --- Hölder lemmas: 'it can be easily verified that' U_h of a Bernoulli mixture with mean p
    LemmaClaim("lemma:example_utility_Holder#step:eq:lemma_5_def_gd", "Gini: U_h(F) = p_F(1 - p_F)", "p*(1 - p)"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:LALL2_1", "Gini: p_F(1 - p_F) - p_G(1 - p_G) = "
               "(p_F - p_G)(1 - p_F - p_G) <= |p_F - p_G||1 - p_F - p_G|", "(a - b)*(1 - a - b)"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:last_lemma_2", "Gini: U_h(F) - U_h(G) <= |p_F - p_G| = "
               "||F - G||_W (w = ||F - G||_W)", "w"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:Gini_case1", "Gini, case 1 (max p < 0.5 or min p > 0.5, a "
               "solitary arm optimal): U_h(F*) - U_h(G) <= |a_max - p_G|", "1", "max p < 1/2 or min p > 1/2"),
    LemmaClaim("lemma:example_utility_Holder#step:eq:LALL", "Gini, case 2 (some p <= 1/2 <= some p): 'p* = 1/2 is "
               "a viable solution', U_h(F*) = 1/4 and U_h(F*) - U_h(G) = 1/4 - p_G(1 - p_G) = (1/2 - p_G)^2",
               "value=1/4; gap=(1/2 - b)**2", "min p <= 1/2 <= max p"),
    LemmaClaim("lemma:RTD#step:eq:lemma_5_def", "RTD: U_h(F) = sqrt(p_F) - p_F", "sqrt(p) - p"),
    LemmaClaim("lemma:RTD#step:eq:LALL2", "RTD: U_h(F) - U_h(G) = (sqrt(p_F) - sqrt(p_G))(1 - sqrt(p_F) - "
               "sqrt(p_G)) <= |sqrt(p_F) - sqrt(p_G)||1 - sqrt(p_F) - sqrt(p_G)|",
               "(sqrt(a) - sqrt(b))*(1 - sqrt(a) - sqrt(b))"),
    LemmaClaim("lemma:RTD#step:eq:last_lemma_rtd", "RTD: U_h(F) - U_h(G) <= |p_F - p_G|^(1/2) = ||F - G||_W^(1/2)",
               "w**(1/2)"),
    LemmaClaim("lemma:RTD#step:eq:LALL_1", "RTD, case 1 (max p > 0.25 > min p): 'it can be readily verified that "
               "p*_F = 1/4 and U_h(F*) = 1/4', U_h(F*) - U_h(G) = 1/4 - sqrt(p_G) + p_G = (1/2 - sqrt(p_G))^2 <= "
               "|p*_F - p_G|", "value=1/4; gap=(1/2 - sqrt(b))**2", "max p > 1/4 and min p < 1/4"),
    LemmaClaim("lemma:RTD#step:eq:last_lemm_1_2", "RTD, case 1: U_h(F*) - U_h(G) <= |p*_F - p_G| = ||F* - G||_W",
               "w", "max p > 1/4 and min p < 1/4"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:lemma_5_def_mean", "Mean-median: U_h(F) = min{p_F, 1 - p_F}",
               "min(p, 1 - p)"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:lemma_5_p_mean_1_MD", "Mean-median, case 1 (p_F, p_G on the same "
               "side of 1/2): U_h(F) - U_h(G) <= |p_F - p_G|", "1", "p_F, p_G > 1/2 or p_F, p_G < 1/2"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:LALL_mean_MD", "Mean-median, case 1 (max p > 0.5 > min p): 'p* = "
               "1/2 and U_h(p*) = 1/2', U_h(F*) - U_h(G) = 1/2 - min{p_G, 1 - p_G} = |1/2 - p_G|",
               "value=1/2; gap=abs(1/2 - b)", "max p > 1/2 and min p < 1/2"),
    LemmaClaim("lemma:mean_median_Holder#step:eq:last_lemm_1_mean", "Mean-median, case 1: |1/2 - p_G| = "
               "||F - G||_W (as printed; F the mixture p_F of the proof)", "F", "max p > 1/2 and min p < 1/2"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:lemma_5_p_mean_1", "Inter-ES, case 1 (p_F, p_G on the same side of "
               "1/2): U_h(F) - U_h(G) <= 2|p_F - p_G|", "2", "p_F, p_G > 1/2 or p_F, p_G < 1/2"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:lemma_5_p_mean_2", "Inter-ES, case 2 (p_F < 1/2 < p_G): "
               "U_h(F) - U_h(G) = 2(p_F - 1 + p_G) <= 2|p_F - p_G|", "2", "p_F < 1/2 < p_G"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:lemma_5_p_mean_3", "Inter-ES, case 3 (p_G < 1/2 < p_F): "
               "U_h(F) - U_h(G) = 2(1 - p_F - p_G) <= 2|p_F - p_G|", "2", "p_G < 1/2 < p_F"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:LALL_mean", "Inter-ES, case 1 (max p > 0.5 > min p): 'p* = 1/2 and "
               "U_h(p*) = 1', U_h(F*) - U_h(G) = 2(1/2 - min{p_G, 1 - p_G}) = 2|1/2 - p_G|",
               "value=1; gap=2*abs(1/2 - b)", "max p > 1/2 and min p < 1/2"),
    LemmaClaim("lemma:inter_ES_Holder#step:eq:last_lemm_1_ES", "Inter-ES, case 1: 2|1/2 - p_G| = 2||F - G||_W (as "
               "printed; F the mixture p_F of the proof)", "F", "max p > 1/2 and min p < 1/2"),
    LemmaClaim("lemma:Dual_Power#step:eq:lemma_5_def_DP", "Dual power: U_h(F) = 1 - (1 - p_F)^s",
               "1 - (1 - p)**s", "s >= 2"),
    LemmaClaim("lemma:Dual_Power#step:eq:dp_beforelast", "Dual power: (1 - p_G)^s - (1 - p_F)^s = (p_F - p_G) s "
               "(1 - p_M)^(s-1) for some p_M strictly between p_F and p_G (mean-value theorem)",
               "(a - b)*s*(1 - m)**(s - 1)", "s >= 2"),
    LemmaClaim("lemma:Dual_Power#step:eq:dp_final", "Dual power: U_h(F) - U_h(G) <= |p_F - p_G| s = s ||F - G||_W",
               "s*w", "s >= 2"),
    LemmaClaim("lemma:Quadratic#step:eq:lemma_5_def_quadratic", "Quadratic: U_h(F) = (1 + s) p_F - s p_F^2",
               "(1 + s)*p - s*p**2", "s in [0, 1]"),
    LemmaClaim("lemma:Quadratic#step:eq:quadratic_lastline", "Quadratic: U_h(F) - U_h(G) <= (1 + s)|p_F - p_G| = "
               "(1 + s) ||F - G||_W", "(1 + s)*w", "s in [0, 1]"),
    LemmaClaim("lemma:PHT#step:r_equals_q", "'any given Hölder continuity exponent ... is also a mixture Hölder "
               "continuity exponent, that is given q, r = q is always a valid choice for r' (with L_MH = L_H; also "
               "Appendix:Additinal Tables)", "q"),
    # --- lemma:Delta_error
    LemmaClaim("lemma:Delta_error#step:eq:delta_error_43", "Delta(eps) <= U_h(F*) - U_h(sum abar(i) F_i) <= "
               "L ||sum_i (alpha*(i) - abar(i)) F_i||_W^r (assumption:Holder_opt), abar the L1-nearest grid point",
               "L*w**r"),
    LemmaClaim("lemma:Delta_error#step:eq:delta_error_5", "||sum_i (alpha*(i) - abar(i)) F_i||_W <= "
               "||alpha* - abar||_1 W (definition eq:W)", "d*W"),
    LemmaClaim("lemma:Delta_error#step:eq:Delta_error_2", "||alpha* - abar||_1 <= K eps/2", "K*eps/2"),
    LemmaClaim("lemma:Delta_error#step:eq:Delta_error_2.reason", "'abar may lie at most eps/2 away from the "
               "optimal coefficient alpha* along each coordinate'", "eps/2"),
    LemmaClaim("lemma:Delta_error#chain", "Delta(eps) <= L (K W)^r (eps/2)^r: the constant re-derived by "
               "chaining eq:delta_error_43, eq:delta_error_5, eq:Delta_error_2", DELTA_ERROR_BOUND),
    # --- lemma:beta_lemma_monotone (K-arm Bernoulli, h concave and strictly increasing, p(1) < ... < p(K))
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:solitary_best", "for all a in the grid Delta^{K-1}_eps, "
               "h(sum_i a(i) p_i) < h(p_K): the relation", "<"),
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:astar_lemma14", "'It can be readily verified that' the best grid "
               "point is a*(i) = eps/2 (i != K), a*(K) = 1 - (K-1) eps/2",
               "a_other=eps/2; a_Km1=eps/2; a_K=1 - (K - 1)*eps/2"),
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:aprime_lemma14", "the second best grid point is a'(i) = eps/2 "
               "(i < K-1), a'(K-1) = 3 eps/2, a'(K) = 1 - (K+1) eps/2",
               "a_other=eps/2; a_Km1=3*eps/2; a_K=1 - (K + 1)*eps/2"),
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:concavity_h", "h(x*) - h(x') >= h'(x*)(x* - x'), x = "
               "sum_i a(i) p(i) ('follows from concavity of h'): factor", "1"),
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:best_second_deff", "sum_i (a*(i) - a'(i)) p(i) = "
               "eps (p(K) - p(K-1))", "eps*(pK - pKm1)"),
    LemmaClaim("lemma:beta_lemma_monotone#step:eq:delta_min_conc_mon_analysis", "Delta_min(eps) >= h'(p(K)) "
               "(p(K) - p(K-1)) eps (dh = h'(p(K)))", "dh*(pK - pKm1)*eps"),
)


def proof_step_a(ident: str) -> LemmaClaim:
    """The printed step or running-text claim with ledger id ``ident`` (:data:`PROOF_STEPS_A`)."""
    for c in PROOF_STEPS_A:
        if c.id == ident:
            return c
    raise KeyError(ident)


# ---- proof steps from Appendix:RS-ETC-M on ----
#
# The displayed steps of the proofs in ``Appendix:RS-ETC-M`` (``theorem: ETC upper bound``,
# ``theorem:RS-ETC-M``), ``proof:UCB upper bound`` (``theorem:UCB upper bound`` for RS-UCB-M,
# ``lemma:undersampling``, ``lemma:oversampling``, ``corollary:RS-UCB-M``) and ``sec:SE-UCB-M proofs``
# (the same results for CE-UCB-M), transcribed once.  Ledger ids ``RESULT#step:LABEL`` (the label of the
# displayed step; ``step:after:LABEL`` for a sentence of the text after it), ``RESULT#chain...`` for the
# constants re-derived from a proof's own steps.  ``values`` are the printed pieces in the toolkit's
# expression syntax (names: T, K, N, eps, q, r, L, W, B, rho, delta, beta, gamma, kappa, D for Delta_min(eps),
# n = N/K for the samples of one arm, y for a threshold on ||F_n - F||_W, ell for log T, R for the radius
# 16 (sqrt(2 e log T) + 32) of eq:UCB_confidence_sets without 1/sqrt(tau), X for a term repeated verbatim);
# ``formula`` is the printed display reduced to text.


@dataclass(frozen=True)
class ProofStep:
    """One displayed step of a proof (or a sentence justifying one), as printed.

    Attributes
    ----------
    id : str
        Ledger id ``RESULT#step:LABEL``.
    claim : str
        What the step asserts, in words.
    formula : str
        The printed display, LaTeX reduced to text.
    values : tuple of (str, str)
        The printed pieces a check reads (expression syntax), by name.
    """

    id: str
    claim: str
    formula: str
    values: tuple[tuple[str, str], ...] = ()

    def value(self, key: str) -> str:
        """The printed piece ``key``."""
        return dict(self.values)[key]

    def with_value(self, key: str, text: str) -> "ProofStep":
        """A copy with the piece ``key`` replaced (for mutants)."""
        return ProofStep(self.id, self.claim, self.formula,
                         tuple((k, text if k == key else v) for k, v in self.values))

    def shown(self) -> str:
        """The printed display, with altered pieces (if any) named."""
        base = next((s for s in PROOF_STEPS if s.id == self.id), None)
        changed = [f"{k} = {v}" for k, v in self.values if base is not None and dict(base.values).get(k) != v]
        return self.formula + (f" [with {'; '.join(changed)}]" if changed else "")


_ETC = "theorem: ETC upper bound#step:"
_RSE = "theorem:RS-ETC-M#step:"
_UCB = "theorem:UCB upper bound#step:"
_COR = "corollary:RS-UCB-M#step:"

#: The exponent of the concentration bound of eq:meta_concentration at n samples and threshold y, as used in the
#: steps eq:E1C .. eq:E3C (``X`` of those steps).
ETC_EXPONENT = "exp(-n/(256*e)*(y - 512/sqrt(n))**2)"

PROOF_STEPS: tuple[ProofStep, ...] = (
    # -- Appendix:RS-ETC-M, theorem: ETC upper bound -------------------------------------------------
    ProofStep(_ETC + "eq: Regret_DISCRET_ETC", "The discrete regret of RS-ETC-M is A_1(T) + A_2(T) + A_3(T), and "
              "'it can be readily verified that A_1(T) = 0'",
              "R_bar^E(T) = A_1(T) + A_2(T) + A_3(T); A_1(T) = 0",
              (("terms", "A_1 + A_2 + A_3"), ("A_1", "0"))),
    ProofStep(_ETC + "eq: A2first", "'Owing to the fact that the DR is bounded above by B': "
              "A_2(T) <= B P(a_N not in OPT_eps)", "A_2(T) <= B * P(a^E_N not in OPT_eps)",
              (("factor", "B"),)),
    ProofStep(_ETC + "eq:ETC_A21", "P(a_N not in OPT) <= P(V(a*) >= V(a_N) + Delta_min) = P(. | E(Delta_min/2)) "
              "P(E(Delta_min/2)) + P(. | not E) P(not E) (Delta_min of eq:discrete_gap; total probability)",
              "P(a_N notin OPT) <= P(U(a*) >= U(a_N) + Delta_min) = [eq:ETC_A21] + [eq:ETC_A22]",
              (("margin", "D"),)),
    ProofStep(_ETC + "eq:ETC_A22", "The second term (eq:ETC_A22) is at most P(not E_N(Delta_min/2)) <= "
              "P(not E_1) + P(not E_2)", "P(. | not E) P(not E) <= P(not E) <= P(not E_1) + P(not E_2)",
              (("union", "E1 + E2"),)),
    ProofStep(_ETC + "eq:ETC_1", "On E_N(Delta_min/2) (events with '<='), U(a*) >= U(a_N) + Delta_min implies "
              "U_hat(a*) + Delta_min/2 >= U_hat(a_N) + Delta_min/2 ('holds due to the conditioning')",
              "P(U(a*) >= U(a_N) + D | E(D/2)) <= P(U_hat(a*) + D/2 >= U_hat(a_N) + D/2 | E(D/2))",
              (("half", "1/2"),)),
    ProofStep(_ETC + "eq:ETC_2", "The first term eq:ETC_A21 is 0 'since a_N is in OPT_hat' (E_N(x) defined "
              "with |.| <= x)", "P(U_hat(a*) + D/2 >= U_hat(a_N) + D/2 | E(D/2)) = 0",
              (("value", "0"), ("E_relation", "<="))),
    ProofStep(_ETC + "eq:alpha_to_1", "P(not E_1) <= sum_i P(||F_i,N - F_i||_W > (Delta_min/(2 K L))^(1/q)) "
              "(eq:Holder, a union bound over arms, a*(i)^q <= 1)",
              "P(not E_1,N(D/2)) <= sum_i P(||F_i,N - F_i||_W > (D/(2 K L))^(1/q))",
              (("threshold", "(D/(2*K*L))**(1/q)"),)),
    ProofStep(_ETC + "eq:E1C", "P(not E_1) <= 2K exp(-(N/K)/(256 e) ((Delta_min/(2 K L a*(i)^q))^(1/q) - "
              "512/sqrt(N/K))^2) (eq:meta_concentration with tau_N(i) = N/K samples)",
              "P(not E_1) <= 2K exp(-(N/K)/(256e) ((D/(2KL a*(i)^q))^(1/q) - 512/sqrt(N/K))^2)",
              (("bound", "2*K*" + ETC_EXPONENT), ("y", "(D/(2*K*L*a**q))**(1/q)"))),
    ProofStep(_ETC + "eq:E3C", "P(not E_1) + P(not E_2) <= 2K X + (1/eps)^(K-1) 2K X = 2K X ((1/eps)^(K-1) + 1), "
              "X the exponential of eq:E1C", "2K X + (1/eps)^(K-1) 2K X = 2K X ((1/eps)^(K-1) + 1)",
              (("lhs", "2*K*X + (1/eps)**(K - 1)*2*K*X"), ("rhs", "2*K*X*((1/eps)**(K - 1) + 1)"))),
    ProofStep(_ETC + "eq:number of samples", "With N(eps) of eq:number of samples, 'leveraging eq:E3C, it can "
              "be readily verified that' P(not E_1) + P(not E_2) <= delta",
              "N(eps) = 256 K e (2KL/D)^(2/q) [32/sqrt(e) + log^(1/2)(2 K delta (eps^-(K-1) + 1))]^2 gives "
              "2K X ((1/eps)^(K-1) + 1) <= delta",
              (("N", "256*K*e*(2*K*L/D)**(2/q)*(32/sqrt(e) + sqrt(log(2*K*delta*(eps**(1 - K) + 1))))**2"),
               ("bound", "delta"))),
    ProofStep(_ETC + "eq: ETC A2T final", "A_2(T) <= B delta (eq: A2first with P(a_N not in OPT) <= delta)",
              "A_2(T) <= B * delta", (("bound", "B*delta"),)),
    ProofStep(_ETC + "eq:lemma_8_2", "A_3(T) <= L E[||a_N - tau_T/T||_1^q W^q] (eq:Holder, eq:W) <= L K W^q "
              "E[max_i |a_N(i) - tau_T(i)/T|^q]",
              "U(a_N) - U(tau/T) <= L (W ||a_N - tau/T||_1)^q <= L K W^q max_i |a_N(i) - tau(i)/T|^q",
              (("first", "L*(W*x1)**q"), ("second", "L*K*W**q*xm**q"))),
    ProofStep(_ETC + "eq: ETC commit 3", "For i not in S' (a(i) >= N/(KT)), i != K: |tau_T(i)/T - a(i)| = "
              "a(i) - tau_T(i)/T = a(i) - floor(T a(i))/T < 1/T",
              "|tau(i)/T - a(i)| = a(i) - floor(T a(i))/T < 1/T", (("bound", "1/T"), ("sign", "a - tau/T"))),
    ProofStep(_ETC + "eq: ETC commit 1", "For arm K not in S': |tau_T(K)/T - a(K)| = a(K) - 1 - (1/T)(N/K |S'| + "
              "sum_{i not in S', i != K} floor(T a(i))) (arms in S' keep their N/K exploration pulls)",
              "|tau(K)/T - a(K)| = a(K) - 1 - (N/K |S'| + sum floor(T a(i)))/T",
              (("rhs", "aK - 1 - (N/K*S + F)/T"),)),
    ProofStep(_ETC + "eq: ETC commit 2", "For arm K not in S': |tau_T(K)/T - a(K)| <= sum_{i in S'} N/(KT) + "
              "N |S'|/(KT) (= 2 N |S'|/(KT))", "|tau(K)/T - a(K)| <= sum_{S'} N/(KT) + N|S'|/(KT)",
              (("bound", "2*N*S/(K*T)"),)),
    ProofStep(_ETC + "eq: ETC commit 4", "For arm K not in S': |tau_T(K)/T - a(K)| <= 2 N |S'|/(KT) <= 2N/T",
              "|tau(K)/T - a(K)| <= 2N(eps)|S'|/(KT) <= 2N(eps)/T", (("middle", "2*N*S/(K*T)"), ("bound", "2*N/T"))),
    ProofStep(_ETC + "eq: ETC A3T final", "A_3(T) <= L K W^q (2 N(eps)/T)^q (eq:lemma_8_2 with eq: ETC commit 6)",
              "A_3(T) <= L K W^q (2N(eps)/T)^q", (("bound", "L*K*W**q*(2*N/T)**q"),)),
    ProofStep(_ETC + "eq:UP_ETC_eqn1", "R_bar^E(T) <= B/T^2 + L K (3 W N/T)^q <= (L K + W^-q)(3 W N/T)^q, 'from "
              "the fact that B/T^2 is upper bounded by (N(eps)/T)^q' (delta = 1/T^2)",
              "A_1 + A_2 + A_3 <= B/T^2 + L K (3W N/T)^q <= (L K + W^-q) (3W N/T)^q",
              (("middle", "B/T**2 + L*K*(3*W*N/T)**q"), ("final", "(L*K + W**(-q))*(3*W*N/T)**q"),
               ("fact", "(N/T)**q"))),
    ProofStep(_ETC + "eq:disc_up_ETC", "R^E(T) = Delta(eps) + R_bar^E(T) <= Delta(eps) + (L K + W^-q)(2 N(eps)/T)^q",
              "R^E(T) <= Delta(eps) + (L K + W^-q) (2N(eps)/T)^q", (("discrete", "(L*K + W**(-q))*(2*N/T)**q"),)),
    ProofStep(_ETC + "eq:ETC_M_eps", "(L K + W^-q)(2N/T)^q = (L K + W^-q)(3 W M(eps) log T/T)^q with "
              "M(eps) = N(eps)/log T", "(LK + W^-q)(2N/T)^q = (LK + W^-q)(3 W M(eps) log T / T)^q",
              (("lhs", "(L*K + W**(-q))*(2*N/T)**q"), ("rhs", "(L*K + W**(-q))*(3*W*M*ell/T)**q"))),
    # -- theorem:RS-ETC-M ------------------------------------------------------------------------------
    ProofStep(_RSE + "eq:Discrete_order", "At eps = (K^(2+2/q) T^-gamma log T)^(q/(2 beta)) and "
              "Delta_min = Omega(eps^beta): R_bar^E(T) = O(K T^((gamma - 1) q)) (from eq:ETC_M_eps)",
              "R_bar^E(T) = O(K T^((gamma-1) q))", (("rate", "K*T**((gamma - 1)*q)"),)),
    ProofStep(_RSE + "eq:delta_order", "Delta(eps) = O(K^(r + r(q+1)/beta) T^(-r q gamma/(2 beta)) "
              "(log T)^(r q/(2 beta))) (lemma:Delta_error at the same eps)",
              "Delta(eps) = O(K^(r + r(q+1)/beta) T^(-rq gamma/(2beta)) (log T)^(rq/(2beta)))",
              (("rate", "K**(r + r*(q + 1)/beta)*T**(-r*q*gamma/(2*beta))*ell**(r*q/(2*beta))"),)),
    ProofStep(_RSE + "eq:ETC upper bound gamma appendix", "R^E(T) = O(max{K^(r + r(q+1)/beta) T^(-r q gamma/(2 "
              "beta)) (log T)^(r q/(2 beta)), K^q T^((gamma-1) q)}) (from eq:disc_up_ETC, eq:Discrete_order, "
              "eq:delta_order)", "R^E(T) = O(max{K^(r + r(q+1)/beta) T^(-rq gamma/(2beta)) (log T)^(rq/(2beta)), "
              "K^q T^((gamma-1) q)})",
              (("delta", "K**(r + r*(q + 1)/beta)*T**(-r*q*gamma/(2*beta))*ell**(r*q/(2*beta))"),
               ("discrete", "K**q*T**((gamma - 1)*q)"))),
    # -- proof:UCB upper bound, theorem:UCB upper bound for RS-UCB-M ----------------------------------------
    ProofStep(_UCB + "eq:probi", "sum over non-empty S of P(F_i not in C_T(i) for i in S) = (2/T^2 + 1)^K - 1 "
              "(sum_i C(K, i) x^i = (x + 1)^K - 1 and P(F_i not in C_T(i)) <= 1/T^2 per arm)",
              "sum_{S != {}} P(F_i notin C_T(i): i in S) = (2/T^2 + 1)^K - 1",
              (("value", "(2/T**2 + 1)**K - 1"), ("relation", "="), ("identity", "(x + 1)**K - 1"))),
    ProofStep(_UCB + "eq:A_1 bound refer", "B_1(T) <= B ((2/T^2 + 1)^K - 1) ('U_h <= B for any mixture')",
              "B_1(T) <= B ((2/T^2 + 1)^K - 1)", (("bound", "B*((2/T**2 + 1)**K - 1)"),)),
    ProofStep(_UCB + "eq:UUB_1", "sum_i a(i)^q tau(i)^(-q/2) <= sum_i tau(i)^(-q/2) ('a_T(i) <= 1'), after "
              "||F~_i - F_i||_W <= 2 x radius = 32 (sqrt(2 e log T) + 32)/sqrt(tau(i)) (eq:UCB_confidence_sets)",
              "L (32 S)^q sum_i a(i)^q tau(i)^(-q/2) <= L (32 S)^q sum_i tau(i)^(-q/2)",
              (("factor", "32"), ("rhs", "Sum"))),
    ProofStep(_UCB + "eq:UUB_2", "tau_T(i) >= rho T eps/4 for every arm ('the explicit exploration')",
              "sum_i tau_T(i)^(-q/2) <= sum_i (rho T eps/4)^(-q/2)", (("least", "rho*T*eps/4"),)),
    ProofStep(_UCB + "eq:A21", "L (32 S)^q K (rho T eps/4)^(-q/2) = (L K/T) (32/sqrt(rho/4))^q T^(1-q/2) "
              "(S/sqrt(eps))^q, S = sqrt(2 e log T) + 32",
              "L (32 S)^q sum_i (rho T eps/4)^(-q/2) = (L K/T)(32/sqrt(rho/4))^q T^(1-q/2) (S/sqrt(eps))^q",
              (("lhs", "L*(32*S)**q*K*(rho*T*eps/4)**(-q/2)"),
               ("rhs", "L*K/T*(32/sqrt(rho/4))**q*T**(1 - q/2)*(S/sqrt(eps))**q"))),
    ProofStep(_UCB + "eq:UCB_UB2", "B_22(T) <= L E[W^q ||a_T - tau_T/T||_1^q | E_0] (eq:Holder, eq:W)",
              "U(a) - U(b) <= L ||sum_i (a(i) - b(i)) F_i||_W^q <= L W^q ||a - b||_1^q",
              (("bound", "L*(W*x1)**q"),)),
    ProofStep(_UCB + "eq:UCB_UBh1", "P(a_t not in OPT) <= ((2/T^2 + 1)^K - 1) + P(a_t not in OPT | E_0,t) "
              "(total probability and eq:probi)", "P(a_t notin OPT) <= ((2/T^2+1)^K - 1) + P(a_t notin OPT | E_0,t)",
              (("first", "(2/T**2 + 1)**K - 1"), ("factor", "1"))),
    ProofStep(_UCB + "eq:UCB_UB3", "On E_0 and E_t(Delta_min/2) (strict '<'), U(a*) > U(a_t) + Delta_min implies "
              "U(a*, F~_t) > U(a_t, F~_t) (printed conditioning on the complement of E_t, a typo)",
              "P(U(a*) > U(a_t) + D | E_0, E_t(D/2)) <= P(U(a*, F~) > U(a_t, F~) | E_0, E_t(D/2))",
              (("half", "1/2"),)),
    ProofStep(_UCB + "eq:UCB_UB4", "The event U(a*, F~_t) > U(a_t, F~_t) has probability 0 (a_t maximises the "
              "optimistic value)", "P(U(a*, F~) > U(a_t, F~) | ...) = 0", (("relation", ">"),)),
    ProofStep(_UCB + "eq:UCB_UB5", "P(not E_t | E_0) <= P(not E_1,t | E_0) + P(not E_2,t | E_0) (union bound)",
              "P(not E_t | E_0) <= P(not E_1,t | E_0) + P(not E_2,t | E_0)", (("union", "E1 + E2"),)),
    ProofStep(_UCB + "eq:E3_1", "For t >= T_0: P(not E_1,t | E_0) <= sum_i P(((sqrt(2e log T) + 32)/sqrt(tau(i)))^q "
              "> Delta_min/(2 K L 16^q) | E_0) (eq:Holder, the radius, union over arms, a*(i)^q <= 1)",
              "P(not E_1 | E_0) <= sum_i P((S/sqrt(tau(i)))^q > D/(2 K L 16^q) | E_0)", (("constant", "16"),)),
    ProofStep(_UCB + "eq:E3_2", "tau(i) >= rho T eps/4 in eq:E3_1 ('the explicit exploration phase')",
              "... <= sum_i P((S/sqrt(rho T eps/4))^q > D/(2 K L 16^q) | E_0)", (("least", "rho*T*eps/4"),)),
    ProofStep(_UCB + "eq:UCB_UB8", "For all t >= T_0(eps): P(not E_1,t(Delta_min/2) | E_0,t) = 0 (eq:T_epsilon with "
              "1/16)", "P(not E_1,t(D/2) | E_0,t) = 0 for t >= T_0(eps)", (("constant", "16"),)),
    ProofStep(_UCB + "eq:UCB_UB9", "For all t >= T_0(eps): P(not E_2,t(Delta_min/2) | E_0,t) = 0 ('a similar line of "
              "arguments')", "P(not E_2,t(D/2) | E_0,t) = 0 for t >= T_0(eps)", (("constant", "16"),)),
    ProofStep(_UCB + "eq:UCB_UB10", "For all t >= T_0(eps): P(a_t not in OPT | E_0,t) = 0",
              "P(a_t notin OPT | E_0,t) = 0 for t >= T_0(eps)", (("constant", "16"),)),
    ProofStep(_UCB + "eq:UCB_UB10-1", "For all t >= T_0(eps): P(OPT~_t != OPT | E_0,t) = 0 ('which implies' from "
              "eq:UCB_UB10)", "P(OPT~_t != OPT | E_0,t) = 0 for t >= T_0(eps)", (("value", "0"),)),
    ProofStep(_UCB + "eq:samlingequiv", "An arm not pulled after the forced exploration has tau_t(i) = rho T eps/4",
              "tau_t(i) = rho T eps/4", (("count", "rho*T*eps/4"),)),
    ProofStep(_UCB + "eq:replace", "An arm that is not under-sampled (tau_t(i) >= t a_t(i), eq:oversampledproof) has "
              "rho T eps t^-1/4 >= a_t(i) (from eq:samlingequiv)", "rho T eps/(4 t) >= a_t(i)",
              (("count", "rho*T*eps/4"),)),
    ProofStep(_UCB + "eq:midpointsmatter", "a_t(i) >= eps/2 for every arm ('the definition of discretization', the "
              "mid-point grid)", "a_t(i) >= eps/2", (("least", "eps/2"),)),
    ProofStep(_UCB + "eq:UCB_f1", "E[A | B] = (E[A] - E[A | not B] P(not B))/P(B) <= E[A]/P(B) (A = sum_i "
              "|a_T(i) - tau_T(i)/T|^q >= 0)", "E[A | B] <= E[A]/P(B)", (("A_sign", "nonnegative"),)),
    ProofStep(_UCB + "eq:UCB_f2", "1/P(F_i in C_T(i) for all i) <= 1/(2 - (1/T^2 + 1)^K) (from eq:probi)",
              "1/P(E_0,T) <= 1/(2 - (1/T^2 + 1)^K)", (("bound", "1/(2 - (1/T**2 + 1)**K)"),)),
    ProofStep(_UCB + "after:eq:UCB_f2", "'For all T >= 3 and K >= 2, it can be readily verified that 2 - (2/T^2 + 1)^K "
              "> 1/2'", "2 - (2/T^2 + 1)^K > 1/2 for all T >= 3, K >= 2",
              (("lhs", "2 - (2/T**2 + 1)**K"), ("rhs", "1/2"), ("T_from", "3"))),
    ProofStep(_UCB + "eq:UCB_UB11", "B_22(T) <= 2 L K W^q (P(E_3,T) + K (K/T)^q) (lemma:oversampling: on the "
              "complement of E_3, |a_T(i) - tau_T(i)/T| < K/T)", "B_22(T) <= 2 L K W^q (P(E_3,T) + K (K/T)^q)",
              (("bound", "2*L*K*W**q*(P + K*(K/T)**q)"),)),
    ProofStep(_UCB + "eq:UCB_UB12", "B_22(T) <= 2 L K W^q (T((2/T^2 + 1)^K - 1) + (K/T)^q) (lemma:probability of E3)",
              "B_22(T) <= 2 L K W^q (T((2/T^2+1)^K - 1) + (K/T)^q)",
              (("bound", "2*L*K*W**q*(T*((2/T**2 + 1)**K - 1) + (K/T)**q)"),)),
    ProofStep(_UCB + "eq:Discretized_regret", "R_bar^U(T) = B_1 + B_21 + B_22 <= (1/T)[B T((2/T^2+1)^K - 1) + L K "
              "(32/sqrt(rho))^q T^(1-q/2) S^q + 2 L W^q (K T^2((2/T^2+1)^K - 1) + K^(1+q) T^(1-q))]",
              "R_bar^U(T) <= (1/T)[B T((2/T^2+1)^K-1) + L K (32/sqrt(rho))^q T^(1-q/2) S^q + 2 L W^q (K T^2 ((2/T^2+1)^K"
              "-1) + K^(1+q) T^(1-q))]",
              (("B1", "B*((2/T**2 + 1)**K - 1)"), ("B21", "L*K*(32/sqrt(rho))**q*T**(1 - q/2)*S**q/T"),
               ("B22", "2*L*W**q*(K*T**2*((2/T**2 + 1)**K - 1) + K**(1 + q)*T**(1 - q))/T"))),
    ProofStep(_UCB + "after:eq:Discretized_regret", "'B_3(T) is the dominating term for any T > e^K' (B_3 = L K "
              "(64/sqrt(rho eps))^q T^(1-q/2) S^q against the other two terms of the bracket)",
              "B_3(T) >= the other terms of the bracket for T > e^K", (("ratio", "1"), ("T_from", "exp(K)"))),
    ProofStep(_UCB + "eq:theorem_lastline", "R^U(T) <= Delta(eps) + (B + L (W^q + 1)) (64 eps^(-1/2) rho^(-1/2) "
              "T^(-1/2) S)^q from the display before (B_3 dominating)",
              "R^U(T) <= Delta(eps) + (B + L(W^q + 1)) (64 eps^-1/2 rho^-1/2 T^-1/2 S)^q",
              (("coefficient", "B + L*(W**q + 1)"), ("base", "64"))),
    # -- sec:SE-UCB-M proofs, theorem:UCB upper bound for CE-UCB-M -------------------------------------------------
    ProofStep(_UCB + "eq:CEUCB1", "On E_0: U(a*, F) <= U(a*, F_hat_T) + L sum_i a*(i)^q (16 S/sqrt(tau(i)))^q "
              "(eq:Holder and F_i in C_T(i))", "U(a*) <= U_hat(a*) + L sum_i a*(i)^q (16 S/sqrt(tau(i)))^q",
              (("bonus", "L*Sum"),)),
    ProofStep(_UCB + "eq:CEUCB2", "UCB_T(a*) <= UCB_T(a^C_T) (eq:UCB_alpha2: a^C_T maximises the CE index)",
              "U_hat(a*) + bonus(a*) <= U_hat(a_C) + bonus(a_C)", (("right", "index"),)),
    ProofStep(_UCB + "eq:CEUCB3", "L sum_i a_C(i)^q (16 S/sqrt(tau(i)))^q <= L K (32 S/sqrt(rho T eps))^q ('the "
              "explicit exploration phase')", "L sum_i a(i)^q (16 S/sqrt(tau(i)))^q <= L K (32 S/sqrt(rho T eps))^q",
              (("bound", "L*K*(32*S/sqrt(rho*T*eps))**q"),)),
    ProofStep(_UCB + "eq:discrete_error_CE", "R^C(T) <= Delta(eps) + (1/T)[C_5 + 2 L K W^q (T^2((1/T^2+1)^K - 1) + "
              "K^q T^(1-q)) + B T((1/T^2+1)^K - 1)], C_5 = 2 T^(1-q/2) L K (32 S/sqrt(rho eps))^q (aggregating "
              "C_1..C_4 for T > T(eps))", "R^C(T) <= Delta + (1/T)[C_5 + 2LKW^q(T^2((1/T^2+1)^K-1) + K^q T^(1-q)) + "
              "B T((1/T^2+1)^K-1)]",
              (("miss", "1/T**2"), ("C5", "2*T**(1 - q/2)*L*K*(32*S/sqrt(rho*eps))**q"))),
    ProofStep(_UCB + "after:eq:discrete_error_CE", "'C_5(T) is the dominating term for any T > e^K'",
              "C_5(T) >= the other terms of the bracket for T > e^K", (("ratio", "1"), ("T_from", "exp(K)"))),
    ProofStep(_UCB + "eq:theorem_lastline_CE", "R^C(T) <= Delta(eps) + 5 L K W (32 eps^(-1/2) rho^(-1/2) T^(-1/2) "
              "S)^q, 'from W > 1 for sub-Gaussian distributions' and q in (0, 1]",
              "R^C(T) <= Delta(eps) + 5 L K W (32 eps^-1/2 rho^-1/2 T^-1/2 S)^q; W > 1",
              (("coefficient", "5*L*K*W"), ("W_from", "1"))),
    # -- lemma:undersampling and lemma:oversampling ------------------------------------------------------------
    ProofStep("lemma:undersampling#step:eq:UK_oneside", "tau_t(i)/t - a*(i) <= 1/t for t >= T(eps) "
              "(lemma:oversampling), 'which also implies' tau_t(i)/t - a*(i) < K/t",
              "tau_t(i)/t - a*(i) <= 1/t  =>  tau_t(i)/t - a*(i) < K/t", (("from", "1"), ("bound", "K"))),
    ProofStep("lemma:oversampling#step:eq:oversampling1", "Case (a), tau_t(j)/t <= a*(j): tau_(t+1)(j)/(t+1) <= "
              "(tau_t(j) + 1)/(t+1) <= a*(j) t/(t+1) + 1/(t+1)", "tau_(t+1)(j)/(t+1) <= a*(j) t/(t+1) + 1/(t+1)",
              (("bound", "(a*t + 1)/(t + 1)"),)),
    ProofStep("lemma:oversampling#step:eq:UK_1", "a*(j) t/(t+1) + 1/(t+1) <= a*(j) + 1/(t+1)",
              "a t/(t+1) + 1/(t+1) <= a + 1/(t+1)", (("lhs", "a*t/(t + 1) + 1/(t + 1)"), ("rhs", "a + 1/(t + 1)"))),
    ProofStep("lemma:oversampling#step:eq:oversampling2", "Case (b), a*(j) <= tau_t(j)/t <= a*(j) + 1/t: arm j 'is "
              "not sampled ... since it is not the most under-sampled arm', so tau_(t+1)(j)/(t+1) = tau_t(j)/(t+1) <= "
              "(a*(j) + 1/t) t/(t+1)", "tau_(t+1)(j)/(t+1) = tau_t(j)/(t+1) <= (a*(j) + 1/t) t/(t+1)",
              (("case_low", "a"), ("bound", "(a + 1/t)*t/(t + 1)"))),
    ProofStep("lemma:oversampling#step:eq:UK_2", "(a*(j) + 1/t) t/(t+1) <= a*(j) + 1/(t+1); with eq:UK_1: 'none of "
              "the arms which are not already contained in O_t ever enters this set'",
              "tau_(t+1)(j)/(t+1) <= a*(j) + 1/(t+1): j not in O_(t+1)", (("threshold", "1"),)),
    ProofStep("lemma:oversampling#step:eq:oversampling3", "'Let m be such that' tau_(T_0 + m)(i)/(T_0 + m) <= a*(i) "
              "+ 1/(T_0 + m), 'which implies that the arm i has left the set O' (O_t = {i: tau_t(i)/t > a*(i) + 1/t}): "
              "for an arm i of O_(T_0), such an m exists and arm i is then out of O",
              "tau_(T_0 + m)(i)/(T_0 + m) <= a*(i) + 1/(T_0 + m)  =>  i not in O_(T_0 + m)", (("threshold", "1"),)),
    ProofStep("lemma:oversampling#step:eq:m_finite", "An arm of O_t is never sampled while it is over-sampled, so "
              "eq:oversampling3 reads tau_(T_0)(i)/(T_0 + m) <= a*(i) + 1/(T_0 + m)",
              "tau_(T_0 + m)(i) = tau_(T_0)(i) while i is in O", (("threshold", "1"),)),
    ProofStep("lemma:oversampling#step:eq:m", "With tau_(T_0)(i) <= T_0 and a*(i) >= eps/2, m = (2/eps - 1) T_0 - "
              "2/eps satisfies eq:m_finite", "m = (2/eps - 1) T_0(eps) - 2/eps", (("m", OVERSAMPLING_M),)),
    # -- theorem:RS-ETC-M and corollary:RS-UCB-M: rates (eps-independent) -----------------------------------------
    ProofStep(_COR + "eq:T_epsilon_actual", "'It can be readily verified that this choice of eps [Theta((K^(2/q) log "
              "T/T)^kappa))] satisfies the condition in eq:T_epsilon_actual' (T > T(eps))",
              "eps = Theta((K^(2/q) log T/T)^kappa) gives T > T(eps)", (("theta", "1"),)),
    ProofStep(_COR + "eq:Discrete_order_UCB_RS", "R_bar^U(T) = O((K^(2/q) log T/T)^((1-kappa) q/2)) (from "
              "eq:Discretized_regret at the corollary's eps)", "R_bar^U(T) = O((K^(2/q) log T/T)^((1-kappa) q/2))",
              (("rate", "(K**(2/q)*ell/T)**((1 - kappa)*q/2)"),)),
    ProofStep(_COR + "eq:delta_order_UCB_RS", "Delta(eps) = O(K^(r(1 + 2 kappa/q)) (log T/T)^(r kappa))",
              "Delta(eps) = O(K^(r(1 + 2kappa/q)) (log T/T)^(r kappa))",
              (("rate", "K**(r*(1 + 2*kappa/q))*(ell/T)**(r*kappa)"),)),
    ProofStep(_COR + "eq:UCB upper bound appendix", "R^U(T) = O(max{K^(r(1+2kappa/q)), K^(1-kappa)} max{(log T/T)^(r "
              "kappa), (log T/T)^((1-kappa) q/2)}), and 'when r <= beta + q/2' O(max{K^(r(1+2kappa/q)), "
              "K^(1-kappa)} (log T/T)^(r kappa))", "R^U(T) = O(max{K^(r(1+2kappa/q)), K^(1-kappa)} (log T/T)^(r kappa)) "
              "when r <= beta + q/2", (("condition", "beta + q/2"),)),
    ProofStep(_COR + "eq:T_epsilon", "CE-UCB-M: 'it can be readily verified that this choice of eps satisfies the "
              "condition in eq:T_epsilon'", "eps = Theta((K^(2/q) log T/T)^kappa) gives T >= T_0(eps)",
              (("theta", "1"),)),
    ProofStep(_COR + "eq:Discrete_order_CE", "R_bar^C(T) = O((K^(2/q) log T/T)^((1-kappa) q/2)) (from "
              "eq:discrete_error_CE)", "R_bar^C(T) = O((K^(2/q) log T/T)^((1-kappa) q/2))",
              (("rate", "(K**(2/q)*ell/T)**((1 - kappa)*q/2)"),)),
    ProofStep(_COR + "eq:delta_order_ce", "CE-UCB-M: Delta(eps) = O(K^(r(1 + 2 kappa/q)) (log T/T)^(r kappa))",
              "Delta(eps) = O(K^(r(1 + 2kappa/q)) (log T/T)^(r kappa))",
              (("rate", "K**(r*(1 + 2*kappa/q))*(ell/T)**(r*kappa)"),)),
    ProofStep(_COR + "eq:UCB upper bound appendix CE", "CE-UCB-M: the same maximum and, when r <= beta + q/2, "
              "O(max{K^(r(1+2kappa/q)), K^(1-kappa)} (log T/T)^(r kappa))", "R^C(T) = O(max{...} (log T/T)^(r kappa)) "
              "when r <= beta + q/2", (("condition", "beta + q/2"),)),
    # -- the theorems' statements, for the constants chained through their proofs ---------------------------------
    ProofStep("theorem: ETC upper bound#chain", "The constant of theorem: ETC upper bound, (L K + W^-q)(3 W M(eps) "
              "log T/T)^q + Delta(eps) for T > N(eps), against the bounds of its proof's steps",
              "R^E(T) <= (L K + W^-q)(3 W M(eps) log T/T)^q + Delta(eps)",
              (("bound", "(L*K + W**(-q))*(3*W*N/T)**q"),)),
    ProofStep("theorem:RS-ETC-M#chain", "theorem:RS-ETC-M: R^E(T) <= O([K^c_E log T/T^gamma]^(q r/(2 beta))), "
              "c_E = 2(1 + (beta + 1)/q), gamma = 2 beta/(2 beta + r), against eq:ETC upper bound gamma appendix "
              "at that gamma", "R^E(T) = O([K^(2(1 + (beta+1)/q)) log T / T^gamma]^(qr/(2beta)))",
              (("K_exponent", "2*(1 + (beta + 1)/q)*q*r/(2*beta)"),
               ("rate", "(K**(2*(1 + (beta + 1)/q))*ell/T**gamma)**(q*r/(2*beta))"))),
    ProofStep("theorem:UCB upper bound#chain.rs-ucb-m", "The constant of theorem:UCB upper bound (eq:UCB regret) for "
              "RS-UCB-M, [B + L(W^q + 1)] [64/sqrt(eps rho T) (sqrt(2 e log T) + 32)]^q + Delta(eps), against B_1 + "
              "B_21 + B_22 of its proof", "R^U(T) <= [B + L(W^q+1)][64/sqrt(eps rho T) (sqrt(2e log T) + 32)]^q + Delta",
              (("coefficient", "B + L*(W**q + 1)"), ("base", "64"))),
    ProofStep("theorem:UCB upper bound#chain.ce-ucb-m", "The constant of theorem:UCB upper bound (eq:UCB regret) for "
              "CE-UCB-M against C_1 + C_2 of its proof (eq:discrete_error_CE)",
              "R^C(T) <= [B + L(W^q+1)][64/sqrt(eps rho T) (sqrt(2e log T) + 32)]^q + Delta",
              (("coefficient", "B + L*(W**q + 1)"), ("base", "64"))),
    ProofStep("corollary:RS-UCB-M#chain", "corollary:RS-UCB-M: R^pi(T) <= O(K^c_U (log T/T)^(r kappa)), c_U = max{r(1 + "
              "2 kappa/q), 1 - kappa}, when r <= beta + q/2, against the two terms of its proof",
              "R^pi(T) <= O(K^c_U [log T/T]^(r kappa)), c_U = max{r(1+2kappa/q), 1-kappa}",
              (("K_exponent", "Max(r*(1 + 2*kappa/q), 1 - kappa)"), ("T_exponent", "r*kappa"))),
)


def proof_step(ident: str) -> ProofStep:
    """The printed step with ledger id ``ident``."""
    for s in PROOF_STEPS:
        if s.id == ident:
            return s
    raise KeyError(ident)


#: The eps-independent results' hypothesis on beta as printed ("when beta exists", beta = lim_{eps -> 0}
#: log Delta_min(eps)/log eps, section Section:RS_ETC_M "Choosing eps"), and the assumption their proofs make
#: ("Assuming Delta_min(eps) = Omega(eps^beta)", Appendix:RS-ETC-M and the proof of corollary:RS-UCB-M).
BETA_HYPOTHESIS = "beta = lim_{eps -> 0} log Delta_min(eps)/log eps exists"
BETA_PROOF_ASSUMPTION = "Delta_min(eps) = Omega(eps^beta)"
#: Where the paper applies them: the experiments' instance (sec: experiments, Gini on Bern(0.4), Bern(0.9)), each
#: on its algorithm's grid (the etc grid for RS-ETC-M, the mid-point grid for RS-UCB-M and CE-UCB-M).
BETA_USES = {"theorem:RS-ETC-M": "etc", "corollary:RS-UCB-M": "ucb"}

