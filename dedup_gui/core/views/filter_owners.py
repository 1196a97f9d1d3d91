"""Who set the tables' record filters: one filter per place that sets it, across the tables it filters.

A click in the clusters tree filters both the pairs and the pages table ("Keep cluster 2"), a
histogram bar only the pairs table ("Hamming distance = 4").  Each table shows its filter as a
removable chip, but the filter is one thing: a tester found the pages table still filtered to
"Keep cluster 2" after the histogram had replaced that filter in the pairs table and after the
tree had been switched to the near-duplicate groups, and read "Pages (0 of 1,422)" under a status
filter.  :class:`FilterOwners` records which place (:data:`TREE`, :data:`HISTOGRAM`) set each
table's filter and says which tables to clear when a filter is replaced, removed or its place
changes, so that no filter stays where the user cannot see where it came from.  No Qt here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The clusters tree (a near-duplicate group or a keep cluster).
TREE = "tree"
#: The Hamming-distance histogram (a bar).
HISTOGRAM = "histogram"
#: The words for each place, in a chip's tooltip.
SOURCE_NAMES = {TREE: "the Clusters panel", HISTOGRAM: "the histogram"}


@dataclass(frozen=True)
class OwnedFilter:
    """A record filter set from one place in one or more tables.

    Attributes:
        source: the place that set it, :data:`TREE` or :data:`HISTOGRAM` (str).
        label: its chip's text, e.g. ``"Keep cluster 2"`` (str).
        tables: the tables it filters, e.g. ``{"pairs", "pages"}`` (frozenset[str]).
    """

    source: str
    label: str
    tables: frozenset[str]

    def tooltip(self, table: str) -> str:
        """The chip's tooltip in ``table``: what clicking it does and where the filter came from,
        e.g. ``"Clear this filter (set in the Clusters panel; it also filters the pages table)"`` (str)."""
        others = sorted(self.tables - {table})
        also = f"; it also filters the {' and '.join(others)} table{'s' if len(others) > 1 else ''}" if others else ""
        return f"Clear this filter (set in {SOURCE_NAMES.get(self.source, self.source)}{also})"


class FilterOwners:
    """The record filter of each table and the place that set it (see the module).

    The methods return the tables whose filter the caller must clear; the record of those is
    already forgotten here.
    """

    def __init__(self) -> None:
        self._by_table: dict[str, OwnedFilter] = {}

    def filter_of(self, table: str) -> OwnedFilter | None:
        """The filter of ``table`` (str), or ``None`` when it has none set from a place."""
        return self._by_table.get(table)

    def set(self, source: str, label: str, tables: Iterable[str]) -> OwnedFilter:
        """Record that ``source`` filters ``tables`` to ``label``, replacing their filters.

        A filter replaced in one table is replaced as a whole: the tables it also filtered and
        the new one does not are to be cleared (the tree's "Keep cluster 2" leaves the pages
        table when a histogram bar replaces it in the pairs table); a new choice in the tree
        replaces the tree's filter, it never stacks on it.

        Args:
            source: :data:`TREE` or :data:`HISTOGRAM` (str).
            label: the filter's chip text (str).
            tables: the tables it filters (names, e.g. ``"pairs"``, ``"pages"``).

        Returns:
            The new :class:`OwnedFilter`; its ``tables`` are recorded here.
        """
        new = OwnedFilter(source, label, frozenset(tables))
        for table in new.tables:
            self._by_table[table] = new
        return new

    def stale_after(self, new: OwnedFilter, replaced: Iterable[OwnedFilter | None]) -> list[str]:
        """The tables still filtered by one of the ``replaced`` filters outside ``new.tables``,
        forgotten here and to be cleared by the caller (sorted list[str])."""
        stale = set()
        for old in replaced:
            if old is None or old == new:
                continue
            stale |= {t for t in old.tables - new.tables if self._by_table.get(t) == old}
        for table in stale:
            del self._by_table[table]
        return sorted(stale)

    def replace(self, source: str, label: str, tables: Iterable[str]) -> tuple[OwnedFilter, list[str]]:
        """:meth:`set`, and the tables to clear because the filter they shared was replaced.

        Returns:
            ``(the new filter, the tables to clear)`` (tuple[OwnedFilter, list[str]]).
        """
        chosen = frozenset(tables)
        replaced = [self._by_table.get(t) for t in chosen]
        new = self.set(source, label, chosen)
        return new, self.stale_after(new, replaced)

    def removed(self, table: str) -> list[str]:
        """``table``'s filter was removed (its chip clicked, or cleared for a new result): the
        other tables the same filter filters, to clear too, so that it does not linger out of
        sight (sorted list[str]; ``[]`` when ``table`` had no filter from a place)."""
        old = self._by_table.pop(table, None)
        if old is None:
            return []
        others = sorted(t for t in old.tables if self._by_table.get(t) == old)
        for other in others:
            del self._by_table[other]
        return others

    def from_source(self, source: str) -> list[str]:
        """Forget and return the tables whose filter ``source`` set (e.g. when the tree changes
        mode, its group or keep cluster is no longer shown there) (sorted list[str])."""
        tables = sorted(t for t, owned in self._by_table.items() if owned.source == source)
        for table in tables:
            del self._by_table[table]
        return tables
