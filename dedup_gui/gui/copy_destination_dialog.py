"""The dialog that asks where File > Copy the Kept Pages to a New Folder… writes: a folder path
that may be typed (a new folder is made) or browsed to, checked as it is typed.

Qt's folder chooser (``QFileDialog.getExistingDirectory``) refuses a typed name that does not
exist yet ("Directory not found"), yet a new folder is exactly what the copy wants; so the
path is a line edit, with Browse… for an existing empty folder.  The rules are
:func:`~dedup_gui.core.reports.copy_kept.check_destination`'s; this module only asks.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.reports.copy_kept import check_destination, suggest_destination
from dedup_gui.gui.plain import SafeLabel
from dedup_gui.gui.screen_fit import fit_to_screen


class CopyDestinationDialog(QDialog):
    """Asks for the destination of the deduplicated copy of folder ``root``.

    The path starts at :func:`suggest_destination` (``<root>-kept`` beside the scan); the
    line under it says whether the folder will be made, is empty, or is refused and why, and
    the Copy button is enabled only for a destination the copy accepts.

    Args:
        root: the scanned folder.
        parent: the parent widget (the main window), or ``None``.

    Attributes:
        path_edit: the destination's path (typed or browsed).
        verdict: what the copy will do with that path, or why it refuses it.
        copy_button: the dialog's accept button ("Copy").
    """

    def __init__(self, root: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._root = Path(root)
        self.setWindowTitle("Copy the Kept Pages to a New Folder")
        intro = SafeLabel(
            f"Copy the kept pages of {self._root}, and its files that are not pages, into a new or "
            "empty folder outside it. Type a new folder's path, or browse to an empty folder."
        )
        intro.setWordWrap(True)
        self.path_edit = QLineEdit(str(suggest_destination(self._root)))
        self.path_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 60))
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.verdict = SafeLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setMinimumHeight(3 * self.fontMetrics().lineSpacing())  # a refusal with a long path
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.copy_button = buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # wrapped lines never cut
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.verdict)
        layout.addWidget(buttons)
        self.path_edit.textChanged.connect(self._check)
        self._check()
        fit_to_screen(self)  # a 1024x640 screen shows it whole (its buttons too)

    def destination(self) -> Path:
        """The path typed or browsed to (Path), ``~`` expanded; not yet checked."""
        return Path(self.path_edit.text().strip()).expanduser()

    def browse(self) -> None:
        """Browse… : choose an existing folder (it must be empty for the copy)."""
        current = self.destination()
        start = current if current.is_dir() else current.parent
        folder = QFileDialog.getExistingDirectory(self, "Empty Folder for the Copy", str(start))
        if folder:
            self.path_edit.setText(folder)

    def _check(self) -> None:
        text = self.path_edit.text().strip()
        ok = False
        if not text:
            message = "Type the path of the folder to write."
        else:
            try:
                target = check_destination(self._root, self.destination())
            except (ValueError, OSError) as exc:
                message = f"Refused: {exc}"
            else:
                ok = True
                message = f"An empty folder: the copy goes into {target}" if target.exists() else (
                    f"A new folder: {target} will be made")  # fmt: skip
        self.verdict.setText(message)
        self.copy_button.setEnabled(ok)
