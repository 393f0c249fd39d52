"""Answers from the stored ledger, and the full recomputation.

Usage::

    .venv/bin/python benchmarks/bench_ledger.py [--repeats N] [--fresh] [--jobs J]

The ledger is stored where ``rsb verify`` stores it (``$RSB_LEDGER_DIR``, default ``~/.cache/rsb/ledger``;
``proofs_checks/stored.py``).  If it is not current, ``rsb verify`` runs once first to store it.  Then each
query below runs ``N`` times (default 5) as a fresh process, alternating with a bare ``python -c "import
numpy"``; the median wall time and the median CPU time (user + system of the process and its children) of
each are printed.  The target is an answer within 2 s for each.  A query must also import neither NumPy nor
SymPy where the design says so (``rsb verify --status``, ``--id``, ``rsb labels``), checked with
``python -X importtime``.  With ``--fresh``, the full recomputation ``rsb verify --fresh --jobs J --format
json`` is timed once as well (target: 60 s on 2 cores).  On a machine shared with other work the wall time
overstates; the CPU time does not.  Results belong in ``docs/architecture.md``, not in code comments.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TARGET = 2.0
FULL_TARGET = 60.0

QUERIES = {
    "rsb verify --status refuted": (["verify", "--status", "refuted"], True),
    "rsb verify --status refuted --format json": (["verify", "--status", "refuted", "--format", "json"], True),
    "rsb verify --id lemma:RTD": (["verify", "--id", "lemma:RTD"], True),
    "rsb verify --proof lemma:RTD": (["verify", "--proof", "lemma:RTD"], False),
    "rsb labels": (["labels"], True),
    "rsb report --out TMP": (["report", "--out", "{tmp}"], False),
}


def _run(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds (the child and its children) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, cpu, done


def _heavy_imports(prefix: list[str], argv: list[str]) -> list[str]:
    """The modules among numpy and sympy that the command imports (``-X importtime``)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *prefix[1:], *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}
    return sorted(names & {"numpy", "sympy"})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--fresh", action="store_true", help="also time the full recomputation")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the recomputation (default 2)")
    opts = ap.parse_args()
    prefix = [sys.executable, "-m", "proofs_checks.cli"]
    ok = True
    if opts.fresh:
        wall, cpu, _ = _run(prefix + ["verify", "--fresh", "--jobs", str(opts.jobs), "--format", "json"])
        print(f"full recomputation (--fresh --jobs {opts.jobs}): {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"(target <= {FULL_TARGET:g} s wall on 2 idle cores)")
    else:
        wall, cpu, done = _run(prefix + ["verify", "--format", "json"])  # stores the ledger if it is stale
        if "computed" in done.stderr:
            print(f"the stored ledger was stale: computed in {wall:.1f} s wall, {cpu:.1f} s CPU")
    base_cmd = [sys.executable, "-c", "import numpy"]
    _run(base_cmd)
    with tempfile.TemporaryDirectory() as tmp:
        cmds = {name: [a.format(tmp=os.path.join(tmp, "report")) for a in argv]
                for name, (argv, _light) in QUERIES.items()}
        base, times = [], {name: [] for name in QUERIES}
        for _ in range(opts.repeats):
            for name, argv in cmds.items():
                base.append(_run(base_cmd)[0])
                wall, cpu, done = _run(prefix + argv)
                if "read from" not in done.stderr and name.startswith("rsb verify"):
                    raise SystemExit(f"{name} did not read the stored ledger: {done.stderr.strip()[-300:]}")
                times[name].append((wall, cpu))
        print(f"{'command':<44} {'wall s':>7} {'CPU s':>6}  heavy imports")
        label = 'python -c "import numpy" (baseline)'
        print(f"{label:<44} {statistics.median(base):>7.3f}")
        for name, ts in times.items():
            wall = statistics.median(t[0] for t in ts)
            cpu = statistics.median(t[1] for t in ts)
            heavy = _heavy_imports(prefix, cmds[name])
            light = QUERIES[name][1]
            ok &= wall <= TARGET and (not light or not heavy)
            print(f"{name:<44} {wall:>7.3f} {cpu:>6.3f}  {', '.join(heavy) or 'none'}"
                  + ("  <- must be none" if light and heavy else ""))
    print(f"target: each answer <= {TARGET:g} s wall; {opts.repeats} runs each (medians)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
