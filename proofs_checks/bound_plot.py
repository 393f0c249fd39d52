"""``rsb plot bounds``: simulate one algorithm at several horizons and set the theorem's bound beside it.

``rsb plot bounds --dr NAME [--param k=v] --p P,... --algo NAME --out DIR
[--Ts T1,T2,...] [--trials M]`` simulates the algorithm at each horizon
(:mod:`rsb_sim.sweep`, cached in ``DIR/runs``; horizon j on stream ``(j,)`` of
the root seed) and evaluates there

* the mean final regret (``eq:regret``) with a 95% normal confidence band
  (mean +- 1.96 standard errors) and the spread of the final regret;
* the theorem's bound with the paper's constants (``theorem: ETC upper bound``
  for rs-etc-m, ``theorem:UCB upper bound`` for rs-ucb-m / ce-ucb-m;
  :mod:`proofs_checks.bounds`), whether its side condition (T > N(eps), resp.
  T > max(e^K, T(eps))) holds, the trivial bound V* - min V and whether the bound
  is above it (vacuous);
* the derived rate T^x (log T)^y of the bound for eps = sqrt(K log T / T)
  (:mod:`proofs_checks.bound_rates`), its constant fitted through the data (least
  squares on the log scale).

With ``--arms "SPEC;..."`` (laws of any kind, ``docs/arms.md``) in place of ``--p`` the
constants are those of ``rsb derive --arms`` (r = q, L_MH = L_H b^(1-q), W; no beta;
:func:`proofs_checks.bounds.laws_constants`), and Delta(eps), Delta_min(eps) come from the grid
enumerated on the laws (:func:`proofs_checks.bounds.laws_bound`).  Where that enumeration is above its
work budget (a count) the bound is not drawn -- the empirical regret is, and the text, the CSV's
header, the figure and the command's output say why.

Orchestration only: :mod:`proofs_checks.figures` draws, :mod:`proofs_checks.outputs`
writes ``bounds-<dr>-<algo>.{png,pdf,csv,txt}``.  The CSV has one row per T
(:data:`BOUND_COLUMNS`).  An option the algorithm does not use is an error
(:mod:`rsb_sim.options`; rho is used by the UCBs' bound even beside
``explore``), and the title names only the options the algorithm uses.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from rsb_theory import expressions
from rsb_theory.safe_files import own_dir

from rsb_sim import jsontext
from rsb_sim import options as sim_options
from rsb_sim.policies import catalog
from rsb_sim.interrupt import kept

from .outputs import check_out, csv_text, save_figure, write_text
from rsb_theory.errors import ArgumentError

#: Columns of the ``rsb plot bounds`` CSV.
BOUND_COLUMNS: tuple[str, ...] = (
    "dr", "params", "p", "algo", "T", "eps", "trials", "mean_regret", "std_regret", "stderr", "ci_low", "ci_high",
    "q05", "q50", "q95", "bound", "bound_discrete", "bound_Delta", "Delta_min", "side_threshold", "side_ok",
    "trivial", "vacuous", "derived_rate_fit", "degenerate",
)
#: Default horizons and trials of ``rsb plot bounds``.
DEFAULT_TS: tuple[int, ...] = (1000, 3000, 10_000, 30_000, 100_000)
DEFAULT_TRIALS = 100
#: Algorithms with a regret bound in the paper (their declaration's ``theorem``; the others are plotted without one).
BOUNDED = tuple(p.name for p in catalog.policies() if p.theorem is not None)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:60] or "h"


def check_request(algo: str, p, Ts, trials: int, rho: float | None = None, radius_scale: float | None = None,
                  explore: str | None = None, quantize: int | None = None) -> tuple[int, ...]:
    """Validate the arguments of :func:`plot_bounds_command` (ValueError naming the argument); return the horizons.

    ``p``: the Bernoulli means, or with ``--arms`` anything of length K.
    Math only: the command line calls it before anything heavy is imported.
    """
    if algo not in sim_options.ALGORITHMS:
        raise ArgumentError("algo", f"unknown algorithm {algo!r}; known: {', '.join(sim_options.ALGORITHMS)}")
    if algo not in BOUNDED:  # refused before any run: a figure with no bound on it is not what was asked for
        raise ArgumentError("algo", f"{algo} has no regret bound in the paper to plot; plot bounds draws the "
                         f"theorems' bounds of {', '.join(BOUNDED)} (rsb compare runs the others)")
    Ts = tuple(int(t) for t in Ts)
    if len(Ts) < 2 or len(set(Ts)) != len(Ts) or list(Ts) != sorted(Ts) or Ts[0] < 2:
        raise ArgumentError("Ts", f"need at least two distinct increasing horizons >= 2, got {Ts!r}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ArgumentError("trials", f"need an integer >= 1, got {trials!r}")
    given = {"rho": rho, "radius_scale": radius_scale, "explore": explore, "quantize": quantize}
    sim_options.check_applies(algo, [k for k, v in given.items() if v is not None], bound=True)
    for T in Ts:
        explore_at(explore, T, len(p))
    # Bernoulli means: T_0(eps) has a floor (the default rho = 0.1 is far from it at any T up to 2^62)
    if rho is not None and catalog.get(algo).grid == "ucb" and all(x is not None for x in p):
        from rsb_theory.workload import check_T0_floor

        K = len(p)
        eps = min(min(expressions.evaluate(sim_options.EXPERIMENTS_EPS, "eps", {"K": K, "T": T}), 1.0) for T in Ts)
        check_T0_floor(K, eps, rho)
    return Ts


def explore_at(explore: str | None, T: int, K: int) -> int | None:
    """Forced-exploration pulls per arm at horizon T (an expression in T and K, rounded up); None: the paper's."""
    if explore is None:
        return None
    return expressions.parse_count(explore, "explore", {"T": T, "K": K}, rounding="ceil")


def bounds_data(dr: str, params: dict, p, algo: str, Ts, trials: int, out: Path, seed: int = 0,
                rho: float | None = None, radius_scale: float | None = None, explore: str | None = None,
                progress=None, arms: str | None = None, quantize: int | None = None, **sweep_opts) -> dict:
    """Simulate ``algo`` at each horizon and evaluate the theorem's bound there.

    ``arms``: the text of ``--arms`` (then ``p`` is ignored; module docstring); ``quantize``: CE-UCB-M's
    rewards rounded to that many levels in its estimates (``SimConfig.quantize``).

    Returns
    -------
    dict
        ``rows`` (one dict per T, :data:`BOUND_COLUMNS`), ``regrets`` (arrays),
        ``derived`` (slope, exponent = -slope, log power, rate, source, fitted
        constant), ``notes``, ``constants``, ``config`` (of the first run: rho and
        radius_scale as run).
    """
    from rsb_sim.sweep import sweep

    from .bounds import instance_constants, laws_constants

    Ts = tuple(int(t) for t in Ts)
    if arms is None:
        p = tuple(float(x) for x in p)
        consts = instance_constants(dr, params, p)
    else:
        from rsb_theory.laws import parse_arms

        consts = laws_constants(dr, params, parse_arms(arms))
        p = (None,) * consts.K
    specs = []
    for j, T in enumerate(Ts):
        cfg = {"T": T, "trials": trials, "seed": seed, "stream": [j]}
        if rho is not None:
            cfg["rho"] = rho
        if radius_scale is not None:
            cfg["radius_scale"] = radius_scale
        if explore is not None:
            cfg["explore"] = explore_at(explore, T, len(p))
        if quantize is not None:
            cfg["quantize"] = int(quantize)
        inst = {"p": list(p)} if arms is None else {"arms": arms}
        specs.append({"algo": algo, "dr": dr, "params": dict(params), **inst, "config": cfg})
    keys = sweep(specs, own_dir(out, "runs"), progress=progress, **sweep_opts)
    with kept(f"every run in {out / 'runs'}"):
        return _evaluate(dr, params, p, algo, Ts, keys, out, consts, arms)


def _evaluate(dr: str, params: dict, p: tuple, algo: str, Ts: tuple, keys: list[str], out: Path, consts,
              arms: str | None = None) -> dict:
    """The part of :func:`bounds_data` after the sweep: the stored runs and the bound at each horizon."""
    import numpy as np

    from rsb_sim import store

    from .bound_rates import derive_rate, derive_rate_laws

    loaded = [store.load(out / "runs", k) for k in keys]
    regrets = [np.asarray(a["regrets"], dtype=float) for _s, a in loaded]
    derived = {"slope": None, "exponent": None, "log_power": None, "rate": "none", "source": "", "constant": None}
    if algo in BOUNDED:
        key = tuple(sorted(params.items()))
        info = derive_rate(dr, key, p, algo, "experiments")[0] if arms is None else \
            derive_rate_laws(dr, key, arms, algo, "experiments")[0]
        derived.update(slope=info.slope, exponent=info.exponent, log_power=info.log_power, rate=info.rate,
                       source=info.source)
    means = np.array([r.mean() for r in regrets])

    def shape(T):
        return T ** derived["slope"] * math.log(T) ** derived["log_power"]

    if derived["slope"] is not None and np.any(means > 0):
        logs = [math.log(m) - math.log(shape(T)) for T, m in zip(Ts, means) if m > 0]
        derived["constant"] = float(np.exp(np.mean(logs)))
    bounds, not_drawn = _bounds(algo, dr, params, p, arms, consts, Ts, loaded)
    rows = []
    for T, reg, (summary, _a), b in zip(Ts, regrets, loaded, bounds):
        n = reg.size
        std = float(reg.std(ddof=1)) if n > 1 else 0.0
        se = std / math.sqrt(n)
        m = float(reg.mean())
        # the bound with the rho the run used (SimConfig's default when none was given)
        fit = derived["constant"] * shape(T) if derived["constant"] is not None else None
        q05, q50, q95 = (float(v) for v in np.quantile(reg, [0.05, 0.5, 0.95]))
        rows.append({
            "dr": dr, "params": jsontext.exact(params, sort_keys=True),
            "p": arms if arms is not None else " ".join(f"{v:g}" for v in p),
            "algo": algo, "T": T, "eps": summary["eps"], "trials": n, "mean_regret": m, "std_regret": std,
            "stderr": se, "ci_low": m - 1.96 * se, "ci_high": m + 1.96 * se, "q05": q05, "q50": q50, "q95": q95,
            "bound": None if b is None else b.bound, "bound_discrete": None if b is None else b.discrete,
            "bound_Delta": None if b is None else b.Delta, "Delta_min": None if b is None else b.Delta_min,
            "side_threshold": None if b is None else b.threshold, "side_ok": None if b is None else b.side_ok,
            "trivial": consts.trivial, "vacuous": None if b is None else b.vacuous, "derived_rate_fit": fit,
            "degenerate": bool(summary["warnings"]),
        })
    notes = sorted({w for s, _a in loaded for w in s["warnings"]})
    return {"rows": rows, "regrets": regrets, "derived": derived, "notes": notes, "constants": consts,
            "config": loaded[0][0]["config"], "quantization": loaded[0][0].get("quantization"),
            "not_drawn": not_drawn, "trivial_name": "V* - min V" if arms is None else "V*"}


def _bounds(algo: str, dr: str, params: dict, p: tuple, arms: str | None, consts, Ts: tuple, loaded
            ) -> tuple[list, str | None]:
    """The theorem's bound at each horizon (with the eps and rho each run used), and why it is not drawn (or None).

    Bernoulli arms: :func:`proofs_checks.bounds.theorem_bound`.  Arm laws: :func:`proofs_checks.bounds.laws_bound`;
    if the grid of some horizon is above the enumeration budget no bound is drawn and the reason is returned.
    """
    from .bounds import laws_bound, theorem_bound

    if algo not in BOUNDED:
        return [None] * len(Ts), None
    runs = [(T, s["eps"], s["config"]["rho"]) for T, (s, _a) in zip(Ts, loaded)]
    if arms is None:
        return [theorem_bound(algo, dr, params, p, T, e, rho) for T, e, rho in runs], None
    from rsb_theory.laws import parse_arms

    laws = parse_arms(arms)
    out = []
    for T, e, rho in runs:
        try:
            out.append(laws_bound(algo, dr, params, laws, consts, T, e, rho))
        except ValueError as exc:  # the grid's enumeration is above its work budget (a count)
            reason = exc.message if isinstance(exc, ArgumentError) else str(exc)
            return [None] * len(Ts), (f"the theorem's bound is not drawn: Delta(eps) and Delta_min(eps) on the "
                                      f"arm laws need the grid enumerated at T = {T} (eps = {e:.4g}), and {reason}")
    return out, None


def short_arms(arms: str) -> str:
    """``--arms`` for a title: an empirical law's file by its name, not its whole path (the CSV header keeps it)."""
    return re.sub(r"empirical\(\s*([^:()]*[/\\])([^/\\:()]+):", r"empirical(\2:", arms)


def variant_notes(algo: str, radius_scale: float | None, explore) -> list[str]:
    """What the theorem's bound does not cover in a run whose constants differ from the paper's (words).

    Shared by ``rsb slopes`` and ``rsb plot bounds``, so that the caveat is printed wherever the bound is.
    """
    notes = []
    policy = catalog.get(algo)
    if explore is not None and policy.theorem is not None and policy.grid == "etc":
        notes.append("--explore replaces the ceil(N(eps)/K) pulls per arm of eq:number of samples main paper: the "
                     "theorems' bound is for N(eps)")
    if radius_scale is not None and radius_scale != 1.0 and policy.theorem is not None and policy.uses("radius_c"):
        notes.append(f"radius scaled by {radius_scale:g}: lemma: concentration no longer gives "
                     f"P(F_i not in C_t(i)) <= 2/T^2, so the theorems' bound is not proven for this variant")
    return notes


def title_of(dr: str, params: dict, p, algo: str, trials: int, config: dict, explore: str | None,
             arms: str | None = None) -> str:
    """The figure's title: the instance and only the options ``algo`` uses, as run (``config`` of a stored run)."""
    par = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
    reads = sim_options.READS[algo]
    opts = []
    if "eps" in reads:
        opts.append("eps = sqrt(K log T/T)")
    if "rho" in reads:
        opts.append(f"rho = {config['rho']:g}")
    if "radius_scale" in reads:
        opts.append(f"radius x{config['radius_scale']:g}")
    if explore is not None:
        opts.append(f"explore {explore} per arm")
    inst = f"p = {list(p)}" if arms is None else f"arms {short_arms(arms)}"
    return f"{dr}{'(' + par + ')' if par else ''}, {inst}, {algo}{''.join(', ' + o for o in opts)}; " \
           f"{trials} trials"


def plot_bounds_command(dr: str, params: dict, p, algo: str, out, Ts=DEFAULT_TS, trials: int = DEFAULT_TRIALS,
                        seed: int = 0, rho: float | None = None, radius_scale: float | None = None,
                        explore: str | None = None, progress=None, arms: str | None = None,
                        quantize: int | None = None, **sweep_opts) -> dict:
    """Run :func:`bounds_data`, write ``bounds-<dr>-<algo>.{png,pdf,csv,txt}`` into ``out``; return the paths.

    ``arms``: the text of ``--arms`` in place of ``p`` (then ``p`` is only its length K; module docstring).

    ``rho`` and ``radius_scale`` None: the defaults of :class:`rsb_sim.config.SimConfig`.
    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (executor, jobs, scheduler, chunk, wait, notify).
    Every argument is checked before anything is written; then ``out`` is held for the whole
    command (:func:`rsb_sim.dirlock.hold`; ``wait``: seconds to wait for another run on it).
    """
    from rsb_sim.dirlock import hold
    from rsb_theory.distortions import resolve

    Ts = check_request(algo, p, Ts, trials, rho, radius_scale, explore, quantize)
    resolve(dr, **params)  # names the argument on error
    if arms is None:  # h's constants before out is made: an h SymPy cannot expand leaves no empty directory (cached)
        from .bounds import instance_constants

        instance_constants(dr, params, tuple(float(x) for x in p))
    out = check_out(out)
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        return _plot_held(dr, params, p, algo, out, Ts, trials, seed, rho, radius_scale, explore, progress, arms,
                          quantize, **sweep_opts)


def _plot_held(dr: str, params: dict, p, algo: str, out: Path, Ts, trials: int, seed: int, rho, radius_scale,
               explore, progress, arms=None, quantize=None, **sweep_opts) -> dict:
    """:func:`plot_bounds_command` with ``out`` held."""
    data = bounds_data(dr, params, p, algo, Ts, trials, out, seed, rho, radius_scale, explore, progress, arms,
                       quantize, **sweep_opts)
    with kept(f"every run in {out / 'runs'}"):
        return _write_outputs(dr, params, p, algo, out, Ts, trials, seed, rho, radius_scale, explore, data, arms)


def _write_outputs(dr: str, params: dict, p, algo: str, out: Path, Ts, trials: int, seed: int, rho, radius_scale,
                   explore, data: dict, arms: str | None = None) -> dict:
    """``bounds-<dr>-<algo>.{png,pdf,csv,txt}`` in ``out``."""
    from rsb_sim.trajectory import spread_text

    from .figures import bounds_figure

    # the caveats of a variant of the paper's constants, wherever the bound is shown (text, CSV header, figure)
    data = {**data, "notes": variant_notes(algo, radius_scale, explore) + list(data["notes"])}
    stem = f"bounds-{_slug(dr)}-{algo}"
    paths = {k: out / f"{stem}.{k}" for k in ("png", "pdf", "csv", "txt")}
    c = data["constants"]
    title = title_of(dr, params, p, algo, trials, data["config"], explore, arms)
    save_figure(bounds_figure(data, title), paths["png"], paths["pdf"])
    inst = {"p": list(p)} if arms is None else {"arms": arms}
    header = {"dr": dr, "params": params, **inst, "algo": algo, "Ts": list(Ts), "trials": trials,
              "seed": seed, "rho": rho, "radius_scale": radius_scale, "explore": explore,
              "constants": {"K": c.K, "q": c.q, "L": c.L, "W": c.W, "B": c.B, "v_star": c.v_star,
                            "trivial": c.trivial},
              "derived": data["derived"], "warnings": data["notes"],
              **({"bound_not_drawn": data["not_drawn"]} if data.get("not_drawn") else {}),
              **({"quantization": data["quantization"]} if data.get("quantization") else {})}
    write_text(paths["csv"], csv_text(data["rows"], BOUND_COLUMNS, header, indent=None))
    if arms is None:
        consts = (f"Constants (derived): K = {c.K}, q = {c.q:g}, L = {c.L:.4g}, W = {c.W:.4g}, B = max h = {c.B:.4g} "
                  f"(the paper's bound on U_h is not defined; sup over laws on [0,1]), V* = {c.v_star:.4g}, trivial "
                  f"bound V* - min V = {c.trivial:.4g}.")
    else:
        consts = (f"Constants (derived for the laws, as rsb derive --arms): K = {c.K}, q = r = {c.q:g}, L = L_MH = "
                  f"L_H b^(1-q) = {c.L:.4g}, W = {c.W:.4g}, B = b max h = {c.B:.4g}, V* = V(alpha*) = "
                  f"{c.v_star:.4g}, trivial bound V* = {c.trivial:.4g} (U_h >= 0); no beta.")
    lines = [title, "", consts,
             f"Derived rate (exponents of T in the regret): {data['derived']['rate']} -- {data['derived']['source']}"]
    if data.get("not_drawn"):
        lines.append(f"Note: {data['not_drawn']}; the empirical regret is drawn.")
    if data.get("quantization"):
        lines.append(f"Quantised run (--quantize): {data['quantization']['note']}; the theorem's bound is for the "
                     f"exact algorithm and does not cover this error of the run's estimates.")
    for r in data["rows"]:
        if r["bound"] is None:
            why = "not drawn, see above" if data.get("not_drawn") else f"no bound in the paper for {algo}"
            lines.append(f"T = {r['T']}: mean regret {r['mean_regret']:.4g} ({why})")
            continue
        lines.append(f"T = {r['T']}: mean regret {spread_text(r['mean_regret'], r['stderr'], r['trials'])}; "
                     f"bound {r['bound']:.4g}"
                     f" ({'vacuous' if r['vacuous'] else 'non-trivial'}); side condition T > "
                     f"{r['side_threshold']:.4g}: {'holds' if r['side_ok'] else 'fails'}")
    for n in data["notes"]:
        lines.append(f"warning: {n}")
    write_text(paths["txt"], "\n".join(lines) + "\n")
    return {**{k: str(v) for k, v in paths.items()}, "rows": data["rows"], "derived": data["derived"],
            "not_drawn": data.get("not_drawn"), "warnings": data["notes"]}
