"""Chart words kept inside the figure (issue 20: "…rings: the thresholds in use (leger" ran off
the method comparison's chart in presentation mode)."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from dedup_gui.core.views.text_fit import fit_texts, fittable_texts


def inside(fig, text, pad=1.0) -> bool:
    bb = text.get_window_extent(fig.canvas.get_renderer())
    box = fig.bbox
    return bb.x0 >= box.x0 - pad and bb.x1 <= box.x1 + pad and bb.y0 >= box.y0 - pad and bb.y1 <= box.y1 + pad


def test_a_long_left_title_and_legend_are_wrapped_into_a_small_figure():
    # 620 x 420 pixels at 150 dpi: the method comparison's chart in presentation mode
    fig = Figure(figsize=(620 / 150, 420 / 150), dpi=150, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="a legend entry far longer than the figure is wide, in many words")
    ax.set_title(
        '"Duplicate of any type?" on 233 labelled pairs (184 duplicates); rings: the thresholds in use', loc="left"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.canvas.draw()
    assert not inside(fig, ax._left_title)  # the case: cut at the right edge
    assert fit_texts(fig) is True
    fig.canvas.draw()
    for text in fittable_texts(fig):
        assert inside(fig, text), text.get_text()
    assert "\n" in ax._left_title.get_text()  # wrapped, not shrunk
    assert ax._left_title.get_text().replace("\n", " ") == (
        '"Duplicate of any type?" on 233 labelled pairs (184 duplicates); rings: the thresholds in use'
    )


def test_a_figure_whose_words_fit_is_left_alone():
    fig = Figure(figsize=(6, 4), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title("short")
    fig.canvas.draw()
    assert fit_texts(fig) is False and ax.title.get_text() == "short"
