"""The client summary: how much of a site's content is duplicated (Siteliner's measure), the
share of pages of each duplicate type, and the same by site section."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dedup_gui.core.model import DupType
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.site_share import (
    duplicate_pages_by_type,
    page_duplicate_shares,
    section_rows,
    site_duplicate_share,
)
from dedup_gui.core.reports.summary import report_summary

from .test_keep_clusters import page, pair, result_of


def shingled(path: str, shingles: list[int], words: int):
    return replace(page(path), shingles=np.array(shingles, np.uint32), word_count=words)


def small_site():
    pages = [
        shingled("blog/a.html", [1, 2, 3, 4], 10),  # half of it is also on b
        shingled("blog/b.html", [3, 4, 5, 6], 10),
        shingled("docs/c.html", [7, 8], 20),  # its own
    ]
    return result_of(pages, [pair(0, 1, DupType.LAYOUT, 0.5), pair(0, 2, DupType.DISTINCT, 0.1)])


def test_the_sites_duplicate_share_by_words():
    result = small_site()
    assert page_duplicate_shares(result).tolist() == [0.5, 0.5, 0.0]
    # (10 x 0.5 + 10 x 0.5 + 20 x 0) / 40 words
    assert site_duplicate_share(result) == pytest.approx(0.25)
    shares = duplicate_pages_by_type(result)
    assert shares[DupType.LAYOUT] == pytest.approx(2 / 3) and shares[DupType.FULL] == 0.0
    rows = section_rows(result)
    assert [(r.section, r.pages, r.duplicate_pages, r.duplicate_share) for r in rows] == [
        ("blog", 2, 2, 0.5),
        ("docs", 1, 0, 0.0),
    ]


def test_the_report_says_it_first_and_keeps_the_engine_settings_for_the_appendix():
    from dedup_gui.core.reports.html import html_from_report

    report = build_report(small_site(), excerpt_limit=0)
    summary = report_summary(report)
    assert summary.headline.startswith("25% of this site's main content also appears on other pages of it")
    html = html_from_report(report, charts=False)
    assert html.index("25% of this site&#x27;s main content") < html.index("Pairs by type")
    assert html.index("For engineers: thresholds and scan settings") > html.index("Files that could not be used")
    assert html.index("num_perm") > html.index("For engineers")  # engine settings after everything else


def test_page_rows_say_what_to_do_with_each_duplicated_page():
    from dedup_gui.core.reports.site_share import page_rows

    result = small_site()
    report = build_report(result, mtime=lambda _page: 0.0)
    rows = page_rows(result, page_duplicate_shares(result), report.keep_cluster_of)
    # a and b are layout duplicates (no keep cluster): both to review; c shares nothing, so it is
    # not listed; ties of share and words go by path
    assert [(r.path, r.section, r.duplicate_share, r.pairs, r.action, r.keep) for r in rows] == [
        ("blog/a.html", "blog", 0.5, 1, "review", ""),
        ("blog/b.html", "blog", 0.5, 1, "review", ""),
    ]
    full = replace(result, pairs=[pair(0, 1, DupType.FULL, 0.99)])
    report = build_report(full, mtime=lambda _page: 0.0)
    rows = page_rows(full, page_duplicate_shares(full), report.keep_cluster_of)
    # a full pair: one page is kept (the first path, every other rule tied), the other dropped for it
    assert [(r.path, r.action, r.keep) for r in rows] == [
        ("blog/a.html", "keep", ""),
        ("blog/b.html", "drop", "blog/a.html"),
    ]


def test_sections_say_which_section_holds_the_kept_copies():
    # Two versions of one page, full duplicates: each section's content is 100% duplicated,
    # which alone reads as if both were to go; the keep rule keeps the newer version folder's
    # copy, so v2 has 1 kept and 0 to drop, v1 0 kept and 1 to drop.
    pages = [shingled("v1/a.html", [1, 2, 3], 10), shingled("v2/a.html", [1, 2, 3], 10)]
    result = result_of(pages, [pair(0, 1, DupType.FULL, 1.0)])
    report = build_report(result, mtime=lambda _page: 0.0)
    rows = section_rows(result, keep_of=report.keep_cluster_of)
    assert [(r.section, r.duplicate_share, r.kept, r.to_drop) for r in rows] == [
        ("v1", 1.0, 0, 1),
        ("v2", 1.0, 1, 0),
    ]
    from dedup_gui.core.reports.html import html_from_report

    html = html_from_report(report, charts=False)
    assert "<th class='n'>kept</th><th class='n'>to drop</th>" in html
    assert "<td>v2</td><td class='n'>1</td><td class='n'>1</td><td class='n'>1</td><td class='n'>0</td>" in html
