"""The paper's dependency graph, label to label: what each proof step, rule and table cell uses, and (from the
results' records, :mod:`proofs_checks.results`) what each result uses.

This is data, transcribed once by reading the paper (nothing reads it at run or test time), in the
style of :mod:`proofs_checks.paper_labels`:

* :data:`USES` maps a label of the paper to the labels it uses, each an :class:`Use` with a short
  reason where the edge is not evident from a ``\\stackrel{\\eqref{...}}`` or a "follows from
  Lemma ..." of the paper, and for a used result the part of it that is used (``Use.part``; None: its
  whole statement).  A lemma or theorem uses the displays its proof ends with (its steps in turn use
  theirs) and the results, definitions and rules its proof cites: these edges are its record's
  ``uses`` (:data:`proofs_checks.results.RECORDS`), not typed here; a display of a proof uses
  the earlier displays, lemmas and definitions it follows from; an algorithm's rule uses the
  definitions it is built from.  A proof's display that another result borrows (``eq:probi`` in
  ``lemma:probability of E3``) is used directly, label to label.
* :data:`CELL_USES` maps a cell of the tables — ``(table, row, column)``, the rows and columns of the
  ledger's ids (``table:table_regrets#gini.ucb``) — to what the cell is derived from: the rate columns
  from ``corollary:RS-UCB-M`` / ``theorem:RS-ETC-M`` (or, where the optimum is a solitary arm,
  the discrete regret of ``theorem: ETC upper bound``) and the row's Hölder lemma (q, r, L) and
  ``lemma:beta_lemma_monotone`` (beta); the Hölder columns from the row's lemma.  A table's own
  entry in :data:`USES` is *derived*: the union of its cells' uses.
* the lemma of each row of the tables is :data:`proofs_checks.results.HOLDER_LEMMA` (the one copy);
  :data:`MONOTONE_ROWS` the rows whose beta comes from ``lemma:beta_lemma_monotone``.

Where the paper cites a label that cannot be the one meant (the inter-ES steps cite
``eq:lemma_5_def_mean`` for their own ``eq:lemma_5_def_ES``), the edge goes to the one meant and the
reason says so.  The graph is acyclic and every label in it is one of
:data:`proofs_checks.paper_labels.ORDER` (``tests/checks/test_paper_uses.py``).
:mod:`proofs_checks.graph` answers queries on it.
"""

from __future__ import annotations

from .results import HOLDER_LEMMA, HOLDER_REASON, Use, result_uses


def _u(*items) -> tuple[Use, ...]:
    """``_u("eq:W", ("theorem:W", "the constant W is finite"))``: labels, or (label, reason[, part]) tuples."""
    return tuple(Use(*x) if isinstance(x, tuple) else Use(x) for x in items)


# short names, as in paper_labels
_GINI = "lemma:example_utility_Holder"
_RTD = "lemma:RTD"
_MMD = "lemma:mean_median_Holder"
_IES = "lemma:inter_ES_Holder"
_DP = "lemma:Dual_Power"
_QU = "lemma:Quadratic"
_PHT = "lemma:PHT"
_DE = "lemma:Delta_error"
_BM = "lemma:beta_lemma_monotone"
_ETC = "theorem: ETC upper bound"
_ETC2 = "theorem:RS-ETC-M"
_UCB = "theorem:UCB upper bound"
_COR = "corollary:RS-UCB-M"
_OV = "lemma:oversampling"
_UN = "lemma:undersampling"
_E3 = "lemma:probability of E3"
_CONC = "lemma: concentration"
_LW = "lemma:lipschitz-wasserstein"
_WD = "eq:wang_def"

_W1_BERN = (_LW, "the W1 distance of two Bernoulli laws is |p_F - p_G| (W1 = the integral of |F - G|)", "identity")
_CLOSED = (_WD, "U_h of a Bernoulli law from the Choquet integral ('it can be easily verified')")
_ORDER = (_DE, "'As a result/Hence, Delta(eps) = O(eps^r)': only the order form, with the K^r of the lemma's "
                "constant", "order")
_EXPLORE_U = ("algorithm:B-UCB-M", "the forced exploration: every arm has rho T eps/4 pulls")
_EXPLORE_C = ("algorithm:UCB-M", "the forced exploration: every arm has rho T eps/4 pulls")

#: label -> what it uses (the graph's edges, transcribed from the paper); see the module's docstring.
_DIRECT: dict[str, tuple[Use, ...]] = {
    # --- the setting, the algorithms' rules -------------------------------------------------------------------
    "eq:regret_decomposition": _u("eq:regret", "eq:regret_decomposition1", "eq:regret_decomposition2",
                                  ("eq:discrete optimal mixture", "telescoped through V(a*, F)")),
    "eq:ETC_alpha": _u("eq:etc_discrete_set", "eq:empirical_CDF"),
    "eq: ETC_samp": _u("eq:ETC_alpha", ("eq:number of samples main paper", "the commit compares T a(i) with N/K")),
    "algorithm:RS-ETC-M-Alg": _u("eq:number of samples main paper", "eq: ETC_samp", "eq:empirical_CDF"),
    # eq:UCB_confidence_sets (a definition) uses nothing: its radius is chosen with lemma: concentration in mind,
    # but the lemma is *used* where the proof needs P(F_i not in C_T(i)) <= 1/T^2 (eq:probi)
    "eq:UCB_alpha": _u("eq:UCB_confidence_sets"),
    "eq:UCB_sampling_rule": _u("eq:UCB_alpha"),
    "algorithm:B-UCB-M": _u("eq:empirical_CDF", "eq:UCB_confidence_sets", "eq:UCB_alpha", "eq:UCB_sampling_rule"),
    "eq:UCB_alpha2": _u(("eq:UCB_confidence_sets", "the bonus is L (a(i) times the radius)^q"), "eq:empirical_CDF"),
    "algorithm:UCB-M": _u("eq:empirical_CDF", "eq:UCB_alpha2", "eq:UCB_sampling_rule"),
    # --- the theorems' statements ---------------------------------------------------------------------------
    "eq:UCB regret": _u("eq:theorem_lastline", "eq:theorem_lastline_CE"),
    # --- proof of lemma "example utility" (Gini deviation: a mixture is optimal) -------------------------------
    "eq:h_1_p": _u(_CLOSED),
    "eq:p_max_def": _u("eq:h_1_p"),
    # --- Appendix W_finitess -------------------------------------------------------------------------------------
    "eq:W_1": _u("eq:W", "theorem:Wasserstein_dual"),
    "eq:W_2": _u("eq:W_1"),
    "eq:W_3": _u("eq:W_2"),
    "eq:W_4": _u("eq:W_3"),
    "eq:W_5": _u("eq:W_4"),
    "eq:W_7": _u("eq:W_5"),
    "eq:W_8": _u(("eq:W_7", "and E|X| <= sqrt(2 pi) for a 1-sub-Gaussian X")),
    # --- auxiliary lemmas ----------------------------------------------------------------------------------------
    "eq:concave 1": _u((_WD, "Jensen for the concave h inside the Choquet integral")),
    "eq: concave 2": _u("eq:concave 1"),
    # Gini deviation
    "eq:lemma_5_def_gd": _u(_CLOSED),
    "eq:LALL2_1": _u("eq:lemma_5_def_gd"),
    "eq:lemma_5_p": _u("eq:LALL2_1"),
    "eq:last_lemma_2": _u("eq:lemma_5_p", _W1_BERN),
    "eq:Gini_case1": _u(("eq:last_lemma_2", "'the exact steps as the transitions (LALL2_1)-(last_lemma_2)'")),
    "eq:LALL": _u("eq:lemma_5_def_gd"),
    "eq:last_lemm_1": _u("eq:LALL", _W1_BERN),
    # PHT (no labelled display: Jensen and lemma:lipschitz-wasserstein in an unlabelled chain)
    # Wang's right-tail deviation
    "eq:lemma_5_def": _u(_CLOSED),
    "eq:LALL2": _u("eq:lemma_5_def"),
    "eq:lemma_RTD_p": _u("eq:LALL2", "eq:WRTD_lemma_0"),
    "eq:last_lemma_rtd": _u("eq:lemma_RTD_p", _W1_BERN),
    "eq:LALL_1": _u("eq:lemma_5_def"),
    "eq:last_lemm_1_2": _u("eq:LALL_1", "eq:WRTD_lemma_0", _W1_BERN),
    # mean-median deviation
    "eq:lemma_5_def_mean": _u(_CLOSED),
    "eq:lemma_5_p_mean_1_MD": _u("eq:lemma_5_def_mean"),
    "eq:lemma_5_p_mean_2_MD": _u("eq:lemma_5_def_mean"),
    "eq:lemma_5_p_mean_3_MD": _u("eq:lemma_5_def_mean"),
    "eq:LALL_mean_MD": _u("eq:lemma_5_def_mean"),
    "eq:last_lemm_1_mean": _u("eq:LALL_mean_MD", _W1_BERN),
    # inter-ES range (its steps cite eq:lemma_5_def_mean; the factor 2 shows eq:lemma_5_def_ES is meant)
    "eq:lemma_5_def_ES": _u(_CLOSED),
    "eq:lemma_5_p_mean_1": _u(("eq:lemma_5_def_ES", "the paper cites eq:lemma_5_def_mean; the factor 2 is "
                                                    "eq:lemma_5_def_ES's")),
    "eq:lemma_5_p_mean_2": _u(("eq:lemma_5_def_ES", "the paper cites eq:lemma_5_def_mean")),
    "eq:lemma_5_p_mean_3": _u(("eq:lemma_5_def_ES", "the paper cites eq:lemma_5_def_mean")),
    "eq:LALL_mean": _u("eq:lemma_5_def_ES"),
    "eq:last_lemm_1_ES": _u("eq:LALL_mean", _W1_BERN),
    # dual power
    "eq:lemma_5_def_DP": _u(_CLOSED),
    "eq:dp_beforelast": _u("eq:lemma_5_def_DP"),
    "eq:dp_last": _u("eq:dp_beforelast"),
    "eq:dp_final": _u("eq:dp_last", _W1_BERN),
    # quadratic
    "eq:lemma_5_def_quadratic": _u(_CLOSED),
    "eq:quadratic_lastline_2": _u("eq:lemma_5_def_quadratic"),
    "eq:quadratic_lastline": _u("eq:quadratic_lastline_2", _W1_BERN),
    # discretisation error
    "eq:delta_error_43": _u("eq:regret_decomposition1", ("eq:Holder_opt", "'follows from Definition "
                                                         "(assumption:Holder_opt)'"),
                            ("eq:discrete optimal mixture", "a* is at least as good as the nearest grid point")),
    "eq:delta_error_5": _u("eq:delta_error_43", "eq:W"),
    "eq:Delta_error_2": _u("eq:delta_error_5", ("eq:etc_discrete_set", "the nearest grid point is within eps/2 per "
                                                                       "coordinate (the grid the claim is about)")),
    # beta for concave, strictly monotone h
    "eq:astar_lemma14": _u("eq:solitary_best", ("eq:UCB_alpha", "the mid-point grid of RS-UCB-M: every coordinate "
                                                                ">= eps/2")),
    "eq:aprime_lemma14": _u("eq:astar_lemma14"),
    "eq:concavity_h": _u("eq:astar_lemma14", "eq:aprime_lemma14", "eq:discrete_gap"),
    "eq:best_second_deff": _u("eq:astar_lemma14", "eq:aprime_lemma14"),
    "eq:delta_min_conc_mon_analysis": _u("eq:concavity_h", "eq:best_second_deff", "eq:solitary_best"),
    # --- proof of theorem: ETC upper bound ------------------------------------------------------------------------
    "eq: Regret_DISCRET_ETC": _u("eq:regret_decomposition2", "eq:discrete optimal mixture"),
    "eq: A2first": _u(("eq: Regret_DISCRET_ETC", "the term A_2 and U_h <= B (the setting)")),
    "eq:ETC_A21": _u(("eq:discrete_gap", "a wrong mixture loses at least Delta_min(eps)")),
    "eq:ETC_A22": _u("eq:discrete_gap"),
    "eq:ETC_1": _u("eq:ETC_A21"),
    "eq:ETC_2": _u("eq:ETC_1", ("eq:ETC_alpha", "a^E_N maximises the estimated DR")),
    "eq:alpha_to_1": _u("eq:ETC_A22", "eq:Holder"),
    "eq:E1C": _u("eq:alpha_to_1", ("eq:meta_concentration", "at tau = N(eps)/K"),
                 ("algorithm:RS-ETC-M-Alg", "the uniform exploration: N(eps)/K pulls per arm")),
    "eq:E2C": _u("eq:ETC_A22", "eq:Holder", "eq:meta_concentration",
                 ("eq:etc_discrete_set", "at most (1/eps)^(K-1) grid points")),
    "eq:E3C": _u("eq:E1C", "eq:E2C"),
    "eq:number of samples": _u(("eq:E3C", "N(eps) is chosen so that the sum of eq:E3C is at most delta")),
    "eq: ETC A2T final": _u("eq: A2first", "eq:ETC_2", "eq:E3C", "eq:number of samples"),
    "eq:lemma_8_2": _u("eq: Regret_DISCRET_ETC", "eq:Holder", "eq:W"),
    "eq:ETC set": _u("eq: ETC_samp"),
    "eq: ETC commit 3": _u("eq:ETC set", "eq: ETC_samp"),
    "eq: ETC commit 1": _u("eq:ETC set", "eq: ETC_samp"),
    "eq: ETC commit 2": _u("eq:ETC set"),
    "eq: ETC commit 4": _u("eq: ETC commit 1", "eq: ETC commit 2", "eq: ETC_samp"),
    "eq: ETC commit 5": _u("eq:ETC set", "eq: ETC_samp"),
    "eq: ETC commit 6": _u("eq: ETC commit 3", "eq: ETC commit 4", "eq: ETC commit 5"),
    "eq: ETC A3T final": _u("eq:lemma_8_2", "eq: ETC commit 6"),
    "eq:UP_ETC_eqn1": _u("eq: Regret_DISCRET_ETC", ("eq: ETC A2T final", "delta = 1/T^2"), "eq: ETC A3T final"),
    "eq:disc_up_ETC": _u("eq:regret_decomposition", "eq:UP_ETC_eqn1"),
    "eq:ETC_M_eps": _u("eq:disc_up_ETC", ("eq:number of samples main paper", "M(eps) = N(eps)/log T")),
    # --- proof of theorem:RS-ETC-M ---------------------------------------------------------------------------------
    "eq:Discrete_order": _u("eq:UP_ETC_eqn1", ("eq:number of samples main paper", "N(eps) = Theta(T^gamma) at the "
                                                                                  "chosen eps"),
                            ("eq:discrete_gap", "Delta_min(eps) = Omega(eps^beta)")),
    "eq:delta_order": _u(_ORDER),
    "eq:ETC upper bound gamma appendix": _u("eq:disc_up_ETC", "eq:Discrete_order", "eq:delta_order"),
    # --- proof of theorem:UCB upper bound (RS-UCB-M) -----------------------------------------------------------------
    "eq:probi": _u((_CONC, "P(F_i not in C_T(i)) <= 1/T^2 ('the large deviation bound ... from Lemma 1') at the "
                           "count tau_T(i) the policy chose: the lemma's 'for any policy'", "any_policy"),
                   "eq:UCB_confidence_sets"),
    "eq:A_1 bound refer": _u("eq:probi"),
    "eq:UCB_alpha_def": _u("eq:UCB_confidence_sets"),
    "eq:UUB_1": _u("eq:UCB_alpha_def", ("eq:UCB_alpha", "a^U_T maximises UCB_T"),
                   ("eq:Holder_opt", "the paper cites mixture Hölder continuity; the step needs eq:Holder"),
                   "eq:UCB_confidence_sets"),
    "eq:UUB_2": _u("eq:UUB_1", ("algorithm:UCB-M", "'the explicit exploration of each arm in Algorithm 3'")),
    "eq:A21": _u("eq:UUB_2"),
    "eq:UCB_UB2": _u("eq:Holder", "eq:W"),
    "eq:UCB_UBh1": _u("eq:probi"),
    "eq:UCB_UB3": _u("eq:UCB_UBh1", ("eq:discrete_gap", "the event E_t(Delta_min/2)")),
    "eq:UCB_UB4": _u("eq:UCB_UB3", "eq:discrete optimal mixture", ("eq:UCB_alpha", "a^U_t is optimistic-optimal")),
    "eq:UCB_UB5": _u("eq:UCB_UB4"),
    "eq:E3_1": _u("eq:UCB_UB5", "eq:Holder", ("eq:UCB_confidence_sets", "the radius bounds each W1 distance")),
    "eq:E3_2": _u("eq:E3_1", _EXPLORE_U),
    "eq:T_epsilon": _u(("eq:E3_2", "T_0(eps): the first time after which the bound of eq:E3_2 is below the gap "
                                   "condition")),
    "eq:UCB_UB8": _u("eq:E3_2", "eq:T_epsilon"),
    "eq:UCB_UB9": _u(("eq:UCB_UB8", "'a similar line of arguments'")),
    "eq:UCB_UB10": _u("eq:UCB_UB5", "eq:UCB_UB8", "eq:UCB_UB9"),
    "eq:UCB_UB10-1": _u("eq:UCB_UB10"),
    "eq:samlingequiv": _u(_EXPLORE_U, "eq:UCB_sampling_rule"),
    "eq:oversampledproof": _u("eq:UCB_sampling_rule"),
    "eq:replace": _u("eq:samlingequiv", "eq:oversampledproof"),
    "eq:midpointsmatter": _u("eq:replace", ("eq:UCB_alpha", "the mid-point grid: every coordinate >= eps/2")),
    "eq:UK_oneside": _u((_OV, "O_t is empty after T(eps)")),
    "eq:oversampling1": _u("eq:UCB_sampling_rule"),
    "eq:UK_1": _u("eq:oversampling1"),
    "eq:oversampling2": _u("eq:UCB_sampling_rule"),
    "eq:UK_2": _u("eq:oversampling2"),
    "eq:oversampling3": _u("eq:UK_1", "eq:UK_2", ("eq:T_epsilon", "m counted from T_0(eps)")),
    "eq:m_finite": _u("eq:oversampling3", ("eq:UCB_sampling_rule", "an over-sampled arm is not sampled")),
    "eq:m": _u("eq:m_finite", ("eq:midpointsmatter", "a*(i) >= eps/2 on the mid-point grid")),
    "eq:T_epsilon_actual": _u("eq:T_epsilon", "eq:m"),
    "eq:UCB_f1": _u("eq:UCB_UB2"),
    "eq:UCB_f2": _u("eq:UCB_f1", "eq:probi"),
    "eq:UCB_UB11": _u("eq:UCB_f2", (_OV, "as the paper cites"),
                      (_UN, "the K/t deviation of the sampling fractions is this lemma's statement")),
    "eq:UCB_UB12": _u("eq:UCB_UB11", _E3),
    "eq:Discretized_regret": _u("eq:A_1 bound refer", "eq:A21", "eq:UCB_UB12"),
    "eq:theorem_lastline": _u("eq:regret_decomposition", "eq:Discretized_regret"),
    # --- proof of corollary:RS-UCB-M (RS-UCB-M) ----------------------------------------------------------------------
    "eq:Discrete_order_UCB_RS": _u("eq:Discretized_regret",
                                   ("eq:T_epsilon_actual", "the chosen eps satisfies T > T(eps)"),
                                   ("eq:discrete_gap", "Delta_min(eps) = Omega(eps^beta)")),
    "eq:delta_order_UCB_RS": _u(_ORDER),
    "eq:UCB upper bound appendix": _u("eq:Discrete_order_UCB_RS", "eq:delta_order_UCB_RS"),
    # --- proof of theorem:UCB upper bound (CE-UCB-M) ----------------------------------------------------------------
    "eq:CEUCB1": _u("eq:Holder", "eq:UCB_confidence_sets"),
    "eq:CEUCB2": _u("eq:CEUCB1", "eq:UCB_alpha2"),
    "eq:CEUCB3": _u("eq:CEUCB2", _EXPLORE_C),
    "eq:discrete_error_CE": _u(("eq:A_1 bound refer", "C_1 is B_1"), "eq:CEUCB3",
                               ("eq:UCB_UB12", "C_4 'handled in the exact same way' as B_22"),
                               ("eq:T_epsilon_actual", "for T > T(eps)")),
    "eq:theorem_lastline_CE": _u("eq:regret_decomposition", "eq:discrete_error_CE",
                                 ("theorem:W", "'W > 1 for sub-Gaussian distributions as shown in Appendix "
                                               "W_finitess' (theorem:W bounds W from above only)")),
    # --- proof of corollary:RS-UCB-M (CE-UCB-M) ----------------------------------------------------------------------
    "eq:Discrete_order_CE": _u("eq:discrete_error_CE",
                               ("eq:T_epsilon", "the chosen eps satisfies the condition of eq:T_epsilon"),
                               ("eq:discrete_gap", "Delta_min(eps) = Omega(eps^beta)")),
    "eq:delta_order_ce": _u(_ORDER),
    "eq:UCB upper bound appendix CE": _u("eq:Discrete_order_CE", "eq:delta_order_ce"),
}

#: The rows of the tables (the ledger's row names), in the paper's order.
ROWS = ("mean", "dual_power", "quadratic", "cvar", "pht", "mean_median", "inter_es", "right_tail", "gini")
#: Rows with a strictly increasing concave h (beta = 1 by lemma:beta_lemma_monotone); the others have a mixture
#: optimum (shaded rows) and beta '-'.
MONOTONE_ROWS = ("mean", "dual_power", "quadratic", "cvar", "pht")


def _holder(row: str, what: str) -> tuple[Use, ...]:
    lemma = HOLDER_LEMMA[row]
    if lemma is None:
        return ()
    return (Use(lemma, HOLDER_REASON.get(row, what)),)


def _cells() -> dict[tuple[str, str, str | None], tuple[Use, ...]]:
    """The cells of the three tables and what each is derived from (built from the row data above)."""
    out: dict[tuple[str, str, str | None], tuple[Use, ...]] = {}
    for row in ROWS:
        monotone = row in MONOTONE_ROWS
        beta = (Use(_BM, "beta = 1"),) if monotone else ()
        out[("table:table_regrets", row, "h")] = ()
        out[("table:table_regrets", row, "ucb")] = (
            Use(_COR, "the rate (log T/T)^(r kappa), kappa = 1/(2 beta/q + 2)"),
            *_holder(row, "q and r of the row"), *beta)
        if monotone:  # a solitary optimum: Delta_min(eps) = O(1), the regret is the discrete regret's
            out[("table:table_regrets", row, "etc")] = (
                Use(_ETC, "solitary optimum: the order of the discrete regret, (log T/T)^q"),
                *_holder(row, "q of the row"))
        else:
            out[("table:table_regrets", row, "etc")] = (
                Use(_ETC2, "the rate [log T/T^gamma]^(qr/(2 beta))"), *_holder(row, "q and r of the row"))
        for col in ("q", "r", "L"):
            out[("table:table_risks", row, col)] = _holder(row, f"{col} of the row")
        out[("table:table_risks", row, "beta")] = beta
    out[("table:literature_comparison", "rs_etc_m", None)] = (
        Use(_ETC, "solitary optimum (footnote): the discrete regret's order (log T/T)^q"),)
    out[("table:literature_comparison", "rs_ucb_m", None)] = (Use(_COR, "(log T/T)^(r kappa)"),)
    return out


#: (table, row, column) -> what the cell is derived from (column None: a row of table:literature_comparison).
CELL_USES: dict[tuple[str, str, str | None], tuple[Use, ...]] = _cells()


def _tables() -> dict[str, tuple[Use, ...]]:
    out: dict[str, dict[str, Use]] = {}
    for (table, _row, _col), uses in CELL_USES.items():
        for use in uses:
            out.setdefault(table, {}).setdefault(use.label, Use(use.label))
    return {table: tuple(v.values()) for table, v in out.items()}


#: label -> what it uses: the transcribed edges and, for each table, the union of its cells' uses.
USES: dict[str, tuple[Use, ...]] = {**_DIRECT, **result_uses(), **_tables()}
