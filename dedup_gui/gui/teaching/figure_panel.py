"""A teaching view's matplotlib figure, drawn off the GUI thread, with "Save figure…".

matplotlib needs 0.1-0.2 s of CPU to lay out and draw even a small figure (constrained layout,
tick labels), and on the GUI thread that is a stall a user sees.  So the panel builds and renders
each figure on the thread pool with the Agg backend, into a new ``Figure`` of its own (matplotlib's
advice for threads: one figure per thread, a non-GUI backend), and the GUI thread only paints the
finished image.  Presentation mode scales the rendering's dots per inch, so text and lines grow
together while the picture keeps its pixel size.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QPainter, QPalette
from PySide6.QtWidgets import QHBoxLayout, QMessageBox, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from dedup_gui.core.views.charts import Palette
from dedup_gui.gui.charts.chart_view import ask_chart_path, chart_palette, save_figure
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.plain import plain_message_box

#: Dots per inch of a figure at font scale 1 (matplotlib's default).
BASE_DPI = 100.0
#: Milliseconds a resize must settle before the figure is drawn again at the new size.
RESIZE_SETTLE_MS = 120

#: Draws a chart into the figure it is given (cleared or new); runs off the GUI thread.
Chart = Callable[[Figure], Any]


def render_figure(chart: Chart, width: int, height: int, dpi: float) -> tuple[Figure, bytes, int, int]:
    """Build and draw a chart into a new Agg figure; runs off the GUI thread.

    Args:
        chart: draws into the figure (e.g. a partial of
            :func:`dedup_gui.core.teaching.charts.convergence_figure`); it must touch no widget.
        width, height: the picture's size in device pixels (ints >= 1).
        dpi: dots per inch; a larger value draws text and lines larger in the same pixels.

    Returns:
        ``(figure, rgba, w, h)``: the drawn figure (its canvas an Agg canvas, so it can be saved and
        its artists measured), its pixels (``w * h * 4`` bytes of RGBA, row by row) and the
        picture's size in pixels (``width`` and ``height`` up to matplotlib's rounding).
    """
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")
    canvas = FigureCanvasAgg(fig)
    chart(fig)
    canvas.draw()
    pixels = canvas.buffer_rgba()
    return fig, bytes(pixels), pixels.shape[1], pixels.shape[0]


class FigureImage(QWidget):
    """Shows a rendered figure's pixels, stretched to the widget's size until the next rendering
    at that size arrives; asks for little room (a figure's own size would make a scroll area as tall).

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    resized = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = QImage()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 160)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A modest preferred size (QSize)."""
        return QSize(480, 300)

    def set_image(self, image: QImage) -> None:
        """Show ``image`` (device pixels; its device pixel ratio set)."""
        self.image = image
        self.update()

    def device_size(self) -> tuple[int, int]:
        """The widget's size in device pixels, ``(width, height)``, each at least 1."""
        ratio = self.devicePixelRatioF()
        return max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio))

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Tell the panel, which draws the figure again once the size settles."""
        super().resizeEvent(event)
        self.resized.emit()

    def paintEvent(self, event) -> None:  # noqa: N802
        """Paint the last rendering over the whole widget (the window colour before the first)."""
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Base))
        if not self.image.isNull():
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(self.rect(), self.image)
        painter.end()


class FigurePanel(QWidget):
    """A matplotlib figure rendered off the GUI thread, with a "Save figure…" button (PNG or SVG).

    An owner calls :meth:`draw` with a chart function; the panel renders it at the widget's size on
    the thread pool, and again after a resize or a font scale change.

    Args:
        name: the default file name ("jaccard-minhash"...).
        figsize: the figure's size in inches before the first rendering (and for one drawn
            before the panel is laid out).
        parent: the Qt parent widget, or ``None``.

    Signals:
        rendered(): a new rendering is shown (:attr:`figure` is the one drawn).

    Attributes:
        figure: the last figure drawn (a matplotlib ``Figure`` with an Agg canvas).
        canvas: the :class:`FigureImage` showing it.
        save_button, bar: the button and the button row (a layout where owners may add widgets).
        font_scale: text size factor (2 in presentation mode), applied as a larger dpi.
    """

    rendered = Signal()

    def __init__(self, name: str, figsize: tuple[float, float] = (7, 3.5), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.font_scale = 1.0
        self._figsize = figsize
        self._chart: Chart | None = None
        self.figure = Figure(figsize=figsize, layout="constrained")
        FigureCanvasAgg(self.figure)
        self.canvas = FigureImage()
        self._job = LatestJob(self)
        self._job.finished.connect(self._rendered)
        self._job.failed.connect(self._render_failed)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(RESIZE_SETTLE_MS)
        self._settle.timeout.connect(self._render)
        self.canvas.resized.connect(self._settle.start)
        self.save_button = QPushButton("Save figure…")
        self.save_button.setToolTip("Save this figure as a PNG or SVG image")
        self.save_button.clicked.connect(self.ask_save)
        self.bar = QHBoxLayout()
        self.bar.addStretch(1)
        self.bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas, 1)
        layout.addLayout(self.bar)
        self._last_dir = str(Path.home())

    def palette_for_chart(self) -> Palette:
        """The chart colours for the current window palette (light or dark) (Palette)."""
        return chart_palette(self.palette())

    def draw(self, chart: Chart) -> None:
        """Render ``chart`` (a function drawing into a given figure, run off the GUI thread) at the
        panel's size and font scale; it is kept for later resizes."""
        self._chart = chart
        self._render()

    def is_busy(self) -> bool:
        """``True`` while a rendering is under way or a resize has yet to settle (bool)."""
        return self._job.is_running() or self._settle.isActive()

    def _render(self) -> None:
        self._settle.stop()
        if self._chart is None:
            return
        dpi = BASE_DPI * self.canvas.devicePixelRatioF() * self.font_scale
        if self.canvas.isVisible() or self.canvas.testAttribute(Qt.WidgetAttribute.WA_Resized):
            width, height = self.canvas.device_size()
        else:  # not laid out yet: the figure's own size
            width, height = (max(1, round(inches * dpi / self.font_scale)) for inches in self._figsize)
        self._job.submit(render_figure, self._chart, width, height, dpi)

    def _rendered(self, outcome: tuple[Figure, bytes, int, int]) -> None:
        fig, rgba, width, height = outcome
        image = QImage(rgba, width, height, 4 * width, QImage.Format.Format_RGBA8888).copy()
        image.setDevicePixelRatio(self.canvas.devicePixelRatioF())
        self.figure = fig
        self.canvas.set_image(image)
        self.rendered.emit()

    def _render_failed(self, exc: Exception) -> None:
        self.canvas.set_image(QImage())
        self.canvas.setToolTip(f"Could not draw the figure: {exc}")

    def save(self, path: str | Path) -> Path:
        """Save the figure as PNG or SVG (by suffix), atomically; return the path written.

        Raises:
            ValueError: another suffix.
            OSError: the file cannot be written.
        """
        return save_figure(self.figure, path)

    def ask_save(self) -> None:
        """Ask for a file name and save the figure there, reporting a failure in a message box."""
        path = ask_chart_path(self, "Save figure", self._last_dir, self.name)
        if path is None:
            return
        self._last_dir = str(Path(path).parent)
        try:
            self.save(path)
        except (OSError, ValueError) as exc:
            box = plain_message_box(QMessageBox.Icon.Warning, "Save figure", f"Could not save the figure: {exc}", self)
            box.exec()
