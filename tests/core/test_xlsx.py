"""The XLSX workbook: one sheet per view, headers frozen and filtered, numbers as numbers, and no
page string that Excel would run as a formula."""

from __future__ import annotations

import io

import openpyxl
import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.tables import KEEP_PLAN_COLUMNS, PAGE_COLUMNS, PAIR_COLUMNS
from dedup_gui.core.reports.write import write_result
from dedup_gui.core.reports.xlsx import SHEETS, xlsx_bytes

from .test_report import FORMULA_NAMES, make_formula_folder, same_time


def workbook(data: bytes):
    return openpyxl.load_workbook(io.BytesIO(data))


def test_the_samples_workbook(sample_scan, tmp_path):
    path = write_result(sample_scan, tmp_path / "report.xlsx")
    book = workbook(path.read_bytes())
    assert book.sheetnames == list(SHEETS)
    headers = {"Pairs": PAIR_COLUMNS, "Pages": PAGE_COLUMNS, "Keep plan": KEEP_PLAN_COLUMNS}
    for name in SHEETS:
        sheet = book[name]
        assert sheet.freeze_panes == "A2"  # the header stays in sight
        assert sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}{sheet.max_row}"
        if name in headers:
            assert [c.value for c in sheet[1]] == headers[name]
    pairs = list(book["Pairs"].iter_rows(min_row=2, values_only=True))
    # the seven designed duplicate pairs of resources/samples/EXPECTED.csv
    # in the reports' words, as the keep plan sheet's type says them ("full" read differently)
    assert sorted(row[2] for row in pairs) == [
        "content duplicate", "full duplicate", "full duplicate", "full duplicate", "full duplicate",
        "layout duplicate", "partial duplicate",
    ]  # fmt: skip
    for row in pairs:  # similarities and distances are numbers, not text
        assert all(isinstance(v, int | float) for v in row[3:8]) and 0 <= row[3] <= 1
    summary = dict(book["Summary"].iter_rows(min_row=2, values_only=True))
    assert summary["pages"] == 18 and summary["full duplicate pairs"] == 4 and summary["pages to drop"] == 5
    keep = list(book["Keep plan"].iter_rows(min_row=2, values_only=True))
    assert len(keep) == 5 and all(row[2] and row[3] for row in keep)  # each row says how and why


def test_no_cell_runs_as_a_formula(tmp_path):
    # Files named =HYPERLINK(...), +1, -1, @SUM, titled =1+1: text in every sheet, never formulas.
    result = scan_folder(make_formula_folder(tmp_path / "f"), ScanSettings(workers=1, use_cache=False))
    book = workbook(xlsx_bytes(build_report(result, mtime=same_time, excerpt_limit=0)))
    seen = set()
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                seen.add(cell.value)
    assert set(FORMULA_NAMES) <= seen and "=1+1" in seen  # written as the text they are


def test_a_cancelled_workbook_is_not_written(sample_scan, tmp_path):
    class Cancel:
        def update(self, *args):
            pass

        def cancelled(self):
            return True

    with pytest.raises(ScanCancelled):
        write_result(sample_scan, tmp_path / "r.xlsx", progress=Cancel())
    assert list(tmp_path.iterdir()) == []


def test_similarities_are_rounded_as_the_csv_and_every_sheet_has_column_widths(sample_scan):
    # A user read 0.9788533834586466 in the keep plan and narrow columns that cut paths and
    # reasons: four decimals with a number format (the CSV files write four), widths set.
    from dedup_gui.core.reports.tables import keep_plan_rows

    report = build_report(sample_scan)
    book = workbook(xlsx_bytes(report))
    plan = book["Keep plan"]
    col = KEEP_PLAN_COLUMNS.index("similarity") + 1
    raw = [row[col - 1] for row in keep_plan_rows(report)]
    cells = [plan.cell(row=r, column=col) for r in range(2, plan.max_row + 1)]
    # cut, not rounded, as every output writes a similarity (never up to a threshold it is under)
    assert [c.value for c in cells] == [None if v is None else float(format_score(v, 4)) for v in raw]
    assert any(v is not None and v != round(v, 4) for v in raw)  # the cutting is exercised
    assert {c.number_format for c in cells if c.value is not None} == {"0.0000"}
    pairs = book["Pairs"]
    assert pairs.cell(row=2, column=4).number_format == "0.0000"
    assert pairs.cell(row=2, column=4).value == float(format_score(sample_scan_first_dup(report), 4))
    for name in SHEETS:
        sheet = book[name]
        widths = [
            sheet.column_dimensions[openpyxl.utils.get_column_letter(c)].width for c in range(1, sheet.max_column + 1)
        ]
        assert all(8 <= w <= 80 for w in widths), (name, widths)
    # the keep plan's type is explained on its header: the identical relations replace the pair's type
    assert plan.cell(row=1, column=3).value == "type"
    assert plan.cell(row=1, column=3).comment.text.startswith("How a dropped page duplicates the kept one")
    # the path columns fit their longest path (up to the cap)
    longest = max(len(row[0]) for row in keep_plan_rows(report))
    assert plan.column_dimensions["A"].width == min(80, longest + 2)


def sample_scan_first_dup(report) -> float:
    """The content similarity of the first pair the Pairs sheet lists (the first not distinct)."""
    from dedup_gui.core.model import DupType

    return next(p.scores.content_similarity for p in report.pairs if p.type is not DupType.DISTINCT)
