"""A teacher tester's findings in the teaching window (Teach > Teaching Views…): the pair note
shown, the SimHash board's and table's presentation sizes, the Jaccard view's small texts, the
gallery's other examples, and the small wordings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect

from dedup_gui.gui.teaching import TeachingWindow
from tests.gui.test_teaching_teacher import present

LONG = 60_000
IDENTICAL = ("mirror/larkmoor-wheelers.example.org/articles/river-trail.html", "site/articles/river-trail.html")

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def rect_in(widget, ancestor) -> QRect:
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("presenting", [False, True])
@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1600, 1000)])
def test_the_pair_note_is_shown_beside_the_presentation_button(qtbot, sample_scan, size, presenting):
    # Before: the note was a label with an ignored width in the toolbar, which gave it 0 pixels
    # at every size and mode: only the "Presentation mode" button showed.
    window = TeachingWindow(sample_scan, pair=IDENTICAL)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    if presenting:
        present(qtbot, window, size)
    else:
        window.resize(*size)
        qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
        qtbot.wait(50)
    note = window.pair_note
    full = note.full_text()
    assert full.startswith("Showing elsewhere/vale-gazette-cafes.html and site/articles/cafe-stops.html")
    assert note.isVisible() and note.width() >= 200
    shown = note.text()
    assert shown.startswith("Showing elsewhere/")  # the start of the note, elided at most
    assert note.fontMetrics().horizontalAdvance(shown) <= note.contentsRect().width()
    assert shown == full or (shown.endswith("…") and note.toolTip() == full)
    # inside the window, right of the button
    box = rect_in(note, window)
    assert box.right() <= window.width() and box.left() > 0
