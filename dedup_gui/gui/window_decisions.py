"""The main window's keep decisions: "Keep This Page Instead" from the cluster tree, the pages
table or the keyboard, the keep rule of the Re-prioritize dialog, the keep clusters chosen in
the tree, and the choices stored per folder.

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow`.  The logic is in
:mod:`dedup_gui.core.views.decisions` (no Qt): a choice gives a new keep policy; the window
swaps its results for ones with that policy (in the background, as a threshold change) and saves
the folder's chosen pages beside the settings, where the next scan of the folder finds them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from dedup_gui.core.model import KeepPolicy, ScanResult
from dedup_gui.core.views.decisions import (
    FolderDecisions,
    decisions_of,
    keep_cluster_of_page,
    load_decisions,
    policy_keeping,
    rekeep,
    save_decisions,
)
from dedup_gui.core.views.reclassify_text import kept_instead_text
from dedup_gui.core.views.session import keep_cluster_choice
from dedup_gui.gui.reprioritize_dialog import ReprioritizeDialog
from dedup_gui.gui.tables.clusters_view import KEEP_INSTEAD_SHORTCUT

#: The shortcut of Decide > Re-prioritize….
REPRIORITIZE_SHORTCUT = "Ctrl+Shift+R"


class KeepDecisions:
    """The keep decisions of the main window: a mixin before ``QMainWindow`` in
    :class:`~dedup_gui.gui.main_window.MainWindow`, which sets the ``session``, the views,
    ``app_settings`` and ``reclassify`` these methods use."""

    _kept_page_pending: int | None = None  # the page just chosen, to select once its result is shown
    _kept_from_pair: int | None = None  # the pair (index) it was chosen from, which stays selected
    _kept_instead_of: str | None = None  # the path of the page kept before that choice

    # --- no deciding while a scan runs --------------------------------------------------------

    def set_deciding_enabled(self, enabled: bool) -> None:
        """Turn on or off every command that stores or acts on a decision: Keep This Page
        Instead, Not a Duplicate, Re-prioritize, Copy the Kept Pages (Decide and File menus),
        the same entries of the context menus, and the ignore list dialog's Remove and Import.
        Off while a scan runs: the views show the last results but the session's folder is the
        one scanned, so a decision then would be stored under that folder."""
        for action in (self.keep_instead_action, self.not_duplicate_action, self.reprioritize_action,
                       self.copy_kept_action):  # fmt: skip
            action.setEnabled(enabled)
        self.clusters_view.set_deciding_enabled(enabled)
        if self.ignore_dialog is not None:
            self.ignore_dialog.set_editable(enabled)

    def refused_while_scanning(self) -> bool:
        """Whether a scan runs, so that no decision may be made now; the status bar then says
        so (bool)."""
        if not self.is_scanning():
            return False
        self.statusBar().showMessage("A scan is running: decide once it ends (the results shown are the last ones)",
                                     8000)  # fmt: skip
        return True

    # --- stored choices -----------------------------------------------------------------------

    def load_folder_decisions(self, folder: str) -> FolderDecisions | None:
        """The keep choices stored for ``folder`` (``None`` when the settings are disabled); an
        unreadable file is set aside and said so in the status bar."""
        base = self.app_settings.decisions_dir()
        if base is None:
            return None
        decisions, note = load_decisions(base, folder)
        if note:
            self.statusBar().showMessage(note, 15000)
        return decisions

    def _save_folder_decisions(self) -> None:
        """Save the folder's keep choices, keep rule and ignore list (the scan's own result's)
        beside the settings; a failure is said in the status bar."""
        base, scan = self.app_settings.decisions_dir(), self.scan_result
        # while a scan runs, the folder is the one scanned and the result another's: never save
        if base is None or self.folder is None or scan is None or self.is_scanning():
            return
        try:
            save_decisions(base, decisions_of(self.folder, scan))
        except OSError as exc:
            self.statusBar().showMessage(f"The decision could not be saved for later scans: {exc}", 15000)

    # --- keep this page instead ---------------------------------------------------------------

    def current_page(self) -> int | None:
        """The page "Keep This Page Instead" (Ctrl+K) acts on: the page row selected in the
        cluster tree when it has the focus, else the pages table's current page when its tab
        is shown, else the tree's page row (index into ``result.pages``, or ``None``)."""
        tree_page = self.clusters_view.current_page()
        if self.clusters_view.tree.hasFocus() and tree_page is not None:
            return tree_page
        if self.tabs.currentWidget() is self.pages_panel and self.result is not None:
            record = self.pages_panel.current_record()
            if 0 <= record < len(self.result.pages):
                return record
        return tree_page

    def keep_current_page_instead(self) -> bool:
        """Decide > Keep This Page Instead: keep :meth:`current_page` (bool: whether it was
        possible; the status bar says why not)."""
        page = self.current_page()
        if self.refused_while_scanning():
            return False
        if page is None:
            self.statusBar().showMessage("Select a page of a keep cluster (in the clusters or the pages table)", 8000)
            return False
        return self.keep_page_instead(page)

    def keep_page_instead(self, page: int) -> bool:
        """Keep page ``page`` (index into ``result.pages``) in its keep cluster instead of the
        page the rule keeps: the keep policy of the scan and of the result shown gets the page
        as chosen (replacing another chosen page of its keep cluster), every view follows (in
        the background; :attr:`results_changed` follows), and the choice is saved for later
        scans of the folder.

        Returns:
            ``False`` (with a status line) when there is no result or the page is in no keep
            cluster; else ``True``.
        """
        result, scan = self.result, self.scan_result
        if result is None or scan is None or self.refused_while_scanning():
            return False
        try:
            policy = policy_keeping(result, page)
        except ValueError as exc:
            self.statusBar().showMessage(f"Nothing to keep instead: {exc}", 8000)
            return False
        self.session.set_keep_policy(policy)
        self._save_folder_decisions()
        self._kept_page_pending = page
        before = keep_cluster_of_page(result, page)
        self._kept_instead_of = None if before is None else result.pages[before.keep].path
        path = result.pages[page].path
        self.reclassify(rekeep, result, self.session.scan_result, policy, self.session.thresholds,
                        doing=f"Keeping {path}", done=f"Keeping {path} (your choice, saved for rescans)")  # fmt: skip
        return True

    # --- triage from the keyboard --------------------------------------------------------------

    def step_cluster(self, step: int) -> bool:
        """Decide > Next Cluster (Ctrl+Down) or Previous Cluster (Ctrl+Up): select the next or
        previous cluster's first page in the cluster tree (the panel is shown and gets the focus,
        so Ctrl+K and Ctrl+D act on that page next); the tables follow (bool: moved)."""
        self.clusters_dock.show()
        self.clusters_view.tree.setFocus(Qt.FocusReason.ShortcutFocusReason)
        moved = self.clusters_view.step_cluster(step)
        if not moved:
            self.statusBar().showMessage("No further cluster" if self.result is not None else "No scan yet", 4000)
        return moved

    # --- re-prioritize -------------------------------------------------------------------------

    def open_reprioritize(self) -> bool:
        """Decide > Re-prioritize…: open the dialog (window-modal, as
        :attr:`reprioritize_dialog`) on the keep rule in force; OK applies its rule
        (:meth:`apply_keep_rule`).

        Returns:
            ``False`` (with a status line) when there is no result to apply it to.
        """
        scan = self.scan_result
        if self.refused_while_scanning():
            return False
        if scan is None or self.folder is None:
            self.statusBar().showMessage("Scan a folder first: the keep rule applies to its keep clusters", 8000)
            return False
        dialog = ReprioritizeDialog(scan.keep_policy, self.folder, self)
        dialog.accepted.connect(lambda: self.apply_keep_rule(dialog.policy()))
        dialog.finished.connect(dialog.deleteLater)
        self.reprioritize_dialog = dialog
        dialog.open()
        return True

    def apply_keep_rule(self, policy: KeepPolicy) -> bool:
        """Follow keep policy ``policy`` (its criteria order, pattern and reference folders; the
        chosen pages as they are): only the keep stage runs again, in the background
        (:func:`~dedup_gui.core.views.decisions.rekeep`; :attr:`results_changed` follows), and
        the rule is saved for later scans of the folder.

        Returns:
            ``False`` when there is no result; else ``True``.
        """
        result, scan = self.result, self.scan_result
        if result is None or scan is None or self.refused_while_scanning():
            return False
        policy = KeepPolicy(policy.order, policy.pattern, policy.reference_folders, scan.keep_policy.chosen)
        self.session.set_keep_policy(policy)
        self._save_folder_decisions()
        rule = f"Keep rule: {', '.join(policy.order)}"
        self.reclassify(rekeep, result, self.session.scan_result, policy, self.session.thresholds,
                        doing=rule, done=f"{rule} (saved for rescans)")  # fmt: skip
        return True

    def _after_keep_choice(self, result: ScanResult) -> None:
        """After a result with a new keep choice is shown: select the chosen page in its keep
        cluster, with the tables filtered to it."""
        page, self._kept_page_pending = self._kept_page_pending, None
        if page is None:
            return
        keep = keep_cluster_of_page(result, page)
        if keep is None:
            return
        # over "…: no pair changed type" (the pairs' count): what changed is the kept page
        self.statusBar().showMessage(kept_instead_text(result.pages[page].path, self._kept_instead_of, keep.id), 8000)
        pair, self._kept_from_pair = self._kept_from_pair, None
        if self.clusters_view.mode() == "keep":
            self.clusters_view.highlight_page(page)
            if pair is None:
                self._on_keep_cluster_chosen(keep.id, page)
        if pair is not None:  # chosen on a pair: the tables stay as they were, the pair selected
            self.select_pair(pair, show_table=False)

    # --- the keep clusters in the tree and the tables -------------------------------------------

    def _on_keep_cluster_chosen(self, keep_id: int, page: int) -> None:
        choice = keep_cluster_choice(self.result, keep_id, page)
        if choice is not None:
            self.apply_cluster_choice(choice)

    def pages_menu_extras(self, menu: QMenu, record: int) -> None:
        """Put "Keep This Page Instead" at the top of the pages table's context menu for page
        ``record`` (``objectName`` ``keep-instead``; disabled for a kept page, a page in no keep
        cluster or an error row)."""
        result = self.result
        keep = None
        if result is not None and 0 <= record < len(result.pages):
            keep = self.clusters_view.keep_model.keep_cluster_of(record)
        first = menu.actions()[0] if menu.actions() else None
        kept = keep is not None and keep.keep == record
        action = QAction("This Page Is Kept" if kept else "Keep This Page Instead", menu)
        action.setObjectName("keep-instead")
        action.setShortcut(QKeySequence(KEEP_INSTEAD_SHORTCUT))
        action.setEnabled(keep is not None and not kept and not self.is_scanning())
        action.triggered.connect(lambda: self.keep_page_instead(record))
        menu.insertAction(first, action)
        menu.insertSeparator(first)

    def pairs_keep_extras(self, menu: QMenu, record: int, before: QAction | None = None) -> None:
        """Put "Keep the Left Page Instead" and "Keep the Right Page Instead" (``objectName``
        ``keep-left`` / ``keep-right``) in the pairs table's context menu for pair ``record``,
        before the action ``before`` (``None``: at the top), when its two pages share a keep
        cluster; the side already kept reads "The Left Page Is Kept", disabled.  Nothing for a
        pair whose pages share no keep cluster."""
        result = self.result
        if result is None or not 0 <= record < len(result.pairs):
            return
        pair = result.pairs[record]
        keep_model = self.clusters_view.keep_model
        cluster = keep_model.keep_cluster_of(pair.left)
        other = keep_model.keep_cluster_of(pair.right)
        if cluster is None or other is None or cluster.id != other.id:
            return
        first = before if before is not None else (menu.actions()[0] if menu.actions() else None)
        for side, page in (("left", pair.left), ("right", pair.right)):
            kept = cluster.keep == page
            text = f"The {side.capitalize()} Page Is Kept" if kept else f"Keep the {side.capitalize()} Page Instead"
            action = QAction(text, menu)
            action.setObjectName(f"keep-{side}")
            action.setEnabled(not kept and not self.is_scanning())
            action.triggered.connect(lambda _checked=False, page=page: self._keep_from_pair(page, record))
            menu.insertAction(first, action)
        menu.insertSeparator(first)

    def _keep_from_pair(self, page: int, pair: int) -> None:
        # keep a page of a pair without filtering the tables to its keep cluster (a tester's
        # pairs table read "Pairs (28 of 10,133)" after it, with a chip he had not asked for)
        if self.keep_page_instead(page):
            self._kept_from_pair = pair

    def _connect_decisions(self) -> None:
        self.clusters_view.keep_cluster_chosen.connect(self._on_keep_cluster_chosen)
        self.clusters_view.keep_instead_requested.connect(self.keep_page_instead)
        self.pages_panel.menu_extras = self.pages_menu_extras
