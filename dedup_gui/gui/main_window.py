"""The main window: pairs, pages and errors tables on top, the selected pair's texts below.

The window starts scans in a :class:`~dedup_gui.gui.worker.ScanThread`, shows their progress,
ETA and outcome in the status bar, and loads a finished :class:`ScanResult` into the models.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QSplitter, QTabWidget

from dedup_gui.core.model import DupType, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.pair_view import PairView
from dedup_gui.gui.scan_status import ScanStatus
from dedup_gui.gui.table_panel import TablePanel
from dedup_gui.gui.worker import ScanFunction, ScanThread

APP_NAME = "Duplicate Page Inspector"
_QUEUED = Qt.ConnectionType.QueuedConnection


def summarize(result: ScanResult) -> str:
    """One status line for a finished scan, e.g. ``"12 files, 3 duplicate pairs ..."`` (str)."""
    counts = result.type_counts()
    duplicates = sum(n for t, n in counts.items() if t is not DupType.DISTINCT)
    files = len(result.pages) + len(result.errors)
    return (
        f"Scanned {files:,} files: {duplicates:,} duplicate pairs in {len(result.clusters):,}"
        f" clusters, {len(result.errors):,} errors ({result.elapsed:.1f} s)"
    )


class MainWindow(QMainWindow):
    """The inspector window: File > Open Folder…, the result tables, the pair view, scan status.

    Close the window (or call :meth:`shutdown`) before dropping the last reference to it: that
    cancels and joins its scan threads, which Qt requires before a ``QThread`` is destroyed.

    Args:
        scan_fn: the scan function (tests pass a fake); defaults to the engine's ``scan_folder``.
        settings: scan settings, or ``None`` for the defaults.
        thresholds: classifier thresholds, or ``None`` for the defaults.
        parent: the Qt parent widget, or ``None``.

    Signals:
        scan_ended(str): a scan this window still cares about ended: ``"finished"``,
            ``"cancelled"`` or ``"failed"``.
    """

    scan_ended = Signal(str)

    def __init__(
        self,
        scan_fn: ScanFunction | None = None,
        settings: ScanSettings | None = None,
        thresholds: Thresholds | None = None,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self._scan_fn = scan_fn
        self._settings = settings
        self._thresholds = thresholds
        self._scan_id = 0
        self._thread: ScanThread | None = None  # the scan whose signals the window follows
        self._threads: list[ScanThread] = []  # every scan thread not yet finished
        self.folder: str | None = None
        self.result: ScanResult | None = None
        self.error_box: QMessageBox | None = None

        self.pages_model = PagesModel(self)
        self.pairs_model = PairsModel(self)
        self.errors_model = ErrorsModel(self)
        self.pairs_panel = TablePanel(self.pairs_model)
        self.pages_panel = TablePanel(self.pages_model)
        self.errors_panel = TablePanel(self.errors_model, with_type_filter=False)
        self.tabs = QTabWidget()
        for panel in (self.pairs_panel, self.pages_panel, self.errors_panel):
            self.tabs.addTab(panel, "")
            panel.visible_rows_changed.connect(self._update_tab_titles)
        self.pair_view = PairView()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(self.pair_view)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)

        self.scan_status = ScanStatus()
        self.statusBar().addPermanentWidget(self.scan_status, 1)
        self.scan_status.cancel_requested.connect(self.cancel_scan)
        self.pairs_panel.current_source_row_changed.connect(self._show_pair)
        self._build_actions()

        self.setWindowTitle(APP_NAME)
        self.resize(1280, 820)
        self.splitter.setSizes([430, 390])
        self._update_tab_titles()

    # --- scans ------------------------------------------------------------------------------

    def start_scan(self, folder: str | Path) -> None:
        """Scan ``folder`` in a worker thread, cancelling a scan that is still running."""
        self._abandon_scan()
        self._scan_id += 1
        self.folder = str(Path(folder).expanduser().resolve())
        self.setWindowTitle(f"{self.folder} — {APP_NAME}")
        self._set_result(None)
        thread = ScanThread(
            self._scan_id, self.folder, self._settings, self._thresholds, self._scan_fn
        )
        thread.progress.updated.connect(self._on_progress, _QUEUED)
        thread.succeeded.connect(self._on_succeeded, _QUEUED)
        thread.failed.connect(self._on_failed, _QUEUED)
        thread.cancelled.connect(self._on_cancelled, _QUEUED)
        thread.finished.connect(self._reap_threads, _QUEUED)
        self._thread = thread
        self._threads.append(thread)
        self.scan_status.start(self.folder)
        thread.start()

    def cancel_scan(self) -> None:
        """Ask the running scan, if any, to stop; the window then says "Scan cancelled"."""
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

    def shutdown(self) -> None:
        """Cancel every running scan and wait for its thread to end (before the window goes)."""
        self._abandon_scan()
        for thread in self._threads:
            thread.wait()
        self._threads.clear()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        """Stop the scans (:meth:`shutdown`), then close."""
        self.shutdown()
        super().closeEvent(event)

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
        return self._thread is not None and scan_id == self._scan_id

    def _on_progress(self, scan_id: int, stage: str, done: int, total: int) -> None:
        if self._is_current(scan_id) and not self._thread.token.is_set():
            self.scan_status.update_progress(stage, done, total)

    def _on_succeeded(self, scan_id: int, result: ScanResult) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        self._set_result(result)
        self.scan_status.finish(summarize(result))
        self.scan_ended.emit("finished")

    def _on_cancelled(self, scan_id: int) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        self.scan_status.finish("Scan cancelled")
        self.scan_ended.emit("cancelled")

    def _on_failed(self, scan_id: int, message: str, details: str) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        self.scan_status.finish(f"Scan failed: {message}")
        box = QMessageBox(QMessageBox.Icon.Critical, "Scan failed", "", parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the message may quote file names
        box.setText(f"The scan of {self.folder} failed:\n\n{message}")
        box.setDetailedText(details)
        box.open()  # not modal to the application: the window stays usable
        self.error_box = box
        self.scan_ended.emit("failed")

    # --- views ------------------------------------------------------------------------------

    def _set_result(self, result: ScanResult | None) -> None:
        self.result = result
        for model in (self.pages_model, self.pairs_model, self.errors_model):
            model.set_result(result)
        self.pair_view.show_pair(None)
        if result is None:
            return
        # hidden tabs have stale sizes: fit every table to the visible one's width
        visible = self.tabs.currentWidget().view
        available = visible.viewport().width() - visible.verticalScrollBar().sizeHint().width()
        for panel in (self.pairs_panel, self.pages_panel, self.errors_panel):
            panel.fit_columns(available)
        row = self.pairs_model.first_duplicate_row()
        if row is not None:
            self.tabs.setCurrentWidget(self.pairs_panel)
            self.pairs_panel.select_source_row(row)

    def _show_pair(self, source_row: int) -> None:
        if source_row < 0:
            self.pair_view.show_pair(None)
            return
        left, right = self.pairs_model.pages_of(source_row)
        self.pair_view.show_pair(self.pairs_model.pair_at(source_row), left, right)

    def _update_tab_titles(self, *_args) -> None:
        for panel, name in ((self.pairs_panel, "Pairs"), (self.pages_panel, "Pages"),
                            (self.errors_panel, "Errors")):  # fmt: skip
            shown, total = panel.proxy.rowCount(), panel.model.rowCount()
            count = f"{total:,}" if shown == total else f"{shown:,} of {total:,}"
            self.tabs.setTabText(self.tabs.indexOf(panel), f"{name} ({count})")

    def _build_actions(self) -> None:
        self.open_action = QAction("&Open Folder…", self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(self.open_folder)
        self.quit_action = QAction("&Quit", self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)
        menu = self.menuBar().addMenu("&File")
        menu.addAction(self.open_action)
        menu.addSeparator()
        menu.addAction(self.quit_action)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.addAction(self.open_action)
