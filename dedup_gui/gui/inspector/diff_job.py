"""What the text diff view's background job hands the GUI thread: each pane's change ranges in
Qt positions (:class:`~.pane_text.QtPositions`) and the overview strips' marks, computed off the
GUI thread so that it only sets them.  Nothing here touches Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dedup_gui.core.text.diff import DiffChunk, TextDiff
from dedup_gui.core.views.diff_overview import OverviewMark
from dedup_gui.gui.inspector.pane_text import QtPositions

#: The highlight tags, by their code in :class:`Highlights`.
HIGHLIGHT_TAGS = ("replace", "delete", "insert")


@dataclass(frozen=True)
class Highlights:
    """One pane's change ranges in pane positions, in order (computed off the GUI thread).

    Attributes:
        starts, ends: pane positions of each range (numpy int64 arrays, ascending).
        tags: each range's tag as an index into ``("replace", "delete", "insert")`` (numpy array).
        gaps: pane positions where the other text has words this one lacks (list[int], ascending).
    """

    starts: np.ndarray
    ends: np.ndarray
    tags: np.ndarray
    gaps: list[int]


def pane_highlights(changes: list[DiffChunk], side: str, positions: QtPositions) -> Highlights:
    """The highlights of ``changes`` on side ``"a"`` (left) or ``"b"`` (right) of a diff.

    Args:
        changes: the diff's changes, in order.
        side: ``"a"`` or ``"b"``.
        positions: the pane's :class:`QtPositions`.

    Returns:
        The :class:`Highlights` (ranges empty on this side are left out; they are gaps when the
        other side inserted or deleted them).
    """
    left = side == "a"
    spans = [(c.a_start, c.a_end, c.tag) if left else (c.b_start, c.b_end, c.tag) for c in changes]
    kept = [(s, e, HIGHLIGHT_TAGS.index(t)) for s, e, t in spans if e > s]
    other = "insert" if left else "delete"
    gap_offsets = np.array([s for s, _e, t in spans if t == other], np.int64)
    arr = np.array(kept, np.int64).reshape(-1, 3)
    return Highlights(positions.many(arr[:, 0]), positions.many(arr[:, 1]), arr[:, 2],
                      positions.many(gap_offsets).tolist())  # fmt: skip


@dataclass(frozen=True)
class ShownDiff:
    """A diff with both panes' highlights and overview marks: the outcome of the background job."""

    diff: TextDiff
    changes: list[DiffChunk]
    left: Highlights
    right: Highlights
    left_marks: list[OverviewMark]
    right_marks: list[OverviewMark]
