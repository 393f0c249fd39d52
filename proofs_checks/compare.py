"""``rsb compare``: several algorithms on one instance over several horizons, with a paired statistical comparison.

For every algorithm of ``algos`` and horizon T of ``Ts`` one run of ``trials`` trials is simulated through
:func:`rsb_sim.sweep.sweep` into ``DIR/runs`` (resumable and interruptible as ``rsb reproduce``: a rerun
skips the chunks already stored; ``DIR`` is held by one run at a time).  Horizon j of ``Ts`` is stream
(j,) of the root ``SeedSequence(seed)`` and every algorithm at that horizon sees the same reward table
(common random numbers: trial k of two algorithms at one T is a *pair*).

**One scale, one meaning.**  ``radius_scale`` is a multiplier of each algorithm's own default exploration
constant (:func:`exploration_constant`): the radius of ``eq:UCB_confidence_sets`` for RS-UCB-M, CE-UCB-M and
DR-UCB, the printed bonus for UCB-FW, U-UCB and CVaR-UCB.  It goes to every algorithm that reads it
(:data:`rsb_sim.options.READS`), exactly as ``rsb simulate`` and :func:`proofs_checks.api.compare` do; the
others run as they are.

**One tuning protocol** (``tune``): every algorithm with an exploration constant is run at each multiplier of
``tune_grid`` (the same log-grid for all) on *tuning seeds* -- stream (:data:`TUNE_STREAM`, j, i) of the root
for horizon j and tuning instance i (i = 0: the instance itself; i >= 1: ``tune_instances``) -- and the
multiplier of least score is chosen per algorithm and horizon (:func:`choose`).  Which algorithm has an
exploration constant is decided in one place, :func:`proofs_checks.exploration.exploration_constant`.
Its regret is then reported on the fresh seeds (j,), with the untuned default (multiplier 1) beside it;
tuning-free algorithms appear as they are.

Then, each written atomically:

* ``DIR/compare.csv`` -- tidy: one row per (algorithm, setting, T, trial) (:data:`COLUMNS`): the terminal
  mixture regret V(alpha*) - V(tau_T/T) (``eq:regret``), the pseudo-regret against the best single arm
  sum_k Delta_k N_k with Delta_k = max_i U_h(F_i) - U_h(F_k) (:func:`arm_gaps`), and the pulls of each
  arm; ``#`` header lines hold the instance, alpha*, V*, the arm values and gaps, the best-arm floor
  V(alpha*) - max_i U_h(F_i), the configurations, the seed and the warnings as JSON;
* ``DIR/compare_tests.csv`` -- the paired tests at each T and metric (:data:`TEST_COLUMNS`, :func:`paired_tests`);
* ``DIR/compare.png`` and ``.pdf`` -- the figure (:func:`proofs_checks.figures.compare_figure`);
* with ``tune``: ``DIR/compare_tuning.csv`` (:data:`TUNING_COLUMNS`: mean regret per algorithm, T, tuning
  instance and multiplier, and the choice) and ``DIR/compare_tuning.png``/``.pdf`` (regret against multiplier).

The intervals of a mean are bootstrap percentile intervals (:func:`bootstrap_ci`): they stay inside the range
of the data, so a non-negative regret never gets a negative lower end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rsb_sim import jsontext
from rsb_sim.interrupt import kept

from .exploration import DEFAULT_TUNE_GRID, TUNE_STREAM, exploration_constant
from .outputs import check_out, csv_text, save_figure, write_text

#: The two metrics, each a column of ``DIR/compare.csv`` and a panel of the figure.
METRICS: tuple[str, ...] = ("regret", "pseudo_regret")
#: What each metric is, in words (CSV header, figure, docs).
METRIC_WORDS = {"regret": "terminal mixture regret V(alpha*) - V(tau_T/T) (eq:regret)",
                "pseudo_regret": "pseudo-regret against the best single arm, sum_k Delta_k N_k(T), "
                                 "Delta_k = max_i U_h(F_i) - U_h(F_k)"}
#: Columns of ``DIR/compare.csv`` (then ``pulls_1`` .. ``pulls_K``).  ``setting``: ``default`` (the algorithm's
#: own constants), ``scaled`` (``radius_scale`` given), ``tuned`` (the multiplier chosen on the tuning seeds);
#: ``multiplier``: the factor on the algorithm's default exploration constant (empty: it has none).
COLUMNS: tuple[str, ...] = ("algo", "setting", "multiplier", "T", "trial") + METRICS
#: Columns of ``DIR/compare_tests.csv`` (:func:`paired_tests`).
TEST_COLUMNS: tuple[str, ...] = ("T", "metric", "algo_a", "algo_b", "n_pairs", "mean_a", "mean_b", "mean_diff",
                                 "diff_ci_low", "diff_ci_high", "t_paired", "p_t", "p_t_holm", "wilcoxon_W",
                                 "p_wilcoxon", "p_wilcoxon_holm", "level", "smaller_by_t", "smaller_by_wilcoxon")
#: Columns of ``DIR/compare_tuning.csv``.
TUNING_COLUMNS: tuple[str, ...] = ("algo", "T", "instance", "multiplier", "option", "mean_regret", "score", "chosen")
#: Family-wise level of the Holm-adjusted tests (a "smaller" verdict only below it).
LEVEL = 0.05
#: Level of the intervals (bootstrap of a mean; paired Student-t of a mean difference).
CI_LEVEL = 0.95
#: Bootstrap resamples of an interval of a mean.
BOOTSTRAP = 2000
#: Spawn-key head of the bootstrap's streams (the tuning runs' is TUNE_STREAM, :mod:`proofs_checks.exploration`).
BOOT_STREAM = TUNE_STREAM + 1
#: Floor of a mean regret in the tuning score (a score is a ratio to the best mean of the grid).
_TINY = 1e-12


@dataclass(frozen=True)
class CompareRequest:
    """What ``rsb compare`` (and :func:`proofs_checks.api.compare`) runs (validated by the caller; frozen).

    ``options``: other :class:`rsb_sim.config.SimConfig` options as (name, value) pairs, each given to the
    algorithms that read it (the Python API's ``**options``); ``tune_instances``: Bernoulli means of the other
    instances the multiplier is chosen on; ``label``: the figure's title.
    """

    algos: tuple
    Ts: tuple
    trials: int
    seed: int
    dr: str
    params: tuple = ()
    p: tuple | None = None
    arms: str | None = None
    radius_scale: float | None = None
    options: tuple = ()
    tune: bool = False
    tune_grid: tuple = DEFAULT_TUNE_GRID
    tune_trials: int | None = None
    tune_instances: tuple = ()
    label: str | None = None
    support: tuple | None = None
    probs: tuple | None = None


@dataclass(frozen=True)
class Run:
    """One run of a comparison: ``name`` is how it is shown (the algorithm, or ``algo (default)`` beside a
    tuned one), ``setting`` and ``multiplier`` as in :data:`COLUMNS`."""

    name: str
    algo: str
    setting: str
    multiplier: float | None
    T: int
    j: int
    spec: dict = field(repr=False)


# ---------------------------------------------------------------------------------------------------------
# which algorithm has an exploration constant, and how a multiplier of it is given
# ---------------------------------------------------------------------------------------------------------
def scaled_options(algo: str, m: float, T: int, instance=None, d=None) -> dict:
    """The SimConfig options that multiply ``algo``'s default exploration constant by ``m`` at horizon ``T``.

    For ``explore`` the default n0 is computed by :func:`rsb_sim.setup.prepare` on ``instance`` and ``d``;
    ceil(m n0) is capped at ceil(T/K) (an exploration of the whole horizon either way).
    """
    option = exploration_constant(algo)
    if option is None:
        return {}
    if option == "radius_scale":
        return {"radius_scale": float(m)}
    from rsb_sim.config import SimConfig
    from rsb_sim.setup import prepare

    n0 = prepare(SimConfig(T=int(T), trials=1), instance, d, algo).n0
    cap = math.ceil(T / instance.K)
    return {"explore": int(cap if n0 is None else max(1, min(cap, math.ceil(m * n0 - 1e-12))))}


# ---------------------------------------------------------------------------------------------------------
# the runs
# ---------------------------------------------------------------------------------------------------------
def _spec(req: CompareRequest, algo: str, T: int, stream: tuple, extra: dict, p=None) -> dict:
    from rsb_sim.options import READS

    from .simulate_out import spec_of

    config = {"T": int(T), "trials": int(req.trials), "seed": int(req.seed), "stream": tuple(stream)}
    config.update({k: v for k, v in req.options if k in READS.get(algo, ())})
    config.update(extra)
    if p is not None:
        return spec_of(algo, req.dr, dict(req.params), p, None, None, config)
    return spec_of(algo, req.dr, dict(req.params), req.p, req.support, req.probs, config, arms=req.arms)


def specs(req: CompareRequest, chosen: dict | None = None, contexts: dict | None = None) -> list[Run]:
    """Every reported run of ``req``: horizon j is stream (j,) of the root (module docstring).

    ``radius_scale`` goes to every algorithm that reads it; with ``chosen`` ({(algo, T): multiplier}, the
    tuning's choice) each tunable algorithm runs at its chosen multiplier (``tuned``) and at its default
    (``default``, shown as ``algo (default)``).  ``contexts``: {(T, 0, algo): (instance, d)} of :func:`build`.
    """
    from rsb_sim.options import READS

    out = []
    for j, T in enumerate(req.Ts):
        for algo in req.algos:
            option = exploration_constant(algo)
            if chosen is not None and option is not None:
                m = chosen[(algo, int(T))]
                inst, d = (contexts or {}).get((int(T), 0, algo), (None, None))
                out.append(Run(algo, algo, "tuned", float(m), int(T), j,
                               _spec(req, algo, T, (j,), scaled_options(algo, m, T, inst, d))))
                out.append(Run(f"{algo} (default)", algo, "default", 1.0, int(T), j, _spec(req, algo, T, (j,), {})))
                continue
            extra, setting, m = {}, "default", (1.0 if option else None)
            if req.radius_scale is not None and "radius_scale" in READS.get(algo, ()):
                extra, setting, m = {"radius_scale": float(req.radius_scale)}, "scaled", float(req.radius_scale)
            out.append(Run(algo, algo, setting, m, int(T), j, _spec(req, algo, T, (j,), extra)))
    return out


def tuning_specs(req: CompareRequest, contexts: dict) -> list[tuple[str, int, int, float, dict]]:
    """(algo, T, instance index, multiplier, spec) of every tuning run: stream (TUNE_STREAM, j, i).

    ``contexts``: {(T, i, algo): (instance, d)} of :func:`build` (for the ``explore`` multiplier of
    :func:`scaled_options`).
    Instance 0 is the compared instance; instance i >= 1 is ``tune_instances[i - 1]`` (Bernoulli means).
    """
    trials = int(req.tune_trials or req.trials)
    sub = CompareRequest(**{**req.__dict__, "trials": trials})
    out = []
    for j, T in enumerate(req.Ts):
        for i, p in enumerate((None,) + tuple(req.tune_instances)):
            for algo in req.algos:
                if exploration_constant(algo) is None:
                    continue
                inst, d = contexts[(int(T), i, algo)]
                for m in req.tune_grid:
                    spec = _spec(sub, algo, T, (TUNE_STREAM, j, i), scaled_options(algo, m, T, inst, d), p=p)
                    out.append((algo, int(T), i, float(m), spec))
    return out


def choose(rows: list[dict]) -> dict:
    """The multiplier of each (algo, T): least score, the score of m being the sum over tuning instances of
    (mean regret at m) / (least mean regret of the grid on that instance) (a floor of 1e-12 on both), so each
    instance weighs the same whatever its scale; ties go to the multiplier nearest 1 (then the smaller).

    ``rows``: dicts with ``algo``, ``T``, ``instance``, ``multiplier``, ``mean_regret``; each gets ``score``
    and ``chosen`` set here.  Returns {(algo, T): multiplier}.
    """
    best: dict = {}
    for r in rows:
        key = (r["algo"], r["T"], r["instance"])
        best[key] = min(best.get(key, math.inf), max(r["mean_regret"], _TINY))
    scores: dict = {}
    for r in rows:
        ratio = max(r["mean_regret"], _TINY) / best[(r["algo"], r["T"], r["instance"])]
        k = (r["algo"], r["T"], r["multiplier"])
        scores[k] = scores.get(k, 0.0) + ratio
    chosen: dict = {}
    for (algo, T, m), s in scores.items():
        cur = chosen.get((algo, T))
        rank = (s, abs(math.log(m)), m)
        if cur is None or rank < cur[0]:
            chosen[(algo, T)] = (rank, m)
    picked = {k: v[1] for k, v in chosen.items()}
    for r in rows:
        r["score"] = scores[(r["algo"], r["T"], r["multiplier"])]
        r["chosen"] = picked[(r["algo"], r["T"])] == r["multiplier"]
    return picked


# ---------------------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------------------
def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (monotone, capped at 1)."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p, kind="stable")
    m = p.size
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj


def bootstrap_ci(x, seq, level: float = CI_LEVEL, resamples: int = BOOTSTRAP) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the mean of ``x`` at ``level`` (``resamples`` resamples drawn from the
    ``numpy.random.SeedSequence`` ``seq``): inside [min x, max x], so it respects the support of the data.
    (None, None) for fewer than two values."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return None, None
    if np.ptp(x) == 0:
        return float(x[0]), float(x[0])
    rng = np.random.default_rng(seq)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    lo, hi = np.quantile(means, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return float(lo), float(hi)


def _paired_t(d: np.ndarray) -> tuple[float, float, float, float]:
    """(t, p, ci_low, ci_high) of the paired t-test of differences ``d`` (two-sided) and the Student-t interval
    of their mean; constant differences: t = 0, p = 1 when they are 0, else t = +-inf, p = 0 (no spread)."""
    from scipy import stats

    n, m = d.size, float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0 or n < 2:
        return (0.0, 1.0, m, m) if m == 0.0 else (math.copysign(math.inf, m), 0.0, m, m)
    se = sd / math.sqrt(n)
    t = m / se
    p = float(2.0 * stats.t.sf(abs(t), n - 1))
    half = float(stats.t.ppf(0.5 + CI_LEVEL / 2.0, n - 1)) * se
    return t, p, m - half, m + half


def _wilcoxon(d: np.ndarray) -> tuple[float, float, int]:
    """(W, p, side) of the Wilcoxon signed-rank test of ``d`` (zeros dropped, two-sided; scipy's exact or normal
    route): W = min(R+, R-); side = +1 when R+ > R- (the first sample tends larger), -1, or 0."""
    import warnings

    from scipy import stats

    nz = d[d != 0]
    if nz.size == 0:
        return 0.0, 1.0, 0
    ranks = stats.rankdata(np.abs(nz))
    r_plus, r_minus = float(ranks[nz > 0].sum()), float(ranks[nz < 0].sum())
    with warnings.catch_warnings():  # few pairs: scipy warns that the normal route is rough; the exact one is used
        warnings.simplefilter("ignore")
        res = stats.wilcoxon(nz)
    return float(res.statistic), float(res.pvalue), (r_plus > r_minus) - (r_plus < r_minus)


def paired_tests(samples: dict, T: int, metric: str) -> list[dict]:
    """The paired tests of every pair of ``samples`` ({name: per-trial values, trial k paired}) at horizon T.

    For each pair (a, b), with the differences d_k = a_k - b_k of the common random numbers: the mean
    difference and its paired Student-t interval at :data:`CI_LEVEL`, the paired t-test and the Wilcoxon
    signed-rank test (both two-sided), each with Holm's step-down adjustment over the pairs of this T and
    metric.  ``smaller_by_t`` names the algorithm of smaller mean when the Holm-adjusted p of the t-test is
    below :data:`LEVEL`, ``smaller_by_wilcoxon`` the one the signed ranks favour when its Holm-adjusted p is
    below it; otherwise ``not shown at level 0.05``.
    """
    names = list(samples)
    rows = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            x, y = np.asarray(samples[names[a]], float), np.asarray(samples[names[b]], float)
            d = x - y
            t, pt, lo, hi = _paired_t(d)
            W, pw, side = _wilcoxon(d)
            rows.append({"T": int(T), "metric": metric, "algo_a": names[a], "algo_b": names[b], "n_pairs": int(d.size),
                         "mean_a": float(x.mean()), "mean_b": float(y.mean()), "mean_diff": float(d.mean()),
                         "diff_ci_low": lo, "diff_ci_high": hi, "t_paired": t, "p_t": pt, "wilcoxon_W": W,
                         "p_wilcoxon": pw, "_side": side})
    if rows:
        for key, p in (("p_t_holm", "p_t"), ("p_wilcoxon_holm", "p_wilcoxon")):
            for row, adj in zip(rows, holm([r[p] for r in rows])):
                row[key] = float(adj)
    none = f"not shown at level {LEVEL:g}"
    for r in rows:
        side = r.pop("_side")
        r["level"] = LEVEL
        r["smaller_by_t"] = (none if r["p_t_holm"] >= LEVEL or r["mean_diff"] == 0
                             else (r["algo_a"] if r["mean_diff"] < 0 else r["algo_b"]))
        r["smaller_by_wilcoxon"] = (none if r["p_wilcoxon_holm"] >= LEVEL or side == 0
                                    else (r["algo_a"] if side < 0 else r["algo_b"]))
    return rows


def arm_gaps(req: CompareRequest, d=None, laws=None) -> tuple[list[float], list[float]]:
    """(U_h(F_i) of each arm, Delta_i = max_k U_h(F_k) - U_h(F_i)) of the compared instance, from
    :func:`rsb_theory.laws.arm_values` (the laws of ``p``, ``support``/``probs`` or ``arms``, or ``laws``)."""
    from rsb_theory.distortions import resolve
    from rsb_theory.laws import arm_values

    d = d or resolve(req.dr, **dict(req.params))
    vals = np.asarray(arm_values(d, laws if laws is not None else _laws(req)), dtype=float)
    return vals.tolist(), (vals.max() - vals).tolist()


def _laws(req: CompareRequest):
    from rsb_theory.laws import bernoulli_laws, finite_laws, parse_arms

    if req.arms is not None:
        return parse_arms(req.arms)
    if req.p is not None:
        return bernoulli_laws(req.p)
    return finite_laws(req.support, req.probs)


def optimal_ranges(req: CompareRequest, d=None) -> list[tuple[float, float]] | None:
    """For Bernoulli arms, the range [min, max] of each alpha_i over the optimal set of ``eq:optimal alpha``
    (every alpha with <alpha, p> a maximiser of h on [min p, max p], :func:`rsb_theory.holder.optimal_means`),
    by a linear programme per arm and end; None for other arms (the set is not derived there)."""
    if req.p is None:
        return None
    from scipy.optimize import linprog

    from rsb_theory.distortions import resolve
    from rsb_theory.profile import of
    from rsb_theory.profile import optimal_set

    d = d or resolve(req.dr, **dict(req.params))
    p = np.asarray(req.p, dtype=float)
    tops = sorted(float(t) for t in of(d).maximisers((float(p.min()), float(p.max()))))
    text = optimal_set(d, list(req.p), tops[0])
    K = p.size
    if text is None:
        return None
    # the optimal means: intervals where h is flat on top (optimal_set's reading), else points
    lo_m, hi_m = tops[0], tops[-1]
    ranges = []
    for i in range(K):
        ends = []
        for sign in (1.0, -1.0):
            c = np.zeros(K)
            c[i] = sign
            res = linprog(c, A_ub=np.vstack([p, -p]), b_ub=[hi_m, -lo_m], A_eq=np.ones((1, K)), b_eq=[1.0],
                          bounds=[(0, 1)] * K, method="highs")
            ends.append(float(res.x[i]) if res.status == 0 else float("nan"))
        ranges.append((ends[0], ends[1]))
    return ranges


def _seq(req: CompareRequest, *key):
    return np.random.SeedSequence(int(req.seed), spawn_key=(BOOT_STREAM,) + tuple(int(k) for k in key))


def analyse(req: CompareRequest, loaded: list[tuple[Run, dict, dict]], d=None, laws=None) -> dict:
    """The numbers of a comparison from its runs (``(Run, summary, arrays)`` each): rows, means with bootstrap
    intervals, the paired tests, the warnings.  Shared by ``rsb compare`` and :func:`proofs_checks.api.compare`
    (which passes its distortion ``d`` and, for laws given as objects, ``laws``)."""
    first = loaded[0][1]
    alpha = [float(x) for x in first["alpha_star"]]
    K = len(alpha)
    values, gaps = arm_gaps(req, d, laws)
    gap_arr = np.asarray(gaps)
    rows, samples, props, warns, notes = [], {}, {}, {}, {}
    names = list(dict.fromkeys(r.name for r, _s, _a in loaded))
    for run, summary, arrays in loaded:
        reg = np.asarray(arrays["regrets"], dtype=float)
        counts = np.asarray(arrays["counts"])
        pseudo = counts @ gap_arr
        samples.setdefault(run.T, {})[run.name] = {"regret": reg, "pseudo_regret": pseudo}
        props.setdefault(run.name, {})[run.T] = (counts.mean(axis=0) / run.T).tolist()
        if summary["warnings"]:
            warns[f"{run.name} T={run.T}"] = list(summary["warnings"])
        if reg.size > 1 and (counts == counts[0]).all():
            notes[f"{run.name} T={run.T}"] = (f"{run.name} took the same pulls {counts[0].tolist()} in all {reg.size} "
                                              f"trials at T = {run.T}: its rule did not depend on the rewards drawn "
                                              f"(exploration or bonus decides)")
        for k in range(reg.size):
            row = {"algo": run.name, "setting": run.setting, "multiplier": run.multiplier, "T": run.T,
                   "trial": int(summary["config"].get("first_trial", 0)) + k, "regret": float(reg[k]),
                   "pseudo_regret": float(pseudo[k])}
            row.update({f"pulls_{i + 1}": int(counts[k, i]) for i in range(K)})
            rows.append(row)
    # the tests compare the algorithms as reported (tuned where tuned); an untuned default is shown beside only
    tested = [n for n in names if not n.endswith(" (default)")]
    tests, stats = [], {}
    for j, T in enumerate(req.Ts):
        for mi, metric in enumerate(METRICS):
            tests += paired_tests({n: samples[T][n][metric] for n in tested}, T, metric)
            for ni, n in enumerate(names):
                x = samples[T][n][metric]
                lo, hi = bootstrap_ci(x, _seq(req, j, mi, ni))
                stats.setdefault(metric, {}).setdefault(n, {})[int(T)] = {
                    "mean": float(x.mean()), "ci_low": lo, "ci_high": hi, "median": float(np.median(x)),
                    "zero_trials": int(np.sum(x <= 0))}
    settings = {r.name: {"algo": r.algo, "setting": r.setting, "multiplier": r.multiplier} for r, _s, _a in loaded}
    multipliers = {r.name: {} for r, _s, _a in loaded}
    for r, _s, _a in loaded:
        multipliers[r.name][r.T] = r.multiplier
    return {"rows": rows, "samples": samples, "props": props, "tests": tests, "stats": stats, "names": names,
            "tested": tested, "settings": settings, "multipliers": multipliers, "alpha_star": alpha,
            "v_star": first["v_star"], "arm_values": values, "arm_gaps": gaps, "best_arm_gap": first["best_arm_gap"],
            "instance": first["instance"], "distortion": first["distortion"], "warnings": warns, "notes": notes,
            "versions": first["versions"], "K": K}


# ---------------------------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------------------------
def compare(req: CompareRequest, out, progress=None, **sweep_opts) -> dict:
    """Run (or resume) every run of ``req`` into ``out/runs`` (the tuning runs first, with ``tune``); write the
    CSVs and the figures; return the summary (:func:`result`).

    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (executor, jobs, chunk, wait, notify, ...).
    """
    from rsb_sim import store
    from rsb_sim.dirlock import hold
    from rsb_sim.sweep import sweep

    out = check_out(out)
    contexts = build(req)  # h and the arms, before anything is written (a bad one names its flag)
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        chosen = tuning = None
        if req.tune:
            tspecs = tuning_specs(req, contexts)
            keys = sweep([s for *_x, s in tspecs], out / "runs", progress=progress, **sweep_opts)
            with kept(f"the tuning runs in {out / 'runs'}"):
                tuning = [{"algo": a, "T": T, "instance": i, "multiplier": m, "option": exploration_constant(a),
                           "mean_regret": float(np.mean(store.load(out / "runs", k)[1]["regrets"]))}
                          for (a, T, i, m, _s), k in zip(tspecs, keys)]
            chosen = choose(tuning)
        runs = specs(req, chosen, contexts)
        keys = sweep([r.spec for r in runs], out / "runs", progress=progress, **sweep_opts)
        with kept(f"every run of the comparison in {out / 'runs'}"):
            loaded = [(r, *store.load(out / "runs", k)) for r, k in zip(runs, keys)]
            return _write(req, out, analyse(req, loaded), tuning, chosen)


def build(req: CompareRequest) -> dict:
    """Resolve h and build the instance of ``req`` and of each tuning instance (ValueError naming
    ``dr``/``h``/``arms``), and prepare every algorithm on each at every T (ValueError naming the argument of an
    algorithm that does not apply): nothing is written yet.  Returns {(T, i, algo): (instance, d)}: the instance
    ``algo`` runs on (i = 0: the compared instance, by each algorithm's route; i >= 1: the tuning instances)."""
    from rsb_sim.config import SimConfig
    from rsb_sim.instances import make_instance
    from rsb_sim.setup import prepare
    from rsb_theory.distortions import resolve

    d = resolve(req.dr, **dict(req.params))
    out = {}
    for T in map(int, req.Ts):
        for algo in req.algos:
            if req.arms is not None:
                from rsb_sim.arm_laws import law_instance
                from rsb_theory.laws import parse_arms

                inst = law_instance(parse_arms(req.arms), algo, T)
            else:
                inst = make_instance(None if req.p is None else list(req.p), req.support, req.probs)
            prepare(SimConfig(T=T, trials=1), inst, d, algo)
            out[(T, 0, algo)] = (inst, d)
        for i, p in enumerate(req.tune_instances if req.tune else (), start=1):
            inst = make_instance(list(p), None, None)
            for algo in req.algos:
                prepare(SimConfig(T=T, trials=1), inst, d, algo)
                out[(T, i, algo)] = (inst, d)
    return out


def title_of(req: CompareRequest, instance: dict) -> str:
    """The figure's title: ``label``, or the distortion as the user named it (with its parameters) on the arms."""
    if req.label:
        return req.label
    params = ", ".join(f"{k}={v}" for k, v in req.params)
    return f"{req.dr}{f'({params})' if params else ''} on {_instance_words(instance)}"


def result(req: CompareRequest, a: dict, tuning=None, chosen=None) -> dict:
    """The summary of a comparison (``rsb compare --format json``; :meth:`proofs_checks.api.Comparison.summary`).

    Keys: ``metrics`` (what each metric is), ``mean`` ({metric: {name: {T: {mean, ci_low, ci_high, median,
    zero_trials}}}}, bootstrap intervals at ``ci_level``), ``mean_regret`` ({name: {T: mean terminal regret}}),
    ``settings`` ({name: {algo, setting, multiplier}}), ``multipliers`` ({name: {T: multiplier}}), ``tests``
    (the rows of ``compare_tests.csv``), ``level``, ``ci_level``, ``alpha_star``, ``v_star``, ``arm_values``,
    ``arm_gaps`` (Delta_i), ``best_arm_gap`` (V(alpha*) - max_i U_h(F_i)), ``warnings`` ({"name T=..": the
    run's degenerate-constant warnings}), ``notes`` (runs whose pulls were the same in every trial), and with
    ``tune``: ``tuning`` (the rows of ``compare_tuning.csv``) and ``chosen`` ({algo: {T: multiplier}}).
    """
    res = {"metrics": METRIC_WORDS, "mean": a["stats"],  # "notes" is a["notes"]: added to here, seen by both
           "mean_regret": {n: {T: v["mean"] for T, v in d.items()} for n, d in a["stats"]["regret"].items()},
           "settings": a["settings"], "multipliers": a["multipliers"], "tests": a["tests"], "level": LEVEL,
           "ci_level": CI_LEVEL, "alpha_star": a["alpha_star"], "v_star": a["v_star"], "arm_values": a["arm_values"],
           "arm_gaps": a["arm_gaps"], "best_arm_gap": a["best_arm_gap"], "warnings": a["warnings"],
           "notes": a["notes"]}
    if tuning is not None:
        res["tuning"] = tuning
        for (algo, T), m in chosen.items():
            scores = dict(sorted({r["multiplier"]: r["score"] for r in tuning if (r["algo"], r["T"]) == (algo, T)}
                                 .items()))
            grid, vals = list(scores), list(scores.values())
            if max(vals) == min(vals):  # a tie everywhere: the choice (nearest 1) is no choice; say so
                res["notes"][f"{algo} T={T} tuning"] = (
                    f"every multiplier of the grid gave {algo} the same tuning score at T = {T}: its constant made "
                    f"no difference on the tuning runs (x{m:g} kept)")
            elif m == grid[0] and vals[0] < vals[1] or m == grid[-1] and vals[-1] < vals[-2]:
                res["notes"][f"{algo} T={T} tuning"] = (  # the best may lie beyond the grid: never silently
                    f"{algo}'s multiplier at T = {T} was chosen at the {'lower' if m == grid[0] else 'upper'} end "
                    f"of the grid (x{m:g}): a multiplier beyond it may do better; widen --tune-grid")
        out: dict = {}
        for (algo, T), m in sorted(chosen.items(), key=lambda kv: (req.algos.index(kv[0][0]), kv[0][1])):
            out.setdefault(algo, {})[T] = m
        res["chosen"] = out
    return res


def _write(req: CompareRequest, out: Path, a: dict, tuning=None, chosen=None) -> dict:
    from .figures import compare_figure, tuning_figure

    res = result(req, a, tuning, chosen)  # first: its notes (a choice at the grid's end) go to the files too
    header = {"command": "rsb compare", "dr": a["distortion"], "instance": a["instance"], "alpha_star": a["alpha_star"],
              "v_star": a["v_star"], "arm_values": a["arm_values"], "arm_gaps": a["arm_gaps"],
              "best_arm_gap": a["best_arm_gap"], "metrics": METRIC_WORDS, "algos": list(req.algos),
              "Ts": list(req.Ts), "trials": req.trials, "seed": req.seed, "radius_scale": req.radius_scale,
              "radius_scale_meaning": "a multiplier of each algorithm's own default exploration constant, given to "
                                      "every algorithm that reads it",
              "tune": req.tune, "tune_grid": list(req.tune_grid) if req.tune else None,
              "tune_trials": (req.tune_trials or req.trials) if req.tune else None,
              "tune_instances": [list(p) for p in req.tune_instances] if req.tune else None,
              "warnings": a["warnings"], "notes": a["notes"], "versions": a["versions"]}
    tests_header = {"tests": TESTS_WORDS, "level": LEVEL, "ci_level": CI_LEVEL}
    K = a["K"]
    paths = {"csv": out / "compare.csv", "tests": out / "compare_tests.csv", "png": out / "compare.png",
             "pdf": out / "compare.pdf"}
    write_text(paths["csv"], csv_text(a["rows"], COLUMNS + tuple(f"pulls_{i + 1}" for i in range(K)), header))
    write_text(paths["tests"], csv_text(a["tests"], TEST_COLUMNS, tests_header))
    ranges = optimal_ranges(req)
    save_figure(compare_figure(a, title_of(req, a["instance"]), req.trials, ranges), paths["png"], paths["pdf"])
    if tuning is not None:
        paths.update({"tuning": out / "compare_tuning.csv", "tuning_png": out / "compare_tuning.png",
                      "tuning_pdf": out / "compare_tuning.pdf"})
        write_text(paths["tuning"], csv_text(tuning, TUNING_COLUMNS, {
            "tuning": TUNING_WORDS, "tune_grid": list(req.tune_grid), "tune_trials": req.tune_trials or req.trials,
            "tune_instances": [list(p) for p in req.tune_instances]}))
        save_figure(tuning_figure(tuning, title_of(req, a["instance"])), paths["tuning_png"], paths["tuning_pdf"])
    res["files"] = {k: str(v) for k, v in paths.items()}
    return res


#: The tests in words (the header of ``compare_tests.csv``).
TESTS_WORDS = (f"paired on the common random numbers (trial k of every algorithm at one T sees the same reward "
               f"table); mean_diff = mean of a_k - b_k with its paired Student-t interval at {CI_LEVEL:g} "
               f"(diff_ci_low, diff_ci_high); the paired t-test (t_paired, p_t) and the Wilcoxon signed-rank test "
               f"(wilcoxon_W = min(R+, R-), p_wilcoxon), both two-sided; p_*_holm: Holm's step-down adjustment over "
               f"the pairs of this T and metric; smaller_by_*: the algorithm of smaller values when that adjusted p "
               f"is below level = {LEVEL:g}, else 'not shown at level {LEVEL:g}'")
#: The tuning protocol in words (the header of ``compare_tuning.csv``).
TUNING_WORDS = ("every algorithm with an exploration constant runs at each multiplier of the grid on the tuning "
                "seeds (stream (TUNE_STREAM, j, i) of the root: horizon j, tuning instance i; instance 0 is the "
                "compared one); score(m) = sum over instances of mean regret(m) / least mean regret of the grid; "
                "the least score is chosen (ties: the multiplier nearest 1); the reported runs use the fresh seeds "
                "(j,)")


def _instance_words(inst: dict) -> str:
    """The instance of a run's summary in a few words, for the figure's title."""
    if inst.get("kind") == "bernoulli":
        return ", ".join(f"Bern({p:g})" for p in inst["p"])
    if inst.get("kind") == "laws":
        return "; ".join(inst["arms"])
    return f"finite arms on {inst.get('support')}"


def format_summary(res: dict) -> str:
    """The text report: mean of each metric per algorithm and T (with its bootstrap interval), the tuning's
    choices, then the verdicts of the paired tests."""
    from .numfmt import num

    lines = [f"alpha* = {[round(x, 4) for x in res['alpha_star']]}, V* = {num(res['v_star'])}, best-arm floor "
             f"V* - max_i U_h(F_i) = {num(res['best_arm_gap'])}, arm gaps Delta = {[num(g) for g in res['arm_gaps']]}"]
    Ts = sorted({T for m in res["mean_regret"].values() for T in m})
    for metric in METRICS:
        lines.append(f"{METRIC_WORDS[metric]}: mean [{res['ci_level']:g} bootstrap interval]")
        width = max(len(n) for n in res["mean"][metric]) + 1
        lines.append(f"  {'':<{width}}" + " ".join(f"{'T=' + str(T):>30}" for T in Ts))
        for name, per in res["mean"][metric].items():
            cells = []
            for T in Ts:
                v = per[T]
                ci = "" if v["ci_low"] is None else f" [{num(v['ci_low'])}, {num(v['ci_high'])}]"
                cells.append(f"{num(v['mean']) + ci:>30}")
            lines.append(f"  {name:<{width}}" + " ".join(cells))
    if res.get("chosen"):
        lines.append("tuned multipliers (chosen on the tuning seeds): " + "; ".join(
            f"{a} " + ", ".join(f"T={T}: x{m:g}" for T, m in per.items()) for a, per in res["chosen"].items()))
    lines.append(f"paired tests (common random numbers), Holm-adjusted over the pairs at each T, "
                 f"level {res['level']:g}:")
    for r in res["tests"]:
        if r["smaller_by_t"] == r["smaller_by_wilcoxon"]:
            verdict = (f"{r['smaller_by_t']} smaller by both tests" if not r["smaller_by_t"].startswith("not shown")
                       else "no difference shown by either test")
        else:
            verdict = f"t-test: {r['smaller_by_t']}; Wilcoxon: {r['smaller_by_wilcoxon']}"
        lines.append(f"  T={r['T']:<7} {r['metric']:<13} {r['algo_a']} - {r['algo_b']}: mean diff "
                     f"{num(r['mean_diff'])} [{num(r['diff_ci_low'])}, {num(r['diff_ci_high'])}], p_t_holm "
                     f"{num(r['p_t_holm'])}, p_wilcoxon_holm {num(r['p_wilcoxon_holm'])}: {verdict}")
    for k, v in res["notes"].items():
        lines.append(f"  note: {v}")
    if "files" in res:
        lines += [f"  files: {' '.join(res['files'].values())}"]
    return "\n".join(lines)


def dumps(res: dict) -> str:
    """``--format json``: strict JSON (:mod:`rsb_sim.jsontext`)."""
    return jsontext.dumps(res, indent=1, default=str)
