"""Pieces shared by the teaching views: plain-text labels, fonts and cell colours (the rows of
bit cells are :mod:`.cell_grid`, the page chooser :mod:`.page_chooser`, the figure panel
:mod:`.figure_panel`).

Page-derived strings are untrusted: every label made here shows plain text only, combo boxes and
lists are plain by nature, and no page string is ever put in a tooltip (Qt would guess rich text).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_API", "pyside6")  # matplotlib's Qt backend: use the binding we use

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import (
    QLabel,
    QSizePolicy,
    QWidget,
)

from dedup_gui.gui.plain import SafeLabel

#: Bit cells: a 1 is dark, a 0 light (the same in every teaching view).
BIT_FILL = {1: QColor("#263238"), 0: QColor("#eceff1")}
#: Positive and negative running sums, and the +w / -w a feature adds.
POSITIVE = QColor("#1565c0")
NEGATIVE = QColor("#d84315")
POSITIVE_TINT = QColor("#bbdefb")
NEGATIVE_TINT = QColor("#ffccbc")
ZERO = QColor("#cfd8dc")
#: The smallest text presentation mode draws in a cell (points: 14 pixels at 96 dpi): a
#: projected board of 9-pixel sums was unreadable from the back of the room.
LEGIBLE_POINTS = 10.5
#: The same floor in pixels, whatever the screen's dots per inch: on a 72-dpi screen 10.5
#: points are 10.5 pixels, and the board's row names and bit numbers were that small.
LEGIBLE_PIXELS = 14
#: The smallest cell text in normal mode, as a share of the widget's font.
LEAST_SCALE = 0.7
#: Differing bits in the Hamming view.
DIFFER = QColor("#c62828")
DIFFER_TINT = QColor("#ffcdd2")


def legible_points(widget: QWidget) -> float:
    """The smallest font size presentation mode draws text at on ``widget``'s screen, in
    points (float): :data:`LEGIBLE_POINTS`, or more where that is under
    :data:`LEGIBLE_PIXELS` pixels (a screen of fewer than 96 logical dots per inch)."""
    dpi = widget.logicalDpiY()
    return max(LEGIBLE_POINTS, LEGIBLE_PIXELS * 72.0 / dpi) if dpi > 0 else LEGIBLE_POINTS


def plain_label(text: str = "", bold: bool = False, wrap: bool = False, selectable: bool = True) -> QLabel:
    """A ``QLabel`` that shows ``text`` as plain text, never as HTML, with its control
    characters shown as ``<U+XXXX>`` markers (a :class:`~dedup_gui.gui.plain.SafeLabel`).

    Args:
        text: the initial text.
        bold: bold, at the inherited size (so presentation mode still scales it).
        wrap: wrap long lines.
        selectable: let the mouse select the text.

    Returns:
        The label (QLabel).
    """
    label = SafeLabel()
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = QFont()  # only the weight is set: the size stays inherited from the window
        font.setBold(True)
        label.setFont(font)
    label.setText(text)
    return label


def wrapped_height(label: QLabel, width: int) -> int:
    """The height a word-wrapped plain-text label needs at ``width`` (int, pixels).

    ``QLabel.heightForWidth`` is never less than the label's minimum height, so a minimum set
    from it never shrinks again (the SimHash view's explanation kept a line too many, and a
    scroll bar, once laid out narrower); this measures the text alone, as ``QLabel`` does."""
    m = label.contentsMargins()
    inner = max(1, width - m.left() - m.right() - 2 * label.margin())
    flags = int(label.alignment()) | int(Qt.TextFlag.TextWordWrap)
    text = label.fontMetrics().boundingRect(0, 0, inner, 1 << 20, flags, label.text())
    return text.height() + m.top() + m.bottom() + 2 * label.margin()


def set_vertical_policy(widget: QWidget, policy: QSizePolicy.Policy) -> None:
    """Change only the vertical size policy of ``widget`` (e.g. ``Ignored``: a layout asked for
    its preferred height counts only its minimum)."""
    sizes = widget.sizePolicy()
    sizes.setVerticalPolicy(policy)
    widget.setSizePolicy(sizes)


def fitting_font(font: QFont, text: str, width: float, height: float) -> QFont:
    """The largest size of ``font``, at most its own, at which ``text`` fits ``width`` x
    ``height`` pixels (down to 5 points) (QFont)."""
    fitted = QFont(font)
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    while size > 5:
        fitted.setPointSizeF(size)
        fm = QFontMetricsF(fitted)
        if fm.horizontalAdvance(text) <= width and fm.height() <= height:
            break
        size *= 0.95
    return fitted


_BLACK, _WHITE = QColor("#000000"), QColor("#ffffff")


def ink_on(fill: QColor) -> QColor:
    """Black or white, whichever reads better on ``fill`` (QColor)."""
    return _BLACK if 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue() > 140 else _WHITE


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """The colour ``t`` of the way from ``a`` to ``b`` (t in [0, 1]) (QColor)."""
    t = min(1.0, max(0.0, t))
    return QColor(*(round(x + (y - x) * t) for x, y in zip(a.getRgb()[:3], b.getRgb()[:3])))


def sum_fill(value: int, scale: int) -> QColor:
    """The fill of a running sum: blue if positive, red-orange if negative, deeper as ``|value|``
    nears ``scale`` (the largest magnitude shown), grey at zero (QColor)."""
    if value == 0:
        return ZERO
    t = 0.35 + 0.65 * min(1.0, abs(value) / max(1, scale))
    return blend(POSITIVE_TINT, POSITIVE, t) if value > 0 else blend(NEGATIVE_TINT, NEGATIVE, t)


def signed(value: int) -> str:
    """An int with its sign, using a true minus sign: ``"+3"``, ``"−2"``, ``"0"`` (str)."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")
