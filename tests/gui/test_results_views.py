"""Working with results: thresholds, clusters, the pairs table's filters, menu and keys, the errors
panel, remembered settings, drag and drop, images and the --screenshot mode."""

from __future__ import annotations

import os
import subprocess
import sys
import webbrowser
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDropEvent, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication, QCheckBox, QFileDialog

from dedup_gui.cli import main as cli_main
from dedup_gui.core.model import DupType, Thresholds
from dedup_gui.core.views.table_state import TYPE_FILTERS
from dedup_gui.gui import SAMPLES_DIR
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.settings import AppSettings

LONG = 60_000
REPO = Path(__file__).resolve().parents[2]
AUDAX = ("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def make_window(qtbot, fake_scan, tmp_path):
    """Build shown windows that scan ``result`` (a fake scan) and close them after the test."""
    windows = []

    def make(result=None, scan=True, **kwargs) -> MainWindow:
        if result is not None:
            kwargs.setdefault("scan_fn", fake_scan(result=result))
        win = MainWindow(**kwargs)
        windows.append(win)
        qtbot.addWidget(win)
        win.show()
        if scan:
            with qtbot.waitSignal(win.scan_ended, timeout=LONG):
                win.start_scan(tmp_path)
        return win

    yield make
    for win in windows:
        win.close()


def pair_index(result, paths) -> int:
    return next(i for i, p in enumerate(result.pairs)
                if {result.pages[p.left].path, result.pages[p.right].path} == set(paths))  # fmt: skip


def type_shown(win: MainWindow, index: int) -> str:
    """The Type cell of pair ``index`` in the pairs table (the pair must be shown)."""
    return win.pairs_model.index(win.pairs_model.row_of(index), 2).data()


# --- thresholds ----------------------------------------------------------------------------


def test_a_threshold_change_reclassifies_a_known_pair(qtbot, make_window, sample_scan):
    win = make_window(sample_scan)
    audax = pair_index(sample_scan, AUDAX)
    pair = sample_scan.pairs[audax]
    assert pair.type is DupType.LAYOUT and round(pair.scores.content_containment, 3) == 0.486
    assert type_shown(win, audax) == "layout duplicate"
    assert win.clusters_view.cluster_count() == 7
    win.select_pair(audax)
    win.inspector.setCurrentWidget(win.inspector.why_view)
    assert win.inspector.why_view.verdict is DupType.LAYOUT

    panel = win.thresholds_panel
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        panel.content_partial.setValue(0.6)  # containment 0.486 < 0.6: nothing important shared
    assert win.result.thresholds.content_partial == 0.6
    assert win.result.pairs[audax].type is DupType.DISTINCT
    assert type_shown(win, audax) == "distinct"
    audax_pages = {sample_scan.pages[p].path for p in (pair.left, pair.right)}
    for cluster in win.result.clusters:
        assert not audax_pages <= {sample_scan.pages[p].path for p in cluster.pages}
    assert win.clusters_view.cluster_count() == 5  # the layout and the partial pair's clusters are gone
    assert win.current_pair_index() == audax  # the selection stayed on the pair
    assert win.inspector.current_pair().type is DupType.DISTINCT
    assert win.inspector.why_view.verdict is DupType.DISTINCT  # the "why" follows
    assert win.scan_status.label.text().startswith(
        "Scanned 18 pages plus 11 other files: 5 duplicate pairs of 7 compared (your thresholds: content partial "
        "≥ 0.600); 5 near-duplicate groups"
    )
    assert win.scan_result is sample_scan  # not rescanned: the scan's own result is kept

    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        panel.reset_button.click()
    assert panel.thresholds() == Thresholds() and not panel.reset_button.isEnabled()
    assert type_shown(win, audax) == "layout duplicate" and win.clusters_view.cluster_count() == 7


def test_duplicates_only_hides_a_pair_that_turns_distinct(qtbot, make_window, sample_scan):
    win = make_window(sample_scan)
    win.pairs_panel.set_duplicates_only(True)
    assert win.pairs_panel.model.rowCount() == 7
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        win.thresholds_panel.content_partial.setValue(0.6)
    assert win.pairs_panel.model.rowCount() == 5
    assert win.tabs.tabText(0) == "Pairs (5 of 7)"


def test_thresholds_are_remembered(qtbot, make_window, sample_scan, _isolated_settings):
    win = make_window(sample_scan)
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        win.thresholds_panel.hamming_k.setValue(7)
    win.close()
    again = make_window(sample_scan, scan=False)
    assert again.thresholds_panel.hamming_k.value() == 7
    assert again.thresholds().hamming_k == 7
    assert "hamming_k=7" in _isolated_settings.read_text()


def test_the_panel_waits_for_a_pause_before_reclassifying(qtbot, make_window, sample_scan):
    win = make_window(sample_scan)
    calls = []
    win.thresholds_panel.thresholds_changed.connect(calls.append)
    for value in (0.3, 0.35, 0.4):
        win.thresholds_panel.content_partial.setValue(value)
    assert win.thresholds_panel.is_pending() and calls == []
    qtbot.waitUntil(lambda: len(calls) == 1, timeout=5000)
    assert calls[0].content_partial == 0.4


# --- clusters ------------------------------------------------------------------------------


def test_clusters_tree_on_the_samples(qtbot, make_window, sample_scan):
    win = make_window(sample_scan)
    view, model = win.clusters_view, win.clusters_view.model
    view.set_mode("groups")  # the tree shows the keep clusters until asked for the groups
    assert view.cluster_count() == 7 == len(sample_scan.clusters)
    assert view.summary_label.text() == "7 near-duplicate groups of 14 pages"
    import dataclasses

    view.set_result(dataclasses.replace(sample_scan, clusters=sample_scan.clusters[:1]))
    assert view.summary_label.text() == "1 near-duplicate group of 2 pages"  # not "1 near-duplicate groups"
    view.set_result(sample_scan)
    audax = pair_index(sample_scan, AUDAX)
    cluster = next(c for c in sample_scan.clusters if sample_scan.pairs[audax].left in c.pages)
    top = model.cluster_index(cluster.id)
    assert top.data() == f"Group {cluster.id} (layout)"  # its types beside its title, in the wide column
    assert model.index(top.row(), 1).data() == "2"
    assert model.rowCount(top) == 2
    assert {model.index(r, 0, top).data(Qt.ItemDataRole.ToolTipRole) for r in range(2)} == set(AUDAX)  # the whole paths
    assert {model.index(r, 0, top).data() for r in range(2)} == {"…/spring-audax-2023.html", "…/spring-audax-2024.html"}
    assert model.index(0, 2, top).data() == ""  # no keep advice for a layout pair

    # selecting a pair highlights its cluster
    win.select_pair(audax)
    assert view.highlighted_cluster() == cluster.id

    # selecting a cluster filters the pairs (and pages) tables to it
    win.select_pair(0)
    other = view.highlighted_cluster()
    assert other != cluster.id
    view.tree.setCurrentIndex(top)
    panel = win.pairs_panel
    assert panel.model.rowCount() == 1 and panel.filter_chip.text() == f"Group {cluster.id} ×"
    assert win.current_pair_index() == audax
    assert win.pages_panel.model.rowCount() == 2
    assert view.highlighted_cluster() == cluster.id

    # a page row: its pair is selected; clearing the chip shows every pair again
    view.tree.setCurrentIndex(model.index(1, 0, top))
    assert win.current_pair_index() == audax
    panel.filter_chip.click()
    assert panel.model.rowCount() == 7


def test_clusters_tree_says_what_to_keep_from_keep_clusters_only(qtbot, make_window, sample_scan):
    # The tree's clusters join pages by any duplicate pair; its "Keep" column shows the keep
    # clusters: the content pair's site copy is kept (it states its address), the print copy
    # dropped for it; the layout pair (two years of the audax page) is no advice at all.
    win = make_window(sample_scan)
    win.clusters_view.set_mode("groups")
    model = win.clusters_view.model
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(3)] == ["Group / page", "Pages", "Keep"]

    def rows(path_in_cluster):
        top = next(model.index(r, 0) for r in range(model.rowCount())
                   if path_in_cluster in {model.index(i, 0, model.index(r, 0)).data(Qt.ItemDataRole.ToolTipRole)
                                          for i in range(model.rowCount(model.index(r, 0)))})  # fmt: skip
        pages = {
            model.index(i, 0, top).data(Qt.ItemDataRole.ToolTipRole): model.index(i, 2, top)
            for i in range(model.rowCount(top))
        }
        return model.index(top.row(), 2).data(), {path: index.data() for path, index in pages.items()}, pages

    cluster, pages, indexes = rows("print/night-ride-safety.html")
    kept = pages["site/articles/night-ride-safety.html"]
    assert cluster == "drop 1" and kept.startswith("keep #")
    number = kept.removeprefix("keep #")
    assert pages["print/night-ride-safety.html"] == f"drop #{number}"  # short: the names keep the room
    tip = indexes["print/night-ride-safety.html"].data(Qt.ItemDataRole.ToolTipRole)
    # why that page is not the one kept, as the keep clusters tree and the keep CSV say it
    assert tip == (f"Keep cluster {number}: a page to drop, content duplicate of the page kept "
                   "(not kept: states no canonical URL)")  # fmt: skip
    # the line under the tree says the selected row in full, its whole path first
    view = win.clusters_view
    view.tree.setCurrentIndex(indexes["print/night-ride-safety.html"])
    assert view.details.text() == (
        f"print/night-ride-safety.html\ncontent duplicate; Keep cluster {number}: a page to drop, "
        "content duplicate of the page kept (not kept: states no canonical URL)"
    )
    cluster, pages, _ = rows(AUDAX[0])
    assert cluster == "" and pages == {AUDAX[0]: "", AUDAX[1]: ""}


# --- the pairs table -------------------------------------------------------------------------


def test_the_type_combo_alone_hides_the_distinct_pairs(qtbot, make_window, result):
    # A "Show duplicates only" box beside the combo did what its "Duplicates only" entry does;
    # the box is gone, and the remembered choice picks the entry.
    win = make_window(result)
    panel = win.pairs_panel
    assert not [b for b in panel.findChildren(QCheckBox) if "duplicates" in b.text().lower()]
    assert panel.model.rowCount() == 5 and not panel.duplicates_only()  # distinct pairs shown at first
    panel.type_combo.setCurrentText("Duplicates only")
    assert panel.model.rowCount() == 4 and panel.duplicates_only()
    panel.type_combo.setCurrentText("layout duplicate")
    panel.set_duplicates_only(True)  # a duplicate type is kept: it leaves out distinct pairs already
    assert panel.type_combo.currentText() == "layout duplicate" and panel.model.rowCount() == 1
    panel.set_duplicates_only(False)  # every type again
    assert panel.type_combo.currentText() == "All types" and panel.model.rowCount() == 5
    panel.set_duplicates_only(True)
    assert panel.type_combo.currentText() == "Duplicates only"


def test_text_filter_and_keyboard_navigation(qtbot, make_window, sample_scan):
    win = make_window(sample_scan)
    panel = win.pairs_panel
    first = win.current_pair_index()
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_Down)
    second = win.current_pair_index()
    assert second != first and win.inspector.current_pair() is sample_scan.pairs[second]
    qtbot.keyClick(panel.view, Qt.Key.Key_Up)
    assert win.current_pair_index() == first
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)  # Enter: into the inspector
    focus = QApplication.focusWidget()
    assert focus is not None and win.inspector.isAncestorOf(focus)
    win.focus_filter()  # Ctrl+F
    assert QApplication.focusWidget() is panel.text_filter
    qtbot.keyClicks(panel.text_filter, "audax")
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=5000)
    win.tab_actions[3].trigger()  # Ctrl+4: the histogram
    assert win.tabs.currentWidget() is win.histogram_view


def test_context_menu_actions(qtbot, make_window, sample_scan, monkeypatch):
    opened, browsed = [], []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: browsed.append(url) or True)
    win = make_window(sample_scan)
    audax = pair_index(sample_scan, AUDAX)
    win.select_pair(audax)
    record = win.pairs_panel.current_record()
    menu = win.pairs_panel.context_menu(record)
    actions = {a.objectName(): a for a in menu.actions() if a.objectName()}
    # "not-duplicate" first (the ignore list), then the file actions
    assert set(actions) == {"not-duplicate", "open", "open-right", "browser", "browser-right", "folder", "copy"}
    left, right = (
        sample_scan.pages[i].abspath for i in (sample_scan.pairs[audax].left, sample_scan.pairs[audax].right)
    )

    actions["copy"].trigger()
    assert QGuiApplication.clipboard().text() == f"{left}\n{right}"
    actions["open"].trigger()
    actions["open-right"].trigger()
    actions["folder"].trigger()  # both files are in one folder: one entry
    assert [u.toLocalFile() for u in opened] == [left, right, os.path.dirname(left)]
    actions["browser"].trigger()
    assert browsed == [QUrl.fromLocalFile(left).toString()]

    QGuiApplication.clipboard().clear()
    win.pairs_panel.view.setFocus()
    qtbot.keyClick(win.pairs_panel.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == f"{left}\n{right}"

    pages_menu = win.pages_panel.context_menu(0)  # a page: one file
    names = [a.objectName() for a in pages_menu.actions() if a.objectName()]
    assert names == ["keep-instead", "open", "browser", "folder", "copy"]


def test_the_context_menu_opens_on_a_right_click(qtbot, make_window, sample_scan, monkeypatch):
    from dedup_gui.gui.tables import table_panel

    shown = []
    monkeypatch.setattr(table_panel.QMenu, "popup", lambda menu, pos, *a: shown.append(menu))
    win = make_window(sample_scan)
    view = win.pairs_panel.view
    rect = view.visualRect(win.pairs_panel.model.index(2, 0))
    view.customContextMenuRequested.emit(rect.center())
    assert len(shown) == 1 and win.pairs_panel.view.currentIndex().row() == 2
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)  # the keyboard's way
    assert len(shown) == 2 and win.pairs_panel.view.currentIndex().row() == 2
    assert [a.objectName() for a in shown[1].actions() if a.objectName()][-1] == "copy"


def test_errors_panel_lists_every_file_and_why(qtbot, make_window, result):
    win = make_window(result)
    panel = win.errors_panel
    rows = {(panel.model.index(r, 0).data(), panel.model.index(r, 1).data()) for r in range(panel.model.rowCount())}
    assert rows == {("broken.html", "could not be decoded"), ("huge.html", "too large (60 MB)")}
    assert win.tabs.tabText(2) == "Errors (2)"
    assert panel.context_menu(0).actions()  # copy the path, show it in its folder


# --- remembered settings, drag and drop ----------------------------------------------------


def test_recent_folders_and_layout_are_remembered(qtbot, make_window, result, tmp_path):
    win = make_window(result)
    folder = str(tmp_path.resolve())
    assert win.app_settings.recent_folders()[0] == folder
    win.recent_menu.aboutToShow.emit()
    entries = [a.text() for a in win.recent_menu.actions() if a.text()]
    assert entries[0] == folder and "Clear Recent Folders" in entries
    win.splitter.setSizes([300, 500])
    sizes = win.splitter.sizes()
    win.pairs_panel.set_duplicates_only(True)
    win.clusters_view.set_mode("groups")  # the near-duplicate groups instead of the default keep clusters
    win.thresholds_dock.hide()
    # the pages table hides Template lines and SimHash at first; the header's menu shows or
    # hides any column, and the choice is remembered
    pages_header = win.pages_panel.view.horizontalHeader()
    assert [c for c in range(12) if pages_header.isSectionHidden(c)] == [4, 5]
    menu = win.pages_panel.column_menu()
    shown = {a.text(): a for a in menu.actions() if a.isCheckable()}
    assert [t for t, a in shown.items() if not a.isChecked()] == ["Template lines", "SimHash"]
    with qtbot.waitSignal(win.pages_panel.columns_changed):
        shown["SimHash"].setChecked(True)
    shown["URL"].setChecked(False)
    assert [c for c in range(12) if pages_header.isSectionHidden(c)] == [2, 4]
    win.close()

    again = make_window(result, scan=False)
    # (the offscreen screen is small, so Qt shrinks the restored window: compare proportions)
    restored = again.splitter.sizes()
    assert restored[0] / sum(restored) == pytest.approx(sizes[0] / sum(sizes), abs=0.02)
    assert again.pairs_panel.duplicates_only()
    assert again.clusters_view.mode() == "groups"
    assert again.pages_panel.model.table.hidden_columns() == {2, 4}
    assert [c for c in range(12) if again.pages_panel.view.horizontalHeader().isSectionHidden(c)] == [2, 4]
    assert not again.thresholds_dock.isVisible()
    again.recent_menu.aboutToShow.emit()
    recent = next(a for a in again.recent_menu.actions() if a.text() == folder)
    with qtbot.waitSignal(again.scan_ended, timeout=LONG):
        recent.trigger()
    assert again.folder == folder


def test_settings_can_be_switched_off(qtbot, tmp_path):
    settings = AppSettings(enabled=False)
    settings.add_recent_folder(str(tmp_path))
    settings.set_thresholds(Thresholds(hamming_k=9))
    assert settings.recent_folders() == [] and settings.thresholds() == Thresholds()


def test_dropping_a_folder_onto_the_window_scans_it(qtbot, make_window, result, tmp_path):
    win = make_window(result, scan=False)
    folder = tmp_path / "dropped"
    folder.mkdir()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)  # fmt: skip
    win.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)  # fmt: skip
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.dropEvent(drop)
    assert win.folder == str(folder.resolve())
    not_a_folder = QMimeData()
    not_a_folder.setUrls([QUrl.fromLocalFile(str(SAMPLES_DIR / "print" / "night-ride-safety.html"))])
    refused = QDragEnterEvent(QPoint(5, 5), Qt.DropAction.CopyAction, not_a_folder,
                              Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)  # fmt: skip
    win.dragEnterEvent(refused)
    assert not refused.isAccepted()


# --- images --------------------------------------------------------------------------------


def test_save_view_as_image(qtbot, make_window, sample_scan, tmp_path, monkeypatch):
    win = make_window(sample_scan)
    target = tmp_path / "view"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PNG image (*.png)"))
    win.tabs.setCurrentWidget(win.map_view)
    win.save_view_action.trigger()
    image = QImage(str(tmp_path / "view.png"))
    assert not image.isNull()
    assert (image.width(), image.height()) == (win.map_view.width(), win.map_view.height())


def test_screenshot_flag_writes_a_png(tmp_path):
    out = tmp_path / "histogram.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "DEDUP_GUI_SETTINGS": str(tmp_path / "settings.ini")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(REPO / "app.py"), "resources/samples", "--screenshot", str(out), "--view", "histogram"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert len(data) > 0 and data[:8] == PNG_SIGNATURE
    image = QImage(str(out))
    assert image.width() > 300 and image.height() > 150
    assert not (tmp_path / "settings.ini").exists()  # the screenshot mode remembers nothing


def test_screenshot_arguments_are_checked(tmp_path, capsys):
    assert cli_main(["--view", "map"]) == 2
    assert "--view and --pair need --screenshot" in capsys.readouterr().err
    assert cli_main([str(SAMPLES_DIR), "--screenshot", str(tmp_path / "x.jpg")]) == 2
    assert cli_main([str(SAMPLES_DIR), "--screenshot", str(tmp_path / "no" / "x.png")]) == 2
    with pytest.raises(SystemExit):
        cli_main([str(SAMPLES_DIR), "--screenshot", str(tmp_path / "x.png"), "--view", "nonsense"])


# --- export --------------------------------------------------------------------------------


def test_export_everything_or_only_what_the_filters_show(qtbot, make_window, sample_scan, tmp_path):
    win = make_window(sample_scan)
    assert win.export_action.isEnabled() and win.export_action in win.menuBar().actions()[0].menu().actions()
    win.filter_by_distance(6)  # the table shows one pair
    shown, everything = tmp_path / "shown.csv", tmp_path / "all.csv"
    with qtbot.waitSignal(win.exporter.finished, timeout=LONG) as done:
        win.export_to(shown, "csv", only_shown=True)
    assert done.args == [str(shown)]
    rows = shown.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and AUDAX[0] in rows[1] and AUDAX[1] in rows[1]
    with qtbot.waitSignal(win.exporter.finished, timeout=LONG):
        win.export_to(everything, "csv")
    assert len(everything.read_text(encoding="utf-8").splitlines()) == 8
    # An export says what it wrote, and offers to open it or show it in its folder.
    size = everything.stat().st_size
    assert win.statusBar().currentMessage() == f"Wrote all.csv, {size} bytes"
    box = win.export_notice
    assert box.isVisible() and str(everything) in box.text()
    assert [b.text() for b in box.buttons() if b.text() in ("Open", "Show in Folder")] == ["Open", "Show in Folder"]
    box.close()


def test_export_dialog_choices(qtbot, tmp_path):
    from dedup_gui.gui.export_dialog import ExportDialog

    dialog = ExportDialog(1, 6, str(tmp_path))
    qtbot.addWidget(dialog)
    assert dialog.choice() == ("html", str(tmp_path / "duplicates-report.html"), False)
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("json"))
    dialog.only_shown.setChecked(True)
    assert dialog.choice() == ("json", str(tmp_path / "duplicates-report.json"), True)
    assert "1 of 6" in dialog.only_shown.text()
    assert not ExportDialog(6, 6, str(tmp_path)).only_shown.isEnabled()  # no filter: nothing to choose


def test_the_export_dialog_names_files_by_format_and_asks_before_replacing(qtbot, tmp_path, monkeypatch):
    # A tester: the three CSV formats all defaulted to duplicates-report.csv, a name typed without
    # a suffix was written without one, an existing report was replaced without a word, and the
    # format went back to HTML every time.
    from PySide6.QtWidgets import QMessageBox

    from dedup_gui.gui.export_dialog import ExportDialog

    dialog = ExportDialog(6, 6, str(tmp_path), fmt="keep-csv")
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentText().startswith("Keep plan CSV: each page to drop")
    assert dialog.choice()[:2] == ("keep-csv", str(tmp_path / "keep-plan.csv"))
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("pages-csv"))
    assert dialog.choice()[1] == str(tmp_path / "pages.csv")
    dialog.path_edit.setText(str(tmp_path / "client"))
    assert dialog.choice()[1] == str(tmp_path / "client.csv")  # the format's suffix
    (tmp_path / "client.csv").write_text("old", encoding="utf-8")
    answers = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: answers.append(box.text()) or QMessageBox.StandardButton.No)
    dialog._confirm()
    assert answers == [f"client.csv already exists in {tmp_path}. Replace it?"] and dialog.result() == 0
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Yes)
    dialog._confirm()
    assert dialog.result() == ExportDialog.DialogCode.Accepted


def test_a_typed_suffix_picks_its_format_and_a_new_folder_is_made_on_a_yes(qtbot, tmp_path, monkeypatch):
    # A second tester typed "typed.xlsx" with "HTML report" chosen: the .xlsx file held HTML.
    # And a report to a folder that did not exist failed, where the copy makes its folder.
    from PySide6.QtWidgets import QMessageBox

    from dedup_gui.gui.export_dialog import ExportDialog

    dialog = ExportDialog(6, 6, str(tmp_path), fmt="html")
    qtbot.addWidget(dialog)
    target = tmp_path / "new" / "deeper" / "typed.xlsx"
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, str(target))  # typed: textEdited, as a user's keys
    assert dialog.choice()[:2] == ("xlsx", str(target))  # the name as typed, the format it names
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("keep-csv"))
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, str(tmp_path / "plan.csv"))
    assert dialog.choice()[0] == "keep-csv"  # any CSV format keeps a .csv name
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, str(target))
    asked = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box.text()) or QMessageBox.StandardButton.Yes)
    dialog._confirm()
    assert asked == [f"The folder {target.parent} does not exist. Make it and write typed.xlsx there?"]
    assert target.parent.is_dir() and dialog.result() == ExportDialog.DialogCode.Accepted


def test_screenshot_of_a_named_pair_and_view(qtbot, make_window, sample_scan, tmp_path, capsys):
    from dedup_gui.gui.screenshot import Screenshotter

    win = make_window(sample_scan, scan=False)
    out = tmp_path / "text-diff.png"
    shooter = Screenshotter(win, out, "text-diff", pair=AUDAX)
    with qtbot.waitSignal(shooter.done, timeout=LONG) as done:
        win.start_scan(tmp_path)
    assert done.args == [0]
    assert win.current_pair_index() == pair_index(sample_scan, AUDAX)
    assert win.inspector.currentWidget() is win.inspector.text_diff_view
    assert win.inspector.text_diff_view.diff is not None  # it waited for the diff
    image = QImage(str(out))
    assert (image.width(), image.height()) == (
        win.inspector.text_diff_view.width(),
        win.inspector.text_diff_view.height(),
    )

    missing = Screenshotter(win, tmp_path / "none.png", "map", pair=("a.html", "b.html"))
    with qtbot.waitSignal(missing.done, timeout=LONG) as done:
        win.start_scan(tmp_path)
    assert done.args == [1] and not (tmp_path / "none.png").exists()
    assert "a.html and b.html: no page of the scan (--pair takes paths relative to the scanned folder" in (
        capsys.readouterr().err
    )


def test_scan_menu_extractor_cache_and_clear(qtbot, tmp_path, monkeypatch):
    """Scan > Main-Content Extractor and the cache options change the next scan's settings,
    are remembered, and Clear Feature Cache deletes the cache file."""
    import os

    from dedup_gui.core.pipeline.cache import CACHE_FILE, default_cache_dir
    from dedup_gui.gui.main_window import MainWindow
    from dedup_gui.gui.settings import AppSettings

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    settings_file = tmp_path / "settings.ini"
    from PySide6.QtCore import QSettings

    app_settings = AppSettings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    window = MainWindow(app_settings=app_settings)
    qtbot.addWidget(window)
    assert window.scan_settings.extractor == "fast"  # the default (issue 15)
    window.extractor_actions["resiliparse"].trigger()
    assert window.scan_settings.extractor == "resiliparse"
    window.cache_action.setChecked(False)
    assert window.scan_settings.use_cache is False
    again = MainWindow(app_settings=app_settings)  # remembered
    qtbot.addWidget(again)
    assert again.scan_settings.extractor == "resiliparse" and again.scan_settings.use_cache is False
    # no menu item sets it: the window never follows symbolic links out of the folder (issue 13)
    assert window.scan_settings.follow_links is False and again.scan_settings.follow_links is False
    cache = default_cache_dir() / CACHE_FILE
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"x" * 100)
    assert window.clear_feature_cache() == 100 and not os.path.exists(cache)
    window.close()
    again.close()


def _window_counting_exports(qtbot, make_window, sample_scan, monkeypatch):
    """A shown window on the samples whose Export dialog is not opened but counted: ``(window,
    list that gets a 1 per dialog asked for)``."""
    from dedup_gui.gui.export_dialog import ExportDialog

    asked: list[int] = []
    monkeypatch.setattr(ExportDialog, "exec", lambda self: asked.append(1) or ExportDialog.DialogCode.Rejected)
    win = make_window(sample_scan)
    win.show()
    qtbot.waitExposed(win)
    return win, asked


def test_window_shortcuts_work_while_the_filter_box_has_the_focus(qtbot, make_window, sample_scan, monkeypatch):
    # On X11 a line edit claims Ctrl+E ("end of line") before any shortcut sees it, so File >
    # Export did nothing from the filter box.  The offscreen platform's line edit does not claim
    # it, so a box that claims every Ctrl key stands in for X11's here.
    from tests.gui.conftest import ClaimingLineEdit

    win, asked = _window_counting_exports(qtbot, make_window, sample_scan, monkeypatch)
    box = ClaimingLineEdit(win.pairs_panel)
    box.show()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == []  # the box took the key: the shortcut never ran
    box.installEventFilter(win._shortcuts_first)  # as the window does for its filter boxes
    qtbot.keyClick(box, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == [1]  # File > Export asked for its dialog
    # the box keeps its editing keys: Ctrl+A selects its text
    box.setText("audax")
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert box.selectedText() == "audax"
    # the window's own filter boxes pass the window's shortcuts on (an event the filter ignores)
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent

    override = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert win._shortcuts_first.eventFilter(win.pairs_panel.text_filter, override) is True
    assert not override.isAccepted()


def test_columns_fitted_while_a_filter_hides_every_row_keep_their_width(qtbot, make_window, sample_scan):
    # A filter that hid every row when a result arrived left the path columns at their
    # headers' width ("de…ml") after it was cleared.
    win = make_window(sample_scan)
    panel = win.pairs_panel
    panel.model.set_text_filter("no such page anywhere")
    assert panel.model.rowCount() == 0
    panel.fit_columns(1600)
    header = panel.view.horizontalHeader()
    longest = max(len(p.path) for p in sample_scan.pages)
    assert header.sectionSize(0) > header.sectionSizeHint(0) + 100 and longest > 40
    panel.model.set_text_filter("")
    assert panel.model.rowCount() > 0


def test_window_shortcuts_work_while_a_threshold_spin_box_has_the_focus(qtbot, make_window, sample_scan, monkeypatch):
    # A spin box hands a key's ShortcutOverride to its line edit, which on X11 claims Ctrl+E
    # ("end of line"): File > Export did nothing from the thresholds panel.  The offscreen line
    # edit claims nothing, so a line edit that claims every Ctrl key stands in for X11's.
    from tests.gui.conftest import ClaimingLineEdit

    win, asked = _window_counting_exports(qtbot, make_window, sample_scan, monkeypatch)
    panel = win.thresholds_panel
    boxes = (panel.content_same, panel.content_partial, panel.layout_same, panel.hamming_k)
    for n, box in enumerate(boxes, 1):
        box.setLineEdit(ClaimingLineEdit(box))
        box.setFocus()
        qtbot.waitUntil(box.hasFocus)
        qtbot.keyClick(box, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
        assert len(asked) == n  # File > Export asked for its dialog
        # the box keeps its editing keys: Ctrl+A selects its text
        qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        assert box.lineEdit().selectedText() == box.cleanText() != ""


def test_the_type_combo_offers_the_pairs_the_last_thresholds_changed(qtbot, make_window, sample_scan):
    # "Thresholds applied: 2 pairs re-classified" and nothing marked or filtered those pairs.
    # (The samples have a labels file, EXPECTED.csv: "Differs from label (N)" comes last.)
    win = make_window(sample_scan)
    panel, combo = win.pairs_panel, win.pairs_panel.type_combo

    def extra_entries() -> list[str]:
        return [combo.itemText(i).rpartition(" (")[0] for i in range(len(TYPE_FILTERS), combo.count())]

    qtbot.waitUntil(lambda: extra_entries() == ["Differs from label"], timeout=LONG)  # no re-classification yet
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        win.thresholds_panel.content_partial.setValue(0.6)
    assert extra_entries() == ["Changed by the last re-classification", "Differs from label"]
    assert combo.itemText(len(TYPE_FILTERS)) == "Changed by the last re-classification (2)"
    combo.setCurrentIndex(len(TYPE_FILTERS))
    assert panel.model.rowCount() == 2
    tips = [panel.model.data(panel.model.index(r, 2), Qt.ItemDataRole.ToolTipRole) for r in range(2)]
    assert all(t.startswith("distinct; ") and t.endswith(" before the last re-classification") for t in tips), tips
    combo.setCurrentIndex(0)  # All types: every pair again
    assert panel.model.rowCount() == 7
    combo.setCurrentIndex(len(TYPE_FILTERS))
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.rescan()  # a new scan: nothing to compare with, the entry goes and every pair shows
    assert extra_entries() == ["Differs from label"] and combo.currentIndex() == 0 and panel.model.rowCount() == 7


def test_screenshot_pair_errors_say_what_is_wrong(sample_scan):
    # "--pair pages/x.html pages/y.html" (paths as a labels file beside the folder writes them)
    # said only "the scan has no pair of pages/x.html and pages/y.html"
    from dedup_gui.gui.screenshot import missing_pair_text

    first = sample_scan.pages[0].path
    assert missing_pair_text(sample_scan, "pages/" + first, first) == (
        f"pages/{first}: no page of the scan (--pair takes paths relative to the scanned folder, e.g. {first})"
    )
    compared = {(p.left, p.right) for p in sample_scan.pairs} | {(p.right, p.left) for p in sample_scan.pairs}
    n = len(sample_scan.pages)
    i, j = next((i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in compared)
    a, b = sample_scan.pages[i].path, sample_scan.pages[j].path
    assert (
        missing_pair_text(sample_scan, a, b)
        == f"the scan never compared {a} and {b} (not a candidate pair: too different)"
    )
