"""Regret-rate slopes: the measured decay of the regret in T beside the derived bound (``rsb slopes``).

For one (distortion, algorithm, Bernoulli instance) the horizons ``Ts`` are
simulated with :mod:`rsb_sim` (resumable: :func:`rsb_sim.sweep.sweep` into a
cache directory), and the least-squares slope of log(mean regret) against
log T is fitted.  The confidence interval is a seeded percentile bootstrap
that resamples the trials independently at each T (each horizon runs on its
own reward table, seed ``seed + index of T``, so the horizons are
independent samples).

The *derived exponent* e is the T-exponent of the regret bound the paper
proves for the eps schedule used, regret = O(T^-e (log T)^y):

* eps rule ``theorem`` — the eps-independent choice of ``theorem:RS-ETC-M``
  (eps = (K^(2+2/q) T^-gamma log T)^(q/(2 beta))) and ``corollary:RS-UCB-M``
  (eps = (K^(2/q) log T / T)^kappa), constant Theta(.) = 1; e and y come from
  :func:`rsb_theory.rates.table_rates` for the instance's (q, r, beta)
  (:func:`rsb_theory.profile.instance_profile`).
* any other eps schedule eps(T) = T^-a (log T)^b (default: the experiments'
  sqrt(K log T / T), ``sec: experiments``; or a number, or an expression in
  T and K) — e and y are read off the eps-dependent bounds
  ``theorem: ETC upper bound`` and ``theorem:UCB upper bound`` with
  Delta(eps) <= L (K W)^r (eps/2)^r (``lemma:Delta_error``) and, for
  RS-ETC-M, N(eps) ~ Delta_min(eps)^(-2/q) log T with Delta_min ~ eps^beta
  (constant for a solitary optimum, whose vertex is on the etc grid so that
  Delta(eps) = 0):

  ====================  ============================  =====================
  term                  T-exponent x                  log power y
  ====================  ============================  =====================
  UCB discrete          -(q/2)(1 - a)                 q/2 - q b/2
  ETC discrete, mixture 2 a beta - q                  q - 2 b beta
  ETC discrete, solit.  -q                            q
  Delta(eps)            -a r                          b r
  ====================  ============================  =====================

  The bound's rate is its slowest term; e = -x.  These bounds only hold for
  T > N(eps) (ETC) and T > max(e^K, T(eps)) (UCB); with eps ~ T^(-1/2) both
  side conditions fail for all large T when beta > 0 (see
  ``theorem:UCB upper bound#experiments``), which the result says.

``consistent`` is True when the bootstrap interval of the log-corrected slope
(log(mean regret / (log T)^y) against log T) reaches down to -e + tol, i.e.
the data are compatible with a decay at least as fast as the bound; ``tol``
(default 0.05) absorbs finite-horizon curvature.  Horizons whose mean regret
is <= 0 (log undefined; regret is V* - V(tau/T) >= 0, so this means exactly
0) are left out of the fit and listed in ``excluded_T``; bootstrap replicates
with a non-positive mean at an included T are dropped and counted.

``degenerate`` is True when any run carried a warning of
:func:`rsb_sim.setup.prepare` (the paper's constants: RS-UCB-M's radius >= 1 at
every t below T ~ 4e5, RS-ETC-M's N(eps) ~ 1e16 never commits): the slope then
measures a degenerate algorithm, not the rate of the theorems.  The overrides
``radius_scale``, ``explore``, ``rho`` and ``eps`` give the informative regime.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import sympy as sp

from rsb_sim.args import add_sweep_options, parse_sweep_options
from rsb_sim.config import ALGORITHMS
from rsb_theory import rates

#: Default horizons: 1000 * 2^k, k = 0..6 (a few minutes on 2 cores with 100 trials).
DEFAULT_TS: tuple[int, ...] = tuple(1000 * 2**k for k in range(7))
#: eps of ``sec: experiments``.
EXPERIMENTS_EPS = "sqrt(K*log(T)/T)"
#: Default cache directory of the simulation results.
DEFAULT_CACHE = ".rsb_cache/slopes"

_T, _K = rates.T, rates.K
_SAFE = {"T": _T, "K": _K, "log": sp.log, "sqrt": sp.sqrt, "exp": sp.exp, "e": sp.E}


# ---------------------------------------------------------------------------
# request and result
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SlopeRequest:
    """One (distortion, algorithm, instance) slope measurement.

    Attributes
    ----------
    dr : str
        Registry name or expression in u.
    params : tuple of (str, str)
        Distortion parameters.
    p : tuple of float
        Bernoulli means.
    algo : str
        One of :data:`rsb_sim.config.ALGORITHMS`.
    Ts : tuple of int
        Horizons (at least two distinct, increasing).
    trials : int
    seed : int
        Root seed; horizon number i uses ``seed + i``; the bootstrap uses ``seed``.
    eps : str
        ``"experiments"`` (sqrt(K log T / T), default), ``"theorem"`` (the
        theorems' eps-independent choice), a number in (0, 1], or an
        expression in T and K.
    radius_scale, rho : float
        As in :class:`rsb_sim.config.SimConfig`.
    explore : str or None
        None (paper's formula), an integer, or an expression in T (e.g.
        ``"T/10"``), evaluated per horizon and rounded up (see SimConfig.explore).
    n_boot : int
        Bootstrap replicates.
    tol : float
        Slack of ``consistent`` on the slope scale.
    """

    dr: str = "gini"
    params: tuple = ()
    p: tuple = (0.4, 0.9)
    algo: str = "rs-ucb-m"
    Ts: tuple = DEFAULT_TS
    trials: int = 100
    seed: int = 0
    eps: str = "experiments"
    radius_scale: float = 1.0
    rho: float = 0.1
    explore: str | None = None
    n_boot: int = 1000
    tol: float = 0.05

    def __post_init__(self) -> None:
        if self.algo not in ALGORITHMS:
            raise ValueError(f"argument 'algo': unknown algorithm {self.algo!r}; known: {', '.join(ALGORITHMS)}")
        Ts = tuple(int(t) for t in self.Ts)
        if len(set(Ts)) < 2 or any(t < 2 for t in Ts) or list(Ts) != sorted(set(Ts)):
            raise ValueError(f"argument 'Ts': need at least two distinct increasing horizons >= 2, got {self.Ts!r}")
        object.__setattr__(self, "Ts", Ts)
        if not isinstance(self.trials, int) or self.trials < 2:
            raise ValueError(f"argument 'trials': need an integer >= 2 (the bootstrap resamples trials), "
                             f"got {self.trials!r}")
        if not isinstance(self.n_boot, int) or self.n_boot < 10:
            raise ValueError(f"argument 'n_boot': need an integer >= 10, got {self.n_boot!r}")
        if not (isinstance(self.tol, (int, float)) and math.isfinite(self.tol) and self.tol >= 0):
            raise ValueError(f"argument 'tol': need a finite number >= 0, got {self.tol!r}")
        object.__setattr__(self, "p", tuple(float(x) for x in self.p))
        object.__setattr__(self, "params", tuple(sorted((str(k), str(v)) for k, v in dict(self.params).items())))


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares slope of log(mean) vs log T with a bootstrap CI (see :func:`fit_slope`)."""

    slope: float | None
    ci_low: float | None
    ci_high: float | None
    slope_log_corrected: float | None
    ci_low_log_corrected: float | None
    ci_high_log_corrected: float | None
    used_T: tuple
    excluded_T: tuple
    bootstrap_dropped: int


@dataclass(frozen=True)
class DerivedRate:
    """regret = O(T^-exponent (log T)^log_power) for the eps schedule used."""

    exponent: float | None
    log_power: float | None
    rate: str
    source: str
    beta: float | None
    beta_estimated: bool


@dataclass(frozen=True)
class SlopeResult:
    """What ``rsb slopes`` reports for one (distortion, algorithm, instance)."""

    dr: str
    params: dict
    p: tuple
    algo: str
    Ts: tuple
    trials: int
    eps_rule: str
    eps: tuple
    mean_regret: tuple
    std_regret: tuple
    slope: float | None
    ci_low: float | None
    ci_high: float | None
    slope_log_corrected: float | None
    ci_low_log_corrected: float | None
    ci_high_log_corrected: float | None
    derived_exponent: float | None
    derived_log_power: float | None
    derived_rate: str
    derived_from: str
    consistent: bool | None
    degenerate: bool
    warnings: tuple
    excluded_T: tuple
    bootstrap_dropped: int
    notes: tuple
    seconds: float
    cache: str = field(default="")

    def to_dict(self) -> dict:
        out = asdict(self)
        for k in ("p", "Ts", "eps", "mean_regret", "std_regret", "warnings", "excluded_T", "notes"):
            out[k] = list(out[k])
        return out


# ---------------------------------------------------------------------------
# slope fit
# ---------------------------------------------------------------------------
def _ls_slopes(x: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Least-squares slopes of each row of Y against x (Y shape (B, n))."""
    xc = x - x.mean()
    return (Y - Y.mean(axis=-1, keepdims=True)) @ xc / float(xc @ xc)


def fit_slope(Ts, regrets, n_boot: int = 1000, seed: int = 0, log_power: float = 0.0,
              level: float = 0.95) -> SlopeFit:
    """Slope of log(mean regret) against log T, and of log(mean regret / (log T)^log_power).

    Parameters
    ----------
    Ts : sequence of int
    regrets : sequence of 1-d arrays
        Final regrets per trial at each horizon.
    n_boot : int
        Bootstrap replicates (trials resampled with replacement, independently at each T).
    seed : int
        Seed of the bootstrap generator.
    log_power : float
        y of the bound's (log T)^y factor.
    level : float
        Two-sided level of the percentile interval.

    Returns
    -------
    SlopeFit
        ``slope`` etc. are None when fewer than two horizons have a positive mean regret.
    """
    Ts = [int(t) for t in Ts]
    if len(Ts) != len(regrets):
        raise ValueError("argument 'regrets': need one array per horizon")
    means = np.array([float(np.mean(r)) for r in regrets])
    keep = [i for i, m in enumerate(means) if m > 0 and math.isfinite(m)]
    excluded = tuple(Ts[i] for i in range(len(Ts)) if i not in keep)
    if len(keep) < 2:
        return SlopeFit(None, None, None, None, None, None, tuple(Ts[i] for i in keep), excluded, 0)
    x = np.log(np.array([Ts[i] for i in keep], dtype=float))
    corr = log_power * np.log(x)  # log((log T)^y)
    y = np.log(means[keep])
    rng = np.random.default_rng(seed)
    boot = np.empty((n_boot, len(keep)))
    for j, i in enumerate(keep):
        r = np.asarray(regrets[i], dtype=float)
        idx = rng.integers(0, r.size, size=(n_boot, r.size))
        boot[:, j] = r[idx].mean(axis=1)
    ok = np.all(boot > 0, axis=1)
    lb = np.log(boot[ok])
    a = (1 - level) / 2
    s = float(_ls_slopes(x, y[None, :])[0])
    sc = float(_ls_slopes(x, (y - corr)[None, :])[0])
    bs = _ls_slopes(x, lb)
    bc = _ls_slopes(x, lb - corr[None, :])
    q = lambda v, w: float(np.quantile(v, w)) if v.size else None  # noqa: E731
    return SlopeFit(s, q(bs, a), q(bs, 1 - a), sc, q(bc, a), q(bc, 1 - a), tuple(Ts[i] for i in keep), excluded,
                    int((~ok).sum()))


# ---------------------------------------------------------------------------
# eps schedules and the derived rate
# ---------------------------------------------------------------------------
def _parse_expr(text: str, name: str) -> sp.Expr:
    try:
        e = sp.sympify(text, locals=_SAFE)
    except (sp.SympifyError, SyntaxError, TypeError, ValueError):
        raise ValueError(f"argument '{name}': cannot parse {text!r} as a number or an expression in T and K") from None
    if not isinstance(e, sp.Expr) or e.free_symbols - {_T, _K}:
        raise ValueError(f"argument '{name}': {text!r} may only use the symbols T and K")
    return e


def theorem_eps_expr(algo: str, q, r, beta) -> sp.Expr:
    """eps of ``corollary:RS-UCB-M`` (UCBs) or ``theorem:RS-ETC-M`` (ETC), with Theta(.) = 1."""
    q, r, beta = map(sp.nsimplify, (q, r, beta))
    if algo == "rs-etc-m":
        gamma = rates.gamma_E(q, r, beta)
        return (_K ** (2 + 2 / q) * _T ** (-gamma) * sp.log(_T)) ** (q / (2 * beta))
    return (_K ** (2 / q) * sp.log(_T) / _T) ** rates.kappa(q, r, beta)


def eps_schedule(rule: str, algo: str, K: int, q=None, r=None, beta=None) -> tuple[sp.Expr, float, float]:
    """(eps(T, K) expression, a, b) with eps ~ T^-a (log T)^b.

    ``rule`` is ``experiments``, ``theorem`` (needs q, r, beta), a number or an expression.
    """
    if rule == "experiments":
        e = _parse_expr(EXPERIMENTS_EPS, "eps")
    elif rule == "theorem":
        if beta is None:
            raise ValueError("argument 'eps': the theorem's eps needs beta, which is unknown for this instance")
        e = theorem_eps_expr(algo, q, r, beta)
    else:
        e = _parse_expr(rule, "eps")
    e = e.subs(_K, K)
    ex = rates.term_exponents(e) if _T in e.free_symbols else None
    a = 0.0 if ex is None else float(-ex.T_exponent)
    b = 0.0 if ex is None else float(ex.log_exponent)
    return e, a, b


def eps_value(expr: sp.Expr, T: int) -> float:
    v = float(expr.subs(_T, T))
    if not (math.isfinite(v) and 0 < v <= 1):
        raise ValueError(f"argument 'eps': eps({T}) = {v:.4g} is not in (0, 1]")
    return v


def derived_rate(algo: str, rule: str, a: float, b: float, q: float, r: float, beta: float | None,
                 solitary: bool) -> tuple[float | None, float | None, str]:
    """(e, y, source) of the bound regret = O(T^-e (log T)^y); see the module docstring."""
    if algo == "uniform":
        return None, None, "uniform sampling: no bound in the paper"
    ucb = algo in ("rs-ucb-m", "ce-ucb-m")
    if rule == "theorem":
        tr = rates.table_rates(sp.nsimplify(q), sp.nsimplify(r), sp.nsimplify(beta), solitary)
        if ucb:
            e = float(tr.ucb_exponent) / 2
            return e, e, (f"corollary:RS-UCB-M: varpi(T)^{tr.ucb_exponent} = T^-{e:.4g} (log T)^{e:.4g} "
                          f"(r <= beta + q/2: {bool(tr.ucb_condition)})")
        ev = float(tr.etc_exponent)
        g = float(rates.gamma_E(q, r, beta)) if tr.etc_argument == "T^gamma" else 1.0
        return g * ev / 2, ev / 2, (f"theorem:RS-ETC-M: varpi({tr.etc_argument})^{tr.etc_exponent} "
                                    f"= T^-{g * ev / 2:.4g} (log T)^{ev / 2:.4g}")
    terms = {}
    if ucb:
        terms["discrete (theorem:UCB upper bound)"] = (-(q / 2) * (1 - a), q / 2 - q * b / 2)
        terms["Delta(eps) (lemma:Delta_error)"] = (-a * r, b * r)
    elif solitary:
        terms["discrete (theorem: ETC upper bound, Delta_min constant)"] = (-q, q)
    else:
        if beta is None:
            return None, None, "theorem: ETC upper bound with Delta_min ~ eps^beta: beta unknown"
        terms["discrete (theorem: ETC upper bound, Delta_min ~ eps^beta)"] = (2 * a * beta - q, q - 2 * b * beta)
        terms["Delta(eps) (lemma:Delta_error)"] = (-a * r, b * r)
    name, (x, y) = max(terms.items(), key=lambda kv: kv[1])
    parts = "; ".join(f"{k}: T^{v[0]:.4g} (log T)^{v[1]:.4g}" for k, v in terms.items())
    return -x, y, f"eps ~ T^-{a:.4g} (log T)^{b:.4g}; slowest term {name}; terms: {parts}"


@lru_cache(maxsize=64)
def _profile(dr: str, params: tuple, p: tuple):
    """instance_profile of (dr, params, p), cached per process (it is deterministic)."""
    from rsb_theory.distortions import resolve
    from rsb_theory.profile import instance_profile

    return instance_profile(resolve(dr, **dict(params)), p, numeric_beta=len(p) <= 4)


def derive(req: SlopeRequest) -> tuple[DerivedRate, bool, object]:
    """The derived rate for ``req`` and whether the instance is solitary-optimal (plus the profile)."""
    ip = _profile(req.dr, req.params, req.p)
    q = float(ip.holder_instance.q)
    r = float(ip.mixture.r) if ip.mixture.r != sp.oo else q
    solitary = bool(ip.mixture.solitary)
    beta, est = None, False
    if ip.beta_analytic.applies:
        beta = float(ip.beta_analytic.beta)
    elif ip.beta_numeric is not None and math.isfinite(ip.beta_numeric.beta_fit):
        beta, est = float(ip.beta_numeric.beta_fit), True
    K = len(req.p)
    _e, a, b = eps_schedule(req.eps, req.algo, K, q, r, beta)
    e, y, src = derived_rate(req.algo, req.eps, a, b, q, r, beta, solitary)
    if est:
        conv = "converged" if ip.beta_numeric.converged else "NOT converged"
        src += f"; beta = {beta:.3f} estimated numerically ({conv}: {ip.beta_numeric.evidence()})"
    rate = "none" if e is None else f"T^({-e:.4g}) (log T)^({y:.4g})"
    return DerivedRate(e, y, rate, src, beta, est), solitary, ip


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------
def _explore_value(text: str | None, T: int) -> int | None:
    if text is None:
        return None
    v = float(_parse_expr(text, "explore").subs(_T, T))
    if not math.isfinite(v) or v < 1:
        raise ValueError(f"argument 'explore': explore({T}) = {v:.4g} is not >= 1")
    return int(math.ceil(v - 1e-9))


def specs_for(req: SlopeRequest, eps_expr: sp.Expr) -> list[dict]:
    """The rsb_sim sweep specs of ``req`` (one per horizon)."""
    out = []
    for i, T in enumerate(req.Ts):
        cfg = {"T": T, "trials": req.trials, "seed": req.seed + i, "eps": eps_value(eps_expr, T),
               "rho": req.rho, "radius_scale": req.radius_scale, "explore": _explore_value(req.explore, T)}
        out.append({"algo": req.algo, "dr": req.dr, "params": dict(req.params), "p": list(req.p), "config": cfg})
    return out


def measure(req: SlopeRequest, out: str | Path | None = DEFAULT_CACHE, progress=None, **sweep_opts) -> SlopeResult:
    """Simulate ``req`` (resumable when ``out`` is a directory) and fit the slope.

    Parameters
    ----------
    req : SlopeRequest
    out : path or None
        Cache directory for :func:`rsb_sim.sweep.sweep`; None runs in memory (no cache).
    progress : callable, optional
        Wraps the list of pending specs (e.g. tqdm).
    **sweep_opts
        How the sweep runs (:func:`rsb_sim.sweep.sweep`: executor, jobs,
        scheduler, chunk); used only with a cache directory.
    """
    from rsb_sim import store
    from rsb_sim.sweep import run_spec, sweep

    start = time.perf_counter()
    dr_info, solitary, ip = derive(req)
    K = len(req.p)
    eps_expr, _a, _b = eps_schedule(req.eps, req.algo, K, float(ip.holder_instance.q),
                                    float(ip.mixture.r) if ip.mixture.r != sp.oo else float(ip.holder_instance.q),
                                    dr_info.beta)
    specs = specs_for(req, eps_expr)
    regrets, warns, eps_used = [], [], []
    if out is None:
        for s in (progress(specs, total=len(specs)) if progress else specs):
            res = run_spec(s)
            regrets.append(np.asarray(res.regrets))
            warns.append(tuple(res.warnings))
            eps_used.append(res.setup.eps)
    else:
        keys = sweep(specs, out, progress=progress, **sweep_opts)
        for k in keys:
            summary, arrays = store.load(out, k)
            regrets.append(np.asarray(arrays["regrets"]))
            warns.append(tuple(summary["warnings"]))
            eps_used.append(summary["eps"])
    y = dr_info.log_power or 0.0
    fit = fit_slope(req.Ts, regrets, req.n_boot, req.seed, y)
    consistent = None
    if dr_info.exponent is not None and fit.ci_low_log_corrected is not None:
        consistent = bool(fit.ci_low_log_corrected <= -dr_info.exponent + req.tol)
    degenerate = any(warns)
    wl = []
    for T, ws in zip(req.Ts, warns):
        for w in ws:
            wl.append(f"T={T}: {w}")
    notes = []
    if degenerate:
        notes.append("degenerate: the paper's constants make the algorithm degenerate at some horizon (see warnings); "
                     "the slope measures that, not the rate of the theorems; use --radius-scale / --explore / --eps")
    if req.explore is not None and req.algo == "rs-etc-m":
        notes.append("--explore replaces N(eps): the theorems' bound is for N(eps) of eq:number of samples main paper")
    if req.radius_scale != 1.0 and req.algo in ("rs-ucb-m", "ce-ucb-m"):
        notes.append(f"radius scaled by {req.radius_scale}: lemma: concentration no longer gives "
                     f"P(F_i not in C_t(i)) <= 2/T^2, so the theorems' bound is not proven for this variant")
    if dr_info.exponent is not None and dr_info.exponent <= 0:
        notes.append(f"the bound does not decay for this eps schedule (exponent {dr_info.exponent:.4g})")
    if fit.excluded_T:
        notes.append(f"mean regret <= 0 at T in {list(fit.excluded_T)}: left out of the log-log fit")
    if fit.slope is None:
        notes.append("fewer than two horizons with positive mean regret: no slope")
    return SlopeResult(
        dr=req.dr, params=dict(req.params), p=req.p, algo=req.algo, Ts=req.Ts, trials=req.trials,
        eps_rule=req.eps, eps=tuple(float(e) for e in eps_used),
        mean_regret=tuple(float(np.mean(r)) for r in regrets),
        std_regret=tuple(float(np.std(r, ddof=1)) if r.size > 1 else 0.0 for r in regrets),
        slope=fit.slope, ci_low=fit.ci_low, ci_high=fit.ci_high, slope_log_corrected=fit.slope_log_corrected,
        ci_low_log_corrected=fit.ci_low_log_corrected, ci_high_log_corrected=fit.ci_high_log_corrected,
        derived_exponent=dr_info.exponent, derived_log_power=dr_info.log_power, derived_rate=dr_info.rate,
        derived_from=dr_info.source, consistent=consistent, degenerate=degenerate, warnings=tuple(wl),
        excluded_T=fit.excluded_T, bootstrap_dropped=fit.bootstrap_dropped, notes=tuple(notes),
        seconds=time.perf_counter() - start, cache="" if out is None else str(out))


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------
def _fmt(v, nd: int = 3) -> str:
    return "-" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))


def format_table(results: list[SlopeResult]) -> str:
    head = (f"{'dr':<10} {'algo':<9} {'p':<14} {'slope':>7} {'ci':>17} {'slope_lc':>8} {'ci_lc':>17} "
            f"{'derived':>8} {'consistent':>10} {'degenerate':>10}")
    lines = [head]
    for r in results:
        lines.append(
            f"{r.dr:<10} {r.algo:<9} {','.join(f'{x:g}' for x in r.p):<14} {_fmt(r.slope):>7} "
            f"{'[' + _fmt(r.ci_low) + ', ' + _fmt(r.ci_high) + ']':>17} {_fmt(r.slope_log_corrected):>8} "
            f"{'[' + _fmt(r.ci_low_log_corrected) + ', ' + _fmt(r.ci_high_log_corrected) + ']':>17} "
            f"{_fmt(None if r.derived_exponent is None else -r.derived_exponent):>8} "
            f"{_fmt(r.consistent):>10} {_fmt(r.degenerate):>10}")
    for r in results:
        lines.append(f"\n{r.dr} {r.algo} p={list(r.p)}: eps rule {r.eps_rule}; mean regret "
                     + ", ".join(f"T={T}: {m:.3g}" for T, m in zip(r.Ts, r.mean_regret)))
        lines.append(f"  derived: {r.derived_rate} -- {r.derived_from}")
        for n in r.notes:
            lines.append(f"  note: {n}")
        if r.warnings:
            lines.append(f"  warning ({len(r.warnings)} runs): {r.warnings[0]}")
    return "\n".join(lines)


def _split(text: str | None, name: str) -> list[str]:
    items = [x.strip() for x in (text or "").split(",") if x.strip()]
    if not items:
        raise ValueError(f"argument '--{name}': empty")
    return items


def _instances(text: str) -> list[tuple[float, ...]]:
    from rsb_sim.args import parse_instances

    return parse_instances(text)


def _num(text: str, name: str, lo: float | None = None, integer: bool = False):
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"argument '--{name}': not a number: {text!r}") from None
    if not math.isfinite(v) or (lo is not None and v < lo) or (integer and v != int(v)):
        raise ValueError(f"argument '--{name}': need {'an integer' if integer else 'a number'} >= {lo}, got {text!r}")
    return int(v) if integer else v


def cmd_slopes(args) -> str:
    import json
    import sys

    algos = _split(args.algo, "algo")
    for a in algos:
        if a not in ALGORITHMS:
            raise ValueError(f"argument '--algo': unknown algorithm {a!r}; known: {', '.join(ALGORITHMS)}")
    Ts = tuple(_num(t, "Ts", 2, True) for t in _split(args.Ts, "Ts"))
    if len(set(Ts)) < 2 or list(Ts) != sorted(set(Ts)):
        raise ValueError(f"argument '--Ts': need at least two distinct increasing horizons, got {args.Ts!r}")
    params = []
    for item in args.param or []:
        if "=" not in item:
            raise ValueError(f"argument '--param': expected k=v, got {item!r}")
        k, v = item.split("=", 1)
        params.append((k.strip(), v.strip()))
    eps = args.eps
    if eps not in ("experiments", "theorem"):
        _parse_expr(eps, "--eps")
    if args.explore is not None:
        _parse_expr(args.explore, "--explore")
    opts = parse_sweep_options(args, default_jobs=1)
    progress = None
    if not args.quiet and sys.stderr.isatty():
        from rsb_sim.sweep import tqdm_progress

        progress = tqdm_progress("rsb slopes")

    results = []
    for dr in _split(args.dr, "dr"):
        for p in _instances(args.p):
            for algo in algos:
                try:
                    req = SlopeRequest(dr=dr, params=tuple(params), p=p, algo=algo, Ts=Ts,
                                       trials=_num(args.trials, "trials", 2, True), seed=_num(args.seed, "seed", 0, True),
                                       eps=eps, radius_scale=_num(args.radius_scale, "radius-scale", 0),
                                       rho=_num(args.rho, "rho", 0), explore=args.explore,
                                       n_boot=_num(args.bootstrap, "bootstrap", 10, True), tol=_num(args.tol, "tol", 0))
                    results.append(measure(req, None if args.no_cache else args.out, progress, **opts))
                except ValueError as exc:
                    msg = str(exc)
                    for name in ("T", "trials", "seed", "eps", "rho", "radius_scale", "explore", "p", "algo", "dr",
                                 "Ts", "n_boot", "tol"):
                        flag = {"radius_scale": "radius-scale", "n_boot": "bootstrap"}.get(name, name)
                        msg = msg.replace(f"argument '{name}'", f"argument '--{flag}'")
                    raise ValueError(msg) from None
    for r in results:
        if r.degenerate:
            print(f"rsb slopes: warning: {r.dr} {r.algo} p={list(r.p)} is degenerate with these constants "
                  f"(slope of a degenerate algorithm); see 'notes'", file=sys.stderr)
    if args.format == "json":
        return json.dumps([r.to_dict() for r in results], indent=2)
    return format_table(results)


def add_command(sub) -> None:
    """Register ``rsb slopes`` on an argparse subparsers object."""
    s = sub.add_parser("slopes", help="regret-rate slopes (log mean regret vs log T) beside the derived exponent")
    s.add_argument("--dr", default="gini", help="distortion name(s) or expression, comma-separated (default gini)")
    s.add_argument("--param", action="append", metavar="K=V", help="distortion parameter (repeatable)")
    s.add_argument("--p", default="0.4,0.9", help="Bernoulli means; several instances separated by ';'")
    s.add_argument("--algo", default="rs-ucb-m,rs-etc-m", help=f"comma-separated, from: {', '.join(ALGORITHMS)}")
    s.add_argument("--Ts", default=",".join(map(str, DEFAULT_TS)), help="horizons, comma-separated")
    s.add_argument("--trials", default="100", help="trials per horizon (default 100)")
    s.add_argument("--seed", default="0", help="root seed (horizon i uses seed + i)")
    s.add_argument("--eps", default="experiments",
                   help="'experiments' (sqrt(K log T/T), default), 'theorem' (eps-independent choice of "
                        "theorem:RS-ETC-M / corollary:RS-UCB-M), a number, or an expression in T and K")
    s.add_argument("--radius-scale", dest="radius_scale", default="1", help="factor on the confidence radius")
    s.add_argument("--rho", default="0.1", help="exploration rate of the UCBs (default 0.1)")
    s.add_argument("--explore", default=None,
                   help="ETC: replaces N(eps); UCBs: forced pulls per arm; integer or expression in T (e.g. T/10)")
    s.add_argument("--bootstrap", default="1000", help="bootstrap replicates (default 1000)")
    s.add_argument("--tol", default="0.05", help="slack of 'consistent' on the slope scale (default 0.05)")
    s.add_argument("--out", default=DEFAULT_CACHE, help=f"cache directory (default {DEFAULT_CACHE})")
    s.add_argument("--no-cache", dest="no_cache", action="store_true", help="do not read or write the cache")
    s.add_argument("--format", choices=("json", "table"), default="table")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    add_sweep_options(s, default_jobs="1")
    s.set_defaults(func=cmd_slopes)
