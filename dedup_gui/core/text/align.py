"""Alignment of long texts: sentence-level first, then exact within the changed blocks.

The Levenshtein distance of two texts of n and m characters costs O(n*m/64) time even with
rapidfuzz's bit-parallel algorithm (about 30 s for two 300,000-character texts), and the edit
script (``opcodes``) also O(n*m) memory.  Long texts are therefore first cut into sentences at
sentence-ending punctuation and line ends (content-defined boundaries: an insertion near the
start does not shift later boundaries), the sentence sequences are aligned (rapidfuzz ``Indel``
opcodes over one symbol per distinct sentence), and only the changed blocks are compared
character by character.  The distance found this way is an upper bound of the true Levenshtein
distance and equals it when the changes stay inside aligned sentences, as in near duplicates.
"""

from __future__ import annotations

import re
import zlib
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz.distance import Indel, Levenshtein
from rapidfuzz.process import cdist

#: Texts up to this many characters get the exact Levenshtein distance.
EXACT_LIMIT = 100_000
#: A changed block larger than this (product of lengths, characters^2) is not compared
#: character by character: its distance is bounded by max(len) instead.
BLOCK_LIMIT = 4_000_000_000

#: From this product of the two lengths (characters^2, about 3 ms of work) on, a distance is
#: computed with the GIL released (see :func:`plain_distance`).
GIL_FREE_MIN_PRODUCT = 10_000_000

#: Largest alignment (items of a x items of b) that :func:`align_bounded` gives to one rapidfuzz
#: ``opcodes`` call.  That call holds the GIL throughout, 0.2-0.45 ns per cell (measured): 50
#: million cells keep every other Python thread, the window's GUI thread too, waiting 10-25 ms.
MAX_ALIGN_CELLS = 50_000_000

_SENTENCE_END = re.compile(r"(?<=[.!?。！？;；])\s*|\n")


@dataclass(frozen=True)
class Opcode:
    """One step of an alignment of two sequences (as difflib's opcodes).

    Attributes:
        tag: ``"equal"``, ``"replace"``, ``"delete"`` (only in a) or ``"insert"`` (only in b).
        a_start, a_end: the range in sequence a (end exclusive).
        b_start, b_end: the range in sequence b.
    """

    tag: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int


def split_sentences(text: str) -> list[str]:
    """Cut a text into units ending at sentence punctuation or a line end; joining them gives
    the text back exactly.

    Example:
        >>> split_sentences("One. Two!\\n三。四")
        ['One. ', 'Two!\\n', '三。', '四']
    """
    units, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if end > start:
            units.append(text[start:end])
            start = end
    if start < len(text):
        units.append(text[start:])
    return units


#: A sentence longer than this (characters) is cut further at content-defined word boundaries
#: (:func:`split_units`): lists, tables and text without punctuation have no sentence ends.
LONG_UNIT = 2_000
#: A word ends a unit when its CRC-32 is divisible by this: units of about this many words.
_WORDS_PER_UNIT = 64
_WORD = re.compile(r"\S+\s*")


def split_units(text: str) -> list[str]:
    """:func:`split_sentences`, with every unit longer than :data:`LONG_UNIT` characters cut
    after words whose CRC-32 is divisible by 64 (content-defined, as in chunking: an edit moves
    no boundary beyond its own words); joining them gives the text back exactly.

    Without this, two long lists one item apart, with no sentence punctuation, are one unit
    each, too large to compare character by character (:data:`BLOCK_LIMIT`).
    """
    units = []
    for unit in split_sentences(text):
        if len(unit) <= LONG_UNIT:
            units.append(unit)
            continue
        start = 0
        for match in _WORD.finditer(unit):
            if zlib.crc32(match.group().rstrip().encode("utf-8", "surrogatepass")) % _WORDS_PER_UNIT == 0:
                units.append(unit[start : match.end()])
                start = match.end()
        if start < len(unit):
            units.append(unit[start:])
    return units


def symbolize(a: Sequence, b: Sequence) -> tuple[str, str]:
    """Map two sequences of hashable items to strings of one symbol per distinct item, so that
    rapidfuzz's string algorithms can align them."""
    table: dict = {}

    def sym(item) -> str:
        code = table.get(item)
        if code is None:
            code = table[item] = len(table)
        # Skip the surrogate range, which is not a valid code point in a Python str for rapidfuzz.
        return chr(code + 0x800 if code + 0x800 < 0xD800 else code + 0x800 + 0x800)

    return "".join(sym(x) for x in a), "".join(sym(x) for x in b)


def align(a: Sequence, b: Sequence) -> list[Opcode]:
    """Align two sequences of hashable items (longest common subsequence, rapidfuzz ``Indel``).

    Returns:
        Opcodes covering both sequences in order; the steps between two ``equal`` runs are
        merged into one ``replace`` (or ``delete``/``insert`` when one side is empty).
    """
    sa, sb = symbolize(a, b)
    merged: list[Opcode] = []
    for op in Indel.opcodes(sa, sb):
        # rapidfuzz types a tuple-unpacked Opcode as str | int; the named fields are typed
        tag, a0, a1, b0, b1 = op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end
        if tag != "equal" and merged and merged[-1].tag != "equal":
            prev = merged.pop()
            a0, b0 = prev.a_start, prev.b_start
        if tag != "equal":
            tag = "replace" if a1 > a0 and b1 > b0 else ("delete" if a1 > a0 else "insert")
        merged.append(Opcode(tag, a0, a1, b0, b1))
    return merged


def align_bounded(a: Sequence, b: Sequence, max_cells: int = MAX_ALIGN_CELLS) -> list[Opcode]:
    """:func:`align`, with no rapidfuzz call over ``max_cells`` cells, so that the caller's
    thread never holds the GIL for long (rapidfuzz computes an alignment in one call that holds
    it: two texts of 150,000 sentences kept the window's GUI thread waiting 5-10 s).

    Up to ``max_cells`` (``len(a) * len(b)``) the result is :func:`align`'s.  A larger
    alignment is cut as in patience diff (Bram Cohen; as in ``git diff --patience``): the
    common prefix and suffix are kept, the items that occur exactly once in each side are
    anchors, and the longest run of anchors in the same order on both sides is kept; each
    piece between two anchors is aligned the same way.  A piece still too large with no anchor
    in it is one changed block (``replace``, or ``delete``/``insert`` when one side is empty).

    Args:
        a, b: sequences of hashable items (sentences, tokens).
        max_cells: the largest alignment given to rapidfuzz at once (items x items).

    Returns:
        Opcodes covering both sequences in order, steps between two ``equal`` runs merged as
        in :func:`align` (list[Opcode]).
    """
    if len(a) * len(b) <= max_cells:
        return align(a, b)
    steps: list[Opcode] = []
    todo: list[Opcode | tuple[int, int, int, int]] = [(0, len(a), 0, len(b))]
    while todo:  # a stack of pieces still to align and steps found, popped in text order
        item = todo.pop()
        if isinstance(item, Opcode):
            steps.append(item)
            continue
        a0, a1, b0, b1 = item
        if (a1 - a0) * (b1 - b0) <= max_cells:
            steps += [Opcode(op.tag, op.a_start + a0, op.a_end + a0, op.b_start + b0, op.b_end + b0)
                      for op in align(a[a0:a1], b[b0:b1])]  # fmt: skip
            continue
        head = 0  # the common prefix and suffix are kept (patience diff does the same)
        while a0 + head < a1 and b0 + head < b1 and a[a0 + head] == b[b0 + head]:
            head += 1
        tail = 0
        while a1 - tail > a0 + head and b1 - tail > b0 + head and a[a1 - tail - 1] == b[b1 - tail - 1]:
            tail += 1
        if head or tail:
            todo += [Opcode("equal", a1 - tail, a1, b1 - tail, b1), (a0 + head, a1 - tail, b0 + head, b1 - tail),
                     Opcode("equal", a0, a0 + head, b0, b0 + head)]  # fmt: skip
            continue
        anchors = _anchors(a, a0, a1, b, b0, b1)
        if not anchors:  # nothing to cut at: one changed block
            steps.append(Opcode("replace", a0, a1, b0, b1))
            continue
        pieces: list[Opcode | tuple[int, int, int, int]] = []
        pa, pb = a0, b0
        for i, j in anchors:
            pieces += [(pa, i, pb, j), Opcode("equal", i, i + 1, j, j + 1)]
            pa, pb = i + 1, j + 1
        pieces.append((pa, a1, pb, b1))
        todo += reversed(pieces)
    return _merged(steps)


def _anchors(a: Sequence, a0: int, a1: int, b: Sequence, b0: int, b1: int) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)`` of items found exactly once in ``a[a0:a1]`` and once in
    ``b[b0:b1]``, the longest subset increasing on both sides (patience diff's anchors)."""
    count_a, count_b = Counter(a[a0:a1]), Counter(b[b0:b1])
    where_b = {b[j]: j for j in range(b0, b1) if count_b[b[j]] == 1 and count_a[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(a0, a1) if a[i] in where_b]
    # Longest increasing subsequence of the j's (patience sorting, O(k log k)).
    tails: list[int] = []  # tails[k]: index into pairs of the run of length k + 1 with the lowest end
    tail_js: list[int] = []
    back = [-1] * len(pairs)
    for index, (_i, j) in enumerate(pairs):
        k = bisect_left(tail_js, j)
        if k:
            back[index] = tails[k - 1]
        if k == len(tails):
            tails.append(index)
            tail_js.append(j)
        else:
            tails[k], tail_js[k] = index, j
    out = []
    index = tails[-1] if tails else -1
    while index >= 0:
        out.append(pairs[index])
        index = back[index]
    return out[::-1]


def _merged(steps: list[Opcode]) -> list[Opcode]:
    """Consecutive equal steps as one, consecutive other steps as one, named as :func:`align`
    names them; empty steps dropped."""
    out: list[Opcode] = []
    for op in steps:
        if op.a_start == op.a_end and op.b_start == op.b_end:
            continue
        if out and (out[-1].tag == "equal") == (op.tag == "equal"):
            prev = out.pop()
            op = Opcode(op.tag, prev.a_start, op.a_end, prev.b_start, op.b_end)
        if op.tag != "equal":
            a_len, b_len = op.a_end - op.a_start, op.b_end - op.b_start
            tag = "replace" if a_len and b_len else ("delete" if a_len else "insert")
            op = Opcode(tag, op.a_start, op.a_end, op.b_start, op.b_end)
        out.append(op)
    return out


def plain_distance(a: str, b: str) -> int:
    """The exact Levenshtein distance of two strings (characters, int), as
    ``rapidfuzz.distance.Levenshtein.distance``.

    Large comparisons (:data:`GIL_FREE_MIN_PRODUCT`) go through ``rapidfuzz.process.cdist``,
    which computes with the GIL released: ``Levenshtein.distance`` holds it for the whole call
    (most of a second for two 50,000-character texts), and the window's GUI thread, which needs
    the GIL for every Python slot, would freeze meanwhile when a scan runs in its process.
    """
    if len(a) * len(b) < GIL_FREE_MIN_PRODUCT:
        return int(Levenshtein.distance(a, b))
    return int(cdist([a], [b], scorer=Levenshtein.distance, dtype=np.int64, workers=1)[0, 0])


def levenshtein_distance(a: str, b: str) -> int:
    """Levenshtein distance of two texts (characters); exact up to :data:`EXACT_LIMIT`
    characters, sentence-aligned (an upper bound, see the module doc) beyond."""
    if max(len(a), len(b)) <= EXACT_LIMIT:
        return plain_distance(a, b)
    ua, ub = split_units(a), split_units(b)
    distance = 0
    for op in align(ua, ub):
        if op.tag == "equal":
            continue
        block_a = "".join(ua[op.a_start : op.a_end])
        block_b = "".join(ub[op.b_start : op.b_end])
        if len(block_a) * len(block_b) > BLOCK_LIMIT:
            distance += max(len(block_a), len(block_b))
        else:
            distance += plain_distance(block_a, block_b)
    return distance


def levenshtein_similarity(a: str, b: str) -> float:
    """Normalized Levenshtein similarity ``1 - distance / max(len(a), len(b))`` in [0, 1]
    (1.0 for two empty texts), with :func:`levenshtein_distance`."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - levenshtein_distance(a, b) / longest
