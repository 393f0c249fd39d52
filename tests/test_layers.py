"""The import graph of the three layers: imports point down, and no module imports itself back.

ARCHITECTURE.md: ``proofs_checks -> rsb_sim -> rsb_theory``.  Every ``import`` and
``from ... import`` of every module is read from its source (module level, inside
functions, lazy or not), resolved to a module of the project, and

* an edge from a lower layer to a higher one fails (``rsb_theory`` importing
  ``rsb_sim``, say);
* a cycle of any length fails (two modules importing each other, directly or
  through others), lazy imports included: a lazy import hides a cycle from the
  interpreter, not from the design.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"rsb_theory": 0, "rsb_sim": 1, "proofs_checks": 2}


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in LAYERS:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module ``name`` refers to (itself, or the package that defines it), or None."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(mod: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                prefix = ".".join(base)
                name = f"{prefix}.{node.module}" if node.module else prefix
            else:
                name = node.module or ""
            for alias in node.names:
                # "from pkg import sub" imports the submodule pkg.sub when there is one
                target = _resolve(f"{name}.{alias.name}") if f"{name}.{alias.name}" in MODULES else _resolve(name)
                if target:
                    found.add(target)
    found.discard(mod)
    # a module's own package __init__ is not an edge of interest (Python runs it anyway)
    return {t for t in found if not mod.startswith(t + ".")}


GRAPH = {mod: _imports(mod, path) for mod, path in MODULES.items()}


def _layer(mod: str) -> int:
    return LAYERS[mod.split(".")[0]]


def test_the_graph_is_not_empty():
    assert len(MODULES) > 30 and sum(map(len, GRAPH.values())) > 50


def test_imports_point_down_the_layers():
    upward = sorted(f"{a} -> {b}" for a, deps in GRAPH.items() for b in deps if _layer(b) > _layer(a))
    assert not upward, "upward imports:\n" + "\n".join(upward)


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    cycles = _cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("a, b", [("rsb_theory.x", "rsb_sim.y"), ("rsb_sim.y", "proofs_checks.z")])
def test_an_upward_edge_is_seen(a, b):
    assert _layer(b) > _layer(a)
