"""Side-by-side text diff of two main texts, by word (by character in CJK text).

Two levels, as diff viewers such as Meld do: the texts are aligned sentence by sentence
(:func:`dedup_gui.core.text.align.align`), then each changed block is aligned token by token (words,
single CJK characters, punctuation, whitespace).  Each level is a longest-common-subsequence
alignment computed by rapidfuzz; a changed block too large for the token level is marked changed
whole, with a note, so two 300,000-character pages never stall the caller.  The sentence level
goes through :func:`~dedup_gui.core.text.align.align_bounded`, so that no rapidfuzz call (which holds
the GIL) is large enough to keep other threads, such as the window's GUI thread, waiting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dedup_gui.core.text.align import align, align_bounded, split_sentences
from dedup_gui.core.text.tokens import CJK_RANGES

#: Largest token-level block (tokens of a x tokens of b) aligned word by word (one rapidfuzz call
#: of at most about 10 ms, holding the GIL).
TOKEN_BLOCK_LIMIT = 25_000_000

#: Texts longer than this (characters) are tokenized one match at a time: ``findall`` over 1.6
#: million CJK characters holds the GIL for 0.15-0.3 s, one match at a time lets other threads in.
TOKENIZE_AT_ONCE = 100_000

_DIFF_TOKENS = re.compile(f"[{CJK_RANGES}]|[^\\W{CJK_RANGES}]+|\\s+|[^\\w\\s]", re.UNICODE)


@dataclass(frozen=True)
class DiffChunk:
    """A run of text that is equal in both texts or changed.

    Attributes:
        tag: ``"equal"``, ``"replace"``, ``"delete"`` (only in a) or ``"insert"`` (only in b).
        a_start, a_end: character offsets of the run in text a (end exclusive; empty for insert).
        b_start, b_end: character offsets in text b (empty for delete).
    """

    tag: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int


@dataclass(frozen=True)
class TextDiff:
    """A diff of two texts.

    Attributes:
        a, b: the two texts.
        chunks: runs covering both texts in order (adjacent runs of the same tag merged).
        shared_a: share of a's non-space characters inside equal runs, in [0, 1].
        shared_b: share of b's non-space characters inside equal runs, in [0, 1].
        notes: remarks, e.g. that a block was too large for word-level alignment.
    """

    a: str
    b: str
    chunks: list[DiffChunk]
    shared_a: float
    shared_b: float
    notes: tuple[str, ...] = ()

    def changes(self) -> list[DiffChunk]:
        """The chunks that are not equal, in order (for next/previous change)."""
        return [c for c in self.chunks if c.tag != "equal"]

    def changed_words(self, side: str = "a") -> list[str]:
        """The changed text runs of side ``"a"`` or ``"b"``, stripped, non-empty (list[str])."""
        text = self.a if side == "a" else self.b
        out = []
        for c in self.changes():
            start, end = (c.a_start, c.a_end) if side == "a" else (c.b_start, c.b_end)
            piece = text[start:end].strip()
            if piece:
                out.append(piece)
        return out


def diff_tokens(text: str) -> list[str]:
    """Tokens of a text for diffing; joining them gives the text back exactly.

    Example:
        >>> diff_tokens("Hi, 你好 all")
        ['Hi', ',', ' ', '你', '好', ' ', 'all']
    """
    if len(text) <= TOKENIZE_AT_ONCE:
        tokens = _DIFF_TOKENS.findall(text)
    else:
        tokens = [m.group() for m in _DIFF_TOKENS.finditer(text)]
    if sum(map(len, tokens)) != len(text):  # characters the pattern missed (e.g. "_")
        tokens, pos = [], 0
        for m in _DIFF_TOKENS.finditer(text):
            if m.start() > pos:
                tokens.append(text[pos : m.start()])
            tokens.append(m.group())
            pos = m.end()
        if pos < len(text):
            tokens.append(text[pos:])
    return tokens


def _offsets(units: list[str]) -> list[int]:
    out = [0]
    for u in units:
        out.append(out[-1] + len(u))
    return out


def text_diff(a: str, b: str) -> TextDiff:
    """Diff two texts by word (CJK: by character).

    Args:
        a, b: the texts (e.g. two pages' main texts).

    Returns:
        The :class:`TextDiff`.
    """
    chunks: list[DiffChunk] = []
    notes: list[str] = []
    sa, sb = split_sentences(a), split_sentences(b)
    oa, ob = _offsets(sa), _offsets(sb)
    for op in align_bounded(sa, sb):
        a0, a1, b0, b1 = oa[op.a_start], oa[op.a_end], ob[op.b_start], ob[op.b_end]
        if op.tag != "replace":
            _add(chunks, DiffChunk(op.tag, a0, a1, b0, b1))
            continue
        ta, tb = diff_tokens(a[a0:a1]), diff_tokens(b[b0:b1])
        if len(ta) * len(tb) > TOKEN_BLOCK_LIMIT:
            notes.append(
                f"a changed block of {a1 - a0:,} / {b1 - b0:,} characters is marked changed whole "
                "(too large to align word by word)"
            )
            _add(chunks, DiffChunk("replace", a0, a1, b0, b1))
            continue
        ta_off, tb_off = _offsets(ta), _offsets(tb)
        block = [
            DiffChunk(
                sub.tag,
                a0 + ta_off[sub.a_start],
                a0 + ta_off[sub.a_end],
                b0 + tb_off[sub.b_start],
                b0 + tb_off[sub.b_end],
            )
            for sub in align(ta, tb)
        ]
        for chunk in semantic_cleanup(block, a, b):
            _add(chunks, chunk)
    return TextDiff(a, b, chunks, _shared(a, chunks, "a"), _shared(b, chunks, "b"), tuple(notes))


def _weight(chunk: DiffChunk, a: str, b: str) -> int:
    """Non-space characters of a chunk, on its longer side."""
    return max(
        sum(not c.isspace() for c in a[chunk.a_start : chunk.a_end]),
        sum(not c.isspace() for c in b[chunk.b_start : chunk.b_end]),
    )


def semantic_cleanup(chunks: list[DiffChunk], a: str, b: str) -> list[DiffChunk]:
    """Fold short equal runs between larger changes into one change.

    Two unrelated sentences share scattered words and, in Chinese, common single characters
    (的, 是, 在): marked equal, they break a changed sentence into confetti that hides what
    changed.  As in diff-match-patch's ``diff_cleanupSemantic`` (Neil Fraser), an equal run that
    is no longer (in non-space characters) than the changes on both sides of it becomes part of
    one ``replace`` with them (never across a line break); this repeats until nothing folds.

    Args:
        chunks: consecutive chunks of one changed block (offsets into ``a`` and ``b``).
        a, b: the texts the offsets point into.

    Returns:
        The chunks with such runs folded (list[DiffChunk], covering the same text).

    Example:
        >>> a, b = "the cat sat on a mat", "one dog ran on the road"
        >>> [c.tag for c in semantic_cleanup(text_diff(a, b).chunks, a, b)]
        ['replace']
    """
    out = list(chunks)
    changed = True
    while changed:
        changed = False
        for k in range(1, len(out) - 1):
            before, mid, after = out[k - 1], out[k], out[k + 1]
            if mid.tag != "equal" or before.tag == "equal" or after.tag == "equal":
                continue
            if "\n" in a[mid.a_start : mid.a_end]:  # a paragraph break keeps changes apart
                continue
            weight = _weight(mid, a, b)
            if weight <= _weight(before, a, b) and weight <= _weight(after, a, b):
                merged = DiffChunk("replace", before.a_start, after.a_end, before.b_start, after.b_end)
                out[k - 1 : k + 2] = [merged]
                changed = True
                break
        # Neighbouring changes (after a fold) become one replace.
        k = 0
        while k < len(out) - 1:
            x, y = out[k], out[k + 1]
            if x.tag != "equal" and y.tag != "equal" and (x.tag != y.tag or x.tag == "replace"):
                out[k : k + 2] = [DiffChunk("replace", x.a_start, y.a_end, x.b_start, y.b_end)]
                changed = True
            else:
                k += 1
    return out


def _add(chunks: list[DiffChunk], chunk: DiffChunk) -> None:
    if chunk.a_start == chunk.a_end and chunk.b_start == chunk.b_end:
        return
    if chunks and chunks[-1].tag == chunk.tag == "equal":
        prev = chunks.pop()
        chunk = DiffChunk("equal", prev.a_start, chunk.a_end, prev.b_start, chunk.b_end)
    chunks.append(chunk)


def _shared(text: str, chunks: list[DiffChunk], side: str) -> float:
    total = sum(1 for c in text if not c.isspace())
    if total == 0:
        return 1.0
    same = 0
    for c in chunks:
        if c.tag == "equal":
            start, end = (c.a_start, c.a_end) if side == "a" else (c.b_start, c.b_end)
            same += sum(1 for ch in text[start:end] if not ch.isspace())
    return same / total
