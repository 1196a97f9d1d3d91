"""A search engineer's findings in the main window, with a labels file beside the scanned folder
(as shared/pairs has one): a new extractor choice left no trace once its 8-second message was
gone, the Label column sat far right of Type, the "Why this type" tab never named the label, and
a filter that hid the selected pair left none selected."""

from __future__ import annotations

import dataclasses

import pytest

from dedup_gui.core.views.table_state import TYPE_FILTERS
from dedup_gui.core.views.tables import PairsTable
from dedup_gui.gui.main_window import summarize
from dedup_gui.gui.settings import AppSettings
from tests.gui.conftest import FakeScan, open_scanned

LONG = 60_000
LABEL = PairsTable.LABEL_COLUMN

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


class SettingsScan(FakeScan):
    """A fake scan whose result carries the settings it was run with, as the engine's does."""

    def __call__(self, root, settings, thresholds, progress):
        return dataclasses.replace(super().__call__(root, settings, thresholds, progress), settings=settings)


@pytest.fixture
def labelled(tmp_path, result):
    """The hand-built result scanned from ``tmp/pages`` and ``tmp/labels.csv`` beside it: pair
    1 (a/alpha, a/beta; full) labelled full, pair 2 (a/alpha, b/gamma; content) labelled
    partial; pairs 0, 3 and 4 have no label."""
    (tmp_path / "pages").mkdir()
    (tmp_path / "labels.csv").write_text(
        "left,right,type\npages/a/alpha.html,pages/a/beta.html,full\npages/b/gamma.html,pages/a/alpha.html,partial\n",
        encoding="utf-8",
    )
    return dataclasses.replace(result, root=str(tmp_path / "pages"))


def opened(qtbot, tmp_path, scan):
    win = open_scanned(qtbot, lambda result: SettingsScan(result), tmp_path / "pages", scan)
    qtbot.waitUntil(win.pairs_model.has_labels, timeout=LONG)  # found off the GUI thread
    return win


def test_the_status_line_says_the_results_are_another_extractor_s_until_the_rescan(qtbot, tmp_path, labelled):
    win = opened(qtbot, tmp_path, labelled)
    assert win.result.settings.extractor == "fast" and win.scan_status.label.text() == summarize(win.result)
    win.set_extractor("resiliparse")
    # the summary under the 8-second message says it for as long as fast's results are shown
    # (before: the summary was unchanged, and only the menu's tick showed the choice)
    assert "(results made with fast; Resiliparse applies at the next scan (F5)); " in win.scan_status.label.text()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.rescan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert win.result.settings.extractor == "resiliparse"
    assert "next scan" not in win.scan_status.label.text()
    assert win.scan_status.label.text() == summarize(win.result)
    win.close()


def test_the_label_column_sits_beside_type_and_saved_hidden_columns_keep_their_meaning(qtbot, tmp_path, labelled):
    # Settings saved before the move hid Containment (4) and Layout similarity (5), by index.
    AppSettings().set_text("view/hidden_columns/pairs", "4,5")
    win = opened(qtbot, tmp_path, labelled)
    view, model = win.pairs_panel.view, win.pairs_model
    header = view.horizontalHeader()
    shown = [model.COLUMNS[header.logicalIndex(v)] for v in range(header.count())]
    # before, Label came last, past Jaccard and Group: off screen at 1280x800
    assert shown == ["Left", "Right", "Type", "Label", "Content similarity", "Containment", "Layout similarity",
                     "Hamming distance", "Jaccard", "Group"]  # fmt: skip
    assert [c for c in range(header.count()) if view.isColumnHidden(c)] == [4, 5]  # the same two columns
    assert [a.text() for a in win.pairs_panel.column_menu().actions() if a.isCheckable()][:5] == [
        "Left", "Right", "Type", "Label", "Content similarity"
    ]  # fmt: skip
    assert model.index(1, LABEL).data() == "full duplicate"  # the cells follow the column
    win.close()


def test_why_this_type_says_the_label_and_whether_it_agrees(qtbot, tmp_path, labelled):
    win = opened(qtbot, tmp_path, labelled)
    why = win.inspector.why_view
    win.inspector.setCurrentWidget(why)
    # a labels file read while a pair is shown (after a big scan the pair is often selected
    # first): its label is said at once
    win.pairs_model.set_labels(None)
    assert win.select_pair(2) and "Labelled" not in why.text()
    win.use_labels(tmp_path / "labels.csv")
    assert win.current_pair_index() == 2  # content duplicate, labelled partial
    assert "Labelled: partial duplicate (differs from the type given)" in why.text().splitlines()
    assert why.label_line.isVisibleTo(why)
    assert win.select_pair(1)  # full, labelled full
    assert "Labelled: full duplicate (agrees)" in why.text().splitlines()
    assert win.select_pair(3)  # no label: no line
    assert "Labelled" not in why.text() and not why.label_line.isVisibleTo(why)
    win.close()


def test_a_filter_that_hides_the_selected_pair_selects_the_first_row_shown(qtbot, tmp_path, labelled):
    win = opened(qtbot, tmp_path, labelled)
    panel = win.pairs_panel
    assert win.select_pair(1)  # full, labelled full: the "differs" filter hides it
    panel.type_combo.setCurrentIndex(len(TYPE_FILTERS))  # "Differs from label (1)"
    assert [panel.model.record(r) for r in range(panel.model.rowCount())] == [2]
    # before: no row selected and the inspector said "Select a pair…"
    assert win.current_pair_index() == 2 and win.inspector.current_pair() is win.result.pairs[2]
    panel.type_combo.setCurrentIndex(0)  # All types: pair 2 is still shown, and stays selected
    assert panel.model.rowCount() == 5 and win.current_pair_index() == 2
    win.close()
