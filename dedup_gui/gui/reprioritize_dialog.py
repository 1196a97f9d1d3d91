"""Decide > Re-prioritize…: the keep criteria in order, each on or off (drag them, or use Up and
Down), the preferred pattern and the reference folders, as dupeGuru's "Re-Prioritize Results".

The state and its rules are :class:`dedup_gui.core.views.reprioritize.ReprioritizeState` (no
Qt); this dialog only draws it and passes the user's edits on.  OK is enabled when the state
makes a keep policy (:meth:`ReprioritizeDialog.policy`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import KeepPolicy
from dedup_gui.core.views.reprioritize import ReprioritizeState
from dedup_gui.gui.screen_fit import fit_to_screen

_KEY = Qt.ItemDataRole.UserRole
_DEFAULT_SIZE = (620, 520)  # pixels; wider when a criterion's text needs it
_SLACK = 8  # pixels beside the widest criterion, so that rounding never brings the scroll bar back


class ReprioritizeDialog(QDialog):
    """The Re-prioritize dialog.

    Args:
        policy: the keep policy in force (the dialog starts from it).
        root: the scanned folder (reference folders must lie under it).
        parent: the parent widget, or ``None``.

    Attributes:
        state: the dialog's :class:`ReprioritizeState`.
        criteria: the criteria list (checkable, reorderable by drag and drop).
        folders: the reference folders list.
    """

    def __init__(self, policy: KeepPolicy, root: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Re-prioritize: Which Page to Keep")
        self._root = root
        self.state = ReprioritizeState(policy, root)
        intro = QLabel(
            "In each keep cluster the page kept is the first by these criteria, top first; a tie "
            "goes to the next one. Drag them (or use Up and Down) to reorder; untick to leave one out."
        )
        intro.setWordWrap(True)
        self.criteria = QListWidget()
        self.criteria.setObjectName("criteria")
        # a criterion too long for a dialog capped to a small screen wraps instead of scrolling
        self.criteria.setWordWrap(True)
        self.criteria.setResizeMode(QListView.ResizeMode.Adjust)
        self.criteria.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.criteria.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.criteria.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.criteria.model().rowsMoved.connect(self._on_dragged)
        self.criteria.itemChanged.connect(self._on_item_changed)
        self.up_button = QPushButton("&Up")
        self.down_button = QPushButton("Do&wn")
        self.up_button.clicked.connect(lambda: self.move_current(-1))
        self.down_button.clicked.connect(lambda: self.move_current(+1))
        buttons_column = QVBoxLayout()
        buttons_column.addWidget(self.up_button)
        buttons_column.addWidget(self.down_button)
        buttons_column.addStretch(1)
        criteria_row = QHBoxLayout()
        criteria_row.addWidget(self.criteria, 1)
        criteria_row.addLayout(buttons_column)

        self.pattern_edit = QLineEdit(self.state.pattern)
        self.pattern_edit.setPlaceholderText("e.g. stable/* or /en/ (a path or URL; * and ? are wildcards)")
        self.pattern_edit.textChanged.connect(self._on_pattern)
        pattern_row = QHBoxLayout()
        pattern_row.addWidget(QLabel("&Pattern:"))
        pattern_row.addWidget(self.pattern_edit, 1)
        pattern_row.itemAt(0).widget().setBuddy(self.pattern_edit)

        self.folders = QListWidget()
        self.folders.setObjectName("reference-folders")
        add = QPushButton("&Add…")
        add.clicked.connect(self._browse_folder)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.clicked.connect(self.remove_current_folder)
        folder_buttons = QVBoxLayout()
        folder_buttons.addWidget(add)
        folder_buttons.addWidget(self.remove_button)
        folder_buttons.addStretch(1)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folders, 1)
        folder_row.addLayout(folder_buttons)
        folder_box = QGroupBox("Reference folders: every page under them is kept")
        folder_box.setLayout(folder_row)

        self.problem_label = QLabel()
        self.problem_label.setObjectName("problems")
        self.problem_label.setTextFormat(Qt.TextFormat.PlainText)
        self.problem_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                        | QDialogButtonBox.StandardButton.RestoreDefaults)  # fmt: skip
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.restore_defaults)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(criteria_row, 2)
        layout.addLayout(pattern_row)
        layout.addWidget(folder_box, 1)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)
        self._fill()
        self.resize(max(_DEFAULT_SIZE[0], self._width_for_criteria()), _DEFAULT_SIZE[1])
        fit_to_screen(self)  # 1,247 px wide at 1024x640 put Up, Down, OK and Cancel off screen

    def _width_for_criteria(self) -> int:
        """The dialog's width at which every criterion reads in full, with no horizontal scroll
        bar (pixels, int): the list's widest item (check box included), its frame and a
        vertical scroll bar's room, beside the Up and Down buttons and the layout's margins."""
        items = self.criteria.sizeHintForColumn(0)
        frame = 2 * self.criteria.frameWidth() + self.criteria.verticalScrollBar().sizeHint().width()
        buttons = max(self.up_button.sizeHint().width(), self.down_button.sizeHint().width())
        layout = self.layout()
        margins = layout.contentsMargins()
        return items + frame + buttons + layout.spacing() + margins.left() + margins.right() + _SLACK

    # --- drawing the state --------------------------------------------------------------------

    def _fill(self, current: int | None = None) -> None:
        """Draw the state: the criteria (``current`` row selected), the folders, the problems."""
        self.criteria.blockSignals(True)
        try:
            self.criteria.clear()
            for key in self.state.criteria():
                item = QListWidgetItem(self.state.label(key))
                item.setData(_KEY, key)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                              | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsDragEnabled)  # fmt: skip
                item.setCheckState(Qt.CheckState.Checked if self.state.enabled(key) else Qt.CheckState.Unchecked)
                self.criteria.addItem(item)
        finally:
            self.criteria.blockSignals(False)
        if current is not None:
            self.criteria.setCurrentRow(current)
        self.folders.clear()
        self.folders.addItems(list(self.state.reference_folders()))
        if self.pattern_edit.text() != self.state.pattern:
            self.pattern_edit.setText(self.state.pattern)
        self._show_problems()

    def _show_problems(self, extra: str = "") -> None:
        problems = self.state.problems()
        self.problem_label.setText(" ".join([*problems, extra]).strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problems)

    # --- the user's edits ---------------------------------------------------------------------

    def move_current(self, step: int) -> None:
        """Move the selected criterion ``step`` places (-1: up, more important)."""
        row = self.criteria.currentRow()
        if row >= 0:
            self._fill(self.state.move(row, row + step))

    def _on_dragged(self, *_args) -> None:
        keys = [self.criteria.item(i).data(_KEY) for i in range(self.criteria.count())]
        self.state.set_keys(keys)
        self._show_problems()

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        self.state.set_enabled(item.data(_KEY), item.checkState() == Qt.CheckState.Checked)
        self._show_problems()

    def _on_pattern(self, text: str) -> None:
        # typing a pattern ticks its criterion (and clearing it unticks it): redraw the list
        if self.state.set_pattern(text):
            self._fill(self.criteria.currentRow())
        else:
            self._show_problems()

    def add_folder(self, folder: str) -> bool:
        """Add a reference folder (absolute, or relative to the scanned folder); a folder outside
        the scanned folder is refused with the reason below the lists (bool: added)."""
        try:
            self.state.add_reference_folder(folder)
        except ValueError as exc:
            self._show_problems(str(exc))
            return False
        self._fill(self.criteria.currentRow())
        return True

    def _browse_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Reference Folder", self._root)
        if folder:
            self.add_folder(folder)

    def remove_current_folder(self) -> None:
        """Remove the selected reference folder."""
        item = self.folders.currentItem()
        if item is not None:
            self.state.remove_reference_folder(item.text())
            self._fill(self.criteria.currentRow())

    def restore_defaults(self) -> None:
        """The default rule, no pattern, no reference folders."""
        self.state.reset()
        self._fill(0)

    def policy(self) -> KeepPolicy:
        """The keep policy the dialog shows (:meth:`ReprioritizeState.policy`).

        Raises:
            ValueError: it makes none (OK is disabled then).
        """
        return self.state.policy()
