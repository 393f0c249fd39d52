"""Figures, drawing only: the reproduced experiments and the bound-vs-empirical plot.

Each function takes the numbers (rows computed elsewhere) and returns a
:class:`matplotlib.figure.Figure` built without pyplot (no global state, no
display); :func:`proofs_checks.outputs.save_figure` writes it.

* :func:`experiment_figure` -- one panel per variant (or per series) of an experiment
  of :mod:`proofs_checks.experiments`: mean regret per (algorithm, series) with the
  5%-95% band over trials;
* :func:`trajectory_figure` -- regret over time within runs (``rsb simulate --record``):
  the mean with its 95 % interval at each recorded step;
* :func:`bounds_figure` -- ``rsb plot bounds``: mean regret with a 95% normal
  band, the theorem's bound (filled markers where its side condition holds,
  crosses where it fails), the trivial bound with the vacuous region shaded, the
  derived rate fitted through the data, and the spread of the final regret;
* :func:`compare_figure` -- ``rsb compare``: both regret metrics against T with bootstrap intervals,
  the final regret per trial, the pull proportions against alpha* (and the optimal set);
* :func:`tuning_figure` -- ``rsb compare --tune``: regret against the multiplier of each algorithm's
  default exploration constant.

Exponents in legends are written by :func:`proofs_checks.bound_rates.format_rate`
(the exponent of T in the regret, with its sign).
"""

from __future__ import annotations

import math

import numpy as np

from rsb_sim.policies import catalog

#: Each policy's colour and printed name (its declaration: ``color``, ``title``).
_COLORS = {p.name: p.color for p in catalog.policies() if p.color}
ALGO_NAMES = {p.name: p.title for p in catalog.policies()}
#: Line styles: dashed for the algorithms that are not the paper's, beside the mixture algorithms.
_BASELINE_STYLE = {p.name: "--" for p in catalog.policies() if p.family == "baseline"}


def _figure(**kwargs):
    from matplotlib.figure import Figure

    return Figure(**kwargs)


def _widen_flat_log_axis(ax, rows: list[dict]) -> None:
    """Give a log axis at least one decade when every plotted value is (nearly) the same.

    Matplotlib otherwise zooms into a sliver around the single value and the
    tick labels collide with the title.
    """
    vals = np.array([v for r in rows for v in (r["mean_regret"], r["q05"], r["q95"]) if v > 0], dtype=float)
    if vals.size and vals.max() < 3.0 * vals.min():
        mid = float(np.sqrt(vals.max() * vals.min()))
        ax.set_ylim(mid / np.sqrt(10.0), mid * np.sqrt(10.0))


def variant_title(v, algos) -> str:
    """The panel title of a variant: the constants it changes, for the algorithms it runs only."""
    ucb_runs = any(catalog.get(a).grid == "ucb" for a in algos)
    parts = []
    if ucb_runs:
        parts.append(f"radius x{v.radius_scale:g}")
        parts.append(f"UCB explore {v.ucb_explore_frac:g}T/arm" if v.ucb_explore_frac is not None
                     else "UCB explore rho T eps/4")
    if any(catalog.get(a).grid == "etc" for a in algos):
        parts.append(f"ETC explore {v.etc_explore_frac:g}T/arm" if v.etc_explore_frac is not None
                     else "ETC N(eps)")
    what = "paper's constants" if v.name == "paper" else "rsb constants"
    return f"{what} ({', '.join(parts)})" if parts else what


def _panels(exp, rows: list[dict]) -> list[tuple[str, list[dict]]]:
    """(title, rows) of each panel: one per variant, or one per series (``exp.panels == "series"``)."""
    if exp.panels == "series":
        names = list(dict.fromkeys(pt.series for pt in exp.points))
        (var,) = exp.variants
        return [(f"{name}\n{variant_title(var, exp.algos)}", [r for r in rows if r["series"] == name])
                for name in names]
    return [(variant_title(v, exp.algos), [r for r in rows if r["variant"] == v.name]) for v in exp.variants]


def experiment_figure(exp, rows: list[dict]):
    """One panel per variant (or per series): mean regret per (algo, series) with the 5%-95% band over trials.

    With one panel per series (``mixture-vs-solitary``) a dotted line marks V(alpha*) - max_i U_h(F_i)
    (the ``best_arm_gap`` of the rows), the least regret a policy that converges to one arm keeps.

    Parameters
    ----------
    exp : proofs_checks.experiments.Experiment
    rows : list of dict
        Rows of :func:`proofs_checks.reproduce.simulate` (``.values``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib import colormaps

    panels = _panels(exp, rows)
    fig = _figure(figsize=(5.2 * len(panels), 4.0))
    axes = fig.subplots(1, len(panels), squeeze=False)
    styles = ["-", "--", ":", "-."]
    tab10 = colormaps["tab10"]
    by_series = exp.panels == "series"
    for ax, (title, vrows) in zip(axes[0], panels):
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
                color = tab10(series_names.index(series))
            ls = styles[series_names.index(series) % len(styles)] if len(series_names) > 1 else "-"
            if by_series and algo in _BASELINE_STYLE:
                ls = _BASELINE_STYLE[algo]
            label = ALGO_NAMES.get(algo, algo) + (f" ({series})" if series and not by_series else "")
            if any(r["degenerate"] for r in g):
                label += " [degenerate]"
            ax.plot(x, m, ls, marker="o", ms=4, color=color, label=label + " mean")
            ax.fill_between(x, lo, hi, color=color, alpha=0.18, lw=0)
        gaps = {r.get("best_arm_gap") for r in vrows} - {None}
        if by_series and len(gaps) == 1 and (gap := float(gaps.pop())) > 1e-12:
            ax.axhline(gap, color="black", ls=":", lw=1.2, label="V(alpha*) - max_i U_h(F_i)")
        if exp.log_x:
            ax.set_xscale("log")
        if exp.log_y:
            ax.set_yscale("log", nonpositive="clip")
            _widen_flat_log_axis(ax, vrows)
        if exp.x_name == "K":
            ax.set_xticks(sorted({r["x"] for r in vrows}))
        ax.set_xlabel(exp.x_label)
        ax.set_ylabel("regret  V(alpha*) - V(tau_T / T)")
        ax.set_title(title, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle(f"{exp.title}  [{exp.figure}]\nline: mean over trials; band: 5%-95% range", fontsize=10)
    fig.tight_layout()
    return fig


def _horizon_ticks(ax, Ts) -> None:
    """Label the log T axis at the horizons run, and nowhere else: matplotlib labels the minor ticks of an
    axis spanning about a decade (2x10^3, 3x10^3, ...), and those labels overlap."""
    from matplotlib.ticker import NullFormatter

    ax.set_xticks(Ts)
    ax.set_xticklabels([f"{int(t):.0e}".replace("e+0", "e") for t in Ts], fontsize=8)
    ax.xaxis.set_minor_formatter(NullFormatter())


def bounds_figure(data: dict, title: str):
    """The bound-vs-empirical figure of :func:`proofs_checks.bound_plot.bounds_data` (two panels).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from .bound_rates import format_rate

    rows = data["rows"]
    Ts = np.array([r["T"] for r in rows], dtype=float)
    m = np.array([r["mean_regret"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    algo = rows[0]["algo"]
    color = _COLORS.get(algo, "tab:blue")
    fig = _figure(figsize=(11, 4.3))
    ax, bx = fig.subplots(1, 2)
    ax.plot(Ts, m, "o-", color=color, label=f"{ALGO_NAMES.get(algo, algo)}: mean regret")
    pos_floor = max(float(np.min(m[m > 0])) * 1e-2, 1e-300) if np.any(m > 0) else 1e-12
    ax.fill_between(Ts, np.maximum(lo, pos_floor), np.maximum(hi, pos_floor), color=color, alpha=0.25, lw=0,
                    label="95% CI of the mean (normal)")
    trivial = rows[0]["trivial"]
    name = data.get("trivial_name", "V* - min V")
    ax.axhline(trivial, color="k", lw=1, ls=":", label=f"trivial bound {name} = {trivial:.3g}")
    if data.get("not_drawn"):  # arm laws whose grid is above the enumeration budget: say so on the figure
        ax.text(0.02, 0.02, "theorem's bound not drawn: the grid of Delta(eps), Delta_min(eps)\non these laws is "
                "above the enumeration budget (see the .txt)", transform=ax.transAxes, fontsize=7, color="tab:red",
                va="bottom")
    if rows[0]["bound"] is not None:
        b = np.array([r["bound"] for r in rows], dtype=float)
        ok = np.array([bool(r["side_ok"]) for r in rows])
        label = catalog.get(algo).theorem
        ax.plot(Ts, b, "-", color="tab:red", lw=1.2, label=f"{label} (paper's constants)")
        if ok.any():
            ax.plot(Ts[ok], b[ok], "o", color="tab:red", label="side condition holds")
        if (~ok).any():
            cond = "T > N(eps)" if catalog.get(algo).grid == "etc" else "T > max(e^K, T(eps))"
            ax.plot(Ts[~ok], b[~ok], "x", color="tab:red", ms=8, mew=2, label=f"side condition {cond} fails")
        top = max(float(np.nanmax(b[np.isfinite(b)])) if np.isfinite(b).any() else trivial, trivial) * 3
        ax.axhspan(trivial, top, color="tab:red", alpha=0.06, label="vacuous region (bound >= trivial)")
    d = data["derived"]
    if d["constant"] is not None:
        fit = np.array([r["derived_rate_fit"] for r in rows])
        ax.plot(Ts, fit, "--", color="tab:purple",
                label=f"derived rate {format_rate(d['slope'], d['log_power'])}, fitted")
    ax.set_xscale("log")
    ax.set_yscale("log", nonpositive="clip")
    ax.set_xlabel("horizon T")
    ax.set_ylabel("regret  V(alpha*) - V(tau_T / T)")
    ax.set_title("mean regret, theorem bound and derived rate", fontsize=9)
    _horizon_ticks(ax, Ts)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5, loc="best")
    regs = data["regrets"]
    pos = [np.where(r > 0, r, np.nan) for r in regs]
    logT = np.log10(Ts)
    bx.boxplot([r[np.isfinite(r)] if np.isfinite(r).any() else np.array([np.nan]) for r in pos], positions=logT,
               widths=0.25, showfliers=True, manage_ticks=False)
    bx.set_yscale("log", nonpositive="clip")
    bx.set_xticks(logT)
    bx.set_xticklabels([f"{int(t):.0e}".replace("e+0", "e") for t in Ts], fontsize=8)
    bx.set_xlabel("horizon T")
    bx.set_ylabel("final regret per trial (zeros not shown)")
    nz = [int(np.sum(r <= 0)) for r in regs]
    bx.set_title("spread of the final regret over trials" + (f" (zero-regret trials: {nz})" if any(nz) else ""),
                 fontsize=9)
    bx.grid(True, which="both", alpha=0.3)
    if data.get("notes"):  # the caveats of the .txt, on the figure too (a bound drawn for a variant it does not cover)
        fig.text(0.01, 0.005, "\n".join(f"note: {n}" for n in data["notes"][:3]), fontsize=6.5, color="tab:red",
                 va="bottom")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def trajectory_figure(summaries: list[dict], title: str = "Regret over time"):
    """Regret V(alpha*) - V(tau_t / t) against t for runs with a ``trajectory`` (``rsb simulate --record``).

    Parameters
    ----------
    summaries : list of dict
        :meth:`rsb_sim.engine.SimResult.summary` of each run (with ``trajectory``); one line each,
        labelled by its algorithm, with the 95 % Student-t interval as a band.
    title : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = _figure(figsize=(5.6, 4.0))
    ax = fig.subplots()
    for s in summaries:
        pts = s["trajectory"]
        t = np.array([p["t"] for p in pts], dtype=float)
        m = np.array([p["mean_regret"] for p in pts])
        color = _COLORS.get(s["algo"])
        ax.plot(t, m, _BASELINE_STYLE.get(s["algo"], "-"), marker="o", ms=3, color=color,
                label=ALGO_NAMES.get(s["algo"], s["algo"]))
        if all(p["ci_low"] is not None for p in pts):
            ax.fill_between(t, [p["ci_low"] for p in pts], [p["ci_high"] for p in pts], color=color, alpha=0.18,
                            lw=0)
    gaps = {s.get("best_arm_gap") for s in summaries} - {None}
    if len(gaps) == 1 and (gap := float(gaps.pop())) > 1e-12:
        ax.axhline(gap, color="black", ls=":", lw=1.2, label="V(alpha*) - max_i U_h(F_i)")
    ax.set_xscale("log")
    ax.set_yscale("log", nonpositive="clip")
    ax.set_xlabel("step t (within one run of horizon T)")
    ax.set_ylabel("regret  V(alpha*) - V(tau_t / t)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def _log_band(ax, x, lo, hi, color, floor) -> None:
    """A band [lo, hi] on a log axis; an end at or below 0 (all trials zero) is drawn at ``floor``."""
    lo = np.array([floor if v is None or v <= 0 else v for v in lo], dtype=float)
    hi = np.array([floor if v is None or v <= 0 else v for v in hi], dtype=float)
    ax.fill_between(x, lo, np.maximum(hi, lo), color=color, alpha=0.15, lw=0)


def _no_zero_ticks(ax) -> None:
    """Log axes label powers of ten only (no "0" tick: a log axis has no zero)."""
    from matplotlib.ticker import LogFormatterSciNotation, LogLocator

    ax.yaxis.set_major_locator(LogLocator(base=10))
    ax.yaxis.set_major_formatter(LogFormatterSciNotation(base=10))


def compare_figure(a: dict, title: str, trials: int, ranges=None):
    """``rsb compare``'s figure (:mod:`proofs_checks.compare`): four panels.

    (a) mean terminal mixture regret V* - V(tau_T/T) (``eq:regret``) against T and (b) mean pseudo-regret
    sum_k Delta_k N_k(T) against T, log axes, with 95 % bootstrap percentile intervals (inside the range of the
    data, :func:`proofs_checks.compare.bootstrap_ci`), the best-arm floor V(alpha*) - max_i U_h(F_i) in (a);
    (c) boxes of the final regret of each run at the largest T (log axis; trials of zero regret counted in the
    label); (d) the mean proportion of pulls tau_T/T of each arm at each T against alpha* (dotted), with the
    range of each alpha_i over the optimal set shaded where alpha* is not unique (``ranges``).

    Colour: the algorithm; line style in (a), (b): solid as reported (tuned when tuned), dashed its untuned
    default; line style in (d): the arm.  Runs with degenerate-constant warnings are marked "[degenerate]" in
    the legends and their warnings printed under the panels.

    Parameters
    ----------
    a : dict
        :func:`proofs_checks.compare.analyse`.
    title : str
    trials : int
    ranges : list of (float, float), optional
        :func:`proofs_checks.compare.optimal_ranges`.
    """
    from matplotlib.lines import Line2D

    stats, names, Ts = a["stats"], a["names"], sorted(a["samples"])
    algos = list(dict.fromkeys(a["settings"][n]["algo"] for n in names))
    colors = {al: f"C{i % 10}" for i, al in enumerate(algos)}
    fig = _figure(figsize=(13, 9.5), layout="constrained")
    (ax_a, ax_b), (ax_c, ax_d) = fig.subplots(2, 2)
    degenerate = {n for n in names if any(k.startswith(f"{n} T=") for k in a["warnings"])}

    def label(n):
        s = a["settings"][n]
        mult = a["multipliers"][n]
        ms = sorted({m for m in mult.values() if m is not None})
        extra = ""
        if s["setting"] == "tuned":
            extra = " tuned x" + "/".join(f"{m:g}" for m in ms)
        elif s["setting"] == "scaled":
            extra = f" x{ms[0]:g}"
        return n + extra + (" [degenerate]" if n in degenerate else "")

    for ax, metric in ((ax_a, "regret"), (ax_b, "pseudo_regret")):
        positive = [v["mean"] for n in names for v in stats[metric][n].values() if v["mean"] > 0]
        floor = min(positive) / 20 if positive else 1e-12
        for n in names:
            per = stats[metric][n]
            m = np.array([max(per[T]["mean"], floor) for T in Ts])
            color = colors[a["settings"][n]["algo"]]
            ls = "--" if a["settings"][n]["setting"] == "default" and n.endswith("(default)") else "-"
            ax.plot(Ts, m, ls, marker="o", ms=4, color=color, label=label(n))
            _log_band(ax, Ts, [per[T]["ci_low"] for T in Ts], [per[T]["ci_high"] for T in Ts], color, floor)
        ax.set_xscale("log")
        ax.set_yscale("log", nonpositive="clip")
        _horizon_ticks(ax, Ts)
        _no_zero_ticks(ax)
        ax.set_xlabel("horizon T")
        ax.grid(True, which="both", alpha=0.3)
    gap = a["best_arm_gap"]
    if gap is not None and gap > 1e-12:
        ax_a.axhline(gap, color="k", ls=":", lw=1.2)
    ax_a.set_ylabel("mean regret V(alpha*) - V(tau_T/T)")
    ax_a.set_title("(a) terminal mixture regret (eq:regret), mean and 95 % bootstrap interval", fontsize=9)
    ax_b.set_ylabel("mean pseudo-regret sum_k Delta_k N_k(T)")
    ax_b.set_title("(b) pseudo-regret against the best single arm, mean and 95 % bootstrap interval\n"
                   "Delta_k = max_i U_h(F_i) - U_h(F_k) = " + ", ".join(f"{g:.3g}" for g in a["arm_gaps"]), fontsize=9)
    handles = [Line2D([], [], color=colors[a["settings"][n]["algo"]],
                      ls="--" if n.endswith("(default)") else "-", marker="o", ms=4, label=label(n)) for n in names]
    if gap is not None and gap > 1e-12:
        handles.append(Line2D([], [], color="k", ls=":",
                              label=f"best-arm floor V(alpha*) - max_i U_h(F_i) = {gap:.3g}"))
    handles.append(Line2D([], [], color="grey", lw=6, alpha=0.3, label="95 % bootstrap interval of the mean"))
    if any(n.endswith("(default)") for n in names):
        handles.append(Line2D([], [], color="k", ls="--", label="dashed: the algorithm's untuned default"))
    ax_a.legend(handles=handles, fontsize=7, loc="best")
    last = Ts[-1]
    data = [a["samples"][last][n]["regret"] for n in names]
    pos = [x[x > 0] if np.any(x > 0) else np.array([np.nan]) for x in data]
    ax_c.boxplot(pos, showfliers=True)
    zeros = [int(np.sum(x <= 0)) for x in data]
    ax_c.set_xticks(range(1, len(names) + 1),
                    [n + (f"\n({z} zero)" if z else "") for n, z in zip(names, zeros)], rotation=30, fontsize=7,
                    ha="right")
    if any(np.any(x > 0) for x in data):
        ax_c.set_yscale("log", nonpositive="clip")
        _no_zero_ticks(ax_c)
    else:  # every final regret is 0 (an h flat at the optimum): a log axis has nothing to show, and Matplotlib raises
        ax_c.set_ylim(-1, 1)
    if gap is not None and gap > 1e-12:
        ax_c.axhline(gap, color="k", ls=":", lw=1.2)
    ax_c.set_ylabel(f"final regret at T = {last} (log; zeros counted below the name)")
    ax_c.set_title(f"(c) final regret per trial at T = {last}, {trials} trials (box: quartiles, whiskers 1.5 IQR)",
                   fontsize=9)
    ax_c.grid(True, which="both", alpha=0.3)
    K = len(a["alpha_star"])
    styles = ["-", "--", "-.", ":", (0, (3, 1, 1, 1)), (0, (5, 2))]
    for n in names:
        if n.endswith("(default)"):
            continue  # (d) shows the runs as reported
        P = np.array([a["props"][n][T] for T in Ts])
        for i in range(K):
            ax_d.plot(Ts, P[:, i], ls=styles[i % len(styles)], marker=".", color=colors[a["settings"][n]["algo"]])
    for i, x in enumerate(a["alpha_star"]):
        ax_d.axhline(x, color="grey", ls=":", lw=1.2)
        ax_d.annotate(f"alpha*_{i + 1}", (Ts[0], x), fontsize=7, color="grey", va="bottom")
    if ranges is not None:  # alpha* is one of many optima: a bar per arm, right of the data, in the arm's style
        span = math.log(Ts[-1] / Ts[0]) if len(Ts) > 1 else 1.0
        for i, (lo, hi) in enumerate(ranges):
            x = Ts[-1] * math.exp(span * (0.06 + 0.05 * i))
            ax_d.plot([x, x], [lo, hi], color="dimgrey", lw=2.5, ls=styles[i % len(styles)], solid_capstyle="butt")
            ax_d.plot([x], [a["alpha_star"][i]], "o", color="dimgrey", ms=3)
        ax_d.set_xlim(right=Ts[-1] * math.exp(span * (0.12 + 0.05 * K)))
    ax_d.set_xscale("log")
    _horizon_ticks(ax_d, Ts)
    ax_d.set_ylim(-0.02, 1.02)
    ax_d.set_xlabel("horizon T")
    ax_d.set_ylabel("mean proportion of pulls tau_T(i)/T")
    ax_d.set_title("(d) pull proportions against alpha*" + ("\nalpha* is not unique: the bars on the right span "
                   "alpha_i over the optimal set" if ranges is not None else ""), fontsize=9)
    hd = [Line2D([], [], color=colors[al], lw=2, label=al) for al in algos]
    hd += [Line2D([], [], color="k", ls=styles[i % len(styles)], label=f"arm {i + 1}") for i in range(K)]
    hd.append(Line2D([], [], color="grey", ls=":", label="alpha* (eq:optimal alpha)"))
    if ranges is not None:
        hd.append(Line2D([], [], color="dimgrey", lw=2.5, label="alpha_i over the optimal set (dot: alpha*)"))
    ax_d.legend(handles=hd, fontsize=7, loc="best", ncol=2)
    notes = [f"{k}: {w}" for k, ws in a["warnings"].items() for w in ws] + list(a["notes"].values())
    if notes:
        shown = [n if len(n) <= 160 else n[:157] + "..." for n in notes[:5]]
        more = f"\n(+ {len(notes) - 5} more in compare.csv's header)" if len(notes) > 5 else ""
        fig.text(0.01, -0.01, "warnings:\n" + "\n".join(shown) + more, fontsize=6.5, color="tab:red", va="top")
    fig.suptitle(title.replace("$", r"\$"))
    return fig


def tuning_figure(rows: list[dict], title: str):
    """The sensitivity figure of ``rsb compare --tune``: mean regret on the tuning seeds against the multiplier
    of each algorithm's default exploration constant, one panel per horizon, one line per algorithm and tuning
    instance (solid: the compared instance; dashed: the others), the chosen multiplier circled.

    ``rows``: the rows of ``compare_tuning.csv`` (:func:`proofs_checks.compare.choose`).
    """
    from matplotlib.lines import Line2D

    Ts = sorted({r["T"] for r in rows})
    algos = list(dict.fromkeys(r["algo"] for r in rows))
    colors = {al: f"C{i % 10}" for i, al in enumerate(algos)}
    fig = _figure(figsize=(5.0 * len(Ts), 4.4), layout="constrained")
    axes = fig.subplots(1, len(Ts), squeeze=False)[0]
    instances = sorted({r["instance"] for r in rows})
    for ax, T in zip(axes, Ts):
        for al in algos:
            for i in instances:
                g = sorted((r for r in rows if r["T"] == T and r["algo"] == al and r["instance"] == i),
                           key=lambda r: r["multiplier"])
                if not g:
                    continue
                x = [r["multiplier"] for r in g]
                y = [max(r["mean_regret"], 1e-12) for r in g]
                ax.plot(x, y, "-" if i == 0 else "--", marker="o", ms=3, color=colors[al])
                if i == 0:
                    for r in g:
                        if r["chosen"]:
                            ax.plot([r["multiplier"]], [max(r["mean_regret"], 1e-12)], "o", ms=11, mfc="none",
                                    mec=colors[al], mew=1.5)
        ax.set_xscale("log")
        ax.set_yscale("log", nonpositive="clip")
        _no_zero_ticks(ax)
        ax.set_xlabel("multiplier of the algorithm's default exploration constant")
        ax.set_ylabel("mean regret on the tuning seeds")
        ax.set_title(f"T = {T}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    hd = [Line2D([], [], color=colors[al], marker="o", ms=3, label=al) for al in algos]
    hd.append(Line2D([], [], color="k", marker="o", ms=11, mfc="none", ls="", label="chosen multiplier"))
    if len(instances) > 1:
        hd += [Line2D([], [], color="k", ls="-", label="compared instance"),
               Line2D([], [], color="k", ls="--", label="other tuning instances")]
    axes[0].legend(handles=hd, fontsize=7, loc="best")
    fig.suptitle(f"{title}: sensitivity to the exploration constant (tuning seeds)".replace("$", r"\$"))
    return fig
