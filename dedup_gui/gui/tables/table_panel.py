"""A result table with its filter bar (a type combo, a status combo for the pages, a file-name filter, a
removable chip for a record filter such as "Hamming distance = 4") and a sortable view with a
context menu (open, open in the browser, copy paths, show in folder) and keyboard access.  Its
columns' widths are :mod:`~dedup_gui.gui.tables.column_widths`' (fitted, paths elided)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import DupType
from dedup_gui.gui.file_actions import copy_paths, file_menu
from dedup_gui.gui.tables.changed_entry import ChangedEntry, DiffersEntry
from dedup_gui.gui.tables.column_widths import ColumnSizer
from dedup_gui.gui.tables.models import PagesModel, PairsModel
from dedup_gui.gui.tables.status_combo import StatusCombo
from dedup_gui.gui.tables.table_model import DUPLICATE_TYPES, TYPE_FILTERS, ResultTableModel

_TEXT_FILTER_DELAY_MS = 200  # wait for a pause in typing before filtering a million rows
#: Index of "Duplicates only" and of "All types" in :data:`TYPE_FILTERS`.
_DUPLICATES_ONLY = next(i for i, (_label, f) in enumerate(TYPE_FILTERS) if f == DUPLICATE_TYPES)
_ALL_TYPES = next(i for i, (_label, f) in enumerate(TYPE_FILTERS) if f is None)


class TablePanel(QWidget):
    """A :class:`ResultTableModel` in a table view, with its filter bar.

    The model sorts and filters itself (NumPy, see :mod:`dedup_gui.gui.tables.table_model`); the
    panel only turns header clicks and the filter bar into calls of the model.  The panel
    speaks in *records* (indices into the scan result: a pair, a file), which stay the same
    when rows are sorted or filtered.

    The view sorts on header clicks; until then rows keep the model's order (for pairs: most
    similar first).  Keyboard: the arrows move the selection, Enter activates the row (the
    window moves the focus to the inspector), Ctrl+C copies the row's paths, the menu key or
    Shift+F10 opens the context menu.

    The type combo's "Duplicates only" hides the distinct pairs (a "Show duplicates only" check
    box beside it did the same and is gone); for the pairs, its last entry lists the pairs the
    last re-classification changed (:class:`~dedup_gui.gui.tables.changed_entry.ChangedEntry`),
    then, with a labels file, the pairs whose type differs from their label
    (:class:`~dedup_gui.gui.tables.changed_entry.DiffersEntry`).

    Args:
        model: the table model (the panel does not take ownership of its data).
        with_type_filter: show the duplicate-type combo (``False`` for the errors table).
        with_status_filter: show the pages' status combo (:class:`StatusCombo`; a
            :class:`PagesModel` only).
        with_details: show, under the table, the current row's file and its whole text
            (:attr:`details`; the errors table, whose reasons a cell cuts).
        parent: the Qt parent widget, or ``None``.

    Signals:
        current_record_changed(int): the record of the new current row, -1 for none.
        visible_rows_changed(int, int): rows shown after filtering, and records in the model.
        record_activated(int): Enter (or a double click) on a row; its record.
        record_filter_changed(str): the record filter's label, ``""`` when it was cleared.
        columns_changed(): the user hid or showed a column (the header's right-click menu).
    """

    current_record_changed = Signal(int)
    visible_rows_changed = Signal(int, int)
    record_activated = Signal(int)
    record_filter_changed = Signal(str)
    columns_changed = Signal()

    def __init__(self, model: ResultTableModel, with_type_filter: bool = True,
                 with_details: bool = False,
                 with_status_filter: bool = False, parent=None) -> None:  # fmt: skip
        super().__init__(parent)
        #: The pages' status filter (``with_status_filter``, a :class:`PagesModel` only), or ``None``.
        self.status_combo = StatusCombo(model) if with_status_filter and isinstance(model, PagesModel) else None
        self.model = model
        #: Called as ``menu_extras(menu, record)`` to add commands to a row's context menu.
        self.menu_extras: Callable[[QMenu, int], None] | None = None

        self.type_combo = QComboBox()
        for label, _type_filter in TYPE_FILTERS:
            self.type_combo.addItem(label)
        self.type_combo.currentIndexChanged.connect(self._on_type_changed)
        # the pairs: "Changed by the last re-classification (9)" after the type filters
        self.changed_entry = (
            ChangedEntry(self.type_combo, model, len(TYPE_FILTERS)) if isinstance(model, PairsModel) else None
        )
        # then "Differs from label (12)" while the scan has a labels file
        self.differs_entry = (
            DiffersEntry(self.type_combo, model, self.changed_entry)
            if isinstance(model, PairsModel) and self.changed_entry is not None
            else None
        )
        self.filter_chip = QToolButton()
        self.filter_chip.setToolTip("Clear this filter")
        self.filter_chip.clicked.connect(self.clear_record_filter)
        self.filter_chip.hide()
        self._record_filter_label = ""
        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText("Filter by file name…")
        self.text_filter.setClearButtonEnabled(True)
        self.text_filter.setAcceptDrops(False)  # a folder dropped here opens it (the window's drop)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(_TEXT_FILTER_DELAY_MS)
        self._text_timer.timeout.connect(self.apply_text_filter)
        self.text_filter.textChanged.connect(self._on_text_changed)

        self.view = QTableView()
        self.view.setModel(model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep both ends of long text
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        #: The columns' widths (:class:`~dedup_gui.gui.tables.column_widths.ColumnSizer`).
        self.columns = ColumnSizer(self.view, model)
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # model order until a click
        self.view.horizontalHeader().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.horizontalHeader().customContextMenuRequested.connect(self._show_column_menu)
        self.apply_hidden_columns()
        self.view.setSortingEnabled(True)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.view.activated.connect(self._on_activated)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._show_context_menu)
        self.copy_action = QAction("Copy paths", self.view)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.copy_current_paths)
        self.view.addAction(self.copy_action)
        self.menu_action = QAction("Context menu", self.view)
        self.menu_action.setShortcut(QKeySequence("Shift+F10"))
        self.menu_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.menu_action.triggered.connect(lambda: self._show_context_menu(QPoint(-1, -1)))
        self.view.addAction(self.menu_action)
        # says why the table is empty when filters hide every row (plain text: it may quote a
        # file-name filter)
        self.empty_label = QLabel(self.view.viewport())
        self.empty_label.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.empty_label.hide()
        self._record_filter_empty = ""
        self._announced = -1  # the record current_record_changed last announced
        self.view.viewport().installEventFilter(self)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._emit_counts)
        model.layoutChanged.connect(self._after_layout_change)  # a filter, a sort or new types
        model.headerDataChanged.connect(self._follow_available_columns)  # the pairs' Label column

        type_label = QLabel("Type:")
        bar = QHBoxLayout()
        bar.addWidget(type_label)
        bar.addWidget(self.type_combo)
        if self.status_combo is not None:
            bar.addWidget(QLabel("Status:"))
            bar.addWidget(self.status_combo)
        bar.addWidget(self.filter_chip)
        bar.addWidget(self.text_filter, 1)
        type_label.setVisible(with_type_filter)
        self.type_combo.setVisible(with_type_filter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        #: The current row's path and whole text, word-wrapped and selectable (``with_details``).
        self.details = QLabel()
        self.details.setObjectName("details")
        self.details.setTextFormat(Qt.TextFormat.PlainText)  # a path or reason may hold markup
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setVisible(with_details)
        self._update_details(-1)
        if with_details:
            self.current_record_changed.connect(self._update_details)
        layout.addWidget(self.details)

    def _update_details(self, record: int) -> None:
        if record < 0:
            self.details.setText("Select a row to read its whole text here.")
            return
        self.details.setText(self.model.table.details(record))

    def apply_text_filter(self) -> None:
        """Filter by the file-name box now (typing applies it after a short pause)."""
        self._text_timer.stop()
        if self.text_filter.text().strip().casefold() != self.model.text_filter():
            self.model.set_text_filter(self.text_filter.text())

    def set_type_filter_index(self, index: int) -> None:
        """Select entry ``index`` of :data:`~dedup_gui.gui.tables.table_model.TYPE_FILTERS`."""
        self.type_combo.setCurrentIndex(index)

    def set_duplicates_only(self, on: bool) -> None:
        """Hide the distinct pairs (``on``: "Duplicates only" unless the type picked is one of
        the four duplicate types) or show every type again (if distinct pairs are hidden)."""
        index = self.type_combo.currentIndex()
        type_filter = TYPE_FILTERS[index][1] if 0 <= index < len(TYPE_FILTERS) else None
        shows_distinct = type_filter is None or DupType.DISTINCT in type_filter
        if on and shows_distinct:
            self.type_combo.setCurrentIndex(_DUPLICATES_ONLY)
        elif not on and not shows_distinct:
            self.type_combo.setCurrentIndex(_ALL_TYPES)

    def duplicates_only(self) -> bool:
        """Whether the type filter leaves out distinct pairs (bool; remembered between sessions)."""
        type_filter = self.model.type_filter()
        return type_filter is not None and DupType.DISTINCT not in type_filter

    def set_record_filter(self, records, label: str, empty_text: str = "") -> None:
        """Show only these records (indices into the scan result, e.g. the pairs at one Hamming
        distance), with a chip ``"<label> ×"`` that clears the filter when clicked.

        Args:
            records: an iterable or NumPy array of record indices.
            label: what the filter is, e.g. ``"Hamming distance = 4"`` (plain text).
            empty_text: shown over the table when ``records`` is empty (plain text; ``""``: a
                generic line).

        Raises:
            IndexError: a record index outside the model's records.
        """
        self._record_filter_empty = empty_text
        self._record_filter_label = label  # before the model's signals update the empty-table line
        self.model.set_record_filter(records)
        self.filter_chip.setText(f"{label} ×")
        self.filter_chip.show()
        self.record_filter_changed.emit(label)

    def clear_record_filter(self) -> None:
        """Remove the record filter and its chip (nothing happens if there is none)."""
        if self.model.record_filter() is None:
            return
        self._record_filter_label = ""
        self._record_filter_empty = ""
        self.filter_chip.hide()
        self.model.set_record_filter(None)
        self.record_filter_changed.emit("")
        self.view.scrollTo(self.view.currentIndex())

    def record_filter_label(self) -> str:
        """The label of the record filter, ``""`` when there is none (str)."""
        return self._record_filter_label

    def refresh_filter(self) -> None:
        """Sort and filter again after the model's values changed in place."""
        self.model.refilter()

    def select_record(self, record: int) -> bool:
        """Make the row of ``record`` current and selected, clearing the filters if they hide
        it (first the file-name and record filters, then the type filter).

        Args:
            record: an index into the model's records (e.g. into ``result.pairs``).

        Returns:
            ``True`` if the record's row is now selected (bool); ``False`` for no such record.
        """
        if not 0 <= record < self.model.record_count():
            return False
        if self.model.row_of(record) < 0:
            self.text_filter.clear()
            self.apply_text_filter()
            self.clear_record_filter()
        if self.model.row_of(record) < 0 and self.status_combo is not None:
            self.status_combo.show_all()
        if self.model.row_of(record) < 0:
            self.type_combo.setCurrentIndex(0)
        row = self.model.row_of(record)
        if row < 0:
            return False
        self._select_row(row)
        return True

    def select_first_row(self) -> bool:
        """Make the first visible row current (``False`` when no row is visible)."""
        if self.model.rowCount() == 0:
            return False
        self._select_row(0)
        return True

    def _select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.selectRow(row)
        self.view.scrollTo(index)

    def current_record(self) -> int:
        """The record of the current row, or -1 when there is none (int)."""
        index = self.view.currentIndex()
        return self.model.record(index.row()) if index.isValid() else -1

    def context_menu(self, record: int) -> QMenu:
        """The context menu for ``record``: open, open in the browser, show in folder, copy
        paths (see :func:`~dedup_gui.gui.file_actions.file_menu`), after what
        :attr:`menu_extras` adds (if set: ``menu_extras(menu, record)``)."""
        menu = file_menu(self.model.paths_of(record), self)
        if self.menu_extras is not None:
            self.menu_extras(menu, record)
        return menu

    def copy_current_paths(self) -> str:
        """Copy the current row's paths to the clipboard, one per line; return them (str)."""
        record = self.current_record()
        return copy_paths(self.model.paths_of(record)) if record >= 0 else ""

    def content_widths(self) -> list[int]:
        """Each column's width for its contents (pixels, list[int]):
        :meth:`ColumnSizer.content_widths <dedup_gui.gui.tables.column_widths.ColumnSizer.content_widths>`."""
        return self.columns.content_widths()

    def fit_columns(self, available: int) -> None:
        """Fit the columns in ``available`` pixels, spare width to the path columns:
        :meth:`ColumnSizer.fit_columns <dedup_gui.gui.tables.column_widths.ColumnSizer.fit_columns>`."""
        self.columns.fit_columns(available)

    # --- which columns are shown (the header's menu) ------------------------------------------

    def set_column_hidden(self, col: int, hidden: bool) -> bool:
        """Hide or show column ``col`` and fit the columns again; emits :attr:`columns_changed`.

        Returns:
            Whether it changed (bool; the last column shown stays).
        """
        if not self.model.table.set_column_hidden(col, hidden):
            return False
        self.apply_hidden_columns()
        view = self.view
        self.fit_columns(view.width() - 2 * view.frameWidth() - view.verticalScrollBar().sizeHint().width())
        self.columns_changed.emit()
        return True

    def set_hidden_columns(self, columns) -> None:
        """Show every column but ``columns`` (an iterable of column numbers; remembered ones)."""
        self.model.table.set_hidden_columns(columns)
        self.apply_hidden_columns()

    def apply_hidden_columns(self) -> None:
        """Hide the view's columns that the table state says are hidden, show the others."""
        hidden = self.model.table.hidden_columns()
        for col in range(self.model.columnCount()):
            self.view.setColumnHidden(col, col in hidden)

    def _follow_available_columns(self, *_args) -> None:
        # a column became available or unavailable (labels came or went): show or hide it, and
        # fit the columns again if the view is on screen (else its tab fits them when shown)
        hidden = self.model.table.hidden_columns()
        if all(self.view.isColumnHidden(c) == (c in hidden) for c in range(self.model.columnCount())):
            return
        self.apply_hidden_columns()
        view = self.view
        if view.isVisible():
            self.fit_columns(view.width() - 2 * view.frameWidth() - view.verticalScrollBar().sizeHint().width())

    def column_menu(self) -> QMenu:
        """The header's menu: one checkable entry per column, checked when it is shown, and
        "Show All Columns" (QMenu; the last shown column cannot be unchecked)."""
        menu = QMenu(self)
        menu.addSection("Columns shown")
        hidden = self.model.table.hidden_columns()
        unavailable = self.model.table.unavailable_columns()  # nothing to show: not offered
        last = len(hidden) + 1 == len(self.model.COLUMNS)
        for col in self.columns.shown_order():  # in the order on screen
            if col in unavailable:
                continue
            action = menu.addAction(self.model.COLUMNS[col].replace("\n", " "))
            action.setCheckable(True)
            action.setChecked(col not in hidden)
            action.setEnabled(col in hidden or not last)
            action.toggled.connect(lambda checked, c=col: self.set_column_hidden(c, not checked))
        menu.addSeparator()
        every = menu.addAction("Show All Columns")
        every.setEnabled(bool(hidden - unavailable))
        every.triggered.connect(lambda: [self.set_column_hidden(c, False) for c in sorted(hidden - unavailable)])
        return menu

    def _show_column_menu(self, pos: QPoint) -> None:
        menu = self.column_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.horizontalHeader().mapToGlobal(pos))

    def _on_text_changed(self, _text: str) -> None:
        self._text_timer.start()

    def _on_type_changed(self, index: int) -> None:
        changed = self.changed_entry is not None and self.changed_entry.is_entry(index)
        differs = self.differs_entry is not None and self.differs_entry.is_entry(index)
        type_filter = TYPE_FILTERS[index][1] if 0 <= index < len(TYPE_FILTERS) else None
        if isinstance(self.model, PairsModel) and self.model.changed_only() != changed:
            self.model.set_changed_only(changed)
        if isinstance(self.model, PairsModel) and self.model.differs_only() != differs:
            self.model.set_differs_only(differs)
        self.model.set_type_filter(type_filter)

    def _on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.record_activated.emit(self.model.record(index.row()))

    def _show_context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():  # the keyboard's menu key: the current row
            index = self.view.currentIndex()
            rect = self.view.visualRect(index)
            pos = rect.center() if rect.isValid() else QPoint(0, 0)
        if not index.isValid():
            return
        self.view.setCurrentIndex(index)
        menu = self.context_menu(self.model.record(index.row()))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.viewport().mapToGlobal(pos))

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._announced = self.model.record(current.row()) if current.isValid() else -1
        self.current_record_changed.emit(self._announced)

    def _after_layout_change(self, *_args) -> None:
        # a filter that hides the current row: the first row shown becomes current, so that the
        # inspector shows a listed pair (it said "Select a pair…" while the clusters panel still
        # highlighted the hidden pair's cluster); a row still shown stays current
        if self._announced >= 0 and not self.view.currentIndex().isValid() and self.model.rowCount():
            self._select_row(0)
        self._emit_counts()

    def _emit_counts(self, *_args) -> None:
        # a filter that hides the current row leaves Qt's current index invalid without a
        # currentRowChanged: say so, or the inspector keeps showing a pair no longer listed
        if self._announced >= 0 and not self.view.currentIndex().isValid():
            self._announced = -1
            self.current_record_changed.emit(-1)
        self._update_empty_label()
        self.visible_rows_changed.emit(self.model.rowCount(), self.model.record_count())

    def empty_text(self) -> str:
        """Why no row is shown, in words (str; ``""`` when rows are shown): with no record at
        all, what the table's empty-state line says ("No pairs: the folder holds one page",
        :meth:`~dedup_gui.core.views.table_state.TableState.empty_message`); else which filters
        hide the rows and how to undo them."""
        if self.model.rowCount() > 0:
            return ""
        if self.model.record_count() == 0:
            return self.model.table.empty_message()
        record_filter = self.model.record_filter()
        if record_filter is not None and len(record_filter) == 0:
            return self._record_filter_empty or f"Nothing to list for {self._record_filter_label}."
        undo = []  # only the filters in force, of the ones this table has
        if self.model.text_filter():
            undo.append("clear the file-name filter")
        if record_filter is not None:
            undo.append(f'remove "{self._record_filter_label}"')
        if not self.type_combo.isHidden() and self.type_combo.currentIndex() != _ALL_TYPES:
            undo.append('pick "All types"')
        if self.status_combo is not None and self.status_combo.is_filtering():
            undo.append('pick "All statuses"')
        if not undo:
            return "No row matches the filters."
        steps = undo[0] if len(undo) == 1 else ", ".join(undo[:-1]) + " or " + undo[-1]
        return f"No row matches the filters: {steps}."

    def _update_empty_label(self) -> None:
        text = self.empty_text()
        self.empty_label.setText(text)
        self.empty_label.setVisible(bool(text))
        if text:
            self._place_empty_label()

    def _place_empty_label(self) -> None:
        self.empty_label.setGeometry(self.view.viewport().rect().adjusted(24, 24, -24, -24))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        """Keeps the empty-table message centred on the table's viewport, and the path columns
        filling its width."""
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and watched is self.view.viewport():
            if self.empty_label.isVisible():
                self._place_empty_label()
            # a hidden tab's table is resized before it is shown (no visible resize then): its
            # Show spreads the width too, or a window enlarged on another tab leaves it narrow
            if self.view.isVisible():
                self.columns.follow_viewport(self.view.viewport().width())
        return super().eventFilter(watched, event)
