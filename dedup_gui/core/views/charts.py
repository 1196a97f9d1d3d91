"""The two charts, drawn with matplotlib on plain ``Figure`` objects (no pyplot, no Qt), so the
window embeds them in a Qt canvas and the reports save them as SVG or PNG.

* the Hamming distance histogram over all pairs of pages, with the near-duplicate threshold k
  (Manku, Jain and Das Sarma, WWW 2007) and the classified pairs coloured by type;
* the content/layout map: every candidate pair at (content similarity, layout similarity), with
  the four type regions of the current thresholds shaded, and named in a key outside the axes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from dedup_gui.core.columns import pair_columns
from dedup_gui.core.model import TYPE_ORDER, DupType, ScanResult, Thresholds
from dedup_gui.core.views.colors import TYPE_COLORS

#: Above this many points, the map's scatter is embedded as an image in SVG and PDF output.
RASTERIZE_POINTS = 2000
#: Above this many points, the map draws its points as one image (:func:`points_image`): Agg
#: draws a scatter marker by marker (some 10 s for a million points), the image costs a few
#: array operations and redraws as fast as any picture.
IMAGE_POINTS = 20_000
#: The map's axis limits, the same for both axes (similarities are in [0, 1]).
MAP_LIMITS = (-0.02, 1.02)
#: The opacity of the map's region shades (their key's swatches: three times as opaque, framed).
REGION_ALPHA = 0.08
#: Below these figure heights (inches, a measure of the room beside fonts set in points: a
#: larger font scale draws at a larger dpi, so fewer inches) a chart is short and drawn
#: compact: its key beside the axes, short axis labels, a smaller title.  The window gives the
#: charts about 3.2 inches at 1280x800 and 2 at 1024x640; laid out for a tall figure, the map's
#: two-line x label and three-row key under the axes left its points some 50 to 70 pixels
#: (a tester), and the histogram's key covered its bars and ran off its top panel.
MAP_SHORT_HEIGHT = 4.2
HISTOGRAM_SHORT_HEIGHT = 2.6
#: The map's axis labels: in full on a tall figure, short on a short one (the window's map
#: view says them in full in its header's tooltip).
#: The x value is content similarity except where containment stands in for it
#: (:func:`map_points`); "(or containment)" left the reader guessing when (a tester).
MAP_X_LABEL = ("main text: content similarity, or containment where that is higher and the texts' "
               "Jaccard similarity reaches same_min_jaccard, for pages without a learned site template")  # fmt: skip
MAP_Y_LABEL = "layout similarity (tag sequences)"
MAP_X_SHORT = "content similarity (containment if higher)"
MAP_Y_SHORT = "layout similarity"


def map_x_label(thresholds: Thresholds) -> str:
    """The map's x label in full (:data:`MAP_X_LABEL`) with ``thresholds``' Jaccard floor for
    containment written in (str)."""
    return MAP_X_LABEL.replace("same_min_jaccard", f"{thresholds.same_min_jaccard:g}")


def is_short(fig: Figure, limit: float) -> bool:
    """Whether ``fig`` is shorter than ``limit`` inches (:data:`MAP_SHORT_HEIGHT`,
    :data:`HISTOGRAM_SHORT_HEIGHT`) and is drawn compact (bool)."""
    return bool(fig.get_figheight() < limit)


@dataclass(frozen=True)
class Palette:
    """Colours of a chart's background and text (light by default).

    Attributes:
        background: figure and axes face colour.
        foreground: text, ticks and spines.
        muted: the all-pairs bars and grid.
    """

    background: str = "#ffffff"
    foreground: str = "#202020"
    muted: str = "#c8c8c8"


DARK = Palette("#1e1e1e", "#e6e6e6", "#5a5a5a")
LIGHT = Palette()


def _style(fig: Figure, ax, palette: Palette) -> None:
    fig.set_facecolor(palette.background)
    ax.set_facecolor(palette.background)
    ax.tick_params(colors=palette.foreground)
    for spine in ax.spines.values():
        spine.set_color(palette.foreground)
    ax.xaxis.label.set_color(palette.foreground)
    ax.yaxis.label.set_color(palette.foreground)
    ax.title.set_color(palette.foreground)


def histogram_figure(
    all_pairs: np.ndarray,
    by_type: dict[DupType, np.ndarray],
    k: int,
    log: bool = False,
    palette: Palette = LIGHT,
    fig: Figure | None = None,
) -> Figure:
    """Draw the Hamming distance histogram.

    Args:
        all_pairs: 65 counts, pairs of pages at each distance (bits), from
            :func:`dedup_gui.core.views.histogram.hamming_histogram`.
        by_type: classified duplicate pairs at each distance, per type (65 counts each).
        k: the near-duplicate threshold drawn as a line (bits).
        log: logarithmic count axis.
        palette: colours.
        fig: a figure to draw into (cleared first); a new one if ``None``.

    Returns:
        The figure.  ``fig.axes[0]`` holds every pair of pages (grey) with the classified pairs
        drawn over it; when there are classified pairs, ``fig.axes[1]`` below repeats them on
        their own linear scale, because next to 50 million pairs of pages a thousand
        duplicates are flat on a linear axis.  Each bar patch has the ``gid`` ``"all"`` or its
        type's value, and its centre x is the distance, so a click on a bar maps back to a
        distance.  The key is in the top panel's upper right corner; on a short figure (under
        :data:`HISTOGRAM_SHORT_HEIGHT` inches) it is a figure legend beside the panels, and
        the title is smaller.
    """
    fig = fig or Figure(figsize=(8, 4), layout="constrained")
    fig.clear()
    classified = any(c is not None and c.any() for c in by_type.values())
    if classified:
        ax, below = fig.subplots(2, 1, sharex=True, height_ratios=(2, 1))
        _style(fig, below, palette)
    else:
        ax, below = fig.add_subplot(), None
    _style(fig, ax, palette)
    x = np.arange(len(all_pairs))
    bars = ax.bar(x, all_pairs, width=0.9, color=palette.muted, label="all pairs of pages", log=log)
    for bar in bars:
        bar.set_gid("all")
    bottom = np.zeros(len(all_pairs))
    for t in TYPE_ORDER:
        counts = by_type.get(t)
        if counts is None or not counts.any():
            continue
        layer = ax.bar(x, counts, width=0.9, bottom=bottom, color=TYPE_COLORS[t], label=t.label, log=log)
        for bar in layer:
            bar.set_gid(t.value)
        bottom = bottom + counts
    ax.axvline(k + 0.5, color=palette.foreground, linestyle="--", linewidth=1)
    ax.text(k + 0.8, 0.97, f"k = {k}", transform=ax.get_xaxis_transform(), va="top", color=palette.foreground)
    ax.set_xlim(-0.8, 64.8)
    if not log:  # "3.5 M", not a "1e6" above the axis where the selected-pair mark goes
        from matplotlib.ticker import EngFormatter

        ax.yaxis.set_major_formatter(EngFormatter(sep=" "))
    if below is not None:
        bottom = np.zeros(len(all_pairs))
        for t in TYPE_ORDER:
            counts = by_type.get(t)
            if counts is None or not counts.any():
                continue
            for bar in below.bar(x, counts, width=0.9, bottom=bottom, color=TYPE_COLORS[t]):
                bar.set_gid(t.value)
            bottom = bottom + counts
        below.axvline(k + 0.5, color=palette.foreground, linestyle="--", linewidth=1)
        below.set_ylabel("compared", fontsize="small")  # short: in a small window the panel is 60 px high
        below.yaxis.get_major_locator().set_params(integer=True)
        below.set_xlabel("Hamming distance of the 64-bit SimHashes (bits)")
    else:
        ax.set_xlabel("Hamming distance of the 64-bit SimHashes (bits)")
    # short labels: two long ones ran into each other in a small window (a tester); the title
    # and the legend say what the pairs are
    # (a log axis shows itself by its 10^n ticks; " (log)" made the label too long again)
    ax.set_ylabel("all pairs", fontsize="small")
    if below is not None:
        fig.align_ylabels([ax, below])
    total = int(all_pairs.sum())
    short = is_short(fig, HISTOGRAM_SHORT_HEIGHT)
    ax.set_title(f"Hamming distances of all {total:,} pairs of pages", color=palette.foreground,
                 fontsize="medium" if short else None)  # fmt: skip
    if short:  # beside the panels: in the top one it covered the bars and ran off its bottom
        legend = fig.legend(loc="outside right upper", fontsize="small", facecolor=palette.background,
                            edgecolor=palette.muted)  # fmt: skip
    else:
        legend = ax.legend(loc="upper right", fontsize="small", facecolor=palette.background, edgecolor=palette.muted)
    for text in legend.get_texts():
        text.set_color(palette.foreground)
    return fig


def map_points(result: ScanResult) -> np.ndarray:
    """The map's points: one row per pair, ``[content evidence, layout similarity]``
    (``np.float64`` array of shape (pairs, 2)), in the order of ``result.pairs``.  The x value
    is the figure the rule compares with ``content_same``
    (:func:`~dedup_gui.core.pipeline.classify.content_evidence`: the content similarity, or the
    containment where it stands in), so every point lies in its type's region."""
    if not result.pairs:
        return np.zeros((0, 2))
    c = pair_columns(result)
    stand_in = ~c.templates_known & (c.jaccard >= result.thresholds.same_min_jaccard)
    x = np.where(stand_in, np.maximum(c.content_similarity, c.content_containment), c.content_similarity)
    x = np.where(c.identical_bytes, 1.0, x)
    return np.column_stack((x, c.layout_similarity))


def type_rgba(codes: np.ndarray) -> np.ndarray:
    """The colour of each type code (index into ``TYPE_ORDER``) as RGBA in [0, 1].

    Returns:
        ``np.float64`` array of shape ``codes.shape + (4,)``.
    """
    from matplotlib.colors import to_rgba

    table = np.array([to_rgba(TYPE_COLORS[t]) for t in TYPE_ORDER])
    return table[np.asarray(codes, dtype=np.intp)]


def points_image(points: np.ndarray, codes: np.ndarray, width: int, height: int,
                 limits: tuple[float, float] = MAP_LIMITS, radius: int = 2) -> np.ndarray:  # fmt: skip
    """Draw points as dots of their type's colour into an RGBA image, as a scatter would.

    Each point takes the pixel its coordinates fall in, grown to a disc of ``radius`` pixels;
    where dots overlap, the later point wins (a scatter draws in order, the last on top).

    Args:
        points: ``(n, 2)`` array of x, y in data coordinates.
        codes: ``(n,)`` type codes (index into ``TYPE_ORDER``), the dots' colours.
        width, height: the image's size in pixels (int, at least 1).
        limits: the data range both axes span, ``(low, high)``; points outside are clipped to
            the border.
        radius: the dots' radius in pixels (int, 0 = single pixels).

    Returns:
        ``np.float32`` array of shape (height, width, 4), row 0 at the *bottom* (draw with
        ``origin="lower"``); transparent where there is no dot.

    Raises:
        ValueError: ``width`` or ``height`` below 1, or ``points`` and ``codes`` of different
            lengths.
    """
    if width < 1 or height < 1:
        raise ValueError(f"an image needs at least 1x1 pixels, got {width}x{height}")
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    codes = np.asarray(codes)
    if len(points) != len(codes):
        raise ValueError(f"{len(points)} points but {len(codes)} type codes")
    low, high = limits
    x = np.clip(((points[:, 0] - low) / (high - low) * width).astype(np.int64), 0, width - 1)
    y = np.clip(((points[:, 1] - low) / (high - low) * height).astype(np.int64), 0, height - 1)
    top: np.ndarray = np.full(width * height, -1, dtype=np.int64)  # pixel -> the last point on it
    np.maximum.at(top, y * width + x, np.arange(len(points), dtype=np.int64))
    top = top.reshape(height, width)
    grown = top.copy()
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            if (dx or dy) and dx * dx + dy * dy <= radius * radius + radius:  # a round dot
                (dst_y, src_y), (dst_x, src_x) = _shift(dy, height), _shift(dx, width)
                np.maximum(grown[dst_y, dst_x], top[src_y, src_x], out=grown[dst_y, dst_x])
    image = np.zeros((height, width, 4), dtype=np.float32)
    filled = grown >= 0
    image[filled] = type_rgba(codes[grown[filled]])
    return image


def _shift(d: int, size: int) -> tuple[slice, slice]:
    """Destination and source slices that move an axis of ``size`` by ``d`` pixels."""
    return (slice(d, size), slice(0, size - d)) if d >= 0 else (slice(0, size + d), slice(-d, size))


def map_figure(
    result: ScanResult,
    thresholds: Thresholds | None = None,
    palette: Palette = LIGHT,
    fig: Figure | None = None,
) -> Figure:
    """Draw the content/layout map of a scan's candidate pairs.

    The regions follow the thresholds: right of ``content_same`` the content is the same (full
    above ``layout_same``, content duplicate below); to the left, pairs that share an important
    part (containment >= ``content_partial``) are layout or partial duplicates, the rest
    distinct.  Points are coloured by their type.  Up to :data:`IMAGE_POINTS` pairs they are a
    scatter collection with the gid ``"pairs"``, its points in the order of ``result.pairs``;
    above, one image with the gid ``"pairs"`` (:func:`points_image`, sized to the axes), which
    draws a million points in a fraction of a second.

    The regions are named in a key below the axes (a figure legend, laid out as the regions
    are: layout and full duplicates above, partial and content duplicates below), each name
    with its region's shade and its points' colour; under partial, an entry names the distinct
    pairs' colour (they lie in the layout and partial regions, below the containment threshold).  Written inside the regions, the names
    covered points (and the narrow full and content regions could not hold theirs).  A short
    figure (under :data:`MAP_SHORT_HEIGHT` inches, the window's map) has the key beside the
    axes instead (one entry a row, the upper regions first, each condition on its own line),
    the short axis labels :data:`MAP_X_SHORT` and :data:`MAP_Y_SHORT` and a smaller title, so
    that the points keep most of its height.

    Returns:
        The figure.
    """
    t = thresholds or result.thresholds
    fig = fig or Figure(figsize=(6, 5), layout="constrained")
    fig.clear()
    ax = fig.add_subplot()
    _style(fig, ax, palette)
    regions = [
        ((t.content_same, t.layout_same), 1 - t.content_same, 1 - t.layout_same, DupType.FULL),
        ((t.content_same, 0), 1 - t.content_same, t.layout_same, DupType.CONTENT),
        ((0, t.layout_same), t.content_same, 1 - t.layout_same, DupType.LAYOUT),
        ((0, 0), t.content_same, t.layout_same, DupType.PARTIAL),
    ]
    from matplotlib.colors import to_rgba
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    key: dict[DupType, Any] = {}  # a (swatch, dot) tuple each, drawn one over the other (HandlerTuple)
    for (x0, y0), w, h, dup in regions:
        ax.add_patch(Rectangle((x0, y0), w, h, facecolor=TYPE_COLORS[dup], alpha=REGION_ALPHA, edgecolor="none"))
        dot = Line2D([], [], linestyle="none", marker="o", markersize=5, markerfacecolor=TYPE_COLORS[dup],
                     markeredgecolor=palette.foreground, markeredgewidth=0.3)  # fmt: skip
        swatch = Rectangle((0, 0), 1, 1, facecolor=to_rgba(TYPE_COLORS[dup], 3 * REGION_ALPHA),
                           edgecolor=to_rgba(TYPE_COLORS[dup], 0.6), linewidth=0.6)  # fmt: skip
        key[dup] = (swatch, dot)
    # short: the key beside the axes, one entry a row, its conditions on a line of their own
    short = is_short(fig, MAP_SHORT_HEIGHT)
    gap = "\n" if short else " "
    names = {dup: dup.label if dup in (DupType.FULL, DupType.CONTENT) else
             f"{dup.label}{gap}(if containment ≥ {t.content_partial:g})" for dup in key}  # fmt: skip
    # the distinct pairs' grey dots lie in the layout and partial regions: their own entry
    key[DupType.DISTINCT] = (Line2D([], [], linestyle="none", marker="o", markersize=5,
                                    markerfacecolor=TYPE_COLORS[DupType.DISTINCT], markeredgecolor=palette.foreground,
                                    markeredgewidth=0.3),)  # fmt: skip
    names[DupType.DISTINCT] = f"distinct{gap}(containment < {t.content_partial:g})"
    # by columns, as the regions lie; distinct under partial, on the left where its dots are
    # (beside the axes: the upper regions first, as they lie)
    order = (DupType.LAYOUT, DupType.PARTIAL, DupType.DISTINCT, DupType.FULL, DupType.CONTENT)
    if short:
        order = (DupType.FULL, DupType.LAYOUT, DupType.CONTENT, DupType.PARTIAL, DupType.DISTINCT)
    legend = fig.legend([key[d] for d in order], [names[d] for d in order],
                        loc="outside right upper" if short else "outside lower center", ncols=1 if short else 2,
                        fontsize="small", frameon=False, handler_map={tuple: HandlerTuple(ndivide=None)})  # fmt: skip
    legend.set_gid("regions")
    for text, dup in zip(legend.get_texts(), order, strict=True):
        text.set_color(palette.foreground)
        text.set_gid(dup.value)
    ax.axvline(t.content_same, color=palette.foreground, linestyle="--", linewidth=0.8)
    ax.axhline(t.layout_same, color=palette.foreground, linestyle="--", linewidth=0.8)
    points = map_points(result)
    codes = pair_columns(result).type_code if result.pairs else np.zeros(0, dtype=np.int8)
    if len(points) > IMAGE_POINTS:
        box = ax.get_window_extent()  # the axes in pixels, before the layout settles: close enough
        width, height = (int(min(4000, max(200, v))) for v in (box.width, box.height))
        image = ax.imshow(points_image(points, codes, width, height), extent=(*MAP_LIMITS, *MAP_LIMITS),
                          origin="lower", interpolation="nearest", aspect="auto", zorder=2)  # fmt: skip
        image.set_gid("pairs")
    else:
        scatter = ax.scatter(points[:, 0], points[:, 1], c=type_rgba(codes), s=22, edgecolors=palette.foreground,
                             linewidths=0.3)  # fmt: skip
        scatter.set_gid("pairs")
        # Thousands of points as vector shapes make a huge SVG or PDF: draw them as one image.
        scatter.set_rasterized(len(points) > RASTERIZE_POINTS)
    ax.set_xlim(*MAP_LIMITS)
    ax.set_ylim(*MAP_LIMITS)
    ax.set_xlabel(MAP_X_SHORT if short else map_x_label(t), wrap=True)
    ax.set_ylabel(MAP_Y_SHORT if short else MAP_Y_LABEL)
    ax.set_title(f"{len(result.pairs):,} candidate pairs", color=palette.foreground,
                 fontsize="medium" if short else None)  # fmt: skip
    return fig
