"""The PDF report: the HTML report's content, laid out by Qt and written by Qt's own PDF writer.

It lives outside :mod:`dedup_gui.core`, which never imports Qt; it renders the same
:class:`~dedup_gui.core.reports.model.Report` and :class:`~dedup_gui.core.reports.summary.ReportSummary`
as the HTML report: the client summary, the two charts (PNG at 200 dpi), the keep clusters, the
most similar pairs of each type with their measures, explanation and diff excerpt, the pages with
duplicated content, the near-duplicate groups, the files that could not be used and the engine's
settings; in at most 30 pages by default (:func:`pdf_bytes`), every page numbered.  Fonts, Chinese
text included, are embedded (:mod:`dedup_gui.export.pdf_fonts`).  Page strings are HTML-escaped
before Qt's rich-text parser sees them, so a title holding ``<img src=...>`` stays text and never
makes Qt load a file.
"""

from __future__ import annotations

import io

from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.reports.model import Report, report_charts
from dedup_gui.export.pdf_fonts import (  # noqa: F401  (re-exported: the PDF's fonts)
    CJK_FALLBACK_FONT,
    PdfFonts,
    ensure_app,
    pdf_fonts,
)
from dedup_gui.export.pdf_html import BODY_PT, PdfBudget, _Html
from dedup_gui.export.pdf_layout import keep_headings_with_next

#: Resolution of the layout (dots per inch): fine enough that text positions are exact.
RESOLUTION = 300
STAGE = "writing the PDF"
#: Most pages of a PDF report by default (``scan --pdf-pages`` changes it).
MAX_PAGES = 30


def pdf_bytes(report: Report, progress: Progress | None = None, max_pages: int = MAX_PAGES) -> bytes:
    """Lay out and write a report as PDF, in at most ``max_pages`` pages.

    The lists (pairs in detail per type, keep clusters, groups, pages, files) start at
    :class:`PdfBudget` scaled by ``max_pages / 30`` and are shortened, all in proportion, until
    the document fits; each shortened list ends with "N of M shown; the CSV, XLSX and JSON
    exports hold all M".  Should even the shortest lists not fit (a tiny limit), the pages past
    the limit are left out.

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`.
        progress: receives ``"writing the PDF"`` progress per page; may cancel.
        max_pages: the most pages (int >= 1; default :data:`MAX_PAGES`).

    Returns:
        The PDF file's bytes (A4, numbered pages "Page i of n", fonts embedded).

    Raises:
        ScanCancelled: ``progress`` was cancelled.
        RuntimeError: no usable Qt GUI application or no font for Chinese text.
        ValueError: ``max_pages`` is below 1.
    """
    if max_pages < 1:
        raise ValueError(f"a PDF needs at least one page, not {max_pages}")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF, Qt, QUrl
    from PySide6.QtGui import QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    progress = progress or NullProgress()
    ensure_app()
    fonts = pdf_fonts()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 14, 15, 12),
            QPageLayout.Unit.Millimeter,
        )
    )
    writer.setTitle(report.title)
    writer.setCreator(f"dedup-gui {report.version}")
    area = writer.pageLayout().paintRectPixels(RESOLUTION)
    footer_h = round(16 * RESOLUTION / 72)
    body = QSizeF(area.width(), area.height() - footer_h)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)  # lay text out at the writer's resolution
    doc.setDocumentMargin(0)
    base = QFont()
    base.setFamilies(list(fonts.sans))
    base.setPointSizeF(BODY_PT)
    doc.setDefaultFont(base)
    doc.setPageSize(body)

    charts = []
    for chart in report_charts(report):
        png = io.BytesIO()
        chart.figure.savefig(png, format="png", dpi=200)
        image = QImage.fromData(png.getvalue(), "PNG")
        # <img> sizes are CSS pixels (1/96 inch), which Qt scales to the writer's resolution.
        w = body.width() * 96 / RESOLUTION * (1.0 if chart.name == "histogram" else 0.62)  # the map is square-ish
        charts.append((chart, round(w), round(w * image.height() / max(1, image.width()))))
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"chart-{chart.name}.png"), image)
    budget = PdfBudget().scaled(max_pages / MAX_PAGES)
    while True:
        check_cancel(progress)
        doc.setHtml(_Html(report, fonts, body.width(), budget).build(charts))
        keep_headings_with_next(doc, body.height())  # Qt ignores CSS break-after: avoid
        pages = doc.pageCount()
        # the summary, charts and appendix are fixed; the lists shrink together, a bit more than
        # the share of pages over the limit, until they fit or cannot shrink further
        smaller = budget.scaled(min(0.8, max_pages / pages * 0.9))
        if pages <= max_pages or smaller == budget:
            break
        budget = smaller
    pages = min(pages, max_pages)
    painter = QPainter()
    if not painter.begin(writer):
        raise RuntimeError("Qt could not start the PDF writer")
    try:
        footer_font = QFont(base)
        footer_font.setPointSizeF(7)
        label = f"dedup-gui report · {report.result.root}"
        for i in range(pages):
            check_cancel(progress)
            progress.update(STAGE, i, pages)
            if i:
                writer.newPage()
            painter.save()
            painter.translate(0, -i * body.height())
            doc.drawContents(painter, QRectF(0, i * body.height(), body.width(), body.height()))
            painter.restore()
            painter.setFont(footer_font)
            painter.setPen(Qt.GlobalColor.darkGray)
            line_y = body.height() + footer_h * 0.25
            painter.drawLine(0, round(line_y), round(body.width()), round(line_y))
            box = QRectF(0, line_y, body.width(), footer_h * 0.75)
            page_text = f"Page {i + 1} of {pages}"
            metrics = painter.fontMetrics()
            room = round(body.width() - metrics.horizontalAdvance(page_text) - RESOLUTION // 4)
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             metrics.elidedText(label, Qt.TextElideMode.ElideMiddle, room))  # fmt: skip
            painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, page_text)
        progress.update(STAGE, pages, pages)
    finally:
        painter.end()
    buf.close()
    return bytes(data.data())
