"""The pair view: the two pages' main texts side by side, with their names, titles and scores.

Page text is untrusted: every page-derived string goes into a plain-text widget
(``QPlainTextEdit``, or a ``QLabel`` forced to ``Qt.PlainText``), never into rich text.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import Page, Pair
from dedup_gui.gui.table_model import format_score


def _plain_label(bold: bool = False) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    # a page title can be thousands of characters: clip it instead of widening the window
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    if bold:
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
    return label


class PageTextPanel(QWidget):
    """One side of the pair view: file name, title, URL and word count, and the main text.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.name_label = _plain_label(bold=True)
        self.title_label = _plain_label()
        self.info_label = _plain_label()
        self.info_label.setEnabled(False)  # drawn in the muted colour of the style
        self.text_edit = QPlainTextEdit()
        self.text_edit.setReadOnly(True)
        self.text_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for widget in (self.name_label, self.title_label, self.info_label):
            layout.addWidget(widget)
        layout.addWidget(self.text_edit, 1)
        self.show_page(None)

    def show_page(self, page: Page | None) -> None:
        """Show ``page``'s header and main text as plain text, or clear the panel for ``None``."""
        if page is None:
            self.name_label.setText("No page selected")
            self.title_label.setText("")
            self.info_label.setText("")
            self.text_edit.setPlainText("")
            return
        self.name_label.setText(page.path)
        self.title_label.setText(page.title or "(no title)")
        info = [f"{page.word_count:,} words", f"SimHash {page.simhash_hex}"]
        if page.url:
            info.insert(0, page.url)
        self.info_label.setText("  ·  ".join(info))
        self.text_edit.setPlainText(page.main_text if page.has_text else "(no usable main text)")


class PairView(QWidget):
    """A selected pair: its type and scores on one line, then the two main texts side by side.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.summary_label = _plain_label(bold=True)
        self.left = PageTextPanel()
        self.right = PageTextPanel()
        sides = QHBoxLayout()
        sides.addWidget(self.left)
        sides.addWidget(self.right)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary_label)
        layout.addLayout(sides, 1)
        self.show_pair(None)

    def show_pair(self, pair: Pair | None, left: Page | None = None, right: Page | None = None) -> None:
        """Show ``pair`` with its ``left`` and ``right`` pages, or a placeholder for ``None``."""
        if pair is None:
            self.summary_label.setText("Select a pair to compare its pages.")
            self.left.show_page(None)
            self.right.show_page(None)
            return
        s = pair.scores
        self.summary_label.setText(
            f"{pair.type.label}  ·  content similarity {format_score(s.content_similarity)}"
            f"  ·  containment {format_score(s.content_containment)}"
            f"  ·  layout similarity {format_score(s.layout_similarity)}"
            f"  ·  Hamming distance {s.hamming_distance}  ·  Jaccard {format_score(s.jaccard)}"
        )
        self.left.show_page(left)
        self.right.show_page(right)
