"""The stored ledger (``proofs_checks/stored.py``): current answers at once, stale or damaged recomputes.

The store's logic runs on a temporary source tree and a stand-in for the checks that counts its runs (or
refuses to run); the real ledger is used where the answer must equal the checks' own (the session's
ledger, ``tests/conftest.py``), in a fresh process that must import no check module, NumPy or SymPy.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_checks import stored
from proofs_checks.ledger import CheckResult, MutantOutcome, select, to_json

ROOT = Path(__file__).resolve().parents[2]
VERSIONS = {"numpy": "2.0.0", "sympy": "1.14.0"}


def _tree(tmp_path: Path) -> dict[str, Path]:
    roots = {"pkg_a": tmp_path / "src" / "pkg_a", "pkg_b": tmp_path / "src" / "pkg_b"}
    (roots["pkg_a"] / "sub").mkdir(parents=True)
    roots["pkg_b"].mkdir(parents=True)
    (roots["pkg_a"] / "__init__.py").write_text("")
    (roots["pkg_a"] / "sub" / "rule.py").write_text("LIMIT = 3\n")
    (roots["pkg_b"] / "check.py").write_text("def f():\n    return 1\n")
    return roots


def _entry(ident: str, status: str = "verified", **more) -> CheckResult:
    return CheckResult(ident, f"claim {ident}", "1", "1", status, "symbolic", f"evidence of {ident}", **more)


class Counting:
    """Stands in for the registry: a fixed ledger, and how often it ran (and on which ids)."""

    def __init__(self, ids=("a#1", "a#2", "b#1", "c#1")):
        self.all = list(ids)
        self.runs: list = []

    def ids(self):
        return list(self.all)

    def run(self, ids, jobs, mutants, progress):
        self.runs.append(None if ids is None else list(ids))
        todo = self.all if ids is None else ids
        mut = (MutantOutcome("stronger", "refuted"),) if mutants else None
        return [_entry(i, "refuted" if i.startswith("b") else "verified", mutants=mut) for i in todo]


class Refusing:
    """The registry made unavailable: any use fails the test."""

    def ids(self):
        raise AssertionError("the registry was asked for its ids")

    def run(self, *args):
        raise AssertionError("a check ran")


def _load(tmp_path, roots, checks, **kw):
    kw.setdefault("versions", VERSIONS)
    return stored.load_or_compute(folder=tmp_path / "store", roots=roots, checks=checks, **kw)


# ------------------------------------------------------------------------------------------- the key

def test_the_key_follows_the_sources_the_versions_and_python(tmp_path):
    roots = _tree(tmp_path)
    key = stored.ledger_key(roots, VERSIONS, "cpython 3.11.7")
    assert key == stored.ledger_key(roots, dict(reversed(VERSIONS.items())), "cpython 3.11.7")
    rule = roots["pkg_a"] / "sub" / "rule.py"
    rule.write_text("LIMIT = 4\n")
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") != key
    rule.write_text("LIMIT = 3\n")
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") == key
    # byte-compiled files and files that are not Python change nothing; a new module or a moved one does
    (roots["pkg_a"] / "__pycache__").mkdir()
    (roots["pkg_a"] / "__pycache__" / "rule.py").write_text("junk")
    (roots["pkg_a"] / "notes.txt").write_text("junk")
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") == key
    (roots["pkg_b"] / "new.py").write_text("")
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") != key
    (roots["pkg_b"] / "new.py").unlink()
    (roots["pkg_b"] / "check.py").rename(roots["pkg_b"] / "moved.py")
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") != key
    (roots["pkg_b"] / "moved.py").rename(roots["pkg_b"] / "check.py")
    assert stored.ledger_key(roots, {**VERSIONS, "numpy": "2.0.1"}, "cpython 3.11.7") != key
    assert stored.ledger_key(roots, {**VERSIONS, "scipy": "1.0"}, "cpython 3.11.7") != key
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.12.0") != key
    assert stored.ledger_key(roots, VERSIONS, "cpython 3.11.7") == key


def test_the_real_key_covers_the_three_packages_and_imports_nothing_heavy():
    code = ("import sys, json\nfrom proofs_checks import stored\n"
            "files = [r for r, _p in stored.source_files(stored.package_roots())]\n"
            "print(json.dumps({'key': stored.ledger_key(), 'files': files, 'versions': stored.installed_versions(),"
            " 'heavy': sorted(m for m in ('numpy', 'sympy', 'scipy') if m in sys.modules)}))")
    got = json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                    check=True).stdout)
    assert got["heavy"] == [] and got["key"] == stored.ledger_key()
    assert {f.split("/")[0] for f in got["files"]} == set(stored.PACKAGES)
    assert "proofs_checks/stored.py" in got["files"] and "rsb_theory/argmax/edge_lines.py" in got["files"]
    assert got["files"] == sorted(got["files"]) and not any("__pycache__" in f for f in got["files"])
    assert {"numpy", "sympy"} <= set(got["versions"])


def test_the_directory_is_the_environment_variable_or_the_users_cache(tmp_path):
    assert stored.directory({"RSB_LEDGER_DIR": str(tmp_path)}) == tmp_path
    assert stored.directory({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "rsb" / "ledger"
    assert stored.directory({"HOME": str(tmp_path)}).parts[-3:] == (".cache", "rsb", "ledger")


# --------------------------------------------------------------------------------------- round trip

def test_every_field_of_an_entry_round_trips():
    full = _entry("lemma:RTD#r.case1", "gap", mutants=(MutantOutcome("K^q -> K", "refuted"),
                                                       MutantOutcome("q = 1", "gap")),
                  axis="proof", impact="rate", loose_in="exponent", uses=("eq:UUB_1", "lemma:Delta_error"),
                  note="fails for n0 = 1", node="proof", part="r", cause="proof_steps", condition="y >= 512/sqrt(n)",
                  condition_at_uses=True,
                  certificate={"kind": "decision", "domain": {"words": "x in [0, 1]", "data": {"x": ["0", "1"]}},
                               "whole": True, "parts": [{"kind": "decision", "expr": "x - 1"}]})
    defaults = CheckResult("x", "c", "p", "d", "verified", "numeric", "")
    # every field differs from the defaults, so each one's round trip is tested
    assert all(getattr(full, f.name) != getattr(defaults, f.name) for f in dataclasses.fields(CheckResult)
               if f.name not in ("method",))
    for e in (full, defaults):
        plain = json.loads(json.dumps(stored.encode([e])))
        assert list(plain[0]) == [f.name for f in dataclasses.fields(CheckResult)]
        assert stored.decode(plain) == [e]


def test_a_field_added_later_round_trips_without_a_change_to_the_store():
    Later = dataclasses.make_dataclass(
        "Later", [("rank", int, dataclasses.field(default=0)), ("weight", float | None, dataclasses.field(default=None)),
                  ("places", tuple[str, ...], dataclasses.field(default=())),
                  ("table", dict[str, str], dataclasses.field(default_factory=dict))],
        bases=(CheckResult,), frozen=True)
    e = Later("eq:x", "c", "p", "d", "conditional", "numeric", "ev", None, "statement", "constant", None, ("eq:y",), "",
              rank=3, weight=0.25, places=("a", "b"), table={"k": "v"})
    assert stored.decode(json.loads(json.dumps(stored.encode([e]))), Later) == [e]
    plain = stored.encode([e])
    with pytest.raises(ValueError):  # a stored entry of another shape is refused, never guessed
        stored.decode(plain)


# ----------------------------------------------------------------------------------- load or compute

def test_a_current_store_answers_without_running_a_check(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    first = _load(tmp_path, roots, checks)
    assert first.origin == "computed" and checks.runs == [None] and first.stored.is_file()
    again = _load(tmp_path, roots, Refusing())
    assert again.origin == "stored" and again.entries == first.entries and "read from" in again.note
    # the filters of rsb verify --id / --proof take the stored entries
    some = _load(tmp_path, roots, Refusing(), subset=lambda ids: [i for i in ids if i.startswith("a")])
    assert [e.id for e in some.entries] == ["a#1", "a#2"] and some.origin == "stored"
    assert stored.read_current(folder=tmp_path / "store", roots=roots, versions=VERSIONS).entries == first.entries


def test_fresh_recomputes_and_stores_the_same_bytes(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    first = _load(tmp_path, roots, checks)
    before = first.stored.read_bytes()
    again = _load(tmp_path, roots, checks, fresh=True)
    assert again.origin == "computed" and checks.runs == [None, None] and "--fresh" in again.note
    assert again.stored == first.stored and again.stored.read_bytes() == before


def test_a_source_change_or_a_version_change_makes_it_stale(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    first = _load(tmp_path, roots, checks)
    (roots["pkg_b"] / "check.py").write_text("def f():\n    return 2\n")
    changed = _load(tmp_path, roots, checks)
    assert changed.origin == "computed" and changed.key != first.key and len(checks.runs) == 2
    assert "no stored ledger" in changed.note
    upgraded = _load(tmp_path, roots, checks, versions={**VERSIONS, "sympy": "1.15.0"})
    assert upgraded.origin == "computed" and upgraded.key not in (first.key, changed.key) and len(checks.runs) == 3
    # back to the first code and versions: its ledger is still stored
    (roots["pkg_b"] / "check.py").write_text("def f():\n    return 1\n")
    assert _load(tmp_path, roots, Refusing()).origin == "stored"


def test_a_stale_subset_runs_only_its_checks_and_stores_nothing(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    got = _load(tmp_path, roots, checks, subset=lambda ids: [i for i in ids if i.startswith("b")])
    assert got.origin == "subset" and [e.id for e in got.entries] == ["b#1"] and checks.runs == [["b#1"]]
    assert got.stored is None and not got.path.exists() and "ran 1 checks only" in got.note
    assert stored.read_current(folder=tmp_path / "store", roots=roots, versions=VERSIONS) is None


@pytest.mark.parametrize("damage", ["garbage", "truncated", "tampered", "foreign", "other-format", "bad-entry"])
def test_a_damaged_or_foreign_file_is_moved_aside_and_recomputed(tmp_path, damage):
    roots, checks = _tree(tmp_path), Counting()
    path = _load(tmp_path, roots, checks).stored
    record = json.loads(path.read_text())
    if damage == "garbage":
        path.write_bytes(b"\x00\xffnot json")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    elif damage == "tampered":  # a status changed by hand: the entries no longer match their SHA-256
        record["entries"][2]["status"] = "verified"
        path.write_text(json.dumps(record))
    elif damage == "foreign":  # another key's ledger copied under this key's name
        record["key"] = "0" * 64
        path.write_text(json.dumps(record))
    elif damage == "other-format":
        record["format"] = stored.FORMAT + 1
        path.write_text(json.dumps(record))
    else:  # an entry that is not a valid CheckResult, with a matching checksum
        record["entries"][0]["status"] = "proven"
        record["entries_sha256"] = __import__("hashlib").sha256(stored._entries_text(record["entries"])).hexdigest()
        path.write_text(json.dumps(record))
    bad = path.read_bytes()
    got = _load(tmp_path, roots, checks)
    assert got.origin == "computed" and len(checks.runs) == 2 and "moved aside" in got.note
    aside = path.parent / "corrupt" / path.name
    assert aside.read_bytes() == bad
    assert _load(tmp_path, roots, Refusing()).entries == got.entries


def test_nothing_is_stored_when_the_sources_change_during_the_run_or_it_is_interrupted(tmp_path):
    roots = _tree(tmp_path)

    class Editing(Counting):
        def run(self, *args):
            (roots["pkg_a"] / "sub" / "rule.py").write_text("LIMIT = 5\n")  # an edit while the checks run
            return super().run(*args)

    got = _load(tmp_path, roots, Editing())
    assert got.origin == "computed" and got.stored is None and "sources changed" in got.note
    assert not got.path.exists()

    class Interrupted(Counting):
        def run(self, *args):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _load(tmp_path, roots, Interrupted())
    assert not list((tmp_path / "store").glob("*.json"))


def test_mutants_are_stored_apart(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    plain = _load(tmp_path, roots, checks)
    with_mutants = _load(tmp_path, roots, checks, mutants=True)
    assert with_mutants.origin == "computed" and with_mutants.stored != plain.stored
    assert all(e.mutants for e in with_mutants.entries) and all(e.mutants is None for e in plain.entries)
    assert _load(tmp_path, roots, Refusing(), mutants=True).entries == with_mutants.entries
    assert _load(tmp_path, roots, Refusing()).entries == plain.entries


def test_a_store_that_cannot_be_written_still_answers(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    (tmp_path / "store").write_text("a file where the directory should be")
    got = _load(tmp_path, roots, checks)
    assert got.origin == "computed" and got.stored is None and "not stored" in got.note and len(got.entries) == 4


def test_only_the_most_recently_used_ledgers_are_kept(tmp_path):
    roots, checks = _tree(tmp_path), Counting()
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / "notes.txt").write_text("not ours")
    paths = []
    for k in range(stored.KEEP + 2):
        paths.append(_load(tmp_path, roots, checks, versions={"numpy": f"2.{k}"}).stored)
        os.utime(paths[-1], (1000 + k, 1000 + k))
    kept = sorted(p.name for p in folder.glob("*.json"))
    assert kept == sorted(p.name for p in paths[2:]) and (folder / "notes.txt").exists()


# ------------------------------------------------------------------------- the real checks and the command

#: Cheap check modules on which --jobs 1 and --jobs 2 are compared (several units of work, so two workers fork).
FEW_MODULES = ("grid_size", "probability_E3", "theorem_W", "risk_concave")


class Few(stored.Registry):
    """The real registry restricted to the claims of :data:`FEW_MODULES`."""

    def ids(self):
        from proofs_checks.registry import _module_of

        modules = _module_of()
        return [i for i in super().ids() if modules[i] in FEW_MODULES]

    def run(self, ids, jobs, mutants, progress):
        return super().run(self.ids() if ids is None else ids, jobs, mutants, progress)


def test_jobs_one_and_two_store_the_same_ledger(tmp_path):
    from proofs_checks.registry import work_units

    assert len(work_units(Few().ids())) >= 2
    one = stored.load_or_compute(folder=tmp_path / "one", checks=Few(), jobs=1, fresh=True)
    two = stored.load_or_compute(folder=tmp_path / "two", checks=Few(), jobs=2, fresh=True)
    assert one.stored.read_bytes() == two.stored.read_bytes() and one.stored.name == two.stored.name


def _seed(folder: Path, entries) -> Path:
    """The session's ledger stored under the current key (what `rsb verify` would have stored)."""
    key = stored.ledger_key()
    return stored.save(stored.path_of(folder, key), key, entries, stored.installed_versions(),
                       stored.python_version())


#: Runs one command in a fresh process and reports which modules it imported.
PROBE = ("import json, sys\nfrom proofs_checks.cli import main\ncode = main(sys.argv[1:])\n"
         "print(json.dumps({'code': code, 'modules': sorted(m for m in sys.modules if m in ('numpy', 'sympy') "
         "or m.startswith('proofs_checks.checks.'))}), file=sys.stderr)\n")


def _probe(folder: Path, *argv) -> tuple[str, dict, str]:
    env = {**os.environ, stored.ENV: str(folder)}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    *lines, last = done.stderr.strip().splitlines()
    return done.stdout, json.loads(last), "\n".join(lines)


def test_verify_status_from_the_store_imports_no_check_numpy_or_sympy(tmp_path, ledger):
    _seed(tmp_path, ledger)
    out, probe, err = _probe(tmp_path, "verify", "--status", "refuted", "--format", "json")
    assert probe == {"code": 0, "modules": []}, err
    assert out.strip() == to_json(select(ledger, ("refuted",))).strip()
    assert "read from" in err and err.splitlines()[-1].startswith(f"Summary: {len(ledger)} entries")
    out, probe, err = _probe(tmp_path, "verify", "--id", "lemma:RTD")
    assert probe == {"code": 0, "modules": []}, err
    assert [ln.split()[0] for ln in out.splitlines()[2:]] == [r.id for r in ledger if r.id.startswith("lemma:RTD")]
    out, probe, err = _probe(tmp_path, "labels", "--format", "json")
    assert probe == {"code": 0, "modules": []} and err == ""
    from proofs_checks.cli.labels import rows

    assert json.loads(out) == rows()


def test_the_whole_ledger_and_the_report_from_the_store(tmp_path, ledger, capsys, monkeypatch):
    from proofs_checks.cli import main

    folder = tmp_path / "store"
    _seed(folder, ledger)
    monkeypatch.setenv(stored.ENV, str(folder))
    assert main(["verify", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == to_json(ledger).strip() and "read from" in err
    assert main(["verify", "--proof", "lemma:RTD", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["proof"] == "lemma:RTD"
    assert main(["report", "--out", str(tmp_path / "report")]) == 0
    out, err = capsys.readouterr()
    assert "read from" in err and (tmp_path / "report" / "index.html").is_file()
