"""Figures: the reproduced experiments and the bound-vs-empirical plot (``rsb plot bounds``).

matplotlib with the Agg backend (no display needed); every figure is written
as PNG and PDF.

``rsb plot bounds --dr NAME [--param k=v] --p P,... --algo NAME --out DIR
[--Ts T1,T2,...] [--trials M]`` simulates the algorithm at each horizon
(:mod:`rsb_sim.sweep`, cached in ``DIR/runs``) and draws, on log-log axes,

* the mean final regret (``eq:regret``) with a 95% normal confidence band
  (mean +- 1.96 standard errors);
* the spread of the final regret at each T (box plots, second panel);
* the theorem's bound with the paper's constants (``theorem: ETC upper bound``
  for rs-etc-m, ``theorem:UCB upper bound`` for rs-ucb-m / ce-ucb-m;
  :mod:`proofs_checks.bounds`): filled markers where its side condition
  (T > N(eps), resp. T > max(e^K, T(eps))) holds, crosses where it fails; the
  trivial bound V* - min V as a horizontal line, with the region above it
  (vacuous) shaded;
* the derived rate T^-e (log T)^y of the bound for the eps schedule
  sqrt(K log T / T) (:func:`proofs_checks.slopes.derive`: exponents from
  :mod:`rsb_theory.rates` with the instance's q, r, beta), its constant fitted
  through the data (least squares on the log scale).

The CSV has one row per T (see :data:`BOUND_COLUMNS`).
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import numpy as np

from rsb_sim.args import add_sweep_options, parse_sweep_options

#: Columns of the ``rsb plot bounds`` CSV.
BOUND_COLUMNS: tuple[str, ...] = (
    "dr", "params", "p", "algo", "T", "eps", "trials", "mean_regret", "std_regret", "stderr", "ci_low", "ci_high",
    "q05", "q50", "q95", "bound", "bound_discrete", "bound_Delta", "Delta_min", "side_threshold", "side_ok",
    "trivial", "vacuous", "derived_rate_fit", "degenerate",
)

_COLORS = {"rs-ucb-m": "tab:blue", "rs-etc-m": "tab:orange", "ce-ucb-m": "tab:green", "uniform": "tab:gray"}
_ALGO_NAMES = {"rs-ucb-m": "RS-UCB-M", "rs-etc-m": "RS-ETC-M", "ce-ucb-m": "CE-UCB-M", "uniform": "Uniform"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, png, pdf) -> None:
    for path in (png, pdf):
        path = Path(path)
        tmp = path.with_name(path.stem + ".tmp" + path.suffix)
        fig.savefig(tmp, dpi=130, bbox_inches="tight")
        tmp.replace(path)


# ---------------------------------------------------------------------------
# experiments
# ---------------------------------------------------------------------------
def plot_experiment(exp, rows: list[dict], png, pdf) -> None:
    """One panel per variant: mean regret per (algo, series) with the 5%-95% band over trials.

    Parameters
    ----------
    exp : proofs_checks.experiments.Experiment
    rows : list of dict
        Rows of :func:`proofs_checks.reproduce.simulate` (``.values``).
    png, pdf : path
    """
    plt = _plt()
    variants = [v.name for v in exp.variants]
    fig, axes = plt.subplots(1, len(variants), figsize=(5.2 * len(variants), 4.0), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for ax, vname in zip(axes[0], variants):
        vrows = [r for r in rows if r["variant"] == vname]
        groups = sorted({(r["algo"], r["series"]) for r in vrows}, key=lambda g: (exp.algos.index(g[0]), g[1]))
        series_names = sorted({g[1] for g in groups})
        for algo, series in groups:
            g = sorted((r for r in vrows if r["algo"] == algo and r["series"] == series), key=lambda r: r["x"])
            x = np.array([r["x"] for r in g], dtype=float)
            m = np.array([r["mean_regret"] for r in g])
            lo = np.array([r["q05"] for r in g])
            hi = np.array([r["q95"] for r in g])
            color = _COLORS.get(algo, None)
            if len(series_names) > 1:
                color = plt.cm.tab10(series_names.index(series))
            ls = styles[series_names.index(series) % len(styles)] if len(series_names) > 1 else "-"
            label = _ALGO_NAMES.get(algo, algo) + (f" ({series})" if series else "")
            if any(r["degenerate"] for r in g):
                label += " [degenerate]"
            ax.plot(x, m, ls, marker="o", ms=4, color=color, label=label + " mean")
            ax.fill_between(x, lo, hi, color=color, alpha=0.18, lw=0)
        if exp.log_x:
            ax.set_xscale("log")
        if exp.log_y:
            ax.set_yscale("log", nonpositive="clip")
            _widen_flat_log_axis(ax, [r for r in vrows])
        if exp.x_name == "K":
            ax.set_xticks(sorted({r["x"] for r in vrows}))
        ax.set_xlabel(exp.x_label)
        ax.set_ylabel("regret  V(alpha*) - V(tau_T / T)")
        var = next(v for v in exp.variants if v.name == vname)
        ax.set_title(_variant_title(var), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle(f"{exp.title}  [{exp.figure}]\nline: mean over trials; band: 5%-95% range", fontsize=10)
    fig.tight_layout()
    _save(fig, png, pdf)
    plt.close(fig)


def _widen_flat_log_axis(ax, rows: list[dict]) -> None:
    """Give a log axis at least one decade when every plotted value is (nearly) the same.

    Matplotlib otherwise zooms into a sliver around the single value and the
    tick labels collide with the title.
    """
    vals = np.array([v for r in rows for v in (r["mean_regret"], r["q05"], r["q95"]) if v > 0], dtype=float)
    if vals.size and vals.max() < 3.0 * vals.min():
        mid = float(np.sqrt(vals.max() * vals.min()))
        ax.set_ylim(mid / np.sqrt(10.0), mid * np.sqrt(10.0))


def _variant_title(v) -> str:
    if v.name == "paper":
        ucb = f"UCB explore {v.ucb_explore_frac:g}T/arm" if v.ucb_explore_frac is not None else "UCB explore rho T eps/4"
        return f"paper's constants (radius x1, {ucb}, ETC N(eps))"
    ucb = f"UCB explore {v.ucb_explore_frac:g}T/arm" if v.ucb_explore_frac is not None else "UCB explore rho T eps/4"
    etc = f", ETC explore {v.etc_explore_frac:g}T/arm" if v.etc_explore_frac is not None else ""
    return f"rsb constants (radius x{v.radius_scale:g}, {ucb}{etc})"


# ---------------------------------------------------------------------------
# bounds vs empirical
# ---------------------------------------------------------------------------
DEFAULT_TS: tuple[int, ...] = (1000, 3000, 10_000, 30_000, 100_000)
DEFAULT_TRIALS = 100


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:60] or "h"


def bounds_data(dr: str, params: dict, p, algo: str, Ts, trials: int, out: Path, seed: int = 0, rho: float = 0.1,
                radius_scale: float = 1.0, explore: str | None = None, progress=None, **sweep_opts) -> dict:
    """Simulate ``algo`` at each horizon and evaluate the theorem's bound there.

    Returns
    -------
    dict
        ``rows`` (one dict per T, :data:`BOUND_COLUMNS`), ``regrets`` (arrays),
        ``derived`` (exponent, log power, rate, source, fitted constant), ``notes``.
    """
    from rsb_sim import store
    from rsb_sim.sweep import sweep

    from .bounds import BOUND_LABELS, instance_constants, theorem_bound
    from .slopes import SlopeRequest, _explore_value, derive

    p = tuple(float(x) for x in p)
    Ts = tuple(int(t) for t in Ts)
    consts = instance_constants(dr, params, p)
    specs = []
    for i, T in enumerate(Ts):
        cfg = {"T": T, "trials": trials, "seed": seed + i, "eps": None, "rho": rho,
               "radius_scale": radius_scale, "explore": _explore_value(explore, T)}
        specs.append({"algo": algo, "dr": dr, "params": dict(params), "p": list(p), "config": cfg})
    keys = sweep(specs, out / "runs", progress=progress, **sweep_opts)
    loaded = [store.load(out / "runs", k) for k in keys]
    regrets = [np.asarray(a["regrets"], dtype=float) for _s, a in loaded]
    derived = {"exponent": None, "log_power": None, "rate": "none", "source": "", "constant": None}
    if algo in BOUND_LABELS and len(set(Ts)) >= 2:
        req = SlopeRequest(dr=dr, params=tuple(params.items()), p=p, algo=algo, Ts=Ts, trials=max(2, trials),
                           seed=seed, eps="experiments", radius_scale=radius_scale, rho=rho, explore=explore)
        info, _solitary, _ip = derive(req)
        derived.update(exponent=info.exponent, log_power=info.log_power, rate=info.rate, source=info.source)
    means = np.array([r.mean() for r in regrets])
    if derived["exponent"] is not None:
        shape = np.array([T ** (-derived["exponent"]) * math.log(T) ** derived["log_power"] for T in Ts])
        pos = means > 0
        if pos.any():
            derived["constant"] = float(np.exp(np.mean(np.log(means[pos]) - np.log(shape[pos]))))
    rows = []
    for T, reg, (summary, _a) in zip(Ts, regrets, loaded):
        n = reg.size
        std = float(reg.std(ddof=1)) if n > 1 else 0.0
        se = std / math.sqrt(n)
        m = float(reg.mean())
        b = theorem_bound(algo, dr, params, p, T, summary["eps"], rho) if algo in BOUND_LABELS else None
        fit = (derived["constant"] * T ** (-derived["exponent"]) * math.log(T) ** derived["log_power"]
               if derived["constant"] is not None else None)
        q05, q50, q95 = (float(v) for v in np.quantile(reg, [0.05, 0.5, 0.95]))
        rows.append({
            "dr": dr, "params": json.dumps(params, sort_keys=True), "p": " ".join(f"{v:g}" for v in p),
            "algo": algo, "T": T, "eps": summary["eps"], "trials": n, "mean_regret": m, "std_regret": std,
            "stderr": se, "ci_low": m - 1.96 * se, "ci_high": m + 1.96 * se, "q05": q05, "q50": q50, "q95": q95,
            "bound": None if b is None else b.bound, "bound_discrete": None if b is None else b.discrete,
            "bound_Delta": None if b is None else b.Delta, "Delta_min": None if b is None else b.Delta_min,
            "side_threshold": None if b is None else b.threshold, "side_ok": None if b is None else b.side_ok,
            "trivial": consts.trivial, "vacuous": None if b is None else b.vacuous, "derived_rate_fit": fit,
            "degenerate": bool(summary["warnings"]),
        })
    notes = sorted({w for s, _a in loaded for w in s["warnings"]})
    return {"rows": rows, "regrets": regrets, "derived": derived, "notes": notes, "constants": consts}


def plot_bounds(data: dict, png, pdf, title: str) -> None:
    """Draw the bound-vs-empirical figure of :func:`bounds_data` (two panels)."""
    plt = _plt()
    rows = data["rows"]
    Ts = np.array([r["T"] for r in rows], dtype=float)
    m = np.array([r["mean_regret"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    algo = rows[0]["algo"]
    color = _COLORS.get(algo, "tab:blue")
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.3))
    ax.plot(Ts, m, "o-", color=color, label=f"{_ALGO_NAMES.get(algo, algo)}: mean regret")
    pos_floor = max(float(np.min(m[m > 0])) * 1e-2, 1e-300) if np.any(m > 0) else 1e-12
    ax.fill_between(Ts, np.maximum(lo, pos_floor), np.maximum(hi, pos_floor), color=color, alpha=0.25, lw=0,
                    label="95% CI of the mean (normal)")
    trivial = rows[0]["trivial"]
    ax.axhline(trivial, color="k", lw=1, ls=":", label=f"trivial bound V* - min V = {trivial:.3g}")
    if rows[0]["bound"] is not None:
        b = np.array([r["bound"] for r in rows], dtype=float)
        ok = np.array([bool(r["side_ok"]) for r in rows])
        label = "theorem: ETC upper bound" if algo == "rs-etc-m" else "theorem:UCB upper bound"
        ax.plot(Ts, b, "-", color="tab:red", lw=1.2, label=f"{label} (paper's constants)")
        if ok.any():
            ax.plot(Ts[ok], b[ok], "o", color="tab:red", label="side condition holds")
        if (~ok).any():
            cond = "T > N(eps)" if algo == "rs-etc-m" else "T > max(e^K, T(eps))"
            ax.plot(Ts[~ok], b[~ok], "x", color="tab:red", ms=8, mew=2, label=f"side condition {cond} fails")
        top = max(float(np.nanmax(b[np.isfinite(b)])) if np.isfinite(b).any() else trivial, trivial) * 3
        ax.axhspan(trivial, top, color="tab:red", alpha=0.06, label="vacuous region (bound >= trivial)")
    d = data["derived"]
    if d["constant"] is not None:
        fit = np.array([r["derived_rate_fit"] for r in rows])
        ax.plot(Ts, fit, "--", color="tab:purple",
                label=f"derived rate T^-{d['exponent']:.3g} (log T)^{d['log_power']:.3g}, fitted")
    ax.set_xscale("log")
    ax.set_yscale("log", nonpositive="clip")
    ax.set_xlabel("horizon T")
    ax.set_ylabel("regret  V(alpha*) - V(tau_T / T)")
    ax.set_title("mean regret, theorem bound and derived rate", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5, loc="best")
    regs = data["regrets"]
    pos = [np.where(r > 0, r, np.nan) for r in regs]
    widths = 0.25
    logT = np.log10(Ts)
    bx.boxplot([r[np.isfinite(r)] if np.isfinite(r).any() else np.array([np.nan]) for r in pos], positions=logT,
               widths=widths, showfliers=True, manage_ticks=False)
    bx.set_yscale("log", nonpositive="clip")
    bx.set_xticks(logT)
    bx.set_xticklabels([f"{int(t):.0e}".replace("e+0", "e") for t in Ts], fontsize=8)
    bx.set_xlabel("horizon T")
    bx.set_ylabel("final regret per trial (zeros not shown)")
    nz = [int(np.sum(r <= 0)) for r in regs]
    bx.set_title("spread of the final regret over trials" + (f" (zero-regret trials: {nz})" if any(nz) else ""),
                 fontsize=9)
    bx.grid(True, which="both", alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    _save(fig, png, pdf)
    plt.close(fig)


def plot_bounds_command(dr: str, params: dict, p, algo: str, out, Ts=DEFAULT_TS, trials: int = DEFAULT_TRIALS,
                        seed: int = 0, rho: float = 0.1, radius_scale: float = 1.0, explore: str | None = None,
                        progress=None, **sweep_opts) -> dict:
    """Run :func:`bounds_data`, write ``bounds-<dr>-<algo>.{png,pdf,csv,txt}`` into ``out``; return the paths.

    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (executor, jobs, scheduler, chunk).
    """
    from rsb_sim.config import ALGORITHMS
    from rsb_theory.distortions import resolve

    from .reproduce import _write_text, check_out

    if algo not in ALGORITHMS:
        raise ValueError(f"argument 'algo': unknown algorithm {algo!r}; known: {', '.join(ALGORITHMS)}")
    resolve(dr, **params)  # names the argument on error
    Ts = tuple(int(t) for t in Ts)
    if len(Ts) < 2 or len(set(Ts)) != len(Ts) or list(Ts) != sorted(Ts) or Ts[0] < 2:
        raise ValueError(f"argument 'Ts': need at least two distinct increasing horizons >= 2, got {Ts!r}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"argument 'trials': need an integer >= 1, got {trials!r}")
    out = check_out(out)
    out.mkdir(parents=True, exist_ok=True)
    data = bounds_data(dr, params, p, algo, Ts, trials, out, seed, rho, radius_scale, explore, progress, **sweep_opts)
    stem = f"bounds-{_slug(dr)}-{algo}"
    paths = {k: out / f"{stem}.{k}" for k in ("png", "pdf", "csv", "txt")}
    par = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
    c = data["constants"]
    title = (f"{dr}{'(' + par + ')' if par else ''}, p = {list(p)}, {algo}, eps = sqrt(K log T/T), rho = {rho:g}, "
             f"radius x{radius_scale:g}{', explore ' + explore if explore else ''}; {trials} trials")
    plot_bounds(data, paths["png"], paths["pdf"], title)
    import csv
    import io

    buf = io.StringIO()
    header = {"dr": dr, "params": params, "p": list(p), "algo": algo, "Ts": list(Ts), "trials": trials,
              "seed": seed, "rho": rho, "radius_scale": radius_scale, "explore": explore,
              "constants": {"K": c.K, "q": c.q, "L": c.L, "W": c.W, "B": c.B, "v_star": c.v_star,
                            "trivial": c.trivial},
              "derived": data["derived"], "warnings": data["notes"]}
    for line in json.dumps(header, default=str).splitlines():
        buf.write(f"# {line}\n")
    w = csv.DictWriter(buf, fieldnames=list(BOUND_COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in data["rows"]:
        w.writerow({k: ("" if v is None else (repr(v) if isinstance(v, float) else v)) for k, v in r.items()})
    _write_text(paths["csv"], buf.getvalue())
    lines = [title, "",
             f"Constants (derived): K = {c.K}, q = {c.q:g}, L = {c.L:.4g}, W = {c.W:.4g}, B = max h = {c.B:.4g} "
             f"(the paper's bound on U_h is not defined; sup over laws on [0,1]), V* = {c.v_star:.4g}, trivial "
             f"bound V* - min V = {c.trivial:.4g}.",
             f"Derived rate: {data['derived']['rate']} -- {data['derived']['source']}"]
    for r in data["rows"]:
        if r["bound"] is None:
            lines.append(f"T = {r['T']}: mean regret {r['mean_regret']:.4g} (no bound in the paper for {algo})")
            continue
        lines.append(f"T = {r['T']}: mean regret {r['mean_regret']:.4g} +- {r['stderr']:.2g}; bound {r['bound']:.4g}"
                     f" ({'vacuous' if r['vacuous'] else 'non-trivial'}); side condition T > "
                     f"{r['side_threshold']:.4g}: {'holds' if r['side_ok'] else 'fails'}")
    for n in data["notes"]:
        lines.append(f"warning: {n}")
    _write_text(paths["txt"], "\n".join(lines) + "\n")
    return {**{k: str(v) for k, v in paths.items()}, "rows": data["rows"], "derived": data["derived"]}


def cmd_plot(args) -> str:
    from .slopes import _parse_expr

    if args.what != "bounds":
        raise ValueError(f"argument 'what': unknown plot {args.what!r}; known: bounds")
    params = {}
    for item in args.param or []:
        if "=" not in item:
            raise ValueError(f"argument '--param': expected k=v, got {item!r}")
        k, v = item.split("=", 1)
        params[k.strip()] = v.strip()
    from rsb_sim.args import parse_means as _means

    p = _means(args.p)
    try:
        Ts = tuple(int(float(t)) for t in args.Ts.split(",") if t.strip())
    except ValueError:
        raise ValueError(f"argument '--Ts': expected comma-separated integers, got {args.Ts!r}") from None

    def num(text, name, lo, integer=False):
        try:
            v = float(text)
        except (TypeError, ValueError):
            raise ValueError(f"argument '--{name}': not a number: {text!r}") from None
        if not math.isfinite(v) or v < lo or (integer and v != int(v)):
            raise ValueError(f"argument '--{name}': need {'an integer' if integer else 'a number'} >= {lo}, "
                             f"got {text!r}")
        return int(v) if integer else v

    trials = num(args.trials, "trials", 1, True)
    seed = num(args.seed, "seed", 0, True)
    rho = num(args.rho, "rho", 0)
    rs = num(args.radius_scale, "radius-scale", 0)
    if args.explore is not None:
        _parse_expr(args.explore, "explore")
    opts = parse_sweep_options(args, default_jobs=1)
    progress = None
    if not args.quiet and sys.stderr.isatty():
        from rsb_sim.sweep import tqdm_progress

        progress = tqdm_progress("rsb plot bounds")

    try:
        res = plot_bounds_command(args.dr, params, p, args.algo, args.out, Ts, trials, seed, rho, rs, args.explore,
                                  progress, **opts)
    except ValueError as exc:
        msg = str(exc)
        for name, flag in (("algo", "--algo"), ("Ts", "--Ts"), ("trials", "--trials"), ("out", "--out"),
                           ("h", "--dr"), ("dr", "--dr"), ("rho", "--rho"), ("radius_scale", "--radius-scale"),
                           ("explore", "--explore"), ("p", "--p")):
            msg = msg.replace(f"argument '{name}'", f"argument '{flag}'")
        raise ValueError(msg) from None
    if args.format == "json":
        return json.dumps(res, indent=1, default=str)
    lines = [f"{res['png']} {res['pdf']} {res['csv']} {res['txt']}", f"derived rate: {res['derived']['rate']}"]
    for r in res["rows"]:
        b = "-" if r["bound"] is None else f"{r['bound']:.3g} ({'vacuous' if r['vacuous'] else 'non-trivial'}, " \
                                           f"side {'ok' if r['side_ok'] else 'fails'})"
        lines.append(f"T={r['T']}: mean regret {r['mean_regret']:.4g} +- {r['stderr']:.2g}; bound {b}")
    return "\n".join(lines)


def add_command(sub) -> None:
    """Register ``rsb plot`` on an argparse subparsers object."""
    s = sub.add_parser("plot", help="figures: 'bounds' = the theorem's bound vs the empirical regret")
    s.add_argument("what", help="bounds")
    s.add_argument("--dr", required=True, help="distortion: a registry name or an expression in u")
    s.add_argument("--param", action="append", metavar="K=V", help="distortion parameter (repeatable)")
    s.add_argument("--p", required=True, help="Bernoulli means, comma-separated")
    s.add_argument("--algo", required=True, help="rs-etc-m, rs-ucb-m, ce-ucb-m or uniform")
    s.add_argument("--out", required=True, help="output directory")
    s.add_argument("--Ts", default=",".join(map(str, DEFAULT_TS)), help="horizons, comma-separated")
    s.add_argument("--trials", default=str(DEFAULT_TRIALS), help=f"trials per horizon (default {DEFAULT_TRIALS})")
    s.add_argument("--seed", default="0", help="root seed (horizon i uses seed + i)")
    s.add_argument("--rho", default="0.1", help="exploration rate of the UCBs (default 0.1)")
    s.add_argument("--radius-scale", dest="radius_scale", default="1", help="factor on the confidence radius")
    s.add_argument("--explore", default=None,
                   help="ETC: replaces N(eps); UCBs: forced pulls per arm; integer or expression in T (e.g. T/10)")
    s.add_argument("--format", choices=("json", "table"), default="table")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    add_sweep_options(s, default_jobs="1")
    s.set_defaults(func=cmd_plot)
