"""The base of the result tables: fixed columns, display/sort roles, fast sorting, filter hook.

Rows are *records* (a model's list, in the scan result's order) seen through a permutation:
:meth:`ResultTableModel.sort` sorts that permutation in Python, once per click, which stays fast
at 100,000 rows (a ``QSortFilterProxyModel`` that sorts itself calls ``data()`` millions of
times).  The proxy (:class:`~dedup_gui.gui.filter_proxy.ResultFilterProxy`) only filters, asking
:meth:`ResultTableModel.row_accepts`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from dedup_gui.core.model import TYPE_ORDER, DupType, ScanResult
from dedup_gui.core.tokens import show_bidi_controls

#: Role of the sort values: numbers for numeric columns, case-folded text otherwise.
SORT_ROLE = Qt.ItemDataRole.UserRole

#: A type filter: ``None`` accepts every row, else the set of accepted duplicate types.
TypeFilter = frozenset[DupType] | None

#: The four duplicate types (every type but ``distinct``).
DUPLICATE_TYPES: frozenset[DupType] = frozenset(TYPE_ORDER) - {DupType.DISTINCT}

#: Choices of the type filter combo: (label, filter), in display order.
TYPE_FILTERS: tuple[tuple[str, TypeFilter], ...] = (
    ("All types", None),
    *((t.label, frozenset({t})) for t in TYPE_ORDER),
    ("Duplicates only", DUPLICATE_TYPES),
)

#: Sort value of an empty numeric cell: sorts before every real value.
NO_VALUE = -1

_Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def format_score(value: float) -> str:
    """Format a similarity in [0, 1] with 3 decimals, e.g. ``"0.875"`` (str)."""
    return f"{value:.3f}"


class ResultTableModel(QAbstractTableModel):
    """Base of the result tables.

    Subclasses set :attr:`COLUMNS` (header titles), :attr:`NUMERIC` (right-aligned numeric
    columns) and :attr:`ELASTIC` (text columns that give up width when the table is too wide),
    and implement :meth:`load`, :meth:`display`, :meth:`sort_key` and :meth:`accepts`, all in
    terms of *record* indices (positions in the scan result's order).

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS: tuple[str, ...] = ()
    NUMERIC: frozenset[int] = frozenset()
    ELASTIC: frozenset[int] = frozenset()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._order: list[int] = []  # row -> record
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder

    # --- what subclasses provide -----------------------------------------------------------

    def load(self, result: ScanResult | None) -> int:
        """Take the records of ``result`` (none for ``None``); return how many there are (int)."""
        raise NotImplementedError

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str)."""
        raise NotImplementedError

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value of a cell: int/float for numeric columns, case-folded str otherwise."""
        raise NotImplementedError

    def foreground(self, record: int) -> QColor | None:
        """Text colour of a record's row (QColor), or ``None`` for the default."""
        return None

    def accepts(self, record: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether a record passes a type filter and a case-folded file-name substring (bool)."""
        raise NotImplementedError

    # --- the model -------------------------------------------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show ``result`` (or nothing, for ``None``), keeping the current sort column."""
        self.beginResetModel()
        self._order = self._sorted(self.load(result))
        self.endResetModel()

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classified ``result`` (the same records with new types and clusters, see
        :func:`dedup_gui.core.classify.reclassify`) without a reset: rows are re-sorted by the
        new values and selections stay on their records.

        Raises:
            ValueError: ``result`` has a different number of records (a new scan: use
                :meth:`set_result`).
        """
        count = self.load(result)
        if count != len(self._order):
            raise ValueError(f"update_result needs the same {len(self._order)} records, got {count}")
        if 0 <= self._sort_column < len(self.COLUMNS):
            self.sort(self._sort_column, self._sort_order)
        if self._order:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._order) - 1, len(self.COLUMNS) - 1))

    def paths_at(self, row: int) -> list[str]:
        """Absolute paths of the file(s) shown in ``row`` (list[str]); for the context menu."""
        return []

    def record(self, row: int) -> int:
        """The record index shown in ``row`` (int)."""
        return self._order[row]

    def row_of(self, record: int) -> int:
        """The row that shows ``record`` (int); O(rows)."""
        return self._order.index(record)

    def row_accepts(self, row: int, type_filter: TypeFilter, text: str) -> bool:
        """:meth:`accepts` for the record in ``row`` (bool); what the filter proxy asks."""
        return self.accepts(self._order[row], type_filter, text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort rows by ``column``'s :data:`SORT_ROLE` values (stable: ties keep the result's
        order); ``column`` -1 restores the result's order.  Selections follow their records."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        records = [self._order[index.row()] for index in persistent]
        self._sort_column, self._sort_order = column, order
        self._order = self._sorted(len(self._order))
        row_of = {record: row for row, record in enumerate(self._order)}
        self.changePersistentIndexList(
            persistent, [self.index(row_of[r], i.column()) for r, i in zip(records, persistent)]
        )
        self.layoutChanged.emit()

    def _sorted(self, count: int) -> list[int]:
        records = range(count)
        if not 0 <= self._sort_column < len(self.COLUMNS):
            return list(records)
        col = self._sort_column
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        return sorted(records, key=lambda r: self.sort_key(r, col), reverse=descending)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of rows (int); 0 under a valid parent, as for any flat table."""
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of columns (int)."""
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles for the horizontal header (numeric ones on two lines, to stay narrow)."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            title = self.COLUMNS[section]
            return title.replace(" ", "\n", 1) if section in self.NUMERIC else title
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell value for ``role``: text (display), sort value (:data:`SORT_ROLE`), alignment,
        colour; ``None`` otherwise."""
        row = index.row()
        if not index.isValid() or not 0 <= row < len(self._order):
            return None
        record, col = self._order[row], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            value = self.display(record, col)
            # Page-derived text: a right-to-left override in a title must not reverse the cell.
            return show_bidi_controls(value) if isinstance(value, str) else value
        if role == SORT_ROLE:
            return self.sort_key(record, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in self.NUMERIC:
            return _RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(record)
        return None
