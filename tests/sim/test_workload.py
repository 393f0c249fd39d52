"""Work estimates (rsb_theory.workload) and the refusal of large instances before any search."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from rsb_theory.grids import Grid
from rsb_theory.workload import DEFAULT_MAX_WORK, grid_budget, grid_points, optimize_work, simulate_work

P10 = ",".join(str(x) for x in (0.1, 0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9))
P50 = ",".join(str(round(0.01 + 0.019 * i, 3)) for i in range(50))


@pytest.mark.parametrize("kind", ["etc", "ucb"])
def test_grid_size_equals_the_grids(kind):
    """The light count and rsb_theory.grids.Grid agree (K = 2..6, eps over its range, exact and with a deficit)."""
    for K in range(2, 7):
        for eps in (1.0, 0.5, 0.3, 0.2, 0.1, 1 / 7, 0.05, 0.013, 0.01):
            if grid_budget(K, eps, kind) < 0:
                continue
            g = Grid(K, eps, kind)
            assert (grid_budget(K, eps, kind), grid_points(K, eps, kind)) == (g.budget, g.size)


def test_estimates():
    assert optimize_work(2, 0.05).points == Grid(2, 0.05, "ucb").size
    assert optimize_work(10, 0.01).work > DEFAULT_MAX_WORK
    assert simulate_work("uniform", 2, 100, 10, None, grid=None) == (0, 2000)
    assert simulate_work("rs-ucb-m", 2, 100, 10, 0.05, grid="ucb") == (20, 2000 + 40)
    # the paper-scale runs of regret-vs-K are within the default limit
    assert simulate_work("rs-ucb-m", 6, 300_000, 1000, 0.0159, grid="ucb").work <= DEFAULT_MAX_WORK


def _rsb(argv, timeout=60):
    rsb = Path(sys.executable).with_name("rsb")
    cmd = [str(rsb)] if rsb.exists() else [sys.executable, "-m", "proofs_checks.cli"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd + argv, capture_output=True, text=True, timeout=timeout)
    return proc, time.perf_counter() - t0


@pytest.mark.parametrize("argv, size, flag", [
    (["optimize", "--dr", "gini", "--p", P10, "--eps", "0.01"], "2.75e+12 points", "--max-work"),
    # a grid of more than 2^63 points: no --max-work can run it, so eps is named
    (["optimize", "--dr", "gini", "--p", P50, "--eps", "0.01"], "points", "--eps"),
    (["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", P50, "--T", "10^6", "--eps", "0.01"], "points", "--eps"),
    (["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "10^8", "--trials", "1000"], "2e+11",
     "--max-work"),
    (["slopes", "--algo", "rs-etc-m", "--p", P10, "--eps", "0.01", "--no-cache", "--quiet"], "points", "--max-work"),
    (["plot", "bounds", "--dr", "gini", "--p", P10, "--algo", "rs-ucb-m", "--out", "o", "--Ts", "10^7,10^8",  # no --eps
      "--trials", "1000"], "points", "--max-work"),
])
def test_large_instances_are_refused_at_once(argv, size, flag):
    """One line naming --max-work (or --eps, for a grid no budget can run) with the grid size, exit 2, nothing on
    stdout; the work is counted, not tried (the wall time, measured for information, is a fraction of a second)."""
    proc, _seconds = _rsb(argv)
    err = proc.stderr.strip()
    assert proc.returncode == 2 and proc.stdout == "" and len(err.splitlines()) == 1, err
    assert f"argument '{flag}'" in err and size in err, err
    if flag == "--max-work":
        assert "work estimate" in err, err


def test_a_raised_limit_lets_the_run_through():
    proc, _ = _rsb(["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "3",
                    "--max-work", "10^2", "--quiet"])
    assert proc.returncode == 2 and "--max-work" in proc.stderr
    proc, _ = _rsb(["simulate", "--algo", "uniform", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "3",
                    "--max-work", "10^3", "--quiet", "--format", "json"])
    assert proc.returncode == 0, proc.stderr


def test_line_progress_when_stderr_is_not_a_terminal():
    """Not a terminal: a line per interval (here every update: interval 0), naming the command and the share done."""
    import io

    from proofs_checks.cli.work import progress_bar
    from rsb_sim.progress import LineProgress, bar, track

    out = io.StringIO()
    b = bar("rsb simulate", 200, "step", note=" per trial", every=0.0, stream=out)  # StringIO is no tty
    assert isinstance(b, LineProgress)
    for _ in range(4):
        b.update(50)
    b.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 4 and lines[-1].startswith("rsb simulate: 100% (200/200 steps per trial")
    assert progress_bar("rsb simulate", quiet=True) is None
    assert isinstance(progress_bar("rsb simulate", quiet=False)(total=10), LineProgress)  # pytest's stderr is no tty
    # the same helper wraps the items of a sweep (rsb_sim.progress.tracker) and counts without a total
    out = io.StringIO()
    assert list(track(iter(range(3)), "rsb compare", unit="chunk", every=0.0, stream=out)) == [0, 1, 2]
    assert out.getvalue().splitlines()[-1].startswith("rsb compare: 3 chunks (")
    out = io.StringIO()
    assert list(track([7, 8], "checks", unit="group", every=0.0, stream=out)) == [7, 8]
    assert out.getvalue().splitlines()[-1].startswith("checks: 100% (2/2 groups, ")


@pytest.mark.parametrize("argv", [
    ["optimize", "--dr", "gini", "--p", P10, "--eps", "0.01"],
    ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", P50, "--T", "10^6", "--eps", "0.01"],
])
def test_a_refusal_imports_nothing_heavy(argv):
    """The estimate and the refusal come before NumPy, SymPy, numba or the simulator are imported."""
    code = ("import contextlib, io, sys\nfrom proofs_checks.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    code = main({argv!r})\n"
            "heavy = sorted(m for m in ('numpy', 'sympy', 'numba', 'scipy', 'rsb_sim.engine') if m in sys.modules)\n"
            "print(code, heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout.strip()
    assert out == "2 []", out


def test_plot_with_too_many_arms_names_its_horizons_not_an_eps_flag(tmp_path):
    """plot has no --eps: a grid the experiments' eps cannot build is refused naming --Ts, before anything is written."""
    out = tmp_path / "o"
    proc, _seconds = _rsb(["plot", "bounds", "--dr", "gini", "--p", P50, "--algo", "rs-ucb-m", "--out", str(out)])
    err = proc.stderr.strip()
    assert proc.returncode == 2 and len(err.splitlines()) == 1, err
    assert "argument '--Ts'" in err and "K = 50" in err and not out.exists(), err


def test_a_search_at_every_step_is_in_the_work_estimate():
    """Plug-in tracking values every point of its simplex grid at every step: at K = 300 (the vertices only) that is
    300 mixtures of 300 Bernoulli laws per step, 180 600 multiply-adds, not the 300 of one index per arm; the default
    work budget refuses T = 1e4, 10 trials before any run, naming max_work."""
    import pytest

    from proofs_checks import api
    from rsb_sim.policies import catalog
    from rsb_sim.policies._ts_loop import simplex_grid
    from rsb_theory.errors import ArgumentError
    from rsb_theory.workload import simplex_points

    for K in (2, 3, 4, 7, 300):
        assert simplex_points(K) == len(simplex_grid(K))  # the estimate counts the grid the loop searches
    pt = catalog.get("plugin-track")
    assert pt.step_work(300, 2) == 300 * 2 * 301 and catalog.get("rs-ucb-m").step_work(300, 2) == 300
    assert simulate_work("plugin-track", 300, 10_000, 10, None, grid=None, per_step=pt.step_work(300)).work \
        > DEFAULT_MAX_WORK
    with pytest.raises(ArgumentError) as err:
        api.simulate("gini", "plugin-track", [0.2 + 0.5 * i / 300 for i in range(300)], T=10_000, trials=10)
    assert err.value.name == "max_work"


def test_each_run_has_a_fixed_work():
    """Thousands of tiny runs are counted: 3000 horizons of one algorithm, or a tuning grid of 20 000 multipliers,
    exceed the default work budget whatever their steps."""
    from proofs_checks.cli import work
    from rsb_theory.workload import RUN_WORK

    one = work.runs(("uniform",), 2, [10], 1, None)
    assert one.work == 2 * 10 + RUN_WORK
    assert work.runs(("uniform",), 2, list(range(2, 3002)), 1, None).work > DEFAULT_MAX_WORK
