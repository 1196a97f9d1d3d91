"""The window's scan status names the pages in flight while they are slow (issue 20: "reading
pages: 0 of 7" for 36 s on two 21 MB pages looked stuck)."""

from __future__ import annotations

import threading

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline import executors
from dedup_gui.core.progress import STAGE_READ
from dedup_gui.gui.scan_status import ScanStatus


def test_the_status_adds_the_engines_detail_after_the_count(qtbot):
    status = ScanStatus()
    qtbot.addWidget(status)
    status.start("/f", [(STAGE_READ, 1.0)])
    status.update_progress(STAGE_READ, 0, 7, "still reading big-a.html (21 MB) for 12 s")
    assert status.label.text() == "Reading pages: 0 of 7 — still reading big-a.html (21 MB) for 12 s"
    status.update_progress(STAGE_READ, 7, 7, "")
    assert status.label.text() == "Reading pages: 7 of 7 — less than a second left"  # nothing in flight


def test_the_window_names_a_slow_page_while_it_is_read(qtbot, tmp_path, monkeypatch):
    from dedup_gui.gui.main_window import MainWindow

    for i in range(3):
        (tmp_path / f"ok{i}.html").write_text(f"<html><body><p>{f'page {i} words ' * 20}</p></body></html>")
    (tmp_path / "zz-big.html").write_text("<html><body><p>" + "big " * 5000 + "</p></body></html>")  # 20,036 B
    monkeypatch.setattr(executors, "SLOW_ITEM_SECONDS", 0.3)
    release = threading.Event()
    real = executors.analyse_file

    def slow(source, settings):
        if source.path == "zz-big.html":
            release.wait(10)  # a huge page, read until the test has seen it named
        return real(source, settings)

    monkeypatch.setattr(executors, "analyse_file", slow)
    window = MainWindow(settings=ScanSettings(workers=1, use_cache=False))
    qtbot.addWidget(window)
    window.show()
    try:
        window.start_scan(tmp_path)
        label = window.scan_status.label
        qtbot.waitUntil(lambda: "zz-big.html" in label.text(), timeout=5_000)
        assert label.text().startswith("Step 1 of 4, reading pages: 3 of 4 — still reading zz-big.html (20 kB) for ")
    finally:
        release.set()
    qtbot.waitUntil(lambda: not window.is_scanning(), timeout=20_000)
    assert "zz-big.html" not in label.text()
    window.close()


def test_a_finished_scans_notes_are_counted_on_the_line_and_read_in_its_tooltip(qtbot):
    # The status line ran off a 1600-px window ("… Note: warc/trail-"), notes first to go
    # and, with a long note, the counts too; the notes are now in the tooltip, counted.
    status = ScanStatus()
    qtbot.addWidget(status)
    line = "Scanned 18 files: 7 duplicate pairs of 7 compared; 0 errors (0.1 s)"
    status.finish(f"{line}. Note: learned the template of 1 site. Note: warc/trail-crawl.warc.gz: 10 records")
    assert status.label.text() == f"{line}; 2 notes (hover to read)"
    tip = status.label.toolTip()
    assert "Note: learned the template of 1 site." in tip and "Note: warc/trail-crawl.warc.gz: 10 records" in tip
    status.finish("Scan cancelled")
    assert (status.label.text(), status.label.toolTip()) == ("Scan cancelled", "")
