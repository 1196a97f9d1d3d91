"""Columnar (NumPy) views of a scan's pairs and pages, for views that sort, filter, count or plot
up to millions of pairs.

A :class:`~dedup_gui.core.model.ScanResult` holds one :class:`~dedup_gui.core.model.Pair`
object per pair, which is right for showing one pair and slow for touching all of them: a
Python call per pair costs about a second per million pairs, per operation.  Here each field of
the pairs becomes one NumPy array, built once per result by a C-level pass over the objects
(``map`` + ``attrgetter``), so that sorting, filtering and counting are array operations.

Everything here is pure (no Qt) and keeps the result's order: position ``i`` of every column is
``result.pairs[i]``.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import chain
from operator import attrgetter

import numpy as np

from dedup_gui.core.model import TYPE_ORDER, DupType, ScanResult

#: The index of each type in :data:`~dedup_gui.core.model.TYPE_ORDER`: a pair's type code.
TYPE_CODE: dict[DupType, int] = {t: i for i, t in enumerate(TYPE_ORDER)}
#: The type code of distinct pairs (4).
DISTINCT_CODE = TYPE_CODE[DupType.DISTINCT]
#: "No cluster" in cluster-id arrays (cluster ids start at 1).
NO_CLUSTER = -1

_CODE_OF_VALUE = {t.value: i for t, i in TYPE_CODE.items()}
#: A run of ASCII digits: a number in a path (``page10.html``, ``crawl.warc.gz#1107``).
_DIGITS = re.compile(r"[0-9]+")


class PairColumns:
    """The pairs of a scan as NumPy columns; each column is built on first use.

    Every column has shape ``(n,)`` for ``n`` pairs, in the order of the pairs list.  Building a
    column is one C-level pass over the pair objects (about 0.05-0.1 s per million pairs); the
    columns are cached, so ask :func:`pair_columns` rather than building this class yourself.

    Args:
        pairs: the scan's pairs (``list[Pair]``); kept by reference, not copied.

    Attributes:
        left: first page of each pair (``np.int32``, indices into ``result.pages``).
        right: second page of each pair (``np.int32``).
        type_code: the pair's type as its index in ``TYPE_ORDER`` (``np.int8``, 0..4).
        content_similarity: ``np.float64``.
        content_containment: ``np.float64``.
        layout_similarity: ``np.float64``.
        hamming_distance: ``np.int64`` (bits, 0..64).
        jaccard: ``np.float64``.
        both_have_text: ``np.bool_``.
        identical_bytes: ``np.bool_``.
        templates_known: ``np.bool_``.
        not_duplicate: ``np.bool_``: the pair is marked "not a duplicate" by the user.
    """

    def __init__(self, pairs: Sequence) -> None:
        self._pairs = pairs
        self.n = len(pairs)

    def _column(self, getter, dtype) -> np.ndarray:
        return _gather(self._pairs, lambda part: map(getter, part), dtype)

    #: Every column's name.
    NAMES = ("left", "right", "type_code", "content_similarity", "content_containment", "layout_similarity",
             "hamming_distance", "jaccard", "both_have_text", "identical_bytes", "templates_known", "not_duplicate")  # fmt: skip

    def build_all(self) -> PairColumns:
        """Build every column now (e.g. in a worker thread, before a view needs them); returns
        ``self``."""
        for name in self.NAMES:
            getattr(self, name)
        return self

    @cached_property
    def _scores(self) -> list:
        get = attrgetter("scores")
        scores: list = []
        for start in range(0, self.n, GATHER_CHUNK):  # in parts, as _gather
            scores += map(get, self._pairs[start : start + GATHER_CHUNK])
        return scores

    def _score(self, name: str, dtype) -> np.ndarray:
        getter = attrgetter(name)
        return _gather(self._scores, lambda part: map(getter, part), dtype)

    @cached_property
    def left(self) -> np.ndarray:
        """First page of each pair (``np.int32``, shape (n,))."""
        return self._column(attrgetter("left"), np.int32)

    @cached_property
    def right(self) -> np.ndarray:
        """Second page of each pair (``np.int32``, shape (n,))."""
        return self._column(attrgetter("right"), np.int32)

    @cached_property
    def type_code(self) -> np.ndarray:
        """Each pair's type as its index in ``TYPE_ORDER`` (``np.int8``, shape (n,))."""
        # the enum's plain ``_value_`` attribute: hashing the enum itself is a Python-level call
        value = attrgetter("type._value_")
        return _gather(self._pairs, lambda part: map(_CODE_OF_VALUE.__getitem__, map(value, part)), np.int8)

    @cached_property
    def content_similarity(self) -> np.ndarray:
        """``np.float64``, shape (n,)."""
        return self._score("content_similarity", np.float64)

    @cached_property
    def content_containment(self) -> np.ndarray:
        """``np.float64``, shape (n,)."""
        return self._score("content_containment", np.float64)

    @cached_property
    def layout_similarity(self) -> np.ndarray:
        """``np.float64``, shape (n,)."""
        return self._score("layout_similarity", np.float64)

    @cached_property
    def hamming_distance(self) -> np.ndarray:
        """``np.int64`` bits, shape (n,)."""
        return self._score("hamming_distance", np.int64)

    @cached_property
    def jaccard(self) -> np.ndarray:
        """``np.float64``, shape (n,)."""
        return self._score("jaccard", np.float64)

    @cached_property
    def templates_known(self) -> np.ndarray:
        """``np.bool_``, shape (n,)."""
        return self._score("templates_known", np.bool_)

    @cached_property
    def both_have_text(self) -> np.ndarray:
        """``np.bool_``, shape (n,)."""
        return self._score("both_have_text", np.bool_)

    @cached_property
    def identical_bytes(self) -> np.ndarray:
        """``np.bool_``, shape (n,)."""
        return self._score("identical_bytes", np.bool_)

    @cached_property
    def not_duplicate(self) -> np.ndarray:
        """Whether the user marked each pair "not a duplicate" (``np.bool_``, shape (n,))."""
        return self._column(attrgetter("not_duplicate"), np.bool_)

    def with_types(
        self, pairs: Sequence, type_code: np.ndarray, not_duplicate: np.ndarray | None = None
    ) -> PairColumns:
        """Columns of ``pairs``, the same pairs as this object's with other types (a
        re-classification): the measure columns built here are shared, not rebuilt.

        Args:
            pairs: the re-typed pairs, in the same order.
            type_code: their type codes (``np.int8``, shape (n,)).
            not_duplicate: their "not a duplicate" marks (``np.bool_``, shape (n,)), or
                ``None`` to build the column from ``pairs`` when it is needed.

        Returns:
            A new :class:`PairColumns`.
        """
        out = PairColumns(pairs)
        shared = {k: v for k, v in self.__dict__.items() if k in self.NAMES or k == "_scores"}
        shared.pop("not_duplicate", None)
        out.__dict__.update(shared)
        out.__dict__["type_code"] = type_code
        if not_duplicate is not None:
            out.__dict__["not_duplicate"] = not_duplicate
        return out


# One PairColumns per live ScanResult, found by id and checked by a weak reference, so a result
# that is dropped takes its columns with it (a million pairs' columns are some 50 MB).
_CACHE: dict[int, tuple[weakref.ref, PairColumns]] = {}
_CACHE_LOCK = threading.RLock()  # re-entrant: a weakref callback may run inside pair_columns


#: Pairs read per C-level pass when a column is built.  A pass holds the GIL throughout (no
#: bytecode runs in ``np.fromiter(map(...))``), so in one pass over a million pairs the window's
#: thread waited 0.1-0.15 s; between passes it gets its turn.
GATHER_CHUNK = 65_536


def _gather(items: Sequence, values, dtype) -> np.ndarray:
    """``np.fromiter(values(items), dtype)``, built :data:`GATHER_CHUNK` items at a time.

    Args:
        items: a sequence that slices (a list of pairs or of scores).
        values: ``values(part)`` iterates the column's value of each item of ``part``.
        dtype: the column's NumPy dtype.

    Returns:
        ``np.ndarray`` of shape ``(len(items),)``.
    """
    out = np.empty(len(items), dtype)
    for start in range(0, len(items), GATHER_CHUNK):
        part = items[start : start + GATHER_CHUNK]
        out[start : start + len(part)] = np.fromiter(values(part), dtype, len(part))
    return out


def pair_columns(result: ScanResult, columns: PairColumns | None = None) -> PairColumns:
    """The :class:`PairColumns` of ``result``'s pairs, shared by every caller while ``result``
    lives (the columns themselves are built on first use).

    Args:
        result: a scan.
        columns: columns already made for ``result``'s pairs (see :meth:`PairColumns.with_types`)
            to register for it; ignored if it has some already.

    Returns:
        The result's :class:`PairColumns`.
    """
    key = id(result)
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is not None and entry[0]() is result:
            return entry[1]
        columns = columns if columns is not None else PairColumns(result.pairs)

        def forget(ref: weakref.ref, key: int = key) -> None:
            """Drop the entry when ``result`` dies (unless the id was reused meanwhile)."""
            with _CACHE_LOCK:
                if _CACHE.get(key, (None,))[0] is ref:
                    del _CACHE[key]

        _CACHE[key] = (weakref.ref(result, forget), columns)
        return columns


def page_clusters(result: ScanResult) -> np.ndarray:
    """The cluster id of every page, :data:`NO_CLUSTER` (-1) for pages in no cluster.

    Returns:
        ``np.int32`` array of shape (pages,).
    """
    out = np.full(len(result.pages), NO_CLUSTER, dtype=np.int32)
    if result.clusters:
        sizes = [len(c.pages) for c in result.clusters]
        members = np.fromiter(chain.from_iterable(c.pages for c in result.clusters), np.int64, sum(sizes))
        out[members] = np.repeat(np.array([c.id for c in result.clusters], dtype=np.int32), sizes)
    return out


def pair_clusters(result: ScanResult, clusters: np.ndarray | None = None) -> np.ndarray:
    """The cluster of every pair: the id of the cluster holding both its pages, else
    :data:`NO_CLUSTER` (-1).

    Args:
        result: a scan.
        clusters: :func:`page_clusters` of ``result``, if the caller has it already.

    Returns:
        ``np.int32`` array of shape (pairs,).
    """
    columns = pair_columns(result)
    clusters = page_clusters(result) if clusters is None else clusters
    left, right = clusters[columns.left], clusters[columns.right]
    return np.where(left == right, left, NO_CLUSTER).astype(np.int32, copy=False)


def text_ranks(keys: Iterable[str]) -> np.ndarray:
    """Sort ranks of strings: equal strings get equal ranks, and ``ranks[i] < ranks[j]`` exactly
    when ``keys[i] < keys[j]`` (Python's string order), so sorting by the ranks sorts the
    strings.  Fold the case first for a case-insensitive order.

    Args:
        keys: the strings (any iterable; consumed once).

    Returns:
        ``np.int64`` array, one rank per string, in ``0 .. distinct strings - 1``.

    Example:
        >>> text_ranks(["b", "a", "b", "c"]).tolist()
        [1, 0, 1, 2]
    """
    keys = list(keys)
    rank = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.fromiter(map(rank.__getitem__, keys), np.int64, len(keys))


def _number_key(match: re.Match) -> str:
    digits = match.group().lstrip("0")
    return f"{len(digits):03d}{digits}"  # the length first: a longer number is a larger one


def natural_key(text: str) -> str:
    """``text`` rewritten so that string order is natural order: each run of ASCII digits
    compares as the number it is (``#252`` before ``#1107``, ``page9`` before ``page10``),
    everything else as before, as file managers sort names (the "natural sort order" of
    ``natsort``; here one string per key, so sorting stays a C string comparison).

    Each digit run becomes its digit count (3 digits) then its digits without leading zeros;
    ``07`` and ``7`` compare equal.  Runs of over 999 digits compare as text.

    Args:
        text: the string (fold its case first for a case-insensitive order).

    Returns:
        The sort key (str).

    Example:
        >>> sorted(["a.warc.gz#1107", "a.warc.gz#252", "p10.html", "p9.html"], key=natural_key)
        ['a.warc.gz#252', 'a.warc.gz#1107', 'p9.html', 'p10.html']
    """
    return _DIGITS.sub(_number_key, text)


def natural_ranks(keys: Iterable[str]) -> np.ndarray:
    """:func:`text_ranks` in natural order (:func:`natural_key`): numbers in the strings
    compare as numbers.  For paths: ``crawl.warc.gz#252`` ranks before ``crawl.warc.gz#1107``.

    Args:
        keys: the strings (any iterable; consumed once).

    Returns:
        ``np.int64`` array, one rank per string.

    Example:
        >>> natural_ranks(["p10", "p9", "p10"]).tolist()
        [1, 0, 1]
    """
    return text_ranks(map(natural_key, keys))


def stable_argsort(keys: np.ndarray, descending: bool = False) -> np.ndarray:
    """The permutation that sorts ``keys``, ties in their original order in both directions.

    ``np.argsort(-keys)`` would not do for descending order: it fails on unsigned and boolean
    keys and on the lowest integer; reversing an ascending sort would put ties in reverse
    order.  Here a descending sort is an ascending stable sort of the reversed keys, read
    backwards.  NaN sorts last ascending, first descending.

    Args:
        keys: one-dimensional array of sort keys (any orderable dtype).
        descending: largest first.

    Returns:
        ``np.intp`` array of indices into ``keys``, shape ``keys.shape``.

    Example:
        >>> stable_argsort(np.array([2, 1, 2, 1]), descending=True).tolist()
        [0, 2, 1, 3]
    """
    keys = _narrow(np.asarray(keys))
    if not descending:
        return np.argsort(keys, kind="stable")
    last = len(keys) - 1
    return (last - np.argsort(keys[::-1], kind="stable"))[::-1]


def _narrow(keys: np.ndarray) -> np.ndarray:
    """Integer keys spanning fewer than 65,536 values as ``uint16`` offsets (same order): NumPy
    sorts 8- and 16-bit integers stably with a radix sort, 5-10 times faster than a merge sort
    (type codes, Hamming distances, text ranks of up to 65,536 distinct names)."""
    if keys.dtype.kind == "b":
        return keys.view(np.uint8)
    if keys.dtype.kind not in "iu" or keys.dtype.itemsize <= 2 or not len(keys):
        return keys
    low, high = int(keys.min()), int(keys.max())
    if high - low >= 1 << 16:
        return keys
    return (keys - keys.dtype.type(low)).astype(np.uint16)


def substring_mask(strings: Sequence[str], text: str) -> np.ndarray:
    """Which strings contain ``text`` (a plain substring test; fold the case of both first for a
    case-insensitive match).

    Args:
        strings: the strings, e.g. the case-folded paths of the pages.
        text: the substring; ``""`` matches every string.

    Returns:
        ``np.bool_`` array of shape ``(len(strings),)``.
    """
    if not text:
        return np.ones(len(strings), dtype=np.bool_)
    return np.fromiter((text in s for s in strings), np.bool_, len(strings))


def distance_counts_by_type(result: ScanResult, bits: int = 64) -> dict[DupType, np.ndarray]:
    """For each duplicate type, how many classified pairs lie at each Hamming distance: the
    counts behind :func:`dedup_gui.core.views.histogram.type_counts_by_distance` (distinct pairs and
    pairs involving a page without text are left out), from the pair columns in one
    ``np.bincount`` instead of a Python step per pair.

    Args:
        result: a scan.
        bits: the fingerprints' width; distances run from 0 to ``bits``.

    Returns:
        ``{type: np.int64 array of bits + 1 counts}`` for the four duplicate types.
    """
    out: dict[DupType, np.ndarray] = {
        t: np.zeros(bits + 1, dtype=np.int64) for t in TYPE_ORDER if t is not DupType.DISTINCT
    }
    if not result.pairs:
        return out
    columns = pair_columns(result)
    codes = columns.type_code
    kept = (codes != DISTINCT_CODE) & columns.both_have_text
    flat = codes[kept].astype(np.int64) * (bits + 1) + columns.hamming_distance[kept]
    counts = np.bincount(flat, minlength=len(TYPE_ORDER) * (bits + 1)).reshape(len(TYPE_ORDER), bits + 1)
    for t in out:
        out[t] = counts[TYPE_CODE[t]].astype(np.int64)
    return out


def compared_counts_by_distance(result: ScanResult, bits: int = 64) -> np.ndarray:
    """How many scored (compared) pairs lie at each Hamming distance, whatever their type: the
    pairs a histogram bar's click lists (:func:`dedup_gui.core.views.selection.pairs_at_distance`),
    where the histogram's bars count every pair of pages.

    Args:
        result: a scan.
        bits: the fingerprints' width; distances run from 0 to ``bits``.

    Returns:
        np.int64 array of ``bits + 1`` counts.
    """
    if not result.pairs:
        return np.zeros(bits + 1, dtype=np.int64)
    return np.bincount(pair_columns(result).hamming_distance, minlength=bits + 1)[: bits + 1].astype(np.int64)


def type_counts(result: ScanResult) -> dict[DupType, int]:
    """Number of pairs of each type in ``result``, in :data:`~dedup_gui.core.model.TYPE_ORDER`
    order (dict[DupType, int]; one C pass over the type column)."""
    counts = np.bincount(pair_columns(result).type_code, minlength=len(TYPE_ORDER)) if result.pairs else ()
    return {t: int(counts[i]) if len(counts) else 0 for i, t in enumerate(TYPE_ORDER)}
