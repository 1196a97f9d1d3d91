"""The window at 1024x640 (a new user's real-site walkthrough): the Fingerprints tab scrolled
sideways (its 40-digit SHA-1s side by side), showing 15 of 16 hex digits, coloured boxes without
their bits, and a verdict table cut to its header; the status line was cut before its notes."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QScrollArea

from dedup_gui.core.fingerprints.simhash import bits_text
from dedup_gui.core.model import DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui import scan_status
from dedup_gui.gui.inspector.fingerprints_view import _MIN_CELL, FingerprintsView
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.scan_status import MiddleElidedLabel, ScanStatus
from dedup_gui.gui.screen_fit import FRAME
from dedup_gui.gui.settings import AppSettings
from dedup_gui.gui.window_layout import splitter_sizes
from tests.gui.conftest import make_page, scores

WAIT = 10_000


def one_bit_apart() -> tuple[ScanResult, Pair]:
    a = make_page("v1.10.x/advance/accelerate-intra-node-tcp-with-ebpf/index.html", 800, 0x19958F53EA77C6BD)
    b = make_page("v1.10.x/zh/advance/accelerate-intra-node-tcp-with-ebpf/index.html", 800, 0x19958F53EA77C6BC)
    a = replace(a, sha1="1f20ac6d554267379f15c5bd688cff08b0b97ba2")
    b = replace(b, sha1="a56766f0ea949ccac6b816c97ce37e4ef5441fdd")
    pair = Pair(0, 1, scores(1.0, 1), DupType.FULL)
    return ScanResult("/scan", [a, b], [], [pair], [], Thresholds(), ScanSettings()), pair


def test_the_fingerprints_tab_fits_the_inspector_of_a_1024x640_window(qtbot):
    result, pair = one_bit_apart()
    view = FingerprintsView()
    qtbot.addWidget(view)
    view.resize(615, 270)  # the inspector's tab at 1024x640
    view.show()
    qtbot.waitExposed(view)
    view.set_pair(result, pair)
    qtbot.waitUntil(lambda: not view.is_comparing(), timeout=WAIT)
    qtbot.waitUntil(lambda: view.methods_table.rowCount() > 0, timeout=WAIT)
    area = view.findChild(QScrollArea)
    qtbot.waitUntil(lambda: area.horizontalScrollBar().maximum() == 0, timeout=2000)  # no sideways scrolling
    grid = view.bit_grid
    # the 16 hex digits and the 64 cells lie within the tab, the cells big enough for their digits
    assert grid.cell_rect(1, 63).right() <= area.viewport().width()
    assert grid._cell_size() >= _MIN_CELL
    # the verdict table shows six methods at least (the tab scrolls down to it)
    table = view.methods_table
    assert table.viewport().height() >= 6 * table.verticalHeader().defaultSectionSize()
    assert view.hamming_label.text().startswith("Hamming distance 1 bit (k = 3)")
    assert bits_text(0) == "0 bits" and bits_text(3) == "3 bits"


def test_the_status_line_keeps_its_end_in_a_narrow_window(qtbot):
    status = ScanStatus()
    qtbot.addWidget(status)
    status.resize(600, 30)
    status.show()
    message = ("Scanned 1,422 pages plus 44 other files: 9,256 duplicate pairs of 10,133 compared; 73 near-duplicate "
               "groups, 309 keep clusters (911 pages to drop); 0 errors (40.8 s). Note: 44 files are not pages")  # fmt: skip
    status.finish(message)
    qtbot.waitUntil(lambda: status.label.width() > 0)
    shown = status.label.shown_text()
    assert shown.startswith("Scanned 1,422 pages") and shown.endswith("0 errors (40.8 s); 1 note (hover to read)")
    assert "…" in shown


#: The window's size on a 1024x640 screen: the screen less the window manager's frame.
SMALL = QSize(1024, 640) - FRAME
BANNER = ("Last results, of /tmp/realsite/site, shown while /tmp/realsite/site is scanned. Browse them freely; keep "
          "choices, Not a Duplicate, the ignore list, Re-prioritize and Copy the Kept Pages wait for the scan's "
          "end, and so do threshold changes.")  # fmt: skip


def small_window(qtbot) -> MainWindow:
    win = MainWindow(scan_fn=lambda *_a: None, app_settings=AppSettings(enabled=False))
    qtbot.addWidget(win)
    win.resize(SMALL)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_the_window_stays_within_a_1024x640_screen_when_the_last_results_banner_shows(qtbot):
    # The window grew from 640 to 665 px tall when the banner appeared: the splitter asked for
    # 560 px (the tables' tabs 266, the inspector 290).  Its parts now ask for less: banner,
    # tables and inspector fit the screen's height.
    win = small_window(qtbot)
    assert win.size() == SMALL
    win.last_results_banner.setText(BANNER)  # as a scan of another folder shows it
    win.last_results_banner.show()
    qtbot.waitUntil(lambda: win.last_results_banner.height() > 0)
    qtbot.wait(50)  # the layouts take the banner
    assert win.size() == SMALL, win.size()
    assert win.minimumSizeHint().height() <= SMALL.height(), win.minimumSizeHint()
    assert win.splitter.minimumSizeHint().height() <= 400


def test_the_tables_get_the_larger_share_of_a_small_window(qtbot):
    # At 1024x640 the tables and the inspector got 266 and 290 px: about 7 pair rows showed.
    win = small_window(qtbot)
    # 460:400 before the first layout (the old split); then the tables get 60% of a small window
    qtbot.waitUntil(lambda: win.splitter.sizes()[0] >= 0.58 * sum(win.splitter.sizes()), timeout=2000)
    tables, inspector = win.splitter.sizes()
    assert tables >= 0.58 * (tables + inspector), (tables, inspector)
    assert inspector >= win.inspector.minimumSizeHint().height()
    assert splitter_sizes(500, 200) == [300, 200] and splitter_sizes(860, 200) == [460, 400]


def test_the_status_line_drops_whole_words_and_shows_them_in_its_tooltip(qtbot):
    # At 1024x640 the summary with the "your thresholds" note read "… of 10,133 compare… 309 keep
    # clusters": a word and the note cut mid-line.  Whole words give way now; the tooltip has all.
    label = MiddleElidedLabel()
    qtbot.addWidget(label)
    label.setText("Scanned 1,422 pages plus 44 other files: 5,679 duplicate pairs of 10,133 compared (your "
                  "thresholds: content partial ≥ 0.500); 73 "
                  "near-duplicate groups, 309 keep clusters (911 pages to drop); 0 errors (7.2 s)")  # fmt: skip
    words = label.text().split(" ")
    for width in (690, 500, 300):
        label.resize(width, 30)
        shown = label.shown_text()
        head, gap, tail = shown.partition(" … ")
        assert gap and label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width(), shown
        assert words[: len(head.split(" "))] == head.split(" ") and words[-len(tail.split(" ")) :] == tail.split(" ")
    assert shown.startswith("Scanned") and shown.endswith("(7.2 s)"), shown
    assert scan_status.elide_words("a b c", label.fontMetrics(), 1000) == "a b c"
