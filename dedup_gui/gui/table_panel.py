"""A result table with its filter bar: a type combo, a file-name filter and a sortable view."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.gui.filter_proxy import ResultFilterProxy
from dedup_gui.gui.table_model import TYPE_FILTERS, ResultTableModel

_MAX_COLUMN_WIDTH = 420
_MIN_ELASTIC_WIDTH = 110
_SIZE_SAMPLE_ROWS = 200  # rows Qt measures to size a column (the visible ones first)
_TEXT_FILTER_DELAY_MS = 200  # wait for a pause in typing before filtering 100,000 rows


class TablePanel(QWidget):
    """A :class:`ResultTableModel` shown through a :class:`ResultFilterProxy`, with filters.

    The view sorts on header clicks; until then rows keep the model's order (for pairs: most
    similar first).

    Args:
        model: the source table model (the panel does not take ownership of its data).
        with_type_filter: show the duplicate-type combo (``False`` for the errors table).
        parent: the Qt parent widget, or ``None``.

    Signals:
        current_source_row_changed(int): the source row of the new current row, -1 for none.
        visible_rows_changed(int, int): rows shown after filtering, and rows in the model.
    """

    current_source_row_changed = Signal(int)
    visible_rows_changed = Signal(int, int)

    def __init__(self, model: ResultTableModel, with_type_filter: bool = True, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = ResultFilterProxy(self)
        self.proxy.setSourceModel(model)

        self.type_combo = QComboBox()
        for label, _type_filter in TYPE_FILTERS:
            self.type_combo.addItem(label)
        self.type_combo.currentIndexChanged.connect(self._on_type_changed)
        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText("Filter by file name…")
        self.text_filter.setClearButtonEnabled(True)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(_TEXT_FILTER_DELAY_MS)
        self._text_timer.timeout.connect(self.apply_text_filter)
        self.text_filter.textChanged.connect(self._on_text_changed)

        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep both ends of paths
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(_SIZE_SAMPLE_ROWS)
        header.setStretchLastSection(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # model order until a click
        self.view.setSortingEnabled(True)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_changed)
        for signal in (self.proxy.modelReset, self.proxy.rowsInserted, self.proxy.rowsRemoved,
                       self.proxy.layoutChanged):  # fmt: skip
            signal.connect(self._emit_counts)

        type_label = QLabel("Type:")
        bar = QHBoxLayout()
        bar.addWidget(type_label)
        bar.addWidget(self.type_combo)
        bar.addWidget(self.text_filter, 1)
        type_label.setVisible(with_type_filter)
        self.type_combo.setVisible(with_type_filter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view)

    def apply_text_filter(self) -> None:
        """Filter by the file-name box now (typing applies it after a short pause)."""
        self._text_timer.stop()
        self.proxy.set_text_filter(self.text_filter.text())

    def set_type_filter_index(self, index: int) -> None:
        """Select entry ``index`` of :data:`~dedup_gui.gui.table_model.TYPE_FILTERS`."""
        self.type_combo.setCurrentIndex(index)

    def select_source_row(self, source_row: int) -> bool:
        """Make ``source_row`` current and selected, clearing the filters if they hide it.

        Returns:
            ``True`` if the row is now selected (bool).
        """
        index = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if not index.isValid():
            self.text_filter.clear()
            self.apply_text_filter()
            self.type_combo.setCurrentIndex(0)
            index = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if not index.isValid():
            return False
        self.view.setCurrentIndex(index)
        self.view.selectRow(index.row())
        self.view.scrollTo(index)
        return True

    def current_source_row(self) -> int:
        """The source row of the current row, or -1 when there is none (int)."""
        index = self.proxy.mapToSource(self.view.currentIndex())
        return index.row() if index.isValid() else -1

    def fit_columns(self, available: int) -> None:
        """Size columns to their contents (Qt samples the rows), then shrink the model's
        elastic text columns (paths, titles) so that all columns fit in ``available`` pixels.
        """
        self.view.resizeColumnsToContents()
        header = self.view.horizontalHeader()
        widths = [min(header.sectionSize(c) + 12, _MAX_COLUMN_WIDTH) for c in range(header.count())]
        elastic = [c for c in self.model.ELASTIC if widths[c] > _MIN_ELASTIC_WIDTH]
        excess = sum(widths) - available
        slack = sum(widths[c] - _MIN_ELASTIC_WIDTH for c in elastic)
        if excess > 0 and slack > 0:
            share = min(1.0, excess / slack)
            for c in elastic:
                widths[c] -= int((widths[c] - _MIN_ELASTIC_WIDTH) * share + 0.999)
        for col, width in enumerate(widths):
            header.resizeSection(col, width)

    def _on_text_changed(self, _text: str) -> None:
        self._text_timer.start()

    def _on_type_changed(self, index: int) -> None:
        self.proxy.set_type_filter(TYPE_FILTERS[index][1] if index >= 0 else None)

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        source = self.proxy.mapToSource(current)
        self.current_source_row_changed.emit(source.row() if source.isValid() else -1)

    def _emit_counts(self, *_args) -> None:
        self.visible_rows_changed.emit(self.proxy.rowCount(), self.model.rowCount())
