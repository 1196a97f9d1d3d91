"""Navigation over scan results: distances, clusters, chart points, texts (no Qt)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from dedup_gui.core.columns import compared_counts_by_distance
from dedup_gui.core.model import (
    DupType,
    Page,
    Pair,
    PairScores,
    ScanResult,
    ScanSettings,
    Thresholds,
)
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.cluster import build_clusters
from dedup_gui.core.views import selection
from dedup_gui.core.views.histogram import hamming_histogram, type_counts_by_distance
from dedup_gui.core.views.selection import (
    bar_text,
    cluster_pairs,
    cluster_summaries,
    distance_at,
    first_pair_of_page,
    hover_text,
    nearest_point,
    pair_cluster,
    pairs_at_distance,
    points_near,
    types_text,
)

AUDAX = ("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")


def pair_index(result, paths) -> int:
    return next(i for i, p in enumerate(result.pairs)
                if {result.pages[p.left].path, result.pages[p.right].path} == set(paths))  # fmt: skip


def test_doctests():
    assert doctest.testmod(selection).failed == 0


@pytest.mark.parametrize(("x", "expected"), [
    (0.0, 0), (0.49, 0), (0.5, 1), (6.3, 6), (63.9, 64), (64.49, 64),
    (-0.5, 0), (-0.51, None), (64.5, None), (None, None), (float("nan"), None),
])  # fmt: skip
def test_distance_at_maps_a_bar_column_to_its_distance(x, expected):
    assert distance_at(x) == expected


def test_pairs_at_distance_on_the_samples(sample_scan):
    audax = pair_index(sample_scan, AUDAX)
    assert sample_scan.pairs[audax].scores.hamming_distance == 6
    assert pairs_at_distance(sample_scan, 6) == [audax]
    zero = pairs_at_distance(sample_scan, 0)
    assert len(zero) == 5 and all(sample_scan.pairs[i].scores.hamming_distance == 0 for i in zero)
    assert pairs_at_distance(sample_scan, 64) == []


def test_clusters_of_the_samples(sample_scan):
    summaries = cluster_summaries(sample_scan)
    assert len(summaries) == 7
    audax = pair_index(sample_scan, AUDAX)
    cluster_id = pair_cluster(sample_scan, audax)
    summary = next(s for s in summaries if s.cluster.id == cluster_id)
    assert {sample_scan.pages[p].path for p in summary.cluster.pages} == set(AUDAX)
    assert summary.pair_count == 1 and summary.types_text == "layout duplicate"
    assert summary.main_type is DupType.LAYOUT and summary.title == f"Group {cluster_id}"
    assert summary.page_types == (frozenset({DupType.LAYOUT}),) * 2
    assert cluster_pairs(sample_scan, summary.cluster) == [audax]
    # a threshold that makes the layout pair distinct dissolves its cluster
    tuned = reclassify(sample_scan, Thresholds(content_partial=0.6))
    assert tuned.pairs[audax].type is DupType.DISTINCT
    assert pair_cluster(tuned, audax) is None
    assert len(cluster_summaries(tuned)) == 5


def _hand_built():
    """Five pages; pairs 0-1 full, 0-2 content, 1-2 layout, 2-3 partial, 3-4 distinct."""
    pages = [
        Page(f"p{i}.html", f"/scan/p{i}.html", 1, "0" * 40, "utf-8", "meta", "", None, "text", "0" * 40,
             ("html",), i, np.zeros(0, np.uint32), np.zeros(128, np.uint64), 10, True)
        for i in range(5)
    ]  # fmt: skip
    typed = [(3, 4, DupType.DISTINCT), (0, 1, DupType.FULL), (0, 2, DupType.CONTENT),
             (1, 2, DupType.LAYOUT), (2, 3, DupType.PARTIAL)]  # fmt: skip
    pairs = [Pair(a, b, PairScores(0.5, 0.5, 0.5, 3, 0.5), t) for a, b, t in typed]
    return ScanResult("/scan", pages, [], pairs, build_clusters(5, pairs), Thresholds(), ScanSettings())


def test_cluster_summaries_count_types_per_page():
    result = _hand_built()
    (summary,) = cluster_summaries(result)  # one cluster of four pages; page 4 is only distinct
    assert summary.pair_count == 4
    assert summary.page_types[0] == frozenset({DupType.FULL, DupType.CONTENT})
    assert summary.page_types[2] == frozenset({DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL})
    assert summary.types_text == "full duplicate, content duplicate, layout duplicate, partial duplicate"
    assert summary.main_type is DupType.FULL
    assert summary.cluster.pages == (0, 1, 2, 3)
    assert cluster_pairs(result, summary.cluster) == [1, 2, 3, 4]  # not 3-4: page 4 is outside
    assert pair_cluster(result, 1) == 1 and pair_cluster(result, 0) is None


def test_first_pair_of_page():
    result = _hand_built()
    assert first_pair_of_page(result, 2) == 2
    assert first_pair_of_page(result, 2, among=[4, 3]) == 3
    assert first_pair_of_page(result, 4) == 0
    assert first_pair_of_page(result, 4, among=[1, 2]) is None


def test_points_near_and_nearest_point():
    points = np.array([[10.0, 10.0], [12.0, 10.0], [10.0, 10.0], [50.0, 50.0]])
    assert points_near(points, 10.5, 10.0, 3.0) == [0, 2, 1]
    assert nearest_point(points, 49.0, 49.0, 2.0) == 3
    assert nearest_point(points, 30.0, 30.0, 5.0) is None
    assert nearest_point(np.zeros((0, 2)), 0.0, 0.0, 5.0) is None


def test_texts(sample_scan):
    audax = pair_index(sample_scan, AUDAX)
    text = hover_text(sample_scan, [audax])
    assert text == f"{AUDAX[0]}\n{AUDAX[1]}\n(layout duplicate)"
    many = hover_text(sample_scan, list(range(6)), limit=2)
    assert many.endswith("… and 4 more pairs here") and many.count("\n") == 6
    assert hover_text(sample_scan, []) == ""
    assert types_text([DupType.PARTIAL, DupType.FULL]) == "full duplicate, partial duplicate"
    counts = hamming_histogram(np.array([p.simhash for p in sample_scan.pages if p.has_text], np.uint64))
    by_type = type_counts_by_distance(sample_scan)
    compared = compared_counts_by_distance(sample_scan)
    assert counts[6] >= 1
    pairs = "pair" if counts[6] == 1 else "pairs"
    # the bar counts every pair of pages, but a click lists only the compared ones: both are said,
    # and the compared count is the length of that list
    listed = len(pairs_at_distance(sample_scan, 6))
    assert 1 <= listed <= counts[6] and compared[6] == listed
    said = "all compared" if listed == counts[6] else f"{listed:,} compared"
    assert bar_text(counts, compared, by_type, 6) == (
        f"Hamming distance 6 bits: {counts[6]:,} {pairs} of pages, {said}; 1 layout duplicate"
    )
    one = np.zeros(65, np.int64)
    one[3] = 1
    assert bar_text(one, np.zeros(65, np.int64), {}, 3) == "Hamming distance 3 bits: 1 pair of pages, none compared"
    many = np.zeros(65, np.int64)
    many[20] = 78
    some = np.zeros(65, np.int64)
    some[20] = 20
    assert bar_text(many, some, {}, 20) == "Hamming distance 20 bits: 78 pairs of pages, 20 compared"
