"""Same input, same ledger, on any machine: ``rsb verify`` on an idle machine and with every core busy.

No route and no result may depend on how fast the machine is (issue 15: SIGALRM budgets used to
decide between symbolic and numeric routes).  The session's ledger (computed
once for every ledger test, ``tests/conftest.py``) is compared byte for byte with the JSON of
``rsb verify --jobs 2`` run in a fresh process while a busy loop occupies every core: another
process, other workers, another load.  A check that consulted a clock would differ under load.
"""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOG = "import time\nt = time.time() + {limit}\nwhile time.time() < t:\n    pass\n"


def _verify() -> bytes:
    rsb = os.path.join(os.path.dirname(sys.executable), "rsb")  # the console script of this environment
    cmd = [rsb, "verify", "--format", "json", "--jobs", "2"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, timeout=1200)
    return out.stdout


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def test_the_ledger_does_not_depend_on_the_load_of_the_machine(ledger):
    from proofs_checks.ledger import to_json

    idle = to_json(ledger).strip().encode()
    hogs = [subprocess.Popen([sys.executable, "-c", HOG.format(limit=900)]) for _ in range(_cpus())]
    try:
        busy = _verify()
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait()
    assert idle == busy.strip()
    assert idle.lstrip().startswith(b"[")
