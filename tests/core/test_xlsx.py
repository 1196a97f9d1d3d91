"""The XLSX workbook: one sheet per view, headers frozen and filtered, numbers as numbers, and no
page string that Excel would run as a formula."""

from __future__ import annotations

import io

import openpyxl
import pytest

from dedup_gui.core.model import ScanSettings
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
