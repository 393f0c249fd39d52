"""The docs' examples stay true.

* Every ```python block of docs/api.md runs.
* Every ``rsb`` command in a code block of README.md, docs/index.md,
  docs/quickstart.md and docs/reproduction.md is accepted by the command line:
  parsed by :func:`proofs_checks.cli.parser.build_parser` and validated by its
  handler (flags, values, which options apply to the algorithm), without running it.
  Synopsis lines (with ``[...]``, ``{...}``, ``...`` or placeholders such as ``DIR``)
  are skipped.
"""

import importlib
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
COMMAND_DOCS = ("README.md", "docs/index.md", "docs/quickstart.md", "docs/reproduction.md", "docs/longruns.md")


def test_api_doc_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_api_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()  # every example prints what it computes


def _commands() -> list[tuple[str, list[str]]]:
    out = []
    for name in COMMAND_DOCS:
        text = (ROOT / name).read_text()
        for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M):
            if lang not in ("", "sh", "bash", "console"):
                continue
            lines = [ln.strip() for ln in block.replace("\\\n", " ").splitlines()]
            if any(ln.startswith("$ ") for ln in lines):
                # a console transcript: the commands are the prompted lines, the rest is output
                lines = [ln[2:] for ln in lines if ln.startswith("$ ")]
            for line in lines:
                m = re.match(r"(?:\.venv/bin/)?rsb\s+(.*)", line)
                if not m:
                    continue
                argv = shlex.split(m.group(1), comments=True)
                synopsis = any(c in tok for tok in argv for c in "[]{}|") or "..." in line or \
                    any(re.fullmatch(r"[A-Z][A-Z0-9_]*", tok) and tok not in ("T", "K") for tok in argv)
                if not synopsis:
                    out.append((name, argv))
    return out


COMMANDS = _commands()


def test_docs_have_commands():
    assert len(COMMANDS) >= 20
    assert {argv[0] for _doc, argv in COMMANDS} >= {"verify", "derive", "optimize", "simulate", "bench", "slopes",
                                                    "reproduce", "plot"}


@pytest.mark.parametrize("doc, argv", COMMANDS, ids=[f"{d}:{' '.join(a)[:60]}" for d, a in COMMANDS])
def test_documented_command_is_accepted(tmp_path, monkeypatch, doc, argv):
    from proofs_checks.cli.parser import build_parser

    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(argv)
    importlib.import_module(f"proofs_checks.cli.{args.module}").validate(args)
