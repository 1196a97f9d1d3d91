"""The typed report summary that the HTML and the PDF reports both render."""

from dedup_gui.core.model import TYPE_ORDER
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.summary import Stat, report_summary


def test_summary_of_the_samples(sample_scan):
    s = report_summary(build_report(sample_scan))
    # the sample folder: 18 pages (4 of them WARC records; 2 without text), 11 other files (one a
    # revisit record), 7 duplicate pairs, 5 pages to drop
    assert s.stats == (
        Stat(18, "pages"), Stat(2, "without usable text"), Stat(0, "files not usable"),
        Stat(11, "other files skipped"), Stat(7, "pairs compared"), Stat(7, "duplicate pairs"),
        Stat(7, "near-duplicate groups"), Stat(5, "keep clusters"), Stat(5, "pages to drop"),
    )  # fmt: skip
    assert [(r.type, r.pairs, r.shown) for r in s.type_rows] == [
        (t, n, None) for t, n in zip(TYPE_ORDER, (4, 1, 1, 1, 0))
    ]
    assert s.subset_note is None and s.pairs_notes == ()
    assert s.made.startswith("Made ") and s.made.endswith(" s.") and s.folder == sample_scan.root


def test_a_subset_says_so_and_counts_what_it_shows(sample_scan):
    shown = sample_scan.pairs[:2]
    s = report_summary(build_report(sample_scan, shown))
    assert s.subset and s.subset_note.startswith(f"This report shows the 2 of {len(sample_scan.pairs)} compared pairs")
    assert sum(r.shown for r in s.type_rows) == 2
    assert sum(r.pairs for r in s.type_rows) == len(sample_scan.pairs)  # the summary counts the whole scan


def test_summary_lists_the_largest_keep_clusters_the_pages_to_act_on_and_reads_the_types(sample_scan):
    from dedup_gui.core.model import DupType
    from dedup_gui.core.reports.summary import TYPE_READING, KeepRow

    s = report_summary(build_report(sample_scan))
    # the samples' five keep clusters, one page to drop each, largest first then by kept page
    # (the crawl archive's page crawled at two URLs keeps its older capture)
    assert s.keep_total == 5
    assert [(k.id, k.keep, k.duplicates, k.links, k.reason) for k in s.largest_keep] == [
        (
            1,
            "mirror/larkmoor-wheelers.example.org/articles/river-trail.html",
            1,
            "1 with identical bytes",
            "oldest file",
        ),
        (2, "site/articles/night-ride-safety.html", 1, "1 content duplicate", "canonical URL"),
        (3, "site/articles/winter-maintenance.html", 1, "1 with identical main text", "canonical URL"),
        (4, "warc/trail-crawl.warc.gz#462", 1, "1 with identical bytes", "oldest file"),
        (5, "zh/spring-tea-picking-utf8.html", 1, "1 full duplicate", "longest main content"),
    ]
    assert isinstance(s.largest_keep[4], KeepRow) and s.largest_keep[4].title == "清明前后上山采茶记 - 云岭茶舍"
    # pages to act on: most duplicated first, the four pages to drop (with the page to keep
    # instead), then the layout and partial pages to review; kept pages are not listed
    assert [(a.path, round(a.duplicate_share, 3), a.action, a.keep) for a in s.act_on] == [
        (
            "site/articles/river-trail.html",
            1.0,
            "drop",
            "mirror/larkmoor-wheelers.example.org/articles/river-trail.html",
        ),
        ("site/archive/winter-maintenance.html", 1.0, "drop", "site/articles/winter-maintenance.html"),
        ("warc/trail-crawl.warc.gz#1090", 1.0, "drop", "warc/trail-crawl.warc.gz#462"),
        ("print/night-ride-safety.html", 0.993, "drop", "site/articles/night-ride-safety.html"),
        ("zh/spring-tea-picking-gbk.html", 0.988, "drop", "zh/spring-tea-picking-utf8.html"),
        ("site/articles/spring-audax-2024.html", 0.486, "review", ""),
        ("site/articles/cafe-stops.html", 0.483, "review", ""),
        ("site/articles/spring-audax-2023.html", 0.476, "review", ""),
        ("elsewhere/vale-gazette-cafes.html", 0.443, "review", ""),
    ]
    assert s.act_on_total == 9 and len(s.pages) == 14  # the 14 pages with text all share some content
    # the four types in plain words, with their pairs and the share of the pages in one
    assert [(r.type, r.pairs, round(r.page_share, 3)) for r in s.readings] == [
        (DupType.FULL, 4, 0.5), (DupType.CONTENT, 1, 0.125), (DupType.LAYOUT, 1, 0.125), (DupType.PARTIAL, 1, 0.125),
    ]  # fmt: skip
    assert all(r.text == TYPE_READING[r.type] for r in s.readings)


def test_one_set_of_words_with_plurals_for_the_types_and_the_keep_links(sample_scan):
    # A user read "4 content duplicate, 3 identical main text, 2 full duplicate" in the report,
    # "full" in the XLSX pairs and "same text" in the window for one relation: one set of words,
    # plural right, and the identical relations said as what they are.
    from dedup_gui.core.model import DupType
    from dedup_gui.core.pipeline.keep_clusters import IDENTICAL_BYTES, IDENTICAL_TEXT, link_count, link_relation
    from dedup_gui.core.reports.write import summary_text

    assert [link_count(link, n) for link, n in (("content", 4), (IDENTICAL_TEXT, 3), ("full", 2), ("full", 1))] == [
        "4 content duplicates", "3 with identical main text", "2 full duplicates", "1 full duplicate"]  # fmt: skip
    assert link_count(IDENTICAL_BYTES, 1) == "1 with identical bytes"
    assert (link_relation("full"), link_relation(IDENTICAL_TEXT)) == ("full duplicate of", "identical main text to")
    assert [DupType.FULL.count_text(1_946), DupType.CONTENT.count_text(1), DupType.DISTINCT.count_text(877)] == [
        "1,946 full duplicates", "1 content duplicate", "877 distinct"]  # fmt: skip
    assert (
        "pairs:    7 compared: 4 full duplicates, 1 content duplicate, 1 layout duplicate, 1 partial duplicate, "
        "0 distinct"
    ) in summary_text(sample_scan)


def test_the_keep_section_starts_with_the_advice_and_folds_the_whole_rule(sample_scan):
    # A user's "What to keep" opened with the 1,700-character rule: now one line of the criteria
    # in order, the plan, then the whole rule folded (HTML) or as a small note at the end (PDF).
    from dedup_gui.core.pipeline.keep import keep_rule_line
    from dedup_gui.core.reports.html import html_from_report
    from dedup_gui.core.reports.model import build_report

    line = (
        "Kept: the page at its canonical URL, else the page in the newest released version folder, else the "
        "longest main content, else the oldest file."
    )
    assert keep_rule_line() == line
    report = build_report(sample_scan)
    html = html_from_report(report, charts=False)
    keep = html[html.index("<section id='keep'>") : html.index("<section id='pairs'>")]
    assert keep.index(line) < keep.index("<table") < keep.index("<details") < keep.index("A keep cluster is")
    assert "<summary>The keep rule in full</summary>" in keep
    # (the PDF's keep section: tests/test_pdf_layout.py)
