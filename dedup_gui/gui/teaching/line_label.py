"""A label that shows its text in at most a given number of lines, the last elided.

Presentation mode's large fonts wrapped a Hamming read-back ("read as hex 0x58 = 0101 1000 in
binary, ...") to four or five lines beside its field and pushed the view past a 1280x800
screen; here it takes at most two lines, whole words, the rest elided with "…" and the whole
text in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QTextLayout
from PySide6.QtWidgets import QSizePolicy, QWidget

from dedup_gui.gui.plain import SafeLabel, plain_tooltip


def fit_lines(text: str, metrics: QFontMetrics, font: QFont, width: int, lines: int) -> str:
    """``text`` wrapped at word boundaries to ``width`` pixels in at most ``lines`` lines, the
    last one elided at its right end where the text needs more.

    Args:
        text: the text (one paragraph).
        metrics: metrics of ``font``, for eliding.
        font: the ``QFont`` the text is drawn in.
        width: the line width (int, pixels; below 1 the text is returned as it is).
        lines: the most lines (int, at least 1).

    Returns:
        The lines joined with newlines (str).
    """
    if width < 1 or not text:
        return text
    layout = QTextLayout(text, font)
    layout.beginLayout()
    starts = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        starts.append(line.textStart())
    layout.endLayout()
    if len(starts) <= lines:
        parts = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)])]
        return "\n".join(p.rstrip() for p in parts)
    kept = [text[a:b].rstrip() for a, b in zip(starts[: lines - 1], starts[1:lines])]
    rest = text[starts[lines - 1] :]
    return "\n".join([*kept, metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width)])


class LineLabel(SafeLabel):
    """A plain-text label of at most :attr:`max_lines` lines at its width; the whole text in
    its tooltip when it is cut.  Its width comes from the layout, not from its text.

    Attributes:
        max_lines: the most lines shown (int; 0: the text wraps freely, as a wrapped label).
    """

    max_lines = 0
    _full = ""  # class defaults: SafeLabel's constructor already calls setText

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)

    def set_max_lines(self, lines: int) -> None:
        """Show at most ``lines`` lines (0: wrap freely) and fit the text again."""
        self.max_lines = lines
        self.setWordWrap(lines == 0)
        policy = QSizePolicy.Policy.Ignored if lines else QSizePolicy.Policy.Preferred
        self.setSizePolicy(policy, self.sizePolicy().verticalPolicy())
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt API)
        """Show ``text`` (fitted to the lines allowed)."""
        self._full = text
        self._fit()

    def full_text(self) -> str:
        """The text set, before fitting (str)."""
        return self._full

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Fit the text to the new width."""
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self.max_lines == 0:
            shown = self._full
        else:
            width = self.contentsRect().width() - 2 * self.margin()
            shown = fit_lines(self._full, self.fontMetrics(), self.font(), width, self.max_lines)
        # plain_tooltip: the note names pages, whose paths may hold control characters or "<"
        self.setToolTip(plain_tooltip(self._full) if shown.replace("\n", " ") != self._full else "")
        if shown != self.text():
            super().setText(shown)


class ToolbarNote(LineLabel):
    """A one-line :class:`LineLabel` for a toolbar: it takes the toolbar's room left over and
    elides its text there (the whole text in the tooltip).

    A toolbar lays a widget out at its size hint, and gives an ignored one nothing: the pair
    note (``Showing … (the selected pair has identical texts; …)``) was 0 pixels wide at every
    window size.  Here the hints are a few characters wide, so the note never widens the
    window nor goes into the toolbar's extension menu, and the expanding policy gives it the
    rest of the row.
    """

    #: The width the note asks for (characters of its font).
    HINT_CHARS = 8

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.set_max_lines(1)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """A few characters wide, one line high (QSize, pixels)."""
        metrics = self.fontMetrics()
        return QSize(metrics.averageCharWidth() * self.HINT_CHARS, metrics.height() + 2 * self.margin())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """As :meth:`sizeHint` (QSize, pixels)."""
        return self.sizeHint()
