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
