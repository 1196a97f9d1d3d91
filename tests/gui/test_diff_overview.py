"""The text diff's overview strips (issue 20, item 11): a mark per changed region beside each
pane's scrollbar, in the diff's colours; a click takes both panes there; a pair opens at its
first change."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor

from dedup_gui.core.model import DupType, Pair, PairScores, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.views.diff_overview import OverviewMark, overview_marks
from dedup_gui.gui.inspector import text_diff_view
from dedup_gui.gui.inspector.overview_strip import MARK_COLORS
from dedup_gui.gui.inspector.text_diff_view import TextDiffView

WAIT = 8000
#: 500 paragraphs; paragraph 400 differs (a replace), and the right text lacks paragraph 450.
PARAGRAPHS = [f"Paragraph {i} is the same in both texts." for i in range(500)]
LEFT = "\n".join(PARAGRAPHS)
RIGHT = "\n".join(
    ("Paragraph 400 was rewritten entirely here." if i == 400 else p) for i, p in enumerate(PARAGRAPHS) if i != 450
)


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def view(qtbot, make_page) -> TextDiffView:
    pages = [make_page("left.html", 4000, 1, text=LEFT), make_page("right.html", 4000, 2, text=RIGHT)]
    result = ScanResult("/scan", pages, [], [], [], Thresholds(), ScanSettings())
    view = TextDiffView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    qtbot.waitExposed(view)
    view.set_pair(result, Pair(0, 1, PairScores(0.9, 0.9, 1.0, 3, 0.9), DupType.CONTENT), Thresholds())
    qtbot.waitUntil(lambda: view.diff is not None, timeout=WAIT)
    qtbot.wait(20)
    return view


def visible(edit, offset: int) -> bool:
    """Whether Python offset ``offset`` of the pane's text is inside its viewport."""
    rect = edit.cursorRect(_cursor_at(edit, edit.qt_pos(offset)))
    return rect.top() >= 0 and rect.bottom() <= edit.viewport().height()


def _cursor_at(edit, position: int):
    cursor = edit.textCursor()
    cursor.setPosition(position)
    return cursor


def test_the_strips_mark_each_change_where_it_is_in_its_colour(view):
    changes = view.diff.changes()
    assert [c.tag for c in changes] == ["replace", "delete"]
    # the marks are core's fractions of each text: the replace at about 4/5 of both, the
    # deleted paragraph as a span on the left and a mark of no extent on the right
    left, right = view.left_strip.marks, view.right_strip.marks
    assert left == overview_marks(changes, "a", len(LEFT)) and right == overview_marks(changes, "b", len(RIGHT))
    assert [(m.kind, m.change) for m in left] == [("replace", 0), ("delete", 1)]
    start = LEFT.index("Paragraph 400 ") + len("Paragraph 400 ")
    assert left[0].start == start / len(LEFT) and 0.79 < left[0].start < 0.81
    assert right[1] == OverviewMark("delete", changes[1].b_start / len(RIGHT), changes[1].b_start / len(RIGHT), 1)

    # each mark is drawn at its place along the scrollbar's groove, in the diff's colour
    for strip, marks in ((view.left_strip, left), (view.right_strip, right)):
        image = strip.grab().toImage()
        scale = image.height() / strip.height()
        for mark in marks:
            y = round((strip.y_of(mark.start) + 1) * scale)
            assert QColor(image.pixel(round(strip.width() / 2 * scale), y)) == MARK_COLORS[mark.kind], mark
        # and nothing is drawn near the top, where the texts are the same
        top = round((strip.y_of(0.1)) * scale)
        assert QColor(image.pixel(round(strip.width() / 2 * scale), top)) not in MARK_COLORS.values()


def test_a_pair_opens_scrolled_to_its_first_change_far_down(view):
    first = view.diff.changes()[0]
    assert view.current == 0
    assert view.left_edit.verticalScrollBar().value() > 0 and view.right_edit.verticalScrollBar().value() > 0
    assert visible(view.left_edit, first.a_start) and visible(view.right_edit, first.b_start)
    assert not visible(view.left_edit, 0)


def test_a_click_on_a_strip_scrolls_both_panes_there(qtbot, view):
    strip = view.left_strip
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(strip.width() // 2, strip.y_of(0.1)))
    # a tenth into the left text; both panes show the paragraph there (they are equal up to 400)
    offset = LEFT.index("Paragraph 50 ")
    assert visible(view.left_edit, offset) and visible(view.right_edit, offset)
    assert not visible(view.left_edit, view.diff.changes()[0].a_start)
    assert view.current == -1  # before every change: F8 goes to the first
    view.next_change()
    assert view.current == 0

    right = view.right_strip  # the right strip's end: both panes at their texts' ends
    qtbot.mouseClick(right, Qt.MouseButton.LeftButton, pos=QPoint(right.width() // 2, right.height() - 1))
    assert visible(view.left_edit, len(LEFT)) and visible(view.right_edit, len(RIGHT))
    assert view.current == 1


@pytest.mark.parametrize(
    ("tail_right", "headline"),
    [
        (
            "and the right text ends otherwise.",
            "no changes in the first 5,000 characters, but the texts differ after them",
        ),
        ("and both texts end alike.", "no changes in the first 5,000 characters (the texts are identical)"),
    ],
)
def test_past_the_compared_characters_no_change_is_not_called_no_changes(qtbot, make_page, monkeypatch,
                                                                         tail_right, headline):  # fmt: skip
    # only the first TEXT_LIMIT characters are compared; a change after them used to be
    # headlined "no changes" (the tester's two 21 MB pages). The limit is made small here.
    monkeypatch.setattr(text_diff_view, "TEXT_LIMIT", 5000)
    same = "\n".join(PARAGRAPHS)[:6000]
    pages = [make_page("left.html", 7000, 1, text=same + "and both texts end alike."),
             make_page("right.html", 7000, 2, text=same + tail_right)]  # fmt: skip
    result = ScanResult("/scan", pages, [], [], [], Thresholds(), ScanSettings())
    view = TextDiffView()
    qtbot.addWidget(view)
    view.set_pair(result, Pair(0, 1, PairScores(0.9, 0.9, 1.0, 3, 0.9), DupType.CONTENT), Thresholds())
    qtbot.waitUntil(lambda: view.diff is not None, timeout=WAIT)
    assert view.status_label.text().startswith(headline + "; unchanged in order: 100% of the left text")
