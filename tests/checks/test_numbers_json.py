"""Same numbers everywhere: no printed number at the resolution of rounding noise, strict JSON, quiet pipes, pinned installs."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.numfmt import MAX_DIGITS, NOISE, ROUNDING, num, resid
from rsb_sim import jsontext

ROOT = Path(__file__).resolve().parents[2]
RSB = str(Path(sys.executable).with_name("rsb"))


def test_exact_numbers_print_exactly():
    assert num(3) == "3"
    assert num(Fraction(1, 3)) == "1/3"
    assert num(sp.Rational(2, 7)) == "2/7"
    assert num(sp.sqrt(2)) == "sqrt(2)"
    assert num(True) == "True"


def test_floats_print_at_most_six_significant_digits():
    assert num(1 / 3) == "0.3333"
    assert num(1 / 3, 6) == "0.333333"
    assert num(0.5, 2, "f") == "0.50"
    with pytest.raises(ValueError, match="'digits'"):
        num(0.1, 12)
    with pytest.raises(ValueError, match="'style'"):
        num(0.1, 3, "e")
    assert num(float("nan")) == "nan" and num(float("inf")) == "oo" and num(-np.inf) == "-oo"


def test_a_small_value_is_printed_a_residual_is_not():
    assert num(1.027e-163) == "1.027e-163"  # a probability bound: not noise
    assert resid(1.3e-15) == ROUNDING and resid(-9.1e-17) == ROUNDING
    assert resid(3.93e-11) == "3.9e-11"
    assert NOISE < 1e-9  # below every tolerance a decision uses (verdict.REL_TOL)


@settings(max_examples=200)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(min_value=-15, max_value=-13))
def test_a_residual_does_not_depend_on_rounding_noise(x, k):
    """Two machines that differ in the last bits print the same residual text."""
    noise = x * 2.0 ** -52 * 4
    assert resid(noise) == resid(noise * 1.5) == ROUNDING or abs(noise) * 1.5 >= NOISE  # both below the noise level
    assert resid(10.0 ** k) == resid(-(10.0 ** k) / 3) == ROUNDING


def test_checks_format_numbers_only_through_numfmt():
    """No format specification of a float (``{x:.3g}``) in the checks: every number goes through num/resid."""
    spec = re.compile(r"\{[^{}\n]*:[<>^]?\d*(\.\d+)?[eEfgG%]\}")
    offenders = []
    for path in sorted((ROOT / "proofs_checks" / "checks").glob("*.py")):
        for k, line in enumerate(path.read_text().splitlines(), 1):
            if spec.search(line):
                offenders.append(f"{path.name}:{k}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
    assert MAX_DIGITS <= 6


def test_json_has_no_nan_or_infinity():
    text = jsontext.dumps({"a": float("nan"), "b": [1.0, float("inf")], "c": {"d": -math.inf}, "e": 1})
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert data["a"] is None and "not a number" in data["a_reason"]
    assert data["b"] == [1.0, None] and data["c"]["d"] is None and data["c"]["d_reason"] == "minus infinity"
    assert data["e"] == 1 and "e_reason" not in data


def test_derive_json_is_strict_where_a_constant_is_undefined():
    out = subprocess.run([RSB, "derive", "--h", "min(u,0.3)", "--p", "0.2,0.5", "--format", "json"],
                         capture_output=True, text=True, timeout=600, check=True)
    assert "NaN" not in out.stdout and "Infinity" not in out.stdout
    data = json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert data["L_MH"] is None and data["L_MH_reason"]


@pytest.mark.parametrize("argv", [["labels", "--format", "json"], ["labels"], ["--help"]])
def test_a_closed_pipe_ends_quietly(argv):
    proc = subprocess.Popen([RSB, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader went away before anything was written (``| head`` on a long output)
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()
    assert proc.returncode in (0, 141)


def test_installs_are_pinned():
    """make demo/test install exact versions of every dependency from constraints.txt (make lock refreshes it)."""
    import tomllib

    make = (ROOT / "Makefile").read_text()
    assert "-c constraints.txt" in make and "lock:" in make
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            pins[name.lower().replace("_", "-")] = version
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = meta["dependencies"] + meta["optional-dependencies"]["test"] + ["pip"]
    for req in wanted:
        name = re.split(r"[<>=\[ ]", req, maxsplit=1)[0].lower().replace("_", "-")
        assert name in pins, f"{name} (pyproject.toml) has no pin in constraints.txt"


def test_the_markdown_ledger_records_the_versions(ledger):
    from proofs_checks.ledger import computed_with, to_markdown

    versions = computed_with()
    assert {"python", "numpy", "scipy", "sympy", "cvxpy", "numba"} <= set(versions)
    assert versions["python"].count(".") == 1  # major.minor: a patch release changes no number
    md = to_markdown(ledger[:2])
    assert "Computed with " + ", ".join(f"{k} {v}" for k, v in versions.items()) in md
