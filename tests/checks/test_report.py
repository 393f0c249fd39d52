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
