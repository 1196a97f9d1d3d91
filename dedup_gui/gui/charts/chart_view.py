"""The base of the chart views: a matplotlib figure, rendered off the GUI thread
(:mod:`.figure_image`), that follows the window's light or dark palette, and a bar with a status
line and "Save chart…" (PNG or SVG).

The figures themselves are drawn by :mod:`dedup_gui.core.views.charts`; a view only decides what
and when to draw (only while it is visible: a hidden tab is marked stale and drawn when shown)
and turns mouse events into signals.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_API", "pyside6")  # matplotlib's Qt backend: use the binding we use

from matplotlib.figure import Figure
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.atomic import atomic_write_bytes
from dedup_gui.core.views.charts import DARK, LIGHT, Palette
from dedup_gui.gui.charts.figure_image import Chart, FigureImage, FigureRenderer
from dedup_gui.gui.plain import plain_message_box

#: Chart file formats offered by "Save chart…": dialog filter -> suffix.
CHART_FORMATS = {"PNG image (*.png)": ".png", "SVG image (*.svg)": ".svg"}


def ask_chart_path(parent: QWidget, title: str, folder: str, name: str) -> str | None:
    """Ask where to save a chart (PNG or SVG), starting at ``folder/name.png``.

    Returns:
        The chosen path (str), with the chosen filter's suffix added when the name has neither
        ``.png`` nor ``.svg``; ``None`` if the user cancelled.
    """
    path, chosen = QFileDialog.getSaveFileName(
        parent, title, str(Path(folder) / f"{name}.png"), ";;".join(CHART_FORMATS)
    )
    if not path:
        return None
    if Path(path).suffix.lower() not in CHART_FORMATS.values():
        path += CHART_FORMATS.get(chosen, ".png")
    return path


def ask_and_save(parent: QWidget, title: str, folder: str, name: str, save: Callable[[str], object]) -> str:
    """Ask where to save a chart (:func:`ask_chart_path`) and call ``save(path)``, reporting an
    ``OSError`` or ``ValueError`` in a warning box.

    Returns:
        The folder to start from next time (str): the chosen file's, or ``folder`` if cancelled.
    """
    path = ask_chart_path(parent, title, folder, name)
    if path is None:
        return folder
    try:
        save(path)
    except (OSError, ValueError) as exc:
        box = plain_message_box(QMessageBox.Icon.Warning, title, f"Could not save the chart: {exc}", parent)
        box.open()
    return str(Path(path).parent)


_PNG_DPI = 150


def chart_palette(palette: QPalette) -> Palette:
    """The chart colours for a Qt palette: :data:`~dedup_gui.core.views.charts.DARK` when the window
    colour is dark (lightness below half), else :data:`~dedup_gui.core.views.charts.LIGHT`."""
    return DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else LIGHT


def save_figure(figure: Figure, path: str | Path) -> Path:
    """Save ``figure`` as PNG or SVG (by ``path``'s suffix), atomically.

    Args:
        figure: the figure.
        path: the target file; its suffix must be ``.png`` or ``.svg``.

    Returns:
        The path written.

    Raises:
        ValueError: another suffix.
        OSError: the file cannot be written (``dedup_gui.core.atomic.ExportError``).
    """
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise ValueError(f"{path.name}: a chart is saved as .png or .svg")
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=_PNG_DPI, facecolor=figure.get_facecolor())
    return atomic_write_bytes(path, buffer.getvalue())


def message_chart(message: str, palette: Palette) -> Chart:
    """A chart that writes ``message`` in the figure's middle, with no axes (a Chart)."""

    def chart(fig: Figure) -> None:
        fig.set_facecolor(palette.background)
        fig.text(0.5, 0.5, message, ha="center", va="center", color=palette.foreground, gid="message")

    return chart


class ChartView(QWidget):
    """A chart tab: the picture, a status line, optional controls, and "Save chart…".

    Subclasses implement :meth:`chart` and call :meth:`redraw` when their data change; the chart
    is built and drawn off the GUI thread, and :meth:`on_rendered` gets what it returned.

    Args:
        name: the chart's name, used for the default file name ("histogram", "map").
        parent: the Qt parent widget, or ``None``.

    Signals:
        rendered(): a new picture is shown (:attr:`figure` is the one drawn).

    Attributes:
        canvas: the :class:`~.figure_image.FigureImage` showing the picture.
        renderer: its :class:`~.figure_image.FigureRenderer`.
        controls: a layout in the bar where subclasses add their widgets.
    """

    rendered = Signal()

    def __init__(self, name: str, parent=None) -> None:
        super().__init__(parent)
        self.name = name
        self.canvas = FigureImage()
        # low enough that the tables' tab area fits a 1024x640 screen under the banner (at 200
        # the tab area asked for 266 px); the figure is drawn to the canvas's size
        self.canvas.setMinimumSize(320, 130)
        self.renderer = FigureRenderer(self.canvas, (8, 4), self)
        self.renderer.rendered.connect(self._rendered)
        self.renderer.failed.connect(lambda reason: self.status_label.setText(f"Could not draw the chart: {reason}"))
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)  # a long count line must not set the window's least width
        self.progress_bar = QProgressBar()
        self.progress_bar.setFixedWidth(180)
        self.progress_bar.hide()
        self.save_button = QPushButton("Save chart…")
        self.save_button.setToolTip("Save this chart as a PNG or SVG image")
        self.save_button.clicked.connect(self.ask_save)
        self.controls = QHBoxLayout()
        bar = QHBoxLayout()
        bar.addWidget(self.status_label, 1)
        bar.addWidget(self.progress_bar)
        bar.addLayout(self.controls)
        bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.canvas, 1)
        self._stale = True
        self._last_dir = str(Path.home())

    @property
    def figure(self) -> Figure:
        """The last figure drawn (a matplotlib ``Figure`` with an Agg canvas, its transforms those
        of the picture shown)."""
        return self.renderer.figure

    # --- what subclasses provide --------------------------------------------------------------

    def chart(self, palette: Palette) -> Chart:
        """The chart to draw now, with ``palette``: a function drawing into a new figure, run off
        the GUI thread, so it must capture the view's data rather than read the view."""
        raise NotImplementedError

    def on_rendered(self, extra: object) -> None:
        """A new picture is shown; ``extra`` is what the chart returned (see
        :func:`~.figure_image.render_figure`)."""

    def is_busy(self) -> bool:
        """``True`` while the chart waits for a background computation or its drawing (bool)."""
        return self.renderer.is_busy()

    # --- drawing ------------------------------------------------------------------------------

    def chart_palette(self) -> Palette:
        """The chart colours for this widget's current Qt palette (:class:`Palette`)."""
        return chart_palette(self.palette())

    def redraw(self, force: bool = False) -> None:
        """Draw the chart (off the GUI thread) if the view is visible (or ``force``), else when it
        is shown."""
        if not (force or self.isVisible()):
            self._stale = True
            return
        self._stale = False
        self.renderer.draw(self.chart(self.chart_palette()))

    def is_stale(self) -> bool:
        """``True`` when the chart has changed since it was last drawn (bool)."""
        return self._stale

    def _rendered(self, extra: object) -> None:
        self.on_rendered(extra)
        self.canvas.update()
        self.rendered.emit()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Draw a chart that changed while it was hidden."""
        super().showEvent(event)
        if self._stale:
            self.redraw()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Redraw in the new colours when the palette changes (light <-> dark)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.redraw()

    # --- saving -------------------------------------------------------------------------------

    def save_chart(self, path: str | Path) -> Path:
        """Save the chart as PNG or SVG (by suffix); see :func:`save_figure`.  A chart that changed
        since it was shown is drawn first, on this thread."""
        figure = self.figure
        if self._stale or self.renderer.is_busy():
            figure = self.renderer.render_now(self.chart(self.chart_palette()))
        return save_figure(figure, path)

    def ask_save(self) -> None:
        """Ask for a file name (PNG or SVG) and save the chart there."""
        self._last_dir = ask_and_save(self, "Save Chart", self._last_dir, self.name, self.save_chart)
