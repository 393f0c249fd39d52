"""The examples of docs/simulation.md stay true: its Python blocks run, its ``rsb`` commands are accepted."""

import importlib
import re
import shlex
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulation.md"
TEXT = DOC.read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
COMMANDS = [shlex.split(m) for block in re.findall(r"```(?:sh|bash|console)?\n(.*?)```", TEXT, flags=re.S)
            for m in re.findall(r"^rsb\s+(.*)$", block, flags=re.M)
            if not any(c in m for c in "[]{}|") and "..." not in m]


def test_the_page_has_examples():
    assert len(BLOCKS) >= 2 and any("--record" in a for a in map(" ".join, COMMANDS))


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_python_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a)[:60] for a in COMMANDS])
def test_command_is_accepted(tmp_path, monkeypatch, argv):
    from proofs_checks.cli.parser import build_parser

    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(argv)
    importlib.import_module(f"proofs_checks.cli.{args.module}").validate(args)
    assert list(tmp_path.iterdir()) == []  # validation writes nothing
