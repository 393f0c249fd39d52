"""Start-up time of the ``rsb`` command line against a bare ``python -c "import numpy"`` (lazy imports).

Usage::

    .venv/bin/python benchmarks/bench_cli.py [--repeats N]

Each command is run ``N`` times (default 9) as a fresh process, alternating with
the baseline so that a busy machine slows both alike; the median wall time of
each is printed with its ratio to the baseline's median.  The target is a ratio
of at most 3 for ``rsb --help`` and for argument errors, which are refused
before NumPy, SymPy or the simulator is imported.  Results belong in
``docs/quickstart.md``, not in code comments.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 3.0

COMMANDS = {
    "rsb --help": ["--help"],
    "rsb simulate --help": ["simulate", "--help"],
    "bad --T (simulate)": ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "ten"],
    "code in --explore (slopes)": ["slopes", "--explore", "__import__('os').system('touch x')*0+T/10"],
    "unknown --algo (simulate)": ["simulate", "--algo", "nope", "--dr", "gini", "--p", "0.4,0.9", "--T", "100"],
    "--radius-scale with rs-etc-m": ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T",
                                     "100", "--radius-scale", "0.01"],
    "unquoted --p 0.4 0.9 (plot bounds)": ["plot", "bounds", "--dr", "gini", "--p", "0.4", "0.9", "--algo",
                                           "rs-ucb-m", "--out", "o"],
}


def _seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=9)
    n = ap.parse_args().repeats
    rsb = Path(sys.executable).with_name("rsb")
    prefix = [str(rsb)] if rsb.exists() else [sys.executable, "-m", "proofs_checks.cli"]
    baseline_cmd = [sys.executable, "-c", "import numpy"]
    _seconds(baseline_cmd)  # warm the file cache once for both
    _seconds(prefix + ["--help"])
    base, times = [], {name: [] for name in COMMANDS}
    for _ in range(n):
        for name, argv in COMMANDS.items():
            base.append(_seconds(baseline_cmd))
            times[name].append(_seconds(prefix + argv))
    b = statistics.median(base)
    print(f"{'command':<38} {'median s':>9} {'ratio':>6}")
    label = 'python -c "import numpy" (baseline)'
    print(f"{label:<38} {b:>9.3f} {1.0:>6.2f}")
    worst = 0.0
    for name, ts in times.items():
        m = statistics.median(ts)
        worst = max(worst, m / b)
        print(f"{name:<38} {m:>9.3f} {m / b:>6.2f}")
    print(f"worst ratio {worst:.2f} (target <= {TARGET:g}); {n} runs each")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
