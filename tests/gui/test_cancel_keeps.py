"""A scan that is cancelled or fails leaves the last results on screen (issue 20: with folder A
shown, a scan of folder B cancelled after 6 s left "Scan cancelled", "Pairs (0)" and "No scan
result yet": A's results were thrown away).  As in dupeGuru, the window shows A again, every
view and the title, says so, and its commands (Export, Copy the Kept Pages, Teach) act on A."""

from __future__ import annotations

import csv
import dataclasses

import pytest

from dedup_gui.core.model import ScanSettings, Thresholds
from dedup_gui.gui import worker as worker_module
from dedup_gui.gui.main_window import APP_NAME, MainWindow, summarize
from tests.gui.conftest import open_scanned
from tests.gui.test_copy_kept import BODY
from tests.gui.test_keep_decisions import B_KEPT_ROWS, rekept, tree_rows, triangle

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def folders(tmp_path):
    """Two folders, ``a`` (scanned first) and ``b`` (whose scan is cancelled)."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    return a, b


@pytest.fixture
def window_on_a(qtbot, fake_scan, result, folders):
    """A window showing the hand-built result as the scan of folder ``a``, idle."""
    win = open_scanned(qtbot, fake_scan, folders[0], dataclasses.replace(result, root=str(folders[0].resolve())), LONG)
    yield win
    win.close()


def tab_titles(win: MainWindow) -> list[str]:
    return [win.tabs.tabText(i) for i in range(3)]


def cancel_a_scan_of(qtbot, win: MainWindow, fake_scan, folder) -> None:
    """Start a slow scan of ``folder`` (about 17 minutes) and cancel it once it runs."""
    slow = fake_scan(steps=100_000, delay=0.01)
    win._scan_fn = slow
    win.start_scan(folder)
    qtbot.waitUntil(slow.started.is_set, timeout=LONG)
    with qtbot.waitSignal(win.scan_ended, timeout=LONG) as ended:
        win.cancel_scan()
    assert ended.args == ["cancelled"] and slow.outcomes == ["cancelled"]
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)


def test_a_cancelled_scan_of_another_folder_leaves_the_last_results(qtbot, window_on_a, fake_scan, result,
                                                                    folders):  # fmt: skip
    win = window_on_a
    a, b = (str(f.resolve()) for f in folders)
    assert win.select_pair(3)  # beta/gamma, not the first duplicate the window selects itself
    summary = win.scan_status.label.text()
    assert summary.startswith("Scanned 5 pages: 4 duplicate pairs")

    slow = fake_scan(steps=100_000, delay=0.01)
    win._scan_fn = slow
    win.start_scan(folders[1])
    qtbot.waitUntil(slow.started.is_set, timeout=LONG)
    # while B is scanned the window still shows A's results (tests/gui/test_scan_shows_last.py), and says so
    assert win.windowTitle() == f"{a} (last results; scanning b) — {APP_NAME}" and win.pairs_model.rowCount() == 5
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.cancel_scan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)

    # the old code showed "Scan cancelled", "Pairs (0)" and no title folder; A is back, whole,
    # with its counts after the note (a tester: they were gone until the next change)
    assert win.scan_status.label.text() == f"Scan of b cancelled: showing the last results, of a. {summary}"
    assert win.windowTitle() == f"{a} — {APP_NAME}" and win.folder == a
    assert tab_titles(win) == ["Pairs (5)", "Pages (5)", "Errors (2)"]
    assert win.result is not None and win.result.root == a and win.result.pages is result.pages
    assert win.clusters_view.cluster_count() == 1
    assert win.clusters_view.summary_label.text() != "No scan result yet"
    assert win.histogram_view.compared.sum() == 5  # the candidate pairs by distance
    assert win.current_pair_index() == 3  # the pair selected before, in the inspector
    assert win.inspector.current_pair() is result.pairs[3]
    assert win.inspector.text_diff_view.left_name.text() == "left: a/beta.html"
    assert win.export_action.isEnabled()
    win.open_teaching()
    assert win.teaching_window.result is win.result
    # F5 now rescans A, the folder shown
    win._scan_fn = fake_scan()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.rescan()
    assert win._scan_fn.calls == [a]


def test_a_scan_replaced_by_another_then_cancelled_still_gives_the_first_results_back(qtbot, window_on_a,
                                                                                      fake_scan, folders,
                                                                                      tmp_path):  # fmt: skip
    # B started, then C before B ended (B abandoned): cancelling C shows A, not nothing
    win = window_on_a
    c = tmp_path / "c"
    c.mkdir()
    abandoned = fake_scan(steps=100_000, delay=0.01)
    win._scan_fn = abandoned
    win.start_scan(folders[1])
    qtbot.waitUntil(abandoned.started.is_set, timeout=LONG)
    cancel_a_scan_of(qtbot, win, fake_scan, c)
    assert (
        win.scan_status.label.text() == f"Scan of c cancelled: showing the last results, of a. {summarize(win.result)}"
    )
    assert win.folder == str(folders[0].resolve()) and win.pairs_model.rowCount() == 5


def test_a_failed_scan_leaves_the_last_results(qtbot, window_on_a, fake_scan, folders):
    win = window_on_a
    win._scan_fn = fake_scan(error=RuntimeError("disk gone"))
    with qtbot.waitSignal(win.scan_ended, timeout=LONG) as ended:
        win.start_scan(folders[1])
    assert ended.args == ["failed"]
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert win.scan_status.label.text() == (
        f"Scan of b failed: RuntimeError: disk gone; showing the last results, of a. {summarize(win.result)}"
    )
    assert "The scan of " + str(folders[1].resolve()) + " failed" in win.error_box.text()  # the box names B
    assert win.windowTitle() == f"{folders[0].resolve()} — {APP_NAME}"
    assert tab_titles(win) == ["Pairs (5)", "Pages (5)", "Errors (2)"]
    win.error_box.close()


def test_a_cancelled_first_scan_still_shows_the_empty_state(qtbot, fake_scan, folders):
    win = MainWindow(scan_fn=fake_scan())
    qtbot.addWidget(win)
    win.show()
    cancel_a_scan_of(qtbot, win, fake_scan, folders[1])
    assert win.scan_status.label.text() == "Scan of b cancelled"  # nothing to give back
    assert win.result is None and tab_titles(win) == ["Pairs (0)", "Pages (0)", "Errors (0)"]
    assert win.clusters_view.summary_label.text() == "No scan result yet"
    assert not win.export_action.isEnabled()
    # the title says that nothing was scanned (the folder's name alone read as if the empty
    # tables were its results); F5 still tries B again
    assert win.windowTitle() == f"No results ({folders[1].resolve()} not scanned) — {APP_NAME}"
    assert win.folder == str(folders[1].resolve())
    win.close()


def test_a_cancelled_rescan_keeps_the_keep_decision_made_before(qtbot, fake_scan, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    rekept(qtbot, win, win.clusters_view.context_menu(1).actions()[0].trigger)  # keep b.html instead
    expected = B_KEPT_ROWS
    assert tree_rows(win) == expected
    cancel_a_scan_of(qtbot, win, fake_scan, site)
    assert (
        win.scan_status.label.text() == f"Rescan of site cancelled: showing its last results. {summarize(win.result)}"
    )
    assert tree_rows(win) == expected
    assert win.scan_result.keep_policy.chosen == ("b.html",) and win.result.keep_policy.chosen == ("b.html",)
    win.close()


def test_thresholds_changed_during_the_cancelled_scan_apply_to_the_results_given_back(qtbot, window_on_a,
                                                                                      fake_scan, folders):  # fmt: skip
    win = window_on_a
    slow = fake_scan(steps=100_000, delay=0.01)
    win._scan_fn = slow
    win.start_scan(folders[1])
    qtbot.waitUntil(slow.started.is_set, timeout=LONG)
    win.apply_thresholds(Thresholds(content_same=0.99))  # kept for the next scan while B runs
    with qtbot.waitSignal(win.results_changed, timeout=LONG):  # A is re-classified under them
        win.cancel_scan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert win.result.thresholds.content_same == 0.99
    # the summary of the re-classification does not cover what happened to the scan: it follows it
    assert (
        win.scan_status.label.text() == f"Scan of b cancelled: showing the last results, of a. {summarize(win.result)}"
    )


def test_export_and_copy_act_on_the_results_given_back(qtbot, tmp_path, fake_scan):
    a, b = tmp_path / "a", tmp_path / "b"
    for sub in ("v1", "v2"):
        (a / sub).mkdir(parents=True)
        (a / sub / "page.html").write_text(BODY)
    b.mkdir()
    (b / "other.html").write_text(BODY)
    win = MainWindow(scan_fn=worker_module.scan_folder, settings=ScanSettings(workers=1, use_cache=False))
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(a)
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    cancel_a_scan_of(qtbot, win, fake_scan, b)

    out = tmp_path / "keep.csv"
    with qtbot.waitSignal(win.exporter.finished, timeout=LONG):
        win.export_to(out, "keep-csv")
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert [row[:2] for row in rows] == [["duplicate", "keep"], ["v1/page.html", "v2/page.html"]]  # A's keep plan

    copy = tmp_path / "copy"
    assert win.copy_kept_to(copy)
    qtbot.waitUntil(lambda: not win.copy_is_running() and win.copy_dialog is None, timeout=LONG)
    assert [p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()] == ["v2/page.html"]
    win.close()
