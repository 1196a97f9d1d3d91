"""The content/layout map: every candidate pair at (content similarity, layout similarity), the
four type regions of the current thresholds shaded and named in a key below the axes
(:func:`dedup_gui.core.views.charts.map_figure`).

Clicking a point asks for its pair to be selected; hovering shows the two file names (plain
text).  The selected pair is ringed.  The chart is drawn off the GUI thread; the hover label and
the ring are painted by Qt over its picture, so moving the mouse over a million points does not
draw them again; above :data:`~dedup_gui.core.views.charts.IMAGE_POINTS` points the chart draws them
as one image.  The points are read from the result when the map is drawn, not when a scan
arrives, so a hidden map costs nothing.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from dedup_gui.core.model import ScanResult, Thresholds
from dedup_gui.core.views.charts import MAP_Y_LABEL, Palette, map_figure, map_points, map_x_label
from dedup_gui.core.views.empty import empty_message
from dedup_gui.core.views.selection import hover_text, nearest_point, points_near
from dedup_gui.gui.charts.chart_view import ChartView, message_chart
from dedup_gui.gui.charts.figure_image import Chart

#: How close (logical pixels) the pointer must be to a point to hover or click it.
PICK_RADIUS = 6
#: The selection ring's radius and the hover label's distance from its point (logical pixels).
RING_RADIUS = 9
LABEL_OFFSET = 12
#: Above this many points the markers lose their outline, which makes drawing 2-3 times faster.
OUTLINE_LIMIT = 5_000
#: The axes in full, in the tooltip of the line above the map: in the window the map is short
#: and its axis labels are short (:data:`~dedup_gui.core.views.charts.MAP_X_SHORT`).
AXES_TIP = (f"Across: {map_x_label(Thresholds())}, 0 to 1.\nUp: {MAP_Y_LABEL}: the similarity of the two pages' templates "
            "(each page without its main content), 0 to 1.\nThe dashed lines are the thresholds "
            "\"Content same\" and \"Layout same\".")  # fmt: skip


class MapView(ChartView):
    """The map tab: the chart and "Save chart…".

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        pair_clicked(int): a point was clicked; the index of its pair in ``result.pairs``
            (the nearest point within :data:`PICK_RADIUS` pixels).
    """

    pair_clicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__("map", parent)
        self._result: ScanResult | None = None
        self._points = np.zeros((0, 2))
        self._pixels = np.zeros((0, 2))  # the points in the picture's display pixels
        self._selected: int | None = None
        self._hovered: list[int] = []
        self._palette: Palette | None = None
        self.canvas.overlay = self._paint_overlays
        self.canvas.pressed.connect(self._on_press)
        self.canvas.moved.connect(self._on_motion)
        self.canvas.left.connect(lambda: self._hover([]))
        self.status_label.setToolTip(AXES_TIP)
        self.set_result(None)

    def set_result(self, result: ScanResult | None) -> None:
        """Show the pairs of ``result`` under ``result.thresholds`` (or nothing for ``None``)."""
        self._result = result
        self._hovered = []
        if result is None:
            self._selected = None
            self.status_label.setText("No scan result yet")
        else:
            self.status_label.setText(
                f"{len(result.pairs):,} candidate pairs. Click a point to select its pair; hover to see the pages."
            )
        self.redraw()

    def select_pair(self, index: int | None) -> None:
        """Ring the point of pair ``index`` (``None``: no ring)."""
        self._selected = index
        self.canvas.update()

    def selected_pair(self) -> int | None:
        """The ringed pair's index, or ``None`` (int | None)."""
        return self._selected

    def hover_label(self) -> str:
        """The text of the hover label, ``""`` when hidden (str)."""
        if not self._hovered or self._result is None:
            return ""
        return hover_text(self._result, self._hovered)

    def point_position(self, index: int) -> tuple[float, float]:
        """Where pair ``index``'s point is drawn, in widget (logical) pixels from the top left."""
        at = self.canvas.from_figure(*self._pixels[index])
        return at.x(), at.y()

    # --- drawing ------------------------------------------------------------------------------

    def chart(self, palette: Palette) -> Chart:
        """The map, or a line saying why there is none (a chart drawn off the GUI thread)."""
        self._palette = palette
        message = empty_message(self._result, "map")
        if message is not None or self._result is None:
            return message_chart(message or "No scan result yet", palette)
        result = self._result

        def chart(fig: Figure):
            points = map_points(result)
            map_figure(result, result.thresholds, palette=palette, fig=fig)
            ax = fig.axes[0]
            if len(points) > OUTLINE_LIMIT:
                for collection in ax.collections:
                    if collection.get_gid() == "pairs":
                        collection.set_edgecolor("none")
            return lambda _fig: (result, points, ax.transData.transform(points) if len(points) else np.zeros((0, 2)))

        return chart

    def on_rendered(self, extra: object) -> None:
        """Take the drawn points' pixels (for hovering and clicking) from the new picture."""
        if isinstance(extra, tuple) and extra[0] is self._result:
            self._points, self._pixels = extra[1], extra[2]
        else:  # a message, or a picture of an older result
            self._points, self._pixels = np.zeros((0, 2)), np.zeros((0, 2))
        self._hovered = []

    def _paint_overlays(self, painter: QPainter) -> None:
        palette = self._palette
        if palette is None:
            return
        foreground = QColor(palette.foreground)
        if self._selected is not None and self._selected < len(self._pixels):
            painter.setPen(QPen(foreground, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(self.canvas.from_figure(*self._pixels[self._selected]), RING_RADIUS, RING_RADIUS)
        text = self.hover_label()
        if text:
            self._paint_label(painter, text, self.canvas.from_figure(*self._pixels[self._hovered[0]]), palette)

    def _paint_label(self, painter: QPainter, text: str, at: QPointF, palette: Palette) -> None:
        """The hover label beside its point, turned towards the middle so it stays in view."""
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 0.9)
        painter.setFont(font)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        box = painter.boundingRect(QRectF(0, 0, 10_000, 10_000), flags, text).adjusted(-6, -4, 6, 4)
        w, h = self.canvas.width(), self.canvas.height()
        right, top = at.x() > 0.55 * w, at.y() < 0.4 * h
        x = at.x() - LABEL_OFFSET - box.width() if right else at.x() + LABEL_OFFSET
        y = at.y() + LABEL_OFFSET if top else at.y() - LABEL_OFFSET - box.height()
        box.moveTo(min(max(x, 0.0), max(w - box.width(), 0.0)), min(max(y, 0.0), max(h - box.height(), 0.0)))
        painter.setPen(QPen(QColor(palette.muted), 1))
        background = QColor(palette.background)
        background.setAlphaF(0.95)
        painter.setBrush(background)
        painter.drawRoundedRect(box, 5, 5)
        painter.setPen(QColor(palette.foreground))
        painter.drawText(box.adjusted(6, 4, -6, -4), flags, text)  # QPainter text is plain

    # --- mouse --------------------------------------------------------------------------------

    def pairs_at(self, x: float, y: float) -> list[int]:
        """The pairs whose points are within :data:`PICK_RADIUS` of display pixel ``(x, y)``,
        nearest first (list[int])."""
        return points_near(self._pixels, x, y, PICK_RADIUS * self.canvas.device_pixel_ratio)

    def _hover(self, indices: list[int]) -> None:
        if indices != self._hovered:
            self._hovered = indices
            self.canvas.update()

    def _on_motion(self, x: float, y: float) -> None:
        if self._result is not None:
            self._hover(self.pairs_at(x, y))

    def _on_press(self, x: float, y: float, button: int) -> None:
        if self._result is None or button != 1:
            return
        index = nearest_point(self._pixels, x, y, PICK_RADIUS * self.canvas.device_pixel_ratio)
        if index is not None:
            self.pair_clicked.emit(index)
