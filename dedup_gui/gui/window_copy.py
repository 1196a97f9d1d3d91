"""File > Copy the Kept Pages to a New Folder…: a deduplicated copy of the scanned collection,
written off the GUI thread with a progress dialog and Cancel.

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow`.  What is copied, and the safety
rules (never inside the scanned folder, never over files, nothing left by a cancelled copy),
are :mod:`dedup_gui.core.reports.copy_kept`; this module only asks and runs.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QProgressDialog

from dedup_gui.core.progress import CancelToken, ScanCancelled
from dedup_gui.core.reports.copy_kept import CopyReport, check_destination, copy_kept
from dedup_gui.gui.copy_destination_dialog import CopyDestinationDialog
from dedup_gui.gui.file_actions import show_in_folder
from dedup_gui.gui.inspector.jobs import LatestJob, command_pool
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.worker import QtProgress


class CopyKeptPages:
    """The copy-out of the main window: a mixin before ``QMainWindow`` in
    :class:`~dedup_gui.gui.main_window.MainWindow`, which sets ``result`` and ``folder``.

    Attributes:
        copy_job: the background job (a :class:`LatestJob`), made on first use.
        copy_dialog: the progress dialog of the copy running, or ``None``.
        copy_notice: the last message box about a copy (finished or failed), or ``None``.
        copy_destination_dialog: the last dialog that asked where to copy, or ``None``.
    """

    copy_job: LatestJob | None = None
    copy_dialog: QProgressDialog | None = None
    copy_notice: QMessageBox | None = None
    copy_destination_dialog: CopyDestinationDialog | None = None
    _copy_token: CancelToken | None = None

    def ask_copy_kept(self) -> None:
        """File > Copy the Kept Pages to a New Folder…: ask for a new or empty folder outside
        the scanned one (:class:`CopyDestinationDialog`, window-modal), then copy
        (:meth:`copy_kept_to`)."""
        if self.refused_while_scanning():
            return
        if self.result is None:
            self.statusBar().showMessage("Scan a folder first: then its kept pages can be copied", 8000)
            return
        dialog = self.copy_destination_dialog = CopyDestinationDialog(self.result.root, self)
        dialog.accepted.connect(lambda: self.copy_kept_to(dialog.destination()))
        dialog.open()

    def copy_kept_to(self, destination: str | Path) -> bool:
        """Copy the kept pages of the result shown (its keep decisions) to ``destination`` in
        the background, with progress and Cancel; a message says what was written.

        Returns:
            ``False`` (with a message) when the destination is refused, nothing is shown or a
            scan runs (the last results are shown, not the folder's decisions to come).
        """
        result = self.result
        if result is None or self.copy_is_running() or self.refused_while_scanning():
            return False
        try:
            check_destination(result.root, destination)
        except ValueError as exc:
            self._copy_message(QMessageBox.Icon.Warning, "Copy refused", str(exc))
            return False
        if self.copy_job is None:
            self.copy_job = LatestJob(self, command_pool())  # never queued behind the charts
            self.copy_job.finished.connect(self._on_copy_finished)
            self.copy_job.failed.connect(self._on_copy_failed)
        token = self._copy_token = CancelToken()
        progress = QtProgress(0, token, min_interval=0.1)
        dialog = QProgressDialog(f"Copying the kept pages to {Path(destination).name}…", "Cancel", 0, 0, self)
        dialog.setWindowTitle("Copy the Kept Pages")
        dialog.setMinimumDuration(400)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(token.cancel)
        progress.updated.connect(self._on_copy_progress)
        self.copy_dialog = dialog
        self._copy_progress = progress  # alive while the job runs
        self.copy_job.submit(copy_kept, result, str(destination), progress)
        self.statusBar().showMessage(f"Copying the kept pages to {destination}…", 8000)
        return True

    def copy_is_running(self) -> bool:
        """Whether a copy is being written (bool)."""
        return self.copy_job is not None and self.copy_job.is_running()

    def cancel_copy(self) -> None:
        """Stop the copy being written (nothing is left behind)."""
        if self._copy_token is not None:
            self._copy_token.cancel()

    def _on_copy_progress(self, _id: int, _stage: str, done: int, total: int, _detail: str = "") -> None:
        if self.copy_dialog is not None and total > 0:
            self.copy_dialog.setMaximum(total)
            self.copy_dialog.setValue(min(done, total))

    def _close_copy_dialog(self) -> None:
        if self.copy_dialog is not None:
            self.copy_dialog.close()
            self.copy_dialog.deleteLater()
            self.copy_dialog = None

    def _on_copy_finished(self, report: CopyReport) -> None:
        self._close_copy_dialog()
        self.statusBar().showMessage(report.text(), 15000)
        box = self._copy_message(QMessageBox.Icon.Information, "Copy the Kept Pages",
                                 f"{report.text()}\n{report.destination}")  # fmt: skip
        folder = box.addButton("Show in Folder", QMessageBox.ButtonRole.ActionRole)
        folder.clicked.connect(lambda: show_in_folder(report.destination))

    def _on_copy_failed(self, exc: Exception) -> None:
        self._close_copy_dialog()
        if isinstance(exc, ScanCancelled):
            self.statusBar().showMessage("Copy cancelled: nothing was written", 8000)
        else:
            self._copy_message(QMessageBox.Icon.Warning, "Copy failed", f"Nothing was written: {exc}")

    def _copy_message(self, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
        box = plain_message_box(icon, title, text, self, QMessageBox.StandardButton.Close)
        box.setWindowModality(Qt.WindowModality.NonModal)  # a notice: the window stays usable
        self.copy_notice = box
        box.show()
        return box
