"""Regret-rate slopes: the measured decay of the regret in T beside the slope of the derived bound (``rsb slopes``).

For one (distortion, algorithm, Bernoulli instance) the horizons ``Ts`` are
simulated with :mod:`rsb_sim` (resumable: :func:`rsb_sim.sweep.sweep` into a
cache directory) and the least-squares slope of log(mean regret) against log T
is fitted with a seeded percentile bootstrap (:mod:`proofs_checks.slope_fit`).
The horizons are one family of experiments seeded by one root: horizon j runs
on stream ``(j,)`` of ``seed`` (:attr:`rsb_sim.config.SimConfig.stream`), so
the horizons are independent samples that share no rewards.

The *derived slope* x is the exponent of T in the regret bound the paper proves
for the eps schedule used, regret = O(T^x (log T)^y), read off the theorems'
expressions (:mod:`proofs_checks.bound_rates`).  Sign convention: every exponent
printed is the exponent of T in the regret, as the measured slope is (negative:
decaying).  The JSON key ``derived_exponent`` keeps its meaning, the decay rate
e = -x (regret = O(T^-e)); ``derived_slope`` is x.

``consistent`` is True when the bootstrap interval of the log-corrected slope
(log(mean regret / (log T)^y) against log T) reaches down to x + tol, i.e. the
data are compatible with a decay at least as fast as the bound; ``tol``
(default 0.05) absorbs finite-horizon curvature.  Horizons whose mean regret is
<= 0 (log undefined; regret is V* - V(tau/T) >= 0, so this means exactly 0) are
left out of the fit and listed in ``excluded_T``; bootstrap replicates with a
non-positive mean at an included T are dropped and counted.

``degenerate`` is True when any run carried a warning of
:func:`rsb_sim.setup.prepare` (the paper's constants: RS-UCB-M's radius >= 1 at
every t below T ~ 4e5, RS-ETC-M's N(eps) ~ 1e16 never commits): the slope then
measures a degenerate algorithm, not the rate of the theorems.  The overrides
``radius_scale``, ``explore``, ``rho`` and ``eps`` give the informative regime;
each is refused for an algorithm that does not use it
(:mod:`rsb_sim.options`).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rsb_theory import expressions

from rsb_sim import options as sim_options
from .eps_rules import EPS_RULES, check_eps_rule
from rsb_theory.errors import ArgumentError

#: Default horizons: 1000 * 2^k, k = 0..6 (a few minutes on 2 cores with 100 trials).
DEFAULT_TS: tuple[int, ...] = tuple(1000 * 2**k for k in range(7))
#: Default cache directory of the simulation results.
DEFAULT_CACHE = ".rsb_cache/slopes"


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
        One of :data:`rsb_sim.options.ALGORITHMS`.
    Ts : tuple of int
        Horizons (at least two distinct, increasing).
    trials : int
    seed : int
        Root seed; horizon j runs on stream ``(j,)`` of it; the bootstrap uses ``seed``.
    eps : str or None
        ``"experiments"`` (sqrt(K log T / T); also None, the default),
        ``"theorem"`` (the theorems' eps-independent choice), a number in (0, 1],
        or an expression in T and K.  Not for ``uniform``.
    radius_scale, rho : float or None
        As in :class:`rsb_sim.config.SimConfig`; None: its default.  Only for the
        algorithms that use them (rho not beside ``explore``).
    explore : str or None
        Forced-exploration pulls per arm: None (the paper's formula), a count, or
        an expression in T and K (e.g. ``"T/10"``), evaluated per horizon and
        rounded up.  Not for ``uniform``.
    n_boot : int
        Bootstrap replicates.
    tol : float
        Slack of ``consistent`` on the slope scale.

    Raises
    ------
    ValueError
        Naming the field: an unknown algorithm, bad horizons, an option the
        algorithm does not use, an eps or explore that is not valid at every
        horizon (checked with the math-only evaluator, before any simulation).
    """

    dr: str = "gini"
    params: tuple = ()
    p: tuple = (0.4, 0.9)
    algo: str = "rs-ucb-m"
    Ts: tuple = DEFAULT_TS
    trials: int = 100
    seed: int = 0
    eps: str | None = None
    radius_scale: float | None = None
    rho: float | None = None
    explore: str | None = None
    n_boot: int = 1000
    tol: float = 0.05
    arms: str | None = None
    quantize: int | None = None

    def __post_init__(self) -> None:
        if self.algo not in sim_options.ALGORITHMS:
            raise ArgumentError("algo", f"unknown algorithm {self.algo!r}; "
                             f"known: {', '.join(sim_options.ALGORITHMS)}")
        Ts = tuple(int(t) for t in self.Ts)
        if len(set(Ts)) < 2 or any(t < 2 for t in Ts) or list(Ts) != sorted(set(Ts)):
            raise ArgumentError("Ts", f"need at least two distinct increasing horizons >= 2, got {self.Ts!r}")
        object.__setattr__(self, "Ts", Ts)
        if not isinstance(self.trials, int) or self.trials < 2:
            raise ArgumentError("trials", "need an integer >= 2 (the bootstrap resamples trials), "
                             f"got {self.trials!r}")
        if not isinstance(self.n_boot, int) or self.n_boot < 10:
            raise ArgumentError("n_boot", f"need an integer >= 10, got {self.n_boot!r}")
        if not (isinstance(self.tol, (int, float)) and math.isfinite(self.tol) and self.tol >= 0):
            raise ArgumentError("tol", f"need a finite number >= 0, got {self.tol!r}")
        object.__setattr__(self, "p", tuple(float(x) for x in self.p))
        object.__setattr__(self, "params", tuple(sorted((str(k), str(v)) for k, v in dict(self.params).items())))
        given = [n for n in ("eps", "rho", "radius_scale", "explore", "quantize") if getattr(self, n) is not None]
        if self.quantize is not None and self.arms is None:
            raise ArgumentError("quantize", "applies to --arms only (Bernoulli arms are exact)")
        sim_options.check_applies(self.algo, given)
        K = self.K
        if self.eps is not None:
            check_eps_rule(self.eps, K, Ts)
        for T in Ts:  # every horizon's count is valid before anything runs
            self.explore_at(T)

    @property
    def K(self) -> int:
        """The number of arms (of ``p``, or of ``arms`` when given: then ``p`` is unused)."""
        if self.arms is not None:
            from rsb_theory.laws.spec import parse_specs

            return len(parse_specs(self.arms))
        return len(self.p)

    def rate(self):
        """(DerivedRate, solitary, profile, eps expression) of the bound along the eps rule."""
        from .bound_rates import derive_rate, derive_rate_laws

        if self.arms is not None:
            return derive_rate_laws(self.dr, self.params, self.arms, self.algo, self.eps_rule)
        return derive_rate(self.dr, self.params, self.p, self.algo, self.eps_rule)

    @property
    def eps_rule(self) -> str:
        """The eps rule (``experiments`` when none was given)."""
        return "experiments" if self.eps is None else self.eps

    def explore_at(self, T: int) -> int | None:
        """The forced-exploration pulls per arm at horizon T (None: the paper's formula)."""
        if self.explore is None:
            return None
        return expressions.parse_count(self.explore, "explore", {"T": T, "K": self.K}, rounding="ceil")


@dataclass(frozen=True)
class SlopeResult:
    """What ``rsb slopes`` reports for one (distortion, algorithm, instance).

    ``slope``, ``ci_*`` and ``derived_slope`` are exponents of T in the regret
    (negative: decaying); ``derived_exponent`` = -``derived_slope`` (the decay rate).
    """

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
    derived_slope: float | None = None
    overrides: dict = field(default_factory=dict)
    arms: str | None = None

    def to_dict(self) -> dict:
        out = asdict(self)
        for k in ("p", "Ts", "eps", "mean_regret", "std_regret", "warnings", "excluded_T", "notes"):
            out[k] = list(out[k])
        return out


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------
def derive(req: SlopeRequest):
    """(DerivedRate, solitary, profile) of ``req`` (:func:`proofs_checks.bound_rates.derive_rate`)."""
    rate, solitary, ip, _eps = req.rate()
    return rate, solitary, ip


def overrides(req: SlopeRequest) -> dict:
    """The options of ``req`` that differ from the paper's formulas (all used by its algorithm)."""
    return {n: getattr(req, n) for n in ("eps", "rho", "radius_scale", "explore", "quantize")
            if getattr(req, n) is not None}


def specs_for(req: SlopeRequest, eps_expr) -> list[dict]:
    """The rsb_sim sweep specs of ``req``: horizon j on stream (j,) of the root seed."""
    from .bound_rates import eps_value

    out = []
    for j, T in enumerate(req.Ts):
        cfg = {"T": T, "trials": req.trials, "seed": req.seed, "stream": [j]}
        if sim_options.catalog.get(req.algo).reads_rewards:  # a fixed schedule records no eps
            try:
                cfg["eps"] = eps_value(eps_expr, T)
            except ValueError:  # not a level at this T (K log T > T): refused only where the algorithm reads it
                if "eps" in sim_options.READS[req.algo]:
                    raise
        for name in ("rho", "radius_scale", "quantize"):
            if getattr(req, name) is not None:
                cfg[name] = getattr(req, name)
        if req.explore is not None:
            cfg["explore"] = req.explore_at(T)
        arms = {"p": list(req.p)} if req.arms is None else {"arms": req.arms}
        out.append({"algo": req.algo, "dr": req.dr, "params": dict(req.params), **arms, "config": cfg})
    return out


def _notes(req: SlopeRequest, rate, fit, degenerate: bool) -> list[str]:
    from .bound_plot import variant_notes
    from .bound_rates import format_exponent

    notes = []
    if degenerate:
        notes.append("degenerate: the paper's constants make the algorithm degenerate at some horizon (see warnings); "
                     "the slope measures that, not the rate of the theorems; use --radius-scale / --explore / --eps")
    notes += variant_notes(req.algo, req.radius_scale, req.explore)
    if rate.slope is not None and rate.slope >= 0:
        notes.append(f"the bound does not decay for this eps schedule (derived slope {format_exponent(rate.slope)})")
    if fit.excluded_T:
        notes.append(f"mean regret <= 0 at T in {list(fit.excluded_T)}: left out of the log-log fit")
    if fit.slope is None:
        notes.append("fewer than two horizons with positive mean regret: no slope")
    return notes


def measure(req: SlopeRequest, out: str | Path | None = DEFAULT_CACHE, progress=None, **sweep_opts) -> SlopeResult:
    """Simulate ``req`` (resumable when ``out`` is a directory) and fit the slope.

    Parameters
    ----------
    req : SlopeRequest
    out : path or None
        Cache directory for :func:`rsb_sim.sweep.sweep` (held by this run; resumable after an
        interruption); None: no cache (:func:`rsb_sim.sweep.simulate_specs`, in a worker process).
    progress : callable, optional
        Wraps the list of pending specs (e.g. tqdm).
    **sweep_opts
        How the sweep runs (:func:`rsb_sim.sweep.sweep`: executor, jobs,
        scheduler, chunk); used only with a cache directory.
    """
    from rsb_sim import store
    from rsb_sim.interrupt import kept
    from rsb_sim.sweep import simulate_specs, sweep


    start = time.perf_counter()
    rate, _solitary, _ip, eps_expr = req.rate()
    specs = specs_for(req, eps_expr)
    if out is None:  # in a worker process: SIGINT/SIGTERM stop it at once
        runs = [(summary, regs) for summary, regs, _counts in simulate_specs(specs, progress)]
        done = None
    else:
        keys = sweep(specs, out, progress=progress, **sweep_opts)
        done = f"every run in {out}"
    with kept(done):  # an interruption from here on keeps every run
        if out is not None:
            runs = [(summary, arrays["regrets"]) for summary, arrays in (store.load(out, k) for k in keys)]
        return _result(req, rate, runs, start, out)


def _result(req: SlopeRequest, rate, runs: list, start: float, out) -> SlopeResult:
    """The fit of ``req`` from its runs (summary, regrets per horizon)."""
    import numpy as np

    from .slope_fit import fit_slope

    regrets = [np.asarray(r) for _s, r in runs]
    warns = [tuple(s["warnings"]) for s, _r in runs]
    eps_used = [s["eps"] for s, _r in runs]
    fit = fit_slope(req.Ts, regrets, req.n_boot, req.seed, rate.log_power or 0.0)
    consistent = None
    if rate.slope is not None and fit.ci_low_log_corrected is not None:
        consistent = bool(fit.ci_low_log_corrected <= rate.slope + req.tol)
    degenerate = any(warns)
    wl = [f"T={T}: {w}" for T, ws in zip(req.Ts, warns) for w in ws]
    return SlopeResult(
        dr=req.dr, params=dict(req.params), p=req.p, algo=req.algo, Ts=req.Ts, trials=req.trials,
        eps_rule=req.eps_rule, eps=tuple(None if e is None else float(e) for e in eps_used),  # None: no grid, K log T > T
        mean_regret=tuple(float(np.mean(r)) for r in regrets),
        std_regret=tuple(float(np.std(r, ddof=1)) if r.size > 1 else 0.0 for r in regrets),
        slope=fit.slope, ci_low=fit.ci_low, ci_high=fit.ci_high, slope_log_corrected=fit.slope_log_corrected,
        ci_low_log_corrected=fit.ci_low_log_corrected, ci_high_log_corrected=fit.ci_high_log_corrected,
        derived_exponent=rate.exponent, derived_log_power=rate.log_power, derived_rate=rate.rate,
        derived_from=rate.source, consistent=consistent, degenerate=degenerate, warnings=tuple(wl),
        excluded_T=fit.excluded_T, bootstrap_dropped=fit.bootstrap_dropped,
        notes=tuple(_notes(req, rate, fit, degenerate)), seconds=time.perf_counter() - start,
        cache="" if out is None else str(out), derived_slope=rate.slope, overrides=overrides(req), arms=req.arms)


# ---------------------------------------------------------------------------
# the table of ``rsb slopes``
# ---------------------------------------------------------------------------
def _fmt(v, nd: int = 3) -> str:
    if v is None:
        return "-"
    return f"{v:+.{nd}f}" if isinstance(v, float) else str(v)


def format_table(results: list[SlopeResult]) -> str:
    """The table of ``rsb slopes``: slopes, their intervals and the derived slope, all exponents of T."""
    # the columns as wide as their longest cell: a user's h (an expression) or arm laws keep the table aligned
    wd = max([10] + [len(r.dr) for r in results])
    wa = max([9] + [len(r.algo) for r in results])
    wp = max([14] + [len(_instance_text(r)) for r in results])
    head = (f"{'dr':<{wd}} {'algo':<{wa}} {'p':<{wp}} {'slope':>7} {'ci':>17} {'slope_lc':>8} {'ci_lc':>17} "
            f"{'derived':>8} {'consistent':>10} {'degenerate':>10}")
    lines = ["slopes of log(mean regret) against log T; 'derived' is the slope of the theorem's bound; "
             "every number is an exponent of T (negative: decaying)", head]
    for r in results:
        lines.append(
            f"{r.dr:<{wd}} {r.algo:<{wa}} {_instance_text(r):<{wp}} {_fmt(r.slope):>7} "
            f"{'[' + _fmt(r.ci_low) + ', ' + _fmt(r.ci_high) + ']':>17} {_fmt(r.slope_log_corrected):>8} "
            f"{'[' + _fmt(r.ci_low_log_corrected) + ', ' + _fmt(r.ci_high_log_corrected) + ']':>17} "
            f"{_fmt(r.derived_slope):>8} {_fmt(r.consistent):>10} {_fmt(r.degenerate):>10}")
    for r in results:
        over = "; " + ", ".join(f"{k.replace('_', '-')} {v:g}" if isinstance(v, float) else f"{k.replace('_', '-')} {v}"
                                for k, v in r.overrides.items()) if r.overrides else ""
        # the eps rule only for the algorithms that search a grid (the others read no eps)
        rule = f"eps rule {r.eps_rule}" if "eps" in sim_options.READS.get(r.algo, ()) else "no eps (no grid)"
        lines.append(f"\n{r.dr} {r.algo} {'p=' + str(list(r.p)) if r.arms is None else 'arms ' + r.arms}: {rule}{over}; mean regret "
                     + ", ".join(f"T={T}: {m:.3g}" for T, m in zip(r.Ts, r.mean_regret)))
        lines.append(f"  derived: {r.derived_rate} -- {r.derived_from}")
        for n in r.notes:
            lines.append(f"  note: {n}")
        if r.warnings:
            lines.append(f"  warning ({len(r.warnings)} runs): {r.warnings[0]}")
    return "\n".join(lines)


__all__ = ["DEFAULT_CACHE", "DEFAULT_TS", "EPS_RULES", "SlopeRequest", "SlopeResult", "derive", "format_table",
           "measure", "overrides", "specs_for"]


def _instance_text(r: SlopeResult) -> str:
    """The instance as a table cell: the means, or the arm laws of ``--arms``."""
    return ",".join(f"{x:g}" for x in r.p) if r.arms is None else r.arms.replace(" ", "")
