"""The T-exponent of the paper's regret bounds along an eps schedule, read off the theorems' expressions.

For one (algorithm, instance) and an eps schedule eps(T) the bound the paper
proves is regret = O(T^x (log T)^y).  Nothing here is typed in: each term is an
expression of :mod:`rsb_theory.rates`, with the instance's q, r, beta and K and
the schedule substituted, and its exponents are read by
:func:`rsb_theory.rates.term_exponents`:

* UCBs (``theorem:UCB upper bound``): the discrete term
  :func:`rsb_theory.rates.ucb_bound_eps` and Delta(eps) <= L (K W)^r (eps/2)^r
  (:func:`rsb_theory.rates.delta_error_bound`, ``lemma:Delta_error``);
* RS-ETC-M (``theorem: ETC upper bound``): the discrete term
  :func:`rsb_theory.rates.etc_bound_eps` with Delta_min(eps) = eps^beta and
  Delta(eps) for a mixture optimum; for a solitary optimum the vertex is on the
  etc grid (Delta(eps) = 0) and Delta_min(eps) does not shrink (a constant);
* eps rule ``theorem``: the eps-independent rates of ``theorem:RS-ETC-M`` and
  ``corollary:RS-UCB-M`` (:func:`rsb_theory.rates.table_rates`), varpi(.)^e
  read the same way.

The bound's rate is its slowest term.  These bounds only hold for T > N(eps)
(ETC) and T > max(e^K, T(eps)) (UCB); with eps ~ T^(-1/2) both side conditions
fail for all large T when beta > 0 (``theorem:UCB upper bound#experiments``).

Sign convention (every exponent rsb prints): x is the exponent of T in the
regret, the quantity a log-log slope measures; x < 0 is a decaying bound, x > 0
a growing one.  :func:`format_rate` writes T^(x) (log T)^(y) with explicit signs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from rsb_theory import expressions, rates
from rsb_sim.policies import catalog

from .eps_rules import EXPERIMENTS_EPS
from rsb_theory.errors import ArgumentError

_T, _K = rates.T, rates.K


def _bound_kind(algo: str) -> str | None:
    """Which of the paper's bounds ``algo`` has, by the grid of its declaration: ``etc`` (``theorem: ETC upper
    bound``), ``ucb`` (``theorem:UCB upper bound``), None (no bound of the paper)."""
    policy = catalog.get(algo)
    return policy.grid if policy.theorem is not None else None


@dataclass(frozen=True)
class DerivedRate:
    """regret = O(T^slope (log T)^log_power) for the eps schedule used.

    Attributes
    ----------
    slope : float or None
        Exponent of T (negative: decaying); None when the paper proves no bound.
    log_power : float or None
    rate : str
        :func:`format_rate` of the two, or ``"none"``.
    source : str
        Where it comes from: the theorem, the terms and the slowest one.
    beta : float or None
        The gap exponent used (``lemma:beta``), if any.
    beta_estimated : bool
        beta is a numerical estimate, not a closed form.
    """

    slope: float | None
    log_power: float | None
    rate: str
    source: str
    beta: float | None
    beta_estimated: bool

    @property
    def exponent(self) -> float | None:
        """The decay rate e = -slope (regret = O(T^-e)): the historical ``derived_exponent``."""
        return None if self.slope is None else -self.slope


def format_exponent(x: float) -> str:
    """``+0.961``, ``-0.25``, ``0``: an exponent with its sign, 4 significant digits."""
    if x == 0:
        return "0"
    return f"{x:+.4g}"


def format_rate(slope: float | None, log_power: float | None) -> str:
    """``T^(-0.25) (log T)^(+0.25)``; the log factor is left out when its power is 0; ``none`` without a rate."""
    if slope is None:
        return "none"
    text = f"T^({format_exponent(slope)})"
    if log_power:
        text += f" (log T)^({format_exponent(log_power)})"
    return text


def _show(x) -> str:
    """An exact exponent as printed; one with a long denominator (from an estimated beta) as 4 digits."""
    if isinstance(x, sp.Rational) and x.q > 1000:
        return f"{float(x):.4g}"
    return str(x)


def _exact(x) -> sp.Expr:
    """A SymPy number for q, r, beta: exact values as they are, a float estimate as a close rational."""
    if isinstance(x, sp.Basic):
        return x
    if isinstance(x, int):
        return sp.Integer(x)
    return sp.Rational(float(x)).limit_denominator(10**6)


# ---------------------------------------------------------------------------
# eps schedules
# ---------------------------------------------------------------------------
def theorem_eps_expr(algo: str, q, r, beta) -> sp.Expr:
    """eps of ``corollary:RS-UCB-M`` (UCBs) or ``theorem:RS-ETC-M`` (ETC), with Theta(.) = 1."""
    q, r, beta = map(_exact, (q, r, beta))
    if _bound_kind(algo) == "etc":
        gamma = rates.gamma_E(q, r, beta)
        return (_K ** (2 + 2 / q) * _T ** (-gamma) * sp.log(_T)) ** (q / (2 * beta))
    return (_K ** (2 / q) * sp.log(_T) / _T) ** rates.kappa(q, r, beta)


def eps_schedule(rule: str, algo: str, K: int, q=None, r=None, beta=None) -> tuple[sp.Expr, float, float]:
    """(eps(T) with K substituted, a, b) with eps ~ T^-a (log T)^b.

    ``rule`` is ``experiments``, ``theorem`` (needs q, r, beta), a number or an
    expression in T and K (read by :func:`rsb_theory.expressions.to_sympy`).
    """
    if rule == "experiments":
        e = expressions.to_sympy(EXPERIMENTS_EPS, "eps", {"T": _T, "K": _K})
    elif rule == "theorem":
        if beta is None:
            raise ArgumentError("eps", "the theorem's eps needs beta, which is unknown for this instance")
        e = theorem_eps_expr(algo, q, r, beta)
    else:
        e = expressions.to_sympy(rule, "eps", {"T": _T, "K": _K})
    e = e.subs(_K, K)
    return (e, *eps_exponents(e))


def eps_exponents(e: sp.Expr) -> tuple[float, float]:
    """(a, b) with eps(T) ~ T^-a (log T)^b (0, 0 for a constant eps)."""
    if _T not in e.free_symbols:
        return 0.0, 0.0
    ex = rates.term_exponents(e)
    return float(-ex.T_exponent), float(ex.log_exponent)


def eps_value(expr: sp.Expr, T: int) -> float:
    """eps(T) as a float (ValueError naming ``eps`` outside (0, 1])."""
    v = float(expr.subs(_T, T))
    if not (math.isfinite(v) and 0 < v <= 1):
        raise ArgumentError("eps", f"eps({T}) = {v:.4g} is not in (0, 1]")
    return v


# ---------------------------------------------------------------------------
# the bound's terms and their exponents
# ---------------------------------------------------------------------------
def bound_terms(algo: str, solitary: bool) -> dict[str, sp.Expr]:
    """The terms of the eps-dependent bound of ``algo`` as expressions of :mod:`rsb_theory.rates` (eps free)."""
    delta = rates.delta_error_bound()
    if _bound_kind(algo) == "ucb":
        return {"discrete (theorem:UCB upper bound)": rates.ucb_bound_eps().discrete_regret,
                "Delta(eps) (lemma:Delta_error)": delta}
    etc = rates.etc_bound_eps().discrete_regret
    if solitary:
        return {"discrete (theorem: ETC upper bound, Delta_min constant)": etc}
    return {"discrete (theorem: ETC upper bound, Delta_min ~ eps^beta)": etc.subs(rates.Delta_min, rates.eps ** rates.beta),
            "Delta(eps) (lemma:Delta_error)": delta}


#: The constant of eps ~ c T^-a (log T)^b (only the exponents a, b matter for the terms' exponents).
_C = sp.Symbol("c", positive=True)


@lru_cache(maxsize=128)
def term_slopes(algo: str, solitary: bool, K: int, q, r, beta, a, b) -> tuple:
    """((name, x, y), ...) with term ~ T^x (log T)^y when eps ~ c T^-a (log T)^b (cached: SymPy limits are slow).

    Every term is a product of powers of eps and of functions of T, so its
    exponents depend on eps only through its leading form c T^-a (log T)^b.
    """
    values = {rates.q: q, rates.r: r, rates.K: K}
    if beta is not None:
        values[rates.beta] = beta
    eps_lead = _C * _T ** (-a) * sp.log(_T) ** b
    out = []
    for name, term in bound_terms(algo, solitary).items():
        ex = rates.term_exponents(term.subs(values).subs(rates.eps, eps_lead))
        out.append((name, float(ex.T_exponent), float(ex.log_exponent)))
    return tuple(out)


def _varpi_slope(exponent, argument: str, gamma=None) -> tuple[float, float]:
    """(x, y) of varpi(T)^e or varpi(T^gamma)^e (the notation of ``table:table_regrets``)."""
    arg = _T if argument == "T" else _T ** gamma
    ex = rates.term_exponents(rates.varpi(arg) ** exponent)
    return float(ex.T_exponent), float(ex.log_exponent)


def derived_rate(algo: str, rule: str, eps_expr: sp.Expr | None, K: int, q, r, beta, solitary: bool
                 ) -> tuple[float | None, float | None, str]:
    """(x, y, source) of the bound regret = O(T^x (log T)^y) (see the module docstring).

    Parameters
    ----------
    algo : str
    rule : str
        The eps rule (``theorem`` selects the eps-independent rates).
    eps_expr : sympy.Expr or None
        eps(T) with K substituted (:func:`eps_schedule`); unused for ``theorem``.
    K : int
    q, r, beta
        Hölder exponents and gap exponent of the instance (beta may be None: unknown).
    solitary : bool
        Whether the optimal mixture is a single arm.
    """
    kind = _bound_kind(algo)
    if kind is None:
        if catalog.get(algo).bound_free:
            return None, None, (f"{algo}: not an algorithm of the paper (a baseline or a competitor), no bound in "
                                f"the paper")
        return None, None, f"{algo} sampling: no bound in the paper"
    q, r = _exact(q), _exact(r)
    beta = None if beta is None else _exact(beta)
    ucb = kind == "ucb"
    if rule == "theorem":
        tr = rates.table_rates(q, r, beta, solitary)
        if ucb:
            x, y = _varpi_slope(tr.ucb_exponent, "T")
            return x, y, (f"corollary:RS-UCB-M: varpi(T)^{_show(tr.ucb_exponent)} = {format_rate(x, y)} "
                          f"(r <= beta + q/2: {bool(tr.ucb_condition)})")
        x, y = _varpi_slope(tr.etc_exponent, tr.etc_argument, rates.gamma_E(q, r, beta))
        return x, y, f"theorem:RS-ETC-M: varpi({tr.etc_argument})^{_show(tr.etc_exponent)} = {format_rate(x, y)}"
    if not ucb and not solitary and beta is None:
        return None, None, "theorem: ETC upper bound with Delta_min ~ eps^beta: beta unknown"
    a, b = eps_exponents(eps_expr)
    terms = term_slopes(algo, bool(solitary), int(K), q, r, beta, _exact(a), _exact(b))
    name, x, y = max(terms, key=lambda t: (t[1], t[2]))
    parts = "; ".join(f"{n}: {format_rate(tx, ty)}" for n, tx, ty in terms)
    return x, y, f"eps ~ {format_rate(-a, b)}; slowest term {name}; terms: {parts}"


# ---------------------------------------------------------------------------
# one instance
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _profile(dr: str, params: tuple, p: tuple):
    """instance_profile of (dr, params, p), cached per process (it is deterministic)."""
    from rsb_theory.distortions import resolve
    from rsb_theory.bernoulli_profile import instance_profile

    return instance_profile(resolve(dr, **dict(params)), p, numeric_beta=len(p) <= 4)


def instance_exponents(dr: str, params: tuple, p: tuple):
    """(q, r, beta, beta_estimated, solitary, profile) of one Bernoulli instance (beta None when unknown)."""
    ip = _profile(dr, tuple(params), tuple(p))
    q = ip.holder_instance.q
    r = ip.mixture.r if ip.mixture.r != sp.oo else q
    beta, est = None, False
    if ip.beta_analytic.applies:
        beta = ip.beta_analytic.beta
    elif ip.beta_numeric is not None and math.isfinite(ip.beta_numeric.beta_fit):
        beta, est = float(ip.beta_numeric.beta_fit), True
    return q, r, beta, est, bool(ip.mixture.solitary), ip


def derive_rate(dr: str, params: tuple, p: tuple, algo: str, rule: str) -> tuple[DerivedRate, bool, object, sp.Expr]:
    """The derived rate of ``algo`` on one instance along the eps rule ``rule``.

    Returns
    -------
    (DerivedRate, solitary, profile, eps expression)
    """
    q, r, beta, est, solitary, ip = instance_exponents(dr, params, p)
    K = len(p)
    eps_expr, _a, _b = eps_schedule(rule, algo, K, q, r, beta)
    x, y, src = derived_rate(algo, rule, eps_expr, K, q, r, beta, solitary)
    if est:
        conv = "converged" if ip.beta_numeric.converged else "NOT converged"
        src += f"; beta = {float(beta):.3f} estimated numerically ({conv}: {ip.beta_numeric.evidence()})"
    return (DerivedRate(x, y, format_rate(x, y), src, None if beta is None else float(beta), est), solitary, ip,
            eps_expr)


def derive_rate_laws(dr: str, params: tuple, arms: str, algo: str, rule: str
                     ) -> tuple[DerivedRate, bool, None, sp.Expr]:
    """:func:`derive_rate` for arms of any laws (``--arms``): q of h, r = q, beta unknown.

    r = q is a valid mixture Hölder exponent for any laws (the appendix's paragraph on Hölder
    exponents), so the bound read with it holds, but it may be loose: a sharper r and beta are derived
    for Bernoulli arms only.  Without beta, RS-ETC-M's bound on a mixture-optimal instance is not read
    (``derived_rate`` says so).
    """
    from rsb_theory.distortions import resolve
    from rsb_theory.profile import of
    from rsb_theory.laws import parse_arms
    from rsb_theory.oracle import optimal_mixture_laws

    d = resolve(dr, **dict(params))
    laws = parse_arms(arms)
    q = of(d).q
    solitary = bool(max(optimal_mixture_laws(d, laws).alpha) >= 1.0 - 1e-9)
    K = len(laws)
    eps_expr, _a, _b = eps_schedule(rule, algo, K, q, q, None)
    x, y, src = derived_rate(algo, rule, eps_expr, K, q, q, None, solitary)
    src += "; r = q (valid for any laws, possibly loose: a sharper r and beta are derived for Bernoulli arms only)"
    return DerivedRate(x, y, format_rate(x, y), src, None, False), solitary, None, eps_expr
