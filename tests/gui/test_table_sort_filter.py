"""Sorting and filtering inside the table models (NumPy, no proxy): exact orders, stable ties in
both directions, combined filters, selections that follow their records, and the panel's
record-based API."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import Qt

from dedup_gui.core.model import Cluster, DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.export_dialog import shown_pairs
from dedup_gui.gui.tables.models import PagesModel, PairsModel
from dedup_gui.gui.tables.table_model import DUPLICATE_TYPES
from dedup_gui.gui.tables.table_panel import TablePanel
from tests.gui.conftest import make_page, scores

ASC, DESC = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder
CONTENT, HAMMING, LEFT, TYPE, CLUSTER = 3, 6, 0, 2, 8


@pytest.fixture
def ties() -> ScanResult:
    """Five pairs whose content similarity, Hamming distance, left name and type all tie
    somewhere; "B/x.html" and "b/X.html" fold to the same name.  Page 4 has no pair."""
    pages = [make_page(p, 10, 0) for p in ("B/x.html", "a/y.html", "b/X.html", "c/z.html", "d/w.html")]
    pairs = [
        Pair(0, 1, scores(0.5, 3), DupType.FULL),
        Pair(1, 2, scores(0.9, 3), DupType.DISTINCT),
        Pair(0, 2, scores(0.5, 1), DupType.LAYOUT),
        Pair(2, 3, scores(0.9, 7), DupType.FULL),
        Pair(1, 3, scores(0.1, 3), DupType.PARTIAL),
    ]
    clusters = [Cluster(1, (0, 1, 2, 3), frozenset({DupType.FULL, DupType.LAYOUT, DupType.PARTIAL}))]
    return ScanResult(root="/scan", pages=pages, errors=[], pairs=pairs, clusters=clusters,
                      thresholds=Thresholds(), settings=ScanSettings())  # fmt: skip


def shown(model) -> list[int]:
    return model.shown_records().tolist()


@pytest.mark.parametrize(
    ("col", "ascending", "descending"),
    [
        (CONTENT, [4, 0, 2, 1, 3], [1, 3, 0, 2, 4]),  # ties (0.5: 0, 2; 0.9: 1, 3) keep their order
        (HAMMING, [2, 0, 1, 4, 3], [3, 0, 1, 4, 2]),
        (LEFT, [1, 4, 0, 2, 3], [0, 2, 3, 1, 4]),  # "B/x" and "b/X" are the same name, ignoring case
        (TYPE, [0, 3, 2, 4, 1], [1, 4, 2, 0, 3]),  # in TYPE_ORDER: full, layout, partial, distinct
    ],
)
def test_exact_orders_with_stable_ties_both_ways(qapp, ties, col, ascending, descending):
    model = PairsModel()
    model.set_result(ties)
    model.sort(col, ASC)
    assert shown(model) == ascending
    model.sort(col, DESC)
    assert shown(model) == descending
    assert [model.row_of(r) for r in descending] == list(range(5))
    model.sort(-1)
    assert shown(model) == [0, 1, 2, 3, 4]


def test_cluster_column_is_empty_for_pairs_across_clusters(qapp, ties):
    across = dataclasses.replace(ties, pairs=[*ties.pairs, Pair(3, 4, scores(0.2, 9), DupType.DISTINCT)])
    model = PairsModel()
    model.set_result(across)
    model.sort(CLUSTER, ASC)  # page 4 is in no cluster: -1 sorts first
    assert shown(model) == [5, 0, 1, 2, 3, 4]
    assert model.index(0, CLUSTER).data() == "" and model.index(1, CLUSTER).data() == "1"


def test_filters_combine_and_clear_one_at_a_time(qapp, ties):
    model = PairsModel()
    model.set_result(ties)
    model.sort(CONTENT, DESC)
    model.set_type_filter(DUPLICATE_TYPES)  # drops the distinct pair 1
    model.set_text_filter(" Y.HTML ")  # page 1: pairs 0, 1, 4
    model.set_record_filter(np.array([4, 0, 2, 1, 0]))
    assert shown(model) == [0, 4] and model.rowCount() == 2 and model.record_count() == 5
    assert model.row_of(2) == -1 and model.row_of(99) == -1
    assert model.record_filter().tolist() == [0, 1, 2, 4]
    model.set_text_filter("")
    assert shown(model) == [0, 2, 4]
    model.set_record_filter(None)
    assert shown(model) == [3, 0, 2, 4]
    model.set_type_filter(frozenset({DupType.FULL, DupType.PARTIAL}))
    assert shown(model) == [3, 0, 4]
    model.sort(HAMMING, ASC)  # a sort keeps the filters
    assert shown(model) == [0, 4, 3]
    model.set_type_filter(None)
    assert shown(model) == [2, 0, 1, 4, 3]
    with pytest.raises(IndexError):
        model.set_record_filter([5])


def test_a_new_result_keeps_sort_and_filters(qapp, ties):
    model = PairsModel()
    model.set_result(ties)
    model.sort(HAMMING, DESC)
    model.set_type_filter(frozenset({DupType.FULL}))
    model.set_result(ties)
    assert shown(model) == [3, 0]
    model.set_result(None)
    assert model.rowCount() == 0 and model.record_count() == 0


def test_pages_type_filter_uses_type_bits(qapp, ties):
    model = PagesModel()
    model.set_result(ties)
    model.set_type_filter(frozenset({DupType.PARTIAL}))
    assert shown(model) == [1, 3]
    model.set_type_filter(frozenset({DupType.DISTINCT}))  # page 4: no duplicate pair
    assert shown(model) == [4]
    model.set_type_filter(frozenset({DupType.LAYOUT, DupType.CONTENT}))
    assert shown(model) == [0, 2]
    model.set_type_filter(None)
    model.sort(0, DESC)  # "b/X" and "B/x" tie, ignoring case: the result's order
    assert shown(model) == [4, 3, 0, 2, 1]


@pytest.fixture
def panel(qtbot, ties):
    model = PairsModel()
    panel = TablePanel(model)
    qtbot.addWidget(panel)
    panel.resize(900, 400)
    panel.show()
    model.set_result(ties)
    return panel


def test_the_selection_follows_its_record_through_sorts_and_filters(qtbot, panel):
    current = []
    panel.current_record_changed.connect(current.append)
    assert panel.select_record(2)
    assert current[-1] == 2 and panel.current_record() == 2
    panel.view.horizontalHeader().setSortIndicator(CONTENT, DESC)  # a header click
    assert panel.model.shown_records().tolist() == [1, 3, 0, 2, 4]
    assert panel.current_record() == 2 and panel.view.currentIndex().row() == 3
    assert [i.row() for i in panel.view.selectionModel().selectedRows()] == [3]
    panel.type_combo.setCurrentText("layout duplicate")  # record 2 is the layout pair
    assert panel.model.rowCount() == 1 and panel.current_record() == 2
    panel.type_combo.setCurrentText("full duplicate")  # hides it: the first row shown becomes current
    full = panel.model.shown_records().tolist()
    assert full == [3, 0] and panel.current_record() == 3 and current[-1] == 3  # sorted by content, descending
    assert panel.select_record(2)  # clears the filter that hides it
    assert panel.type_combo.currentText() == "All types" and panel.current_record() == 2
    assert not panel.select_record(17)


def test_keyboard_copy_and_context_menu_follow_the_sorted_rows(qtbot, panel, ties):
    from PySide6.QtGui import QGuiApplication

    panel.view.horizontalHeader().setSortIndicator(HAMMING, ASC)  # rows: 2, 0, 1, 4, 3
    panel.select_record(0)
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_Down)
    assert panel.current_record() == 1
    qtbot.keyClick(panel.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)  # the last row
    assert panel.current_record() == 3
    assert panel.copy_current_paths() == "/scan/b/X.html\n/scan/c/z.html"
    assert QGuiApplication.clipboard().text() == "/scan/b/X.html\n/scan/c/z.html"
    menu = panel.context_menu(panel.current_record())
    assert any(a.objectName() == "copy" for a in menu.actions())


def test_counts_chip_and_export_follow_the_filters(qtbot, panel, ties):
    counts = []
    panel.visible_rows_changed.connect(lambda shown_rows, total: counts.append((shown_rows, total)))
    panel.view.horizontalHeader().setSortIndicator(CONTENT, ASC)
    panel.set_duplicates_only(True)
    assert counts[-1] == (4, 5)
    panel.set_record_filter([0, 1, 3], "Hamming distance = 3")
    assert counts[-1] == (2, 5) and panel.filter_chip.text() == "Hamming distance = 3 ×"
    assert shown_pairs(panel) == [ties.pairs[0], ties.pairs[3]]  # in the table's order
    panel.filter_chip.click()
    assert counts[-1] == (4, 5) and panel.record_filter_label() == ""
    panel.text_filter.setText("z.html")
    panel.apply_text_filter()
    assert shown_pairs(panel) == [ties.pairs[4], ties.pairs[3]]


def test_reclassified_types_are_sorted_and_filtered_again_keeping_the_selection(qtbot, panel, ties):
    panel.view.horizontalHeader().setSortIndicator(TYPE, ASC)
    panel.type_combo.setCurrentText("Duplicates only")
    assert panel.model.shown_records().tolist() == [0, 3, 2, 4]
    panel.select_record(4)
    retyped = dataclasses.replace(ties, pairs=[
        dataclasses.replace(p, type=t) for p, t in zip(ties.pairs, (DupType.DISTINCT, DupType.FULL, DupType.LAYOUT,
                                                                    DupType.FULL, DupType.CONTENT))])  # fmt: skip
    panel.model.update_result(retyped)
    assert panel.model.shown_records().tolist() == [1, 3, 4, 2]
    assert panel.current_record() == 4 and panel.view.currentIndex().row() == 2
    assert panel.model.index(2, TYPE).data() == "content duplicate"
    with pytest.raises(ValueError):
        panel.model.update_result(dataclasses.replace(ties, pairs=ties.pairs[:2]))
    assert panel.model.record_count() == 2  # shown after a reset, consistent


def test_narrow_path_columns_keep_the_file_name_whole(qtbot):
    # Middle elision of whole paths made "site/articl…enance.html" and "site/articles…er-trail.html"
    # look alike; the folders give way first, then the leading folders, then the name itself.
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    from dedup_gui.gui.elide import elide_path

    fm = QFontMetrics(QApplication.font())
    path = "site/archive/winter/2023/winter-maintenance.html"
    assert elide_path(path, fm, fm.horizontalAdvance(path)) == path  # it fits: untouched
    name_room = fm.horizontalAdvance("/winter-maintenance.html")
    for width in (name_room + fm.horizontalAdvance("…") + 1, name_room + fm.horizontalAdvance("site/ar…23")):
        shown = elide_path(path, fm, width)
        assert shown.endswith("/winter-maintenance.html") and "…" in shown
        assert fm.horizontalAdvance(shown) <= width
    narrow = elide_path(path, fm, fm.horizontalAdvance("…/winter-m"))
    assert (
        narrow.startswith("…/")
        and narrow.endswith("html")
        and fm.horizontalAdvance(narrow) <= fm.horizontalAdvance("…/winter-m")
    )
    # the pairs table draws both path columns with it
    panel = TablePanel(PairsModel())
    qtbot.addWidget(panel)
    assert {c for c in range(2) if panel.view.itemDelegateForColumn(c) is not None} == {0, 1}


def test_the_inspector_file_names_elide_like_the_tables(qtbot):
    # The "left:"/"right:" headers over the two texts cut long paths at the end (the file name
    # was lost); they now draw with elide_path and keep the whole path in text() and the tooltip.
    from dedup_gui.gui.inspector.text_diff_view import TextDiffView
    from dedup_gui.gui.inspector.widgets import PathLabel

    view = TextDiffView()
    qtbot.addWidget(view)
    assert isinstance(view.left_name, PathLabel) and isinstance(view.right_name, PathLabel)
    view.left_name.setText("left: a/very/long/folder/name/index.html")
    assert view.left_name.toolTip() == view.left_name.text() == "left: a/very/long/folder/name/index.html"


def test_the_pages_tab_filters_by_status(qtbot):
    # A new user's walkthrough (an SEO analyst on the real site): redirect pages and pages
    # without usable text were found only by sorting the Status column; the Pages tab has a
    # status combo built from the statuses the scan has, its state in the table (core).
    from dedup_gui.gui.main_window import MainWindow
    from tests.core.test_status_filter import pages_result

    win = MainWindow(scan_fn=lambda *a: pages_result())
    qtbot.addWidget(win)
    win.pages_model.set_result(pages_result())
    panel = win.pages_panel
    combo = panel.status_combo
    assert combo is not None and win.pairs_panel.status_combo is None and combo.isVisibleTo(panel)
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "All statuses", "OK (2)", "No usable text (1)", "Redirects (2)", "Redirects to no page (1)",
    ]  # fmt: skip
    combo.setCurrentIndex(combo.findData("redirects"))
    assert panel.model.table.status_filter() == "redirects"  # the state is the table's
    assert [panel.model.file_at(r).path for r in range(panel.model.rowCount())] == ["a/index.html", "c/index.html"]
    # with the file-name filter, nothing left: the empty-table line says how to undo both
    panel.text_filter.setText("zzz")
    panel.apply_text_filter()
    assert panel.empty_text() == 'No row matches the filters: clear the file-name filter or pick "All statuses".'
    panel.text_filter.clear()
    panel.apply_text_filter()
    # selecting a page the filter hides shows every status again
    assert panel.select_record(0) and combo.currentIndex() == 0 and panel.model.rowCount() == 5
