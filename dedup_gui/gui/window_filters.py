"""The main window's record filters, one per place that sets them (the clusters tree, the histogram),
kept in step across the pairs and pages tables by :class:`~dedup_gui.core.views.filter_owners.FilterOwners`.

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow`: it needs ``pairs_panel``,
``pages_panel`` and ``clusters_view``.
"""

from __future__ import annotations

from dedup_gui.core.views.filter_owners import TREE, FilterOwners
from dedup_gui.gui.tables.table_panel import TablePanel

_CHIP_TOOLTIP = "Clear this filter"


class WindowFilters:
    """Set, replace and clear the tables' record filters as one filter per place (see the module)."""

    pairs_panel: TablePanel
    pages_panel: TablePanel

    def _filter_panels(self) -> dict[str, TablePanel]:
        return {"pairs": self.pairs_panel, "pages": self.pages_panel}

    def set_owned_filter(self, source: str, label: str, tables: dict[str, tuple[object, str]]) -> None:
        """Filter tables from one place, replacing what that place or another set there before.

        A filter the new one replaces in one table leaves the other tables it filtered too; each
        table's chip says where its filter came from.

        Args:
            source: :data:`~dedup_gui.core.views.filter_owners.TREE` or ``HISTOGRAM`` (str).
            label: the chip's text, e.g. ``"Keep cluster 2"`` (str).
            tables: table name (``"pairs"``, ``"pages"``) -> (the records it keeps, the text
                shown when they are none, ``""`` for a generic line).

        Raises:
            IndexError: a record index outside a table's records (as :meth:`TablePanel.set_record_filter`).
        """
        panels = self._filter_panels()
        owned, stale = self._filter_owners.replace(source, label, tables)
        for name, (records, empty) in tables.items():
            panels[name].set_record_filter(records, label, empty)
            panels[name].filter_chip.setToolTip(owned.tooltip(name))
        for name in stale:
            panels[name].clear_record_filter()

    def _clear_tree_filters(self, *_args) -> None:
        # the tree shows other clusters now: its group or keep cluster is gone from sight
        panels = self._filter_panels()
        for name in self._filter_owners.from_source(TREE):
            panels[name].clear_record_filter()

    def _on_record_filter_changed(self, name: str, label: str) -> None:
        if label:
            return
        panels = self._filter_panels()
        panels[name].filter_chip.setToolTip(_CHIP_TOOLTIP)
        for other in self._filter_owners.removed(name):
            panels[other].clear_record_filter()

    def _connect_filters(self) -> None:
        self._filter_owners = FilterOwners()
        for name, panel in self._filter_panels().items():
            panel.record_filter_changed.connect(lambda label, name=name: self._on_record_filter_changed(name, label))
        self.clusters_view.mode_combo.currentIndexChanged.connect(self._clear_tree_filters)  # type: ignore[attr-defined]
