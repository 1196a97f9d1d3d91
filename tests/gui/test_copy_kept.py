"""File > Copy the Kept Pages to a New Folder… in the window: the copy runs in the background,
follows the user's keep decisions, says what it wrote, and refuses a folder inside the scan."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from dedup_gui.core.model import ScanSettings
from dedup_gui.gui.main_window import MainWindow

LONG = 60_000
BODY = "<html><body><p>" + " ".join(f"word{i}" for i in range(80)) + "</p></body></html>"


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def test_copy_the_kept_pages_from_the_window(qtbot, tmp_path):
    site = tmp_path / "site"
    for sub in ("v1", "v2"):
        (site / sub).mkdir(parents=True)
        (site / sub / "a.html").write_text(BODY)
    (site / "style.css").write_text("p {}")
    win = MainWindow(settings=ScanSettings(workers=1, use_cache=False))
    qtbot.addWidget(win)
    win.show()
    assert win.copy_kept_action.text() == "&Copy the Kept Pages to a New Folder…"
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(site)
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    # a folder inside the scanned one is refused, with the reason, and nothing is written
    assert not win.copy_kept_to(site / "copy")
    assert "outside the scanned folder" in win.copy_notice.text() and not (site / "copy").exists()
    # keep the older version instead (Ctrl+K on v1): the copy follows the choice
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        assert win.keep_page_instead(0)
    out = tmp_path / "copy"
    assert win.copy_kept_to(out)
    qtbot.waitUntil(lambda: not win.copy_is_running() and win.copy_dialog is None, timeout=LONG)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["style.css", "v1/a.html"]
    assert win.copy_notice.text().startswith("Wrote 1 page and 1 other file (")
    assert "left out 1 duplicate page." in win.copy_notice.text()
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()) == [
        "style.css", "v1/a.html", "v2/a.html"]  # fmt: skip
    win.close()


def test_a_new_folder_typed_in_the_copy_dialog_is_made(qtbot, tmp_path, monkeypatch):
    # Qt's folder chooser refused a typed new name ("Directory not found"): the dialog takes
    # a typed path, says what will happen, and enables Copy only where the copy is allowed
    site = tmp_path / "site"
    for sub in ("v1", "v2"):
        (site / sub).mkdir(parents=True)
        (site / sub / "a.html").write_text(BODY)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: "")  # old code's chooser, cancelled
    win = MainWindow(settings=ScanSettings(workers=1, use_cache=False))
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(site)
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    win.copy_kept_action.trigger()
    dialog = win.copy_destination_dialog
    assert dialog is not None and dialog.isVisible()
    # the offer is a new folder beside the scan, which the copy accepts
    assert dialog.path_edit.text() == str((tmp_path / "site-kept").resolve())
    assert dialog.copy_button.isEnabled()
    dialog.path_edit.setText(str(site / "inside"))
    assert not dialog.copy_button.isEnabled() and dialog.verdict.text().startswith("Refused: the copy must be")
    out = tmp_path / "new" / "deeper"
    dialog.path_edit.setText(str(out))
    assert dialog.copy_button.isEnabled()
    assert dialog.verdict.text() == f"A new folder: {out.resolve()} will be made"
    dialog.copy_button.click()
    qtbot.waitUntil(lambda: out.is_dir() and not win.copy_is_running() and win.copy_dialog is None, timeout=LONG)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["v2/a.html"]
    win.close()


def test_the_copy_does_not_wait_for_the_views_computations(qtbot, tmp_path, blocked_global_pool):
    # A tester's copy of 552 files took 15 s (31 s the first time) where cp -a took 0.14 s: it
    # queued in Qt's global pool behind the map's and the inspector's computations (4.7 s here
    # with the Map tab shown after a scan of the real site, 0.6 s in a pool of its own).
    site = tmp_path / "site"
    for sub in ("v1", "v2"):
        (site / sub).mkdir(parents=True)
        (site / sub / "a.html").write_text(BODY)
    win = MainWindow(settings=ScanSettings(workers=1, use_cache=False))
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_ended, timeout=LONG):
        win.start_scan(site)
    out = tmp_path / "copy"
    assert win.copy_kept_to(out)
    # the old code: never while the global pool is busy
    qtbot.waitUntil(lambda: not win.copy_is_running() and win.copy_dialog is None, timeout=10_000)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["v2/a.html"]
    win.close()
