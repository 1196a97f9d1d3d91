"""The pairs the user marked "not a duplicate" (dupeGuru's ignore list), as a scan's pages and
pair rows.

The list itself is :attr:`~dedup_gui.core.model.ScanResult.not_duplicates` (page paths, so it
outlives a rescan).  :func:`~dedup_gui.core.pipeline.classify.reclassify` makes each measured
pair of it ``DISTINCT`` with :attr:`~dedup_gui.core.model.Pair.not_duplicate` set, under any
thresholds; :func:`~dedup_gui.core.pipeline.keep_clusters.build_keep_clusters` never puts its
two pages in one keep cluster, not even when their bytes or main texts are identical: the
user's word is taken over the measure.
"""

from __future__ import annotations

import numpy as np

from dedup_gui.core.columns import PairColumns, pair_columns
from dedup_gui.core.model import ScanResult

#: Why a marked pair is distinct, in the words the views and reports show.
NOT_DUPLICATE_REASON = "marked not a duplicate by you"


def marked_page_pairs(result: ScanResult) -> list[tuple[int, int]]:
    """The marked pairs whose two paths are pages of ``result``, as page indices.

    Returns:
        ``(i, j)`` with ``i < j`` (indices into ``result.pages``), in the list's order
        (list[tuple[int, int]]); paths that are no page of the scan are left out.
    """
    if not result.not_duplicates:
        return []
    index = {page.path: i for i, page in enumerate(result.pages)}
    out = []
    for a, b in result.not_duplicates:
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and i != j:
            out.append((min(i, j), max(i, j)))
    return out


def marked_rows(result: ScanResult, columns: PairColumns) -> np.ndarray:
    """Which pairs of ``result`` (rows of ``columns``, its pair columns) are marked.

    Returns:
        ``np.bool_`` array of shape (pairs,).
    """
    marked = marked_page_pairs(result)
    if not marked or not columns.n:
        return np.zeros(columns.n, dtype=np.bool_)
    n = len(result.pages)
    left, right = columns.left.astype(np.int64), columns.right.astype(np.int64)
    keys = np.minimum(left, right) * n + np.maximum(left, right)  # order-free, as the list
    wanted = np.fromiter((i * n + j for i, j in marked), np.int64, len(marked))
    return np.isin(keys, wanted)


def marks_applied(result: ScanResult) -> bool:
    """Whether ``result``'s pair types follow its ignore list: exactly the pairs of
    :attr:`~dedup_gui.core.model.ScanResult.not_duplicates` carry the mark (bool).  A result
    given a new list without re-classification (the window's scan result, between a mark and
    the next re-classification) does not."""
    columns = pair_columns(result)
    return bool(np.array_equal(columns.not_duplicate, marked_rows(result, columns)))
