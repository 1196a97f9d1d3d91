"""The main window's ignore list: "Not a Duplicate" on a pair (pairs table, Decide menu, Ctrl+D)
or on a page against its keep cluster (clusters tree), and Decide > Ignore List….

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow`, beside
:class:`~dedup_gui.gui.window_decisions.KeepDecisions`.  The logic is in
:mod:`dedup_gui.core.views.ignore_list` (no Qt): a mark gives a new ignore list; the window
swaps its results for ones re-typed with it (in the background, as a threshold change) and saves
it per folder with the keep choices, where the next scan of the folder finds it.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from dedup_gui.core.views.ignore_list import (
    PathPairs,
    marking_page_against_cluster,
    marking_pair,
    normalized,
    renot,
    unmarking,
)
from dedup_gui.gui.ignore_list_dialog import IgnoreListDialog
from dedup_gui.gui.tables.clusters_view import NOT_DUPLICATE_SHORTCUT


class IgnoreDecisions:
    """The ignore list of the main window: a mixin before ``QMainWindow``, which sets the
    ``session``, the views, ``app_settings`` and ``reclassify`` these methods use."""

    ignore_dialog: IgnoreListDialog | None = None

    def ignore_list(self) -> PathPairs:
        """The folder's ignore list now (the scan's own result's; ``()`` without a result)."""
        scan = self.scan_result
        return () if scan is None else scan.not_duplicates

    def page_paths(self) -> frozenset[str]:
        """The page paths of the folder's scan (``frozenset()`` without a result)."""
        scan = self.scan_result
        return frozenset() if scan is None else frozenset(page.path for page in scan.pages)

    # --- marking --------------------------------------------------------------------------------

    def mark_current_not_duplicate(self) -> bool:
        """Decide > Not a Duplicate (Ctrl+D): the page selected in the cluster tree against its
        keep cluster when the tree has the focus, else the pairs table's current pair (bool:
        whether it was possible; the status bar says why not)."""
        page = self.clusters_view.current_page()
        if self.refused_while_scanning():
            return False
        if self.clusters_view.tree.hasFocus() and page is not None:
            return self.mark_page_not_duplicate(page)
        record = self.pairs_panel.current_record()
        if record >= 0:
            return self.mark_pair_not_duplicate(record)
        self.statusBar().showMessage("Select a pair (in the pairs table) or a page of a keep cluster", 8000)
        return False

    def mark_pair_not_duplicate(self, record: int) -> bool:
        """Mark pair ``record`` (index into ``result.pairs``) not a duplicate (bool: whether it
        was possible)."""
        result = self.result
        if result is None or self.refused_while_scanning():
            return False
        try:
            pairs = marking_pair(result, record)
        except ValueError as exc:
            self.statusBar().showMessage(f"Nothing to mark: {exc}", 8000)
            return False
        pair = result.pairs[record]
        names = f"{result.pages[pair.left].path} and {result.pages[pair.right].path}"
        return self.set_ignore_list(pairs, f"Marked {names} not a duplicate (saved for rescans)",
                                    f"Marking {names} not a duplicate")  # fmt: skip

    def mark_page_not_duplicate(self, page: int) -> bool:
        """Mark page ``page`` (index into ``result.pages``) not a duplicate of any other page of
        its keep cluster (bool: whether it was possible)."""
        result = self.result
        if result is None or self.refused_while_scanning():
            return False
        try:
            pairs = marking_page_against_cluster(result, page)
        except ValueError as exc:
            self.statusBar().showMessage(f"Nothing to mark: {exc}", 8000)
            return False
        added = len(pairs) - len(result.not_duplicates)
        message = (
            f"Marked {result.pages[page].path} not a duplicate of {added} page{'s' * (added != 1)} (saved for rescans)"
        )
        return self.set_ignore_list(pairs, message, f"Marking {result.pages[page].path} not a duplicate")

    def remove_not_duplicates(self, pairs: PathPairs) -> bool:
        """Take ``pairs`` off the ignore list: they are classified by their measures again
        (bool: whether the list changed)."""
        result = self.result
        if result is None or self.refused_while_scanning():
            return False
        return self.set_ignore_list(unmarking(result, pairs), f"Removed {len(pairs)} pair(s) from the ignore list")

    def add_not_duplicates(self, pairs: PathPairs) -> bool:
        """Add ``pairs`` to the ignore list (an import) (bool: whether the list changed)."""
        return self.set_ignore_list(
            normalized((*self.ignore_list(), *pairs)), f"Ignore list: {len(pairs)} pair(s) read"
        )

    def set_ignore_list(self, pairs: PathPairs, message: str = "", doing: str = "") -> bool:
        """Make ``pairs`` the folder's ignore list: the scan's own result takes it, the result
        shown is re-typed with it in the background (:attr:`results_changed` follows), and it is
        saved for later scans of the folder.  The status line says ``doing`` while the pairs
        are re-classified, then ``message`` with the pairs re-classified (see
        :meth:`~dedup_gui.gui.main_window.MainWindow.reclassify`).

        Returns:
            ``False`` when there is no result, a scan runs, or the list is unchanged; else ``True``.
        """
        result, scan = self.result, self.scan_result
        if result is None or scan is None or self.refused_while_scanning() or pairs == scan.not_duplicates:
            return False
        self.session.set_not_duplicates(pairs)
        self._save_folder_decisions()
        self.reclassify(renot, result, self.session.scan_result, pairs, self.session.thresholds,
                        doing=doing, done=message or "Ignore list changed")  # fmt: skip
        if self.ignore_dialog is not None:
            self.ignore_dialog.refresh()
        return True

    # --- menus and the dialog -------------------------------------------------------------------

    def pairs_menu_extras(self, menu: QMenu, record: int) -> None:
        """Put "Not a Duplicate" (``objectName`` ``not-duplicate``) at the top of the pairs
        table's context menu for pair ``record``, or "Remove from the Ignore List" for a pair
        marked already."""
        result = self.result
        if result is None or not 0 <= record < len(result.pairs):
            return
        first = menu.actions()[0] if menu.actions() else None
        if result.pairs[record].not_duplicate:
            pair = result.pairs[record]
            paths = ((result.pages[pair.left].path, result.pages[pair.right].path),)
            action = QAction("Remove from the Ignore List", menu)
            action.triggered.connect(lambda: self.remove_not_duplicates(paths))
        else:
            action = QAction("Not a Duplicate", menu)
            action.setShortcut(QKeySequence(NOT_DUPLICATE_SHORTCUT))
            action.triggered.connect(lambda: self.mark_pair_not_duplicate(record))
        action.setObjectName("not-duplicate")
        action.setEnabled(not self.is_scanning())  # see set_deciding_enabled
        menu.insertAction(first, action)
        menu.insertSeparator(first)
        self.pairs_keep_extras(menu, record, first)  # window_decisions: keep either page instead

    def open_ignore_list(self) -> IgnoreListDialog:
        """Decide > Ignore List…: show the dialog (one per window, not modal)."""
        if self.ignore_dialog is None:
            self.ignore_dialog = IgnoreListDialog(self.ignore_list, self.remove_not_duplicates,
                                                  self.add_not_duplicates, self, self.page_paths)  # fmt: skip
            self.results_changed.connect(self.ignore_dialog.refresh)
            self.scan_ended.connect(lambda _outcome: self.ignore_dialog.refresh())  # another folder's list
        self.ignore_dialog.set_editable(not self.is_scanning())
        self.ignore_dialog.refresh()
        self.ignore_dialog.show()
        self.ignore_dialog.raise_()
        return self.ignore_dialog

    def _connect_ignore_list(self) -> None:
        self.clusters_view.not_duplicate_requested.connect(self.mark_page_not_duplicate)
        self.pairs_panel.menu_extras = self.pairs_menu_extras
