"""Text diff tab: the two main texts side by side with the changed words highlighted.

The diff is :func:`dedup_gui.core.text.diff.text_diff` (by word; by character in CJK text), computed
off the GUI thread with the highlights' pane positions.  Page text is untrusted, so both panes
are plain-text editors filled with ``setPlainText``; highlights are ``ExtraSelections`` over the
chunks' character ranges (only around the visible part when there are many).  The texts are
compared and shown up to :data:`~.pane_text.TEXT_LIMIT` characters, in blocks Qt lays out in
good time (:mod:`.pane_text`), so that no page keeps the GUI thread busy for long.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from contextlib import contextmanager

import numpy as np
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

from dedup_gui.core.model import Pair, ScanResult, Thresholds
from dedup_gui.core.number_format import format_score
from dedup_gui.core.text.diff import DiffChunk, TextDiff, text_diff
from dedup_gui.core.views.diff_overview import overview_marks, overview_place
from dedup_gui.gui.inspector.diff_job import HIGHLIGHT_TAGS, Highlights, ShownDiff, pane_highlights
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.inspector.overview_strip import OverviewStrip
from dedup_gui.gui.inspector.pane_text import TEXT_LIMIT, QtPositions, displayed, pane_text
from dedup_gui.gui.inspector.widgets import (
    ADDED,
    CHANGED,
    ON_TINT,
    REMOVED,
    TAB_MIN_HEIGHT,
    pair_pages,
    percent,
    plain_label,
)

__all__ = ["QtPositions", "TextDiffView", "displayed"]

#: Highlights set at once per pane at most; with more, only those near the visible part are
#: set, again at each scroll (setting 20,000 cost the GUI thread 0.35 s, clearing them 0.16 s).
ALL_HIGHLIGHTS = 1_000
#: Pane positions around the visible part whose highlights are set.
HIGHLIGHT_MARGIN = 2_000
#: ``QTextFormat`` property holding the chunk tag on every change highlight.
CHANGE_TAG = QTextFormat.Property.UserProperty + 1

#: Colour of the bar marking a gap: where the other text has inserted (green) or deleted (red) words.
GAP_COLORS = {"insert": "#2e7d32", "delete": "#c62828"}


def compare_for_panes(a: str, b: str, left: QtPositions, right: QtPositions) -> ShownDiff:
    """Diff two texts and place the changes in the panes (runs off the GUI thread).

    Args:
        a, b: the texts as compared (cut to :data:`~.pane_text.TEXT_LIMIT`).
        left, right: the panes' :class:`QtPositions`.

    Returns:
        The :class:`ShownDiff`.
    """
    diff = text_diff(a, b)
    changes = diff.changes()
    return ShownDiff(diff, changes, pane_highlights(changes, "a", left), pane_highlights(changes, "b", right),
                     overview_marks(changes, "a", len(a)), overview_marks(changes, "b", len(b)))  # fmt: skip


def _tint(color, tag: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(color)
    fmt.setForeground(ON_TINT)
    fmt.setProperty(CHANGE_TAG, tag)
    return fmt


#: What the headline's "unchanged in order" is, and how it differs from the pairs table's measures.
SHARED_TIP = (
    "Unchanged in order: the part of each text in runs of words (characters in CJK text) that are the same in "
    "the other, in the same order (the diff shown here; a passage that moved counts as changed). The pairs "
    "table measures otherwise: content similarity is the normalized Levenshtein similarity of the two whole "
    "texts, character by character, and containment the share of the smaller text's 4-token shingles (words; "
    "characters in CJK text) found anywhere in the other, in any order; so the figures differ."
)


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
        self.qt_pos = QtPositions()
        self._highlights: Highlights | None = None
        self._formats: dict[str, QTextCharFormat] = {}
        self._window: tuple[int, int] | None = None  # the highlighted ranges [lo, hi)
        self.verticalScrollBar().valueChanged.connect(self.refresh_highlights)
        self.gaps: list[int] = []  # Qt positions where the other text has words this one lacks
        self.gap_color = QColor(GAP_COLORS["insert"])

    def show_text(self, text: str) -> None:
        """Show ``text`` as plain text (:func:`~.pane_text.pane_text`: cut to
        :data:`~.pane_text.TEXT_LIMIT` characters) and forget the highlights."""
        self.set_highlights(None, {})
        self.gaps = []
        shown, self.qt_pos = pane_text(text)
        self.setPlainText(shown)

    def set_highlights(self, highlights: Highlights | None, formats: dict[str, QTextCharFormat]) -> None:
        """Highlight the ranges of ``highlights`` with their tag's format (``None``: none).

        Up to :data:`ALL_HIGHLIGHTS` ranges are set at once; with more, those near the visible
        part are set now and after each scroll or resize.
        """
        self._highlights, self._formats = highlights, formats
        self._window = None
        if highlights is None or len(highlights.starts) <= ALL_HIGHLIGHTS:
            self._select(0, 0 if highlights is None else len(highlights.starts))
        else:
            self.refresh_highlights()

    def refresh_highlights(self) -> None:
        """Set the highlights near the visible part (when there are too many to set all)."""
        h = self._highlights
        if h is None or len(h.starts) <= ALL_HIGHLIGHTS:
            return
        first = self.firstVisibleBlock().position() - HIGHLIGHT_MARGIN
        last = self.cursorForPosition(QPoint(self.viewport().width(), self.viewport().height())).position()
        lo = int(np.searchsorted(h.ends, first, "right"))
        hi = min(int(np.searchsorted(h.starts, last + HIGHLIGHT_MARGIN, "left")), lo + ALL_HIGHLIGHTS)
        if (lo, hi) != self._window:
            self._select(lo, hi)

    def _select(self, lo: int, hi: int) -> None:
        self._window = (lo, hi)
        h, selections = self._highlights, []
        ranges = zip(h.starts[lo:hi].tolist(), h.ends[lo:hi].tolist(), h.tags[lo:hi].tolist()) if h else ()
        for start, end, tag in ranges:
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format = self._formats[HIGHLIGHT_TAGS[tag]]
            selections.append(sel)
        self.setExtraSelections(selections)

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Lay out again, then set the highlights now visible."""
        super().resizeEvent(event)
        self.refresh_highlights()

    def mark_gaps(self, positions: list[int], tag: str) -> None:
        """Mark pane positions (ascending) where the other text has a run of type ``tag`` this
        one lacks."""
        self.gaps = positions
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

    def show_place(self, offset: int) -> None:
        """Put the text cursor at Python offset ``offset`` (no selection) and centre it vertically."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.qt_pos(offset))
        self.setTextCursor(cursor)
        self.centerCursor()


class TextDiffView(QWidget):
    """The two pages' main texts side by side, changed words highlighted, with change navigation.

    Left: deleted words (red) and replaced words (orange); right: inserted words (green) and
    replacements (orange); a thin bar marks where one text lacks the other's words.  Beside each
    pane's scrollbar, an overview strip marks where the changes are in the whole text (as Meld's
    diff map; a click takes both panes there).  A pair opens at its first change.  Next change:
    F8 or Alt+Down; previous change: Shift+F8 or Alt+Up (while the view has focus).  Scrolling
    one pane scrolls the other proportionally.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        diff: the shown :class:`TextDiff`, or ``None`` (nothing shown, or still comparing).
        current: index of the selected change in ``diff.changes()``, -1 before the first.
        left_strip, right_strip: the panes' :class:`~.overview_strip.OverviewStrip`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff: TextDiff | None = None
        self.current = -1
        self._changes: list[DiffChunk] = []
        self._key: tuple | None = None
        self._page_notes: list[str] = []
        self._cut = False  # a text of the pair shown is longer than TEXT_LIMIT
        self._differ_past_limit = False
        self._containment = ""
        self._syncing = False
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_diff)
        self._job.failed.connect(self._show_error)

        self.status_label = plain_label(wrap=True)
        # a tester read "73% shared" against the table's content similarity 0.584 as a contradiction
        self.status_label.setToolTip(SHARED_TIP)
        self.notes_label = plain_label(muted=True, wrap=True)
        self.position_label = plain_label()
        self.prev_action = self._action("Previous change", "Shift+F8", "Alt+Up", self.previous_change)
        self.next_action = self._action("Next change", "F8", "Alt+Down", self.next_change)
        self.left_name, self.right_name = (plain_label(bold=True, clip=True, path=True) for _ in range(2))
        self.left_edit, self.right_edit = _Pane(), _Pane()
        self.left_edit.verticalScrollBar().valueChanged.connect(lambda: self._sync(self.left_edit, self.right_edit))
        self.right_edit.verticalScrollBar().valueChanged.connect(lambda: self._sync(self.right_edit, self.left_edit))
        self.left_strip = OverviewStrip(self.left_edit.verticalScrollBar())
        self.right_strip = OverviewStrip(self.right_edit.verticalScrollBar())
        self.left_strip.clicked.connect(lambda fraction: self.go_to_place("a", fraction))
        self.right_strip.clicked.connect(lambda fraction: self.go_to_place("b", fraction))

        bar = QHBoxLayout()
        bar.addWidget(self.status_label, 1)
        bar.addWidget(self.position_label)
        for action in (self.prev_action, self.next_action):
            button = QToolButton()
            button.setDefaultAction(action)
            bar.addWidget(button)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        panes = (
            (self.left_name, self.left_edit, self.left_strip),
            (self.right_name, self.right_edit, self.right_strip),
        )
        for name, edit, strip in panes:
            side = QWidget()
            column = QVBoxLayout(side)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(name)
            row = QHBoxLayout()
            row.setSpacing(1)
            row.addWidget(edit, 1)
            row.addWidget(strip)
            column.addLayout(row, 1)
            splitter.addWidget(side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.notes_label)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(560, TAB_MIN_HEIGHT)
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
        for strip in (self.left_strip, self.right_strip):
            strip.set_marks([])
        self.status_label.setText("comparing…")
        self._containment = format_score(pair.scores.content_containment)
        self._page_notes = [
            f"the {side} page has no usable main text, so it is never called a duplicate on its text"
            for side, page in (("left", a), ("right", b))
            if not page.has_text
        ]
        self._cut = max(len(a.main_text), len(b.main_text)) > TEXT_LIMIT
        # memcmp of the whole texts (milliseconds for 21 MB): past the limit, "no changes"
        # would otherwise hide a change that is there
        self._differ_past_limit = self._cut and a.main_text != b.main_text
        if self._cut:
            self._page_notes.append(
                f"only the first {TEXT_LIMIT:,} characters of each text are compared and shown (the left text has "
                f"{len(a.main_text):,}, the right {len(b.main_text):,}); the whole texts are in the JSON export"
            )
        self._show_notes([])
        self._update_navigation()
        self._job.submit(compare_for_panes, a.main_text[:TEXT_LIMIT], b.main_text[:TEXT_LIMIT],
                         self.left_edit.qt_pos, self.right_edit.qt_pos)  # fmt: skip

    def clear(self) -> None:
        """Show no pair (and ignore a comparison still running)."""
        self._job.cancel()
        self._key, self.diff, self._changes, self.current = None, None, [], -1
        self.left_name.setText("left: no pair selected")
        self.right_name.setText("right: no pair selected")
        for edit in (self.left_edit, self.right_edit):
            edit.setPlaceholderText("")  # not "(no usable main text)": there is no page
            edit.show_text("")
        for strip in (self.left_strip, self.right_strip):
            strip.set_marks([])
        self.status_label.setText("Select a pair to compare its main texts.")
        self._page_notes = []
        self._show_notes([])
        self._update_navigation()

    def is_comparing(self) -> bool:
        """``True`` while the shown pair's diff is being computed (bool)."""
        return self._job.is_running()

    def _show_diff(self, shown: ShownDiff) -> None:
        diff = self.diff = shown.diff
        self._changes = shown.changes
        self.left_edit.set_highlights(shown.left, {"replace": _tint(CHANGED, "replace"),
                                                   "delete": _tint(REMOVED, "delete")})  # fmt: skip
        self.right_edit.set_highlights(shown.right, {"replace": _tint(CHANGED, "replace"),
                                                     "insert": _tint(ADDED, "insert")})  # fmt: skip
        self.left_edit.mark_gaps(shown.left.gaps, "insert")
        self.right_edit.mark_gaps(shown.right.gaps, "delete")
        self.left_strip.set_marks(shown.left_marks)
        self.right_strip.set_marks(shown.right_marks)
        notes = list(diff.notes)
        n = len(self._changes)
        count = "no changes" if n == 0 else f"{n:,} change" + ("s" if n != 1 else "")
        if self._cut:
            count += f" in the first {TEXT_LIMIT:,} characters"
            if n == 0:
                count += (
                    ", but the texts differ after them" if self._differ_past_limit else " (the texts are identical)"
                )
        # the aligned share is not the rule's containment: say both, so a pair near a threshold reads right
        self.status_label.setText(
            f"{count}; unchanged in order: {percent(diff.shared_a)} of the left text, {percent(diff.shared_b)} "
            f"of the right (containment, the type rule's measure: {self._containment})"
        )
        self._show_notes(notes)
        if self._changes:
            self.go_to_change(0)  # open at the first change, not at a top with no change in sight
        else:
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

    def go_to_place(self, side: str, fraction: float) -> None:
        """Scroll both panes to a place of one text (an overview strip's click), centred.

        The other pane goes to the same place of its text (:func:`~dedup_gui.core.views.diff_overview.overview_place`);
        next change (F8) then goes to the first change after the place.

        Args:
            side: ``"a"`` (left) or ``"b"`` (right): the text the fraction is of.
            fraction: the place as a fraction of that text's length (compared part), in [0, 1].
        """
        if self.diff is None:
            return
        length = len(self.diff.a if side == "a" else self.diff.b)
        a_offset, b_offset, change = overview_place(self.diff.chunks, side, fraction, length)
        self.current = change
        with self._no_sync():
            self.left_edit.show_place(a_offset)
            self.right_edit.show_place(b_offset)
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
