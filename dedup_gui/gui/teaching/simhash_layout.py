"""The SimHash view's layout (:class:`SimhashLayout`, a mixin of
:class:`~dedup_gui.gui.teaching.simhash_view.SimhashView`): presentation mode's arrangement, the
explanation's and the text box's heights in whole lines, and the steps table's columns fitted to
the font, so that the view fits a 1280x800 projector without scrolling."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHeaderView, QSizePolicy, QStyle

from dedup_gui.gui.teaching.steps_table import FeatureStepsModel
from dedup_gui.gui.teaching.widgets import fitting_font, set_vertical_policy, wrapped_height


class SimhashLayout:
    """Layout methods of the SimHash view, which owns the widgets they arrange (``_top``,
    ``_top_box``, ``_source_row``, ``eight_bit_check``, ``explain_label``, ``text_edit``,
    ``table``, ``board``, ``model``, ``_delegate``, ``steps``, ``presenting``, ``_margins``,
    ``_controls``, ``note_label``, ``_note_needed``).
    A mixin before ``QWidget`` in the view's bases."""

    def set_presentation(self, on: bool) -> None:
        """Fit presentation mode's large fonts in a 1280x800 window without scrolling (issue 20:
        the view needed 1,366 pixels of height there): the explanation beside the text box rather
        than above it, the board in two blocks of 32 snug cells (:meth:`CellGrid.set_compact`),
        narrower margins, and the features table in the height left over."""
        self.presenting = on
        layout = self.layout()
        layout.setContentsMargins(*((4, 4, 4, 4) if on else self._margins))
        layout.setSpacing(3 if on else -1)
        self._top.setSpacing(3 if on else -1)
        self.board.set_compact(on)
        # presenting, the bit columns share the table's width (_size_columns): a horizontal scroll
        # bar only took a row's height and hid bits 57-63
        self.table.setHorizontalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAlwaysOff if on else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        )
        self._arrange_top()
        self._fit_to_font()
        self._show_note()
        if self.steps is not None:
            self._show_position()  # the sums' texts differ (SimhashView._sum_text)

    def _show_note(self) -> None:
        """Presenting, the table's note is its tooltip, not a line: its line went to the table,
        which showed 2.5 rows at 1280x800, and on a long page (the table capped) its two lines
        made the view scroll, the second cut in half."""
        self.note_label.setVisible(not self.presenting)
        self.table.setToolTip(self.note_label.text() if self.presenting and self._note_needed else "")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Presenting: keep the explanation as tall as its wrapped lines at its width (a grid
        spanning rows gives a label its size hint's height, 224 pixels for 140 of text), and
        the table's bit columns as wide as its width allows."""
        if watched is self.explain_label and event.type() == QEvent.Type.Resize:
            self._fit_explanation()
        elif watched is self.table and event.type() == QEvent.Type.Resize and self.steps:
            self._size_columns(self.steps.bits)  # the bit columns share the new width
            # after the layout settles: a resize to 1024x640 left row 7 of "feature 7" out of view
            QTimer.singleShot(0, self, self.keep_row_in_view)
        return super().eventFilter(watched, event)

    def _fit_explanation(self) -> None:
        """Presenting: the explanation as tall as its wrapped lines, and the top box as tall as
        the taller of its two columns (the source row and the text box at its smallest; the
        explanation)."""
        label = self.explain_label
        need = wrapped_height(label, label.width()) if self.presenting else 0
        if need != label.minimumHeight():
            label.setMinimumHeight(need)
        left = 0
        if self.presenting:
            spacing = max(0, self._top.verticalSpacing())
            above = self._source_row.sizeHint().height() + spacing
            left = above + self.text_lines_height(2)
            # whole lines only: the text box's height left beside the explanation, rounded down
            # to lines (at 1280x800 it showed two lines and half of a third)
            lines = max(2, (max(need, left) - above - self.text_lines_height(0)) // self._text_line())
            if self.text_edit.maximumHeight() != self.text_lines_height(lines):
                self.text_edit.setMaximumHeight(self.text_lines_height(lines))
        box = max(need, left)
        if box != self._top_box.minimumHeight():
            self._top_box.setMinimumHeight(box)

    def _text_line(self) -> int:
        return max(1, self.text_edit.fontMetrics().lineSpacing())

    def text_lines_height(self, lines: int) -> int:
        """The text box's height that shows ``lines`` whole lines of its font and no part of
        the next (int, pixels): the document's top margin, the lines and the frame (the box
        draws a line that is partly in view, so no room is left for the bottom margin)."""
        edit = self.text_edit
        margins = edit.contentsMargins()  # the frame's width included
        return lines * self._text_line() + round(edit.document().documentMargin()) + margins.top() + margins.bottom()

    def _arrange_top(self) -> None:
        """Normal: the source row (the 8-bit switch at its right), the explanation and the text
        box one under the other; presenting: the source row and the text box at the left, the
        explanation at the right, the 8-bit switch after the step controls."""
        top, on = self._top, self.presenting
        # presenting, the 8-bit switch at the end of the step controls: under the source row it
        # made the left column, and so the top, a line taller (the table showed 2.5 rows)
        top.removeWidget(self.eight_bit_check)
        self._controls.removeWidget(self.eight_bit_check)
        if on:
            self._controls.addWidget(self.eight_bit_check)
        else:
            top.addWidget(self.eight_bit_check, 0, 1)
        self.eight_bit_check.setText("8-bit mode" if on else "8-bit mode (for the blackboard)")
        cells = ((0, 0, 1, 1), (0, 1, 2, 1), (1, 0, 1, 1)) if on else ((0, 0, 1, 1), (1, 0, 1, 2), (2, 0, 1, 2))
        for widget, cell in zip((self._source_row, self.explain_label, self.text_edit), cells):
            top.removeWidget(widget)
            top.addWidget(widget, *cell)
        for column, stretch in enumerate((5, 7) if on else (1, 0)):
            top.setColumnStretch(column, stretch)
        top.setRowStretch(1, 1 if on else 0)
        top.setRowStretch(2, 0)
        set_vertical_policy(self.explain_label, QSizePolicy.Policy.Ignored if on else QSizePolicy.Policy.Preferred)
        self._fit_explanation()

    def changeEvent(self, event) -> None:  # noqa: N802
        """Fit the table's rows and the text box to a new font (presentation mode)."""
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit_to_font()

    def _fit_to_font(self) -> None:
        line = self.fontMetrics().height()
        row = line + (2 if self.presenting else 6)
        self.table.verticalHeader().setDefaultSectionSize(row)
        small = QFont(self.font())
        small.setPointSizeF((small.pointSizeF() if small.pointSizeF() > 0 else 10.0) * 0.8)
        self.table.horizontalHeader().setFont(small)
        self.text_edit.setMaximumHeight(line * 4 + 12)  # presenting: whole lines (_fit_explanation)
        self.text_edit.setMinimumHeight(self.text_lines_height(2) if self.presenting else 0)
        self._fit_explanation()
        # presenting: the text box and the table take the height left over (the scroll area lays
        # the view out at its preferred height, so theirs is ignored), at least two lines each
        # the table's preferred height ignored in normal mode too: counted, it made the view one
        # pixel taller than a 1152x720 window's tab, and gave it a scroll bar
        self._fit_table_height()
        set_vertical_policy(self.table, QSizePolicy.Policy.Ignored)
        set_vertical_policy(self.text_edit,
                            QSizePolicy.Policy.Ignored if self.presenting else QSizePolicy.Policy.Expanding)  # fmt: skip
        if self.steps is not None:
            self._size_columns(self.steps.bits)

    def _fit_table_height(self) -> None:
        """The table's least height: its header and two rows; presenting a crowded board (4
        lines of 16 cells), one row: fewer rows rather than smaller text."""
        row = self.table.verticalHeader().defaultSectionSize()
        header = QFontMetrics(self.table.horizontalHeader().font()).height() + 8
        # presenting, the bit columns share the width: no horizontal scroll bar (it hid bits 57-63)
        scroll_bar = 0 if self.presenting else self.table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        rows = 1 if self.presenting and self.board.crowded() else 2
        need = header + rows * row + scroll_bar + 4
        if need != self.table.minimumHeight():
            self.table.setMinimumHeight(need)

    def _size_columns(self, bits: int) -> None:
        """Column widths for ``bits`` hash bits.  Presenting: narrower fixed columns and bit
        columns that share the rest of the table's width, their digits at the largest font that
        fits, so that all 64 bits show without a horizontal scroll bar (at 2x fonts the table
        showed bits 0-31 and a scroll bar)."""
        digit = self.fontMetrics().horizontalAdvance("0")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        fixed = (digit * 6, digit * (15 if bits == 64 else 30), digit * 7)
        width = max(34, digit * 4) if bits == 8 else max(13, round(digit * 1.7))
        self._delegate.bit_font = self.model.bit_header_font = None
        if not self.presenting and bits == 64:
            # narrower bit columns where the width is short: at 1152x720 bit 63 needed a scroll
            room = self.table.viewport().width() - sum(fixed) - 2
            width = max(11, min(width, room // bits))
        elif self.presenting and bits == 64:
            fixed = (digit * 5, digit * 10, digit * 6)
            room = self.table.viewport().width() - sum(fixed) - 2
            width = max(8, min(width, room // bits))
            row = self.table.verticalHeader().defaultSectionSize()
            self._delegate.bit_font = fitting_font(self.font(), "0", width - 2, row)
        header.set_bits(bits if bits == 64 else 0, 8)
        self._fit_table_height()
        for c in range(len(FeatureStepsModel.FIXED), self.model.columnCount()):
            self.table.setColumnWidth(c, width)
        for c, w in enumerate(fixed):
            self.table.setColumnWidth(c, w)
