"""The table models (with their NumPy sorting and filtering) and the small helpers, on a hand-built
ScanResult."""

from __future__ import annotations

import sys

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from dedup_gui.core.model import DupType
from dedup_gui.core.progress import CancelToken
from dedup_gui.gui.scan_status import format_eta
from dedup_gui.gui.tables.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.tables.table_model import DUPLICATE_TYPES, SORT_ROLE, TYPE_FILTERS
from dedup_gui.gui.worker import QtProgress


def column(model, col: int, role=Qt.ItemDataRole.DisplayRole) -> list:
    return [model.data(model.index(r, col), role) for r in range(model.rowCount())]


def loaded(model, result):
    """``model`` showing ``result``."""
    model.set_result(result)
    return model


def test_pages_model_has_one_row_per_page_read(qapp, result):
    model = PagesModel()
    model.set_result(result)
    assert model.rowCount() == 5  # the two files that could not be read are in the errors model
    assert model.columnCount() == 12
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(12)] == [
        "File", "Title", "URL", "Words", "Template\nlines", "SimHash", "Group", "Status", "Near\nduplicates",
        "Closest\nmatch", "Keep", "Canonical"]  # fmt: skip
    # a header's tooltip says what its values are: "Near duplicates 2" beside "Closest match
    # 0.221" read as a contradiction when the two duplicates were layout duplicates
    tip = model.headerData(9, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("The compared page with the highest content similarity") and "layout" in tip
    assert all(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) for c in (3, 6, 8, 10, 11))
    assert column(model, 0)[-1] == "c/empty.html"
    alpha = [model.data(model.index(0, c)) for c in range(11)]
    # the fixture's pages all have the same bytes (sha1 0...0): one keep cluster, delta (which
    # states its URL) kept
    assert alpha == ["a/alpha.html", "Alpha", "", "1,500", "", "0123456789abcdef", "1", "ok", "2",
                     "0.990 a/beta.html", "duplicate of b/delta.html"]  # fmt: skip
    assert model.data(model.index(3, 10)) == "kept" and model.data(model.index(3, 8)) == "1"
    assert model.data(model.index(3, 2)) == "https://example.org/delta"
    empty = [model.data(model.index(4, c)) for c in range(8)]
    assert empty[4:] == ["", "0000000000000000", "", "no usable text"]
    assert not model.index(5, 0).isValid()  # no row for "broken.html" (the errors model's)
    model.set_result(None)
    assert model.rowCount() == 0


def test_pairs_model_shows_scores_with_three_decimals(qapp, result):
    model = PairsModel()
    model.set_result(result)
    assert model.rowCount() == 5
    full = [model.data(model.index(1, c)) for c in range(9)]
    assert full == ["a/alpha.html", "a/beta.html", "full duplicate",
                    "0.990", "0.990", "0.980", "2", "0.950", "1"]  # fmt: skip
    # the distinct pair's pages are not both in one cluster: no cluster shown
    assert model.data(model.index(0, 8)) == ""
    assert model.headerData(6, Qt.Orientation.Horizontal) == "Hamming\ndistance"
    assert model.headerData(7, Qt.Orientation.Horizontal) == "Jaccard"
    assert model.data(model.index(1, 3), SORT_ROLE) == 0.99
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    assert model.data(model.index(1, 6), Qt.ItemDataRole.TextAlignmentRole) == int(right)
    assert model.data(model.index(1, 0), Qt.ItemDataRole.TextAlignmentRole) is None
    assert model.pages_of(1) == (result.pages[0], result.pages[1])
    assert model.first_duplicate_record() == 1 and model.row_of(1) == 1


def test_numeric_columns_sort_as_numbers(qapp, result):
    pairs = loaded(PairsModel(), result)
    pairs.sort(6, Qt.SortOrder.AscendingOrder)  # Hamming distance: 2, 10, 20, 25, 33
    assert column(pairs, 6) == ["2", "10", "20", "25", "33"]
    pairs.sort(3, Qt.SortOrder.DescendingOrder)
    assert column(pairs, 3) == ["0.990", "0.950", "0.600", "0.400", "0.050"]

    pages = loaded(PagesModel(), result)
    pages.sort(3, Qt.SortOrder.DescendingOrder)  # words
    assert column(pages, 3) == ["1,500", "120", "40", "9", "0"]


def test_pairs_type_and_text_filters(qapp, result):
    model = loaded(PairsModel(), result)
    assert model.rowCount() == 5
    expected = {None: 5, DUPLICATE_TYPES: 4}
    for dup_type in DupType:
        expected[frozenset({dup_type})] = 1
    for _label, type_filter in TYPE_FILTERS:
        model.set_type_filter(type_filter)
        assert model.rowCount() == expected[type_filter], _label
    model.set_type_filter(frozenset({DupType.PARTIAL}))
    assert column(model, 2) == ["partial duplicate"]
    model.set_type_filter(DUPLICATE_TYPES)
    assert "distinct" not in column(model, 2)

    model.set_type_filter(None)
    model.set_text_filter("  ALPHA ")  # either side, ignoring case and spaces
    assert sorted(column(model, 2)) == ["content duplicate", "full duplicate"]
    model.set_text_filter("delta")
    model.set_type_filter(DUPLICATE_TYPES)
    assert column(model, 2) == ["partial duplicate"]
    model.set_text_filter("")
    assert model.rowCount() == 4


def test_pages_type_filter_uses_the_pages_pairs(qapp, result):
    model = loaded(PagesModel(), result)
    model.set_type_filter(frozenset({DupType.FULL}))
    assert column(model, 0) == ["a/alpha.html", "a/beta.html"]
    model.set_type_filter(frozenset({DupType.DISTINCT}))  # pages without any duplicate
    assert column(model, 0) == ["c/empty.html"]
    model.set_type_filter(DUPLICATE_TYPES)
    assert model.rowCount() == 4
    model.set_type_filter(None)
    assert model.rowCount() == 5
    model.set_text_filter("html")
    assert model.rowCount() == 5
    model.set_text_filter("b/")
    assert column(model, 0) == ["b/gamma.html", "b/delta.html"]


def test_errors_model(qapp, result):
    model = loaded(ErrorsModel(), result)
    assert [model.data(model.index(r, 1)) for r in range(2)] == [
        "could not be decoded", "too large (60 MB)"]  # fmt: skip
    model.set_text_filter("huge")
    assert column(model, 0) == ["huge.html"]
    assert model.rowCount(model.index(0, 0)) == 0
    assert model.rowCount(QModelIndex()) == 1 and model.record_count() == 2


def test_type_filter_choices():
    labels = [label for label, _ in TYPE_FILTERS]
    assert labels == ["All types", "full duplicate", "content duplicate", "layout duplicate",
                      "partial duplicate", "distinct", "Duplicates only"]  # fmt: skip
    assert DupType.DISTINCT not in DUPLICATE_TYPES and len(DUPLICATE_TYPES) == 4


def test_format_eta():
    assert format_eta(None) == ""
    assert format_eta(4.4) == "about 4 s left"
    assert format_eta(0.3) == format_eta(0) == "less than a second left"  # not "about 0 s left"
    assert format_eta(185) == "about 3 min 5 s left"
    assert format_eta(7260) == "about 2 h 1 min left"


def test_qt_progress_throttles_and_reads_the_token(qapp):
    now = [0.0]
    token = CancelToken()
    progress = QtProgress(7, token, min_interval=1.0, clock=lambda: now[0])
    seen = []
    progress.updated.connect(lambda *args: seen.append(args))
    progress.update("reading pages", 0, 10)  # first of a stage: emitted
    progress.update("reading pages", 1, 10)  # too soon: dropped
    now[0] = 1.5
    progress.update("reading pages", 2, 10)  # interval passed: emitted
    progress.update("reading pages", 10, 10)  # last: emitted
    progress.update("comparing pairs", 0, 3)  # new stage: emitted
    assert seen == [(7, "reading pages", 0, 10, ""), (7, "reading pages", 2, 10, ""),
                    (7, "reading pages", 10, 10, ""), (7, "comparing pairs", 0, 3, "")]  # fmt: skip
    assert progress.cancelled() is False
    token.cancel()
    assert progress.cancelled() is True


def test_sorting_moves_rows_and_keeps_persistent_indexes(qapp, result):
    model = PairsModel()
    model.set_result(result)
    full = QPersistentModelIndex(model.index(1, 0))  # alpha/beta, the full duplicate
    assert model.first_duplicate_record() == 1 and model.row_of(1) == 1
    model.sort(3, Qt.SortOrder.DescendingOrder)  # content similarity: full pair first
    assert full.row() == 0 and model.data(full) == "a/alpha.html"
    assert model.row_of(model.first_duplicate_record()) == 0 and model.pair_at(0).type is DupType.FULL
    assert model.pages_of(0) == (result.pages[0], result.pages[1])
    model.sort(-1)  # back to the result's order
    assert full.row() == 1
    assert column(model, 2)[0] == "distinct"
    # a new result keeps the sort column
    model.sort(6, Qt.SortOrder.DescendingOrder)
    model.set_result(result)
    assert column(model, 6) == ["33", "25", "20", "10", "2"]


def test_sort_ties_keep_the_result_order(qapp, result):
    pages = loaded(PagesModel(), result)
    pages.sort(6, Qt.SortOrder.AscendingOrder)  # cluster: empty (-1) first, then cluster 1
    assert column(pages, 0) == ["c/empty.html", "a/alpha.html", "a/beta.html", "b/gamma.html", "b/delta.html"]


def test_none_returning_overrides_cannot_exhaust_none(qapp):
    """PySide6 6.12.0 on CPython 3.11 drops a reference to None per call; the session guard
    (tests/gui/conftest.py, dedup_gui.gui.compat) must keep the interpreter alive."""
    from PySide6.QtCore import QSortFilterProxyModel

    model = ErrorsModel()
    proxy = QSortFilterProxyModel()  # a C++ caller of the Python override
    proxy.setSourceModel(model)
    model.set_result(None)
    before = sys.getrefcount(None)
    for _ in range(20_000):  # headerData of the vertical header returns None
        proxy.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.DisplayRole)
    after = sys.getrefcount(None)
    assert after > 2**39 or after >= before - 100


def test_bidi_overrides_in_titles_are_shown_not_obeyed(qapp, result):
    import dataclasses

    # A right-to-left override in a page title ("Invoice exe.png" spoofing) shows as a marker.
    page = dataclasses.replace(result.pages[0], title="Invoice \u202egnp.exe")
    spoofed = dataclasses.replace(result, pages=[page, *result.pages[1:]])
    model = PagesModel()
    model.set_result(spoofed)
    titles = column(model, 1)
    assert "Invoice <U+202E>gnp.exe" in titles
    assert not any("\u202e" in str(t) for t in titles)


def test_pages_model_counts_the_template_lines_taken_out(qapp, result):
    import dataclasses

    # Two lines of the site's template (a search box and a footer) were taken out of beta's text.
    beta = dataclasses.replace(result.pages[1], template_text="Search the docs\n© 2024 Example")
    model = PagesModel()
    model.set_result(dataclasses.replace(result, pages=[result.pages[0], beta, *result.pages[2:]]))
    assert column(model, 4)[:2] == ["", "2"]
    model.sort(4, Qt.SortOrder.DescendingOrder)  # the most template first
    assert column(model, 0)[0] == "a/beta.html"
