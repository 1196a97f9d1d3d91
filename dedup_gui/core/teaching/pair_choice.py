"""Which pair the teaching window opens on: an instructive one, not two identical texts."""

from __future__ import annotations

from dedup_gui.core.model import DupType, Pair, ScanResult

#: Types to open on, preferred first: texts that differ yet are duplicates.
_PREFERRED = (DupType.CONTENT, DupType.PARTIAL, DupType.FULL, DupType.LAYOUT)


def identical_texts(result: ScanResult, left: str, right: str) -> bool:
    """``True`` when the pages with these paths have the same main text (a pair that shows
    Jaccard 1.000 and Hamming 0 bits: nothing to teach) (bool; ``False`` for unknown paths)."""
    pages = {p.path: p for p in result.pages}
    a, b = pages.get(left), pages.get(right)
    return a is not None and b is not None and a.main_text == b.main_text


def instructive_pair(result: ScanResult) -> Pair | None:
    """The scan's first (most similar) duplicate pair whose texts differ and whose SimHashes
    are 0 < Hamming distance apart, a content duplicate first, then partial, full and layout
    (the teacher's example: the scan's top pair was two identical texts, 423/423 = 1.000).

    Args:
        result: a finished scan (pairs sorted most similar first).

    Returns:
        The pair, or ``None`` where no duplicate pair has differing texts (Pair | None).
    """
    for wanted in _PREFERRED:
        for pair in result.pairs:
            if pair.type is not wanted or pair.scores.hamming_distance == 0:
                continue
            a, b = result.pages[pair.left], result.pages[pair.right]
            if a.has_text and b.has_text and a.main_text != b.main_text:
                return pair
    return None


def describe_pair(result: ScanResult, pair: Pair) -> str:
    """The pair in words for the window's status line, e.g. ``"a/x.html and b/y.html: a
    content duplicate, Hamming 5 bits"`` (str)."""
    a, b = result.pages[pair.left].path, result.pages[pair.right].path
    d = pair.scores.hamming_distance
    return f"{a} and {b}: a {pair.type.value} duplicate, Hamming {d} bit{'s' if d != 1 else ''}"
