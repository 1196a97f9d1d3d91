"""The method comparison tab runs with the window's thresholds and scan settings, as the CLI's
``evaluate`` does with the same values, and never shows results that are not the current ones.

A new-user test (a search engineer on shared/pairs): with content same 0.8, layout same 0.3 and
k 10 in the Thresholds panel, the tab still said "SimHash (64-bit) k <= 3" and macro-F1 0.960
(the CLI: 0.885); the Resiliparse extractor changed nothing either; after a run on an empty CSV
failed, the previous run's tables, matrix and figure stayed under the error.
"""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from dedup_gui.core.evaluation.evaluate import evaluate
from dedup_gui.core.evaluation.method_eval import evaluate_methods
from dedup_gui.core.model import TYPE_ORDER, Thresholds
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.gui.teaching import methods_view as methods_module
from dedup_gui.gui.teaching.methods_view import MethodsView

LONG = 60_000
#: Thresholds at which the bundled samples' 16 pairs score otherwise than at the defaults
#: (macro-F1 0.567, not 1.000: content same 0.6 makes the layout pair "content", partial 0.5
#: the partial pair "distinct"), and k 10, not 3.
OTHER = Thresholds(content_same=0.6, content_partial=0.5, layout_same=0.3, hamming_k=10)

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def labels(samples_dir):
    return samples_dir / "EXPECTED.csv"


@pytest.fixture
def view(qtbot, labels):
    widget = MethodsView(labels)  # a labels file given: no search for the scan's
    qtbot.addWidget(widget)
    return widget


def run(qtbot, view) -> None:
    """Press Run and wait for the results and their figure."""
    with qtbot.waitSignal(view.finished, timeout=LONG):
        view.start()
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)


def shown_row(view, name: str) -> list[str]:
    table = view.methods_table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == name)
    return [table.item(row, c).text() for c in range(table.columnCount())]


def legend_texts(fig) -> list[str]:
    legend = fig.axes[0].get_legend() or fig.legends[0]
    return [t.get_text() for t in legend.get_texts()]


def test_the_tab_scores_at_the_windows_thresholds_as_the_core_evaluate_does(qtbot, view, labels, sample_scan):
    scan = dataclasses.replace(sample_scan, thresholds=OTHER)  # the Thresholds panel's values
    view.set_scan(scan)
    run(qtbot, view)
    scored, report = evaluate_methods(labels, thresholds=OTHER, settings=scan.settings)
    ev = evaluate(scored)
    assert ev.macro_f1 == pytest.approx(0.567, abs=5e-4)  # at the defaults: 1.000
    assert view.run.evaluation == ev
    assert f"16 pairs · accuracy {ev.accuracy:.3f} · macro-F1 {ev.macro_f1:.3f}" in view.summary_label.text()
    # per type to 3 decimals, as the CLI (it rounded to 2: "F1 0.93" for 0.929 and 0.926)
    for t in (t for t in TYPE_ORDER if ev.support[t]):
        assert f"{t.value}: P {ev.precision[t]:.3f} R {ev.recall[t]:.3f} F1 {ev.f1[t]:.3f}" in view.summary_label.text()
    simhash = shown_row(view, "SimHash (64-bit)")
    assert simhash[1] == "k ≤ 10" and simhash[4] == f"{report.defaults['simhash'].f1:.3f}"
    assert shown_row(view, "content similarity")[1] == "≥ 0.600"
    assert "SimHash (64-bit); ring: k = 10" in legend_texts(view.plot.figure)
    # the header names what produced the numbers, in the words of the CLI's evaluate
    assert view.settings_label.text().replace("\u00a0", " ") == (
        "settings: extractor fast; min tokens 8; content same ≥ 0.600; partial ≥ 0.500; layout same ≥ 0.300; k ≤ 10"
    )


def test_new_thresholds_grey_the_results_and_run_again_when_the_tab_is_shown(qtbot, view, labels, sample_scan):
    view.set_scan(sample_scan)
    run(qtbot, view)
    first = view.run
    assert view.results.isEnabled() and view.stale_label.isHidden() and view.run_button.text() == "Run"
    view.set_scan(dataclasses.replace(sample_scan, thresholds=OTHER))  # re-classified; the tab not in view
    qtbot.wait(50)
    assert view.run is first and view.is_stale()
    assert not view.results.isEnabled() and not view.stale_label.isHidden()  # greyed, and said why
    assert view.stale_label.text().startswith("Thresholds changed: the results below are of the previous run, on ")
    assert "content same ≥ 0.925" in view.stale_label.text() and view.run_button.text() == "Run again"
    assert view.stale_label.text().endswith("Run again.")
    with qtbot.waitSignal(view.finished, timeout=LONG):
        view.show()
        # while it runs again, the line says so ("Run again." read as a request to a tester)
        assert view.stale_label.text().endswith("Running again…")
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    assert view.run.used.thresholds == OTHER and not view.is_stale()
    assert view.results.isEnabled() and view.stale_label.isHidden() and view.run_button.text() == "Run"
    assert shown_row(view, "SimHash (64-bit)")[1] == "k ≤ 10"
    # the same file and scan settings: the pages read for the first run serve this one
    page = next(iter(first.pages))
    assert view.run.pages[page] is first.pages[page]
    assert view.run.evaluation == evaluate(evaluate_methods(labels, thresholds=OTHER, settings=sample_scan.settings)[0])


def test_another_extractor_reads_the_pages_again_with_it(qtbot, view, labels, sample_scan):
    view.show()
    with qtbot.waitSignal(view.finished, timeout=LONG):
        view.set_scan(sample_scan)  # in view: runs at once
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    settings = dataclasses.replace(sample_scan.settings, extractor="resiliparse")  # Scan > Main-Content Extractor
    with qtbot.waitSignal(view.finished, timeout=LONG):
        view.set_scan(dataclasses.replace(sample_scan, settings=settings))  # rescanned with it
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    assert view.run.used.settings.extractor == "resiliparse" and not view.is_stale()
    assert view.settings_label.text().startswith("settings: extractor resiliparse; min tokens 8;")
    assert view.run.evaluation == evaluate(evaluate_methods(labels, settings=settings)[0])


def assert_no_results(view) -> None:
    assert view.run is None
    assert view.methods_table.rowCount() == 0 and view.confusion_counts() == []
    assert view.summary_label.text() == "" and view.plot.canvas.image.isNull()
    assert not view.plot.save_button.isEnabled()  # no blank figure to save
    assert view.stale_label.isHidden()


def test_a_failed_run_leaves_no_results_of_the_previous_one(qtbot, view, sample_scan, tmp_path):
    view.set_scan(sample_scan)
    run(qtbot, view)
    assert view.methods_table.rowCount() == 12 and not view.plot.canvas.image.isNull()
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    view.set_labels(empty)
    with qtbot.waitSignal(view.failed, timeout=LONG):
        view.start()
    assert view.status_label.text() == (
        f"Could not compare the methods: {empty}: needs columns 'left' and 'right' (found: none)"
    )
    assert_no_results(view)


def test_a_cancelled_run_leaves_no_results_of_the_previous_one(qtbot, view, sample_scan, monkeypatch):
    view.set_scan(sample_scan)
    run(qtbot, view)
    started = threading.Event()

    def slow(labels_csv, progress=None, *_settings):
        started.set()
        while not progress.cancelled():
            time.sleep(0.005)
        raise ScanCancelled("cancelled")

    monkeypatch.setattr(methods_module, "run_methods", slow)
    view.start()
    assert started.wait(10)
    with qtbot.waitSignal(view.failed, timeout=LONG):
        view.cancel()
    assert view.status_label.text() == "Cancelled."
    assert_no_results(view)


def test_run_with_no_labels_file_named_says_so_instead_of_reading_the_folder(qtbot, view):
    # A teacher on a folder without labels pressed Run with the field empty: "Could not compare
    # the methods: [Errno 21] Is a directory: '.'".  Run is off while no file is named.
    view.path_edit.setText("")
    assert not view.run_button.isEnabled()
    view.start()  # as the button's click would, were it on
    assert view.status_label.text() == "No labels file: choose one with “Labels CSV…”."
    assert not view.is_busy()
    view.path_edit.setText("labels.csv")
    assert view.run_button.isEnabled()


def test_a_labels_file_typed_into_the_field_is_named_on_the_labels_line(qtbot, view, sample_scan, tmp_path):
    # A teacher typed shared/pairs/labels.csv and ran: the line above still read "labels:
    # EXPECTED.csv (16 pairs), found beside the scanned folder" over 233 pairs of labels.csv.
    typed = tmp_path / "mine.csv"
    typed.write_text(
        "left,right,type\nsite/articles/night-ride-safety.html,print/night-ride-safety.html,content\n",
        encoding="utf-8",
    )
    view.path_edit.setText(str(typed))
    view.start()
    assert view.labels_label.text() == "labels: mine.csv (typed in the field)"
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)


def test_labels_of_pages_outside_the_scan_say_their_figures_are_not_the_scans(qtbot, view, sample_scan, tmp_path):
    # A tester scanned one folder and typed shared/pairs/labels.csv: the figures of that file's
    # own pages showed without a word, as if they were the scanned folder's.
    import shutil

    from ..conftest import SAMPLES

    copy = tmp_path / "copy"
    shutil.copytree(SAMPLES / "site", copy / "site")
    shutil.copytree(SAMPLES / "print", copy / "print")
    typed = tmp_path / "mine.csv"
    typed.write_text(
        "left,right,type\ncopy/site/articles/night-ride-safety.html,copy/print/night-ride-safety.html,content\n",
        encoding="utf-8",
    )
    view.set_scan(sample_scan)
    view.path_edit.setText(str(typed))
    run(qtbot, view)
    outside = "none of its pages is in the scanned folder: these figures are of the file's own pages, not of the scan"
    assert view.status_label.text().endswith("; " + outside)
    # the samples' own labels, with the samples' scan: no such note
    view.path_edit.setText(str(SAMPLES / "EXPECTED.csv"))
    run(qtbot, view)
    assert outside not in view.status_label.text()
