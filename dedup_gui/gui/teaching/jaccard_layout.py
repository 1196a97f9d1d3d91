"""The Jaccard view's layout parts: the shingle lists' box, kept a number of rows tall, and a
column whose minimum height is what its wrapped labels need."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel, QListWidget, QWidget

#: Rows of shingles each list shows at least.
LIST_ROWS = 5


class ListsBox(QWidget):
    """The three shingle lists under their titles, at least :data:`LIST_ROWS` rows tall: in
    presentation mode at 1280x800 the splitter left them three rows."""

    def __init__(self, sample: QListWidget, notes: QLabel) -> None:
        super().__init__()
        self._sample = sample
        self._notes = notes
        self._width = -1

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """At least a title, :data:`LIST_ROWS` rows of the lists' font and the ``notes`` label
        under them, wrapped at the box's width (QSize).  The notes are in this box, not in the
        view's own layout: a wrapped label there made the scroll area lay the whole view out
        at its preferred height."""
        hint = super().minimumSizeHint()
        # the rows of the lists' own font: CJK rows are taller (a fallback font), and counted
        # here they made a Chinese pair's view 35 pixels taller than a 1280x800 projector; the
        # lists then show fewer rows and scroll inside themselves
        line = self._sample.fontMetrics().lineSpacing() + 2  # a list row's margin
        rows = LIST_ROWS * line + 2 * self._sample.frameWidth() + self.fontMetrics().lineSpacing() + 8
        if self._notes.text():
            rows += self._notes.heightForWidth(max(1, self.width())) + 4
        return QSize(hint.width(), max(hint.height(), rows))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Ask for a new minimum height when the width changes (the notes wrap again)."""
        super().resizeEvent(event)
        if self.width() != self._width:
            self._width = self.width()
            self.updateGeometry()


class WrappedColumn(QWidget):
    """A column of widgets whose minimum height is what its wrapped labels need at its width: a
    ``QSplitter`` does not ask ``heightForWidth``, and at 1280x800 in presentation mode it gave
    the Venn diagram and the counts less height than that, so they were drawn over each other."""

    def event(self, event: QEvent) -> bool:
        """Set the minimum height again when the width, a font or a label's text changes."""
        done = super().event(event)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest, QEvent.Type.FontChange):
            self.fit_height()
        return done

    def fit_height(self) -> None:
        """Make the minimum height the sum of the widgets' minimum heights (a wrapped label's at
        this width) and the layout's spacing."""
        layout = self.layout()
        if layout is None:
            return
        shown = [w for i in range(layout.count()) if (w := layout.itemAt(i).widget()) is not None and not w.isHidden()]
        margins = layout.contentsMargins()
        need = sum(max(w.minimumHeight(), w.heightForWidth(self.width())) for w in shown)
        need += layout.spacing() * max(len(shown) - 1, 0) + margins.top() + margins.bottom()
        if need != self.minimumHeight():
            self.setMinimumHeight(need)
