"""The keep clusters in the window and "Keep this page instead": the cluster tree shows each keep
cluster with its kept page first, in bold, marked "kept" with the reason; the user keeps another
page from the tree's or the pages table's context menu or with Ctrl+K; the choice survives a
threshold change and a rescan (stored beside the settings, not in the scanned folder)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from dedup_gui.core.model import Thresholds
from dedup_gui.core.views.decisions import decisions_path
from dedup_gui.gui.main_window import MainWindow
from tests.core.test_keep_clusters import DISTINCT, FULL, page, pair, result_of
from tests.gui.conftest import open_scanned

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def triangle():
    """a, b, c: full duplicates of one another (a is kept: the first path); d: distinct from c."""
    pages = [page(p) for p in ("a.html", "b.html", "c.html", "d.html")]
    pairs = [pair(0, 1, FULL, 0.99), pair(0, 2, FULL, 0.96), pair(1, 2, FULL, 0.95), pair(2, 3, DISTINCT, 0.3)]
    return result_of(pages, pairs)


@pytest.fixture
def window(qtbot, fake_scan, site):
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    yield win
    win.close()


def tree_rows(win: MainWindow) -> list[tuple[str, ...]]:
    """The keep tree's first keep cluster as the user reads it: the cluster row (its four cells
    and the rule that chose its page to keep, said in its tooltip), then each page row (its
    four cells, and "bold" when drawn in bold)."""
    model = win.clusters_view.keep_model
    top = model.index(0, 0)
    rows = [tuple(model.index(0, c).data() for c in range(4)) + (model.cluster_at(top).reason,)]
    for r in range(model.rowCount(top)):
        cells = tuple(model.index(r, c, top).data() for c in range(4))
        font = model.index(r, 0, top).data(Qt.ItemDataRole.FontRole)
        rows.append(cells + (("bold",) if font is not None and font.bold() else ()))
    return rows


def keep_column(win: MainWindow) -> dict[str, str]:
    """The pages table's Keep column by path (every page row shown)."""
    model = win.pages_model
    win.pages_panel.clear_record_filter()
    return {model.index(r, 0).data(): model.index(r, 10).data() for r in range(model.rowCount())}


#: The tree of :func:`triangle` after "Keep This Page Instead" on b.html.
B_KEPT_ROWS = [
    ("#1 b.html", "3", "", "drop 2", "your choice"),
    ("b.html", "", "", "kept", "bold"),
    ("a.html", "", "full", "drop"),
    ("c.html", "", "full", "drop"),
]


def rekept(qtbot, win: MainWindow, trigger) -> None:
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        trigger()


def test_the_tree_shows_keep_clusters_with_the_kept_page_first_in_bold(qtbot, window):
    win = window
    assert win.clusters_view.mode() == "keep" and win.clusters_view.mode_combo.currentText() == "Keep clusters"
    assert win.clusters_view.summary_label.text() == "1 keep cluster: 2 pages to drop"
    assert tree_rows(win) == [
        ("#1 a.html", "3", "", "drop 2", "first path"),
        ("a.html", "", "", "kept", "bold"),
        ("b.html", "", "full", "drop"),
        ("c.html", "", "full", "drop"),
    ]
    # selecting a page filters the tables to its keep cluster and selects its first pair there
    model = win.clusters_view.keep_model
    win.clusters_view.tree.setCurrentIndex(model.index(2, 0, model.index(0, 0)))
    assert win.pairs_panel.filter_chip.text() == "Keep cluster 1 ×" and win.pairs_panel.model.rowCount() == 3
    assert win.current_pair_index() == 1  # a-c, c's first (most similar) pair among the three
    assert win.pages_panel.model.rowCount() == 3
    # the line under the tree says the row in full: "kept (newest version folder)" was cut to
    # "kept (new…" in the Keep column; the rule is now in the wide cluster row and here
    view = win.clusters_view
    assert view.details.text() == "c.html\ndrop: full duplicate of a.html, which is kept\nnot kept: later path in a tie"
    view.tree.setCurrentIndex(model.index(0, 0, model.index(0, 0)))
    assert view.details.text() == "a.html\nkept: the page to keep of keep cluster 1 (chosen by: first path)"
    view.tree.setCurrentIndex(model.index(0, 0))
    # a narrow panel elides "Keep cluster 5 (longest main content)": its tooltip has it whole
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == (
        "Keep cluster 1: a.html\nkeep 1 page, drop 2 (decided by: first path)"
    )
    assert view.details.text() == (
        "Keep cluster 1: a.html\nkeep 1 page, drop 2 (the page to keep was chosen by: first path)"
    )
    # the switch shows the near-duplicate groups again
    win.cluster_mode_actions["groups"].trigger()
    assert win.clusters_view.mode() == "groups" and win.clusters_view.tree.model() is win.clusters_view.model
    assert win.clusters_view.summary_label.text() == "1 near-duplicate group of 3 pages"


def test_keep_this_page_instead_from_the_tree_survives_thresholds_and_rescans(qtbot, window, site, tmp_path):
    win = window
    view = win.clusters_view
    menu = view.context_menu(0)  # a is the kept page: nothing to keep instead
    assert menu.actions()[0].objectName() == "keep-instead" and not menu.actions()[0].isEnabled()
    menu = view.context_menu(1)
    action = menu.actions()[0]
    assert action.text() == "Keep This Page Instead" and action.isEnabled()
    assert action.shortcut().toString() == "Ctrl+K"
    rekept(qtbot, win, action.trigger)
    assert tree_rows(win) == B_KEPT_ROWS
    assert view.current_page() == 1  # the chosen page is selected in its keep cluster
    assert keep_column(win) == {"a.html": "duplicate of b.html", "b.html": "kept", "c.html": "duplicate of b.html",
                                "d.html": ""}  # fmt: skip
    # stored beside the settings (tests keep them in tmp_path/settings), not in the scanned folder
    stored = decisions_path(tmp_path / "settings" / "folders", site)
    assert json.loads(stored.read_text())["chosen"] == ["b.html"]
    assert sorted(p.name for p in site.iterdir()) == ["a.html"]

    # a threshold change re-classifies: b stays kept
    rekept(qtbot, win, lambda: win.apply_thresholds(Thresholds(content_same=0.9)))
    assert win.result.thresholds.content_same == 0.9 and tree_rows(win) == B_KEPT_ROWS
    # a rescan of the folder (the scan knows nothing of the choice): the stored choice applies
    assert win.scan_result.keep_policy.chosen == ("b.html",)
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.rescan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert tree_rows(win) == B_KEPT_ROWS


def test_keep_this_page_instead_from_the_pages_table_and_the_keyboard(qtbot, window):
    win = window
    win.show_tab(win.pages_panel)
    menu = win.pages_panel.context_menu(3)  # d: in no keep cluster
    assert menu.actions()[0].objectName() == "keep-instead" and not menu.actions()[0].isEnabled()
    menu = win.pages_panel.context_menu(2)
    rekept(qtbot, win, menu.actions()[0].trigger)
    assert tree_rows(win)[0][4] == "your choice" and tree_rows(win)[1] == (
        "c.html",
        "",
        "",
        "kept",
        "bold",
    )
    # Ctrl+K (Decide > Keep This Page Instead) on the pages table's current page: a replaces c
    win.show_tab(win.pages_panel)
    win.pages_panel.clear_record_filter()
    assert win.pages_panel.select_record(0)
    assert win.keep_instead_action.shortcut().toString() == "Ctrl+K"
    rekept(qtbot, win, win.keep_instead_action.trigger)
    assert tree_rows(win)[0][4] == "your choice" and tree_rows(win)[1] == (
        "a.html",
        "",
        "",
        "kept",
        "bold",
    )
    assert win.scan_result.keep_policy.chosen == ("a.html",)  # one choice per keep cluster
    assert keep_column(win)["c.html"] == "duplicate of a.html"
    # a page in no keep cluster: the status bar says so, nothing changes
    assert not win.keep_page_instead(3)
    assert "d.html is in no keep cluster" in win.statusBar().currentMessage()


def test_the_tree_shows_what_tells_a_clusters_pages_apart_and_the_whole_path_as_tooltip(qtbot, tmp_path):
    # Three copies in one deep folder all read "news.16…ex.html" in a narrow column.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.gui.tables.keep_clusters_model import KeepClustersModel

    deep = tmp_path / "news.163.com" / "world" / "asia"
    body = "<p>" + " ".join(f"word{i}" for i in range(200)) + "</p>"
    for sub in ("a", "b"):
        (deep / sub).mkdir(parents=True)
        (deep / sub / "index.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False))
    model = KeepClustersModel()
    model.set_result(result)
    top = model.index(0, 0)
    labels = [model.index(r, 0, top).data() for r in range(model.rowCount(top))]
    assert sorted(labels) == ["…/a/index.html", "…/b/index.html"]
    tips = {model.index(r, 0, top).data(Qt.ItemDataRole.ToolTipRole) for r in range(model.rowCount(top))}
    assert tips == {"news.163.com/world/asia/a/index.html", "news.163.com/world/asia/b/index.html"}


def test_keep_either_page_of_a_pair_from_the_pairs_table(qtbot, window):
    # An analyst triaging pairs had no "keep this one" on a pair: only the pages table and the
    # tree offered it.  The pair a-b (full duplicates, a kept) offers to keep b instead.
    win = window
    actions = win.pairs_panel.context_menu(0).actions()
    # Not a Duplicate stays first; the keep entries follow, before the file actions
    assert [a.objectName() for a in actions if a.objectName()][:3] == ["not-duplicate", "keep-left", "keep-right"]
    names = {a.objectName(): a for a in actions}
    assert names["keep-left"].text() == "The Left Page Is Kept" and not names["keep-left"].isEnabled()
    assert names["keep-right"].text() == "Keep the Right Page Instead" and names["keep-right"].isEnabled()
    assert "not-duplicate" in names
    rekept(qtbot, win, names["keep-right"].trigger)
    assert tree_rows(win) == B_KEPT_ROWS
    # the pairs table is not filtered to the keep cluster (a tester read "Pairs (28 of 10,133)"
    # after it, with a chip he had not asked for); the pair stays selected
    assert win.pairs_panel.model.rowCount() == win.pairs_panel.model.record_count() == 4
    assert win.current_pair_index() == 0
    # c-d share no keep cluster (d is distinct): no keep entry
    names = {a.objectName() for a in win.pairs_panel.context_menu(3).actions()}
    assert "keep-left" not in names and "keep-right" not in names and "not-duplicate" in names


def test_the_keep_tree_s_third_column_says_what_its_values_are(window):
    # A tester read "Link" over "content", "full" and "same text": it is how a dropped page
    # duplicates the kept one.
    model = window.clusters_view.keep_model
    assert model.headerData(2, Qt.Orientation.Horizontal) == "Duplicate"
    assert model.headerData(2, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith(
        "How a dropped page duplicates the kept one"
    )
    # the reports' words less the header's "duplicate" (the panel is some 380 px wide): a user
    # read "same text" here and "identical main text" in the keep CSV
    assert model.widest_texts()[2] == {"full", "content", "identical", "near-copy"}


def test_the_status_line_after_keep_this_page_instead_says_what_changed(qtbot, window):
    # A new user: "Keep This Page Instead" said "Keeping b.html (your choice, saved for
    # rescans): no pair changed type" - true of the pairs, and nothing about the choice.
    win = window
    rekept(qtbot, win, lambda: win.keep_page_instead(1))
    assert win.statusBar().currentMessage() == (
        "Kept b.html instead of a.html: the kept page of keep cluster 1 (your choice, saved for rescans)"
    )
