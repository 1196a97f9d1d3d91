"""The HTML report of a big site: under 10 MB at 100,000 pages, every big table capped with a
line saying so, and its one script pinned by the CSP hash, with hostile titles and paths inert.

The site is synthetic (``tests/synthetic_site.py``): model objects built directly, no files.
``benchmarks/bench_report.py`` times the same report in Chromium.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import replace

import pytest

from dedup_gui.core.reports.html import html_from_report
from dedup_gui.core.reports.html_tables import GROUP_PAGES, KEEP_ROWS, PAGE_ROWS
from dedup_gui.core.reports.model import PAIR_LIMIT, build_report
from dedup_gui.core.reports.table_script import TABLE_SCRIPT
from dedup_gui.core.reports.tables import keep_plan_rows

from ..synthetic_site import synthetic_result
from .test_report import _assert_inert, _parse

MB = 1_000_000


def _report(n_pages: int):
    return build_report(synthetic_result(n_pages), mtime=lambda _page: 0.0)


def test_a_16000_page_report_is_capped_and_small():
    # 16,000 pages, 14,000 duplicate pairs, 4,000 groups, about 5,900 pages to drop: every big
    # table is past its cap, so the report is about as large as it gets (only the 20 sections and
    # the charts, left out here, are not capped); the 100,000-page test below is marked slow.
    report = _report(16_000)
    doc = html_from_report(report, charts=False)
    size = len(doc.encode("utf-8"))
    assert size < 8 * MB, size  # 10 MB less room for the charts (~0.3 MB)
    parsed = _parse(doc)
    rows = {t: 0 for t in ("pairs", "pages", "keepplan", "groups")}
    table = None
    for tag, attrs in parsed.tags:
        if tag == "table":
            table = next((c for c in attrs.get("class", "").split() if c in rows), None)
        elif tag == "tr" and table:
            rows[table] += 1
    # PAIR_LIMIT pairs (shared among the four types), PAGE_ROWS pages, KEEP_ROWS pages to drop,
    # groups of four pages until GROUP_PAGES pages; each with its header row
    assert rows == {
        "pairs": PAIR_LIMIT + 1,
        "pages": PAGE_ROWS + 1,
        "keepplan": KEEP_ROWS + 1,
        "groups": 1 + GROUP_PAGES // 4,
    }
    drops = len(keep_plan_rows(report))
    assert drops > KEEP_ROWS
    text = " ".join(" ".join(parsed.text).split())
    for note in (
        "Full duplicates (the most similar): 1,250 of 4,000 shown; the CSV, XLSX and JSON exports hold all 4,000.",
        "Partial duplicates (the most similar): 1,250 of 2,000 shown;",
        f"Pages (the most duplicated): {PAGE_ROWS:,} of 16,000 shown;",
        f"Pages to drop (the largest keep clusters): {KEEP_ROWS:,} of {drops:,} shown; the keep CSV, XLSX and JSON",
        f"Near-duplicate groups: {GROUP_PAGES // 4:,} of 4,000 shown;",
        "Keep clusters (the largest): 10 of 4,000 shown;",
    ):
        assert note in text, note


@pytest.mark.slow
def test_the_100000_page_report_is_under_10_mb():
    doc = html_from_report(
        _report(100_000), charts=True
    )  # about 40 s on a busy 2-core machine: the map draws 87,500 points
    assert len(doc.encode("utf-8")) < 10 * MB


def test_the_table_script_is_pinned_by_its_csp_hash(sample_scan):
    doc = html_from_report(build_report(sample_scan), charts=False)
    (script,) = re.findall(r"<script>(.*?)</script>", doc, flags=re.DOTALL)
    assert script == TABLE_SCRIPT
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    (csp,) = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', doc)
    # nothing remote, and no script but this one: no 'unsafe-inline', no other source
    assert csp == (f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-{digest}'")
    # the sortable tables, and the filters the script builds from their headings
    assert doc.count("<table class='sortable") == 5  # pages to act on, keep plan, pairs, pages, groups
    assert "data-filter='select'" in doc and "data-filter='min'" in doc and "data-filter='text'" in doc


HOSTILE_TITLE = '</script><script>document.title=\'PWNED\'</script>=HYPERLINK("http://evil.example","x")'
HOSTILE_PATH = "</script><img src=x onerror=alert(1)>/=1+1.html"


def test_script_and_formula_titles_and_paths_stay_inert_with_the_script():
    result = synthetic_result(8)
    pages = list(result.pages)
    pages[0] = replace(pages[0], title=HOSTILE_TITLE)
    pages[1] = replace(pages[1], path=HOSTILE_PATH, title=HOSTILE_TITLE)
    doc = html_from_report(build_report(replace(result, pages=pages), mtime=lambda _page: 0.0), charts=False)
    _assert_inert(doc)  # one script, ours, whole: the titles' </script> did not end it early
    assert doc.count("</script>") == 1 and doc.count("<script>") == 1
    text = "".join(_parse(doc).text)
    assert HOSTILE_TITLE in text and HOSTILE_PATH in text  # shown whole, as text
    assert doc.index(TABLE_SCRIPT) > doc.index("</main>")  # page strings never in the script
