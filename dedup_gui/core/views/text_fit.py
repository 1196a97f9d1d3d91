"""Keep a drawn chart's words inside its figure: titles, axis labels, legend entries and free
texts that run past the figure's edge are wrapped (or, a single word too long, set smaller).

A chart is laid out for the room it is given (matplotlib's constrained layout), but that layout
moves axes, never words: a long left-aligned title or a wide legend in a small figure (a chart
in a narrow panel, fonts one and a half times as large in presentation mode) ran off the edge.
Tick labels are left alone: they are the layout's own and cannot be wrapped.
"""

from __future__ import annotations

import textwrap

from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text

#: Pixels a text may come closer to the figure's edge than this before it is fitted.
EDGE_PAD = 2.0
#: The smallest font size a text is set to when a single word does not fit (points).
MIN_FONT_SIZE = 6.0
#: Layout passes at most: each fits the texts that still overflow and lays the figure out again.
MAX_PASSES = 4


def fittable_texts(fig: Figure) -> list[Text]:
    """The texts :func:`fit_texts` may change: every visible, non-empty title, axis label,
    legend entry or title, and text placed on the figure or an axes (list of ``Text``)."""
    texts: list[Text] = list(fig.texts)
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        text = getattr(fig, name, None)
        if text is not None:
            texts.append(text)
    for ax in fig.axes:
        # the left and right titles (``set_title(loc=...)``) have no public getter of their Text
        titles = [getattr(ax, name, None) for name in ("_left_title", "_right_title")]
        texts += [ax.title, *(t for t in titles if t is not None), ax.xaxis.label, ax.yaxis.label, *ax.texts]
        legends = [ax.get_legend(), *(a for a in ax.get_children() if isinstance(a, Legend))]
        for legend in dict.fromkeys(leg for leg in legends if leg is not None):
            texts += [*legend.get_texts(), legend.get_title()]
    for legend in fig.legends:
        texts += [*legend.get_texts(), legend.get_title()]
    return [t for t in dict.fromkeys(texts) if t.get_visible() and t.get_text().strip()]


def overflowing_texts(fig: Figure, pad: float = EDGE_PAD) -> list[Text]:
    """The :func:`fittable_texts` of a drawn figure whose extent leaves the figure by more than
    ``pad`` pixels on any side (list of ``Text``; empty when all fit)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    box = fig.bbox
    out = []
    for text in fittable_texts(fig):
        bb = text.get_window_extent(renderer)
        if bb.x0 < box.x0 - pad or bb.x1 > box.x1 + pad or bb.y0 < box.y0 - pad or bb.y1 > box.y1 + pad:
            out.append(text)
    return out


def _fit_one(text: Text, fig: Figure, pad: float) -> None:
    """Wrap ``text`` (or make it smaller) so that it would end ``pad`` pixels inside the figure."""
    bb = text.get_window_extent(fig.canvas.get_renderer())  # type: ignore[attr-defined]
    box = fig.bbox
    across = abs(text.get_rotation() % 180) < 45
    if across:
        over = max(0.0, box.x0 + pad - bb.x0) + max(0.0, bb.x1 - (box.x1 - pad))
        # a centred text shrinks on both sides: it must lose twice what overflows on one side
        centred = text.get_horizontalalignment() == "center" and (bb.x0 < box.x0 + pad) != (bb.x1 > box.x1 - pad)
        length, room = bb.width, bb.width - (2 * over if centred else over)
    else:
        length, room = bb.height, min(bb.height, box.height - 2 * pad)
    room = max(room, 0.25 * min(length, box.width))
    if length <= 0:
        return
    lines = text.get_text().split("\n")
    longest = max(len(line) for line in lines)
    width = int(longest * room / length)
    wrapped = [textwrap.fill(line, width, break_long_words=False) if len(line) > width else line for line in lines]
    longest_after = max(len(line) for part in wrapped for line in part.split("\n"))
    if across and width >= 8 and longest_after <= width:
        text.set_text("\n".join(wrapped))
    else:  # a word longer than the room (or a text drawn up the side): set it smaller
        text.set_fontsize(max(MIN_FONT_SIZE, text.get_fontsize() * room / length))


def fit_texts(fig: Figure, pad: float = EDGE_PAD, passes: int = MAX_PASSES) -> bool:
    """Fit the overflowing texts of a drawn figure into it, laying it out again after each pass.

    Args:
        fig: a figure with a canvas, drawn at least once (its texts measured at its size and dpi).
        pad: how close to the edge a text may come (pixels).
        passes: the most times to fit and lay out again (each pass may move the axes and legend).

    Returns:
        ``True`` if any text was changed: the caller draws the figure again to show it (bool).
    """
    changed = False
    for _ in range(passes):
        over = overflowing_texts(fig, pad)
        if not over:
            break
        for text in over:
            _fit_one(text, fig, pad)
        changed = True
        fig.draw_without_rendering()
    return changed
