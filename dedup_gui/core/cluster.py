"""Group duplicate pages into clusters: connected components of the duplicate pairs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .model import TYPE_ORDER, Cluster, DupType, Pair

_CODE_OF_VALUE = {t.value: i for i, t in enumerate(TYPE_ORDER)}


def build_clusters(n_pages: int, pairs: Iterable[Pair]) -> list[Cluster]:
    """Clusters of pages joined by non-distinct pairs: the connected components of the graph
    whose edges are the duplicate pairs (SciPy's ``csgraph.connected_components``, so that a
    million pairs take a fraction of a second).

    Args:
        n_pages: number of pages (indices ``0..n_pages-1``).
        pairs: classified pairs.

    Returns:
        Clusters of two or more pages, largest first (ties by smallest page index), numbered
        from 1, each with the set of duplicate types of the pairs inside it.
    """
    pairs = pairs if isinstance(pairs, Sequence) else list(pairs)
    n = len(pairs)
    code = np.fromiter(map(_CODE_OF_VALUE.__getitem__, map(attrgetter("type._value_"), pairs)), np.int8, n)
    dup = np.flatnonzero(code != _CODE_OF_VALUE[DupType.DISTINCT.value])
    if not len(dup) or not n_pages:
        return []
    left = np.fromiter(map(attrgetter("left"), pairs), np.int64, n)[dup]
    right = np.fromiter(map(attrgetter("right"), pairs), np.int64, n)[dup]
    graph = coo_matrix((np.ones(len(dup), dtype=np.int8), (left, right)), shape=(n_pages, n_pages))
    count, labels = connected_components(graph, directed=False)
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
