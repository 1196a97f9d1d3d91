"""Issue 20, the teacher's report: the teaching window on a projector and on a scan with labels
of its own.  The window opens within the screen; in presentation mode at 1280x800 the method
comparison's chart has room and its words stay inside it; the method comparison uses the labels
that belong to the scanned folder."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from dedup_gui.gui.teaching import TeachingWindow
from dedup_gui.gui.teaching.labels_search import SEARCHING_NOTE
from dedup_gui.gui.teaching.methods_view import SAMPLE_LABELS
from dedup_gui.gui.teaching.presentation import FIGURE_SCALE

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def test_the_window_opens_within_the_screen(qtbot, sample_scan):
    # at 1280x860 it was taller than an 800-pixel projector (the offscreen screen is 800 x 800)
    window = TeachingWindow(sample_scan)
    qtbot.addWidget(window)
    room = QGuiApplication.primaryScreen().availableGeometry()
    assert window.width() <= room.width() * 0.9 and window.height() <= room.height() * 0.9
    assert (window.width(), window.height()) == (min(1280, int(room.width() * 0.9)), min(860, int(room.height() * 0.9)))


def test_presentation_mode_at_1280x800_gives_the_pr_chart_room_and_keeps_its_words_inside(qtbot, sample_scan):
    # Before: beside the confusion matrix the chart's legend squeezed the curves to some 100
    # pixels and the title ran off the figure ("…rings: the thresholds in use (leger").
    window = TeachingWindow(sample_scan)
    qtbot.addWidget(window)
    window.show()
    view = window.methods_view
    with qtbot.waitSignal(view.finished, timeout=LONG):
        window.show_tab("Method comparison")
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)  # a 1280 x 800 projector (the test's screen is smaller)
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1280, 800), timeout=LONG)
    qtbot.wait(200)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    fig = view.plot.figure
    assert fig.dpi == pytest.approx(100 * FIGURE_SCALE * view.plot.canvas.devicePixelRatioF())
    assert fig.bbox.height >= 20 * view.fontMetrics().height() - 60  # the figure: 20 lines, less the Save bar
    assert fig.bbox.width >= 1100  # under the matrix, the whole width
    ax = fig.axes[0]
    plot_area = ax.get_window_extent()
    assert plot_area.width >= 0.4 * fig.bbox.width and plot_area.height >= 0.5 * fig.bbox.height
    renderer = fig.canvas.get_renderer()
    texts = [ax.title, ax._left_title, ax.xaxis.label, ax.yaxis.label, *ax.get_legend().get_texts()]
    for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        texts += [t.label1 for t in axis.get_major_ticks() if low <= t.get_loc() <= high]
    for text in (t for t in texts if t.get_visible() and t.get_text()):
        bb = text.get_window_extent(renderer)
        assert fig.bbox.x0 - 1 <= bb.x0 and bb.x1 <= fig.bbox.x1 + 1, text.get_text()
        assert fig.bbox.y0 - 1 <= bb.y0 and bb.y1 <= fig.bbox.y1 + 1, text.get_text()
    window.presentation.set_active(False)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    window.close()


def moved_scan(sample_scan, root):
    """The sample scan as if its folder were ``root`` (the same pages and pairs)."""
    return dataclasses.replace(sample_scan, root=str(root))


def wait_labels(qtbot, view) -> None:
    """Wait until the Methods tab's search for the scan's labels (off the GUI thread) is done."""
    qtbot.waitUntil(lambda: view.labels_label.text() != SEARCHING_NOTE, timeout=LONG)


def test_the_method_comparison_uses_the_labels_beside_the_scanned_folder(qtbot, sample_scan, tmp_path):
    # a scan of shared/pairs/pages used the samples' EXPECTED.csv, not shared/pairs/labels.csv
    (tmp_path / "pages").mkdir()
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "left,right,type\npages/site/articles/night-ride-safety.html,pages/print/night-ride-safety.html,content\n",
        encoding="utf-8",
    )
    window = TeachingWindow(moved_scan(sample_scan, tmp_path / "pages"))
    qtbot.addWidget(window)
    view = window.methods_view
    wait_labels(qtbot, view)
    assert view.labels_path() == labels
    assert "labels: ../labels.csv (1 pairs)" in view.labels_label.text()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)  # the views given the scan


def test_with_no_labels_for_the_scan_the_tab_says_so_and_uses_no_others(qtbot, sample_scan, tmp_path):
    window = TeachingWindow(moved_scan(sample_scan, tmp_path))  # no CSV there or in its parent
    qtbot.addWidget(window)
    view = window.methods_view
    wait_labels(qtbot, view)
    assert view.path_edit.text() == "" and view.labels_path() != SAMPLE_LABELS
    assert "no labels CSV" in view.labels_label.text() and "Labels CSV…" in view.labels_label.text()
    window.show()
    window.show_tab("Method comparison")
    qtbot.wait(50)
    assert view.run is None and not view.is_busy()  # nothing run on unrelated labels
    window.set_result(sample_scan)  # the samples: their own EXPECTED.csv
    wait_labels(qtbot, view)
    assert view.labels_path() == SAMPLE_LABELS
    assert "labels: EXPECTED.csv (16 pairs)" in view.labels_label.text()
    qtbot.waitUntil(lambda: view.run is not None, timeout=LONG)  # the tab in view: run at once
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    window.close()


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_presentation_mode_after_visiting_every_tab_keeps_the_methods_table_in_sight(qtbot, sample_scan, size):
    # A teacher visited all five tabs, then turned presentation mode on: the Method comparison
    # opened on its confusion matrix, the twelve methods' table collapsed to 0 px above the
    # splitter's handle (sizes [0, 1412]).
    window = TeachingWindow(sample_scan)
    qtbot.addWidget(window)
    window.show()
    view = window.methods_view
    names = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    for name in names:
        window.show_tab(name)
        qtbot.wait(30)
    qtbot.waitUntil(lambda: view.run is not None and not window.is_busy(), timeout=LONG)
    window.show_tab(names[0])
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    window.show_tab("Method comparison")
    qtbot.wait(200)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    assert view.splitter.sizes()[0] >= view.tables_height() - 2, view.splitter.sizes()
    window.presentation.set_active(False)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    window.close()
