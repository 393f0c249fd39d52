"""``rsb compare --tune``: the tuning runs are in the work and memory estimates, refused before any run.

``--tune-trials 1e18`` was not estimated (only ``--trials`` was): the sweep built its list of chunks until
``MemoryError`` (3 GB under a limit, a traceback), where the budget promises one line naming the flag
(``docs/safety.md``, "Memory").
"""

from __future__ import annotations

import pytest

from proofs_checks.cli.app import main

BASE = ["compare", "--algos", "rs-ucb-m,ucb1", "--dr", "gini", "--p", "0.4,0.9", "--Ts", "100,200", "--trials", "2",
        "--tune", "--quiet"]


@pytest.mark.parametrize("extra, flag", [
    (["--tune-trials", "1e18"], "--max-work"),
    (["--tune-trials", "1e9"], "--max-work"),
    (["--tune-trials", "1e9", "--max-work", "1e18"], "--max-memory"),
    (["--tune-trials", "2e9", "--chunk", "1", "--max-work", "1e18", "--max-memory", "2^61"], "--chunk"),
    (["--tune-grid", ",".join(str(1 + i) for i in range(2000)), "--tune-instances", ";".join(["0.4,0.9"] * 2000)],
     "--max-work"),  # 8 million tuning runs: their fixed work per run
    (["--tune-grid", ",".join(str(1 + i) for i in range(2000)), "--tune-instances", ";".join(["0.4,0.9"] * 2000),
      "--max-work", "1e18"], "--max-memory"),  # ... and, with the work allowed, their list of chunks
])
def test_tuning_runs_are_estimated(tmp_path, capsys, extra, flag):
    out = tmp_path / "o"
    assert main(BASE + extra + ["--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"argument '{flag}'" in err[0], err
    assert not out.exists()
