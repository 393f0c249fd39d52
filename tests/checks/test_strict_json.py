"""Every JSON rsb writes is strict JSON: no NaN or Infinity (strict parsers reject them), NumPy values written as the
numbers they stand for, and one place that writes it (rsb_sim/jsontext.py)."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from rsb_sim import jsontext

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("proofs_checks", "rsb_sim", "rsb_theory")


def _strict(text: str):
    """json.loads that refuses NaN and infinities, as jq and browsers do."""
    def bad(word):
        raise AssertionError(f"non-standard JSON constant {word}")
    return json.loads(text, parse_constant=bad)


def test_no_json_dumps_outside_the_one_writer():
    """Every json.dump / json.dumps of the three packages is in rsb_sim/jsontext.py."""
    pattern = re.compile(r"\bjson\.dumps?\s*\(")
    found = []
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            if path == ROOT / "rsb_sim" / "jsontext.py":
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_jsontext_writes_numpy_values_and_no_nan():
    text = jsontext.dumps({"T": np.int64(100), "x": np.float64("nan"), "v": np.array([1.0, np.inf]),
                           "b": np.bool_(True)})
    data = _strict(text)
    assert data["T"] == 100 and data["x"] is None and data["x_reason"] and data["v"] == [1.0, None]
    assert data["b"] is True
    with pytest.raises(ValueError):
        jsontext.exact({"x": math.nan})
    assert jsontext.exact({"T": np.int64(3)}) == '{"T": 3}'


def test_compare_json_with_zero_variance_is_strict(tmp_path, capsys):
    """Both regrets without spread (uniform on h = mean, even horizons): the test statistic is undefined, written
    as null with its reason, never NaN."""
    from proofs_checks.cli import main

    code = main(["compare", "--algos", "uniform,rs-etc-m", "--dr", "mean", "--p", "0,1", "--Ts", "100,200",
                 "--trials", "3", "--quiet", "--format", "json", "--out", str(tmp_path / "c")])
    out = capsys.readouterr().out
    assert code == 0
    assert "NaN" not in out and "Infinity" not in out
    _strict(out)


def test_api_json_of_numpy_arguments():
    from proofs_checks import api

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.simulate("gini", "uniform", [0.4, 0.9], T=np.int64(100), trials=np.int64(2))
        data = _strict(res.to_json())
        assert data["T"] == 100
        comp = api.compare("gini", "uniform,rs-etc-m", [0.4, 0.9], T=np.int64(100), trials=2)
        assert list(_strict(comp.to_json())["mean_regret"]) == ["uniform", "rs-etc-m"]  # summary() as strict JSON
        rep = api.optimum("gini", [0.4, 0.9])
        _strict(rep.to_json())


@pytest.mark.parametrize("p", [[True, False], (np.bool_(True), 0.5)])
def test_truth_values_are_not_means(p):
    from proofs_checks import api

    with pytest.raises(ValueError, match=r"argument 'p'.*truth value"):
        api.simulate("gini", "uniform", p, T=10)
