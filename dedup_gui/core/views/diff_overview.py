"""The overview strip of a side-by-side text diff: where the changes are, as fractions of each text.

Diff viewers such as Meld draw, beside each pane's scrollbar, a strip with a coloured mark for
every changed region at its place in the whole document, so that one sees at a glance where the
changes are and can click to go there.  This module computes those marks (without Qt): each
change of a :class:`~dedup_gui.core.text.diff.TextDiff` becomes a mark from the fraction of the
text where it starts to the fraction where it ends (characters; a change absent from one side,
an insertion seen from the left, is a mark of no extent at the place the other text has it).
Marks of one kind closer than one part in ``resolution`` are merged, so a text with 100,000
changes still gives at most ``resolution`` marks per kind, computed in a few vectorised numpy
passes (cheap for the GUI thread's painter and for the background thread that computes them).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from dedup_gui.core.text.diff import DiffChunk

#: The kinds of change, in the order their codes are given (as :class:`DiffChunk` tags).
KINDS = ("replace", "delete", "insert")
#: Marks per kind at most: finer than any strip's height in pixels.
OVERVIEW_RESOLUTION = 2_000


@dataclass(frozen=True)
class OverviewMark:
    """One coloured mark on a diff's overview strip.

    Attributes:
        kind: ``"replace"``, ``"delete"`` or ``"insert"`` (the changes' tag; one colour each).
        start, end: where the marked region starts and ends, as fractions of the side's text
            length in characters, in [0, 1] (``start == end``: the side lacks the change's text).
        change: index in ``TextDiff.changes()`` of the first change the mark covers.
        count: how many changes the mark covers (more than 1 when close changes were merged).
    """

    kind: str
    start: float
    end: float
    change: int
    count: int = 1


def overview_marks(
    changes: list[DiffChunk], side: str, length: int, resolution: int = OVERVIEW_RESOLUTION
) -> list[OverviewMark]:
    """The overview marks of one side of a diff.

    Args:
        changes: the diff's changes in order (``TextDiff.changes()``: no ``"equal"`` chunk).
        side: ``"a"`` (the left text) or ``"b"`` (the right text).
        length: the length of that side's text (characters); 0 gives no marks.
        resolution: changes of one kind whose gap is under ``1 / resolution`` of the text are
            merged into one mark.

    Returns:
        The marks (list[OverviewMark]), ordered by start, then by kind in :data:`KINDS` order.

    Raises:
        ValueError: ``side`` is not ``"a"`` or ``"b"``, or ``resolution`` < 1.

    Example:
        >>> from dedup_gui.core.text.diff import text_diff
        >>> d = text_diff("one two three four", "one 2 three four")
        >>> overview_marks(d.changes(), "a", len(d.a))
        [OverviewMark(kind='replace', start=0.2222222222222222, end=0.3888888888888889, change=0, count=1)]
    """
    if side not in ("a", "b"):
        raise ValueError(f"side must be 'a' or 'b', not {side!r}")
    if resolution < 1:
        raise ValueError(f"resolution must be at least 1, not {resolution}")
    if length <= 0 or not changes:
        return []
    spans = np.array(
        [(c.a_start, c.a_end) if side == "a" else (c.b_start, c.b_end) for c in changes], np.float64
    ).reshape(-1, 2)
    kinds = np.array([KINDS.index(c.tag) for c in changes], np.int64)
    fractions = np.clip(spans / length, 0.0, 1.0)
    marks: list[tuple[float, int, OverviewMark]] = []
    for code, kind in enumerate(KINDS):
        index = np.flatnonzero(kinds == code)
        if not len(index):
            continue
        starts, ends = fractions[index, 0], fractions[index, 1]
        # a new mark begins where the gap to the previous change of this kind is large enough
        first = np.flatnonzero(np.r_[True, starts[1:] - ends[:-1] >= 1.0 / resolution])
        last = np.r_[first[1:], len(index)] - 1
        ends_so_far = np.maximum.accumulate(ends)
        for f, z in zip(first.tolist(), last.tolist()):
            mark = OverviewMark(kind, float(starts[f]), float(ends_so_far[z]), int(index[f]), z - f + 1)
            marks.append((mark.start, code, mark))
    marks.sort(key=lambda m: (m[0], m[1]))
    return [m for *_, m in marks]


def overview_place(chunks: list[DiffChunk], side: str, fraction: float, length: int) -> tuple[int, int, int]:
    """Where a click at ``fraction`` of one side's overview strip takes both texts.

    Args:
        chunks: all the diff's chunks in order (``TextDiff.chunks``, equal runs included).
        side: ``"a"`` or ``"b"``: the side whose strip was clicked.
        fraction: the place clicked, as a fraction of that side's text length (clipped to [0, 1]).
        length: that side's text length (characters).

    Returns:
        ``(a_offset, b_offset, change)``: the character offset in each text (inside an equal run
        the other text's offset is the same distance into its copy of the run; inside a change,
        the start of the change on the other side), and the index in ``TextDiff.changes()`` of
        the last change starting at or before the place (-1: none).

    Raises:
        ValueError: ``side`` is not ``"a"`` or ``"b"``.
    """
    if side not in ("a", "b"):
        raise ValueError(f"side must be 'a' or 'b', not {side!r}")
    offset = round(min(max(fraction, 0.0), 1.0) * max(length, 0))
    if not chunks:
        return (offset, 0, -1) if side == "a" else (0, offset, -1)
    starts = [c.a_start if side == "a" else c.b_start for c in chunks]
    k = max(bisect_right(starts, offset) - 1, 0)
    chunk = chunks[k]
    here, there = (chunk.a_start, chunk.b_start) if side == "a" else (chunk.b_start, chunk.a_start)
    other = there + (offset - here) if chunk.tag == "equal" else there
    change = sum(1 for c in chunks[: k + 1] if c.tag != "equal") - 1
    return (offset, other, change) if side == "a" else (other, offset, change)
