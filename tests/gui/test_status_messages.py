"""The status bar's short confirmations are seen: the scan summary steps aside while one shows
and comes back when it times out (the summary used to be a permanent widget that covered them)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import open_scanned
from tests.gui.test_ignore_list import triangle

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def test_ctrl_d_confirmation_shows_and_the_summary_comes_back(qtbot, fake_scan, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text("<p>a</p>")
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    summary = win.scan_status.label
    assert summary.isVisible() and summary.text().startswith("Scanned")
    win.show_tab(win.pairs_panel)
    win.pairs_panel.view.setFocus()
    assert win.pairs_panel.select_record(0)  # a-b
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        qtbot.keyClick(win.pairs_panel.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    bar = win.statusBar()
    assert bar.currentMessage() == "Marked a.html and b.html not a duplicate (saved for rescans): 1 pair re-classified"
    # nothing covers the message: the summary is hidden while it shows ...
    assert not summary.isVisible()
    # ... and back, with the re-classified result's numbers, once the message times out
    bar.clearMessage()
    assert summary.isVisible() and summary.text().startswith("Scanned")
    win.close()
