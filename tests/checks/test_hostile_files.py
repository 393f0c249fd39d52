"""Hostile files: rsb follows no link out, writes only files it creates, reads only regular files.

rsb runs in shared result directories: anyone who can write there can put a symbolic link, a
hard link, a FIFO or a directory where rsb expects one of its own names.  Every file rsb opens
goes through :mod:`rsb_theory.safe_files`; these tests plant each kind of file at each name rsb
uses (the lock, the runs and chunk directories, stored results, arm data, figures of the report)
and check that nothing outside is read or written, that nothing blocks, and that the refusal is
one line (exit 2 when the command line can tell before any work).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proofs_checks.cli import main
from rsb_sim import dirlock, files, store
from rsb_sim import sweep as sw
from rsb_theory import safe_files
from rsb_theory.laws import LawError
from rsb_theory.laws.digest import file_digests
from rsb_theory.laws.empirical import read_column
from rsb_theory.safe_files import UnsafeFile

SECRET = "DATA of another user\n"
SPEC = {"algo": "rs-etc-m", "dr": "gini", "params": {}, "p": [0.4, 0.9],
        "config": {"T": 100, "trials": 2, "seed": 1, "explore": 10}}
SIM = ["simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p", "0.4,0.9", "--T", "100", "--trials", "2",
       "--explore", "T/10", "--quiet"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def victim(tmp_path):
    """A file of 'another user' that no run may change, and the directory it is in."""
    home = tmp_path / "home"
    home.mkdir()
    v = home / "victim.txt"
    v.write_text(SECRET)
    return v


def _unchanged(victim: Path) -> None:
    assert victim.read_text() == SECRET
    assert sorted(p.name for p in victim.parent.iterdir()) == ["victim.txt"]


def _plant(path: Path, kind: str, victim: Path) -> None:
    """Put a file of ``kind`` at ``path`` (the hostile part of each test)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "symlink":
        path.symlink_to(victim)
    elif kind == "symlink-dir":
        path.symlink_to(victim.parent, target_is_directory=True)
    elif kind == "dangling":
        path.symlink_to(victim.parent / "nothing-here")
    elif kind == "hardlink":
        os.link(victim, path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        raise AssertionError(kind)


def _bounded(fn, seconds: float = 20.0):
    """Run ``fn`` in a thread; fail if it blocks (a FIFO opened for reading blocks for ever)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn} blocked"
    if "error" in box:
        raise box["error"]
    return box.get("value")


# ---------------------------------------------------------------------------
# the example: a symlinked lock overwrote its target
# ---------------------------------------------------------------------------
def test_symlinked_lock_is_refused_and_its_target_untouched(tmp_path, victim, capsys):
    out = tmp_path / "c2"
    _plant(out / dirlock.LOCK_NAME, "symlink", victim)
    code, stdout, err = run(capsys, *SIM, "--out", out)
    assert code == 2 and stdout == ""
    line = one_line(err)
    assert "argument '--out'" in line and ".rsb.lock" in line and "symbolic link" in line
    _unchanged(victim)
    assert (out / dirlock.LOCK_NAME).is_symlink()  # left for its owner to see, not unlinked
    assert sorted(p.name for p in out.iterdir()) == [dirlock.LOCK_NAME]  # nothing written


@pytest.mark.parametrize("kind", ["symlink", "dangling", "hardlink", "fifo", "directory"])
@pytest.mark.parametrize("where", [".rsb.lock", "runs/.rsb.lock"])
def test_planted_lock_refused_in_validation(tmp_path, victim, capsys, kind, where):
    out = tmp_path / "out"
    _plant(out / where, kind, victim)
    code, stdout, err = _bounded(lambda: run(capsys, *SIM, "--out", out))
    assert code == 2 and stdout == "", err
    assert "argument '--out'" in one_line(err)
    _unchanged(victim)
    assert not (out / "simulate.json").exists()


@pytest.mark.parametrize("kind", ["symlink", "dangling", "hardlink", "fifo", "directory"])
def test_hold_never_writes_through_a_planted_lock(tmp_path, victim, kind):
    """The library's guard (a lock planted after validation, or the Python API)."""
    d = tmp_path / "d"
    _plant(d / dirlock.LOCK_NAME, kind, victim)

    def take():
        with dirlock.hold(d):
            pass

    with pytest.raises(UnsafeFile) as info:
        _bounded(take)
    assert "\n" not in str(info.value) and ".rsb.lock" in str(info.value)
    _unchanged(victim)
    assert os.path.lexists(d / dirlock.LOCK_NAME)  # the planted name is left for its owner


def test_lock_of_a_normal_run_still_works(tmp_path):
    d = tmp_path / "d"
    with dirlock.hold(d) as path:
        assert json.loads(path.read_text())["pid"] == os.getpid()
        assert os.stat(path).st_nlink == 1
    assert not os.path.lexists(d / dirlock.LOCK_NAME)


def test_lock_holder_text_is_sanitised(tmp_path):
    """A lock written by someone else is echoed: escape codes and newlines must not break the one line."""
    holder = {"pid": 4242, "host": "h\x1b]0;owned\x07", "since": "now\n", "command": "rsb \x1b[2J\nrm -rf ~"}
    text = dirlock.describe(holder)
    assert "\n" not in text and "\x1b" not in text and "\x07" not in text
    busy = str(dirlock.DirectoryBusy(tmp_path, holder, 0))
    assert "\n" not in busy and "\x1b" not in busy


# ---------------------------------------------------------------------------
# the output directory
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("out", ["/", "/etc", "/usr", "/usr/local/rsb-out", "/dev", "/proc/self", "/sys",
                                 "/tmp", "/var", "/boot", "/tmp/../etc"])
def test_system_directories_refused(capsys, out):
    code, stdout, err = run(capsys, *SIM, "--out", out)
    assert code == 2 and stdout == ""
    assert "argument '--out'" in one_line(err) and "directory of the system" in err


@pytest.mark.parametrize("command", [
    SIM,
    ["reproduce", "vs-gap", "--trials", "2"],
    ["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "2"],
    ["report"],
    ["slopes", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "2"],
])
def test_dangling_link_as_out_refused_before_any_work(tmp_path, capsys, command):
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "gone")
    for out in (link, link / "sub"):
        code, stdout, err = run(capsys, *command, "--out", out)
        assert code == 2 and stdout == "", err
        line = one_line(err)
        assert "argument '--out'" in line and "symbolic link to nothing" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # nothing made, not even the target


@pytest.mark.parametrize("kind", ["symlink-dir", "dangling", "fifo"])
@pytest.mark.parametrize("where", ["runs", "runs/chunks", "runs/corrupt"])
def test_planted_subdirectory_refused(tmp_path, victim, capsys, kind, where):
    out = tmp_path / "out"
    (out / "runs").mkdir(parents=True)
    if where == "runs":
        (out / "runs").rmdir()
    _plant(out / where, kind, victim)
    code, stdout, err = run(capsys, *SIM, "--out", out)
    assert code == 2 and stdout == ""
    assert "argument '--out'" in one_line(err)
    _unchanged(victim)


@pytest.mark.parametrize("kind", ["symlink-dir", "fifo"])
@pytest.mark.parametrize("where", ["chunks", "corrupt", "chunks/KEY"])
def test_sweep_follows_no_link_below_its_directory(tmp_path, victim, kind, where):
    """The library's guard for the sub-directories a sweep lists, writes and removes."""
    out = tmp_path / "runs"
    key = store.key_of(SPEC)
    if where == "corrupt":  # corrupt/ is used only when a stored file fails its check
        out.mkdir()
        (out / f"{key}.json").write_text("{not json")
    _plant(out / where.replace("KEY", key), kind, victim)
    with pytest.raises(UnsafeFile) as info:
        sw.sweep([SPEC], out, chunk=1)
    assert "\n" not in str(info.value)
    _unchanged(victim)


# ---------------------------------------------------------------------------
# files written: created new, links replaced rather than written through
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["simulate.json", "simulate.csv"])
def test_output_file_planted_as_link_is_replaced_not_written_through(tmp_path, victim, capsys, name):
    out = tmp_path / "out"
    _plant(out / name, "symlink", victim)
    code, _, err = run(capsys, *SIM, "--out", out)
    assert code == 0, err
    _unchanged(victim)
    assert not (out / name).is_symlink() and (out / name).stat().st_size > 0


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "fifo"])
def test_atomic_write_over_a_planted_name(tmp_path, victim, kind):
    target = tmp_path / "d" / "result.json"
    _plant(target, kind, victim)
    _bounded(lambda: files.write_bytes(target, b"new"))
    assert target.read_bytes() == b"new" and not target.is_symlink()
    _unchanged_content = victim.read_text() == SECRET
    assert _unchanged_content


def test_create_new_never_opens_an_existing_name(tmp_path, victim):
    link = tmp_path / "x"
    link.symlink_to(victim)
    with pytest.raises(FileExistsError):
        safe_files.create_new(link)
    with pytest.raises(FileExistsError):
        safe_files.create_new(victim)
    fd = safe_files.create_new(tmp_path / "fresh")
    os.close(fd)
    assert victim.read_text() == SECRET


# ---------------------------------------------------------------------------
# files read: stored results
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    d = tmp_path_factory.mktemp("stored")
    sw.sweep([SPEC], d, chunk=2)
    return d


@pytest.mark.parametrize("kind", ["symlink", "fifo", "directory", "dangling"])
@pytest.mark.parametrize("suffix", ["json", "npz"])
def test_stored_result_planted_is_set_aside_and_recomputed(tmp_path, victim, stored, kind, suffix):
    d = tmp_path / "runs"
    d.mkdir()
    key = store.key_of(SPEC)
    for s in ("json", "npz"):
        (d / f"{key}.{s}").write_bytes((stored / f"{key}.{s}").read_bytes())
    (d / f"{key}.{suffix}").unlink()
    _plant(d / f"{key}.{suffix}", kind, victim)
    reason = _bounded(lambda: store.check(d, key))
    assert reason is not None and "\n" not in reason
    _bounded(lambda: sw.sweep([SPEC], d, chunk=2, notify=lambda m: None))
    assert store.check(d, key) is None
    _unchanged(victim)
    a, b = store.load(d, key)[1], store.load(stored, key)[1]
    assert (a["regrets"] == b["regrets"]).all()


def test_stored_result_link_into_the_same_directory_is_still_refused(stored, tmp_path):
    """rsb's own files are never links, not even to a file beside them (it wrote them where they are)."""
    d = tmp_path / "runs"
    d.mkdir()
    key = store.key_of(SPEC)
    (d / "elsewhere.json").write_bytes((stored / f"{key}.json").read_bytes())
    (d / f"{key}.json").symlink_to("elsewhere.json")
    (d / f"{key}.npz").write_bytes((stored / f"{key}.npz").read_bytes())
    assert "symbolic link" in store.check(d, key)


# ---------------------------------------------------------------------------
# files read: arm data (empirical(FILE:COLUMN))
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("path, needle", [
    ("/dev/zero", "a device"),
    ("/dev/null", "a device"),
    ("/dev/urandom", "a device"),
    ("/proc/self", "a directory"),
])
def test_empirical_special_files_refused_at_once(path, needle):
    for read in (lambda: read_column(path, "x"), lambda: file_digests(f"empirical({path}:x)")):
        with pytest.raises(LawError) as info:
            _bounded(read, 10)
        assert needle in str(info.value) and "\n" not in str(info.value)


def test_empirical_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    for read in (lambda: read_column(str(fifo), "x"), lambda: file_digests(f"empirical({fifo}:x)")):
        with pytest.raises(LawError, match="FIFO"):
            _bounded(read, 10)


def test_empirical_links(tmp_path, victim):
    data = tmp_path / "data"
    data.mkdir()
    (data / "r.csv").write_text("x\n0.5\n1\n")
    (data / "beside.csv").symlink_to("r.csv")  # a link to a file in its own directory: allowed
    assert read_column(str(data / "beside.csv"), "x") == [0.5, 1.0]
    (victim.parent / "v.csv").write_text("x\n0.25\n")
    (data / "out.csv").symlink_to(victim.parent / "v.csv")  # a link out of its directory: refused
    with pytest.raises(LawError, match="out of its directory"):
        read_column(str(data / "out.csv"), "x")
    with pytest.raises(LawError, match="out of its directory"):
        file_digests(f"empirical({data / 'out.csv'}:x)")


def test_empirical_fifo_on_the_command_line(tmp_path, capsys):
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    for argv in (["derive", "--h", "gini", "--arms", f"empirical({fifo}:x);beta(2,5)"],
                 ["optimize", "--dr", "gini", "--arms", "empirical(/dev/zero:x);beta(2,5)", "--eps", "0.2"]):
        code, stdout, err = _bounded(lambda: run(capsys, *argv), 60)
        assert code == 2 and stdout == ""
        assert "argument '--arms'" in one_line(err)


def test_size_limit_of_a_read(tmp_path):
    p = tmp_path / "big.csv"
    p.write_bytes(b"x\n" + b"1\n" * 100)
    with pytest.raises(UnsafeFile, match="larger than"):
        safe_files.read_bytes(p, 50)
    assert len(safe_files.read_bytes(p, 1000)) == 202
    with safe_files.open_read(p, 1000) as fh:
        assert fh.read(2) == b"x\n"


# ---------------------------------------------------------------------------
# files read: figures embedded by rsb report
# ---------------------------------------------------------------------------
def test_report_embeds_no_link_and_no_special_file(tmp_path, victim):
    from proofs_checks.report import figures

    out = tmp_path / "report"
    out.mkdir()
    (out / "ok.png").write_bytes(b"\x89PNG fake")
    (out / "secret.png").symlink_to(victim)
    os.mkfifo(out / "pipe.png")
    (out / "dir.png").mkdir()
    names = [name for name, _mime, _data, _caption in _bounded(lambda: figures(out, None))]
    assert names == ["ok.png"]
    # a linked sub-directory (the user's runs are read from sub-directories too) is not followed out
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "private.png").write_bytes(b"\x89PNG private")
    (out / "runs-link").symlink_to(elsewhere, target_is_directory=True)
    names = [name for name, _mime, _data, _caption in _bounded(lambda: figures(out, None))]
    assert names == ["ok.png"]


# ---------------------------------------------------------------------------
# random plants at every name rsb uses in an output directory
# ---------------------------------------------------------------------------
NAMES = [".rsb.lock", "runs", "runs/.rsb.lock", "runs/chunks", "runs/corrupt", "simulate.json", "simulate.csv",
         "runs/KEY.json", "runs/KEY.npz"]
KINDS = ["symlink", "symlink-dir", "dangling", "hardlink", "fifo", "directory"]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(plants=st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(KINDS)), min_size=1, max_size=3,
                       unique_by=lambda t: t[0]))
def test_random_plants_never_touch_the_victim(tmp_path_factory, capsys, plants):
    base = tmp_path_factory.mktemp("plant")
    home = base / "home"
    home.mkdir()
    victim = home / "victim.txt"
    victim.write_text(SECRET)
    out = base / "out"
    key = store.key_of({**SPEC, "config": {**SPEC["config"]}})
    for name, kind in sorted(plants):
        path = out / name.replace("KEY", key)
        if any(os.path.lexists(p) and not p.is_dir() for p in path.parents):
            continue
        if path.parent.is_symlink() or os.path.lexists(path):
            continue
        _plant(path, kind, victim)
    code, stdout, err = _bounded(lambda: run(capsys, *SIM, "--out", out), 60)
    assert code in (0, 2, 74), err
    if code:
        one_line(err)
    assert victim.read_text() == SECRET
    assert sorted(p.name for p in home.iterdir()) == ["victim.txt"]


@pytest.mark.parametrize("command, outputs", [
    (["plot", "bounds", "--dr", "gini", "--p", "0.4,0.9", "--algo", "rs-etc-m", "--Ts", "100,200", "--trials", "2",
      "--quiet"], ["bounds-gini-rs-etc-m.csv", "bounds-gini-rs-etc-m.png", "bounds-gini-rs-etc-m.pdf",
                   "bounds-gini-rs-etc-m.txt"]),
    (["reproduce", "vs-gap", "--trials", "2", "--quiet"], ["vs-gap.csv", "vs-gap.json", "vs-gap.png", "vs-gap.pdf",
                                                             "vs-gap.txt"]),
])
def test_every_output_planted_as_a_link_is_replaced(tmp_path, victim, capsys, command, outputs):
    out = tmp_path / "out"
    for name in outputs:
        _plant(out / name, "symlink", victim)
    code, _, err = run(capsys, *command, "--out", out)
    assert code == 0, err
    _unchanged(victim)
    for name in outputs:
        assert not (out / name).is_symlink() and (out / name).stat().st_size > 0
    _plant(out / dirlock.LOCK_NAME, "symlink", victim)  # and the lock: refused before any work
    code, stdout, err = run(capsys, *command, "--out", out)
    assert code == 2 and stdout == "" and "argument '--out'" in one_line(err)
    _unchanged(victim)


def test_report_page_planted_as_a_link_is_replaced(tmp_path, victim):
    from proofs_checks import report

    out = tmp_path / "report"
    _plant(out / "index.html", "symlink", victim)
    path = report.write([], out, docs=None)
    _unchanged(victim)
    assert not path.is_symlink() and "<html" in path.read_text()


# ---------------------------------------------------------------------------
# a sub-directory swapped for a link in the middle of a run
# ---------------------------------------------------------------------------
def _swap_after_first(out: Path, victim_dir: Path):
    """A progress wrapper that, once the first chunk is stored, moves ``out`` away and plants a link at its name."""
    def progress(items, total=None):
        for i, item in enumerate(items):
            yield item
            if i == 0:
                out.rename(out.with_name(out.name + ".moved"))
                out.symlink_to(victim_dir, target_is_directory=True)
    return progress


def test_directory_swapped_for_a_link_mid_run_is_not_followed(tmp_path, victim):
    """mv D/runs away, ln -s VICTIM D/runs while the sweep runs: nothing lands in the victim's directory."""
    out = tmp_path / "D" / "runs"
    out.mkdir(parents=True)
    spec = {**SPEC, "config": {**SPEC["config"], "trials": 6}}
    try:
        sw.sweep([spec], out, chunk=1, progress=_swap_after_first(out, victim.parent), notify=lambda m: None)
    except UnsafeFile as exc:
        assert "\n" not in str(exc)
    _unchanged(victim)
    moved = out.with_name("runs.moved")
    key = store.key_of(spec)
    assert store.check(moved, key) is None  # the run finished in the directory it held


def test_held_directory_anchors_every_write(tmp_path, victim):
    """Below a held directory a write walks from its descriptor: a swapped sub-directory is refused."""
    d = tmp_path / "D"
    (d / "sub").mkdir(parents=True)
    with safe_files.held(d):
        files.write_bytes(d / "sub" / "a.json", b"1")
        (d / "sub").rename(d / "sub.moved")
        (d / "sub").symlink_to(victim.parent, target_is_directory=True)
        with pytest.raises(UnsafeFile, match="symbolic link"):
            files.write_bytes(d / "sub" / "b.json", b"2")
        with pytest.raises(UnsafeFile):
            safe_files.read_bytes(d / "sub" / "victim.txt", 100)
        files.remove_tree(d / "sub")  # the link itself goes, never its target
    _unchanged(victim)
    assert (d / "sub.moved" / "a.json").read_bytes() == b"1"


def test_held_directory_itself_swapped_keeps_writing_where_it_was_opened(tmp_path, victim):
    d = tmp_path / "D"
    d.mkdir()
    with safe_files.held(d):
        d.rename(tmp_path / "D.moved")
        d.symlink_to(victim.parent, target_is_directory=True)
        files.write_bytes(d / "a.json", b"1")
    _unchanged(victim)
    assert (tmp_path / "D.moved" / "a.json").read_bytes() == b"1"


def test_simulate_cli_with_runs_swapped_mid_run(tmp_path, victim):
    """The command-line reproducer: D/runs swapped for a link once D/runs/chunks exists; the victim is untouched."""
    import subprocess
    import sys
    import time

    out = tmp_path / "D"
    cmd = [sys.executable, "-m", "proofs_checks.cli", "simulate", "--algo", "rs-etc-m", "--dr", "gini", "--p",
           "0.4,0.9", "--T", "20000", "--trials", "40", "--chunk", "2", "--explore", "T/10", "--quiet", "--out",
           str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    deadline = time.monotonic() + 120
    while not (out / "runs" / "chunks").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if proc.poll() is None:
        (out / "runs").rename(out / "runs.moved")
        (out / "runs").symlink_to(victim.parent, target_is_directory=True)
    _stdout, err = proc.communicate(timeout=300)
    assert "Traceback" not in err
    if proc.returncode:
        one_line(err)
    _unchanged(victim)


def test_hard_linked_stored_result_is_refused_before_it_is_read(stored, tmp_path):
    d = tmp_path / "runs"
    d.mkdir()
    key = store.key_of(SPEC)
    other = tmp_path / "other.json"
    other.write_bytes((stored / f"{key}.json").read_bytes())
    os.link(other, d / f"{key}.json")
    (d / f"{key}.npz").write_bytes((stored / f"{key}.npz").read_bytes())
    reason = store.check(d, key)
    assert reason is not None and "hard link" in reason


# ---------------------------------------------------------------------------
# rsb report: the files beside a figure (its caption) go through the one reader
# ---------------------------------------------------------------------------
def test_report_caption_reads_no_linked_file(tmp_path):
    from proofs_checks.report import figures

    secret_csv = tmp_path / "secret.csv"
    secret_csv.write_text('# {"experiment": {"title": "SECRET-CSV", "name": "x", "figure": "fig:1"}}\n')
    secret_json = tmp_path / "secret.json"
    secret_json.write_text('{"algo": "SECRET-JSON"}')
    out = tmp_path / "D"
    (out / "sub").mkdir(parents=True)
    (out / "x.png").write_bytes(b"\x89PNG fake")
    (out / "x.csv").symlink_to(secret_csv)
    (out / "sub" / "trajectory.png").write_bytes(b"\x89PNG fake")
    (out / "sub" / "simulate.json").symlink_to(secret_json)
    caps = " ".join(c for _n, _m, _d, c in _bounded(lambda: figures(out, None)))
    assert "SECRET" not in caps


def test_report_caption_of_a_huge_file_reads_a_bounded_head(tmp_path):
    """A 6 GB sparse CSV beside a figure: read up to MAX_CAPTION bytes, never the whole file."""
    from proofs_checks.report import figures

    out = tmp_path / "D"
    out.mkdir()
    (out / "x.png").write_bytes(b"\x89PNG fake")
    with open(out / "x.csv", "wb") as fh:
        fh.truncate(6 << 30)
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    caps = _bounded(lambda: figures(out, None))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert [n for n, *_ in caps] == ["x.png"]
    assert (after - before) * 1024 < 64 << 20
    os.mkfifo(out / "y.csv")
    (out / "y.png").write_bytes(b"\x89PNG fake")
    assert len(_bounded(lambda: figures(out, None))) == 2  # a FIFO beside a figure does not block its caption
