"""Decide > Re-prioritize… in the window: the user reorders the keep criteria (Up, or a drag),
OK re-runs only the keep stage, the tree shows the page the new rule keeps, and the rule is
stored per folder so a rescan follows it."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QDialogButtonBox

from dedup_gui.core.views.decisions import decisions_path
from tests.core.test_keep_clusters import FULL, page, pair, result_of
from tests.gui.conftest import open_scanned
from tests.gui.test_keep_decisions import tree_rows

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def versions():
    """v1/a.html (the longer text) and v2/a.html, full duplicates: the default rule keeps v2."""
    pages = [page("v1/a.html", "a long text " * 20), page("v2/a.html", "a text")]
    return result_of(pages, [pair(0, 1, FULL, 0.97)])


@pytest.fixture
def window(qtbot, fake_scan, tmp_path):
    site = tmp_path / "site"
    (site / "v1").mkdir(parents=True)
    win = open_scanned(qtbot, fake_scan, site, versions(), LONG)
    yield win
    win.close()


def criteria(dialog) -> list[tuple[str, bool]]:
    """The dialog's criteria list as the user reads it: each row's first words and its tick."""
    rows = []
    for i in range(dialog.criteria.count()):
        item = dialog.criteria.item(i)
        rows.append((item.text().split(":")[0], item.checkState() == Qt.CheckState.Checked))
    return rows


def ok(dialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_reordering_the_criteria_changes_the_kept_page_and_survives_a_rescan(qtbot, window, tmp_path):
    win = window
    assert tree_rows(win)[0][4] == "newest version folder" and tree_rows(win)[1] == (
        "v2/",
        "",
        "",
        "kept",
        "bold",
    )
    assert win.reprioritize_action.shortcut().toString() == "Ctrl+Shift+R"
    assert "Re-prioritize" in win.reprioritize_action.text()
    win.reprioritize_action.trigger()
    dialog = win.reprioritize_dialog
    assert criteria(dialog) == [("canonical URL", True), ("newest version folder", True),
                                ("longest main content", True), ("oldest file", True),
                                ("matches the preferred pattern", False), ("shortest URL", False),
                                ("newest file", False)]  # fmt: skip
    dialog.criteria.setCurrentRow(2)  # longest main content
    dialog.up_button.click()
    assert criteria(dialog)[1] == ("longest main content", True) and dialog.criteria.currentRow() == 1
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        ok(dialog)
    assert tree_rows(win) == [
        ("#1 a.html", "2", "", "drop 1", "longest main content"),
        ("v1/", "", "", "kept", "bold"),
        ("v2/", "", "full", "drop"),
    ]
    assert win.result.pairs is win.scan_result.pairs  # only the keep stage ran again
    stored = json.loads(decisions_path(tmp_path / "settings" / "folders", win.folder).read_text())
    assert stored["keep_rule"]["order"] == ["canonical", "longest_content", "version", "oldest_file"]
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.rescan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert tree_rows(win)[0][4] == "longest main content" and tree_rows(win)[1] == (
        "v1/",
        "",
        "",
        "kept",
        "bold",
    )


def test_a_drag_a_reference_folder_and_an_empty_rule_in_the_dialog(qtbot, window):
    win = window
    win.open_reprioritize()
    dialog = win.reprioritize_dialog
    # a drop moves the row in the list's model: the state follows (version to the top)
    assert dialog.criteria.model().moveRow(QModelIndex(), 1, QModelIndex(), 0)
    assert dialog.state.order()[:2] == ("version", "canonical")
    # no criterion ticked: OK is disabled, and says why
    for i in range(dialog.criteria.count()):
        dialog.criteria.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert dialog.problem_label.text() == "Enable at least one criterion."
    dialog.restore_defaults()
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert not dialog.add_folder("/")  # outside the scanned folder: refused with the reason
    assert "not inside the scanned folder" in dialog.problem_label.text()
    assert dialog.add_folder("v1") and dialog.folders.item(0).text() == "v1"
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        ok(dialog)
    assert tree_rows(win)[0][4] == "reference folder" and tree_rows(win)[1] == (
        "v1/",
        "",
        "",
        "kept",
        "bold",
    )


def test_typing_a_pattern_makes_the_rule_prefer_matching_pages(qtbot, fake_scan, samples_dir, sample_scan):
    # The pattern criterion is unticked by default, and typing a pattern used to leave it so:
    # OK then kept the same pages as before, silently.
    win = open_scanned(qtbot, fake_scan, samples_dir, sample_scan, LONG)
    site, mirror = "site/articles/river-trail.html", "mirror/larkmoor-wheelers.example.org/articles/river-trail.html"

    def kept() -> str:
        model = win.clusters_view.keep_model
        for r in range(model.rowCount()):
            top = model.index(r, 0)
            rows = [(model.index(i, 0, top).data(), model.index(i, 3, top).data()) for i in range(model.rowCount(top))]
            tips = [model.index(i, 0, top).data(Qt.ItemDataRole.ToolTipRole) for i in range(model.rowCount(top))]
            if site in tips and len(rows) == 2:
                assert set(tips) == {site, mirror}
                return next(tip for tip, (_, advice) in zip(tips, rows) if advice.startswith("kept"))
        raise AssertionError("no keep cluster of the river-trail pages")

    assert kept() == mirror  # the default rule keeps the mirror's copy
    assert win.open_reprioritize()
    dialog = win.reprioritize_dialog
    assert ("matches the preferred pattern", False) in criteria(dialog)
    qtbot.keyClicks(dialog.pattern_edit, "site/*")
    assert criteria(dialog)[0] == ("matches the preferred pattern", True)  # ticked, at the top
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        ok(dialog)
    assert kept() == site
    win.close()


def test_every_criterion_reads_in_full_at_the_dialog_s_first_size(qtbot):
    # Issue 20 (a new user's first hour): at 620 px the criteria list had a horizontal scroll
    # bar, its longest line ("matches the preferred pattern: …") cut at the right edge.
    from dedup_gui.core.model import KeepPolicy
    from dedup_gui.gui.reprioritize_dialog import ReprioritizeDialog

    dialog = ReprioritizeDialog(KeepPolicy(), "/scan")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    lst = dialog.criteria
    assert not lst.horizontalScrollBar().isVisible()
    assert lst.horizontalScrollBar().maximum() == 0
    widest = max(lst.visualItemRect(lst.item(i)).right() for i in range(lst.count()))
    assert widest <= lst.viewport().width()
