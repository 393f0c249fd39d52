"""docs/arms.md stays true: every ```python block runs and prints what it computes."""

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "arms.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_page_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()


COMMANDS = [line.strip() for block in re.findall(r"```sh\n(.*?)```", DOC.read_text(), flags=re.S)
            for line in block.splitlines() if line.strip().startswith("rsb ")]


def test_the_page_has_command_lines():
    assert len(COMMANDS) >= 4


@pytest.mark.parametrize("line", COMMANDS, ids=[f"cmd{i}" for i in range(len(COMMANDS))])
def test_command_line_example_runs(line, capsys, tmp_path, monkeypatch):
    """Every ``rsb ...`` line of the page's sh blocks runs (status 0) and prints its report."""
    import shlex

    from proofs_checks.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(line)[1:]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip()
