"""Exact all-pairs Hamming distance histogram of 64-bit SimHash fingerprints, vectorized.

For n fingerprints there are n*(n-1)/2 pairs (5 * 10**9 for 100,000 pages); they are counted
block by block, never held in memory at once.  Each block is a few rows of fingerprints against
every later one: NumPy XORs them and counts bits (``np.bitwise_count``) into reused buffers small
enough to stay in the CPU cache, and ``np.bincount`` counts the distances two at a time (the
uint8 distances viewed as uint16, so half the elements).  Row ranges with equal numbers of pairs
run on a thread per core: these NumPy calls release the GIL.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from dedup_gui.core.columns import distance_counts_by_type
from dedup_gui.core.model import DupType, ScanResult
from dedup_gui.core.progress import NullProgress, Progress, ScanCancelled, check_cancel

BITS = 64
#: Fingerprint pairs per block: 256 Ki pairs keep the XOR buffer (2 MiB) and the distances in
#: the CPU cache, which is about twice as fast as blocks of millions.
BLOCK_ELEMENTS = 1 << 18
#: Row ranges (tasks) per thread: enough for smooth progress and cancel checks.
TASKS_PER_THREAD = 32
#: Marks an unused distance slot (never a real distance; above 64, so it is dropped).
_PAD = 255
STAGE = "counting Hamming distances"


def _row_range_counts(fps: np.ndarray, lo: int, hi: int, stop: threading.Event) -> np.ndarray:
    """Distances of every pair (i, j) with ``lo <= i < hi`` and ``i < j``: 65 counts (int64)."""
    n = len(fps)
    pair_counts = np.zeros(1 << 16, dtype=np.int64)  # two distances per uint16: low, high byte
    square_counts = np.zeros(BITS + 1, dtype=np.int64)
    xor_buf = np.empty(BLOCK_ELEMENTS + n, dtype=np.uint64)
    dist_buf = np.empty(BLOCK_ELEMENTS + n + 1, dtype=np.uint8)
    i0 = lo
    while i0 < hi:
        if stop.is_set():
            raise ScanCancelled()
        i1 = i0 + max(1, min(hi - i0, BLOCK_ELEMENTS // max(1, n - i0)))
        rows = fps[i0:i1, None]
        # The rows with each other: the upper triangle of a small square.
        square = np.bitwise_count(rows ^ fps[None, i0:i1])
        square_counts += np.bincount(square[np.triu_indices(i1 - i0, k=1)], minlength=BITS + 1)
        m = (i1 - i0) * (n - i1)
        if m:
            np.bitwise_xor(rows, fps[None, i1:], out=xor_buf[:m].reshape(i1 - i0, n - i1))
            np.bitwise_count(xor_buf[:m], out=dist_buf[:m])
            if m % 2:
                dist_buf[m] = _PAD
                m += 1
            pair_counts += np.bincount(dist_buf[:m].view(np.uint16), minlength=1 << 16)
        i0 = i1
    by_byte = pair_counts.reshape(256, 256)  # [high byte, low byte]
    return (by_byte.sum(axis=0) + by_byte.sum(axis=1))[: BITS + 1] + square_counts


def _balanced_bounds(n: int, parts: int) -> list[int]:
    """Row boundaries splitting the n*(n-1)/2 pairs (row i has n-1-i) into ``parts`` near-equal
    shares: a list of ``parts + 1`` increasing ints from 0 to n (duplicates removed)."""
    later = np.cumsum(np.arange(n - 1, -1, -1, dtype=np.int64))
    total = int(later[-1])
    cuts = np.searchsorted(later, total * np.arange(1, parts) / parts) + 1
    return sorted({0, n, *(int(c) for c in cuts if 0 < c < n)})


def hamming_histogram(
    fingerprints: np.ndarray, progress: Progress | None = None, threads: int | None = None
) -> np.ndarray:
    """Count the Hamming distances of all unordered pairs of fingerprints, exactly.

    Args:
        fingerprints: 1-D array of 64-bit fingerprints (``np.uint64``; ints are converted).
        progress: progress to report to (pairs done of all pairs); may cancel.
        threads: threads to count with (``None``: one per core).

    Returns:
        ``np.int64`` array of 65 counts: ``counts[d]`` = number of pairs at distance d bits.

    Raises:
        ScanCancelled: the progress object reported a cancel.
    """
    progress = progress or NullProgress()
    fps = np.ascontiguousarray(fingerprints, dtype=np.uint64)
    n = len(fps)
    counts = np.zeros(BITS + 1, dtype=np.int64)
    if n < 2:
        return counts
    threads = max(1, threads or os.cpu_count() or 1)
    bounds = _balanced_bounds(n, threads * TASKS_PER_THREAD if n > 2_000 else 1)
    total = n * (n - 1) // 2
    done = 0
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="hamming") as pool:
        pending = {
            pool.submit(_row_range_counts, fps, lo, hi, stop): (lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:])
        }
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                for future in finished:
                    lo, hi = pending.pop(future)
                    counts += future.result()
                    done += (hi - lo) * (2 * n - lo - hi - 1) // 2  # pairs of rows lo..hi-1
                    progress.update(STAGE, done, total)
                check_cancel(progress)
        finally:
            stop.set()
            for future in pending:
                future.cancel()
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
        pairs involving pages without text are left out, as in :func:`result_histogram`),
        counted from the pair columns in one ``np.bincount``.
    """

    return distance_counts_by_type(result, BITS)
