"""The graph of results as one self-contained SVG, for ``rsb report`` (drawing only; it runs nothing).

The nodes are the lemmas, theorems and corollary, the three tables and the algorithms' rules
(:func:`proofs_checks.graph.nodes`); an arrow X -> Y says that Y uses X (:func:`proofs_checks.graph.node_uses`).
Each node shows two verdicts (:func:`proofs_checks.findings.bottom_lines`): its **border** is the statement's
status, its **fill** the proof's verdict (complete, gap, broken, unchecked).  A table's border is the worst
status of its cells; a rule's the worst of its entries (grey when it has none); neither has a proof.

Layout (:func:`proofs_checks.graph.layout`, deterministic, no external tool): one band per layer, the
used above their users, each band in the paper's order and wrapped after :data:`PER_ROW` nodes; arrows
enter a node's top and leave its bottom at ports spread by the other end's position, under the nodes.

:func:`render` returns the HTML of the section: the SVG (a legend at its top), one hidden block per node
with its bottom line and links to its ledger rows, and an inline script: a click on a node (or opening the
page as ``index.html#focus=LABEL``) dims every node that is not the node or one of its ancestors, shows the
node's block and opens its ledger rows (their evidence expanded, outlined).  Opened as
``#focus=LABEL`` the page records the focus in ``<svg data-focus="LABEL">`` for a headless browser test.
"""

from __future__ import annotations

import html
from rsb_sim import jsontext
import re
from urllib.parse import quote

from . import findings, graph, paper_labels, proof_view
from .ledger import CheckResult
from .statuses import SEVERITY, worst

#: Border colours of statement statuses (ledger statuses; ``none`` for a rule without entries).
STATEMENT_COLOURS = {
    "verified": "#2e7d32", "loose": "#1f5fbf", "vacuous": "#6d6d6d", "conditional": "#d08400",
    "refuted": "#c62828", "unchecked": "#9e9e9e", "none": "#9e9e9e",
}
#: Fill colours of proof verdicts (``none``: a table or rule, which has no proof).
PROOF_COLOURS = {
    "complete": "#d8f0d8", "gap": "#fff0b3", "broken": "#f9cfcd", "unchecked": "#ffffff", "none": "#ece8f4",
}
#: Geometry (pixels).
NODE_W, NODE_H, GAP_X, GAP_Y, BAND_GAP, MARGIN, LEGEND_H = 214, 40, 16, 22, 48, 16, 96
#: Nodes per row of a band before it wraps.
PER_ROW = 6


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def slug(label: str) -> str:
    """An SVG/HTML id for a node (stable, unique for distinct labels)."""
    return "n-" + re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-") + f"-{sum(map(ord, label)) % 9973}"


def _kind(label: str) -> str:
    return "rule" if label in graph.RULES else "table" if label in graph.TABLES else "result"


def verdicts(entries: list[CheckResult]) -> dict[str, tuple[str, str, str]]:
    """node -> (statement, proof, sentence): the bottom lines of the results; tables and rules from their entries."""
    out = {b.label: (b.statement, b.proof, b.sentence) for b in findings.bottom_lines(entries)}
    for node in graph.nodes():
        if node in out:
            continue
        mine = [e.status for e in entries if e.id.partition("#")[0] == node and e.status in SEVERITY]
        statement = worst(*mine) if mine else "none"
        what = "a table" if _kind(node) == "table" else "a rule of an algorithm"
        sentence = (f"{node}: {what}; {len(mine)} checked entries, the worst {statement}" if mine
                    else f"{node}: {what}; no entry of its own")
        out[node] = (statement, "none", sentence + ".")
    return out


def entries_of(node: str, entries: list[CheckResult]) -> list[CheckResult]:
    """The ledger entries a node opens: a result's view (statement and steps), a table's or rule's own ids."""
    if _kind(node) == "result":
        ids = set(proof_view.ids_of(node, [e.id for e in entries]))
        return [e for e in entries if e.id in ids]
    return [e for e in entries if e.id.partition("#")[0] == node]


def positions() -> dict[str, tuple[float, float]]:
    """node -> (x, y) of its top-left corner, below the legend."""
    lay = graph.layout()
    bands: dict[int, list[str]] = {}
    for node, (layer, slot) in sorted(lay.items(), key=lambda kv: kv[1]):
        bands.setdefault(layer, []).append(node)
    out: dict[str, tuple[float, float]] = {}
    y = MARGIN + LEGEND_H
    width = PER_ROW * NODE_W + (PER_ROW - 1) * GAP_X
    for layer in sorted(bands):
        names = bands[layer]
        rows = [names[k:k + PER_ROW] for k in range(0, len(names), PER_ROW)]
        for r, row in enumerate(rows):
            used = len(row) * NODE_W + (len(row) - 1) * GAP_X
            x0 = MARGIN + (width - used) / 2 + (NODE_W + GAP_X) / 2 * (r % 2 if len(rows) > 1 else 0)
            for k, node in enumerate(row):
                out[node] = (x0 + k * (NODE_W + GAP_X), y)
            y += NODE_H + GAP_Y
        y += BAND_GAP - GAP_Y
    return out


def size() -> tuple[float, float]:
    pos = positions()
    width = 2 * MARGIN + PER_ROW * NODE_W + (PER_ROW - 1) * GAP_X + (NODE_W + GAP_X) / 2
    return width, max(y for _x, y in pos.values()) + NODE_H + MARGIN


def _ports(pos) -> dict[tuple[str, str], tuple[float, float, float, float]]:
    """(used, user) -> (x1, y1, x2, y2): leave the used node's bottom, enter the user's top, ports spread by x."""
    edges = [(m, n) for n in graph.nodes() for m in graph.node_uses(n)]
    centre = {n: pos[n][0] + NODE_W / 2 for n in pos}
    out_of: dict[str, list[str]] = {}
    into: dict[str, list[str]] = {}
    for m, n in edges:
        out_of.setdefault(m, []).append(n)
        into.setdefault(n, []).append(m)

    def port(node: str, others: list[str], other: str) -> float:
        ordered = sorted(others, key=lambda o: (centre[o], paper_labels.POSITION[o]))
        k = ordered.index(other)
        return pos[node][0] + 12 + (NODE_W - 24) * (k + 1) / (len(ordered) + 1)

    return {(m, n): (port(m, out_of[m], n), pos[m][1] + NODE_H, port(n, into[n], m), pos[n][1]) for m, n in edges}


def _short(label: str) -> str:
    return label if len(label) <= 29 else label[:28] + "…"


def _legend() -> str:
    parts = ['<g class="legend" font-size="11">',
             f'<text x="{MARGIN}" y="{MARGIN + 12}" font-weight="bold">Border: the statement</text>']
    x = MARGIN
    for k, (s, c) in enumerate(STATEMENT_COLOURS.items()):
        if s == "none":
            continue
        dash = ' stroke-dasharray="4 3"' if s == "unchecked" else ""
        parts.append(f'<rect x="{x}" y="{MARGIN + 20}" width="16" height="12" rx="3" fill="#fff" stroke="{c}" '
                     f'stroke-width="3"{dash}/><text x="{x + 21}" y="{MARGIN + 30}">{s}</text>')
        x += 30 + 7 * len(s)
    parts.append(f'<text x="{MARGIN}" y="{MARGIN + 52}" font-weight="bold">Fill: the proof</text>')
    x = MARGIN
    for s, c in PROOF_COLOURS.items():
        name = "no proof (table, rule)" if s == "none" else s
        parts.append(f'<rect x="{x}" y="{MARGIN + 58}" width="16" height="12" rx="3" fill="{c}" stroke="#888"/>'
                     f'<text x="{x + 21}" y="{MARGIN + 68}">{_e(name)}</text>')
        x += 30 + 7 * len(name)
    x = MARGIN + 560
    parts.append(f'<text x="{x}" y="{MARGIN + 12}" font-weight="bold">Arrows and shapes</text>'
                 f'<line x1="{x}" y1="{MARGIN + 26}" x2="{x + 34}" y2="{MARGIN + 26}" class="edge" '
                 f'marker-end="url(#arrow)"/><text x="{x + 42}" y="{MARGIN + 30}">X → Y: Y uses X (its proof, its '
                 'rule or its cells); the used sit above their users</text>'
                 f'<text x="{x}" y="{MARGIN + 50}">rounded: lemma, theorem · square: table · pill: rule of an '
                 'algorithm</text>'
                 f'<text x="{x}" y="{MARGIN + 68}">click a node: it and its ancestors stay, its entries open '
                 '(link: #focus=LABEL)</text></g>')
    return "".join(parts)


def svg(entries: list[CheckResult]) -> str:
    """The SVG element: legend, arrows, nodes (each a ``<g class="node" data-label=...>`` with a tooltip)."""
    pos = positions()
    width, height = size()
    verdict = verdicts(entries)
    lines = []
    for (m, n), (x1, y1, x2, y2) in sorted(_ports(pos).items(), key=lambda kv: (paper_labels.POSITION[kv[0][1]],
                                                                                paper_labels.POSITION[kv[0][0]])):
        dy = max(18.0, (y2 - y1) / 2.5)
        lines.append(f'<path class="edge" data-from="{_e(m)}" data-to="{_e(n)}" d="M{x1:.1f},{y1:.1f} '
                     f'C{x1:.1f},{y1 + dy:.1f} {x2:.1f},{y2 - dy:.1f} {x2:.1f},{y2 - 2:.1f}" '
                     'marker-end="url(#arrow)"/>')
    nodes = []
    for node in graph.nodes():
        x, y = pos[node]
        statement, proof, sentence = verdict[node]
        kind = _kind(node)
        rx = 4 if kind == "table" else NODE_H / 2 if kind == "rule" else 9
        dash = ' stroke-dasharray="5 3"' if statement in ("unchecked", "none") else ""
        second = (f"statement {statement} · proof {proof}" if kind == "result"
                  else f"{kind} · {'no entry' if statement == 'none' else 'worst ' + statement}")
        nodes.append(
            f'<g class="node" id="{slug(node)}" data-label="{_e(node)}" data-statement="{_e(statement)}" '
            f'data-proof="{_e(proof)}" tabindex="0"><title>{_e(sentence)}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="{rx}" '
            f'fill="{PROOF_COLOURS[proof]}" stroke="{STATEMENT_COLOURS[statement]}" stroke-width="3"{dash}/>'
            f'<text x="{x + NODE_W / 2:.1f}" y="{y + 16:.1f}" class="nl">{_e(_short(node))}</text>'
            f'<text x="{x + NODE_W / 2:.1f}" y="{y + 31:.1f}" class="nv">{_e(second)}</text></g>')
    return (f'<svg id="graph-svg" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="dependency graph of the results">'
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>'
            f'<style>{_SVG_CSS}</style>' + _legend() + '<g class="edges">' + "".join(lines) + "</g>"
            + '<g class="nodes">' + "".join(nodes) + "</g></svg>")


_SVG_CSS = """
.edge{fill:none;stroke:#8a8a8a;stroke-width:1.1;opacity:.55}
.nl{font:600 11.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;text-anchor:middle;fill:#1b1b1b}
.nv{font:10px system-ui,sans-serif;text-anchor:middle;fill:#444}
.legend text{font-family:system-ui,sans-serif;fill:#333}
.node{cursor:pointer} .node:hover rect{filter:brightness(.93)}
.node.dim{opacity:.16} .edge.dim{opacity:.05} .edge.hot{stroke:#333;opacity:.9;stroke-width:1.6}
.node.focus rect{stroke-width:5}
"""


def focus_href(label: str) -> str:
    """The link that focuses ``label`` in the graph (``#focus=LABEL``, URL-encoded)."""
    return "#focus=" + _e(quote(label, safe=":"))


def focus_link(label: str) -> str:
    return f'<a href="{focus_href(label)}" class="focus-link"><code>{_e(label)}</code></a>'


def _blocks(entries: list[CheckResult], anchor) -> str:
    verdict = verdicts(entries)
    out = []
    for node in graph.nodes():
        mine = entries_of(node, entries)
        rows = "".join(f'<li><a href="#{anchor(e.id)}"><code>{_e(e.id)}</code></a> '
                       f'<span class="st st-{_e(e.status)}">{_e(e.status)}</span></li>' for e in mine)
        used = graph.node_uses(node)
        uses = ", ".join(focus_link(u) for u in used)
        sentence = verdict[node][2]
        sentence = sentence[len(node) + 2:] if sentence.startswith(f"{node}: ") else sentence
        out.append(f'<div class="node-entries" data-node="{_e(node)}" hidden><p><strong><code>{_e(node)}</code>'
                   f"</strong>: {_e(sentence)}</p><p>Uses: {uses or 'no result of the paper'}.</p>"
                   f"<p>{len(mine)} ledger entries (opened in the ledger below):</p><ul>{rows}</ul></div>")
    return "".join(out)


def render(entries: list[CheckResult], anchor) -> str:
    """The graph's section: the SVG, the per-node blocks, and the script; ``anchor(id)`` names a ledger row."""
    data = {node: {"anc": list(graph.node_ancestors(node)),
                   "rows": [anchor(e.id) for e in entries_of(node, entries)]} for node in graph.nodes()}
    return ('<div id="graph-wrap">' + svg(entries) + '</div><p class="graph-help">Click a node to keep it and '
            'what it rests on; <a href="#graph" id="graph-clear">show every node</a>.</p>'
            '<div id="graph-entries">' + _blocks(entries, anchor) + "</div>"
            f'<script type="application/json" id="graph-data">{_json(data)}</script>'
            f"<script>{_SCRIPT}</script>")


def _json(data) -> str:
    # inside <script>: no '</' can close the element early
    return jsontext.dumps(data, indent=None, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


CSS = """
#graph-wrap{overflow-x:auto;border:1px solid #e4e4e4;border-radius:.4em;background:#fcfcfc}
#graph-svg{max-width:100%;height:auto;display:block;margin:0 auto}
#graph-entries .node-entries{border-left:4px solid #888;padding:.2em .8em;margin:.6em 0;background:#fafafa}
#graph-entries ul{columns:2;font-size:.88em} tr.in-focus{outline:2px solid #333}
.graph-help{font-size:.9em;color:#555}
"""

_SCRIPT = r"""
(function(){
  var svg = document.getElementById('graph-svg');
  if(!svg){ return; }
  var data = JSON.parse(document.getElementById('graph-data').textContent);
  var nodes = Array.prototype.slice.call(svg.querySelectorAll('g.node'));
  var edges = Array.prototype.slice.call(svg.querySelectorAll('path.edge'));
  var blocks = Array.prototype.slice.call(document.querySelectorAll('#graph-entries .node-entries'));
  function cls(el, name, on){ var c = (el.getAttribute('class') || '').split(' ').filter(function(x){ return x && x !== name; });
    if(on){ c.push(name); } el.setAttribute('class', c.join(' ')); }
  function clear(){
    nodes.forEach(function(n){ cls(n, 'dim', false); cls(n, 'focus', false); });
    edges.forEach(function(e){ cls(e, 'dim', false); cls(e, 'hot', false); });
    blocks.forEach(function(b){ b.hidden = true; });
    Array.prototype.slice.call(document.querySelectorAll('tr.in-focus')).forEach(function(r){ cls(r, 'in-focus', false); });
    svg.removeAttribute('data-focus');
  }
  function focus(label, scroll){
    clear();
    if(!data[label]){ return false; }
    var keep = {}; keep[label] = true; data[label].anc.forEach(function(a){ keep[a] = true; });
    nodes.forEach(function(n){ var l = n.getAttribute('data-label'); cls(n, 'dim', !keep[l]); cls(n, 'focus', l === label); });
    edges.forEach(function(e){ var hot = keep[e.getAttribute('data-from')] && keep[e.getAttribute('data-to')];
      cls(e, 'hot', hot); cls(e, 'dim', !hot); });
    var block = null;
    blocks.forEach(function(b){ var on = b.getAttribute('data-node') === label; b.hidden = !on; if(on){ block = b; } });
    data[label].rows.forEach(function(id){ var r = document.getElementById(id);
      if(r){ cls(r, 'in-focus', true); var d = r.querySelector('details'); if(d){ d.open = true; } } });
    svg.setAttribute('data-focus', label);
    // opened from a part shown alone (#show=proofs): show every part again, the graph among them
    var part = document.getElementById('part-graph');
    if(part && part.style.display === 'none'){
      Array.prototype.slice.call(document.querySelectorAll('div.part')).forEach(function(p){ p.style.display = ''; });
    }
    // a click on a node: its block (just below the graph) into view; a link from elsewhere: the graph
    if(scroll === 'block' && block){ block.scrollIntoView({block: 'nearest'}); }
    else if(scroll){ document.getElementById('graph-wrap').scrollIntoView({block: 'start'}); }
    return true;
  }
  function fromHash(scroll){
    var m = /^#focus=(.+)$/.exec(location.hash);
    if(m){ focus(decodeURIComponent(m[1]), scroll); } else if(location.hash === '#graph'){ clear(); }
  }
  var clicked = false;
  nodes.forEach(function(n){
    function go(){ clicked = true; location.hash = 'focus=' + encodeURIComponent(n.getAttribute('data-label')); }
    n.addEventListener('click', go);
    n.addEventListener('keydown', function(ev){ if(ev.key === 'Enter'){ go(); } });
  });
  window.addEventListener('hashchange', function(){ fromHash(clicked ? 'block' : 'graph'); clicked = false; });
  window.rsbGraph = {focus: focus, clear: clear};
  // index.html#graph-selftest: click a node as a reader would, check the focus, then clear it; the outcome goes to
  // the body attribute data-graph-selftest (pass, or fail: what) and the console (tests/checks/test_report.py)
  function selftest(){
    var label = data['lemma:RTD'] ? 'lemma:RTD' : nodes[0].getAttribute('data-label');
    var node = nodes.filter(function(n){ return n.getAttribute('data-label') === label; })[0];
    node.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    setTimeout(function(){
      var problems = [];
      var keep = data[label].anc.length + 1;
      var dim = svg.querySelectorAll('g.node.dim').length;
      if(svg.getAttribute('data-focus') !== label){ problems.push('no focus after a click'); }
      if(decodeURIComponent(location.hash) !== '#focus=' + label){ problems.push('hash ' + location.hash); }
      if(dim !== nodes.length - keep){ problems.push(dim + ' dimmed, ' + (nodes.length - keep) + ' expected'); }
      if(document.querySelectorAll('tr.in-focus').length !== data[label].rows.length){ problems.push('rows not opened'); }
      document.getElementById('graph-clear').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
      setTimeout(function(){
        if(svg.querySelectorAll('g.node.dim').length !== 0 || svg.hasAttribute('data-focus')){ problems.push('not cleared'); }
        var verdict = problems.length === 0 ? 'pass' : 'fail: ' + problems.join('; ');
        document.body.setAttribute('data-graph-selftest', verdict);
        console.log('RSB-GRAPH-SELFTEST ' + verdict);
      }, 50);
    }, 50);
  }
  function start(){ if(location.hash === '#graph-selftest'){ selftest(); } else { fromHash(false); } }
  // the ledger's rows come later in the page: start once they are parsed
  if(document.readyState === 'loading'){ document.addEventListener('DOMContentLoaded', start); } else { start(); }
})();
"""
