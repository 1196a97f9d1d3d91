"""Page-derived strings shown as plain text, everywhere Qt would otherwise guess rich text.

A ``QLabel``, a tooltip or a message box shows its text as HTML whenever ``Qt::mightBeRichText``
says it looks like HTML; a file named ``<img src="/home/me/secret.png">`` would then draw that
file.  Labels are set to ``Qt.PlainText``; tooltips (which have no format setting) get the text
converted to HTML with every character escaped (``Qt.convertFromPlainText``); message boxes are
set to plain text.  Invisible control characters (a right-to-left override U+202E would draw
``x\u202e.html`` reversed) are shown as ``<U+202E>`` markers, as the tables show them
(:func:`~dedup_gui.core.safe_text.show_control_characters`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui_Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from dedup_gui.core.safe_text import show_control_characters


def plain_tooltip(text: str) -> str:
    """A tooltip string that Qt shows as exactly ``text`` (str; ``""`` stays ``""``).

    Args:
        text: any text, e.g. a path or a page title.

    Returns:
        ``text`` with its control characters shown as ``<U+XXXX>`` markers
        (:func:`show_control_characters`), as is where Qt would take it for plain text anyway;
        otherwise as escaped HTML, line breaks kept (``Qt.convertFromPlainText``).
    """
    text = show_control_characters(text)
    if not text or not QtGui_Qt.mightBeRichText(text):
        return text
    return QtGui_Qt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNormal)


def plain_message_box(icon: QMessageBox.Icon, title: str, text: str, parent: QWidget | None = None,
                      buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok) -> QMessageBox:  # fmt: skip
    """A ``QMessageBox`` whose text is shown as plain text, never as HTML.

    Args:
        icon: the box's icon.
        title: the window title (window titles are always plain).
        text: the message (may contain paths or page strings).
        parent: the parent widget, or ``None``.
        buttons: the standard buttons.

    Returns:
        The box (QMessageBox), not yet shown.
    """
    box = QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    return box


class SafeLabel(QLabel):
    """A ``QLabel`` for untrusted text (paths, titles): plain text, never HTML, and its
    invisible control characters shown as ``<U+XXXX>`` markers, as the tables show them (a
    right-to-left override U+202E would otherwise draw the rest of a file name reversed).

    ``text()`` returns the text as shown (with the markers).
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt API)
        """Show ``text`` (str) with its control characters as markers
        (:func:`~dedup_gui.core.safe_text.show_control_characters`)."""
        super().setText(show_control_characters(text))
