"""A new teacher's walkthrough of the Teach menu's views: the measures defined where they are
explained, the toy example editable, one number format, and each view fitting the projector."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QLabel
from rapidfuzz.distance import Levenshtein

from dedup_gui.core.pipeline.measures import text_similarity
from dedup_gui.gui.teaching.steps_table import ROW_SUMS
from tests.gui.test_teaching_teacher import LONG, present

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def scroll_of(window):
    """The current tab's scroll area."""
    return window.tabs.currentWidget()


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_simhash_with_empty_typed_text_disables_next_and_says_why(qtbot, teach, text):
    # Typed text chosen and left empty: Next stayed enabled and stepped to a sign step of nothing.
    view = teach.show_tab(0)
    view.set_text(text)
    qtbot.waitUntil(lambda: not view.is_busy() and view.steps is not None, timeout=LONG)
    assert view.source_combo.page() is None
    for button in (view.next_button, view.last_button, view.play_button):
        assert not button.isEnabled(), button.text()
    assert "type some text" in view.step_label.text().lower()
    view.next()  # the shortcut (Page Down) does nothing either
    assert view.position == 0
    view.text_edit.setPlainText("a rose is a rose")
    qtbot.waitUntil(lambda: not view.is_busy() and view.next_button.isEnabled(), timeout=LONG)
    assert view.feature_count() == 3  # a, rose, is


#: A decimal in [0, 1] as written in a text: "0.2", "0.200", "1.0".
DECIMAL = re.compile(r"(?<![\d.])[01]\.(\d+)(?![\d.])")


def decimals_of(texts) -> list[str]:
    return [m.group(0) for text in texts for m in DECIMAL.finditer(text)]


def test_similarities_are_written_to_three_places_in_every_teaching_view(qtbot, teach, samples_dir):
    # The Methods tab wrote thresholds ">= 0.9" in its table and "layout same >= 0.70" in its
    # settings line, the Jaccard view 0.286, the gallery 0.483: one format, 3 places, as the tables.
    methods = teach.methods_view
    methods.set_labels(samples_dir / "EXPECTED.csv")
    teach.show_tab(4)
    with qtbot.waitSignal(methods.finished, timeout=LONG):
        methods.start()
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    table = methods.methods_table
    texts = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(1, table.columnCount())
             if table.item(r, c) is not None]  # fmt: skip
    texts += [methods.settings_label.text(), methods.summary_label.text()]
    texts += [t.get_text() for ax in methods.plot.figure.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    texts += [t.get_text() for legend in methods.plot.figure.legends for t in legend.get_texts()]
    assert "≥ 0.900" in texts  # the shingles' default threshold, was ">= 0.9"
    assert "layout same ≥ 0.700" in methods.settings_label.text().replace("\u00a0", " ")  # was 0.70
    jaccard = teach.show_tab(1)
    qtbot.waitUntil(lambda: not teach.is_busy() and jaccard.data is not None, timeout=LONG)
    texts += [jaccard.jaccard_label.text(), jaccard.texts_label.text()]
    texts += [t.get_text() for legend in jaccard.plot.figure.legends for t in legend.get_texts()]
    teach.show_tab(3)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    texts += [label.text() for label in teach.gallery_view.findChildren(QLabel)]
    found = decimals_of(texts)
    assert found and all(len(d.split(".")[1]) == 3 for d in found), found


def wait_jaccard(qtbot, view, toy: bool) -> None:
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and view.data.toy == toy, timeout=LONG)


def test_the_jaccard_view_defines_content_similarity_containment_and_a_cjk_token(qtbot, teach, sample_scan):
    # No teaching view said what "content similarity" (the rule's measure for main texts) is,
    # that containment is the symmetric form of Broder's one-sided containment, or that a
    # Chinese or Japanese token is one character.  The definitions are those of the core:
    # text_similarity (1 - Levenshtein distance / max length) and tokenize (CJK characters).
    view = teach.show_tab(1)
    wait_jaccard(qtbot, view, toy=False)
    notes = view.notes_label.text().split("\n")
    assert len(notes) == 3 and view.notes_label.isVisible()
    token, containment, content = notes
    assert "Chinese" in token and "Japanese" in token and "one character" in token
    assert "Broder" in containment and "c(A, B) = |A ∩ B| / |A|" in containment and "symmetric" in containment
    assert f"k = {sample_scan.settings.shingle_size}" in containment
    assert content.startswith("Content similarity") and "1 − Levenshtein distance / max length" in content
    assert "characters" in content
    pages = [p for p in sample_scan.pages if p.has_text][:2]
    assert text_similarity(pages[0].main_text, pages[1].main_text) == pytest.approx(
        1
        - Levenshtein.distance(pages[0].main_text, pages[1].main_text)
        / max(len(pages[0].main_text), len(pages[1].main_text))
    )  # what the note says is what the scan computes


def test_the_toy_examples_k_and_sentences_are_the_teachers(qtbot, teach):
    # The toy's k and sentences were fixed ("a rose is a flower indeed", k = 2).
    view = teach.show_tab(1)
    view.show_toy()
    wait_jaccard(qtbot, view, toy=True)
    assert (view.data.comparison.fraction, view.k_spin.value()) == ("2/7", 2)  # the defaults as before
    assert (view.k_spin.minimum(), view.k_spin.maximum()) == (1, 8) and view.k_spin.isEnabled()
    view.k_spin.setValue(1)  # words: a, is, flower shared of a, rose, is, flower, indeed, too, red
    qtbot.waitUntil(lambda: not view.is_busy() and view.data.k == 1, timeout=LONG)
    assert view.data.comparison.fraction == "3/7" and "1-token shingles" in view.texts_label.text()
    assert (
        "Jaccard = |A ∩ B| / |A ∪ B| = 3/7 = 0.428…"
    )  # cut, as every view (0.429 rounded) in view.jaccard_label.text().replace("\u00a0", " ")
    edit_b = view.toy_edits[1]
    edit_b.clear()
    qtbot.keyClicks(edit_b, "a rose is a rose")  # typed: recomputed after a pause
    qtbot.waitUntil(lambda: not view.is_busy() and view.data.names[1] == "a rose is a rose", timeout=LONG)
    c = view.data.comparison
    assert (c.fraction, c.containment) == ("3/5", 1.0)  # B's words a, rose, is all in A
    assert view.venn.region_counts() == (2, 3, 0)
    assert [view.shared_list.item(i).text() for i in range(view.shared_list.count())] == ["a", "rose", "is"]
    view.pages_radio.setChecked(True)  # the pages keep their own k
    wait_jaccard(qtbot, view, toy=False)
    assert view.k_spin.value() == 4 and view.k_spin.maximum() == 12
    view.show_toy()
    wait_jaccard(qtbot, view, toy=True)
    assert view.k_spin.value() == 1 and view.data.comparison.fraction == "3/5"  # the toy's kept


@pytest.mark.parametrize("toy", [True, False])
def test_the_jaccard_view_fits_1280x800_in_presentation_mode(qtbot, teach, toy):
    # Presenting at 1280x800 the view scrolled a little (the lists' last rows); with the notes
    # it was 48 pixels too tall.
    view = teach.show_tab(1)
    if toy:
        view.show_toy()
    present(qtbot, teach, (1280, 800))
    wait_jaccard(qtbot, view, toy=toy)
    qtbot.wait(100)
    area = scroll_of(teach)
    assert area.verticalScrollBar().maximum() == 0 and area.horizontalScrollBar().maximum() == 0
    bottom = view.notes_label.mapTo(view, view.notes_label.rect().bottomLeft()).y()
    assert bottom <= area.viewport().height()
    lists_bottom = view.shared_list.mapTo(view, view.shared_list.rect().bottomLeft()).y()
    assert lists_bottom <= area.viewport().height()
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


#: Two fingerprints 34 bits apart: bits 30-63 (the low 34 bits) flipped.
HAM_A = 0x0123456789ABCDEF
HAM_B = HAM_A ^ ((1 << 34) - 1)


@pytest.mark.parametrize("size", [None, (1280, 800), (1600, 1000), (1920, 1080)])
def test_hamming_34_bits_apart_fits_without_scrolling(qtbot, teach, size):
    # Two typed binary fingerprints 34 bits apart: the 34 differing positions, listed one by
    # one over three lines, made the view scroll (28 pixels presenting at 1280x800).
    view = teach.show_tab(2)
    if size is not None:
        present(qtbot, teach, size)
    view.set_values(f"0b{HAM_A:064b}", f"0b{HAM_B:064b}")
    qtbot.wait(100)
    assert view.steps.distance == 34
    assert "differing positions: 30–63" in view.result_label.text()
    area = scroll_of(teach)
    assert area.verticalScrollBar().maximum() == 0 and area.horizontalScrollBar().maximum() == 0
    bottom = view.blocks_label.mapTo(area.viewport(), view.blocks_label.rect().bottomLeft()).y()
    assert bottom <= area.viewport().height()
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


@pytest.mark.parametrize("position", [12, "last"])
def test_simhash_presenting_at_1280x800_has_readable_sums_and_more_table_rows(qtbot, teach, position):
    # At 1280x800 presenting the sums ("+107" in 1/32 of the width) were drawn at 7.5 points,
    # below the window's normal body text (9), and the features table showed 2.5 rows.
    view = teach.show_tab(0)
    view.select_page("site/articles/spring-audax-2024.html")
    body = view.font().pointSizeF()  # the body text before presentation mode doubles it
    present(qtbot, teach, (1280, 800))
    view.go_to(view.last_position() if position == "last" else position)
    qtbot.wait(50)
    board = view.board
    sums = board.cell_font(board.row_names().index(ROW_SUMS)).pointSizeF()
    assert sums >= body, (sums, body)
    assert view.displayed_sums() == list(view.steps.sums if position == "last" else view.steps.steps[11].sums)
    # the class's walkthrough: 14-pixel sums in 4 lines of 16 and fewer table rows, rather than
    # sums too small to read from the back (tests/gui/test_teaching_class.py)
    row = view.table.verticalHeader().defaultSectionSize()
    assert view.table.viewport().height() >= row, (view.table.viewport().height(), row)
    assert scroll_of(teach).verticalScrollBar().maximum() == 0
    teach.presentation.set_active(False)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    assert board.row_texts(ROW_SUMS)[0][0] in "+−0"  # signed again out of presentation mode
