"""Rows of equal columns drawn as coloured cells (:class:`CellGrid`): the SimHash board's hash,
weights, sums and fingerprint, the Hamming view's two fingerprints and their differing bits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dedup_gui.gui.teaching.widgets import DIFFER, LEAST_SCALE, blend, fitting_font, ink_on, legible_points

#: The smallest font of presentation mode's SimHash board (pixels): its digits 14 pixels tall
#: (a 14-pixel font's digits are 10 pixels: "+24" and "-66" were unreadable in 70-pixel cells).
BOARD_PIXELS = 19


@dataclass(frozen=True)
class CellRow:
    """One row of a :class:`CellGrid`.

    Attributes:
        name: the row's label, drawn at its left.
        texts: one text per column (may be ``""``).
        fills: one background per column.
        marked: columns drawn with a thick red frame (e.g. differing bits).
    """

    name: str
    texts: tuple[str, ...]
    fills: tuple[QColor, ...]
    marked: frozenset[int] = field(default_factory=frozenset)


class CellGrid(QWidget):
    """Rows of equal columns drawn as coloured cells (bits, sums), wrapped into blocks of 32, 16 or
    8 columns when the widget is too narrow for one line; a thin gap every 4 columns (one hex digit).

    Args:
        min_cell: narrowest cell (pixels).
        max_cell: widest cell (pixels); above 60 the cells are "big" (the blackboard's 8 cells):
            tall, with large digits.
        max_per_line: most columns per line (e.g. 32 for larger cells); ``None`` for all.
        tall: cell height in text lines (1 = just fits a line).
        parent: the Qt parent widget, or ``None``.

    Attributes:
        compact: presentation mode's snug grid (:meth:`set_compact`).
    """

    _GAP = 3  # pixels between groups of four columns
    _ROW_GAP = 3
    _BLOCK_GAP = 10

    def __init__(self, min_cell: int = 18, max_cell: int = 40, max_per_line: int | None = None, tall: float = 1.0,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.min_cell = min_cell
        self.max_cell = max_cell
        self.max_per_line = max_per_line
        self.tall = tall
        self.compact = False
        self._columns = 0
        self._rows: list[CellRow] = []
        self._reserve: dict[str, tuple[str, ...]] = {}
        self._header = ""
        self._first = 0
        self._version = 0
        self._layout_cache: tuple | None = None
        self._font_cache: tuple | None = None
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    # --- content ----------------------------------------------------------------------------

    def set_rows(self, columns: int, rows: Sequence[CellRow], header: str = "", first: int = 0) -> None:
        """Show ``rows`` of ``columns`` cells each, under a column-number header named ``header``
        whose numbers start at ``first`` (56: the 8-bit mode's bits are bits 56-63 of 64)."""
        for row in rows:
            if len(row.texts) != columns or len(row.fills) != columns:
                raise ValueError(f"row {row.name!r} has {len(row.texts)} cells, expected {columns}")
        self._columns, self._rows, self._header, self._first = columns, list(rows), header, first
        self._version += 1
        self._font_cache = None
        self._fit_height()
        self.update()

    def set_reserve(self, reserve: dict[str, Sequence[str]]) -> None:
        """Texts each row (by name) may show later, e.g. the widest running sum of every step of
        a text: the layout (cells per line) and the cell fonts are chosen for them too, so that
        they stay the same while stepping (the SimHash board switched from 2 lines of 32 to 4
        of 16, and back, whenever a sum reached 100)."""
        self._reserve = {name: tuple(texts) for name, texts in reserve.items()}
        self._version += 1
        self._font_cache = None
        self._fit_height()
        self.update()

    def set_cell_range(self, min_cell: int, max_cell: int) -> None:
        """Change the cell width limits (pixels), e.g. big cells in the blackboard mode."""
        self.min_cell, self.max_cell = min_cell, max_cell
        self._fit_height()
        self.update()

    def set_compact(self, on: bool) -> None:
        """Snug cells for presentation mode: lines of up to 32 cells as long as cells of ``min_cell``
        pixels allow (the cell text shrinks to fit rather than the lines halve: at twice the font
        size the 64-bit board took four blocks of 16, 744 pixels at 1280x800), rows one text line
        tall and closer together."""
        self.compact = on
        self._fit_height()
        self.update()

    def _row_gap(self) -> int:
        return 0 if self.compact else self._ROW_GAP  # compact: the cells' own 1-pixel seams part the rows

    def _block_gap(self) -> int:
        return (4 if self.crowded() else 6) if self.compact else self._BLOCK_GAP  # four blocks: every pixel

    def _fit_height(self) -> None:
        """Keep the minimum height at what the current width needs (for containers such as
        ``QSplitter`` that do not ask :meth:`heightForWidth`)."""
        need = self.heightForWidth(max(self.width(), 160))
        if need != self.minimumHeight():
            self.setMinimumHeight(need)  # relayouts the window only when the height changes

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Re-wrap the blocks for the new width."""
        super().resizeEvent(event)
        self._fit_height()

    def changeEvent(self, event) -> None:  # noqa: N802
        """Re-measure when the font changes (presentation mode)."""
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit_height()

    def columns(self) -> int:
        """Columns per row (int)."""
        return self._columns

    def column_numbers(self) -> list[int]:
        """The numbers the header gives the columns, left to right (list[int])."""
        return [self._first + c for c in range(self._columns)]

    def row_names(self) -> list[str]:
        """The rows' labels, top to bottom (list[str])."""
        return [r.name for r in self._rows]

    def row(self, name: str) -> CellRow | None:
        """The row labelled ``name``, or ``None``."""
        return next((r for r in self._rows if r.name == name), None)

    def row_texts(self, name: str) -> list[str]:
        """The texts of the row labelled ``name`` (list[str]; empty if there is no such row)."""
        r = self.row(name)
        return list(r.texts) if r else []

    def marked_columns(self) -> list[int]:
        """Columns marked in any row, ascending (list[int])."""
        return sorted(set().union(*(r.marked for r in self._rows))) if self._rows else []

    # --- geometry ---------------------------------------------------------------------------

    def _metrics(self) -> QFontMetricsF:
        return QFontMetricsF(self.font())

    def _layout(self, width: int) -> tuple[float, float, float, int, float]:
        """``(label_width, cell_width, cell_height, columns_per_line, header_height)`` for a widget
        width (cached until the rows, the cell limits or the font change)."""
        key = (width, self._version, self.font().key(), self.min_cell, self.max_cell, self.compact)
        if self._layout_cache is None or self._layout_cache[0] != key:
            self._layout_cache = (key, self._compute_layout(width))
        return self._layout_cache[1]

    def _compute_layout(self, width: int) -> tuple[float, float, float, int, float]:
        fm = self._metrics()
        label_w = max([fm.horizontalAdvance(r.name) for r in self._rows] + [0]) + 10
        texts = [t for r in self._rows for t in self._texts(r)]
        # a cell's text may shrink to the least font (LEAST_SCALE; presenting, LEGIBLE_POINTS)
        # before the lines halve; the reserved texts make the choice once per text
        least = QFontMetricsF(self._least_font())
        need = max(float(self.min_cell), max([least.horizontalAdvance(t) for t in texts] + [0]) + 4)
        # compact (presentation mode): cells may widen to what the texts need at the widget's
        # own font, so that the sums are as large as the row names where the width allows
        widest = max(float(self.max_cell), fm.horizontalAdvance(max(texts, key=len, default="")) + 8) if (
            self.compact) else max(float(self.max_cell), need)  # fmt: skip
        per_line = max(1, self._columns)
        most = min(self.max_per_line or per_line, 32 if self.compact else per_line)  # compact: two lines of 64
        while per_line > most and per_line % 2 == 0:
            per_line //= 2
        if self.compact and per_line == 32:
            # presenting 64 cells: 32, 24 (three lines, whole bytes) or 16 a line, the most whose
            # texts fit at the least font; 16 (four lines) made the view scroll at 1280x800
            names = max([least.horizontalAdvance(r.name) for r in self._rows] + [0]) + 10  # crowded: least font
            per_line = next((n for n in (32, 24, 16) if (label_w if n == 32 else names) + n * need
                             + (n // 4) * self._GAP <= width), 16)  # fmt: skip
        while (
            not self.compact
            and per_line > 8
            and per_line % 2 == 0
            and label_w + per_line * need + (per_line // 4) * self._GAP > width
        ):
            per_line //= 2
        if self.compact and per_line < min(32, self._columns):
            # crowded (presenting, 4 lines of 16): the whole board at the legible size, the
            # row names too, so that four blocks take little more height than two did
            fm = least
            label_w = max([fm.horizontalAdvance(r.name) for r in self._rows] + [0]) + 10
            widest = float(width)  # the cells share the width: no half-empty lines
        room = (width - label_w - (per_line // 4) * self._GAP - 2) / per_line
        cell_w = max(need, min(widest, room))
        if self.big_cells():
            cell_h = max(fm.height() + 6, min(cell_w * 0.55, fm.height() * 3.2))
        elif self.compact:
            cell_h = fm.height() + (0 if fm is least else 2)  # the row's name, at the board's font, just fits
        else:
            cell_h = max(fm.height() + 6, min(cell_w, fm.height() * self.tall))
        header = self._least_font() if fm is least else self._header_font()
        return label_w, cell_w, cell_h, per_line, QFontMetricsF(header).height() + (0 if fm is least else 2)

    def crowded(self) -> bool:
        """``True`` when presentation mode's board could not keep lines of 32 cells at a legible
        size and took lines of 16: it is drawn at :data:`LEGIBLE_POINTS` (bool)."""
        per_line = self._layout(self.width())[3]
        return self.compact and per_line < min(32, self._columns)

    def board_font(self) -> QFont:
        """The font of the row names and the base of the cells' fonts: the widget's, or the
        least font where the board is :meth:`crowded` (QFont)."""
        return self._least_font() if self.crowded() else QFont(self.font())

    def big_cells(self) -> bool:
        """``True`` in the blackboard mode (wide cells allowed): digits are drawn large (bool)."""
        return self.max_cell > 60

    def _header_font(self) -> QFont:
        """The column numbers' font: three quarters of the widget's, presenting at least
        :func:`legible_points` (QFont)."""
        font = QFont(self.font())
        size = max(6.0, (self.font().pointSizeF() or 10.0) * 0.75)
        font.setPointSizeF(max(size, self._least_font().pointSizeF()) if self.compact else size)
        return font

    def _least_font(self) -> QFont:
        """The smallest font a cell's text may shrink to: :func:`legible_points` presenting (at
        most the widget's own size), else :data:`LEAST_SCALE` of the widget's (QFont)."""
        font = QFont(self.font())
        base = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        dpi = self.logicalDpiY()
        board = max(legible_points(self), BOARD_PIXELS * 72.0 / dpi if dpi > 0 else 0.0)
        font.setPointSizeF(min(base, board) if self.compact else base * LEAST_SCALE)
        return font

    def _texts(self, row: CellRow) -> tuple[str, ...]:
        """The row's texts and those reserved for it (:meth:`set_reserve`)."""
        return row.texts + self._reserve.get(row.name, ())

    def _cell_font(self, cell_w: float, cell_h: float, texts: Sequence[str]) -> QFont:
        """The largest font whose widest text of ``texts`` fits the cell: up to 2.6 times the
        widget's in big cells, the widget's own in compact cells (presentation mode: the sums
        and bits scale with the row names rather than staying at 8 pixels), else 0.85 of it."""
        font = self.board_font()
        base = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        scale = 0.85
        if self.big_cells():
            scale = min(2.6, cell_h / QFontMetricsF(font).height() * 0.8)
        elif self.compact:
            scale = 1.0
        font.setPointSizeF(base * scale)
        fm = QFontMetricsF(font)
        widest = max((t for t in texts if t), key=fm.horizontalAdvance, default="")
        return fitting_font(font, widest, cell_w - 4, cell_h)

    def cell_font(self, row: int = 0) -> QFont:
        """The font row ``row``'s texts are drawn at, at the current width: in compact cells
        each row's own (the bits as large as fit, whatever the widest sum), else one for all
        (QFont)."""
        geometry = self._layout(self.width())
        if self._font_cache is None or self._font_cache[0] != geometry:
            _label_w, cell_w, cell_h, _per_line, _header_h = geometry
            # one font for every row: presenting, per-row fonts drew the sums at half the
            # height of the bits above them (the widest sum shrank its row alone)
            every = [t for r in self._rows for t in self._texts(r)]
            fonts = [self._cell_font(cell_w, cell_h, every)] * len(self._rows)
            self._font_cache = (geometry, fonts)
        fonts = self._font_cache[1]
        return fonts[row] if 0 <= row < len(fonts) else QFont(self.font())

    def _blocks(self, per_line: int) -> int:
        return -(-self._columns // per_line) if self._columns else 0

    def _one_header(self, per_line: int) -> bool:
        """Presenting four blocks (lines of 16): the column numbers over the first block only, the
        later blocks named by their bits at their left ("bits 16–31"): three header rows less let
        the board's text grow to :data:`BOARD_PIXELS` without the view scrolling at 1280x800."""
        return self.compact and per_line < min(32, self._columns) and self._blocks(per_line) > 3

    def _block_top(self, geometry: tuple[float, float, float, int, float], block: int) -> float:
        """The top of block ``block``'s cells (pixels)."""
        _label_w, _cell_w, cell_h, per_line, header_h = geometry
        cells = len(self._rows) * (cell_h + self._row_gap())
        if self._one_header(per_line):
            return header_h + block * (cells + self._block_gap())
        return block * (header_h + cells + self._block_gap()) + header_h

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        """The height that shows every block at ``width`` (int)."""
        if not self._columns:
            return self._metrics().height() * 2
        geometry = self._layout(width)
        _, _, cell_h, per_line, _header_h = geometry
        blocks = self._blocks(per_line)
        bottom = self._block_top(geometry, blocks - 1) + len(self._rows) * (cell_h + self._row_gap())
        return int(bottom + 4)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        """Yes: wrapping makes the height depend on the width."""
        return True

    def sizeHint(self) -> QSize:  # noqa: N802
        """A width that fits one line of smallest cells, and the height for it (QSize)."""
        w = 640
        return QSize(w, self.heightForWidth(w))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """Room for a block of eight cells (QSize)."""
        return QSize(160, self._metrics().height() * 2)

    def cell_rect(self, row: int, column: int) -> QRectF:
        """Where cell (``row``, ``column``) is drawn, in widget coordinates (QRectF)."""
        return self._rect(self._layout(self.width()), row, column)

    def _rect(self, geometry: tuple[float, float, float, int, float], row: int, column: int) -> QRectF:
        label_w, cell_w, cell_h, per_line, header_h = geometry
        block, col = divmod(column, per_line)
        top = self._block_top(geometry, block) + row * (cell_h + self._row_gap())
        left = label_w + col * cell_w + (col // 4) * self._GAP
        return QRectF(left, top, cell_w, cell_h)

    # --- painting ---------------------------------------------------------------------------

    def paintEvent(self, event) -> None:  # noqa: N802
        """Draw the column numbers, the row labels and the cells, block by block."""
        if not self._columns or not self._rows:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        geometry = self._layout(self.width())
        label_w, cell_w, cell_h, per_line, header_h = geometry
        header_font = self._least_font() if self.crowded() else self._header_font()
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        muted = blend(text_color, self.palette().color(QPalette.ColorRole.Window), 0.45)
        hfm = QFontMetricsF(header_font)
        number_every = 1 if hfm.horizontalAdvance("88") + 2 <= cell_w else 4
        one_header = self._one_header(per_line)
        for column in range(self._columns):
            rect0 = self._rect(geometry, 0, column)
            col_in_line = column % per_line
            later = one_header and column >= per_line  # a block under the first, no header row
            if later and col_in_line == 0:
                painter.setFont(self.board_font())
                painter.setPen(text_color)
                last = self._rect(geometry, len(self._rows) - 1, column)
                last_bit = self._first + min(column + per_line, self._columns) - 1
                painter.drawText(QRectF(0, rect0.top(), label_w - 6, last.bottom() - rect0.top()),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                                 f"{self._header}s {self._first + column}–{last_bit}")  # fmt: skip
            elif later:
                pass
            elif column % number_every == 0 or col_in_line == 0:
                painter.setFont(header_font)
                painter.setPen(muted)
                header = QRectF(rect0.left() - 8, rect0.top() - header_h, rect0.width() + 16,
                                header_h)  # fmt: skip
                painter.drawText(header, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                                 str(self._first + column))  # fmt: skip
            if col_in_line == 0 and not later:
                painter.setFont(header_font)  # the header row is as tall as the header font
                painter.setPen(muted)
                painter.drawText(QRectF(0, rect0.top() - header_h, label_w - 6, header_h),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, self._header)  # fmt: skip
                painter.setFont(self.board_font())
                painter.setPen(text_color)
                for r, row in enumerate(self._rows):
                    rr = self._rect(geometry, r, column)
                    painter.drawText(QRectF(0, rr.top(), label_w - 6, rr.height()),
                                     Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, row.name)  # fmt: skip
            for r, row in enumerate(self._rows):
                painter.setFont(self.cell_font(r))
                rect = self._rect(geometry, r, column)
                fill = row.fills[column]
                painter.fillRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), fill)
                if row.texts[column]:
                    painter.setPen(ink_on(fill))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, row.texts[column])
                if column in row.marked:
                    painter.setPen(QPen(DIFFER, 2.5))
                    painter.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))
        painter.end()
