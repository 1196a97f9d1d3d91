"""The widths of a result table's columns: fitted to the display text of a sample of records,
the elastic text columns shrunk so that all columns fit, the spare width given to the path
columns (now and whenever the table is resized), and file paths drawn elided so a narrow column
keeps the file names (:class:`PathDelegate`).

The table panel (:mod:`dedup_gui.gui.tables.table_panel`) owns one :class:`ColumnSizer` per table.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from dedup_gui.core.views.paths import split_path_tail
from dedup_gui.gui.elide import ElideRightDelegate, elide_path, paint_path, short_path
from dedup_gui.gui.tables.table_model import NAME_START_ROLE, PATH_CUT_ROLE, ResultTableModel

_MAX_COLUMN_WIDTH = 420  # a text column (title, URL, reason) at most; path columns take what they need
_MIN_ELASTIC_WIDTH = 110
#: A text or path column's least width when the columns do not fit even with every elastic
#: column at :data:`_MIN_ELASTIC_WIDTH` (the pages table at 1600 px hid Keep and Canonical): the
#: widest line of its title, or this (pixels), a dozen letters; its whole text is in its tooltip
#: and the line under the table.  At 64 px the pages' columns read "Kub… 文档", "1.00…html".
_MIN_TEXT_WIDTH = 84
#: A path column's least width in that case (pixels): "v1.10.x/…/install/" at 1280x800.
_MIN_PATH_WIDTH = 124
#: A :attr:`~dedup_gui.core.views.table_state.TableState.YIELDING` column's least width when
#: even that does not bring every column into sight (pixels): a few letters and "…".
_MIN_YIELDING_WIDTH = 40
_MAX_PATH_FLOOR = 150  # a path column's least width at most (its paths' first folder and file name)
_NUMBER_PADDING = 0  # pixels added to a number column's fitted width (text columns get _TEXT_PADDING)
_TEXT_PADDING = 12
_HEADER_SLACK = 2  # pixels beside a title's text and sort arrow, past the header's margins
#: Rows measured to size a column (the visible ones first).
SIZE_SAMPLE_ROWS = 200


def _in_sight(widths: list[int], available: int) -> int:
    """How many of the columns of ``widths`` (pixels, in order) end within ``available`` pixels."""
    return int(np.count_nonzero(np.cumsum(widths) <= available))


class PathDelegate(QStyledItemDelegate):
    """Draws file paths with :func:`elide_path`, so a narrow column keeps the file names, and
    of a file name too wide, the part that tells it from the others (the model's
    :data:`~dedup_gui.gui.tables.table_model.NAME_START_ROLE`)."""

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """Draw the cell with its path elided by :func:`elide_path` (the size hint, which
        fits the columns, still measures the whole path)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        paint_path(painter, opt, index.data(NAME_START_ROLE) or 0, index.data(PATH_CUT_ROLE))


class PathTailDelegate(QStyledItemDelegate):
    """Draws a cell that ends with a path after a short prefix ("0.953 v1.10/a/index.html",
    "duplicate of v1.16/a/index.html", an address): the prefix whole and the path shortened
    by :func:`elide_path`, as the path columns are; other text cut at its end (the view's
    middle elision drew "1.00…html" and "dupl…html")."""

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """Draw the cell with its path elided (see the class)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        parts = split_path_tail(opt.text)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        if parts is None:
            opt.textElideMode = Qt.TextElideMode.ElideRight
        else:
            prefix, path = parts
            margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, opt.widget) + 1) + 2
            room = opt.rect.width() - margin - opt.fontMetrics.horizontalAdvance(prefix)
            if opt.fontMetrics.horizontalAdvance(opt.text) > opt.rect.width() - margin:
                opt.text = prefix + elide_path(path, opt.fontMetrics, max(room, 0))
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)


class ColumnSizer:
    """Sizes the columns of one table view over a :class:`ResultTableModel`: the model's path
    columns get a :class:`PathDelegate`, the header is set up for fitted widths, and a path
    column the user drags keeps its width.

    Args:
        view: the table view (its header is configured here).
        model: the view's model (its ``COLUMNS``, ``NUMERIC``, ``ELASTIC`` and ``PATH_COLUMNS``).
    """

    def __init__(self, view: QTableView, model: ResultTableModel) -> None:
        self.view = view
        self.model = model
        self._path_delegate = PathDelegate(view)
        for column in model.PATH_COLUMNS:
            view.setItemDelegateForColumn(column, self._path_delegate)
        self._end_delegate = ElideRightDelegate(view)  # a status keeps its start ("redirects to …")
        for column in model.ELIDE_END:
            view.setItemDelegateForColumn(column, self._end_delegate)
        self._tail_delegate = PathTailDelegate(view)  # "duplicate of v1.16/…/acc…ebpf/"
        for column in model.PATH_TAIL:
            view.setItemDelegateForColumn(column, self._tail_delegate)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(SIZE_SAMPLE_ROWS)
        header.setStretchLastSection(False)  # spare width goes to the path columns (spread_to_paths)
        for position, column in enumerate(model.table.SHOWN_ORDER):  # on screen only (see SHOWN_ORDER)
            header.moveSection(header.visualIndex(column), position)
        # the columns that take spare width: paths, and text worth reading whole (errors' reasons)
        self._spare_columns = model.PATH_COLUMNS | model.WIDE_TEXT
        self._path_widths: dict[int, int] = {}  # spare column -> its fitted width (fit_columns)
        self._path_floors: dict[int, int] = {}  # path column -> width of its short forms (content_widths)
        self._sizing = False  # the sizer, not the user, is resizing columns
        self._spread_width = -1  # the viewport width the path columns were last spread over
        self._contents: list[int] | None = None  # content_widths() of the last fit_columns()
        self._dragged: set[int] = set()  # columns the user resized since: they keep their width
        header.sectionResized.connect(self._on_section_resized)

    def shown_order(self) -> list[int]:
        """The columns (model indices) in their order on screen, hidden ones included (list[int])."""
        header = self.view.horizontalHeader()
        return [header.logicalIndex(position) for position in range(header.count())]

    def follow_viewport(self, width: int) -> None:
        """Fit the columns to the viewport's new ``width`` (pixels) as :meth:`fit_columns`
        does, from the content widths it measured (no text is measured again), unless they are
        fitted to it already (a height change); before any fit, spread the path columns over it.

        Fitted once for the width a result arrived at, a table made narrower (a 1280-px window
        shrunk to 1024) kept its wide columns: the pages' Status was cut in its middle and the
        pairs' Type and similarity went out of sight behind a scroll bar.
        """
        if width == self._spread_width:
            return
        if self._contents is None:
            self.spread_to_paths(width)
        else:
            self._fit(width)

    def content_widths(self) -> list[int]:
        """Each column's width for its contents (pixels, list[int]): the widest of its header
        and the display text of a sample of records (the first rows shown and records spread
        over the whole table, filtered out or not, :data:`SIZE_SAMPLE_ROWS` in all).

        Measured here from the display text alone: ``resizeColumnsToContents`` asks every
        sampled cell for each of its roles through Python (some 17,000 calls for a 9-column
        table, 0.4 s of frozen window when a result arrives).
        """
        model, header = self.model, self.view.horizontalHeader()
        # Sampled from every record, shown or filtered out: a filter that hides every row when
        # the columns are fitted must not leave them at their headers' width ("de…ml").
        n = model.record_count()
        shown = [model.record(r) for r in range(min(model.rowCount(), SIZE_SAMPLE_ROWS // 2))]
        spread = np.linspace(0, n - 1, SIZE_SAMPLE_ROWS - len(shown), dtype=np.int64).tolist() if n else []
        metrics = self.view.fontMetrics()
        margin = self.cell_margin()
        widths = []
        records = sorted(set(shown) | set(spread))
        for col in range(model.columnCount()):
            texts = {model.cell_text(record, col) for record in records} | {model.widest_text(col)}
            text = max((metrics.horizontalAdvance(str(t)) for t in texts if t is not None), default=0)
            title = self.header_width(col) if col in model.NUMERIC else header.sectionSizeHint(col)
            widths.append(max(text + margin, title))
            if col in model.PATH_COLUMNS:
                short = max((metrics.horizontalAdvance(short_path(str(t))) for t in texts if t), default=0)
                self._path_floors[col] = min(short + margin, _MAX_PATH_FLOOR)
        return widths

    def cell_margin(self) -> int:
        """The pixels a column needs beside its text for the text to be drawn whole (int): the
        style's text margin on each side (``PM_FocusFrameHMargin`` + 1, as ``QCommonStyle``
        draws an item's text) and the grid line, which the table takes from the column's
        width (``QTableView`` draws a cell one pixel narrower than its column when the grid is
        shown).  Without the grid's pixel the Containment column, sized to its widest text
        "0.000 (right in left)", drew its cells as "0.986 (ri… in left)" (a tester).
        """
        style = self.view.style()
        grid = 1 if self.view.showGrid() else 0
        return 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1) + grid

    def header_width(self, col: int) -> int:
        """The width a column's title needs (pixels, int): its longest line (numeric columns
        have two-line titles, "Content" over "similarity"), the header's margins and room for
        the sort arrow.  Qt's own size hint measures the two lines as one and takes ~110 px for
        values like "1.000".
        """
        header = self.view.horizontalHeader()
        title = str(self.model.headerData(col, Qt.Orientation.Horizontal) or "")
        metrics = header.fontMetrics()
        style = header.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        arrow = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
        text = max((metrics.horizontalAdvance(line) for line in title.split("\n")), default=0)
        return text + 4 * margin + arrow + _HEADER_SLACK

    def fit_columns(self, available: int) -> None:
        """Size columns to their contents (:meth:`content_widths`), then shrink the model's
        elastic text columns (paths, titles) so that all columns fit in ``available`` pixels.

        Path columns (and :attr:`~dedup_gui.core.views.table_state.TableState.WIDE_TEXT`
        ones) take their whole text's width (other text columns at most
        :data:`_MAX_COLUMN_WIDTH`), and width left over goes to them, now and whenever the
        table is resized (:meth:`spread_to_paths`), never to small number columns.  Short of
        width, the other text columns give way first (to :data:`_MIN_ELASTIC_WIDTH`), then
        the paths (to their first folder and file name): the paths tell the rows apart.  When the
        columns do not fit even with the elastic ones at their least widths, the elastic
        columns give way further, down to their titles' width (at least
        :data:`_MIN_TEXT_WIDTH`), so that the last columns (the pages' Keep and Canonical)
        stay in sight; when even that does not fit them all, the model's
        :attr:`~dedup_gui.core.views.table_state.TableState.YIELDING` columns give way down to a
        few letters (:data:`_MIN_YIELDING_WIDTH`), and the narrower widths are taken when that
        brings more columns into sight (the pages' Keep at 1024x640); else the columns keep
        their widths (it scrolls sideways, and the
        texts in sight stay readable).

        Args:
            available: the width the columns should fill (pixels).
        """
        self._contents = self.content_widths()
        self._dragged.clear()
        self._fit(available)

    def _fit(self, available: int) -> None:
        """:meth:`fit_columns` from the content widths it measured; a column the user resized
        keeps its width and gives none."""
        header = self.view.horizontalHeader()
        hidden = self.model.table.hidden_columns() | self._dragged
        contents = self._contents if self._contents is not None else self.content_widths()
        paths = self.model.PATH_COLUMNS - hidden
        numeric = self.model.NUMERIC
        whole = self._spare_columns - hidden
        widths = [
            0  # a hidden column takes no width (its section keeps its own for when it is shown)
            if c in hidden
            else w + _NUMBER_PADDING
            if c in numeric
            else w + _TEXT_PADDING
            if c in whole
            else min(w + _TEXT_PADDING, _MAX_COLUMN_WIDTH)
            for c, w in enumerate(contents)
        ]
        for c in self._dragged - self.model.table.hidden_columns():
            widths[c] = header.sectionSize(c)  # counted, never changed
        # a path column keeps room for its first folder and file name ("v1.11/…/index.html")
        floors = {c: max(_MIN_ELASTIC_WIDTH, self._path_floors.get(c, 0) + _TEXT_PADDING) for c in paths}
        floor = [floors.get(c, _MIN_ELASTIC_WIDTH) for c in range(len(widths))]
        # the paths tell the rows apart: the other text columns give way first, then the paths
        # down to their first folder and file name, then the others down to their titles
        texts = [c for c in self.model.ELASTIC - hidden - paths if widths[c] > floor[c]]
        self._shrink(widths, texts, floor, sum(widths) - available)
        self._shrink(widths, [c for c in paths if widths[c] > floor[c]], floor, sum(widths) - available)
        excess = sum(widths) - available
        if excess > 0:  # still too wide: the text columns that are not paths give way further,
            # but only when that brings every column into sight; else the table scrolls anyway
            # and cutting "no usable text" to "no …ext" would buy nothing
            least = {c: max(_MIN_TEXT_WIDTH, self.header_width(c)) for c in self.model.ELASTIC - hidden}
            for c in paths:  # a path keeps more: its rows are told apart by it
                least[c] = max(least[c], min(floor[c], _MIN_PATH_WIDTH))
            narrower = list(widths)
            self._shrink(narrower, [c for c in least if narrower[c] > least[c]], least, excess)
            yielding: list[int] = []
            if sum(narrower) > available:  # the yielding columns (the pages' title, URL) give way further
                for c in self.model.YIELDING - hidden:
                    least[c] = min(least.get(c, narrower[c]), _MIN_YIELDING_WIDTH)
                yielding = [c for c in self.model.YIELDING - hidden if narrower[c] > least[c]]
                self._shrink(narrower, yielding, least, sum(narrower) - available)
            # all in sight, or more columns in sight thanks to the yielding ones (the pages' Keep)
            if sum(narrower) <= available or (
                yielding and _in_sight(narrower, available) > _in_sight(widths, available)
            ):
                widths = narrower
        with self._sizer_resizing():
            for col, width in enumerate(widths):
                if col not in hidden:  # nor a dragged column (in ``hidden`` here)
                    header.resizeSection(col, width)
        self._path_widths = {c: widths[c] for c in whole if c < len(widths)}
        # a shown table fills its viewport (``available`` keeps room for a scroll bar it may not have)
        self.spread_to_paths(self.view.viewport().width() if self.view.isVisible() else available)

    def grow_to_widest_texts(self) -> None:
        """Widen the columns that are not elastic to their :meth:`~ResultTableModel.widest_text`
        when it got wider (a re-classified result: a pair marked "distinct (marked by you)"),
        the width taken from the path columns; cheap, unlike :meth:`fit_columns`, which
        measures 200 rows."""
        header = self.view.horizontalHeader()
        margin = self.cell_margin()
        grown = False
        for col in range(header.count()):
            text = self.model.widest_text(col)
            if text is None or col in self.model.ELASTIC or header.isSectionHidden(col):
                continue
            width = self.view.fontMetrics().horizontalAdvance(text) + margin + (
                _NUMBER_PADDING if col in self.model.NUMERIC else _TEXT_PADDING)  # fmt: skip
            if width > header.sectionSize(col):
                with self._sizer_resizing():
                    header.resizeSection(col, width)
                if self._contents is not None and col < len(self._contents):  # a later refit keeps it
                    self._contents[col] = max(self._contents[col], width - margin)
                grown = True
        if grown and self._spread_width > 0:
            self.spread_to_paths(self._spread_width)

    @staticmethod
    def _shrink(widths: list[int], columns, floor, excess: int) -> None:
        """Take up to ``excess`` pixels from ``columns`` of ``widths`` (in place), from each in
        proportion to its width above its ``floor`` (a mapping or list by column), none below it."""
        slack = sum(widths[c] - floor[c] for c in columns)
        if excess > 0 and slack > 0:
            share = min(1.0, excess / slack)
            for c in columns:
                widths[c] -= min(int((widths[c] - floor[c]) * share + 0.999), widths[c] - floor[c])

    def spread_to_paths(self, available: int) -> None:
        """Give the width the columns leave free in ``available`` pixels to the path columns
        (and :attr:`~dedup_gui.core.views.table_state.TableState.WIDE_TEXT` ones), in equal parts on top of their fitted widths (with no width free: their fitted widths).

        Args:
            available: the table's width for its columns (pixels).
        """
        self._spread_width = available
        if not self._path_widths:
            return
        header = self.view.horizontalHeader()
        others = sum(header.sectionSize(c) for c in range(header.count())
                     if c not in self._path_widths and not header.isSectionHidden(c))  # fmt: skip
        spare = max(available - others - sum(self._path_widths.values()), 0)
        share, rest = divmod(spare, len(self._path_widths))
        with self._sizer_resizing():
            for k, (col, width) in enumerate(sorted(self._path_widths.items())):
                header.resizeSection(col, width + share + (1 if k < rest else 0))

    @contextmanager
    def _sizer_resizing(self):
        self._sizing = True
        try:
            yield
        finally:
            self._sizing = False

    def _on_section_resized(self, column: int, _old: int, _new: int) -> None:
        # a column the user dragged keeps its width: spare width goes to the others
        if not self._sizing:
            self._path_widths.pop(column, None)
            self._dragged.add(column)
