"""A new user's feedback on the window's status line (an SEO analyst on a 1,422-page site):
re-classifying after a threshold change, Not a Duplicate or Keep This Page Instead took seconds
with no sign of it (the line still said an old message, or "Marked…" at once while the tables
showed the old state); after a cancelled scan the counts were gone; Export offered
~/duplicates-report.html."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from PySide6.QtWidgets import QDialog

from dedup_gui.core.model import Thresholds
from dedup_gui.gui import main_window, window_decisions, window_ignore
from dedup_gui.gui.export_dialog import ExportDialog
from dedup_gui.gui.main_window import summarize
from tests.gui.conftest import open_scanned
from tests.gui.test_ignore_list import triangle

LONG = 60_000


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def held(monkeypatch, module, name: str) -> threading.Event:
    """Make ``module.name`` (a re-classification run in the background) wait for the returned
    event before it runs: the window is seen while the work is under way."""
    real = getattr(module, name)
    go = threading.Event()

    def waiting(*args):
        assert go.wait(LONG / 1000)
        return real(*args)

    monkeypatch.setattr(module, name, waiting)
    return go


def busy_shown(win) -> bool:
    bar = win.scan_status.progress_bar
    return (
        bar.isVisible() and (bar.minimum(), bar.maximum()) == (0, 0) and not win.scan_status.cancel_button.isVisible()
    )


def test_not_a_duplicate_says_re_classifying_until_the_tables_follow(qtbot, fake_scan, site, monkeypatch):
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    go = held(monkeypatch, window_ignore, "renot")
    assert win.mark_pair_not_duplicate(0)  # a-b
    # at once: what is under way, with a busy bar, and no "Marked…" over it yet (the old code
    # said "Marked …" while the pairs table still showed the pair as a full duplicate)
    assert win.scan_status.label.text() == "Marking a.html and b.html not a duplicate: re-classifying 4 pairs…"
    assert win.statusBar().currentMessage() == "" and busy_shown(win)
    qtbot.wait(50)
    assert win.result.pairs[0].not_duplicate is False and busy_shown(win)  # still the old result
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        go.set()
    # the views follow, then the line says what was done and how many pairs changed type;
    # under it, the summary of the new result (back when the message times out)
    assert win.result.pairs[0].not_duplicate is True
    assert win.statusBar().currentMessage() == (
        "Marked a.html and b.html not a duplicate (saved for rescans): 1 pair re-classified"
    )
    assert not win.scan_status.progress_bar.isVisible()
    assert win.scan_status.label.text() == summarize(win.result)
    win.close()


def test_a_threshold_change_says_re_classifying_until_the_tables_follow(qtbot, fake_scan, site, monkeypatch):
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    go = held(monkeypatch, main_window, "reclassify_with_columns")
    win.apply_thresholds(Thresholds(content_same=0.999))  # a-b (0.99), a-c, b-c no longer full
    assert win.scan_status.label.text() == "Re-classifying 4 pairs…" and busy_shown(win)
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        go.set()
    assert win.result.thresholds.content_same == 0.999
    assert win.statusBar().currentMessage() == "Thresholds applied: 3 pairs re-classified"
    assert win.scan_status.label.text() == summarize(win.result) and not win.scan_status.progress_bar.isVisible()
    win.close()


def test_keep_this_page_instead_says_re_classifying_until_the_tree_follows(qtbot, fake_scan, site, monkeypatch):
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    go = held(monkeypatch, window_decisions, "rekeep")
    assert win.keep_page_instead(1)  # b.html instead of a.html
    assert win.scan_status.label.text() == "Keeping b.html: re-classifying 4 pairs…" and busy_shown(win)
    assert win.statusBar().currentMessage() == ""  # the old code said "Keeping b.html (…)" at once
    with qtbot.waitSignal(win.results_changed, timeout=LONG):
        go.set()
    assert win.result.keep_policy.chosen == ("b.html",)
    assert win.statusBar().currentMessage() == (
        "Kept b.html instead of a.html: the kept page of keep cluster 1 (your choice, saved for rescans)"
    )
    assert not win.scan_status.progress_bar.isVisible()
    win.close()


def test_a_failed_re_classification_ends_the_busy_line(qtbot, fake_scan, site, monkeypatch):
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)

    def broken(*_args):
        raise MemoryError("no room")

    monkeypatch.setattr(main_window, "reclassify_with_columns", broken)
    win.apply_thresholds(Thresholds(content_same=0.999))
    qtbot.waitUntil(lambda: not win.scan_status.progress_bar.isVisible(), timeout=LONG)
    assert win.scan_status.label.text() == "Re-classification failed: MemoryError: no room"
    win.close()


def test_export_offers_a_file_named_after_the_scan_beside_it_then_the_last_export_folder(qtbot, fake_scan, site,
                                                                                        tmp_path, monkeypatch):  # fmt: skip
    win = open_scanned(qtbot, fake_scan, site, dataclasses.replace(triangle(), root=str(site)), LONG)
    offered = []
    chosen = tmp_path / "reports" / "mine.html"

    def answer(dialog):
        offered.append(dialog.path_edit.text())
        dialog.path_edit.setText(str(chosen))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", answer)
    monkeypatch.setattr(win, "export_to", lambda *args: None)
    win.ask_export()
    # beside the scanned folder, never inside it (the input folder is only read), named after it;
    # the old code offered ~/duplicates-report.html
    assert offered == [str(tmp_path / "site-duplicates.html")]
    win.ask_export()
    assert offered[1] == str(tmp_path / "reports" / "site-duplicates.html")  # the last export's folder
    win.close()


def test_the_export_dialog_s_default_names_follow_the_format_and_the_scan():
    from dedup_gui.export import default_name

    assert [default_name(f, "/s/site") for f in ("html", "pdf", "json", "csv", "pages-csv", "keep-csv", "xlsx")] == [
        "site-duplicates.html", "site-duplicates.pdf", "site-duplicates.json", "site-duplicate-pairs.csv",
        "site-pages.csv", "site-keep-plan.csv", "site-duplicates.xlsx"]  # fmt: skip
    assert default_name("html", "/s/crawl.warc.gz") == "crawl-duplicates.html"
    assert default_name("html") == "duplicates-report.html"


def test_a_re_classification_does_not_wait_for_the_views_computations(qtbot, fake_scan, site, blocked_global_pool):
    # A tester waited ~6 s after a threshold change and >3 s after Keep This Page Instead: the
    # re-classification queued in the pool where the charts and the inspector compute.
    win = open_scanned(qtbot, fake_scan, site, triangle(), LONG)
    with qtbot.waitSignal(win.results_changed, timeout=10_000):  # the old code: never, until released
        win.apply_thresholds(Thresholds(content_same=0.999))
    assert win.result.thresholds.content_same == 0.999
    win.close()
