"""A teaching view's matplotlib figure, drawn off the GUI thread
(:class:`~dedup_gui.gui.charts.figure_image.FigureRenderer`), with "Save figure…".

Presentation mode scales the rendering's dots per inch, so text and lines grow together while the
picture keeps its pixel size.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from dedup_gui.core.views.charts import Palette
from dedup_gui.gui.charts.chart_view import ask_and_save, chart_palette, save_figure
from dedup_gui.gui.charts.figure_image import Chart, FigureImage, FigureRenderer


class FigurePanel(QWidget):
    """A matplotlib figure rendered off the GUI thread, with a "Save figure…" button (PNG or SVG).

    An owner calls :meth:`draw` with a chart function; the panel renders it at the widget's size on
    the thread pool, and again after a resize or a font scale change.

    Args:
        name: the default file name ("jaccard-minhash"...).
        figsize: the figure's size in inches before the panel is laid out.
        parent: the Qt parent widget, or ``None``.

    Signals:
        rendered(): a new rendering is shown (:attr:`figure` is the one drawn).

    Attributes:
        canvas: the :class:`~dedup_gui.gui.charts.figure_image.FigureImage` showing the figure.
        save_button, bar: the button and the button row (a layout where owners may add widgets).
    """

    rendered = Signal()

    def __init__(self, name: str, figsize: tuple[float, float] = (7, 3.5), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.canvas = FigureImage()
        self.renderer = FigureRenderer(self.canvas, figsize, self)
        self.renderer.rendered.connect(lambda _extra: self.rendered.emit())
        self.renderer.failed.connect(lambda reason: self.canvas.setToolTip(f"Could not draw the figure: {reason}"))
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

    @property
    def figure(self):
        """The last figure drawn (a matplotlib ``Figure`` with an Agg canvas)."""
        return self.renderer.figure

    @property
    def font_scale(self) -> float:
        """Text size factor (2 in presentation mode); takes effect at the next :meth:`draw` (float)."""
        return self.renderer.font_scale

    @font_scale.setter
    def font_scale(self, scale: float) -> None:
        self.renderer.font_scale = scale

    def palette_for_chart(self) -> Palette:
        """The chart colours for the current window palette (light or dark) (Palette)."""
        return chart_palette(self.palette())

    def draw(self, chart: Chart) -> None:
        """Render ``chart`` (a function drawing into a given figure, run off the GUI thread) at the
        panel's size and font scale; it is kept for later resizes."""
        self.save_button.setEnabled(True)
        self.renderer.draw(chart)

    def clear(self) -> None:
        """Show no figure (the results it drew are gone; "Save figure…" off until the next
        :meth:`draw`, which shows one again)."""
        self.renderer.clear()
        self.save_button.setEnabled(False)

    def is_busy(self) -> bool:
        """``True`` while a rendering is under way or a resize has yet to settle (bool)."""
        return self.renderer.is_busy()

    def save(self, path: str | Path) -> Path:
        """Save the figure as PNG or SVG (by suffix), atomically; return the path written.

        Raises:
            ValueError: another suffix.
            OSError: the file cannot be written.
        """
        return save_figure(self.figure, path)

    def ask_save(self) -> None:
        """Ask for a file name and save the figure there, reporting a failure in a message box."""
        self._last_dir = ask_and_save(self, "Save Figure", self._last_dir, self.name, self.save)
