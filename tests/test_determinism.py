"""Same input, same ledger, on any machine: ``rsb verify`` on an idle machine and with every core busy.

No route and no result may depend on how fast the machine is (issue 15: SIGALRM budgets used to
decide between symbolic and numeric routes).  The session's ledger (computed
once for every ledger test, ``tests/conftest.py``) is compared byte for byte with the JSON of
``rsb verify --jobs 2 --fresh`` run in a fresh process while a busy loop occupies every core: another
process, other workers, another load.  A check that consulted a clock would differ under load.
The same run stores its ledger over the session's, stored first (``proofs_checks/stored.py``): the file
must not change by a byte.
"""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOG = "import time\nt = time.time() + {limit}\nwhile time.time() < t:\n    pass\n"


def _verify(store) -> bytes:
    rsb = os.path.join(os.path.dirname(sys.executable), "rsb")  # the console script of this environment
    cmd = [rsb, "verify", "--format", "json", "--jobs", "2", "--fresh"]  # computed, never read from the store
    env = {**os.environ, "RSB_LEDGER_DIR": str(store)}
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True, timeout=1200)
    return out.stdout


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def test_the_ledger_does_not_depend_on_the_load_of_the_machine(ledger, tmp_path):
    from proofs_checks import stored
    from proofs_checks.ledger import to_json

    idle = to_json(ledger).strip().encode()
    # the session's ledger stored as `rsb verify` stores it; --fresh then stores its own computation over it
    key = stored.ledger_key()
    path = stored.save(stored.path_of(tmp_path, key), key, ledger, stored.installed_versions(),
                       stored.python_version())
    kept, inode = path.read_bytes(), path.stat().st_ino
    hogs = [subprocess.Popen([sys.executable, "-c", HOG.format(limit=900)]) for _ in range(_cpus())]
    try:
        busy = _verify(tmp_path)
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait()
    assert idle == busy.strip()
    assert idle.lstrip().startswith(b"[")
    # the stored ledger is byte for byte what a fresh computation stores (every field, not only the JSON's)
    assert path.stat().st_ino != inode and path.read_bytes() == kept  # written again (atomically), same bytes
