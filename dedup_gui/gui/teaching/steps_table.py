"""The SimHash view's steps table: one row per feature, the running sums column by column.

A Qt model over :class:`~dedup_gui.core.teaching.simhash_steps.SimhashSteps` that shows only
the steps up to the current position, and a delegate that paints each cell in one call.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from dedup_gui.core.teaching.simhash_steps import SimhashSteps
from dedup_gui.gui.teaching.widgets import (
    BIT_FILL,
    ink_on,
)

#: The typed text the view starts with: few features, some weighted more than once.
TOY_TEXT = "the cat sat on the mat and the dog sat on the log"
#: Features listed in the table at most (stepping still covers all of them).
TABLE_CAP = 2000
#: The rows of the step board.
ROW_HASH, ROW_ADDS, ROW_SUMS, ROW_FINGERPRINT = "feature hash", "± weight", "sums", "fingerprint"
TYPED = "(typed text)"
_BLANK = QColor(0, 0, 0, 0)
_BLACK = QColor("#000000")
_CURRENT = QColor("#fff59d")
_BIT_INK = {bit: ink_on(fill) for bit, fill in BIT_FILL.items()}
_CENTER = Qt.AlignmentFlag.AlignCenter
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def parse_signed(text: str) -> int:
    """The int a board cell shows (``"+3"``, ``"−2"`` with a true minus, ``"0"``) (int)."""
    return int(text.replace("−", "-").replace("+", ""))


class FeatureStepsModel(QAbstractTableModel):
    """The weighted features as table rows: number, feature, weight, then one column per hash bit.

    Rows not yet added to the sums are drawn muted; the current feature is highlighted.  At most
    :data:`TABLE_CAP` rows are listed.

    Args:
        parent: the Qt parent, or ``None``.
    """

    FIXED = ("#", "feature", "weight")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._steps: SimhashSteps | None = None
        self._rows = 0
        self._done = 0  # features added so far; row done - 1 is the current one
        self._muted = QColor("#9e9e9e")
        #: the bit columns' header font (``None``: the header's); presentation mode sets one
        #: whose numbers fit the narrow columns rather than being clipped ("l6")
        self.bit_header_font: QFont | None = None

    def set_steps(self, steps: SimhashSteps | None) -> None:
        """Show the features of ``steps`` (or nothing)."""
        self.beginResetModel()
        self._steps = steps
        self._rows = min(len(steps.steps), TABLE_CAP) if steps else 0
        self._done = 0
        self.endResetModel()

    def set_done(self, done: int) -> None:
        """Mark the first ``done`` features as added.

        Only the number, feature and weight cells of the rows whose state changed are redrawn, one
        cell at a time (a range in ``dataChanged`` makes the view repaint everything it shows).
        """
        old, self._done = self._done, done
        lo, hi = max(0, min(old, done) - 1), min(self._rows - 1, max(old, done) - 1)
        if not self._rows or lo > hi:
            return
        if hi - lo > 40:  # a long jump: one repaint of the whole view is cheaper
            self.dataChanged.emit(self.index(lo, 0), self.index(hi, len(self.FIXED) - 1))
            return
        for row in range(lo, hi + 1):
            for col in range(len(self.FIXED)):
                index = self.index(row, col)
                self.dataChanged.emit(index, index)

    def bits(self) -> int:
        """Bits per hash (int; 0 without steps)."""
        return self._steps.bits if self._steps else 0

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        """Features listed (int)."""
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        """Three fixed columns plus one per hash bit (int)."""
        return 0 if parent.isValid() else len(self.FIXED) + self.bits()

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        """Column names: #, feature, weight, then the bit positions (0 = most significant)."""
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section < len(self.FIXED):
                return self.FIXED[section]
            bit = section - len(self.FIXED)
            return (
                str(64 - self.bits() + bit) if self.bits() <= 16 else ""
            )  # 64 narrow columns: the header's ruler (RulerHeader)
        if role == Qt.ItemDataRole.FontRole and section >= len(self.FIXED):
            return self.bit_header_font
        if role == Qt.ItemDataRole.ToolTipRole and section >= len(self.FIXED):
            return f"bit {64 - self.bits() + section - len(self.FIXED)} of the feature's 64-bit hash (0 = most significant)"
        return None

    def cell(self, row: int, col: int) -> tuple[str, QColor | None, QColor | None, bool, Qt.AlignmentFlag]:
        """What one cell shows, for :class:`StepCellDelegate`: text (plain), background and ink
        (``None`` for the table's own), bold, alignment."""
        step = self._steps.steps[row] if self._steps is not None else None
        if step is None:
            return "", None, None, False, _LEFT
        bit_col = col - len(self.FIXED)
        if bit_col >= 0:
            bit = step.hash_bits[bit_col]
            return ("1" if bit else "0"), BIT_FILL[bit], _BIT_INK[bit], False, _CENTER
        current = row == self._done - 1
        text = (str(row + 1), step.feature, str(step.weight))[col]
        ink = _BLACK if current else (self._muted if row >= self._done else None)
        return text, (_CURRENT if current else None), ink, current, (_LEFT if col == 1 else _RIGHT)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        """Cell text (plain), colours and alignment."""
        if not index.isValid() or self._steps is None:
            return None
        row, col = index.row(), index.column()
        step = self._steps.steps[row]
        bit_col = col - len(self.FIXED)
        if role == Qt.ItemDataRole.DisplayRole:
            if bit_col >= 0:
                return "1" if step.hash_bits[bit_col] else "0"
            return (str(row + 1), step.feature, str(step.weight))[col]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER if bit_col >= 0 else (_LEFT if col == 1 else _RIGHT)
        if role == Qt.ItemDataRole.BackgroundRole:
            if bit_col >= 0:
                return BIT_FILL[step.hash_bits[bit_col]]
            return _CURRENT if row == self._done - 1 else None
        if role == Qt.ItemDataRole.ForegroundRole:
            if bit_col >= 0:
                return _BIT_INK[step.hash_bits[bit_col]]
            if row == self._done - 1:
                return _BLACK
            return self._muted if row >= self._done else None
        if role == Qt.ItemDataRole.FontRole and row == self._done - 1 and bit_col < 0:
            font = QFont()
            font.setBold(True)
            return font
        return None


class StepCellDelegate(QStyledItemDelegate):
    """Paints each cell of the features table from :meth:`FeatureStepsModel.cell`, in one
    Python call.

    Qt's own delegate asks the model's ``data()`` seven times or more per cell, each call a
    return to Python that waits for the GIL: while a background job ran, one repaint of the
    67-column table (some 12,000 calls) kept the GUI thread 1.2 s.

    Args:
        model: the table's model.
        parent: the Qt parent, or ``None``.
    """

    def __init__(self, model: FeatureStepsModel, parent=None) -> None:
        super().__init__(parent)
        self._model = model
        #: the bit columns' font (``None``: the table's); presentation mode sets one that fits
        #: 64 columns in the table's width
        self.bit_font: QFont | None = None

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """Fill the cell's background and draw its text (elided to the cell)."""
        text, fill, ink, bold, align = self._model.cell(index.row(), index.column())
        rect = option.rect
        painter.save()
        if fill is not None:
            painter.fillRect(rect, fill)
        bit = index.column() >= len(FeatureStepsModel.FIXED)
        font = QFont(self.bit_font if bit and self.bit_font is not None else option.font)
        font.setBold(bold)
        painter.setFont(font)
        painter.setPen(ink if ink is not None else option.palette.color(QPalette.ColorRole.Text))
        inner = rect.adjusted(0, 0, 0, 0) if bit else rect.adjusted(3, 0, -3, 0)
        shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, max(0, inner.width()))
        painter.drawText(inner, int(align), shown)
        painter.restore()
