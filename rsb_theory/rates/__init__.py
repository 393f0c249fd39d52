"""Regret bounds and rates of RS-ETC-M and RS-UCB-M / CE-UCB-M, symbolically.

Everything here is re-derived from the formulas of section ``sec:analysis``
and of the appendix proofs; nothing is copied from the tables.  The tables
(``table:table_regrets``, ``table:table_risks``,
``table:literature_comparison``) are *checked against* these derivations by
the callers (tests and ledger), which supply the printed cells as strings to
:func:`parse_varpi` and compare them with :func:`same_rate`.

Contents
--------
* exploration length ``eq:number of samples main paper`` (:func:`N_eps`,
  :func:`M_eps`) and the confidence radius ``eq:UCB_confidence_sets``
  (:func:`ucb_radius`), with their numeric evaluations compiled from the same
  formula (:func:`N_eps_value`, :func:`radius_constant`);
* the eps-dependent bounds ``theorem: ETC upper bound`` and
  ``theorem:UCB upper bound`` with their side conditions as data
  (:func:`etc_bound_eps`, :func:`ucb_bound_eps`), the set ``Q``, ``T_0(eps)``
  and ``T(eps)`` (:func:`in_Q`, :func:`T_of_eps`);
* ``lemma:Delta_error`` (:func:`delta_error_bound`);
* the eps-independent exponents of ``theorem:RS-ETC-M`` and
  ``corollary:RS-UCB-M`` (:func:`gamma_E`, :func:`kappa`, :func:`c_E`,
  :func:`c_U`, :func:`etc_rate`, :func:`ucb_rate`,
  :func:`ucb_side_condition`) and their re-derivation from the appendix
  proofs (:func:`derive_etc_exponents`, :func:`derive_ucb_exponents`);
* Table 1 in powers of varpi(T) = sqrt(log T / T) (:func:`table_rates`,
  :func:`format_varpi`, :func:`parse_varpi`, :func:`same_rate`,
  :func:`compare_cell`);
* a numeric vacuity helper (:func:`smallest_nontrivial_T`).

Exponent extraction
-------------------
A rate is read as ``C * K^k * T^a * (log T)^b`` as T -> oo (resp. K -> oo):
log T is replaced by an independent symbol ``ell`` and the exponents are the
logarithmic derivatives ``x d/dx log(rate)`` (with a limit x -> oo when the
factor is not a pure power, e.g. ``(sqrt(2 e ell) + 32)^q``).  In varpi
notation ``varpi(T)^e = T^(-e/2) (log T)^(e/2)`` and
``varpi(T^gamma)^e = gamma^(e/2) T^(-gamma e/2) (log T)^(e/2)``, so (a, b)
determine both the exponent e and the argument (``T`` or ``T^gamma``).
The package: :mod:`.symbols`; :mod:`.constants` (N(eps), M(eps), the
radius); :mod:`.horizon` (Q, T_0(eps), T(eps)); :mod:`.bounds` (the
eps-dependent bounds, ``lemma:Delta_error``); :mod:`.exponents` (gamma, kappa,
c_E, c_U, the rates and the exponent reader); :mod:`.derivations` (the
re-derivations from the appendix proofs); :mod:`.varpi` (Table 1 in varpi
notation); :mod:`.numeric` (vacuity helpers).

Importing this package has no side effects.
"""

from __future__ import annotations

from .bounds import EpsBound, delta_error_bound, etc_bound_eps, ucb_bound_eps
from .constants import M_eps, N_eps, N_eps_value, N_factors, radius_constant, radius_numerator, ucb_radius
from .derivations import EtcExponentDerivation, UcbExponentDerivation, derive_etc_exponents, derive_ucb_exponents
from .exponents import (RateOrder, TermExponents, c_E, c_U, compare_etc_ucb, etc_rate, gamma_E, kappa,
                        term_exponents, ucb_exponent_unconditional, ucb_rate, ucb_side_condition)
from .horizon import Q_condition, Q_tail_start, T_eps_definition, T_eps_matches_appendix, T_of_eps, TofEps, in_Q
from .numeric import numeric_in_T, smallest_nontrivial_T
from .symbols import (B, Delta_eps, Delta_min, K, L, T, T0_eps, T_eps, W, beta, ell, eps, gamma_sym, kappa_sym, q,
                      r, rho, s, tau)
from .varpi import (RateComparison, TableRates, VarpiIdentity, compare_cell, etc_varpi_identity, format_varpi,
                    parse_varpi, same_rate, table_rates, varpi, varpi_form)

__all__ = [
    # symbols
    "T", "K", "eps", "q", "r", "beta", "L", "W", "B", "rho", "Delta_min", "gamma_sym", "kappa_sym", "Delta_eps",
    "T_eps", "T0_eps", "tau", "s", "ell",
    # constants
    "N_factors", "N_eps", "M_eps", "radius_numerator", "ucb_radius", "N_eps_value", "radius_constant",
    # horizon
    "Q_condition", "T_eps_definition", "T_eps_matches_appendix", "in_Q", "Q_tail_start", "TofEps", "T_of_eps",
    # bounds
    "delta_error_bound", "EpsBound", "etc_bound_eps", "ucb_bound_eps",
    # exponents
    "gamma_E", "kappa", "c_E", "c_U", "etc_rate", "ucb_rate", "ucb_side_condition", "ucb_exponent_unconditional",
    "RateOrder", "compare_etc_ucb", "TermExponents", "term_exponents",
    "EtcExponentDerivation", "derive_etc_exponents", "UcbExponentDerivation", "derive_ucb_exponents",
    # varpi
    "varpi", "varpi_form", "VarpiIdentity", "etc_varpi_identity", "TableRates", "table_rates", "format_varpi",
    "parse_varpi", "RateComparison", "same_rate", "compare_cell",
    # numeric
    "numeric_in_T", "smallest_nontrivial_T",
]
