"""Method comparison on labelled pairs: for "is this pair a duplicate of any type?", every method's
precision, recall and F1 at its default threshold, the precision/recall curves of the threshold
sweeps with the defaults ringed (k = 3 after Manku et al. 2007; Jaccard 0.9 as SEO crawlers use),
and the four-type classifier's five-type confusion matrix.

The work is :func:`dedup_gui.core.evaluation.method_eval.evaluate_methods` and
:func:`dedup_gui.core.evaluation.evaluate.evaluate` (:mod:`.methods_run`), with the window's
thresholds and scan settings, as the CLI's ``evaluate`` with the same values; it reads every
labelled page, so it runs off the GUI thread with progress and Cancel.  Results of other
thresholds or settings than the window's are greyed and named as such, and run again when the
tab is in view; a failed or cancelled run clears them.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.evaluation.method_eval import pr_figure
from dedup_gui.core.evaluation.pair_labels import outside_scan_note
from dedup_gui.core.model import ScanResult
from dedup_gui.core.progress import CancelToken, ScanCancelled
from dedup_gui.core.views.relations import unbreakable_relations
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.teaching.cell_pairs import ShowPair, list_cell_pairs_on_click
from dedup_gui.gui.teaching.figure_panel import FigurePanel
from dedup_gui.gui.teaching.labels_search import SEARCHING_NOTE, LabelsSearch, labels_note
from dedup_gui.gui.teaching.methods_run import MethodsRun, Relay, RelayProgress, RunSettings, run_methods
from dedup_gui.gui.teaching.methods_tables import (
    METHOD_HEADERS,
    SUMMARY_TIP,
    confusion_counts,
    fill_confusion_table,
    fill_methods_table,
    results_table,
)
from dedup_gui.gui.teaching.widgets import plain_label

#: The labelled pairs bundled with the sample pages.
SAMPLE_LABELS = Path(__file__).resolve().parents[3] / "resources" / "samples" / "EXPECTED.csv"
#: Height of the precision/recall figure at least, in lines of text (it scales with the font).
FIGURE_LINES = 15
#: Width of the figure beside the confusion matrix at least, in lines of text: with less room
#: (presentation mode at 1280x800, a 1024x640 window) the figure goes under the matrix, across
#: the whole width (beside it, its legend squeezed the curves to some 100 pixels and its title
#: ran off the edge; at 36 lines, at 1024x640, the legend went under curves 50 pixels high).
FIGURE_WIDTH_LINES = 52
#: Height of the figure under the matrix at least, in lines of text (its legend in one column).
FIGURE_LINES_UNDER = 20


class MethodsView(QWidget):
    """The method comparison tab: labels file, Run / Cancel, the P/R/F1 table, the confusion
    matrix, and the precision/recall figure.

    Args:
        labels_csv: the labels file to use whatever the scan (``None``: the scan's own, see
            :meth:`set_scan`; the bundled samples' EXPECTED.csv until a scan is given).
        parent: the Qt parent widget, or ``None``.

    Signals:
        finished(object): a :class:`MethodsRun` is shown.
        failed(str): the run failed or was cancelled (the reason).

    Attributes:
        path_edit, browse_button, run_button, cancel_button, progress_bar, status_label: the bar.
        labels_label: which labels are used and why (the rule of
            :mod:`dedup_gui.core.evaluation.scan_labels`).
        settings_label: the window's thresholds and scan settings the tab runs with
            (:meth:`~.methods_run.RunSettings.line`).
        stale_label: shown over results of other thresholds or settings ("Run again").
        results: the widget holding the tables and the figure (disabled, greyed, while stale).
        methods_table: one row per method at its default threshold.
        confusion_table: labelled type (rows) x predicted type (columns).
        summary_label: pairs, accuracy and macro-F1 of the classifier.
        plot: the :class:`~.figure_panel.FigurePanel` with the precision/recall curves.
        run: the :class:`MethodsRun` shown, or ``None``.
    """

    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, labels_csv: str | Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run: MethodsRun | None = None
        self._token = CancelToken()
        self._used = RunSettings()  # the window's thresholds and scan settings
        self._relay = Relay(self)
        self._relay.progressed.connect(self._progressed)
        self._job = LatestJob(self)
        self._job.finished.connect(self._show)
        self._job.failed.connect(self._failed)
        self._auto_ran = False
        self._chosen = labels_csv is not None  # a file given or chosen stands for every scan
        self._scan_root: str | None = None
        self._noted: Path | None = None  # the labels file the labels line names
        self._labels = LabelsSearch(self)  # the scan's labels CSV, looked for off the GUI thread
        self._labels.found.connect(self._use_scan_labels)
        self.labels_label = plain_label(wrap=True)

        self.path_edit = QLineEdit(str(labels_csv or SAMPLE_LABELS))
        self.path_edit.setToolTip("LABELS.csv: columns left, right, type (paths relative to its folder)")
        self.browse_button = QPushButton("Labels CSV…")
        self.browse_button.clicked.connect(self.ask_labels)
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Apply every method to the labelled pairs")
        self.run_button.clicked.connect(self.start)
        # with no file named, Run would read the folder "." ("[Errno 21] Is a directory")
        self.path_edit.textChanged.connect(lambda text: self.run_button.setEnabled(bool(text.strip())))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.progress_bar = QProgressBar()
        self.progress_bar.setFixedWidth(160)
        self.progress_bar.hide()
        self.status_label = plain_label(wrap=True)
        self.settings_label = plain_label(wrap=True)
        self.stale_label = plain_label(bold=True, wrap=True)
        self.stale_label.setStyleSheet("color: #b71c1c;")  # dark red: readable on light and dark
        self.stale_label.hide()

        self.methods_table = results_table(METHOD_HEADERS)
        self.methods_table.verticalHeader().hide()
        # the numbers keep their width; the method names take the rest (elided when narrow,
        # whole in the tooltip), so that every column stays in view without scrolling sideways
        methods_header = self.methods_table.horizontalHeader()
        methods_header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        methods_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.methods_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.confusion_table = results_table(())
        #: Shows a labelled pair in the main window (set by it; :data:`~.cell_pairs.ShowPair`).
        self.show_pair_in_window: ShowPair | None = None
        list_cell_pairs_on_click(self.confusion_table, lambda: None if self.run is None else self.run.scored,
                                 lambda: None if self.run is None else self.run.labels_csv,
                                 lambda: self.show_pair_in_window)  # fmt: skip
        self.summary_label = plain_label(wrap=True)
        self.summary_label.setToolTip(SUMMARY_TIP)
        self.plot = FigurePanel("methods-pr-curves", figsize=(11, 6))

        bar = QHBoxLayout()
        bar.addWidget(plain_label("Labels:", selectable=False))
        bar.addWidget(self.path_edit, 1)
        for w in (self.browse_button, self.run_button, self.cancel_button, self.progress_bar):
            bar.addWidget(w)
        # The methods table spans the whole width (eleven columns: in presentation mode, with
        # fonts twice as large, it needs some 1,200 pixels); below it, the confusion matrix
        # beside the figure.
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        # F1, TP, FP, FN and TN were nowhere defined: each header's tooltip defines its column
        tl.addWidget(plain_label("“Is this pair a duplicate of any type?”: each method at the threshold in use "
                                 "(point at a column's name for its definition)", bold=True, wrap=True))  # fmt: skip
        tl.addWidget(self.methods_table, 1)
        confusion = QWidget()
        cl = QVBoxLayout(confusion)
        cl.setContentsMargins(0, 0, 0, 0)
        self._confusion_title = plain_label("Four-type classifier: confusion matrix (rows labelled, columns "
                                            "predicted)", bold=True, wrap=True)  # fmt: skip
        cl.addWidget(self._confusion_title)
        cl.addWidget(self.confusion_table, 1)
        cl.addWidget(self.summary_label)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(confusion)
        self.bottom.addWidget(self.plot)
        self.bottom.setStretchFactor(0, 2)
        self.bottom.setStretchFactor(1, 3)
        self.bottom.setVisible(False)  # until a run shows its matrix and figure (_show)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self._top = top
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.bottom)
        # never collapsed to 0 px by a squeeze (a teacher found the table so, sizes [0, 1412])
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.labels_label)
        layout.addWidget(self.settings_label)
        layout.addWidget(self.status_label)
        layout.addWidget(self.stale_label)
        layout.addWidget(self.splitter, 1)
        self.results = self.splitter
        self.settings_label.setText(unbreakable_relations(f"settings: {self._used.line()}"))
        self.status_label.setText("Press Run to apply every method to the labelled pairs.")
        self.labels_label.setText(f"labels: {Path(labels_csv).name} (chosen)" if labels_csv else
                                  "labels: the bundled samples' EXPECTED.csv (no scan)")  # fmt: skip
        self._noted = self.labels_path()

    # --- running ----------------------------------------------------------------------------

    def labels_path(self) -> Path:
        """The labels file named in the field (Path)."""
        return Path(self.path_edit.text().strip())

    def set_labels(self, path: str | Path) -> None:
        """Name another labels file (does not run); it stands for later scans too."""
        self._chosen = True
        self._labels.cancel()
        self.path_edit.setText(str(path))
        self.labels_label.setText(f"labels: {Path(path).name} (chosen)")
        self._noted = Path(path)

    def set_scan(self, result: ScanResult | None) -> None:
        """Use the labels that belong to the scanned folder, unless a file was given or chosen.

        The search (:class:`~.labels_search.LabelsSearch`) runs off the GUI thread once per scan;
        meanwhile the tab says it is looking, then which file it found, or that none fits (the
        field empty: "Labels CSV…" chooses one).  Without a scan: the bundled samples'
        EXPECTED.csv.  New labels are run when the tab is in view, else when it is next shown.

        The scan's thresholds (the Thresholds panel's, after a re-classification) and scan
        settings (extractor, min tokens…) are used from now on (:meth:`set_settings`), whatever
        the labels.
        """
        self.set_settings(RunSettings.of(result), run=False)
        self._scan_root = result.root if result is not None else None
        if self._chosen:
            self._run_once()
            return
        if result is None:
            self._labels.cancel()
            self._use_labels(SAMPLE_LABELS, "labels: the bundled samples' EXPECTED.csv (no scan)")
        elif self._labels.look(result):
            self._use_scan_labels(self._labels.answer)
        else:
            self.labels_label.setText(SEARCHING_NOTE)

    def set_settings(self, used: RunSettings, run: bool = True) -> None:
        """Run with these thresholds and scan settings from now on: a run under way starts
        again, results shown of others are greyed with what changed and "Run again"; they are
        run again at once if the tab is in view (and ``run``), else when it is next shown."""
        if used == self._used:
            return
        self._used = used
        self.settings_label.setText(unbreakable_relations(f"settings: {used.line()}"))
        if self._job.is_running():
            self._token.cancel()
            self._job.cancel()
            self._end("The settings changed: running again when the tab is in view.")
        self._auto_ran = False
        self._mark_stale()
        if run:
            self._run_once()

    def is_stale(self) -> bool:
        """``True`` while the results shown are of other thresholds or settings than the window's (bool)."""
        return self.run is not None and self.run.used != self._used

    def _mark_stale(self) -> None:
        """Grey the results shown, if they are of other settings, and say so; else show them plainly."""
        stale = self.is_stale()
        self.results.setEnabled(not stale)
        self.run_button.setText("Run again" if stale else "Run")
        self.stale_label.setVisible(stale)
        if stale and self.run is not None:
            what = self.run.used.changes(self._used)
            self.stale_label.setText(
                f"{what[0].upper()}{what[1:]} changed: the results below are of the previous run, on "
                f"{self.run.finished:%H:%M:%S} ({self.run.used.line()}). Run again."
            )

    def _use_scan_labels(self, found) -> None:
        """Use the labels the search found for the scan (or none: an empty field)."""
        if not self._chosen:
            self._use_labels(getattr(found, "path", None), labels_note(found))

    def _use_labels(self, path: Path | None, note: str) -> None:
        self.labels_label.setText(note)
        self._noted = path
        text = str(path) if path else ""
        if text != self.path_edit.text():
            self.path_edit.setText(text)
            self._token.cancel()
            self._job.cancel()
            self._forget_run()
            self._auto_ran = False
            if path is None:
                self._end("No labels for this scan.")
        self._run_once()

    def _forget_run(self) -> None:
        """Empty the tables and the figure (a run on other labels, a failed or cancelled run:
        never results that may be read as the new ones)."""
        self.run = None
        for table in (self.methods_table, self.confusion_table):
            table.setRowCount(0)
        self.summary_label.clear()
        self.plot.clear()
        # no run, nothing under the table: its title squeezed one word a line beside an empty figure
        self.bottom.setVisible(False)
        self._mark_stale()

    def ask_labels(self) -> None:
        """Choose a labels CSV in a file dialog, then run."""
        path, _ = QFileDialog.getOpenFileName(self, "Labels CSV", str(self.labels_path().parent),
                                              "CSV files (*.csv);;All files (*)")  # fmt: skip
        if path:
            self.set_labels(path)
            self.start()

    def start(self) -> None:
        """Run the comparison on the labels file, off the GUI thread (a running one is cancelled)."""
        if not self.path_edit.text().strip():
            self.status_label.setText("No labels file: choose one with “Labels CSV…”.")
            return
        self._token.cancel()
        self._token = CancelToken()
        self._auto_ran = True
        path = self.labels_path()
        if self.stale_label.isVisible():  # "Run again" would read as a request while it runs
            self.stale_label.setText(self.stale_label.text().replace("Run again.", "Running again…"))
        if path != self._noted:  # a file typed into the field: the line must not name another
            self.labels_label.setText(f"labels: {path.name} (typed in the field)")
            self._noted = path
        self.status_label.setText(f"running… reading the labelled pages of {path.name}")
        self.progress_bar.setRange(0, 0)
        self.progress_bar.show()
        self.cancel_button.setEnabled(True)
        run = self.run  # its pages serve other thresholds on the same file and settings
        same = run is not None and run.labels_csv == path and run.used.settings == self._used.settings
        self._job.submit(run_methods, path, RelayProgress(self._relay, self._token), self._used,
                         run.pages if same and run is not None else None)  # fmt: skip

    def cancel(self) -> None:
        """Stop the running comparison."""
        if not self._job.is_running():
            return
        self._token.cancel()
        self._job.cancel()
        self._forget_run()
        self._end("Cancelled.")
        self.failed.emit("cancelled")

    def is_busy(self) -> bool:
        """``True`` while the scan's labels are looked for, a comparison runs or its figure is drawn (bool)."""
        return self._labels.is_running() or self._job.is_running() or self.plot.is_busy()

    def showEvent(self, event) -> None:  # noqa: N802
        """The first time the tab is shown, run on the labels file so that it never opens empty."""
        super().showEvent(event)
        self._run_once()

    def _run_once(self) -> None:
        """Run on the labels file if the tab is in view and has not run on it yet (not while the
        scan's labels are looked for: the field still names the previous scan's)."""
        idle = not self._auto_ran and (self.run is None or self.is_stale()) and not self._labels.is_running()
        if idle and self.isVisible() and self.labels_path().is_file():
            self.start()

    def _progressed(self, stage: str, done: int, total: int) -> None:
        if not self._job.is_running():
            return
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(done)
        self.status_label.setText(f"running… {stage}: {done:,} of {total:,}")

    def _end(self, status: str) -> None:
        self.progress_bar.hide()
        self.cancel_button.setEnabled(False)
        self.status_label.setText(status)

    def _failed(self, exc: Exception) -> None:
        reason = "Cancelled." if isinstance(exc, ScanCancelled) else f"Could not compare the methods: {exc}"
        self._forget_run()
        self._end(reason)
        self.failed.emit(reason)

    # --- showing ----------------------------------------------------------------------------

    def _show(self, run: MethodsRun) -> None:
        self.run = run
        report, ev = run.report, run.evaluation
        skipped = sum(1 for s in run.scored if s.scores is None)
        self._end(
            f"{report.n:,} labelled pairs of {run.labels_csv.name} ({report.positives:,} duplicates, "
            f"{report.n - report.positives:,} distinct)"
            + (f"; {skipped:,} could not be read" if skipped else "")
            + outside_scan_note(run.labels_csv, [s.pair for s in run.scored], self._scan_root)
        )
        self._mark_stale()  # of other settings if they changed meanwhile: greyed, run again when in view
        self.bottom.setVisible(True)
        fill_methods_table(self.methods_table, report)
        self.summary_label.setText(fill_confusion_table(self.confusion_table, ev))
        self._fit_tables()
        self.redraw()
        self.finished.emit(run)

    def changeEvent(self, event) -> None:  # noqa: N802
        """Fit the tables to a new font (presentation mode)."""
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit_tables()

    def _fit_tables(self) -> None:
        """Size the columns to their contents and share the room between tables and figure."""
        self.confusion_table.resizeColumnsToContents()
        for table in (self.methods_table, self.confusion_table):
            table.resizeRowsToContents()
        self.balance()
        QTimer.singleShot(0, self.balance)  # again once the tables' headers have their final widths

    @staticmethod
    def _table_height(table: QTableWidget) -> int:
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
        return table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth() + 2

    def tables_height(self) -> int:
        """The height that shows every row of the methods table and its title (int, pixels)."""
        return self._table_height(self.methods_table) + 2 * self.fontMetrics().height() + 8

    def balance(self) -> None:
        """Give the methods table the height its rows need and the confusion matrix the width
        its columns need (at most half the width) beside the figure, or, where the figure
        would be narrower than :data:`FIGURE_WIDTH_LINES` lines of text beside it, the matrix
        above the figure and the figure the whole width.

        Every part gets those as minimum heights, the figure :data:`FIGURE_LINES` lines of
        text (:data:`FIGURE_LINES_UNDER` under the matrix): on a small screen (large fonts in
        presentation mode) the tab scrolls rather than squeezing them.
        """
        line = self.fontMetrics().height()
        t = self.confusion_table
        need_width = t.verticalHeader().width() + t.horizontalHeader().length() + 2 * t.frameWidth() + 4
        width = self.splitter.width()
        # the title's and the summary's wrapped heights at the matrix's width (6 lines cut the
        # summary's last line, "… F1 1.000", at 1152x720)
        column = max(need_width, min(width, self.bottom.widget(0).width()))
        words = sum(label.heightForWidth(column) for label in (self._confusion_title, self.summary_label)
                    if label.text())  # fmt: skip
        need_matrix = self._table_height(t) + max(words, 2 * line) + 2 * line
        beside = width - need_width >= FIGURE_WIDTH_LINES * line
        need_figure = (FIGURE_LINES if beside else FIGURE_LINES_UNDER) * line
        orientation = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        if orientation != self.bottom.orientation():
            self.bottom.setOrientation(orientation)
            QTimer.singleShot(0, self.balance)  # once the splitter has laid its parts out that way
        self.plot.setMinimumHeight(need_figure)
        self.bottom.widget(0).setMinimumHeight(0 if beside else need_matrix)
        need_top = self.tables_height()
        need_bottom = max(need_matrix, need_figure) if beside else need_matrix + need_figure + self.bottom.handleWidth()
        self._top.setMinimumHeight(need_top)
        self.bottom.setMinimumHeight(need_bottom)
        total = sum(self.splitter.sizes())
        if total > 0:
            # the table first ("all twelve methods on the first screen"); the tab scrolls
            top = min(need_top, total) if total - need_bottom < need_top else need_top
            self.splitter.setSizes([top, total - top])
        room = sum(self.bottom.sizes())
        if room > 0:
            first = min(need_width, room // 2) if beside else need_matrix
            self.bottom.setSizes([first, room - first])

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        """The height the tab needs at ``width``: its wrapped lines', and the least the
        splitter's parts need (:meth:`balance`), not their preferred heights (int, pixels).
        The tab's scroll area asks this (the labels wrap); with the splitter's preferred height
        it scrolled 13 pixels at 1152x720 with room for every part."""
        spare = self.splitter.sizeHint().height() - self.splitter.minimumSizeHint().height()
        return super().heightForWidth(width) - max(spare, 0)

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Share the new room again."""
        super().resizeEvent(event)
        self.balance()

    def confusion_counts(self) -> list[list[int]]:
        """The confusion matrix as shown: rows labelled, columns predicted, in type order (list of lists)."""
        return confusion_counts(self.confusion_table)

    def redraw(self) -> None:
        """Draw the precision/recall figure again (after a run, a palette or presentation change)."""
        if self.run is None:
            return
        self.plot.draw(partial(pr_figure, self.run.report, self.plot.palette_for_chart()))
