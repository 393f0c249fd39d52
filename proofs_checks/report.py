"""``rsb report``: the ledger as one self-contained HTML page a reviewer can read offline.

:func:`render` builds the page from ledger entries (it runs nothing):

* the summary (counts by status) and what the paper's labels are (:mod:`proofs_checks.paper_labels`);
* the ledger as a table, filterable by status (check boxes) and searchable (one text field over id, claim,
  printed and derived values and evidence); every entry's evidence in a collapsible cell;
* the dependency graph of the results (:mod:`proofs_checks.graph_svg`): one inline SVG, each node's border its
  statement's verdict and its fill its proof's, a legend; a click (or ``index.html#focus=LABEL``) keeps the node
  and its ancestors and opens its ledger rows;
* one section per lemma and theorem (:mod:`proofs_checks.proof_view`): the statement's entries and the steps
  in the paper's order, coloured by status, the first broken step marked;
* the figures found in the output directory or in ``docs/figures``, embedded as ``data:`` URIs.

Nothing is loaded from the network: the CSS and the script are inline, the figures are data URIs.  Opened as
``index.html#show=proofs`` (``summary``, ``graph``, ``ledger``, ``figures``) the page shows that part alone, and as
``index.html#status=refuted,conditional`` with the ledger filtered.  The script
has a self-test: opened as ``index.html#selftest`` it exercises the filters and records the outcome in
``<body data-selftest="pass|fail: ...">`` and on the console (``RSB-SELFTEST ...``), which a headless browser run
can read (``tests/checks/test_report.py``).
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from rsb_theory.safe_files import MAX_CAPTION, MAX_FIGURE, read_bytes, read_head

from . import findings, graph_svg, paper_labels, proof_view
from .ledger import STATUSES, CheckResult, counts, summary

#: Colours of the statuses (background, text), also used by the proofs' steps.
COLOURS = {
    "verified": ("#d8f0d8", "#1d5e1d"),
    "loose": ("#e3ecfa", "#1f4a8a"),
    "vacuous": ("#eeeeee", "#555555"),
    "conditional": ("#fdf0cf", "#7a5300"),
    "refuted": ("#f9d6d5", "#8b1a1a"),
    "unchecked": ("#ffffff", "#777777"),
    "definition": ("#f6f3fb", "#5b4a7a"),
}
#: Where the project's figures are in a source checkout (the page embeds those that exist).
DOCS_FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"
#: Figure files embedded (by suffix) and their MIME types.
FIGURE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def anchor(ident: str) -> str:
    """An HTML id for a ledger id (stable, readable, unique for distinct ids)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ident).strip("-")
    return f"e-{slug}-{sum(map(ord, ident)) % 9973}"


def figures(out: Path, docs: Path | None = DOCS_FIGURES) -> list[tuple[str, str, str, str]]:
    """(name, MIME type, base64 data, caption) of the figures: the user's own first, then the pre-computed ones.

    The user's figures are those in ``out`` and its immediate sub-directories (``rsb reproduce``,
    ``rsb plot bounds`` and ``rsb simulate --out`` each write into a directory of their own); a
    figure of ``docs`` is shown only when no figure of the user has its name.  Each caption is
    :func:`caption` of the files written beside the figure.  Only regular files of at most
    :data:`rsb_theory.safe_files.MAX_FIGURE` bytes are embedded: a symbolic link, a FIFO, a device or a larger file
    under a figure's name is left out (the page is published; a link planted in ``out`` must not copy another file
    into it).
    """
    found: dict[str, tuple[Path, bytes, bool]] = {}
    out_dirs = [out] + ([d for d in sorted(out.iterdir()) if d.is_dir() and not d.is_symlink() and d.name != "runs"]
                        if out.is_dir() else [])  # a linked sub-directory is not followed out
    for folder, own in [(d, True) for d in out_dirs] + [(docs, False)]:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in FIGURE_TYPES:
                name = path.name if folder in (out, docs) else f"{folder.name}/{path.name}"
                if path.name not in {p.name for p, _d, _o in found.values()}:
                    try:
                        data = read_bytes(path, MAX_FIGURE)
                    except OSError:  # rsb_theory.safe_files.UnsafeFile included
                        continue  # not a figure rsb may embed (a link, a special file, too large, unreadable)
                    found[name] = (path, data, own)
    return [(name, FIGURE_TYPES[p.suffix.lower()], base64.b64encode(data).decode("ascii"), caption(p, own))
            for name, (p, data, own) in found.items()]


def _caption_text(path: Path) -> str | None:
    """The first :data:`~rsb_theory.safe_files.MAX_CAPTION` bytes of a file beside a figure, as text, through the one
    reader (a regular file, no link, a stated size: the page is published, a planted link or a huge file must not
    reach it); None when there is no such file or it is refused."""
    try:
        data = read_head(path, MAX_CAPTION)
    except OSError:  # rsb_theory.safe_files.UnsafeFile included: no caption from it
        return None
    return data.decode("utf-8", errors="replace")


def _csv_header(path: Path) -> dict | None:
    """The JSON of the ``#`` lines of a CSV written by :func:`proofs_checks.outputs.csv_text` (None: none)."""
    import json

    text = _caption_text(path)
    if text is None:
        return None
    lines = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line[1:])
    try:
        return json.loads("".join(lines)) if lines else None
    except ValueError:
        return None


def _flags(pairs) -> str:
    return "".join(f" --{k} {v}" for k, v in pairs if v not in (None, "", [], {}))


def _paper(label) -> str:
    """The paper's figure label, or what an experiment beyond the paper refers to."""
    return label if str(label).startswith("fig:") else f"no figure of the paper (beyond it; {label})"


def caption(path: Path, own: bool) -> str:
    """The caption of a figure: its source command, trials and the paper's figure label, read off its files.

    ``rsb reproduce`` and ``rsb plot bounds`` write ``<stem>.csv`` beside the figure with the experiment in
    its header; ``rsb simulate --out`` writes ``simulate.json``.  A pre-computed figure of ``docs/figures``
    has no files beside it: its command and the paper's label come from :mod:`proofs_checks.experiments`.
    """
    import json

    from .experiments import COMMAND_NAMES, get_experiment

    where = f"your run ({path.parent})" if own else "pre-computed (docs/figures; run it yourself to replace it)"
    head = _csv_header(path.with_suffix(".csv"))
    if head and isinstance(head.get("experiment"), dict):
        exp = head["experiment"]
        return (f"{exp.get('title', path.stem)}. Paper: {_paper(exp.get('figure'))}. Source: rsb reproduce "
                f"{exp.get('name', path.stem)} --out DIR --trials {head.get('trials')} --seed {head.get('seed')}; "
                f"{head.get('trials')} trials per point; {where}.")
    if head and "algo" in head and "Ts" in head:
        inst = _flags([("p", ",".join(f"{x:g}" for x in head.get("p") or []) or None),
                       ("arms", f'"{head["arms"]}"' if head.get("arms") else None)])
        params = "".join(f" --param {k}={v}" for k, v in (head.get("params") or {}).items())
        opts = _flags([("rho", head.get("rho")), ("radius-scale", head.get("radius_scale")),
                       ("explore", head.get("explore"))])
        return (f"The theorem's bound beside the empirical regret (no figure of the paper). Source: rsb plot bounds "
                f"--dr '{head.get('dr')}'{params}{inst} --algo {head['algo']} --out DIR --Ts "
                f"{','.join(str(t) for t in head['Ts'])} --trials {head.get('trials')} --seed {head.get('seed')}{opts}; "
                f"{head.get('trials')} trials per horizon; {where}.")
    text = _caption_text(path.parent / "simulate.json") if path.stem == "trajectory" else None
    if text is not None:
        try:
            s = json.loads(text)
        except ValueError:
            s = {}
        if not isinstance(s, dict):
            s = {}
        return (f"Regret over time of one run (no figure of the paper). Source: rsb simulate --algo {s.get('algo')} "
                f"--dr '{s.get('distortion')}' --T {s.get('T')} --trials {s.get('trials')} --record ... --out DIR; "
                f"{s.get('trials')} trials; {where}.")
    if path.stem in COMMAND_NAMES:
        exp = get_experiment(path.stem)
        return (f"{exp.title}. Paper: {_paper(exp.figure)}. Source: rsb reproduce {exp.name} --out DIR (trials: not recorded "
                f"beside this figure); {where}.")
    return f"{path.name}: no record of the command that drew it; {where}."


def _badge(status: str) -> str:
    return f'<span class="st st-{_e(status)}">{_e(status)}</span>'


def _summary_html(results: list[CheckResult]) -> str:
    c = counts(results)
    kinds = {k: sum(x.kind == k for x in paper_labels.LABELS) for k in paper_labels.KINDS}
    claim_labels = [x.label for x in paper_labels.LABELS if x.kind == "claim"]
    checked_labels = {lab for r in results for lab in _labels_of(r.id)}
    with_entry = sum(lab in checked_labels for lab in claim_labels)
    badges = " ".join(f'<button type="button" class="st st-{s}" data-only="{s}" title="show only {s}">{n} {s}'
                      f"</button>" for s, n in c.items() if n)
    return (f'<p id="summary-line">{_e(summary(results))}</p><p>{badges}</p>'
            f"<p>The paper has {len(paper_labels.LABELS)} labels: "
            + ", ".join(f"{n} {k}" for k, n in kinds.items())
            + f". {with_entry} of the {len(claim_labels)} claim labels have a ledger entry "
              "(<code>rsb labels</code> lists them).</p>")


def _labels_of(ident: str) -> tuple[str, ...]:
    from .registry import labels_checked

    return labels_checked(ident)


def _ledger_html(results: list[CheckResult]) -> str:
    from .certificates import short

    boxes = "".join(f'<label class="st st-{s}"><input type="checkbox" class="status-filter" value="{s}" checked> '
                    f"{s}</label> " for s in STATUSES)
    rows = []
    for r in results:
        text = " ".join((r.id, r.claim, r.paper, r.derived, r.evidence, r.status, r.method)).lower()
        rows.append(
            f'<tr class="entry row-{_e(r.status)}" id="{anchor(r.id)}" data-status="{_e(r.status)}" '
            f'data-text="{_e(text)}"><td class="id"><code>{_e(r.id)}</code></td><td>{_badge(r.status)}'
            + (f'<br><small class="certificate">{_e(short(r.certificate))}</small>' if r.certificate else "")
            + "</td>"
            f"<td>{_e(r.method)}</td><td>{_e(r.paper)}</td><td>{_e(r.derived)}</td>"
            f"<td>{_e(r.claim)}<details><summary>evidence</summary><p class=\"evidence\">{_e(r.evidence)}</p>"
            + (f'<p class="uses">uses: {", ".join(f"<code>{_e(u)}</code>" for u in r.uses)}</p>' if r.uses else "")
            + "</details></td></tr>")
    return (f'<div class="controls"><span>Status:</span> {boxes}'
            '<button type="button" id="all-statuses">all</button> '
            '<input type="search" id="search" placeholder="search id, claim, values, evidence" size="40"> '
            '<span id="shown-count"></span></div>'
            '<table id="ledger"><thead><tr><th>id</th><th>status</th><th>method</th><th>paper</th><th>derived</th>'
            "<th>claim and evidence</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _proof_html(view: proof_view.ProofView) -> str:
    fb = view.first_broken
    used = graph_svg.graph.node_uses(view.result)
    head = (f'<section class="proof" id="proof-{anchor(view.result)}"><h3><code>{_e(view.result)}</code></h3>'
            f"<p>{_e(view.note)}</p>"
            f'<p class="uses">Uses: {", ".join(graph_svg.focus_link(u) for u in used) or "no result of the paper"}'
            f' (<a href="{graph_svg.focus_href(view.result)}">in the graph</a>).</p>')
    if view.statement:
        head += "<p>Statement: " + "; ".join(
            f'<a href="#{anchor(r.id)}"><code>{_e(r.id)}</code></a> {_badge(r.status)}' for r in view.statement) + "</p>"
    if view.attached:  # sketches, remarks, applications at the experiments' setting: not the statement
        head += "<p>Attached (sketch, remark, experiment): " + "; ".join(
            f'<a href="#{anchor(r.id)}"><code>{_e(r.id)}</code></a> ({_e(r.node or "")}) {_badge(r.status)}'
            for r in view.attached) + "</p>"
    steps = []
    for k, s in enumerate(view.steps, start=1):
        entry = (f'<a href="#{anchor(s.entry.id)}"><code>{_e(s.entry.id)}</code></a>: {_e(s.entry.derived)}'
                 if s.entry is not None else "")
        mark = ' <strong class="broken">first broken step</strong>' if s is fb else ""
        steps.append(f'<li class="step row-{_e(s.status)}" data-status="{_e(s.status)}"><code>{_e(s.name)}</code> '
                     f"{_badge(s.status)}{mark} <span class=\"note\">{_e(s.note)}</span>"
                     + (f"<br><span class=\"entry\">{entry}</span>" if entry else "") + "</li>")
    c = view.counts()
    tail = (f"<p>{len(view.steps)} steps" + "".join(f"{', ' if k else ': '}{n} {s}" for k, (s, n) in
                                                     enumerate((s, n) for s, n in c.items() if n))
            + ". First broken step: " + ("none" if fb is None else f"<code>{_e(fb.name)}</code> ({_e(fb.status)})")
            + ".</p>")
    body = f"<ol>{''.join(steps)}</ol>" if steps else "<p>No labelled step.</p>"
    return head + body + tail + "</section>"


def _figures_html(figs: list[tuple[str, str, str, str]]) -> str:
    if not figs:
        return "<p>No figure found in the output directory or in docs/figures.</p>"
    return "".join(f'<figure><img alt="{_e(name)}" src="data:{mime};base64,{data}"><figcaption><b>{_e(name)}</b>: '
                   f"{_e(text)}</figcaption></figure>" for name, mime, data, text in figs)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{margin-bottom:.2em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
code{font-size:.92em} table{border-collapse:collapse;width:100%;font-size:.88em}
th,td{border:1px solid #ddd;padding:.25em .4em;vertical-align:top;text-align:left}
th{background:#f4f4f4;position:sticky;top:0}
.st{display:inline-block;border-radius:.6em;padding:.05em .55em;font-size:.85em;border:1px solid #ccc;margin:.1em}
button.st{cursor:pointer}
.controls{position:sticky;top:0;background:#fff;padding:.5em 0;z-index:2;border-bottom:1px solid #eee}
.controls label{cursor:pointer} .evidence{white-space:pre-wrap;font-size:.9em;max-width:60em}
td.id{white-space:nowrap} details summary{cursor:pointer;color:#555;font-size:.85em}
.proof{border:1px solid #e4e4e4;border-radius:.4em;padding:.3em .9em;margin:.8em 0}
.proof ol{padding-left:1.6em} .step{margin:.15em 0;padding:.15em .4em;border-radius:.3em}
.step .note{color:#444;font-size:.9em} .step .entry{font-size:.85em}
.uses{font-size:.85em;color:#444}
.broken{color:#8b1a1a} figure{display:inline-block;margin:.5em;max-width:46%} figure img{max-width:100%}
nav a{margin-right:1em}
"""


def _status_css() -> str:
    return "".join(f".st-{s}{{background:{bg};color:{fg}}} .row-{s}{{background:{bg}}}"
                   for s, (bg, fg) in COLOURS.items())


_SCRIPT = r"""
(function(){
  var rows = Array.prototype.slice.call(document.querySelectorAll('#ledger tr.entry'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input.status-filter'));
  var search = document.getElementById('search');
  var count = document.getElementById('shown-count');
  function apply(){
    var on = {}; boxes.forEach(function(b){ if(b.checked){ on[b.value] = true; } });
    var q = search.value.trim().toLowerCase(), shown = 0;
    rows.forEach(function(r){
      var ok = on[r.getAttribute('data-status')] === true && (q === '' || r.getAttribute('data-text').indexOf(q) >= 0);
      r.style.display = ok ? '' : 'none'; if(ok){ shown += 1; }
    });
    count.textContent = shown + ' of ' + rows.length + ' entries shown';
    return shown;
  }
  function only(status){ boxes.forEach(function(b){ b.checked = (b.value === status); }); return apply(); }
  function all(){ boxes.forEach(function(b){ b.checked = true; }); search.value = ''; return apply(); }
  boxes.forEach(function(b){ b.addEventListener('change', apply); });
  search.addEventListener('input', apply);
  document.getElementById('all-statuses').addEventListener('click', all);
  Array.prototype.slice.call(document.querySelectorAll('button[data-only]')).forEach(function(b){
    b.addEventListener('click', function(){ only(b.getAttribute('data-only')); });
  });
  window.rsbFilter = {apply: apply, only: only, all: all};
  apply();
  // index.html#status=refuted,conditional: the ledger filtered by status (a link to a view)
  var f = /^#status=([a-z,]+)$/.exec(location.hash);
  if(f){
    var want = f[1].split(',');
    boxes.forEach(function(b){ b.checked = want.indexOf(b.value) >= 0; });
    apply();
  }
  // index.html#show=proofs (or summary, ledger, figures): that part of the page alone
  var m = /^#show=(\w+)$/.exec(location.hash);
  if(m){
    Array.prototype.slice.call(document.querySelectorAll('div.part')).forEach(function(p){
      p.style.display = (p.id === 'part-' + m[1]) ? '' : 'none';
    });
  }
  if(location.hash === '#selftest'){
    var problems = [];
    var n = rows.length;
    if(all() !== n){ problems.push('all statuses do not show every entry'); }
    ['verified','loose','conditional','vacuous','refuted','unchecked'].forEach(function(s){
      var want = rows.filter(function(r){ return r.getAttribute('data-status') === s; }).length;
      var got = only(s);
      var visible = rows.filter(function(r){ return r.style.display !== 'none'; });
      if(got !== want || visible.some(function(r){ return r.getAttribute('data-status') !== s; })){
        problems.push(s + ': ' + got + ' shown, ' + want + ' expected');
      }
    });
    all();
    if(n > 0){
      var id = rows[n - 1].querySelector('td.id').textContent;
      search.value = id.toLowerCase();
      var hits = apply();
      if(hits < 1 || rows[n - 1].style.display === 'none'){ problems.push('search for ' + id + ' hides it'); }
      search.value = 'no-entry-contains-this-text-xyz';
      if(apply() !== 0){ problems.push('a search for nothing shows entries'); }
    }
    all();
    var verdict = problems.length === 0 ? 'pass' : 'fail: ' + problems.join('; ');
    document.body.setAttribute('data-selftest', verdict);
    console.log('RSB-SELFTEST ' + verdict + ' (' + n + ' entries)');
  }
})();
"""


def _what_matters_html(results: list[CheckResult]) -> str:
    """What matters first (:mod:`proofs_checks.findings`): one finding per cause, ranked, each with what a reader
    should conclude and its members (one sentence each, linked to its entry); then the bottom line of every lemma and
    theorem."""
    found = findings.what_matters(results)
    items = "".join(
        f'<li id="finding-{_e(f.key)}"><span class="badge">{_e(f.category)}</span> <strong>{_e(f.title)}</strong> '
        f'({len(f.members)}). {_e(f.conclusion)}<ul>'
        + "".join(f'<li>{_e(m.line)} <a href="#{anchor(m.id)}">entry</a></li>' for m in f.members)
        + "</ul></li>" for f in found)
    lines = "".join(f"<li>{_e(b.sentence)}</li>" for b in findings.bottom_lines(results))
    n = sum(len(f.members) for f in found)
    return (f"<p>{len(found)} findings ({n} entries), one per cause, most consequential first: a false statement, a "
            "wrong rate, experiments that do not test the analysis, systematic proof gaps, a condition that excludes "
            f"a use, constants, typos.</p><ol>{items}</ol><h3>Bottom lines: statement and proof of every lemma and "
            f"theorem</h3><ul>{lines}</ul>")


def render(results: list[CheckResult], figs: list[tuple[str, str, str]], title: str = "rsb claims ledger") -> str:
    """The page (a string) for the entries ``results`` and the figures ``figs`` (:func:`figures`)."""
    views = proof_view.views(results)
    broken = [v for v in views if v.first_broken is not None]
    nav = ('<nav><a href="#what-matters">What matters</a><a href="#graph">Graph</a><a href="#ledger-section">Ledger</a>'
           '<a href="#proofs">Proofs</a><a href="#figures">Figures</a></nav>')
    proofs_intro = (f"<p>{len(views)} lemmas and theorems; {len(broken)} have a broken step (refuted or "
                    "conditional): " + ", ".join(f'<a href="#proof-{anchor(v.result)}"><code>{_e(v.result)}</code></a>'
                                                 for v in broken) + ".</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{_e(title)}</title>"
            f"<style>{_CSS}{graph_svg.CSS}{_status_css()}</style></head><body>"
            f"<h1>{_e(title)}</h1><p>Risk-sensitive Bandits: Arm Mixture Optimality and Regret-efficient Algorithms "
            "(AISTATS 2025), checked claim by claim. Generated by <code>rsb report</code>.</p>" + nav
            + '<div class="part" id="part-matters"><h2 id="what-matters">What matters</h2>'
            + _what_matters_html(results) + "</div>"
            + '<div class="part" id="part-summary"><h2 id="summary">Summary</h2>' + _summary_html(results) + "</div>"
            + '<div class="part" id="part-graph"><h2 id="graph">The results and what they use</h2>'
            + graph_svg.render(results, anchor) + "</div>"
            + '<div class="part" id="part-ledger"><h2 id="ledger-section">Ledger</h2>' + _ledger_html(results)
            + "</div>"
            + '<div class="part" id="part-proofs"><h2 id="proofs">Proofs, step by step</h2>' + proofs_intro
            + "".join(_proof_html(v) for v in views) + "</div>"
            + '<div class="part" id="part-figures"><h2 id="figures">Figures</h2>' + _figures_html(figs) + "</div>"
            + f"<script>{_SCRIPT}</script></body></html>\n")


def write(results: list[CheckResult], out, docs: Path | None = DOCS_FIGURES) -> Path:
    """Write ``out/index.html`` (atomically) and return its path."""
    from .outputs import check_out, write_text

    out = check_out(out)
    page = render(results, figures(out, docs))
    path = out / "index.html"
    write_text(path, page)
    return path
