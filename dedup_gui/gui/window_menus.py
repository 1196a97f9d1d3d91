"""The main window's menus and toolbar: File (open, open recent, save images, quit) and View
(show a tab, the inspector, the filter box, the side panels).

Kept apart from :mod:`dedup_gui.gui.main_window` so the window module holds behaviour, this one
the list of commands and their shortcuts.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from dedup_gui.core.extraction.extract import EXTRACTORS
from dedup_gui.gui.tables.clusters_view import (
    KEEP_INSTEAD_SHORTCUT,
    NEXT_CLUSTER_SHORTCUT,
    NOT_DUPLICATE_SHORTCUT,
    PREVIOUS_CLUSTER_SHORTCUT,
)
from dedup_gui.gui.window_decisions import REPRIORITIZE_SHORTCUT

#: The window these functions fill: a ``QMainWindow`` with the main window's slots and settings
#: (typed loosely so this module does not import :mod:`dedup_gui.gui.main_window`, which imports it).
MainWindow = QMainWindow


def _menu_text(path: str) -> str:
    """A path as menu text: ``&`` doubled, so it is not taken for a keyboard accelerator."""
    return path.replace("&", "&&")


def fill_recent_menu(window: MainWindow, menu: QMenu) -> None:
    """Rebuild File > Open Recent from the remembered folders (called as the menu opens)."""
    menu.clear()
    folders = window.app_settings.recent_folders()
    for folder in folders:
        action = menu.addAction(_menu_text(folder))
        action.triggered.connect(lambda _checked=False, f=folder: window.open_recent(f))
    if not folders:
        menu.addAction("No recent folders").setEnabled(False)
    menu.addSeparator()
    clear = menu.addAction("Clear Recent Folders")
    clear.setEnabled(bool(folders))
    clear.triggered.connect(lambda: window.app_settings.set_recent_folders([]))


def _action(window: MainWindow, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(slot)
    return action


def build_menus(window: MainWindow) -> None:
    """Create the window's actions, menus and toolbar.

    Sets ``window.open_action``, ``window.open_warc_action``, ``window.recent_menu``, ``window.save_view_action``,
    ``window.save_window_action``, ``window.export_action``, ``window.quit_action`` and
    ``window.tab_actions`` (one per top tab, Ctrl+1..5).
    """
    w = window
    w.open_action = _action(w, "&Open Folder…", w.open_folder, QKeySequence.StandardKey.Open,
                            "Scan a folder of saved pages")  # fmt: skip
    w.open_warc_action = _action(w, "Open &WARC File…", w.open_warc_file, None,
                                 "Scan a crawl archive (.warc, .warc.gz): its HTML records are the pages")  # fmt: skip
    w.recent_menu = QMenu("Open &Recent", w)
    w.recent_menu.aboutToShow.connect(lambda: fill_recent_menu(w, w.recent_menu))
    fill_recent_menu(w, w.recent_menu)
    w.save_view_action = _action(w, "Save &View as Image…", lambda: w.ask_save_image(), "Ctrl+Shift+S",
                                 "Save a PNG image of the view in focus (a table, chart or inspector tab)")  # fmt: skip
    w.save_window_action = _action(w, "Save &Window as Image…", lambda: w.ask_save_image(w), None,
                                   "Save a PNG image of the whole window")  # fmt: skip
    w.quit_action = _action(w, "&Quit", w.close, QKeySequence.StandardKey.Quit)

    menu = w.menuBar().addMenu("&File")
    menu.addAction(w.open_action)
    menu.addAction(w.open_warc_action)
    menu.addMenu(w.recent_menu)
    menu.addSeparator()
    menu.addAction(w.save_view_action)
    menu.addAction(w.save_window_action)
    menu.addSeparator()
    tip = "Write a report (HTML, PDF, JSON, CSV) of everything or of what the filters show"
    w.export_action = _action(w, "&Export…", w.ask_export, "Ctrl+E", tip)
    menu.addAction(w.export_action)
    w.copy_kept_action = _action(w, "&Copy the Kept Pages to a New Folder…", w.ask_copy_kept, None,
                                 "Write a deduplicated copy of the scanned folder: every file but the pages to "
                                 "drop, the tree kept (the scanned folder is only read)")  # fmt: skip
    menu.addAction(w.copy_kept_action)
    menu.addSeparator()
    menu.addAction(w.quit_action)

    scan = w.menuBar().addMenu("&Scan")
    w.rescan_action = _action(w, "&Rescan", w.rescan, "F5", "Scan the current folder again")
    scan.addAction(w.rescan_action)
    extractor_menu = scan.addMenu("Main-Content &Extractor")
    group = QActionGroup(w)
    w.extractor_actions = {}
    for name, description in EXTRACTORS.items():
        action = QAction(description, w, checkable=True)
        action.setChecked(w.scan_settings.extractor == name)
        action.triggered.connect(lambda _c=False, n=name: w.set_extractor(n))
        group.addAction(action)
        extractor_menu.addAction(action)
        w.extractor_actions[name] = action
    w.cache_action = QAction("Use the &Feature Cache", w, checkable=True)
    w.cache_action.setChecked(w.scan_settings.use_cache)
    w.cache_action.toggled.connect(w.set_use_cache)
    scan.addAction(w.cache_action)
    scan.addAction(_action(w, "&Clear Feature Cache", w.clear_feature_cache, None,
                           "Delete the cached features of every scanned page"))  # fmt: skip

    decide = w.menuBar().addMenu("&Decide")
    w.next_cluster_action = _action(w, "&Next Cluster", lambda: w.step_cluster(1), NEXT_CLUSTER_SHORTCUT,
                                    "Select the next cluster's first page (the page kept) in the cluster tree")  # fmt: skip
    w.previous_cluster_action = _action(w, "&Previous Cluster", lambda: w.step_cluster(-1),
                                        PREVIOUS_CLUSTER_SHORTCUT, "Select the previous cluster's first page")  # fmt: skip
    decide.addAction(w.next_cluster_action)
    decide.addAction(w.previous_cluster_action)
    decide.addSeparator()
    w.keep_instead_action = _action(w, "&Keep This Page Instead", w.keep_current_page_instead,
                                    KEEP_INSTEAD_SHORTCUT, "Keep the selected page in its keep cluster instead of the "
                                    "page the rule keeps (remembered for rescans of the folder)")  # fmt: skip
    decide.addAction(w.keep_instead_action)
    w.not_duplicate_action = _action(w, "Not a &Duplicate", w.mark_current_not_duplicate, NOT_DUPLICATE_SHORTCUT,
                                     "Mark the selected pair (or the selected page against its keep cluster) not a "
                                     "duplicate: distinct under any thresholds, remembered for rescans")  # fmt: skip
    decide.addAction(w.not_duplicate_action)
    w.ignore_list_action = _action(w, "&Ignore List…", w.open_ignore_list, None,
                                   "The pairs marked not a duplicate: remove, export or import them as CSV")  # fmt: skip
    decide.addAction(w.ignore_list_action)
    w.reprioritize_action = _action(w, "&Re-prioritize…", w.open_reprioritize, REPRIORITIZE_SHORTCUT,
                                    "Order the criteria that choose the page to keep, a preferred pattern and "
                                    "reference folders (applied at once, remembered for rescans)")  # fmt: skip
    decide.addAction(w.reprioritize_action)
    decide.addSeparator()
    cluster_modes = QActionGroup(w)
    w.cluster_mode_actions = {}
    for key, label in w.clusters_view.MODES:
        action = QAction(f"Show {label}", w, checkable=True)
        action.setChecked(w.clusters_view.mode() == key)
        action.triggered.connect(lambda _c=False, k=key: w.clusters_view.set_mode(k))
        cluster_modes.addAction(action)
        decide.addAction(action)
        w.cluster_mode_actions[key] = action
    w.clusters_view.mode_combo.currentIndexChanged.connect(
        lambda i: w.cluster_mode_actions[w.clusters_view.MODES[i][0]].setChecked(True))  # fmt: skip

    teach = w.menuBar().addMenu("&Teach")
    w.teaching_action = _action(w, "&Teaching Views…", w.open_teaching, "Ctrl+T",
                                "SimHash step by step, shingles and Jaccard, Hamming distance, the four "
                                "types, and every method compared")  # fmt: skip
    teach.addAction(w.teaching_action)

    view = w.menuBar().addMenu("&View")
    w.tab_actions = []
    names = ("Pairs", "Pages", "Errors", "Histogram", "Map")
    for i, name in enumerate(names):
        widget = w.tabs.widget(i)
        action = _action(w, f"&{name}", lambda _c=False, wd=widget: w.show_tab(wd), f"Ctrl+{i + 1}")
        view.addAction(action)
        w.tab_actions.append(action)
    view.addAction(_action(w, "&Inspector", w.focus_inspector, "Ctrl+I",
                           "Move the focus to the pair inspector (Enter on a pair does too)"))  # fmt: skip
    view.addAction(_action(w, "&Filter by File Name", w.focus_filter, QKeySequence.StandardKey.Find))
    view.addSeparator()
    for dock, key in ((w.clusters_dock, "Ctrl+Shift+C"), (w.thresholds_dock, "Ctrl+Shift+T")):
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence(key))
        view.addAction(toggle)

    toolbar = w.addToolBar("Main")
    toolbar.setObjectName("main_toolbar")
    toolbar.setMovable(False)
    toolbar.addAction(w.open_action)
