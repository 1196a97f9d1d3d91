"""The decision rule on hand-made scores, its explanation, clusters and the evaluation maths."""

import pytest

from dedup_gui.core.classify import classify, explain
from dedup_gui.core.cluster import UnionFind, build_clusters
from dedup_gui.core.evaluate import LabeledPair, ScoredPair, evaluate
from dedup_gui.core.model import DupType, Pair, PairScores, Thresholds

T = Thresholds()  # content_same 0.925, content_partial 0.2, layout_same 0.6


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
        # Identical bytes are full duplicates whatever else is said.
        (scores(identical_bytes=True, both_have_text=False), DupType.FULL),
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
    assert lines[-2] == "layout similarity 0.420 < 0.60"
    assert lines[-1] == "same content and different layout => content duplicate"


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

    F, C, D = DupType.FULL, DupType.CONTENT, DupType.DISTINCT
    ev = evaluate([sp(F, F), sp(F, C), sp(C, C), sp(D, D)])
    assert ev.confusion[F][C] == 1 and ev.n == 4
    # full: P=1, R=1/2, F1=2/3; content: P=1/2, R=1, F1=2/3; distinct: F1=1. Mean of the 3 present.
    assert ev.f1[F] == pytest.approx(2 / 3)
    assert ev.f1[C] == pytest.approx(2 / 3)
    assert ev.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert ev.accuracy == pytest.approx(3 / 4)
