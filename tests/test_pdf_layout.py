"""The PDF report's layout: the summary's numbers never break over two lines, and a heading
never ends a page without the text it heads (a user's report of the real site showed "1,42 / 2",
"10,1 / 33", and "Pages to act on" at the foot of page 1 with its sentence on page 2)."""

from __future__ import annotations

import io
import unicodedata
from dataclasses import replace

import pytest

from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.summary import Stat, report_summary
from dedup_gui.export import pdf_html
from dedup_gui.export.pdf import pdf_bytes
from dedup_gui.export.pdf_fonts import ensure_app

pypdf = pytest.importorskip("pypdf")

#: The real site's counts (1,422 pages, 10,133 pairs compared, 9,256 duplicate pairs...): eleven
#: boxes, as a scan with redirects has.
BIG_STATS = tuple(
    Stat(n, label)
    for n, label in (
        (1_422, "pages"), (109, "without usable text"), (94, "redirect pages"), (12, "redirects to no page"),
        (0, "files not usable"), (44, "other files skipped"), (10_133, "pairs compared"),
        (9_256, "duplicate pairs"), (73, "near-duplicate groups"), (309, "keep clusters"), (911, "pages to drop"),
    )
)  # fmt: skip


def test_the_summary_counts_are_never_broken_over_two_lines(sample_scan, monkeypatch):
    report = build_report(sample_scan)
    real = report_summary(report)
    monkeypatch.setattr(pdf_html, "report_summary", lambda _r: replace(real, stats=BIG_STATS))
    data = pdf_bytes(report)
    words = set()
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        words.update(unicodedata.normalize("NFKC", page.extract_text()).split())
    # one word each: the old single row of eleven boxes wrapped them as "1,42" + "2", "10,1" + "33"
    for stat in BIG_STATS:
        assert f"{stat.value:,}" in words, stat


def _page_of(doc, block, page_height: float) -> tuple[int, int]:
    rect = doc.documentLayout().blockBoundingRect(block)
    return int(rect.top() // page_height), int((rect.bottom() - 1) // page_height)


def test_a_heading_starts_a_new_page_rather_than_end_one():
    ensure_app()
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QTextDocument

    from dedup_gui.export.pdf_layout import keep_headings_with_next

    page_h = 300.0
    parted = 0
    for filler in range(4, 20):  # move the heading down the page until it lands at its foot
        doc = QTextDocument()
        doc.setPageSize(QSizeF(400, page_h))
        lines = "".join(f"<p>filler line {i}</p>" for i in range(filler))
        doc.setHtml(f"{lines}<h3>Pages to act on</h3><p>{'The pages whose content is duplicated. ' * 6}</p>")
        doc.pageCount()
        heading = next(b for b in _blocks(doc) if b.text() == "Pages to act on")
        sentence = heading.next()
        before = (_page_of(doc, heading, page_h)[0], _page_of(doc, sentence, page_h)[1])
        moved = keep_headings_with_next(doc, page_h)
        after = (_page_of(doc, heading, page_h)[0], _page_of(doc, sentence, page_h)[1])
        if before[0] != before[1]:  # the old layout parted them
            parted += 1
            assert moved == 1
        else:
            assert moved == 0  # a heading with its text on its page stays where it is
        assert after[0] == after[1], (filler, before, after)
    assert parted >= 1  # the loop did reach the case of the user's report


def _blocks(doc):
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def test_the_pdf_keep_section_starts_with_the_advice_and_ends_with_the_whole_rule(sample_scan):
    # A user's "What to keep" opened with the 1,700-character rule: one line of the criteria
    # first, the plan, then the whole rule as a smaller note at the end of the section.
    from dedup_gui.core.pipeline.keep import keep_rule_line
    from dedup_gui.export.pdf_fonts import pdf_fonts
    from dedup_gui.export.pdf_html import _Html

    ensure_app()
    pdf = _Html(build_report(sample_scan), pdf_fonts(), 800).build([])
    keep = pdf[pdf.index(">What to keep<") : pdf.index(">Duplicate pairs<")]
    line = keep_rule_line()
    assert (
        keep.index(line) < keep.index("<table") < keep.index("The keep rule in full.") < keep.index("A keep cluster is")
    )


def test_the_pdf_lists_the_redirects_to_no_page_before_the_pages_without_text(tmp_path):
    # The HTML's twin (tests/core/test_redirects.py): each redirect to no page with its target,
    # under "Redirects to no page (N)", and not again among the pages without text.
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.export.pdf_fonts import pdf_fonts
    from dedup_gui.export.pdf_html import _Html

    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "index.html").write_text(
        '<html><head><meta http-equiv="refresh" content="0; url=../gone/"></head><body>Moved</body></html>'
    )
    (tmp_path / "a.html").write_text("<html><body><p>" + "words of a page " * 40 + "</p></body></html>")
    report = build_report(scan_folder(tmp_path))
    gone = "redirects to gone/ (missing: no page there in the folder)"
    assert [(p.path, x.note) for p, x in report.missing_redirects()] == [("old/index.html", gone)]
    ensure_app()
    pdf = _Html(report, pdf_fonts(), 800).build([])
    tail = pdf[pdf.index("Files that could not be used") :]
    assert tail.index("Redirects to no page (1)") < tail.index(gone)
    assert tail.count("old/index.html") == 1
    # ...and at the top, in the client summary, before the keep advice
    head = pdf[: pdf.index("Files that could not be used")]
    assert head.index("Redirects to no page (1)") < head.index(gone) < head.index("Largest keep clusters")
