"""The base of the Qt result table models: a :class:`~dedup_gui.core.views.table_state.TableState`
mapped to Qt roles.

The table state (Qt-free, tested without a screen) holds the records, the sort, the filters and
the rows; see :mod:`dedup_gui.core.views.table_state`.  The model turns each of its changes into
one layout change of the model: persistent indexes (the selection, the current row) follow
their records, or become invalid when their record is hidden.  So a header click or a filter
change on a million rows is a few array operations, where a ``QSortFilterProxyModel`` calls a
Python ``filterAcceptsRow`` per row and ``data()`` per comparison (seconds).  ``data()`` stays
O(1) per cell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from dedup_gui.core.model import ScanResult
from dedup_gui.core.views.table_state import (  # noqa: F401 (re-exported for the views and tests)
    DUPLICATE_TYPES,
    ERROR,
    MUTED,
    NO_VALUE,
    TYPE_FILTERS,
    TableState,
    TypeFilter,
    format_score,
)
from dedup_gui.gui.plain import plain_tooltip

#: Role of the sort values: numbers for numeric columns, case-folded text otherwise.
SORT_ROLE = Qt.ItemDataRole.UserRole
#: Role of a path cell's distinguishing start: where the part of its file name that tells it
#: from the table's other names begins (:meth:`TableState.name_start`), for the path delegate.
NAME_START_ROLE = Qt.ItemDataRole.UserRole + 2
#: A path cell's parts, those that tell it apart first (:meth:`TableState.path_cut`), for the path delegate.
PATH_CUT_ROLE = Qt.ItemDataRole.UserRole + 3

_Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_TONES = {MUTED: QColor(128, 128, 128), ERROR: QColor(176, 32, 32)}
# Rows move or come and go, the columns stay: the horizontal header need not save its sections.
_ROWS_HINT = QAbstractItemModel.LayoutChangeHint.VerticalSortHint
_HINTED = ("QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint")  # the signal overload


class ResultTableModel(QAbstractTableModel):
    """Base of the result table models: the rows of a :class:`TableState` (see the module).

    Subclasses set :attr:`TABLE`, the table state class; the column constants are its own.
    Methods in terms of *records* (positions in the scan result's order) pass through to
    :attr:`table`.

    Args:
        parent: the Qt parent object, or ``None``.

    Attributes:
        table: the table state (:class:`TableState`); change it through the model, so that the
            views hear of it.
    """

    TABLE: type[TableState] = TableState
    COLUMNS: tuple[str, ...] = ()
    NUMERIC: frozenset[int] = frozenset()
    ELASTIC: frozenset[int] = frozenset()
    #: Columns of file paths: a narrow one keeps the file name whole (:class:`~dedup_gui.gui.tables.column_widths.PathDelegate`).
    PATH_COLUMNS: frozenset[int] = frozenset()
    #: Text columns shown whole when there is room (:attr:`TableState.WIDE_TEXT`).
    WIDE_TEXT: frozenset[int] = frozenset()
    #: Text columns cut at their end, not in their middle (:attr:`TableState.ELIDE_END`).
    ELIDE_END: frozenset[int] = frozenset()
    #: Text columns that end with a path (:attr:`TableState.PATH_TAIL`).
    PATH_TAIL: frozenset[int] = frozenset()
    #: Text columns that give way first on a narrow screen (:attr:`TableState.YIELDING`).
    YIELDING: frozenset[int] = frozenset()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name in (
            "COLUMNS",
            "NUMERIC",
            "ELASTIC",
            "PATH_COLUMNS",
            "WIDE_TEXT",
            "ELIDE_END",
            "PATH_TAIL",
            "YIELDING",
        ):
            setattr(cls, name, getattr(cls.TABLE, name))

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table = self.TABLE()

    # --- the table's records, passed through -----------------------------------------------

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str), as :meth:`TableState.display`."""
        return self.table.display(record, col)

    def cell_text(self, record: int, col: int) -> str:
        """Text of a cell as shown, as :meth:`TableState.cell_text` (paths without the folders
        they all share) (str)."""
        return self.table.cell_text(record, col)

    def widest_text(self, col: int) -> str | None:
        """As :meth:`TableState.widest_text` (str or ``None``)."""
        return self.table.widest_text(col)

    def paths_of(self, record: int) -> list[str]:
        """Absolute paths of the file(s) of ``record`` (list[str]); for the context menu."""
        return self.table.paths_of(record)

    def record_count(self) -> int:
        """Number of records, shown or not (int)."""
        return self.table.record_count()

    def record(self, row: int) -> int:
        """The record shown in ``row`` (int).

        Raises:
            IndexError: no such row.
        """
        return self.table.record(row)

    def row_of(self, record: int) -> int:
        """The row that shows ``record``, or -1 when hidden or missing (int); O(1)."""
        return self.table.row_of(record)

    def shown_records(self) -> np.ndarray:
        """The records shown, in row order (read-only ``np.int64`` array of shape (rows,))."""
        return self.table.shown_records()

    def paths_at(self, row: int) -> list[str]:
        """Absolute paths of the file(s) shown in ``row`` (list[str])."""
        return self.table.paths_at(row)

    def sort_column(self) -> int:
        """The column the rows are sorted by, -1 for the result's order (int)."""
        return self.table.sort_column()

    def type_filter(self) -> TypeFilter:
        """The current type filter (``None`` = all types)."""
        return self.table.type_filter()

    def text_filter(self) -> str:
        """The current file-name filter, stripped and case-folded (``""`` = none) (str)."""
        return self.table.text_filter()

    def record_filter(self) -> np.ndarray | None:
        """The records the record filter keeps (sorted ``np.int64`` array), or ``None``."""
        return self.table.record_filter()

    # --- changes, each one reset or layout change ------------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show ``result`` (or nothing, for ``None``), keeping the sort column and the type and
        file-name filters; a record filter is kept only if it fits the new records."""
        self.beginResetModel()
        self.table.set_result(result)
        self.endResetModel()

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classified ``result`` (the same records with new types and clusters, see
        :func:`dedup_gui.core.pipeline.classify.reclassify`) without a reset: rows are sorted and
        filtered again by the new values in one layout change, and selections stay on their
        records (or go, when their record is now filtered out).

        Raises:
            ValueError: ``result`` has a different number of records (a new scan: use
                :meth:`set_result`); the model then shows it after a reset, as
                :meth:`set_result` would, so that it stays consistent.
        """
        if self.table.records_in(result) != self.table.record_count():
            self.beginResetModel()
            try:
                self.table.update_result(result)  # raises the ValueError
            finally:
                self.endResetModel()
        self._relayout(lambda: self.table.update_result(result))
        rows = self.table.row_count()
        if rows:
            self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, len(self.COLUMNS) - 1))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort rows by ``column``'s sort keys (stable: ties keep the result's order, ascending
        and descending); ``column`` -1 restores the result's order.  Selections follow their
        records."""
        self._relayout(lambda: self.table.sort(column, order == Qt.SortOrder.DescendingOrder))

    def set_type_filter(self, type_filter: TypeFilter) -> None:
        """Keep only rows of these duplicate types (``None`` = all types)."""
        self._relayout(lambda: self.table.set_type_filter(type_filter))

    def set_text_filter(self, text: str) -> None:
        """Keep only rows whose file name(s) contain ``text``, ignoring case and surrounding
        spaces (``""`` = all)."""
        self._relayout(lambda: self.table.set_text_filter(text))

    def set_record_filter(self, records) -> None:
        """Keep only these records (``None`` = all), as :meth:`TableState.set_record_filter`.

        Raises:
            IndexError: a record index outside ``0 .. records - 1``.
        """
        chosen = self.table.checked_records(records)  # raises before the layout change
        self._relayout(lambda: self.table.set_record_filter(chosen))

    def refilter(self) -> None:
        """Filter and sort again after the model's values changed in place."""
        self._relayout(self.table.refilter)

    def _relayout(self, change: Callable[[], None]) -> None:
        """Apply ``change`` to the table in one layout change; persistent indexes follow their
        records."""
        self.layoutAboutToBeChanged[_HINTED].emit([], _ROWS_HINT)
        persistent = self.persistentIndexList()
        records = self.table.records_at(i.row() for i in persistent)
        change()
        moved = [self.index(row, index.column()) if row >= 0 else QModelIndex()
                 for row, index in zip(self.table.rows_of(records), persistent)]  # fmt: skip
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged[_HINTED].emit([], _ROWS_HINT)

    # --- the Qt model ------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of rows shown (int); 0 under a valid parent, as for any flat table."""
        return 0 if parent.isValid() else self.table.row_count()

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of columns (int)."""
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles for the horizontal header: numeric ones and the text columns that give up
        width (not paths) on two lines ("Closest" over "match"), to stay narrow; as tooltips,
        what the values are (:attr:`TableState.HEADER_TIPS`)."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            title = self.COLUMNS[section]
            two_lines = section in self.NUMERIC or (section in self.ELASTIC and section not in self.PATH_COLUMNS)
            return title.replace(" ", "\n", 1) if two_lines else title
        shared = self.table.shared_folders()
        if role == Qt.ItemDataRole.ToolTipRole and section in self.PATH_COLUMNS and shared:
            return plain_tooltip(f"Paths in {shared} (the folder every page shares, left out of the cells)")
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return self.table.HEADER_TIPS.get(section)
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell value for ``role``: text (display; paths without their shared folders), the
        whole text of path and text cells (tooltip), sort value (:data:`SORT_ROLE`), alignment,
        colour; ``None`` otherwise.  O(1)."""
        row = index.row()
        if not index.isValid() or not 0 <= row < self.table.row_count():
            return None
        record, col = self.table.record(row), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.table.cell_text(record, col)
        if role == SORT_ROLE:
            return self.table.sort_key(record, col)
        if role == NAME_START_ROLE:
            return self.table.name_start(record, col)
        if role == PATH_CUT_ROLE:
            return self.table.path_cut(record, col)
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole path or text, which cells may cut
            return plain_tooltip(self.table.tooltip(record, col)) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in self.NUMERIC:
            return _RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            tone = self.table.tone(record)
            return None if tone is None else _TONES[tone]
        return None
