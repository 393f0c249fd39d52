"""The symbols of the rates (declared once; all positive) and their notation.

``T`` horizon, ``K`` arms, ``eps`` discretisation level, ``q``/``L`` the Hölder
exponent and constant of ``assumption:Holder``, ``r`` the exponent of
``assumption:Holder_opt``, ``beta`` the gap exponent, ``W`` of ``eq:W``,
``B`` of ``theorem:UCB upper bound``, ``rho`` the exploration rate,
``Delta_min`` of ``eq:discrete_gap``; ``ell`` stands for log T when
exponents are read off (:mod:`rsb_theory.rates.exponents`).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["T", "K", "eps", "q", "r", "beta", "L", "W", "B", "rho", "Delta_min", "gamma_sym", "kappa_sym",
           "Delta_eps", "T_eps", "T0_eps", "tau", "s", "ell"]

T, K, eps, q, r, beta, L, W, B, rho, Delta_min = sp.symbols(
    "T K eps q r beta L W B rho Delta_min", positive=True
)
#: gamma of ``theorem:RS-ETC-M`` as a free symbol (the exponent of T in N(eps)).
gamma_sym = sp.Symbol("gamma", positive=True)
#: kappa of ``corollary:RS-UCB-M`` as a free symbol (used in printed cells).
kappa_sym = sp.Symbol("kappa", positive=True)
#: Delta(eps) of ``eq:regret_decomposition1`` (zero when alpha* is on the grid).
Delta_eps = sp.Symbol("Delta_eps", nonnegative=True)
#: T(eps) of section ``sec:analysis`` (numeric value: :func:`T_of_eps`).
T_eps = sp.Symbol("T_eps", positive=True)
#: T_0(eps) of section ``sec:analysis``.
T0_eps = sp.Symbol("T_0", positive=True)
#: Number of samples of an arm (denominator of ``eq:UCB_confidence_sets``).
tau = sp.Symbol("tau", positive=True)
#: Dummy time index of the set Q.
s = sp.Symbol("s", positive=True)
#: log T, treated as an independent variable when reading off exponents.
ell = sp.Symbol("ell", positive=True)
