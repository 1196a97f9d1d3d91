"""The SimHash features table's header (:class:`RulerHeader`): the bit columns numbered every 8th
column, each number free to run over the next columns, so that it is drawn at the header's
font however narrow the columns are (presenting at 1280x800, "56" squeezed into one 14-pixel
column was drawn at 8 pixels)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QHeaderView, QWidget


class RulerHeader(QHeaderView):
    """A horizontal header that draws the numbers ``0, 8, 16, ...`` over the bit columns.

    Args:
        first_bit: the section of bit 0 (the columns before it are the model's own).
        parent: the table, or ``None``.

    Attributes:
        bits: how many bit columns follow ``first_bit`` (0: draw no ruler).
        every: a number every ``every`` columns.
    """

    def __init__(self, first_bit: int, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.first_bit = first_bit
        self.bits = 0
        self.every = 8

    def set_bits(self, bits: int, every: int) -> None:
        """Number ``bits`` columns, one number every ``every`` columns (0 bits: none)."""
        self.bits, self.every = bits, every
        self.viewport().update()

    def ruler_numbers(self) -> list[str]:
        """The numbers the ruler draws, left to right (list[str])."""
        return [str(b) for b in range(0, self.bits, self.every)] if self.bits else []

    def paintEvent(self, event) -> None:  # noqa: N802
        """The sections as usual, then the ruler's numbers over them, left-aligned."""
        super().paintEvent(event)
        if not self.bits:
            return
        painter = QPainter(self.viewport())
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        for bit in range(0, self.bits, self.every):
            section = self.first_bit + bit
            left = self.sectionViewportPosition(section)
            span = sum(self.sectionSize(s) for s in range(section, min(section + self.every, self.count())))
            painter.drawText(QRect(left + 2, 0, span - 2, self.height()),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, str(bit))  # fmt: skip
        painter.end()
