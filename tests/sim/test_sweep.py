"""Sweeps in chunks of trials: identical to one big run, resumable after an interruption, same on Dask."""

import json

import numpy as np
import pytest

from proofs_checks.cli import main
from rsb_sim import store
from rsb_sim import sweep as sw
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import BernoulliInstance
from rsb_theory.distortions import get

GINI = get("gini")


def _spec(algo, trials=7, T=240, seed=5, **cfg):
    return {"algo": algo, "dr": "gini", "params": {}, "p": [0.3, 0.6, 0.9],
            "config": {"T": T, "trials": trials, "seed": seed, "eps": 0.1, "radius_scale": 0.01, **cfg}}


SPECS = [_spec("rs-ucb-m"), _spec("ce-ucb-m"), _spec("rs-etc-m", explore=10), _spec("uniform", trials=4)]


def _arrays(out, key):
    return store.load(out, key)


@pytest.mark.parametrize("chunk", [1, 3, 7, 100])
def test_chunks_reproduce_one_run_bit_for_bit(tmp_path, chunk):
    keys = sw.sweep(SPECS, tmp_path, chunk=chunk)
    for spec, key in zip(SPECS, keys):
        cfg = spec["config"]
        whole = run(SimConfig(**cfg), BernoulliInstance(tuple(spec["p"])), GINI, spec["algo"])
        summary, arrays = _arrays(tmp_path, key)
        assert np.array_equal(arrays["counts"], whole.counts)
        assert np.array_equal(arrays["regrets"], whole.regrets)
        assert summary["trials"] == cfg["trials"] and summary["config"]["trials"] == cfg["trials"]
        assert summary["mean_regret"] == pytest.approx(whole.mean_regret, abs=1e-15)
        assert summary["std_regret"] == pytest.approx(whole.std_regret, rel=1e-12, abs=1e-15)
        assert summary["chunks"] == -(-cfg["trials"] // chunk)
        assert summary["seed_entropy"] == str(whole.entropy)
    assert not (tmp_path / "chunks").exists() or not any((tmp_path / "chunks").iterdir())
    assert not list(tmp_path.rglob("*.tmp"))


def test_first_trial_offsets_the_reward_table():
    inst = BernoulliInstance((0.4, 0.9))
    whole = run(SimConfig(T=200, trials=5, seed=2, eps=0.1, radius_scale=0.01), inst, GINI, "ce-ucb-m")
    tail = run(SimConfig(T=200, trials=2, seed=2, eps=0.1, radius_scale=0.01, first_trial=3), inst, GINI,
               "ce-ucb-m")
    assert np.array_equal(whole.counts[3:], tail.counts)
    with pytest.raises(ValueError, match="'first_trial'"):
        SimConfig(T=10, first_trial=-1)


class _Stop(Exception):
    pass


def _recorder(ran: list, totals: list):
    """A progress wrapper that records the chunks the local executor runs (and the totals it is given)."""

    def progress(items, total=None):
        totals.append(total)
        for c in items:
            ran.append((c.lo, c.hi))
            yield c

    return progress


def test_interrupted_sweep_resumes_and_loses_nothing(tmp_path):
    spec = [_spec("ce-ucb-m", trials=10)]

    def stop_after_three(items, total=None):
        assert total == 4  # chunks of 3: [0,3) [3,6) [6,9) [9,10)
        for i, x in enumerate(items):
            if i == 3:
                raise _Stop  # the user presses Ctrl-C while the 4th chunk is about to run
            yield x

    with pytest.raises(_Stop):
        sw.sweep(spec, tmp_path, chunk=3, progress=stop_after_three)
    key = store.key_of(spec[0])
    assert not store.exists(tmp_path, key)  # no merged (partial) result
    done = sorted(p.stem for p in (tmp_path / "chunks" / key).glob("*.json"))
    assert done == ["0000000-0000003", "0000003-0000006", "0000006-0000009"]
    assert not list(tmp_path.rglob("*.tmp"))

    ran, totals = [], []
    sw.sweep(spec, tmp_path, chunk=3, progress=_recorder(ran, totals))
    assert ran == [(9, 10)] and totals == [1]  # only the missing chunk ran
    resumed = _arrays(tmp_path, key)[1]
    fresh = tmp_path / "fresh"
    sw.sweep(spec, fresh, chunk=10)
    ref = _arrays(fresh, key)[1]
    assert np.array_equal(resumed["counts"], ref["counts"]) and np.array_equal(resumed["regrets"], ref["regrets"])
    ran.clear()
    sw.sweep(spec, tmp_path, chunk=3, progress=_recorder(ran, totals))  # finished: nothing runs
    assert ran == []


def test_all_chunks_stored_but_not_merged_is_merged_on_rerun(tmp_path):
    spec = [_spec("uniform", trials=4)]
    key = store.key_of(spec[0])
    # what a sweep interrupted between its last chunk and the merge leaves on disk
    for c in sw.chunks_of(spec[0], key, 2):
        r = sw.run_spec(c.spec, c.lo, c.hi)
        store.save_arrays(tmp_path / "chunks" / key, c.name, r.summary(), r.regrets, r.counts)
    assert not store.exists(tmp_path, key)
    ran = []
    sw.sweep(spec, tmp_path, chunk=2, progress=_recorder(ran, []))
    assert ran == []  # no chunk runs again
    assert store.exists(tmp_path, key) and store.load(tmp_path, key)[0]["trials"] == 4
    assert not (tmp_path / "chunks" / key).exists()
    # merged, but interrupted before the chunk files were removed: the next sweep removes them
    (tmp_path / "chunks" / key).mkdir(parents=True)
    (tmp_path / "chunks" / key / "0000000-0000002.json").write_text("{}")
    sw.sweep(spec, tmp_path, chunk=2)
    assert not (tmp_path / "chunks" / key).exists()


@pytest.mark.parametrize("kwargs, needle", [
    ({"executor": "nope"}, "'executor'"),
    ({"chunk": 0}, "'chunk'"),
    ({"executor": "processes", "jobs": 0}, "'jobs'"),
])
def test_bad_sweep_arguments_write_nothing(tmp_path, kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        sw.sweep(SPECS[:1], tmp_path / "o", **kwargs)
    assert not (tmp_path / "o").exists()


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                 dashboard_address=None)
    try:
        yield c
    finally:
        c.close()


def test_dask_cluster_gives_the_local_numbers_bit_for_bit(tmp_path, cluster):
    from distributed import Client

    local = sw.sweep(SPECS, tmp_path / "local", chunk=3)
    with Client(cluster) as client:
        remote = sw.sweep(SPECS, tmp_path / "dask", executor="dask", client=client, chunk=3)
    by_addr = sw.sweep(SPECS, tmp_path / "addr", executor="dask", scheduler=cluster.scheduler_address, chunk=4)
    assert local == remote == by_addr
    for k in local:
        a = _arrays(tmp_path / "local", k)[1]
        for other in ("dask", "addr"):
            b = _arrays(tmp_path / other, k)[1]
            assert np.array_equal(a["counts"], b["counts"]) and np.array_equal(a["regrets"], b["regrets"])


def test_dask_sweep_resumes_an_interrupted_run(tmp_path, cluster):
    spec = [_spec("rs-ucb-m", trials=9)]
    key = store.key_of(spec[0])

    def stop_after_one(items, total=None):
        for i, x in enumerate(items):
            if i == 1:
                raise _Stop
            yield x

    with pytest.raises(_Stop):
        sw.sweep(spec, tmp_path, executor="dask", scheduler=cluster.scheduler_address, chunk=3,
                 progress=stop_after_one)
    assert len(list((tmp_path / "chunks" / key).glob("*.json"))) == 1 and not store.exists(tmp_path, key)
    sw.sweep(spec, tmp_path, executor="dask", scheduler=cluster.scheduler_address, chunk=3)
    sw.sweep(spec, tmp_path / "ref", chunk=9)
    a, b = _arrays(tmp_path, key)[1], _arrays(tmp_path / "ref", key)[1]
    assert np.array_equal(a["counts"], b["counts"])


def test_cli_slopes_on_a_scheduler_matches_local(tmp_path, cluster, capsys):
    base = ["slopes", "--algo", "rs-ucb-m,uniform", "--Ts", "200,400,800", "--trials", "5", "--radius-scale", "0.01",
            "--bootstrap", "10", "--format", "json", "--quiet"]
    assert main(base + ["--out", str(tmp_path / "l")]) == 0
    loc = json.loads(capsys.readouterr().out)
    assert main(base + ["--out", str(tmp_path / "d"), "--scheduler", cluster.scheduler_address, "--chunk", "2"]) == 0
    das = json.loads(capsys.readouterr().out)
    assert [r["mean_regret"] for r in loc] == [r["mean_regret"] for r in das]
    assert any((tmp_path / "d").glob("*.json")) and not any((tmp_path / "d" / "chunks").rglob("*.json"))


@pytest.mark.parametrize("argv, needle", [
    (["--scheduler", "tcp://127.0.0.1:1"], "'scheduler'"),
    (["--scheduler", "tcp://nohostport"], "'scheduler'"),
    (["--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"], "'--jobs'"),
    (["--chunk", "0"], "'--chunk'"),
    (["--jobs", "x"], "'--jobs'"),
])
def test_cli_sweep_option_errors(tmp_path, capsys, argv, needle):
    out = tmp_path / "o"
    rc = main(["reproduce", "regret-vs-T", "--out", str(out), "--trials", "2", "--quiet"] + argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and needle in err[0]
    assert not (out / "runs").exists() or not any((out / "runs").rglob("*.json"))


def test_finite_support_spec_in_chunks(tmp_path):
    from rsb_sim.instances import FiniteSupportInstance

    spec = {"algo": "ce-ucb-m", "dr": "gini", "params": {}, "support": [0.0, 0.5, 1.0],
            "probs": [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]],
            "config": {"T": 120, "trials": 5, "seed": 1, "eps": 0.1, "radius_scale": 0.01}}
    (key,) = sw.sweep([spec], tmp_path, chunk=2)
    inst = FiniteSupportInstance((0.0, 0.5, 1.0), ((0.2, 0.3, 0.5), (0.6, 0.2, 0.2)))
    whole = run(SimConfig(**spec["config"]), inst, GINI, "ce-ucb-m")
    arrays = _arrays(tmp_path, key)[1]
    assert np.array_equal(arrays["counts"], whole.counts) and np.array_equal(arrays["regrets"], whole.regrets)

