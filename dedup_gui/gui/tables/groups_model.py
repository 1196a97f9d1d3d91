"""The near-duplicate groups as a tree (the clusters view's "Near-duplicate groups" mode): each
group (union-find over the duplicate pairs), then its pages.

Top level: one row per group ("Group 3 (full, layout)": its duplicate types in short words, a
colour square of its closest type, its page count, how many of its pages to drop); under it, its
pages and what the keep clusters say of each (the types of a page's pairs are in its tooltip and
in the line under the tree, so that the page names keep the room).  The summaries come from
:func:`dedup_gui.core.views.selection.cluster_summaries`.  Page paths are plain data, shown
without the folders a group's pages all share (:mod:`dedup_gui.core.views.paths`).

A group joins pages by any chain of duplicate pairs, so it says nothing about what to keep; the
"Keep" column shows the keep clusters (:mod:`dedup_gui.core.pipeline.keep_clusters`): "keep #2" marks
the page kept in keep cluster 2, "drop #2" a page to drop for it (how it duplicates the kept
page is in its tooltip and in the line under the tree).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from dedup_gui.core.model import ScanResult
from dedup_gui.core.pipeline.keep_clusters import KeepCluster, keep_clusters_of, link_relation
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.colors import TYPE_COLORS
from dedup_gui.core.views.paths import cluster_labels
from dedup_gui.core.views.selection import ClusterSummary, cluster_summaries, types_text
from dedup_gui.gui.plain import plain_tooltip
from dedup_gui.gui.tables.tree_model import TOP as _TOP
from dedup_gui.gui.tables.tree_model import GroupTreeModel

_Index = QModelIndex | QPersistentModelIndex


class ClustersModel(GroupTreeModel):
    """Two-level model: clusters, then each cluster's pages.

    Columns: "Group / page" (a group's title and types, a page's path), "Pages" (page count of
    a group), "Keep" (what the keep clusters say: pages to drop in a group; ``keep #k`` or
    ``drop #k`` for a page).

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS = ("Group / page", "Pages", "Keep")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._summaries: list[ClusterSummary] = []
        self._row_of_cluster: dict[int, int] = {}
        self._keep_of: dict[int, KeepCluster] = {}
        self._drops: dict[int, int] = {}

    def set_result(self, result: ScanResult | None) -> None:
        """Show the clusters of ``result`` (none for ``None``), with its keep clusters
        (:func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`)."""
        self.beginResetModel()
        self._result = result
        self._summaries = [] if result is None else cluster_summaries(result)
        self._row_of_cluster = {s.cluster.id: row for row, s in enumerate(self._summaries)}
        keep = [] if result is None else keep_clusters_of(result)
        self._keep_of = {i: k for k in keep for i in k.pages}
        self._drops = {}
        for k in keep:
            self._drops[k.group] = self._drops.get(k.group, 0) + len(k.duplicates)
        self.endResetModel()

    def drop_text(self, cluster_id: int) -> str:
        """The "Keep" column of a cluster row: how many of its pages to drop (str, "" if none)."""
        n = self._drops.get(cluster_id, 0)
        return f"drop {n:,}" if n else ""

    def widest_advice(self) -> set[str]:
        """About the widest "Keep" texts of a page row (set of str; empty when nothing is to be
        kept): ``keep #k`` and ``drop #k`` with the largest keep cluster id."""
        if not self._keep_of:
            return set()
        widest = max(k.id for k in self._keep_of.values())
        return {f"keep #{widest}", f"drop #{widest}"}

    def advice(self, page: int) -> tuple[str, str]:
        """What the keep clusters say of one page: ``(column text, tooltip)``, e.g.
        ``("drop #2", "Keep cluster 2: a page to drop, full duplicate of the page kept (not kept:
        older version folder than the kept page (in v1.16.x/))")``;
        ``("", "")`` for a page in no keep cluster.  No page-derived text."""
        k = self._keep_of.get(page)
        if k is None:
            return "", ""
        if page == k.keep:
            return f"keep #{k.id}", f"Keep cluster {k.id}: the page to keep ({k.reason} decided)"
        link = k.links[k.duplicates.index(page)]
        return f"drop #{k.id}", (f"Keep cluster {k.id}: a page to drop, {link_relation(link)} the page kept "
                                 f"({k.row_reason(page)})")  # fmt: skip

    @staticmethod
    def title(summary: ClusterSummary) -> str:
        """A group row's first cell: ``"Group 3 (full, layout)"``, its duplicate types in short
        words (str)."""
        types = summary.short_types_text
        return f"{summary.title} ({types})" if types else summary.title

    def details(self, index: _Index) -> str:
        """What a row says in full, for the line under the tree (plain text, may hold a path;
        ``""`` for no row): a group's pages, pairs and types, or a page's whole path, the types
        of its duplicate pairs and what the keep clusters say of it."""
        summary = self.cluster_at(index)
        if summary is None or self._result is None:
            return ""
        page = self.page_at(index)
        if page is None:
            pages, pairs = len(summary.cluster.pages), summary.pair_count
            return f"{summary.title}: {pages:,} pages, {pairs:,} duplicate pairs ({summary.types_text})"
        types = types_text(summary.page_types[index.row()])
        advice = self.advice(page)[1]
        return f"{self._result.pages[page].path}\n{types}" + (f"; {advice}" if advice else "")

    def summaries(self) -> list[ClusterSummary]:
        """The clusters shown, in row order (list[ClusterSummary])."""
        return self._summaries

    def cluster_index(self, cluster_id: int) -> QModelIndex:
        """The top-level index of cluster ``cluster_id`` (invalid if there is no such cluster)."""
        row = self._row_of_cluster.get(cluster_id)
        return QModelIndex() if row is None else self.index(row, 0)

    def cluster_at(self, index: _Index) -> ClusterSummary | None:
        """The cluster of a cluster row or of a page row, or ``None`` for an invalid index."""
        if not index.isValid():
            return None
        parent = index.internalId()
        return self._summaries[index.row() if parent == _TOP else parent - 1]

    def page_at(self, index: _Index) -> int | None:
        """The page index (into ``result.pages``) of a page row, ``None`` for a cluster row."""
        if not index.isValid() or index.internalId() == _TOP:
            return None
        return self._summaries[index.internalId() - 1].cluster.pages[index.row()]

    # --- QAbstractItemModel -------------------------------------------------------------------

    def group_count(self) -> int:
        """Number of top-level rows (int)."""
        return len(self._summaries)

    def member_count(self, group_row: int) -> int:
        """Number of page rows under top-level row ``group_row`` (int)."""
        return len(self._summaries[group_row].cluster.pages)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Text of cluster and page rows, a colour square for clusters, right-aligned counts."""
        if not index.isValid():
            return None
        summary = self.cluster_at(index)
        page = self.page_at(index)
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if page is None:
                title, count = self.title(summary), f"{len(summary.cluster.pages):,}"
                return (title, count, self.drop_text(summary.cluster.id))[col]
            if col == 0:  # the part of the path that tells the cluster's pages apart
                paths = tuple(self._result.pages[i].path for i in summary.cluster.pages)
                return show_control_characters(cluster_labels(paths)[index.row()])  # a path is untrusted
            return self.advice(page)[0] if col == 2 else ""
        if role == Qt.ItemDataRole.ToolTipRole and page is not None and col in (0, 2):
            return plain_tooltip(self._result.pages[page].path) if col == 0 else self.advice(page)[1] or None
        if role == Qt.ItemDataRole.ToolTipRole and page is None:  # no page-derived text in tooltips
            pages, pairs = len(summary.cluster.pages), summary.pair_count
            drops = self._drops.get(summary.cluster.id, 0)
            advice = (
                f"{drops:,} to drop (full or content duplicates of a page kept)"
                if drops
                else "nothing to drop (no page is a full or content duplicate of another)"
            )
            return f"{summary.title}: {pages:,} pages, {pairs:,} duplicate pairs ({summary.types_text}); {advice}"
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and page is None and summary.main_type:
            return QColor(TYPE_COLORS[summary.main_type])
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
