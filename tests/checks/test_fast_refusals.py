"""Refusals come before the expensive work: the checks that refuse run first.

Each case is a refusal of ``docs/safety.md``: one line naming the flag, exit status 2, nothing
written.  "Fast" is shown by a bound on work, not by a timer: the expensive step that used to run
before the refusal (SymPy's range and shape analysis of h, the Hölder analysis, the sweep of runs)
is replaced by a failure, so the refusal must come without it.
"""

from __future__ import annotations

import math
import warnings

import pytest
import sympy as sp

from proofs_checks.cli.app import main
from rsb_theory import workload
from rsb_theory.distortions import DistortionError, U, check_probed_range, validate
from rsb_theory.expressions import to_sympy


def _forbid(monkeypatch, module, name: str) -> None:
    def forbidden(*args, **kwargs):
        raise AssertionError(f"{module.__name__}.{name} ran before the refusal")

    monkeypatch.setattr(module, name, forbidden)


def _refused(capsys, flag: str, *argv) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main([str(a) for a in argv])
    out = capsys.readouterr()
    lines = [ln for ln in out.err.splitlines() if ln]
    assert code == 2 and out.out == "" and len(lines) == 1 and "Traceback" not in out.err, (code, out)
    assert f"argument '{flag}" in lines[0], lines[0]
    return lines[0]


def test_an_h_outside_the_range_is_refused_before_sympy_analyses_it(capsys, monkeypatch):
    """``--h 2*u``: h at the probe points (30 digits) refuses it; SymPy's minimum, maximum and shape never run."""
    import rsb_theory.distortions as dist

    _forbid(monkeypatch, sp.calculus.util, "minimum")
    _forbid(monkeypatch, sp.calculus.util, "maximum")
    _forbid(monkeypatch, dist, "classify")
    line = _refused(capsys, "--h", "derive", "--h", "2*u", "--p", "0.4,0.9")
    assert "not a distortion function, h(1) = 2.00000 is not within [0, 1]" in line


@pytest.mark.parametrize("text", ["2*u", "u*(3 - u)", "-u", "u - sin(6*u)", "1.5*sqrt(u)", "min(2*u, 1.01)"])
def test_the_probes_and_the_exact_range_agree(text):
    """Two routes refuse the same h: the probes at 17 points and validate's exact minimum/maximum."""
    expr = to_sympy(text, "h", {"u": U})
    with pytest.raises(DistortionError, match="not a distortion function"):
        check_probed_range(expr)
    with pytest.raises(DistortionError, match="not a distortion function"):
        validate(expr, sp.lambdify(U, expr, "numpy"))


@pytest.mark.parametrize("text", ["u", "u*(1 - u)", "sqrt(u)", "min(2*u, 1)", "1 - (1 - u)**8"])
def test_the_probes_pass_every_distortion(text):
    check_probed_range(to_sympy(text, "h", {"u": U}))


def test_a_bad_arm_is_refused_before_h_is_analysed(capsys, monkeypatch):
    """``derive --arms "norm(0,1);..."``: the laws are built first; h's analysis (and its Hölder data) never runs."""
    import rsb_theory.distortions as dist

    _forbid(monkeypatch, dist, "_make")
    line = _refused(capsys, "--arms", "derive", "--h", "gini", "--arms", "norm(0,1);beta(2,5)")
    assert "unbounded support" in line


def test_a_refused_simulate_creates_nothing(capsys, monkeypatch, tmp_path):
    """An arm kind the policy is not defined for is refused before --out is made (it left an empty runs/)."""
    import proofs_checks.simulate_out as sim_out

    _forbid(monkeypatch, sim_out, "simulate_to")
    out = tmp_path / "D"
    _refused(capsys, "--algo", "simulate", "--algo", "m-cvts", "--dr", "cvar", "--arms", "beta(2,5);beta(5,2)",
             "--T", "100", "--out", out)
    assert not out.exists()


def test_a_tiny_rho_is_refused_in_the_estimate(capsys, monkeypatch, tmp_path):
    """``plot bounds --rho 1e-300``: refused in validation, before the runs (it was refused after them)."""
    import rsb_sim.engine as engine

    _forbid(monkeypatch, engine, "run")
    out = tmp_path / "B"
    line = _refused(capsys, "--rho", "plot", "bounds", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.4,0.9",
                    "--rho", "1e-300", "--trials", "2", "--out", out)
    assert "T_0(eps)" in line and not out.exists()


@pytest.mark.parametrize("rho, eps, Delta_min, L, q", [(0.1, 0.05, 0.02, 1.0, 1.0), (1e-3, 0.01, 0.1, 2.0, 0.5),
                                                       (1e-6, 0.2, 0.5, 1.0, 0.7), (0.5, 0.5, 1.0, 1.0, 1.0)])
def test_the_floor_of_T0_is_below_the_search(rho, eps, Delta_min, L, q):
    """Two routes: T_0(eps) found by the search of rates.T_of_eps is at least the floor the estimate reads."""
    from rsb_theory.rates import T_of_eps

    K = 2
    floor = (2048.0 * K) ** 2 / (rho * eps)
    assert T_of_eps(eps, rho, Delta_min, K, L, q).T0 >= floor
    workload.check_T0_floor(K, eps, rho)  # within the bound: no refusal


def test_the_floor_refuses_exactly_beyond_the_searched_range():
    K, eps = 2, 0.01
    edge = (2048.0 * K) ** 2 / (eps * workload.T0_MAX)  # the rho at which the floor reaches T0_MAX
    workload.check_T0_floor(K, eps, edge * 1.01)
    with pytest.raises(ValueError, match=r"argument 'rho'"):
        workload.check_T0_floor(K, eps, edge / 1.01)
    assert math.isfinite(edge) and edge > 0
