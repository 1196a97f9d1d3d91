"""Group duplicate pages into clusters with union-find (disjoint-set forest, Tarjan 1975)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .model import Cluster, DupType, Pair


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
    """Clusters of pages joined by non-distinct pairs.

    Args:
        n_pages: number of pages (indices ``0..n_pages-1``).
        pairs: classified pairs.

    Returns:
        Clusters of two or more pages, largest first (ties by smallest page index), numbered
        from 1, each with the set of duplicate types of the pairs inside it.
    """
    uf = UnionFind(n_pages)
    dup_pairs = [p for p in pairs if p.type is not DupType.DISTINCT]
    for p in dup_pairs:
        uf.union(p.left, p.right)
    members: dict[int, list[int]] = defaultdict(list)
    for p in dup_pairs:
        members[uf.find(p.left)]  # register the root
    for i in range(n_pages):
        root = uf.find(i)
        if root in members:
            members[root].append(i)
    types: dict[int, set[DupType]] = defaultdict(set)
    for p in dup_pairs:
        types[uf.find(p.left)].add(p.type)
    groups = sorted(members.items(), key=lambda kv: (-len(kv[1]), kv[1][0]))
    return [
        Cluster(id=i, pages=tuple(pages), types=frozenset(types[root]))
        for i, (root, pages) in enumerate(groups, start=1)
    ]
