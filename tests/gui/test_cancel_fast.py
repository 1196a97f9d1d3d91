"""Cancel in the window takes effect within a second even in the template stage, which the
engine ran to its end before (4 s on a real site of 1,422 pages)."""

from __future__ import annotations

import dataclasses
import time

from PySide6.QtCore import Qt

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline import site_template
from dedup_gui.gui import worker as worker_module
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.settings import AppSettings

LONG = 60_000  # ms: generous, for a slow machine
#: Seconds from the click on Cancel to the window saying so (the engine looks every 8 pages).
BOUND = 1.5


def test_cancel_during_template_learning_ends_the_scan_at_once(qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    for i in range(80):
        words = " ".join(f"w{i}x{k}" for k in range(60))
        (folder / f"p{i:03d}.html").write_text(f"<html><body><article><p>{words}</p></article></body></html>")
    real = site_template.main_line_hashes
    learned = []

    def slow(text):  # 80 pages at 0.1 s: 8 s of template learning
        time.sleep(0.1)
        learned.append(1)
        return real(text)

    monkeypatch.setattr(site_template, "main_line_hashes", slow)

    def scan(root, settings, thresholds, progress):
        settings = dataclasses.replace(settings or ScanSettings(), use_cache=False, workers=1)
        return worker_module.scan_folder(root, settings, thresholds, progress)

    window = MainWindow(app_settings=AppSettings(enabled=False), scan_fn=scan)
    qtbot.addWidget(window)
    window.show()
    try:
        window.start_scan(folder)
        qtbot.waitUntil(lambda: "learning" in window.scan_status.label.text(), timeout=LONG)
        start = time.monotonic()
        with qtbot.waitSignal(window.scan_ended, timeout=LONG) as ended:
            qtbot.mouseClick(window.scan_status.cancel_button, Qt.MouseButton.LeftButton)
        took = time.monotonic() - start
        assert ended.args == ["cancelled"]
        assert took < BOUND
        assert len(learned) < 80  # stopped part-way through the stage
        assert window.scan_status.label.text() == "Scan of site cancelled"
        assert not window.is_scanning() and window.open_action.isEnabled()  # usable again
    finally:
        window.close()
