"""An area-proportional Venn diagram of two sets: circle areas proportional to the set sizes and
the overlap's area to the size of the intersection (the layout of Chow and Ruskey, "Drawing
area-proportional Venn and Euler diagrams", Graph Drawing 2003, for two sets)."""

from __future__ import annotations

import math


def lens_area(r1: float, r2: float, d: float) -> float:
    """Area of the intersection of two circles of radii ``r1``, ``r2`` whose centres are ``d``
    apart (float, in the square of the radii's unit)."""
    if d >= r1 + r2:
        return 0.0
    if d <= abs(r1 - r2):
        return math.pi * min(r1, r2) ** 2
    a1 = r1 * r1 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    a2 = r2 * r2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    k = 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))
    return a1 + a2 - k


def venn_circles(size_a: int, size_b: int, size_both: int) -> tuple[float, float, float]:
    """Radii of circles A and B and the distance of their centres, so that each circle's area is
    proportional to its set's size and their overlap's area to the intersection's size.

    Args:
        size_a, size_b: the sizes of the two sets (int >= 0).
        size_both: the size of their intersection (int, at most the smaller size).

    Returns:
        ``(radius A, radius B, distance)`` in units where the larger circle has radius 1
        (floats); disjoint sets get circles that just touch, a set inside the other a circle
        inside the other.  ``(0, 0, 0)`` for two empty sets.

    Example:
        >>> ra, rb, d = venn_circles(100, 100, 50)
        >>> round(lens_area(ra, rb, d) / math.pi, 6)  # half of either circle's area
        0.5
    """
    largest = max(size_a, size_b)
    if largest <= 0:
        return 0.0, 0.0, 0.0
    ra, rb = math.sqrt(size_a / largest), math.sqrt(size_b / largest)
    both = min(max(size_both, 0), size_a, size_b)
    if both == 0:
        return ra, rb, ra + rb
    if both >= min(size_a, size_b):
        return ra, rb, abs(ra - rb)
    target = math.pi * both / largest
    lo, hi = abs(ra - rb), ra + rb  # the overlap shrinks as the centres move apart
    for _ in range(60):
        mid = (lo + hi) / 2
        if lens_area(ra, rb, mid) > target:
            lo = mid
        else:
            hi = mid
    return ra, rb, (lo + hi) / 2
