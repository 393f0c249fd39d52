"""``rsb compare``: several algorithms on one instance over several horizons, with a statistical comparison.

For every algorithm of ``algos`` and horizon T of ``Ts`` one run of ``trials`` trials is simulated through
:func:`rsb_sim.sweep.sweep` into ``DIR/runs`` (resumable and interruptible as ``rsb reproduce``: a rerun
skips the chunks already stored; ``DIR`` is held by one run at a time).  Horizon j of ``Ts`` is stream
(j,) of the root ``SeedSequence(seed)`` and every algorithm at that horizon sees the same reward table
(common random numbers: trial k of two algorithms is paired).  ``radius_scale`` scales the paper's radius
(``eq:UCB_confidence_sets``) of the algorithms that use it (:func:`paper_radius`); the competitors keep
their printed bonuses.  Then, each written atomically:

* ``DIR/compare.csv`` -- tidy: one row per (algorithm, T, trial) (:data:`COLUMNS`: the final regret
  ``eq:regret`` and the pulls of each arm); ``#`` header lines hold the instance, alpha*, V*, the
  best-arm floor V(alpha*) - max_i U_h(F_i), the configurations and the seed as JSON;
* ``DIR/compare_tests.csv`` -- pairwise tests at each T (:data:`TEST_COLUMNS`, :func:`pairwise`);
* ``DIR/compare.png`` and ``.pdf`` -- the figure (:func:`proofs_checks.figures.compare_figure`):
  (a) mean regret against T on log axes with 95 % Student-t intervals and the best-arm floor, (b) the
  distribution of the final regret at the largest T (boxes), (c) the mean proportion of pulls tau_T/T of
  each arm at each T against alpha*.

The tests: at each T and for each pair of algorithms, Welch's t-test of the per-trial final regrets
(``scipy.stats.ttest_ind(equal_var=False)``, two-sided), Holm's step-down correction over the pairs of
that T; "better" is the algorithm of smaller mean regret when the Holm-adjusted p-value is below 0.05,
"no difference shown" otherwise, and the confidence printed is 1 - p_holm.  Welch ignores the pairing
of trials (conservative).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rsb_sim.interrupt import kept

from .outputs import check_out, csv_text, save_figure, write_text

#: Columns of ``DIR/compare.csv`` (then ``pulls_1`` .. ``pulls_K``).
COLUMNS: tuple[str, ...] = ("algo", "T", "trial", "regret")
#: Columns of ``DIR/compare_tests.csv``.
TEST_COLUMNS: tuple[str, ...] = ("T", "algo_a", "algo_b", "mean_a", "mean_b", "difference", "t", "df", "p",
                                 "p_holm", "better", "confidence")
#: Family-wise level of the Holm-corrected tests.
LEVEL = 0.05


@dataclass(frozen=True)
class CompareRequest:
    """What ``rsb compare`` runs (validated by the command line; frozen)."""

    algos: tuple
    Ts: tuple
    trials: int
    seed: int
    dr: str
    params: tuple = ()
    p: tuple | None = None
    arms: str | None = None
    radius_scale: float | None = None


def paper_radius(algo) -> bool:
    """The policy's radius is the paper's ``eq:UCB_confidence_sets`` (degenerate at scale 1 on small instances; its
    declaration names the constant ``radius_c``): ``--radius-scale`` goes to these; the others keep their printed
    bonuses."""
    from rsb_sim.policies.catalog import get

    return get(algo).uses("radius_c")


def specs(req: CompareRequest) -> list[tuple[str, int, dict]]:
    """(algo, T, sweep spec) of every run; ``radius_scale`` goes to the algorithms of :func:`paper_radius`."""
    from .simulate_out import spec_of

    out = []
    for j, T in enumerate(req.Ts):
        for algo in req.algos:
            config = {"T": int(T), "trials": int(req.trials), "seed": int(req.seed), "stream": (j,)}
            if req.radius_scale is not None and paper_radius(algo):
                config["radius_scale"] = float(req.radius_scale)
            spec = spec_of(algo, req.dr, dict(req.params), req.p, None, None, config, arms=req.arms)
            out.append((algo, int(T), spec))
    return out


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


def pairwise(regrets: dict, T: int) -> list[dict]:
    """Welch's test of every pair of algorithms at horizon T, Holm-corrected (module docstring)."""
    import warnings

    from scipy import stats

    algos = list(regrets)
    rows = []
    for a in range(len(algos)):
        for b in range(a + 1, len(algos)):
            x, y = np.asarray(regrets[algos[a]]), np.asarray(regrets[algos[b]])
            if x.size < 2 or y.size < 2 or (np.ptp(x) == 0 and np.ptp(y) == 0):
                t = 0.0 if x.mean() == y.mean() else math.copysign(math.inf, x.mean() - y.mean())
                p, df = (1.0 if t == 0.0 else 0.0), float("nan")
            else:
                with warnings.catch_warnings():  # nearly equal samples: scipy warns of precision loss, p is still valid
                    warnings.simplefilter("ignore", RuntimeWarning)
                    res = stats.ttest_ind(x, y, equal_var=False)
                t, p = float(res.statistic), float(res.pvalue)
                vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
                df = float((vx + vy) ** 2 / (vx ** 2 / (x.size - 1) + vy ** 2 / (y.size - 1)))
            rows.append({"T": T, "algo_a": algos[a], "algo_b": algos[b], "mean_a": float(x.mean()),
                         "mean_b": float(y.mean()), "difference": float(x.mean() - y.mean()), "t": t, "df": df,
                         "p": p})
    for row, adj in zip(rows, holm([r["p"] for r in rows]) if rows else []):
        row["p_holm"] = float(adj)
        if adj < LEVEL:
            row["better"] = row["algo_a"] if row["mean_a"] < row["mean_b"] else row["algo_b"]
        else:
            row["better"] = "no difference shown"
        row["confidence"] = 1.0 - float(adj)
    return rows


def compare(req: CompareRequest, out, progress=None, **sweep_opts) -> dict:
    """Run (or resume) every run of ``req`` into ``out/runs``; write the CSVs and the figure; return a summary.

    ``sweep_opts`` go to :func:`rsb_sim.sweep.sweep` (executor, jobs, chunk, wait, notify, ...).
    """
    from rsb_sim import store
    from rsb_sim.dirlock import hold
    from rsb_sim.sweep import sweep

    out = check_out(out)
    _build(req)  # h and the arms, before anything is written (a bad one names its flag)
    runs = specs(req)
    with hold(out, sweep_opts.get("wait", 0.0), sweep_opts.get("notify")):
        keys = sweep([s for _a, _T, s in runs], out / "runs", progress=progress, **sweep_opts)
        with kept(f"every run of the comparison in {out / 'runs'}"):
            loaded = [(a, T, *store.load(out / "runs", k)) for (a, T, _s), k in zip(runs, keys)]
            return _write(req, out, loaded)


def _build(req: CompareRequest) -> None:
    """Resolve h and build the instance of ``req`` (ValueError naming ``dr``/``h``/``arms``), and prepare every
    algorithm on it (ValueError naming the argument of an algorithm that does not apply): nothing is written yet."""
    from rsb_sim.config import SimConfig
    from rsb_sim.instances import make_instance
    from rsb_sim.setup import prepare
    from rsb_theory.distortions import resolve

    d = resolve(req.dr, **dict(req.params))
    for algo in req.algos:
        if req.arms is not None:
            from rsb_sim.arm_laws import law_instance
            from rsb_theory.laws import parse_arms

            inst = law_instance(parse_arms(req.arms), algo, int(max(req.Ts)))
        else:
            inst = make_instance(list(req.p), None, None)
        prepare(SimConfig(T=int(min(req.Ts)), trials=1), inst, d, algo)


def _write(req: CompareRequest, out: Path, loaded) -> dict:
    from .figures import compare_figure

    first = loaded[0][2]
    alpha = [float(x) for x in first["alpha_star"]]
    K = len(alpha)
    header = {"command": "rsb compare", "dr": first["distortion"], "instance": first["instance"],
              "alpha_star": alpha, "v_star": first["v_star"], "arm_values": first["arm_values"],
              "best_arm_gap": first["best_arm_gap"], "algos": list(req.algos), "Ts": list(req.Ts),
              "trials": req.trials, "seed": req.seed, "radius_scale": req.radius_scale,
              "warnings": {f"{a} T={T}": s["warnings"] for a, T, s, _ in loaded if s["warnings"]},
              "tests": f"Welch's t-test per pair at each T, Holm-corrected, level {LEVEL}", "versions": first["versions"]}
    rows, regrets, props = [], {}, {}
    for algo, T, summary, arrays in loaded:
        reg = np.asarray(arrays["regrets"], dtype=float)
        counts = np.asarray(arrays["counts"])
        regrets.setdefault(T, {})[algo] = reg
        props.setdefault(algo, {})[T] = (counts.mean(axis=0) / T).tolist()
        for k in range(reg.size):
            row = {"algo": algo, "T": T, "trial": k, "regret": float(reg[k])}
            row.update({f"pulls_{i + 1}": int(counts[k, i]) for i in range(K)})
            rows.append(row)
    tests = [r for T in req.Ts for r in pairwise(regrets[T], T)]
    paths = {"csv": out / "compare.csv", "tests": out / "compare_tests.csv", "png": out / "compare.png",
             "pdf": out / "compare.pdf"}
    write_text(paths["csv"], csv_text(rows, COLUMNS + tuple(f"pulls_{i + 1}" for i in range(K)), header))
    write_text(paths["tests"], csv_text(tests, TEST_COLUMNS, {"tests": header["tests"]}))
    title = f"{header['dr']} on {_instance_words(first['instance'])}"
    save_figure(compare_figure(regrets, props, alpha, header["best_arm_gap"], title, req.trials),
                paths["png"], paths["pdf"])
    means = {algo: {T: float(regrets[T][algo].mean()) for T in req.Ts} for algo in req.algos}
    return {"files": {k: str(v) for k, v in paths.items()}, "mean_regret": means, "tests": tests,
            "best_arm_gap": header["best_arm_gap"], "alpha_star": alpha, "v_star": header["v_star"],
            "warnings": header["warnings"]}


def _instance_words(inst: dict) -> str:
    """The instance of a run's summary in a few words, for the figure's title."""
    if inst.get("kind") == "bernoulli":
        return ", ".join(f"Bern({p:g})" for p in inst["p"])
    if inst.get("kind") == "laws":
        return "; ".join(inst["arms"])
    return f"finite arms on {inst.get('support')}"


def format_summary(res: dict) -> str:
    """The text report: mean regret per algorithm and T, then the verdict of each test."""
    lines = [f"alpha* = {[round(a, 4) for a in res['alpha_star']]}, V* = {res['v_star']:.6g}, best-arm floor "
             f"V* - max_i U_h(F_i) = {res['best_arm_gap']:.4g}"]
    Ts = sorted({T for m in res["mean_regret"].values() for T in m})
    lines.append(f"{'algo':<9} " + " ".join(f"{'T=' + str(T):>11}" for T in Ts))
    for algo, m in res["mean_regret"].items():
        lines.append(f"{algo:<9} " + " ".join(f"{m[T]:>11.4g}" for T in Ts))
    lines.append("pairwise (Welch, Holm-corrected):")
    for r in res["tests"]:
        verdict = (f"{r['better']} better, confidence {r['confidence']:.4f}" if r["better"] != "no difference shown"
                   else f"no difference shown (p_holm = {r['p_holm']:.3g})")
        lines.append(f"  T={r['T']:<7} {r['algo_a']} vs {r['algo_b']}: {verdict}")
    lines += [f"  files: {' '.join(res['files'].values())}"]
    return "\n".join(lines)
