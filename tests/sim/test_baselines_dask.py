"""The baselines give the same regrets in one local run, in chunks, and on a Dask cluster (same seed)."""

import numpy as np
import pytest

from rsb_sim import store
from rsb_sim import sweep as sw
from rsb_sim.config import SimConfig
from rsb_sim.engine import run
from rsb_sim.instances import make_instance
from rsb_theory.distortions import resolve

SPECS = [
    {"algo": "dr-ucb", "dr": "gini", "params": {}, "p": [0.4, 0.9],
     "config": {"T": 300, "trials": 7, "seed": 4, "radius_scale": 0.01}},
    {"algo": "ucb1", "dr": "gini", "params": {}, "support": [0.0, 0.5, 1.0],
     "probs": [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]], "config": {"T": 300, "trials": 7, "seed": 4}},
]


def _direct(spec):
    inst = make_instance(spec.get("p"), spec.get("support"), spec.get("probs"))
    return run(SimConfig(**spec["config"]), inst, resolve(spec["dr"]), spec["algo"]).regrets


def test_dask_local_cluster_gives_the_local_regrets(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = sw.sweep(SPECS, tmp_path / "local", chunk=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = sw.sweep(SPECS, tmp_path / "dask", executor="dask", client=client, chunk=2)
    assert local == remote
    for spec, key in zip(SPECS, local):
        a = store.load(tmp_path / "local", key)[1]["regrets"]
        b = store.load(tmp_path / "dask", key)[1]["regrets"]
        assert np.array_equal(a, b) and np.array_equal(np.asarray(a), _direct(spec))
