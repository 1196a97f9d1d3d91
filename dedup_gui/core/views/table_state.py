"""The view state of a result table, without Qt: its sort, its filters and its rows.

A table's *records* are its items in the scan result's order (pairs, files, errors).  Its *rows*
are the records that pass the filters, in the sort order: an array ``row -> record`` and its
inverse ``record -> row`` (-1 for a hidden record).

* Sorting is one stable ``np.argsort`` of the column's sort keys: numbers as they are, text as
  ranks of the case-folded strings (computed once per column and result), paths in natural
  order (numbers in them as numbers: ``#252`` before ``#1107``).  Ties keep the result's order
  in both directions.
* Filtering is a boolean mask per filter: the type filter (type codes), the file-name filter
  (each page's name matched once, then mapped to the rows) and the record filter (a histogram
  bar's or a cluster's records), combined with ``&``.

So a header click or a filter change on a million rows is a few array operations.  As in
dupeGuru (``core/gui/result_table.py`` beside the Qt ``ResultsModel``), the state lives here,
tested without a screen; the Qt model (:class:`~dedup_gui.gui.tables.table_model.ResultTableModel`)
maps it to roles, each change one layout change, so that selections follow their records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from dedup_gui.core.columns import stable_argsort, text_ranks
from dedup_gui.core.model import TYPE_ORDER, DupType, ScanResult
from dedup_gui.core.number_format import format_score  # noqa: F401  (re-exported for the tables)
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.empty import empty_message
from dedup_gui.core.views.path_segments import PathCut
from dedup_gui.core.views.paths import shared_folders

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

#: Sort value of an empty numeric cell: sorts before every real value.
NO_VALUE = -1
#: Tones of a row's text (:meth:`TableState.tone`): a greyed row and an error row.
MUTED, ERROR = "muted", "error"


class TableState:
    """The records, sort, filters and rows of one result table (see the module).

    Subclasses set :attr:`COLUMNS` (header titles), :attr:`NUMERIC` (right-aligned numeric
    columns), :attr:`ELASTIC` (text columns that give up width when the table is too wide) and
    :attr:`PATH_COLUMNS` (file paths), and implement :meth:`load`, :meth:`records_in`,
    :meth:`display`, :meth:`sort_key`, :meth:`type_mask` and :meth:`text_mask`, all in terms of
    *record* indices (positions in the scan result's order).  They may override
    :meth:`sort_keys` with a vectorized version (the default calls :meth:`sort_key` once per
    record, once per column and result).
    """

    COLUMNS: tuple[str, ...] = ()
    NUMERIC: frozenset[int] = frozenset()
    ELASTIC: frozenset[int] = frozenset()
    #: Columns of file paths: a narrow one keeps the file name whole.
    PATH_COLUMNS: frozenset[int] = frozenset()
    #: Text columns worth reading whole (the errors' reason): fitted to their whole text, not
    #: capped as other text columns are, and given spare width with the path columns.
    WIDE_TEXT: frozenset[int] = frozenset()
    #: Text columns whose beginning says what matters (a status "redirects to stable/…"): a
    #: narrow one is cut at its end, not in its middle ("redir…s to)"); the whole text is in
    #: the tooltip.
    ELIDE_END: frozenset[int] = frozenset()
    #: Text columns whose cells end with a path after a short prefix ("0.953 v1.10/a.html",
    #: "duplicate of v1.16/a.html", an address): the path is shortened by the path rule, the
    #: prefix kept (:func:`~dedup_gui.core.views.paths.split_path_tail`).
    PATH_TAIL: frozenset[int] = frozenset()
    #: Text columns that give way first, down to a few letters, when the table is too narrow
    #: for every column even at their least widths (whole in the tooltip and the line under
    #: the table): at 1024x640 the pages' Title, URL and Closest match pushed Keep and
    #: Canonical out of sight.
    YIELDING: frozenset[int] = frozenset()
    #: The view of :func:`~dedup_gui.core.views.empty.empty_message` that says why the table
    #: has no record at all (``""``: none).
    EMPTY_VIEW = ""
    #: Columns hidden until the user shows them (the header's menu): ones few users read, so
    #: that the rest fit in the window.
    HIDDEN: frozenset[int] = frozenset()
    #: What a column's values are, for its header's tooltip (column -> plain text).
    HEADER_TIPS: dict[int, str] = {}
    #: The columns in their order on screen, by index (``()``: :attr:`COLUMNS`' order); a column
    #: moves on screen only, so the hidden columns saved by index keep their meaning.
    SHOWN_ORDER: tuple[int, ...] = ()

    def __init__(self) -> None:
        self._shown: ScanResult | None = None  # the result shown, for the empty-table line
        self._count = 0  # records
        self._rows = np.zeros(0, dtype=np.int64)  # row -> record
        self._row_of = np.zeros(0, dtype=np.int64)  # record -> row, -1 when hidden
        self._sort_column = -1
        self._descending = False
        self._keys: dict[int, np.ndarray] = {}  # column -> sort keys of every record
        self._order: tuple[int, bool, np.ndarray] | None = None  # the last sort's permutation
        self._type_filter: TypeFilter = None
        self._text = ""
        self._records: np.ndarray | None = None  # the record filter: sorted unique records
        self._masks: dict[str, np.ndarray] = {}  # "type"/"text"/"records" -> mask over records
        self._shared = ""  # folders every path of the table shares, left out of its path cells
        self._hidden = set(self.HIDDEN)  # columns not shown

    # --- which columns are shown -------------------------------------------------------------

    def hidden_columns(self) -> frozenset[int]:
        """The columns not shown (frozenset of column numbers): the ones the user hid
        (:meth:`chosen_hidden_columns`) and the :meth:`unavailable_columns`."""
        return frozenset(self._hidden) | self.unavailable_columns()

    def chosen_hidden_columns(self) -> frozenset[int]:
        """The columns the user hid (:attr:`HIDDEN` at first), remembered between sessions
        (frozenset of column numbers)."""
        return frozenset(self._hidden)

    def unavailable_columns(self) -> frozenset[int]:
        """Columns with nothing to show for this result (the pairs' Label column without a
        labels file): hidden, and left out of the header's menu (frozenset; none here)."""
        return frozenset()

    def set_column_hidden(self, col: int, hidden: bool) -> bool:
        """Hide or show column ``col``; the last column shown cannot be hidden.

        Args:
            col: the column (0-based).
            hidden: ``True`` to hide it.

        Returns:
            Whether the column's state changed (bool).

        Raises:
            IndexError: no such column.
        """
        if not 0 <= col < len(self.COLUMNS):
            raise IndexError(f"no column {col} in a table of {len(self.COLUMNS)}")
        if col in self.unavailable_columns():
            return False
        if hidden == (col in self._hidden) or (hidden and len(self.hidden_columns()) + 1 >= len(self.COLUMNS)):
            return False
        (self._hidden.add if hidden else self._hidden.discard)(col)
        return True

    def set_hidden_columns(self, columns: Iterable[int]) -> None:
        """Show every column but ``columns`` (numbers out of range are ignored, as are
        stored settings from another version; at least one column stays shown)."""
        wanted = {c for c in columns if 0 <= c < len(self.COLUMNS)}
        self._hidden = wanted if len(wanted) < len(self.COLUMNS) else set()

    # --- what subclasses provide -----------------------------------------------------------

    def load(self, result: ScanResult | None) -> int:
        """Take the records of ``result`` (none for ``None``); return how many there are (int)."""
        raise NotImplementedError

    def records_in(self, result: ScanResult | None) -> int:
        """How many records :meth:`load` would take from ``result`` (int), without taking them."""
        raise NotImplementedError

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str)."""
        raise NotImplementedError

    def widest_text(self, col: int) -> str | None:
        """A text as wide as column ``col``'s widest cell can be, for sizing the column when a
        sample of its cells may miss the widest (str), or ``None`` (the sample is enough)."""
        return None

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value of one cell: int/float for numeric columns, case-folded str otherwise
        (the :func:`~dedup_gui.core.columns.natural_key` of a path)."""
        raise NotImplementedError

    def sort_keys(self, col: int) -> np.ndarray:
        """Sort keys of every record for column ``col``, compared as the table sorts them.

        The default asks :meth:`sort_key` for each record: numeric columns become ``float64``,
        other columns (case-folded text) ranks from :func:`~dedup_gui.core.columns.text_ranks`
        (path columns' keys are natural keys already).  Subclasses with many records override it.

        Returns:
            Array of shape (records,), any orderable dtype.
        """
        records = range(self._count)
        if col in self.NUMERIC:
            return np.fromiter((self.sort_key(r, col) for r in records), np.float64, self._count)
        return text_ranks(self.sort_key(r, col) for r in records)

    def type_mask(self, type_filter: frozenset[DupType]) -> np.ndarray:
        """Which records pass a type filter (``np.bool_`` array of shape (records,))."""
        raise NotImplementedError

    def text_mask(self, text: str) -> np.ndarray:
        """Which records have a file name containing ``text`` (already stripped and case-folded,
        not empty) (``np.bool_`` array of shape (records,))."""
        raise NotImplementedError

    def extra_masks(self) -> list[np.ndarray]:
        """The masks of a subclass's own filters (the pages' status filter), each ``np.bool_``
        of shape (records,), combined with the others (list; none by default)."""
        return []

    def tone(self, record: int) -> str | None:
        """Tone of a record's row: :data:`MUTED`, :data:`ERROR` or ``None`` for the default."""
        return None

    def paths_of(self, record: int) -> list[str]:
        """Absolute paths of the file(s) of ``record`` (list[str]); for the context menu."""
        return []

    # --- cells -------------------------------------------------------------------------------

    def cell_text(self, record: int, col: int) -> str:
        """Text of a cell as shown: :meth:`display` with control characters made visible, so
        that a right-to-left override in a page's title cannot reverse the cell, and a path
        without the folders all the table's paths share (:meth:`shared_folders`: in
        ``docs/v1.10/…``, ``docs/v1.11/…`` the cells start at the version, the part that tells
        the pages apart) (str).  Sorting and filtering use the whole path."""
        value = self.display(record, col)
        if not isinstance(value, str):
            return value
        if self._shared and col in self.PATH_COLUMNS and value.startswith(self._shared):
            value = value[len(self._shared) :]
        return show_control_characters(value)

    def name_start(self, record: int, col: int) -> int:
        """Where the part of a path cell's file name that tells it from the table's other names
        begins (an index into the file name; :func:`~dedup_gui.core.views.paths.distinct_starts`):
        a narrow column keeps that part (int; 0 here: the name is elided in its middle)."""
        return 0

    def path_cut(self, record: int, col: int) -> PathCut | None:
        """How a narrow column cuts a path cell, the parts that tell it apart kept first
        (:class:`~dedup_gui.core.views.path_segments.PathCut`); ``None`` here: the path rule alone."""
        return None

    def details(self, record: int) -> str:
        """The record in full for the line under the table (plain text, may hold paths): its
        path columns and the text columns worth reading whole, one a line (str)."""
        columns = sorted(self.PATH_COLUMNS | self.WIDE_TEXT)
        return "\n".join(str(self.display(record, c)) for c in columns)

    def tooltip(self, record: int, col: int) -> str:
        """The whole text of a path or other text column's cell, for its tooltip (str; ``""``
        for number columns and empty cells): the path cells leave out the shared folders and
        narrow columns elide the rest."""
        if col in self.NUMERIC or (col not in self.PATH_COLUMNS and col not in self.ELASTIC):
            return ""
        value = self.display(record, col)
        return show_control_characters(value) if isinstance(value, str) else ""

    def shared_folders(self) -> str:
        """The leading folders every path of the table shares, with a trailing ``/``, left out
        of the path cells (str; ``""`` for none)."""
        return self._shared

    def set_shared_folders(self, paths: Sequence[str]) -> None:
        """Compute :meth:`shared_folders` from every path of the table (subclasses call it in
        :meth:`load`); see :func:`~dedup_gui.core.views.paths.shared_folders`."""
        self._shared = shared_folders(paths)

    # --- results ---------------------------------------------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show ``result`` (or nothing, for ``None``), keeping the sort column and the type and
        file-name filters; a record filter is kept only if it fits the new records."""
        self._shown = result
        self._count = self.load(result)
        self._forget_values()
        if self._records is not None and len(self._records) and self._records[-1] >= self._count:
            self._records = None
        self._update_rows()

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classified ``result`` (the same records with new types and clusters, see
        :func:`dedup_gui.core.pipeline.classify.reclassify`): rows are sorted and filtered
        again by the new values.

        Raises:
            ValueError: ``result`` has a different number of records (a new scan: use
                :meth:`set_result`); the state then shows it without a record filter, so that
                it stays consistent.
        """
        self._shown = result
        count = self.load(result)
        if count != self._count:
            expected = self._count
            self._count = count
            self._forget_values()
            self._records = None
            self._update_rows()
            raise ValueError(f"update_result needs the same {expected} records, got {count}")
        self._forget_values()
        self._update_rows()

    def refilter(self) -> None:
        """Filter and sort again after the values changed in place."""
        self._forget_values()
        self._update_rows()

    def _forget_values(self) -> None:
        """Drop everything computed from the records' values (sort keys, order, filter masks)."""
        self._keys.clear()
        self._order = None
        self._masks.clear()

    def empty_message(self) -> str:
        """Why the table has no record at all, in words (e.g. ``"No pairs: the folder holds
        one page"``, :func:`~dedup_gui.core.views.empty.empty_message`); ``""`` when it has
        records (str)."""
        if self._count or not self.EMPTY_VIEW:
            return ""
        return empty_message(self._shown, self.EMPTY_VIEW) or ""

    # --- rows and records ------------------------------------------------------------------

    def record_count(self) -> int:
        """Number of records, shown or not (int)."""
        return self._count

    def row_count(self) -> int:
        """Number of rows shown (int)."""
        return len(self._rows)

    def record(self, row: int) -> int:
        """The record shown in ``row`` (int).

        Raises:
            IndexError: no such row.
        """
        if not 0 <= row < len(self._rows):
            raise IndexError(f"row {row} out of range 0..{len(self._rows) - 1}")
        return int(self._rows[row])

    def row_of(self, record: int) -> int:
        """The row that shows ``record``, or -1 when the filters hide it or there is no such
        record (int); O(1)."""
        return int(self._row_of[record]) if 0 <= record < self._count else -1

    def shown_records(self) -> np.ndarray:
        """The records shown, in row order (read-only ``np.int64`` array of shape (rows,))."""
        rows = self._rows.view()
        rows.flags.writeable = False
        return rows

    def records_at(self, rows: Iterable[int]) -> list[int]:
        """The records shown in ``rows``, -1 for a row out of range (list[int]); with
        :meth:`rows_of`, a selection follows its records across a sort or filter change."""
        shown, n = self._rows, len(self._rows)
        return [int(shown[r]) if 0 <= r < n else -1 for r in rows]

    def rows_of(self, records: Iterable[int]) -> list[int]:
        """The rows that now show ``records``, -1 for a hidden or missing record (list[int])."""
        return [self.row_of(r) if r >= 0 else -1 for r in records]

    def paths_at(self, row: int) -> list[str]:
        """Absolute paths of the file(s) shown in ``row`` (list[str])."""
        return self.paths_of(self.record(row))

    # --- sorting ---------------------------------------------------------------------------

    def sort(self, column: int, descending: bool = False) -> None:
        """Sort rows by ``column``'s sort keys (stable: ties keep the result's order, ascending
        and descending); ``column`` -1 restores the result's order."""
        self._sort_column, self._descending = column, bool(descending)
        self._update_rows()

    def sort_column(self) -> int:
        """The column the rows are sorted by, -1 for the result's order (int)."""
        return self._sort_column

    def descending(self) -> bool:
        """Whether the sort is descending (bool)."""
        return self._descending

    def _column_keys(self, col: int) -> np.ndarray:
        keys = self._keys.get(col)
        if keys is None:
            keys = self._keys[col] = np.asarray(self.sort_keys(col))
        return keys

    def _sorted_records(self, col: int, descending: bool) -> np.ndarray:
        """Every record in the order of column ``col`` (kept until the values change, so that
        a filter change under a sort costs no new sort)."""
        if self._order is None or self._order[:2] != (col, descending):
            order = stable_argsort(self._column_keys(col), descending).astype(np.int64, copy=False)
            self._order = (col, descending, order)
        return self._order[2]

    # --- filters -----------------------------------------------------------------------------

    def type_filter(self) -> TypeFilter:
        """The current type filter (``None`` = all types)."""
        return self._type_filter

    def set_type_filter(self, type_filter: TypeFilter) -> None:
        """Keep only rows of these duplicate types (``None`` = all types)."""
        self._type_filter = None if type_filter is None else frozenset(type_filter)
        self._masks.pop("type", None)
        self._update_rows()

    def text_filter(self) -> str:
        """The current file-name filter, stripped and case-folded (``""`` = none) (str)."""
        return self._text

    def set_text_filter(self, text: str) -> None:
        """Keep only rows whose file name(s) contain ``text``, ignoring case and surrounding
        spaces (``""`` = all)."""
        self._text = text.strip().casefold()
        self._masks.pop("text", None)
        self._update_rows()

    def record_filter(self) -> np.ndarray | None:
        """The records the record filter keeps (sorted ``np.int64`` array), or ``None``."""
        return self._records

    def checked_records(self, records) -> np.ndarray | None:
        """``records`` as a record filter: sorted unique ``np.int64`` record indices, or ``None``.

        Args:
            records: an iterable or array of record indices, or ``None``.

        Raises:
            IndexError: a record index outside ``0 .. records - 1``.
        """
        if records is None:
            return None
        chosen = np.unique(np.fromiter(records, np.int64) if not isinstance(records, np.ndarray)
                           else records.astype(np.int64, copy=False))  # fmt: skip
        if len(chosen) and (chosen[0] < 0 or chosen[-1] >= self._count):
            raise IndexError(f"record filter outside 0..{self._count - 1}")
        return chosen

    def set_record_filter(self, records) -> None:
        """Keep only these records (``None`` = all).  They are record indices (positions in the
        scan result), not rows, so sorting does not disturb them.

        Args:
            records: an iterable or array of record indices, or ``None``.

        Raises:
            IndexError: a record index outside ``0 .. records - 1`` (the filter is unchanged).
        """
        self._records = self.checked_records(records)
        self._masks.pop("records", None)
        self._update_rows()

    def _mask(self) -> np.ndarray | None:
        """The combined filter mask over the records, ``None`` when no filter is set."""
        masks = []
        if self._type_filter is not None:
            if "type" not in self._masks:
                self._masks["type"] = self.type_mask(self._type_filter)
            masks.append(self._masks["type"])
        if self._text:
            if "text" not in self._masks:
                self._masks["text"] = self.text_mask(self._text)
            masks.append(self._masks["text"])
        if self._records is not None:
            if "records" not in self._masks:
                mask = np.zeros(self._count, dtype=np.bool_)
                mask[self._records] = True
                self._masks["records"] = mask
            masks.append(self._masks["records"])
        masks += self.extra_masks()
        if not masks:
            return None
        combined = masks[0].copy()
        for mask in masks[1:]:
            combined &= mask
        return combined

    # --- rows --------------------------------------------------------------------------------

    def _update_rows(self) -> None:
        """Compute ``row -> record`` and ``record -> row`` from the sort and the filters."""
        if 0 <= self._sort_column < len(self.COLUMNS) and self._count:
            order = self._sorted_records(self._sort_column, self._descending)
        else:
            order = None
        mask = self._mask()
        if order is None:
            rows = np.arange(self._count, dtype=np.int64) if mask is None else np.flatnonzero(mask)
        else:
            rows = order if mask is None else order[mask[order]]
        self._rows = rows.astype(np.int64, copy=False)
        self._row_of = np.full(self._count, -1, dtype=np.int64)
        self._row_of[self._rows] = np.arange(len(self._rows), dtype=np.int64)
