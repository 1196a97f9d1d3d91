"""A teacher's re-test of the teaching window in presentation mode (1280x800 and 1600x1000):
what they typed or chose stays on one screen, formulas never break inside, lists get room."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QScrollArea

from dedup_gui.gui.teaching import TeachingWindow

from .test_teaching_teacher import LONG, present

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def scroll_of(window: TeachingWindow) -> QScrollArea:
    area = window.tabs.currentWidget()
    assert isinstance(area, QScrollArea)
    return area


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_a_typed_hamming_value_keeps_the_view_on_one_screen(qtbot, teach, size):
    # At 1280x800 the read-back of a typed "58" ("read as hex 0x58 = 0101 1000 in binary, 88
    # in decimal; type 0b… for binary") wrapped to four lines beside the field and pushed the
    # block index's paragraph 36 pixels below the edge.
    present(qtbot, teach, size)
    teach.show_tab("Hamming distance")
    view = teach.hamming_view
    view.edits[0].setText("58")
    view.edits[0].textEdited.emit("58")
    qtbot.wait(100)
    reading = view.readings[0]
    assert reading.full_text().startswith("read as hex 0x58 = 0101 1000 in binary")
    assert reading.text().count("\n") <= 1  # two lines at most
    area = scroll_of(teach)
    assert area.verticalScrollBar().maximum() == 0, area.widget().size()
    bottom = view.blocks_label.mapTo(area.viewport(), view.blocks_label.rect().bottomLeft()).y()
    assert bottom <= area.viewport().height()
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_the_jaccard_formulas_stay_whole_and_the_lists_get_five_rows(qtbot, teach, size):
    # At 1280x800 presenting, the counts' label wrapped inside a formula ("|A ∪ B| =" ending a
    # line, on Chinese pages "|A" / "∪ B|"), and each shingle list showed three rows, one more
    # taken by a horizontal scroll bar.
    present(qtbot, teach, size)
    teach.show_tab("Jaccard and shingles")
    view = teach.jaccard_view
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None, timeout=LONG)
    qtbot.wait(100)
    label = view.jaccard_label
    lines = label.text().split("\n")
    assert lines[1].replace("\u00a0", " ").startswith("|A ∪ B| = |A| + |B| − |A ∩ B| = ")  # one formula a line
    assert " " not in lines[1].replace(" =", "")  # breakable only before an "="
    room = label.contentsRect().width()
    assert all(label.fontMetrics().horizontalAdvance(line) <= room for line in lines), (room, lines)
    for lw in (view.shared_list, view.only_a_list, view.only_b_list):
        assert not lw.horizontalScrollBar().isVisible()
    shared = view.shared_list
    assert shared.count() > 5
    assert shared.viewport().height() >= 5 * shared.sizeHintForRow(0), shared.viewport().height()
    area = scroll_of(teach)
    assert area.verticalScrollBar().maximum() == 0
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_the_toy_venn_writes_every_shingle_whole(qtbot, teach, size):
    # Presenting at 1280x800 the toy's shingles were cut: "flowe…", "flow…", "too …".
    # Then "flower indeed" was broken over two lines: a shingle is one item, never split.
    present(qtbot, teach, size)
    teach.show_tab("Jaccard and shingles")
    view = teach.jaccard_view
    view.show_toy()
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and view.data.toy, timeout=LONG)
    qtbot.wait(50)
    venn = view.venn
    regions = venn.region_labels()
    assert [len(items) for *_x, items in regions] == [3, 2, 2]
    assert len(venn.element_rects()) == 3
    for rect, items in venn.element_rects():
        lines = venn.element_lines(items, rect.width())
        assert not any("…" in line for line in lines), lines
        assert lines == list(items)  # each shingle whole on its line, never broken between its words
        font = venn.element_font(items, rect.width())
        # whole shingles in a smaller font (presenting, still larger than the normal font)
        assert font.pointSizeF() >= 0.55 * venn.font().pointSizeF()
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000), (1920, 1080)])
def test_the_simhash_text_box_shows_whole_lines_only(qtbot, teach, size):
    # On a projector the text box showed two lines and the top half of a third ("By Denise
    # Harrowgate…" cut through): its height is now the document's top margin and whole lines.
    present(qtbot, teach, size)
    teach.show_tab("SimHash step by step")
    qtbot.wait(100)
    edit = teach.simhash_view.text_edit
    line = edit.fontMetrics().lineSpacing()
    text_height = edit.viewport().height() - round(edit.document().documentMargin())
    assert text_height % line == 0 and text_height // line >= 2, (edit.viewport().height(), line)
    assert scroll_of(teach).verticalScrollBar().maximum() == 0
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
