"""Text diff, layout diff and the Hamming histogram behind the inspector views."""

import numpy as np
import pytest

from dedup_gui.core.extraction.extract import parse_html
from dedup_gui.core.extraction.template import CONTENT_TAG
from dedup_gui.core.model import DupType, ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.core.text.diff import diff_tokens, text_diff
from dedup_gui.core.views.histogram import hamming_histogram, result_histogram, type_counts_by_distance
from dedup_gui.core.views.layout_diff import PageLayout, element_regions, layout_diff, page_layout, template_diff


def test_word_diff_marks_the_changed_words_on_both_sides():
    a = "The quick brown fox jumps over the lazy dog. Nothing else changed."
    b = "The quick red fox jumps over the lazy cat. Nothing else changed."
    d = text_diff(a, b)
    assert d.changed_words("a") == ["brown", "dog"]
    assert d.changed_words("b") == ["red", "cat"]
    # Non-space characters of a: 55; "brown" and "dog" (8) differ -> 47/55 shared.
    assert d.shared_a == 47 / 55


def test_chinese_diffs_by_character():
    d = text_diff("今天天气很好。我们去爬山。", "今天天气不好。我们去爬山。")
    assert d.changed_words("a") == ["很"] and d.changed_words("b") == ["不"]
    assert diff_tokens("Hi, 你好 all") == ["Hi", ",", " ", "你", "好", " ", "all"]


def test_identical_and_empty_texts():
    d = text_diff("same text.", "same text.")
    assert d.changes() == [] and d.shared_a == d.shared_b == 1.0
    d = text_diff("", "added words")
    assert [(c.tag, c.b_start, c.b_end) for c in d.chunks] == [("insert", 0, 11)]


def test_chunks_cover_both_texts_exactly():
    a = "One two three.\nFour five six.\nSeven."
    b = "One 2 three.\nFour five six seven.\nEight. Nine."
    d = text_diff(a, b)
    assert "".join(a[c.a_start : c.a_end] for c in d.chunks) == a
    assert "".join(b[c.b_start : c.b_end] for c in d.chunks) == b


def test_regions_from_landmarks_roles_and_class_names():
    root = parse_html(
        "<html><head><title>t</title></head><body><div id='site-header'><a>x</a></div>"
        "<div role='navigation'><ul><li>a</li></ul></div><div class='post-content'><p>p</p></div>"
        "<footer><p class='content'>c</p></footer></body></html>"
    )
    layout = element_regions(root)
    assert list(zip(layout.tags, layout.regions)) == [
        ("html", "body"), ("head", "head"), ("title", "head"), ("body", "body"),
        ("div", "header"), ("a", "header"), ("div", "nav"), ("ul", "nav"), ("li", "nav"),
        ("div", "main"), ("p", "main"), ("footer", "footer"), ("p", "footer"),
    ]  # fmt: skip


def test_layout_diff_of_the_content_duplicate(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    a = page_layout(pages["site/articles/night-ride-safety.html"])
    b = page_layout(pages["print/night-ride-safety.html"])
    d = template_diff(a, b)
    pair = next(
        p for p in sample_scan.pairs if {sample_scan.pages[p.left].path, sample_scan.pages[p.right].path} == {
            "site/articles/night-ride-safety.html", "print/night-ride-safety.html"}
    )  # fmt: skip
    # The inspector aligns what the scan measured: the templates, each article one element.
    assert d.similarity == pair.scores.layout_similarity == pytest.approx(0.0769, abs=1e-4)
    assert a.template().tags.count(CONTENT_TAG) == b.template().tags.count(CONTENT_TAG) == 1
    # The whole pages share more (the article's own <p>s): 0.1833, the old measure, shown beside it.
    assert d.page_similarity == layout_diff(a, b).similarity == pytest.approx(0.1833, abs=1e-4)
    # The print version is the article alone: the site's nav, aside, header and footer are all gone.
    for region in ("nav", "aside", "header", "footer"):
        changed, total = d.region_changes[region]
        assert changed == total > 0
    counts = d.counts()
    assert counts["kept"] + counts["substituted"] + counts["deleted"] == len(a.template().tags)
    assert counts["kept"] + counts["substituted"] + counts["inserted"] == len(b.template().tags)


def test_the_layout_diff_shows_the_pairs_own_layout_similarity(sample_scan, tmp_path):
    # The layout diff read the file again with lxml and found the content span again from the
    # main text: on the real site it said 0.953 where the pair said 1.000 (the span of a page
    # whose text lost the site's template lines), and 0.806 against 0.804 (lexbor adds the
    # <tbody> a browser adds, lxml does not). It now aligns the scan's own tags and span.
    for pair in sample_scan.pairs:
        a, b = sample_scan.pages[pair.left], sample_scan.pages[pair.right]
        d = template_diff(page_layout(a), page_layout(b))
        assert d.similarity == pair.scores.layout_similarity, (a.path, b.path)
    rows = "".join(f"<tr><td>cell {i}</td></tr>" for i in range(3))
    for name, extra in (("a.html", ""), ("b.html", "<tr><td>one more row</td></tr>")):
        (tmp_path / name).write_text(
            f"<html><body><nav class='menu'><a href='/'>home</a></nav><table>{rows}{extra}</table>"
            f"<article><p>{'Words of an article about tables. ' * 30}</p></article></body></html>"
        )
    scan = scan_folder(tmp_path, ScanSettings(use_cache=False, workers=1))
    (pair,) = scan.pairs
    a, b = (page_layout(scan.pages[i]) for i in (pair.left, pair.right))
    assert "tbody" in a.tags  # the scan's tree, as a browser builds it
    assert a.regions[a.tags.index("a")] == "nav" and a.regions[a.tags.index("tbody")] == "body"
    assert template_diff(a, b).similarity == pair.scores.layout_similarity


def test_histogram_equals_brute_force():
    rng = np.random.default_rng(3)
    fps = rng.integers(0, 2**63, size=257, dtype=np.uint64)
    fps[5] = fps[9]  # one identical pair -> distance 0
    brute = np.zeros(65, dtype=np.int64)
    for i in range(len(fps)):
        for j in range(i + 1, len(fps)):
            brute[bin(int(fps[i]) ^ int(fps[j])).count("1")] += 1
    assert (hamming_histogram(fps) == brute).all()
    assert hamming_histogram(fps)[0] == 1
    assert hamming_histogram(fps[:1]).sum() == 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_histogram_split_over_threads_equals_numpy_brute_force(threads):
    # 2,501 fingerprints (odd: the last block's distances need padding) are split into row ranges
    # over threads; every split must count each of the 3,126,250 pairs exactly once.
    rng = np.random.default_rng(7)
    fps = rng.integers(0, 2**64 - 1, size=2_501, dtype=np.uint64, endpoint=True)
    fps[::9] = fps[4]  # repeated fingerprints: many pairs at distance 0
    fps[1] = ~fps[2]  # one pair at the full 64 bits
    rows, cols = np.triu_indices(len(fps), k=1)
    brute = np.bincount(np.bitwise_count(fps[rows] ^ fps[cols]), minlength=65)
    counts = hamming_histogram(fps, threads=threads)
    assert counts.sum() == 2_501 * 2_500 // 2
    assert (counts == brute).all()
    assert counts[64] >= 1


def test_histogram_cancel_stops_the_count():
    class CancelAfterFirst:
        updates = 0

        def update(self, stage, done, total):
            self.updates += 1

        def cancelled(self):
            return self.updates > 0

    fps = np.arange(5_000, dtype=np.uint64)
    with pytest.raises(ScanCancelled):
        hamming_histogram(fps, CancelAfterFirst(), threads=1)


def test_histogram_of_the_samples(sample_scan):
    hist = result_histogram(sample_scan)
    with_text = sum(1 for p in sample_scan.pages if p.has_text)
    assert hist.sum() == with_text * (with_text - 1) // 2
    by_type = type_counts_by_distance(sample_scan)
    # The byte-identical copy and the re-saved page both sit at distance 0.
    assert by_type[DupType.FULL][0] >= 2


def test_every_method_on_the_byte_identical_pair(sample_scan):
    from dedup_gui.core.methods.registry import pair_methods

    pages = {p.path: p for p in sample_scan.pages}
    a = pages["site/articles/river-trail.html"]
    b = pages["mirror/larkmoor-wheelers.example.org/articles/river-trail.html"]
    results = pair_methods(a, b)
    assert [r.method for r in results][:3] == ["exact bytes (SHA-1)", "normalized text (SHA-1)", "SimHash (64-bit)"]
    # Identical bytes: every method that can judge the pair must call it a duplicate.  URL
    # dedup cannot: only the mirror copy's path tells an address.
    assert all(r.duplicate for r in results if r.applicable)
    url = results[-1]
    assert not url.applicable and url.left == "unknown"
    assert url.right == "http://larkmoor-wheelers.example.org/articles/river-trail.html"
    c = pages["site/articles/cafe-stops.html"]
    verdicts = {r.method: r.duplicate for r in pair_methods(a, c)}
    assert not any(verdicts.values())  # two unrelated articles of one template


def test_inspector_and_method_comparison_share_one_method_table(sample_scan):
    # The Fingerprints tab and `evaluate --methods` must show the same methods under the same
    # names and rules, and reach the same verdicts: both read the one registry.
    from dedup_gui.core.evaluation.evaluate import LabeledPair, ScoredPair
    from dedup_gui.core.evaluation.method_eval import labeled_pair_values, method_specs
    from dedup_gui.core.methods.imatch import CollectionIdf
    from dedup_gui.core.methods.registry import pair_methods

    pages = {p.path: p for p in sample_scan.pages}
    idf = CollectionIdf.from_pages(sample_scan.pages)
    specs = [s for s in method_specs().values() if s.key not in ("content", "containment", "classifier")]
    for pair in sample_scan.pairs:
        a, b = sample_scan.pages[pair.left], sample_scan.pages[pair.right]
        shown = pair_methods(a, b, idf=idf)
        assert [(r.method, r.rule) for r in shown] == [(s.name, s.rule) for s in specs]
        labeled = LabeledPair(a.path, b.path, pair.type)
        (row,) = labeled_pair_values([ScoredPair(labeled, pair.scores, pair.type)], pages)
        verdicts = {s.name: s.is_duplicate(row.values[s.key], s.default) for s in specs}
        assert {r.method: r.duplicate for r in shown} == verdicts


def test_charts_draw_the_counts_and_points(sample_scan):
    from dedup_gui.core.views.charts import TYPE_COLORS, histogram_figure, map_figure

    hist = result_histogram(sample_scan)
    fig = histogram_figure(hist, type_counts_by_distance(sample_scan), k=3)
    grey = [p for p in fig.axes[0].patches if p.get_gid() == "all"]
    assert [round(p.get_height()) for p in grey] == hist.tolist()
    fig = map_figure(sample_scan)
    scatter = next(c for c in fig.axes[0].collections if c.get_gid() == "pairs")
    assert len(scatter.get_offsets()) == len(sample_scan.pairs)
    first = scatter.get_facecolors()[0]
    # The most similar pair (full) is drawn first, in the full-duplicate colour.
    import matplotlib.colors as mcolors

    assert mcolors.to_hex(first) == TYPE_COLORS[sample_scan.pairs[0].type]


def test_every_text_of_the_report_s_map_lies_inside_the_figure(sample_scan):
    # In the report's 6 x 5 inch map the long x label ran off the right edge ("...where it
    # stand"): it now wraps to the figure's width.
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from dedup_gui.core.views.charts import map_figure

    fig = map_figure(sample_scan)
    FigureCanvasAgg(fig).draw()  # the constrained layout is done by a real draw
    inside = fig.bbox
    ax = fig.axes[0]
    texts = [ax.xaxis.label, ax.yaxis.label, ax.title, *(t for legend in fig.legends for t in legend.get_texts())]
    # The label says when containment stands in, with the threshold in use ("(or containment)"
    # left a reader guessing when).
    assert texts[0].get_text() == (
        "main text: content similarity, or containment where that is higher and the texts' Jaccard "
        "similarity reaches 0.6, for pages without a learned site template"
    )
    for text in texts:
        box = text.get_window_extent()
        assert inside.x0 - 1 <= box.x0 and box.x1 <= inside.x1 + 1, text.get_text()


def test_map_of_many_pairs_is_rasterized_in_vector_output(sample_scan):
    import dataclasses

    from dedup_gui.core.views.charts import RASTERIZE_POINTS, map_figure

    many = dataclasses.replace(sample_scan, pairs=sample_scan.pairs * (RASTERIZE_POINTS // len(sample_scan.pairs) + 1))
    scatter = next(c for c in map_figure(many).axes[0].collections if c.get_gid() == "pairs")
    assert scatter.get_rasterized()
    small = next(c for c in map_figure(sample_scan).axes[0].collections if c.get_gid() == "pairs")
    assert not small.get_rasterized()


def test_unrelated_chinese_sentences_diff_as_one_change_not_confetti():
    # The two sentences share only "，我们" and "。": character by character that would be
    # five changes around scattered equal characters; semantic cleanup makes the sentence one
    # change and keeps only the shared full stop.
    a = "今天的天气很好，我们去公园散步。"
    b = "这是一个关于经济的报告，我们需要讨论。"
    d = text_diff(a, b)
    assert [(c.tag, a[c.a_start : c.a_end], b[c.b_start : c.b_end]) for c in d.chunks] == [
        ("replace", "今天的天气很好，我们去公园散步", "这是一个关于经济的报告，我们需要讨论"),
        ("equal", "。", "。"),
    ]


def test_one_changed_character_stays_a_small_change():
    # Cleanup must not swallow a long shared run: only 众 -> 很 changes.
    a, b = "北京是中国的首都，人口众多。", "北京是中国的首都，人口很多。"
    assert [(a[c.a_start : c.a_end], b[c.b_start : c.b_end]) for c in text_diff(a, b).changes()] == [("众", "很")]


def test_changes_in_two_paragraphs_stay_apart():
    # "x\n" between two changes has weight 0 but holds a paragraph break: not folded.
    a, b = "alpha one\nbeta two", "gamma one\ndelta two"
    assert [(a[c.a_start : c.a_end]) for c in text_diff(a, b).changes()] == ["alpha", "beta"]


def test_histogram_shows_the_classified_pairs_on_their_own_scale_below(sample_scan):
    # Next to millions of pairs of pages, a few hundred duplicates are flat on a linear axis;
    # a second panel below draws the classified pairs alone, each type stacked at its distance.
    import numpy as np

    from dedup_gui.core.views.charts import histogram_figure

    all_pairs = np.zeros(65, dtype=np.int64)
    all_pairs[20:40] = 3_000_000
    by_type = {DupType.FULL: np.zeros(65, dtype=np.int64), DupType.PARTIAL: np.zeros(65, dtype=np.int64)}
    by_type[DupType.FULL][0] = 400
    by_type[DupType.PARTIAL][[0, 12]] = 30
    fig = histogram_figure(all_pairs, by_type, k=3)
    assert len(fig.axes) == 2
    below = {(p.get_gid(), round(p.get_x() + p.get_width() / 2)): (p.get_y(), p.get_height())
             for p in fig.axes[1].patches if p.get_height()}  # fmt: skip
    assert below == {("full", 0): (0, 400), ("partial", 0): (400, 30), ("partial", 12): (0, 30)}
    assert fig.axes[1].get_ylim()[1] < 1000  # its own scale, not the 3 million of the panel above
    assert len(histogram_figure(all_pairs, {}, k=3).axes) == 1  # nothing classified: one panel


def test_region_counts_per_page_never_exceed_a_page():
    # The real site showed "left 599 elements, right 635" above "main (42 of 918 elements)":
    # region_changes adds both pages' elements. side_changes counts each page on its own.
    a = PageLayout(("div", "p", "p", "ul"), ("nav", "main", "main", "main"))
    b = PageLayout(("div", "p", "table"), ("nav", "main", "main"))
    d = layout_diff(a, b)
    assert d.region_changes["main"] == (3, 5)  # both sides added: 5 > either page's 3 and 2
    sides = d.side_changes()
    assert sides == {"nav": ((0, 1), (0, 1)), "main": ((2, 3), (1, 2))}
    for region, ((ca, ta), (cb, tb)) in sides.items():
        assert (ca + cb, ta + tb) == d.region_changes[region]
