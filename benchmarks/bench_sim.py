"""Benchmark of the simulation engine (trial-steps per second; engine vs reference loop in the same run).

Usage::

    .venv/bin/python benchmarks/bench_sim.py [--quick] [--scale] [--compile-cache]

``--scale`` also times the paper-scale experiments (regret-vs-K: K = 2..6,
T = 3e5, 1000 trials, RS-UCB-M and RS-ETC-M; regret-vs-T: K = 2,
Bern(0.4)/Bern(0.9), T up to 1e5, 1000 trials, RS-UCB-M, RS-ETC-M, uniform)
with the paper's constants, and reports wall time and peak memory.

``--compile-cache`` (alone: it skips the throughput table) times a small CE-UCB-M run
in a first process with an empty numba cache (a fresh ``NUMBA_CACHE_DIR``: everything
is compiled) and in a second process with the same cache (everything is loaded), and
counts the compilations of each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


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
    # explore is pulls per arm for both algorithms (T/20 each)
    variants = {"paper": lambda algo, K: {},
                "rsb": lambda algo, K: ({"radius_scale": RSB_RADIUS_SCALE, "explore": T // 20} if algo == "rs-ucb-m"
                                        else {"explore": T // 20})}
    for name, over in variants.items():
        t0 = time.perf_counter()
        for K in range(2, 7):
            inst = BernoulliInstance(uniform_gap_instance(K))
            for algo in ("rs-ucb-m", "rs-etc-m"):
                s = time.perf_counter()
                # one root seed; the K-th experiment of the family is its stream (K,)
                r = run(SimConfig(T=T, trials=1000, seed=0, stream=(K,), **over(algo, K)), inst, d, algo)
                print(f"[{name}] regret-vs-K K={K} {algo}: mean {r.mean_regret:.3g} +- {r.std_regret:.2g}  "
                      f"{time.perf_counter() - s:.1f} s  warnings={len(r.warnings)}", flush=True)
        print(f"[{name}] regret-vs-K total {time.perf_counter() - t0:.1f} s", flush=True)
    t0 = time.perf_counter()
    inst = BernoulliInstance((0.4, 0.9))
    for j, T in enumerate((10_000, 20_000, 40_000, 60_000, 80_000, 100_000)):
        for algo in ("rs-ucb-m", "rs-etc-m", "uniform"):
            r = run(SimConfig(T=T, trials=1000, seed=1, stream=(j,)), inst, d, algo)
            print(f"[paper] regret-vs-T T={T} {algo}: mean {r.mean_regret:.5f}  {r.seconds:.2f} s", flush=True)
    print(f"[paper] regret-vs-T total {time.perf_counter() - t0:.1f} s")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


#: The run timed by compile_cache(), in a process of its own: CE-UCB-M, Gini, K = 4, T = 300, 2 trials.
_PROCESS = """
import json, time
t0 = time.perf_counter()
from numba.core import event
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_theory.argmax import edge_lines
from rsb_theory.distortions import get
t1 = time.perf_counter()
d = get("gini")
with event.install_recorder("numba:compile") as rec:
    r = run(SimConfig(T=300, trials=2, seed=0, eps=0.1, radius_scale=0.01, threads=1),
            BernoulliInstance((0.2, 0.4, 0.6, 0.9)), d, "ce-ucb-m")
t2 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "run": t2 - t1, "lines": r.stats.get("lines", 0),
                  "compiled": sum(1 for _, e in rec.buffer if e.is_start),
                  "h_from_cache": edge_lines.compiled_h(d).cache_hits}))
"""


def compile_cache() -> None:
    """First and second process of a CE-UCB-M run on one fresh numba cache directory."""
    with tempfile.TemporaryDirectory(prefix="rsb-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("first process (empty cache)", "second process"):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", _PROCESS], env=env, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - t0
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{label:<28} wall {wall:6.2f} s  (imports {r['imports']:.2f} s, CE-UCB-M run {r['run']:.2f} s)  "
                  f"functions compiled: {r['compiled']}  h loaded from the cache: {bool(r['h_from_cache'])}  "
                  f"compiled loop used: {r['lines'] > 0}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--compile-cache", action="store_true")
    args = ap.parse_args()
    if args.compile_cache:
        compile_cache()
        return
    print(format_rows(bench(quick=args.quick)), flush=True)
    if args.scale:
        scale()


if __name__ == "__main__":
    main()
