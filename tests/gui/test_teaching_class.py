"""A new teacher's walkthrough of the Teach menu (normal and presentation mode, 1152x720,
1280x800 and 1600x1000 windows): the SimHash board keeps its layout while stepping and fits
without scrolling, presentation mode draws no small text, the stepping keys work whatever has
focus, one format per kind of number, the rules and definitions stated."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo

from dedup_gui.core.teaching.simhash_steps import text_simhash_steps
from dedup_gui.gui.teaching.steps_table import ROW_SUMS

LONG = 60_000
RIVER = "mirror/larkmoor-wheelers.example.org/articles/river-trail.html"

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def sized(qtbot, window, size, presenting=False) -> None:
    """The window at ``size`` (presenting: in presentation mode, out of full screen)."""
    if presenting:
        window.presentation.set_active(True)
        window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    qtbot.wait(100)


def test_core_gives_the_largest_sum_of_any_step():
    # the board's layout is chosen once per text from it
    steps = text_simhash_steps("the cat sat on the mat the end " * 3 + "a b c d e f g h", 64)
    every = [abs(s) for step in steps.steps for s in step.sums]
    assert steps.steps.largest_sum == max(every)
    assert steps.steps.largest_weight == max(step.weight for step in steps.steps)


def test_simhash_board_keeps_its_layout_while_stepping_and_fits_1152x720(qtbot, teach):
    # Before: the board went from 2 lines of 32 to 4 of 16 whenever a sum reached 100 (steps
    # 15, 29 of this page), 230 pixels more, the fingerprint line and the table pushed out of
    # sight; and the view had a 1-pixel scroll range, the table a horizontal scroll bar.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    sized(qtbot, teach, (1152, 720))
    scroll = teach.tabs.currentWidget()
    heights = set()
    for position in range(view.last_position() + 1):
        view.go_to(position)
        qtbot.wait(1)
        heights.add(view.board.height())
        assert view.board._layout(view.board.width())[3] == 32, position
    qtbot.wait(50)
    assert len(heights) == 1
    assert scroll.verticalScrollBar().maximum() == 0
    assert view.table.horizontalScrollBar().maximum() == 0  # bit 63 in sight
    bottom = view.fingerprint_label.mapTo(view, view.fingerprint_label.rect().bottomLeft()).y()
    assert bottom < scroll.viewport().height() - view.table.minimumHeight()


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_presenting_the_board_and_the_table_ruler_are_legible_and_fit(qtbot, teach, size):
    # Before: presenting at 1280x800 the sums and ±weight cells were 9-10 pixels (smaller than
    # in normal mode, "115 / -115" unsigned with a hyphen) and the table's 0/8/16 ruler 8.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    sized(qtbot, teach, size, presenting=True)
    per_line = set()
    for position in (0, 3, 15, view.last_position()):
        view.go_to(position)
        qtbot.wait(20)
        board = view.board
        per_line.add(board._layout(board.width())[3])
        for row in range(len(board.row_names())):
            assert QFontInfo(board.cell_font(row)).pixelSize() >= 14, (position, board.row_names()[row])
    assert len(per_line) == 1  # the same lines from the start
    assert view.displayed_sums() == list(view.steps.sums)
    assert all(t[0] in "+−0" for t in view.board.row_texts(ROW_SUMS))  # signed, a true minus
    header = view.table.horizontalHeader()
    assert QFontInfo(header.font()).pixelSize() >= 14
    assert header.ruler_numbers() == [str(b) for b in range(0, 64, 8)]
    assert teach.tabs.currentWidget().verticalScrollBar().maximum() == 0


def test_stepping_keys_work_with_the_focus_on_the_tab_bar(qtbot, teach):
    # Before: when the window opened and after a tab click, focus was on the tab bar and Page
    # Down (a presenter's clicker) and Alt+Right did nothing until a click inside the view.
    view = teach.show_tab(0)
    teach.activateWindow()
    qtbot.waitUntil(lambda: teach.isActiveWindow(), timeout=LONG)
    bar = teach.tabs.tabBar()
    bar.setFocus()
    qtbot.waitUntil(bar.hasFocus, timeout=LONG)
    view.first()
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    assert view.position == 1
    qtbot.keyClick(bar, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert view.position == 2
    qtbot.keyClick(bar, Qt.Key.Key_PageUp)
    assert view.position == 1
    teach.show_tab(1)  # another tab in front: its keys are not the SimHash view's
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    assert view.position == 1
