"""Exact all-pairs Hamming distance histogram of 64-bit SimHash fingerprints, vectorized.

For n fingerprints there are n*(n-1)/2 pairs (5 * 10**9 for 100,000 pages); they are counted
block by block with NumPy (``np.bitwise_count`` of the XORs, then ``np.bincount``), never held in
memory at once.
"""

from __future__ import annotations

import numpy as np

from .model import DupType, ScanResult
from .progress import NullProgress, Progress, check_cancel

BITS = 64
#: Elements (fingerprint pairs) per block: bounds memory to about 100 MB of temporaries.
BLOCK_ELEMENTS = 8_000_000
STAGE = "counting Hamming distances"


def hamming_histogram(fingerprints: np.ndarray, progress: Progress | None = None) -> np.ndarray:
    """Count the Hamming distances of all unordered pairs of fingerprints.

    Args:
        fingerprints: 1-D array of 64-bit fingerprints (``np.uint64``; ints are converted).
        progress: progress to report to; may cancel (raises ``ScanCancelled``).

    Returns:
        ``np.int64`` array of 65 counts: ``counts[d]`` = number of pairs at distance d bits.
    """
    progress = progress or NullProgress()
    fps = np.asarray(fingerprints, dtype=np.uint64)
    n = len(fps)
    counts = np.zeros(BITS + 1, dtype=np.int64)
    if n < 2:
        return counts
    rows = max(1, min(n, BLOCK_ELEMENTS // n))
    for i0 in range(0, n, rows):
        check_cancel(progress)
        i1 = min(n, i0 + rows)
        # The square block of these rows with themselves: upper triangle only.
        square = np.bitwise_count(fps[i0:i1, None] ^ fps[None, i0:i1])
        counts += np.bincount(square[np.triu_indices(i1 - i0, k=1)], minlength=BITS + 1)
        # These rows against every later fingerprint: all pairs count.
        if i1 < n:
            rest = np.bitwise_count(fps[i0:i1, None] ^ fps[None, i1:])
            counts += np.bincount(rest.ravel(), minlength=BITS + 1)
        progress.update(STAGE, i1, n)
    return counts


def result_histogram(result: ScanResult, progress: Progress | None = None) -> np.ndarray:
    """All-pairs Hamming histogram of the pages of a scan that have usable text (pages without
    text have no meaningful fingerprint).  Returns 65 counts (``np.int64``)."""
    fps = np.array([p.simhash for p in result.pages if p.has_text], dtype=np.uint64)
    return hamming_histogram(fps, progress)


def type_counts_by_distance(result: ScanResult) -> dict[DupType, np.ndarray]:
    """For each duplicate type, how many classified pairs lie at each Hamming distance.

    Returns:
        ``{type: np.int64 array of 65 counts}`` for the four duplicate types (distinct pairs and
        pairs involving pages without text are left out, as in :func:`result_histogram`).
    """
    out = {t: np.zeros(BITS + 1, dtype=np.int64) for t in DupType if t is not DupType.DISTINCT}
    for pair in result.pairs:
        if pair.type is DupType.DISTINCT or not pair.scores.both_have_text:
            continue
        out[pair.type][pair.scores.hamming_distance] += 1
    return out
