"""Small pieces shared by the inspector's views: plain-text labels, diff colours, the pair's pages.

Page-derived strings are untrusted: every label made here is forced to ``Qt.PlainText``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from dedup_gui.core.model import Page, Pair, ScanResult
from dedup_gui.gui.elide import elide_path
from dedup_gui.gui.plain import SafeLabel, plain_tooltip

#: Background tints of changed runs, one per side of a diff (readable in light and dark themes
#: because the text drawn on them is forced to :data:`ON_TINT`).
CHANGED = QColor("#ffe0b2")  # replaced / substituted: in both texts, different
REMOVED = QColor("#ffcdd2")  # only in the left text (deleted)
ADDED = QColor("#c8e6c9")  # only in the right text (inserted)
ON_TINT = QColor("#000000")
#: The least height of an inspector tab (pixels): each scrolls or squeezes within it.  At 260 the
#: inspector asked for 290 px and the tables for 266: with the "last results" banner the window
#: grew from 640 to 665 px tall on a 1024x640 screen.
TAB_MIN_HEIGHT = 170


class PathLabel(SafeLabel):
    """A one-line label of the form ``"left: site/articles/page.html"`` that, when too narrow,
    elides the path's folders first and keeps the file name (:func:`elide_path`); ``text()``
    stays whole (control characters shown as ``<U+XXXX>`` markers, as in a :class:`SafeLabel`),
    and the tooltip shows it."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt API)
        """Set the whole text (the tooltip repeats it, as plain text)."""
        super().setText(text)
        self.setToolTip(plain_tooltip(self.text()))

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Draw the text, its path elided to the label's width."""
        full, metrics, rect = self.text(), self.fontMetrics(), self.contentsRect()
        if metrics.horizontalAdvance(full) <= rect.width():
            super().paintEvent(event)
            return
        head, sep, path = full.partition(": ")
        if not sep:
            head, path = "", full
        prefix = head + sep
        shown = prefix + elide_path(path, metrics, rect.width() - metrics.horizontalAdvance(prefix))
        painter = QPainter(self)
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(), shown,
                                  self.foregroundRole())  # fmt: skip
        painter.end()


def plain_label(text: str = "", bold: bool = False, muted: bool = False, wrap: bool = False,
                clip: bool = False, path: bool = False) -> QLabel:  # fmt: skip
    """A ``QLabel`` that shows ``text`` as plain text, never as HTML, with its control
    characters shown as ``<U+XXXX>`` markers (a :class:`SafeLabel`).

    Args:
        text: the initial text.
        bold: draw it in a bold font.
        muted: draw it in a muted colour (the text colour blended towards the background).
        wrap: wrap long lines.
        clip: let the label be narrower than its text (for file names and titles).
        path: the text is ``"name: path"``; when narrow, elide the path's folders, not its file
            name (a :class:`PathLabel`).

    Returns:
        The label (QLabel), selectable with the mouse.
    """
    label = PathLabel() if path else SafeLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(wrap)
    if clip:
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    if bold:
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
    if muted:
        palette = label.palette()
        fg, bg = palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window)
        palette.setColor(QPalette.ColorRole.WindowText, QColor(
            *(round(0.6 * f + 0.4 * b) for f, b in zip(fg.getRgb()[:3], bg.getRgb()[:3]))))  # fmt: skip
        label.setPalette(palette)
    label.setText(text)
    return label


def scroll_body(owner: QWidget, body: QWidget) -> None:
    """Make ``body`` the whole of ``owner`` inside a frameless scroll area, so that a tab
    squeezed below ``body``'s natural size scrolls rather than drawing its rows over each other."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(body)
    outer = QVBoxLayout(owner)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)


def pair_pages(result: ScanResult, pair: Pair) -> tuple[Page, Page]:
    """The two pages of ``pair`` (left, right) in ``result`` (tuple[Page, Page])."""
    return result.pages[pair.left], result.pages[pair.right]


def percent(share: float) -> str:
    """A share in [0, 1] as a whole percentage that never rounds a difference away.

    Example:
        >>> percent(0.874), percent(0.996), percent(1.0), percent(0.001)
        ('87%', '99%', '100%', '<1%')
    """
    value = round(share * 100)
    if value == 100 and share < 1.0:
        value = 99
    if value == 0 and share > 0.0:
        return "<1%"
    return f"{value}%"
