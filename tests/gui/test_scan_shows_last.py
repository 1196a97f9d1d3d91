"""While a second scan runs, the last results stay in view and browsable, but nothing can be
decided on them (issue 20: a new user's walkthrough).  Before, every view said "No scan result
yet" until the scan ended; the results now stay, the title, the status line and a banner say
whose they are, and every command that would store a decision is off, as a decision made then
would be stored under the folder being scanned.  A folder joins File > Open Recent only when its
scan succeeds."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

from dedup_gui.core.model import KeepPolicy
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.gui.main_window import APP_NAME, MainWindow
from tests.gui.conftest import open_scanned
from tests.gui.test_keep_decisions import triangle

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


class GatedScan:
    """A scan function that runs until :attr:`release` is set (or it is cancelled), then does
    what ``inner`` (a :class:`~tests.gui.conftest.FakeScan`) does: return its result or raise."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, root, settings, thresholds, progress):
        self.started.set()
        while not self.release.wait(0.01):
            if progress.cancelled():
                raise ScanCancelled("cancelled by the user")
        return self.inner(root, settings, thresholds, progress)


@pytest.fixture
def folders(tmp_path):
    """Folders ``a`` (scanned first, a keep cluster of three pages) and ``b`` (scanned next)."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    return a.resolve(), b.resolve()


@pytest.fixture
def window_on_a(qtbot, fake_scan, folders):
    """A window showing :func:`triangle` (a kept, b and c to drop, d distinct) as folder ``a``."""
    win = open_scanned(qtbot, fake_scan, folders[0], dataclasses.replace(triangle(), root=str(folders[0])), LONG)
    yield win
    win.close()


def start_gated(qtbot, win: MainWindow, fake_scan, folder, **kwargs) -> GatedScan:
    """Start a scan of ``folder`` that runs until released; return it once it runs."""
    gated = GatedScan(fake_scan(**kwargs))
    win._scan_fn = gated
    win.start_scan(folder)
    qtbot.waitUntil(gated.started.is_set, timeout=LONG)
    return gated


def deciding_commands(win: MainWindow) -> dict[str, bool]:
    """Whether each command that decides is enabled: the menu actions, the context menus' entries
    (pairs table, pages table, cluster tree) and the ignore list dialog's Remove and Import."""
    dialog = win.open_ignore_list()
    dialog.table.selectRow(0)

    def entry(menu, name: str) -> bool:
        return next(a for a in menu.actions() if a.objectName() == name).isEnabled()

    tree_menu = win.clusters_view.context_menu(1)  # b.html: it could be kept instead of a.html
    states = {
        "keep instead": win.keep_instead_action.isEnabled(),
        "not a duplicate": win.not_duplicate_action.isEnabled(),
        "re-prioritize": win.reprioritize_action.isEnabled(),
        "copy kept pages": win.copy_kept_action.isEnabled(),
        "pairs menu: not a duplicate": entry(win.pairs_panel.context_menu(0), "not-duplicate"),
        "pages menu: keep instead": entry(win.pages_panel.context_menu(1), "keep-instead"),
        "tree menu: keep instead": entry(tree_menu, "keep-instead"),
        "tree menu: not a duplicate": entry(tree_menu, "not-duplicate"),
        "ignore list: remove": dialog.remove_button.isEnabled(),
        "ignore list: import": dialog.import_button.isEnabled(),
    }
    dialog.close()
    return states


def test_the_last_results_stay_shown_and_browsable_while_another_folder_is_scanned(qtbot, window_on_a, fake_scan,
                                                                                   folders):  # fmt: skip
    win = window_on_a
    a, b = folders
    gated = start_gated(qtbot, win, fake_scan, b)
    # the old code emptied every view: "Pairs (0)", "No scan result yet", an empty inspector
    assert [win.tabs.tabText(i) for i in range(3)] == ["Pairs (4)", "Pages (4)", "Errors (0)"]
    assert win.result is not None and win.result.root == str(a)
    assert win.clusters_view.keep_cluster_count() == 1
    assert win.clusters_view.summary_label.text() == "1 keep cluster: 2 pages to drop"
    assert win.histogram_view.compared.sum() == 4  # the candidate pairs by distance
    assert win.select_pair(2)  # browsable: b-c in the inspector
    assert win.inspector.current_pair() is win.result.pairs[2]
    assert win.export_action.isEnabled()  # a report of the results shown, under their folder
    # whose results they are: in the title, beside the progress bar and above the tables
    assert win.windowTitle() == f"{a} (last results; scanning b) — {APP_NAME}"
    assert win.scan_status.shown_label.isVisible()
    assert win.scan_status.shown_label.text() == "Last results, of a, shown while b is scanned"
    assert win.last_results_banner.isVisible()
    assert win.last_results_banner.text().startswith("Last results, of a, shown while b is scanned. Browse them")
    assert win.scan_status.progress_bar.isVisible()  # the scan's own progress is still shown
    gated.release.set()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        pass
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert win.windowTitle() == f"{b} — {APP_NAME}" and not win.last_results_banner.isVisible()
    assert not win.scan_status.shown_label.isVisible()
    assert win.result.root == "/scan" and win.pairs_model.rowCount() == 5  # B's result (the fake's)


@pytest.mark.parametrize("outcome", ["finished", "cancelled", "failed"])
def test_deciding_is_off_while_a_scan_runs_and_on_again_when_it_ends(qtbot, window_on_a, fake_scan, folders,
                                                                     outcome):  # fmt: skip
    win = window_on_a
    with qtbot.waitSignal(win.results_changed, timeout=LONG):  # one pair on the ignore list, to remove
        assert win.mark_pair_not_duplicate(3)  # c-d
    before = deciding_commands(win)
    assert all(before.values()), before
    gated = start_gated(qtbot, win, fake_scan, folders[1], result=win.result,
                        error=RuntimeError("disk gone") if outcome == "failed" else None)  # fmt: skip
    # with the last results shown (the old code showed none), not one command that decides is on
    assert win.result is not None and win.pairs_model.rowCount() == 4
    assert deciding_commands(win) == dict.fromkeys(before, False)
    with qtbot.waitSignal(win.scan_ended, timeout=LONG) as ended:
        if outcome == "cancelled":
            win.cancel_scan()
        else:
            gated.release.set()
    assert ended.args == [outcome]
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert deciding_commands(win) == before
    if win.error_box is not None:
        win.error_box.close()


def test_no_decision_is_recorded_while_a_scan_runs(qtbot, window_on_a, fake_scan, folders, tmp_path):
    # A decision made on the last results (of a) during the scan of b would have been stored
    # under b, the session's folder then: every way of making one is refused, and said so.
    win = window_on_a
    a, b = folders
    stored = tmp_path / "settings" / "folders"
    files_before = sorted(stored.rglob("*")) if stored.exists() else []
    policy, marks = win.scan_result.keep_policy, win.scan_result.not_duplicates
    start_gated(qtbot, win, fake_scan, b)
    assert win.result is not None and win.result.root == str(a)  # the old code showed nothing to decide on
    assert win.keep_page_instead(1) is False
    assert win.statusBar().currentMessage() == (
        "A scan is running: decide once it ends (the results shown are the last ones)"
    )
    assert win.mark_pair_not_duplicate(0) is False
    assert win.mark_page_not_duplicate(1) is False
    assert win.add_not_duplicates((("a.html", "b.html"),)) is False
    assert win.apply_keep_rule(KeepPolicy(order=("shortest_url", "canonical"))) is False
    assert win.open_reprioritize() is False
    assert win.copy_kept_to(tmp_path / "copy") is False and not (tmp_path / "copy").exists()
    win.keep_instead_action.trigger()  # disabled: nothing happens
    win.not_duplicate_action.trigger()
    assert win.scan_result.keep_policy == policy and win.scan_result.not_duplicates == marks
    assert not win._reclassify_job.is_running()
    assert (sorted(stored.rglob("*")) if stored.exists() else []) == files_before  # nothing saved, for a or b
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.cancel_scan()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    # once the scan ends (a shown again), the same choice is made and stored under a
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        assert win.keep_page_instead(1) is True
    saved = [json.loads(p.read_text()) for p in stored.rglob("*.json")]
    assert [(d["folder"], d["chosen"]) for d in saved] == [(str(a), ["b.html"])]


def test_an_export_during_a_scan_reports_the_results_shown_under_their_own_folder(qtbot, window_on_a, fake_scan,
                                                                                  folders, tmp_path):  # fmt: skip
    # Export reads, never decides: it stays on, and writes the last results (of a), named as a's.
    win = window_on_a
    a, b = folders
    start_gated(qtbot, win, fake_scan, b)
    assert win.export_action.isEnabled()  # the old code had nothing to export during a scan
    out = tmp_path / "report.json"
    with qtbot.waitSignal(win.exporter.finished, timeout=LONG):
        win.export_to(out, "json")
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["folder"] == str(a) and len(report["pairs"]) == 4
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.cancel_scan()


def test_a_folder_joins_open_recent_only_when_its_scan_succeeds(qtbot, fake_scan, tmp_path):
    names = ("ok", "cancelled", "failed", "with-file-errors")
    for name in names:
        (tmp_path / name).mkdir()
    ok, cancelled, failed, with_errors = (str((tmp_path / name).resolve()) for name in names)
    win = open_scanned(qtbot, fake_scan, ok, triangle(), LONG)
    assert win.app_settings.recent_folders() == [ok]
    gated = start_gated(qtbot, win, fake_scan, cancelled)
    assert win.app_settings.recent_folders() == [ok]  # not while it runs
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.cancel_scan()
    assert win.app_settings.recent_folders() == [ok]  # the old code had added it at the start
    win._scan_fn = fake_scan(error=RuntimeError("disk gone"))
    with qtbot.waitSignal(win.scan_ended, timeout=LONG) as ended:
        win.start_scan(failed)
    assert ended.args == ["failed"] and win.app_settings.recent_folders() == [ok]
    win.error_box.close()
    win._scan_fn = fake_scan()  # the hand-built result: two files could not be read, a success still
    with qtbot.waitSignal(win.scan_ended, timeout=LONG) as ended:
        win.start_scan(with_errors)
    assert ended.args == ["finished"] and len(win.result.errors) == 2
    assert win.app_settings.recent_folders() == [with_errors, ok]
    assert gated.started.is_set()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    win.close()


def test_a_name_filter_is_cleared_when_another_folder_is_shown_and_kept_on_a_rescan(qtbot, window_on_a, fake_scan,
                                                                                    folders):  # fmt: skip
    # An engineer filtered "g0129", scanned another folder and saw "Pairs (0 of 4)": the old
    # folder's name filtered the new one's pairs.
    win = window_on_a
    a, b = folders
    win.pairs_panel.text_filter.setText("c.html")
    gated = start_gated(qtbot, win, fake_scan, a, result=dataclasses.replace(triangle(), root=str(a)))
    gated.release.set()
    qtbot.waitUntil(lambda: not win.is_scanning(), timeout=LONG)
    assert win.pairs_panel.text_filter.text() == "c.html"  # the same folder again: kept
    gated = start_gated(qtbot, win, fake_scan, b, result=dataclasses.replace(triangle(), root=str(b)))
    gated.release.set()
    qtbot.waitUntil(lambda: not win.is_scanning(), timeout=LONG)
    assert win.pairs_panel.text_filter.text() == "" and win.tabs.tabText(0) == "Pairs (4)"
