"""The two-level tree both cluster views use: groups at the top, their pages under them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

_Index = QModelIndex | QPersistentModelIndex
TOP = 0  # internalId of top-level (group) rows; pages use their group's row + 1


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, each with its pages under it, and :attr:`COLUMNS` columns.

    Subclasses give :attr:`COLUMNS`, :meth:`group_count` and :meth:`member_count`, and their own
    ``data``; this class maps rows to indices (a page row's ``internalId`` is its group's row + 1).
    """

    COLUMNS: tuple[str, ...] = ()

    def group_count(self) -> int:
        """Number of top-level rows (int)."""
        raise NotImplementedError

    def member_count(self, group_row: int) -> int:
        """Number of page rows under top-level row ``group_row`` (int)."""
        raise NotImplementedError

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """The index of a group row (no parent) or of a page row under a group (QModelIndex)."""
        if column < 0 or column >= len(self.COLUMNS) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, TOP) if row < self.group_count() else QModelIndex()
        if parent.internalId() != TOP or row >= self.member_count(parent.row()):
            return QModelIndex()  # pages have no children
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """The group row of a page row; invalid for group rows."""
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Groups at the top, pages under a group, nothing under a page (int)."""
        if not parent.isValid():
            return self.group_count()
        if parent.internalId() != TOP or parent.column() != 0:
            return 0
        return self.member_count(parent.row())

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """The number of :attr:`COLUMNS` (int)."""
        return len(self.COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles, and what each column's values are as their tooltips (``HEADER_TIPS``)."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            tips = getattr(self, "HEADER_TIPS", ())
            return tips[section] if section < len(tips) else None
        return None
