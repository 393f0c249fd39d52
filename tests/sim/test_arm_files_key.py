"""The key of a stored result covers the content of the files its ``empirical(FILE:COLUMN)`` arms read:
an edited CSV file is recomputed, an unchanged one reused (rsb_sim.store.key_of, rsb_theory.laws.digest)."""

import hashlib
import json

import numpy as np
import pytest

from rsb_sim import store
from rsb_sim.sweep import run_spec, sweep
from rsb_theory.laws import LawError, file_digests


def _csv(path, values):
    path.write_text("ret\n" + "\n".join(f"{v:g}" for v in values) + "\n")


def _spec(path):
    return {"algo": "rs-etc-m", "dr": "gini", "params": {}, "arms": f"empirical({path}:ret); beta(2,5)",
            "config": {"T": 120, "trials": 3, "seed": 4, "eps": 0.1, "explore": 5}}


def _recorder(ran):
    def progress(items, total=None):
        for c in items:
            ran.append((c.key, c.lo, c.hi))
            yield c
    return progress


def test_edited_csv_is_recomputed_unchanged_csv_is_reused(tmp_path):
    data = tmp_path / "r.csv"
    _csv(data, [0.1, 0.2, 0.2, 0.7, 0.9])
    out, spec = tmp_path / "out", _spec(data)
    ran = []
    (first,) = sweep([spec], out, progress=_recorder(ran))
    assert len(ran) == 1
    ran.clear()
    assert sweep([spec], out, progress=_recorder(ran)) == [first] and ran == []  # unchanged file: reused

    _csv(data, [0.5, 0.6, 0.6, 0.95, 0.99])  # the same spec text, another file content
    (second,) = sweep([spec], out, progress=_recorder(ran))
    assert second != first and [k for k, *_ in ran] == [second]  # recomputed under a new key
    new = store.load(out, second)[1]
    assert np.array_equal(new["regrets"], run_spec(spec).regrets)  # the numbers of the edited file
    assert not np.array_equal(new["regrets"], store.load(out, first)[1]["regrets"])

    _csv(data, [0.1, 0.2, 0.2, 0.7, 0.9])  # back to the first content: its result is found again
    ran.clear()
    assert sweep([spec], out, progress=_recorder(ran)) == [first] and ran == []


def test_digests_name_each_file_once_and_specs_without_files_keep_their_keys(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    _csv(a, [0.1, 0.3])
    _csv(b, [0.2])
    got = file_digests(f"empirical({a}:ret); empirical({a}:1); beta(2,5); empirical({b}:ret)")
    assert got == {str(f): hashlib.sha256(f.read_bytes()).hexdigest() for f in (a, b)}
    assert file_digests("beta(2,5); uniform(0.3,0.1)") == {}
    spec = {"algo": "uniform", "dr": "gini", "params": {}, "arms": "beta(2,5); uniform(0.3,0.1)",
            "config": {"T": 10, "trials": 1, "seed": 0}}
    assert store.key_of(spec) == hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def test_a_file_edited_under_a_running_sweep_is_refused_on_the_worker(tmp_path):
    """The digests a sweep keyed its result by travel with the spec; a worker reading other bytes stops."""
    data = tmp_path / "r.csv"
    _csv(data, [0.1, 0.2, 0.7])
    pinned = store.with_file_digests(_spec(data))
    assert pinned["arm_files"] == {str(data): hashlib.sha256(data.read_bytes()).hexdigest()}
    assert store.key_of(pinned) == store.key_of(_spec(data))  # the same key with or without the digests
    assert np.array_equal(run_spec(pinned).regrets, run_spec(_spec(data)).regrets)
    _csv(data, [0.1, 0.2, 0.8])  # edited after the sweep read it
    with pytest.raises(ValueError, match=r"^argument 'arms': .*r.csv' has changed since the sweep read it"):
        run_spec(pinned)
    assert store.with_file_digests({"p": [0.4, 0.9]}) == {"p": [0.4, 0.9]}


def test_missing_file_is_one_line_naming_the_arm_and_nothing_is_written(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(LawError, match=r"^argument '--arms': arm 1 \(empirical\(.*gone.csv:ret\)\): no such file"):
        sweep([_spec(tmp_path / "gone.csv")], out)
    assert not out.exists()
