"""Fixtures shared by the ledger's tests (tests/checks, tests/test_determinism.py): the whole ledger, run once per
test session."""

import pytest


@pytest.fixture(scope="session")
def ledger():
    """Every entry of ``rsb verify`` (in this process; the caches then serve the other tests too)."""
    from proofs_checks.registry import run_all

    return run_all()
