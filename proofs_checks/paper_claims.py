"""The paper's printed values, transcribed once, with their LaTeX labels.

Everything here is *data to compare against*: no module of ``rsb_theory`` or
``rsb_sim`` imports it, and no derived quantity reads it.  Strings are kept as
printed (LaTeX reduced to the toolkit's expression syntax: ``varpi`` for
varpi(T) = sqrt(log T / T), ``kappa``, ``beta``; ``(T^gamma)`` marks a rate
evaluated at T^gamma).

Sources: ``table:table_regrets`` (Table 1), ``table:table_risks`` (Table 2),
``table:literature_comparison`` (Table 3, this work's rows), and the lemmas
``lemma:example_utility_Holder``, ``lemma:PHT``, ``lemma:RTD``,
``lemma:mean_median_Holder``, ``lemma:inter_ES_Holder``,
``lemma:Dual_Power``, ``lemma:Quadratic`` for the constants L.
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
    """A row of ``table:table_risks`` as printed, with the lemma's constant L."""

    key: str
    q: str
    r: str
    beta: str
    L: str | None
    L_label: str | None
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
#: and L = max(L_MH, L_H) from each row's lemma (None: no lemma states it).
#: ``beta_bound``: a footnote's condition "means smaller than <bound>".
TABLE_RISKS: tuple[RiskRow, ...] = (
    RiskRow("mean", "1", "1", "1", None, None),
    RiskRow("dual_power", "1", "1", "1", "s", "lemma:Dual_Power"),
    RiskRow("quadratic", "1", "1", "1", "1+s", "lemma:Quadratic"),
    # footnote: beta = 1 "when the arms' mean values are smaller than 1 - alpha"
    RiskRow("cvar", "1", "1", "1", None, None, beta_bound="1 - alpha"),
    RiskRow("pht", "s", "s", "1", "1", "lemma:PHT"),
    RiskRow("mean_median", "1", "1", "-", "1", "lemma:mean_median_Holder"),
    RiskRow("inter_es", "1", "1", "-", "2", "lemma:inter_ES_Holder"),
    RiskRow("right_tail", "1/2", "1", "-", "1", "lemma:RTD"),
    RiskRow("gini", "1", "2", "-", "1", "lemma:example_utility_Holder"),
)

#: ``table:literature_comparison``, this work's rows (footnote: RS-ETC-M
#: assumes that the optimal solution is a solitary arm).
LITERATURE_THIS_WORK: dict[str, str] = {
    "rs_etc_m": "varpi^(2*q)",
    "rs_ucb_m": "varpi^(2*r*kappa)",
}

#: Parameter values the printed rows are read at where the table fixes one.
TABLE_PARAMETERS: dict[str, dict[str, str]] = {
    "pht": {"s": "1/2"},
    "inter_es": {"alpha": "1/2"},
}


def regret_row(key: str) -> RegretRow:
    """The printed row of ``table:table_regrets`` for ``key``."""
    return next(r for r in TABLE_REGRETS if r.key == key)


def risk_row(key: str) -> RiskRow:
    """The printed row of ``table:table_risks`` for ``key``."""
    return next(r for r in TABLE_RISKS if r.key == key)
