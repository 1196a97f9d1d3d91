"""A diff pane's overview strip: a narrow bar beside its scrollbar with a coloured mark for each
changed region at its place in the whole text, as Meld's diff map; a click goes there.

The marks are computed off the GUI thread (:func:`dedup_gui.core.views.diff_overview.overview_marks`);
the strip only draws them, along the same track as the scrollbar's groove.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QScrollBar, QStyle, QStyleOptionSlider, QWidget

from dedup_gui.core.views.diff_overview import OverviewMark
from dedup_gui.gui.inspector.widgets import ADDED, CHANGED, REMOVED

#: Fill of each kind of mark: the diff's own highlight colours.
MARK_COLORS = {"replace": CHANGED, "delete": REMOVED, "insert": ADDED}
#: Width of the strip (pixels).
STRIP_WIDTH = 14
#: Height of a mark at least (pixels), so that a one-word change in a long text stays visible.
MIN_MARK = 3


class OverviewStrip(QWidget):
    """Draws overview marks along the track of a scrollbar; a click reports where.

    Args:
        scrollbar: the pane's vertical scrollbar, whose groove the marks are aligned with (the
            whole height when it is hidden), or ``None``.
        parent: the Qt parent widget, or ``None``.

    Signals:
        clicked(float): the place clicked, as a fraction of the text (0: start, 1: end).

    Attributes:
        marks: the :class:`~dedup_gui.core.views.diff_overview.OverviewMark` list drawn.
    """

    clicked = Signal(float)

    def __init__(self, scrollbar: QScrollBar | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._scrollbar = scrollbar
        self.marks: list[OverviewMark] = []
        self.setFixedWidth(STRIP_WIDTH)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Where the changes are in the whole text; click to go there")

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """Narrow, any height."""
        return QSize(STRIP_WIDTH, 100)

    def set_marks(self, marks: list[OverviewMark]) -> None:
        """Draw ``marks`` (an empty list: none)."""
        self.marks = marks
        self.update()

    def track(self) -> tuple[int, int]:
        """The strip's ``(top, height)`` in pixels that stand for the whole text: the scrollbar's
        groove when it is shown beside the strip, else the whole strip (tuple[int, int])."""
        bar = self._scrollbar
        if bar is None or not bar.isVisible() or bar.height() <= 0:
            return 0, max(self.height(), 1)
        option = QStyleOptionSlider()
        bar.initStyleOption(option)
        groove = bar.style().subControlRect(
            QStyle.ComplexControl.CC_ScrollBar, option, QStyle.SubControl.SC_ScrollBarGroove, bar
        )
        top = bar.mapTo(self.window(), groove.topLeft()).y() - self.mapTo(self.window(), self.rect().topLeft()).y()
        top = min(max(top, 0), max(self.height() - 1, 0))
        return top, max(min(groove.height(), self.height() - top), 1)

    def y_of(self, fraction: float) -> int:
        """The strip's y (pixels) of a fraction of the text (int)."""
        top, height = self.track()
        return top + round(min(max(fraction, 0.0), 1.0) * height)

    def fraction_at(self, y: int) -> float:
        """The fraction of the text at the strip's y (pixels), in [0, 1] (float)."""
        top, height = self.track()
        return min(max((y - top) / height, 0.0), 1.0)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Draw the background and every mark (at least :data:`MIN_MARK` pixels high)."""
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Base))
        top, height = self.track()
        for mark in self.marks:
            y0 = top + round(mark.start * height)
            y1 = max(top + round(mark.end * height), y0 + MIN_MARK)
            y0 = min(y0, top + height - MIN_MARK)  # a mark at the very end stays inside
            color = QColor(MARK_COLORS[mark.kind])
            rect = QRect(1, y0, self.width() - 2, max(y1 - y0, MIN_MARK))
            painter.fillRect(rect, color)
            painter.setPen(color.darker(160))  # an outline keeps pale marks visible on white
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Report the place clicked (left button)."""
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.fraction_at(round(event.position().y())))
            event.accept()
            return
        super().mousePressEvent(event)
