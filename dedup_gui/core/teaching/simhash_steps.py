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
equals :func:`dedup_gui.core.fingerprints.simhash.simhash_of_features` and every fingerprint of ``bits`` bits
is the bottom ``bits`` bits of the 64-bit one.  Bits are listed most significant first, as the
fingerprint is written in hex.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from dedup_gui.core.gil_friendly import sorted_in_slices
from dedup_gui.core.text.tokens import simhash_features


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


#: Steps between two stored vectors of running sums (:class:`FeatureSteps`).
CHECKPOINT = 32
#: Blocks of steps kept made (:class:`FeatureSteps`): 2,048 steps, a table's worth of rows.
_BLOCKS_KEPT = 64
#: Rows of the sums computed per NumPy call while the checkpoints are built.
_CHUNK = 16_384


class FeatureSteps(Sequence[FeatureStep]):
    """Every feature's :class:`FeatureStep`, made when asked for.

    A page of 600,000 CJK bigrams had 600,000 step objects of three 64-tuples each: about a
    gigabyte, 10 s to build, and 0.7 s for the interpreter to free in one piece (on the window's
    GUI thread when the next page replaced it).  Here only the features, their weights and
    hashes are kept, with the running sums every :data:`CHECKPOINT` steps (NumPy, int64); a
    step's sums are its checkpoint's plus at most ``CHECKPOINT - 1`` contributions.

    Args:
        features: the feature texts, in step order.
        weights: their weights (positive ints), one per feature.
        hashes: their hashes (ints of ``bits`` bits), one per feature.
        bits: the fingerprint width (8..64).

    Attributes:
        largest_sum: the largest ``|sum|`` after any step (int, 0 without steps): the widest
            number the board shows for this text, so that its layout is chosen once per text.
        largest_weight: the largest weight (int, 0 without steps).
    """

    def __init__(self, features: list[str], weights: list[int], hashes: list[int], bits: int) -> None:
        self._features = features
        self._weights = weights
        self._hashes = hashes
        self.bits = bits
        self.largest_weight = max(weights, default=0)
        self._checkpoints, self.largest_sum = _checkpoint_sums(weights, hashes, bits)
        # the blocks made last: a table repaint asks for each visible row's step many times
        self._blocks: OrderedDict[int, list[FeatureStep]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._features)

    @overload
    def __getitem__(self, index: int) -> FeatureStep: ...

    @overload
    def __getitem__(self, index: slice) -> list[FeatureStep]: ...

    def __getitem__(self, index):
        """The step at ``index`` (negative counts from the end), or a list for a slice.

        Raises:
            IndexError: no such step.
        """
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"step {index} of {n}")
        block = index // CHECKPOINT
        steps = self._blocks.get(block)
        if steps is None:
            steps = self._blocks[block] = self._make_block(block)
            if len(self._blocks) > _BLOCKS_KEPT:
                self._blocks.popitem(last=False)
        else:
            self._blocks.move_to_end(block)
        return steps[index - block * CHECKPOINT]

    def _make_block(self, block: int) -> list[FeatureStep]:
        """The steps of one block of :data:`CHECKPOINT` features, from its checkpoint."""
        bits = self.bits
        sums = self._checkpoints[block].tolist()
        out = []
        for i in range(block * CHECKPOINT, min(len(self), (block + 1) * CHECKPOINT)):
            weight, value = self._weights[i], self._hashes[i]
            hash_bits = bits_of(value, bits)
            contribution = tuple(weight if b else -weight for b in hash_bits)
            sums = [s + c for s, c in zip(sums, contribution)]
            out.append(FeatureStep(self._features[i], weight, value, hash_bits, contribution, tuple(sums)))
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FeatureSteps):
            return NotImplemented
        return (self.bits, self._features, self._weights, self._hashes) == (
            other.bits, other._features, other._weights, other._hashes)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]  # mutable contents: not hashable

    def final_sums(self) -> tuple[int, ...]:
        """The sums after the last feature (tuple of ``bits`` ints; zeros when empty)."""
        return tuple(self._checkpoints[-1].tolist()) if len(self) % CHECKPOINT == 0 else self[-1].sums


def _checkpoint_sums(weights: list[int], hashes: list[int], bits: int) -> tuple[np.ndarray, int]:
    """Running sums after 0, CHECKPOINT, 2 * CHECKPOINT, ... steps (int64, shape
    ``(len // CHECKPOINT + 1, bits)``), a chunk of rows per NumPy call, and the largest
    ``|sum|`` of any step (int, 0 without steps)."""
    n = len(weights)
    out = np.zeros((n // CHECKPOINT + 1, bits), dtype=np.int64)
    largest = 0
    if not n:
        return out, largest
    shifts = np.arange(bits - 1, -1, -1, dtype=np.uint64)
    carry = np.zeros(bits, dtype=np.int64)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        h = np.array(hashes[start:stop], dtype=np.uint64)
        w = np.array(weights[start:stop], dtype=np.int64)
        ones = ((h[:, None] >> shifts) & np.uint64(1)).astype(np.int64)
        running = np.cumsum((2 * ones - 1) * w[:, None], axis=0) + carry
        # rows k with (k + 1) a multiple of CHECKPOINT end a block (_CHUNK is one too)
        ends = np.arange(start, stop)
        marks = (ends + 1) % CHECKPOINT == 0
        out[(ends[marks] + 1) // CHECKPOINT] = running[marks]
        carry = running[-1]
        largest = max(largest, int(np.abs(running).max()))
    return out, largest


@dataclass(frozen=True)
class SimhashSteps:
    """A SimHash computed step by step.

    Attributes:
        bits: fingerprint width (8 for the blackboard, 64 for the engine).
        steps: one :class:`FeatureStep` per feature, in the order given (a
            :class:`FeatureSteps` sequence, each step made when asked for).
        sums: the final vector of sums (the last step's, or zeros).
        fingerprint_bits: the sign step: 1 where the sum is positive, most significant first.
        fingerprint: the fingerprint as an unsigned int.
    """

    bits: int
    steps: FeatureSteps
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
        features: feature -> weight (e.g. :func:`dedup_gui.core.text.tokens.simhash_features`), or
            ``(feature, weight)`` pairs; the steps follow this order.
        bits: fingerprint width, a multiple of 8 from 8 to 64.
        hash_func: ``(feature, bits) -> int`` to use instead of :func:`feature_hash`, e.g. a
            teacher's own small hashes on the blackboard.

    Returns:
        :class:`SimhashSteps`; for ``bits=64`` and no ``hash_func`` its fingerprint equals
        :func:`dedup_gui.core.fingerprints.simhash.simhash_of_features` of the same features.

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
    mask = (1 << bits) - 1
    names: list[str] = []
    weights: list[int] = []
    hashes: list[int] = []
    for feature, weight in features.items() if isinstance(features, Mapping) else features:
        if weight <= 0:
            raise ValueError(f"weights must be positive, got {weight!r} for {feature!r}")
        names.append(feature)
        weights.append(weight)
        hashes.append(hasher(feature, bits) & mask)
    steps = FeatureSteps(names, weights, hashes, bits)
    sums = steps.final_sums()
    signs = tuple(1 if s > 0 else 0 for s in sums)
    fingerprint = int("".join(map(str, signs)), 2)
    return SimhashSteps(bits, steps, sums, signs, fingerprint)


def text_simhash_steps(text: str, bits: int = 64) -> SimhashSteps:
    """:func:`simhash_steps` of a text's features (words, or CJK bigrams, weighted by count),
    heaviest first (ties in alphabetical order), as the engine hashes a page's main text."""
    # sorted in slices: one sort of a long page's 600,000 features held the GIL 0.7 s
    features = sorted_in_slices(list(simhash_features(text).items()), key=lambda fw: (-fw[1], fw[0]))
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


def position_runs(positions: Sequence[int]) -> str:
    """Bit positions as runs of consecutive positions, e.g. ``"3, 30–33"`` ("none" for none):
    34 differing positions listed one by one took three lines of a projected view.

    Args:
        positions: ascending bit positions (ints).

    Returns:
        The runs, a run of three or more written ``first–last`` (str).

    Example:
        >>> position_runs((3, 5, 6, 30, 31, 32, 33))
        '3, 5, 6, 30–33'
    """
    runs: list[list[int]] = []
    for p in positions:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    parts = []
    for lo, hi in runs:
        parts += [f"{lo}–{hi}"] if hi - lo >= 2 else [str(x) for x in range(lo, hi + 1)]
    return ", ".join(parts) or "none"
