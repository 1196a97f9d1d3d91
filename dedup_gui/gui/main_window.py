"""The main window: result tables and charts on top, the pair inspector below, the clusters and
the thresholds in side panels.

The window starts scans in a :class:`~dedup_gui.gui.worker.ScanThread`, shows their progress,
ETA and outcome in the status bar, and loads a finished :class:`ScanResult` into every view.  A
threshold change re-classifies the scan off the GUI thread
(:func:`dedup_gui.core.pipeline.classify.reclassify`) and every view follows, keeping the selected pair.
Selections are synchronized: a pair selected in the table is shown in the inspector, ringed on
the map, marked on the histogram and its cluster highlighted; a histogram bar, a map point or a
cluster filters or selects in the tables.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QWidget,
)

from dedup_gui.core.columns import pair_columns, type_counts
from dedup_gui.core.extraction.extract import EXTRACTORS
from dedup_gui.core.model import DupType, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.cache import clear_cache
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.progress import SCAN_STAGES, STAGE_CACHE
from dedup_gui.core.views.selection import cluster_pairs, find_pair, first_pair_of_page, pair_cluster, pairs_at_distance
from dedup_gui.gui import worker
from dedup_gui.gui.charts.histogram_view import HistogramView
from dedup_gui.gui.charts.map_view import MapView
from dedup_gui.gui.export_dialog import ExportDialog, ExportRunner, shown_pairs
from dedup_gui.gui.file_actions import dropped_folder
from dedup_gui.gui.images import ask_save_widget_image, save_widget_image
from dedup_gui.gui.inspector import PairInspector
from dedup_gui.gui.inspector.jobs import LatestJob, collect_unfrozen, freeze_long_lived
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.scan_status import ScanStatus
from dedup_gui.gui.settings import AppSettings, restore_window_layout, save_window_layout
from dedup_gui.gui.tables.clusters_view import ClustersView
from dedup_gui.gui.tables.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.tables.table_panel import TablePanel
from dedup_gui.gui.teaching import TeachingWindow
from dedup_gui.gui.thresholds_panel import ThresholdsPanel
from dedup_gui.gui.window_menus import build_menus
from dedup_gui.gui.worker import ScanFunction, ScanThread

APP_NAME = "Duplicate Page Inspector"
_QUEUED = Qt.ConnectionType.QueuedConnection


def summarize(result: ScanResult) -> str:
    """One status line for a finished scan, e.g. ``"Scanned 12 files: 3 duplicate pairs ..."``,
    followed by the scan's notes (str)."""
    counts = type_counts(result)
    duplicates = sum(n for t, n in counts.items() if t is not DupType.DISTINCT)
    files = len(result.pages) + len(result.errors)

    def count(n: int, noun: str) -> str:
        return f"{n:,} {noun}" + ("" if n == 1 else "s")

    line = (
        f"Scanned {count(files, 'file')}: {count(duplicates, 'duplicate pair')} in "
        f"{count(len(result.clusters), 'cluster')}, {count(len(result.errors), 'error')} ({result.elapsed:.1f} s)"
    )
    return "".join([line, *(f". Note: {note}" for note in result.notes)])


def scan_stages(settings: ScanSettings) -> tuple[tuple[str, float], ...]:
    """The steps a scan with ``settings`` goes through, as ``(name, weight)`` for the progress
    bar (:class:`~dedup_gui.core.progress.OverallProgress`): without the feature cache there is
    no cache lookup step."""
    return tuple(s for s in SCAN_STAGES if settings.use_cache or s[0] != STAGE_CACHE)


def with_pair_columns(scan_fn: ScanFunction | None) -> ScanFunction:
    """``scan_fn``, followed in the scan's own thread by building the result's pair columns
    (:func:`~dedup_gui.core.columns.pair_columns`) and keep clusters
    (:func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`).  The tables, the charts and the
    cluster tree sort, filter and count with them; built there, they cost the GUI thread nothing
    when the result arrives (about half a second per million pairs).

    Args:
        scan_fn: a scan function (:data:`~dedup_gui.gui.worker.ScanFunction`), or ``None`` for
            :func:`dedup_gui.gui.worker.scan_folder` (looked up when the scan starts).

    Returns:
        A scan function with the same arguments, result and exceptions.
    """

    def scan(*args) -> ScanResult:
        """Scan, then build the pair columns (in the scan's thread)."""
        result = (scan_fn or worker.scan_folder)(*args)
        pair_columns(result).build_all()
        keep_clusters_of(result)  # what the cluster tree says to keep, also built here
        return result

    return scan


def reclassify_with_columns(result: ScanResult, thresholds: Thresholds) -> ScanResult:
    """:func:`~dedup_gui.core.pipeline.classify.reclassify`, then the new result's pair columns and keep
    clusters are built (in the calling thread: the window runs this as a background job).

    Returns:
        The re-classified :class:`ScanResult`.
    """
    new = reclassify(result, thresholds)
    pair_columns(new).build_all()
    keep_clusters_of(new)
    return new


class MainWindow(QMainWindow):
    """The inspector window.

    Close the window (or call :meth:`shutdown`) before dropping the last reference to it: that
    cancels and joins its scan threads, which Qt requires before a ``QThread`` is destroyed.

    Args:
        scan_fn: the scan function (tests pass a fake); defaults to the engine's ``scan_folder``.
        settings: scan settings, or ``None`` for the defaults.
        thresholds: classifier thresholds, or ``None`` for the remembered ones (else defaults).
        app_settings: what the window remembers (:class:`AppSettings`); ``None`` opens the
            user's settings.
        parent: the Qt parent widget, or ``None``.

    Attributes:
        result: the result every view shows (the scan re-classified under the thresholds in
            force), or ``None``.
        scan_result: the scan's own result, which threshold changes re-classify.

    Signals:
        scan_ended(str): a scan this window still cares about ended: ``"finished"``,
            ``"cancelled"`` or ``"failed"``.
        results_changed(): a re-classified result is shown in every view.
    """

    scan_ended = Signal(str)
    results_changed = Signal()

    def __init__(
        self,
        scan_fn: ScanFunction | None = None,
        settings: ScanSettings | None = None,
        thresholds: Thresholds | None = None,
        app_settings: AppSettings | None = None,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self.app_settings = app_settings if app_settings is not None else AppSettings()
        self._scan_fn = scan_fn
        self._settings = settings or self._remembered_scan_settings()
        self._thresholds = thresholds or self.app_settings.thresholds()
        self._scan_id = 0
        self._thread: ScanThread | None = None  # the scan whose signals the window follows
        self._threads: list[ScanThread] = []  # every scan thread not yet finished
        self.folder: str | None = None
        self.result: ScanResult | None = None
        self.scan_result: ScanResult | None = None
        self._previous_result: ScanResult | None = None
        self._cluster_of: dict[int, int] = {}
        self._unfitted: list[TablePanel] = []  # tables whose columns wait for their tab to show
        self._fit_width = 0
        self._showing = 0  # number of the newest result hand-over (_set_result)
        self._showing_pending = False  # its later steps have not run yet
        self.error_box: QMessageBox | None = None
        self._image_dir = str(Path.home())
        self._reclassify_job = LatestJob(self)
        self._reclassify_job.finished.connect(self._on_reclassified)
        self.exporter = ExportRunner(self)
        self.exporter.finished.connect(lambda path: self.statusBar().showMessage(f"Wrote {path}", 8000))
        self.exporter.failed.connect(self._on_export_failed)

        self._build_views()
        self.scan_status = ScanStatus()
        self.statusBar().addPermanentWidget(self.scan_status, 1)
        self.scan_status.cancel_requested.connect(self.cancel_scan)
        self._connect_views()
        build_menus(self)
        self.export_action.setEnabled(False)

        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.resize(self._default_size())
        self.splitter.setSizes([460, 400])
        restore_window_layout(self, self.app_settings)
        self._update_tab_titles()
        # The modules and widgets loaded so far live as long as the window: out of the
        # collector's sight, the collection when a scan starts walks only newer objects.
        freeze_long_lived()

    def _build_views(self) -> None:
        self.pages_model = PagesModel(self)
        self.pairs_model = PairsModel(self)
        self.errors_model = ErrorsModel(self)
        self.pairs_panel = TablePanel(self.pairs_model, with_duplicates_only=True)
        self.pages_panel = TablePanel(self.pages_model)
        self.errors_panel = TablePanel(self.errors_model, with_type_filter=False)
        self.histogram_view = HistogramView()
        self.map_view = MapView()
        self.tabs = QTabWidget()
        for panel in (self.pairs_panel, self.pages_panel, self.errors_panel):
            self.tabs.addTab(panel, "")
            panel.visible_rows_changed.connect(self._update_tab_titles)
        self.tabs.addTab(self.histogram_view, "Histogram")
        self.tabs.setTabToolTip(3, "Hamming distances of the SimHashes of all pairs of pages")
        self.tabs.addTab(self.map_view, "Map")
        self.tabs.setTabToolTip(4, "Candidate pairs by content similarity and layout similarity")
        self.inspector = PairInspector()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(self.inspector)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)

        self.clusters_view = ClustersView()
        self.thresholds_panel = ThresholdsPanel(self._thresholds)
        self.clusters_dock = self._dock("Clusters", "clusters_dock", self.clusters_view)
        self.thresholds_dock = self._dock("Thresholds", "thresholds_dock", self.thresholds_panel)
        self.resizeDocks([self.clusters_dock], [270], Qt.Orientation.Horizontal)
        self.resizeDocks([self.clusters_dock, self.thresholds_dock], [520, 260], Qt.Orientation.Vertical)

    @staticmethod
    def _default_size() -> QSize:
        """1440 x 900, or less on a smaller screen (the size before a layout is remembered)."""
        size = QSize(1440, 900)
        screen = QGuiApplication.primaryScreen()
        if screen is not None and QGuiApplication.platformName() != "offscreen":
            size = size.boundedTo(screen.availableGeometry().size())
        return size

    def _dock(self, title: str, name: str, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)  # fmt: skip
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        return dock

    def _connect_views(self) -> None:
        self.tabs.currentChanged.connect(self._fit_shown_table)
        self.pairs_panel.current_record_changed.connect(self._show_pair)
        self.pairs_panel.record_activated.connect(lambda _record: self.focus_inspector())
        self.histogram_view.distance_clicked.connect(self.filter_by_distance)
        self.map_view.pair_clicked.connect(self.select_pair)
        self.clusters_view.cluster_chosen.connect(self._on_cluster_chosen)
        self.thresholds_panel.thresholds_changed.connect(self.apply_thresholds)

    # --- scans ------------------------------------------------------------------------------

    def _remembered_scan_settings(self) -> ScanSettings:
        """Scan settings with the extractor and cache choice the user made last time."""
        extractor = self.app_settings.text("scan/extractor", ScanSettings().extractor)
        if extractor not in EXTRACTORS:
            extractor = ScanSettings().extractor
        use_cache = self.app_settings.flag("scan/use_cache", True)
        return dataclasses.replace(ScanSettings(), extractor=extractor, use_cache=use_cache)

    @property
    def scan_settings(self) -> ScanSettings:
        """The settings the next scan uses (:class:`ScanSettings`)."""
        return self._settings

    def set_extractor(self, name: str) -> None:
        """Use main-content extractor ``name`` (a key of ``EXTRACTORS``) from the next scan on."""
        self._settings = dataclasses.replace(self._settings, extractor=name)
        self.app_settings.set_text("scan/extractor", name)
        self.statusBar().showMessage(f"Extractor: {EXTRACTORS[name]}. Rescan (F5) to apply.", 8000)

    def set_use_cache(self, on: bool) -> None:
        """Read and write the feature cache from the next scan on, or not."""
        self._settings = dataclasses.replace(self._settings, use_cache=bool(on))
        self.app_settings.set_flag("scan/use_cache", bool(on))

    def clear_feature_cache(self) -> int:
        """Delete the feature cache (Scan > Clear Feature Cache); returns the bytes freed."""
        try:
            freed = clear_cache(self._settings.cache_dir)
        except OSError as exc:
            plain_message_box(QMessageBox.Icon.Warning, "Clear Feature Cache", f"The cache could not be deleted: {exc}", self).exec()
            return 0
        self.statusBar().showMessage(f"Feature cache cleared ({freed / 2**20:.1f} MiB freed)", 8000)
        return freed

    def open_teaching(self) -> None:
        """Open the teaching window (Teach > Teaching Views) on the current scan; its gallery's
        "Open in inspector" selects that pair here."""
        if getattr(self, "teaching_window", None) is None:
            self.teaching_window = TeachingWindow(self.result, parent=self)

            def open_pair(left: str, right: str) -> None:
                index = find_pair(self.result, left, right)
                if index is not None:
                    self.select_pair(index)
                    self.raise_()
                    self.activateWindow()

            self.teaching_window.open_pair.connect(open_pair)
            self.results_changed.connect(lambda: self.teaching_window.set_result(self.result))
        else:
            self.teaching_window.set_result(self.result)
        self.teaching_window.show()
        self.teaching_window.raise_()

    def rescan(self) -> None:
        """Scan the current folder again (Scan > Rescan)."""
        if self.folder:
            self.start_scan(self.folder)

    def start_scan(self, folder: str | Path) -> None:
        """Scan ``folder`` in a worker thread, cancelling a scan that is still running."""
        self._abandon_scan()
        self._scan_id += 1
        self.folder = str(Path(folder).expanduser().resolve())
        self.setWindowTitle(f"{self.folder} — {APP_NAME}")
        self.app_settings.add_recent_folder(self.folder)
        # A rescan that is cancelled or fails gives the previous result of this folder back.
        previous = self.scan_result
        self._previous_result = previous if previous is not None and previous.root == self.folder else None
        self._set_result(None)
        collect_unfrozen()  # before the new result is frozen with the garbage of the old one's views
        thread = ScanThread(self._scan_id, self.folder, self._settings, self._thresholds,
                            with_pair_columns(self._scan_fn))  # fmt: skip
        thread.progress.updated.connect(self._on_progress, _QUEUED)
        thread.succeeded.connect(self._on_succeeded, _QUEUED)
        thread.failed.connect(self._on_failed, _QUEUED)
        thread.cancelled.connect(self._on_cancelled, _QUEUED)
        thread.finished.connect(self._reap_threads, _QUEUED)
        self._thread = thread
        self._threads.append(thread)
        self.scan_status.start(self.folder, scan_stages(self._settings))
        thread.start()

    def cancel_scan(self) -> None:
        """Ask the running scan, if any, to stop; the window then says "Scan cancelled"."""
        if self._thread is not None:
            self._thread.cancel()
            self.scan_status.cancelling()

    def is_scanning(self) -> bool:
        """Whether a scan the window follows is running (bool)."""
        return self._thread is not None

    def is_showing_result(self) -> bool:
        """Whether a result is still being handed to the views (the clusters, the charts and
        the first duplicate follow the tables in later turns of the event loop) (bool)."""
        return self._showing_pending

    def is_busy(self) -> bool:
        """Whether a scan, a re-classification or a chart computation is running (bool)."""
        return (self.is_scanning() or self.is_showing_result() or self._reclassify_job.is_running()
                or self.thresholds_panel.is_pending() or self.histogram_view.is_busy()
                or self.exporter.is_running())  # fmt: skip

    def open_folder(self) -> None:
        """Ask for a folder (File > Open Folder…) and scan it."""
        start = self.folder or str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, "Open Folder", start)
        if folder:
            self.start_scan(folder)

    def open_recent(self, folder: str) -> None:
        """Scan a folder from File > Open Recent (or say that it is gone and forget it)."""
        if Path(folder).is_dir():
            self.start_scan(folder)
            return
        self.app_settings.set_recent_folders([f for f in self.app_settings.recent_folders() if f != folder])
        box = plain_message_box(QMessageBox.Icon.Warning, "Folder not found", f"The folder no longer exists:\n{folder}",
                                self)
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
        self._previous_result = None
        freeze_long_lived()  # before collection resumes (the scan thread's end resumes it)
        self.scan_status.finish(summarize(result))

        def shown() -> None:
            if result.thresholds != self._thresholds:  # changed while the scan ran
                self.apply_thresholds(self._thresholds)
            self.scan_ended.emit("finished")

        self._set_result(result, shown)

    def _on_cancelled(self, scan_id: int) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        restored = self._restore_previous_result()
        self.scan_status.finish("Scan cancelled" + ("; showing the previous scan" if restored else ""))
        self.scan_ended.emit("cancelled")

    def _restore_previous_result(self) -> bool:
        """Show the folder's previous result again after a cancelled or failed rescan (bool:
        whether there was one)."""
        previous, self._previous_result = self._previous_result, None
        if previous is None:
            return False
        self._set_result(previous)
        if previous.thresholds != self._thresholds:
            self.apply_thresholds(self._thresholds)  # after the hand-over: its job is not cancelled
        return True

    def _on_failed(self, scan_id: int, message: str, details: str) -> None:
        if not self._is_current(scan_id):
            return
        self._thread = None
        restored = self._restore_previous_result()
        self.scan_status.finish(f"Scan failed: {message}" + ("; showing the previous scan" if restored else ""))
        box = plain_message_box(QMessageBox.Icon.Critical, "Scan failed", f"The scan of {self.folder} failed:\n\n{message}",
                                self)
        box.setDetailedText(details)
        box.open()  # not modal to the application: the window stays usable
        self.error_box = box
        self.scan_ended.emit("failed")

    # --- thresholds -------------------------------------------------------------------------

    def thresholds(self) -> Thresholds:
        """The thresholds in force (:class:`Thresholds`)."""
        return self._thresholds

    def apply_thresholds(self, thresholds: Thresholds) -> None:
        """Re-classify the scan under ``thresholds`` in the background, then update every view
        (:attr:`results_changed` follows).  The thresholds are remembered."""
        self._thresholds = thresholds
        self.app_settings.set_thresholds(thresholds)
        if self.thresholds_panel.thresholds() != thresholds:
            self.thresholds_panel.set_thresholds(thresholds)
        if self.scan_result is None or self.is_scanning():
            return  # the next scan uses them
        self._reclassify_job.submit(reclassify_with_columns, self.scan_result, thresholds)

    def _on_reclassified(self, result: ScanResult) -> None:
        if self.scan_result is None or result.pages is not self.scan_result.pages:
            return  # from a scan that is no longer shown
        self._update_result(result)
        self.results_changed.emit()

    # --- views ------------------------------------------------------------------------------

    def _set_result(self, result: ScanResult | None, shown: Callable[[], None] | None = None) -> None:
        """Show a new scan's result (or nothing) in every view, and select its first duplicate.

        The tables are filled now; the clusters, the charts and the first duplicate's pair
        follow in later turns of the event loop, so that the window repaints in between: done
        at once, the hand-over of a 10,000-page result stalled the window for 0.1 to 0.3 s.
        ``shown`` is called when every step has run (not if another result came first).
        """
        self._reclassify_job.cancel()
        self._showing += 1
        showing = self._showing
        self.scan_result = result
        self.result = result
        self._cluster_of = {} if result is None else result.cluster_of()
        for panel in (self.pairs_panel, self.pages_panel, self.errors_panel):
            panel.clear_record_filter()
            panel.model.set_result(result)
        self.inspector.clear()
        if getattr(self, "teaching_window", None) is not None:
            self.teaching_window.set_result(result)
        self.export_action.setEnabled(result is not None)
        if result is None:
            self._showing_pending = False
            self._set_result_views(None)
            self._show_pair(-1)
            if shown is not None:
                shown()
            return
        self._fit_columns()
        self._showing_pending = True

        def views() -> None:
            if showing == self._showing:
                self._set_result_views(self.result)  # re-classified meanwhile, perhaps
                QTimer.singleShot(0, first_pair)

        def first_pair() -> None:
            if showing != self._showing:
                return
            self._showing_pending = False
            if self.pairs_panel.current_record() < 0:  # unless the user picked a row meanwhile
                self._select_first_duplicate()
            if shown is not None:
                shown()

        QTimer.singleShot(0, views)

    def _set_result_views(self, result: ScanResult | None) -> None:
        self.clusters_view.set_result(result)
        self.histogram_view.set_result(result)
        self.map_view.set_result(result)

    def _select_first_duplicate(self) -> None:
        record = self.pairs_model.first_duplicate_record()
        if record is None:
            self._show_pair(-1)
            return
        if isinstance(self.tabs.currentWidget(), TablePanel):
            self.tabs.setCurrentWidget(self.pairs_panel)
        if self.pairs_model.row_of(record) < 0:
            self.pairs_panel.select_first_row()  # the filters hide it: keep them
        else:
            self.pairs_panel.select_record(record)

    def _fit_columns(self) -> None:
        # hidden tabs have stale sizes: fit every table to the width of the tab area.  Sizing
        # measures the text of 200 rows per table (tenths of a second on a busy machine), so
        # the shown table is fitted now and the others when their tab is first shown.
        view = self.pairs_panel.view
        margins = 8 + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width()
        self._fit_width = self.tabs.currentWidget().width() - margins
        self._unfitted = [self.pairs_panel, self.pages_panel, self.errors_panel]
        self._fit_shown_table()

    def _fit_shown_table(self, *_args) -> None:
        panel = self.tabs.currentWidget()
        if panel in self._unfitted:
            self._unfitted.remove(panel)
            panel.fit_columns(self._fit_width)

    def _update_result(self, result: ScanResult) -> None:
        """Show a re-classified ``result`` (same pages and pairs, new types and clusters)."""
        self.result = result
        self._cluster_of = result.cluster_of()
        for panel in (self.pairs_panel, self.pages_panel):
            if panel.record_filter_label().startswith("Cluster"):
                panel.clear_record_filter()  # clusters are numbered anew
            panel.model.update_result(result)  # sorts and filters by the new types, in one go
        self.clusters_view.set_result(result)
        self.histogram_view.set_result(result)
        self.map_view.set_result(result)
        self.scan_status.finish(summarize(result))
        self._show_pair(self.pairs_panel.current_record())
        self._update_tab_titles()

    def current_pair_index(self) -> int | None:
        """The index in ``result.pairs`` of the pair selected in the pairs table, or ``None``."""
        record = self.pairs_panel.current_record()
        return None if record < 0 else record

    def _show_pair(self, index: int) -> None:
        """Show pair ``index`` of ``result.pairs`` in the inspector and mark it on the charts
        (-1: nothing)."""
        if index < 0 or self.result is None:
            self.inspector.clear()
            self.map_view.select_pair(None)
            self.histogram_view.set_selected_distance(None)
            return
        pair = self.result.pairs[index]
        self.inspector.set_pair(self.result, pair, self.result.thresholds)
        self.map_view.select_pair(index)
        self.histogram_view.set_selected_distance(pair.scores.hamming_distance)
        cluster = pair_cluster(self.result, index, self._cluster_of)
        if cluster is None or self.clusters_view.highlighted_cluster() != cluster:
            self.clusters_view.highlight_cluster(cluster)

    def select_pair(self, index: int) -> bool:
        """Select pair ``index`` (of ``result.pairs``) in the pairs table and show that table.

        Returns:
            ``True`` if the pair is now selected (bool).
        """
        if self.result is None or not 0 <= index < len(self.result.pairs):
            return False
        self.tabs.setCurrentWidget(self.pairs_panel)
        return self.pairs_panel.select_record(index)

    def filter_by_distance(self, distance: int) -> None:
        """Show only the pairs at Hamming ``distance`` in the pairs table (a clearable chip)."""
        if self.result is None:
            return
        empty = (
            f"No candidate pair is {distance} bits apart. The histogram counts every pair of pages; this table lists "
            "only the candidate pairs, the ones the scan compared."
        )
        self.pairs_panel.set_record_filter(pairs_at_distance(self.result, distance), f"Hamming distance = {distance}", empty)
        self.tabs.setCurrentWidget(self.pairs_panel)
        if self.pairs_panel.current_record() < 0:
            self.pairs_panel.select_first_row()

    def _on_cluster_chosen(self, cluster_id: int, page: int) -> None:
        cluster = next((c for c in self.result.clusters if c.id == cluster_id), None) if self.result else None
        if cluster is None:
            return
        pairs = cluster_pairs(self.result, cluster)
        label = f"Cluster {cluster_id}"
        self.pairs_panel.set_record_filter(pairs, label)
        self.pages_panel.set_record_filter(cluster.pages, label)
        if page >= 0 and self.tabs.currentWidget() is self.pages_panel:
            self.pages_panel.select_record(page)
            return
        if not isinstance(self.tabs.currentWidget(), TablePanel):
            self.tabs.setCurrentWidget(self.pairs_panel)
        current = self.current_pair_index()
        if page >= 0:
            target = first_pair_of_page(self.result, page, among=pairs)
        else:
            target = current if current in pairs else (pairs[0] if pairs else None)
        if target is not None and target != current:
            self.pairs_panel.select_record(target)
        if page >= 0:
            self.pages_panel.select_record(page)

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

    def _update_tab_titles(self, *_args) -> None:
        for panel, name in ((self.pairs_panel, "Pairs"), (self.pages_panel, "Pages"),
                            (self.errors_panel, "Errors")):  # fmt: skip
            shown, total = panel.model.rowCount(), panel.model.record_count()
            count = f"{total:,}" if shown == total else f"{shown:,} of {total:,}"
            self.tabs.setTabText(self.tabs.indexOf(panel), f"{name} ({count})")

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
        folder = str(Path(self._image_dir))
        dialog = ExportDialog(self.pairs_panel.model.rowCount(), len(self.result.pairs), folder, self)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        fmt, path, only_shown = dialog.choice()
        if path:
            self._image_dir = str(Path(path).parent)
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
