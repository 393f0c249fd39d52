"""Same input, same ledger, on any machine.

The session's ledger (computed once for every ledger test, ``tests/conftest.py``: one process, ``--jobs 1``, the
machine's default numba/BLAS threads and CPU features) is compared byte for byte with the JSON of ``rsb verify``
run in a fresh process that differs in everything that varies between machines and runs:

* ``--jobs 2`` (forked workers, other caches);
* one numba, OpenMP and OpenBLAS thread (``NUMBA_NUM_THREADS``, ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``);
* numpy's dispatched vector loops switched off (``NPY_DISABLE_CPU_FEATURES``: every dispatchable feature this
  processor has) and OpenBLAS on its oldest x86-64 kernels (``OPENBLAS_CORETYPE=Nehalem``): sums and dot products in
  another order, so any printed number at the level of rounding noise comes out different (a failure seen once:
  "relative excess 1.3e-15" here, 1.4e-15 on another machine);
* every core kept busy by another process (a check that consulted a clock would differ under load).

The same run stores its ledger (``--fresh``: computed, never read from the store) over the session's, stored first
(``proofs_checks/stored.py``): the file must not change by a byte.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOG = "import time\nt = time.time() + {limit}\nwhile time.time() < t:\n    pass\n"


def _dispatched_features() -> str:
    """The CPU features numpy dispatches to on this machine (numpy refuses to disable baseline features)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


def perturbed_env() -> dict[str, str]:
    """The environment of the second run: one thread everywhere, other vector loops, other BLAS kernels."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    features = _dispatched_features()
    if features:
        env["NPY_DISABLE_CPU_FEATURES"] = features
    if platform.machine() in ("x86_64", "AMD64"):
        env["OPENBLAS_CORETYPE"] = "Nehalem"
    return env


def _verify(env: dict[str, str], store) -> bytes:
    rsb = os.path.join(os.path.dirname(sys.executable), "rsb")  # the console script of this environment
    cmd = [rsb, "verify", "--format", "json", "--jobs", "2", "--fresh"]  # computed, never read from the store
    env = {**env, "RSB_LEDGER_DIR": str(store)}
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, timeout=1500, env=env)
    return out.stdout


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def test_the_perturbed_environment_changes_what_it_should():
    env = perturbed_env()
    assert env["NUMBA_NUM_THREADS"] == env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "1"
    if platform.machine() == "x86_64":
        assert env["OPENBLAS_CORETYPE"] == "Nehalem"


def test_the_ledger_does_not_depend_on_jobs_threads_cpu_features_or_load(ledger, tmp_path):
    from proofs_checks import stored
    from proofs_checks.ledger import to_json

    here = to_json(ledger).strip().encode()
    # the session's ledger stored as `rsb verify` stores it; --fresh then stores its own computation over it
    key = stored.ledger_key()
    path = stored.save(stored.path_of(tmp_path, key), key, ledger, stored.installed_versions(),
                       stored.python_version())
    kept, inode = path.read_bytes(), path.stat().st_ino
    hogs = [subprocess.Popen([sys.executable, "-c", HOG.format(limit=1500)]) for _ in range(_cpus())]
    try:
        there = _verify(perturbed_env(), tmp_path)
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait()
    assert here == there.strip()
    assert here.lstrip().startswith(b"[")
    # the stored ledger is byte for byte what a fresh computation stores (every field, not only the JSON's)
    assert path.stat().st_ino != inode and path.read_bytes() == kept  # written again (atomically), same bytes
