"""The catalog is the one place that knows the algorithms by name.

Outside ``rsb_sim/policies/`` (the policies and their catalog) the packages ask a policy's declaration
(``grid``, ``theorem``, ``proof``, ``corollary``, ``family``, ...) instead of comparing its name:

* at most :data:`MAX_COMPARISONS` comparisons on an algorithm's name are left: an AST scan counts every
  ``Compare`` node with a catalog name among its operands (``algo == "rs-ucb-m"``, ``algo in ("rs-etc-m",
  ...)``) and every dictionary keyed by a catalog name;
* no source file outside the policies names a baseline or competitor (a check may name only the paper's
  algorithms it is about).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rsb_sim.policies import catalog
from rsb_theory.laws.names import CONTINUOUS

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rsb_theory", "rsb_sim", "proofs_checks")
POLICIES = ROOT / "rsb_sim" / "policies"
#: The most comparisons on algorithm names allowed outside the policies.
MAX_COMPARISONS = 5


def _sources():
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if POLICIES not in path.parents:
                yield path


def _strings(node) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def name_comparisons() -> list[tuple[str, int, list[str]]]:
    """(file, line, names) of every comparison on, and every dictionary keyed by, a catalog name outside the
    policies.  A law of scipy.stats that shares an algorithm's name ("uniform") is a law in a table of laws."""
    names = set(catalog.names())
    keys = names - set(CONTINUOUS)
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Compare):
                hits = [s for x in (node.left, *node.comparators) for s in _strings(x) if s in names]
            elif isinstance(node, ast.Dict):
                hits = [k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in keys]
            else:
                continue
            if hits:
                found.append((str(path.relative_to(ROOT)), node.lineno, hits))
    return found


def test_few_comparisons_on_algorithm_names():
    found = name_comparisons()
    assert len(found) <= MAX_COMPARISONS, "\n".join(f"{f}:{line}: {hits}" for f, line, hits in found)


def test_the_scan_sees_a_comparison(tmp_path):
    """The scan's own test: a comparison and a dictionary by name are both counted."""
    tree = ast.parse('if algo == "rs-ucb-m" or algo in ("ce-ucb-m", "x"): pass\nD = {"rs-etc-m": 1}\n')
    names = set(catalog.names())
    compares = [n for n in ast.walk(tree) if isinstance(n, ast.Compare)
                and any(s in names for x in (n.left, *n.comparators) for s in _strings(x))]
    dicts = [n for n in ast.walk(tree) if isinstance(n, ast.Dict)
             and any(isinstance(k, ast.Constant) and k.value in names for k in n.keys)]
    assert len(compares) == 2 and len(dicts) == 1


def test_no_baseline_named_outside_the_policies():
    others = [p.name for p in catalog.policies() if p.family != "paper"]
    assert others, "the catalog lists baselines and competitors"
    spelled = sorted({form for name in others for form in (name, name.replace("-", "_"))}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, spelled)) + r")(?![\w-])")
    found = [f"{path.relative_to(ROOT)}:{i}: {m.group(1)}"
             for path in _sources() for i, line in enumerate(path.read_text().splitlines(), 1)
             for m in pattern.finditer(line)]
    assert not found, "\n".join(found)


def test_every_paper_proof_has_its_chain():
    """The proofs the UCB policies declare are the ones the chains and the checks know (no name between)."""
    from proofs_checks.checks import constants_theorems, ucb_regret_display
    from rsb_theory.rates import chains

    ucb = [p for p in catalog.policies() if p.theorem == "theorem:UCB upper bound"]
    assert len(ucb) == 2
    for p in ucb:
        assert p.proof in chains.UCB_PROOFS
        assert p.proof in constants_theorems.UCB_PROOFS
        assert p.proof in ucb_regret_display.PROOFS
