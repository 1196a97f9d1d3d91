"""The main window's commands that act on what it shows: the teaching window, the keyboard
focus, images of the views, the export, and folders dropped onto the window.

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow` (kept apart so that the window
module holds the views and their synchronization).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from dedup_gui.core.views.selection import find_pair
from dedup_gui.core.views.session import export_done_text
from dedup_gui.gui.export_dialog import ExportDialog, shown_pairs
from dedup_gui.gui.file_actions import dropped_folder, open_file, show_in_folder
from dedup_gui.gui.images import ask_save_widget_image, save_widget_image
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.tables.table_panel import TablePanel
from dedup_gui.gui.teaching import TeachingWindow


class WindowActions:
    """The main window's commands on its views: a mixin before ``QMainWindow`` in
    :class:`~dedup_gui.gui.main_window.MainWindow`, which sets the views, ``result``,
    ``exporter`` and ``_image_dir`` these methods use."""

    _export_dir: str | None = None  # the folder of the last export, offered for the next

    # --- teaching ---------------------------------------------------------------------------

    def open_teaching(self) -> None:
        """Open the teaching window (Teach > Teaching Views) on the current scan and the pair
        selected here (its SimHash, Jaccard and Hamming views show that pair's pages; used
        again, the open window moves to the pair selected now); its gallery's "Open in
        inspector" and its method comparison's labelled pairs select that pair here, and the
        labels the comparison ran on label the pairs table."""
        pair = self._selected_pair_paths()
        if getattr(self, "teaching_window", None) is None:
            self.teaching_window = TeachingWindow(self.result, parent=self, pair=pair)

            def open_pair(left: str, right: str) -> None:
                index = find_pair(self.result, left, right)
                if index is not None:
                    self.select_pair(index)
                    self.raise_()
                    self.activateWindow()

            self.teaching_window.open_pair.connect(open_pair)
            # the method comparison's labelled pairs open here; its labels label the pairs table
            methods = self.teaching_window.methods_view
            methods.show_pair_in_window = self.show_labelled_pair
            methods.finished.connect(lambda run: self.use_labels(run.labels_csv))
            # re-classified: the same pages, so each view keeps the pages the teacher chose there
            self.results_changed.connect(lambda: self.teaching_window.update_result(self.result))
        elif self.teaching_window.result is not self.result:
            self.teaching_window.set_result(self.result, pair)
        elif pair is not None:
            self.teaching_window.show_pair(*pair)
        self.teaching_window.show()
        self.teaching_window.raise_()

    def _selected_pair_paths(self) -> tuple[str, str] | None:
        """The paths of the two pages of the pair selected in the pairs table, or ``None``."""
        index = self.current_pair_index()
        if self.result is None or index is None:
            return None
        pair = self.result.pairs[index]
        return self.result.pages[pair.left].path, self.result.pages[pair.right].path

    # --- focus ------------------------------------------------------------------------------

    def focus_inspector(self) -> None:
        """Move the keyboard focus into the inspector's current tab (Enter on a pair)."""
        view = self.inspector.currentWidget()
        (view or self.inspector).setFocus(Qt.FocusReason.ShortcutFocusReason)
        if view is not None:
            view.focusNextChild()

    def show_tab(self, widget: QWidget) -> None:
        """Show the top tab holding ``widget`` and give it the focus."""
        self.tabs.setCurrentWidget(widget)
        target = widget.view if isinstance(widget, TablePanel) else widget.canvas
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_filter(self) -> None:
        """Move the focus to the file-name filter of the shown table (Ctrl+F)."""
        panel = self.tabs.currentWidget()
        if not isinstance(panel, TablePanel):
            panel = self.pairs_panel
            self.tabs.setCurrentWidget(panel)
        panel.text_filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        panel.text_filter.selectAll()

    # --- images -----------------------------------------------------------------------------

    def current_view(self) -> QWidget:
        """The view "Save View as Image" saves: the inspector tab or side panel that has the
        keyboard focus, else the shown top tab (QWidget)."""
        focus = QApplication.focusWidget()
        for container, view in ((self.inspector, self.inspector.currentWidget()),
                                (self.clusters_dock, self.clusters_view),
                                (self.thresholds_dock, self.thresholds_panel)):  # fmt: skip
            if focus is not None and view is not None and (focus is container or container.isAncestorOf(focus)):
                return view
        return self.tabs.currentWidget()

    def save_image(self, widget: QWidget, path: str | Path) -> Path:
        """Save an image of ``widget`` as PNG at ``path`` (atomically); return the path."""
        return save_widget_image(widget, path)

    def ask_save_image(self, widget: QWidget | None = None) -> None:
        """Ask for a PNG file name and save an image of ``widget`` (the current view) there."""
        folder = ask_save_widget_image(self, widget or self.current_view(), self._image_dir)
        if folder is not None:
            self._image_dir = folder

    # --- export ------------------------------------------------------------------------------

    def ask_export(self) -> None:
        """File > Export…: ask for a format, the scope and a file, then export in the background."""
        if self.result is None:
            return
        # the last export's folder, else beside the scanned folder (never in it: the input
        # folder is only read); the file named after it
        root = Path(self.result.root)
        folder = self._export_dir or str(root.parent)
        fmt = self._export_format
        dialog = ExportDialog(self.pairs_panel.model.rowCount(), len(self.result.pairs), folder, self, fmt,
                              scanned=root.name)  # fmt: skip
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        fmt, path, only_shown = dialog.choice()
        self._export_format = fmt
        if path:
            self._export_dir = str(Path(path).expanduser().parent)
            self.export_to(path, fmt, only_shown)

    def export_to(self, path: str | Path, fmt: str | None = None, only_shown: bool = False) -> None:
        """Write a report of the result in force to ``path`` off the GUI thread.

        Args:
            path: the file to write.
            fmt: a key of :data:`dedup_gui.export.EXPORT_FORMATS`, or ``None`` for the suffix's.
            only_shown: export only the pairs the pairs table shows (its filters), in its order.
        """
        if self.result is None:
            return
        pairs = shown_pairs(self.pairs_panel) if only_shown else None
        self.exporter.start(self.result, str(path), fmt, pairs)

    def _on_export_finished(self, path: str) -> None:
        """Say what was written, with buttons to open it or show it in its folder."""
        text = export_done_text(path)
        self.statusBar().showMessage(text, 15000)
        box = plain_message_box(QMessageBox.Icon.Information, "Export", f"{text}\n{path}", self,
                                QMessageBox.StandardButton.Close)  # fmt: skip
        open_button = box.addButton("Open", QMessageBox.ButtonRole.ActionRole)
        folder_button = box.addButton("Show in Folder", QMessageBox.ButtonRole.ActionRole)
        open_button.clicked.connect(lambda: open_file(path))
        folder_button.clicked.connect(lambda: show_in_folder(path))
        box.setWindowModality(Qt.WindowModality.NonModal)  # a notice: the window stays usable
        self.export_notice = box
        box.show()

    def _on_export_failed(self, message: str) -> None:
        if message == "cancelled":
            self.statusBar().showMessage("Export cancelled", 8000)
        else:
            plain_message_box(QMessageBox.Icon.Warning, "Export failed", message, self).open()

    # --- drag and drop ----------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Accept a folder dragged onto the window."""
        if dropped_folder(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Keep accepting a dragged folder while it moves over the window."""
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Scan a folder dropped onto the window."""
        folder = dropped_folder(event.mimeData())
        if folder:
            event.acceptProposedAction()
            self.start_scan(folder)
        else:
            event.ignore()
