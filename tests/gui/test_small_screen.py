"""The window at 1024x640 (a new user's real-site walkthrough): the Fingerprints tab scrolled
sideways (its 40-digit SHA-1s side by side), showing 15 of 16 hex digits, coloured boxes without
their bits, and a verdict table cut to its header; the status line was cut before its notes."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QScrollArea

from dedup_gui.core.fingerprints.simhash import bits_text
from dedup_gui.core.model import DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.inspector.fingerprints_view import _MIN_CELL, FingerprintsView
from dedup_gui.gui.scan_status import ScanStatus
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
