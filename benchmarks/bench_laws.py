"""Benchmark: a sweep with continuous arms (issue 17's target: 1000 trials, T = 10^5, K = 4 within 10 minutes on
2 cores), through :func:`rsb_sim.sweep.sweep` with ``"arms"`` specs, as ``rsb`` runs it.

Usage::

    .venv/bin/python benchmarks/bench_laws.py                       # the target size (long)
    .venv/bin/python benchmarks/bench_laws.py --T 10000 --trials 8  # a scaled-down run, extrapolated

Arms: ``beta(2,5); uniform(0.3,0.2); truncnorm(-2,2,0.5,0.1); triang(0.5,0,1)`` (K = 4), h = Gini.
Algorithms: uniform, RS-ETC-M with the paper's N(eps) (it never commits at these sizes: the cost is
Delta_min(eps) on the true laws), RS-ETC-M with ``--explore T/20`` per arm (exact per-trial levels),
CE-UCB-M with ``--quantize 64`` (paper constants).

Each algorithm's sweep runs in ``--jobs`` worker processes (one chunk each); the script reports wall time,
CPU time (this process and its children, ``resource.getrusage``) and, for a scaled-down run, the
extrapolation to ``--target-trials`` x ``--target-T`` on 2 cores, assuming CPU time proportional to
trials x T x (grid points at the target eps / grid points at this eps) for CE-UCB-M (it searches the grid
at every step), trials for RS-ETC-M with exploration (one exact argmax per trial on K*explore levels, whose
grid also grows: same grid ratio), and nothing for the rest (a fixed cost per chunk).  That assumption is
the script's, not a measurement: say so when quoting the extrapolation.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ARMS = "beta(2,5); uniform(0.3,0.2); truncnorm(-2,2,0.5,0.1); triang(0.5,0,1)"


def cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def grid_size(K: int, T: int, kind: str) -> int:
    from rsb_sim.config import SimConfig
    from rsb_theory.grids import Grid

    return Grid(K, SimConfig(T=T).eps_for(K), kind).size


def variants(T: int, quantize: int) -> dict:
    return {
        "uniform": ("uniform", {}),
        "rs-etc-m (paper N(eps))": ("rs-etc-m", {}),
        "rs-etc-m (explore T/20)": ("rs-etc-m", {"explore": max(1, T // 20)}),
        f"ce-ucb-m (quantize {quantize})": ("ce-ucb-m", {"quantize": quantize}),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, default=100_000)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quantize", type=int, default=64)
    ap.add_argument("--only", default=None, help="comma-separated substrings of the variants to run")
    ap.add_argument("--target-T", type=int, default=100_000)
    ap.add_argument("--target-trials", type=int, default=1000)
    args = ap.parse_args()

    from rsb_sim.sweep import sweep

    K = 4
    rows = []
    for name, (algo, cfg) in variants(args.T, args.quantize).items():
        if args.only and not any(s in name for s in args.only.split(",")):
            continue
        spec = {"algo": algo, "dr": "gini", "params": {}, "arms": ARMS,
                "config": {"T": args.T, "trials": args.trials, "seed": 0, **cfg}}
        chunk = -(-args.trials // args.jobs)
        c0, w0 = cpu(), time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            sweep([spec], out, executor="processes" if args.jobs > 1 else "local", jobs=args.jobs, chunk=chunk)
        c, w = cpu() - c0, time.perf_counter() - w0
        row = {"variant": name, "T": args.T, "trials": args.trials, "jobs": args.jobs, "wall_s": round(w, 1),
               "cpu_s": round(c, 1)}
        if (args.T, args.trials) != (args.target_T, args.target_trials):
            ratio = args.target_trials / args.trials
            if algo == "ce-ucb-m":
                ratio *= args.target_T / args.T * grid_size(K, args.target_T, "ucb") / grid_size(K, args.T, "ucb")
            elif "explore" in cfg:
                ratio *= grid_size(K, args.target_T, "etc") / grid_size(K, args.T, "etc")
            else:
                ratio = 1.0
            row["extrapolated_wall_2_cores_s"] = round(c * ratio / 2, 0)
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
