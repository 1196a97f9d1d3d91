"""The HTML report in a real browser: Debian's headless Chromium opens it, it renders with its
sort/filter script running, no script error, no Content-Security-Policy violation and no blocked
load, the client summary on the first screen, and page titles holding ``<script>`` or
``<img onerror=...>`` stay inert text, with the report's own script present.

Needs ``chromium`` (Debian: ``apt-get install chromium``); skipped, with the reason, where it is
not installed.  ``.ci/run`` installs it.
"""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.export import export

from .core.test_report import EVIL_NAME, EVIL_TITLE, make_evil_folder

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium for the browser check (apt-get install chromium)"
)


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run headless Chromium, isolated: its own profile, no network services, no sandbox (root)."""
    profile = tmp_path / "profile"
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
        "--hide-scrollbars", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args,
    ]  # fmt: skip
    return subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=180)


class _Dom(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title:
            self.title += data


def _console_problems(stderr: str) -> list[str]:
    """Lines where the page logged a script error or the CSP blocked something."""
    markers = ("Uncaught", "Refused to", "Content Security Policy", "ERR_", "CONSOLE")
    return [line for line in stderr.splitlines() if any(m in line for m in markers) and "file://" in line]


@pytest.fixture(scope="module")
def evil_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    result = scan_folder(make_evil_folder(root / "evil"), ScanSettings(workers=1, use_cache=False))
    return export(result, root / "report.html")


def test_evil_titles_stay_text_in_the_browser(evil_report, tmp_path):
    proc = chromium(tmp_path, "--dump-dom", evil_report.as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = _Dom()
    dom.feed(proc.stdout)
    tags = [t for t, _ in dom.elements]
    assert tags.count("html") == 1 and "main" in tags, "the report did not render"
    # Nothing from a page became an element; the one script is ours, and it ran (it adds the
    # sort buttons and the row counts); no script of a page changed the document.
    assert tags.count("script") == 1 and "img" not in tags, tags
    assert "button" in tags and any(a.get("class") == "count" for t, a in dom.elements if t == "p")
    assert not any(name.startswith("on") for _, attrs in dom.elements for name in attrs)
    assert not any("data-pwned" in attrs for _, attrs in dom.elements)
    assert dom.title.startswith("Duplicate pages in ") and "PWNED" not in dom.title
    text = "".join(dom.text)
    assert EVIL_TITLE in text and EVIL_NAME in text  # shown whole, as text
    assert not _console_problems(proc.stderr), _console_problems(proc.stderr)


def test_sample_report_renders_without_errors(sample_scan, tmp_path):
    report = export(sample_scan, tmp_path / "samples.html")
    shot = tmp_path / "shot.png"
    proc = chromium(tmp_path, "--window-size=1280,2400", f"--screenshot={shot}", report.as_uri())
    assert proc.returncode == 0 and shot.is_file(), proc.stderr[-2000:]
    assert not _console_problems(proc.stderr), _console_problems(proc.stderr)
    from PIL import Image  # matplotlib's dependency

    image = Image.open(shot).convert("L")
    assert image.size == (1280, 2400)
    assert sum(image.histogram()[:128]) > 10_000, "the screenshot is blank"
    proc = chromium(tmp_path, "--dump-dom", report.as_uri())
    dom = _Dom()
    dom.feed(proc.stdout)
    assert sum(1 for t, _ in dom.elements if t == "svg") == 2  # the two charts
    assert sum(1 for t, _ in dom.elements if t == "article") == 7  # the seven duplicate pairs
    # the script ran: a sort button in each heading of the sortable tables, a filter row, counts
    assert sum(1 for t, a in dom.elements if t == "button" and a.get("class") == "sort") >= 10
    assert any(t == "select" for t, _ in dom.elements) and any(t == "input" for t, _ in dom.elements)
    assert "7 rows" in "".join(dom.text)  # the pairs table's count line


def _has_colour(image, hex_colour: str, tolerance: int = 8, at_least: int = 200) -> bool:
    """Whether at least ``at_least`` pixels of an RGB image are within ``tolerance`` of a colour."""
    want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    close = sum(
        n
        for n, colour in (image.getcolors(1 << 20) or [])
        if max(abs(a - b) for a, b in zip(colour, want)) <= tolerance
    )
    return close >= at_least


def test_the_script_runs_under_the_csp_and_the_summary_is_on_the_first_screen(sample_scan, tmp_path):
    from PIL import Image  # matplotlib's dependency

    from dedup_gui.core.model import TYPE_ORDER, DupType
    from dedup_gui.core.views.colors import TYPE_COLORS

    report = export(sample_scan, tmp_path / "samples.html")
    shot = tmp_path / "first-screen.png"
    proc = chromium(tmp_path, "--window-size=1280,900", f"--screenshot={shot}", report.as_uri())
    assert proc.returncode == 0 and shot.is_file(), proc.stderr[-2000:]
    # The CSP allows the script by its hash: a mismatch would log "Refused to execute inline script
    # because it violates the following Content Security Policy directive".
    assert "Content Security Policy" not in proc.stderr, proc.stderr[-2000:]
    assert not _console_problems(proc.stderr), _console_problems(proc.stderr)
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 900)
    # The summary's table of the four types, each with its coloured badge, is on the first screen
    # (before, the engine's settings came first); the grey of "distinct" is not in that table.
    for t in TYPE_ORDER:
        if t is not DupType.DISTINCT:
            assert _has_colour(image, TYPE_COLORS[t]), t
