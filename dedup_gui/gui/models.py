"""Qt table models over a :class:`~dedup_gui.core.model.ScanResult`: pages, pairs, errors.

The models only adapt the engine's records for display: ``Qt.DisplayRole`` gives text (numbers
with 3 decimals), :data:`SORT_ROLE` gives values that sort correctly (numbers as numbers), and
:meth:`ResultTableModel.accepts` answers the filter questions of
:class:`~dedup_gui.gui.filter_proxy.ResultFilterProxy`.  Page-derived strings are returned as
plain data; the views draw them as plain text.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from dedup_gui.core.model import TYPE_ORDER, DupType, FileError, Page, Pair, ScanResult

#: Role whose values the proxy sorts by: numbers for numeric columns, case-folded text otherwise.
SORT_ROLE = Qt.ItemDataRole.UserRole

#: A type filter: ``None`` accepts every row, else the set of accepted duplicate types.
TypeFilter = frozenset[DupType] | None

#: The four duplicate types (every type but ``distinct``).
DUPLICATE_TYPES: frozenset[DupType] = frozenset(TYPE_ORDER) - {DupType.DISTINCT}

#: Choices of the type filter combo: (label, filter), in display order.
TYPE_FILTERS: tuple[tuple[str, TypeFilter], ...] = (
    ("All types", None),
    *((t.label, frozenset({t})) for t in TYPE_ORDER),
    ("Duplicates only", DUPLICATE_TYPES),
)

_NO_VALUE = -1  # sort key of an empty numeric cell: sorts before every real value
_MUTED = QColor(128, 128, 128)
_ERROR = QColor(176, 32, 32)
_Index = QModelIndex | QPersistentModelIndex


def format_score(value: float) -> str:
    """Format a similarity in [0, 1] with 3 decimals, e.g. ``"0.875"`` (str)."""
    return f"{value:.3f}"


class ResultTableModel(QAbstractTableModel):
    """Base of the result tables: fixed columns, display/sort/alignment roles, filter hook.

    Subclasses set :attr:`COLUMNS` (header titles), :attr:`NUMERIC` (indices of right-aligned
    numeric columns) and :attr:`ELASTIC` (text columns that give up width when the table is too
    wide) and implement :meth:`display`, :meth:`sort_key`, :meth:`accepts` and
    :meth:`set_result`.

    Args:
        parent: the Qt parent object, or ``None``.
    """

    COLUMNS: tuple[str, ...] = ()
    NUMERIC: frozenset[int] = frozenset()
    ELASTIC: frozenset[int] = frozenset()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows = 0

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of rows (int); 0 under a valid parent, as for any flat table."""
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt API)
        """Number of columns (int)."""
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles for the horizontal header (numeric ones on two lines, to stay narrow)."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            title = self.COLUMNS[section]
            return title.replace(" ", "\n", 1) if section in self.NUMERIC else title
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell value for ``role``: text (display), sort key (:data:`SORT_ROLE`), alignment, colour."""
        if not index.isValid() or not 0 <= index.row() < self._rows:
            return None
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, col)
        if role == SORT_ROLE:
            return self.sort_key(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in self.NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(row)
        return None

    def display(self, row: int, col: int) -> str:
        """Text of a cell (str)."""
        raise NotImplementedError

    def sort_key(self, row: int, col: int) -> Any:
        """Sort value of a cell: int/float for numeric columns, case-folded str otherwise."""
        raise NotImplementedError

    def foreground(self, row: int) -> QColor | None:
        """Text colour of a row (QColor), or ``None`` for the default."""
        return None

    def accepts(self, row: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether ``row`` passes a type filter and a case-folded file-name substring (bool)."""
        raise NotImplementedError

    def set_result(self, result: ScanResult | None) -> None:
        """Show ``result`` (or nothing, for ``None``); resets the model."""
        raise NotImplementedError


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

    def set_result(self, result: ScanResult | None) -> None:
        """Show the pages and errors of ``result`` (or nothing, for ``None``)."""
        self.beginResetModel()
        if result is None:
            self._files, self._clusters, self._types = [], [], []
        else:
            cluster_of = result.cluster_of()
            types: list[set[DupType]] = [set() for _ in result.pages]
            for pair in result.pairs:
                if pair.type is not DupType.DISTINCT:
                    types[pair.left].add(pair.type)
                    types[pair.right].add(pair.type)
            n = len(result.pages)
            self._files = [*result.pages, *result.errors]
            self._clusters = [cluster_of.get(i) for i in range(n)] + [None] * len(result.errors)
            self._types = [frozenset(t or {DupType.DISTINCT}) for t in types]
            self._types += [frozenset()] * len(result.errors)
        self._names = [f.path.casefold() for f in self._files]
        self._rows = len(self._files)
        self.endResetModel()

    def file_at(self, row: int) -> Page | FileError:
        """The :class:`Page` or :class:`FileError` shown in ``row``."""
        return self._files[row]

    def display(self, row: int, col: int) -> str:
        """Text of a cell (str); error rows show only the path and the reason."""
        item = self._files[row]
        if col == 0:
            return item.path
        if isinstance(item, FileError):
            return item.reason if col == 6 else ""
        cluster = self._clusters[row]
        return (
            item.title,
            item.url or "",
            f"{item.word_count:,}",
            item.simhash_hex,
            "" if cluster is None else str(cluster),
            "ok" if item.has_text else "no usable text",
        )[col - 1]

    def sort_key(self, row: int, col: int) -> Any:
        """Sort value: words and cluster as int (empty = -1), other columns as folded text."""
        if col == 3:
            item = self._files[row]
            return item.word_count if isinstance(item, Page) else _NO_VALUE
        if col == 5:
            cluster = self._clusters[row]
            return _NO_VALUE if cluster is None else cluster
        return self.display(row, col).casefold()

    def foreground(self, row: int) -> QColor | None:
        """Red for files that could not be used, grey for pages without usable text."""
        item = self._files[row]
        if isinstance(item, FileError):
            return _ERROR
        return None if item.has_text else _MUTED

    def accepts(self, row: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the file's types meet ``type_filter`` and its path contains ``text`` (bool)."""
        if text and text not in self._names[row]:
            return False
        return type_filter is None or not type_filter.isdisjoint(self._types[row])


class PairsModel(ResultTableModel):
    """One row per scored pair of a scan, in the result's order (most similar first).

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
        self._result: ScanResult | None = None
        self._pairs: list[Pair] = []
        self._names: list[str] = []
        self._clusters: list[int | None] = []

    def set_result(self, result: ScanResult | None) -> None:
        """Show the pairs of ``result`` (or nothing, for ``None``)."""
        self.beginResetModel()
        self._result = result
        self._pairs = [] if result is None else list(result.pairs)
        self._clusters, self._names = [], []
        if result is not None:
            self._names = [p.path.casefold() for p in result.pages]
            cluster_of = result.cluster_of()
            for pair in self._pairs:
                cluster = cluster_of.get(pair.left)
                self._clusters.append(cluster if cluster == cluster_of.get(pair.right) else None)
        self._rows = len(self._pairs)
        self.endResetModel()

    def pair_at(self, row: int) -> Pair:
        """The :class:`Pair` shown in ``row``."""
        return self._pairs[row]

    def pages_of(self, row: int) -> tuple[Page, Page]:
        """The (left, right) :class:`Page` objects of the pair in ``row``."""
        assert self._result is not None
        pair = self._pairs[row]
        return self._result.pages[pair.left], self._result.pages[pair.right]

    def first_duplicate_row(self) -> int | None:
        """Row of the first (most similar) non-distinct pair, else of the first pair (int), else ``None``."""
        for row, pair in enumerate(self._pairs):
            if pair.type is not DupType.DISTINCT:
                return row
        return 0 if self._pairs else None

    def display(self, row: int, col: int) -> str:
        """Text of a cell (str); similarities with 3 decimals."""
        if col < 2:
            return self._path(row, col)
        if col == 2:
            return self._pairs[row].type.label
        key = self.sort_key(row, col)
        if col == 8:
            return "" if key == _NO_VALUE else str(key)
        return str(key) if col == 6 else format_score(key)

    def sort_key(self, row: int, col: int) -> Any:
        """Sort value: scores as float, Hamming distance and cluster as int (empty = -1), else text."""
        pair = self._pairs[row]
        s = pair.scores
        if col <= 1:
            return self._path(row, col).casefold()
        if col == 2:
            return TYPE_ORDER.index(pair.type)
        if col == 8:
            cluster = self._clusters[row]
            return _NO_VALUE if cluster is None else cluster
        return (s.content_similarity, s.content_containment, s.layout_similarity,
                s.hamming_distance, s.jaccard)[col - 3]  # fmt: skip

    def foreground(self, row: int) -> QColor | None:
        """Grey for distinct pairs."""
        return _MUTED if self._pairs[row].type is DupType.DISTINCT else None

    def accepts(self, row: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the pair's type is in ``type_filter`` and a file name contains ``text`` (bool)."""
        pair = self._pairs[row]
        if type_filter is not None and pair.type not in type_filter:
            return False
        return not text or text in self._names[pair.left] or text in self._names[pair.right]

    def _path(self, row: int, col: int) -> str:
        assert self._result is not None
        pair = self._pairs[row]
        return self._result.pages[pair.right if col else pair.left].path


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

    def set_result(self, result: ScanResult | None) -> None:
        """Show the errors of ``result`` (or nothing, for ``None``)."""
        self.beginResetModel()
        self._errors = [] if result is None else list(result.errors)
        self._names = [e.path.casefold() for e in self._errors]
        self._rows = len(self._errors)
        self.endResetModel()

    def display(self, row: int, col: int) -> str:
        """The path (column 0) or the reason (column 1) (str)."""
        error = self._errors[row]
        return error.reason if col else error.path

    def sort_key(self, row: int, col: int) -> Any:
        """Case-folded text of the cell (str)."""
        return self.display(row, col).casefold()

    def accepts(self, row: int, type_filter: TypeFilter, text: str) -> bool:
        """Whether the path contains ``text``; errors have no duplicate type (bool)."""
        return type_filter is None and (not text or text in self._names[row])
