"""The human labels in the main window (a search engineer tuning thresholds on labelled pairs):
the method comparison's confusion-matrix pairs lead to the pair in the main window, and the
pairs table shows each pair's label and filters the pairs whose type differs from it."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt

from dedup_gui.core.evaluation.evaluate import LabeledPair, ScoredPair
from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.views.table_state import TYPE_FILTERS
from dedup_gui.core.views.tables import PairsTable
from dedup_gui.gui.teaching.cell_pairs import NO_WINDOW, PAIR_ROLE, CellPairsDialog
from tests.gui.conftest import open_scanned, scores

LONG = 60_000
LABEL = PairsTable.LABEL_COLUMN

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def labelled(tmp_path, result):
    """The hand-built result scanned from ``tmp/pages``, and ``tmp/labels.csv`` beside it
    (paths ``pages/...``, as shared/pairs has them): pair 1 (a/alpha, a/beta; full) labelled
    full, pair 2 (a/alpha, b/gamma; content) labelled partial, and a/alpha with b/delta, a pair
    the scan never compared, labelled distinct."""
    (tmp_path / "pages").mkdir()
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "left,right,type\n"
        "pages/a/alpha.html,pages/a/beta.html,full\n"
        "pages/b/gamma.html,pages/a/alpha.html,partial\n"
        "pages/a/alpha.html,pages/b/delta.html,distinct\n",
        encoding="utf-8",
    )
    return dataclasses.replace(result, root=str(tmp_path / "pages")), labels


def extra_entries(combo) -> list[str]:
    return [combo.itemText(i) for i in range(len(TYPE_FILTERS), combo.count())]


def test_the_pairs_table_shows_the_labels_and_filters_the_pairs_that_differ(qtbot, fake_scan, tmp_path, labelled):
    # Before, the pairs table had no label column: a labelled pair the thresholds got wrong
    # could only be found by reading the labels file beside the table.
    scan, _labels = labelled
    win = open_scanned(qtbot, fake_scan, tmp_path / "pages", scan)
    panel, model = win.pairs_panel, win.pairs_model
    qtbot.waitUntil(model.has_labels, timeout=LONG)  # the scan's labels CSV, found off the GUI thread
    assert model.COLUMNS[LABEL] == "Label" and not panel.view.isColumnHidden(LABEL)
    labels_shown = {model.record(r): model.index(r, LABEL).data() for r in range(model.rowCount())}
    assert labels_shown == {0: "", 1: "full duplicate", 2: "partial duplicate", 3: "", 4: ""}
    assert extra_entries(panel.type_combo) == ["Differs from label (1)"]
    panel.type_combo.setCurrentIndex(len(TYPE_FILTERS))
    assert [model.record(r) for r in range(model.rowCount())] == [2]
    tip = model.index(0, LABEL).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "labelled partial duplicate in the labels file; the thresholds give content duplicate"
    assert "Label" in [a.text() for a in panel.column_menu().actions()]


def test_without_labels_there_is_no_label_column_nor_entry(qtbot, fake_scan, tmp_path, result):
    win = open_scanned(qtbot, fake_scan, tmp_path, result)  # root /scan: no labels file
    qtbot.waitUntil(lambda: not win.labels_search.is_running(), timeout=LONG)
    assert win.pairs_panel.view.isColumnHidden(LABEL) and not win.pairs_model.has_labels()
    assert extra_entries(win.pairs_panel.type_combo) == []
    assert "Label" not in [a.text() for a in win.pairs_panel.column_menu().actions()]  # nothing to show


def test_a_labelled_pair_is_selected_in_the_window_or_the_status_line_says_why(qtbot, fake_scan, tmp_path, labelled):
    scan, labels = labelled
    win = open_scanned(qtbot, fake_scan, tmp_path / "pages", scan)
    panel = win.pairs_panel
    panel.text_filter.setText("delta")  # hides pair 2 (alpha, gamma)
    panel.apply_text_filter()
    said = win.show_labelled_pair(labels, "pages/b/gamma.html", "pages/a/alpha.html")
    assert said == (
        "Showing the labelled pair b/gamma.html and a/alpha.html (the table's filters hid it and were cleared)."
    )
    assert win.current_pair_index() == 2 and panel.text_filter.text() == ""
    assert win.statusBar().currentMessage() == said
    assert win.inspector._state[1] is scan.pairs[2]  # the inspector shows it
    # a labelled pair the scan never compared: said, and the selection stays
    said = win.show_labelled_pair(labels, "pages/a/alpha.html", "pages/b/delta.html")
    assert said.startswith("The labelled pair a/alpha.html and b/delta.html was not a candidate pair in this scan")
    assert win.statusBar().currentMessage() == said and win.current_pair_index() == 2


def scored(left: str, right: str, label: DupType, predicted: DupType) -> ScoredPair:
    return ScoredPair(LabeledPair(left, right, label), scores(0.9, 3), predicted)


def test_the_cell_dialog_shows_a_pair_in_the_window_on_double_click_enter_or_button(qtbot, tmp_path):
    # Before, the cell's pairs were plain text: nothing led from a pair to the main window.
    pairs = [scored("pages/a.html", "pages/b.html", DupType.FULL, DupType.PARTIAL),
             scored("pages/c.html", "pages/d.html", DupType.FULL, DupType.PARTIAL)]  # fmt: skip
    shown = []

    def show(labels, left, right):
        shown.append((labels, left, right))
        return f"shown {left}"

    labels = tmp_path / "labels.csv"
    text = "2 pairs labelled full, predicted partial (…)\nline a\nline c"
    dialog = CellPairsDialog(text, pairs, labels, show)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.title.text() == "2 pairs labelled full, predicted partial (…)"
    assert [dialog.pairs.item(i).text() for i in range(2)] == ["line a", "line c"]
    assert dialog.pairs.item(1).data(PAIR_ROLE) == ("pages/c.html", "pages/d.html")
    rect = dialog.pairs.visualItemRect(dialog.pairs.item(1))
    qtbot.mouseClick(dialog.pairs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dialog.pairs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert shown == [(labels, "pages/c.html", "pages/d.html")] and dialog.note.text() == "shown pages/c.html"
    dialog.pairs.setCurrentRow(0)
    dialog.pairs.setFocus()
    qtbot.keyClick(dialog.pairs, Qt.Key.Key_Return)
    assert shown[-1] == (labels, "pages/a.html", "pages/b.html")
    qtbot.mouseClick(dialog.show_button, Qt.MouseButton.LeftButton)
    assert len(shown) == 3 and dialog.isVisible()  # the dialog stays for the next pair
    alone = CellPairsDialog(text, pairs, labels, None)  # a teaching window without a main window
    qtbot.addWidget(alone)
    assert alone.show_item(alone.pairs.item(0)) == NO_WINDOW and alone.note.text() == NO_WINDOW


def test_a_confusion_cell_pair_opens_in_the_main_window(qtbot, fake_scan, sample_scan, samples_dir):
    win = open_scanned(qtbot, fake_scan, samples_dir, sample_scan)
    win.open_teaching()
    view = win.teaching_window.methods_view
    assert view.show_pair_in_window == win.show_labelled_pair
    view.set_labels(samples_dir / "EXPECTED.csv")
    with qtbot.waitSignal(view.finished, timeout=LONG):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    table = view.confusion_table
    full = TYPE_ORDER.index(DupType.FULL)
    table.cellClicked.emit(full, full)
    dialog = table.property("cell_dialog")
    left, right = dialog.pairs.item(0).data(PAIR_ROLE)
    said = dialog.show_item(dialog.pairs.item(0))
    assert said == f"Showing the labelled pair {left} and {right}."
    pair = sample_scan.pairs[win.current_pair_index()]
    assert {sample_scan.pages[pair.left].path, sample_scan.pages[pair.right].path} == {left, right}
    win.teaching_window.close()
