"""All-pairs Hamming histogram benchmark: time and pairs per second at several fingerprint counts,
against a baseline run in the same script.

    python benchmarks/bench_histogram.py [--sizes 10000 50000 100000] [--baseline-max 50000]

The fingerprints are random 64-bit values with one in seven a copy of another (duplicates, as in
a real crawl).  Ours is :func:`dedup_gui.core.views.histogram.hamming_histogram` (cache-sized blocks,
distances counted two at a time, a thread per core).  The baseline is the straightforward NumPy
version: blocks of 8 million pairs, ``np.bitwise_count`` of the XORs and ``np.bincount`` of them,
in one thread.  Both must give the same 65 counts; the script checks it.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dedup_gui.core.views.histogram import hamming_histogram


def baseline_histogram(fps: np.ndarray, block: int = 8_000_000) -> np.ndarray:
    """The straightforward exact histogram: returns 65 int64 counts of pairs by distance (bits)."""
    n = len(fps)
    counts = np.zeros(65, dtype=np.int64)
    rows = max(1, min(n, block // n))
    for i0 in range(0, n, rows):
        i1 = min(n, i0 + rows)
        square = np.bitwise_count(fps[i0:i1, None] ^ fps[None, i0:i1])
        counts += np.bincount(square[np.triu_indices(i1 - i0, k=1)], minlength=65)
        if i1 < n:
            counts += np.bincount(np.bitwise_count(fps[i0:i1, None] ^ fps[None, i1:]).ravel(), minlength=65)
    return counts


def main() -> None:
    """Print one line per size: pairs, our time and pairs/s, the baseline's, and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 100_000])
    ap.add_argument("--baseline-max", type=int, default=50_000, help="largest size the baseline runs on")
    args = ap.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"NumPy {np.__version__}"
    )
    rng = np.random.default_rng(20261130)
    for n in args.sizes:
        fps = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
        fps[::7] = fps[rng.integers(0, n, len(fps[::7]))]
        pairs = n * (n - 1) // 2
        t0 = time.perf_counter()
        ours = hamming_histogram(fps)
        t_ours = time.perf_counter() - t0
        assert ours.sum() == pairs
        line = f"{n:>9,} fingerprints  {pairs:>15,} pairs  ours {t_ours:7.2f} s ({pairs / t_ours / 1e6:6.0f} M pairs/s)"
        if n <= args.baseline_max:
            t0 = time.perf_counter()
            base = baseline_histogram(fps)
            t_base = time.perf_counter() - t0
            assert (base == ours).all(), "the two methods disagree"
            line += (
                f"  baseline {t_base:7.2f} s ({pairs / t_base / 1e6:6.0f} M pairs/s)  speed-up {t_base / t_ours:4.1f}x"
            )
        print(line, flush=True)
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
