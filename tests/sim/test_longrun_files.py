"""Files of long runs: checked cache files, atomic writes, the directory lock, signals, worker pools."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from rsb_sim import dirlock, files, store
from rsb_sim import sweep as sw
from rsb_sim.interrupt import Interrupted, deferred, kept, stop_on_signals
from rsb_sim.workers import worker_pool

SPEC = {"algo": "rs-ucb-m", "dr": "gini", "params": {}, "p": [0.3, 0.6, 0.9],
        "config": {"T": 200, "trials": 6, "seed": 3, "eps": 0.1, "radius_scale": 0.01}}
KEY = store.key_of(SPEC)


def _same_result(a_dir, b_dir, key=KEY):
    (sa, aa), (sb, ab) = store.load(a_dir, key), store.load(b_dir, key)
    assert np.array_equal(aa["regrets"], ab["regrets"]) and np.array_equal(aa["counts"], ab["counts"])
    drop = ("seconds", "stats", "versions", "chunks")
    assert {k: v for k, v in sa.items() if k not in drop} == {k: v for k, v in sb.items() if k not in drop}


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The result of SPEC computed once, in two chunks."""
    d = tmp_path_factory.mktemp("clean")
    sw.sweep([SPEC], d, chunk=3)
    return d


# ---------------------------------------------------------------------------
# every cache file is checked when read
# ---------------------------------------------------------------------------
def test_stored_result_carries_its_checksums(clean):
    raw = json.loads((clean / f"{KEY}.json").read_text())
    assert raw["store"]["key"] == KEY and raw["store"]["format"] == store.FORMAT
    assert store.check(clean, KEY) is None
    summary, arrays = store.load(clean, KEY)
    assert "store" not in summary and arrays["regrets"].shape == (6,)
    assert store.check(clean, "0" * 16) == "missing"


def _truncate(path, keep=0.5):
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def _alter_number(path):
    raw = json.loads(path.read_text())
    raw["mean_regret"] = raw["mean_regret"] + 1e-9  # valid JSON, one value changed
    path.write_text(json.dumps(raw, indent=1))


def _old_format(path):
    raw = json.loads(path.read_text())
    del raw["store"]
    path.write_text(json.dumps(raw, indent=1))


def _other_key(path):
    src = path.with_name("ffffffffffffffff.json")
    path.write_bytes(src.read_bytes())


CORRUPTIONS = {
    "npz cut short": (".npz", _truncate, "does not match its checksum"),
    "npz empty": (".npz", lambda p: p.write_bytes(b""), "does not match its checksum"),
    "npz missing": (".npz", lambda p: p.unlink(), "missing (its summary is present)"),
    "json cut short": (".json", _truncate, "not valid JSON"),
    "json one value altered": (".json", _alter_number, "summary does not match its checksum"),
    "json of an older rsb": (".json", _old_format, "no checksum"),
    "json of another key": (".json", _other_key, "written under key 'ffffffffffffffff'"),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupt_result_is_named_set_aside_and_recomputed(tmp_path, clean, name):
    suffix, damage, reason = CORRUPTIONS[name]
    for f in clean.glob(f"{KEY}.*"):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    if name == "json of another key":  # a valid result stored under another name, copied over this one
        store.save_arrays(tmp_path, "ffffffffffffffff", *_parts(clean))
    damage(tmp_path / f"{KEY}{suffix}")
    assert reason in store.check(tmp_path, KEY)
    with pytest.raises(store.CorruptResult, match=reason.split(" (")[0]):
        store.load(tmp_path, KEY)
    said = []
    sw.sweep([SPEC], tmp_path, chunk=3, notify=said.append)
    assert len(said) == 1 and said[0].startswith("warning: ") and f"{KEY}{suffix}" in said[0] and reason in said[0]
    assert "recomputing" in said[0]
    assert sorted(p.name for p in (tmp_path / files.ASIDE).iterdir()) == sorted(
        f"{KEY}{s}" for s in (".json", ".npz") if s != suffix or name != "npz missing")
    _same_result(tmp_path, clean)
    said.clear()
    sw.sweep([SPEC], tmp_path, chunk=3, notify=said.append)  # now clean: nothing said, nothing run
    assert said == []


def _parts(directory):
    summary, arrays = store.load(directory, KEY)
    return summary, arrays["regrets"], arrays["counts"]


def test_a_corrupt_chunk_of_an_interrupted_sweep_is_recomputed_alone(tmp_path, clean):
    cdir = tmp_path / "chunks" / KEY
    for c in sw.chunks_of(SPEC, KEY, 2):  # an interrupted sweep left its three chunks, not merged
        r = sw.run_spec(c.spec, c.lo, c.hi)
        store.save_arrays(cdir, c.name, r.summary(), r.regrets, r.counts)
    _truncate(cdir / "0000002-0000004.npz", 0.3)
    (cdir / "0000004-0000006.json.x1y2z3.tmp").write_text("{")  # a temporary file of a killed run
    said, ran = [], []

    def progress(items, total=None):
        for c in items:
            ran.append((c.lo, c.hi))
            yield c

    sw.sweep([SPEC], tmp_path, chunk=2, progress=progress, notify=said.append)
    assert ran == [(2, 4)] and len(said) == 1 and "0000002-0000004.npz" in said[0]
    assert not list(tmp_path.rglob("*.tmp")) and not cdir.exists()
    _same_result(tmp_path, clean)


# ---------------------------------------------------------------------------
# writes: whole or absent, one error naming the path
# ---------------------------------------------------------------------------
def test_a_failed_write_names_the_path_and_leaves_the_old_file(tmp_path):
    target = tmp_path / "a.json"
    files.write_bytes(target, b"old")

    def full_disk(fh):
        fh.write(b"half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(files.WriteError) as info:
        files.atomic_write(target, full_disk)
    assert str(info.value) == f"cannot write {target}: No space left on device"
    assert info.value.errno == errno.ENOSPC and isinstance(info.value, OSError)
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
    with pytest.raises(KeyboardInterrupt):  # an interruption in the middle: the same
        files.atomic_write(target, lambda fh: (fh.write(b"x"), (_ for _ in ()).throw(KeyboardInterrupt)))
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_remove_temporaries_clears_only_the_temporary_files_of_the_targets(tmp_path):
    for name in ("k.json.abc.tmp", "k.npz.def.tmp", "notes.tmp", "k.json", "other.txt.ghi.tmp"):
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "k.json.abc.tmp").write_text("x")
    assert files.remove_temporaries(tmp_path, ("*.json", "*.npz")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.json", "notes.tmp", "other.txt.ghi.tmp", "sub"]


# ---------------------------------------------------------------------------
# one run per directory
# ---------------------------------------------------------------------------
_HOLDER = ("import sys, time\nfrom rsb_sim.dirlock import hold\n"
           "with hold(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.readline()\n")


def _holder(directory):
    proc = subprocess.Popen([sys.executable, "-c", _HOLDER, str(directory)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_held_directory_is_refused_with_the_holder_named(tmp_path):
    proc = _holder(tmp_path)
    try:
        holder = json.loads((tmp_path / dirlock.LOCK_NAME).read_text())
        assert holder["pid"] == proc.pid
        with pytest.raises(dirlock.DirectoryBusy) as info:
            with dirlock.hold(tmp_path):
                pass
        assert str(tmp_path) in str(info.value) and f"process {proc.pid}" in str(info.value)
        with pytest.raises(dirlock.DirectoryBusy):
            sw.sweep([SPEC], tmp_path)
        assert not (tmp_path / "chunks").exists()
    finally:
        proc.communicate("\n")
    assert not (tmp_path / dirlock.LOCK_NAME).exists()  # released and removed


def test_a_waiting_run_takes_the_directory_when_the_holder_ends(tmp_path):
    proc = _holder(tmp_path)
    told = []

    def release(message):  # called once, when the wait starts: the holder ends now
        told.append(message)
        proc.stdin.write("\n")
        proc.stdin.flush()

    with dirlock.hold(tmp_path, wait=120, on_wait=release):
        assert json.loads((tmp_path / dirlock.LOCK_NAME).read_text())["pid"] == os.getpid()
    proc.wait()
    assert len(told) == 1 and f"process {proc.pid}" in told[0] and "waiting up to 120 s" in told[0]


def test_the_lock_of_a_dead_process_is_taken_over(tmp_path):
    proc = _holder(tmp_path)
    proc.kill()
    proc.wait()
    assert json.loads((tmp_path / dirlock.LOCK_NAME).read_text())["pid"] == proc.pid  # left behind
    with dirlock.hold(tmp_path):
        assert json.loads((tmp_path / dirlock.LOCK_NAME).read_text())["pid"] == os.getpid()
    (tmp_path / dirlock.LOCK_NAME).write_text(json.dumps({"pid": 999999999}))  # written by hand, no lock
    with dirlock.hold(tmp_path):
        with dirlock.hold(tmp_path):  # the same process again: allowed, the outer hold guards
            pass
        assert (tmp_path / dirlock.LOCK_NAME).exists()
    assert not (tmp_path / dirlock.LOCK_NAME).exists()


def test_bad_wait_is_refused_before_anything_is_written(tmp_path):
    for bad in (-1, float("nan"), "5", True):
        with pytest.raises(ValueError, match="argument 'wait'"):
            sw.sweep([SPEC], tmp_path / "o", wait=bad)
    assert not (tmp_path / "o").exists()


# ---------------------------------------------------------------------------
# signals and worker pools
# ---------------------------------------------------------------------------
def test_signals_raise_interrupted_once_and_handlers_are_restored():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Interrupted) as info:
        with stop_on_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(30)
    assert info.value.status == 143 and info.value.name == "SIGTERM" and info.value.kept is None
    assert signal.getsignal(signal.SIGTERM) is before


def test_what_is_kept_is_said_by_the_innermost_code_that_knows():
    with pytest.raises(Interrupted) as info:
        with kept("every run"):
            with kept(lambda: "3 of 4 runs complete"):
                raise Interrupted(signal.SIGINT)
    assert info.value.kept == "3 of 4 runs complete" and info.value.status == 130
    with pytest.raises(files.WriteError) as info:
        with kept("every run"):
            raise files.WriteError("/x/y", OSError(errno.EROFS, os.strerror(errno.EROFS)))
    assert info.value.kept == "every run" and str(info.value) == "cannot write /x/y: Read-only file system"
    with pytest.raises(ValueError):
        with kept("every run"):
            raise ValueError("argument 'x': bad")


class _SignalOnDrop:
    """Receives SIGTERM inside ``__del__``, where Python can only report the exception as "ignored"."""

    def __del__(self):
        signal.raise_signal(signal.SIGTERM)


def test_an_interruption_python_had_to_drop_is_raised_again(capsys):
    start = time.monotonic()
    with pytest.raises(Interrupted) as info:
        with stop_on_signals():
            _SignalOnDrop()  # dropped at once: the handler's exception is raised inside __del__
            time.sleep(30)
    assert time.monotonic() - start < 5 and info.value.status == 143
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_signal_within_deferred_raises_at_the_end_of_the_block():
    after = []
    with pytest.raises(Interrupted) as info:
        with stop_on_signals():
            with deferred():
                signal.raise_signal(signal.SIGINT)
                after.append("the block ran to its end")
            after.append("not reached")
    assert after == ["the block ran to its end"] and info.value.status == 130


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 0), (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_a_worker_forked_before_its_initializer_answers_a_signal_as_a_worker(sig, status):
    with stop_on_signals():
        pid = os.fork()
        if pid == 0:  # the child: the inherited handler must not raise Interrupted here
            try:
                signal.raise_signal(sig)
                os._exit(0)  # SIGINT: ignored, as quiet_worker will
            except BaseException:
                os._exit(99)
        _, wait_status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(wait_status) == status


def _sleep(seconds):
    time.sleep(seconds)
    return os.getpid()


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_pool_left_by_an_exception_kills_its_workers_at_once():
    start = time.monotonic()
    with pytest.raises(RuntimeError):
        with worker_pool(2) as pool:
            futures = [pool.submit(_sleep, 60) for _ in range(4)]
            pids = list(pool._pool._processes)
            raise RuntimeError("stop")
    assert time.monotonic() - start < 5 and not any(_alive(p) for p in pids)
    assert all(f.cancelled() or f.done() for f in futures)
    with worker_pool(2) as pool:  # a normal exit waits for the work
        assert len(list(pool.imap_unordered(_sleep, [0, 0, 0]))) == 3


def test_a_worker_killed_from_outside_breaks_the_pool_instead_of_hanging():
    from concurrent.futures.process import BrokenProcessPool

    with pytest.raises(BrokenProcessPool):
        with worker_pool(1) as pool:
            fut = pool.submit(_sleep, 60)
            pid = next(iter(pool._pool._processes))
            os.kill(pid, signal.SIGKILL)
            pool.result(fut)


def test_atomic_writes_get_the_mode_open_would_give(tmp_path):
    """A written file is as readable as one written by open() (0666 less the umask), not mkstemp's 0600."""
    import os

    from rsb_sim.files import atomic_write

    from rsb_sim.files import _UMASK

    mask = os.umask(_UMASK)
    os.umask(mask)
    assert mask == _UMASK  # the umask read at import is the process's
    path = atomic_write(tmp_path / "x.txt", lambda fh: fh.write(b"1"))
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
