"""``rsb reproduce``: run the paper's experiments and write their figures and data.

For an experiment of :mod:`proofs_checks.experiments` the runs are simulated
through :func:`rsb_sim.sweep.sweep` into ``DIR/runs`` (resumable: a rerun skips
the runs already stored), then

* ``DIR/<name>.csv`` -- one row per (variant, algo, series, x): mean regret,
  std, stderr, 5/50/95% quantiles of the final regret over trials, trials, T,
  and the configuration; ``#`` header lines hold the experiment's full
  description, the seed and the package versions as JSON;
* ``DIR/<name>.json`` -- the same header as a sidecar;
* ``DIR/<name>.png`` and ``.pdf`` -- the figure (one panel per variant);
* ``DIR/<name>.txt`` -- the caption: the paper's setup, both variants'
  constants, what we chose and what differs.

Regret is ``eq:regret`` (V(alpha*) - V(tau_T/T) per trial).

Orchestration only: the figures are drawn by :mod:`proofs_checks.figures` and
the files written by :mod:`proofs_checks.outputs`.  Nothing is written before
every argument has been checked; then the run holds the output directory
(:func:`rsb_sim.dirlock.hold`, ``DIR/.rsb.lock``: a second run on it waits up to
``wait`` seconds, then stops) and creates it.  Interrupted (SIGINT/SIGTERM) or
stopped by a failed write, it keeps every finished chunk in ``DIR/runs``; the same
command resumes (``docs/longruns.md``).
"""

from __future__ import annotations

from rsb_sim import jsontext
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rsb_sim.interrupt import kept
from rsb_theory.safe_files import own_dir

from .experiments import Experiment, all_experiments, get_experiment
from .outputs import check_out, csv_text, save_figure, write_text
from rsb_theory.errors import ArgumentError

#: CSV columns of ``DIR/<name>.csv`` (stable).
COLUMNS: tuple[str, ...] = (
    "experiment", "figure", "variant", "algo", "series", "x", "K", "p", "T", "eps", "explore_per_arm", "rho",
    "radius_scale", "trials", "seed", "mean_regret", "std_regret", "stderr", "q05", "q50", "q95", "v_star",
    "degenerate", "key", "best_arm_gap",
)


@dataclass(frozen=True)
class Row:
    """One (variant, algo, series, x) of an experiment, aggregated over trials."""

    values: dict
    regrets: np.ndarray


def _check_trials(trials) -> int | None:
    if trials is None:
        return None
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ArgumentError("trials", f"need an integer >= 1, got {trials!r}")
    return int(trials)


def _progress_factory(enabled: bool):
    if not enabled:
        return None
    from rsb_sim.progress import tracker

    return tracker("rsb reproduce")


def simulate(exp: Experiment, out: Path, trials: int | None = None, seed: int | None = None,
             progress: bool = False, **sweep_opts) -> list[Row]:
    """Run (or reload) every run of ``exp`` and aggregate it into rows.

    Parameters
    ----------
    exp : Experiment
    out : Path
        Output directory; runs are stored in ``out/runs``.
    trials, seed : int, optional
        Override the experiment's defaults.
    progress : bool
        tqdm bar over the pending runs (stderr).
    **sweep_opts
        Passed to :func:`rsb_sim.sweep.sweep`: ``executor`` (``"local"``,
        ``"processes"`` with ``jobs`` workers on this machine, ``"dask"`` with
        ``client`` or ``scheduler``) and ``chunk`` (trials per stored chunk).

    Returns
    -------
    list of Row
    """
    from rsb_sim.sweep import sweep

    runs = exp.runs(trials, seed)
    cache = own_dir(out, "runs")  # never a link (rsb_theory.safe_files)
    keys = sweep([r.spec for r in runs], cache, progress=_progress_factory(progress), **sweep_opts)
    with kept(_all_runs(exp, out)):
        return _rows(exp, runs, keys, cache)


def _all_runs(exp: Experiment, out: Path) -> str:
    """What is on disk once the sweep of ``exp`` is done (the words of an interruption after it)."""
    return f"every run of {exp.name} in {out / 'runs'}"


def _rows(exp: Experiment, runs, keys: list[str], cache: Path) -> list[Row]:
    """The rows of ``exp`` from its stored runs."""
    from rsb_sim import store

    rows = []
    for run, key in zip(runs, keys):
        summary, arrays = store.load(cache, key)
        reg = np.asarray(arrays["regrets"], dtype=float)
        n = reg.size
        std = float(reg.std(ddof=1)) if n > 1 else 0.0
        q05, q50, q95 = (float(v) for v in np.quantile(reg, [0.05, 0.5, 0.95]))
        cfg = run.spec["config"]
        rows.append(Row({
            "experiment": exp.name, "figure": exp.figure, "variant": run.variant, "algo": run.algo,
            "series": run.point.series, "x": run.point.x, "K": len(run.point.p),
            "p": " ".join(f"{v:g}" for v in run.point.p), "T": cfg["T"], "eps": summary["eps"],
            "explore_per_arm": summary["explore_per_arm"], "rho": cfg["rho"], "radius_scale": cfg["radius_scale"],
            "trials": n, "seed": cfg["seed"], "mean_regret": float(reg.mean()), "std_regret": std,
            "stderr": std / math.sqrt(n), "q05": q05, "q50": q50, "q95": q95, "v_star": summary["v_star"],
            "degenerate": bool(summary["warnings"]), "key": key,
            "best_arm_gap": summary.get("best_arm_gap"),  # V(alpha*) - max_i U_h(F_i): a solitary policy's floor
        }, reg))
    return rows


def _header(exp: Experiment, trials: int, seed: int) -> dict:
    from rsb_sim.engine import versions

    return {"experiment": exp.describe(), "trials": trials, "seed": seed, "regret": "eq:regret, V(alpha*) - "
            "V(tau_T/T) per trial", "versions": versions()}


def write_csv(path: Path, rows: list[Row], header: dict) -> None:
    """CSV with ``#`` lines holding ``header`` as JSON, then :data:`COLUMNS` (atomic write)."""
    write_text(path, csv_text([r.values for r in rows], COLUMNS, header))


def caption(exp: Experiment, rows: list[Row], trials: int, seed: int) -> str:
    """The caption file: the paper's setup, both variants, our choices, and what differs."""
    beyond = exp.panels == "series"  # not a figure of the paper
    what = f"beyond the paper, illustrates {exp.figure}" if beyond else f"reproduces {exp.figure}"
    lines = [f"{exp.title} -- {what}.", "",
             f"Paper: {exp.paper_setup}", "",
             f"Ours: Gini (h(u) = u(1-u)), Bernoulli arms, eps = sqrt(K log T / T), {trials} trials per point, "
             f"root seed {seed} (the same reward table at every point); regret is eq:regret, "
             f"V(alpha*) - V(tau_T/T); line = mean, band = 5%-95% range over trials.",
             f"Chosen where the paper is silent: {exp.choices}", "",
             "One panel per instance; constants:" if beyond else "Variants (left panel 'paper', right 'rsb'):"]
    for v in exp.variants:
        lines.append(f"  {v.name}: {v.description}")
    degen = sorted({(r.values['variant'], r.values['algo']) for r in rows if r.values["degenerate"]})
    lines.append("")
    if degen:
        lines.append("Degenerate runs (a paper constant makes the algorithm data-free; see rsb simulate's warnings): "
                     + ", ".join(f"{v}/{a}" for v, a in degen) + ".  With radius_scale = 1 the radius "
                     "16(sqrt(2e log T)+32)/sqrt(tau) is >= 1 for all tau <= T here, so every law on [0,1] is in "
                     "every confidence set and RS-UCB-M keeps its first grid mixture (same regret in every trial); "
                     "N(eps) ~ 1e16 >> T, so RS-ETC-M never commits and is round-robin (= uniform sampling).")
    lines.append("The rsb variant's radius scale is not covered by lemma: concentration, and its ETC exploration "
                 "per arm replaces ceil(N(eps)/K): the theorems' bounds are not proven for it; it shows what the "
                 "algorithms do when they use their data.")
    lines.append("")
    lines.append("Measured (mean regret):")
    for r in rows:
        v = r.values
        s = f" {v['series']}" if v["series"] else ""
        lines.append(f"  {v['variant']:<5} {v['algo']:<8}{s} {exp.x_name}={v['x']:g}: {v['mean_regret']:.4g} "
                     f"(5%-95%: {v['q05']:.3g} - {v['q95']:.3g}){' [degenerate]' if v['degenerate'] else ''}")
    return "\n".join(lines) + "\n"


def reproduce_one(exp: Experiment, out, trials: int | None = None, seed: int | None = None,
                  progress: bool = False, **sweep_opts) -> dict:
    """Run one experiment and write ``<name>.csv/.json/.png/.pdf/.txt`` into ``out``.

    Returns
    -------
    dict
        ``{"csv", "json", "png", "pdf", "txt"}`` -> path, plus ``"rows"``.
    """
    from rsb_sim.dirlock import hold

    out = check_out(out)
    trials = exp.trials if trials is None else _check_trials(trials)
    seed = exp.seed if seed is None else seed
    exp.runs(trials, seed)  # validates trials and seed before anything is written
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        return _reproduce_held(exp, out, trials, seed, progress, **sweep_opts)


def _reproduce_held(exp: Experiment, out: Path, trials: int, seed: int, progress: bool, **sweep_opts) -> dict:
    """:func:`reproduce_one` with ``out`` held."""
    rows = simulate(exp, out, trials, seed, progress, **sweep_opts)
    with kept(_all_runs(exp, out)):
        return _write_outputs(exp, out, rows, trials, seed)


def _write_outputs(exp: Experiment, out: Path, rows: list[Row], trials: int, seed: int) -> dict:
    """``<name>.csv/.json/.png/.pdf/.txt`` of ``exp`` in ``out``."""
    from .figures import experiment_figure

    header = _header(exp, trials, seed)
    paths = {k: out / f"{exp.name}.{k}" for k in ("csv", "json", "png", "pdf", "txt")}
    write_csv(paths["csv"], rows, header)
    write_text(paths["json"], jsontext.dumps(header, indent=1, default=str) + "\n")
    save_figure(experiment_figure(exp, [r.values for r in rows]), paths["png"], paths["pdf"])
    write_text(paths["txt"], caption(exp, rows, trials, seed))
    return {**{k: str(v) for k, v in paths.items()}, "rows": [r.values for r in rows]}


def reproduce(name: str, out, trials: int | None = None, seed: int | None = None, progress: bool = False,
              **sweep_opts) -> list[dict]:
    """``rsb reproduce NAME --out DIR [--trials M]``; ``name == "all"`` runs the five experiments.

    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (executor, jobs, client,
    scheduler, chunk, wait, notify): how the runs are executed, never what they compute.
    ``out`` is held for the whole command (``wait``: seconds to wait for another run).

    Raises
    ------
    ValueError
        Unknown experiment (names ``experiment``), trials < 1 (``trials``),
        unusable output directory (``out``); nothing is written then.
    rsb_sim.dirlock.DirectoryBusy
        Another run holds ``out``.
    rsb_sim.files.WriteError, rsb_sim.interrupt.Interrupted
        A failed write, SIGINT/SIGTERM; finished chunks stay in ``out/runs``.
    """
    if name == "all":
        exps = list(all_experiments())
    else:
        exps = [get_experiment(name)]
    trials = _check_trials(trials)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ArgumentError("seed", f"need an integer >= 0, got {seed!r}")
    from rsb_sim.dirlock import hold

    check_out(out)
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        return [reproduce_one(e, out, trials, seed, progress, **sweep_opts) for e in exps]
