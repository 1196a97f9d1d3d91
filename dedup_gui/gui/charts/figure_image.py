"""Charts drawn off the GUI thread: :func:`render_figure` builds and draws a matplotlib figure on
the thread pool, :class:`FigureImage` shows the picture and passes the mouse on.

matplotlib needs 0.1-0.35 s of CPU to lay out and draw even a small figure (constrained layout,
tick labels, a few hundred bar patches); on the GUI thread that is a stall a user sees at every
tab switch, selection or threshold change.  So each rendering builds a new ``Figure`` of its own
with the Agg backend on a pool thread (matplotlib's advice for threads: one figure per thread, a
non-GUI backend), and the GUI thread only paints the finished image.  Mouse positions are handed
on in the rendered figure's display coordinates (device pixels from the bottom left, as
matplotlib's events give them), so a view maps them through the figure's own transforms.

matplotlib warns "constrained_layout not applied because axes sizes collapsed to zero" when a
figure's titles, labels and legend leave its axes no room.  The renderings here meet that by
design: at the transient size of a widget laid out before it has its real one (a tab shown for
the first time, the window at its least width), and in the first of the two draws of
:func:`render_figure` (a long title is wrapped only after it, by
:func:`~dedup_gui.core.views.text_fit.fit_texts`; the Jaccard tab's figure at 333x384 pixels in
presentation mode collapsed there and was laid out in the second).  The next draw or rendering
is laid out, so the warning only filled the user's terminal: :data:`COLLAPSED_LAYOUT` is ignored, by one filter installed at import.  Not
``warnings.catch_warnings`` around the draws: it swaps the process's filter list, which is not
thread-safe, and draws run on pool threads.  Not skipping draws below a least size either: the
collapse depends on the text at the figure's dpi, not on the pixels alone.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QObject, QPointF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from dedup_gui.core.views.text_fit import fit_texts
from dedup_gui.gui.inspector.jobs import LatestJob

#: Dots per inch of a figure at font scale 1 (matplotlib's default).
BASE_DPI = 100.0
#: Milliseconds a resize must settle before the figure is drawn again at the new size.
RESIZE_SETTLE_MS = 120

#: Draws a chart into the (new, empty) figure it is given; runs off the GUI thread.
Chart = Callable[[Figure], Any]

#: The start of matplotlib's warning that a draw left constrained layout unapplied (a regular
#: expression, as ``warnings.filterwarnings`` takes it).
COLLAPSED_LAYOUT = "constrained_layout not applied because axes sizes collapsed to zero"
# matplotlib attributes its warnings to the first caller outside matplotlib (``_api.warn_external``),
# so the module to match is ours (this module, ``core.views.text_fit``, ``chart_view``'s save),
# not ``matplotlib``; a collapse in anyone else's draw is still reported.
warnings.filterwarnings("ignore", message=COLLAPSED_LAYOUT, category=UserWarning, module=r"dedup_gui\.")


def new_figure(width: int, height: int, dpi: float) -> Figure:
    """A figure of ``width`` x ``height`` device pixels at ``dpi``, with constrained layout and an
    Agg canvas (so it can be drawn, measured and saved in any thread) (``Figure``)."""
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def render_figure(chart: Chart, width: int, height: int, dpi: float) -> tuple[Figure, bytes, int, int, Any]:
    """Build and draw a chart into a new Agg figure; runs off the GUI thread.

    Args:
        chart: draws into the figure (e.g. a partial of
            :func:`dedup_gui.core.views.charts.histogram_figure`); it must touch no widget.  What it
            returns is handed back as the last item (a view's data about the drawing, read once
            the figure is drawn: a callable is called with the drawn figure).
        width, height: the picture's size in device pixels (ints >= 1).
        dpi: dots per inch; a larger value draws text and lines larger in the same pixels.

    Returns:
        ``(figure, rgba, w, h, extra)``: the drawn figure (its artists measurable, its transforms
        those of the picture), its pixels (``w * h * 4`` bytes of RGBA, row by row, top row
        first), the picture's size in pixels (``width`` and ``height`` up to matplotlib's
        rounding), and ``chart``'s return value (or, if callable, its value for the drawn figure).
    """
    fig = new_figure(width, height, dpi)
    extra = chart(fig)
    fig.canvas.draw()
    if fit_texts(fig):  # a title or legend ran past the edge: wrapped, drawn again
        fig.canvas.draw()
    if callable(extra):
        extra = extra(fig)
    pixels = fig.canvas.buffer_rgba()
    return fig, bytes(pixels), pixels.shape[1], pixels.shape[0], extra


def to_image(rgba: bytes, width: int, height: int, ratio: float) -> QImage:
    """The rendered pixels as a ``QImage`` (RGBA, its own copy) with device pixel ratio ``ratio``."""
    image = QImage(rgba, width, height, 4 * width, QImage.Format.Format_RGBA8888).copy()
    image.setDevicePixelRatio(ratio)
    return image


class FigureImage(QWidget):
    """Shows a rendered figure's pixels, stretched to the widget until the rendering at its new
    size arrives; asks for little room (a figure's own size would make a scroll area as tall).

    Mouse positions are given in the shown picture's display coordinates: device pixels of the
    rendered figure from its bottom left, as in matplotlib's events.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        resized(): the widget's size changed.
        pressed(float, float, int): a mouse button was pressed at figure pixel ``(x, y)``; the
            button (1 left, 2 middle, 3 right, as matplotlib numbers them).
        moved(float, float): the pointer moved to figure pixel ``(x, y)``.
        left(): the pointer left the widget.

    Attributes:
        image: the picture shown (``QImage``; null before the first rendering).
        overlay: called with a ``QPainter`` after the picture is painted (widget coordinates),
            or ``None``; a view draws its selection ring or hover label there.
    """

    resized = Signal()
    pressed = Signal(float, float, int)
    moved = Signal(float, float)
    left = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = QImage()
        self.overlay: Callable[[QPainter], None] | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 160)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A modest preferred size (QSize)."""
        return QSize(480, 300)

    @property
    def device_pixel_ratio(self) -> float:
        """Device pixels per logical pixel (float), as matplotlib's Qt canvas names it."""
        return self.devicePixelRatioF()

    def set_image(self, image: QImage) -> None:
        """Show ``image`` (device pixels; its device pixel ratio set)."""
        self.image = image
        self.update()

    def device_size(self) -> tuple[int, int]:
        """The widget's size in device pixels, ``(width, height)``, each at least 1."""
        ratio = self.devicePixelRatioF()
        return max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio))

    def _scale(self) -> tuple[float, float]:
        """Picture pixels per logical widget pixel, across and down."""
        if self.image.isNull():
            ratio = self.devicePixelRatioF()
            return ratio, ratio
        return self.image.width() / max(1, self.width()), self.image.height() / max(1, self.height())

    def to_figure(self, point: QPointF) -> tuple[float, float]:
        """A widget point (logical pixels from the top left) in the picture's display
        coordinates (pixels from the bottom left) (tuple of float)."""
        sx, sy = self._scale()
        return point.x() * sx, (self.height() - point.y()) * sy

    def from_figure(self, x: float, y: float) -> QPointF:
        """A point of the picture's display coordinates as a widget point (QPointF)."""
        sx, sy = self._scale()
        return QPointF(x / sx, self.height() - y / sy)

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Tell the owner, which draws the figure again once the size settles."""
        super().resizeEvent(event)
        self.resized.emit()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """Hand the press on in figure pixels."""
        button = {Qt.MouseButton.LeftButton: 1, Qt.MouseButton.MiddleButton: 2, Qt.MouseButton.RightButton: 3}
        self.pressed.emit(*self.to_figure(event.position()), button.get(event.button(), 0))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        """Hand the move on in figure pixels."""
        self.moved.emit(*self.to_figure(event.position()))

    def leaveEvent(self, event) -> None:  # noqa: N802
        """Say the pointer left."""
        super().leaveEvent(event)
        self.left.emit()

    def paintEvent(self, event) -> None:  # noqa: N802
        """Paint the last rendering over the whole widget (the base colour before the first),
        then the owner's overlay."""
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Base))
        if not self.image.isNull():
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(self.rect(), self.image)
            if not self.isEnabled():  # greyed, as a disabled table's text: out of date
                veil = self.palette().color(QPalette.ColorRole.Base)
                veil.setAlpha(150)
                painter.fillRect(self.rect(), veil)
        if self.overlay is not None:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self.overlay(painter)
        painter.end()


class FigureRenderer(QObject):
    """Renders an owner's chart for a :class:`FigureImage` on the thread pool: at the widget's
    size, again after a resize settles, the newest request only.

    Args:
        canvas: the widget that shows the picture.
        figsize: the figure's size in inches while the widget is not laid out yet.
        parent: the Qt parent (the owning view).

    Signals:
        rendered(object): a new picture is shown; the chart's extra value
            (:func:`render_figure`).
        failed(str): the chart raised; the reason.

    Attributes:
        figure: the last figure drawn (a matplotlib ``Figure`` with an Agg canvas).
        font_scale: text size factor (2 in presentation mode), applied as a larger dpi.
    """

    rendered = Signal(object)
    failed = Signal(str)

    def __init__(self, canvas: FigureImage, figsize: tuple[float, float], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.canvas = canvas
        self.font_scale = 1.0
        self._figsize = figsize
        self._chart: Chart | None = None
        self.figure = new_figure(*self._size(), self.dpi())
        self._job = LatestJob(self)
        self._job.finished.connect(self._rendered)
        self._job.failed.connect(lambda exc: self.failed.emit(f"{type(exc).__name__}: {exc}"))
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(RESIZE_SETTLE_MS)
        self._settle.timeout.connect(self._render)
        canvas.resized.connect(self._resized)

    def dpi(self) -> float:
        """The rendering's dots per inch: the screen's device pixel ratio times the font scale (float)."""
        return BASE_DPI * self.canvas.devicePixelRatioF() * self.font_scale

    def _size(self) -> tuple[int, int]:
        if self.canvas.isVisible() or self.canvas.testAttribute(Qt.WidgetAttribute.WA_Resized):
            return self.canvas.device_size()
        ratio = self.canvas.devicePixelRatioF()  # not laid out yet: the figure's own size
        width, height = (max(1, round(inches * BASE_DPI * ratio)) for inches in self._figsize)
        return width, height

    def draw(self, chart: Chart) -> None:
        """Render ``chart`` off the GUI thread (superseding any rendering under way); it is kept
        and rendered again after a resize."""
        self._chart = chart
        self._render()

    def render_now(self, chart: Chart) -> Figure:
        """Build and draw ``chart`` on this thread at the current size (for saving a chart that
        changed since it was last shown); the shown picture is unchanged (``Figure``)."""
        return render_figure(chart, *self._size(), self.dpi())[0]

    def is_busy(self) -> bool:
        """``True`` while a rendering is under way or a resize has yet to settle (bool)."""
        return self._job.is_running() or self._settle.isActive()

    def clear(self) -> None:
        """Show nothing: drop the chart, any rendering under way, and the picture shown."""
        self._chart = None
        self._settle.stop()
        self._job.cancel()
        self.figure = new_figure(*self._size(), self.dpi())
        self.canvas.set_image(QImage())

    def _resized(self) -> None:
        if self._chart is not None:
            self._settle.start()

    def _render(self) -> None:
        self._settle.stop()
        if self._chart is not None:
            self._job.submit(render_figure, self._chart, *self._size(), self.dpi())

    def _rendered(self, outcome: tuple[Figure, bytes, int, int, Any]) -> None:
        fig, rgba, width, height, extra = outcome
        self.figure = fig
        self.canvas.set_image(to_image(rgba, width, height, self.canvas.devicePixelRatioF()))
        self.rendered.emit(extra)
