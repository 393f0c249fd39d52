"""``--scheduler`` with a scheme Dask has no backend for is refused in validation, naming the flag.

``rsb slopes --scheduler file:///etc/passwd`` printed Dask's "unknown address scheme 'file'" 12 s later, naming
no flag.
"""

from __future__ import annotations

import pytest

from proofs_checks.cli.app import main


@pytest.mark.parametrize("addr", ["file:///etc/passwd", "http://host:8786", "inproc://x", "tcp://a b"])
def test_unknown_scheduler_scheme_refused(tmp_path, capsys, monkeypatch, addr):
    monkeypatch.chdir(tmp_path)
    argv = ["slopes", "--algo", "uniform", "--Ts", "100,200", "--trials", "2", "--quiet", "--scheduler", addr]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument '--scheduler'" in err[0]
    assert not any(tmp_path.iterdir())
