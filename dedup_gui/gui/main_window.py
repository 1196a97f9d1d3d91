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

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import ScanResult, ScanSettings, Thresholds
from dedup_gui.core.views.filter_owners import HISTOGRAM, TREE
from dedup_gui.core.views.reclassify_text import changed_pairs, reclassified_text, reclassifying_text
from dedup_gui.core.views.session import (  # noqa: F401 (scan_stages and summarize: re-exported)
    APP_NAME,
    ClusterChoice,
    Session,
    cluster_choice,
    distance_filter,
    errors_tab_title,
    reclassify_with_columns,
    scan_stages,
    summarize,
    tab_title,
)
from dedup_gui.gui.charts.histogram_view import HistogramView
from dedup_gui.gui.charts.map_view import MapView
from dedup_gui.gui.export_dialog import ExportRunner
from dedup_gui.gui.inspector import PairInspector
from dedup_gui.gui.inspector.jobs import LatestJob, command_pool, freeze_long_lived
from dedup_gui.gui.scan_status import ScanStatus, last_results_banner
from dedup_gui.gui.settings import AppSettings, restore_window_layout
from dedup_gui.gui.shortcuts import WindowShortcutsFirst
from dedup_gui.gui.tables.clusters_view import ClustersView
from dedup_gui.gui.tables.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.tables.table_panel import TablePanel
from dedup_gui.gui.thresholds_panel import ThresholdsPanel
from dedup_gui.gui.window_actions import WindowActions
from dedup_gui.gui.window_copy import CopyKeptPages
from dedup_gui.gui.window_decisions import KeepDecisions
from dedup_gui.gui.window_filters import WindowFilters
from dedup_gui.gui.window_ignore import IgnoreDecisions
from dedup_gui.gui.window_labels import WindowLabels
from dedup_gui.gui.window_layout import LARGE_SIZES, first_layout
from dedup_gui.gui.window_menus import build_menus
from dedup_gui.gui.window_scans import ScanControl, remembered_settings, with_pair_columns  # noqa: F401
from dedup_gui.gui.worker import ScanFunction, ScanThread


class MainWindow(ScanControl, WindowActions, KeepDecisions, IgnoreDecisions, CopyKeptPages, WindowLabels, WindowFilters,
                 QMainWindow):  # fmt: skip
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
        session: the folder, results, settings and thresholds (:class:`Session`, no Qt).
        folder: the folder last scanned, or ``None`` (the session's).
        result: the result every view shows (the scan re-classified under the thresholds in
            force), or ``None`` (the session's).
        scan_result: the scan's own result, which threshold changes re-classify (the session's).

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
        self.session = Session(settings or remembered_settings(self.app_settings),
                               thresholds or self.app_settings.thresholds())  # fmt: skip
        self._thread: ScanThread | None = None  # the scan whose signals the window follows
        self._threads: list[ScanThread] = []  # every scan thread not yet finished
        self._unfitted: list[TablePanel] = []  # tables whose columns wait for their tab to show
        self._showing = 0  # number of the newest result hand-over (_set_result)
        self._showing_pending = False  # its later steps have not run yet
        # what the status bar says once the re-classified result is shown: (what was done, said
        # for a while; what leads the summary, "" for nothing)
        self._status_after_update: tuple[str, str] | None = None
        self.error_box: QMessageBox | None = None
        self._image_dir = str(Path.home())
        self._export_format = "html"  # File > Export… offers the format used last
        self._reclassify_job = LatestJob(self, command_pool())  # never queued behind the charts
        self._reclassify_job.finished.connect(self._on_reclassified)
        self._reclassify_job.failed.connect(self._on_reclassify_failed)
        self.exporter = ExportRunner(self)
        self.exporter.finished.connect(self._on_export_finished)
        self.exporter.failed.connect(self._on_export_failed)

        self._build_views()
        self.scan_status = ScanStatus()
        self.scan_status.place_in(self.statusBar())
        self.scan_status.cancel_requested.connect(self.cancel_scan)
        self._connect_views()
        build_menus(self)
        # Ctrl+E and friends work in the filter boxes and the threshold spin boxes (whose
        # line edit claims the same keys)
        self._shortcuts_first = WindowShortcutsFirst(self)
        boxes: list[QWidget] = [self.pairs_panel.text_filter, self.pages_panel.text_filter]
        boxes += self.thresholds_panel.findChildren(QAbstractSpinBox)
        for box in boxes:
            box.installEventFilter(self._shortcuts_first)
        self.export_action.setEnabled(False)

        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.resize(self._default_size())
        # no remembered layout: the clusters panel gets its share of the width first shown
        self._size_docks = self.app_settings.byte_array("window/state") is None
        self.splitter.setSizes(list(LARGE_SIZES))
        restore_window_layout(self, self.app_settings)
        self._update_tab_titles()
        # The modules and widgets loaded so far live as long as the window: out of the
        # collector's sight, the collection when a scan starts walks only newer objects.
        freeze_long_lived()

    def _build_views(self) -> None:
        self.pages_model = PagesModel(self)
        self.pairs_model = PairsModel(self)
        self.errors_model = ErrorsModel(self)
        self.pairs_panel = TablePanel(self.pairs_model)
        self.pages_panel = TablePanel(self.pages_model, with_status_filter=True, with_details=True)
        self.errors_panel = TablePanel(self.errors_model, with_type_filter=False, with_details=True)
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
        self.last_results_banner = last_results_banner()  # shown while a scan runs (window_scans)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.last_results_banner)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        self.clusters_view = ClustersView()
        self.thresholds_panel = ThresholdsPanel(self.session.thresholds)
        self.clusters_dock = self._dock("Clusters", "clusters_dock", self.clusters_view)
        self.thresholds_dock = self._dock("Thresholds", "thresholds_dock", self.thresholds_panel)
        self.resizeDocks([self.clusters_dock, self.thresholds_dock], [520, 260], Qt.Orientation.Vertical)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """On the first show without a remembered layout, lay the window out
        (:func:`~dedup_gui.gui.window_layout.first_layout`)."""
        if self._size_docks:
            self._size_docks = False
            first_layout(self, self.splitter, self.clusters_dock)
        super().showEvent(event)

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
        self.map_view.pair_clicked.connect(self._map_point_clicked)
        self.clusters_view.cluster_chosen.connect(self._on_cluster_chosen)
        self.thresholds_panel.thresholds_changed.connect(self.apply_thresholds)
        self.thresholds_panel.notice.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self._connect_filters()
        self._connect_decisions()
        self._connect_ignore_list()
        self._connect_labels()

    # --- state ------------------------------------------------------------------------------

    @property
    def folder(self) -> str | None:
        """The folder last scanned (str), or ``None``."""
        return self.session.folder

    @property
    def result(self) -> ScanResult | None:
        """The result every view shows, or ``None``."""
        return self.session.result

    @property
    def scan_result(self) -> ScanResult | None:
        """The scan's own result, which threshold changes re-classify, or ``None``."""
        return self.session.scan_result

    def is_showing_result(self) -> bool:
        """Whether a result is still being handed to the views (the clusters, the charts and
        the first duplicate follow the tables in later turns of the event loop) (bool)."""
        return self._showing_pending

    def is_busy(self) -> bool:
        """Whether a scan, a re-classification or a chart computation is running (bool)."""
        return (self.is_scanning() or self.is_showing_result() or self._reclassify_job.is_running()
                or self.thresholds_panel.is_pending() or self.histogram_view.is_busy() or self.map_view.is_busy()
                or self.exporter.is_running())  # fmt: skip

    # --- thresholds -------------------------------------------------------------------------

    def thresholds(self) -> Thresholds:
        """The thresholds in force (:class:`Thresholds`)."""
        return self.session.thresholds

    def apply_thresholds(self, thresholds: Thresholds, lead: str = "") -> None:
        """Re-classify the scan under ``thresholds`` in the background, then update every view
        (:attr:`results_changed` follows); the status line says so meanwhile (see
        :meth:`reclassify`; ``lead`` goes before the summary).  The thresholds are remembered."""
        self.session.thresholds = thresholds
        self.app_settings.set_thresholds(thresholds)
        if self.thresholds_panel.thresholds() != thresholds:
            self.thresholds_panel.set_thresholds(thresholds)
        if self.scan_result is None or self.is_scanning():
            return  # the next scan uses them
        notice = self.thresholds_panel.take_notice()  # a clamped value: said again at the end, not replaced
        done = f"{notice}; thresholds applied" if notice else "Thresholds applied"
        self.reclassify(reclassify_with_columns, self.scan_result, thresholds, done=done, lead=lead)

    def reclassify(self, fn: Callable[..., ScanResult], *args, doing: str = "", done: str, lead: str = "") -> None:
        """Run ``fn(*args)`` (a re-classification of the scan, giving the result to show) in
        the background; the status line says "Re-classifying N pairs…" with a busy bar from now
        until every view shows the new result, then the result's summary (its counts), while
        ``done`` and how many pairs changed type show over it for 8 s
        (:func:`~dedup_gui.core.views.reclassify_text.reclassified_text`).

        Args:
            fn: the function (no widget); its result reaches :meth:`_on_reclassified`.
            *args: its arguments.
            doing: what is being done, said before the count (``""``: the count alone).
            done: what was done, e.g. ``"Marked a.html and b.html not a duplicate"`` (str).
            lead: said before the summary, e.g. a cancelled scan's end (``""``: nothing).
        """
        pairs = len(self.scan_result.pairs) if self.scan_result is not None else 0
        self._status_after_update = (done, lead)
        self.scan_status.busy(reclassifying_text(pairs, doing))
        self._reclassify_job.submit(fn, *args)

    def _on_reclassified(self, result: ScanResult) -> None:
        if not self.session.is_current(result):
            return  # from a scan that is no longer shown
        self._update_result(result, changed_pairs(self.result, result))
        self._after_keep_choice(result)
        self.results_changed.emit()

    def _on_reclassify_failed(self, exc: Exception) -> None:
        self._status_after_update = None
        self.scan_status.finish(f"Re-classification failed: {type(exc).__name__}: {exc}")

    # --- views ------------------------------------------------------------------------------

    def _set_result(self, result: ScanResult | None, shown: Callable[[], None] | None = None,
                    scan: ScanResult | None = None) -> None:  # fmt: skip
        """Show a new scan's result (or nothing) in every view, and select its first duplicate.
        ``scan`` is the scan's own result when ``result`` is a re-classification of it (a result
        given back after a cancelled scan), else ``None``.

        The tables are filled now; the clusters, the charts and the first duplicate's pair
        follow in later turns of the event loop, so that the window repaints in between: done
        at once, the hand-over of a 10,000-page result stalled the window for 0.1 to 0.3 s.
        ``shown`` is called when every step has run (not if another result came first).
        """
        self._reclassify_job.cancel()
        self._status_after_update = None
        self._showing += 1
        showing = self._showing
        self.session.show(result, scan)
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
        self._unfitted = [self.pairs_panel, self.pages_panel, self.errors_panel]
        self._fit_shown_table()

    def _fit_shown_table(self, *_args) -> None:
        # the width of the tab area now, not when the result came: the window may have been
        # resized on another tab since
        panel = self.tabs.currentWidget()
        if panel in self._unfitted:
            self._unfitted.remove(panel)
            view = panel.view
            margins = 8 + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width()
            panel.fit_columns(self.tabs.currentWidget().width() - margins)

    def _update_result(self, result: ScanResult, changed: int) -> None:
        """Show a re-classified ``result`` (same pages and pairs, new types and clusters), of
        which ``changed`` pairs changed type; the status line says so last."""
        self.session.update(result)
        for panel in (self.pairs_panel, self.pages_panel):
            if panel.record_filter_label().startswith(("Group", "Keep cluster")):
                panel.clear_record_filter()  # clusters are numbered anew
            panel.model.update_result(result)  # sorts and filters by the new types, in one go
            panel.columns.grow_to_widest_texts()  # "distinct (marked by you)" now in the type column
        self.clusters_view.set_result(result)
        self.histogram_view.set_result(result)
        self.map_view.set_result(result)
        self._show_pair(self.pairs_panel.current_record())
        self._update_tab_titles()
        # last: "Re-classifying…" until every view shows the result
        after, self._status_after_update = self._status_after_update, None
        lead = after[1] if after is not None else ""
        self.scan_status.finish(f"{lead}. {self.summary(result)}" if lead else self.summary(result))
        if after is not None:  # over the summary, which comes back when it times out
            self.statusBar().showMessage(reclassified_text(after[0], changed), 8000)

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
        self.inspector.set_pair(self.result, pair, self.result.thresholds, self.pairs_model.table.label_of(index))
        self.map_view.select_pair(index)
        self.histogram_view.set_selected_distance(pair.scores.hamming_distance)
        self.clusters_view.highlight_pair(self.session.pair_cluster(index), pair.left, pair.right)

    def select_pair(self, index: int, show_table: bool = True) -> bool:
        """Select pair ``index`` (of ``result.pairs``) in the pairs table (the inspector shows it)
        and, with ``show_table``, bring that table to the front.

        Returns:
            ``True`` if the pair is now selected (bool).
        """
        if self.result is None or not 0 <= index < len(self.result.pairs):
            return False
        if show_table:
            self.tabs.setCurrentWidget(self.pairs_panel)
        return self.pairs_panel.select_record(index)

    def _map_point_clicked(self, index: int) -> None:
        # The map stays in front, so the next point is one click away; the inspector shows the pair.
        if not self.select_pair(index, show_table=False):
            self.select_pair(index)  # hidden by the table's filters: the table says so

    def filter_by_distance(self, distance: int) -> None:
        """Show only the pairs at Hamming ``distance`` in the pairs table (a clearable chip)."""
        if self.result is None:
            return
        chosen = distance_filter(self.result, distance)
        self.set_owned_filter(HISTOGRAM, chosen.label, {"pairs": (chosen.records, chosen.empty)})
        self.tabs.setCurrentWidget(self.pairs_panel)
        if self.pairs_panel.current_record() < 0:
            self.pairs_panel.select_first_row()

    def _on_cluster_chosen(self, cluster_id: int, page: int) -> None:
        choice = cluster_choice(self.result, cluster_id, page)
        if choice is not None:
            self.apply_cluster_choice(choice)

    def apply_cluster_choice(self, choice: ClusterChoice) -> None:
        """Filter the pairs and pages tables to a cluster (a near-duplicate group or a keep
        cluster) chosen in the tree, and select its chosen page's pair (or keep the selection)."""
        page = choice.page
        self.set_owned_filter(TREE, choice.label, {"pairs": (choice.pairs, ""), "pages": (choice.pages, "")})
        if page >= 0 and self.tabs.currentWidget() is self.pages_panel:
            self.pages_panel.select_record(page)
            return
        if not isinstance(self.tabs.currentWidget(), TablePanel):
            self.tabs.setCurrentWidget(self.pairs_panel)
        current = self.current_pair_index()  # after the filter, which may have hidden it
        target = choice.target(current)
        if target is not None and target != current:
            self.pairs_panel.select_record(target)
        if page >= 0:
            self.pages_panel.select_record(page)

    def _update_tab_titles(self, *_args) -> None:
        # The counts of `python app.py scan`: pages read; errors, and skipped files apart.
        for panel, name in ((self.pairs_panel, "Pairs"), (self.pages_panel, "Pages")):
            title = tab_title(name, panel.model.rowCount(), panel.model.record_count())
            self.tabs.setTabText(self.tabs.indexOf(panel), title)
        title = errors_tab_title(*self.errors_model.table.kind_counts())
        self.tabs.setTabText(self.tabs.indexOf(self.errors_panel), title)
