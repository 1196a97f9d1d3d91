"""File > Export…: choose a report format, what to include (everything, or only the pairs the
filters show) and a file; the report is written off the GUI thread with progress and Cancel.

The formats and the writing are :func:`dedup_gui.export.export`; this module only asks and runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import Pair, ScanResult
from dedup_gui.core.progress import CancelToken, ScanCancelled
from dedup_gui.export import EXPORT_FORMATS, default_name, default_suffix, export, format_for
from dedup_gui.gui.inspector.jobs import LatestJob, command_pool
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.screen_fit import fit_to_screen
from dedup_gui.gui.worker import QtProgress


class ExportDialog(QDialog):
    """Asks for the export's format, scope and file.

    Each format has its own default file name (:func:`~dedup_gui.export.default_name`); a name
    typed without a suffix gets the format's, and an existing file is replaced only when the user
    says so.

    Args:
        shown: pairs the pairs table shows now (after its filters).
        total: pairs in the scan.
        folder: the folder the file name starts in.
        parent: the parent widget, or ``None``.
        fmt: the format chosen first (the last one used), a key of
            :data:`~dedup_gui.export.EXPORT_FORMATS`.
        scanned: the scanned folder, whose name the default file names start with
            (:func:`~dedup_gui.export.default_name`, e.g. ``site-duplicates.html``); ``""``
            for the plain names.
    """

    def __init__(self, shown: int, total: int, folder: str, parent: QWidget | None = None, fmt: str = "html",
                 scanned: str = "") -> None:  # fmt: skip
        super().__init__(parent)
        self._names = {key: default_name(key, scanned) for key in EXPORT_FORMATS}
        self.setWindowTitle("Export Report")
        self.format_combo = QComboBox()
        for key, label in EXPORT_FORMATS.items():
            self.format_combo.addItem(label.split(" (*")[0], key)
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(fmt)))
        self.everything = QRadioButton(f"Everything ({total:,} pairs)")
        self.only_shown = QRadioButton(f"Only what the filters show ({shown:,} of {total:,} pairs)")
        self.everything.setChecked(True)
        self.only_shown.setEnabled(shown != total)
        scope = QButtonGroup(self)
        scope.addButton(self.everything)
        scope.addButton(self.only_shown)
        self.path_edit = QLineEdit(str(Path(folder) / self._names[self.format_combo.currentData()]))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.format_combo.currentIndexChanged.connect(self._fix_suffix)
        self.path_edit.textEdited.connect(self._follow_suffix)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        scope_box = QVBoxLayout()
        scope_box.addWidget(self.everything)
        scope_box.addWidget(self.only_shown)
        form = QFormLayout()
        form.addRow("Format:", self.format_combo)
        form.addRow("Include:", scope_box)
        form.addRow("File:", path_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        buttons.accepted.connect(self._confirm)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        fit_to_screen(self)  # a 1024x640 screen shows it whole (its buttons too)

    def choice(self) -> tuple[str, str, bool]:
        """The format key, the file path (the format's suffix added to a name without one), and
        whether only the shown pairs are exported."""
        key = self.format_combo.currentData()
        path = self.path_edit.text().strip()
        if path and not Path(path).suffix:
            path += default_suffix(key)
        return key, path, self.only_shown.isChecked()

    def _confirm(self) -> None:
        """Accept, asking first before an existing file is replaced, or before a folder that
        does not exist yet is made for it (as Copy the Kept Pages makes its new folder)."""
        path = self.choice()[1]
        folder = Path(path).expanduser().parent if path else None
        if folder is not None and not folder.exists():
            box = plain_message_box(QMessageBox.Icon.Question, "Export Report",
                                    f"The folder {folder} does not exist. Make it and write {Path(path).name} there?",
                                    self)  # fmt: skip
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.Yes)
            if box.exec() != QMessageBox.StandardButton.Yes:
                return
            try:
                folder.mkdir(parents=True)
            except OSError as exc:
                plain_message_box(
                    QMessageBox.Icon.Warning, "Export Report", f"Could not make {folder}: {exc}", self
                ).exec()
                return
        if path and Path(path).exists():
            box = plain_message_box(QMessageBox.Icon.Question, "Export Report",
                                    f"{Path(path).name} already exists in {Path(path).parent}. Replace it?", self)  # fmt: skip
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.No)
            if box.exec() != QMessageBox.StandardButton.Yes:
                return
        self.accept()

    def _follow_suffix(self, text: str) -> None:
        """A typed suffix of another format chooses that format ("report.xlsx" with "HTML
        report" chosen wrote HTML into an .xlsx file); ``.csv`` keeps any CSV format chosen."""
        suffix = Path(text.strip()).suffix.lower()
        key = self.format_combo.currentData()
        if not suffix or suffix == default_suffix(key):
            return
        try:
            wanted = format_for(text.strip())
        except ValueError:  # no format has that suffix: the suffix is added at export
            return
        self.format_combo.blockSignals(True)  # keep the typed name as it is
        self.format_combo.setCurrentIndex(self.format_combo.findData(wanted))
        self.format_combo.blockSignals(False)

    def _fix_suffix(self, _index: int) -> None:
        text = self.path_edit.text().strip()
        if not text:
            return
        key = self.format_combo.currentData()
        path = Path(text)
        if path.name in self._names.values():  # a default name follows the format
            self.path_edit.setText(str(path.with_name(self._names[key])))
        else:
            self.path_edit.setText(str(path.with_suffix(default_suffix(key))))

    def _browse(self) -> None:
        key = self.format_combo.currentData()
        path, _ = QFileDialog.getSaveFileName(self, "Export Report", self.path_edit.text(), EXPORT_FORMATS[key])
        if path:
            if not Path(path).suffix:
                path += default_suffix(key)
            self.path_edit.setText(path)


class ExportRunner(QObject):
    """Writes one report at a time in the background, with a progress dialog and Cancel.

    Args:
        parent: the window (progress and messages open over it).

    Signals:
        finished(str): the path written.
        failed(str): a sentence saying why nothing was written (``"cancelled"`` when cancelled).
    """

    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self._job = LatestJob(self, command_pool())  # never queued behind the charts
        self._job.finished.connect(self._on_finished)
        self._job.failed.connect(self._on_failed)
        self._token = CancelToken()
        self._progress: QtProgress | None = None
        self.dialog: QProgressDialog | None = None

    def is_running(self) -> bool:
        """``True`` while a report is being written (bool)."""
        return self._job.is_running()

    def start(self, result: ScanResult, path: str, fmt: str, pairs: Sequence[Pair] | None = None) -> None:
        """Write ``result`` (or only ``pairs`` of it) as ``fmt`` to ``path`` in the background."""
        self.cancel()
        self._token = CancelToken()
        self._progress = QtProgress(0, self._token, min_interval=0.1)
        self._progress.updated.connect(self._on_progress)
        dialog = QProgressDialog(f"Writing {Path(path).name}…", "Cancel", 0, 0, self._parent)
        dialog.setWindowTitle("Export")
        dialog.setMinimumDuration(400)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self._token.cancel)
        self.dialog = dialog
        self._job.submit(export, result, path, fmt, None if pairs is None else list(pairs), self._progress)

    def cancel(self) -> None:
        """Stop a report still being written (nothing is written)."""
        self._token.cancel()

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None

    def _on_progress(self, _id: int, _stage: str, done: int, total: int, _detail: str = "") -> None:
        if self.dialog is not None and total > 0:
            self.dialog.setMaximum(total)
            self.dialog.setValue(min(done, total))

    def _on_finished(self, path) -> None:
        self._close_dialog()
        self.finished.emit(str(path))

    def _on_failed(self, exc: Exception) -> None:
        self._close_dialog()
        self.failed.emit("cancelled" if isinstance(exc, ScanCancelled) else str(exc))


def shown_pairs(panel) -> list[Pair]:
    """The pairs a pairs :class:`~dedup_gui.gui.tables.table_panel.TablePanel` shows (what its filters
    let through), in its order (list[Pair])."""
    return panel.model.shown_pairs()
