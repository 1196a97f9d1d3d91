"""The NumPy columns of a scan (dedup_gui.core.columns), the vectorized selection helpers built on
them, and the map's image of many points."""

from __future__ import annotations

import dataclasses
import gc

import numpy as np
import pytest

from dedup_gui.core.columns import (
    NO_CLUSTER,
    distance_counts_by_type,
    page_clusters,
    pair_clusters,
    pair_columns,
    stable_argsort,
    substring_mask,
    text_ranks,
    type_counts,
)
from dedup_gui.core.model import (
    TYPE_ORDER,
    Cluster,
    DupType,
    Page,
    Pair,
    PairScores,
    ScanResult,
    ScanSettings,
    Thresholds,
)
from dedup_gui.core.views.histogram import type_counts_by_distance
from dedup_gui.core.views.selection import cluster_pairs, cluster_summaries, first_pair_of_page, pairs_at_distance


def page(path: str, has_text: bool = True) -> Page:
    return Page(path=path, abspath=f"/x/{path}", size=1, sha1="0" * 40, encoding="utf-8",
                encoding_source="meta", title="", url=None, main_text="t", text_hash="0" * 40,
                tag_sequence=(), simhash=0, shingles=np.zeros(0, np.uint32), minhash=np.zeros(0, np.uint64),
                word_count=1, has_text=has_text)  # fmt: skip


def pair(left: int, right: int, content: float, hamming: int, dup: DupType, both_text: bool = True) -> Pair:
    return Pair(left, right, PairScores(content, content / 2, 1 - content, hamming, content / 3,
                                        both_have_text=both_text), dup)  # fmt: skip


@pytest.fixture
def small() -> ScanResult:
    """Six pages, two clusters ({0, 1, 2} and {3, 4}), page 5 alone; six pairs."""
    pages = [page(p) for p in ("a/one.html", "a/two.html", "b/three.html", "b/four.html", "c/five.html")]
    pages.append(page("c/six.html", has_text=False))
    pairs = [
        pair(0, 1, 0.99, 1, DupType.FULL),
        pair(3, 4, 0.95, 3, DupType.CONTENT),
        pair(1, 2, 0.70, 3, DupType.LAYOUT),
        pair(0, 3, 0.30, 20, DupType.DISTINCT),  # across the clusters
        pair(0, 2, 0.25, 3, DupType.PARTIAL),
        pair(4, 5, 0.90, 2, DupType.PARTIAL, both_text=False),
    ]
    clusters = [Cluster(1, (0, 1, 2), frozenset({DupType.FULL, DupType.LAYOUT, DupType.PARTIAL})),
                Cluster(2, (3, 4, 5), frozenset({DupType.CONTENT, DupType.PARTIAL}))]  # fmt: skip
    return ScanResult(root="/x", pages=pages, errors=[], pairs=pairs, clusters=clusters,
                      thresholds=Thresholds(), settings=ScanSettings())  # fmt: skip


def test_pair_columns_hold_every_field_in_the_result_order(small):
    columns = pair_columns(small)
    assert columns.left.tolist() == [0, 3, 1, 0, 0, 4] and columns.left.dtype == np.int32
    assert columns.right.tolist() == [1, 4, 2, 3, 2, 5]
    assert columns.type_code.tolist() == [0, 1, 2, 4, 3, 3]
    assert [TYPE_ORDER[c] for c in columns.type_code] == [p.type for p in small.pairs]
    assert columns.content_similarity.tolist() == [p.scores.content_similarity for p in small.pairs]
    assert columns.content_containment.tolist() == [p.scores.content_containment for p in small.pairs]
    assert columns.layout_similarity.tolist() == [p.scores.layout_similarity for p in small.pairs]
    assert columns.jaccard.tolist() == [p.scores.jaccard for p in small.pairs]
    assert columns.hamming_distance.tolist() == [1, 3, 3, 20, 3, 2]
    assert columns.both_have_text.tolist() == [True] * 5 + [False]


def test_pair_columns_are_shared_per_result_and_forgotten_with_it(small):
    from dedup_gui.core import columns as module

    assert pair_columns(small) is pair_columns(small)
    retyped = dataclasses.replace(small, pairs=[dataclasses.replace(p, type=DupType.DISTINCT) for p in small.pairs])
    assert pair_columns(retyped) is not pair_columns(small)
    assert pair_columns(retyped).type_code.tolist() == [4] * 6
    key = id(retyped)
    del retyped
    gc.collect()
    assert key not in module._CACHE


def test_empty_result_has_empty_columns(small):
    empty = dataclasses.replace(small, pairs=[], clusters=[])
    assert pair_columns(empty).left.shape == (0,)
    assert pair_clusters(empty).shape == (0,)
    assert page_clusters(empty).tolist() == [NO_CLUSTER] * 6
    assert type_counts(empty) == {t: 0 for t in TYPE_ORDER}


def test_page_and_pair_clusters(small):
    assert page_clusters(small).tolist() == [1, 1, 1, 2, 2, 2]
    # the distinct pair 0-3 joins pages of two clusters: no cluster
    assert pair_clusters(small).tolist() == [1, 2, 1, NO_CLUSTER, 1, 2]


def test_type_counts_use_the_columns(small):
    assert type_counts(small) == {DupType.FULL: 1, DupType.CONTENT: 1, DupType.LAYOUT: 1,
                                   DupType.PARTIAL: 2, DupType.DISTINCT: 1}  # fmt: skip


def test_text_ranks_order_strings_and_tie_equal_ones():
    keys = ["b/x", "a/y", "b/x", "", "B/x".casefold()]
    ranks = text_ranks(keys)
    assert ranks.tolist() == [2, 1, 2, 0, 2]
    assert text_ranks([]).shape == (0,)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.uint64, np.float64])
def test_stable_argsort_keeps_ties_in_their_order_both_ways(dtype):
    keys = np.array([3, 1, 3, 2, 1, 3], dtype=dtype)
    assert stable_argsort(keys).tolist() == [1, 4, 3, 0, 2, 5]
    assert stable_argsort(keys, descending=True).tolist() == [0, 2, 5, 3, 1, 4]


def test_stable_argsort_of_wide_and_extreme_integers():
    low = np.iinfo(np.int64).min
    keys = np.array([5, low, 1 << 40, 5, -(1 << 20), 1 << 40], dtype=np.int64)  # not narrowed
    assert stable_argsort(keys).tolist() == [1, 4, 0, 3, 2, 5]
    assert stable_argsort(keys, descending=True).tolist() == [2, 5, 0, 3, 4, 1]
    narrow = np.array([-30000, 35000, -30000, 0], dtype=np.int64)  # spans 65,000: narrowed
    assert stable_argsort(narrow).tolist() == [0, 2, 3, 1]
    assert stable_argsort(narrow, descending=True).tolist() == [1, 3, 0, 2]
    flags = np.array([True, False, True, False])
    assert stable_argsort(flags).tolist() == [1, 3, 0, 2]
    assert stable_argsort(np.zeros(0, np.int64)).tolist() == []


def test_stable_argsort_puts_nan_last_ascending_first_descending():
    keys = np.array([0.5, np.nan, 0.1, 0.5])
    assert stable_argsort(keys).tolist() == [2, 0, 3, 1]
    assert stable_argsort(keys, descending=True).tolist() == [1, 0, 3, 2]


def test_stable_argsort_matches_pythons_stable_sort_on_random_keys():
    rng = np.random.default_rng(7)
    for high in (3, 300, 100_000):
        keys = rng.integers(0, high, 2000)
        expected = sorted(range(len(keys)), key=lambda i: keys[i])
        assert stable_argsort(keys).tolist() == expected
        expected = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)  # ties keep order
        assert stable_argsort(keys, descending=True).tolist() == expected


def test_substring_mask():
    names = ["a/one.html", "b/two.html", ""]
    assert substring_mask(names, "one").tolist() == [True, False, False]
    assert substring_mask(names, ".html").tolist() == [True, True, False]
    assert substring_mask(names, "").tolist() == [True, True, True]


def _counts_pair_by_pair(result):
    out = {t: [0] * 65 for t in TYPE_ORDER if t is not DupType.DISTINCT}
    for pair in result.pairs:
        if pair.type is not DupType.DISTINCT and pair.scores.both_have_text:
            out[pair.type][pair.scores.hamming_distance] += 1
    return out


def test_distance_counts_by_type_equal_a_count_pair_by_pair(small, sample_scan):
    for result in (small, sample_scan):
        expected = _counts_pair_by_pair(result)
        for counts in (distance_counts_by_type(result), type_counts_by_distance(result)):
            assert counts.keys() == expected.keys()
            for dup_type in counts:
                assert counts[dup_type].tolist() == expected[dup_type], dup_type
    counts = distance_counts_by_type(small)
    assert counts[DupType.PARTIAL][3] == 1 and counts[DupType.PARTIAL][2] == 0  # no text: left out


def test_vectorized_selection_helpers(small):
    assert pairs_at_distance(small, 3) == [1, 2, 4]
    assert pairs_at_distance(small, 64) == []
    assert cluster_pairs(small, small.clusters[0]) == [0, 2, 4]
    assert cluster_pairs(small, small.clusters[1]) == [1, 5]
    assert first_pair_of_page(small, 2) == 2
    assert first_pair_of_page(small, 2, among=[4, 0]) == 4
    assert first_pair_of_page(small, 5, among=[0, 1]) is None
    first, second = cluster_summaries(small)
    assert (first.pair_count, second.pair_count) == (3, 2)
    assert first.page_types == (frozenset({DupType.FULL, DupType.PARTIAL}),
                                frozenset({DupType.FULL, DupType.LAYOUT}),
                                frozenset({DupType.LAYOUT, DupType.PARTIAL}))  # fmt: skip
    assert second.page_types == (frozenset({DupType.CONTENT}), frozenset({DupType.CONTENT, DupType.PARTIAL}),
                                 frozenset({DupType.PARTIAL}))  # fmt: skip


def test_points_image_draws_dots_in_type_colours_the_later_on_top():
    from matplotlib.colors import to_rgba

    from dedup_gui.core.views.charts import TYPE_COLORS, points_image

    points = np.array([[0.0, 0.0], [0.5, 0.5], [0.5, 0.5], [1.0, 1.0]])
    codes = np.array([0, 1, 2, 4])  # full, content, layout (same place: drawn later), distinct
    image = points_image(points, codes, width=11, height=11, limits=(0.0, 1.0), radius=0)
    assert image.shape == (11, 11, 4) and image.dtype == np.float32
    assert tuple(image[0, 0]) == pytest.approx(to_rgba(TYPE_COLORS[DupType.FULL]))
    assert tuple(image[5, 5]) == pytest.approx(to_rgba(TYPE_COLORS[DupType.LAYOUT]))  # the later pair
    assert tuple(image[10, 10]) == pytest.approx(to_rgba(TYPE_COLORS[DupType.DISTINCT]))  # clipped in
    assert (image[..., 3] > 0).sum() == 3  # nothing else drawn
    grown = points_image(points[:1], codes[:1], width=11, height=11, limits=(0.0, 1.0), radius=1)
    assert (grown[..., 3] > 0).sum() == 4  # a one-pixel disc in the corner: (0,0) (0,1) (1,0) (1,1)
    with pytest.raises(ValueError):
        points_image(points, codes[:2], 10, 10)
    with pytest.raises(ValueError):
        points_image(points, codes, 0, 10)


def test_map_of_very_many_pairs_is_one_image(sample_scan):
    from dedup_gui.core.views.charts import IMAGE_POINTS, map_figure

    many = dataclasses.replace(sample_scan, pairs=sample_scan.pairs * (IMAGE_POINTS // len(sample_scan.pairs) + 1))
    ax = map_figure(many).axes[0]
    assert not [c for c in ax.collections if c.get_gid() == "pairs"]
    (image,) = [im for im in ax.images if im.get_gid() == "pairs"]
    assert image.get_array().shape[2] == 4 and (image.get_array()[..., 3] > 0).any()


def test_columns_built_in_parts_equal_one_pass(monkeypatch):
    # Columns are gathered GATHER_CHUNK pairs at a time, so the window's thread gets the GIL
    # between parts; with parts of 3, 10 pairs take 4 parts (3 + 3 + 3 + 1), the last one short.
    import dedup_gui.core.columns as columns_module
    from dedup_gui.core.columns import PairColumns

    types = list(TYPE_ORDER)
    pairs = [Pair(i, i + 1, PairScores(i / 10, i / 20, 1 - i / 10, i, i / 30, identical_bytes=i % 2 == 0,
                                       both_have_text=i % 3 != 0), types[i % len(types)])
             for i in range(10)]  # fmt: skip
    monkeypatch.setattr(columns_module, "GATHER_CHUNK", 3)
    cols = PairColumns(pairs).build_all()
    assert cols.left.tolist() == list(range(10)) and cols.right.tolist() == list(range(1, 11))
    assert cols.hamming_distance.tolist() == list(range(10))
    assert cols.content_similarity.tolist() == [i / 10 for i in range(10)]
    assert cols.type_code.tolist() == [i % len(types) for i in range(10)]
    assert cols.identical_bytes.tolist() == [i % 2 == 0 for i in range(10)]
