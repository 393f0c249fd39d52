"""``rsb report``: one self-contained page, and the page in a real headless browser (Chromium)."""

import html
import re
import shutil
import subprocess

import pytest

from proofs_checks import paper_labels, report
from proofs_checks.cli import main

#: The browsers tried, in order (Debian's package installs ``chromium``).
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
HEADLESS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking")


def _browser() -> str | None:
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


@pytest.fixture(scope="module")
def page(ledger, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    (out / "from-out.png").write_bytes((report.DOCS_FIGURES / "vs-rho.png").read_bytes()
                                       if (report.DOCS_FIGURES / "vs-rho.png").exists() else b"\x89PNG\r\n\x1a\n")
    path = report.write(ledger, out)
    return path, path.read_text()


def test_the_page_is_self_contained(page, ledger):
    path, text = page
    assert path.name == "index.html" and text.startswith("<!DOCTYPE html>")
    # nothing from the network: no external script, style sheet, image, font or import
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//)""", text, re.I)
    assert "<link" not in text and "@import" not in text and not re.search(r"url\(\s*['\"]?https?:", text)
    assert not re.search(r"<script[^>]*\bsrc=", text)
    for r in ledger:  # every ledger id and its evidence
        assert f'id="{report.anchor(r.id)}"' in text, r.id
        assert html.escape(r.evidence, quote=True) in text, r.id
    assert len({report.anchor(r.id) for r in ledger}) == len(ledger)
    # one section per lemma and theorem, the summary line, the filters
    assert text.count('<section class="proof"') == len(paper_labels.RESULTS)
    assert html.escape(report.summary(ledger)) in text
    assert all(f'value="{s}"' in text for s in ("verified", "refuted", "loose", "conditional", "vacuous"))
    # the figures of the output directory and of docs/figures, embedded
    assert "from-out.png" in text
    figs = sorted(p.name for p in report.DOCS_FIGURES.glob("*.png")) if report.DOCS_FIGURES.is_dir() else []
    assert text.count('src="data:image/png;base64,') == len(set(figs) | {"from-out.png"})


def test_report_refuses_a_bad_directory(tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("x")
    assert main(["report", "--out", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "argument '--out'" in err and len(err.strip().splitlines()) == 1
    assert target.read_text() == "x"


def test_the_page_in_a_headless_browser(page, tmp_path):
    """Chromium (Debian's package) opens the page: its self-test drives the status filters and the search and
    records the outcome in the DOM; a screenshot is a real, non-blank picture.  Skipped when no browser is
    installed (CI installs none unless .ci/run does)."""
    browser = _browser()
    if browser is None:
        pytest.skip(f"no headless browser installed (tried {', '.join(BROWSERS)}); install Debian's chromium "
                    "to run this test")
    path, _ = page
    url = path.resolve().as_uri()
    dom = subprocess.run([browser, *HEADLESS, "--dump-dom", url + "#selftest"], capture_output=True, text=True,
                         timeout=180)
    verdict = re.search(r'data-selftest="([^"]*)"', dom.stdout)
    assert verdict is not None, dom.stderr[-2000:]
    assert verdict.group(1) == "pass", verdict.group(1)
    shot = tmp_path / "shot.png"
    subprocess.run([browser, *HEADLESS, f"--screenshot={shot}", "--window-size=1400,1800", url + "#show=proofs"],
                   capture_output=True, timeout=180)
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image as mpimg

    pixels = mpimg.imread(shot)
    assert pixels.shape[0] == 1800 and pixels.shape[1] == 1400
    assert float(pixels[..., :3].std()) > 0.05  # not blank: text and coloured steps


# --- the dependency graph (proofs_checks/graph_svg.py) ------------------------------------------------------------

def _svg(text: str) -> str:
    found = re.findall(r"<svg id=\"graph-svg\".*?</svg>", text, re.S)
    assert len(found) == 1
    return found[0]


def test_the_graph_is_one_self_contained_svg_with_every_result(page, ledger):
    from proofs_checks import findings, graph, graph_svg

    _, text = page
    svg = _svg(text)
    # self-contained: no external reference of any kind inside the SVG (its only url() is its own marker)
    assert not re.search(r"(href|src)\s*=", svg) and "@import" not in svg
    assert re.findall(r"url\(([^)]*)\)", svg) == ["#arrow"] * len(re.findall(r"url\(", svg))
    labels = [html.unescape(x) for x in re.findall(r'<g class="node" id="[^"]+" data-label="([^"]+)"', svg)]
    assert labels == list(graph.nodes())
    assert set(paper_labels.RESULTS) <= set(labels) and {"table:table_regrets", "table:table_risks",
                                                         "table:literature_comparison"} <= set(labels)
    # each node shows its bottom line: border = statement, fill = proof
    lines = {b.label: b for b in findings.bottom_lines(ledger)}
    for label, st, pr, fill, stroke in re.findall(
            r'data-label="([^"]+)" data-statement="([^"]+)" data-proof="([^"]+)"[^>]*>.*?<rect [^>]*fill="([^"]+)" '
            r'stroke="([^"]+)"', svg):
        label = html.unescape(label)
        if label in lines:
            assert (st, pr) == (lines[label].statement, lines[label].proof), label
        assert fill == graph_svg.PROOF_COLOURS[pr] and stroke == graph_svg.STATEMENT_COLOURS[st], label
    # one arrow per use, and the legend
    assert svg.count('<path class="edge"') == sum(len(graph.node_uses(n)) for n in graph.nodes())
    assert "Border: the statement" in svg and "Fill: the proof" in svg
    assert all(f">{s}</text>" in svg for s in ("verified", "refuted", "conditional", "complete", "gap", "broken"))
    # a block per node, with links to its ledger rows, and the data the script focuses with
    for label in graph.nodes():
        assert f'data-node="{html.escape(label, quote=True)}"' in text, label
    assert f'href="#{report.anchor("lemma:RTD#q")}"' in text


def test_the_graph_layout_has_no_overlap_and_readable_labels():
    """The drawing's geometry, without a browser: nodes do not overlap, stay inside the picture, and their text
    fits (11.5 px monospace label, 10 px second line)."""
    from proofs_checks import graph, graph_svg

    pos = graph_svg.positions()
    width, height = graph_svg.size()
    boxes = [(x, y, x + graph_svg.NODE_W, y + graph_svg.NODE_H) for x, y in pos.values()]
    for k, a in enumerate(boxes):
        assert 0 <= a[0] and a[2] <= width and graph_svg.LEGEND_H <= a[1] and a[3] <= height
        for b in boxes[k + 1:]:
            assert a[2] + 8 <= b[0] or b[2] + 8 <= a[0] or a[3] + 8 <= b[1] or b[3] + 8 <= a[1], (a, b)
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    def width(text, family, size, weight="normal"):  # the fonts Debian's chromium resolves (DejaVu)
        return TextPath((0, 0), text, size=size, prop=FontProperties(family=family, weight=weight)).get_extents().width

    for n in graph.nodes():
        assert width(graph_svg._short(n), "DejaVu Sans Mono", 11.5, "bold") <= graph_svg.NODE_W - 8, n
    for s in graph_svg.STATEMENT_COLOURS:
        for p in graph_svg.PROOF_COLOURS:
            assert width(f"statement {s} · proof {p}", "DejaVu Sans", 10) <= graph_svg.NODE_W - 8, (s, p)
    # users sit below what they use
    for n in graph.nodes():
        assert all(pos[m][1] < pos[n][1] for m in graph.node_uses(n)), n


def test_focus_by_url_in_a_headless_browser(page):
    """``index.html#focus=lemma:RTD`` keeps lemma:RTD and its ancestors, dims the rest, shows its block and opens
    its ledger rows (read from the DOM after the script ran)."""
    from proofs_checks import graph

    browser = _browser()
    if browser is None:
        pytest.skip(f"no headless browser installed (tried {', '.join(BROWSERS)}); install Debian's chromium "
                    "to run this test")
    path, _ = page
    dom = subprocess.run([browser, *HEADLESS, "--dump-dom", path.resolve().as_uri() + "#focus=lemma%3ARTD"],
                         capture_output=True, text=True, timeout=180).stdout
    assert 'data-focus="lemma:RTD"' in dom
    classes = {html.unescape(label): cls for cls, label in
               re.findall(r'<g class="([^"]*)" id="[^"]+" data-label="([^"]+)"', dom)}
    assert classes["lemma:RTD"].split() == ["node", "focus"]
    keep = {"lemma:RTD", *graph.node_ancestors("lemma:RTD")}
    assert keep == {"lemma:RTD", "lemma:lipschitz-wasserstein"}
    for label, cls in classes.items():
        assert ("dim" in cls.split()) == (label not in keep), label
    assert re.search(r'<div class="node-entries" data-node="lemma:RTD">', dom)  # shown (no hidden attribute)
    opened = re.findall(r'<tr class="[^"]*in-focus[^"]*" id="([^"]+)"', dom)
    assert report.anchor("lemma:RTD#q") in opened and all(a.startswith("e-lemma-RTD-") for a in opened)
    assert dom.count("<details open") == len(opened)


def test_a_click_on_a_node_in_a_headless_browser(page):
    """The graph's self-test (``#graph-selftest``) clicks a node as a reader would: the focus, the hash, the dimmed
    nodes and the opened rows are checked in the page, then 'show every node' clears the focus."""
    browser = _browser()
    if browser is None:
        pytest.skip(f"no headless browser installed (tried {', '.join(BROWSERS)}); install Debian's chromium "
                    "to run this test")
    path, _ = page
    dom = subprocess.run([browser, *HEADLESS, "--virtual-time-budget=5000", "--dump-dom",
                          path.resolve().as_uri() + "#graph-selftest"], capture_output=True, text=True,
                         timeout=180).stdout
    verdict = re.search(r'<body[^>]*data-graph-selftest="([^"]*)"', dom)
    assert verdict is not None and verdict.group(1) == "pass", verdict and verdict.group(1)


def test_the_report_opens_with_what_matters(ledger):
    """The page opens with the findings (one per cause, each with its members), then the bottom lines, before the
    summary, the graph and the ledger."""
    from proofs_checks import findings
    from proofs_checks.report import render

    page = render(ledger, [])
    assert page.index('id="what-matters"') < page.index('id="summary"') < page.index('id="graph"')
    first = findings.what_matters(ledger)[0]
    import html

    assert html.escape(first.title) in page and all(html.escape(i) in page for i in first.ids)
    assert "Bottom lines" in page
