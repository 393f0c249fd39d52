"""Benchmark: a sweep with continuous arms (the target: 1000 trials, T = 10^5, K = 4 within 10 minutes on
2 cores), through :func:`rsb_sim.sweep.sweep` with ``"arms"`` specs, as ``rsb`` runs it.

Usage::

    .venv/bin/python benchmarks/bench_laws.py                      # the target size, 2 worker processes (long)
    .venv/bin/python benchmarks/bench_laws.py --fit 1,3            # at the target T with 1 and 3 trials, extrapolated

Arms: ``beta(2,5); uniform(0.3,0.2); truncnorm(-2,2,0.5,0.1); triang(0.5,0,1)`` (K = 4), h = Gini
(``--dr NAME`` for another).
Algorithms: uniform, RS-ETC-M with the paper's N(eps) (it never commits at these sizes: the cost is
Delta_min(eps) on the true laws), RS-ETC-M with ``--explore T/20`` per arm (exact per-trial levels),
CE-UCB-M with ``--quantize 64`` (paper constants).

Without ``--fit`` each algorithm's sweep runs in ``--jobs`` worker processes (one chunk each); the script
reports wall time and CPU time (this process and its children, ``resource.getrusage``).  With
``--fit N1,N2`` each algorithm runs at the target horizon in this process with N1 and then N2 trials;
CPU = a + b * trials is fitted through the two points (a: the cost per chunk -- setup, oracle,
Delta_min; b: the cost per trial; trials are independent, so the cost is linear in them up to the
batching of CE-UCB-M's steps) and the wall time of the target on 2 cores, one chunk per core, is
extrapolated as a + b * trials / 2.  That is an extrapolation, not a measurement: say so when quoting it.
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


def timed_sweep(spec: dict, jobs: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one sweep of ``spec`` (``jobs`` processes, one chunk each; 1: this process)."""
    from rsb_sim.sweep import sweep

    trials = spec["config"]["trials"]
    c0, w0 = cpu(), time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        sweep([spec], out, executor="processes" if jobs > 1 else "local", jobs=jobs, chunk=-(-trials // jobs))
    return time.perf_counter() - w0, cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--T", type=int, default=100_000)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quantize", type=int, default=64)
    ap.add_argument("--dr", default="gini", help="the distortion (default gini, a quadratic h)")
    ap.add_argument("--only", default=None, help="comma-separated substrings of the variants to run")
    ap.add_argument("--fit", default=None, metavar="N1,N2", help="run N1 and N2 trials in this process and "
                    "extrapolate to --trials on 2 cores")
    args = ap.parse_args()

    for name, (algo, cfg) in variants(args.T, args.quantize).items():
        if args.only and not any(x in name for x in args.only.split(",")):
            continue

        def spec(trials: int) -> dict:
            return {"algo": algo, "dr": args.dr, "params": {}, "arms": ARMS,
                    "config": {"T": args.T, "trials": trials, "seed": 0, **cfg}}

        row = {"variant": name, "dr": args.dr, "T": args.T}
        if args.fit is None:
            w, c = timed_sweep(spec(args.trials), args.jobs)
            row.update({"trials": args.trials, "jobs": args.jobs, "wall_s": round(w, 1), "cpu_s": round(c, 1)})
        else:
            n1, n2 = (int(x) for x in args.fit.split(","))
            (w1, c1), (w2, c2) = timed_sweep(spec(n1), 1), timed_sweep(spec(n2), 1)
            b = (c2 - c1) / (n2 - n1)
            a = c1 - b * n1
            if b <= 0.0:
                print(f"bench_laws: warning: {name}: {n2} trials took no more CPU than {n1} (noise, or compilation "
                      f"in the first run); the extrapolation is meaningless: use more trials (--fit 4,16)",
                      file=sys.stderr)
            row.update({"cpu_s": {n1: round(c1, 1), n2: round(c2, 1)}, "wall_s": {n1: round(w1, 1), n2: round(w2, 1)},
                        "cpu_per_chunk_s": round(a, 1), "cpu_per_trial_s": round(b, 3),
                        "extrapolated_wall_2_cores_s": round(max(a, 0.0) + b * args.trials / 2, 0),
                        "extrapolated_to_trials": args.trials})
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
