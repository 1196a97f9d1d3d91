"""The pairs table's "Changed by the last re-classification" filter, without Qt: which pairs a
re-classification changed, what they were, and the filter over them."""

from __future__ import annotations

import dataclasses

import pytest

from dedup_gui.core.model import DupType
from dedup_gui.core.views.changed_filter import changed_choice, previous_types
from dedup_gui.core.views.tables import PairsTable
from tests.core.views_fixtures import ties

TYPE = 2


def retyped():
    """:func:`ties` with pair 0 turned distinct by the thresholds and pair 2 marked by the user."""
    old = ties()
    pairs = list(old.pairs)
    pairs[0] = dataclasses.replace(pairs[0], type=DupType.DISTINCT)
    pairs[2] = dataclasses.replace(pairs[2], type=DupType.DISTINCT, not_duplicate=True)
    return old, dataclasses.replace(old, pairs=pairs)


def test_previous_types_names_the_changed_pairs_and_what_they_were():
    old, new = retyped()
    assert previous_types(old.pairs, new.pairs) == {0: "full duplicate", 2: "layout duplicate"}
    assert previous_types(new.pairs, old.pairs) == {0: "distinct", 2: "distinct (marked by you)"}
    assert previous_types(old.pairs, old.pairs[:3]) is None  # other pairs: another scan
    assert changed_choice(1234) == "Changed by the last re-classification (1,234)"


def test_the_pairs_table_filters_the_pairs_the_last_re_classification_changed():
    # The status said "Thresholds applied: 2 pairs re-classified" and nothing showed which.
    old, new = retyped()
    table = PairsTable()
    table.set_result(old)
    assert table.changed_count() is None  # no re-classification yet: no entry to offer
    with pytest.raises(ValueError, match="no re-classification since the scan"):
        table.set_changed_only(True)
    table.update_result(new)
    assert table.changed_count() == 2
    table.set_changed_only(True)
    assert table.shown_records().tolist() == [0, 2]
    # the Type cell's tooltip names the type before
    assert table.tooltip(0, TYPE) == "distinct; full duplicate before the last re-classification"
    assert table.tooltip(2, TYPE) == "distinct (marked by you); layout duplicate before the last re-classification"
    assert table.tooltip(1, TYPE) == ""
    # with the type filter too: both must hold
    table.set_type_filter(frozenset({DupType.DISTINCT}))
    assert table.shown_records().tolist() == [0, 2]
    table.set_type_filter(None)
    # a re-classification that changes nothing: the filter shows nothing, not the last ones
    table.update_result(new)
    assert table.changed_count() == 0 and table.shown_records().tolist() == []
    table.set_changed_only(False)
    assert table.shown_records().tolist() == [0, 1, 2, 3, 4]
    # a new scan forgets them
    table.set_changed_only(False)
    table.update_result(old)
    table.set_changed_only(True)
    table.set_result(new)
    assert table.changed_count() is None and not table.changed_only() and len(table.shown_records()) == 5
