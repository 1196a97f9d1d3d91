"""Fingerprints tab: both 64-bit SimHashes bit by bit, the byte hashes, shingles, and every method.

The bit grid shows the two fingerprints (Charikar 2002) as two rows of 64 cells, most
significant bit first, with the bits where they differ marked in red; their count is the
Hamming distance, compared with k (Manku, Jain and Das Sarma, WWW 2007).  The table lists
:func:`dedup_gui.core.methods.registry.pair_methods`: each method's values and its own verdict
(the methods, names and rules of the registry that ``evaluate --methods`` scores), computed off
the GUI thread (content-defined chunking alone takes 0.3 s per million characters).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontInfo, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHeaderView,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.fingerprints.simhash import BITS, bits_text, hamming_distance, to_bits
from dedup_gui.core.methods.registry import pair_methods
from dedup_gui.core.model import Pair, ScanResult, Thresholds
from dedup_gui.core.number_format import format_score
from dedup_gui.core.views.relations import display_relations
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.inspector.widgets import (
    ADDED,
    ON_TINT,
    REMOVED,
    TAB_MIN_HEIGHT,
    pair_pages,
    plain_label,
    scroll_body,
)
from dedup_gui.gui.plain import plain_tooltip

#: Cell fill by (bit, differs): 1 bits dark, 0 bits light; differing bits red.
CELL_COLORS = {
    (1, False): QColor("#455a64"),
    (0, False): QColor("#eceff1"),
    (1, True): QColor("#c62828"),
    (0, True): QColor("#ffcdd2"),
}
_LABEL_WIDTH = 48
_MIN_CELL = 8
_MIN_DIGIT_PIXELS = 7  # a bit's digit, in a cell of _MIN_CELL pixels
#: Method rows the verdict table shows at least (its tab scrolls when short of height).
_MIN_METHOD_ROWS = 6


class BitGrid(QWidget):
    """Two 64-bit fingerprints drawn as two rows of bit cells, differing bits marked.

    Column 0 is the most significant bit (bit 63), so the hex digit over every group of four
    cells is the fingerprint's hex digit at that place.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: tuple[int, int] | None = None
        self.setMinimumWidth(_LABEL_WIDTH + BITS * _MIN_CELL)
        policy = self.sizePolicy()
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_fingerprints(self, left: int | None, right: int | None = None) -> None:
        """Show two fingerprints (unsigned 64-bit ints), or nothing for ``None``."""
        self._values = None if left is None or right is None else (left, right)
        self.update()

    def row_bits(self, row: int) -> list[int]:
        """The bits shown in ``row`` (0 = left page, 1 = right), most significant first (list[int])."""
        return [] if self._values is None else [int(b) for b in to_bits(self._values[row])]

    def marked_columns(self) -> list[int]:
        """Columns marked as differing (0 = most significant bit) (list[int])."""
        if self._values is None:
            return []
        a, b = self.row_bits(0), self.row_bits(1)
        return [i for i in range(BITS) if a[i] != b[i]]

    def cell_rect(self, row: int, column: int) -> QRectF:
        """Where cell (``row``, ``column``) is drawn, in widget coordinates (QRectF)."""
        size = self._cell_size()
        top = self._row_top(row)
        return QRectF(_LABEL_WIDTH + column * size, top, size, size)

    def sizeHint(self) -> QSize:  # noqa: N802
        """Room for 14-pixel cells (QSize)."""
        return QSize(_LABEL_WIDTH + BITS * 14 + 4, self.heightForWidth(_LABEL_WIDTH + BITS * 14 + 4))

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        """The grid's height follows its width (its cells are square) (bool)."""
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        """The height that two rows of cells as wide as ``width`` allows and their hex digits
        take (pixels, int): a fixed 90 px left a blank band under 9-px cells at 1024x640."""
        size = max(float(_MIN_CELL), min((width - _LABEL_WIDTH - 4) / BITS, 22.0))
        return int(2 * size + 2 * self.fontMetrics().height() + 14)

    def _cell_size(self) -> float:
        by_width = (self.width() - _LABEL_WIDTH - 4) / BITS
        by_height = (self.height() - 2 * self.fontMetrics().height() - 12) / 2
        return max(float(_MIN_CELL), min(by_width, by_height, 22.0))

    def _row_top(self, row: int) -> float:
        return self.fontMetrics().height() + 4 + row * (self._cell_size() + 4)

    def paintEvent(self, event) -> None:  # noqa: N802
        """Draw the hex digits, the two rows of bit cells and the row names."""
        if self._values is None:
            return
        painter = QPainter(self)
        size = self._cell_size()
        fm = self.fontMetrics()
        marked = set(self.marked_columns())
        small = QFont(self.font())
        # the digits fit the cell (a 9-px cell at 1024x640 drew coloured boxes only)
        small.setPixelSize(max(_MIN_DIGIT_PIXELS, min(QFontInfo(self.font()).pixelSize(), int(size * 0.85))))
        for row, name in ((0, "left"), (1, "right")):
            top = self._row_top(row)
            painter.setPen(self.palette().windowText().color())
            right_aligned = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            if size < fm.height():  # the row's name as high as its cells ("left" was cut)
                painter.setFont(small)
            painter.drawText(QRectF(0, top, _LABEL_WIDTH - 4, size), right_aligned, name)
            painter.setFont(self.font())
            hex_digits = f"{self._values[row]:016x}"
            hex_top = top - fm.height() - 2 if row == 0 else top + size + 2
            for nibble, digit in enumerate(hex_digits):
                rect = QRectF(_LABEL_WIDTH + nibble * 4 * size, hex_top, 4 * size, fm.height())
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, digit)
            bits = self.row_bits(row)
            painter.setFont(small)
            for column, bit in enumerate(bits):
                rect = self.cell_rect(row, column)
                painter.fillRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), CELL_COLORS[(bit, column in marked)])
                if size >= _MIN_CELL:
                    painter.setPen(QColor("#ffffff") if bit else QColor("#37474f"))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(bit))
            painter.setFont(self.font())
        pen = QPen(self.palette().mid().color())
        painter.setPen(pen)
        for nibble in range(1, BITS // 4):  # a thin rule every 4 bits (one hex digit)
            x = _LABEL_WIDTH + nibble * 4 * size
            width = 1.5 if nibble % 4 == 0 else 0.5
            painter.setPen(QPen(pen.color(), width))
            painter.drawLine(QPointF(x, self._row_top(0)), QPointF(x, self._row_top(1) + size))
        painter.end()


class FingerprintsView(QWidget):
    """The pair's SimHashes bit by bit, Hamming distance, SHA-1s, shingle sets and the methods table.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    #: The methods table's columns.  The verdict comes right after the method: after the
    #: measure (up to ~500 px of text) it lay past the right edge of an inspector of usual width.
    METHOD_HEADERS = ("method", "verdict", "left", "right", "measure", "rule")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bit_grid = BitGrid()
        self.hamming_label = plain_label(bold=True, wrap=True)
        self.facts: dict[str, tuple] = {}
        facts = QGridLayout()
        facts.setHorizontalSpacing(12)
        for col, text in enumerate(("", "left", "right")):
            facts.addWidget(plain_label(text, bold=True), 0, col)
        for row, (key, name) in enumerate(
            (("simhash", "SimHash"), ("sha1", "SHA-1 of the bytes"), ("shingles", "shingles")), start=1
        ):
            # cut at their end when narrow (a hash's first digits tell it apart; whole in the
            # tooltip): a 40-digit SHA-1 on each side made the tab wider than a 1024-px window's
            cells = (plain_label(clip=True), plain_label(clip=True))
            facts.addWidget(plain_label(name), row, 0)
            facts.addWidget(cells[0], row, 1)
            facts.addWidget(cells[1], row, 2)
            self.facts[key] = cells
        facts.setColumnStretch(1, 1)
        facts.setColumnStretch(2, 1)
        self.sets_label = plain_label(wrap=True)
        self.methods_label = plain_label(muted=True, wrap=True)
        self._job = LatestJob(self)
        self._job.finished.connect(self._fill_methods)
        self._job.failed.connect(lambda exc: self._say(f"The methods could not be applied: {exc}"))
        self.methods_table = QTableWidget(0, len(self.METHOD_HEADERS))
        self.methods_table.setHorizontalHeaderLabels(list(self.METHOD_HEADERS))
        self.methods_table.verticalHeader().hide()
        self.methods_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.methods_table.setWordWrap(False)
        header = self.methods_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        rows = self.methods_table.verticalHeader()
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)  # compact: more methods in sight
        rows.setMinimumSectionSize(self.fontMetrics().height() + 2)
        self.methods_table.setMinimumHeight(
            (_MIN_METHOD_ROWS + 1) * rows.defaultSectionSize() + 2 * self.methods_table.frameWidth()
        )
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.bit_grid)
        layout.addWidget(self.hamming_label)
        layout.addLayout(facts)
        layout.addWidget(self.sets_label)
        layout.addWidget(self.methods_label)
        layout.addWidget(self.methods_table, 1)
        scroll_body(self, body)
        self.setMinimumSize(_LABEL_WIDTH + BITS * _MIN_CELL + 8, TAB_MIN_HEIGHT)
        self.clear()

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Show the pair's fingerprints at once, and every method's verdict when the background
        job has applied them.

        Args:
            result: the scan the pair belongs to.
            pair: the pair, or ``None`` to clear the view.
            thresholds: the thresholds (their ``hamming_k``); the scan's when ``None``.
        """
        if result is None or pair is None:
            self.clear()
            return
        t = thresholds or result.thresholds
        a, b = pair_pages(result, pair)
        self.bit_grid.set_fingerprints(a.simhash, b.simhash)
        distance = hamming_distance(a.simhash, b.simhash)
        near = "near duplicates by SimHash" if distance <= t.hamming_k else "not near duplicates by SimHash"
        if not (a.has_text and b.has_text):
            near = "not compared: a page has no usable main text"
        self.hamming_label.setText(f"Hamming distance {bits_text(distance)} (k = {t.hamming_k}): {near}")
        for key, (left, right) in (("simhash", (a.simhash_hex, b.simhash_hex)), ("sha1", (a.sha1, b.sha1)),
                                   ("shingles", (f"{len(a.shingles):,}", f"{len(b.shingles):,}"))):  # fmt: skip
            for label, text in zip(self.facts[key], (left, right), strict=True):
                label.setText(text)
                label.setToolTip(plain_tooltip(text))
        s = pair.scores
        self.sets_label.setText(
            f"shingle sets: Jaccard {format_score(s.jaccard)} (shared / all), containment {format_score(s.content_containment)} "
            "(share of the smaller set found in the other)"
        )
        self.methods_table.setRowCount(0)
        self._say("applying every method to the pair…")
        self._job.submit(pair_methods, a, b, t)

    def is_comparing(self) -> bool:
        """``True`` while the methods are being applied to the shown pair (bool)."""
        return self._job.is_running()

    def clear(self) -> None:
        """Show no pair (and ignore a computation still running)."""
        self._job.cancel()
        self._say("")
        self.bit_grid.set_fingerprints(None)
        self.hamming_label.setText("Select a pair to compare its fingerprints.")
        for left, right in self.facts.values():
            left.setText("")
            right.setText("")
        self.sets_label.setText("")
        self.methods_table.setRowCount(0)

    def _say(self, text: str) -> None:
        self.methods_label.setText(text)
        self.methods_label.setVisible(bool(text))

    def _fill_methods(self, methods) -> None:
        self._say("")
        table = self.methods_table
        table.setRowCount(len(methods))
        for row, m in enumerate(methods):
            verdict = "duplicate" if m.duplicate else "not duplicate"
            for col, text in enumerate((m.method, verdict, m.left, m.right, m.measure, display_relations(m.rule))):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(text))
                if col == 1:
                    item.setBackground(ADDED if m.duplicate else REMOVED)
                    item.setForeground(ON_TINT)
                table.setItem(row, col, item)
        table.resizeColumnsToContents()
        for col in (2, 3):  # 40-digit hashes: keep them readable without pushing the rest away
            table.setColumnWidth(col, min(table.columnWidth(col), 180))
        self._fit_verdict()

    def _fit_verdict(self) -> None:
        """Make the verdict column at least as wide as its header and its widest cell, measured
        with the fonts in use (never cut to "not d…")."""
        table, col = self.methods_table, 1
        header = table.horizontalHeader()
        style = table.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1) + 8
        texts = [table.item(r, col).text() for r in range(table.rowCount()) if table.item(r, col) is not None]
        cells = max((table.fontMetrics().horizontalAdvance(t) for t in texts), default=0) + margin
        width = max(cells, header.sectionSizeHint(col), header.fontMetrics().horizontalAdvance("verdict") + margin)
        if table.columnWidth(col) < width:
            table.setColumnWidth(col, width)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Re-measure the verdict column when the font or style changes."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_verdict()
