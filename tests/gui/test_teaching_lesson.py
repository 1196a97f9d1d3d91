"""A teacher's class with the teaching window (presentation mode on 1280x800 and 1152x720
projectors): one number rule across the views, terms defined where they are used, one scroll
bar, the Methods tab whole at 1152x720, a note for a text shorter than k, "≥" everywhere."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea

from dedup_gui.core.teaching.charts import convergence_figure
from dedup_gui.core.teaching.jaccard_steps import compare_sets, minhash_convergence
from dedup_gui.gui.teaching.jaccard_view import jaccard_text
from dedup_gui.gui.teaching.methods_tables import METHOD_HEADERS

LONG = 60_000

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def sets(shared: int, only_a: int, only_b: int):
    a = [f"s{i}" for i in range(shared)] + [f"a{i}" for i in range(only_a)]
    b = [f"s{i}" for i in range(shared)] + [f"b{i}" for i in range(only_b)]
    return compare_sets(a, b)


def test_the_jaccard_views_decimal_is_the_cut_value_every_other_view_shows():
    # 198/410 = 0.48292...: the gallery (format_score) wrote 0.482, the Jaccard view 0.483;
    # "…" says digits were cut, so "=" stays true; an exact value has none
    text = jaccard_text(sets(198, 249, 212)).replace("\u00a0", " ")
    assert "198/410 = 0.482…" in text and "0.483" not in text
    assert "= 0.300…" in text  # 198/659 = 0.30045...
    assert "1/2 = 0.500\n" in jaccard_text(sets(1, 1, 0)).replace("\u00a0", " ") + "\n"


def scroll_of(window, index: int) -> QScrollArea:
    return window.tabs.widget(index)


def test_the_methods_tab_fits_1152x720_without_scrolling(qtbot, teach):
    # it scrolled 13 pixels: the tab's scroll area took the splitter's preferred height
    view = teach.methods_view
    teach.resize(1152, 720)
    with qtbot.waitSignal(view.finished, timeout=LONG):
        teach.show_tab(4)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    qtbot.wait(100)
    assert scroll_of(teach, 4).verticalScrollBar().maximum() == 0
    # every part still has the room balance() gives it
    assert view._top.height() >= view._top.minimumHeight() and view.bottom.height() >= view.bottom.minimumHeight()


@pytest.mark.parametrize("size", [(1280, 800), (1152, 720)])
def test_the_gallery_has_one_scroll_bar_in_presentation_mode(qtbot, teach, size):
    # the tab's scroll area and the gallery's own both scrolled (the words above the cards)
    teach.show_tab(3)
    teach.presentation.set_active(True)
    teach.setWindowState(Qt.WindowState.WindowNoState)
    teach.resize(*size)
    qtbot.waitUntil(lambda: teach.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    qtbot.wait(100)
    assert scroll_of(teach, 3).verticalScrollBar().maximum() == 0
    assert teach.gallery_view.scroll.verticalScrollBar().maximum() > 0  # the cards scroll, once
    teach.presentation.set_active(False)


@pytest.mark.parametrize("shared, only", [(98, 2), (50, 25), (45, 28), (30, 35), (5, 50), (100, 0)])
def test_the_minhash_legend_is_never_over_the_curves(shared, only):
    # near J = 1 in the Jaccard view's small panel (presentation mode), the legend ("best")
    # covered the curves; under the plot it took as much height as the plot, and the layout gave
    # up ("axes sizes collapsed to zero"). Inside the plot, on the side away from J, it clears
    # the band the estimate settles in (J ± one standard error at 128 permutations).
    import warnings

    from dedup_gui.core.teaching.charts import standard_error

    c = sets(shared, only, only)
    fig = Figure(figsize=(3.2, 2.4), layout="constrained", dpi=150)
    FigureCanvasAgg(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a collapsed layout warns
        convergence_figure(c, minhash_convergence(c.a, c.b, 256), fig=fig)
        fig.canvas.draw()
    ax = fig.axes[0]
    assert not fig.legends and ax.get_legend() is not None
    box = ax.get_legend().get_window_extent()
    se = standard_error(c.jaccard, 128)
    low, high = (ax.transData.transform((1, y))[1] for y in (c.jaccard - se, c.jaccard + se))
    assert box.y1 <= low or box.y0 >= high, (c.jaccard, box, low, high)


def test_minhash_f1_and_the_counts_are_defined_where_they_are_used(qtbot, teach):
    jaccard = teach.jaccard_view
    for widget in (jaccard.minhash_label, jaccard.permutations_spin, jaccard.plot.canvas):
        assert "MinHash (Broder 1997)" in widget.toolTip() and "smallest" in widget.toolTip()
    assert "(?)" in jaccard.minhash_label.text()
    table = teach.methods_view.methods_table
    tips = {METHOD_HEADERS[c]: table.horizontalHeaderItem(c).toolTip() for c in range(table.columnCount())}
    assert tips["F1"].startswith("F1 = 2 × precision × recall / (precision + recall)")
    assert tips["TP"].startswith("True positives") and tips["FP"].startswith("False positives")
    assert tips["FN"].startswith("False negatives") and tips["TN"].startswith("True negatives")
    assert "macro-F1" in teach.methods_view.summary_label.toolTip()


def test_a_sentence_shorter_than_k_is_said_to_be_one_shingle(qtbot, teach):
    view = teach.show_tab(1)
    view.set_toy("a rose is a flower indeed", "a rose", k=5)
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and view.data.k == 5, timeout=LONG)
    assert [view.only_b_list.item(i).text() for i in range(view.only_b_list.count())] == ["a rose"]
    assert "B is shorter than k = 5 tokens: the whole text is one shingle." in view.texts_label.text()
    view.set_toy("a rose is a flower indeed", "is a flower too red", k=2)
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and view.data.k == 2, timeout=LONG)
    assert "shorter" not in view.texts_label.text()


def test_the_methods_tab_writes_relations_as_the_gallery_does(qtbot, teach):
    # "≥" in the gallery, ">=" in the Methods tab's table, settings line and tooltips
    view = teach.methods_view
    with qtbot.waitSignal(view.finished, timeout=LONG):
        teach.show_tab(4)
    table = view.methods_table
    texts = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())
             if table.item(r, c) is not None]  # fmt: skip
    texts += [table.item(r, 0).toolTip() for r in range(table.rowCount())]
    texts += [view.settings_label.text()]
    assert not [t for t in texts if ">=" in t or "<=" in t]
    assert (
        "≥ 0.900" in texts
        and "k ≤ 3" in texts
        and "content same ≥ 0.925" in view.settings_label.text().replace("\u00a0", " ")
    )
    assert "≥" in teach.gallery_view.rule_label.text()
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)


def present(qtbot, window, size) -> None:
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    qtbot.wait(100)


@pytest.mark.parametrize("size", [(1280, 800), (1152, 720)])
def test_every_venn_region_is_named_in_presentation_mode(qtbot, teach, size):
    # Presenting, the pages' regions were too small for "249\nonly in A": the counts alone were
    # drawn, and "only in A", "A ∩ B", "only in B" disappeared; they stand under the circles.
    view = teach.show_tab(1)
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and not view.data.toy, timeout=LONG)
    present(qtbot, teach, size)
    venn = view.venn
    named = {label.split("\n")[1] for _h, label, _r, _i in venn.region_labels() if "\n" in label}
    captions = getattr(venn, "captions", list)()
    assert named | {name for _rect, name in captions} == {"only in A", "A ∩ B", "only in B"}
    bounds = venn.rect().toRectF()
    rects = [rect for rect, _name in captions]
    assert all(bounds.contains(rect) for rect in rects)
    assert all(a.right() <= b.left() for a, b in zip(rects, rects[1:]))  # apart, in order
    heads = [head for head, *_ in venn.region_labels()]
    assert not any(rect.intersects(head) for rect in rects for head in heads)
    teach.presentation.set_active(False)


def test_the_simhash_boards_labels_and_bit_numbers_are_14_pixels_on_any_screen(qtbot, teach, monkeypatch):
    # 10.5 points are 14 pixels at 96 dpi but 10.5 on a 72-dpi screen: the crowded board's row
    # names and bit numbers were that small
    view = teach.show_tab(0)
    present(qtbot, teach, (1280, 800))
    board = view.board
    assert board.crowded()  # four blocks of 16 at the legible floor
    for dpi in (96, 72):
        monkeypatch.setattr(board, "logicalDpiY", lambda d=dpi: d)
        board._layout_cache = board._font_cache = None
        header = board._least_font() if board.crowded() else board._header_font()
        for font in (board.board_font(), header):
            assert font.pointSizeF() * dpi / 72 >= 14 - 1e-6, (dpi, font.pointSizeF())
    teach.presentation.set_active(False)


@pytest.mark.parametrize("size", [(1280, 800), (1152, 720)])
def test_a_typed_values_reading_is_whole_in_presentation_mode(qtbot, teach, size):
    # at 1152x720 the reading of a typed "58" ended "…; type 0b… for bi…"
    teach.show_tab(2)
    present(qtbot, teach, size)
    view = teach.hamming_view
    view.edits[0].setText("58")
    view.edits[0].textEdited.emit("58")
    qtbot.wait(100)
    reading = view.readings[0]
    assert reading.text().replace("\n", " ") == reading.full_text()
    assert reading.full_text().endswith("type 0b… for binary")
    teach.presentation.set_active(False)


@pytest.mark.parametrize("size", [(1280, 800), (1152, 720)])
def test_the_minhash_charts_axis_labels_are_whole_in_presentation_mode(qtbot, teach, size):
    # With its key under the plot, the short panel cut the y label to "share of equal minim".
    view = teach.show_tab(1)
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None, timeout=LONG)
    present(qtbot, teach, size)
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    fig = view.plot.figure
    fig.canvas.draw()
    ax, inside = fig.axes[0], fig.bbox
    for label in (ax.xaxis.label, ax.yaxis.label, ax.title):
        box = label.get_window_extent()
        assert inside.y0 - 1 <= box.y0 and box.y1 <= inside.y1 + 1, label.get_text()
        assert inside.x0 - 1 <= box.x0 and box.x1 <= inside.x1 + 1, label.get_text()
    teach.presentation.set_active(False)
