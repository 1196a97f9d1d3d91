"""A sort/filter proxy for the result tables: filter by duplicate type and by file name."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel

from dedup_gui.gui.models import SORT_ROLE, ResultTableModel, TypeFilter


class ResultFilterProxy(QSortFilterProxyModel):
    """Sorts a :class:`~dedup_gui.gui.models.ResultTableModel` by :data:`SORT_ROLE` values
    (numbers as numbers) and keeps the rows its :meth:`~ResultTableModel.accepts` accepts.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._type_filter: TypeFilter = None
        self._text = ""
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def type_filter(self) -> TypeFilter:
        """The current type filter (``None`` = all types)."""
        return self._type_filter

    def set_type_filter(self, type_filter: TypeFilter) -> None:
        """Keep only rows of these duplicate types (``None`` = all types)."""
        self.beginFilterChange()
        self._type_filter = type_filter
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_text_filter(self, text: str) -> None:
        """Keep only rows whose file name(s) contain ``text``, ignoring case (``""`` = all)."""
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(  # noqa: N802 (Qt API)
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        """Ask the source model whether ``source_row`` passes both filters (bool)."""
        model = self.sourceModel()
        assert isinstance(model, ResultTableModel)
        return model.accepts(source_row, self._type_filter, self._text)
