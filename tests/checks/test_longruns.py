"""Long runs meet Ctrl-C, SIGTERM, a held directory, a corrupt cache, a full disk, as real processes.

Each signal is sent at a point the test observes -- the first chunk stored on disk, or the
worker processes started -- never after a guessed sleep.  The runs are small: what is
measured is how they stop and what they keep.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from proofs_checks.cli import main
from proofs_checks.outputs import read_csv
from rsb_sim import dirlock, store
from rsb_sim import sweep as sw

RSB = [sys.executable, "-m", "proofs_checks.cli"]
#: The issue's bound on how long a run may take to stop after SIGINT/SIGTERM, workers included.
STOP_WITHIN = 5.0
_SIM = ["simulate", "--algo", "rs-ucb-m", "--dr", "gini", "--p", "0.3,0.6,0.9", "--T", "1500", "--trials", "24",
        "--seed", "4", "--radius-scale", "0.01", "--format", "json", "--quiet"]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except FileNotFoundError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _start(argv, cwd) -> subprocess.Popen:
    return subprocess.Popen(RSB + argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _until(proc: subprocess.Popen, ready, what: str, timeout: float = 300.0):
    """Poll ``ready()`` until it is true (returns its value); fail if the process ends first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = ready()
        if got:
            return got
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended (status {proc.returncode}) before {what}: {err[-2000:]}")
        time.sleep(0.01)
    proc.kill()
    pytest.fail(f"no {what} within {timeout} s")


def _stop(proc: subprocess.Popen, sig: int, group: bool) -> tuple[float, str, str]:
    """Send ``sig`` (to the process group, as a terminal's Ctrl-C does, or to the process); (seconds, out, err)."""
    start = time.monotonic()
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    return time.monotonic() - start, out, err


def _first_chunk(directory: Path):
    return lambda: list(directory.glob("chunks/*/*.json"))


def _assert_stopped(proc, seconds, err, sig, workers=()):
    lines = err.strip().splitlines()
    assert proc.returncode == 128 + sig, err
    assert seconds < STOP_WITHIN, (seconds, err)
    assert len(lines) == 1 and "Traceback" not in err, err
    assert f"interrupted by {signal.Signals(sig).name}" in lines[0]
    assert _workers_gone(workers), "worker processes outlived the run"
    return lines[0]


def _assert_kept_is_sound(runs: Path):
    """No temporary file left; every stored result (merged or chunk) passes its check."""
    assert not list(runs.rglob("*.tmp"))
    stored = list(runs.glob("*.json")) + list(runs.glob("chunks/*/*.json"))
    assert stored
    for j in stored:
        assert store.check(j.parent, j.stem) is None, j
    assert not (runs / dirlock.LOCK_NAME).exists() and not (runs.parent / dirlock.LOCK_NAME).exists()


def _simulate_out_running(tmp_path: Path):
    """``rsb simulate --out DIR --chunk 2`` started and past its first stored chunk: (out, argv, proc, workers)."""
    out = tmp_path / "o"
    argv = _SIM + ["--out", str(out), "--chunk", "2"]
    proc = _start(argv, tmp_path)
    _until(proc, _first_chunk(out / "runs"), "the first chunk")
    workers = _children(proc.pid)
    assert len(workers) == 1  # the one worker process of the local executor
    return out, argv, proc, workers


def _workers_gone(workers) -> bool:
    end = time.monotonic() + 2
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.02)
    return not any(_alive(w) for w in workers)


def _rerun(argv, cwd) -> subprocess.CompletedProcess:
    done = subprocess.run(RSB + argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def _spec(algo: str, trials: int, T: int) -> dict:
    return {"algo": algo, "dr": "gini", "params": {}, "p": [0.3, 0.6, 0.9],
            "config": {"T": T, "trials": trials, "seed": 5, "eps": 0.1, "radius_scale": 0.01}}


# ---------------------------------------------------------------------------
# SIGINT and SIGTERM: within 5 s, one line, 130/143, workers gone, chunks kept, the rerun resumes
# ---------------------------------------------------------------------------
def test_simulate_out_interrupted_then_resumed_gives_the_uninterrupted_result(tmp_path, capsys):
    out, argv, proc, workers = _simulate_out_running(tmp_path)
    seconds, _out, err = _stop(proc, signal.SIGINT, group=False)
    line = _assert_stopped(proc, seconds, err, signal.SIGINT, workers)
    assert f"in {out / 'runs'}" in line and "rerunning the same command resumes" in line
    _assert_kept_is_sound(out / "runs")
    assert not (out / "simulate.csv").exists()
    _rerun(argv, tmp_path)
    ref = tmp_path / "ref"
    assert main(_SIM + ["--out", str(ref), "--chunk", "24"]) == 0
    assert read_csv(out / "simulate.csv") == read_csv(ref / "simulate.csv")
    capsys.readouterr()
    assert main(_SIM) == 0
    plain = json.loads(capsys.readouterr().out)
    assert [float(r["regret"]) for r in read_csv(out / "simulate.csv")] == plain["regrets"]  # the one big run


def test_slopes_sigterm_to_the_process_then_resumed(tmp_path, capsys):
    base = ["slopes", "--algo", "rs-ucb-m", "--Ts", "1000,2000", "--trials", "24", "--radius-scale", "0.01",
            "--bootstrap", "10", "--chunk", "2", "--format", "json", "--quiet"]
    out = tmp_path / "cache"
    proc = _start(base + ["--out", str(out)], tmp_path)
    _until(proc, _first_chunk(out), "the first chunk")
    workers = _children(proc.pid)
    assert len(workers) == 1
    seconds, _out, err = _stop(proc, signal.SIGTERM, group=False)
    line = _assert_stopped(proc, seconds, err, signal.SIGTERM, workers)
    assert f"in {out}" in line and "rerunning the same command resumes" in line
    _assert_kept_is_sound(out)
    done = _rerun(base + ["--out", str(out)], tmp_path)
    assert main(base + ["--out", str(tmp_path / "ref"), "--chunk", "24"]) == 0
    ref = json.loads(capsys.readouterr().out)
    got = json.loads(done.stdout)
    for r in (ref + got):
        del r["seconds"], r["cache"]
    assert got == ref


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_plot_bounds_with_workers_stops_at_once(tmp_path, sig):
    out = tmp_path / "plots"
    proc = _start(["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--radius-scale", "0.01",
                   "--out", str(out), "--Ts", "2000,4000", "--trials", "40", "--chunk", "2", "--jobs", "2",
                   "--quiet"], tmp_path)
    _until(proc, _first_chunk(out / "runs"), "the first chunk")
    workers = _children(proc.pid)
    assert len(workers) == 2
    seconds, _out, err = _stop(proc, sig, group=True)  # the whole group: workers get the signal too
    _assert_stopped(proc, seconds, err, sig, workers)
    _assert_kept_is_sound(out / "runs")
    assert not list(out.glob("bounds-*"))


def test_reproduce_interrupted_keeps_its_chunks(tmp_path):
    out = tmp_path / "results"
    proc = _start(["reproduce", "vs-rho", "--out", str(out), "--trials", "3", "--chunk", "1", "--jobs", "2",
                   "--quiet"], tmp_path)
    _until(proc, _first_chunk(out / "runs"), "the first chunk")
    workers = _children(proc.pid)
    seconds, _out, err = _stop(proc, signal.SIGINT, group=True)
    line = _assert_stopped(proc, seconds, err, signal.SIGINT, workers)
    assert "finished chunk" in line
    _assert_kept_is_sound(out / "runs")


@pytest.mark.parametrize("sig, group", [(signal.SIGINT, True), (signal.SIGTERM, False)])
def test_verify_with_workers_stops_at_once(tmp_path, sig, group):
    proc = _start(["verify", "--jobs", "2", "--format", "json", "--fresh"], tmp_path)
    workers = _until(proc, lambda: _children(proc.pid), "the worker processes")
    seconds, out, err = _stop(proc, sig, group)
    line = _assert_stopped(proc, seconds, err, sig, workers)
    assert out == "" and "nothing was stored" in line


def test_killed_processes_lose_only_the_chunks_in_flight(tmp_path):
    # a worker killed from outside (as the out-of-memory killer would): one line, 75, chunks kept
    out, argv, proc, (worker,) = _simulate_out_running(tmp_path)
    os.kill(worker, signal.SIGKILL)
    _out, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert proc.returncode == 75 and len(lines) == 1 and "Traceback" not in err, err
    assert "a worker process ended" in lines[0] and "rerunning the same command resumes" in lines[0]
    _assert_kept_is_sound(out / "runs")
    kept = {p.name for p in (out / "runs").rglob("*.json")}
    # the run itself killed outright (no handler runs): its worker dies too, its lock stays, stale
    proc = _start(argv, tmp_path)
    _until(proc, lambda: len(list((out / "runs").rglob("*.json"))) > len(kept), "a chunk more")
    workers = _children(proc.pid)
    _stop(proc, signal.SIGKILL, group=False)
    assert proc.returncode == -signal.SIGKILL and (out / dirlock.LOCK_NAME).exists()
    assert workers and _workers_gone(workers), "a worker outlived its parent killed outright"
    # the rerun takes the stale lock over, resumes, and leaves nothing behind
    done = _rerun(argv, tmp_path)
    assert done.stderr == "" and len(json.loads(done.stdout)["regrets"]) == 24
    assert not (out / dirlock.LOCK_NAME).exists() and not list(out.rglob("*.tmp"))


# ---------------------------------------------------------------------------
# one run per directory, from the command line
# ---------------------------------------------------------------------------
_HOLDER = ("import sys\nfrom rsb_sim.dirlock import hold\n"
           "with hold(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.readline()\n")


def test_a_second_run_on_a_held_directory_exits_75_naming_it_and_the_holder(tmp_path, capsys):
    out = tmp_path / "o"
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert main(_SIM + ["--out", str(out)]) == 75
    finally:
        holder.communicate("\n")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(out) in err[0] and f"process {holder.pid}" in err[0] and "--wait" in err[0]
    assert sorted(p.name for p in out.iterdir()) == []  # nothing written, the holder's lock removed


def test_a_second_run_waits_for_the_first_with_wait(tmp_path):
    out = tmp_path / "o"
    with dirlock.hold(out):
        proc = subprocess.Popen(RSB + _SIM + ["--out", str(out), "--wait", "600"], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        note = proc.stderr.readline()  # the run says it waits (then the lock is released)
        assert str(out) in note and f"process {os.getpid()}" in note and "waiting up to 600 s" in note
    _out, rest = proc.communicate(timeout=600)
    assert proc.returncode == 0, rest
    assert (out / "simulate.csv").exists()


# ---------------------------------------------------------------------------
# a corrupt cache file, from the command line
# ---------------------------------------------------------------------------
def test_a_truncated_run_file_is_named_once_and_the_result_is_unchanged(tmp_path, capsys):
    out = tmp_path / "o"
    argv = _SIM + ["--out", str(out), "--chunk", "12"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    rows = read_csv(out / "simulate.csv")
    (npz,) = (out / "runs").glob("*.npz")
    npz.write_bytes(npz.read_bytes()[:100])  # the zipfile.BadZipFile
    assert main(argv) == 0
    again, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "warning" in lines[0] and str(npz) in lines[0] and "Traceback" not in err
    assert (out / "runs" / "corrupt" / npz.name).exists()
    assert read_csv(out / "simulate.csv") == rows
    assert json.loads(again)["regrets"] == json.loads(first)["regrets"]


# ---------------------------------------------------------------------------
# a full disk, a read-only directory (tmpfs mounts: root only)
# ---------------------------------------------------------------------------
@pytest.fixture
def tmpfs(tmp_path):
    """A mount point factory for small tmpfs file systems, unmounted afterwards."""
    mounted = []

    def mount(name: str, options: str) -> Path:
        point = tmp_path / name
        point.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip() or 'mount failed'}): needs root or "
                        f"CAP_SYS_ADMIN")
        mounted.append(point)
        return point

    try:
        yield mount
    finally:
        for point in reversed(mounted):
            subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_full_disk_ends_the_run_with_one_line_and_the_rerun_completes(tmp_path, tmpfs, capsys):
    disk = tmpfs("disk", "size=64k")
    out = disk / "o"
    argv = _SIM + ["--out", str(out), "--chunk", "1"]  # 24 chunks of two files: more than 64 kB of pages
    assert main(argv) == 74
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0] and f"cannot write {out}" in err[0], err
    assert "rerunning the same command resumes" in err[0]
    _assert_kept_is_sound(out / "runs")
    assert not (out / "simulate.csv").exists()
    subprocess.run(["mount", "-o", "remount,size=8m", str(disk)], check=True)
    assert main(argv) == 0
    capsys.readouterr()
    assert main(_SIM + ["--out", str(tmp_path / "ref"), "--chunk", "24"]) == 0
    assert read_csv(out / "simulate.csv") == read_csv(tmp_path / "ref" / "simulate.csv")


def test_a_read_only_cache_directory_ends_the_run_with_one_line(tmp_path, tmpfs, capsys):
    out = tmp_path / "o"
    tmpfs("o/runs", "ro,size=64k")  # the output directory is writable, its runs/ is not
    assert main(_SIM + ["--out", str(out)]) == 74
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Read-only file system" in err[0] and str(out / "runs") in err[0], err
    assert sorted(p.name for p in out.iterdir()) == ["runs"]


def _without_root_powers() -> list[str]:
    """A command prefix under which file permissions hold (root ignores them: drop CAP_DAC_OVERRIDE); or skip."""
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
    try:
        probe = subprocess.run(prefix + ["true"], capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("running as root (which ignores file permissions) and no setpriv to drop CAP_DAC_OVERRIDE")
    if probe.returncode != 0:
        pytest.skip(f"running as root (which ignores file permissions); setpriv cannot drop CAP_DAC_OVERRIDE here "
                    f"({probe.stderr.strip()})")
    return prefix


def test_a_cache_directory_without_write_permission_ends_the_run_with_one_line(tmp_path):
    out = tmp_path / "o"
    (out / "runs").mkdir(parents=True)
    (out / "runs").chmod(0o500)
    try:
        done = subprocess.run(_without_root_powers() + RSB + _SIM + ["--out", str(out)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
    finally:
        (out / "runs").chmod(0o700)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 74, done.stderr
    assert len(err) == 1 and "Permission denied" in err[0] and str(out / "runs") in err[0], err
    assert sorted(p.name for p in out.iterdir()) == ["runs"] and not list((out / "runs").iterdir())



# ---------------------------------------------------------------------------
# a real Dask cluster (scheduler and worker processes, as on a cluster), one worker killed mid-run
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def real_cluster(tmp_path_factory):
    """``dask scheduler`` and two ``dask worker`` processes (no nanny: a killed worker stays dead).

    Shared by the tests below: the killed-worker test needs both workers (it kills one); the other
    needs any worker.
    """
    tmp_path = tmp_path_factory.mktemp("cluster")
    pytest.importorskip("distributed", reason="dask.distributed is not installed: no dask scheduler/worker CLI")
    if importlib.util.find_spec("distributed.cli.dask_scheduler") is None:
        pytest.skip("dask's command line (dask scheduler, dask worker) is not installed")
    info = tmp_path / "scheduler.json"
    common = ["--no-dashboard", "--host", "127.0.0.1"]
    procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--port", "0", "--scheduler-file", str(info)]
                              + common, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)]
    try:
        end = time.monotonic() + 120
        while not info.exists() or not info.read_text().strip():
            assert procs[0].poll() is None and time.monotonic() < end, "the scheduler did not start"
            time.sleep(0.05)
        address = json.loads(info.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file", str(info),
                                           "--nthreads", "1", "--no-nanny"] + common, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, cwd=tmp_path, env={**os.environ}))
        from distributed import Client

        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, procs[1:]
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_real_dask_cluster_survives_a_killed_worker_bit_for_bit(tmp_path, real_cluster):
    from distributed import Client

    address, workers = real_cluster
    specs = [_spec("rs-ucb-m", 16, 3000), _spec("uniform", 6, 240)]
    state = {"after_kill": 0, "running": ()}

    def kill_a_worker_after_the_first_chunk(items, total=None):
        for i, c in enumerate(items):
            if i == 0:  # one chunk stored; kill the first worker while it runs a chunk (observed on the scheduler)
                with Client(address, timeout="60s") as watch:
                    addr = next(a for a, pid in watch.run(os.getpid).items() if pid == workers[0].pid)
                    end = time.monotonic() + 60
                    while not state["running"] and time.monotonic() < end:
                        state["running"] = tuple(watch.processing(workers=[addr])[addr])
                        time.sleep(0.01)
                    os.kill(workers[0].pid, signal.SIGKILL)
                workers[0].wait()
            else:
                state["after_kill"] += 1
            yield c

    keys = sw.sweep(specs, tmp_path / "dask", executor="dask", scheduler=address, chunk=1,
                    progress=kill_a_worker_after_the_first_chunk)
    assert state["running"] and state["after_kill"] == 16 + 6 - 1  # its chunks were rerun by the other worker
    assert workers[0].poll() is not None and workers[1].poll() is None
    local = sw.sweep(specs, tmp_path / "local", chunk=16)
    assert keys == local
    for k in keys:
        a, b = store.load(tmp_path / "dask", k)[1], store.load(tmp_path / "local", k)[1]
        assert np.array_equal(a["counts"], b["counts"]) and np.array_equal(a["regrets"], b["regrets"])


def test_a_run_on_a_real_dask_cluster_stops_at_once(tmp_path, real_cluster):
    address, _workers = real_cluster
    out = tmp_path / "plots"
    proc = _start(["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-ucb-m", "--radius-scale", "0.01",
                   "--out", str(out), "--Ts", "2000,4000", "--trials", "40", "--chunk", "2", "--scheduler", address,
                   "--quiet"], tmp_path)
    _until(proc, _first_chunk(out / "runs"), "the first chunk")
    seconds, _out, err = _stop(proc, signal.SIGINT, group=True)
    _assert_stopped(proc, seconds, err, signal.SIGINT)
    _assert_kept_is_sound(out / "runs")
