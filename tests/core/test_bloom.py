"""Bloom filters: the false-positive formula, sizing, no false negatives, set similarity."""

import math

import numpy as np
import pytest

from dedup_gui.core.methods.bloom import BloomFilter, bloom_similarity, estimated_items, false_positive_rate


def test_false_positive_rate_formula():
    # (1 - e^(-k n / m))^k with m = 1000, k = 7, n = 100: (1 - e^-0.7)^7 = 0.50341^7 = 0.0081937
    assert false_positive_rate(1000, 7, 100) == pytest.approx((1 - math.exp(-0.7)) ** 7)
    assert false_positive_rate(1000, 7, 100) == pytest.approx(0.0081937, abs=1e-7)
    assert false_positive_rate(1000, 7, 0) == 0.0


def test_sizing_for_a_capacity():
    # m = -n ln p / (ln 2)^2 = 100 * 4.60517 / 0.480453 = 958.5 -> 959; k = 9.59 * ln 2 = 6.65 -> 7
    bf = BloomFilter.for_capacity(100, 0.01)
    assert (bf.m, bf.k) == (959, 7)
    with pytest.raises(ValueError):
        BloomFilter.for_capacity(100, 1.5)
    with pytest.raises(ValueError):
        BloomFilter(0, 3)


def test_double_hashing_indices_are_fixed():
    bf = BloomFilter(64, 3)
    assert bf.indices("https://example.com/") == [6, 29, 52]
    bf.add("https://example.com/")
    assert bf.bits_set == 3 and np.flatnonzero(bf.bits).tolist() == [6, 29, 52]
    with pytest.raises(ValueError):
        bf.bits[0] = True  # read-only view


def test_no_false_negatives_and_about_the_estimated_false_positives():
    bf = BloomFilter.for_capacity(1000, 0.01)
    bf.update(f"member-{i}" for i in range(1000))
    assert all(f"member-{i}" in bf for i in range(1000))
    false_hits = sum(f"stranger-{i}" in bf for i in range(20000))
    assert bf.false_positive_rate() == pytest.approx(0.01, rel=0.1)
    assert false_hits / 20000 < 2 * bf.false_positive_rate()
    assert bf.estimated_items() == pytest.approx(1000, rel=0.05)


def test_union_is_the_filter_of_the_union():
    a, b, both = BloomFilter(512, 4), BloomFilter(512, 4), BloomFilter(512, 4)
    a.update(range(60))
    b.update(range(40, 100))
    both.update(range(100))
    assert np.array_equal(a.union(b).bits, both.bits)
    assert all(x in a.intersection(b) for x in range(40, 60))  # AND keeps the shared items' bits
    with pytest.raises(ValueError):
        a.union(BloomFilter(256, 4))
    assert estimated_items(10, 2, 10) == math.inf


def test_similarity_of_two_sets_from_their_bits():
    # |A| = |B| = 200, 100 shared: Jaccard 100 / 300 = 1/3.
    s = bloom_similarity(range(200), range(100, 300))
    assert (s.items_a, s.items_b) == (200, 200)
    assert s.jaccard == pytest.approx(1 / 3, abs=0.05)
    assert s.estimated_intersection == pytest.approx(100, rel=0.15)
    assert s.bit_jaccard > s.jaccard  # plain bit overlap over-states it
    assert bloom_similarity(["x", "y"], ["y", "x"]).jaccard == 1.0
    assert bloom_similarity([], []).jaccard == 0.0
    assert bloom_similarity(range(100), range(1000, 1100)).jaccard < 0.05
