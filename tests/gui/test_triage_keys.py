"""Triage from the keyboard: Ctrl+Down / Ctrl+Up move to the next or previous keep cluster's
kept page in the tree (the tables follow), Down moves to a page to drop, Ctrl+K keeps it
instead; the shortcuts are shown in the Decide menu."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from dedup_gui.gui.main_window import MainWindow
from tests.core.test_keep_decisions import triangle
from tests.gui.test_keep_decisions import tree_rows

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def press(qtbot, win: MainWindow, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key press where the keyboard focus is, as the user types it."""
    widget = win.focusWidget() or win
    qtbot.keyClick(widget, key, modifier)


def test_next_and_previous_cluster_keep_and_the_menu_from_the_keyboard(qtbot, fake_scan, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    win = MainWindow(scan_fn=fake_scan(result=triangle()))  # keep clusters a+b,c and e+f
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(site)
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    decide = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Decide")
    shown = {a.text(): a.shortcut().toString() for a in decide.actions() if not a.isSeparator()}
    assert shown["&Next Cluster"] == "Ctrl+Down" and shown["&Previous Cluster"] == "Ctrl+Up"
    assert shown["&Keep This Page Instead"] == "Ctrl+K" and shown["Not a &Duplicate"] == "Ctrl+D"

    view = win.clusters_view
    win.show_tab(win.pairs_panel)  # the focus in the pairs table: Ctrl+Down still moves the tree
    press(qtbot, win, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert view.current_page() == 0 and view.tree.hasFocus()  # a.html, kept in keep cluster 1
    assert win.pairs_panel.filter_chip.text() == "Keep cluster 1 ×"
    press(qtbot, win, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert view.current_page() == 4 and win.pages_panel.filter_chip.text() == "Keep cluster 2 ×"  # e.html
    press(qtbot, win, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # no third keep cluster
    assert view.current_page() == 4 and win.statusBar().currentMessage() == "No further cluster"
    press(qtbot, win, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert view.current_page() == 0
    press(qtbot, win, Qt.Key.Key_Down)  # the tree's own Down: b.html, a page to drop
    assert view.current_page() == 1
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        press(qtbot, win, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert tree_rows(win)[0][4] == "your choice" and tree_rows(win)[1][:4] == (
        "b.html",
        "",
        "",
        "kept",
    )
    win.close()
