"""The table models over a :class:`~dedup_gui.core.model.ScanResult`: pages, pairs, errors.

The models only adapt the engine's records for display (numbers with 3 decimals, numbers as
numbers for sorting); see :class:`~dedup_gui.gui.table_model.ResultTableModel` for rows, sorting
and filtering.  Page-derived strings are returned as plain data; the views draw plain text.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtGui import QColor

from dedup_gui.core.model import TYPE_ORDER, DupType, FileError, Page, Pair, ScanResult
from dedup_gui.gui.table_model import NO_VALUE, ResultTableModel, TypeFilter, format_score

_MUTED = QColor(128, 128, 128)
_ERROR = QColor(176, 32, 32)


class PagesModel(ResultTableModel):
    """One row per file of a scan: the usable pages, then the files that could not be used.

    Columns: file, title, URL, words (main-content tokens), SimHash (16 hex digits), cluster,
    status (``"ok"``, ``"no usable text"`` or the error reason).  Error rows have empty features.

    A page's types (for the type filter) are the duplicate types of the pairs it belongs to, or
    ``{distinct}`` when it has no duplicate; so "distinct" lists the pages without duplicates.
    Error rows are shown only without a type filter.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS = ("File", "Title", "URL", "Words", "SimHash", "Cluster", "Status")
    NUMERIC = frozenset({3, 5})
    ELASTIC = frozenset({0, 1, 2, 6})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._files: list[Page | FileError] = []
        self._names: list[str] = []
        self._clusters: list[int | None] = []
        self._types: list[frozenset[DupType]] = []
        self._root = ""

    def load(self, result: ScanResult | None) -> int:
        """Take the pages, then the errors, of ``result``; return their number (int)."""
        self._files, self._clusters, self._types = [], [], []
        self._root = "" if result is None else result.root
        if result is not None:
            cluster_of = result.cluster_of()
            types: list[set[DupType]] = [set() for _ in result.pages]
            for pair in result.pairs:
                if pair.type is not DupType.DISTINCT:
                    types[pair.left].add(pair.type)
                    types[pair.right].add(pair.type)
            self._files = [*result.pages, *result.errors]
            self._clusters = [cluster_of.get(i) for i in range(len(result.pages))]
            self._clusters += [None] * len(result.errors)
            self._types = [frozenset(t or {DupType.DISTINCT}) for t in types]
            self._types += [frozenset()] * len(result.errors)
        self._names = [f.path.casefold() for f in self._files]
        return len(self._files)

    def file_at(self, row: int) -> Page | FileError:
        """The :class:`Page` or :class:`FileError` shown in ``row``."""
        return self._files[self.record(row)]

    def paths_at(self, row: int) -> list[str]:
        """The absolute path of the file in ``row`` (a one-item list[str])."""
        item = self.file_at(row)
        if isinstance(item, Page):
            return [item.abspath]
        return [os.path.join(self._root, *item.path.split("/"))]

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str); error rows show only the path and the reason."""
        item = self._files[record]
        if col == 0:
            return item.path
        if isinstance(item, FileError):
            return item.reason if col == 6 else ""
        cluster = self._clusters[record]
        return (
            item.title,
            item.url or "",
            f"{item.word_count:,}",
            item.simhash_hex,
            "" if cluster is None else str(cluster),
            "ok" if item.has_text else "no usable text",
        )[col - 1]

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value: words and cluster as int (empty = -1), other columns as folded text."""
        if col == 3:
            item = self._files[record]
            return item.word_count if isinstance(item, Page) else NO_VALUE
        if col == 5:
            cluster = self._clusters[record]
            return NO_VALUE if cluster is None else cluster
        return self.display(record, col).casefold()

    def foreground(self, record: int) -> QColor | None:
        """Red for files that could not be used, grey for pages without usable text."""
        item = self._files[record]
        if isinstance(item, FileError):
            return _ERROR
        return None if item.has_text else _MUTED

    def accepts(self, record: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the file's types meet ``type_filter`` and its path contains ``text`` (bool)."""
        if text and text not in self._names[record]:
            return False
        return type_filter is None or not type_filter.isdisjoint(self._types[record])


class PairsModel(ResultTableModel):
    """One row per scored pair of a scan; unsorted, in the result's order (most similar first).

    Columns: left, right, type, content similarity, containment, layout similarity, Hamming
    distance, Jaccard, cluster (shown when both pages are in the same cluster).

    Args:
        parent: the Qt parent object, or ``None``.
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
        "Cluster",
    )
    NUMERIC = frozenset(range(3, 9))
    ELASTIC = frozenset({0, 1})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._pages: list[Page] = []
        self._pairs: list[Pair] = []
        self._names: list[str] = []
        self._clusters: list[int | None] = []

    def load(self, result: ScanResult | None) -> int:
        """Take the pairs of ``result``; return their number (int)."""
        self._pages = [] if result is None else list(result.pages)
        self._pairs = [] if result is None else list(result.pairs)
        self._names = [p.path.casefold() for p in self._pages]
        cluster_of = {} if result is None else result.cluster_of()
        self._clusters = []
        for pair in self._pairs:
            cluster = cluster_of.get(pair.left)
            self._clusters.append(cluster if cluster == cluster_of.get(pair.right) else None)
        return len(self._pairs)

    def pair_at(self, row: int) -> Pair:
        """The :class:`Pair` shown in ``row``."""
        return self._pairs[self.record(row)]

    def pages_of(self, row: int) -> tuple[Page, Page]:
        """The (left, right) :class:`Page` objects of the pair in ``row``."""
        pair = self.pair_at(row)
        return self._pages[pair.left], self._pages[pair.right]

    def paths_at(self, row: int) -> list[str]:
        """The absolute paths of the pair's two files, left then right (list[str])."""
        return [page.abspath for page in self.pages_of(row)]

    def first_duplicate_row(self) -> int | None:
        """The row of the result's first (most similar) non-distinct pair, else of its first
        pair (int); ``None`` when there are no pairs."""
        for record, pair in enumerate(self._pairs):
            if pair.type is not DupType.DISTINCT:
                return self.row_of(record)
        return self.row_of(0) if self._pairs else None

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str); similarities with 3 decimals."""
        pair = self._pairs[record]
        if col < 2:
            return self._pages[pair.right if col else pair.left].path
        if col == 2:
            return pair.type.label
        key = self.sort_key(record, col)
        if col == 8:
            return "" if key == NO_VALUE else str(key)
        return str(key) if col == 6 else format_score(key)

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value: scores as float, Hamming distance and cluster as int (empty = -1), the
        type in :data:`~dedup_gui.core.model.TYPE_ORDER`, file names as folded text."""
        pair = self._pairs[record]
        s = pair.scores
        if col <= 1:
            return self._names[pair.right if col else pair.left]
        if col == 2:
            return TYPE_ORDER.index(pair.type)
        if col == 8:
            cluster = self._clusters[record]
            return NO_VALUE if cluster is None else cluster
        return (s.content_similarity, s.content_containment, s.layout_similarity,
                s.hamming_distance, s.jaccard)[col - 3]  # fmt: skip

    def foreground(self, record: int) -> QColor | None:
        """Grey for distinct pairs."""
        return _MUTED if self._pairs[record].type is DupType.DISTINCT else None

    def accepts(self, record: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the pair's type is in ``type_filter`` and a file name contains ``text`` (bool)."""
        pair = self._pairs[record]
        if type_filter is not None and pair.type not in type_filter:
            return False
        return not text or text in self._names[pair.left] or text in self._names[pair.right]


class ErrorsModel(ResultTableModel):
    """One row per file that could not be used: path and reason.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS = ("File", "Reason")
    ELASTIC = frozenset({0, 1})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._errors: list[FileError] = []
        self._names: list[str] = []
        self._root = ""

    def load(self, result: ScanResult | None) -> int:
        """Take the errors of ``result``; return their number (int)."""
        self._root = "" if result is None else result.root
        self._errors = [] if result is None else list(result.errors)
        self._names = [e.path.casefold() for e in self._errors]
        return len(self._errors)

    def paths_at(self, row: int) -> list[str]:
        """The absolute path of the file in ``row`` (a one-item list[str])."""
        return [os.path.join(self._root, *self._errors[self.record(row)].path.split("/"))]

    def display(self, record: int, col: int) -> str:
        """The path (column 0) or the reason (column 1) (str)."""
        error = self._errors[record]
        return error.reason if col else error.path

    def sort_key(self, record: int, col: int) -> Any:
        """Case-folded text of the cell (str)."""
        return self.display(record, col).casefold()

    def accepts(self, record: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the path contains ``text``; errors have no duplicate type (bool)."""
        return type_filter is None and (not text or text in self._names[record])
