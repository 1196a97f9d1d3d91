"""The labelled pairs behind a confusion-matrix cell of the method comparison tab
(:mod:`.methods_view`): a click on a cell lists them (labelled X, predicted Y, with their
measures and paths) in a small window, as ``evaluate --list-wrong`` lists the wrong ones.
The pairs and their lines are computed in core (:mod:`dedup_gui.core.evaluation.wrong_pairs`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QTableWidget, QVBoxLayout, QWidget

from dedup_gui.core.evaluation.evaluate import ScoredPair
from dedup_gui.core.evaluation.wrong_pairs import cell_pairs, format_cell
from dedup_gui.core.model import TYPE_ORDER


class CellPairsDialog(QDialog):
    """A window listing the pairs of one cell (plain text, selectable, fixed-width).

    Args:
        text: the list (:func:`~dedup_gui.core.evaluation.wrong_pairs.format_cell`).
        parent: the Qt parent widget.
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Labelled pairs of the cell")
        self.text = QPlainTextEdit(text)  # plain text: paths are never read as markup
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(900, 360)


def list_cell_pairs_on_click(table: QTableWidget, scored: Callable[[], list[ScoredPair] | None]) -> None:
    """Make a click on a count of the confusion ``table`` (rows labelled, columns predicted, in
    :data:`TYPE_ORDER`) open a :class:`CellPairsDialog` with that cell's pairs.

    Args:
        table: the confusion matrix table.
        scored: gives the last run's scored pairs, ``None`` without a run.
    """

    def clicked(row: int, col: int) -> None:
        pairs = scored()
        if pairs is None or not (0 <= row < len(TYPE_ORDER) and 0 <= col < len(TYPE_ORDER)):
            return  # the recall column, or no run
        true, predicted = TYPE_ORDER[row], TYPE_ORDER[col]
        found = cell_pairs(pairs, true, predicted)
        if not found:
            return
        dialog = CellPairsDialog(format_cell(found, true, predicted), table)
        table.setProperty("cell_dialog", dialog)  # reachable for tests; replaced by the next one
        dialog.open()

    table.cellClicked.connect(clicked)
