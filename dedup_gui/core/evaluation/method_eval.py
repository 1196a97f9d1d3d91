"""Every dedup method on labelled pairs: precision, recall and F1, at the default and swept.

The question asked of each method is binary: "is this pair a duplicate of any type?" (a pair
labelled full, content, layout or partial is a positive, distinct a negative).  Each method is
scored at its default threshold, and the methods with a measure are swept over thresholds (the
SimHash Hamming distance k from 0 to 20 bits; similarities from 0.1 to 0.95), which gives a
precision/recall curve per method.  Exact hashes, I-Match, URL dedup and the four-type
classifier answer yes or no and are single points.

The defaults marked: k = 3 bits (Manku, Jain and Das Sarma, WWW 2007); Jaccard 0.9 for shingles
and MinHash (the SEO crawlers' "near duplicate content"); the classifier's own thresholds
(:class:`~dedup_gui.core.model.Thresholds`) for content similarity and containment; the
defaults of :mod:`dedup_gui.core.methods.registry` for feature strings and chunks.  The methods
themselves (names, rules, values) come from that registry, which the inspector shows too.  Pairs
in which a page has no usable main text are negatives for every text method, as in the scan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dedup_gui.core.evaluation.evaluate import LabeledPair, ScoredPair, read_labels, score_labeled_pairs, score_text
from dedup_gui.core.methods.imatch import CollectionIdf
from dedup_gui.core.methods.registry import (  # noqa: F401  (the method table is re-exported: one registry)
    HAMMING_SWEEP,
    METHOD_KEYS,
    SIMILARITY_SWEEP,
    MethodSpec,
    PageInputs,
    PairInputs,
    method_specs,
    page_inputs,
)
from dedup_gui.core.model import DupType, Page, ScanSettings, Thresholds
from dedup_gui.core.progress import NullProgress, Progress, check_cancel

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn (it costs 0.5 s at start)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend

    from dedup_gui.core.views.charts import Palette

STAGE_METHODS = "applying every method to the labelled pairs"


def parse_methods(text: str) -> list[str]:
    """Method keys from a ``--methods`` value: ``"all"`` or a comma-separated list.

    Raises:
        ValueError: an unknown key (the message lists the known ones).

    Example:
        >>> parse_methods("simhash, shingles")
        ['simhash', 'shingles']
    """
    if text.strip().lower() == "all":
        return list(METHOD_KEYS)
    keys = [k.strip().lower() for k in text.split(",") if k.strip()]
    unknown = [k for k in keys if k not in METHOD_KEYS]
    if unknown or not keys:
        raise ValueError(
            f"unknown method {', '.join(unknown) or '(none)'}: use 'all' or some of {', '.join(METHOD_KEYS)}"
        )
    return list(dict.fromkeys(keys))


@dataclass(frozen=True)
class PairValues:
    """A labelled pair with every method's value.

    Attributes:
        pair: the labelled pair.
        duplicate: the truth: labelled any type but distinct.
        values: method key -> value (``None`` where the method cannot call the pair a
            duplicate: no usable text, URL unknown).
    """

    pair: LabeledPair
    duplicate: bool
    values: dict[str, float | None]


def labeled_pair_values(
    scored: Sequence[ScoredPair],
    pages: dict[str, Page | str],
    progress: Progress | None = None,
) -> list[PairValues]:
    """Apply every method to the labelled pairs that were scored and have a label.

    Args:
        scored: from :func:`dedup_gui.core.evaluation.evaluate.score_labeled_pairs`.
        pages: the pages it read (its ``pages`` argument); their collection statistics feed
            I-Match.
        progress: progress to report to (optional).

    Returns:
        One :class:`PairValues` per usable pair, in order.
    """
    progress = progress or NullProgress()
    loaded = [p for p in pages.values() if isinstance(p, Page)]
    idf = CollectionIdf.from_pages(loaded)
    specs = list(method_specs().values())  # the values do not depend on the thresholds
    cache: dict[str, PageInputs] = {}

    def inputs(rel: str) -> PageInputs:
        if rel not in cache:
            page = pages[rel]
            assert isinstance(page, Page)  # a scored pair's pages were read
            cache[rel] = page_inputs(page, idf)
        return cache[rel]

    usable = [s for s in scored if s.scores is not None and s.pair.label is not None]
    out = []
    for i, s in enumerate(usable):
        check_cancel(progress)
        progress.update(STAGE_METHODS, i, len(usable))
        pair = PairInputs(inputs(s.pair.left), inputs(s.pair.right), s.scores, s.predicted)
        values = {spec.key: spec.compare(pair).value for spec in specs}
        out.append(PairValues(s.pair, s.pair.label is not DupType.DISTINCT, values))
    progress.update(STAGE_METHODS, len(usable), len(usable))
    return out


@dataclass(frozen=True)
class MethodScore:
    """A method's binary confusion counts and scores at one threshold.

    Attributes:
        key: the method's key.
        threshold: the threshold.
        tp, fp, fn, tn: true/false positives and negatives ("duplicate of any type").
        precision, recall, f1: in [0, 1] (0 where undefined).
    """

    key: str
    threshold: float
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    f1: float

    @property
    def point(self) -> tuple[float, float, float, float]:
        """``(threshold, precision, recall, f1)``."""
        return (self.threshold, self.precision, self.recall, self.f1)


def score_method(rows: Sequence[PairValues], spec: MethodSpec, threshold: float) -> MethodScore:
    """Count a method's verdicts at a threshold against the labels."""
    tp = fp = fn = tn = 0
    for row in rows:
        said = spec.is_duplicate(row.values.get(spec.key), threshold)
        if said and row.duplicate:
            tp += 1
        elif said:
            fp += 1
        elif row.duplicate:
            fn += 1
        else:
            tn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return MethodScore(spec.key, threshold, tp, fp, fn, tn, precision, recall, f1)


@dataclass(frozen=True)
class MethodsReport:
    """Every method's scores on the labelled pairs.

    Attributes:
        specs: the methods compared, in table order.
        n: pairs evaluated; positives: those labelled a duplicate of some type.
        defaults: key -> score at the default threshold.
        sweeps: key -> ``[(threshold, precision, recall, f1), ...]`` in threshold order (one
            point for yes/no methods).
        best: key -> the sweep's score of highest F1 (ties: the threshold nearest the default).
    """

    specs: list[MethodSpec]
    n: int
    positives: int
    defaults: dict[str, MethodScore]
    sweeps: dict[str, list[tuple[float, float, float, float]]]
    best: dict[str, MethodScore]


def compare_methods(rows: Sequence[PairValues], keys: Sequence[str] | None = None,
                    thresholds: Thresholds | None = None) -> MethodsReport:  # fmt: skip
    """Score each method at its default and over its sweep.

    Args:
        rows: from :func:`labeled_pair_values`.
        keys: the methods (default: all, :data:`METHOD_KEYS`).
        thresholds: the classifier's thresholds (defaults of :func:`method_specs`).

    Returns:
        :class:`MethodsReport`.

    Raises:
        ValueError: no rows.
    """
    if not rows:
        raise ValueError("no labelled pair could be scored (no row has a type, or a page of each could not be read)")
    all_specs = method_specs(thresholds)
    specs = [all_specs[k] for k in (keys or METHOD_KEYS)]
    defaults, sweeps, best = {}, {}, {}
    for spec in specs:
        defaults[spec.key] = score_method(rows, spec, spec.default)
        grid = sorted(set(spec.sweep) | {spec.default})
        scores = [score_method(rows, spec, t) for t in grid]
        sweeps[spec.key] = [s.point for s in scores]
        best[spec.key] = max(scores, key=lambda s: (round(s.f1, 12), -abs(s.threshold - spec.default)))
    positives = sum(1 for r in rows if r.duplicate)
    return MethodsReport(specs, len(rows), positives, defaults, sweeps, best)


def evaluate_methods(
    labels_csv: str | Path,
    keys: Sequence[str] | None = None,
    thresholds: Thresholds | None = None,
    settings: ScanSettings | None = None,
    progress: Progress | None = None,
    pages: dict[str, Page | str] | None = None,
) -> tuple[list[ScoredPair], MethodsReport]:
    """Read a labels CSV, classify its pairs and compare every method on them.

    Args:
        labels_csv: ``LABELS.csv`` (columns left, right, type; paths relative to its folder).
        keys: the methods (default: all).
        thresholds: the classifier's thresholds.
        settings: scan settings for reading the pages.
        progress: progress to report to (optional).
        pages: the pages of an earlier call on the same file with the same ``settings`` (path as
            written in the CSV -> :class:`Page` or the reason it could not be read), to score
            other thresholds without reading the pages again; filled with the pages read.

    Returns:
        ``(scored, report)``: the classifier's scored pairs (for
        :func:`dedup_gui.core.evaluation.evaluate.evaluate`) and the :class:`MethodsReport`.

    Raises:
        ValueError: a bad labels file, or no pair could be scored.
        OSError: the labels file cannot be read.
    """
    path = Path(labels_csv)
    pages = {} if pages is None else pages
    labels = read_labels(path, require_type=True, require_rows=True)  # before any page is read
    scored = score_labeled_pairs(labels, path.parent, thresholds, settings, progress, pages=pages)
    rows = labeled_pair_values(scored, pages, progress)
    return scored, compare_methods(rows, keys, thresholds)


def precision_text(score: MethodScore) -> str:
    """A method's precision to 3 places, or "–" when it called no pair a duplicate (0/0 is
    undefined, not 0) (str)."""
    return score_text(score.precision, bool(score.tp + score.fp))


def format_methods(report: MethodsReport) -> str:
    """The comparison as a plain-text table: each method at the threshold in use (the default
    unless given) and at its best sweep threshold (str)."""
    width = max(len(s.name) for s in report.specs) + 2
    lines = [
        (
            f'methods on "duplicate of any type?" ({report.n} pairs, {report.positives} duplicates, '
            f"{report.n - report.positives} distinct)"
        ),
        "",
        f"{'method':<{width}}{'in use':>10}{'P':>7}{'R':>7}{'F1':>7}   {'best':>10}{'P':>7}{'R':>7}{'F1':>7}",
    ]
    for spec in report.specs:
        d, b = report.defaults[spec.key], report.best[spec.key]
        row = f"{spec.name:<{width}}{spec.label(d.threshold):>10}{precision_text(d):>7}{d.recall:>7.3f}{d.f1:>7.3f}"
        if spec.sweep:
            row += f"   {spec.label(b.threshold):>10}{precision_text(b):>7}{b.recall:>7.3f}{b.f1:>7.3f}"
        lines.append(row)
    # "in use": the thresholds given (the defaults unless the command line changed them)
    lines += ["", "rules in use:"] + [f"  {s.name}: {s.rule}" for s in report.specs]
    return "\n".join(lines)


#: One colour per method in the charts (matplotlib's tab20, stable across runs).
METHOD_COLORS = dict(zip(METHOD_KEYS, (
    "#1f77b4", "#aec7e8", "#d62728", "#ff7f0e", "#ffbb78", "#2ca02c",
    "#98df8a", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf",
)))  # fmt: skip
#: Height of one legend entry of :func:`pr_figure` (points: a "small" font line and its spacing).
LEGEND_ROW_POINTS = 14.0
#: The most of :func:`pr_figure`'s width its legend may take beside the curves; a wider one goes under them.
LEGEND_SIDE_SHARE = 0.4
#: Columns of the legend under the curves at most (fewer where they do not fit the width).
LEGEND_MAX_COLUMNS = 4
#: The most of :func:`pr_figure`'s height its legend may take under the curves (else it stays beside).
LEGEND_UNDER_SHARE = 0.4
#: The legend's font sizes to try, largest first, until it fits beside or under the curves.
LEGEND_FONT_SIZES = ("small", "x-small", "xx-small")
#: The least share of :func:`pr_figure`'s width and of its height the curves keep.
PLOT_MIN_SHARE = 0.5
_SINGLE_MARKERS = {"bytes": "s", "text": "D", "imatch": "^", "url": "v", "classifier": "*"}


def pr_figure(report: MethodsReport, palette: Palette | None = None, fig: Figure | None = None) -> Figure:
    """Draw every method's precision/recall curve on a plain matplotlib ``Figure``.

    Swept methods are lines through their thresholds, with the default threshold ringed and
    named in the legend (``ring: k = 3``, ``ring: 0.9``...); yes/no methods are single markers.
    The legend is beside the curves, or under them where it would take much of a narrow
    figure's width (:func:`_place_legend`).  Points at zero precision
    and recall (the method found no duplicate) are left out, and the precision axis starts just
    below the lowest precision drawn, so close curves stay apart.

    Args:
        report: from :func:`compare_methods`.
        palette: colours (:data:`dedup_gui.core.views.charts.LIGHT` by default).
        fig: a figure to draw into (cleared first); a new one if ``None``.

    Returns:
        The figure; each curve's ``Line2D`` has the method key as ``gid``, each default marker
        ``"<key>:default"`` (absent where the default finds no duplicate).
    """
    from matplotlib.figure import Figure

    from dedup_gui.core.views.charts import LIGHT, _style

    palette = palette or LIGHT
    fig = fig or Figure(figsize=(11, 6.5), layout="constrained")
    fig.clear()
    ax = fig.add_subplot()
    _style(fig, ax, palette)
    lowest = 1.0
    for spec in report.specs:
        color = METHOD_COLORS.get(spec.key, palette.foreground)
        d = report.defaults[spec.key]
        drawn = d.tp > 0
        if spec.sweep:
            points = [p for p, s in zip(report.sweeps[spec.key], _said(report, spec)) if s]
            # the default threshold is named in the legend: labels beside rings that lie close
            # together ran into each other
            default = f"k = {d.threshold:g}" if spec.key == "simhash" else f"{d.threshold:.3f}"
            label = f"{spec.name}; ring: {default}" if drawn else f"{spec.name} (default {default} found no duplicate)"
            (line,) = ax.plot([p[2] for p in points], [p[1] for p in points], "-o", color=color, markersize=3,
                              linewidth=1.4, label=label)  # fmt: skip
            line.set_gid(spec.key)
            lowest = min([lowest, *(p[1] for p in points)])
            if drawn:
                (mark,) = ax.plot([d.recall], [d.precision], "o", markersize=11, markerfacecolor="none",
                                  markeredgecolor=color, markeredgewidth=2)  # fmt: skip
                mark.set_gid(f"{spec.key}:default")
        else:
            label = spec.name if drawn else f"{spec.name} (found no duplicate)"
            (mark,) = ax.plot([d.recall] if drawn else [], [d.precision] if drawn else [],
                              _SINGLE_MARKERS.get(spec.key, "o"), color=color, markersize=10,
                              markeredgecolor=palette.foreground, label=label)  # fmt: skip
            if drawn:
                mark.set_gid(f"{spec.key}:default")
                lowest = min(lowest, d.precision)
    bottom = max(0.0, math.floor(lowest * 20) / 20 - 0.05)
    ax.set_xlim(-0.02, 1.03)
    ax.set_ylim(bottom, 1.0 + (1.0 - bottom) * 0.03)
    ax.set_xlabel("recall (share of the duplicate pairs found)")
    ax.set_ylabel("precision (share of the pairs\ncalled duplicates that are)")  # short lines: fits a short figure
    ax.grid(True, color=palette.muted, linewidth=0.5)
    # left-aligned: in a narrow figure (presentation mode) the title runs on over the legend
    # instead of being cut at the figure's left edge
    ax.set_title(f'"Duplicate of any type?" on {report.n} labelled pairs\n({report.positives} duplicates); '
                 "rings: the thresholds in use (legend)", color=palette.foreground, fontsize="medium",
                 loc="left")  # fmt: skip
    _place_legend(fig, ax, palette)
    return fig


def _place_legend(fig: Figure, ax: Axes, palette: Palette) -> Legend:
    """The legend beside the curves or under them, in the largest font of
    :data:`LEGEND_FONT_SIZES` at which it takes at most :data:`LEGEND_SIDE_SHARE` of the
    figure's width beside them (or :data:`LEGEND_UNDER_SHARE` of its height under them, in as
    many columns as fit its width) and leaves the curves at least :data:`PLOT_MIN_SHARE` of the
    figure's width and height (measured after the constrained layout has run).

    Beside a narrow figure (1024x640, the figure beside the confusion matrix) the legend took
    two columns and half the width, covered the curves, and its words ran off the edge; in the
    774 x 264 pixel figure of a 1152x720 window, two columns beside the curves left them 80
    pixels.  Where no placement meets the shares, the one leaving the curves most room wins.

    Returns:
        The legend (``ax.get_legend()`` beside the curves, ``fig.legends[0]`` under them).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not hasattr(fig.canvas, "get_renderer"):  # a figure without a canvas (the CLI's): measure with Agg
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    handles, labels = ax.get_legend_handles_labels()
    best: tuple[float, str, int, str] | None = None
    for size in LEGEND_FONT_SIZES:
        for where, ncols in _legend_candidates(fig, len(labels), size):
            legend = _make_legend(fig, ax, handles, labels, where, ncols, size, palette)
            box = legend.get_window_extent(renderer)
            if where == "beside":
                fits = box.width <= LEGEND_SIDE_SHARE * fig.bbox.width and box.height <= fig.bbox.height
            else:
                fits = box.width <= fig.bbox.width - 8 and box.height <= LEGEND_UNDER_SHARE * fig.bbox.height
            share = _plot_share(fig, ax, renderer) if fits else 0.0
            if fits and share >= PLOT_MIN_SHARE:
                return _colour_legend(legend, palette)
            legend.remove()
            if best is None or share > best[0]:
                best = (share, where, ncols, size)
    assert best is not None  # at least one candidate above
    _share, where, ncols, size = best
    return _colour_legend(_make_legend(fig, ax, handles, labels, where, ncols, size, palette), palette)


def _legend_candidates(fig: Figure, n: int, size: str) -> list[tuple[str, int]]:
    """Placements to try, best first: beside in as few columns as the height allows, then under
    in :data:`LEGEND_MAX_COLUMNS` columns down to one (list of ("beside" | "under", columns))."""
    from matplotlib.font_manager import FontProperties

    # a figure's inches shrink as its dpi grows (presentation mode), so this holds at any text size
    row = (
        LEGEND_ROW_POINTS
        * FontProperties(size=size).get_size_in_points()
        / FontProperties(size="small").get_size_in_points()
    )
    rows = max(1, int((0.85 * fig.get_figheight() * 72 - 10) / row))
    beside = [("beside", max(1, math.ceil(n / rows)))]
    return beside + [("under", c) for c in range(min(n, LEGEND_MAX_COLUMNS), 0, -1)]


def _make_legend(fig: Figure, ax: Axes, handles: list, labels: list[str], where: str, ncols: int, size: str,
                 palette: Palette) -> Legend:  # fmt: skip
    """A legend beside the axes (upper left, outside) or under them across the figure."""
    style = {"fontsize": size, "facecolor": palette.background, "edgecolor": palette.muted, "ncols": ncols}
    if where == "beside":
        return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), **style)
    return fig.legend(handles, labels, loc="outside lower center", **style)


def _plot_share(fig: Figure, ax: Axes, renderer) -> float:
    """The smaller of the axes' shares of the figure's width and height once laid out (0..1)."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    plot = ax.get_window_extent(renderer)
    return min(plot.width / fig.bbox.width, plot.height / fig.bbox.height)


def _colour_legend(legend: Legend, palette: Palette) -> Legend:
    for text in legend.get_texts():
        text.set_color(palette.foreground)
    return legend


def _said(report: MethodsReport, spec: MethodSpec) -> list[bool]:
    """For each sweep point: did the method find any duplicate (precision or recall above 0)?"""
    return [r > 0 or p > 0 for _, p, r, _ in report.sweeps[spec.key]]
