"""The text diff's overview strip marks (core/views/diff_overview.py): exact fractions per side,
one kind per change type, close changes merged, and where a click takes both texts."""

from __future__ import annotations

import time

import pytest

from dedup_gui.core.text.diff import DiffChunk, text_diff
from dedup_gui.core.views.diff_overview import OverviewMark, overview_marks, overview_place

#: A hand-made diff of a 100-character text a and a 90-character text b: a replace, a deletion
#: (text only in a) and an insertion (text only in b), with equal runs between.
CHUNKS = [
    DiffChunk("equal", 0, 20, 0, 20),
    DiffChunk("replace", 20, 30, 20, 25),
    DiffChunk("equal", 30, 50, 25, 45),
    DiffChunk("delete", 50, 60, 45, 45),
    DiffChunk("equal", 60, 90, 45, 75),
    DiffChunk("insert", 90, 90, 75, 80),
    DiffChunk("equal", 90, 100, 80, 90),
]
CHANGES = [c for c in CHUNKS if c.tag != "equal"]


def test_marks_are_the_changes_fractions_of_each_side():
    # left (100 characters): each change from its start to its end offset over 100; the
    # insertion has no text on the left, so its mark has no extent, at offset 90
    assert overview_marks(CHANGES, "a", 100) == [
        OverviewMark("replace", 0.2, 0.3, 0),
        OverviewMark("delete", 0.5, 0.6, 1),
        OverviewMark("insert", 0.9, 0.9, 2),
    ]
    # right (90 characters): the deletion is the empty mark, at offset 45 = half of the text
    assert overview_marks(CHANGES, "b", 90) == [
        OverviewMark("replace", 20 / 90, 25 / 90, 0),
        OverviewMark("delete", 0.5, 0.5, 1),
        OverviewMark("insert", 75 / 90, 80 / 90, 2),
    ]


def test_marks_of_a_real_diff():
    a = "Line one.\nLine two.\nLine six.\nLine ten.\n"  # 40 characters each
    b = "Line one.\nLine TWO.\nLine ten.\nMore new.\n"
    d = text_diff(a, b)
    # text_diff folds "two.\nLine six" -> "TWO" into one replace (characters 15-28 of a, 15-18
    # of b) and appends the last line (characters 30-40 of b)
    assert overview_marks(d.changes(), "a", len(a)) == [
        OverviewMark("replace", 15 / 40, 28 / 40, 0),
        OverviewMark("insert", 1.0, 1.0, 1),
    ]
    assert overview_marks(d.changes(), "b", len(b)) == [
        OverviewMark("replace", 15 / 40, 18 / 40, 0),
        OverviewMark("insert", 30 / 40, 1.0, 1),
    ]


def test_close_changes_of_one_kind_merge_into_one_mark():
    changes = [
        DiffChunk("replace", 10, 12, 10, 12),
        DiffChunk("delete", 13, 14, 13, 13),
        DiffChunk("replace", 14, 16, 13, 15),  # 0.02 after the first replace: merged at resolution 10
        DiffChunk("replace", 50, 51, 49, 50),  # 0.34 after: a mark of its own
    ]
    assert overview_marks(changes, "a", 100, resolution=10) == [
        OverviewMark("replace", 0.1, 0.16, 0, 2),
        OverviewMark("delete", 0.13, 0.14, 1),
        OverviewMark("replace", 0.5, 0.51, 3),
    ]


def test_no_text_or_no_change_gives_no_marks_and_bad_arguments_are_refused():
    assert overview_marks([], "a", 100) == [] and overview_marks(CHANGES, "a", 0) == []
    with pytest.raises(ValueError, match="side"):
        overview_marks(CHANGES, "left", 100)
    with pytest.raises(ValueError, match="resolution"):
        overview_marks(CHANGES, "a", 100, resolution=0)


def test_many_changes_give_few_marks_quickly():
    # 100,000 changes every 10 characters of a million: one mark per 1/2,000 of the text at most,
    # cheap enough for the background job (the stall tests: the GUI must never freeze)
    changes = [DiffChunk("replace", 10 * i, 10 * i + 5, 10 * i, 10 * i + 5) for i in range(100_000)]
    begin = time.perf_counter()
    marks = overview_marks(changes, "a", 1_000_000)
    took = time.perf_counter() - begin
    assert len(marks) == 1  # the gaps (5 characters = 5e-6 of the text) are all under 1/2,000
    assert marks[0] == OverviewMark("replace", 0.0, 0.999995, 0, 100_000)
    assert took < 0.5


def test_a_click_takes_both_texts_to_the_same_place():
    # in an equal run: the same distance into the other text's copy of it (a 40 -> b 25 + 10)
    assert overview_place(CHUNKS, "a", 0.4, 100) == (40, 35, 0)
    # inside a change: the change's start on the other side
    assert overview_place(CHUNKS, "a", 0.25, 100) == (25, 20, 0)
    # on the right, half-way (45) is where the deleted text was: after the deletion (change 1)
    assert overview_place(CHUNKS, "b", 0.5, 90) == (60, 45, 1)
    # before every change, and past the end (clipped)
    assert overview_place(CHUNKS, "a", 0.05, 100) == (5, 5, -1)
    assert overview_place(CHUNKS, "b", 2.0, 90) == (100, 90, 2)
    assert overview_place([], "a", 0.5, 10) == (5, 0, -1)
