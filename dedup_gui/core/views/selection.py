"""Navigating a scan's results: the pairs at a Hamming distance, the pairs and pages of a cluster,
the chart point under the pointer, and the words the views show for them.

Pure functions over :class:`~dedup_gui.core.model.ScanResult` records (no Qt): the window's
histogram, content/layout map, cluster tree and tables call them, so this logic is tested
without a screen.  Pairs and pages are named by their index in ``result.pairs`` and
``result.pages``; re-classification (:func:`dedup_gui.core.pipeline.classify.reclassify`) keeps both
orders, so an index names the same pair before and after a threshold change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from dedup_gui.core.columns import DISTINCT_CODE, NO_CLUSTER, page_clusters, pair_columns
from dedup_gui.core.fingerprints.simhash import bits_text
from dedup_gui.core.model import TYPE_ORDER, Cluster, DupType, ScanResult

#: Bits of a SimHash fingerprint: Hamming distances run from 0 to 64.
BITS = 64


def distance_at(x: float | None) -> int | None:
    """The Hamming distance whose histogram bar is centred nearest ``x``.

    Args:
        x: a horizontal data coordinate of the histogram (bars are centred on 0..64), or
            ``None`` (a click outside the axes).

    Returns:
        The distance in bits (int, 0..64), or ``None`` when ``x`` is outside every bar's column.

    Example:
        >>> distance_at(3.4), distance_at(-0.2), distance_at(64.6), distance_at(None)
        (3, 0, None, None)
    """
    if x is None or not np.isfinite(x) or not -0.5 <= x < BITS + 0.5:
        return None
    return min(BITS, max(0, int(np.floor(x + 0.5))))


def pairs_at_distance(result: ScanResult, distance: int) -> list[int]:
    """Indices of the scored pairs whose SimHashes differ in exactly ``distance`` bits.

    Args:
        result: a scan.
        distance: Hamming distance in bits (0..64).

    Returns:
        Indices into ``result.pairs`` (list[int], ascending).
    """
    if not result.pairs:
        return []
    return np.flatnonzero(pair_columns(result).hamming_distance == distance).tolist()


def cluster_pairs(result: ScanResult, cluster: Cluster) -> list[int]:
    """Indices of the scored pairs with both pages in ``cluster`` (its duplicate pairs, and any
    distinct pair between two of its pages).

    Returns:
        Indices into ``result.pairs`` (list[int], ascending).
    """
    if not result.pairs:
        return []
    members = np.zeros(len(result.pages), dtype=np.bool_)
    members[list(cluster.pages)] = True
    columns = pair_columns(result)
    return np.flatnonzero(members[columns.left] & members[columns.right]).tolist()


def pair_cluster(result: ScanResult, index: int, cluster_of: dict[int, int] | None = None) -> int | None:
    """The id of the cluster that holds both pages of pair ``index``, or ``None``.

    Args:
        result: a scan.
        index: index into ``result.pairs``.
        cluster_of: ``result.cluster_of()``, if the caller already has it (saves a pass).

    Returns:
        The cluster id (int), or ``None`` when the pages are not in one cluster.
    """
    cluster_of = result.cluster_of() if cluster_of is None else cluster_of
    pair = result.pairs[index]
    cluster = cluster_of.get(pair.left)
    return cluster if cluster is not None and cluster == cluster_of.get(pair.right) else None


def first_pair_of_page(result: ScanResult, page: int, among: Iterable[int] | None = None) -> int | None:
    """The first pair (in the result's order: most similar first) that includes page ``page``.

    Args:
        result: a scan.
        page: index into ``result.pages``.
        among: only consider these pair indices (e.g. a cluster's pairs); ``None`` = all.

    Returns:
        An index into ``result.pairs`` (int), or ``None`` when no pair includes the page.
    """
    if not result.pairs:
        return None
    columns = pair_columns(result)
    if among is None:
        hits = np.flatnonzero((columns.left == page) | (columns.right == page))
    else:
        indices = np.fromiter(among, np.int64)
        hits = indices[(columns.left[indices] == page) | (columns.right[indices] == page)]
    return int(hits.min()) if len(hits) else None


def types_text(types: Iterable[DupType], short: bool = False) -> str:
    """Name duplicate types in :data:`~dedup_gui.core.model.TYPE_ORDER`, e.g.
    ``"full duplicate, layout duplicate"``, or ``"full, layout"`` if ``short`` (str; ``""`` for
    none)."""
    present = set(types)
    return ", ".join(t.value if short else t.label for t in TYPE_ORDER if t in present)


@dataclass(frozen=True)
class ClusterSummary:
    """One cluster as the cluster tree shows it.

    Attributes:
        cluster: the :class:`~dedup_gui.core.model.Cluster`.
        pair_count: duplicate (non-distinct) pairs inside the cluster (int).
        page_types: for each page of ``cluster.pages`` (same order), the types of its duplicate
            pairs inside the cluster (tuple of frozensets).
    """

    cluster: Cluster
    pair_count: int
    page_types: tuple[frozenset[DupType], ...]

    @property
    def title(self) -> str:
        """``"Group 3"``: a near-duplicate group (str)."""
        return f"Group {self.cluster.id}"

    @property
    def types_text(self) -> str:
        """The cluster's duplicate types in words (str), see :func:`types_text`."""
        return types_text(self.cluster.types)

    @property
    def short_types_text(self) -> str:
        """The cluster's duplicate types in short words, e.g. ``"full, layout"`` (str)."""
        return types_text(self.cluster.types, short=True)

    @property
    def main_type(self) -> DupType | None:
        """The closest duplicate type inside the cluster (first in ``TYPE_ORDER``), or ``None``."""
        return next((t for t in TYPE_ORDER if t in self.cluster.types), None)


def cluster_summaries(result: ScanResult) -> list[ClusterSummary]:
    """Summarize every cluster of a scan: its pages, duplicate pairs and the types of each page.

    Array operations over the pairs (:mod:`dedup_gui.core.columns`), so it stays fast at a
    million pairs; then one step per page of a cluster.

    Returns:
        One :class:`ClusterSummary` per cluster, in the order of ``result.clusters``.
    """
    if not result.clusters:
        return []
    clusters = page_clusters(result)
    counts = np.zeros(max(c.id for c in result.clusters) + 1, dtype=np.int64)
    masks = np.zeros(len(result.pages), dtype=np.uint8)  # page -> bit set of its types
    if result.pairs:
        columns = pair_columns(result)
        left, right, codes = columns.left, columns.right, columns.type_code
        cluster = clusters[left]
        inside = (codes != DISTINCT_CODE) & (cluster != NO_CLUSTER) & (cluster == clusters[right])
        counts += np.bincount(cluster[inside], minlength=len(counts))
        bits = np.left_shift(1, codes[inside]).astype(np.uint8)  # bit i = TYPE_ORDER[i], as _TYPE_BIT
        np.bitwise_or.at(masks, left[inside], bits)
        np.bitwise_or.at(masks, right[inside], bits)
    page_masks = masks.tolist()
    return [
        ClusterSummary(c, int(counts[c.id]), tuple(_MASK_TYPES[page_masks[p]] for p in c.pages))
        for c in result.clusters
    ]


_TYPE_BIT = {t: 1 << i for i, t in enumerate(TYPE_ORDER)}
#: Every set of types, indexed by its bit set (shared, so 100,000 pages make no new sets).
_MASK_TYPES = tuple(frozenset(t for t, bit in _TYPE_BIT.items() if mask & bit) for mask in range(1 << len(TYPE_ORDER)))


def points_near(points: np.ndarray, x: float, y: float, radius: float) -> list[int]:
    """The points within ``radius`` of ``(x, y)``, nearest first (ties: lowest index first).

    Args:
        points: array of shape (n, 2), e.g. the map's points in screen pixels.
        x, y: the pointer, in the same units.
        radius: the largest distance that counts (same units).

    Returns:
        Row indices into ``points`` (list[int]).

    Example:
        >>> points_near(np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 0.0]]), 0.0, 0.0, 5.0)
        [0, 2, 1]
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if not len(pts):
        return []
    d2 = (pts[:, 0] - x) ** 2 + (pts[:, 1] - y) ** 2
    inside = np.flatnonzero(d2 <= radius * radius)
    return [int(i) for i in inside[np.argsort(d2[inside], kind="stable")]]


def nearest_point(points: np.ndarray, x: float, y: float, radius: float) -> int | None:
    """The point nearest ``(x, y)`` within ``radius`` (see :func:`points_near`), or ``None``."""
    near = points_near(points, x, y, radius)
    return near[0] if near else None


def pair_names(result: ScanResult, index: int) -> str:
    """The two file names of pair ``index``, one per line (str, plain text)."""
    pair = result.pairs[index]
    return f"{result.pages[pair.left].path}\n{result.pages[pair.right].path}"


def hover_text(result: ScanResult, indices: list[int], limit: int = 3) -> str:
    """What the map says about the pairs under the pointer: their file names and type.

    Args:
        result: a scan.
        indices: pair indices, nearest first (from :func:`points_near`).
        limit: pairs named at most; the rest are counted.

    Returns:
        Plain text (str), ``""`` for no pairs.
    """
    blocks = []
    for i in indices[:limit]:
        pair = result.pairs[i]
        blocks.append(f"{pair_names(result, i)}\n({pair.type.label})")
    if len(indices) > limit:
        blocks.append(f"… and {len(indices) - limit:,} more pairs here")
    return "\n".join(blocks)


def bar_text(all_pairs: np.ndarray, compared: np.ndarray, by_type: dict[DupType, np.ndarray], distance: int) -> str:
    """What the histogram says about one bar, e.g. ``"Hamming distance 6 bits: 78 pairs of pages,
    20 compared; 1 layout duplicate"`` (str, plain text).

    The bar counts every pair of pages, but only the candidate pairs were compared (and a click
    on the bar lists those), so both counts are said.

    Args:
        all_pairs: 65 counts of all pairs of pages (:func:`~dedup_gui.core.views.histogram.hamming_histogram`).
        compared: 65 counts of the compared pairs
            (:func:`~dedup_gui.core.columns.compared_counts_by_distance`).
        by_type: classified pairs per type and distance
            (:func:`~dedup_gui.core.views.histogram.type_counts_by_distance`).
        distance: the bar (bits).
    """
    n = int(all_pairs[distance]) if all_pairs is not None else 0
    m = int(compared[distance]) if compared is not None else 0
    head = f"Hamming distance {bits_text(distance)}: {n:,} pair{'s' if n != 1 else ''} of pages"
    parts = [head + (", none compared" if not m else ", all compared" if m == n else f", {m:,} compared")]
    typed = [f"{int(by_type[t][distance]):,} {t.label}" for t in TYPE_ORDER if t in by_type and by_type[t][distance]]
    if typed:
        parts.append(", ".join(typed))
    return "; ".join(parts)


def find_pair(result: ScanResult | None, left: str, right: str) -> int | None:
    """The index of the pair of the files ``left`` and ``right`` in ``result.pairs``, or ``None``.

    Args:
        result: a scan (or ``None``: no pair).
        left, right: paths relative to the scanned folder, in either order, with ``/`` or ``\\``.

    Returns:
        int | None.
    """
    if result is None:
        return None
    wanted = {left.replace("\\", "/"), right.replace("\\", "/")}
    for i, pair in enumerate(result.pairs):
        if {result.pages[pair.left].path, result.pages[pair.right].path} == wanted:
            return i
    return None
