"""SimHash and Hamming distance step by step, for the teaching views.

Charikar's SimHash ("Similarity estimation techniques from rounding algorithms", STOC 2002) as
the engine computes it (:mod:`.simhash`, the ``simhash`` package):

1. each feature (a word, or a CJK character bigram) has a weight, its count in the text;
2. each feature is hashed to ``bits`` bits: the last ``bits / 8`` bytes of its MD5 digest read
   as a big-endian number, so the 8-bit mode uses the last byte, the bottom 8 bits of the
   64-bit hash (the ``simhash`` package does the same for ``f=8``);
3. a vector of ``bits`` sums starts at 0; each feature adds its weight where its hash has a 1
   and subtracts it where it has a 0;
4. the sign step: fingerprint bit i is 1 where sum i is positive, 0 where it is zero or
   negative.

Step 4 is the ``simhash`` package's ``ones > total_weight / 2`` rule in other words (a sum of
+w and -w is positive exactly when the 1-weights exceed half the total), so the 64-bit result
equals :func:`dedup_gui.core.simhash.simhash_of_features` and every fingerprint of ``bits`` bits
is the bottom ``bits`` bits of the 64-bit one.  Bits are listed most significant first, as the
fingerprint is written in hex.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .tokens import simhash_features


def feature_hash(feature: str, bits: int = 64) -> int:
    """A feature's hash as SimHash uses it: the last ``bits / 8`` bytes of its MD5, big-endian.

    Args:
        feature: the feature text (hashed as UTF-8).
        bits: 8, 16, ..., 64 (a multiple of 8 up to 128).

    Example:
        >>> f"{feature_hash('cat', 8):08b}"  # MD5("cat") ends in byte 0xd8
        '11011000'
    """
    return int.from_bytes(hashlib.md5(feature.encode("utf-8")).digest()[-(bits // 8) :], "big")


def bits_of(value: int, bits: int) -> tuple[int, ...]:
    """The ``bits`` bits of a value, most significant first (tuple of 0/1)."""
    return tuple((value >> (bits - 1 - i)) & 1 for i in range(bits))


@dataclass(frozen=True)
class FeatureStep:
    """One feature's step: its hash and what it adds to the vector of sums.

    Attributes:
        feature: the feature text.
        weight: its weight (count in the text).
        hash: its hash (int of ``bits`` bits).
        hash_bits: the hash's bits, most significant first.
        contribution: ``+weight`` where a bit is 1, ``-weight`` where it is 0.
        sums: the running vector of sums after this feature.
    """

    feature: str
    weight: int
    hash: int
    hash_bits: tuple[int, ...]
    contribution: tuple[int, ...]
    sums: tuple[int, ...]


@dataclass(frozen=True)
class SimhashSteps:
    """A SimHash computed step by step.

    Attributes:
        bits: fingerprint width (8 for the blackboard, 64 for the engine).
        steps: one :class:`FeatureStep` per feature, in the order given.
        sums: the final vector of sums (the last step's, or zeros).
        fingerprint_bits: the sign step: 1 where the sum is positive, most significant first.
        fingerprint: the fingerprint as an unsigned int.
    """

    bits: int
    steps: tuple[FeatureStep, ...]
    sums: tuple[int, ...]
    fingerprint_bits: tuple[int, ...]
    fingerprint: int

    @property
    def hex(self) -> str:
        """The fingerprint in hex, ``bits / 4`` digits (str)."""
        return f"{self.fingerprint:0{self.bits // 4}x}"


def simhash_steps(
    features: Mapping[str, int] | Iterable[tuple[str, int]],
    bits: int = 64,
    hash_func: Callable[[str, int], int] | None = None,
) -> SimhashSteps:
    """Compute a SimHash and keep every intermediate step.

    Args:
        features: feature -> weight (e.g. :func:`dedup_gui.core.tokens.simhash_features`), or
            ``(feature, weight)`` pairs; the steps follow this order.
        bits: fingerprint width, a multiple of 8 from 8 to 64.
        hash_func: ``(feature, bits) -> int`` to use instead of :func:`feature_hash`, e.g. a
            teacher's own small hashes on the blackboard.

    Returns:
        :class:`SimhashSteps`; for ``bits=64`` and no ``hash_func`` its fingerprint equals
        :func:`dedup_gui.core.simhash.simhash_of_features` of the same features.

    Raises:
        ValueError: bits is not a multiple of 8 in 8..64, or a weight is not positive.

    Example:
        >>> s = simhash_steps({"a": 2, "b": 1}, bits=8, hash_func=lambda f, n: {"a": 0b11110000, "b": 0b10101010}[f])
        >>> s.sums, s.fingerprint_bits
        ((3, 1, 3, 1, -1, -3, -1, -3), (1, 1, 1, 1, 0, 0, 0, 0))
    """
    if bits % 8 or not 8 <= bits <= 64:
        raise ValueError(f"bits must be a multiple of 8 from 8 to 64, got {bits}")
    hasher = hash_func or feature_hash
    items = features.items() if isinstance(features, Mapping) else features
    sums = [0] * bits
    steps = []
    for feature, weight in items:
        if weight <= 0:
            raise ValueError(f"weights must be positive, got {weight!r} for {feature!r}")
        value = hasher(feature, bits) & ((1 << bits) - 1)
        hash_bits = bits_of(value, bits)
        contribution = tuple(weight if b else -weight for b in hash_bits)
        sums = [s + c for s, c in zip(sums, contribution)]
        steps.append(FeatureStep(feature, weight, value, hash_bits, contribution, tuple(sums)))
    signs = tuple(1 if s > 0 else 0 for s in sums)
    fingerprint = int("".join(map(str, signs)), 2)
    return SimhashSteps(bits, tuple(steps), tuple(sums), signs, fingerprint)


def text_simhash_steps(text: str, bits: int = 64) -> SimhashSteps:
    """:func:`simhash_steps` of a text's features (words, or CJK bigrams, weighted by count),
    heaviest first (ties in alphabetical order), as the engine hashes a page's main text."""
    features = sorted(simhash_features(text).items(), key=lambda fw: (-fw[1], fw[0]))
    return simhash_steps(features, bits)


@dataclass(frozen=True)
class HammingSteps:
    """Two fingerprints compared bit by bit.

    Attributes:
        bits: their width.
        a_bits, b_bits: their bits, most significant first.
        differing: positions (0 = most significant) where they differ.
        distance: the Hamming distance, ``len(differing)``.
    """

    bits: int
    a_bits: tuple[int, ...]
    b_bits: tuple[int, ...]
    differing: tuple[int, ...]
    distance: int


def hamming_steps(a: int, b: int, bits: int = 64) -> HammingSteps:
    """Lay two fingerprints out as bit rows and mark where they differ.

    Example:
        >>> hamming_steps(0b10110000, 0b10011000, bits=8).differing
        (2, 4)
    """
    a_bits, b_bits = bits_of(a, bits), bits_of(b, bits)
    differing = tuple(i for i, (x, y) in enumerate(zip(a_bits, b_bits)) if x != y)
    return HammingSteps(bits, a_bits, b_bits, differing, len(differing))
