"""Queries on the paper's dependency graph (:mod:`proofs_checks.paper_uses`), and the graph of results drawn
by ``rsb report``.

Label level (every label of the paper):

* :func:`uses` / :func:`used_by` — the direct edges, in the paper's order;
* :func:`ancestors` / :func:`descendants` — everything a label rests on / everything resting on it;
* :func:`uses_of_entry` — what a ledger entry's claim uses: ``RESULT#step:LABEL`` (and
  ``RESULT#step:after:LABEL``) what LABEL uses (after LABEL: LABEL itself too); a table cell
  (``table:table_regrets#gini.ucb``) what the cell comes from; any other entry what its label uses.

Node level (the picture): the nodes are the lemmas, theorems and corollary
(:data:`proofs_checks.paper_labels.RESULTS`), the three tables and the algorithms' rules
(:data:`RULES`); :func:`node_uses` projects the label graph onto them — a node uses another when a
path of its uses reaches it — or a display of its statement (``eq:meta_concentration`` for
``lemma: concentration``) or of its proof (``eq:Discretized_regret`` for ``theorem:UCB upper bound``)
— through labels that stand for no node (definitions, the displays of its own proof).
:func:`layout` places the nodes in layers by longest path (layer 0 uses no node; a node sits one
layer beyond the deepest node it uses) and orders each layer by the paper.
"""

from __future__ import annotations

from functools import lru_cache

from . import paper_labels, results
from .paper_uses import CELL_USES, USES, Use

#: The algorithms' rules drawn as nodes (what the theorems are about), in the paper's order.
RULES: tuple[str, ...] = ("eq:ETC_alpha", "eq: ETC_samp", "eq:UCB_alpha", "eq:UCB_sampling_rule", "eq:UCB_alpha2")
#: The tables drawn as nodes.
TABLES: tuple[str, ...] = tuple(x.label for x in paper_labels.LABELS if x.kind == "table")


def _check(label: str) -> str:
    if label not in paper_labels.POSITION:
        raise KeyError(f"the paper has no label {label!r}")
    return label


def _ordered(labels) -> tuple[str, ...]:
    return tuple(sorted(set(labels), key=paper_labels.POSITION.__getitem__))


def edges(label: str) -> tuple[Use, ...]:
    """The edges out of ``label`` (:class:`proofs_checks.paper_uses.Use`, with their reasons), as transcribed."""
    return USES.get(_check(label), ())


def uses(label: str) -> tuple[str, ...]:
    """The labels ``label`` uses directly, in the paper's order."""
    return _ordered(u.label for u in edges(label))


@lru_cache(maxsize=1)
def _reverse() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for user, used in USES.items():
        for u in used:
            out.setdefault(u.label, []).append(user)
    return {k: _ordered(v) for k, v in out.items()}


def used_by(label: str) -> tuple[str, ...]:
    """The labels that use ``label`` directly, in the paper's order."""
    return _reverse().get(_check(label), ())


def _digraph(uses):
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(paper_labels.ORDER)
    g.add_edges_from((user, u.label) for user, used in uses.items() for u in used)
    return g


@lru_cache(maxsize=1)
def label_graph():
    """The label graph as a :class:`networkx.DiGraph`: an edge user -> used for every :class:`Use` (networkx is
    imported here, not at import time: reading a stored ledger need not pay for it)."""
    return _digraph(USES)


@lru_cache(maxsize=None)
def ancestors(label: str) -> tuple[str, ...]:
    """Every label ``label`` rests on (its uses, their uses, ...), in the paper's order."""
    import networkx as nx

    return _ordered(nx.descendants(label_graph(), _check(label)))


@lru_cache(maxsize=None)
def descendants(label: str) -> tuple[str, ...]:
    """Every label resting on ``label``, in the paper's order."""
    import networkx as nx

    return _ordered(nx.ancestors(label_graph(), _check(label)))


def reason(user: str, used: str) -> str:
    """Why ``user`` uses ``used`` (empty when the paper says it plainly); ``KeyError`` when it does not."""
    for u in edges(user):
        if u.label == used:
            return u.reason
    raise KeyError(f"{user!r} does not use {used!r}")


def cycle(uses=None) -> tuple[str, ...] | None:
    """A cycle of the graph (the labels along it, the first repeated at the end), None when it is acyclic.

    ``uses``: another label -> uses mapping to look in (default: the paper's, :data:`USES`)."""
    import networkx as nx

    try:
        found = nx.find_cycle(label_graph() if uses is None else _digraph(uses))
    except nx.NetworkXNoCycle:
        return None
    return tuple(u for u, _v in found) + (found[0][0],)


# --- ledger entries --------------------------------------------------------------------------------------------

def cell_of(ident: str) -> tuple[str, str, str | None] | None:
    """``(table, row, column)`` of a table cell's ledger id (``table:table_regrets#gini.ucb``); None otherwise."""
    label, _, part = ident.partition("#")
    if not part:
        return None
    row, _, col = part.partition(".")
    key = (label, row, col or None)
    return key if key in CELL_USES else None


def uses_of_entry(ident: str) -> tuple[str, ...]:
    """The labels the claim of the ledger entry ``ident`` uses, in the paper's order (see the module docstring)."""
    label, _, part = ident.partition("#")
    _check(label)
    cell = cell_of(ident)
    if cell is not None:
        return _ordered(u.label for u in CELL_USES[cell])
    if part.startswith("step:"):
        step = part[len("step:"):]
        if step.startswith("after:") and step[len("after:"):] in paper_labels.POSITION:
            shown = step[len("after:"):]
            return _ordered((shown, *uses(shown)))
        if step in paper_labels.POSITION:
            return uses(step)
    return uses(label)


# --- the graph of results (the report's picture) ------------------------------------------------------------------

def nodes() -> tuple[str, ...]:
    """The nodes of the picture: results, tables and rules, in the paper's order."""
    return _ordered((*paper_labels.RESULTS, *TABLES, *RULES))


@lru_cache(maxsize=1)
def _node_set() -> frozenset[str]:
    return frozenset(nodes())


def stands_for(label: str, node: str) -> str | None:
    """The node that ``label`` stands for when ``node`` uses it: itself (a node), the result whose statement it
    is in, or the result whose proof it is in — unless that result rests on ``node`` (``lemma:probability of E3``
    borrows displays of the proof it is stated in; the borrowed displays are then followed, not the result) —
    and None for a label to follow through (a definition, a display of ``node``'s own proof)."""
    inside = _node_set()
    if label in inside:
        return label
    info = paper_labels.BY_LABEL[label]
    if info.statement in inside:
        return info.statement
    owner = info.proof
    if owner in inside and owner != node and owner not in descendants(node):
        return owner
    return None


@lru_cache(maxsize=None)
def node_uses(node: str) -> tuple[str, ...]:
    """The nodes ``node`` uses: those its uses reach (:func:`stands_for`) through labels that stand for no other
    node, in the paper's order."""
    if node not in _node_set():
        raise KeyError(f"{node!r} is not a node of the graph of results")
    found: set[str] = set()
    seen: set[str] = set()
    todo = list(uses(node))
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        target = stands_for(x, node)
        if target is not None and target != node:
            found.add(target)
        elif x != node:  # a definition, a display of the node's own proof or statement: follow it
            todo.extend(uses(x))
    return _ordered(found)


@lru_cache(maxsize=1)
def node_graph():
    """The graph of results as a :class:`networkx.DiGraph` (an edge node -> a node it uses, :func:`node_uses`)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(nodes())
    g.add_edges_from((n, m) for n in nodes() for m in node_uses(n))
    return g


def node_ancestors(node: str) -> tuple[str, ...]:
    """Every node ``node`` rests on, in the paper's order."""
    import networkx as nx

    if node not in _node_set():
        raise KeyError(f"{node!r} is not a node of the graph of results")
    return _ordered(nx.descendants(node_graph(), node))


def layout() -> dict[str, tuple[int, int]]:
    """node -> (layer, slot): the layer is the longest path of uses below the node (0: uses no node), the slot its
    place in the layer by the paper's order.  Deterministic (no randomness, no external tool)."""
    import networkx as nx

    g = node_graph()
    depth: dict[str, int] = {}
    for n in reversed(list(nx.topological_sort(g))):  # every node after the nodes it uses
        depth[n] = 1 + max((depth[m] for m in g.successors(n)), default=-1)
    out: dict[str, tuple[int, int]] = {}
    for layer in sorted(set(depth.values())):
        for slot, n in enumerate(x for x in nodes() if depth[x] == layer):
            out[n] = (layer, slot)
    return out


def proof_places(result: str) -> tuple[str, ...]:
    """The result and the labelled displays of its statement and proof, in the paper's order."""
    return (result, *paper_labels.statement_labels(result), *paper_labels.proof_labels(result))


def node_kind(label: str) -> str:
    """``rule``, ``table`` or ``result``: what a node of the picture is."""
    return "rule" if label in RULES else "table" if label in TABLES else "result"


def used_nodes(result: str) -> dict[str, dict[str, list[str]]]:
    """node -> {place: [reasons]}: the nodes ``result``'s proof uses (:func:`stands_for`) and the places that use
    them, followed through labels that are not nodes (definitions, displays of another proof)."""
    own = set(proof_places(result))
    out: dict[str, dict[str, list[str]]] = {}
    for place in proof_places(result):
        for edge in edges(place):
            seen: set[str] = set()
            todo = [edge.label]
            while todo:
                x = todo.pop()
                if x in seen or x in own:
                    continue
                seen.add(x)
                target = stands_for(x, result)
                if target is not None and target != result:
                    reasons = out.setdefault(target, {}).setdefault(place, [])
                    if x == edge.label and edge.reason:
                        reasons.append(edge.reason)
                elif target is None:
                    todo.extend(uses(x))
    return out


def used_parts(result: str) -> dict[str, dict[str, frozenset]]:
    """node -> {place: parts}: as :func:`used_nodes`, with the parts of each used node that the place uses: the
    part an edge names (:attr:`proofs_checks.results.Use.part`: ``lemma:Dual_Power`` uses ``lemma:PHT``'s
    ``r_equals_q``), the statement part whose display is used (``eq:meta_concentration`` is ``lemma:
    concentration``'s ``bound``), else None (the whole statement)."""
    own = set(proof_places(result))
    out: dict[str, dict[str, set]] = {}
    for place in proof_places(result):
        for edge in edges(place):
            seen: set[str] = set()
            todo = [(edge.label, edge.part)]
            while todo:
                x, part = todo.pop()
                if x in seen or x in own:
                    continue
                seen.add(x)
                target = stands_for(x, result)
                if target is not None and target != result:
                    if x != target:  # a display of the target's statement (its part), or of its proof (None)
                        where = results.placed(x)
                        part = where[1].name if where is not None and where[0] == target else None
                    out.setdefault(target, {}).setdefault(place, set()).add(part)
                elif target is None:
                    todo.extend((u.label, u.part) for u in edges(x))
    return {n: {p: frozenset(v) for p, v in places.items()} for n, places in out.items()}
