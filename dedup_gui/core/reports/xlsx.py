"""The XLSX workbook (openpyxl): Summary, Pairs, Pages, Clusters and Keep plan sheets, as
Screaming Frog's bulk exports give one sheet per view.

Every table sheet has its header row frozen, an autofilter over it and columns as wide as their
texts (up to :data:`MAX_WIDTH`); numbers are numbers (similarities in [0, 1] rounded to four
decimals and shown so, as the CSV files write them; counts, bytes), and no page string can run as a formula: openpyxl
would store a string that starts with ``=`` as one, so every string cell is written as text
explicitly (a file named ``=HYPERLINK(...)`` shows as that text).  The workbook is written in
openpyxl's write-only mode, row by row, so 100,000 pages do not build a tree of cells first.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.comments import Comment
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.keep import keep_rule_text
from dedup_gui.core.pipeline.keep_clusters import LINK_NOTE
from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.reports.model import Report
from dedup_gui.core.reports.tables import (
    KEEP_PLAN_COLUMNS,
    PAGE_COLUMNS,
    PAIR_COLUMNS,
    Cell,
    keep_plan_rows,
    page_rows,
    pair_rows,
)

#: The sheets, in order.
SHEETS = ("Summary", "Pairs", "Pages", "Clusters", "Keep plan")
#: Excel's limit on the characters of one cell; longer text is cut with a mark (a page title or
#: a reason never comes near it, but a file name of a hostile crawl might).
CELL_LIMIT = 32_767
#: Decimals of the similarities (the CSV files write four) and their number format.
DECIMALS = 4
NUMBER_FORMAT = "0.0000"
#: Column widths (Excel's character units) and the rows measured for them.
MIN_WIDTH, MAX_WIDTH = 8, 80
WIDTH_SAMPLE = 1000


def _cell(sheet, value: Cell, bold: bool = False) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, float):  # a similarity: four decimals
        cell.value = float(format_score(value, DECIMALS))  # cut as the CSV files write it
        cell.number_format = NUMBER_FORMAT
    if isinstance(value, str):
        if len(value) > CELL_LIMIT:
            cell.value = value[: CELL_LIMIT - 1] + "…"
        cell.data_type = "s"  # text, never a formula
    if bold:
        cell.font = Font(bold=True)
    return cell


def column_widths(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> list[float]:
    """The width of each column, in Excel's character units, so that headers, paths and reasons
    read whole when the file is opened: the longest text of the header and the first
    :data:`WIDTH_SAMPLE` rows (a number as the sheet shows it), plus two, between
    :data:`MIN_WIDTH` and :data:`MAX_WIDTH` (list[float]; longer cells wrap at the edge)."""
    widths = [len(name) for name in header]
    for row in rows[:WIDTH_SAMPLE]:
        for c, value in enumerate(row[: len(widths)]):
            if value is None:
                continue
            text = (
                f"{value:.{DECIMALS}f}"
                if isinstance(value, float)
                else f"{value:,}"
                if isinstance(value, int)
                else str(value)
            )
            widths[c] = max(widths[c], len(text))
    return [float(min(MAX_WIDTH, max(MIN_WIDTH, w + 2))) for w in widths]


def _table(
    book: Workbook,
    title: str,
    header: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    progress: Progress,
    notes: dict[str, str] | None = None,
) -> None:
    sheet = book.create_sheet(title)
    sheet.freeze_panes = "A2"
    rows = rows if isinstance(rows, Sequence) else list(rows)
    for c, width in enumerate(column_widths(header, rows), start=1):  # set before the first row
        sheet.column_dimensions[get_column_letter(c)].width = width
    heads = [_cell(sheet, name, bold=True) for name in header]
    for cell, name in zip(heads, header, strict=True):
        if notes and name in notes:  # what a column means, as a note on its header
            cell.comment = Comment(notes[name], "dedup-gui", width=420, height=160)
    sheet.append(heads)
    count = 0
    for count, row in enumerate(rows, start=1):
        if count % 2048 == 0:
            check_cancel(progress)
        sheet.append([_cell(sheet, value) for value in row])
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(header))}{count + 1}"


def _summary_rows(report: Report) -> list[list[Cell]]:
    r, s = report.result, report.summary()
    rows: list[list[Cell]] = [
        ["folder", r.root],
        ["pages", len(r.pages)],
        ["pages without usable text", sum(not p.has_text for p in r.pages)],
        ["redirect pages", s["redirect_pages"]],
        ["redirects to no page (target in the folder, no page there)", s["redirects_to_missing"]],
        ["files that could not be used", len(r.errors)],
        ["files skipped (not pages)", len(r.skipped)],
        ["pairs compared", len(r.pairs)],
    ]
    counts = {t: 0 for t in TYPE_ORDER}
    for pair in r.pairs:
        counts[pair.type] += 1
    rows += [[f"{t.label} pairs", n] for t, n in counts.items()]
    rows += [
        ["near-duplicate groups", len(r.clusters)],
        ["keep clusters", len(report.keep_clusters)],
        ["pages to drop", sum(len(e.duplicates) for e in report.keep_clusters)],
        ["content_same", r.thresholds.content_same],
        ["content_partial", r.thresholds.content_partial],
        ["layout_same", r.thresholds.layout_same],
        ["hamming_k", r.thresholds.hamming_k],
        ["keep rule", keep_rule_text(r.keep_policy)],
    ]
    return rows


def _cluster_rows(report: Report) -> list[list[Cell]]:
    r = report.result
    return [[c.id, len(c.pages), r.pages[p].path] for c in r.clusters for p in c.pages]


def xlsx_bytes(report: Report, progress: Progress | None = None) -> bytes:
    """The workbook of a report (:data:`SHEETS`).

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report` (its pairs and keep
            clusters).
        progress: may cancel (checked every 2,048 rows).

    Returns:
        The ``.xlsx`` file's bytes.

    Raises:
        ScanCancelled: ``progress`` was cancelled.
    """
    progress = progress or NullProgress()
    book = Workbook(write_only=True)
    _table(book, "Summary", ["measure", "value"], _summary_rows(report), progress)
    # the type in the words of every report ("full duplicate"); the pairs CSV keeps the codes of
    # the PREDICTIONS.csv format ("full") that the classify and evaluate commands read
    pairs = [[*row[:2], DupType(row[2]).label, *row[3:]] for row in pair_rows(report.result, report.pairs)]
    _table(book, "Pairs", PAIR_COLUMNS, pairs, progress)
    _table(book, "Pages", PAGE_COLUMNS, page_rows(report), progress)
    _table(book, "Clusters", ["cluster", "pages", "page"], _cluster_rows(report), progress)
    _table(book, "Keep plan", KEEP_PLAN_COLUMNS, keep_plan_rows(report), progress, {"type": LINK_NOTE})
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
