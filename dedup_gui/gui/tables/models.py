"""The Qt table models over a :class:`~dedup_gui.core.model.ScanResult`: pages, pairs, errors.

Each maps a Qt-free table of :mod:`dedup_gui.core.views.tables` (records, cells, sort keys,
filter masks) to Qt roles through
:class:`~dedup_gui.gui.tables.table_model.ResultTableModel`; the accessors below pass through.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from dedup_gui.core.model import Page, Pair
from dedup_gui.core.views.status_filter import STATUS_FILTERS
from dedup_gui.core.views.tables import ErrorsTable, PagesTable, PairsTable
from dedup_gui.gui.tables.table_model import ResultTableModel


class PagesModel(ResultTableModel):
    """One row per file of a scan (:class:`~dedup_gui.core.views.tables.PagesTable`).

    Args:
        parent: the Qt parent object, or ``None``.
    """

    TABLE = PagesTable
    table: PagesTable

    def file_at(self, row: int) -> Page:
        """The :class:`Page` shown in ``row``.

        Raises:
            IndexError: no such row.
        """
        return self.table.file_at(row)

    def status_choices(self) -> list[tuple[str, str | None]]:
        """The status filter's choices, ``(label, key)`` (:meth:`PagesTable.status_choices
        <dedup_gui.core.views.pages_table.PagesTable.status_choices>`)."""
        return self.table.status_choices()

    def status_filter(self) -> str | None:
        """The status filter's key, ``None`` for every status."""
        return self.table.status_filter()

    def set_status_filter(self, key: str | None) -> None:
        """Keep only the pages of one status kind (``None`` = all), in one layout change.

        Raises:
            KeyError: an unknown key (nothing changes).
        """
        if key is not None and key not in STATUS_FILTERS:
            raise KeyError(f"no status filter {key!r}")
        self._relayout(lambda: self.table.set_status_filter(key))


class PairsModel(ResultTableModel):
    """One row per scored pair of a scan (:class:`~dedup_gui.core.views.tables.PairsTable`).

    Args:
        parent: the Qt parent object, or ``None``.
    """

    TABLE = PairsTable
    table: PairsTable

    def pair_of(self, record: int) -> Pair:
        """The :class:`Pair` of record ``record`` (its index in ``result.pairs``)."""
        return self.table.pair_of(record)

    def pair_at(self, row: int) -> Pair:
        """The :class:`Pair` shown in ``row``.

        Raises:
            IndexError: no such row.
        """
        return self.table.pair_at(row)

    def pages_of(self, row: int) -> tuple[Page, Page]:
        """The (left, right) :class:`Page` objects of the pair in ``row``."""
        return self.table.pages_of(row)

    def shown_pairs(self) -> list[Pair]:
        """The pairs the rows show, in row order (list[Pair])."""
        return self.table.shown_pairs()

    def changed_count(self) -> int | None:
        """How many pairs the last re-classification changed, ``None`` before any (int)."""
        return self.table.changed_count()

    def changed_only(self) -> bool:
        """Whether only the pairs the last re-classification changed are shown (bool)."""
        return self.table.changed_only()

    def set_changed_only(self, on: bool) -> None:
        """Keep only the pairs the last re-classification changed (``on``), in one layout change.

        Raises:
            ValueError: ``on`` before any re-classification (nothing changes).
        """
        if on and self.table.changed_count() is None:
            raise ValueError("no re-classification since the scan")
        self._relayout(lambda: self.table.set_changed_only(on))

    def set_labels(self, labels, root: str = "") -> None:
        """Take the scan's human labels (:meth:`PairsTable.set_labels
        <dedup_gui.core.views.tables.PairsTable.set_labels>`; ``None``: none), in one layout
        change; the views hear of the Label column's header through ``headerDataChanged``."""
        self._relayout(lambda: self.table.set_labels(labels, root))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)

    def has_labels(self) -> bool:
        """Whether the scan has a labels file (the Label column is available) (bool)."""
        return self.table.has_labels()

    def differs_count(self) -> int | None:
        """How many labelled pairs' types differ from their labels, ``None`` without labels (int)."""
        return self.table.differs_count()

    def differs_only(self) -> bool:
        """Whether only the pairs whose type differs from their label are shown (bool)."""
        return self.table.differs_only()

    def set_differs_only(self, on: bool) -> None:
        """Keep only the pairs whose type differs from their label (``on``), in one layout change.

        Raises:
            ValueError: ``on`` without labels (nothing changes).
        """
        if on and not self.table.has_labels():
            raise ValueError("no labels file for this scan")
        self._relayout(lambda: self.table.set_differs_only(on))

    def first_duplicate_record(self) -> int | None:
        """The result's first non-distinct pair, else its first pair, as a record index (int);
        ``None`` when there are no pairs."""
        return self.table.first_duplicate_record()


class ErrorsModel(ResultTableModel):
    """One row per file that could not be used (:class:`~dedup_gui.core.views.tables.ErrorsTable`).

    Args:
        parent: the Qt parent object, or ``None``.
    """

    TABLE = ErrorsTable
