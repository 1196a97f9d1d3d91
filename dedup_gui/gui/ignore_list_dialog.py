"""Decide > Ignore List…: the pairs marked "not a duplicate" for the folder shown, to review,
remove, export and import as CSV (dupeGuru's Ignore List dialog).

The dialog only shows and asks: the list is the window's (its scan result's
:attr:`~dedup_gui.core.model.ScanResult.not_duplicates`), changed through the callables it is
given; reading and writing the CSV is :mod:`dedup_gui.core.views.ignore_list`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.atomic import atomic_write_text
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.ignore_list import ignore_list_csv, read_ignore_list_file, split_by_pages
from dedup_gui.gui.screen_fit import fit_to_screen

PathPairs = tuple[tuple[str, str], ...]


class IgnoreListDialog(QDialog):
    """The ignore list of the folder shown, as a two-column table (left, right page path).

    Args:
        pairs: returns the list now (``() -> tuple[tuple[str, str], ...]``).
        remove: removes the given pairs from it (``pairs -> bool``: whether anything changed).
        add: adds the given pairs to it (``pairs -> bool``).
        parent: the window.
        pages: returns the page paths of the folder's scan (``() -> Collection[str]``); an
            imported pair naming another path is skipped, and the status line says how many
            (``None``: every pair is taken).

    Attributes:
        table: the pairs, one row each, in the list's order (``QTableWidget``).
        status_label: what the last action did, or why it could not (plain text).
    """

    def __init__(self, pairs: Callable[[], PathPairs], remove: Callable[[PathPairs], bool],
                 add: Callable[[PathPairs], bool], parent: QWidget | None = None,
                 pages: Callable[[], Collection[str]] | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Ignore List")
        self._pairs, self._remove, self._add, self._pages = pairs, remove, add, pages
        self._shown: PathPairs = ()
        self._dir = str(Path.home())
        intro = QLabel(
            "Pairs you marked “not a duplicate”: they are distinct under any thresholds, never in one "
            "keep cluster, and marked again in every rescan of this folder."
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Left", "Right"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.remove_button = QPushButton("&Remove Selected")
        self.remove_button.clicked.connect(self.remove_selected)
        self.export_button = QPushButton("&Export CSV…")
        self.export_button.clicked.connect(self.ask_export)
        self.import_button = QPushButton("&Import CSV…")
        self.import_button.clicked.connect(self.ask_import)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)
        buttons = QHBoxLayout()
        for button in (self.remove_button, self.export_button, self.import_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status_label)
        layout.addLayout(buttons)
        self.resize(720, 380)
        fit_to_screen(self)  # a 1024x640 screen shows it whole (its buttons too)
        self.refresh()

    def refresh(self) -> None:
        """Show the list as it is now."""
        pairs = self._pairs()
        if pairs == self._shown and self.table.rowCount() == len(pairs):
            return
        self._shown = pairs
        self.table.setRowCount(len(pairs))
        for row, pair in enumerate(pairs):
            for col, path in enumerate(pair):
                item = QTableWidgetItem(show_control_characters(path))  # a path is untrusted text
                item.setToolTip(show_control_characters(path))
                self.table.setItem(row, col, item)
        self._update_buttons()

    def rows(self) -> list[tuple[str, str]]:
        """The table's rows as shown (list[tuple[str, str]])."""
        return [(self.table.item(r, 0).text(), self.table.item(r, 1).text()) for r in range(self.table.rowCount())]

    def selected_pairs(self) -> PathPairs:
        """The pairs of the selected rows, in the list's order."""
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return tuple(self._shown[r] for r in rows if r < len(self._shown))

    _editable = True  # Remove and Import offered (not while the window scans)

    def set_editable(self, editable: bool) -> None:
        """Offer Remove and Import (``True``), or only viewing and Export (``False``: while a
        scan runs, the list shown is the last results' and a change would be stored under the
        folder scanned)."""
        if self._editable != bool(editable):
            self._editable = bool(editable)
            self.status_label.setText("" if editable else "A scan is running: the list can be changed once it ends.")
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(self._editable and bool(self.table.selectionModel().selectedRows()))
        self.import_button.setEnabled(self._editable)
        self.export_button.setEnabled(bool(self._shown))

    def remove_selected(self) -> bool:
        """Remove the selected pairs from the list (bool: whether any was removed)."""
        pairs = self.selected_pairs()
        if not pairs or not self._remove(pairs):
            return False
        self.status_label.setText(f"Removed {len(pairs)} pair{'s' * (len(pairs) != 1)}: the pages are compared again.")
        self.refresh()
        return True

    def export_to(self, path: str | Path) -> bool:
        """Write the list as CSV (``left,right``, spreadsheet-safe) to ``path`` (bool: whether it
        was written; the status line says why not)."""
        try:
            atomic_write_text(path, ignore_list_csv(self._pairs()))
        except OSError as exc:
            self.status_label.setText(f"Could not write {path}: {exc.strerror or exc}")
            return False
        self.status_label.setText(f"Wrote {len(self._pairs())} pairs to {path}")
        return True

    def import_from(self, path: str | Path) -> bool:
        """Add the pairs of the CSV file ``path`` that name pages of the scan to the list (bool:
        whether it was read; a bad file adds nothing and the status line says why, pairs naming
        no page of the scan are skipped and counted there)."""
        try:
            pairs = read_ignore_list_file(path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.status_label.setText(f"Nothing imported from {path}: {reason}")
            return False
        known, unknown = (pairs, ()) if self._pages is None else split_by_pages(pairs, self._pages())
        before = len(self._pairs())
        if known:
            self._add(known)
        self.refresh()
        added = len(self._pairs()) - before
        message = f"Read {len(pairs)} pair{'s' * (len(pairs) != 1)} from {path}; {added} new."
        if unknown:
            n = len(unknown)
            message += f" {n} pair{'s' * (n != 1)} name{'s' * (n == 1)} no page of this folder: skipped."
        self.status_label.setText(message)
        return True

    def ask_export(self) -> None:
        """Ask where to export the list, then export it."""
        path, _ = QFileDialog.getSaveFileName(self, "Export Ignore List", str(Path(self._dir) / "ignore-list.csv"),
                                              "CSV (*.csv)")  # fmt: skip
        if path:
            self._dir = str(Path(path).parent)
            self.export_to(path)

    def ask_import(self) -> None:
        """Ask for a CSV file, then add its pairs to the list."""
        path, _ = QFileDialog.getOpenFileName(self, "Import Ignore List", self._dir, "CSV (*.csv);;All files (*)")
        if path:
            self._dir = str(Path(path).parent)
            self.import_from(path)
