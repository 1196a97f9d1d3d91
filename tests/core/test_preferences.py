"""Recent folders and stored thresholds (no Qt)."""

from __future__ import annotations

import doctest

from dedup_gui.core.model import Thresholds
from dedup_gui.core.views import preferences
from dedup_gui.core.views.preferences import (
    MAX_RECENT,
    remember_recent,
    thresholds_from_values,
    thresholds_to_values,
)


def test_doctests():
    assert doctest.testmod(preferences).failed == 0


def test_recent_folders_move_to_the_front_without_duplicates_and_are_capped():
    recent: list[str] = []
    for i in range(MAX_RECENT + 3):
        recent = remember_recent(recent, f"/f{i}")
    assert len(recent) == MAX_RECENT and recent[0] == f"/f{MAX_RECENT + 2}"
    recent = remember_recent(recent, "/f5")
    assert recent[0] == "/f5" and recent.count("/f5") == 1 and len(recent) == MAX_RECENT
    assert remember_recent(["/a"], "/b", limit=1) == ["/b"]


def test_thresholds_round_trip_through_stored_strings():
    tuned = Thresholds(content_same=0.9, content_partial=0.35, layout_same=0.55, hamming_k=5)
    stored = {k: str(v) for k, v in thresholds_to_values(tuned).items()}  # INI files give strings
    assert thresholds_from_values(stored) == tuned


def test_bad_stored_thresholds_fall_back_to_the_defaults():
    d = Thresholds()
    values = {"content_same": "abc", "content_partial": 1.5, "layout_same": None, "hamming_k": "3.5"}
    assert thresholds_from_values(values) == d
    assert thresholds_from_values({"hamming_k": 65, "content_same": float("nan")}) == d
    assert thresholds_from_values({"hamming_k": True}) == d
    assert thresholds_from_values({}) == d
    base = Thresholds(layout_same=0.7)
    assert thresholds_from_values({"content_partial": "0.3"}, base) == Thresholds(layout_same=0.7, content_partial=0.3)
