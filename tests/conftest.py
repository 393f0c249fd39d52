"""Shared test set-up: hypothesis draws the same examples on every run, and the whole ledger is run once per
session for the ledger's tests (tests/checks, tests/test_determinism.py)."""

import os

import pytest
from hypothesis import settings

# Same input, same output: the suite (and CI) draws a fixed sequence of examples, so a run's verdict does not
# depend on luck.  HYPOTHESIS_PROFILE=explore draws fresh random examples, to hunt for new counterexamples.
settings.register_profile("rsb", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rsb"))


@pytest.fixture(scope="session", autouse=True)
def _ledger_store(tmp_path_factory):
    """The stored ledgers of this session (``proofs_checks/stored.py``) in a directory of its own, never the
    user's cache: a command computes its ledger in the session unless a test stored one."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RSB_LEDGER_DIR", str(tmp_path_factory.mktemp("ledger-store")))
        yield


@pytest.fixture(scope="session")
def ledger():
    """Every entry of ``rsb verify`` (in this process; the caches then serve the other tests too)."""
    from proofs_checks.registry import run_all

    return run_all()
