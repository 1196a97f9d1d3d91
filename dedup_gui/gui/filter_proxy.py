"""The filter proxy of the result tables: by duplicate type, by file name and by a set of records
(a histogram bar's pairs, a cluster's pairs); sorting is forwarded to the source model, which
sorts fast (see :mod:`dedup_gui.gui.table_model`)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from dedup_gui.gui.table_model import SORT_ROLE, ResultTableModel, TypeFilter


class ResultFilterProxy(QSortFilterProxyModel):
    """Shows the rows of a :class:`~dedup_gui.gui.table_model.ResultTableModel` that pass a
    type filter, a file-name filter and a record filter, in the source's order.

    :meth:`sort` (what a header click calls) sorts the source model by :data:`SORT_ROLE` values
    (numbers as numbers): one Python sort instead of Qt calling ``data()`` per comparison.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._type_filter: TypeFilter = None
        self._text = ""
        self._records: frozenset[int] | None = None
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def type_filter(self) -> TypeFilter:
        """The current type filter (``None`` = all types)."""
        return self._type_filter

    def set_type_filter(self, type_filter: TypeFilter) -> None:
        """Keep only rows of these duplicate types (``None`` = all types)."""
        self._type_filter = type_filter
        # one layout change; begin/endFilterChange removes rows range by range, which takes
        # seconds when a filter hides rows scattered over 100,000
        self.invalidate()

    def set_text_filter(self, text: str) -> None:
        """Keep only rows whose file name(s) contain ``text``, ignoring case (``""`` = all)."""
        self._text = text.strip().casefold()
        self.invalidate()

    def record_filter(self) -> frozenset[int] | None:
        """The records the record filter keeps, or ``None`` (no record filter)."""
        return self._records

    def set_record_filter(self, records: frozenset[int] | None) -> None:
        """Keep only these records of the source model (``None`` = all); they are record
        indices (positions in the scan result), not rows, so sorting does not disturb them."""
        self._records = records
        self.invalidate()

    def filterAcceptsRow(  # noqa: N802 (Qt API)
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        """Ask the source model whether ``source_row`` passes both filters (bool)."""
        model = self.sourceModel()
        assert isinstance(model, ResultTableModel)
        if self._records is not None and model.record(source_row) not in self._records:
            return False
        return model.row_accepts(source_row, self._type_filter, self._text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column`` (-1: the result's order) by sorting the source model."""
        model = self.sourceModel()
        assert isinstance(model, ResultTableModel)
        model.sort(column, order)
