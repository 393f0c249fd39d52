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


def _parser_commands() -> dict[str, tuple[set[str], set[str]]]:
    """Each subcommand of the parser (``plot bounds`` by its positional choice): (its flags, the words it must name).

    The words are the choices of its positional argument and of ``--algo`` (the baselines too).
    """
    import argparse

    from proofs_checks.cli.parser import build_parser

    out = {}
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                flags = {o for a in sub._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
                words = {str(c) for a in sub._actions if a.choices and (not a.option_strings or "--algo" in
                                                                          a.option_strings) for c in a.choices}
                out[name] = (flags, words)
    return out


def _index_commands() -> dict[str, str]:
    """The bullets of docs/index.md's command summary, by subcommand."""
    text = (ROOT / "docs" / "index.md").read_text()
    section = text[text.index("Commands ("):text.index("What the flags mean")]
    out = {}
    for bullet in re.split(r"\n\* ", section)[1:]:
        m = re.match(r"`rsb (\w+)", bullet)
        assert m, f"a bullet of the command summary does not start with `rsb NAME`: {bullet[:60]!r}"
        out[m.group(1)] = bullet
    return out


def test_index_command_summary_equals_parser():
    parser, index = _parser_commands(), _index_commands()
    assert set(index) == set(parser), "docs/index.md's command summary and the parser's subcommands differ"
    for name, (flags, words) in parser.items():
        bullet = index[name]
        documented = set(re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", bullet))
        assert documented == flags, (f"rsb {name}: flags missing from docs/index.md {sorted(flags - documented)}, "
                                     f"not in the parser {sorted(documented - flags)}")
        missing = [w for w in words if w not in bullet]
        assert not missing, f"rsb {name}: docs/index.md does not name {missing}"


def test_every_doc_page_is_listed():
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "index.md")
    readme = (ROOT / "README.md").read_text()
    index = (ROOT / "docs" / "index.md").read_text()
    assert [p for p in pages if f"docs/{p}" not in readme] == [], "README's documentation list lacks a page"
    assert [p for p in pages if f"({p})" not in index] == [], "docs/index.md's Pages list lacks a page"
