"""Every ```python block of docs/api.md runs (the docs' examples stay true)."""

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_api_doc_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_api_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()  # every example prints what it computes
