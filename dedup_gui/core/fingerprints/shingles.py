"""Shingles, Jaccard similarity, containment and MinHash.

Shingling after Broder ("On the resemblance and containment of documents", 1997): a text's
shingles are its runs of k consecutive tokens (words, or CJK characters, see
:mod:`dedup_gui.core.text.tokens`), hashed to 32 bits (CRC-32).  Resemblance is the Jaccard
similarity of two shingle sets; containment is the share of the smaller set found in the other.
MinHash signatures come from datasketch.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
from datasketch import LeanMinHash, MinHash

MINHASH_SEED = 1
#: datasketch's permutation scheme (datasketch >= 2.0 names it; stored signatures depend on it).
MINHASH_SCHEME = "affine32"


def shingle_hashes(tokens: Sequence[str], k: int) -> np.ndarray:
    """Return the sorted unique 32-bit hashes of the k-token shingles of ``tokens``.

    Args:
        tokens: token sequence from :func:`dedup_gui.core.text.tokens.tokenize`.
        k: tokens per shingle (>= 1).  A text shorter than k tokens is one shingle.

    Returns:
        ``np.uint32`` array, sorted, unique; empty for no tokens.
    """
    if not tokens:
        return np.zeros(0, dtype=np.uint32)
    if len(tokens) < k:
        grams = ["\x1f".join(tokens)]
    else:
        grams = ["\x1f".join(tokens[i : i + k]) for i in range(len(tokens) - k + 1)]
    hashes = np.fromiter((zlib.crc32(g.encode("utf-8")) for g in grams), dtype=np.uint32, count=len(grams))
    return np.unique(hashes)


def intersection_size(a: np.ndarray, b: np.ndarray) -> int:
    """Size of the intersection of two sorted unique hash arrays (int)."""
    if len(a) == 0 or len(b) == 0:
        return 0
    return int(np.intersect1d(a, b, assume_unique=True).size)


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Jaccard similarity |A ∩ B| / |A ∪ B| of two shingle sets, in [0, 1] (0 if both empty).

    Example:
        >>> jaccard(np.array([1, 2, 3, 4, 5], np.uint32), np.array([4, 5, 6, 7], np.uint32))
        0.2857142857142857
    """
    inter = intersection_size(a, b)
    union = len(a) + len(b) - inter
    return inter / union if union else 0.0


def containment(a: np.ndarray, b: np.ndarray) -> float:
    """Share of the smaller shingle set that also occurs in the other, in [0, 1] (Broder 1997)."""
    smaller = min(len(a), len(b))
    return intersection_size(a, b) / smaller if smaller else 0.0


def minhash_signature(shingles: np.ndarray, num_perm: int) -> np.ndarray:
    """MinHash signature of a shingle set (datasketch, seed :data:`MINHASH_SEED`).

    Args:
        shingles: 32-bit shingle hashes (used directly as datasketch's 32-bit hash values).
        num_perm: number of permutations.

    Returns:
        ``np.uint64`` array of length ``num_perm``.
    """
    mh = MinHash(num_perm=num_perm, seed=MINHASH_SEED, hashfunc=int, scheme=MINHASH_SCHEME)
    if len(shingles):
        mh.update_batch(shingles.tolist())
    return np.asarray(mh.hashvalues, dtype=np.uint64)


def lean_minhash(signature: np.ndarray) -> LeanMinHash:
    """Wrap a stored signature as a datasketch ``LeanMinHash`` (for LSH and estimates)."""
    return LeanMinHash(seed=MINHASH_SEED, hashvalues=signature, scheme=MINHASH_SCHEME)
