"""64-bit SimHash fingerprints and Hamming distance.

SimHash (Charikar, "Similarity estimation techniques from rounding algorithms", STOC 2002): each
weighted feature is hashed to 64 bits; bit i of the fingerprint is 1 when the weights of the
features whose hash has bit i set outweigh the others.  Near-duplicate pages differ in few bits;
Manku, Jain and Das Sarma ("Detecting near-duplicates for web crawling", WWW 2007) call 64-bit
fingerprints within Hamming distance k <= 3 near duplicates.  The bit sums are computed by the
``simhash`` package (MD5 per feature, vectorized with NumPy).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from simhash import Simhash

from dedup_gui.core.text.tokens import simhash_features

BITS = 64
_MAX_WEIGHT = 50


def simhash_of_features(features: Mapping[str, int]) -> int:
    """Return the 64-bit SimHash of weighted features.

    Args:
        features: feature -> weight (positive int), e.g. from :func:`simhash_features`.

    Returns:
        The fingerprint as an unsigned int in [0, 2**64); 0 for no features.
    """
    if not features:
        return 0
    return int(Simhash(_split_weights(features), f=BITS).value)


def _split_weights(features: Mapping[str, int]) -> list[tuple[str, int]]:
    # simhash 2.1 multiplies a uint8 bit array by weights above its large_weight_cutoff (50),
    # which overflows under NumPy 2; equal parts of at most 50 give the same sums.
    out: list[tuple[str, int]] = []
    for feature, weight in features.items():
        while weight > _MAX_WEIGHT:
            out.append((feature, _MAX_WEIGHT))
            weight -= _MAX_WEIGHT
        if weight > 0:
            out.append((feature, weight))
    return out


def simhash_text(text: str) -> int:
    """Return the 64-bit SimHash of a text (words, or CJK character bigrams, weighted by TF)."""
    return simhash_of_features(simhash_features(text))


def bits_text(n: int) -> str:
    """A number of bits (a Hamming distance, a threshold k) in words: ``"1 bit"``, ``"0 bits"``,
    ``"3 bits"`` (str); "Hamming distance 1 bits" read wrong."""
    return f"{n} bit{'' if n == 1 else 's'}"


def hamming_distance(a: int, b: int) -> int:
    """Number of differing bits between two 64-bit fingerprints (int, 0..64).

    Example:
        >>> hamming_distance(0b1011, 0b0001)
        2
    """
    return (a ^ b).bit_count()


def block_keys(fingerprint: int, k: int) -> list[tuple[int, int]]:
    """Split a fingerprint into k + 1 blocks; two fingerprints within Hamming distance k share
    at least one block exactly (pigeonhole; Manku et al. 2007's table permutations).

    Args:
        fingerprint: 64-bit SimHash.
        k: the Hamming distance to be guaranteed (bits).

    Returns:
        ``[(block_index, block_value), ...]``, k + 1 keys.
    """
    bounds = _block_bounds(k)
    return [(i, (fingerprint >> lo) & ((1 << (hi - lo)) - 1)) for i, (lo, hi) in enumerate(zip(bounds, bounds[1:]))]


def block_key_table(fingerprints: np.ndarray, k: int) -> list[list[int]]:
    """:func:`block_keys` of many fingerprints at once, each key as one int
    (``block_value * (k + 1) + block_index``, so that keys of different blocks never meet).

    Args:
        fingerprints: 64-bit SimHashes, ``np.uint64`` array of shape (n,).
        k: the Hamming distance to be guaranteed (bits).

    Returns:
        n lists of k + 1 ints (``list[list[int]]``).
    """
    bounds = _block_bounds(k)
    blocks = np.uint64(k + 1)
    table = np.empty((len(fingerprints), k + 1), dtype=np.uint64)
    for i, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        value = (fingerprints >> np.uint64(lo)) & np.uint64((1 << (hi - lo)) - 1)
        table[:, i] = value * blocks + np.uint64(i)
    return table.tolist()


def _block_bounds(k: int) -> list[int]:
    """The bit offsets where the k + 1 blocks start, and 64 at the end."""
    return [round(i * BITS / (k + 1)) for i in range(k + 2)]


def to_bits(fingerprint: int) -> np.ndarray:
    """The 64 bits of a fingerprint, most significant first, as a ``np.uint8`` array of 0/1."""
    return np.array([(fingerprint >> (BITS - 1 - i)) & 1 for i in range(BITS)], dtype=np.uint8)
