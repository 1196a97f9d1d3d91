"""Content-defined chunking (CDC) with a Rabin-Karp rolling hash and TTTD size limits.

A text is cut where the hash of the last ``window`` characters hits a pattern, not at fixed
offsets, so an insertion near the start moves only the boundaries close to it: later boundaries
keep their content and just shift by the insertion's length.  Two pages are then compared by
the sets of their chunk hashes (through Bloom filters, :mod:`.bloom`).

* Rolling hash: Rabin-Karp polynomial hash of the window, ``sum c_j * base^(w-1-j) mod M``
  over the characters' code points (Karp and Rabin, IBM J. Res. Dev. 1987; Rabin fingerprints
  are the same idea over GF(2)), updated in O(1) per character.
* Boundaries: TTTD, the Two Thresholds, Two Divisors algorithm of Eshghi and Tang, "A framework
  for analyzing and improving content-based chunking algorithms" (HP Labs HPL-2005-30R1):
  no boundary before ``min_size`` characters; a boundary where ``hash % divisor == divisor - 1``;
  on reaching ``max_size`` without one, cut at the last backup boundary
  (``hash % backup_divisor == backup_divisor - 1``) if any, else at ``max_size``.

Units are characters (code points) of the whitespace-normalized main text, so chunk offsets
index the text a view shows.  The defaults keep TTTD's published ratios (Tmin = 460, Tmax = 2800,
D = 540, D' = 270 bytes: min ≈ 0.85 D, max ≈ 5.2 D, D' = D / 2) scaled to D = 32 characters:
web main texts are a few thousand characters, and chunks of about a sentence let near
duplicates share most chunks.  On ``shared/pairs`` D = 32 separated duplicates from distinct
pairs better than D = 64 or 128 (README.md, "Methods compared").
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChunkParams:
    """Parameters of the chunker; the defaults are the engine's.

    Attributes:
        window: characters in the rolling-hash window.
        divisor: main divisor D: a boundary ends a chunk where ``hash % D == D - 1``.
        backup_divisor: TTTD's backup divisor D' (< D), used when a chunk reaches ``max_size``.
        min_size: shortest chunk (characters; the last chunk of a text may be shorter).
        max_size: longest chunk (characters).
        base: multiplier of the polynomial hash.
        modulus: modulus M of the polynomial hash (the Mersenne prime 2^61 - 1).

    Raises:
        ValueError: sizes out of order or not positive, or the modulus not below 2^63.
    """

    window: int = 16
    divisor: int = 32
    backup_divisor: int = 16
    min_size: int = 27
    max_size: int = 166
    base: int = 257
    modulus: int = (1 << 61) - 1

    def __post_init__(self) -> None:
        if min(self.window, self.divisor, self.backup_divisor, self.min_size, self.base) < 1:
            raise ValueError("window, divisors, min_size and base must be >= 1")
        if not self.min_size <= self.max_size:
            raise ValueError(f"min_size ({self.min_size}) must not exceed max_size ({self.max_size})")
        if self.backup_divisor > self.divisor:
            raise ValueError("backup_divisor must not exceed divisor")
        if not 1 < self.modulus < 1 << 63:  # the hashes are kept as signed 64-bit ints
            raise ValueError(f"modulus must be in (1, 2^63), got {self.modulus}")


DEFAULT_PARAMS = ChunkParams()


@dataclass(frozen=True)
class Chunk:
    """One chunk of a text.

    Attributes:
        start, end: character offsets in the text (end exclusive).
        hash: 64-bit hash of the chunk's text (BLAKE2b, 8 bytes, big-endian), as an int.
    """

    start: int
    end: int
    hash: int


def _codes(data: str | bytes) -> Sequence[int]:
    # Code points in one C buffer: a list of millions of ints took 0.1 s to free, in one call
    # that holds the GIL (the window's GUI thread waits meanwhile).
    return data if isinstance(data, bytes) else memoryview(data.encode("utf-32-le", "surrogatepass")).cast("I")


def rolling_hashes(data: str | bytes, params: ChunkParams = DEFAULT_PARAMS) -> list[int]:
    """Rabin-Karp hash of the window ending at each position (the first ``window - 1`` cover
    fewer characters).

    Args:
        data: a text (code points) or bytes.
        params: window, base and modulus.

    Returns:
        ``h[i]`` = hash of ``data[max(0, i - window + 1) : i + 1]`` (list[int]).

    Example:
        >>> rolling_hashes("abcd", ChunkParams(window=2, base=10, modulus=1000, min_size=1))
        [97, 68, 79, 90]
    """
    return list(_rolling_hashes(data, params))


def _rolling_hashes(data: str | bytes, params: ChunkParams) -> array:
    """:func:`rolling_hashes` as 64-bit ints in one buffer (the modulus is below 2^63), which is
    freed at once, not int by int."""
    w, base, mod = params.window, params.base, params.modulus
    codes = _codes(data)
    out_factor = pow(base, w - 1, mod)
    h = 0
    hashes = array("q")
    for i, c in enumerate(codes):
        if i >= w:
            h = (h - codes[i - w] * out_factor) % mod
        h = (h * base + c) % mod
        hashes.append(h)
    return hashes


def chunk_boundaries(data: str | bytes, params: ChunkParams = DEFAULT_PARAMS) -> list[int]:
    """End offsets of the chunks of a text under TTTD (Eshghi and Tang 2005).

    Args:
        data: a text or bytes.
        params: the chunker's parameters.

    Returns:
        Ascending end offsets (list[int]); the last is ``len(data)``; empty for empty data.

    Example:
        >>> p = ChunkParams(window=2, base=10, modulus=1000, divisor=10, backup_divisor=5, min_size=1, max_size=10)
        >>> chunk_boundaries("abcd", p)  # hashes 97, 68, 79, 90: 79 % 10 == 9 ends "abc"
        [3, 4]
    """
    hashes = _rolling_hashes(data, params)
    n = len(hashes)
    d, db = params.divisor, params.backup_divisor
    bounds: list[int] = []
    start = 0
    while start < n:
        limit = min(n, start + params.max_size)
        end = backup = None
        for i in range(start + params.min_size - 1, limit):
            h = hashes[i]
            if h % d == d - 1:
                end = i + 1
                break
            if h % db == db - 1:
                backup = i + 1
        if end is None:
            end = n if limit == n else (backup or limit)
        bounds.append(end)
        start = end
    return bounds


def chunk_hash(text: str | bytes) -> int:
    """64-bit hash of a chunk's content (BLAKE2b, 8 bytes, big-endian) as an int."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def chunks(data: str | bytes, params: ChunkParams = DEFAULT_PARAMS) -> list[Chunk]:
    """Cut a text into content-defined chunks.

    Args:
        data: a text or bytes.
        params: the chunker's parameters.

    Returns:
        The chunks in order (list[:class:`Chunk`]), covering the whole text.
    """
    out = []
    start = 0
    for end in chunk_boundaries(data, params):
        out.append(Chunk(start, end, chunk_hash(data[start:end])))
        start = end
    return out


def chunk_hash_set(data: str | bytes, params: ChunkParams = DEFAULT_PARAMS) -> set[int]:
    """The set of chunk hashes of a text (set[int]), what two pages are compared by."""
    ends = chunk_boundaries(data, params)
    return {chunk_hash(data[start:end]) for start, end in zip([0, *ends], ends)}
