"""The scan status bar (one bar for the whole scan, labelled steps, a cautious ETA), the garbage
collection pause of background jobs, and a clean exit while a job still runs."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.progress import (
    SCAN_STAGES,
    STAGE_CACHE,
    STAGE_CANDIDATES,
    STAGE_MEASURE,
    STAGE_READ,
    STAGE_TEMPLATES,
    EtaEstimator,
)
from dedup_gui.gui.main_window import scan_stages
from dedup_gui.gui.scan_status import BAR_STEPS, ScanStatus

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def make_window_for_progress(qtbot):
    """Build MainWindows that are closed (scans cancelled, threads joined) after the test."""
    from dedup_gui.gui.main_window import MainWindow

    windows = []

    def make(**kwargs):
        window = MainWindow(**kwargs)
        windows.append(window)
        qtbot.addWidget(window)
        window.show()
        return window

    yield make
    for window in windows:
        window.close()


class Clock:
    """A settable monotonic clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_one_bar_for_the_whole_scan_with_labelled_steps(qtbot):
    clock = Clock()
    status = ScanStatus(eta_factory=lambda: EtaEstimator(clock=clock))
    qtbot.addWidget(status)
    status.start("/some/folder")
    assert status.progress_bar.maximum() == 0  # busy until the first report
    values = []

    def report(stage: str, done: int, total: int) -> None:
        status.update_progress(stage, done, total)
        assert status.progress_bar.maximum() == BAR_STEPS
        values.append(status.progress_bar.value())

    for done in range(0, 1000, 64):
        report(STAGE_CACHE, done, 1000)
    assert status.label.text() == "Step 1 of 5, looking up the feature cache: 960 of 1,000"
    for done in range(101):
        report(STAGE_READ, done, 100)
    assert status.label.text().startswith("Step 2 of 5, reading pages: 100 of 100")
    report(STAGE_TEMPLATES, 0, 100)
    report(STAGE_TEMPLATES, 48, 100)
    # the template step counts pages: the bar moves (it stood at "0 of 1" for seconds)
    assert status.label.text() == "Step 3 of 5, learning each site's template: 48 of 100"
    assert values[-1] > values[-2]
    report(STAGE_TEMPLATES, 100, 100)
    report(STAGE_CANDIDATES, 0, 1)
    assert status.label.text() == "Step 4 of 5, finding candidate pairs: 0 of 1"
    report(STAGE_CANDIDATES, 1, 1)
    for done in range(0, 501, 50):
        report(STAGE_MEASURE, done, 500)
    assert status.label.text().startswith("Step 5 of 5, comparing pairs: 500 of 500")
    assert values == sorted(values)  # never restarts at a new stage
    assert values[-1] == BAR_STEPS


def test_the_eta_waits_for_a_rate_and_says_it_is_for_the_step(qtbot):
    clock = Clock()
    status = ScanStatus(eta_factory=lambda: EtaEstimator(clock=clock, min_seconds=3.0, min_fraction=0.01, settle=0.0))
    qtbot.addWidget(status)
    status.start("/f")
    status.update_progress(STAGE_READ, 0, 1000)
    clock.now = 5.0  # workers starting: no page yet
    status.update_progress(STAGE_READ, 1, 1000)
    clock.now = 6.0
    status.update_progress(STAGE_READ, 11, 1000)
    assert "left" not in status.label.text()  # 1 s of data: no guess yet
    clock.now = 9.0
    status.update_progress(STAGE_READ, 41, 1000)
    assert status.label.text() == "Step 2 of 5, reading pages: 41 of 1,000 — about 1 min 36 s left in this step"


def test_a_scan_without_the_cache_has_no_cache_step():
    assert scan_stages(ScanSettings(use_cache=True)) == SCAN_STAGES
    names = [name for name, _w in scan_stages(ScanSettings(use_cache=False))]
    assert names == [STAGE_READ, STAGE_TEMPLATES, STAGE_CANDIDATES, STAGE_MEASURE]
    # no template step when the templates are not learned: the steps are numbered "of 3"
    names = [name for name, _w in scan_stages(ScanSettings(use_cache=False, learn_templates=False))]
    assert names == [STAGE_READ, STAGE_CANDIDATES, STAGE_MEASURE]


def test_the_window_shows_the_scan_steps_it_will_run(qtbot, make_window_for_progress, fake_scan, tmp_path):
    window = make_window_for_progress(scan_fn=fake_scan(steps=400, delay=0.005),
                                      settings=ScanSettings(use_cache=False))  # fmt: skip
    window.start_scan(tmp_path)
    qtbot.waitUntil(lambda: "reading pages:" in window.scan_status.label.text(), timeout=60_000)
    assert window.scan_status.label.text().startswith("Step 1 of 4, reading pages:")
    qtbot.waitUntil(lambda: not window.is_scanning(), timeout=60_000)


def test_background_jobs_collect_only_the_young_generations(qtbot):
    from dedup_gui.gui.inspector.jobs import gc_pause

    pause = gc_pause()
    was = gc.isenabled()
    before = [s["collections"] for s in gc.get_stats()]
    pause.enter()
    try:
        assert not gc.isenabled()
        qtbot.waitUntil(lambda: gc.get_stats()[1]["collections"] > before[1], timeout=5000)
        assert gc.get_stats()[2]["collections"] == before[2]  # never a full collection
    finally:
        pause.leave()
    qtbot.waitUntil(lambda: not pause._timer.isActive(), timeout=2000)
    assert gc.isenabled() == was


def test_a_job_ending_after_its_pause_object_was_deleted_is_quiet(qapp):
    import shiboken6

    from dedup_gui.gui.inspector.jobs import _GcPause

    pause = _GcPause()
    shiboken6.delete(pause)  # as Qt does to every QObject when the application ends
    pause.leave()  # was: RuntimeError: Signal source has been deleted


def test_quitting_while_a_background_job_runs_prints_no_error(tmp_path):
    script = tmp_path / "quit_early.py"
    script.write_text(
        textwrap.dedent("""
        import time
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        app = QApplication([])
        from dedup_gui.gui.inspector.jobs import LatestJob

        job = LatestJob()
        job.submit(time.sleep, 1.0)  # still running when the application goes
        QTimer.singleShot(100, app.quit)
        app.exec()
    """)
    )
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Signal source has been deleted" not in done.stderr
    assert "Traceback" not in done.stderr


def test_startup_objects_are_left_out_of_later_collections():
    from dedup_gui.gui.app import freeze_startup_objects

    try:
        frozen = freeze_startup_objects()
        assert frozen > 0 and gc.get_freeze_count() == frozen
        assert len(gc.get_objects()) < frozen  # a full collection now walks only newer objects
    finally:
        gc.unfreeze()  # the test process goes on with its normal collector


def test_cluster_count_columns_fit_their_widest_text(qtbot, sample_scan):
    from dedup_gui.gui.tables.clusters_view import ClustersView

    view = ClustersView()
    qtbot.addWidget(view)
    view.show()
    view.set_mode("groups")
    view.set_result(sample_scan)  # sized from the font, without asking the model row by row
    header = view.tree.header()
    ours = [header.sectionSize(c) for c in (1, 2)]
    view.tree.expandAll()  # the page rows' "keep #k" / "drop #k" count too
    for column in (1, 2):
        view.tree.resizeColumnToContents(column)  # what Qt's own measuring gives
    qt = [header.sectionSize(c) for c in (1, 2)]
    assert abs(ours[0] - qt[0]) <= 4 and qt[1] <= ours[1] <= qt[1] + 8, (ours, qt)


def test_the_garbage_collector_never_destroys_a_live_qobject(qtbot, sample_scan):
    # A job's relay had no Qt parent: left in a cycle with its job's wrapper once the view was
    # gone, it was destroyed by the cyclic collector wherever that ran, once inside Qt's signal
    # lock (a disconnect calling into Python), and its destructor waited for that lock: a clean
    # CI run hung.  Every QObject the collector finds must already be deleted on the Qt side.
    from PySide6.QtCore import QObject
    from shiboken6 import Shiboken

    from dedup_gui.gui.teaching import TeachingWindow

    gc.collect()
    for _ in range(2):
        panel = TeachingWindow(sample_scan)  # views with background jobs, closed as a user closes them
        panel.show()
        qtbot.waitUntil(lambda p=panel: not p.is_busy(), timeout=60_000)
        panel.close()
        panel.deleteLater()
        del panel
    qtbot.wait(50)  # the deferred deletes
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        live = [type(o).__name__ for o in gc.garbage if isinstance(o, QObject) and Shiboken.isValid(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert live == []
