"""Bloom filters: "seen before?" for URLs, the false-positive rate, and set similarity from bits.

A Bloom filter (Bloom, "Space/time trade-offs in hash coding with allowable errors", CACM 1970)
is an array of m bits and k hash functions; an item sets its k bits, and a lookup answers "maybe
seen" when all k are set.  Here the k indices come from one 128-bit BLAKE2b digest by double
hashing, ``g_i = h1 + i * h2 mod m`` (Kirsch and Mitzenmacher, "Less hashing, same performance",
ESA 2006).  The formulas follow Broder and Mitzenmacher, "Network applications of Bloom filters:
a survey" (Internet Mathematics 1(4), 2004):

* false-positive rate after n items: ``(1 - e^(-k n / m))^k``;
* the OR of two filters (same m, k, hashes) is exactly the filter of the union of the sets, so
  set sizes and hence Jaccard similarity can be estimated from bit counts alone, with
  ``n ≈ -(m / k) ln(1 - X / m)`` for X bits set (Swamidass and Baldi, J. Chem. Inf. Model. 2007).

The filter is our own small NumPy class rather than ``rbloom`` or ``pybloom-live`` because the
teaching and comparison views need m, k and the bit array itself: rbloom picks k internally and
exposes neither k nor the bits; pybloom-live has not been released since 2022.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

Item = str | bytes | int


def _key(item: Item) -> bytes:
    if isinstance(item, bytes):
        return item
    if isinstance(item, str):
        return item.encode("utf-8")
    if isinstance(item, (int, np.integer)):
        return str(int(item)).encode("ascii")
    raise TypeError(f"a Bloom filter item must be str, bytes or int, not {type(item).__name__}")


def false_positive_rate(m: int, k: int, n: int) -> float:
    """Estimated false-positive rate ``(1 - e^(-k n / m))^k`` of a filter (float in [0, 1]).

    Args:
        m: bits in the filter.
        k: hash functions.
        n: items added.

    Example:
        >>> round(false_positive_rate(m=1000, k=7, n=100), 5)
        0.00819
    """
    if n <= 0:
        return 0.0
    return (1.0 - math.exp(-k * n / m)) ** k


def estimated_items(m: int, k: int, bits_set: int) -> float:
    """Items a filter holds, estimated from its bit count: ``-(m / k) ln(1 - X / m)`` (float).

    Returns ``math.inf`` for a saturated filter (every bit set).
    """
    if bits_set >= m:
        return math.inf
    return -(m / k) * math.log1p(-bits_set / m)


class BloomFilter:
    """A Bloom filter of m bits and k hash functions (double hashing of one BLAKE2b digest).

    Args:
        m: number of bits (>= 1).
        k: number of hash functions (>= 1).

    Raises:
        ValueError: m or k is below 1.

    Example:
        >>> bf = BloomFilter(m=64, k=3)
        >>> bf.add("https://example.com/")
        >>> "https://example.com/" in bf, bf.count
        (True, 1)
    """

    def __init__(self, m: int, k: int) -> None:
        if m < 1 or k < 1:
            raise ValueError(f"a Bloom filter needs m >= 1 bits and k >= 1 hashes (got m={m}, k={k})")
        self.m = int(m)
        self.k = int(k)
        self._bits = np.zeros(self.m, dtype=bool)
        self.count = 0  #: items added (int), duplicates included

    @classmethod
    def for_capacity(cls, n: int, fp_rate: float = 0.01) -> BloomFilter:
        """A filter sized for n items at the given false-positive rate.

        Uses the optimal sizes ``m = -n ln p / (ln 2)^2`` and ``k = (m / n) ln 2`` (Broder and
        Mitzenmacher 2004, section 2.2).

        Args:
            n: expected number of items (values below 1 count as 1).
            fp_rate: wanted false-positive rate, in (0, 1).

        Raises:
            ValueError: fp_rate is not in (0, 1).
        """
        if not 0.0 < fp_rate < 1.0:
            raise ValueError(f"fp_rate must be in (0, 1), got {fp_rate!r}")
        n = max(1, int(n))
        m = max(8, math.ceil(-n * math.log(fp_rate) / math.log(2) ** 2))
        k = max(1, round(m / n * math.log(2)))
        return cls(m, k)

    def indices(self, item: Item) -> list[int]:
        """The k bit positions of an item (list[int], each in [0, m))."""
        digest = hashlib.blake2b(_key(item), digest_size=16).digest()
        h1 = int.from_bytes(digest[:8], "big")
        h2 = int.from_bytes(digest[8:], "big") | 1
        return [(h1 + i * h2) % self.m for i in range(self.k)]

    def add(self, item: Item) -> None:
        """Add one item."""
        self._bits[self.indices(item)] = True
        self.count += 1

    def update(self, items: Iterable[Item]) -> None:
        """Add every item of an iterable."""
        for item in items:
            self.add(item)

    def __contains__(self, item: Item) -> bool:
        return bool(self._bits[self.indices(item)].all())

    @property
    def bits(self) -> np.ndarray:
        """The bit array, a read-only ``np.bool_`` view of length m."""
        view = self._bits.view()
        view.flags.writeable = False
        return view

    @property
    def bits_set(self) -> int:
        """Number of bits set (int)."""
        return int(np.count_nonzero(self._bits))

    def false_positive_rate(self) -> float:
        """Estimated false-positive rate for the items added so far (float in [0, 1])."""
        return false_positive_rate(self.m, self.k, self.count)

    def estimated_items(self) -> float:
        """Distinct items held, estimated from the bits set (float; inf when saturated)."""
        return estimated_items(self.m, self.k, self.bits_set)

    def _check_compatible(self, other: BloomFilter) -> None:
        if (self.m, self.k) != (other.m, other.k):
            raise ValueError(f"Bloom filters differ in size: m={self.m}, k={self.k} vs m={other.m}, k={other.k}")

    def union(self, other: BloomFilter) -> BloomFilter:
        """The filter of the union of both sets (bitwise OR; same m and k required)."""
        self._check_compatible(other)
        out = BloomFilter(self.m, self.k)
        out._bits = self._bits | other._bits
        out.count = self.count + other.count
        return out

    def intersection(self, other: BloomFilter) -> BloomFilter:
        """Bitwise AND of two filters (a superset of the intersection's filter)."""
        self._check_compatible(other)
        out = BloomFilter(self.m, self.k)
        out._bits = self._bits & other._bits
        return out


@dataclass(frozen=True)
class BloomSimilarity:
    """Two sets compared through Bloom filters of the same m and k.

    Attributes:
        m, k: the filters' size (bits) and hash count.
        items_a, items_b: true sizes of the two sets.
        bits_a, bits_b: bits set in each filter.
        bits_and, bits_or: bits set in both / in either.
        bit_jaccard: ``bits_and / bits_or`` (float in [0, 1]), the plain bit-vector overlap; it
            over-states the similarity, the more so the fuller the filters (each item sets k
            bits, and unrelated items share bits by chance).
        estimated_a, estimated_b, estimated_union: set sizes estimated from bit counts.
        estimated_intersection: ``estimated_a + estimated_b - estimated_union`` (>= 0).
        jaccard: estimated Jaccard similarity ``estimated_intersection / estimated_union``, in
            [0, 1] (0 when both sets are empty).
    """

    m: int
    k: int
    items_a: int
    items_b: int
    bits_a: int
    bits_b: int
    bits_and: int
    bits_or: int
    bit_jaccard: float
    estimated_a: float
    estimated_b: float
    estimated_union: float
    estimated_intersection: float
    jaccard: float


#: Fewest items a similarity filter is sized for: tiny sets in tiny filters give noisy estimates.
MIN_CAPACITY = 100


def bloom_similarity(a: Iterable[Item], b: Iterable[Item], fp_rate: float = 0.01) -> BloomSimilarity:
    """Compare two sets through Bloom filters sized for the larger set (Broder and Mitzenmacher 2004).

    Args:
        a, b: the two sets' items (duplicates are ignored).
        fp_rate: false-positive rate the filters are sized for, at the larger set's size or
            :data:`MIN_CAPACITY` items, whichever is more.

    Returns:
        A :class:`BloomSimilarity`.
    """
    set_a, set_b = set(a), set(b)
    fa = BloomFilter.for_capacity(max(len(set_a), len(set_b), MIN_CAPACITY), fp_rate)
    fb = BloomFilter(fa.m, fa.k)
    fa.update(set_a)
    fb.update(set_b)
    both = int(np.count_nonzero(fa.bits & fb.bits))
    either = int(np.count_nonzero(fa.bits | fb.bits))
    est_a, est_b = fa.estimated_items(), fb.estimated_items()
    est_union = estimated_items(fa.m, fa.k, either)
    est_inter = max(0.0, est_a + est_b - est_union)
    jaccard = min(1.0, est_inter / est_union) if est_union > 0 and math.isfinite(est_union) else 0.0
    return BloomSimilarity(
        m=fa.m,
        k=fa.k,
        items_a=len(set_a),
        items_b=len(set_b),
        bits_a=fa.bits_set,
        bits_b=fb.bits_set,
        bits_and=both,
        bits_or=either,
        bit_jaccard=both / either if either else 0.0,
        estimated_a=est_a,
        estimated_b=est_b,
        estimated_union=est_union,
        estimated_intersection=est_inter,
        jaccard=jaccard,
    )
