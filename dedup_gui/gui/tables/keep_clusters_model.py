"""The keep clusters as a tree: each keep cluster (with the rule that chose its page to keep),
then its kept page (first, in bold, marked "kept") and the pages to drop for it.

A keep cluster (:mod:`dedup_gui.core.pipeline.keep_clusters`) is a page to keep and its full or
content duplicates; unlike the near-duplicate groups, it says what to do.  The user's "Keep this
page instead" changes the result's keep policy; the window then gives this model the new result.
Page paths are plain data.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from dedup_gui.core.model import ScanResult
from dedup_gui.core.pipeline.keep_clusters import (
    IDENTICAL_BYTES,
    IDENTICAL_TEXT,
    LINK_NOTE,
    NEAR_COPY,
    KeepCluster,
    keep_clusters_of,
    link_relation,
    link_short,
)
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.cluster_span import cluster_span
from dedup_gui.core.views.keep_columns import keep_cluster_document, keep_cluster_title, span_suffix
from dedup_gui.core.views.paths import compact_member_labels, member_labels
from dedup_gui.gui.elide import COMPACT_LABEL_ROLE, TITLE_PATH_ROLE
from dedup_gui.gui.plain import plain_tooltip
from dedup_gui.gui.tables.tree_model import TOP as _TOP
from dedup_gui.gui.tables.tree_model import GroupTreeModel

_Index = QModelIndex | QPersistentModelIndex


class KeepClustersModel(GroupTreeModel):
    """Two-level model: keep clusters, then each one's pages, the kept page first.

    Columns: "Keep cluster / page" (``#<id> <document>``, :func:`keep_cluster_title`, and for a
    document with several keep clusters the folders each holds, ``" in v1.10.x–v1.13.x"``; the
    rule that chose in its tooltip; a page row shows what tells it from the others,
    :func:`~dedup_gui.core.views.paths.member_labels`, its whole path in its tooltip), "Pages" (a keep cluster's page
    count), "Duplicate" (how a dropped page duplicates the kept one: ``full``, ``content``,
    ``full``, ``identical``...: :func:`link_short`, the first word of the reports' words), "Keep" (``drop <n>`` for a keep cluster;
    ``kept`` for its kept page, ``drop`` for the others).  The kept page's row is bold.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS = ("Keep cluster / page", "Pages", "Duplicate", "Keep")
    #: What each column's values are (the header's tooltip).
    HEADER_TIPS = ("A keep cluster (its rule), then its pages: the kept one first", "Pages in the keep cluster",
                   LINK_NOTE,
                   "kept, or drop (with the keep cluster's count of pages to drop)")  # fmt: skip

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._clusters: list[KeepCluster] = []
        self._row_of_cluster: dict[int, int] = {}
        self._of_page: dict[int, KeepCluster] = {}
        self._documents: Counter[str] = Counter()  # keep clusters per document
        self._document_of: dict[int, str] = {}  # keep cluster id -> its document, remembered
        self._bold = QFont()
        self._bold.setBold(True)

    def set_result(self, result: ScanResult | None) -> None:
        """Show the keep clusters of ``result`` (none for ``None``)."""
        self.beginResetModel()
        self._result = result
        self._clusters = [] if result is None else keep_clusters_of(result)
        self._row_of_cluster = {k.id: row for row, k in enumerate(self._clusters)}
        self._of_page = {i: k for k in self._clusters for i in k.pages}
        self._document_of = {}
        self._document_of = {k.id: self.document(k) for k in self._clusters}
        self._documents = Counter(self._document_of.values())
        self.endResetModel()

    def clusters(self) -> list[KeepCluster]:
        """The keep clusters shown, in row order (list[KeepCluster])."""
        return self._clusters

    def keep_cluster_of(self, page: int) -> KeepCluster | None:
        """The keep cluster holding page ``page`` (index into ``result.pages``), or ``None``."""
        return self._of_page.get(page)

    @staticmethod
    def rows_of(cluster: KeepCluster) -> tuple[int, ...]:
        """A keep cluster's pages in row order: the kept page, then the dropped ones (ascending)."""
        return (cluster.keep, *cluster.duplicates)

    def cluster_index(self, keep_id: int) -> QModelIndex:
        """The top-level index of keep cluster ``keep_id`` (invalid if there is none)."""
        row = self._row_of_cluster.get(keep_id)
        return QModelIndex() if row is None else self.index(row, 0)

    def page_index(self, page: int) -> QModelIndex:
        """The row of page ``page`` under its keep cluster (invalid if it is in none)."""
        cluster = self._of_page.get(page)
        if cluster is None:
            return QModelIndex()
        return self.index(self.rows_of(cluster).index(page), 0, self.cluster_index(cluster.id))

    def cluster_at(self, index: _Index) -> KeepCluster | None:
        """The keep cluster of a cluster row or of a page row, or ``None`` for an invalid index."""
        if not index.isValid():
            return None
        parent = index.internalId()
        return self._clusters[index.row() if parent == _TOP else parent - 1]

    def page_at(self, index: _Index) -> int | None:
        """The page index (into ``result.pages``) of a page row, ``None`` for a cluster row."""
        if not index.isValid() or index.internalId() == _TOP:
            return None
        return self.rows_of(self._clusters[index.internalId() - 1])[index.row()]

    def widest_texts(self) -> dict[int, set[str]]:
        """About the widest texts of the "Pages", "Duplicate" and "Keep" columns, by column (for
        sizing them without asking every row)."""
        return {
            1: {f"{len(k.pages):,}" for k in self._clusters},
            2: {link_short(link) for link in ("full", "content", IDENTICAL_BYTES, IDENTICAL_TEXT, NEAR_COPY)},
            3: {"kept"} | {f"drop {len(k.duplicates):,}" for k in self._clusters},
        }

    def details(self, index: _Index) -> str:
        """What a row says in full, for the line under the tree (plain text, may hold a path;
        ``""`` for no row): a keep cluster and the rule that chose its page to keep, or a
        page's whole path and what to do with it."""
        cluster = self.cluster_at(index)
        if cluster is None or self._result is None:
            return ""
        page = self.page_at(index)
        drops = len(cluster.duplicates)
        if page is None:
            return (f"Keep cluster {cluster.id}: {self.document(cluster)}{self.span_suffix(cluster)}\nkeep 1 page, "
                    f"drop {drops:,} "
                    f"(the page to keep was chosen by: {cluster.reason})")  # fmt: skip
        path = self._result.pages[page].path
        if page == cluster.keep:
            return f"{path}\nkept: the page to keep of keep cluster {cluster.id} (chosen by: {cluster.reason})"
        link = cluster.links[cluster.duplicates.index(page)]
        kept = self._result.pages[cluster.keep].path
        return f"{path}\ndrop: {link_relation(link)} {kept}, which is kept\n{cluster.row_reason(page)}"

    # --- QAbstractItemModel -------------------------------------------------------------------

    def group_count(self) -> int:
        """Number of top-level rows (int)."""
        return len(self._clusters)

    def member_count(self, group_row: int) -> int:
        """Number of page rows under top-level row ``group_row`` (int)."""
        return len(self._clusters[group_row].pages)

    def _page_text(self, cluster: KeepCluster, page: int, col: int) -> str:
        if col == 0:  # the part of the path that tells the cluster's pages apart
            rows = self.rows_of(cluster)
            return member_labels(self._paths(cluster))[rows.index(page)]
        if page == cluster.keep:
            return "kept" if col == 3 else ""
        if col == 2:
            link = cluster.links[cluster.duplicates.index(page)]
            return link_short(link)  # the reports' words, shortened (a user read "same text" here)
        return "drop" if col == 3 else ""

    def _paths(self, cluster: KeepCluster) -> tuple[str, ...]:
        """The cluster's page paths in row order (the kept page first)."""
        pages = self._result.pages if self._result is not None else []
        return tuple(pages[i].path for i in self.rows_of(cluster))

    def document(self, cluster: KeepCluster) -> str:
        """The document a keep cluster is about (:func:`keep_cluster_document`) (str)."""
        known = self._document_of.get(cluster.id)
        if known is not None:
            return known
        return keep_cluster_document(self._paths(cluster), 0) if self._result is not None else ""

    def span(self, cluster: KeepCluster) -> str:
        """The folders a keep cluster's pages lie in
        (:func:`~dedup_gui.core.views.cluster_span.cluster_span`; ``""`` for none) (str)."""
        return cluster_span(self._paths(cluster)) if self._result is not None else ""

    def span_suffix(self, cluster: KeepCluster, in_title: bool = False) -> str:
        """What tells a keep cluster from others of its document, as its title ends
        (:func:`~dedup_gui.core.views.keep_columns.span_suffix` of :meth:`span`; ``""`` for
        none).  With ``in_title``, only for a document that has other keep clusters: a title
        that names a document alone is short enough to read whole in a narrow panel (str)."""
        if in_title and self._documents[self.document(cluster)] < 2:
            return ""
        return span_suffix(self.span(cluster))

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Text of keep cluster and page rows, bold for kept pages, right-aligned counts."""
        if not index.isValid():
            return None
        cluster = self.cluster_at(index)
        page = self.page_at(index)
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if page is None:
                span = self.span(cluster) if self._documents[self.document(cluster)] > 1 else ""
                title = show_control_characters(keep_cluster_title(cluster.id, self.document(cluster), span))
                return (title, f"{len(cluster.pages):,}", "", f"drop {len(cluster.duplicates):,}")[col]
            return show_control_characters(self._page_text(cluster, page, col))  # a path is untrusted
        if role == Qt.ItemDataRole.FontRole and page is not None and page == cluster.keep:
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole and col == 0 and page is not None and self._result is not None:
            return plain_tooltip(self._result.pages[page].path)  # the whole path, as plain text
        if role == TITLE_PATH_ROLE and page is None and col == 0:
            suffix = show_control_characters(self.span_suffix(cluster, in_title=True))
            return f"#{cluster.id} ", show_control_characters(self.document(cluster)), suffix
        if role == COMPACT_LABEL_ROLE and page is not None and col == 0:  # "…10.x/zh/" in a narrow panel
            labels = compact_member_labels(member_labels(self._paths(cluster)))
            return show_control_characters(labels[self.rows_of(cluster).index(page)])
        if role == Qt.ItemDataRole.ToolTipRole and page is None:  # the whole title, in a narrow panel too
            return plain_tooltip(f"Keep cluster {cluster.id}: {self.document(cluster)}{self.span_suffix(cluster)}\n"
                                 f"keep 1 page, drop "
                                 f"{len(cluster.duplicates):,} (decided by: {cluster.reason})")  # fmt: skip
        if role == Qt.ItemDataRole.ToolTipRole and col != 0:  # no other page-derived text in tooltips
            if page == cluster.keep:
                return f"The page to keep ({cluster.reason} decided); right-click another page to keep it instead"
            link = cluster.links[cluster.duplicates.index(page)]
            return f"A page to drop: {link_relation(link)} the page kept ({cluster.row_reason(page)})"
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
