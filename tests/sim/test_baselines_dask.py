"""The same seed gives the same regrets in one local run, in chunks, and on a Dask cluster: the baselines on
Bernoulli and finite arms, and any algorithm on continuous and empirical arms."""

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


def _law_specs(csv):
    """Continuous arms (exact trial route, and quantised) and empirical arms (exact union route), K = 2..3."""
    return [
        {"algo": "ce-ucb-m", "dr": "gini", "params": {}, "arms": "beta(2,5); uniform(0.3,0.2); triang(0.5,0,1)",
         "config": {"T": 150, "trials": 5, "seed": 3, "eps": 0.1, "radius_scale": 0.0005, "explore": 4}},
        {"algo": "ce-ucb-m", "dr": "gini", "params": {}, "arms": "beta(2,5); truncnorm(-2,2,0.5,0.1)",
         "config": {"T": 150, "trials": 5, "seed": 3, "eps": 0.1, "radius_scale": 0.0005, "explore": 4,
                    "quantize": 16}},
        {"algo": "rs-etc-m", "dr": "gini", "params": {}, "arms": f"empirical({csv}:a); empirical({csv}:b)",
         "config": {"T": 150, "trials": 5, "seed": 3, "eps": 0.1, "explore": 5}},
        {"algo": "dr-ucb", "dr": "gini", "params": {}, "arms": f"empirical({csv}:a); beta(2,5)",
         "config": {"T": 150, "trials": 5, "seed": 3, "radius_scale": 0.01}},
    ]


def _local_equals_dask(specs, tmp_path, direct):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    local = sw.sweep(specs, tmp_path / "local", chunk=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = sw.sweep(specs, tmp_path / "dask", executor="dask", client=client, chunk=2)
    assert local == remote
    for spec, key in zip(specs, local):
        a = store.load(tmp_path / "local", key)[1]["regrets"]
        b = store.load(tmp_path / "dask", key)[1]["regrets"]
        assert np.array_equal(a, b) and np.array_equal(np.asarray(a), direct(spec))


def test_dask_local_cluster_gives_the_local_regrets(tmp_path):
    _local_equals_dask(SPECS, tmp_path, _direct)


def test_dask_local_cluster_gives_the_local_regrets_for_continuous_and_empirical_arms(tmp_path):
    rng = np.random.default_rng(1)
    csv = tmp_path / "r.csv"  # absolute: the Dask workers read it too
    csv.write_text("a,b\n" + "\n".join(f"{x:.3f},{y:.3f}" for x, y in zip(rng.beta(2, 5, 50), rng.beta(5, 2, 50)))
                   + "\n")
    _local_equals_dask(_law_specs(csv), tmp_path, lambda spec: sw.run_spec(spec).regrets)
