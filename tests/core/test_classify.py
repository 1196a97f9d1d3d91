"""The decision rule on hand-made scores, its explanation, clusters and the evaluation maths."""

import pytest

from dedup_gui.core.evaluation.evaluate import LabeledPair, ScoredPair, evaluate
from dedup_gui.core.model import DupType, Pair, PairScores, Thresholds
from dedup_gui.core.pipeline.classify import classify, explain, threshold_warnings
from dedup_gui.core.pipeline.cluster import UnionFind, build_clusters
from dedup_gui.core.views.tables import format_score

T = Thresholds(layout_same=0.6)  # the rule at fixed thresholds: content_same 0.925, content_partial 0.2


def test_the_default_thresholds():
    # layout_same is 0.7 since the layout measure compares templates: on the real site in
    # shared/realsite, skeletons of one theme share 86-99 % of their template tags, of two themes
    # 55-65 %; on the labelled pairs macro-F1 is the same from 0.6 to 0.8.
    t = Thresholds()
    assert (t.content_same, t.content_partial, t.layout_same, t.same_min_jaccard) == (0.925, 0.2, 0.7, 0.6)


def scores(content=0.0, contained=0.0, layout=0.0, jaccard=0.0, hamming=32, **kw):
    return PairScores(content, contained, layout, hamming, jaccard, **kw)


@pytest.mark.parametrize(
    "s,expected",
    [
        (scores(0.97, 0.98, 0.95, 0.95, 1), DupType.FULL),  # same text, same template
        (scores(0.97, 0.98, 0.42, 0.95, 1), DupType.CONTENT),  # same text, other template
        (scores(0.60, 0.50, 0.99, 0.33, 14), DupType.LAYOUT),  # half the text, same template
        (scores(0.40, 0.45, 0.20, 0.25, 20), DupType.PARTIAL),  # part of the text, other template
        (scores(0.05, 0.01, 0.99, 0.00, 30), DupType.DISTINCT),  # same template, other article
        # Extraction noise: Levenshtein 0.80 but 96% of shingles shared and Jaccard 0.9: same.
        (scores(0.80, 0.96, 0.20, 0.90, 6), DupType.CONTENT),
        # A short page wholly inside a long one: containment 1.0 but Jaccard 0.1 -> only partial.
        (scores(0.15, 1.00, 0.20, 0.10, 25), DupType.PARTIAL),
        # Identical bytes are full duplicates...
        (scores(identical_bytes=True, both_have_text=True), DupType.FULL),
        # ...unless there is no text: two empty placeholder pages are no duplicates.
        (scores(identical_bytes=True, both_have_text=False), DupType.DISTINCT),
        # No usable text on one side: never a duplicate on text alone.
        (scores(1.0, 1.0, 1.0, 1.0, 0, both_have_text=False), DupType.DISTINCT),
    ],
)
def test_classify(s, expected):
    assert classify(s, T) is expected


def test_thresholds_are_boundaries_inclusive():
    assert classify(scores(0.925, 0.0, 0.6), T) is DupType.FULL
    assert classify(scores(0.9249, 0.0, 0.5999), T) is DupType.DISTINCT
    assert classify(scores(0.5, 0.2, 0.5999), T) is DupType.PARTIAL


def test_invalid_thresholds_are_rejected():
    with pytest.raises(ValueError):
        Thresholds(content_same=1.5)
    with pytest.raises(ValueError):
        Thresholds(hamming_k=65)


def test_explain_in_words():
    lines = explain(scores(0.97, 0.98, 0.42, 0.95, 1), T)
    assert lines[0] == "content similarity 0.970 >= 0.925"
    assert lines[-2] == "layout similarity 0.420 < 0.600 (templates: the pages without their main content)"
    assert lines[-1] == "same content and different layout => content duplicate"


def test_inverted_or_zero_thresholds_are_named_and_the_words_hold():
    assert threshold_warnings(Thresholds()) == []
    assert threshold_warnings(Thresholds(content_same=0.5, content_partial=0.5)) == []  # equal: partial still possible
    inverted = Thresholds(content_same=0.5, content_partial=0.99)
    assert threshold_warnings(inverted) == [
        "Content partial (0.99) is above Content same (0.50): no pair can be a layout or partial duplicate "
        "unless its content containment reaches 0.99 while its content similarity stays below 0.50 "
        "(a short page inside a longer one)"
    ]
    # What the sentence claims: half the text shared (partial at the defaults) is now distinct, a
    # short page wholly inside a long one is still partial.
    assert classify(scores(0.40, 0.60, 0.20, 0.30), inverted) is DupType.DISTINCT
    assert classify(scores(0.15, 1.00, 0.20, 0.10, templates_known=True), inverted) is DupType.PARTIAL
    assert threshold_warnings(Thresholds(content_same=0.0, layout_same=0.0)) == [
        "Content same is 0: every pair of pages with text is a full or content duplicate",
        "Layout same is 0: every pair shares a layout, so none is a content or partial duplicate",
    ]
    assert classify(scores(0.0, 0.0, 0.0, 0.0), Thresholds(content_same=0.0)) is DupType.CONTENT
    assert threshold_warnings(Thresholds(content_partial=0.0)) == [
        "Content partial is 0: no pair of pages with text is distinct"
    ]


def test_union_find_and_clusters():
    uf = UnionFind(5)
    uf.union(0, 1)
    uf.union(3, 4)
    assert uf.find(1) == uf.find(0) and uf.find(2) != uf.find(0)
    s = scores(1, 1, 1, 1, 0)
    pairs = [
        Pair(0, 1, s, DupType.FULL),
        Pair(1, 2, s, DupType.CONTENT),
        Pair(3, 4, s, DupType.DISTINCT),  # distinct pairs join nothing
        Pair(5, 6, s, DupType.LAYOUT),
    ]
    clusters = build_clusters(7, pairs)
    assert [(c.id, c.pages) for c in clusters] == [(1, (0, 1, 2)), (2, (5, 6))]
    assert clusters[0].types == {DupType.FULL, DupType.CONTENT}


def test_evaluate_counts_and_macro_f1():
    def sp(label, predicted):
        return ScoredPair(LabeledPair("a", "b", label), scores(), predicted)

    F, C, D = DupType.FULL, DupType.CONTENT, DupType.DISTINCT  # noqa: N806 - short names keep the table readable
    ev = evaluate([sp(F, F), sp(F, C), sp(C, C), sp(D, D)])
    assert ev.confusion[F][C] == 1 and ev.n == 4
    # full: P=1, R=1/2, F1=2/3; content: P=1/2, R=1, F1=2/3; distinct: F1=1. Mean of the 3 present.
    assert ev.f1[F] == pytest.approx(2 / 3)
    assert ev.f1[C] == pytest.approx(2 / 3)
    assert ev.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert ev.accuracy == pytest.approx(3 / 4)


def test_clusters_order_and_types_on_a_chain_and_a_star():
    # A chain 9-8-7-6 (given in reverse order) and a star around 0 of the same size: both have
    # 4 pages, so the star (smallest page 0) comes first; pages are listed ascending.
    s = scores(1, 1, 1, 1, 0)
    pairs = [Pair(8, 9, s, DupType.PARTIAL), Pair(7, 8, s, DupType.PARTIAL), Pair(6, 7, s, DupType.LAYOUT)]
    pairs += [Pair(0, j, s, DupType.FULL) for j in (1, 2, 3)] + [Pair(4, 5, s, DupType.DISTINCT)]
    clusters = build_clusters(10, pairs)
    assert [(c.id, c.pages, c.types) for c in clusters] == [
        (1, (0, 1, 2, 3), {DupType.FULL}),
        (2, (6, 7, 8, 9), {DupType.PARTIAL, DupType.LAYOUT}),
    ]
    assert build_clusters(10, [Pair(4, 5, s, DupType.DISTINCT)]) == []
    assert build_clusters(0, []) == []


def test_type_codes_match_classify_on_every_kind_of_pair():
    # The vectorized rule (reclassify's) must give classify()'s type for every pair, including
    # the edges: values exactly at a threshold, identical bytes, pages without text.
    import numpy as np

    from dedup_gui.core.columns import TYPE_CODE, PairColumns
    from dedup_gui.core.model import PairScores
    from dedup_gui.core.pipeline.classify import type_codes

    t = Thresholds()
    grid = [0.0, 0.2, 0.3, 0.6, 0.925, 1.0]
    rng = np.random.default_rng(3)
    pairs = []
    for k in range(3000):
        c, cc, lay, jac = (float(rng.choice(grid)) for _ in range(4))
        s = PairScores(c, cc, lay, int(rng.integers(0, 64)), jac, identical_bytes=k % 97 == 0,
                       both_have_text=k % 13 != 0)  # fmt: skip
        pairs.append(Pair(0, 1, s, DupType.DISTINCT))
    got = type_codes(PairColumns(pairs), t)
    want = np.array([TYPE_CODE[classify(p.scores, t)] for p in pairs])
    assert (got == want).all()
    assert set(want.tolist()) == {0, 1, 2, 3, 4}  # every type occurs, so each branch is tested


def test_a_value_just_under_a_threshold_never_reads_as_reaching_it():
    # The real site's v1.12.x/advance/with-cilium pair: content similarity 0.92497 against
    # 0.925 read "content similarity 0.925 < 0.925" (rounded), and 0.925 in the pairs table
    # under a ">= 0.925" threshold, for a layout duplicate. Values are cut, not rounded.
    lines = explain(scores(0.92497, 0.3, 0.95, 0.95, 1), Thresholds())
    assert lines[0] == "content similarity 0.924 < 0.925"
    assert format_score(0.92497) == "0.924" and format_score(0.9999) == "0.999" and format_score(1.0) == "1.000"
