"""``rsb compare`` draws its figure when every final regret is 0 (an h flat at the optimum).

``--dr "min(u, 1/2)"`` on 0.4,0.9: every trial's regret is 0, and the log axis of panel (c) made Matplotlib
raise "Data cannot be log-scaled", printed as a usage error naming no flag after the CSVs were written.
"""

from __future__ import annotations

from proofs_checks.cli.app import main


def test_compare_with_zero_regret_draws_its_figure(tmp_path, capsys):
    out = tmp_path / "o"
    argv = ["compare", "--algos", "rs-etc-m,uniform", "--dr", "min(u, 1/2)", "--p", "0.4,0.9", "--Ts", "100,200",
            "--trials", "2", "--quiet", "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    assert (out / "compare.png").stat().st_size > 0 and (out / "compare.pdf").stat().st_size > 0
