"""Re-derivations of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` from their appendix proofs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from .bounds import delta_error_bound, ucb_bound_eps
from .exponents import TermExponents, c_E, c_U, etc_rate, gamma_E, kappa, same, same_exponents, term_exponents
from .symbols import Delta_min, K, L, T, W, beta, eps, gamma_sym, q, r, rho

__all__ = ["EtcExponentDerivation", "derive_etc_exponents", "UcbExponentDerivation", "derive_ucb_exponents"]

_E = sp.E


@dataclass(frozen=True)
class EtcExponentDerivation:
    """Re-derivation of ``theorem:RS-ETC-M`` from its appendix proof.

    Attributes
    ----------
    eps_choice : sympy.Expr
        (K^(2+2/q) T^-gamma log T)^(q/(2 beta)) with gamma free.
    N_leading : sympy.Expr
        Leading order of N(eps) at that eps with Delta_min = eps^beta.
    N : TermExponents
        Exponents of ``N_leading`` (T: gamma, K: 0, log: 0).
    delta, discrete : TermExponents
        Derived exponents of the Delta(eps) term (``lemma:Delta_error``) and
        of the discrete term (``theorem: ETC upper bound``).
    appendix_delta, appendix_discrete : TermExponents
        Exponents of the two terms as printed in
        ``eq:ETC upper bound gamma appendix``.
    gamma_solution : sympy.Expr
        Unique gamma equalising the T-exponents of the printed terms.
    gamma_equalises : bool
        ``gamma_solution == gamma_E()`` and the derived terms' T-exponents
        also coincide at gamma_E.
    gamma_is_minimax : bool
        The delta exponent decreases and the discrete one increases in gamma,
        so the equalising gamma minimises the max of the two.
    theorem_matches_delta : bool
        The exponents of ``etc_rate()`` equal those of the delta term at
        gamma_E (K, T and log T).
    delta_matches_appendix : bool
    discrete_T_matches_appendix : bool
    discrete_K_matches_appendix : bool
        False: the proof's discrete term carries K^1 (``eq:Discrete_order``)
        while ``eq:ETC upper bound gamma appendix`` prints K^q.
    theorem_K_covers_discrete : sympy.Basic
        Condition c_E q r/(2 beta) >= 1 under which c_E also covers the
        discrete term's K^1 (an omitted hypothesis of ``theorem:RS-ETC-M``).
    """

    eps_choice: sp.Expr
    N_leading: sp.Expr
    N: TermExponents
    delta: TermExponents
    discrete: TermExponents
    appendix_delta: TermExponents
    appendix_discrete: TermExponents
    gamma_solution: sp.Expr
    gamma_equalises: bool
    gamma_is_minimax: bool
    theorem_matches_delta: bool
    delta_matches_appendix: bool
    discrete_T_matches_appendix: bool
    discrete_K_matches_appendix: bool
    theorem_K_covers_discrete: sp.Basic


# Instance-independent and slow (SymPy limits): derived once per process for all its consumers (the constants'
# checks, the derived rows); the result is frozen.
@lru_cache(maxsize=1)
def derive_etc_exponents() -> EtcExponentDerivation:
    """Re-derive the exponents of ``theorem:RS-ETC-M`` (proof in the appendix).

    Steps: substitute eps = (K^(2+2/q) T^-gamma log T)^(q/(2 beta)) and
    Delta_min = eps^beta into N(eps); keep the leading term of the log in the
    bracket (eps^-(K-1) dominates the +1, log(...) ~ c(K) log T); insert into
    ``theorem: ETC upper bound`` and ``lemma:Delta_error``; read off the
    exponents; compare with ``eq:ETC upper bound gamma appendix`` and solve
    for the gamma that equalises the T-exponents.

    Returns
    -------
    EtcExponentDerivation
    """
    g = gamma_sym
    eps_E = (K ** (2 + 2 / q) * T ** (-g) * sp.log(T)) ** (q / (2 * beta))
    inner = sp.expand(sp.expand_log(sp.log(2 * K * T**2 * eps_E ** (-(K - 1))), force=True))
    c_log = inner.coeff(sp.log(T))
    N_lead = (
        256 * K * _E * (2 * K * L / eps_E**beta) ** (2 / q) * c_log * sp.log(T)
    )
    N_ex = term_exponents(N_lead)
    delta_term = delta_error_bound().subs(eps, eps_E)
    discrete_term = (L * K + W ** (-q)) * (3 * W * N_lead / T) ** q
    d_ex = term_exponents(delta_term)
    s_ex = term_exponents(discrete_term)

    # eq:ETC upper bound gamma appendix, as printed.
    app_delta = K ** (r + r * (q + 1) / beta) * T ** (-r * q * g / (2 * beta)) * sp.log(T) ** (
        r * q / (2 * beta)
    )
    app_discrete = K**q * T ** ((g - 1) * q)
    ad_ex = term_exponents(app_delta)
    as_ex = term_exponents(app_discrete)

    sols = sp.solve(sp.Eq(ad_ex.T_exponent, as_ex.T_exponent), g)
    gamma_solution = sols[0] if len(sols) == 1 else sp.nan
    gE = gamma_E()
    derived_equal = same(d_ex.T_exponent.subs(g, gE), s_ex.T_exponent.subs(g, gE))
    minimax = bool(
        sp.diff(ad_ex.T_exponent, g).is_negative and sp.diff(as_ex.T_exponent, g).is_positive
    )
    th = term_exponents(etc_rate())
    theorem_matches = same_exponents(
        th,
        TermExponents(*(sp.sympify(x).subs(g, gE) for x in (d_ex.T_exponent, d_ex.K_exponent, d_ex.log_exponent))),
    )
    return EtcExponentDerivation(
        eps_choice=eps_E,
        N_leading=N_lead,
        N=N_ex,
        delta=d_ex,
        discrete=s_ex,
        appendix_delta=ad_ex,
        appendix_discrete=as_ex,
        gamma_solution=gamma_solution,
        gamma_equalises=bool(len(sols) == 1 and same(gamma_solution, gE) and derived_equal),
        gamma_is_minimax=minimax,
        theorem_matches_delta=theorem_matches,
        delta_matches_appendix=same_exponents(d_ex, ad_ex),
        discrete_T_matches_appendix=same(s_ex.T_exponent, as_ex.T_exponent)
        and same(s_ex.log_exponent, as_ex.log_exponent),
        discrete_K_matches_appendix=same(s_ex.K_exponent, as_ex.K_exponent),
        theorem_K_covers_discrete=sp.Ge(sp.simplify(c_E() * q * r / (2 * beta)), s_ex.K_exponent),
    )


@dataclass(frozen=True)
class UcbExponentDerivation:
    """Re-derivation of ``corollary:RS-UCB-M`` from its appendix proof.

    Attributes
    ----------
    eps_choice : sympy.Expr
        (K^(2/q) log T / T)^kappa.
    delta : TermExponents
        Delta(eps) term (``eq:delta_order_UCB_RS``).
    discrete_theorem : TermExponents
        Discrete term of ``theorem:UCB upper bound`` as stated (no K factor):
        K-exponent -kappa.
    discrete_B3 : TermExponents
        Discrete term with the L K factor of B_3(T) (``eq:Discretized_regret``):
        K-exponent 1 - kappa.
    appendix_discrete : TermExponents
        ``eq:Discrete_order_UCB_RS`` as printed, (K^(2/q) log T/T)^((1-kappa) q/2).
    delta_decay, discrete_decay : sympy.Expr
        Exponents of log T / T: r kappa and (1 - kappa) q / 2.
    decay_difference : sympy.Expr
        discrete_decay - delta_decay.
    difference_factorisation : sympy.Expr
        kappa (beta + q/2 - r); equal to ``decay_difference``.
    condition_equivalent : bool
        ``decay_difference == kappa (beta + q/2 - r)`` with kappa > 0, i.e.
        (1 - kappa) q/2 >= r kappa  <=>  r <= beta + q/2.
    c_U_matches : bool
        c_U == max(K-exponent of delta, K-exponent of the printed discrete term).
    delta_matches_appendix : bool
        Delta-term exponents equal ``eq:delta_order_UCB_RS``.
    discrete_matches_appendix : bool
        T/log exponents of the derived discrete term equal the printed ones.
    discrete_K_theorem_vs_appendix : bool
        False: the theorem's constant lacks the K of B_3.
    feasibility : TermExponents
        Exponents of the leading order of T(eps) at eps_choice with
        Delta_min = eps^beta: T^1 (log T)^0 K^0, i.e. T(eps) = Theta(T), so
        T > T(eps) holds iff the Theta-constant in eps is large enough.
    """

    eps_choice: sp.Expr
    delta: TermExponents
    discrete_theorem: TermExponents
    discrete_B3: TermExponents
    appendix_discrete: TermExponents
    delta_decay: sp.Expr
    discrete_decay: sp.Expr
    decay_difference: sp.Expr
    difference_factorisation: sp.Expr
    condition_equivalent: bool
    c_U_matches: bool
    delta_matches_appendix: bool
    discrete_matches_appendix: bool
    discrete_K_theorem_vs_appendix: bool
    feasibility: TermExponents


@lru_cache(maxsize=1)
def derive_ucb_exponents() -> UcbExponentDerivation:
    """Re-derive the exponents of ``corollary:RS-UCB-M`` (proof in the appendix).

    Substitutes eps = (K^(2/q) log T / T)^kappa into ``lemma:Delta_error`` and
    ``theorem:UCB upper bound`` (and into B_3 of ``eq:Discretized_regret``),
    compares with ``eq:UCB upper bound appendix`` and proves
    (1 - kappa) q/2 - r kappa = kappa (beta + q/2 - r).

    Returns
    -------
    UcbExponentDerivation
    """
    k = kappa()
    eps_U = (K ** (2 / q) * sp.log(T) / T) ** k
    delta_term = delta_error_bound().subs(eps, eps_U)
    disc_th = ucb_bound_eps().discrete_regret.subs(eps, eps_U)
    disc_b3 = L * K * (64 / sp.sqrt(rho * eps_U * T)) ** q * (sp.sqrt(2 * _E * sp.log(T)) + 32) ** q
    app_disc = (K ** (2 / q) * sp.log(T) / T) ** ((1 - k) * q / 2)
    app_delta = K ** (r * (1 + 2 * k / q)) * (sp.log(T) / T) ** (r * k)
    d_ex = term_exponents(delta_term)
    th_ex = term_exponents(disc_th)
    b3_ex = term_exponents(disc_b3)
    ap_ex = term_exponents(app_disc)
    apd_ex = term_exponents(app_delta)

    delta_decay = sp.simplify(-d_ex.T_exponent)
    discrete_decay = sp.simplify(-th_ex.T_exponent)
    diff = sp.simplify(discrete_decay - delta_decay)
    factor = k * (beta + q / 2 - r)
    equivalent = bool(same(diff, factor) and k.is_positive)

    # Leading order of T(eps) = (2/eps) T_0 with T_0 from equality in Q and
    # log T_0 ~ log T (T_0 = Theta(eps T) with eps a power of log T / T).
    T0_lead = 4 * 256 * (sp.sqrt(2 * _E * sp.log(T)) + 32) ** 2 / (rho * eps) * (
        2 * K * L / Delta_min
    ) ** (2 / q)
    T_eps_lead = (2 / eps * T0_lead).subs(Delta_min, eps**beta).subs(eps, eps_U)

    return UcbExponentDerivation(
        eps_choice=eps_U,
        delta=d_ex,
        discrete_theorem=th_ex,
        discrete_B3=b3_ex,
        appendix_discrete=ap_ex,
        delta_decay=delta_decay,
        discrete_decay=discrete_decay,
        decay_difference=diff,
        difference_factorisation=factor,
        condition_equivalent=equivalent,
        c_U_matches=same(c_U(), sp.Max(d_ex.K_exponent, ap_ex.K_exponent)),
        delta_matches_appendix=same_exponents(d_ex, apd_ex),
        discrete_matches_appendix=same(th_ex.T_exponent, ap_ex.T_exponent)
        and same(th_ex.log_exponent, ap_ex.log_exponent),
        discrete_K_theorem_vs_appendix=same(th_ex.K_exponent, ap_ex.K_exponent),
        feasibility=term_exponents(T_eps_lead),
    )
