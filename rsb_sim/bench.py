"""Throughput of each policy in trial-steps per second: vectorised engine vs the reference loop, same run.

Used by ``rsb bench`` and ``benchmarks/bench_sim.py``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rsb_theory.distortions import get

from .config import SimConfig, available_cpus
from .engine import run
from .instances import BernoulliInstance
from .reference import reference_trial
from .rewards import RewardTable
from .policies._driver import thread_count
from .policies.ce_ucb_m import runs_compiled_loop
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
    used = thread_count(setup, fast_trials) if algo == "ce-ucb-m" and runs_compiled_loop(setup, d, inst) else 1
    return BenchRow(algo, K, eps, radius_scale, T, fast_trials, ref_trials, T * fast_trials / fast,
                    T * ref_trials / ref, same, used)


def bench(quick: bool = False, algos=("rs-ucb-m", "ce-ucb-m", "rs-etc-m", "uniform"), Ks=(2, 4), eps: float = 0.05,
          radius_scales=(1.0, 0.01)) -> list[BenchRow]:
    """All rows; ``quick``: T = 1000, 100 engine trials, 1 reference trial; else T = 3000, 1000 (the paper's
    number of trials: the engine's per-step cost is shared by all trials) and 5 (fewer let the
    reference's rate vary by 1.5x between runs, measured).

    CE-UCB-M's rows come twice on a machine with several CPUs: its compiled loop on one thread,
    then on all of them (``threads`` column; the other policies run on one).
    """
    T, nf, nr = (1000, 100, 1) if quick else (3000, 1000, 5)
    cpus = available_cpus()
    rows = []
    for algo in algos:
        for K in Ks:
            for rs in (radius_scales if algo in ("rs-ucb-m", "ce-ucb-m") else (1.0,)):
                for th in ((1, cpus) if algo == "ce-ucb-m" and cpus > 1 else (1,)):
                    rows.append(bench_one(algo, K, eps, rs, T, nf, nr, threads=th))
    return rows


def format_rows(rows) -> str:
    lines = [f"{'algo':<9} {'K':>2} {'eps':>5} {'r_scale':>7} {'T':>6} {'threads':>7} {'engine tsps':>12} "
             f"{'reference tsps':>15} {'speedup':>8} same"]
    for r in rows:
        lines.append(f"{r.algo:<9} {r.K:>2} {r.eps:>5} {r.radius_scale:>7} {r.T:>6} {r.threads:>7} "
                     f"{r.fast_tsps:>12.3g} {r.ref_tsps:>15.3g} {r.speedup:>8.1f} {r.same_actions}")
    return "\n".join(lines)
