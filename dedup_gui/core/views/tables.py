"""The result tables over a :class:`~dedup_gui.core.model.ScanResult`, without Qt: pairs,
errors, and the pages (:mod:`dedup_gui.core.views.pages_table`, re-exported).

Each adapts the engine's records for display (numbers with 3 decimals, numbers as numbers for
sorting) and gives :class:`~dedup_gui.core.views.table_state.TableState` its sort keys and
filter masks as NumPy arrays (:mod:`dedup_gui.core.columns`); the Qt models
(:mod:`dedup_gui.gui.tables.models`) only map them to roles.  Page-derived strings are returned
as plain data; the views draw plain text.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from dedup_gui.core.columns import (
    NO_CLUSTER,
    TYPE_CODE,
    PairColumns,
    natural_key,
    natural_ranks,
    page_clusters,
    pair_clusters,
    pair_columns,
    substring_mask,
)
from dedup_gui.core.model import DupType, FileError, Page, Pair, ScanResult
from dedup_gui.core.views.changed_filter import MARKED_SHORT, changed_tooltip, previous_types, type_text
from dedup_gui.core.views.label_filter import PairKey, label_tooltip, pair_key
from dedup_gui.core.views.pages_table import PagesTable, page_type_bits
from dedup_gui.core.views.path_segments import PathCut, PathSegments, column_segments
from dedup_gui.core.views.paths import distinct_starts
from dedup_gui.core.views.table_state import ERROR, MUTED, TableState, format_score

#: The tables of this module and the pages table (:mod:`dedup_gui.core.views.pages_table`),
#: which lives in its own module and is re-exported here.
__all__ = ["ErrorsTable", "PagesTable", "PairsTable", "page_type_bits"]

#: The :class:`PairColumns` attribute of each score column of :class:`PairsTable`.
_SCORE_COLUMNS = {3: "content_similarity", 4: "content_containment", 5: "layout_similarity",
                  6: "hamming_distance", 7: "jaccard"}  # fmt: skip


class PairsTable(TableState):
    """One row per scored pair of a scan; unsorted, in the result's order (most similar first).

    Columns: left, right, type (``"distinct (marked by you)"`` for a pair of
    the ignore list), content similarity, containment, layout similarity, Hamming distance,
    Jaccard, cluster (shown when both pages are in the same cluster), and the human label of
    the pair (:meth:`set_labels`; the column is unavailable, never shown empty, without labels).

    Sorting and filtering read the result's :class:`~dedup_gui.core.columns.PairColumns` (one
    NumPy array per field, shared with the other views); cells read the :class:`Pair` objects.
    """

    COLUMNS = (
        "Left",
        "Right",
        "Type",
        "Content similarity",
        "Containment",
        "Layout similarity",
        "Hamming distance",
        "Jaccard",
        "Group",
        "Label",
    )
    #: The column of the human labels (:meth:`set_labels`).
    LABEL_COLUMN = 9
    NUMERIC = frozenset(range(3, 9))
    #: Label beside Type, to compare them without scrolling sideways at 1280x800.
    SHOWN_ORDER = (0, 1, 2, LABEL_COLUMN, 3, 4, 5, 6, 7, 8)
    PATH_COLUMNS = frozenset({0, 1})
    ELASTIC = frozenset({0, 1})
    EMPTY_VIEW = "pairs"
    HEADER_TIPS = {
        2: "The duplicate type the thresholds give the pair (full, content, layout, partial) or distinct",
        3: "Content similarity: normalized Levenshtein similarity of the two main texts, 0 to 1",
        4: "Containment: the share of the smaller main text's shingles found in the other's, 0 to 1",
        5: "Layout similarity: normalized Levenshtein similarity of the two templates' tag sequences "
        "(each page without its main content), 0 to 1",
        6: "Hamming distance of the two SimHash fingerprints, in bits (of 64)",
        7: "Jaccard similarity of the two main texts' shingle sets, 0 to 1",
        8: "The near-duplicate group of the pair: pages joined by any chain of duplicate pairs",
        9: "The type a person gave the pair in the labels file (shown when the scan has one)",
    }

    def __init__(self) -> None:
        super().__init__()
        self._result: ScanResult | None = None
        self._pages: list[Page] = []
        self._pairs: list[Pair] = []
        self._names: list[str] = []
        self._page_clusters = np.zeros(0, dtype=np.int32)
        self._cluster_list: list[int] = []  # page -> cluster id as Python ints, for data()
        self._columns: PairColumns | None = None
        # page -> where its file name's distinguishing part begins, for the pages list it was
        # computed for (distinct_starts: one sort of the names)
        self._name_starts: list[int] = []
        self._starts_of: list[Page] | None = None
        self._segments = PathSegments(())  # the path columns' folders, for path_cut
        # record -> its type before the last re-classification, for the pairs it changed
        # (None: no re-classification since the scan); the "changed" filter keeps those
        self._previous: dict[int, str] | None = None
        self._changed_only = False
        # the human labels by the pair's page paths (None: no labels file), and per record
        self._labels: dict[PairKey, DupType] | None = None
        self._labels_root: str | None = None  # the scanned folder the labels belong to
        self._record_labels: dict[int, DupType] = {}
        self._differs_only = False

    def load(self, result: ScanResult | None) -> int:
        """Take the pairs of ``result``; return their number (int).  Costs one pass over the
        pages; the pair columns are built when a sort or filter first needs them."""
        self._result = result
        self._pages = [] if result is None else list(result.pages)
        self._pairs = [] if result is None else result.pairs  # a result is never changed in place
        self._names = [p.path.casefold() for p in self._pages]
        self.set_shared_folders([p.path for p in self._pages])
        if result is None or result.pages is not self._starts_of:  # a re-classification keeps the pages
            self._starts_of = None if result is None else result.pages
            self._name_starts = distinct_starts([p.path.rpartition("/")[2] for p in self._pages])
            self._segments = column_segments([p.path for p in self._pages], self.shared_folders())
        self._page_clusters = np.zeros(0, dtype=np.int32) if result is None else page_clusters(result)
        self._cluster_list = self._page_clusters.tolist()
        self._columns = None if result is None else pair_columns(result)
        self._label_records()
        return len(self._pairs)

    def records_in(self, result: ScanResult | None) -> int:
        """Number of pairs of ``result`` (int)."""
        return 0 if result is None else len(result.pairs)

    def pair_of(self, record: int) -> Pair:
        """The :class:`Pair` of record ``record`` (its index in ``result.pairs``)."""
        return self._pairs[record]

    def pair_at(self, row: int) -> Pair:
        """The :class:`Pair` shown in ``row``.

        Raises:
            IndexError: no such row.
        """
        return self._pairs[self.record(row)]

    def pages_of(self, row: int) -> tuple[Page, Page]:
        """The (left, right) :class:`Page` objects of the pair in ``row``."""
        pair = self.pair_at(row)
        return self._pages[pair.left], self._pages[pair.right]

    def paths_of(self, record: int) -> list[str]:
        """The absolute paths of the pair's two files, left then right (list[str])."""
        pair = self._pairs[record]
        return [self._pages[pair.left].abspath, self._pages[pair.right].abspath]

    def shown_pairs(self) -> list[Pair]:
        """The pairs the rows show, in row order (list[Pair])."""
        pairs = self._pairs
        return [pairs[r] for r in self.shown_records().tolist()]

    def first_duplicate_record(self) -> int | None:
        """The result's first (most similar) non-distinct pair, else its first pair, as a
        record index (int); ``None`` when there are no pairs."""
        if not self._pairs:
            return None
        distinct = DupType.DISTINCT
        return next((i for i, pair in enumerate(self._pairs) if pair.type is not distinct), 0)

    def _pair_cluster(self, pair: Pair) -> int:
        cluster = self._cluster_list[pair.left]
        return cluster if cluster == self._cluster_list[pair.right] else NO_CLUSTER

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str); similarities with 3 decimals."""
        pair = self._pairs[record]
        if col < 2:
            return self._pages[pair.right if col else pair.left].path
        if col == 2:  # a pair the user marked says so (its type is distinct whatever its measures)
            return type_text(pair)
        if col == 8:
            cluster = self._pair_cluster(pair)
            return "" if cluster == NO_CLUSTER else str(cluster)
        if col == self.LABEL_COLUMN:
            label = self._record_labels.get(record)
            return "" if label is None else label.label
        key = self.sort_key(record, col)
        if col == 4 and pair.scores.contained_side:  # which page lies inside the other
            inner = pair.scores.contained_side
            return f"{format_score(key)} ({inner} in {'right' if inner == 'left' else 'left'})"
        return str(key) if col == 6 else format_score(key)

    def name_start(self, record: int, col: int) -> int:
        """Where the distinguishing part of the left (``col`` 0) or right (1) page's file name
        begins among the scan's file names (:func:`~dedup_gui.core.views.paths.distinct_starts`):
        ``o__gne__tests__other__1.html`` and ``o__gne__tests__sina__1.html`` keep ``other__1.html``
        and ``sina__1.html`` in a narrow column (int; 0 for other columns)."""
        if col > 1:
            return 0
        pair = self._pairs[record]
        return self._name_starts[pair.right if col else pair.left]

    def path_cut(self, record: int, col: int) -> PathCut | None:
        """How a narrow Left (``col`` 0) or Right (1) column cuts the page's path: the folders
        that tell it from the pair's other page and from the column's other paths of its
        document kept first (:meth:`PathSegments.cut`: "v1.10.x/zh/…/vpc-peering/" and
        "v1.10.x/en/…/vpc-peering/", not "v1.10.x/…/vpc-peering/" twice) (PathCut; ``None``
        for other columns)."""
        if col > 1:
            return None
        return self._segments.cut(self.cell_text(record, col), self.cell_text(record, 1 - col))

    def widest_text(self, col: int) -> str | None:
        """The widest form of a column a sample of rows may miss: the containment's
        ``"0.000 (right in left)"`` (most cells are a bare number), and a type cell of a pair
        the user marked, ``"distinct (marked by you)"`` (a few pairs among thousands)."""
        if col == 4 and self._pairs:
            return f"{format_score(0.0)} (right in left)"
        if col == 2 and self._columns is not None and self._columns.not_duplicate.any():  # one C pass
            return f"{DupType.DISTINCT.label} ({MARKED_SHORT})"
        return None

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value: scores as float, Hamming distance and cluster as int (empty = -1), the
        type in :data:`~dedup_gui.core.model.TYPE_ORDER`, file names as folded text in natural
        order (:func:`~dedup_gui.core.columns.natural_key`)."""
        pair = self._pairs[record]
        s = pair.scores
        if col <= 1:
            return natural_key(self._names[pair.right if col else pair.left])
        if col == 2:
            return TYPE_CODE[pair.type]
        if col == 8:
            return self._pair_cluster(pair)  # NO_CLUSTER == NO_VALUE
        if col == self.LABEL_COLUMN:
            label = self._record_labels.get(record)
            return NO_CLUSTER if label is None else TYPE_CODE[label]  # unlabelled: -1, first
        return (s.content_similarity, s.content_containment, s.layout_similarity,
                s.hamming_distance, s.jaccard)[col - 3]  # fmt: skip

    def sort_keys(self, col: int) -> np.ndarray:
        """Sort keys of every pair for column ``col`` (shape (pairs,)): the pages' path ranks
        (natural order), the type codes, the score columns, the clusters (-1 = none)."""
        columns, result = self._columns, self._result
        if columns is None or result is None:
            return np.zeros(0, dtype=np.int64)
        if col <= 1:
            ranks = natural_ranks(self._names)
            return ranks[columns.right if col else columns.left]
        if col == 2:
            return columns.type_code
        if col == 8:
            return pair_clusters(result, self._page_clusters)
        if col == self.LABEL_COLUMN:
            keys = np.full(len(self._pairs), NO_CLUSTER, dtype=np.int64)
            for record, label in self._record_labels.items():
                keys[record] = TYPE_CODE[label]
            return keys
        return getattr(columns, _SCORE_COLUMNS[col])

    # --- the pairs the last re-classification changed ---------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show another scan's pairs (:meth:`TableState.set_result`); no pair is "changed"."""
        self._previous, self._changed_only = None, False
        super().set_result(result)

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classified ``result`` (:meth:`TableState.update_result`) and remember which
        pairs changed type, and from what (:func:`~dedup_gui.core.views.changed_filter.previous_types`)."""
        self._previous = previous_types(self._pairs, result.pairs)
        self._changed_only = self._changed_only and self._previous is not None
        super().update_result(result)

    def changed_count(self) -> int | None:
        """How many pairs the last re-classification changed (int), ``None`` before any."""
        return None if self._previous is None else len(self._previous)

    def changed_only(self) -> bool:
        """Whether only the pairs the last re-classification changed are shown (bool)."""
        return self._changed_only

    def set_changed_only(self, on: bool) -> None:
        """Keep only the pairs the last re-classification changed (``on``), or every pair.

        Raises:
            ValueError: ``on`` before any re-classification (nothing to compare with).
        """
        if on and self._previous is None:
            raise ValueError("no re-classification since the scan: no pair changed type")
        self._changed_only = bool(on)
        self._update_rows()

    def previous_type(self, record: int) -> str | None:
        """The type text of ``record`` before the last re-classification, ``None`` if it did
        not change (str)."""
        return None if self._previous is None else self._previous.get(record)

    def extra_masks(self) -> list[np.ndarray]:
        """The "changed by the last re-classification" mask and the "differs from label" mask,
        for the filters that are on."""
        masks = []
        if self._changed_only and self._previous is not None:
            mask = np.zeros(self._count, dtype=np.bool_)
            mask[list(self._previous)] = True
            masks.append(mask)
        if self._differs_only and self._labels is not None:
            mask = np.zeros(self._count, dtype=np.bool_)
            mask[self.differing_records()] = True
            masks.append(mask)
        return masks

    # --- the human labels (a labels CSV of the scan) -----------------------------------------

    def set_labels(self, labels: dict[PairKey, DupType] | None, root: str = "") -> None:
        """Take the human labels of the pairs of the scan of folder ``root``, by
        :func:`~dedup_gui.core.views.label_filter.pair_key` of their page paths (relative to
        ``root``), or ``None`` for no labels file: the Label column is then unavailable and the
        "differs from label" filter off.  They stay through re-classifications and rescans of
        ``root``, and are dropped with a scan of another folder; a pair without a label shows
        an empty cell."""
        self._labels = None if labels is None else dict(labels)
        self._labels_root = root if labels is not None else None
        self._differs_only = self._differs_only and labels is not None
        self._label_records()
        self.refilter()

    def _label_records(self) -> None:
        self._record_labels = {}
        if self._result is None or self._result.root != self._labels_root:
            self._labels, self._labels_root, self._differs_only = None, None, False  # another folder's
        if not self._labels:
            return
        paths = [p.path for p in self._pages]
        for record, pair in enumerate(self._pairs):
            label = self._labels.get(pair_key(paths[pair.left], paths[pair.right]))
            if label is not None:
                self._record_labels[record] = label

    def has_labels(self) -> bool:
        """Whether a labels file is known for the scan (bool): the Label column is available."""
        return self._labels is not None

    def unavailable_columns(self) -> frozenset[int]:
        """The Label column without labels (:meth:`TableState.unavailable_columns`)."""
        return frozenset() if self._labels is not None else frozenset({self.LABEL_COLUMN})

    def label_of(self, record: int) -> DupType | None:
        """The human label of ``record``, ``None`` if it has none (DupType)."""
        return self._record_labels.get(record)

    def differing_records(self) -> list[int]:
        """The labelled pairs whose type (under the thresholds in force) differs from their
        label, in record order (list[int])."""
        pairs = self._pairs
        return sorted(r for r, label in self._record_labels.items() if pairs[r].type is not label)

    def differs_count(self) -> int | None:
        """How many labelled pairs' types differ from their labels (int), ``None`` without labels."""
        return None if self._labels is None else len(self.differing_records())

    def differs_only(self) -> bool:
        """Whether only the pairs whose type differs from their label are shown (bool)."""
        return self._differs_only

    def set_differs_only(self, on: bool) -> None:
        """Keep only the pairs whose type differs from their label (``on``), or every pair.

        Raises:
            ValueError: ``on`` without labels.
        """
        if on and self._labels is None:
            raise ValueError("no labels file for this scan: no pair has a label")
        self._differs_only = bool(on)
        self._update_rows()

    def tooltip(self, record: int, col: int) -> str:
        """:meth:`TableState.tooltip`; the Type cell of a pair the last re-classification
        changed names its previous type (:func:`~dedup_gui.core.views.changed_filter.changed_tooltip`);
        the Label cell says the label and the predicted type when they differ."""
        if col == self.LABEL_COLUMN:
            label = self._record_labels.get(record)
            return "" if label is None else label_tooltip(label, self._pairs[record].type)
        before = self.previous_type(record) if col == 2 else None
        return changed_tooltip(self.display(record, 2), before) if before else super().tooltip(record, col)

    def tone(self, record: int) -> str | None:
        """:data:`MUTED` for distinct pairs."""
        return MUTED if self._pairs[record].type is DupType.DISTINCT else None

    def type_mask(self, type_filter: frozenset[DupType]) -> np.ndarray:
        """Which pairs have one of these types (``np.bool_``, shape (pairs,))."""
        wanted = np.zeros(len(TYPE_CODE), dtype=np.bool_)
        wanted[[TYPE_CODE[t] for t in type_filter]] = True
        return wanted[self._columns.type_code] if self._columns is not None else np.zeros(0, np.bool_)

    def text_mask(self, text: str) -> np.ndarray:
        """Which pairs have a file name containing ``text`` (case-folded), on either side
        (``np.bool_``, shape (pairs,)); each page's name is tested once."""
        if self._columns is None:
            return np.zeros(0, dtype=np.bool_)
        pages = substring_mask(self._names, text)
        return pages[self._columns.left] | pages[self._columns.right]


class ErrorsTable(TableState):
    """One row per file that could not be used, then one per file skipped (links, loops,
    special files, not pages): path, reason and which of the two (the ``Kind`` column)."""

    COLUMNS = ("File", "Reason", "Kind")
    PATH_COLUMNS = frozenset({0})
    ELASTIC = frozenset({0, 1})
    WIDE_TEXT = frozenset({1})
    EMPTY_VIEW = "errors"

    def __init__(self) -> None:
        super().__init__()
        self._errors: list[FileError] = []
        self._kinds: list[str] = []
        self._names: list[str] = []
        self._root = ""

    @staticmethod
    def _entries(result: ScanResult) -> tuple[list[FileError], list[str]]:
        skipped = [FileError(path, result.skip_reason(path)) for path in result.skipped]
        return [*result.errors, *skipped], ["error"] * len(result.errors) + ["skipped"] * len(skipped)

    def load(self, result: ScanResult | None) -> int:
        """Take the errors and the skipped files of ``result``; return their number (int)."""
        self._root = "" if result is None else result.root
        self._errors, self._kinds = ([], []) if result is None else self._entries(result)
        self._names = [e.path.casefold() for e in self._errors]
        return len(self._errors)

    def records_in(self, result: ScanResult | None) -> int:
        """Number of errors and skipped files of ``result`` (int)."""
        return 0 if result is None else len(result.errors) + len(result.skipped)

    def paths_of(self, record: int) -> list[str]:
        """The absolute path of ``record``'s file (a one-item list[str])."""
        return [os.path.join(self._root, *self._errors[record].path.split("/"))]

    def display(self, record: int, col: int) -> str:
        """The path (column 0), the reason (1) or ``"error"`` / ``"skipped"`` (2) (str)."""
        if col == 2:
            return self._kinds[record]
        error = self._errors[record]
        return error.reason if col else error.path

    def tone(self, record: int) -> str | None:
        """Errors in the error tone; skipped files muted: nothing went wrong with them."""
        return MUTED if self._kinds[record] == "skipped" else ERROR

    def kind_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """``((errors shown, errors), (skipped files shown, skipped files))``: the rows the
        file-name filter leaves, and all (tuple of int pairs)."""
        errors = len(self._kinds) - self._kinds.count("skipped")  # the errors come first
        shown = self.shown_records()
        shown_errors = int(np.count_nonzero(shown < errors))
        return (shown_errors, errors), (len(shown) - shown_errors, len(self._kinds) - errors)

    def sort_key(self, record: int, col: int) -> Any:
        """Case-folded text of the cell (str); the path in natural order
        (:func:`~dedup_gui.core.columns.natural_key`)."""
        text = self.display(record, col).casefold()
        return natural_key(text) if col == 0 else text

    def type_mask(self, type_filter: frozenset[DupType]) -> np.ndarray:
        """No error has a duplicate type: nothing passes a type filter (``np.bool_`` zeros)."""
        return np.zeros(len(self._errors), dtype=np.bool_)

    def text_mask(self, text: str) -> np.ndarray:
        """Which errors' paths contain ``text`` (case-folded) (``np.bool_``, shape (errors,))."""
        return substring_mask(self._names, text)
