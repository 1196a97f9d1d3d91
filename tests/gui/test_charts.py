"""The chart views on the sample pages: the Hamming histogram and the content/layout map."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFileDialog

from dedup_gui.core.views.charts import DARK, LIGHT
from dedup_gui.gui.charts import histogram_view as histogram_module
from dedup_gui.gui.main_window import MainWindow

LONG = 60_000
AUDAX = ("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
PARTIAL = ("elsewhere/vale-gazette-cafes.html", "site/articles/cafe-stops.html")


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def window(qtbot, fake_scan, sample_scan, tmp_path):
    """A shown window holding the scan of the bundled samples."""
    win = MainWindow(scan_fn=fake_scan(result=sample_scan))
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(tmp_path)
    yield win
    win.close()


def pair_index(result, paths) -> int:
    return next(i for i, p in enumerate(result.pairs)
                if {result.pages[p.left].path, result.pages[p.right].path} == set(paths))  # fmt: skip


def brute_force_histogram(pages) -> list[int]:
    """Hamming distances of all pairs of pages with text, one pair at a time (no NumPy)."""
    hashes = [p.simhash for p in pages if p.has_text]
    counts = [0] * 65
    for i in range(len(hashes)):
        for j in range(i + 1, len(hashes)):
            counts[bin(hashes[i] ^ hashes[j]).count("1")] += 1
    return counts


def show_histogram(qtbot, win: MainWindow):
    view = win.histogram_view
    win.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.counts is not None and not view.is_busy(), timeout=LONG)
    drawn(qtbot, view)
    return view


def drawn(qtbot, view) -> None:
    """Wait until the chart's newest picture is shown (it is drawn off the GUI thread)."""
    qtbot.waitUntil(lambda: not view.is_stale() and not view.is_busy(), timeout=LONG)


def bars(view, gid: str) -> dict[int, float]:
    """Heights of the drawn bars with ``gid``, by the distance at their centre."""
    ax = view.figure.axes[0]
    return {round(p.get_x() + p.get_width() / 2): p.get_height() for p in ax.patches if p.get_gid() == gid}


def widget_point(canvas, x: float, y: float) -> QPoint:
    """A display point of a matplotlib canvas (pixels from the bottom left) as a Qt widget point."""
    ratio = canvas.device_pixel_ratio
    return QPoint(round(x / ratio), round(canvas.height() - y / ratio))


def test_histogram_counts_equal_a_brute_force_count(qtbot, window, sample_scan):
    view = show_histogram(qtbot, window)
    expected = brute_force_histogram(sample_scan.pages)
    n = sum(1 for p in sample_scan.pages if p.has_text)
    assert sum(expected) == n * (n - 1) // 2 == 120
    shown = bars(view, "all")
    assert [int(shown[d]) for d in range(65)] == expected  # what is drawn, bar by bar
    assert view.counts.tolist() == expected
    # the classified pairs are drawn in their type's colour at their distance
    assert bars(view, "layout")[6] == 1 and bars(view, "partial")[10] == 1
    assert bars(view, "full")[0] == 4 and bars(view, "content")[0] == 1
    assert view.figure.axes[0].get_title() == "Hamming distances of all 120 pairs of pages"
    assert "120 pairs of pages; 5 within k = 3 bits" in view.status_label.text()


def test_histogram_is_counted_off_the_gui_thread(qtbot, window, monkeypatch, sample_scan):
    started, release, threads = threading.Event(), threading.Event(), []

    def slow_histogram(result, progress=None):
        threads.append(threading.current_thread())
        started.set()
        release.wait(LONG / 1000)
        return np.arange(65, dtype=np.int64)

    monkeypatch.setattr(histogram_module, "result_histogram", slow_histogram)
    view = window.histogram_view
    window.tabs.setCurrentWidget(view)
    view.set_result(None)
    view.set_result(sample_scan)
    qtbot.waitUntil(started.is_set, timeout=LONG)
    assert view.is_busy() and window.is_busy()
    assert view.status_label.text() == "Computing the Hamming distances of 120 pairs of pages…"
    assert view.progress_bar.isVisible()
    qtbot.wait(50)  # the event loop runs meanwhile: the window is not frozen
    release.set()
    with qtbot.waitSignal(view.computed, timeout=LONG):
        pass
    assert threads and threads[0] is not threading.main_thread()
    assert view.counts.tolist() == list(range(65)) and not view.progress_bar.isVisible()


def test_clicking_a_bar_filters_the_pairs_table_to_that_distance(qtbot, window, sample_scan):
    view = show_histogram(qtbot, window)
    ax = view.figure.axes[0]
    x, y = ax.transData.transform((6, 0.5))  # inside the bar at distance 6 (the layout pair)
    qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=widget_point(view.canvas, x, y))

    panel = window.pairs_panel
    assert window.tabs.currentWidget() is panel
    assert panel.model.rowCount() == 1
    record = panel.model.record(0)
    assert window.pairs_model.pair_at(0) is sample_scan.pairs[pair_index(sample_scan, AUDAX)]
    assert panel.current_record() == record  # the only pair shown is selected
    assert panel.filter_chip.isVisible() and panel.filter_chip.text() == "Hamming distance = 6 ×"
    assert window.tabs.tabText(0) == "Pairs (1 of 7)"

    qtbot.mouseClick(panel.filter_chip, Qt.MouseButton.LeftButton)  # the chip clears the filter
    assert panel.model.rowCount() == 7 and not panel.filter_chip.isVisible()
    assert panel.current_record() == record  # the selection stays


def test_clicking_the_distance_of_several_pairs_shows_them_all(qtbot, window):
    view = show_histogram(qtbot, window)
    window.histogram_view.click_distance(0)
    panel = window.pairs_panel
    distances = {panel.model.index(r, 6).data() for r in range(panel.model.rowCount())}
    assert panel.model.rowCount() == 5 and distances == {"0"}
    view.click_distance(40)  # no pair of pages at all: nothing happens
    assert panel.filter_chip.text() == "Hamming distance = 0 ×" and panel.model.rowCount() == 5


def test_a_bar_of_pairs_that_were_not_compared_says_why_the_table_is_empty(qtbot, window, sample_scan):
    # The histogram counts all 120 pairs of the 16 sample pages; the table lists the 7 compared
    # ones.  A bar with pairs but none compared gave an empty table with no word (a tester).
    view = show_histogram(qtbot, window)
    compared = {p.scores.hamming_distance for p in sample_scan.pairs}
    distance = next(d for d in range(65) if view.counts[d] and d not in compared)
    view.click_distance(distance)
    panel = window.pairs_panel
    assert panel.model.rowCount() == 0 and panel.filter_chip.text() == f"Hamming distance = {distance} ×"
    assert panel.empty_label.isVisible()
    assert panel.empty_label.text().startswith(f"No candidate pair is {distance} bits apart.")
    qtbot.mouseClick(panel.filter_chip, Qt.MouseButton.LeftButton)  # rows again: the line goes
    assert panel.model.rowCount() == 7 and not panel.empty_label.isVisible()
    panel.text_filter.setText("no-such-file")  # a file-name filter that hides everything
    panel.apply_text_filter()
    # the message names only the filters in force (the Errors tab has no type box and no chip)
    assert panel.empty_label.isVisible()
    assert panel.empty_label.text() == "No row matches the filters: clear the file-name filter."
    panel.type_combo.setCurrentText("layout duplicate")
    assert panel.empty_label.text() == 'No row matches the filters: clear the file-name filter or pick "All types".'
    window.filter_by_distance(0)  # the line names the chip just set, not the one before (a tester)
    assert panel.empty_label.text() == ('No row matches the filters: clear the file-name filter, remove '
                                        '"Hamming distance = 0" or pick "All types".')  # fmt: skip
    pages = window.pages_panel  # no type box there: the message does not name one
    pages.text_filter.setText("no-such-file")
    pages.apply_text_filter()
    assert pages.empty_label.text() == "No row matches the filters: clear the file-name filter."


def test_histogram_k_line_log_scale_and_selected_distance(qtbot, window, sample_scan):
    view = show_histogram(qtbot, window)
    ax = view.figure.axes[0]
    assert [t.get_text() for t in ax.texts] == ["k = 3"]
    window.thresholds_panel.hamming_k.setValue(5)
    with qtbot.waitSignal(window.results_changed, timeout=LONG):
        pass
    drawn(qtbot, view)
    ax = view.figure.axes[0]
    assert [t.get_text() for t in ax.texts] == ["k = 5"]
    assert any(np.allclose(line.get_xdata(), [5.5, 5.5]) for line in ax.lines)
    view.log_check.setChecked(True)
    drawn(qtbot, view)
    assert view.figure.axes[0].get_yscale() == "log"
    # the selected pair's distance is marked
    window.select_pair(pair_index(sample_scan, AUDAX))
    window.tabs.setCurrentWidget(view)
    drawn(qtbot, view)
    marks = [line for line in view.figure.axes[0].lines if line.get_gid() == "selected"]
    assert len(marks) == 1 and list(marks[0].get_xdata()) == [6]
    # and the line above the chart says what the mark is (a tester asked what the black ▼ was)
    assert "▼ marks the selected pair (6 bits)." in view.status_label.text()


def show_map(qtbot, win: MainWindow):
    view = win.map_view
    win.tabs.setCurrentWidget(view)
    drawn(qtbot, view)
    return view


def test_clicking_a_map_point_selects_that_pair(qtbot, window, sample_scan):
    view = show_map(qtbot, window)
    target = pair_index(sample_scan, PARTIAL)
    assert window.current_pair_index() != target
    x, y = view.point_position(target)
    qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(round(x), round(y)))
    # The map stays in front, the next point one click away (a tester had to come back to the
    # map after every click); the table selects the pair and the inspector shows it.
    assert window.tabs.currentWidget() is view
    assert window.current_pair_index() == target
    assert window.inspector.current_pair() is sample_scan.pairs[target]
    assert view.selected_pair() == target  # and the map rings it


def test_hovering_a_map_point_shows_the_two_file_names(qtbot, window, sample_scan):
    view = show_map(qtbot, window)
    target = pair_index(sample_scan, AUDAX)
    x, y = view.point_position(target)
    qtbot.mouseMove(view.canvas, QPoint(round(x) + 2, round(y) - 1))
    qtbot.waitUntil(lambda: view.hover_label() != "", timeout=5000)
    assert view.hover_label() == f"{AUDAX[0]}\n{AUDAX[1]}\n(layout duplicate)"
    qtbot.mouseMove(view.canvas, QPoint(5, 5))  # away from every point
    qtbot.waitUntil(lambda: view.hover_label() == "", timeout=5000)


def test_map_regions_follow_the_thresholds(qtbot, window):
    view = show_map(qtbot, window)
    window.thresholds_panel.content_same.setValue(0.8)
    window.thresholds_panel.layout_same.setValue(0.5)
    with qtbot.waitSignal(window.results_changed, timeout=LONG):
        pass
    drawn(qtbot, view)
    ax = view.figure.axes[0]
    xs = {round(line.get_xdata()[0], 3) for line in ax.lines}
    ys = {round(line.get_ydata()[0], 3) for line in ax.lines}
    assert 0.8 in xs and 0.5 in ys
    labels = [t.get_text() for t in view.figure.legends[0].get_texts()]  # the regions' key
    assert "full duplicate" in labels and any(t.startswith("layout duplicate") for t in labels)


def visible_texts(figure):
    from matplotlib.text import Text

    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("content_same, layout_same", [(None, None), (0.9, 0.3), (0.6, 0.9)])
def test_no_region_name_covers_a_point_of_the_map(qtbot, window, sample_scan, content_same, layout_same):
    # Issue 20: the region names were written in the middle of their regions, over the points
    # there (with layout_same = 0.3 "partial duplicate" covered the partial pair of the
    # samples), and the narrow full and content regions could not hold theirs.  They are now a
    # key below the axes, laid out as the regions are (on a tall map; a short one has it beside
    # them: test_a_short_map_keeps_its_height_for_the_points).
    view = show_map(qtbot, window)
    view.canvas.setFixedSize(640, 560)  # tall: the key below the axes
    drawn(qtbot, view)
    if content_same is not None:
        window.thresholds_panel.content_same.setValue(content_same)
        window.thresholds_panel.layout_same.setValue(layout_same)
        shown = (content_same, layout_same)
        qtbot.waitUntil(lambda: (window.result.thresholds.content_same, window.result.thresholds.layout_same) == shown,
                        timeout=LONG)  # fmt: skip
        qtbot.waitUntil(lambda: not window.is_busy() and not view.is_stale(), timeout=LONG)
        drawn(qtbot, view)
        assert view.figure.axes[0].lines[0].get_xdata()[0] == pytest.approx(content_same)  # drawn with them
    points = view._pixels
    assert len(points) == len(sample_scan.pairs) == 7
    key = view.figure.legends[0]
    assert [t.get_gid() for t in key.get_texts()] == ["layout", "partial", "distinct", "full", "content"]
    partial = window.result.thresholds.content_partial
    assert key.get_texts()[1].get_text() == f"partial duplicate (if containment ≥ {partial:g})"
    # the grey dots of the distinct pairs are in the key too (a tester could not tell what they were)
    assert key.get_texts()[2].get_text() == f"distinct (containment < {partial:g})"
    names = visible_texts(view.figure)
    assert {"full duplicate", "content duplicate"} <= {t.get_text() for t in names}
    for text in names:
        box = text.get_window_extent()
        covered = [i for i, (x, y) in enumerate(points) if box.contains(x, y)]
        assert covered == [], (text.get_text(), covered)
    axes = view.figure.axes[0].get_window_extent()
    assert key.get_window_extent().y1 <= axes.y0  # below the axes: on no point, whatever the data


def test_charts_follow_a_dark_palette(qtbot, window):
    view = show_histogram(qtbot, window)
    assert view.figure.get_facecolor()[:3] == pytest.approx(QColor(LIGHT.background).getRgbF()[:3])
    palette = QPalette(window.palette())
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#e0e0e0"))
    view.setPalette(palette)  # a PaletteChange event redraws the chart
    drawn(qtbot, view)
    assert view.figure.get_facecolor()[:3] == pytest.approx(QColor(DARK.background).getRgbF()[:3])


def test_charts_save_as_png_and_svg(qtbot, window, tmp_path, monkeypatch):
    view = show_histogram(qtbot, window)
    png = view.save_chart(tmp_path / "histogram.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "map"), "SVG image (*.svg)"))  # fmt: skip
    show_map(qtbot, window)
    window.map_view.save_button.click()  # the dialog's choice without a suffix: SVG
    svg = (tmp_path / "map.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "candidate pairs" in svg
    with pytest.raises(ValueError):
        view.save_chart(tmp_path / "chart.gif")


def test_a_hidden_histogram_counts_a_moment_after_the_result_not_with_it(qtbot, sample_scan):
    # Counting starts threads that take the cores; while the window is busy showing a new result
    # a hidden histogram waits (HIDDEN_START_DELAY_MS), and counts at once when it is shown.
    from dedup_gui.gui.charts.histogram_view import HistogramView

    view = HistogramView()
    qtbot.addWidget(view)
    view.set_result(sample_scan)
    assert view.counts is None and not view.is_busy() and view._start_timer.isActive()
    view.show()
    qtbot.waitUntil(lambda: view.counts is not None, timeout=LONG)
    assert not view._start_timer.isActive() and int(view.counts.sum()) == 120
    hidden = HistogramView()  # never shown: it still counts, after the delay
    qtbot.addWidget(hidden)
    hidden.set_result(sample_scan)
    qtbot.waitUntil(lambda: hidden.counts is not None, timeout=LONG)
    assert int(hidden.counts.sum()) == 120


def test_a_filter_that_hides_the_selected_pair_clears_the_inspector(qtbot, window, sample_scan):
    # The inspector kept showing a pair that the table no longer listed (a tester).
    view = show_histogram(qtbot, window)
    compared = {p.scores.hamming_distance for p in sample_scan.pairs}
    distance = next(d for d in range(65) if view.counts[d] and d not in compared)
    assert window.inspector.current_pair() is not None  # the first duplicate is shown
    view.click_distance(distance)
    assert window.current_pair_index() is None and window.inspector.current_pair() is None


@pytest.mark.parametrize("log", [False, True])
def test_histogram_y_labels_stay_apart_in_a_small_window(qtbot, window, log):
    # At the histogram's smallest size in the window (about 800 x 200 px), the two panels' y
    # labels ran into each other with "Log scale" on ("comparedall pairs (log)", a tester).
    view = show_histogram(qtbot, window)
    view.canvas.setFixedSize(800, 200)
    view.log_check.setChecked(log)
    drawn(qtbot, view)
    top, below = (ax.yaxis.label.get_window_extent() for ax in view.figure.axes[:2])
    # display y grows upwards: the top panel's label is wholly above, with a clear gap (the
    # labels of the tester's screenshot were 5 px apart and read as one word)
    assert top.y0 - below.y1 >= 10


@pytest.mark.parametrize(
    ("files", "histogram", "map_"),
    [
        ({}, "No pages: the folder holds no page that could be read", "No pages: the folder holds no page that could be read"),
        ({"a.html": "<p>one lonely page with some words in it</p>"}, "No pairs: the folder holds one page",
         "No pairs: no two pages share enough text to be compared"),
    ],
)  # fmt: skip
def test_empty_results_say_so_instead_of_drawing_empty_axes(qtbot, tmp_path, files, histogram, map_):
    # An empty folder's histogram once drew a y axis from "-40 m" to "40 m".
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.gui.charts.histogram_view import HistogramView
    from dedup_gui.gui.charts.map_view import MapView

    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False))
    for view_class, expected in ((HistogramView, histogram), (MapView, map_)):
        view = view_class()
        qtbot.addWidget(view)
        view.set_result(result)
        view.redraw(force=True)
        qtbot.waitUntil(lambda v=view: not v.is_busy(), timeout=LONG)  # drawn off the GUI thread
        assert view.figure.axes == []
        assert [t.get_text() for t in view.figure.texts] == [expected]
        if hasattr(view, "shutdown"):
            view.shutdown()


def test_drawing_the_charts_never_stalls_the_gui_thread(qtbot, window):
    # matplotlib laid out and drew the histogram (two panels, some 400 bar patches) in 0.3 s of
    # CPU on the GUI thread at every tab switch, log toggle or selection; the map in 0.17 s on a
    # real site.  Both are drawn on the pool now.
    from tests.gui.stall import StallMeter

    meter = StallMeter()
    try:
        meter.doing = "histogram shown"
        view = show_histogram(qtbot, window)
        meter.doing = "log scale"
        view.log_check.setChecked(True)
        drawn(qtbot, view)
        meter.doing = "map shown"
        show_map(qtbot, window)
        qtbot.wait(30)
    finally:
        worst = meter.worst()
    assert worst[0] < 0.2, f"the GUI thread stalled {worst[0]:.3f} s during: {worst[1]}"


def test_a_chart_that_cannot_be_saved_says_why(qtbot, window, tmp_path, monkeypatch):
    # The histogram and the teaching figures share one way to ask, save and report a failure.
    from PySide6.QtWidgets import QMessageBox

    view = show_histogram(qtbot, window)
    target = tmp_path / "no-such-folder" / "h.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PNG image (*.png)"))
    view.save_button.click()
    box = next(w for w in view.findChildren(QMessageBox))
    assert box.windowTitle() == "Save Chart" and box.text().startswith("Could not save the chart: ")
    assert "no-such-folder" in box.text() and not target.exists()
    box.close()


@pytest.mark.parametrize("size", [(868, 317), (612, 207)])
def test_a_short_map_keeps_its_height_for_the_points(qtbot, window, sample_scan, size):
    # The map's sizes in the window at 1280x800 and 1024x640 (a tester): laid out for a tall
    # figure, its two-line x label and three-row key under the axes left the points 46 to 176
    # px of 207 to 317, and its y label ran off the top ("layout similarity (tag seq").  Short,
    # it has its key beside the axes, short axis labels, and their long meaning in a tooltip.
    view = show_map(qtbot, window)
    view.canvas.setFixedSize(*size)
    drawn(qtbot, view)
    fig = view.figure
    figure, axes = fig.bbox, fig.axes[0].get_window_extent()
    assert axes.height >= 0.6 * figure.height, (axes.height, figure.height)
    ax = fig.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("content similarity (containment if higher)", "layout similarity")
    for label in (ax.xaxis.label, ax.yaxis.label):  # whole, inside the figure, on one line
        box = label.get_window_extent()
        assert figure.x0 <= box.x0 and box.x1 <= figure.x1 and figure.y0 <= box.y0 and box.y1 <= figure.y1
        assert "\n" not in label.get_text()
    key = fig.legends[0]
    assert key.get_window_extent().x0 >= axes.x1  # beside the axes: on no point, and no height taken
    partial = window.result.thresholds.content_partial
    texts = [t.get_text() for t in key.get_texts()]
    assert texts[0] == "full duplicate" and f"partial duplicate\n(if containment ≥ {partial:g})" in texts
    # the long meaning, in the tooltip of the line above the map
    assert (
        "content similarity, or containment where that is higher and the texts' Jaccard" in view.status_label.toolTip()
    )


def test_a_short_histogram_has_its_key_beside_its_panels(qtbot, window):
    # At 1024x640 the histogram is about 612 x 201 px: its key, in the top panel, covered the
    # bars there and ran off that panel's bottom ("partial duplicate" cut, a screenshot).
    view = show_histogram(qtbot, window)
    view.canvas.setFixedSize(612, 201)
    drawn(qtbot, view)
    fig = view.figure
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    assert len(legends) == 1
    key = legends[0].get_window_extent()
    assert fig.bbox.x0 <= key.x0 and key.x1 <= fig.bbox.x1 and fig.bbox.y0 <= key.y0 and key.y1 <= fig.bbox.y1
    for ax in fig.axes:  # on no bar of either panel
        assert key.x0 >= ax.get_window_extent().x1
