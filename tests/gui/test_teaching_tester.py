"""A teacher tester's findings in the teaching window (Teach > Teaching Views…): the pair note
shown, the SimHash board's and table's presentation sizes, the Jaccard view's small texts, the
gallery's other examples, and the small wordings."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFontInfo, QFontMetricsF

from dedup_gui.core.model import DupType
from dedup_gui.gui.teaching import TeachingWindow
from tests.gui.test_teaching_teacher import present

LONG = 60_000
#: The least font of the board presenting (pixels): digits some 14 pixels tall (widgets.BOARD_PIXELS).
BOARD_PIXELS = 19
RIVER = "mirror/larkmoor-wheelers.example.org/articles/river-trail.html"
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


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_presenting_the_simhash_board_text_is_large_and_one_size_and_the_view_fits(qtbot, teach, size):
    # Before: at 1280x800 (4 lines of 16) the digits ("+24", "−66") and the row names were a
    # 14-pixel font (10-pixel digits) in 70-pixel cells; at 1600x1000 (lines of 32) the sums
    # row was 14 pixels, the bits and names above it 24.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    present(qtbot, teach, size)
    board = view.board
    for position in (0, 3, 7, view.last_position()):
        view.go_to(position)
        qtbot.wait(10)
        fonts = {board.cell_font(row).toString() for row in range(len(board.row_names()))}
        assert len(fonts) == 1, position  # the sums as large as the bits
        cell = board.cell_font(0)
        for font in (cell, board.board_font(), board._header_font() if not board.crowded() else board._least_font()):
            assert QFontInfo(font).pixelSize() >= BOARD_PIXELS, (position, font.toString())
        assert QFontMetricsF(cell).tightBoundingRect("0").height() >= 13.5  # digits of some 14 pixels
    assert teach.tabs.currentWidget().verticalScrollBar().maximum() == 0  # and the view still fits
    names = board.row_names()
    # every sum in its cell at that font
    widest = max(QFontMetricsF(board.cell_font(0)).horizontalAdvance(t) for t in board.row_texts(names[2]))
    assert widest <= board.cell_rect(2, 0).width() - 4


def row_in_view(view, row: int) -> bool:
    rect = view.table.visualRect(view.model.index(row, 1))
    viewport = view.table.viewport().rect()
    return rect.height() > 0 and rect.top() >= viewport.top() and rect.bottom() <= viewport.bottom()


def test_presenting_the_current_feature_row_stays_in_view_after_steps_and_resizes(qtbot, teach):
    # Before: at 1280x800 the table showed one or two rows and at "feature 3 of 295" row 3 was
    # scrolled out of view (two rows were kept above it); after a resize to 1024x640 row 7 was
    # out of view; a horizontal scroll bar hid bits 57-63.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    present(qtbot, teach, (1280, 800))
    for position in (1, 2, 3, 4, 7, 12):
        view.go_to(position)
        qtbot.wait(10)
        assert row_in_view(view, position - 1), position
    for size in ((1024, 640), (1280, 800), (1600, 1000), (1280, 800)):
        teach.resize(*size)
        qtbot.waitUntil(lambda s=size: teach.size().toTuple() == s, timeout=LONG)
        qtbot.wait(100)
        assert row_in_view(view, 11), size
        assert not view.table.horizontalScrollBar().isVisible(), size
    view.go_to(40)
    qtbot.wait(10)
    assert row_in_view(view, 39)


def test_the_8_bit_mode_explanation_says_the_hash_is_the_last_byte(qtbot, teach):
    # Before: in 8-bit mode the explanation still said "its hash: the last 8 bytes of the MD5"
    # (core's feature_hash(feature, 8) is the MD5's last byte).
    view = teach.show_tab(0)
    view.set_eight_bit(True)
    assert "its hash: the last 8 bits (1 byte) of the MD5 of its UTF-8 text" in view.explain_label.text()
    view.set_eight_bit(False)
    assert "its hash: the last 8 bytes of the MD5 of its UTF-8 text" in view.explain_label.text()


def test_the_hamming_error_says_what_is_accepted(qtbot, teach):
    # Before: "'-5' is neither hex (0x…) nor binary (0b…)", though "58" without a prefix is read
    # as hex.
    view = teach.show_tab(2)
    view.set_values("-5", "0x1")
    assert view.error_label.isVisible()
    assert "'-5' is not a fingerprint: type hex digits, 0x…, or 0b…" in view.error_label.text()


def test_the_methods_settings_line_keeps_each_relation_with_its_numbers(qtbot, teach):
    # Before: the line wrapped "k ≤" at one line's end and "3" at the next's.
    view = teach.show_tab(4)
    text = view.settings_label.text()
    assert "k\u00a0≤\u00a03" in text and "content same\u00a0≥\u00a00.925" in text
    assert " ≤" not in text and "≥ " not in text


def test_gallery_another_example_cycles_through_a_types_pairs(qtbot, teach, sample_scan):
    # Before: each card showed the type's most similar pair only, which can be a poor example
    # (a layout duplicate at content similarity 0.913 looks like the same content).
    gallery = teach.show_tab(3)
    card = gallery.cards[DupType.FULL]
    full = [(sample_scan.pages[p.left].path, sample_scan.pages[p.right].path) for p in sample_scan.pairs
            if p.type is DupType.FULL]  # fmt: skip
    assert len(full) == 4  # the samples' four full duplicates, most similar first
    assert card.another_button.isVisible() and card.paths == full[0]
    seen = []
    for _ in range(4):
        card.another_button.click()
        qtbot.waitUntil(lambda: not gallery.is_busy(), timeout=LONG)
        seen.append(card.paths)
        assert (
            card.regions_label.text().startswith("regions that differ: ")
            and "computing" not in card.regions_label.text()
        )
    assert seen == [*full[1:], full[0]]  # the next each time, then the first again
    assert card.title() == "Type 1: full duplicate (example 1 of 4, most similar first)"
    # a type with one pair: no button to press in vain
    assert not gallery.cards[DupType.CONTENT].another_button.isVisible()


def test_gallery_a_type_without_a_pair_shows_one_line(qtbot, teach, sample_scan):
    # Before: "The scan found no pair of this type." above two empty text boxes and a greyed
    # "Open in inspector".
    gallery = teach.show_tab(3)
    without = dataclasses.replace(sample_scan, pairs=[p for p in sample_scan.pairs if p.type is not DupType.LAYOUT])
    gallery.set_result(without)
    qtbot.waitUntil(lambda: not gallery.is_busy(), timeout=LONG)
    card = gallery.cards[DupType.LAYOUT]
    assert card.files_label.isVisible() and card.files_label.text() == "The scan found no pair of this type."
    hidden = (*card.excerpts, card.open_button, card.another_button, card.measures_label, card.regions_label)
    assert not any(widget.isVisible() for widget in hidden)
    assert gallery.cards[DupType.PARTIAL].excerpts[0].isVisible()  # the others as they were
