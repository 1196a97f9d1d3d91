"""The teaching views' chart: the MinHash estimate converging to the Jaccard similarity.

Drawn with matplotlib on a plain ``Figure`` (no pyplot, no Qt), like :mod:`.charts`, so the
window embeds it in a Qt canvas and a teacher can save it as PNG or SVG.  MinHash (Broder 1997):
after n permutations the estimate is the share of equal minima, whose standard error is
``sqrt(J (1 - J) / n)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dedup_gui.core.number_format import format_fraction_value, format_score
from dedup_gui.core.views.charts import LIGHT, Palette, _style

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from dedup_gui.core.teaching.jaccard_steps import SetComparison

#: Colours of the estimate and of the exact value.
ESTIMATE_COLOR = "#1565c0"
EXACT_COLOR = "#d84315"


def standard_error(jaccard: float, permutations: int) -> float:
    """The standard error of a MinHash estimate of ``jaccard`` from ``permutations`` minima (float).

    Example:
        >>> round(standard_error(0.5, 100), 3)
        0.05
    """
    return math.sqrt(jaccard * (1.0 - jaccard) / permutations) if permutations > 0 else 1.0


def convergence_figure(
    comparison: SetComparison,
    convergence: Sequence[tuple[int, float]],
    palette: Palette = LIGHT,
    fig: Figure | None = None,
) -> Figure:
    """Draw the MinHash estimate after 1 .. n permutations against the exact Jaccard similarity.

    Args:
        comparison: the two sets (:func:`dedup_gui.core.teaching.jaccard_steps.compare_sets`); its
            ``jaccard`` and ``fraction`` are the exact value drawn.
        convergence: ``[(n, estimate), ...]`` from
            :func:`dedup_gui.core.teaching.jaccard_steps.minhash_convergence`.
        palette: colours.
        fig: a figure to draw into (cleared first); a new one if ``None``.

    Returns:
        The figure; the estimate's ``Line2D`` has the gid ``"estimate"`` (one point per
        permutation), the exact value's ``"exact"``; a band of one standard error surrounds it.
        The legend is the axes' (``ax.get_legend()``), inside the plot on the side away from J.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = fig or Figure(figsize=(6, 3), layout="constrained")
    fig.clear()
    ax = fig.add_subplot()
    _style(fig, ax, palette)
    j = comparison.jaccard
    n = [p[0] for p in convergence]
    est = [p[1] for p in convergence]
    right = max(n[-1] if n else 1, 2)
    if n:
        se = [standard_error(j, x) for x in n]
        ax.fill_between(n, [max(0.0, j - s) for s in se], [min(1.0, j + s) for s in se], color=palette.muted,
                        alpha=0.45, linewidth=0, label="± one standard error")  # fmt: skip
    # two empty sets: 0/0 is undefined, as the formulas say; no line at 0 for it
    exact_text = f"{comparison.fraction} = {format_fraction_value(j)}" if comparison.union_size else "0/0: undefined"
    (exact,) = ax.plot([1, right], [j, j] if comparison.union_size else [float("nan")] * 2, "--", color=EXACT_COLOR,
                       linewidth=2, label=f"exact Jaccard {exact_text}")  # fmt: skip
    exact.set_gid("exact")
    last = format_score(est[-1]) if est else "–"
    (line,) = ax.plot(n, est, "-", color=ESTIMATE_COLOR, linewidth=1.6,
                      label=f"MinHash estimate (after {len(n)}: {last})")  # fmt: skip
    line.set_gid("estimate")
    ax.set_xlim(1, right)
    # permutations are counted: no 2.5, 7.5; as many numbers as the width holds (ten ran together)
    ax.xaxis.set_major_locator(MaxNLocator(nbins="auto", integer=True))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("permutations (hash functions) used")
    # "share of equal minima" was cut in presentation mode's short panel; both lines are a
    # Jaccard similarity (exact, or estimated as that share: the chart's tooltip says so)
    ax.set_ylabel("Jaccard")
    # short: a longer title was cut at the panel's edge in presentation mode at 1280x800
    ax.set_title("MinHash estimate vs. exact Jaccard", color=palette.foreground, fontsize="medium")
    ax.grid(True, color=palette.muted, linewidth=0.5)
    # Inside the plot, on the side away from the curves (they settle at J, right of the first
    # permutations): under the plot, in the Jaccard view's short panel, the key took as much
    # height as the plot, and the layout gave up at some sizes; "best" covered the curves near J = 1.
    legend = ax.legend(loc="lower right" if j >= 0.5 else "upper right", fontsize="small",
                       facecolor=palette.background, edgecolor=palette.muted, framealpha=0.9)  # fmt: skip
    for text in legend.get_texts():
        text.set_color(palette.foreground)
    return fig
