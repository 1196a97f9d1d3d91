"""The pages table's duplicate columns, as Screaming Frog's "Near Duplicates" report has them,
without Qt: per page, the number of its duplicate pairs ("No. Near Duplicates"), its closest
match (the highest content similarity to any other page, and that page: "Closest Similarity
Match"), what the keep clusters say of it (kept, or a duplicate of the page kept), and whether
the canonical address it states points to the page kept for it (Ahrefs' "good" and "bad"
duplicates, :mod:`dedup_gui.core.pipeline.canonical`).

Source of the columns: Screaming Frog SEO Spider, "Content > Near Duplicates" (user guide,
"Duplicate content"); the keep advice is :mod:`dedup_gui.core.pipeline.keep_clusters`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dedup_gui.core.columns import DISTINCT_CODE, pair_columns
from dedup_gui.core.model import ScanResult
from dedup_gui.core.pipeline.canonical import CanonicalStatus, canonical_status
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of

#: :attr:`PageKeepColumns.kept_page` of a page in no keep cluster.
NOT_IN_KEEP_CLUSTER = -1


@dataclass(frozen=True)
class PageKeepColumns:
    """The duplicate columns of every page of a scan (arrays of shape (pages,)).

    Attributes:
        near_duplicates: number of the page's pairs that are duplicates of any type (``int64``).
        closest_similarity: the highest content similarity of the page's scored pairs
            (``float64``, 0..1), -1.0 for a page in no pair.
        closest_page: the other page of that pair (``int64``, index into ``result.pages``),
            -1 for none; of pairs equally similar, the first in the result's order.
        kept_page: the page kept in the page's keep cluster (itself for a kept page), or
            :data:`NOT_IN_KEEP_CLUSTER` (``int64``).
    """

    near_duplicates: np.ndarray
    closest_similarity: np.ndarray
    closest_page: np.ndarray
    kept_page: np.ndarray


def page_keep_columns(result: ScanResult) -> PageKeepColumns:
    """The :class:`PageKeepColumns` of ``result``'s pages (one NumPy pass over the pairs; the
    keep clusters are :func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`'s).

    Returns:
        :class:`PageKeepColumns`.
    """
    n = len(result.pages)
    near = np.zeros(n, dtype=np.int64)
    best = np.full(n, -1.0)
    other = np.full(n, -1, dtype=np.int64)
    kept = np.full(n, NOT_IN_KEEP_CLUSTER, dtype=np.int64)
    if result.pairs:
        columns = pair_columns(result)
        left, right = columns.left.astype(np.int64), columns.right.astype(np.int64)
        duplicate = columns.type_code != DISTINCT_CODE
        near += np.bincount(left[duplicate], minlength=n) + np.bincount(right[duplicate], minlength=n)
        pages = np.concatenate([left, right])
        others = np.concatenate([right, left])
        similarity = np.tile(columns.content_similarity.astype(np.float64), 2)
        order = np.tile(np.arange(len(left)), 2)
        # per page: highest similarity first, then the earliest pair
        sort = np.lexsort((order, -similarity, pages))
        pages, others, similarity = pages[sort], others[sort], similarity[sort]
        head = np.r_[True, pages[1:] != pages[:-1]]
        best[pages[head]] = similarity[head]
        other[pages[head]] = others[head]
    for cluster in keep_clusters_of(result):
        kept[list(cluster.pages)] = cluster.keep
    return PageKeepColumns(near, best, other, kept)


#: The "Keep" cell of a page with layout or partial duplicates only: kept, nothing to drop.
NO_STRONG_DUPLICATE = "kept (no full or content duplicate)"


def keep_text(result: ScanResult, columns: PageKeepColumns, page: int) -> str:
    """The "Keep" cell of page ``page``: ``"kept"``, ``"duplicate of <path of the kept page>"``,
    ``"kept (no full or content duplicate)"`` for a page whose duplicates are all layout or
    partial ones (nothing to drop: a blank read as missing data), or ``""`` for a page with no
    duplicate (str)."""
    kept = int(columns.kept_page[page])
    if kept == NOT_IN_KEEP_CLUSTER:
        return NO_STRONG_DUPLICATE if columns.near_duplicates[page] else ""
    return "kept" if kept == page else f"duplicate of {result.pages[kept].path}"


def closest_text(result: ScanResult, columns: PageKeepColumns, page: int) -> str:
    """The "Closest match" cell of page ``page``: e.g. ``"0.953 site/a.html"`` (the similarity
    with 3 decimals, then the other page's path), ``""`` for a page in no pair (str)."""
    other = int(columns.closest_page[page])
    if other < 0:
        return ""
    return f"{columns.closest_similarity[page]:.3f} {result.pages[other].path}"


def page_canonical(result: ScanResult, columns: PageKeepColumns, page: int) -> CanonicalStatus:
    """What page ``page``'s stated canonical says of the page kept for it (itself when it is
    kept or in no keep cluster): :func:`~dedup_gui.core.pipeline.canonical.canonical_status`.

    Returns:
        :class:`~dedup_gui.core.pipeline.canonical.CanonicalStatus`, whose ``status`` is the
        "Canonical" cell: ``"good"``, ``"bad"``, ``"none"`` or ``"malformed"``.
    """
    kept = int(columns.kept_page[page])
    return canonical_status(result, page, page if kept == NOT_IN_KEEP_CLUSTER else kept)
