"""Short side-by-side excerpts of a text diff, for reports: a few changed spots with context.

A report cannot show two whole main texts per pair; it shows where they differ.  The diff comes
from :func:`dedup_gui.core.text.diff.text_diff` (by word; by character in CJK text).  Changes closer
than twice the context are shown as one spot; long runs are shortened in the middle.  The
segments are plain text: renderers escape them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dedup_gui.core.text.diff import DiffChunk, text_diff

#: Characters of unchanged text shown on each side of a changed spot.
CONTEXT = 40
#: Changed spots shown per pair.
MAX_SPOTS = 3
#: A changed or unchanged run longer than this is shortened in the middle (characters).
MAX_RUN = 160
#: Characters of one side of a spot, at most (changed and unchanged runs together, about).
MAX_SPOT = 400
#: Shared runs of at most this many characters between two changes are shown as changed.
ABSORB = 8

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Segment:
    """A run of excerpt text.

    Attributes:
        text: the text, whitespace collapsed to single spaces (plain, unescaped).
        changed: ``True`` for text that differs between the two pages.
    """

    text: str
    changed: bool


@dataclass(frozen=True)
class Spot:
    """One changed place, as seen in each text.

    Attributes:
        a: the segments of the left text (changed runs are deletions or replaced text).
        b: the segments of the right text (changed runs are insertions or replacing text).
    """

    a: tuple[Segment, ...]
    b: tuple[Segment, ...]


@dataclass(frozen=True)
class DiffExcerpt:
    """A short summary of how two main texts differ.

    Attributes:
        spots: up to ``max_spots`` changed places, in text order.
        total_spots: how many changed places there are in all.
        shared_a: share of the left text's characters that are unchanged, in [0, 1].
        shared_b: the same for the right text.
        identical: ``True`` when both texts are the same (then ``spots`` is empty).
        notes: remarks from the diff (e.g. a block too large to align word by word).
    """

    spots: tuple[Spot, ...]
    total_spots: int
    shared_a: float
    shared_b: float
    identical: bool
    notes: tuple[str, ...] = ()


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text)


def _shorten(text: str, limit: int = MAX_RUN) -> str:
    text = _clean(text)
    if len(text) <= limit:
        return text
    half = limit // 2
    head, tail = text[:half], text[-half:]
    # Cut at word boundaries where one is near (CJK text has none, and is cut anywhere).
    cut = head.rfind(" ")
    if cut > half - 20:
        head = head[:cut]
    cut = tail.find(" ")
    if 0 <= cut < 20:
        tail = tail[cut + 1 :]
    return f"{head.rstrip()} … {tail.lstrip()}"


def _lead(text: str, n: int) -> str:
    """The last ``n`` characters of ``text``, cut at a word start when one is near."""
    text = _clean(text)
    if len(text) <= n:
        return text
    piece = text[-n:]
    space = piece.find(" ")
    if 0 <= space < n // 2:
        piece = piece[space + 1 :]
    return "…" + piece


def _tail(text: str, n: int) -> str:
    """The first ``n`` characters of ``text``, cut at a word end when one is near."""
    text = _clean(text)
    if len(text) <= n:
        return text
    piece = text[:n]
    space = piece.rfind(" ")
    if space > n // 2:
        piece = piece[:space]
    return piece + "…"


def _side(text: str, chunks: list[DiffChunk], side: str) -> tuple[Segment, ...]:
    """The segments of one side of a group of chunks (changes and the short equal runs between)."""
    raw: list[Segment] = []
    for c in chunks:
        start, end = (c.a_start, c.a_end) if side == "a" else (c.b_start, c.b_end)
        if start < end:
            raw.append(Segment(_clean(text[start:end]), c.tag != "equal"))
    raw = list(_merge(raw))
    # A word-level diff of a rewritten sentence alternates changed words with shared "the", ","
    # or spaces; shown as is it reads as noise, so short shared runs between changes are
    # absorbed into one changed run (as diff tools' semantic clean-up does).
    out: list[Segment] = []
    for i, seg in enumerate(raw):
        inner = 0 < i < len(raw) - 1
        if not seg.changed and inner and len(seg.text.strip()) <= ABSORB:
            seg = Segment(seg.text, True)
        out.append(seg)
    segs = [Segment(_shorten(s.text), s.changed) for s in _merge(out)]
    # Cap the whole spot, so one long rewritten passage cannot fill the report.
    capped: list[Segment] = []
    used = 0
    for seg in segs:
        if used + len(seg.text) > MAX_SPOT:
            room = max(0, MAX_SPOT - used)
            if room > 20:
                capped.append(Segment(seg.text[:room].rstrip() + "…", seg.changed))
            else:
                capped.append(Segment(" …", False))
            break
        capped.append(seg)
        used += len(seg.text)
    return tuple(capped)


def _meaningful(c: DiffChunk, a: str, b: str) -> bool:
    """A change that is more than whitespace on at least one side."""
    return bool(a[c.a_start : c.a_end].strip() or b[c.b_start : c.b_end].strip())


def diff_excerpt(a: str, b: str, context: int = CONTEXT, max_spots: int = MAX_SPOTS) -> DiffExcerpt:
    """Excerpts of the places where two texts differ.

    Args:
        a: the left text (e.g. a page's main text).
        b: the right text.
        context: unchanged characters shown before and after each spot.
        max_spots: most spots returned (``total_spots`` counts them all).

    Returns:
        The :class:`DiffExcerpt`.

    Example:
        >>> ex = diff_excerpt("the quick brown fox", "the quick red fox")
        >>> [(s.text, s.changed) for s in ex.spots[0].a]
        [('the quick ', False), ('brown', True), (' fox', False)]
    """
    if a == b:
        return DiffExcerpt((), 0, 1.0, 1.0, True)
    diff = text_diff(a, b)
    chunks = diff.chunks
    changed = [i for i, c in enumerate(chunks) if c.tag != "equal" and _meaningful(c, a, b)]
    if not changed:  # only whitespace differs
        return DiffExcerpt((), 0, diff.shared_a, diff.shared_b, True, diff.notes)
    # Group changes separated by short equal runs into one spot.
    groups: list[list[int]] = [[changed[0]]]
    for i in changed[1:]:
        between = chunks[groups[-1][-1] + 1 : i]
        gap = sum(c.a_end - c.a_start for c in between if c.tag == "equal")
        if gap <= 2 * context:
            groups[-1].append(i)
        else:
            groups.append([i])
    spots = []
    for group in groups[:max_spots]:
        first, last = group[0], group[-1]
        body = chunks[first : last + 1]
        before = chunks[first - 1] if first > 0 and chunks[first - 1].tag == "equal" else None
        after = chunks[last + 1] if last + 1 < len(chunks) and chunks[last + 1].tag == "equal" else None
        sides = []
        for side, text in (("a", a), ("b", b)):
            segs = list(_side(text, body, side))
            if before is not None:
                start, end = (before.a_start, before.a_end) if side == "a" else (before.b_start, before.b_end)
                lead = _lead(text[start:end], context)
                if lead:
                    segs.insert(0, Segment(lead, False))
            if after is not None:
                start, end = (after.a_start, after.a_end) if side == "a" else (after.b_start, after.b_end)
                tail = _tail(text[start:end], context)
                if tail:
                    segs.append(Segment(tail, False))
            sides.append(_merge(segs))
        spots.append(Spot(sides[0], sides[1]))
    return DiffExcerpt(tuple(spots), len(groups), diff.shared_a, diff.shared_b, False, diff.notes)


def _merge(segs: list[Segment]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for s in segs:
        if not s.text:
            continue
        if out and out[-1].changed == s.changed:
            out[-1] = Segment(out[-1].text + s.text, s.changed)
        else:
            out.append(s)
    return tuple(out)
