"""The tables' record filters as one filter per place that set it (the clusters tree, the histogram).

A tester on the real site clicked a keep cluster ("Pairs (45 of 10,133)", "Pages (10 of 1,422)"),
then a histogram bar, then switched the tree to the near-duplicate groups: the pages table stayed
filtered to the keep cluster out of sight, and its status "No usable text (15)" read "Pages (0 of 1,422)".
"""

from __future__ import annotations

import pytest

from dedup_gui.core.views.filter_owners import HISTOGRAM, TREE, FilterOwners
from dedup_gui.gui.main_window import MainWindow
from tests.gui.conftest import open_scanned

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def test_owners_replace_a_filter_as_a_whole_and_clear_a_place():
    owners = FilterOwners()
    tree, stale = owners.replace(TREE, "Keep cluster 2", ["pairs", "pages"])
    assert stale == [] and tree.tooltip("pairs") == (
        "Clear this filter (set in the Clusters panel; it also filters the pages table)"
    )
    # a histogram bar replaces it in the pairs table: it leaves the pages table too
    _hist, stale = owners.replace(HISTOGRAM, "Hamming distance = 4", ["pairs"])
    assert stale == ["pages"] and owners.filter_of("pages") is None
    # the tree's next choice replaces; removing its chip in one table removes it in both
    owners.replace(TREE, "Keep cluster 2", ["pairs", "pages"])
    _new, stale = owners.replace(TREE, "Keep cluster 3", ["pairs", "pages"])
    assert stale == [] and owners.filter_of("pages").label == "Keep cluster 3"
    assert owners.removed("pairs") == ["pages"] and owners.filter_of("pages") is None
    owners.replace(TREE, "Group 1", ["pairs", "pages"])
    assert owners.from_source(HISTOGRAM) == [] and owners.from_source(TREE) == ["pages", "pairs"]


def chips(win: MainWindow) -> tuple[str, str]:
    return tuple(
        p.filter_chip.text() if not p.filter_chip.isHidden() else "" for p in (win.pairs_panel, win.pages_panel)
    )


def choose_keep_cluster(win: MainWindow, row: int) -> str:
    view = win.clusters_view
    view.set_mode("keep")
    top = view.keep_model.index(row, 0)
    view.tree.setCurrentIndex(top)
    if not win.pairs_panel.record_filter_label():  # the tree showed it already (the selected pair's): a page row
        view.tree.setCurrentIndex(view.keep_model.index(1, 0, top))
    return win.pairs_panel.record_filter_label()


def test_tree_filters_leave_both_tables_with_the_tree_and_the_histogram(qtbot, fake_scan, sample_scan, tmp_path):
    win = open_scanned(qtbot, fake_scan, tmp_path, sample_scan)
    pages = len(sample_scan.pages)
    label = choose_keep_cluster(win, 0)
    assert label.startswith("Keep cluster ") and chips(win) == (f"{label} ×", f"{label} ×")
    assert win.pages_panel.model.rowCount() == 2 < pages
    assert "also filters the pages table" in win.pairs_panel.filter_chip.toolTip()
    # a histogram bar replaces the tree's filter in the pairs table: the pages table is whole again
    win.filter_by_distance(6)
    assert chips(win) == ("Hamming distance = 6 ×", "")
    assert win.pages_panel.model.rowCount() == pages and win.pages_panel.model.record_filter() is None
    # switching the tree's mode clears the filter the tree set, in both tables
    label = choose_keep_cluster(win, 1)
    assert chips(win) == (f"{label} ×", f"{label} ×")
    win.clusters_view.set_mode("groups")
    assert chips(win) == ("", "")
    assert win.pairs_panel.model.rowCount() == len(sample_scan.pairs) and win.pages_panel.model.rowCount() == pages
    # ... but not a histogram's filter
    win.filter_by_distance(0)
    win.clusters_view.set_mode("keep")
    assert chips(win) == ("Hamming distance = 0 ×", "")
    # the chip removed in one table removes the tree's filter from the other, out of sight
    label = choose_keep_cluster(win, 0)
    win.pairs_panel.filter_chip.click()
    assert chips(win) == ("", "") and win.pages_panel.model.rowCount() == pages
    # a new choice in the tree replaces its filter (a keep cluster of 2 pages, then another)
    first, second = choose_keep_cluster(win, 0), choose_keep_cluster(win, 1)
    assert first != second and chips(win) == (f"{second} ×", f"{second} ×")
    assert win.pages_panel.model.rowCount() == 2
