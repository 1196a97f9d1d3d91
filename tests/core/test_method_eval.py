"""Every method on labelled pairs: counting, sweeps, the table, the chart, and the real pairs."""

import pytest

from dedup_gui.core.evaluation.evaluate import LabeledPair
from dedup_gui.core.evaluation.method_eval import (
    HAMMING_SWEEP,
    METHOD_KEYS,
    SIMILARITY_SWEEP,
    PairValues,
    compare_methods,
    evaluate_methods,
    format_methods,
    method_specs,
    parse_methods,
    pr_figure,
    score_method,
)
from dedup_gui.core.model import DupType, Thresholds

from ..conftest import SAMPLES


def rows_of(*items):
    """PairValues from (label, {key: value}) items."""
    return [PairValues(LabeledPair(f"a{i}", f"b{i}", label), label is not DupType.DISTINCT, values)
            for i, (label, values) in enumerate(items)]  # fmt: skip


ROWS = rows_of(
    (DupType.FULL, {"simhash": 0.0, "shingles": 0.98}),
    (DupType.CONTENT, {"simhash": 2.0, "shingles": 0.91}),
    (DupType.PARTIAL, {"simhash": 12.0, "shingles": 0.35}),
    (DupType.LAYOUT, {"simhash": None, "shingles": None}),  # a page without text
    (DupType.DISTINCT, {"simhash": 3.0, "shingles": 0.12}),
    (DupType.DISTINCT, {"simhash": 30.0, "shingles": 0.0}),
)


def test_counting_at_a_threshold():
    specs = method_specs()
    s = score_method(ROWS, specs["simhash"], 3)
    # k <= 3: pairs 0, 1 (duplicates) and 4 (distinct) called duplicates.
    assert (s.tp, s.fp, s.fn, s.tn) == (2, 1, 2, 1)
    assert (s.precision, s.recall, s.f1) == (2 / 3, 2 / 4, pytest.approx(4 / 7))
    s = score_method(ROWS, specs["shingles"], 0.3)
    assert (s.tp, s.fp, s.fn, s.tn) == (3, 0, 1, 2)


def test_sweeps_defaults_and_best():
    report = compare_methods(ROWS, ["simhash", "shingles"])
    assert [t for t, *_ in report.sweeps["simhash"]] == list(HAMMING_SWEEP)
    assert [t for t, *_ in report.sweeps["shingles"]] == list(SIMILARITY_SWEEP)
    assert report.defaults["simhash"].threshold == 3 and report.defaults["shingles"].threshold == 0.9
    # Shingles: every threshold from 0.15 to 0.35 finds 3 of 4 with no false alarm (F1 6/7);
    # the tie goes to the threshold nearest the default.
    assert report.best["shingles"].threshold == 0.35 and report.best["shingles"].f1 == pytest.approx(6 / 7)
    assert (report.n, report.positives) == (6, 4)
    table = format_methods(report)
    assert "SimHash (64-bit)" in table and "k <= 3" in table and ">= 0.350" in table


def test_method_defaults_follow_the_thresholds():
    specs = method_specs(Thresholds(hamming_k=5, content_partial=0.3))
    assert specs["simhash"].default == 5 and specs["containment"].default == 0.3
    assert specs["simhash"].label(5) == "k <= 5" and specs["shingles"].label(0.9) == ">= 0.900"


def test_parse_methods():
    assert parse_methods("all") == list(METHOD_KEYS)
    assert parse_methods("SimHash, shingles,simhash") == ["simhash", "shingles"]
    with pytest.raises(ValueError, match="unknown method nope"):
        parse_methods("simhash,nope")
    with pytest.raises(ValueError):
        parse_methods(" , ")
    with pytest.raises(ValueError):
        compare_methods([])


def test_pr_figure_draws_every_method():
    report = compare_methods(ROWS, ["simhash", "shingles", "classifier"])
    fig = pr_figure(report)
    ax = fig.axes[0]
    gids = {line.get_gid() for line in ax.lines}
    assert {"simhash", "shingles", "simhash:default", "shingles:default"} <= gids
    curve = next(line for line in ax.lines if line.get_gid() == "simhash")
    points = [p for p in report.sweeps["simhash"] if p[1] or p[2]]
    assert list(curve.get_xdata()) == [p[2] for p in points]  # recall on x
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    # the default thresholds are named in the legend, not beside the rings (labels of close
    # rings overlapped): SimHash's k = 3 and shingles' 0.9 (Thresholds / the method specs)
    assert "SimHash (64-bit); ring: k = 3" in legend and "shingles (Jaccard); ring: 0.900" in legend
    assert len(ax.texts) == 0
    # No classifier value in these rows: it found no duplicate, and the legend says so.
    assert "four-type classifier (found no duplicate)" in legend


def test_every_method_on_the_bundled_sample_labels():
    _scored, report = evaluate_methods(SAMPLES / "EXPECTED.csv")
    assert (report.n, report.positives) == (16, 7)  # two of the pairs are records of the sample WARC
    d = report.defaults
    counts = {k: (d[k].tp, d[k].fp) for k in METHOD_KEYS}
    assert counts == {
        "bytes": (2, 0),  # the wget mirror copy, the page crawled at two URLs
        "text": (3, 0),
        "simhash": (5, 0),  # the full and content pairs; layout and partial are > 3 bits apart
        "shingles": (5, 0),
        "minhash": (5, 0),
        "content": (5, 0),
        "containment": (7, 0),
        "imatch": (4, 0),  # the mirror copy, the re-saved article, the GBK/UTF-8 post, the crawled page
        "featurestrings": (5, 0),
        "cdc": (5, 0),
        "url": (1, 0),  # only the re-saved article has one URL on both sides (the crawl: ?ref= differs)
        "classifier": (7, 0),
    }
    assert report.best["simhash"].threshold == 10 and report.best["simhash"].f1 == 1.0


def test_every_method_on_the_shared_labelled_pairs(shared_dir):
    _, report = evaluate_methods(shared_dir / "pairs" / "labels.csv")
    assert (report.n, report.positives) == (233, 184)
    d, b = report.defaults, report.best
    tp_fp = {k: (d[k].tp, d[k].fp) for k in METHOD_KEYS}
    # (issue 15, third round: the ebrosia shop page keeps its product description, which sat
    # in an unlikely-named box ("tab-menu--product"); before, each page of its template gave the
    # shop chrome as main text, so the distinct pair ebrosia/g0185 (same chrome, another article)
    # was the one false positive of every text method; containment finds two more positives)
    assert tp_fp == {
        "bytes": (0, 0),  # no labelled pair is byte-identical
        # (issue 15: captions and credits named so in a page are not in its main text, but stay
        # in the reader-mode copy that lost the names: two such exact copies are now near ones)
        "text": (53, 0),
        # (issue 15, second round: with lead paragraphs and without trailing "Tags:" lines one
        # more pair of copies is within SimHash's 3 bits)
        "simhash": (79, 0),
        "shingles": (78, 0),
        "minhash": (77, 0),
        "content": (73, 0),
        "containment": (183, 1),
        "imatch": (58, 0),
        # (issue 15, fourth round: with fast, the default extractor, one more pair of copies
        # shares half its feature strings; readability-lxml gives 100)
        "featurestrings": (101, 0),
        "cdc": (99, 0),
        "url": (55, 13),  # 13 generated distinct pages kept their source's canonical link
        "classifier": (183, 1),
    }
    assert (b["simhash"].threshold, b["simhash"].tp, b["simhash"].fp) == (20, 160, 11)  # (the same pair)
    assert (b["shingles"].threshold, b["shingles"].tp, b["shingles"].fp) == (0.1, 178, 0)


@pytest.mark.parametrize(("inches", "beside"), [((11, 6.5), True), ((6.5, 3.4), True)])
def test_the_pr_legend_goes_under_the_curves_where_beside_them_it_would_squeeze_them(inches, beside):
    # A new-user test at 1024x640: beside a 650-pixel figure the legend (two columns) covered the
    # curves and ran off the edge ("URL (normalized, mirrors)" cut), its words set smaller one by
    # one to fit.  Under the curves, in as many columns as fit, it leaves them most of the width;
    # in a short figure (6.5 x 3.4 inches) under them it left them a third of the height: one
    # column beside them in a smaller font leaves them half of each side.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # every method finds the full pair (its legend entry names its ring, no "found no duplicate")
    found = {k: 0.0 if k == "simhash" else 1.0 for k in METHOD_KEYS}
    report = compare_methods(rows_of((DupType.FULL, found), (DupType.DISTINCT, {})))
    fig = Figure(figsize=inches, dpi=100, layout="constrained")
    FigureCanvasAgg(fig)  # measurable
    pr_figure(report, fig=fig)
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend() if beside else fig.legends[0]
    assert (ax.get_legend() is not None, len(fig.legends)) == ((True, 0) if beside else (False, 1))
    texts = [t.get_text() for t in legend.get_texts()]
    assert len(texts) == len(METHOD_KEYS) and "SimHash (64-bit); ring: k = 3" in texts
    assert not any("found no duplicate" in t for t in texts)
    renderer = fig.canvas.get_renderer()
    box, plot = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    assert not box.overlaps(plot)  # beside or under, never over the curves
    assert plot.width >= 0.5 * fig.bbox.width and plot.height >= 0.3 * fig.bbox.height
    assert {t.get_fontsize() for t in legend.get_texts()} == {legend.get_texts()[0].get_fontsize()}


def test_a_method_that_calls_no_pair_a_duplicate_has_no_precision_not_zero():
    # A teacher read "precision 0.000" for Exact bytes with TP = FP = 0: 0/0 is undefined.
    from dedup_gui.core.evaluation.method_eval import MethodScore, precision_text

    none_called = MethodScore("exact_bytes", 1.0, 0, 0, 40, 60, 0.0, 0.0, 0.0)
    some_called = MethodScore("exact_bytes", 1.0, 3, 1, 40, 60, 0.75, 0.07, 0.13)
    assert precision_text(none_called) == "–" and precision_text(some_called) == "0.750"


def test_the_pr_legend_never_squeezes_the_curves_in_a_1152x720_windows_figure():
    # A teacher's re-test: in a 1152x720 window the figure is 774 x 264 pixels; the twelve
    # methods' legend stayed beside the curves in two columns (600 pixels) and left them some 80
    # pixels wide.  Now it takes at most 40% of the figure and the curves keep half of each side.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # as in shared/pairs/labels.csv: exact bytes found nothing, so its entry is long
    found = {k: 0.0 if k == "simhash" else 1.0 for k in METHOD_KEYS if k != "bytes"}
    report = compare_methods(rows_of((DupType.FULL, found), (DupType.DISTINCT, {})))
    fig = Figure(figsize=(7.74, 2.64), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    pr_figure(report, fig=fig)
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend() or fig.legends[0]
    assert len(legend.get_texts()) == len(METHOD_KEYS)
    renderer = fig.canvas.get_renderer()
    box, plot = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert box.width * box.height <= 0.4 * fig.bbox.width * fig.bbox.height
    assert box.width <= 0.4 * fig.bbox.width or box.height <= 0.4 * fig.bbox.height
    assert not box.overlaps(plot)
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    assert plot.width >= 0.5 * fig.bbox.width and plot.height >= 0.5 * fig.bbox.height, (plot, fig.bbox)
