"""The tables' view state without Qt (:mod:`dedup_gui.core.views.table_state`,
:mod:`dedup_gui.core.views.tables`): exact sort orders with stable ties, combined filters, the
pages' type bits, and the helpers that keep a selection on its records.  No QApplication."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

from dedup_gui.core.model import DupType
from dedup_gui.core.views.table_state import DUPLICATE_TYPES, ERROR, MUTED, TYPE_FILTERS
from dedup_gui.core.views.tables import ErrorsTable, PagesTable, PairsTable, page_type_bits
from tests.core.views_fixtures import page, ties

CONTENT, HAMMING, LEFT, TYPE, CLUSTER = 3, 6, 0, 2, 8


def shown(table) -> list[int]:
    return table.shown_records().tolist()


def test_the_view_state_modules_import_no_qt():
    # The point of the move: sort, filter and session logic runs (and is tested) without a screen.
    code = ("import sys, dedup_gui.core.views.table_state, dedup_gui.core.views.tables, "
            "dedup_gui.core.views.session; print(sorted(m for m in sys.modules if m.startswith('PySide6')))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    ("col", "ascending", "descending"),
    [
        (CONTENT, [4, 0, 2, 1, 3], [1, 3, 0, 2, 4]),  # ties (0.5: 0, 2; 0.9: 1, 3) keep their order
        (HAMMING, [2, 0, 1, 4, 3], [3, 0, 1, 4, 2]),
        (LEFT, [1, 4, 0, 2, 3], [0, 2, 3, 1, 4]),  # "B/x" and "b/X" are the same name, ignoring case
        (TYPE, [0, 3, 2, 4, 1], [1, 4, 2, 0, 3]),  # in TYPE_ORDER: full, content, layout, partial, distinct
    ],
)
def test_pairs_sort_in_exact_orders_with_stable_ties_both_ways(col, ascending, descending):
    table = PairsTable()
    table.set_result(ties())
    table.sort(col)
    assert shown(table) == ascending and table.sort_column() == col and not table.descending()
    table.sort(col, descending=True)
    assert shown(table) == descending
    assert [table.row_of(r) for r in descending] == [0, 1, 2, 3, 4]
    table.sort(-1)  # the result's order again
    assert shown(table) == [0, 1, 2, 3, 4]


def test_filters_combine_and_clear_one_at_a_time():
    table = PairsTable()
    table.set_result(ties())
    table.sort(CONTENT, descending=True)
    table.set_type_filter(DUPLICATE_TYPES)  # drops the distinct pair 1
    table.set_text_filter(" Y.HTML ")  # page 1 "a/y.html": pairs 0, 1, 4
    table.set_record_filter(np.array([4, 0, 2, 1, 0]))
    assert shown(table) == [0, 4] and table.row_count() == 2 and table.record_count() == 5
    assert table.text_filter() == "y.html" and table.record_filter().tolist() == [0, 1, 2, 4]
    assert table.row_of(2) == -1 and table.row_of(99) == -1
    table.set_text_filter("")
    assert shown(table) == [0, 2, 4]
    table.set_record_filter(None)
    assert shown(table) == [3, 0, 2, 4]
    table.set_type_filter(frozenset({DupType.FULL, DupType.PARTIAL}))
    assert shown(table) == [3, 0, 4]
    table.sort(HAMMING)  # a sort keeps the filters
    assert shown(table) == [0, 4, 3]
    with pytest.raises(IndexError):
        table.set_record_filter([5])  # no pair 5: the filter stays as it was
    assert table.record_filter() is None and shown(table) == [0, 4, 3]


def test_the_type_filter_choices():
    # The combo lists every type, then "Duplicates only" (every type but distinct).
    labels = [label for label, _ in TYPE_FILTERS]
    assert labels[0] == "All types" and labels[-1] == "Duplicates only" and len(labels) == 7
    assert TYPE_FILTERS[-1][1] == frozenset({DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL})


def test_page_type_bits_are_the_types_of_each_pages_pairs():
    # Bits by TYPE_ORDER code: full 1, content 2, layout 4, partial 8, distinct 16.  Page 0 is
    # in a full and a layout pair (5), pages 1 and 3 in full and partial ones (9), page 2 in
    # full, layout and a distinct pair (distinct pairs add nothing: 5), page 4 in none (16);
    # the error row after the pages has no type (0).
    result = ties(errors=("broken.html",))
    assert page_type_bits(result, 6).tolist() == [5, 9, 5, 9, 16, 0]
    assert page_type_bits(None, 2).tolist() == [0, 0]


def test_pages_filter_by_type_bits_and_sort_by_name():
    table = PagesTable()
    table.set_result(ties(errors=("broken.html",)))
    assert table.record_count() == 5  # the pages read; "broken.html" is the errors table's
    table.set_type_filter(frozenset({DupType.PARTIAL}))
    assert shown(table) == [1, 3]
    table.set_type_filter(frozenset({DupType.DISTINCT}))  # page 4: no duplicate pair
    assert shown(table) == [4]
    table.set_type_filter(frozenset({DupType.LAYOUT, DupType.CONTENT}))
    assert shown(table) == [0, 2]
    table.set_type_filter(None)
    table.sort(0, descending=True)  # "b/X" and "B/x" tie, ignoring case: the result's order
    assert shown(table) == [4, 3, 0, 2, 1]


def test_cells_tones_and_paths():
    result = ties(errors=("sub/bad.html",))
    result.pages[4] = page("d/w.html", words=1234, title="evil\u202etxt.exe", has_text=False)
    pages = PagesTable()
    pages.set_result(result)
    assert pages.display(4, 3) == "1,234" and pages.display(4, 7) == "no usable text"
    assert pages.cell_text(4, 1) == "evil<U+202E>txt.exe"  # a right-to-left override is shown
    assert [pages.tone(r) for r in (0, 4)] == [None, MUTED]
    assert pages.record_count() == 5 and pages.paths_of(0) == ["/scan/B/x.html"]  # no row for the error
    pairs = PairsTable()
    pairs.set_result(result)
    assert pairs.display(0, CONTENT) == "0.500" and pairs.display(0, HAMMING) == "3"
    assert pairs.display(1, TYPE) == DupType.DISTINCT.label and pairs.tone(1) == MUTED and pairs.tone(0) is None
    assert pairs.display(0, CLUSTER) == "1" and pairs.first_duplicate_record() == 0
    errors = ErrorsTable()
    errors.set_result(result)
    assert errors.record_count() == 1 and errors.display(0, 1) == "not a page"
    assert errors.tone(0) == ERROR and errors.paths_of(0) == ["/scan/sub/bad.html"]
    errors.set_type_filter(DUPLICATE_TYPES)  # an error has no duplicate type
    assert shown(errors) == []


def test_selection_helpers_map_rows_to_records_and_back():
    # What the Qt model does around a layout change: remember the records of the selected
    # rows, change the rows, find the rows of those records again (-1 = now hidden).
    table = PairsTable()
    table.set_result(ties())
    records = table.records_at([0, 3, 9])  # row 9 does not exist
    assert records == [0, 3, -1]
    table.sort(CONTENT, descending=True)  # rows [1, 3, 0, 2, 4]
    assert table.rows_of(records) == [2, 1, -1]
    table.set_type_filter(frozenset({DupType.FULL}))  # rows [3, 0]
    assert table.rows_of(records) == [1, 0, -1] and table.rows_of([2]) == [-1]
    assert table.record(1) == 0
    with pytest.raises(IndexError):
        table.record(2)


def test_a_new_result_keeps_sort_and_filters_and_a_reclassified_one_resorts():
    table = PairsTable()
    table.set_result(ties())
    table.sort(HAMMING, descending=True)
    table.set_type_filter(frozenset({DupType.FULL}))
    table.set_result(ties())
    assert shown(table) == [3, 0]
    regraded = ties()
    regraded.pairs[4] = dataclasses.replace(regraded.pairs[4], type=DupType.FULL)
    table.update_result(regraded)  # pair 4 is now full: shown, sorted by its distance 3
    assert shown(table) == [3, 0, 4]
    table.set_result(None)
    assert table.row_count() == 0 and table.record_count() == 0


def test_update_result_with_other_records_raises_and_shows_them():
    table = PairsTable()
    table.set_result(ties())
    table.set_record_filter([1, 2])
    fewer = dataclasses.replace(ties(), pairs=ties().pairs[:3])
    with pytest.raises(ValueError, match="same 5 records, got 3"):
        table.update_result(fewer)
    # Consistent afterwards: the new records, the record filter dropped.
    assert table.record_count() == 3 and table.record_filter() is None and shown(table) == [0, 1, 2]


def test_the_errors_table_lists_skipped_files_as_their_own_kind(tmp_path):
    # Links, loops and non-pages were listed by the CLI and the reports but nowhere in the window.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder

    (tmp_path / "a.html").write_text("<p>" + "words " * 50 + "</p>", encoding="utf-8")
    (tmp_path / "bad.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (tmp_path / "style.css").write_text("p {}", encoding="utf-8")
    table = ErrorsTable()
    table.set_result(scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False)))
    rows = [(table.display(r, 0), table.display(r, 2), table.tone(r)) for r in range(table.record_count())]
    assert rows == [("bad.html", "error", ERROR), ("style.css", "skipped", MUTED)]
    assert table.kind_counts() == ((1, 1), (1, 1))
    table.set_text_filter("bad")
    assert table.kind_counts() == ((1, 1), (0, 1))
    table.set_text_filter("")
    table.sort(2, descending=True)
    assert [table.display(r, 2) for r in shown(table)] == ["skipped", "error"]


def test_paths_sort_in_natural_order_numbers_as_numbers():
    # WARC pages are named by their record offset: as text, "#1107" sorted before "#252" and
    # "page10" before "page9".  Numbers in paths compare as numbers in every table.
    from dedup_gui.core.model import Cluster, FileError, Pair, ScanResult, ScanSettings, Thresholds
    from tests.core.views_fixtures import scores

    names = ["crawl.warc.gz#1107", "crawl.warc.gz#252", "site/page10.html", "site/Page9.html", "crawl.warc.gz#3807"]
    pairs = [Pair(0, 2, scores(0.5, 3), DupType.FULL), Pair(1, 3, scores(0.5, 3), DupType.FULL),
             Pair(4, 0, scores(0.5, 3), DupType.FULL)]  # fmt: skip
    result = ScanResult(root="/scan", pages=[page(p) for p in names], pairs=pairs, errors=[
        FileError("crawl.warc.gz#20001", "damaged"), FileError("crawl.warc.gz#9000", "damaged")],
        clusters=[Cluster(1, (0, 1, 2, 3, 4), frozenset({DupType.FULL}))], thresholds=Thresholds(),
        settings=ScanSettings())  # fmt: skip
    pages = PagesTable()
    pages.set_result(result)
    pages.sort(0)
    assert [pages.display(r, 0) for r in shown(pages)] == [  # the pages read (errors are their own table)
        "crawl.warc.gz#252", "crawl.warc.gz#1107", "crawl.warc.gz#3807", "site/Page9.html", "site/page10.html"]  # fmt: skip
    table = PairsTable()
    table.set_result(result)
    table.sort(LEFT)
    assert shown(table) == [1, 0, 2]  # lefts #252, #1107, #3807
    table.sort(1, descending=True)
    assert shown(table) == [0, 1, 2]  # rights page10, Page9, #1107
    errors = ErrorsTable()
    errors.set_result(result)
    errors.sort(0)
    assert [errors.display(r, 0) for r in shown(errors)] == ["crawl.warc.gz#9000", "crawl.warc.gz#20001"]
    assert pages.sort_key(1, 0) < pages.sort_key(0, 0) and errors.sort_key(1, 0) < errors.sort_key(0, 0)


def test_hidden_columns_are_view_state_and_one_column_always_stays():
    # the pages table hides Template lines (4) and SimHash (5) at first: both are in the
    # Fingerprints tab, and without them Keep and Canonical fit a 1600-px window
    pages = PagesTable()
    assert pages.hidden_columns() == {4, 5}
    assert pages.set_column_hidden(5, False) and pages.hidden_columns() == {4}
    assert not pages.set_column_hidden(5, False)  # no change
    errors = ErrorsTable()  # File, Reason, Kind
    assert errors.hidden_columns() == set()
    assert errors.set_column_hidden(0, True) and errors.set_column_hidden(2, True)
    assert not errors.set_column_hidden(1, True) and errors.hidden_columns() == {0, 2}  # the last one stays
    with pytest.raises(IndexError):
        errors.set_column_hidden(3, True)
    errors.set_hidden_columns([0, 1, 2])  # a stored value hiding everything: all shown
    assert errors.hidden_columns() == set()
    errors.set_hidden_columns([1, 7, -1])  # numbers from another version are ignored
    assert errors.hidden_columns() == {1}
