"""The labelled pairs behind a confusion-matrix cell of the method comparison tab
(:mod:`.methods_view`): a click on a cell lists them (labelled X, predicted Y, with their
measures and paths) in a small window, as ``evaluate --list-wrong`` lists the wrong ones.  A
pair of the list opens in the main window (a double click, Enter or "Show in window"): its
pairs table selects it and the inspector shows it, or the window says why it cannot (a
labelled pair the scan never compared has no row).  The pairs and their lines are computed in
core (:mod:`dedup_gui.core.evaluation.wrong_pairs`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.evaluation.evaluate import ScoredPair
from dedup_gui.core.evaluation.wrong_pairs import cell_pairs, format_cell
from dedup_gui.core.model import TYPE_ORDER
from dedup_gui.gui.teaching.widgets import plain_label

#: Shows a labelled pair in the main window: ``(labels file, left, right)`` (the paths as the
#: labels file writes them) -> what the window did or why it could not (str).
ShowPair = Callable[[Path, str, str], str]
#: The item data role holding a list entry's ``(left, right)`` paths.
PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
#: What the dialog says when no main window takes the pairs (a teaching window of its own).
NO_WINDOW = "No main window to show the pair in."


class CellPairsDialog(QDialog):
    """A window listing the pairs of one cell (one entry per pair, fixed-width, plain text),
    each one shown in the main window on activation.

    Args:
        text: the list (:func:`~dedup_gui.core.evaluation.wrong_pairs.format_cell`): a title line,
            then one line per pair of ``pairs``.
        pairs: the cell's pairs, in the order of the lines.
        labels_csv: the labels file their paths are relative to.
        show_pair: shows a pair in the main window (:data:`ShowPair`), ``None`` without one.
        parent: the Qt parent widget.

    Attributes:
        title: the title line; pairs: the list (an entry's :data:`PAIR_ROLE` holds its paths);
        show_button: "Show in window"; note: what the main window did with the last pair shown.
    """

    def __init__(self, text: str, pairs: list[ScoredPair] | None = None, labels_csv: Path | None = None,
                 show_pair: ShowPair | None = None, parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Labelled pairs of the cell")
        self._labels_csv, self._show_pair = labels_csv, show_pair
        title, *lines = text.splitlines()
        self.title = plain_label(title, wrap=True)
        self.pairs = QListWidget()  # plain text items: paths are never read as markup
        self.pairs.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        for line, scored in zip(lines, pairs or [], strict=False):
            item = QListWidgetItem(line)
            item.setData(PAIR_ROLE, (scored.pair.left, scored.pair.right))
            item.setToolTip("Double-click or press Enter to show this pair in the main window")
            self.pairs.addItem(item)
        self.pairs.itemActivated.connect(self.show_item)  # a double click
        self.pairs.installEventFilter(self)  # Enter
        self.pairs.currentRowChanged.connect(lambda row: self.show_button.setEnabled(row >= 0))
        self.note = plain_label(wrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.show_button = QPushButton("Show in window")
        self.show_button.setToolTip("Select the pair in the main window's pairs table and show it in the inspector")
        self.show_button.setEnabled(False)
        self.show_button.setAutoDefault(False)  # Enter in the list activates the entry
        self.show_button.clicked.connect(lambda: self.show_item(self.pairs.currentItem()))
        buttons.addButton(self.show_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.pairs, 1)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        if self.pairs.count():
            self.pairs.setCurrentRow(0)
        self.resize(900, 360)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        """Enter in the list shows its current entry and keeps the dialog open for the next
        one (the list passed the key on after its activation, and the dialog's Close took it)."""
        if (watched is self.pairs and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):  # fmt: skip
            self.show_item(self.pairs.currentItem())
            return True
        return super().eventFilter(watched, event)

    def show_item(self, item: QListWidgetItem | None) -> str:
        """Show ``item``'s pair in the main window; the note says what happened (returned, str)."""
        if item is None:
            return ""
        left, right = item.data(PAIR_ROLE)
        if self._show_pair is None or self._labels_csv is None:
            said = NO_WINDOW
        else:
            said = self._show_pair(self._labels_csv, left, right)
        self.note.setText(said)
        return said


def list_cell_pairs_on_click(table: QTableWidget, scored: Callable[[], list[ScoredPair] | None],
                             labels_csv: Callable[[], Path | None] = lambda: None,
                             show_pair: Callable[[], ShowPair | None] = lambda: None) -> None:  # fmt: skip
    """Make a click on a count of the confusion ``table`` (rows labelled, columns predicted, in
    :data:`TYPE_ORDER`) open a :class:`CellPairsDialog` with that cell's pairs.

    Args:
        table: the confusion matrix table.
        scored: gives the last run's scored pairs, ``None`` without a run.
        labels_csv: gives the last run's labels file, ``None`` without a run.
        show_pair: gives what shows a pair in the main window (:data:`ShowPair`), ``None`` for none.
    """

    def clicked(row: int, col: int) -> None:
        pairs = scored()
        if pairs is None or not (0 <= row < len(TYPE_ORDER) and 0 <= col < len(TYPE_ORDER)):
            return  # the recall column, or no run
        true, predicted = TYPE_ORDER[row], TYPE_ORDER[col]
        found = cell_pairs(pairs, true, predicted)
        if not found:
            return
        dialog = CellPairsDialog(format_cell(found, true, predicted), found, labels_csv(), show_pair(), table)
        table.setProperty("cell_dialog", dialog)  # reachable for tests; replaced by the next one
        dialog.open()

    table.cellClicked.connect(clicked)
