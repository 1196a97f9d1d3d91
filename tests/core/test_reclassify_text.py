"""The status line's words around a re-classification (core.views.reclassify_text)."""

from __future__ import annotations

import dataclasses

from dedup_gui.core.model import DupType
from dedup_gui.core.views.reclassify_text import changed_pairs, reclassified_text, reclassifying_text
from tests.core.views_fixtures import ties


def test_the_words_while_and_after_re_classifying():
    assert reclassifying_text(10_170) == "Re-classifying 10,170 pairs…"
    assert reclassifying_text(1, "Keeping b.html") == "Keeping b.html: re-classifying 1 pair…"
    assert (
        reclassified_text("Marked a and b not a duplicate", 12)
        == "Marked a and b not a duplicate: 12 pairs re-classified"
    )
    assert reclassified_text("Thresholds applied", 1) == "Thresholds applied: 1 pair re-classified"
    assert reclassified_text("Keeping b.html", 0) == "Keeping b.html: no pair changed type"


def test_changed_pairs_counts_new_types_and_new_marks():
    old = ties()
    pairs = list(old.pairs)
    pairs[0] = dataclasses.replace(pairs[0], type=DupType.DISTINCT)  # re-typed
    pairs[2] = dataclasses.replace(pairs[2], not_duplicate=True)  # marked
    new = dataclasses.replace(old, pairs=pairs)
    assert changed_pairs(old, new) == 2
    assert changed_pairs(old, old) == 0
    assert changed_pairs(None, new) == len(new.pairs)  # nothing shown before: every pair is new
