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
  (:func:`ucb_radius`);
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

Importing this module has no side effects.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Mapping

import mpmath
import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    standard_transformations,
)

# --------------------------------------------------------------------------
# Symbols (declared once; all positive)
# --------------------------------------------------------------------------
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

_E = sp.E
# Aliases for functions whose parameters shadow the symbol names.
_Q, _R, _BETA = q, r, beta
_ARGUMENTS = ("T", "T^gamma")


# --------------------------------------------------------------------------
# eps-dependent quantities
# --------------------------------------------------------------------------
def N_eps() -> sp.Expr:
    """Exploration length N(eps) of RS-ETC-M.

    Implements ``eq:number of samples main paper``::

        N(eps) = 256 K e (2 K L / Delta_min)^(2/q)
                 * [32/sqrt(e) + log^(1/2)(2 K T^2 (eps^-(K-1) + 1))]^2

    with ``L`` the Hölder constant (``\\mcL``) and ``Delta_min`` the symbol for
    Delta_min(eps).

    Returns
    -------
    sympy.Expr
    """
    bracket = 32 / sp.sqrt(_E) + sp.sqrt(
        sp.log(2 * K * T**2 * (eps ** (-(K - 1)) + 1))
    )
    return 256 * K * _E * (2 * K * L / Delta_min) ** (2 / q) * bracket**2


def M_eps() -> sp.Expr:
    """M(eps) = N(eps) / log T (``eq:number of samples main paper``).

    Returns
    -------
    sympy.Expr
    """
    return N_eps() / sp.log(T)


def ucb_radius(tau_: sp.Expr | float | int = tau) -> sp.Expr:
    """Wasserstein radius of the confidence set C_t(i).

    Implements ``eq:UCB_confidence_sets``: 16 (sqrt(2 e log T) + 32) / sqrt(tau).

    Parameters
    ----------
    tau_ : sympy.Expr or number, optional
        Number of samples tau_t^U(i) of the arm (default: the symbol ``tau``).

    Returns
    -------
    sympy.Expr
    """
    return 16 * (sp.sqrt(2 * _E * sp.log(T)) + 32) / sp.sqrt(sp.sympify(tau_))


def delta_error_bound() -> sp.Expr:
    """Upper bound on the discretisation error Delta(eps).

    Implements ``lemma:Delta_error``: Delta(eps) <= L (K W)^r (eps/2)^r.

    Returns
    -------
    sympy.Expr
    """
    return L * (K * W) ** r * (eps / 2) ** r


@dataclass(frozen=True)
class EpsBound:
    """An eps-dependent regret bound with its side conditions as data.

    Attributes
    ----------
    expression : sympy.Expr
        ``discrete_regret + Delta_eps`` (``eq:regret_decomposition``).
    discrete_regret : sympy.Expr
        The bound on the discrete regret (``eq:regret_decomposition2``).
    side_conditions : tuple of sympy relationals
        Conditions on T under which the theorem states the bound.
    parameter_ranges : tuple of sympy relationals
        Standing ranges of the parameters (q in (0, 1], rho in (0, 1)).
    label : str
        The paper label implemented.
    """

    expression: sp.Expr
    discrete_regret: sp.Expr
    side_conditions: tuple
    parameter_ranges: tuple
    label: str


def etc_bound_eps() -> EpsBound:
    """RS-ETC-M regret bound for a fixed eps.

    Implements ``theorem: ETC upper bound``::

        R^E(T) <= (L K + W^-q) (3 W M(eps) log T / T)^q + Delta(eps),
        valid for T > N(eps).

    Returns
    -------
    EpsBound
        ``side_conditions == (T > N(eps),)``.
    """
    discrete = (L * K + W ** (-q)) * (3 * W * M_eps() * sp.log(T) / T) ** q
    return EpsBound(
        expression=discrete + Delta_eps,
        discrete_regret=discrete,
        side_conditions=(sp.StrictGreaterThan(T, N_eps()),),
        parameter_ranges=(sp.Le(q, 1),),
        label="theorem: ETC upper bound",
    )


def ucb_bound_eps() -> EpsBound:
    """RS-UCB-M / CE-UCB-M regret bound for a fixed eps.

    Implements ``theorem:UCB upper bound`` (``eq:UCB regret``)::

        R^pi(T) <= [B + L (W^q + 1)] [64/sqrt(eps rho T) (sqrt(2 e log T) + 32)]^q
                   + Delta(eps),   valid for T > max(e^K, T(eps)).

    Returns
    -------
    EpsBound
        ``side_conditions == (T > exp(K), T > T_eps)``; the numeric T(eps) is
        :func:`T_of_eps`.
    """
    discrete = (B + L * (W**q + 1)) * (
        64 / sp.sqrt(eps * rho * T) * (sp.sqrt(2 * _E * sp.log(T)) + 32)
    ) ** q
    return EpsBound(
        expression=discrete + Delta_eps,
        discrete_regret=discrete,
        side_conditions=(
            sp.StrictGreaterThan(T, sp.exp(K)),
            sp.StrictGreaterThan(T, T_eps),
        ),
        parameter_ranges=(sp.Le(q, 1), sp.StrictLessThan(rho, 1)),
        label="theorem:UCB upper bound",
    )


def Q_condition(s_: sp.Expr = s) -> sp.Rel:
    """Membership inequality of the set Q (section ``sec:analysis``).

    ``(sqrt(2 e log s) + 32) / sqrt(rho s eps / 4) <= (1/16) (Delta_min / (2 K L))^(1/q)``.

    Parameters
    ----------
    s_ : sympy.Expr, optional
        The time index (default: the symbol ``s``).

    Returns
    -------
    sympy.Rel
    """
    lhs = (sp.sqrt(2 * _E * sp.log(s_)) + 32) / sp.sqrt(rho * s_ * eps / 4)
    rhs = sp.Rational(1, 16) * (Delta_min / (2 * K * L)) ** (1 / q)
    return sp.Le(lhs, rhs)


def T_eps_definition() -> sp.Expr:
    """T(eps) = (2/eps) (T_0(eps) - 1) in terms of the symbol ``T_0``.

    Implements the definition of T(eps) in section ``sec:analysis``; it
    coincides with ``eq:T_epsilon_actual`` (T_0 + m with ``eq:m``), see
    :func:`T_eps_matches_appendix`.

    Returns
    -------
    sympy.Expr
    """
    return 2 / eps * (T0_eps - 1)


def T_eps_matches_appendix() -> bool:
    """Check T_0 + m (``eq:T_epsilon_actual``, ``eq:m``) == (2/eps)(T_0 - 1).

    Returns
    -------
    bool
    """
    m = (2 / eps - 1) * T0_eps - 2 / eps
    return sp.simplify(T0_eps + m - T_eps_definition()) == 0


# ------------------------------ numeric T_0 -------------------------------
_WORK_DPS = 50


def _q_threshold(eps_, rho_, Delta_min_, K_, L_, q_):
    """Right side of Q and the factor 2/sqrt(rho eps) of its left side (mpf)."""
    rhs = mpmath.mpf(1) / 16 * (mpmath.mpf(Delta_min_) / (2 * mpmath.mpf(K_) * mpmath.mpf(L_))) ** (
        1 / mpmath.mpf(q_)
    )
    return rhs, 2 / mpmath.sqrt(mpmath.mpf(rho_) * mpmath.mpf(eps_))


def in_Q(s_: int, eps: float, rho: float, Delta_min: float, K: int, L: float, q: float) -> bool:
    """Membership of the integer ``s_ >= 1`` in the set Q (section ``sec:analysis``).

    Evaluated with mpmath at 50 significant digits so that neighbours
    ``s`` and ``s - 1`` are resolved even for s ~ 1e15.

    Parameters
    ----------
    s_ : int
        Time index, ``s_ >= 1``.
    eps, rho, Delta_min, K, L, q : float
        Discretisation level, exploration rate, Delta_min(eps), number of arms,
        Hölder constant and exponent.

    Returns
    -------
    bool
    """
    if s_ < 1:
        raise ValueError("Q is defined on the natural numbers s >= 1")
    with mpmath.workdps(_WORK_DPS):
        rhs, factor = _q_threshold(eps, rho, Delta_min, K, L, q)
        sv = mpmath.mpf(int(s_))
        lhs = (mpmath.sqrt(2 * mpmath.e * mpmath.log(sv)) + 32) * factor / mpmath.sqrt(sv)
        return bool(lhs <= rhs)


def Q_tail_start() -> float:
    """Point s* beyond which the left side of Q is strictly decreasing in s.

    With a = sqrt(2e) and x = sqrt(log s), d/ds log[(a x + 32)/sqrt(s)] has the
    sign of a - x (a x + 32); it is negative iff a x^2 + 32 x - a > 0, i.e.
    x > x* = (-32 + sqrt(1024 + 4 a^2)) / (2 a); s* = exp(x*^2) ~ 1.0053.

    Returns
    -------
    float
    """
    a = math.sqrt(2 * math.e)
    x_star = (-32 + math.sqrt(1024 + 4 * a * a)) / (2 * a)
    return math.exp(x_star**2)


@dataclass(frozen=True)
class TofEps:
    """T_0(eps) and T(eps) of section ``sec:analysis``.

    Attributes
    ----------
    T0 : int
        inf{t in N : s in Q for all s >= t}.
    T_eps : float
        (2/eps)(T0 - 1).
    tail_start : int
        First integer of the strictly decreasing tail of Q's left side.
    """

    T0: int
    T_eps: float
    tail_start: int


def T_of_eps(eps: float, rho: float, Delta_min: float, K: int, L: float, q: float) -> TofEps:
    """Compute T_0(eps) and T(eps) (definitions before ``theorem:UCB upper bound``).

    The left side of the Q inequality is strictly decreasing for
    s > :func:`Q_tail_start` (so on the integers s >= 2), hence Q restricted
    to that tail is an interval [t1, oo).  t1 is found by doubling and integer
    bisection; then the integers below the tail start are walked down while
    they stay in Q.  The result is verified: T0 in Q, T0 - 1 not in Q (or
    T0 = 1), and T0, 2 T0, 10 T0, 1000 T0 in Q.

    Parameters
    ----------
    eps, rho, Delta_min, K, L, q : float
        As in :func:`in_Q`.

    Returns
    -------
    TofEps

    Raises
    ------
    ArithmeticError
        If the verification fails.
    """
    for name, val in (("eps", eps), ("rho", rho), ("Delta_min", Delta_min), ("K", K), ("L", L), ("q", q)):
        if not val > 0:
            raise ValueError(f"{name} must be positive, got {val!r}")
    args = (eps, rho, Delta_min, K, L, q)
    start = max(1, math.ceil(Q_tail_start()))
    if in_Q(start, *args):
        t = start
    else:
        lo, hi = start, 2 * start
        while not in_Q(hi, *args):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:  # invariant: lo not in Q, hi in Q
            mid = (lo + hi) // 2
            if in_Q(mid, *args):
                hi = mid
            else:
                lo = mid
        t = hi
    while t > 1 and in_Q(t - 1, *args):
        t -= 1
    ok = in_Q(t, *args) and (t == 1 or not in_Q(t - 1, *args))
    ok = ok and all(in_Q(m * t, *args) for m in (2, 10, 1000))
    if not ok:
        raise ArithmeticError("T_0(eps) verification failed")
    return TofEps(T0=t, T_eps=2.0 / eps * (t - 1), tail_start=start)


# --------------------------------------------------------------------------
# eps-independent exponents
# --------------------------------------------------------------------------
def gamma_E(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """gamma = 2 beta / (2 beta + r) of ``theorem:RS-ETC-M`` (q unused).

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 2 * beta / (2 * beta + r)


def kappa(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """kappa = (2 beta / q + 2)^-1 of ``corollary:RS-UCB-M`` (r unused).

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 1 / (2 * beta / q + 2)


def c_E(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K-exponent c_E = 2 (1 + (beta + 1)/q) of ``theorem:RS-ETC-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return 2 * (1 + (beta + 1) / q)


def c_U(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K-exponent c_U = max(r (1 + 2 kappa / q), 1 - kappa) of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    k = kappa(q, r, beta)
    return sp.Max(r * (1 + 2 * k / q), 1 - k)


def etc_rate(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """[K^c_E log T / T^gamma]^(q r / (2 beta)) of ``theorem:RS-ETC-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return (K ** c_E(q, r, beta) * sp.log(T) / T ** gamma_E(q, r, beta)) ** (q * r / (2 * beta))


def ucb_rate(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """K^c_U (log T / T)^(r kappa) of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return K ** c_U(q, r, beta) * (sp.log(T) / T) ** (r * kappa(q, r, beta))


def ucb_side_condition(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Basic:
    """The hypothesis r <= beta + q/2 of ``corollary:RS-UCB-M``.

    Returns
    -------
    sympy.Rel or sympy.logic.boolalg.BooleanAtom
        A relational for symbolic arguments, ``sympy.true``/``sympy.false``
        for numbers.
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    return sp.Le(r, beta + q / 2)


def ucb_exponent_unconditional(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> sp.Expr:
    """Exponent of log T / T in RS-UCB-M's regret without r <= beta + q/2.

    From ``eq:UCB upper bound appendix`` the regret is the larger of the two
    terms, i.e. the exponent is min(r kappa, (1 - kappa) q / 2); it equals
    r kappa exactly under ``corollary:RS-UCB-M``'s hypothesis.

    Returns
    -------
    sympy.Expr
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    k = kappa(q, r, beta)
    return sp.Min(r * k, (1 - k) * q / 2)


@dataclass(frozen=True)
class RateOrder:
    """T-decay and log-power of the two eps-independent rates.

    Attributes
    ----------
    etc_T_decay, ucb_T_decay : sympy.Expr
        d such that the rate is T^-d (log T)^l: q r/(2 beta + r) and
        q r/(2 beta + 2 q).
    etc_log_power, ucb_log_power : sympy.Expr
        q r/(2 beta) and r kappa.
    T_decay_difference : sympy.Expr
        etc_T_decay - ucb_T_decay (positive: RS-ETC-M's bound decays faster).
    """

    etc_T_decay: sp.Expr
    ucb_T_decay: sp.Expr
    etc_log_power: sp.Expr
    ucb_log_power: sp.Expr
    T_decay_difference: sp.Expr


def compare_etc_ucb(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> RateOrder:
    """Compare the rates of ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M`` in T.

    For the claim of section ``RS_UCB_M`` (Discussion) that RS-ETC-M is better
    for Wang's right-tail deviation and RS-UCB-M for Gini deviation.  The
    T-decays q r/(2 beta + r) and q r/(2 beta + 2 q) coincide iff r = 2 q
    (both of those DRs); the log powers then differ.

    Returns
    -------
    RateOrder
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    etc = etc_rate(q, r, beta)
    ucb = ucb_rate(q, r, beta)
    e_T, u_T = -_log_derivative(etc, T), -_log_derivative(ucb, T)
    return RateOrder(
        etc_T_decay=sp.simplify(e_T),
        ucb_T_decay=sp.simplify(u_T),
        etc_log_power=_log_derivative(etc, ell),
        ucb_log_power=_log_derivative(ucb, ell),
        T_decay_difference=sp.factor(sp.simplify(e_T - u_T)),
    )


# ------------------------------ exponent reader ---------------------------
def _log_derivative(expr: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """lim_{x->oo} x d/dx log(expr), with log T replaced by ``ell``."""
    e = sp.expand_log(sp.sympify(expr), force=True).subs(sp.log(T), ell)
    le = sp.expand_log(sp.log(e), force=True)
    d = sp.simplify(x * sp.diff(le, x))
    if x in d.free_symbols:
        d = sp.limit(d, x, sp.oo)
    return sp.simplify(d)


@dataclass(frozen=True)
class TermExponents:
    """Leading behaviour C K^K_exponent T^T_exponent (log T)^log_exponent.

    Attributes
    ----------
    T_exponent, K_exponent, log_exponent : sympy.Expr
    """

    T_exponent: sp.Expr
    K_exponent: sp.Expr
    log_exponent: sp.Expr


def term_exponents(expr: sp.Expr) -> TermExponents:
    """Read off the (T, K, log T) exponents of a rate expression.

    Used to re-derive ``theorem:RS-ETC-M`` and ``corollary:RS-UCB-M``
    (see the module docstring, "Exponent extraction").

    Parameters
    ----------
    expr : sympy.Expr
        A product of powers of T, K, log T and factors with a power-law limit.

    Returns
    -------
    TermExponents
    """
    return TermExponents(
        T_exponent=_log_derivative(expr, T),
        K_exponent=_log_derivative(expr, K),
        log_exponent=_log_derivative(expr, ell),
    )


# ------------------------------ ETC derivation ----------------------------
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


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0


def _same_exponents(a: TermExponents, b: TermExponents) -> bool:
    return (
        _same(a.T_exponent, b.T_exponent)
        and _same(a.K_exponent, b.K_exponent)
        and _same(a.log_exponent, b.log_exponent)
    )


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
    derived_equal = _same(d_ex.T_exponent.subs(g, gE), s_ex.T_exponent.subs(g, gE))
    minimax = bool(
        sp.diff(ad_ex.T_exponent, g).is_negative and sp.diff(as_ex.T_exponent, g).is_positive
    )
    th = term_exponents(etc_rate())
    theorem_matches = _same_exponents(
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
        gamma_equalises=bool(len(sols) == 1 and _same(gamma_solution, gE) and derived_equal),
        gamma_is_minimax=minimax,
        theorem_matches_delta=theorem_matches,
        delta_matches_appendix=_same_exponents(d_ex, ad_ex),
        discrete_T_matches_appendix=_same(s_ex.T_exponent, as_ex.T_exponent)
        and _same(s_ex.log_exponent, as_ex.log_exponent),
        discrete_K_matches_appendix=_same(s_ex.K_exponent, as_ex.K_exponent),
        theorem_K_covers_discrete=sp.Ge(sp.simplify(c_E() * q * r / (2 * beta)), s_ex.K_exponent),
    )


# ------------------------------ UCB derivation ----------------------------
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
    equivalent = bool(_same(diff, factor) and k.is_positive)

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
        c_U_matches=_same(c_U(), sp.Max(d_ex.K_exponent, ap_ex.K_exponent)),
        delta_matches_appendix=_same_exponents(d_ex, apd_ex),
        discrete_matches_appendix=_same(th_ex.T_exponent, ap_ex.T_exponent)
        and _same(th_ex.log_exponent, ap_ex.log_exponent),
        discrete_K_theorem_vs_appendix=_same(th_ex.K_exponent, ap_ex.K_exponent),
        feasibility=term_exponents(T_eps_lead),
    )


# --------------------------------------------------------------------------
# Table 1 in powers of varpi
# --------------------------------------------------------------------------
def varpi(x: sp.Expr) -> sp.Expr:
    """varpi(x) = sqrt(log x / x) (caption of ``table:table_regrets``).

    Returns
    -------
    sympy.Expr
    """
    x = sp.sympify(x)
    return sp.sqrt(sp.log(x) / x)


def varpi_form(rate: sp.Expr, gamma_value: sp.Expr = gamma_sym) -> tuple[sp.Expr, str]:
    """Write a rate ~ T^a (log T)^b as varpi(T)^e or varpi(T^gamma)^e.

    The notation of ``table:table_regrets`` and
    ``table:literature_comparison``.

    varpi(T)^e requires e = -2a = 2b; varpi(T^gamma)^e requires
    e = -2a/gamma = 2b.

    Parameters
    ----------
    rate : sympy.Expr
    gamma_value : sympy.Expr, optional
        The value of gamma in the argument T^gamma.

    Returns
    -------
    (sympy.Expr, str)
        Exponent and argument (``"T"`` or ``"T^gamma"``).

    Raises
    ------
    ValueError
        If the rate is of neither form.
    """
    a = _log_derivative(rate, T)
    b = _log_derivative(rate, ell)
    if _same(-2 * a, 2 * b):
        return sp.simplify(2 * b), "T"
    if _same(-2 * a / gamma_value, 2 * b):
        return sp.simplify(2 * b), "T^gamma"
    raise ValueError(f"rate T^({a}) (log T)^({b}) is not a power of varpi(T) or varpi(T^gamma)")


@dataclass(frozen=True)
class VarpiIdentity:
    """[log T / T^gamma]^p = (varpi(T^gamma)^2 / gamma)^p, p = q r / (2 beta).

    Attributes
    ----------
    lhs, rhs : sympy.Expr
    base_difference : sympy.Expr
        Simplified log T/T^gamma - varpi(T^gamma)^2/gamma (zero).
    holds : bool
    varpi_exponent : sympy.Expr
        2 p = q r / beta.
    """

    lhs: sp.Expr
    rhs: sp.Expr
    base_difference: sp.Expr
    holds: bool
    varpi_exponent: sp.Expr


def etc_varpi_identity(q: sp.Expr = q, r: sp.Expr = r, beta: sp.Expr = beta) -> VarpiIdentity:
    """Rewrite the rate of ``theorem:RS-ETC-M`` in varpi(T^gamma).

    Returns
    -------
    VarpiIdentity
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    p = q * r / (2 * beta)
    g = gamma_sym
    base_l = sp.log(T) / T**g
    base_r = varpi(T**g) ** 2 / g
    diff = sp.simplify(sp.expand_log(base_l - base_r, force=True))
    return VarpiIdentity(
        lhs=base_l**p,
        rhs=base_r**p,
        base_difference=diff,
        holds=diff == 0,
        varpi_exponent=sp.simplify(2 * p),
    )


@dataclass(frozen=True)
class TableRates:
    """One row of ``table:table_regrets`` re-derived, in powers of varpi.

    Attributes
    ----------
    ucb_exponent : sympy.Expr
        e with R^U = O(varpi(T)^e) (``corollary:RS-UCB-M``): 2 r kappa.
    etc_exponent : sympy.Expr
        e with R^E = O(varpi(arg)^e).
    etc_argument : str
        ``"T"`` (solitary optimum) or ``"T^gamma"`` (mixture).
    ucb_condition : sympy.Basic
        r <= beta + q/2, under which ``ucb_exponent`` is valid.
    """

    ucb_exponent: sp.Expr
    etc_exponent: sp.Expr
    etc_argument: str
    ucb_condition: sp.Basic = sp.true


def table_rates(q: sp.Expr, r: sp.Expr, beta: sp.Expr, solitary: bool) -> TableRates:
    """Re-derive the two regret cells of ``table:table_regrets``.

    * UCB: ``ucb_rate(q, r, beta)`` -> varpi(T)^(2 r kappa).
    * ETC, solitary optimum: the optimal vertex lies on the grid
      ``eq:etc_discrete_set``, so Delta(eps) = 0 and Delta_min does not shrink
      for a fixed eps; the regret is the discrete regret of
      ``theorem: ETC upper bound`` ~ (log T / T)^q = varpi(T)^(2q).
    * ETC, mixture: ``etc_rate(q, r, beta)`` = [log T/T^gamma]^(qr/(2 beta))
      -> varpi(T^gamma)^(q r / beta) (see :func:`etc_varpi_identity`).

    Parameters
    ----------
    q, r, beta : sympy.Expr or number
        Hölder exponents and gap exponent (``table:table_risks``); ``beta``
        may be a Symbol when unknown.
    solitary : bool
        Whether the optimal policy is a single arm.

    Returns
    -------
    TableRates
    """
    q, r, beta = map(sp.sympify, (q, r, beta))
    ucb_e, ucb_arg = varpi_form(ucb_rate(q, r, beta))
    if ucb_arg != "T":  # pragma: no cover - (log T/T)^(r kappa) is always varpi(T)-form
        raise ArithmeticError("UCB rate is not a power of varpi(T)")
    if solitary:
        disc = etc_bound_eps().discrete_regret.subs(_Q, q)
        etc_e, etc_arg = varpi_form(disc)
    else:
        etc_e, etc_arg = varpi_form(etc_rate(q, r, beta), gamma_value=gamma_E(q, r, beta))
    return TableRates(
        ucb_exponent=sp.simplify(ucb_e),
        etc_exponent=sp.simplify(etc_e),
        etc_argument=etc_arg,
        ucb_condition=ucb_side_condition(q, r, beta),
    )


def format_varpi(exponent: sp.Expr, argument: str = "T") -> str:
    """Format varpi(argument)^exponent, e.g. ``"varpi^(1/6)"``, ``"varpi^(1/beta)(T^gamma)"``.

    Cells in the notation of ``table:table_regrets``; inverse of
    :func:`parse_varpi`.

    Parameters
    ----------
    exponent : sympy.Expr
    argument : {"T", "T^gamma"}

    Returns
    -------
    str
    """
    if argument not in _ARGUMENTS:
        raise ValueError(f"argument must be one of {_ARGUMENTS}")
    e = sp.simplify(sp.sympify(exponent))
    if e == 1:
        core = "varpi"
    elif (e.is_Integer and e > 0) or e.is_Symbol:
        core = f"varpi^{e}"
    else:
        core = f"varpi^({e})"
    return core if argument == "T" else f"{core}({argument})"


_PARSE_LOCALS = {
    "kappa": kappa_sym,
    "beta": beta,
    "gamma": gamma_sym,
    "q": q,
    "r": r,
    "T": T,
}
_TRANSFORMS = standard_transformations + (implicit_multiplication, convert_xor)


def _balanced(text: str, i: int) -> int:
    """Index just past the parenthesis group opening at text[i] == '('."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError(f"unbalanced parentheses in {text!r}")


def _parse(text: str) -> sp.Expr:
    """Parse an exponent/argument; only the names of ``_PARSE_LOCALS`` are allowed."""
    if not re.fullmatch(r"[0-9A-Za-z.+\-*/^() ]+", text):
        raise ValueError(f"illegal characters in {text!r}")
    unknown = set(re.findall(r"[A-Za-z]+", text)) - set(_PARSE_LOCALS)
    if unknown:
        raise ValueError(f"unknown names {sorted(unknown)} in {text!r}")
    return parse_expr(text, local_dict=dict(_PARSE_LOCALS), transformations=_TRANSFORMS, evaluate=True)


def parse_varpi(text: str) -> tuple[sp.Expr, str]:
    """Parse a printed varpi cell into (exponent, argument).

    For the cells of ``table:table_regrets`` and
    ``table:literature_comparison``.

    Accepts ``"varpi"``, ``"varpi^2"``, ``"varpi^(2 kappa)"``,
    ``"varpi^(1/(2 beta))(T^gamma)"``, the output of :func:`format_varpi`,
    and light LaTeX (``\\varpi^{1/2}(T)``, ``$O(...)$`` wrappers).  Exponents
    are in the symbols ``kappa`` (:data:`kappa_sym`), ``beta``, ``q``, ``r``;
    juxtaposition is multiplication with the usual precedence, so the
    paper's ``1/2\\beta`` reads as beta/2 — write ``1/(2 beta)``.

    Parameters
    ----------
    text : str

    Returns
    -------
    (sympy.Expr, str)
        Exponent and argument ``"T"`` or ``"T^gamma"``.
    """
    t = text.strip().replace("$", "")
    t = re.sub(r"\\(varpi|kappa|beta|gamma)", r"\1", t)
    t = t.replace("{", "(").replace("}", ")").replace("\\", "")
    m = re.fullmatch(r"O\s*\((.*)\)", t)
    if m:
        t = m.group(1).strip()
    if not t.startswith("varpi"):
        raise ValueError(f"not a varpi cell: {text!r}")
    i = len("varpi")
    exponent: sp.Expr = sp.Integer(1)
    if i < len(t) and t[i] == "^":
        i += 1
        if i < len(t) and t[i] == "(":
            j = _balanced(t, i)
            exponent = _parse(t[i + 1 : j - 1])
            i = j
        else:
            m = re.match(r"[0-9.]+|[A-Za-z]+", t[i:])
            if not m:
                raise ValueError(f"missing exponent in {text!r}")
            exponent = _parse(m.group(0))
            i += m.end()
    rest = t[i:].strip()
    argument = "T"
    if rest:
        if not rest.startswith("(") or _balanced(rest, 0) != len(rest):
            raise ValueError(f"cannot parse argument {rest!r} in {text!r}")
        arg = _parse(rest[1:-1])
        if arg == T:
            argument = "T"
        elif arg == T**gamma_sym:
            argument = "T^gamma"
        else:
            raise ValueError(f"argument must be T or T^gamma, got {arg}")
    return exponent, argument


@dataclass(frozen=True)
class RateComparison:
    """Outcome of comparing a printed exponent with a derived one.

    Attributes
    ----------
    equal : bool
        Exponents equal (and arguments, when compared) after kappa -> kappa(q, beta).
    difference : sympy.Expr
        Simplified printed - derived (0 when the exponents agree).
    argument_equal : bool
        True unless :func:`compare_cell` found different arguments.

    ``bool(comparison)`` is ``equal``.
    """

    equal: bool
    difference: sp.Expr
    argument_equal: bool = True

    def __bool__(self) -> bool:
        return self.equal


def same_rate(
    printed_exponent: sp.Expr, derived_exponent: sp.Expr, q: sp.Expr, r: sp.Expr, beta: sp.Expr = beta
) -> RateComparison:
    """Decide symbolically whether a printed varpi exponent equals a derived one.

    The symbol kappa in ``printed_exponent`` is replaced by
    kappa(q, beta) = (2 beta/q + 2)^-1 (``corollary:RS-UCB-M``).

    Parameters
    ----------
    printed_exponent, derived_exponent : sympy.Expr
    q, r : sympy.Expr or number
    beta : sympy.Expr or number, optional
        Defaults to the symbol ``beta`` (unknown beta).

    Returns
    -------
    RateComparison
    """
    q_, r_, b_ = map(sp.sympify, (q, r, beta))
    subs = {kappa_sym: kappa(q_, r_, b_), _Q: q_, _R: r_, _BETA: b_}
    p = sp.sympify(printed_exponent).subs(subs)
    d = sp.sympify(derived_exponent).subs(subs)
    diff = sp.simplify(sp.together(p - d))
    return RateComparison(equal=bool(diff == 0), difference=diff)


def compare_cell(
    printed: str, derived_exponent: sp.Expr, derived_argument: str, q: sp.Expr, r: sp.Expr, beta: sp.Expr = beta
) -> RateComparison:
    """Compare a printed cell (string) with a derived (exponent, argument).

    Cells of ``table:table_regrets`` / ``table:literature_comparison``; the
    exponent is compared by :func:`same_rate`.

    Returns
    -------
    RateComparison
        ``equal`` requires both exponent and argument to agree.
    """
    e, a = parse_varpi(printed)
    cmp = same_rate(e, derived_exponent, q, r, beta)
    arg_ok = a == derived_argument
    return RateComparison(equal=cmp.equal and arg_ok, difference=cmp.difference, argument_equal=arg_ok)


# --------------------------------------------------------------------------
# Numeric helpers
# --------------------------------------------------------------------------
def numeric_in_T(expr: sp.Expr, values: Mapping[sp.Symbol, float]) -> Callable[[float], float]:
    """Turn a bound into a float function of T after substituting ``values``.

    For numeric vacuity checks of ``theorem: ETC upper bound`` and
    ``theorem:UCB upper bound`` (mpmath evaluation, no overflow).

    Parameters
    ----------
    expr : sympy.Expr
    values : mapping Symbol -> number
        Must fix every free symbol except ``T``.

    Returns
    -------
    callable
    """
    e = sp.sympify(expr).subs(dict(values))
    free = e.free_symbols - {T}
    if free:
        raise ValueError(f"unassigned symbols: {sorted(map(str, free))}")
    f = sp.lambdify(T, e, "mpmath")
    return lambda t: float(f(mpmath.mpf(t)))


def smallest_nontrivial_T(
    bound_fn: Callable[[float], float],
    trivial: float,
    T_max: float,
    T_min: int = 2,
    points_per_doubling: int = 4,
) -> int | None:
    """Smallest integer T from which a bound stays below a trivial value.

    Vacuity check for the bounds of ``sec:analysis`` (e.g. the regret is
    trivially at most the range of U_h).

    Evaluates ``bound_fn`` on a geometric grid from ``T_min`` to ``T_max``
    (``points_per_doubling`` points per factor 2), takes the last grid point
    where ``bound_fn >= trivial`` (or is nan), and bisects on the integers
    between it and the next grid point for the crossing.  For bounds that are
    eventually decreasing (all bounds of this module) this is the horizon
    from which the bound is non-vacuous; between grid points monotonicity is
    assumed.

    Parameters
    ----------
    bound_fn : callable float -> float
    trivial : float
        E.g. the largest possible regret.
    T_max : float
    T_min : int, optional
    points_per_doubling : int, optional

    Returns
    -------
    int or None
        None if the bound is not below ``trivial`` at ``T_max``.
    """

    def below(t: float) -> bool:
        v = bound_fn(t)
        return v == v and v < trivial

    T_min = int(T_min)
    T_max_i = int(math.floor(T_max))
    if T_max_i < T_min:
        raise ValueError("T_max < T_min")
    ratio = 2.0 ** (1.0 / points_per_doubling)
    grid = [T_min]
    while grid[-1] < T_max_i:
        nxt = max(grid[-1] + 1, int(math.floor(grid[-1] * ratio)))
        grid.append(min(nxt, T_max_i))
    flags = [below(t) for t in grid]
    if not flags[-1]:
        return None
    last_bad = max((i for i, f in enumerate(flags) if not f), default=None)
    if last_bad is None:
        return T_min
    lo, hi = grid[last_bad], grid[last_bad + 1]  # lo not below, hi below
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(mid):
            hi = mid
        else:
            lo = mid
    return hi
