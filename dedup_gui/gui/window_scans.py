"""The main window's scans: start, cancel, follow and end them in worker threads, and the
scan settings of the next one.

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow` (kept apart so that the window
module holds the views and their synchronization, this one the scan threads' lifecycle); what
the window knows of the scan lives in its :class:`~dedup_gui.core.views.session.Session`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dedup_gui.core.model import ScanResult, ScanSettings
from dedup_gui.core.pipeline.cache import clear_cache
from dedup_gui.core.pipeline.walk import is_warc_name
from dedup_gui.core.views.decisions import FolderDecisions, apply_decisions
from dedup_gui.core.views.session import (
    build_view_columns,
    remembered_scan_settings,
    scan_end_text,
    scan_stages,
    summarize,
)
from dedup_gui.gui import worker
from dedup_gui.gui.inspector.jobs import collect_unfrozen, freeze_long_lived
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.settings import AppSettings, save_window_layout
from dedup_gui.gui.worker import ScanFunction, ScanThread

_QUEUED = Qt.ConnectionType.QueuedConnection


def with_pair_columns(scan_fn: ScanFunction | None, decisions: FolderDecisions | None = None) -> ScanFunction:
    """``scan_fn``, followed in the scan's own thread by applying the user's stored keep
    choices (:func:`~dedup_gui.core.views.decisions.apply_decisions`) and building the result's
    pair columns and keep clusters (:func:`~dedup_gui.core.views.session.build_view_columns`):
    built there, they cost the GUI thread nothing when the result arrives.

    Args:
        scan_fn: a scan function (:data:`~dedup_gui.gui.worker.ScanFunction`), or ``None`` for
            :func:`dedup_gui.gui.worker.scan_folder` (looked up when the scan starts).
        decisions: the scanned folder's stored decisions, or ``None``.

    Returns:
        A scan function with the same arguments, result and exceptions.
    """

    def scan(*args) -> ScanResult:
        """Scan, then build the pair columns (in the scan's thread)."""
        result = (scan_fn or worker.scan_folder)(*args)
        return build_view_columns(result if decisions is None else apply_decisions(result, decisions))

    return scan


def remembered_settings(app_settings: AppSettings) -> ScanSettings:
    """Scan settings with the extractor and cache choice the user made last time."""
    return remembered_scan_settings(app_settings.text("scan/extractor", ScanSettings().extractor),
                                    app_settings.flag("scan/use_cache", True))  # fmt: skip


class ScanControl:
    """The scans of the main window: a mixin before ``QMainWindow`` in
    :class:`~dedup_gui.gui.main_window.MainWindow`, which sets the ``session``,
    ``app_settings``, ``scan_status``, ``_scan_fn``, ``_thread`` and ``_threads`` these methods
    use, and the views they hand a result to."""

    # --- scan settings ------------------------------------------------------------------------

    @property
    def scan_settings(self) -> ScanSettings:
        """The settings the next scan uses (:class:`ScanSettings`)."""
        return self.session.settings

    def set_extractor(self, name: str) -> None:
        """Use main-content extractor ``name`` (a key of ``EXTRACTORS``) from the next scan on."""
        message = self.session.set_extractor(name)
        self.app_settings.set_text("scan/extractor", name)
        # the summary names it until a rescan (a scan or re-classification ends with one)
        if self.result is not None and not self.is_scanning() and not self._reclassify_job.is_running():
            self.scan_status.finish(self.summary(self.result))
        self.statusBar().showMessage(message, 8000)

    def summary(self, result: ScanResult) -> str:
        """The status line's summary of ``result`` (:func:`summarize`), which names the scan
        settings chosen since its scan that apply at the next one (str)."""
        return summarize(result, self.session.settings)

    def set_use_cache(self, on: bool) -> None:
        """Read and write the feature cache from the next scan on, or not."""
        self.session.set_use_cache(on)
        self.app_settings.set_flag("scan/use_cache", bool(on))

    def clear_feature_cache(self) -> int:
        """Delete the feature cache (Scan > Clear Feature Cache); returns the bytes freed."""
        try:
            freed = clear_cache(self.session.settings.cache_dir)
        except OSError as exc:
            plain_message_box(
                QMessageBox.Icon.Warning, "Clear Feature Cache", f"The cache could not be deleted: {exc}", self
            ).exec()
            return 0
        self.statusBar().showMessage(f"Feature cache cleared ({freed / 2**20:.1f} MiB freed)", 8000)
        return freed

    # --- scans ------------------------------------------------------------------------------

    def rescan(self) -> None:
        """Scan the current folder again (Scan > Rescan)."""
        if self.folder:
            self.start_scan(self.folder)

    def start_scan(self, folder: str | Path) -> None:
        """Scan ``folder`` in a worker thread, cancelling a scan that is still running.

        The result shown (of any folder) stays in every view, browsable, until the scan
        ends: the title, the status line and a banner say whose it is, and the commands that
        decide (:meth:`set_deciding_enabled`) are off meanwhile, as the session's folder is
        the one scanned.  The folder joins File > Open Recent once its scan succeeds."""
        self._abandon_scan()
        # The result shown (of any folder) is kept aside: a scan that is cancelled or fails gives it back.
        scan_id = self.session.begin_scan(folder, self.current_pair_index())
        self._reclassify_job.cancel()  # a re-classification would land, as a summary, during the scan
        self._show_scanning(True)
        collect_unfrozen()  # before the new result is frozen with the garbage of the old one's views
        decisions = self.load_folder_decisions(self.folder)
        thread = ScanThread(scan_id, self.folder, self.session.settings, self.session.thresholds,
                            with_pair_columns(self._scan_fn, decisions))  # fmt: skip
        thread.progress.worked.connect(self._on_work, _QUEUED)  # before updated: queued in order
        thread.progress.updated.connect(self._on_progress, _QUEUED)
        thread.succeeded.connect(self._on_succeeded, _QUEUED)
        thread.failed.connect(self._on_failed, _QUEUED)
        thread.cancelled.connect(self._on_cancelled, _QUEUED)
        thread.finished.connect(self._reap_threads, _QUEUED)
        self._thread = thread
        self._threads.append(thread)
        self.scan_status.start(self.folder, scan_stages(self.session.settings), self.session.scanning_text())
        thread.start()

    def cancel_scan(self) -> None:
        """Ask the running scan, if any, to stop; the window then shows again what it showed
        before that scan (if anything) and says so."""
        if self._thread is not None:
            self._thread.cancel()
            self.scan_status.cancelling()

    def is_scanning(self) -> bool:
        """Whether a scan the window follows is running (bool)."""
        return self._thread is not None

    def open_folder(self) -> None:
        """Ask for a folder (File > Open Folder…) and scan it."""
        start = self.folder or str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, "Open Folder", start)
        if folder:
            self.start_scan(folder)

    def open_warc_file(self) -> None:
        """Ask for a crawl archive (File > Open WARC File…) and scan its HTML records."""
        start = self.folder or str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(
            self, "Open WARC File", start, "WARC files (*.warc *.warc.gz);;All files (*)"
        )
        if path:
            self.start_scan(path)

    def open_recent(self, folder: str) -> None:
        """Scan a folder (or WARC file) from File > Open Recent (or say that it is gone and forget it)."""
        if Path(folder).is_dir() or (Path(folder).is_file() and is_warc_name(folder)):
            self.start_scan(folder)
            return
        self.app_settings.set_recent_folders([f for f in self.app_settings.recent_folders() if f != folder])
        box = plain_message_box(
            QMessageBox.Icon.Warning, "Folder not found", f"The folder no longer exists:\n{folder}", self
        )
        box.open()

    def shutdown(self) -> None:
        """Cancel every running scan and wait for its thread to end (before the window goes)."""
        self._abandon_scan()
        self._reclassify_job.cancel()
        self.histogram_view.shutdown()
        self.exporter.cancel()
        for thread in self._threads:
            thread.wait()
        self._threads.clear()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        """Remember the layout, stop the scans (:meth:`shutdown`), then close."""
        save_window_layout(self, self.app_settings)
        self.shutdown()
        super().closeEvent(event)

    def _show_scanning(self, running: bool) -> None:
        """Say in the title and the banner above the tables whose results are shown while a
        scan runs (``running``), or stop saying it; the commands that decide follow."""
        self.setWindowTitle(self.session.title())
        text = self.session.scanning_text() if running else ""
        if text:
            text += (". Browse them freely; keep choices, Not a Duplicate, the ignore list, Re-prioritize and "
                     "Copy the Kept Pages wait for the scan's end, and so do threshold changes.")  # fmt: skip
        self.last_results_banner.setText(text)
        self.last_results_banner.setVisible(bool(text))
        self.set_deciding_enabled(not running)

    def _abandon_scan(self) -> None:
        if self._thread is not None:
            self._thread.cancel()
            self._thread = None
        self._reap_threads()

    def _reap_threads(self) -> None:
        # isFinished() is already True while the thread emits finished(): join it before the
        # last reference goes, or Qt aborts with "QThread: Destroyed while thread is still running"
        running = []
        for thread in self._threads:
            if thread.isFinished():
                thread.wait()
            else:
                running.append(thread)
        self._threads = running

    def _is_current(self, scan_id: int) -> bool:
        return self._thread is not None and scan_id == self.session.scan_id

    def _on_work(self, scan_id: int, stage: str, done: int, total: int) -> None:
        if self._is_current(scan_id):
            self.scan_status.update_work(stage, done, total)

    def _on_progress(self, scan_id: int, stage: str, done: int, total: int, detail: str) -> None:
        if self._is_current(scan_id) and not self._thread.token.is_set():
            self.scan_status.update_progress(stage, done, total, detail)

    def _on_succeeded(self, scan_id: int, result: ScanResult) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        previous = self.session.previous
        if previous is not None and previous.folder != self.folder:  # another folder's names filter nothing here
            for panel in (self.pairs_panel, self.pages_panel, self.errors_panel):
                panel.text_filter.clear()
        self.session.drop_previous()
        self.app_settings.add_recent_folder(self.folder)  # only a scan that succeeded (per-file errors or not)
        self._show_scanning(False)
        freeze_long_lived()  # before collection resumes (the scan thread's end resumes it)
        self.scan_status.finish(self.summary(result))

        def shown() -> None:
            if self.session.needs_reclassify(result):  # thresholds changed while the scan ran
                self.apply_thresholds(self.session.thresholds)
            self.scan_ended.emit("finished")

        self._set_result(result, shown)

    def _on_cancelled(self, scan_id: int) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        self._end_without_result("cancelled")
        self.scan_ended.emit("cancelled")

    def _end_without_result(self, outcome: str, message: str = "") -> str:
        """After a cancelled or failed scan, go back to what was shown before it began (the
        session's :class:`~dedup_gui.core.views.session.ShownScan`, whose result the views
        showed all along: its folder in the title, the commands that decide on again),
        re-classified if the thresholds changed meanwhile, and say so in the status line.

        Args:
            outcome: ``"cancelled"`` or ``"failed"``.
            message: the failure's message (for ``"failed"``).

        Returns:
            The folder whose scan ended (str).
        """
        folder = self.folder
        previous = self.session.take_previous()
        self._show_scanning(False)
        text = scan_end_text(outcome, folder, None if previous is None else previous.folder, message)
        if previous is None or self.result is None:
            self.scan_status.finish(text)
            return folder
        if self.session.is_stale(previous):  # the views show it already: re-typed in place
            self.apply_thresholds(self.session.thresholds, lead=text)
        else:  # the scan's end, then the counts of the results shown again (lost until a change before)
            self.scan_status.finish(f"{text}. {self.summary(self.result)}")
        return folder

    def _on_failed(self, scan_id: int, message: str, details: str) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        folder = self._end_without_result("failed", message)
        box = plain_message_box(
            QMessageBox.Icon.Critical, "Scan failed", f"The scan of {folder} failed:\n\n{message}", self
        )
        box.setDetailedText(details)
        box.open()  # not modal to the application: the window stays usable
        self.error_box = box
        self.scan_ended.emit("failed")
