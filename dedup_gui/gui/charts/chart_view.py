"""The base of the chart views: a matplotlib figure in a Qt canvas that follows the window's
light or dark palette, a bar with a status line and "Save chart…" (PNG or SVG).

The figures themselves are drawn by :mod:`dedup_gui.core.views.charts`; a view only decides when to
draw (only while it is visible: a hidden tab is marked stale and drawn when shown) and turns
mouse events into signals.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

os.environ.setdefault("QT_API", "pyside6")  # matplotlib's Qt backend: use the binding we use

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.atomic import atomic_write_bytes
from dedup_gui.core.views.charts import DARK, LIGHT, Palette
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


class ChartView(QWidget):
    """A chart tab: the canvas, a status line, optional controls, and "Save chart…".

    Subclasses implement :meth:`draw_figure` and call :meth:`redraw` when their data change.

    Args:
        name: the chart's name, used for the default file name ("histogram", "map").
        parent: the Qt parent widget, or ``None``.

    Attributes:
        figure: the matplotlib ``Figure`` the canvas shows.
        canvas: the ``FigureCanvasQTAgg``.
        controls: a layout in the bar where subclasses add their widgets.
    """

    def __init__(self, name: str, parent=None) -> None:
        super().__init__(parent)
        self.name = name
        self.figure = Figure(figsize=(8, 4), layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.canvas.setMinimumSize(320, 200)
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
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

    # --- what subclasses provide --------------------------------------------------------------

    def draw_figure(self, palette: Palette) -> None:
        """Draw the chart into :attr:`figure` (cleared by the callee) with ``palette``."""
        raise NotImplementedError

    def is_busy(self) -> bool:
        """``True`` while the chart waits for a background computation (bool)."""
        return False

    # --- drawing ------------------------------------------------------------------------------

    def draw_message(self, palette: Palette, message: str) -> None:
        """Clear the figure and write ``message`` in its middle, with no axes."""
        fig = self.figure
        fig.clear()
        fig.set_facecolor(palette.background)
        fig.text(0.5, 0.5, message, ha="center", va="center", color=palette.foreground, gid="message")

    def chart_palette(self) -> Palette:
        """The chart colours for this widget's current Qt palette (:class:`Palette`)."""
        return chart_palette(self.palette())

    def redraw(self, force: bool = False) -> None:
        """Draw the chart now if the view is visible (or ``force``), else when it is shown."""
        if not (force or self.isVisible()):
            self._stale = True
            return
        self._stale = False
        self.draw_figure(self.chart_palette())
        self.canvas.draw_idle()

    def is_stale(self) -> bool:
        """``True`` when the chart has changed since it was last drawn (bool)."""
        return self._stale

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
        """Save the chart as PNG or SVG (by suffix); see :func:`save_figure`."""
        if self._stale:
            self.redraw(force=True)
        return save_figure(self.figure, path)

    def ask_save(self) -> None:
        """Ask for a file name (PNG or SVG) and save the chart there."""
        path = ask_chart_path(self, "Save Chart", self._last_dir, self.name)
        if path is None:
            return
        self._last_dir = str(Path(path).parent)
        try:
            self.save_chart(path)
        except (OSError, ValueError) as exc:
            box = plain_message_box(QMessageBox.Icon.Warning, "Could not save the chart", str(exc), self)
            box.open()
