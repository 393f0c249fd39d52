"""Throughput of each policy in trial-steps per second: vectorised engine vs the reference loop, same run.

Used by ``rsb bench`` and ``benchmarks/bench_sim.py``.  The paper algorithms' rows come first
(:func:`paper_rows`): CE-UCB-M and RS-UCB-M, Gini, eps = 0.05, radius x 0.01, T = 2e4, 1000 trials,
K = 2 and 4, timed as a whole process (``rsb simulate ... --format json``, start-up included) and
engine-only (in this process, after a warm-up), against the plain reference loop timed in the same
run on a few of the same trials (its time per trial, times the trials).  Wall and CPU seconds are
both reported: the machine may be shared (docs/simulation.md).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rsb_theory.distortions import get

from .config import SimConfig, available_cpus
from .engine import run
from .instances import BernoulliInstance
from .reference import reference_trial
from .rewards import RewardTable
from .policies import catalog
from .setup import prepare

#: Instances of the benchmark (uniform gaps, as in sec: experiments).
INSTANCES = {2: (0.4, 0.9), 4: (0.2, 0.4, 0.6, 0.9)}


@dataclass(frozen=True)
class BenchRow:
    algo: str
    K: int
    eps: float
    radius_scale: float
    T: int
    fast_trials: int
    ref_trials: int
    fast_tsps: float
    ref_tsps: float
    same_actions: bool
    threads: int = 1

    @property
    def speedup(self) -> float:
        return self.fast_tsps / self.ref_tsps

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["speedup"] = self.speedup
        return d


def bench_one(algo: str, K: int, eps: float, radius_scale: float, T: int, fast_trials: int, ref_trials: int,
              dr: str = "gini", seed: int = 0, threads: int | None = None) -> BenchRow:
    """Time the engine on ``fast_trials`` trials and the reference on the first ``ref_trials`` of them.

    ``threads``: ``SimConfig.threads`` of the engine (only CE-UCB-M's compiled loop uses more
    than one; None: the CPUs available).  The reference loop is one plain Python loop.

    A short untimed warm-up run first (T = 50, 2 trials) fills the one-time caches of both
    routes: lambdified h, the grid, and numba's compiled CE-UCB-M loop and h callback
    (compiled once per installation, then loaded from the on-disk cache).
    """
    d = get(dr)
    inst = BernoulliInstance(INSTANCES[K])
    run(SimConfig(T=50, trials=2, seed=seed, eps=eps, radius_scale=radius_scale), inst, d, algo)
    cfg = SimConfig(T=T, trials=fast_trials, seed=seed, eps=eps, radius_scale=radius_scale, threads=threads)
    t0 = time.perf_counter()
    res = run(cfg, inst, d, algo)
    fast = time.perf_counter() - t0
    setup = prepare(cfg, inst, d, algo)
    table = RewardTable.from_seed(seed, fast_trials, inst)
    t0 = time.perf_counter()
    same = True
    for k in range(ref_trials):
        acts = reference_trial(setup, d, inst, table, k)
        same &= bool(np.array_equal(np.bincount(acts, minlength=K), res.counts[k]))
    ref = time.perf_counter() - t0
    used = catalog.get(algo).threads_used(setup, d, inst, fast_trials)
    return BenchRow(algo, K, eps, radius_scale, T, fast_trials, ref_trials, T * fast_trials / fast,
                    T * ref_trials / ref, same, used)


def bench(quick: bool = False, algos=None, Ks=(2, 4), eps: float = 0.05,
          radius_scales=(1.0, 0.01), competitors_only: bool = False) -> list:
    """The paper algorithms' rows (:func:`paper_rows`, :class:`PaperRow`) first, the competitors'
    (:func:`competitor_rows`; only these with ``competitors_only``), then a :class:`BenchRow` per policy;
    ``quick``: T = 1000, 100 engine trials, 1 reference trial; else T = 3000, 1000 (the paper's number of trials:
    the engine's per-step cost is shared by all trials) and 5 (fewer let the reference's rate vary by 1.5x between
    runs, measured).

    ``algos``: the paper's policies of the catalog by default.  A policy that reads ``threads`` (CE-UCB-M) comes
    twice on a machine with several CPUs: its compiled loop on one thread, then on all of them (``threads``
    column; the other policies run on one); one that reads ``radius_scale`` once per scale.
    """
    if competitors_only:
        return list(competitor_rows(quick))
    T, nf, nr = (1000, 100, 1) if quick else (3000, 1000, 5)
    cpus = available_cpus()
    rows: list = paper_rows(quick) + competitor_rows(quick)
    for algo in (catalog.names("paper") if algos is None else algos):
        reads = catalog.get(algo).reads
        for K in Ks:
            for rs in (radius_scales if "radius_scale" in reads else (1.0,)):
                for th in ((1, cpus) if "threads" in reads and cpus > 1 else (1,)):
                    rows.append(bench_one(algo, K, eps, rs, T, nf, nr, threads=th))
    return rows


#: The configuration of the paper algorithms' rows.
PAPER = {"eps": 0.05, "radius_scale": 0.01, "T": 20_000, "trials": 1000, "Ks": (2, 4), "algos": ("ce-ucb-m", "rs-ucb-m")}


@dataclass(frozen=True)
class PaperRow:
    """One row of the paper algorithms: seconds for ``trials`` trials (the reference: per trial x trials)."""

    algo: str
    K: int
    T: int
    trials: int
    ref_trials: int
    process_wall: float
    process_cpu: float
    engine_wall: float
    engine_cpu: float
    ref_wall: float  # reference, extrapolated to ``trials`` trials
    ref_cpu: float
    same_actions: bool

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d.update(kind="paper", process_speedup=self.ref_wall / self.process_wall,
                 engine_speedup=self.ref_wall / self.engine_wall)
        return d


def _cli() -> list[str]:
    rsb = Path(sys.executable).with_name("rsb")
    return [str(rsb)] if rsb.exists() else [sys.executable, "-m", "proofs_checks.cli"]


def _process(algo: str, K: int, T: int, trials: int, eps: float, rs: float) -> tuple[float, float]:
    """(wall, CPU) seconds of ``rsb simulate`` in a fresh process (its children's rusage)."""
    argv = _cli() + ["simulate", "--algo", algo, "--dr", "gini", "--p", ",".join(map(str, INSTANCES[K])), "--T",
                     str(T), "--trials", str(trials), "--eps", str(eps), "--radius-scale", str(rs), "--format", "json",
                     "--quiet", "--max-work", "10^12"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paper_one(algo: str, K: int, T: int, trials: int, ref_trials: int, eps: float, rs: float) -> PaperRow:
    """One row of :func:`paper_rows` (the process first, then the engine, then the reference)."""
    pw, pc = _process(algo, K, T, trials, eps, rs)
    ew, ec, rw, rc, same = _engine_and_reference(algo, "gini", K, T, trials, ref_trials, eps=eps, radius_scale=rs)
    return PaperRow(algo, K, T, trials, ref_trials, pw, pc, ew, ec, rw, rc, same)


def _engine_and_reference(algo: str, dr: str, K: int, T: int, trials: int, ref_trials: int,
                          **options) -> tuple[float, float, float, float, bool]:
    """(engine wall, engine CPU, reference wall, reference CPU, identical actions): the engine in this process on
    ``trials`` trials after a warm-up, then the plain loop on ``ref_trials`` of the same trials (its times scaled by
    trials / ref_trials); ``options``: SimConfig's fields."""
    d, inst = get(dr), BernoulliInstance(INSTANCES[K])
    run(SimConfig(T=50, trials=2, seed=0, **options), inst, d, algo)  # warm-up: caches, compiled code
    cfg = SimConfig(T=T, trials=trials, seed=0, **options)
    c0, w0 = time.process_time(), time.perf_counter()
    res = run(cfg, inst, d, algo)
    ew, ec = time.perf_counter() - w0, time.process_time() - c0
    setup = prepare(cfg, inst, d, algo)
    table = RewardTable.from_seed(0, trials, inst)
    same = True
    c0, w0 = time.process_time(), time.perf_counter()
    for k in range(ref_trials):
        acts = reference_trial(setup, d, inst, table, k)
        same &= bool(np.array_equal(np.bincount(acts, minlength=K), res.counts[k]))
    rw, rc = time.perf_counter() - w0, time.process_time() - c0
    scale = trials / ref_trials
    return ew, ec, rw * scale, rc * scale, same


def paper_rows(quick: bool = False) -> list[PaperRow]:
    """The paper algorithms' rows: CE-UCB-M and RS-UCB-M at K = 2 and 4 (``quick``: 100 trials, 1 reference trial;
    else 1000 and 3)."""
    trials, nr = (100, 1) if quick else (PAPER["trials"], 3)
    return [paper_one(a, K, PAPER["T"], trials, nr, PAPER["eps"], PAPER["radius_scale"])
            for a in PAPER["algos"] for K in PAPER["Ks"]]


def format_paper_rows(rows) -> str:
    lines = ["paper algorithms: Gini, eps = 0.05, radius x 0.01, T = 2e4; seconds for all trials (wall / CPU); the "
             "reference timed on ref trials in the same run, times trials / ref",
             f"{'algo':<9} {'K':>2} {'trials':>6} {'ref':>3} {'process':>13} {'engine':>13} {'reference':>15} "
             f"{'x process':>9} {'x engine':>8} same"]
    for r in rows:
        lines.append(f"{r.algo:<9} {r.K:>2} {r.trials:>6} {r.ref_trials:>3} {r.process_wall:>6.2f}/{r.process_cpu:<6.2f} "
                     f"{r.engine_wall:>6.2f}/{r.engine_cpu:<6.2f} {r.ref_wall:>7.1f}/{r.ref_cpu:<7.1f} "
                     f"{r.ref_wall / r.process_wall:>9.0f} {r.ref_wall / r.engine_wall:>8.0f} {r.same_actions}")
    return "\n".join(lines)


#: The competitors' rows: each competitor of the catalog on a distortion it applies to (its ``example_dr``),
#: T = 2e4, 1000 trials, K = 2 and 4.
COMPETITOR_ROWS = {"T": 20_000, "trials": 1000, "Ks": (2, 4)}


def competitor_algos() -> dict:
    """The competitors of the catalog and the distortion of each one's rows."""
    return {p.name: p.example_dr for p in catalog.policies() if p.family == "competitor"}


@dataclass(frozen=True)
class CompetitorRow(PaperRow):
    """One row of a competitor: the fields of :class:`PaperRow`, and the distortion."""

    dr: str = "gini"

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["kind"] = "competitor"
        return d


def competitor_one(algo: str, dr: str, K: int, T: int, trials: int, ref_trials: int) -> CompetitorRow:
    """One competitor row: ``rsb simulate`` as a whole process, the engine in this process, the reference loop
    on ``ref_trials`` of the same trials (times trials / ref_trials); the default options of each."""
    argv = _cli() + ["simulate", "--algo", algo, "--dr", dr, "--p", ",".join(map(str, INSTANCES[K])), "--T", str(T),
                     "--trials", str(trials), "--format", "json", "--quiet", "--max-work", "10^12"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    pw = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pc = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ew, ec, rw, rc, same = _engine_and_reference(algo, dr, K, T, trials, ref_trials)
    return CompetitorRow(algo, K, T, trials, ref_trials, pw, pc, ew, ec, rw, rc, same, dr)


def competitor_rows(quick: bool = False) -> list[CompetitorRow]:
    """The competitors' rows (:data:`COMPETITOR_ROWS`; ``quick``: T = 2000, 100 trials, 1 reference trial; else 2
    reference trials)."""
    T, trials, nr = (2000, 100, 1) if quick else (COMPETITOR_ROWS["T"], COMPETITOR_ROWS["trials"], 2)
    return [competitor_one(a, dr, K, T, trials, nr) for a, dr in competitor_algos().items()
            for K in COMPETITOR_ROWS["Ks"]]


def format_competitor_rows(rows) -> str:
    lines = ["competitors: default options, T = 2e4; seconds for all trials (wall / CPU); the "
             "reference timed on ref trials in the same run, times trials / ref",
             f"{'algo':<9} {'dr':<10} {'K':>2} {'trials':>6} {'ref':>3} {'process':>13} {'engine':>13} "
             f"{'reference':>15} {'x process':>9} {'x engine':>8} same"]
    for r in rows:
        lines.append(f"{r.algo:<9} {r.dr:<10} {r.K:>2} {r.trials:>6} {r.ref_trials:>3} "
                     f"{r.process_wall:>6.2f}/{r.process_cpu:<6.2f} {r.engine_wall:>6.2f}/{r.engine_cpu:<6.2f} "
                     f"{r.ref_wall:>7.1f}/{r.ref_cpu:<7.1f} {r.ref_wall / r.process_wall:>9.0f} "
                     f"{r.ref_wall / r.engine_wall:>8.0f} {r.same_actions}")
    return "\n".join(lines)


def format_rows(rows) -> str:
    comp = [r for r in rows if isinstance(r, CompetitorRow)]
    paper = [r for r in rows if isinstance(r, PaperRow) and not isinstance(r, CompetitorRow)]
    rows = [r for r in rows if not isinstance(r, PaperRow)]
    head = format_paper_rows(paper) + "\n\n" if paper else ""
    head += format_competitor_rows(comp) + "\n\n" if comp else ""
    return head + _format_bench_rows(rows)


def _format_bench_rows(rows) -> str:
    lines = [f"{'algo':<9} {'K':>2} {'eps':>5} {'r_scale':>7} {'T':>6} {'threads':>7} {'engine tsps':>12} "
             f"{'reference tsps':>15} {'speedup':>8} same"]
    for r in rows:
        lines.append(f"{r.algo:<9} {r.K:>2} {r.eps:>5} {r.radius_scale:>7} {r.T:>6} {r.threads:>7} "
                     f"{r.fast_tsps:>12.3g} {r.ref_tsps:>15.3g} {r.speedup:>8.1f} {r.same_actions}")
    return "\n".join(lines)
