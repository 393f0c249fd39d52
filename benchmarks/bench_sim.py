"""Benchmark of the simulation engine (trial-steps per second; engine vs reference loop in the same run).

Usage::

    .venv/bin/python benchmarks/bench_sim.py [--quick] [--scale]

``--scale`` also times the paper-scale experiments (regret-vs-K: K = 2..6,
T = 3e5, 1000 trials, RS-UCB-M and RS-ETC-M; regret-vs-T: K = 2,
Bern(0.4)/Bern(0.9), T up to 1e5, 1000 trials, RS-UCB-M, RS-ETC-M, uniform)
with the paper's constants, and reports wall time and peak memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from rsb_sim.bench import bench, format_rows  # noqa: E402
from rsb_sim.config import SimConfig  # noqa: E402
from rsb_sim.engine import run  # noqa: E402
from rsb_sim.instances import BernoulliInstance  # noqa: E402
from rsb_theory.distortions import get  # noqa: E402


def scale() -> None:
    """Paper-scale timings, for both variants of proofs_checks.experiments (paper constants; rsb choice)."""
    from proofs_checks.experiments import RSB_RADIUS_SCALE, uniform_gap_instance

    d = get("gini")
    T = 300_000
    variants = {"paper": lambda algo, K: {},
                "rsb": lambda algo, K: ({"radius_scale": RSB_RADIUS_SCALE, "explore": T // 20} if algo == "rs-ucb-m"
                                        else {"explore": K * (T // 20)})}
    for name, over in variants.items():
        t0 = time.perf_counter()
        for K in range(2, 7):
            inst = BernoulliInstance(uniform_gap_instance(K))
            for algo in ("rs-ucb-m", "rs-etc-m"):
                s = time.perf_counter()
                r = run(SimConfig(T=T, trials=1000, seed=K, **over(algo, K)), inst, d, algo)
                print(f"[{name}] regret-vs-K K={K} {algo}: mean {r.mean_regret:.3g} +- {r.std_regret:.2g}  "
                      f"{time.perf_counter() - s:.1f} s  warnings={len(r.warnings)}", flush=True)
        print(f"[{name}] regret-vs-K total {time.perf_counter() - t0:.1f} s", flush=True)
    t0 = time.perf_counter()
    inst = BernoulliInstance((0.4, 0.9))
    for T in (10_000, 20_000, 40_000, 60_000, 80_000, 100_000):
        for algo in ("rs-ucb-m", "rs-etc-m", "uniform"):
            r = run(SimConfig(T=T, trials=1000, seed=1), inst, d, algo)
            print(f"[paper] regret-vs-T T={T} {algo}: mean {r.mean_regret:.5f}  {r.seconds:.2f} s", flush=True)
    print(f"[paper] regret-vs-T total {time.perf_counter() - t0:.1f} s")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scale", action="store_true")
    args = ap.parse_args()
    print(format_rows(bench(quick=args.quick)), flush=True)
    if args.scale:
        scale()


if __name__ == "__main__":
    main()
