"""Issue 20: the Methods tab looks for the scan's labels CSV off the GUI thread.

``find_scan_labels`` reads every CSV of up to 20 MB in the scanned folder and its parent; run in
``set_scan`` on the GUI thread, a parent folder with large CSVs froze the window at every scan.
Each test replaces it with a search that waits on an event the test sets, so the GUI thread
returning before the search ends is observable."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from PySide6.QtCore import QThreadPool

from dedup_gui.core.evaluation.scan_labels import ScanLabels
from dedup_gui.gui.teaching import labels_search
from dedup_gui.gui.teaching import methods_view as methods_module
from dedup_gui.gui.teaching.labels_search import SEARCHING_NOTE
from dedup_gui.gui.teaching.methods_view import SAMPLE_LABELS, MethodsView

LONG = 60_000
#: How long a stand-in search waits for its event at most (s): the old code ran it on the GUI
#: thread, where nothing could set the event, so set_scan returned only after this.
GATE_S = 5

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


class GatedSearch:
    """A stand-in for ``find_scan_labels``: the answer for each scanned folder, given once the
    folder's event is set; records which folders were searched and which searches ended."""

    def __init__(self, answers: dict[str, ScanLabels | None]) -> None:
        self.answers = answers
        self.gates = {root: threading.Event() for root in answers}
        self.started: list[str] = []
        self.ended: list[str] = []

    def __call__(self, result):
        self.started.append(result.root)
        self.gates[result.root].wait(GATE_S)
        self.ended.append(result.root)
        return self.answers[result.root]


def labels_file(folder, pairs: int = 2, in_scan: int = 2) -> ScanLabels:
    """A labels file in ``folder``'s parent, as find_scan_labels describes it (the file is made:
    the tab runs only on a file that exists)."""
    path = folder.parent / "labels.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("left,right,type\n", encoding="utf-8")
    return ScanLabels(path, "../labels.csv", pairs, in_scan)


def scan_in(sample_scan, folder):
    """The sample scan as if its folder were ``folder`` (the same pages and pairs)."""
    return dataclasses.replace(sample_scan, root=str(folder))


@pytest.fixture
def view(qtbot):
    widget = MethodsView()
    qtbot.addWidget(widget)
    return widget


def test_set_scan_returns_before_the_search_ends_and_shows_the_file_found_after(
    qtbot, view, sample_scan, tmp_path, monkeypatch
):
    folder = tmp_path / "site" / "pages"
    found = labels_file(folder, pairs=3, in_scan=2)
    search = GatedSearch({str(folder): found})
    monkeypatch.setattr(labels_search, "find_scan_labels", search)
    scan = scan_in(sample_scan, folder)
    view.set_scan(scan)
    assert search.ended == []  # back on the GUI thread while the search still runs
    assert view.labels_label.text() == SEARCHING_NOTE and view.is_busy()
    assert view.labels_path() == SAMPLE_LABELS  # nothing decided yet
    search.gates[str(folder)].set()
    qtbot.waitUntil(lambda: view.labels_label.text() != SEARCHING_NOTE, timeout=LONG)
    assert view.labels_label.text() == "labels: ../labels.csv (3 pairs, 2 of them in the scan), found in the scanned folder's parent"  # fmt: skip
    assert view.labels_path() == found.path and not view.is_busy()
    # a re-classification keeps the pages list: the answer is reused at once, not searched again
    view.set_scan(dataclasses.replace(scan, pairs=[]))
    assert view.labels_label.text().startswith("labels: ../labels.csv (3 pairs")
    assert search.started == [str(folder)] and not view.is_busy()


def test_the_late_answer_of_a_superseded_search_is_dropped(qtbot, view, sample_scan, tmp_path, monkeypatch):
    old, new = tmp_path / "old" / "pages", tmp_path / "new" / "pages"
    search = GatedSearch({str(old): labels_file(old), str(new): None})
    monkeypatch.setattr(labels_search, "find_scan_labels", search)
    view.set_scan(scan_in(sample_scan, old))
    # running before it is superseded (a superseded search still waiting for a thread never starts)
    qtbot.waitUntil(lambda: len(search.started) == 1, timeout=LONG)
    view.set_scan(scan_in(sample_scan, new))
    assert view.labels_label.text() == SEARCHING_NOTE
    qtbot.waitUntil(lambda: len(search.started) == 2, timeout=LONG)
    search.gates[str(old)].set()  # the older search ends first ...
    qtbot.waitUntil(lambda: search.ended == [str(old)], timeout=LONG)
    qtbot.wait(50)  # ... and its answer reaches the GUI thread's event loop
    assert view.labels_label.text() == SEARCHING_NOTE and view.labels_path() == SAMPLE_LABELS
    search.gates[str(new)].set()
    qtbot.waitUntil(lambda: view.labels_label.text() != SEARCHING_NOTE, timeout=LONG)
    assert view.labels_label.text().startswith("labels: no labels CSV in the scanned folder")
    assert view.path_edit.text() == "" and view.status_label.text() == "No labels for this scan."


def test_a_file_chosen_during_the_search_wins(qtbot, view, sample_scan, tmp_path, monkeypatch):
    folder = tmp_path / "site" / "pages"
    search = GatedSearch({str(folder): labels_file(folder)})
    monkeypatch.setattr(labels_search, "find_scan_labels", search)
    view.set_scan(scan_in(sample_scan, folder))
    assert view.labels_label.text() == SEARCHING_NOTE
    chosen = tmp_path / "chosen.csv"
    view.set_labels(chosen)
    assert not view.is_busy()  # the search's answer is no longer waited for
    search.gates[str(folder)].set()
    QThreadPool.globalInstance().waitForDone(LONG)
    qtbot.wait(50)  # its answer, had it been kept, would arrive now
    assert view.labels_label.text() == "labels: chosen.csv (chosen)" and view.labels_path() == chosen


def test_the_tab_in_view_runs_on_the_labels_found_not_on_the_previous_ones(
    qtbot, view, sample_scan, tmp_path, monkeypatch
):
    folder = tmp_path / "site" / "pages"
    found = labels_file(folder)
    search = GatedSearch({str(folder): found})
    monkeypatch.setattr(labels_search, "find_scan_labels", search)
    runs = []

    def run_methods(labels_csv, progress=None, *_settings):
        runs.append(labels_csv)
        raise ValueError("not compared in this test")

    monkeypatch.setattr(methods_module, "run_methods", run_methods)
    view.set_scan(scan_in(sample_scan, folder))
    view.show()  # the tab shown while the search runs: the field still names the samples' file
    qtbot.wait(50)
    assert view.labels_label.text() == SEARCHING_NOTE and runs == []
    with qtbot.waitSignal(view.failed, timeout=LONG):
        search.gates[str(folder)].set()
    assert runs == [found.path]  # run once, on the file found


def test_labels_inside_the_scanned_folder_are_said_to_be_in_it_not_beside_it():
    # "EXPECTED.csv (16 pairs), found beside the scanned folder": EXPECTED.csv is inside it.
    from pathlib import Path

    from dedup_gui.core.evaluation.scan_labels import ScanLabels
    from dedup_gui.gui.teaching.labels_search import labels_note

    inside = ScanLabels(path=Path("/s/EXPECTED.csv"), shown="EXPECTED.csv", pairs=16, in_scan=16)
    beside = ScanLabels(path=Path("/labels.csv"), shown="../labels.csv", pairs=3, in_scan=3)
    assert labels_note(inside) == "labels: EXPECTED.csv (16 pairs), found in the scanned folder"
    assert labels_note(beside) == "labels: ../labels.csv (3 pairs), found in the scanned folder's parent"
