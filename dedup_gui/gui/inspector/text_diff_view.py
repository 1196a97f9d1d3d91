"""Text diff tab: the two main texts side by side with the changed words highlighted.

The diff is :func:`dedup_gui.core.diff.text_diff` (by word; by character in CJK text), computed
off the GUI thread.  Page text is untrusted, so both panes are plain-text editors filled with
``setPlainText``; highlights are ``ExtraSelections`` over the chunks' character ranges.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from contextlib import contextmanager

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import (
    QAction,
    QColor,
    QKeySequence,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.diff import DiffChunk, TextDiff, text_diff
from dedup_gui.core.model import Pair, ScanResult, Thresholds

from .jobs import LatestJob
from .widgets import ADDED, CHANGED, ON_TINT, REMOVED, pair_pages, percent, plain_label

#: Highlights drawn per pane at most (a pair of unrelated 300,000-character pages would
#: otherwise make hundreds of thousands of selections); the label says when some are left out.
MAX_HIGHLIGHTS = 20_000
#: ``QTextFormat`` property holding the chunk tag on every change highlight.
CHANGE_TAG = QTextFormat.Property.UserProperty + 1

#: Colour of the bar marking a gap: where the other text has inserted (green) or deleted (red) words.
GAP_COLORS = {"insert": "#2e7d32", "delete": "#c62828"}

#: Characters that take one more Qt position than Python offset: a paragraph break (shown with a
#: blank line after it, for readability) and a character outside the Basic Multilingual Plane
#: (two UTF-16 units in Qt).
_WIDE = re.compile("[\n\U00010000-\U0010ffff]")


def displayed(text: str) -> str:
    """The text as a pane shows it: a blank line after each paragraph, and ``"\\r"`` (which Qt
    would merge with a following ``"\\n"``) shown as a space (str)."""
    return text.replace("\r", " ").replace("\n", "\n\n")


class QtPositions:
    """Maps Python offsets in a text to positions in the pane showing :func:`displayed` text.

    Args:
        text: the original text.

    Example:
        >>> QtPositions("ab\\ncd")(4)
        5
    """

    def __init__(self, text: str) -> None:
        self._wide = [m.start() for m in _WIDE.finditer(text)]

    def __call__(self, offset: int) -> int:
        """The Qt position of Python offset ``offset`` (int)."""
        return offset + bisect_left(self._wide, offset)


def _tint(color, tag: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(color)
    fmt.setForeground(ON_TINT)
    fmt.setProperty(CHANGE_TAG, tag)
    return fmt


class _Pane(QPlainTextEdit):
    """A read-only plain-text pane whose selection stays visible when it has no focus, and which
    marks gaps (where the other text has words this one lacks) with a thin coloured bar."""

    def __init__(self) -> None:
        super().__init__()
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setCenterOnScroll(True)  # the last change can be centred too
        self.setPlaceholderText("(no usable main text)")
        palette = self.palette()
        for role in (QPalette.ColorRole.Highlight, QPalette.ColorRole.HighlightedText):
            palette.setColor(QPalette.ColorGroup.Inactive, role, palette.color(QPalette.ColorGroup.Active, role))
        self.setPalette(palette)
        self.qt_pos = QtPositions("")
        self.gaps: list[int] = []  # Qt positions where the other text has words this one lacks
        self.gap_color = QColor(GAP_COLORS["insert"])

    def show_text(self, text: str) -> None:
        """Show ``text`` as plain text and forget the highlights."""
        self.setExtraSelections([])
        self.gaps = []
        self.setPlainText(displayed(text))
        self.qt_pos = QtPositions(text)

    def highlight(self, ranges: list[tuple[int, int, str]], formats: dict[str, QTextCharFormat]) -> None:
        """Highlight ``(start, end, tag)`` Python-offset ranges with the tag's format."""
        selections = []
        for start, end, tag in ranges:
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(self.qt_pos(start))
            cursor.setPosition(self.qt_pos(end), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format = formats[tag]
            selections.append(sel)
        self.setExtraSelections(selections)

    def mark_gaps(self, offsets: list[int], tag: str) -> None:
        """Mark Python offsets where the other text has a run of type ``tag`` this one lacks."""
        self.gaps = sorted(self.qt_pos(o) for o in offsets)
        self.gap_color = QColor(GAP_COLORS[tag])
        self.viewport().update()

    def paintEvent(self, event) -> None:  # noqa: N802
        """Draw the text, then a bar at each visible gap."""
        super().paintEvent(event)
        if not self.gaps:
            return
        first = self.firstVisibleBlock().position()
        last = self.cursorForPosition(QPoint(self.viewport().width(), self.viewport().height())).position()
        painter = QPainter(self.viewport())
        cursor = QTextCursor(self.document())
        for pos in self.gaps[bisect_left(self.gaps, first) : bisect_right(self.gaps, last)]:
            cursor.setPosition(pos)
            rect = self.cursorRect(cursor)
            painter.fillRect(QRect(rect.left() - 1, rect.top(), 3, rect.height()), self.gap_color)
        painter.end()

    def select(self, start: int, end: int) -> None:
        """Select Python-offset range ``[start, end)`` and centre it vertically."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.qt_pos(start))
        cursor.setPosition(self.qt_pos(end), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.centerCursor()


class TextDiffView(QWidget):
    """The two pages' main texts side by side, changed words highlighted, with change navigation.

    Left: deleted words (red) and replaced words (orange); right: inserted words (green) and
    replacements (orange); a thin bar marks where one text lacks the other's words.  Next change: F8 or Alt+Down; previous change: Shift+F8 or Alt+Up
    (while the view has focus).  Scrolling one pane scrolls the other proportionally.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        diff: the shown :class:`TextDiff`, or ``None`` (nothing shown, or still comparing).
        current: index of the selected change in ``diff.changes()``, -1 before the first.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff: TextDiff | None = None
        self.current = -1
        self._changes: list[DiffChunk] = []
        self._key: tuple | None = None
        self._page_notes: list[str] = []
        self._syncing = False
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_diff)
        self._job.failed.connect(self._show_error)

        self.status_label = plain_label(wrap=True)
        self.notes_label = plain_label(muted=True, wrap=True)
        self.position_label = plain_label()
        self.prev_action = self._action("Previous change", "Shift+F8", "Alt+Up", self.previous_change)
        self.next_action = self._action("Next change", "F8", "Alt+Down", self.next_change)
        self.left_name, self.right_name = (plain_label(bold=True, clip=True, path=True) for _ in range(2))
        self.left_edit, self.right_edit = _Pane(), _Pane()
        self.left_edit.verticalScrollBar().valueChanged.connect(lambda: self._sync(self.left_edit, self.right_edit))
        self.right_edit.verticalScrollBar().valueChanged.connect(lambda: self._sync(self.right_edit, self.left_edit))

        bar = QHBoxLayout()
        bar.addWidget(self.status_label, 1)
        bar.addWidget(self.position_label)
        for action in (self.prev_action, self.next_action):
            button = QToolButton()
            button.setDefaultAction(action)
            bar.addWidget(button)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        for name, edit in ((self.left_name, self.left_edit), (self.right_name, self.right_edit)):
            side = QWidget()
            column = QVBoxLayout(side)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(name)
            column.addWidget(edit, 1)
            splitter.addWidget(side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.notes_label)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(560, 260)
        self.clear()

    def _action(self, text: str, key: str, alt_key: str, slot) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(key), QKeySequence(alt_key)])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(f"{text} ({key} or {alt_key})")
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # -- showing a pair ------------------------------------------------------------------------

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Show ``pair``'s main texts at once and start comparing them in the background.

        Args:
            result: the scan the pair belongs to.
            pair: the pair, or ``None`` to clear the view.
            thresholds: unused (the text diff does not depend on them); for a uniform API.
        """
        if result is None or pair is None:
            self.clear()
            return
        a, b = pair_pages(result, pair)
        key = (result.root, a.path, b.path, a.sha1, b.sha1)
        if key == self._key:
            return  # same texts: keep the diff and the selected change
        self._key = key
        self.diff, self._changes, self.current = None, [], -1
        self.left_name.setText(f"left: {a.path}")
        self.right_name.setText(f"right: {b.path}")
        for edit in (self.left_edit, self.right_edit):
            edit.setPlaceholderText("(no usable main text)")
        self.left_edit.show_text(a.main_text)
        self.right_edit.show_text(b.main_text)
        self.status_label.setText("comparing…")
        self._page_notes = [
            f"the {side} page has no usable main text, so it is never called a duplicate on its text"
            for side, page in (("left", a), ("right", b))
            if not page.has_text
        ]
        self._show_notes([])
        self._update_navigation()
        self._job.submit(text_diff, a.main_text, b.main_text)

    def clear(self) -> None:
        """Show no pair (and ignore a comparison still running)."""
        self._job.cancel()
        self._key, self.diff, self._changes, self.current = None, None, [], -1
        self.left_name.setText("left: no pair selected")
        self.right_name.setText("right: no pair selected")
        for edit in (self.left_edit, self.right_edit):
            edit.setPlaceholderText("")  # not "(no usable main text)": there is no page
            edit.show_text("")
        self.status_label.setText("Select a pair to compare its main texts.")
        self._page_notes = []
        self._show_notes([])
        self._update_navigation()

    def is_comparing(self) -> bool:
        """``True`` while the shown pair's diff is being computed (bool)."""
        return self._job.is_running()

    def _show_diff(self, diff: TextDiff) -> None:
        self.diff = diff
        self._changes = diff.changes()
        left, right = [], []
        for c in self._changes:
            if c.a_end > c.a_start:
                left.append((c.a_start, c.a_end, c.tag))
            if c.b_end > c.b_start:
                right.append((c.b_start, c.b_end, c.tag))
        notes = list(diff.notes)
        if max(len(left), len(right)) > MAX_HIGHLIGHTS:
            notes.append(f"only the first {MAX_HIGHLIGHTS:,} changes of each text are highlighted")
        self.left_edit.highlight(left[:MAX_HIGHLIGHTS], {"replace": _tint(CHANGED, "replace"),
                                                        "delete": _tint(REMOVED, "delete")})  # fmt: skip
        self.right_edit.highlight(right[:MAX_HIGHLIGHTS], {"replace": _tint(CHANGED, "replace"),
                                                          "insert": _tint(ADDED, "insert")})  # fmt: skip
        self.left_edit.mark_gaps([c.a_start for c in self._changes if c.tag == "insert"], "insert")
        self.right_edit.mark_gaps([c.b_start for c in self._changes if c.tag == "delete"], "delete")
        n = len(self._changes)
        count = "no changes" if n == 0 else f"{n:,} change" + ("s" if n != 1 else "")
        self.status_label.setText(
            f"{count}; {percent(diff.shared_a)} of the left text and {percent(diff.shared_b)} "
            "of the right text are shared"
        )
        self._show_notes(notes)
        self._update_navigation()

    def _show_notes(self, notes: list[str]) -> None:
        notes = self._page_notes + notes
        self.notes_label.setText("; ".join(notes))
        self.notes_label.setVisible(bool(notes))

    def _show_error(self, exc: Exception) -> None:
        self.status_label.setText(f"The texts could not be compared: {exc}")
        self._update_navigation()

    # -- navigation ----------------------------------------------------------------------------

    def next_change(self) -> None:
        """Select the next change in both panes (no-op after the last)."""
        if self.current + 1 < len(self._changes):
            self.go_to_change(self.current + 1)

    def previous_change(self) -> None:
        """Select the previous change in both panes (no-op at the first)."""
        if self.current > 0:
            self.go_to_change(self.current - 1)

    def go_to_change(self, index: int) -> None:
        """Select change ``index`` of ``diff.changes()`` in both panes, centred so they line up.

        Args:
            index: 0-based change number.

        Raises:
            IndexError: no such change.
        """
        chunk = self._changes[index]
        self.current = index
        with self._no_sync():
            self.left_edit.select(chunk.a_start, chunk.a_end)
            self.right_edit.select(chunk.b_start, chunk.b_end)
        self._update_navigation()

    def _update_navigation(self) -> None:
        n = len(self._changes)
        self.prev_action.setEnabled(self.current > 0)
        self.next_action.setEnabled(self.current + 1 < n)
        self.position_label.setText(f"change {self.current + 1} of {n:,}" if n and self.current >= 0 else "")

    # -- synchronized scrolling ----------------------------------------------------------------

    @contextmanager
    def _no_sync(self):
        self._syncing = True
        try:
            yield
        finally:
            self._syncing = False

    def _sync(self, source: QPlainTextEdit, target: QPlainTextEdit) -> None:
        if self._syncing:
            return
        src, dst = source.verticalScrollBar(), target.verticalScrollBar()
        with self._no_sync():
            dst.setValue(round(src.value() / src.maximum() * dst.maximum()) if src.maximum() else 0)
