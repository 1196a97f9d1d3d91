"""The Hamming distance histogram: every pair of pages, with the near-duplicate threshold k and
the classified pairs coloured by type; a click on a bar asks for the pairs at that distance.

The exact all-pairs count (:func:`dedup_gui.core.views.histogram.result_histogram`, O(n²), about half
a minute for 100,000 pages) runs off the GUI thread with progress; the figure is
:func:`dedup_gui.core.views.charts.histogram_figure`.  The counts depend only on the fingerprints, so a
threshold change only redraws (new k line, new type colours).
"""

from __future__ import annotations

from functools import partial

import numpy as np
from matplotlib.figure import Figure
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QCheckBox

from dedup_gui.core.columns import compared_counts_by_distance, distance_counts_by_type
from dedup_gui.core.fingerprints.simhash import bits_text
from dedup_gui.core.model import DupType, ScanResult
from dedup_gui.core.progress import CancelToken
from dedup_gui.core.views.charts import Palette, histogram_figure
from dedup_gui.core.views.empty import empty_message
from dedup_gui.core.views.histogram import result_histogram
from dedup_gui.core.views.selection import bar_text, distance_at
from dedup_gui.gui.charts.chart_view import ChartView, message_chart
from dedup_gui.gui.charts.figure_image import Chart
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.worker import QtProgress

#: How long after a result arrives a hidden histogram starts counting (ms).
HIDDEN_START_DELAY_MS = 1000


class HistogramView(ChartView):
    """The histogram tab: the chart, "Log scale", "Save chart…".

    Hovering a bar shows its counts as a tooltip; a left click on a bar's column emits
    :attr:`distance_clicked` (columns with no pair at all are ignored).  A triangle on the top
    edge marks the distance of the pair selected in the table.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        counts: the 65 all-pairs counts (``np.int64``), or ``None`` while computing / no scan.
        by_type: classified pairs per type and distance (dict[DupType, np.ndarray]).
        compared: compared pairs per distance, whatever their type (65 ``np.int64``).

    Signals:
        distance_clicked(int): a bar was clicked; its Hamming distance in bits.
        computed(): the all-pairs counts of the current scan are ready.
    """

    distance_clicked = Signal(int)
    computed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__("histogram", parent)
        self.counts: np.ndarray | None = None
        self.by_type: dict[DupType, np.ndarray] = {}
        self.compared = np.zeros(65, dtype=np.int64)
        self._result: ScanResult | None = None
        self._pages_key: tuple[int, int] | None = None
        self._selected_distance: int | None = None
        self._token = CancelToken()
        self._progress: QtProgress | None = None
        self._job = LatestJob(self)
        self._job.finished.connect(self._on_counts)
        self._job.failed.connect(self._on_failed)
        # A hidden histogram starts counting a moment after a result arrives, not with it: its
        # threads would otherwise take the cores while the window shows the new result.
        self._start_timer = QTimer(self)
        self._start_timer.setSingleShot(True)
        self._start_timer.setInterval(HIDDEN_START_DELAY_MS)
        self._start_timer.timeout.connect(self._start_pending)
        self.log_check = QCheckBox("Log scale")
        self.log_check.setToolTip("Logarithmic count axis: shows the few near-duplicate pairs next to the many others")
        self.log_check.toggled.connect(lambda _on: self.redraw())
        self.controls.addWidget(self.log_check)
        self.canvas.pressed.connect(self._on_press)
        self.canvas.moved.connect(self._on_motion)
        self.set_result(None)

    # --- data ---------------------------------------------------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show ``result``: count its pages' distances in the background if they changed (a new
        scan), and take its types and ``thresholds.hamming_k`` (a re-classification)."""
        self._result = result
        if result is None:
            self._cancel()
            self._pages_key, self.counts, self.by_type = None, None, {}
            self.compared = np.zeros(65, dtype=np.int64)
            self.status_label.setText("No scan result yet")
            self.redraw()
            return
        self.by_type = distance_counts_by_type(result)  # vectorized: a million pairs in tens of ms
        self.compared = compared_counts_by_distance(result)
        key = (id(result.pages), len(result.pages))  # re-classification keeps the pages list
        if key != self._pages_key:
            self._pages_key = key
            self._cancel()
            self.counts = None
            if self.isVisible():
                self._start(result)
            else:
                self._start_timer.start()
        else:
            self._show_status()
        self.redraw()

    def set_selected_distance(self, distance: int | None) -> None:
        """Mark the selected pair's Hamming distance on the chart (``None``: no mark)."""
        if distance != self._selected_distance:
            self._selected_distance = distance
            self._show_status()
            self.redraw()

    def is_busy(self) -> bool:
        """``True`` while the all-pairs counts are being computed or the chart drawn (bool)."""
        return self._job.is_running() or super().is_busy()

    def shutdown(self) -> None:
        """Stop a computation that is still running (before the window goes)."""
        self._cancel()

    def _start_pending(self) -> None:
        if self._start_timer.isActive():
            self._start_timer.stop()
        if self._result is not None and self.counts is None and not self._job.is_running():
            self._start(self._result)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Shown before the delayed start: count now."""
        if self._start_timer.isActive():
            self._start_pending()
        super().showEvent(event)

    def _cancel(self) -> None:
        self._start_timer.stop()
        self._token.cancel()
        self._job.cancel()
        self.progress_bar.hide()

    def _start(self, result: ScanResult) -> None:
        self._cancel()
        self.counts = None
        self._token = CancelToken()
        self._progress = QtProgress(0, self._token, min_interval=0.1)
        self._progress.updated.connect(self._on_progress)
        n = sum(1 for p in result.pages if p.has_text)
        self.status_label.setText(f"Computing the Hamming distances of {n * (n - 1) // 2:,} pairs of pages…")
        self.progress_bar.setRange(0, 0)
        self.progress_bar.show()
        self._job.submit(result_histogram, result, self._progress)

    def _on_progress(self, _id: int, _stage: str, done: int, total: int, _detail: str = "") -> None:
        if self._job.is_running() and total > 0:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)

    def _on_counts(self, counts: np.ndarray) -> None:
        self.counts = counts
        self.progress_bar.hide()
        self._show_status()
        self.redraw()
        self.computed.emit()

    def _on_failed(self, exc: Exception) -> None:
        self.progress_bar.hide()
        self.status_label.setText(f"Could not count the distances: {type(exc).__name__}: {exc}")

    def _show_status(self) -> None:
        if self.counts is None:
            return
        total = int(self.counts.sum())
        k = self._result.thresholds.hamming_k
        near = int(self.counts[: k + 1].sum())
        mark = (
            ""
            if self._selected_distance is None
            else f" ▼ marks the selected pair ({self._selected_distance} bit{'s' if self._selected_distance != 1 else ''})."
        )
        self.status_label.setText(
            f"{total:,} pairs of pages; {near:,} within k = {bits_text(k)}.{mark} Click a bar to list its candidate pairs."
        )

    # --- drawing ------------------------------------------------------------------------------

    def chart(self, palette: Palette) -> Chart:
        """The histogram, or a line saying why there is none yet (a chart drawn off the GUI thread)."""
        message = empty_message(self._result, "histogram")
        if message is None and self.counts is None:
            message = "Computing the Hamming distances…"
        if message is not None:
            return message_chart(message, palette)
        assert self._result is not None and self.counts is not None
        return partial(histogram_chart, self.counts, dict(self.by_type), self._result.thresholds.hamming_k,
                       self.log_check.isChecked(), palette, self._selected_distance)  # fmt: skip

    # --- mouse --------------------------------------------------------------------------------

    def _distance_of(self, x: float, y: float) -> int | None:
        """The distance under figure pixel ``(x, y)``, through the drawn figure's transforms."""
        if self.counts is None:
            return None
        for ax in self.figure.axes:
            if ax.bbox.contains(x, y):
                return distance_at(ax.transData.inverted().transform((x, y))[0])
        return None

    def has_pairs_at(self, distance: int) -> bool:
        """Whether any pair of pages lies at ``distance`` bits (bool)."""
        if self.counts is None:
            return False
        return bool(self.counts[distance] or any(c[distance] for c in self.by_type.values()))

    def click_distance(self, distance: int) -> None:
        """Act as if the bar at ``distance`` was clicked (emits :attr:`distance_clicked`)."""
        if self.has_pairs_at(distance):
            self.distance_clicked.emit(distance)

    def _on_press(self, x: float, y: float, button: int) -> None:
        if button != 1:
            return
        distance = self._distance_of(x, y)
        if distance is not None:
            self.click_distance(distance)

    def _on_motion(self, x: float, y: float) -> None:
        distance = self._distance_of(x, y)
        text = "" if distance is None else bar_text(self.counts, self.compared, self.by_type, distance)
        if text != self.canvas.toolTip():
            self.canvas.setToolTip(text)


def histogram_chart(counts: np.ndarray, by_type: dict[DupType, np.ndarray], k: int, log: bool, palette: Palette,
                    selected: int | None, fig: Figure) -> None:  # fmt: skip
    """Draw :func:`~dedup_gui.core.views.charts.histogram_figure` into ``fig`` with a small triangle
    on the top edge over the selected pair's distance ``selected`` (bits; ``None``: no mark)."""
    histogram_figure(counts, by_type, k, log=log, palette=palette, fig=fig)
    if selected is not None and fig.axes:
        ax = fig.axes[0]
        ax.plot([selected], [1.0], marker="v", markersize=9, color=palette.foreground, clip_on=False,
                transform=ax.get_xaxis_transform(), gid="selected", label="_selected pair")  # fmt: skip
