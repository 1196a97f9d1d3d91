"""The Venn diagram of the teaching view is drawn to scale: circle areas proportional to the set
sizes, the overlap's area to the intersection's."""

import math

import pytest

from dedup_gui.core.teaching.venn import lens_area, venn_circles


@pytest.mark.parametrize(("a", "b", "both"), [(5, 4, 2), (100, 100, 1), (100, 100, 99), (1000, 10, 5), (7, 30, 6)])
def test_the_overlap_is_to_scale(a, b, both):
    ra, rb, d = venn_circles(a, b, both)
    largest = max(a, b)
    assert math.pi * ra * ra == pytest.approx(math.pi * a / largest)
    assert math.pi * rb * rb == pytest.approx(math.pi * b / largest)
    assert lens_area(ra, rb, d) == pytest.approx(math.pi * both / largest, rel=1e-6)


def test_disjoint_sets_touch_and_a_subset_lies_inside():
    assert venn_circles(4, 9, 0) == (pytest.approx(2 / 3), 1.0, pytest.approx(2 / 3 + 1))
    ra, rb, d = venn_circles(4, 9, 4)  # A inside B
    assert d == pytest.approx(1 / 3) and lens_area(ra, rb, d) == pytest.approx(math.pi * 4 / 9)
    assert venn_circles(0, 0, 0) == (0.0, 0.0, 0.0)


def test_the_same_jaccard_looks_different_for_different_overlaps():
    # Before, every pair of sets was drawn with the same overlap: 2 of 7 and 99 of 101 alike.
    small = venn_circles(5, 4, 2)
    large = venn_circles(100, 100, 99)
    assert small[2] > 0.5 and large[2] < 0.02
