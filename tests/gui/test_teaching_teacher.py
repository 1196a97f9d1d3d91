"""A teacher's new-user test of the teaching window (presentation mode on a projector, the
bundled samples and a folder of Chinese pages): nothing drawn over anything else at 1280x800,
1600x1000 and 1920x1080; the numbers students read scale with presentation mode; a
re-classification keeps the pages chosen in the views; consistent wording and formats."""

from __future__ import annotations

import dataclasses
import re

import pytest
from PySide6.QtCore import QPoint, QRect, QRectF, QSettings, Qt
from PySide6.QtGui import QFontInfo, QPalette
from PySide6.QtWidgets import QWidget

from dedup_gui.core.model import DupType
from dedup_gui.core.teaching.jaccard_steps import compare_sets
from dedup_gui.core.views.selection import find_pair
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.settings import AppSettings
from dedup_gui.gui.teaching.cell_grid import BOARD_PIXELS
from dedup_gui.gui.teaching.steps_table import ROW_FINGERPRINT, ROW_SUMS
from dedup_gui.gui.teaching.widgets import DIFFER

LONG = 60_000
SIZES = [(1280, 800), (1600, 1000), (1920, 1080)]
CAFES = ("site/articles/cafe-stops.html", "elsewhere/vale-gazette-cafes.html")

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def present(qtbot, window, size) -> None:
    """Presentation mode in a window of ``size`` (a projector of that size; the test's screen is
    smaller, so the window leaves full screen and is resized)."""
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    qtbot.wait(100)


def rect_in(widget: QWidget, ancestor: QWidget) -> QRect:
    """``widget``'s rectangle in ``ancestor``'s coordinates."""
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


def point_size(widget: QWidget) -> float:
    return QFontInfo(widget.font()).pointSizeF()


@pytest.mark.parametrize("size", SIZES)
def test_simhash_view_in_presentation_mode_draws_nothing_over_anything_else(qtbot, teach, size):
    # At 1600x1000 the text box (y 162-230) was drawn over the step buttons (y 202-238): the
    # grid holding it was laid out from the explanation's height alone.
    view = teach.show_tab(0)
    view.select_page("site/articles/spring-audax-2024.html")
    present(qtbot, teach, size)
    view.go_to(12)
    qtbot.wait(50)
    widgets = [view._source_row, view.eight_bit_check, view.text_edit, view.explain_label, view.first_button,
               view.previous_button, view.next_button, view.last_button, view.play_button, view.speed_slider,
               view.speed_label, view.step_label, view.board, view.fingerprint_label, view.table,
               view.note_label]  # fmt: skip
    widgets = [w for w in widgets if not w.isHidden()]  # presenting, the table's note says nothing new here
    rects = {w: rect_in(w, view) for w in widgets}
    for i, a in enumerate(widgets):
        assert view.rect().contains(rects[a]), (a, rects[a])
        for b in widgets[i + 1 :]:
            assert not rects[a].intersects(rects[b]), (a, rects[a], b, rects[b])
    assert view.text_edit.height() >= view.text_edit.minimumHeight() > 0


@pytest.mark.parametrize("size", SIZES[1:])
def test_presentation_mode_scales_the_sums_and_bits_and_the_table_shows_all_64_bits(qtbot, teach, size):
    # The sums ("+115", "−103") and the fingerprint bits stayed at some 8 pixels while the row
    # names were twice the size; the table showed bits 0-31 and a horizontal scroll bar.
    view = teach.show_tab(0)
    view.select_page("site/articles/spring-audax-2024.html")
    present(qtbot, teach, size)
    view.last()
    qtbot.wait(50)
    assert view.table.horizontalScrollBar().maximum() == 0  # every bit column in view
    assert view.table.viewport().height() >= 8 * view.table.verticalHeader().defaultSectionSize()
    board = view.board
    names = board.row_names()
    widget_pt = board.font().pointSizeF()
    sums_pt = board.cell_font(names.index(ROW_SUMS)).pointSizeF()
    bits_pt = board.cell_font(names.index(ROW_FINGERPRINT)).pointSizeF()
    # every row at one size, the row names' (a teacher tester: the sums were half the height of
    # the bits above them); lines of 24 cells where 32 would shrink the sums
    assert bits_pt == sums_pt == board.board_font().pointSizeF() <= widget_pt
    assert QFontInfo(board.cell_font(names.index(ROW_SUMS))).pixelSize() >= BOARD_PIXELS


def test_the_hamming_error_text_scales_with_presentation_mode(qtbot, teach):
    # "'-5' is neither hex (0x…) nor binary (0b…)" stayed at 10 pixels: a style sheet fixed
    # its font.
    view = teach.show_tab(2)
    view.edits[0].setText("-5")
    view.update_comparison()
    assert view.error_label.isVisible() and "'-5' is not a fingerprint" in view.error_label.text()
    normal = point_size(view.error_label)
    assert normal == pytest.approx(point_size(view.result_label.parentWidget()))
    present(qtbot, teach, (1280, 800))
    assert point_size(view.error_label) == pytest.approx(2 * normal)
    assert view.error_label.palette().color(QPalette.ColorRole.WindowText) == DIFFER  # still red


def test_a_reclassification_keeps_the_pages_chosen_in_the_teaching_views(qtbot, sample_scan, tmp_path):
    # The teacher picked the cafés pair in the Hamming view, then changed Hamming k in the main
    # window: the view jumped back to the main window's pair.  Only a new scan may reset it.
    window = MainWindow(app_settings=AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window._set_result(sample_scan)
    night = ("site/articles/night-ride-safety.html", "print/night-ride-safety.html")
    assert window.select_pair(find_pair(sample_scan, *night))
    window.teaching_action.trigger()
    teach = window.teaching_window
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    hamming, jaccard, simhash = teach.hamming_view, teach.jaccard_view, teach.simhash_view
    assert hamming.select_pages(*CAFES)
    assert jaccard.show_pages(*CAFES)
    assert simhash.select_page(CAFES[1])
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    simhash.go_to(5)
    distance = hamming.steps.distance
    window.apply_thresholds(dataclasses.replace(window.thresholds(), hamming_k=distance - 1))
    with qtbot.waitSignal(window.results_changed, timeout=LONG):
        pass
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    assert teach.result is window.result
    assert tuple(c.page().path for c in hamming.choosers) == CAFES
    assert (jaccard.page_a.page().path, jaccard.page_b.page().path) == CAFES and not jaccard.is_toy()
    assert simhash.source_combo.page().path == CAFES[1] and simhash.position == 5
    assert hamming.k == distance - 1  # compared again under the new k
    assert f"k = {distance - 1}" in hamming.result_label.text() and "not near duplicates" in hamming.result_label.text()
    window._set_result(sample_scan)  # a new scan: the views start again on their defaults
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    assert tuple(c.page().path for c in hamming.choosers) != CAFES
    teach.close()
    window.close()


def circle_hits(rect: QRectF, cx: float, cy: float, r: float) -> bool:
    """Whether ``rect`` overlaps the disc of centre (cx, cy) and radius r (its nearest point)."""
    nx, ny = min(max(cx, rect.left()), rect.right()), min(max(cy, rect.top()), rect.bottom())
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


def in_disc(rect: QRectF, cx: float, cy: float, r: float) -> bool:
    """Whether ``rect`` lies wholly in the disc (its four corners: a disc is convex)."""
    corners = ((rect.left(), rect.top()), (rect.right(), rect.top()), (rect.left(), rect.bottom()),
               (rect.right(), rect.bottom()))  # fmt: skip
    return all((x - cx) ** 2 + (y - cy) ** 2 <= r * r for x, y in corners)


@pytest.mark.parametrize("presenting", [False, True])
def test_venn_counts_stay_inside_their_regions_and_the_drawing_inside_its_area(qtbot, teach, presenting):
    # Two Chinese pages at k = 1: 77 shingles only in A, 160 shared, 513 only in B.  "77 only in
    # A" sat on circle B's outline; in presentation mode the circles ran over the text under
    # them.  Each count now lies wholly in its region, or outside both circles.
    view = teach.show_tab(1)
    if presenting:
        present(qtbot, teach, (1280, 800))
    else:
        teach.resize(1280, 800)
        qtbot.waitUntil(lambda: teach.size().toTuple() == (1280, 800), timeout=LONG)
    for only_a, both, only_b in ((77, 160, 513), (77, 117, 414), (355, 0, 1735), (3, 400, 2)):
        a = [f"a{i}" for i in range(only_a)] + [f"s{i}" for i in range(both)]
        b = [f"s{i}" for i in range(both)] + [f"b{i}" for i in range(only_b)]
        venn = view.venn
        venn.set_comparison(compare_sets(a, b))
        qtbot.wait(20)
        cxa, cxb, cy, ra, rb = venn.circles()
        area = QRectF(venn.rect())
        case = (only_a, both, only_b)
        assert area.contains(QRectF(cxa - ra, cy - ra, 2 * ra, 2 * ra)), case
        assert area.contains(QRectF(cxb - rb, cy - rb, 2 * rb, 2 * rb)), case
        for name in venn.name_rects():
            assert area.contains(name), case
        labels = venn.region_labels()
        assert len(labels) == 3, case
        for (head, label, _rect, _items), region in zip(labels, ("only in A", "A ∩ B", "only in B"), strict=True):
            assert area.contains(head), (case, label)
            hits_a, hits_b = circle_hits(head, cxa, cy, ra), circle_hits(head, cxb, cy, rb)
            if not hits_a and not hits_b:
                assert "\n" not in label, (case, label)  # outside: the count alone, beside its circle
                continue
            in_a, in_b = in_disc(head, cxa, cy, ra), in_disc(head, cxb, cy, rb)
            wholly = {"only in A": in_a and not hits_b, "A ∩ B": in_a and in_b, "only in B": in_b and not hits_a}
            assert wholly[region], (case, label, head.getRect(), (cxa, cxb, cy, ra, rb))
        assert rect_in(venn, view).bottom() < rect_in(view.texts_label, view).top()


def test_toy_mode_shows_the_toys_k_and_its_sentences_in_the_page_boxes_place(qtbot, teach, sample_scan):
    # The greyed k box read "k = 4" beside "2-word shingles", and the page boxes stayed active
    # but did nothing; one term, "token", as the k box's tooltip says.  Now the toy's k and
    # sentences are the teacher's to change, each mode keeping its own k.
    view = teach.show_tab(1)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    assert not view.is_toy() and view.k_spin.value() == sample_scan.settings.shingle_size == 4
    assert "4-token shingles" in view.texts_label.text()
    view.show_toy()
    qtbot.waitUntil(lambda: not view.is_busy() and view.data.toy, timeout=LONG)
    assert view.k_spin.value() == 2 and view.k_spin.isEnabled()
    assert view.page_a.isHidden() and view.page_b.isHidden() and not view.toy_edits[0].isHidden()
    assert "2-token shingles" in view.texts_label.text() and "word" not in view.texts_label.text()
    view.pages_radio.setChecked(True)  # back to the pages: their k again
    qtbot.waitUntil(lambda: not view.is_busy() and not view.data.toy, timeout=LONG)
    assert view.k_spin.value() == 4 and view.k_spin.isEnabled() and not view.page_a.isHidden()
    assert view.toy_edits[0].isHidden()
    assert "4-token shingles" in view.texts_label.text()


def test_hamming_text_cites_manku_only_for_their_k_and_counts_one_block(qtbot, teach):
    view = teach.show_tab(2)
    view.k = 8
    view.update_comparison()
    text = view.result_label.text()
    assert "k = 8 (Manku et al. 2007)" not in text  # Manku et al. used k = 3
    assert "k = 8 (Manku et al. 2007 used k = 3 for 64-bit fingerprints)" in text
    view.k = 3
    view.update_comparison()
    assert "k = 3 (Manku et al. 2007)" in view.result_label.text()
    view.k = 0
    view.update_comparison()
    assert "k + 1 = 1 block." in view.blocks_label.text()  # not "1 blocks"


def test_the_gallery_gives_every_measure_as_the_other_views_do(qtbot, teach):
    # The gallery gave the containment as 48.3 % where the Jaccard view and the inspector give
    # 0.483; "regions that differ: none: the 58 and 58 elements…" read awkwardly.
    view = teach.show_tab(3)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    for card in view.cards.values():
        text = card.measures_label.text()
        assert "%" not in text
        assert re.search(r"containment \d\.\d{3} · Jaccard \d\.\d{3}", text), text
    layout = view.cards[DupType.LAYOUT].regions_label.text()
    assert re.fullmatch(r"regions that differ: none \(both pages have the same [\d,]+ elements, tag for tag\)", layout)


def test_binary_typed_in_groups_of_four_is_read_as_binary_and_the_verdict_says_what_k_decides():
    # A teacher typed "0101 1000" and got "read as hex 0x01011000 = ..." (27 bits apart); and read
    # "not near duplicates" for a pair the main window called a layout duplicate, with no word on
    # why SimHash and the four types disagree.
    from dedup_gui.gui.teaching.hamming_view import read_fingerprint

    typed = read_fingerprint("0101 1000")
    assert (typed.value, typed.base) == (0x58, 2)
    assert read_fingerprint("0101_1000_1111").value == 0x58F
    assert read_fingerprint("0101").base == 16  # four digits alone stay hex, as "58" does
    assert read_fingerprint("58").value == 0x58


def test_the_hamming_verdict_says_simhash_does_not_decide_the_types(qtbot):
    from dedup_gui.gui.teaching.hamming_view import HammingView

    view = HammingView()
    qtbot.addWidget(view)
    view.set_values("0x58", "0x5f")  # 3 bits apart: near duplicates under k = 3
    text = view.result_label.text()
    assert "k = 3 (Manku et al. 2007): near duplicates by SimHash (" in text
    assert "near duplicates by SimHash (types come from texts and templates, not k)." in text
