"""The human labels of a scan's pairs, without Qt: a labels CSV read against the scanned folder,
the pairs table's Label column and "Differs from label" filter, and a labelled pair of the
method comparison found among the scan's candidate pairs (or why it is not there)."""

from __future__ import annotations

import dataclasses

import pytest

from dedup_gui.core.evaluation.pair_labels import locate_labelled_pair, read_scan_labels, scan_path
from dedup_gui.core.model import DupType
from dedup_gui.core.views.label_filter import differs_choice, pair_key
from dedup_gui.core.views.tables import PairsTable
from tests.core.views_fixtures import ties

LABEL = PairsTable.LABEL_COLUMN


@pytest.fixture
def labelled(tmp_path):
    """:func:`ties` scanned from ``tmp/pages``, and ``tmp/labels.csv`` naming its pages as
    ``pages/...`` (the layout of shared/pairs): pair 0 (full) labelled full, pair 3 (full)
    labelled partial, pair 1 (distinct) labelled content, one pair the scan never compared
    (a/y.html, d/w.html), and one page outside the scanned folder."""
    (tmp_path / "pages").mkdir()
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "left,right,type\n"
        "pages/B/x.html,pages/a/y.html,full\n"
        "pages/c/z.html,pages/b/X.html,partial\n"  # the scan's order is b/X.html, c/z.html
        "pages/a/y.html,pages/b/X.html,content\n"
        "pages/a/y.html,pages/d/w.html,distinct\n"
        "other/q.html,pages/a/y.html,full\n",
        encoding="utf-8",
    )
    return dataclasses.replace(ties(), root=str(tmp_path / "pages")), labels


def test_labels_paths_are_read_relative_to_the_labels_file_and_keyed_by_the_scans_paths(labelled):
    result, labels = labelled
    assert scan_path(labels, "pages/a/y.html", result.root) == "a/y.html"
    assert scan_path(labels, "pages\\a\\y.html", result.root) == "a/y.html"
    assert scan_path(labels, "other/q.html", result.root) is None  # outside the scanned folder
    assert read_scan_labels(labels, result.root) == {
        ("B/x.html", "a/y.html"): DupType.FULL,
        ("b/X.html", "c/z.html"): DupType.PARTIAL,
        ("a/y.html", "b/X.html"): DupType.CONTENT,
        ("a/y.html", "d/w.html"): DupType.DISTINCT,
    }
    assert pair_key("b", "a") == pair_key("a", "b") == ("a", "b")
    assert differs_choice(1234) == "Differs from label (1,234)"


def test_the_pairs_table_has_a_label_column_and_filters_the_pairs_whose_type_differs(labelled):
    # A tester tuning thresholds on labelled pairs could not see the labels beside the types,
    # nor find the pairs the classifier gets wrong.
    result, labels = labelled
    table = PairsTable()
    table.set_result(result)
    # without labels the column is unavailable (hidden, never an empty column) and no filter
    assert LABEL in table.hidden_columns() and table.unavailable_columns() == {LABEL}
    assert table.chosen_hidden_columns() == frozenset() and table.differs_count() is None
    assert not table.set_column_hidden(LABEL, False)  # cannot be shown without labels
    with pytest.raises(ValueError, match="no labels file"):
        table.set_differs_only(True)

    table.set_labels(read_scan_labels(labels, result.root), result.root)
    assert LABEL not in table.hidden_columns()
    assert [table.display(r, LABEL) for r in range(5)] == [
        "full duplicate", "content duplicate", "", "partial duplicate", ""]  # fmt: skip
    # pair 1 is distinct, labelled content; pair 3 is full, labelled partial
    assert table.differs_count() == 2
    assert table.tooltip(3, LABEL) == (
        "labelled partial duplicate in the labels file; the thresholds give full duplicate"
    )
    assert table.tooltip(0, LABEL) == "labelled full duplicate in the labels file"
    table.set_differs_only(True)
    assert table.shown_records().tolist() == [1, 3]
    # the column sorts by type order, unlabelled pairs first
    table.set_differs_only(False)
    table.sort(LABEL, descending=False)
    assert table.shown_records().tolist()[:2] == [2, 4]

    # a re-classification keeps the labels and counts again: pair 3 now partial, as labelled
    pairs = list(result.pairs)
    pairs[3] = dataclasses.replace(pairs[3], type=DupType.PARTIAL)
    table.set_differs_only(True)
    table.update_result(dataclasses.replace(result, pairs=pairs))
    assert table.differs_count() == 1 and table.shown_records().tolist() == [1]
    # a rescan of the same folder keeps them; a scan of another folder drops them
    table.set_result(result)
    assert table.differs_count() == 2
    table.set_result(dataclasses.replace(result, root="/elsewhere"))
    assert table.differs_count() is None and table.unavailable_columns() == {LABEL}
    assert not table.differs_only() and table.shown_records().tolist() == [0, 1, 2, 3, 4]


def test_a_labelled_pair_is_found_among_the_candidates_or_the_reason_is_said(labelled):
    result, labels = labelled
    found = locate_labelled_pair(result, labels, "pages/c/z.html", "pages/b/X.html")
    assert found.record == 3 and found.message == "Showing the labelled pair c/z.html and b/X.html."
    # a pair of the scan's pages that the scan never compared: no row, and said so
    never = locate_labelled_pair(result, labels, "pages/a/y.html", "pages/d/w.html")
    assert never.record is None
    assert never.message == (
        "The labelled pair a/y.html and d/w.html was not a candidate pair in this scan "
        "(the scan never compared its pages), so the pairs table has no row for it."
    )
    outside = locate_labelled_pair(result, labels, "other/q.html", "pages/a/y.html")
    assert outside.record is None
    assert outside.message == (
        "The labelled pair other/q.html and pages/a/y.html is not in this scan: other/q.html is not one of its pages."
    )
    assert locate_labelled_pair(None, labels, "a", "b").message == (
        "The labelled pair a and b cannot be shown: no scan is shown.")  # fmt: skip
