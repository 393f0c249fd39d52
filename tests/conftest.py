"""Shared test set-up: hypothesis draws the same examples on every run, bounded, and the whole ledger is computed
once per run of the suite for the ledger's tests (tests/checks, tests/test_determinism.py), however many
pytest-xdist workers run it."""

import fcntl
import os

import pytest
from hypothesis import Phase, settings

# Same input, same output: the suite (and CI) draws a fixed sequence of examples, so a run's verdict does not
# depend on luck, nor on what an example database remembers from earlier runs on this machine, nor on a clock
# (no deadline: a loaded machine is slow, not wrong).  A failure is reported as found, not shrunk: shrinking a
# failure of a slow property (the oracle's) took minutes; HYPOTHESIS_PROFILE=shrink shrinks it when debugging.
# HYPOTHESIS_PROFILE=explore draws fresh random examples, to hunt for new counterexamples.
_BOUNDED = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target)
settings.register_profile("rsb", derandomize=True, database=None, deadline=None, print_blob=True, phases=_BOUNDED)
settings.register_profile("shrink", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rsb"))


def _run_dir(tmp_path_factory):
    """A directory of this run of the suite, the same for every xdist worker (each worker's base temporary
    directory is ``<run>/popen-gwN``)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def _ledger_store(tmp_path_factory):
    """The stored ledgers of this session (``proofs_checks/stored.py``) in a directory of its own, never the
    user's cache: a command computes its ledger in the session unless a test stored one."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RSB_LEDGER_DIR", str(tmp_path_factory.mktemp("ledger-store")))
        yield


@pytest.fixture(scope="session")
def ledger(tmp_path_factory):
    """Every entry of ``rsb verify``, computed once per run of the suite: the first worker that asks computes it
    and stores it (``proofs_checks.stored``, keyed by the code) under a lock in the run's directory; the others
    wait for the lock and read the stored file."""
    from proofs_checks import stored

    folder = _run_dir(tmp_path_factory) / "session-ledger"
    folder.mkdir(exist_ok=True)
    with open(folder / ".compute.lock", "a") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        try:
            return list(stored.load_or_compute(folder=folder).entries)
        finally:
            fcntl.lockf(lock, fcntl.LOCK_UN)


@pytest.fixture
def stored_ledger(ledger, tmp_path_factory, monkeypatch):
    """The session's ledger, with ``RSB_LEDGER_DIR`` naming the store that holds it: a command of the test reads it
    there, as ``rsb verify`` reads a current stored ledger, instead of computing the whole ledger again (computing
    it is tested by ``tests/test_determinism.py`` and ``tests/checks/test_stored.py``)."""
    monkeypatch.setenv("RSB_LEDGER_DIR", str(_run_dir(tmp_path_factory) / "session-ledger"))
    return ledger
