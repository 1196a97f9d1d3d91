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
    for tag, a0, a1, b0, b1 in Indel.opcodes(sa, sb):
        if tag != "equal" and merged and merged[-1].tag != "equal":
            prev = merged.pop()
            a0, b0 = prev.a_start, prev.b_start
        if tag != "equal":
            tag = "replace" if a1 > a0 and b1 > b0 else ("delete" if a1 > a0 else "insert")
        merged.append(Opcode(tag, a0, a1, b0, b1))
    return merged


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
