"""A new teacher's walkthrough of the Teach menu (normal and presentation mode, 1152x720,
1280x800 and 1600x1000 windows): the SimHash board keeps its layout while stepping and fits
without scrolling, presentation mode draws no small text, the stepping keys work whatever has
focus, one format per kind of number, the rules and definitions stated."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo, QFontMetricsF

from dedup_gui.core.teaching.jaccard_steps import compare_sets
from dedup_gui.core.teaching.simhash_steps import text_simhash_steps
from dedup_gui.gui.teaching import TeachingWindow
from dedup_gui.gui.teaching.jaccard_view import jaccard_text
from dedup_gui.gui.teaching.steps_table import ROW_SUMS
from tests.gui.test_teaching_teacher import present

LONG = 60_000
RIVER = "mirror/larkmoor-wheelers.example.org/articles/river-trail.html"

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def sized(qtbot, window, size, presenting=False) -> None:
    """The window at ``size`` (presenting: in presentation mode, out of full screen)."""
    if presenting:
        present(qtbot, window, size)
        return
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    qtbot.wait(100)


def test_core_gives_the_largest_sum_of_any_step():
    # the board's layout is chosen once per text from it
    steps = text_simhash_steps("the cat sat on the mat the end " * 3 + "a b c d e f g h", 64)
    every = [abs(s) for step in steps.steps for s in step.sums]
    assert steps.steps.largest_sum == max(every)
    assert steps.steps.largest_weight == max(step.weight for step in steps.steps)


def test_simhash_board_keeps_its_layout_while_stepping_and_fits_1152x720(qtbot, teach):
    # Before: the board went from 2 lines of 32 to 4 of 16 whenever a sum reached 100 (steps
    # 15, 29 of this page), 230 pixels more, the fingerprint line and the table pushed out of
    # sight; and the view had a 1-pixel scroll range, the table a horizontal scroll bar.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    sized(qtbot, teach, (1152, 720))
    scroll = teach.tabs.currentWidget()
    heights = set()
    for position in range(view.last_position() + 1):
        view.go_to(position)
        qtbot.wait(1)
        heights.add(view.board.height())
        assert view.board._layout(view.board.width())[3] == 32, position
    qtbot.wait(50)
    assert len(heights) == 1
    assert scroll.verticalScrollBar().maximum() == 0
    assert view.table.horizontalScrollBar().maximum() == 0  # bit 63 in sight
    bottom = view.fingerprint_label.mapTo(view, view.fingerprint_label.rect().bottomLeft()).y()
    assert bottom < scroll.viewport().height() - view.table.minimumHeight()


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_presenting_the_board_and_the_table_ruler_are_legible_and_fit(qtbot, teach, size):
    # Before: presenting at 1280x800 the sums and ±weight cells were 9-10 pixels (smaller than
    # in normal mode, "115 / -115" unsigned with a hyphen) and the table's 0/8/16 ruler 8.
    view = teach.show_tab(0)
    view.select_page(RIVER)
    sized(qtbot, teach, size, presenting=True)
    per_line = set()
    for position in (0, 3, 15, view.last_position()):
        view.go_to(position)
        qtbot.wait(20)
        board = view.board
        per_line.add(board._layout(board.width())[3])
        for row in range(len(board.row_names())):
            assert QFontInfo(board.cell_font(row)).pixelSize() >= 14, (position, board.row_names()[row])
    assert len(per_line) == 1  # the same lines from the start
    assert view.displayed_sums() == list(view.steps.sums)
    assert all(t[0] in "+−0" for t in view.board.row_texts(ROW_SUMS))  # signed, a true minus
    header = view.table.horizontalHeader()
    assert QFontInfo(header.font()).pixelSize() >= 14
    assert header.ruler_numbers() == [str(b) for b in range(0, 64, 8)]
    assert teach.tabs.currentWidget().verticalScrollBar().maximum() == 0


def test_stepping_keys_work_with_the_focus_on_the_tab_bar(qtbot, teach):
    # Before: when the window opened and after a tab click, focus was on the tab bar and Page
    # Down (a presenter's clicker) and Alt+Right did nothing until a click inside the view.
    view = teach.show_tab(0)
    teach.activateWindow()
    qtbot.waitUntil(lambda: teach.isActiveWindow(), timeout=LONG)
    bar = teach.tabs.tabBar()
    bar.setFocus()
    qtbot.waitUntil(bar.hasFocus, timeout=LONG)
    view.first()
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    assert view.position == 1
    qtbot.keyClick(bar, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert view.position == 2
    qtbot.keyClick(bar, Qt.Key.Key_PageUp)
    assert view.position == 1
    teach.show_tab(1)  # another tab in front: its keys are not the SimHash view's
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    assert view.position == 1


def test_one_format_per_kind_of_number(qtbot, teach):
    # Before: "A = 3949a94645274251" beside "0x3949a94645274251"; typed "1011" (read as hex)
    # shown "A = 0000000000001011", looking binary; "(hash 57)" in 8-bit mode, a hex number
    # reading as decimal; "SimHash 3949a94645274251: 0x51"; the fraction "3274/3421" beside
    # "|A| = 3,418".
    hamming = teach.show_tab(2)
    hamming.set_values("1011", "0x3949a94645274251")
    assert "A = 0x0000000000001011    B = 0x3949a94645274251" in hamming.result_label.text()
    simhash = teach.show_tab(0)
    simhash.select_page(RIVER)
    simhash.set_eight_bit(True)
    qtbot.waitUntil(lambda: not teach.is_busy() and simhash.bits() == 8 and simhash.steps.bits == 8, timeout=LONG)
    simhash.go_to(1)
    step = simhash.steps.steps[0]
    assert simhash.step_label.text().endswith(f"(hash 0x{step.hash:02x})")
    simhash.last()
    page = simhash._page
    assert f"the last 8 bits (56–63) of the scan's SimHash 0x{page.simhash:016x}: 0x{page.simhash & 255:02x}" in (
        simhash.fingerprint_label.text())  # fmt: skip
    assert simhash.board.column_numbers() == list(range(56, 64))  # bits 56-63 of the 64-bit board
    assert simhash.model.headerData(3, Qt.Orientation.Horizontal) == "56"
    comparison = compare_sets([f"s{i}" for i in range(3_418)], [f"s{i}" for i in range(3, 3_277)])
    assert comparison.fraction == "3,274/3,418"
    assert "= 3,274/3,274 = 1.000" in jaccard_text(comparison).replace("\u00a0", " ")


def test_an_empty_set_gives_0_over_0_undefined_not_0():
    # Before: "Jaccard = … = 0/0 = 0.000" when a toy sentence was emptied.
    text = jaccard_text(compare_sets([], []))
    assert "Jaccard = |A ∩ B| / |A ∪ B| = 0/0: undefined" in text.replace("\u00a0", " ")
    assert "min(|A|, |B|) = 0/0: undefined" in text.replace("\u00a0", " ")
    assert "0.000" not in text


def test_the_gallery_states_the_rule_its_thresholds_and_layout_similarity(qtbot, teach, sample_scan):
    # Before: the cards showed content similarity, containment and layout similarity but not
    # the thresholds that decide the type, nor what layout similarity is; "Hamming 1 bits".
    gallery = teach.show_tab(3)
    t = sample_scan.thresholds
    rule = gallery.rule_label.text()
    assert f"content similarity ≥ {t.content_same:.3f} " in rule
    assert "containment ≥ 0.200 " in rule and "layout similarity ≥ 0.700," in rule
    assert "Layout similarity: 1 − Levenshtein distance / longer length of the two templates' tag sequences" in rule
    other = dataclasses.replace(sample_scan, thresholds=dataclasses.replace(t, layout_same=0.55))
    gallery.set_result(other)
    assert "layout similarity ≥ 0.550," in gallery.rule_label.text()
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


def test_gallery_says_1_bit_not_1_bits(qtbot, teach, sample_scan):
    gallery = teach.show_tab(3)
    pair = next(p for p in sample_scan.pairs if p.type.name != "DISTINCT")
    one = dataclasses.replace(pair, scores=dataclasses.replace(pair.scores, hamming_distance=1))
    other = dataclasses.replace(sample_scan, pairs=[one] + [p for p in sample_scan.pairs if p is not pair])
    gallery.set_result(other)
    texts = [c.measures_label.text() for c in gallery.cards.values()]
    assert any(t.endswith("Hamming 1 bit") for t in texts), texts
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


@pytest.mark.parametrize("k", [63, 64])
def test_hamming_blocks_are_never_empty(qtbot, teach, k):
    # Before: with k = 64 the view cut the 64 bits into k + 1 = 65 blocks, block 33 without a
    # cell yet listed as equal.
    hamming = teach.show_tab(2)
    hamming.k = k
    hamming.set_values("0x0", "0xffff")
    text = hamming.blocks_label.text()
    if k == 63:
        assert "k + 1 = 64 blocks" in text
        numbers = [t for t in hamming.grid.row_texts("blocks") if t]
        assert numbers == [str(n) for n in range(1, 65)]  # one bit each
    else:
        assert "65" not in text and "every pair is within k" in text
        assert "blocks" not in hamming.grid.row_names()


def test_the_simhash_text_says_which_md5_bits_and_bit_order(qtbot, teach):
    # Before: "hashed (MD5)": a student could not reproduce the first row.
    text = teach.simhash_view.explain_label.text()
    assert "the last 8 bytes of the MD5 of its UTF-8 text, bit 0 the most significant" in text


def test_an_identical_selected_pair_opens_on_an_instructive_pair_and_a_later_selection_is_followed(qtbot, sample_scan):
    # Before: after a scan the main window selects the most similar pair, two identical texts
    # (Jaccard 423/423 = 1.000, Hamming 0 bits), and the teaching window opened on it.
    identical = ("mirror/larkmoor-wheelers.example.org/articles/river-trail.html", "site/articles/river-trail.html")
    cafes = ("elsewhere/vale-gazette-cafes.html", "site/articles/cafe-stops.html")
    window = TeachingWindow(sample_scan, pair=identical)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    assert window.pair == cafes  # the first content/partial duplicate with differing texts, 10 bits apart
    note = window.pair_note.full_text()
    assert note.startswith(f"Showing {cafes[0]} and {cafes[1]}: a partial duplicate, Hamming 10 bits (the selected")
    assert (window.hamming_view.steps.distance, window.simhash_view.source_combo.page().path) == (10, cafes[0])
    window.show_pair(*identical)  # the user selects it: followed
    assert window.pair == identical and window.pair_note.text() == ""
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    assert window.hamming_view.steps.distance == 0


def test_fields_show_their_beginning_and_an_empty_text_asks_for_text(qtbot, teach):
    # Before: a long toy sentence showed its end, the Hamming field "…a94645274251" without its
    # "0x"; with nothing typed the SimHash note read "0 features, heaviest first (ties in
    # alphabetical order)."
    jaccard = teach.show_tab(1)
    long = "a long sentence " * 20
    jaccard.set_toy(long, long)
    assert [e.cursorPosition() for e in jaccard.toy_edits] == [0, 0]
    hamming = teach.show_tab(2)
    hamming.set_values(0x3949A94645274251, 1)
    assert [e.cursorPosition() for e in hamming.edits] == [0, 0]
    simhash = teach.show_tab(0)
    simhash.set_text("")
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    assert simhash.note_label.text() == "Type some text to list its features."


def chinese_pair(folder) -> None:
    """Two Chinese pages of some 3,400 character shingles, the second without one paragraph."""
    import random

    rng = random.Random(7)
    chars = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    paragraphs = ["".join(rng.choice(chars) for _ in range(170)) + "。" for _ in range(20)]
    for name, kept in (("a.html", paragraphs), ("b.html", paragraphs[:10] + paragraphs[11:])):
        body = "".join(f"<p>{p}</p>" for p in kept)
        (folder / name).write_text(
            f'<html><head><meta charset="utf-8"><title>茶</title></head><body><article>{body}</article></body></html>',
            encoding="utf-8",
        )


def test_jaccard_view_fits_1280x800_presenting_a_large_chinese_pair(qtbot, tmp_path):
    # Before: presenting at 1280x800 a pair of 3,277 and 3,418 shingles needed 70 pixels of
    # scrolling, hiding the definitions: the formulas wrapped and the lists counted CJK rows.
    from dedup_gui.core.pipeline.scan import scan_folder

    chinese_pair(tmp_path)
    result = scan_folder(tmp_path)
    window = TeachingWindow(result)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    view = window.show_tab(1)
    view.show_pages("a.html", "b.html")
    sized(qtbot, window, (1280, 800), presenting=True)
    qtbot.waitUntil(lambda: view.data is not None and not view.is_busy(), timeout=LONG)
    qtbot.wait(200)
    assert len(view.data.comparison.a) > 3_000
    scroll = window.tabs.currentWidget()
    assert scroll.verticalScrollBar().maximum() == 0
    notes = view.notes_label
    assert notes.mapTo(scroll.viewport(), notes.rect().bottomLeft()).y() <= scroll.viewport().height()
    assert QFontInfo(notes.font()).pixelSize() >= 14
    label = view.jaccard_label
    assert label.height() <= 4 * label.fontMetrics().lineSpacing() + 8  # one line a formula


def test_presenting_the_venn_shingles_are_legible_and_never_cut(qtbot, teach):
    # Before: presenting at 1280x800 the toy's shingles in the Venn diagram were ~10 pixels, the
    # shared ones cut at the region's bottom ("dog by" half drawn).
    view = teach.show_tab(1)
    sized(qtbot, teach, (1280, 800), presenting=True)
    view.set_toy("the quick brown fox jumps over the lazy dog by the river",
                 "a quick brown dog jumps over the lazy fox by the river", 2)  # fmt: skip
    qtbot.waitUntil(lambda: view.data is not None and not view.is_busy(), timeout=LONG)
    qtbot.wait(100)
    venn = view.venn
    regions = venn.element_rects()
    assert len(regions) == 3
    sizes = [QFontInfo(venn.element_font(items, rect.width())).pixelSize() for rect, items in regions]
    assert min(sizes) >= 14, sizes
    for rect, items in regions:
        font = venn.element_font(items, rect.width())
        lines = venn.element_lines(items, rect.width(), rect.height())
        assert len(lines) * QFontMetricsF(font).lineSpacing() <= rect.height() + 1, (items, lines)
    assert QFontInfo(view.notes_label.font()).pixelSize() >= 14


def test_methods_without_labels_shows_no_empty_matrix_and_a_run_shows_the_whole_summary(qtbot, sample_scan):
    # Before: with no labels the confusion matrix's title stood one word a line beside a large
    # empty figure; with labels, at 1152x720 the summary's last line ("… F1 1.000") was cut.
    window = TeachingWindow(dataclasses.replace(sample_scan, root="/nowhere/without/labels"))
    qtbot.addWidget(window)
    window.show()
    view = window.show_tab(4)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    assert view.run is None and not view.bottom.isVisible()
    window.set_result(sample_scan)
    window.resize(1152, 720)
    qtbot.waitUntil(lambda: view.run is not None and not window.is_busy(), timeout=LONG)
    qtbot.wait(200)
    summary = view.summary_label
    assert view.bottom.isVisible()
    assert summary.height() >= summary.heightForWidth(summary.width()), (summary.height(), summary.width())


def test_simhash_view_fits_1280x800_presenting_a_page_longer_than_the_table(qtbot, tmp_path):
    # A teacher presented a 2,148-feature Chinese page at 1280x800: the note "The table lists the
    # first 2,000 of 2,148 features…" took two lines, the view scrolled and the note was cut.
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.gui.teaching.simhash_view import TABLE_CAP

    chinese_pair(tmp_path)
    window = TeachingWindow(scan_folder(tmp_path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    view = window.show_tab(0)
    assert view.select_page("a.html")
    sized(qtbot, window, (1280, 800), presenting=True)
    qtbot.waitUntil(lambda: view.steps is not None and not view.is_busy(), timeout=LONG)
    qtbot.wait(200)
    assert view.feature_count() > TABLE_CAP
    assert window.tabs.currentWidget().verticalScrollBar().maximum() == 0
    assert not view.note_label.isVisible() and f"first {TABLE_CAP:,} of" in view.table.toolTip()
