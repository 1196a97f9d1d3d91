"""The content/layout map: every candidate pair at (content similarity, layout similarity), the
four type regions of the current thresholds shaded and named in a key below the axes
(:func:`dedup_gui.core.views.charts.map_figure`).

Clicking a point asks for its pair to be selected; hovering shows the two file names (plain
text: matplotlib's math parsing is off).  The selected pair is ringed.  The hover label and the
ring are drawn with blitting, so moving the mouse over a million points does not redraw them all;
above :data:`~dedup_gui.core.views.charts.IMAGE_POINTS` points the chart draws them as one image.  The
points are read from the result when the map is first drawn, not when a scan arrives, so a
hidden map costs nothing.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backend_bases import MouseButton
from PySide6.QtCore import Signal

from dedup_gui.core.model import ScanResult
from dedup_gui.core.views.charts import Palette, map_figure, map_points
from dedup_gui.core.views.empty import empty_message
from dedup_gui.core.views.selection import hover_text, nearest_point, points_near
from dedup_gui.gui.charts.chart_view import ChartView

#: How close (logical pixels) the pointer must be to a point to hover or click it.
PICK_RADIUS = 6
#: Above this many points the markers lose their outline, which makes drawing 2-3 times faster.
OUTLINE_LIMIT = 5_000


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
        self._pixels = np.zeros((0, 2))  # the points in display pixels, after each draw
        self._selected: int | None = None
        self._hovered: list[int] = []
        self._background = None
        self._ring = None
        self._label = None
        self.canvas.mpl_connect("draw_event", self._on_draw)
        self.canvas.mpl_connect("button_press_event", self._on_press)
        self.canvas.mpl_connect("motion_notify_event", self._on_motion)
        self.canvas.mpl_connect("figure_leave_event", lambda _e: self._hover([]))
        self.set_result(None)

    def set_result(self, result: ScanResult | None) -> None:
        """Show the pairs of ``result`` under ``result.thresholds`` (or nothing for ``None``)."""
        self._result = result
        self._points = np.zeros((0, 2))  # read from the result when it is drawn
        self._pixels = np.zeros((0, 2))
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
        self._update_overlays()

    def selected_pair(self) -> int | None:
        """The ringed pair's index, or ``None`` (int | None)."""
        return self._selected

    def hover_label(self) -> str:
        """The text of the hover label, ``""`` when hidden (str)."""
        return self._label.get_text() if self._label is not None and self._label.get_visible() else ""

    def point_position(self, index: int) -> tuple[float, float]:
        """Where pair ``index``'s point is drawn, in widget (logical) pixels from the top left."""
        x, y = self._pixels[index]
        ratio = self.canvas.device_pixel_ratio
        return x / ratio, self.canvas.height() - y / ratio

    # --- drawing ------------------------------------------------------------------------------

    def draw_figure(self, palette: Palette) -> None:
        """Draw the map with a hidden ring and hover label (drawn later by blitting)."""
        fig = self.figure
        self._background, self._ring, self._label = None, None, None
        message = empty_message(self._result, "map")
        if message is not None or self._result is None:
            self.draw_message(palette, message or "No scan result yet")
            return
        self._points = map_points(self._result)
        map_figure(self._result, self._result.thresholds, palette=palette, fig=fig)
        ax = fig.axes[0]
        if len(self._points) > OUTLINE_LIMIT:
            for collection in ax.collections:
                if collection.get_gid() == "pairs":
                    collection.set_edgecolor("none")
        self._ring = ax.scatter([], [], s=180, facecolors="none", edgecolors=palette.foreground,
                                linewidths=2, animated=True, zorder=5)  # fmt: skip
        self._label = ax.annotate(
            "", (0, 0), xytext=(12, 12), textcoords="offset points", animated=True, zorder=6,
            fontsize="small", color=palette.foreground, parse_math=False,
            bbox={"boxstyle": "round", "facecolor": palette.background, "edgecolor": palette.muted, "alpha": 0.95},
        )  # fmt: skip
        self._label.set_visible(False)

    def _on_draw(self, event) -> None:
        if self._ring is None or not self.figure.axes:
            return
        if event is not None and getattr(event, "canvas", self.canvas) is not self.canvas:
            return  # a draw for a file export (savefig to SVG/PNG), not the screen
        ax = self.figure.axes[0]
        self._pixels = ax.transData.transform(self._points) if len(self._points) else np.zeros((0, 2))
        self._background = self.canvas.copy_from_bbox(self.figure.bbox)
        self._draw_overlays()

    def _draw_overlays(self) -> None:
        ax = self.figure.axes[0]
        if self._selected is not None and self._selected < len(self._points):
            self._ring.set_offsets([self._points[self._selected]])
            ax.draw_artist(self._ring)
        if self._hovered:
            self._place_label()
            ax.draw_artist(self._label)

    def _update_overlays(self) -> None:
        if self._background is None or self._ring is None or not self.isVisible():
            return  # drawn with the next full draw
        self.canvas.restore_region(self._background)
        self._draw_overlays()
        self.canvas.blit(self.figure.bbox)

    def _place_label(self) -> None:
        first = self._hovered[0]
        x, y = self._points[first]
        label = self._label
        label.set_text(hover_text(self._result, self._hovered))
        label.xy = (x, y)
        right, top = x > 0.55, y > 0.6  # keep the label inside the axes
        label.set_position((-12 if right else 12, -12 if top else 12))
        label.set_horizontalalignment("right" if right else "left")
        label.set_verticalalignment("top" if top else "bottom")
        label.set_visible(True)

    # --- mouse --------------------------------------------------------------------------------

    def pairs_at(self, x: float, y: float) -> list[int]:
        """The pairs whose points are within :data:`PICK_RADIUS` of display pixel ``(x, y)``,
        nearest first (list[int])."""
        return points_near(self._pixels, x, y, PICK_RADIUS * self.canvas.device_pixel_ratio)

    def _hover(self, indices: list[int]) -> None:
        if indices == self._hovered:
            return
        self._hovered = indices
        if self._label is not None:
            self._label.set_visible(bool(indices))
        self._update_overlays()

    def _on_motion(self, event) -> None:
        if self._result is None or event.x is None:
            return
        self._hover(self.pairs_at(event.x, event.y))

    def _on_press(self, event) -> None:
        if self._result is None or event.button != MouseButton.LEFT or event.x is None:
            return
        index = nearest_point(self._pixels, event.x, event.y, PICK_RADIUS * self.canvas.device_pixel_ratio)
        if index is not None:
            self.pair_clicked.emit(index)
