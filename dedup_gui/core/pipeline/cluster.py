"""Group duplicate pages into clusters with union-find (disjoint-set forest, Tarjan 1975)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from dedup_gui.core.columns import DISTINCT_CODE, PairColumns
from dedup_gui.core.model import TYPE_ORDER, Cluster, DupType, Pair


class UnionFind:
    """Disjoint sets over ``0..n-1`` with path halving and union by size.

    Args:
        n: number of elements.

    Example:
        >>> uf = UnionFind(4); uf.union(0, 2); uf.find(2) == uf.find(0), uf.find(1) == uf.find(0)
        (True, False)
    """

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x: int) -> int:
        """Return the representative of ``x``'s set (int)."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        """Merge the sets of ``a`` and ``b``."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]


def build_clusters(n_pages: int, pairs: Iterable[Pair]) -> list[Cluster]:
    """Clusters of pages joined by non-distinct pairs (union-find over the duplicate pairs; the
    pairs' fields are read into NumPy arrays first, so that a million pairs take about a second).

    Args:
        n_pages: number of pages (indices ``0..n_pages-1``).
        pairs: classified pairs.

    Returns:
        Clusters of two or more pages, largest first (ties by smallest page index), numbered
        from 1, each with the set of duplicate types of the pairs inside it.
    """
    columns = PairColumns(pairs if isinstance(pairs, Sequence) else list(pairs))
    code = columns.type_code
    dup = np.flatnonzero(code != DISTINCT_CODE)
    if not len(dup) or not n_pages:
        return []
    left, right = columns.left[dup], columns.right[dup]
    uf = UnionFind(n_pages)
    for a, b in zip(left.tolist(), right.tolist()):
        uf.union(a, b)
    roots = np.fromiter(map(uf.find, range(n_pages)), np.int64, n_pages)
    _, labels = np.unique(roots, return_inverse=True)
    count = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=count)
    order = np.argsort(labels, kind="stable")  # pages of each component, ascending
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    first = order[starts]  # the smallest page of each component
    multi = np.flatnonzero(sizes >= 2)
    multi = multi[np.lexsort((first[multi], -sizes[multi]))]
    kinds = np.unique(labels[left].astype(np.int64) * len(TYPE_ORDER) + code[dup])
    types: dict[int, set[DupType]] = {}
    for key in kinds.tolist():
        types.setdefault(key // len(TYPE_ORDER), set()).add(TYPE_ORDER[key % len(TYPE_ORDER)])
    return [
        Cluster(id=i, pages=tuple(order[starts[c] : starts[c] + sizes[c]].tolist()), types=frozenset(types[c]))
        for i, c in enumerate(multi.tolist(), start=1)
    ]
