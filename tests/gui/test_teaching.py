"""The teaching window on the bundled samples: SimHash step by step, Jaccard and MinHash, Hamming
distance, the four types gallery, the method comparison, and the presentation mode."""

from __future__ import annotations

import csv
import dataclasses
import math
import threading
import time

import pytest
from PySide6.QtCore import Qt, QThreadPool
from PySide6.QtGui import QFontMetricsF, QPalette
from PySide6.QtWidgets import QLabel

from dedup_gui.core.evaluation.evaluate import evaluate
from dedup_gui.core.evaluation.method_eval import METHOD_KEYS, evaluate_methods
from dedup_gui.core.fingerprints.simhash import simhash_text
from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.core.teaching.jaccard_steps import TOY_A, TOY_B, shingle_comparison
from dedup_gui.core.teaching.simhash_steps import text_simhash_steps
from dedup_gui.core.teaching.venn import lens_area
from dedup_gui.gui.teaching import TAB_TITLES, TeachingWindow
from dedup_gui.gui.teaching import methods_view as methods_module
from dedup_gui.gui.teaching import simhash_view as simhash_module
from dedup_gui.gui.teaching.hamming_view import ROW_A, ROW_B, parse_fingerprint
from dedup_gui.gui.teaching.presentation import FIGURE_SCALE, FONT_SCALE
from dedup_gui.gui.teaching.steps_table import ROW_SUMS, TABLE_CAP, TOY_TEXT

LONG = 60_000
AUDAX = ("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def window(qtbot, sample_scan):
    """A shown teaching window holding the scan of the bundled samples."""
    win = TeachingWindow(sample_scan)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def page_of(result, path):
    return next(p for p in result.pages if p.path == path)


def bits64(value: int, bits: int = 64) -> list[int]:
    return [int(c) for c in format(value, f"0{bits}b")]


def wait_steps(qtbot, view, text: str) -> None:
    """Wait until the SimHash view shows the steps of ``text``."""
    qtbot.waitUntil(lambda: not view.is_busy() and view.steps is not None and view.source_text() == text,
                    timeout=LONG)  # fmt: skip


# --- SimHash step by step ---------------------------------------------------------------------


def test_stepping_through_a_page_shows_the_engines_sums_and_fingerprint(qtbot, window, sample_scan):
    view = window.show_tab("SimHash step by step")
    page = page_of(sample_scan, AUDAX[1])
    assert view.select_page(page.path)
    wait_steps(qtbot, view, page.main_text)
    expected = text_simhash_steps(page.main_text)
    n = len(expected.steps)
    assert view.feature_count() == n > 100
    assert view.displayed_sums() == [0] * 64  # the start: every sum 0
    for i, step in enumerate(expected.steps, start=1):
        qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
        assert view.displayed_sums() == list(step.sums), f"sums after feature {i}"
        assert view.displayed_hash_bits() == list(step.hash_bits)
        assert view.step_label.text().startswith(f"feature {i} of {n}: “{step.feature}”")
        assert view.displayed_fingerprint_bits() == []  # not before the sign step
    assert view.next_button.isEnabled()
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)  # the sign step
    assert not view.next_button.isEnabled() and not view.last_button.isEnabled()
    shown = view.displayed_fingerprint_bits()
    assert shown == bits64(simhash_text(page.main_text)) == bits64(page.simhash)
    assert f"0x{page.simhash:016x}" in view.fingerprint_label.text()
    assert "the same ✓" in view.fingerprint_label.text()


def test_an_8_bit_fingerprint_is_written_in_hex_and_bits(qtbot, window):
    # "58" read as a decimal number; "0x58 = 0101 1000" cannot be misread.
    view = window.show_tab("SimHash step by step")
    view.set_eight_bit(True)
    view.set_text("the cat sat on the mat")
    wait_steps(qtbot, view, "the cat sat on the mat")
    view.last()
    fingerprint = view.steps.fingerprint
    bits = f"{fingerprint:08b}"
    assert f"Fingerprint (8 bits): 0x{fingerprint:02x} = {bits[:4]} {bits[4:]}" in view.fingerprint_label.text()


def test_previous_first_and_last_move_through_the_precomputed_steps(qtbot, window, sample_scan):
    view = window.simhash_view
    page = page_of(sample_scan, "zh/spring-tea-picking-utf8.html")  # CJK bigram features
    view.select_page(page.path)
    wait_steps(qtbot, view, page.main_text)
    expected = text_simhash_steps(page.main_text)
    view.go_to(40)
    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)
    assert view.position == 39
    assert view.displayed_sums() == list(expected.steps[38].sums)
    qtbot.mouseClick(view.last_button, Qt.MouseButton.LeftButton)
    assert view.displayed_sums() == list(expected.sums)
    assert view.displayed_fingerprint_bits() == bits64(page.simhash)
    qtbot.mouseClick(view.first_button, Qt.MouseButton.LeftButton)
    assert view.position == 0 and view.displayed_sums() == [0] * 64
    assert not view.previous_button.isEnabled()
    # the table marks the current feature and lists every feature of this page
    view.go_to(5)
    assert view.model.rowCount() == len(expected.steps)
    assert view.model.index(4, 1).data() == expected.steps[4].feature


def test_the_steps_are_computed_once_off_the_gui_thread(qtbot, window, monkeypatch):
    view = window.simhash_view
    threads = []

    def recording(text, bits=64):
        threads.append(threading.current_thread())
        return text_simhash_steps(text, bits)

    monkeypatch.setattr(simhash_module, "text_simhash_steps", recording)
    view.set_text("one two three two three three four")
    wait_steps(qtbot, view, "one two three two three three four")
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    for _ in range(view.last_position()):
        view.next()
    view.first()
    assert len(threads) == 1  # stepping never computes again


def test_eight_bit_mode_on_the_toy_text_shows_eight_big_cells(qtbot, window):
    view = window.simhash_view
    view.set_text(TOY_TEXT)
    view.set_eight_bit(True)
    qtbot.waitUntil(lambda: not view.is_busy() and view.steps is not None and view.steps.bits == 8, timeout=LONG)
    assert view.board.columns() == 8
    assert len(view.board.row_texts(ROW_SUMS)) == 8
    assert view.model.columnCount() == 3 + 8
    assert view.board.cell_rect(0, 0).width() >= 56  # blackboard cells
    expected = text_simhash_steps(TOY_TEXT, bits=8)
    view.go_to(3)
    assert view.displayed_sums() == list(expected.steps[2].sums)
    view.last()
    shown = view.displayed_fingerprint_bits()
    assert len(shown) == 8
    assert shown == bits64(simhash_text(TOY_TEXT) & 0xFF, 8)  # the last byte of the 64-bit SimHash
    view.set_eight_bit(False)
    qtbot.waitUntil(lambda: not view.is_busy() and view.steps.bits == 64, timeout=LONG)
    assert view.board.columns() == 64 and view.position == view.last_position()  # the place is kept
    assert view.displayed_fingerprint_bits() == bits64(simhash_text(TOY_TEXT))


def test_autoplay_runs_to_the_sign_step_and_stops(qtbot, window):
    view = window.simhash_view
    view.set_text(TOY_TEXT)
    wait_steps(qtbot, view, TOY_TEXT)
    view.speed_slider.setValue(30)
    qtbot.mouseClick(view.play_button, Qt.MouseButton.LeftButton)
    assert view.play_button.isChecked() and view.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: view.position == view.last_position(), timeout=LONG)
    qtbot.waitUntil(lambda: not view.play_button.isChecked(), timeout=LONG)
    assert view.play_button.text() == "Autoplay"
    assert view.displayed_fingerprint_bits() == bits64(simhash_text(TOY_TEXT))


def test_typed_text_is_hashed_as_it_is_typed(qtbot, window):
    view = window.simhash_view
    view.set_text("red fish")
    wait_steps(qtbot, view, "red fish")
    assert not view.text_edit.isReadOnly()
    view.text_edit.moveCursor(view.text_edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(view.text_edit, " blue fish")
    wait_steps(qtbot, view, "red fish blue fish")
    assert view.feature_count() == 3
    view.last()
    assert view.displayed_fingerprint_bits() == bits64(simhash_text("red fish blue fish"))


def test_many_features_cap_the_table_but_stepping_stays_instant(qtbot, window):
    view = window.simhash_view
    text = " ".join(f"w{i}" for i in range(TABLE_CAP + 700))
    view.set_text(text)
    wait_steps(qtbot, view, text)
    assert view.feature_count() == TABLE_CAP + 700
    assert view.model.rowCount() == TABLE_CAP
    assert f"first {TABLE_CAP:,} of {TABLE_CAP + 700:,}" in view.note_label.text()
    view.go_to(TABLE_CAP + 300)  # beyond the table
    start = time.perf_counter()
    for _ in range(200):
        view.next()
    elapsed = time.perf_counter() - start
    assert view.position == TABLE_CAP + 500
    assert view.displayed_sums() == list(text_simhash_steps(text).steps[TABLE_CAP + 499].sums)
    assert elapsed < 5.0, f"200 steps took {elapsed:.2f} s"


# --- Jaccard and shingles ---------------------------------------------------------------------


def test_toy_mode_shows_two_sevenths(qtbot, window):
    view = window.show_tab("Jaccard and shingles")
    view.show_toy()
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and view.data.toy, timeout=LONG)
    text = view.jaccard_label.text().replace("\u00a0", " ")  # no-break spaces inside formulas
    assert "2/7 = 0.285…" in text  # cut as every view writes similarities, "…": digits were cut
    assert "|A| = 5" in text and "|B| = 4" in text and "|A ∩ B| = 2" in text and "= 7" in text
    assert view.venn.region_counts() == (3, 2, 2)
    # drawn to scale: the overlap's share of circle A is the share of A's shingles shared (2 of 5)
    cxa, cxb, _cy, ra, rb = view.venn.circles()
    assert ra * ra / (rb * rb) == pytest.approx(5 / 4)
    assert lens_area(ra, rb, cxb - cxa) / (math.pi * ra * ra) == pytest.approx(2 / 5, rel=1e-3)
    shared = [view.shared_list.item(i).text() for i in range(view.shared_list.count())]
    assert shared == [x for x in TOY_A if x in TOY_B] == ["is a", "a flower"]
    assert view.only_a_list.count() == 3 and view.only_b_list.count() == 2


def test_minhash_converges_to_the_exact_jaccard_of_two_pages(qtbot, window, sample_scan):
    view = window.show_tab("Jaccard and shingles")  # a view gets the scan when shown (or after the others)
    view.set_permutations(300)
    assert view.show_pages(*AUDAX)
    qtbot.waitUntil(lambda: not view.is_busy() and view.data is not None and not view.data.toy
                    and len(view.data.convergence) == 300, timeout=LONG)  # fmt: skip
    a, b = (page_of(sample_scan, p) for p in AUDAX)
    exact = shingle_comparison(a.main_text, b.main_text, sample_scan.settings.shingle_size)
    assert view.data.comparison == exact
    assert f"{exact.fraction} = {exact.jaccard:.3f}" in view.jaccard_label.text().replace("\u00a0", " ")
    line = view.estimate_line()
    xs, ys = line.get_xdata(), line.get_ydata()
    assert len(xs) == len(ys) == 300 and list(xs) == list(range(1, 301))
    assert abs(ys[-1] - exact.jaccard) <= 0.15
    exact_line = next(ln for ln in view.plot.figure.axes[0].get_lines() if ln.get_gid() == "exact")
    assert set(exact_line.get_ydata()) == {exact.jaccard}
    assert view.shared_list.count() == len(exact.intersection)


# --- Hamming distance -------------------------------------------------------------------------


def test_a_figure_is_drawn_off_the_gui_thread_at_the_panels_size(qtbot):
    # matplotlib takes 0.1-0.2 s to lay out and draw even this small figure: on the GUI thread
    # that stalled the Jaccard view (tests/gui/test_long_pages.py).  The chart now runs on the
    # pool, and the picture shown has the panel's size in device pixels.
    from dedup_gui.gui.teaching.figure_panel import FigurePanel

    panel = FigurePanel("test", figsize=(6, 3))
    qtbot.addWidget(panel)
    panel.resize(500, 320)
    panel.show()
    threads = []

    def chart(fig):
        threads.append(threading.current_thread())
        fig.add_subplot().plot([0, 1], [0, 1], gid="line")

    rendered = []
    panel.rendered.connect(lambda: rendered.append(1))  # connected once, never disconnected: see below
    panel.draw(chart)
    assert panel.is_busy()
    # Not qtbot.waitSignal: its disconnect on leaving ran Python (PySide's disconnectNotify) under
    # Qt's signal lock, a garbage collection there deleted a Python-owned QObject, whose
    # destructor waited for the same lock: the whole suite hung once in a clean CI run.
    qtbot.waitUntil(lambda: bool(rendered) and not panel.is_busy(), timeout=LONG)
    assert threads and threading.main_thread() not in threads
    image, ratio = panel.canvas.image, panel.canvas.devicePixelRatioF()
    assert (image.width(), image.height()) == (
        round(panel.canvas.width() * ratio),
        round(panel.canvas.height() * ratio),
    )
    assert [ln.get_gid() for ln in panel.figure.axes[0].get_lines()] == ["line"]
    panel.resize(700, 320)  # a new size is drawn again once it settles
    qtbot.waitUntil(lambda: panel.canvas.image.width() == round(panel.canvas.width() * ratio), timeout=LONG)


def test_hamming_view_marks_exactly_the_differing_bits(qtbot, window, sample_scan):
    view = window.show_tab("Hamming distance")
    a, b = 0xF0F0_0000_1234_5678, 0xF0F1_8000_1234_567F
    view.set_values(a, b)
    n = bin(a ^ b).count("1")
    assert view.marked_count() == n == 5
    assert view.grid.marked_columns() == [i for i in range(64) if bits64(a)[i] != bits64(b)[i]]
    assert view.grid.row_texts(ROW_A) == [str(x) for x in bits64(a)]
    assert view.result_label.text().startswith(f"Hamming distance {n} bits; near-duplicate threshold k = 3")
    assert "not near duplicates" in view.result_label.text()
    # the 5 differing bits fall in blocks 1, 2 and 4: block 3 alone is equal
    assert view.blocks_label.text().endswith("Here block 3 is equal (green).")
    view.set_values(0x58, 0xFFFF_FFFF_FFFF_FFFF)  # every block differs ("Here blocks none are equal")
    assert view.blocks_label.text().endswith("Here no block is equal, so the block index would not find this pair.")
    # two pages' SimHashes
    assert view.select_pages(*AUDAX)
    pa, pb = (page_of(sample_scan, p) for p in AUDAX)
    assert view.marked_count() == bin(pa.simhash ^ pb.simhash).count("1")
    assert view.grid.row_texts(ROW_B) == [str(x) for x in bits64(pb.simhash)]
    # typed binary, and an invalid value
    view.edits[0].setText("0b" + "1" * 64)
    view.edits[1].setText("0" * 64)
    view.update_comparison()
    assert view.marked_count() == 64
    view.edits[1].setText("not a number")
    view.update_comparison()
    assert view.marked_count() == 0 and "not a fingerprint: type hex digits, 0x…, or 0b…" in view.error_label.text()


def test_parse_fingerprint_reads_hex_and_binary():
    assert parse_fingerprint("0x00ff") == 255
    assert parse_fingerprint("dead beef") == 0xDEADBEEF
    assert parse_fingerprint("0b101") == 5
    assert parse_fingerprint("10" * 10) == int("10" * 10, 2)  # 20 binary digits: binary
    assert parse_fingerprint("1010") == 0x1010  # short: hex
    with pytest.raises(ValueError, match="more than 64 bits"):
        parse_fingerprint("0x1" + "0" * 16)
    with pytest.raises(ValueError, match="more than 64 bits"):
        parse_fingerprint("1" * 65)
    with pytest.raises(ValueError, match="type a fingerprint"):
        parse_fingerprint("  ")


def test_a_typed_fingerprint_says_how_it_was_read(qtbot, window):
    # Issue 20: a bare "58" was read as hex without a word; a line under each field now says how
    # it was read (and what to type for the other base), and the 0x / 0b prefixes are strict.
    view = window.show_tab("Hamming distance")
    qtbot.waitUntil(lambda: view.choosers[0].page() is not None, timeout=LONG)  # given the scan

    def type_in(field: int, text: str) -> None:
        view.edits[field].clear()
        qtbot.keyClicks(view.edits[field], text)  # as typed: the chooser switches to "(typed)"

    type_in(0, "58")
    type_in(1, "0b1011000")
    assert view.readings[0].text() == "read as hex 0x58 = 0101 1000 in binary, 88 in decimal; type 0b… for binary"
    assert view.readings[1].text() == "binary 0b1011000 (7 bits) = 0x58"
    assert view.marked_count() == 0 and view.steps.distance == 0  # 0x58 = 0b1011000
    type_in(1, "0x58")
    assert view.readings[1].text() == "hex 0x58 = 0101 1000 in binary"
    type_in(1, "1" * 20)  # more 0s and 1s than 16 hex digits hold: binary
    assert view.readings[1].text() == f"read as binary 0b{'1' * 20} (20 bits) = 0xfffff; type 0x… for hex"
    # a page's fingerprint
    assert view.select_pages(*AUDAX)
    assert [r.text() for r in view.readings] == ["the page's SimHash, in hex"] * 2
    # what the prefix's base cannot hold is an error, not another base
    type_in(0, "0b12")
    assert view.steps is None and view.readings[0].text() == ""
    assert view.error_label.text() == "'0b12': after 0b only binary digits 0 and 1; for hex type 0x0b12"


def test_parse_fingerprint_is_strict_about_prefixes_and_signs():
    # Python's int() read "0x0x5" and "0b0b1" as 5 and 1 and "+5" as 5; "-5" was "more than 64 bits"
    for text, why in (("0x0x5", "after 0x only hex digits"), ("0b0b1", "after 0b only binary digits"),
                      ("+5", "not a fingerprint"), ("-5", "not a fingerprint")):  # fmt: skip
        with pytest.raises(ValueError, match=why):
            parse_fingerprint(text)
    assert parse_fingerprint("0X58") == parse_fingerprint("58") == 0x58


# --- the four types gallery -------------------------------------------------------------------


def expected_pairs(samples_dir) -> set[tuple[str, frozenset[str]]]:
    with open(samples_dir / "EXPECTED.csv", newline="", encoding="utf-8") as fh:
        return {(row["type"], frozenset((row["left"], row["right"]))) for row in csv.DictReader(fh)}


def test_gallery_shows_one_labelled_pair_of_each_type(qtbot, window, samples_dir):
    view = window.show_tab("Four types gallery")
    examples = view.examples()
    assert list(examples) == [DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL]
    labelled = expected_pairs(samples_dir)
    for dup, paths in examples.items():
        assert paths is not None, dup
        assert (dup.value, frozenset(paths)) in labelled, (dup, paths)
        card = view.cards[dup]
        assert paths[0] in card.files_label.text() and paths[1] in card.files_label.text()
        assert "content similarity" in card.measures_label.text()
        assert "layout similarity" in card.measures_label.text()
        assert card.excerpts[0].toPlainText().startswith("A: ")
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    assert "regions that differ: none" in view.cards[DupType.LAYOUT].regions_label.text()  # same tag sequence
    content = view.cards[DupType.CONTENT].regions_label.text()
    assert "regions that differ:" in content and "nav" in content and "computing" not in content
    with qtbot.waitSignal(window.open_pair, timeout=LONG) as signal:
        qtbot.mouseClick(view.cards[DupType.PARTIAL].open_button, Qt.MouseButton.LeftButton)
    assert signal.args == list(examples[DupType.PARTIAL])


# --- method comparison ------------------------------------------------------------------------


def test_methods_view_on_the_samples_shows_the_confusion_matrix_and_curves(qtbot, window, samples_dir, tmp_path):
    view = window.methods_view
    labels = samples_dir / "EXPECTED.csv"
    view.set_labels(labels)
    with qtbot.waitSignal(view.finished, timeout=LONG):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)  # the figure is drawn off the GUI thread
    counts = view.confusion_counts()
    assert sum(map(sum, counts)) == 16
    scored, report = evaluate_methods(labels)
    truth = evaluate(scored).confusion
    assert counts == [[truth[t][p] for p in TYPE_ORDER] for t in TYPE_ORDER]
    assert view.methods_table.rowCount() == len(METHOD_KEYS)
    names = [view.methods_table.item(r, 0).text() for r in range(view.methods_table.rowCount())]
    simhash_row = names.index("SimHash (64-bit)")
    assert view.methods_table.item(simhash_row, 1).text() == "k ≤ 3"
    assert view.methods_table.item(simhash_row, 4).text() == f"{report.defaults['simhash'].f1:.3f}"
    shingles_row = names.index("shingles (Jaccard)")
    assert view.methods_table.item(shingles_row, 1).text() == "≥ 0.900"
    gids = {ln.get_gid() for ax in view.plot.figure.axes for ln in ax.get_lines()}
    assert {"simhash", "simhash:default", "shingles", "shingles:default"} <= gids
    assert "16 labelled pairs" in view.status_label.text()
    assert view.plot.save(tmp_path / "pr.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in view.plot.save(tmp_path / "pr.svg").read_bytes()[:400]


def test_methods_run_can_be_cancelled(qtbot, window, monkeypatch):
    view = window.methods_view
    started, ended = threading.Event(), []

    def slow(labels_csv, progress=None, *_settings):
        started.set()
        for i in range(2000):
            progress.update("scoring labelled pairs", i, 2000)
            if progress.cancelled():
                ended.append("cancelled")
                raise ScanCancelled("cancelled")
            time.sleep(0.005)
        ended.append("finished")
        raise AssertionError("not cancelled")

    monkeypatch.setattr(methods_module, "run_methods", slow)
    view.start()
    assert started.wait(10) and view.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: "scoring labelled pairs" in view.status_label.text(), timeout=LONG)
    with qtbot.waitSignal(view.failed, timeout=LONG):
        qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    assert view.status_label.text() == "Cancelled." and not view.cancel_button.isEnabled()
    QThreadPool.globalInstance().waitForDone(LONG)
    assert ended == ["cancelled"] and view.run is None


def test_a_bad_labels_file_is_reported(qtbot, window, tmp_path):
    view = window.methods_view
    bad = tmp_path / "labels.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    view.set_labels(bad)
    with qtbot.waitSignal(view.failed, timeout=LONG) as signal:
        view.start()
    assert "needs columns 'left' and 'right'" in signal.args[0]
    assert "needs columns" in view.status_label.text()


# --- presentation mode, the window ------------------------------------------------------------


def test_presentation_mode_goes_full_screen_with_large_fonts_and_back(qtbot, window):
    view = window.show_tab("Jaccard and shingles")
    qtbot.waitUntil(lambda: not window.is_busy() and view.data is not None, timeout=LONG)
    size = window.font().pointSizeF()
    # The figure is drawn at a larger dpi: its title takes FIGURE_SCALE times the pixels.
    title = view.plot.figure.axes[0].title.get_window_extent().height
    assert not window.isFullScreen()
    window.presentation.action.trigger()  # the toolbar button (F11)
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    assert window.presentation.is_active() and window.isFullScreen()
    assert window.font().pointSizeF() == pytest.approx(size * FONT_SCALE)
    assert window.simhash_view.step_label.font().pointSizeF() == pytest.approx(size * FONT_SCALE)  # inherited
    pal = window.palette()
    assert pal.color(QPalette.ColorRole.Window).name() == "#ffffff"
    assert pal.color(QPalette.ColorRole.WindowText).name() == "#000000"
    # per line: at the test screen's 800 pixels the title may wrap (the view no longer runs
    # wider than the window in the toy mode, where the page boxes are hidden)
    drawn = view.plot.figure.axes[0].title
    per_line = drawn.get_window_extent().height / (drawn.get_text().count("\n") + 1)
    assert per_line == pytest.approx(title * FIGURE_SCALE, rel=0.2)  # with the line spacing
    window.presentation.action.trigger()
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    assert not window.presentation.is_active() and not window.isFullScreen()
    assert window.font().pointSizeF() == pytest.approx(size)
    assert view.plot.figure.axes[0].title.get_window_extent().height == pytest.approx(title, rel=0.1)


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_presentation_mode_shows_every_column_of_the_methods_table(qtbot, window, samples_dir, size):
    # Issue 20: at 1600x1000 the methods table (eleven columns at twice the font size) was cut
    # off at the right, beside the confusion matrix; it now spans the window and every row
    # and column is in view, the method names whole.
    view = window.methods_view
    view.set_labels(samples_dir / "EXPECTED.csv")
    with qtbot.waitSignal(view.finished, timeout=LONG):
        window.show_tab("Method comparison")
    table = view.methods_table
    qtbot.wait(20)
    assert table.horizontalHeader().length() == table.viewport().width()  # filled: the names take the room
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)  # a screen of this size (the test's is smaller)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.wait(50)
    header, viewport = table.horizontalHeader(), table.viewport()
    last = table.columnCount() - 1
    assert table.isVisible() and not table.horizontalScrollBar().isVisible()
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= viewport.width()
    assert not table.verticalScrollBar().isVisible()  # all 12 methods' rows
    names = [table.item(r, 0).text() for r in range(table.rowCount())]
    metrics = table.fontMetrics()
    assert header.sectionSize(0) >= max(metrics.horizontalAdvance(n) for n in names) + 6
    # the table is on the screen: its right edge inside the window
    right = table.mapTo(window, viewport.geometry().topRight()).x()
    assert right < window.width()
    window.presentation.set_active(False)


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_presentation_mode_shows_every_tab_title_and_the_jaccard_view_without_scrolling(qtbot, window, size):
    # Issue 20: at 1280x800 in presentation mode the tab bar scrolled ("Method compar" cut, the
    # rest behind scroll arrows) and the Jaccard view's one row of controls needed a horizontal
    # scroll bar (at 1600x1000 too); its figure's title was cut at the right.  Now every title is whole and in
    # view (short titles where the full ones do not fit) and the view fits the window's width.
    view = window.show_tab("Jaccard and shingles")
    assert view.show_pages(*AUDAX)  # three regions, long names
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)  # a screen of this size (the test's is smaller)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy() and view.data is not None, timeout=LONG)
    qtbot.wait(50)
    bar = window.tabs.tabBar()
    metrics = bar.fontMetrics()
    for i in range(bar.count()):
        rect, text = bar.tabRect(i), bar.tabText(i)
        assert rect.left() >= 0 and rect.right() < bar.width(), (i, text)  # in view, not scrolled away
        assert "…" not in text and metrics.horizontalAdvance(text) <= rect.width(), (i, text)  # not elided
        assert text[:4] == TAB_TITLES[i][:4]  # the full title or a short one
    if size == (1600, 1000):
        assert [bar.tabText(i) for i in range(bar.count())] == list(TAB_TITLES)  # room for the full titles
    scroll = window.tabs.currentWidget()
    assert not scroll.horizontalScrollBar().isVisible()
    assert view.width() <= scroll.viewport().width()
    title = view.plot.figure.axes[0].title.get_window_extent()
    assert title.x0 >= 0 and title.x1 <= view.plot.figure.bbox.width  # the figure's title whole
    a, b = view.venn.name_rects()
    assert a.right() <= b.left()  # "A: n" and "B: n" apart even where the circles coincide
    heads = [head for head, _text, _rect, _items in view.venn.region_labels()]
    assert len(heads) == 3 and all(h1.right() <= h2.left() for h1, h2 in zip(heads, heads[1:]))  # counts apart
    # the diagram, the sets' names and the counts one under the other, not drawn over each other
    venn, texts, counts = (w.geometry() for w in (view.venn, view.texts_label, view.jaccard_label))
    assert venn.bottom() < texts.top() and texts.bottom() < counts.top()
    # the toy's elements, drawn in their regions, fit the region in a smaller font, never
    # clipped mid-letter there ("ower indee"; test_teaching_retest.py: never cut with "…" nor
    # broken between words either)
    view.show_toy()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    for rect, items in view.venn.element_rects():
        lines = view.venn.element_lines(items, rect.width())
        metrics = QFontMetricsF(view.venn.element_font(items, rect.width()))
        assert lines and all(metrics.horizontalAdvance(line) <= rect.width() + 0.5 for line in lines)
    window.presentation.set_active(False)
    qtbot.waitUntil(lambda: window.tabs.tabBar().tabText(0) == TAB_TITLES[0], timeout=LONG)


def test_f11_toggles_presentation_mode(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=LONG)
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert window.isFullScreen()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.isFullScreen() and not window.presentation.is_active()


def test_the_window_has_a_tab_per_view_and_works_without_a_scan(qtbot):
    win = TeachingWindow(None)
    qtbot.addWidget(win)
    win.show()
    assert [win.tabs.tabText(i) for i in range(win.tabs.count())] == list(TAB_TITLES)
    wait_steps(qtbot, win.simhash_view, TOY_TEXT)  # typed text
    assert win.simhash_view.source_combo.count() == 1
    view = win.show_tab("Jaccard and shingles")
    qtbot.waitUntil(lambda: view.data is not None and not view.is_busy(), timeout=LONG)
    assert view.data.toy and "2/7" in view.jaccard_label.text().replace("\u00a0", " ")
    assert win.hamming_view.marked_count() == 5  # the typed example
    assert all(c.paths is None and not c.open_button.isEnabled() for c in win.gallery_view.cards.values())
    win.close()


def test_page_strings_are_shown_as_plain_text(qtbot, result):
    hostile = "<b>bold</b><img src='https://example.org/x.png'> & more"
    pages = [dataclasses.replace(p, title=hostile, main_text=f"{hostile} words words") for p in result.pages]
    win = TeachingWindow(dataclasses.replace(result, pages=pages))
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    labels = win.findChildren(QLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    card = win.gallery_view.cards[DupType.FULL]
    assert hostile in card.titles_label.text()
    assert "could not re-read" in card.regions_label.text()  # the hand-built pages are not on disk
    assert win.simhash_view.text_edit.toPlainText().startswith(hostile)
    win.close()


def test_main_window_opens_the_teaching_window_and_its_gallery_selects_pairs(qtbot, sample_scan, tmp_path):
    """Teach > Teaching Views opens on the window's scan; "Open in inspector" in the gallery
    selects that pair in the main window."""
    from PySide6.QtCore import QSettings

    from dedup_gui.gui.main_window import MainWindow
    from dedup_gui.gui.settings import AppSettings

    window = MainWindow(app_settings=AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window._set_result(sample_scan)
    window.teaching_action.trigger()
    teach = window.teaching_window
    assert teach.isVisible()
    teach.open_pair.emit("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
    pair = window.result.pairs[window.current_pair_index()]
    names = {window.result.pages[pair.left].path, window.result.pages[pair.right].path}
    assert names == {"site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html"}
    teach.close()
    window.close()


def test_views_get_the_scan_one_after_another(qtbot, sample_scan):
    # The views' first computations at the same time kept the GUI thread from the GIL (a second
    # on a long page): the view in front gets the scan at once, the others one after another.
    win = TeachingWindow(sample_scan)
    qtbot.addWidget(win)
    win.show()
    assert win.is_busy()
    assert win.jaccard_view.page_a.count() == 0  # not yet given the scan
    view = win.show_tab("Jaccard and shingles")  # shown: given it now
    assert view.page_a.count() > 0
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    assert win.gallery_view.examples()[DupType.FULL] is not None  # the last ones got it too
    win.close()


def test_the_teach_action_opens_on_and_follows_the_pair_selected_in_the_main_window(qtbot, sample_scan, tmp_path):
    # Issue 20: the teaching window opened on its own first pair, not on the pair selected in
    # the main window.  It now opens on that pair, and the Teach action used again while it is
    # open moves it to the pair selected then.
    from PySide6.QtCore import QSettings

    from dedup_gui.core.views.selection import find_pair
    from dedup_gui.gui.main_window import MainWindow
    from dedup_gui.gui.settings import AppSettings

    window = MainWindow(app_settings=AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window._set_result(sample_scan)

    def shown(teach) -> tuple:
        qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
        jaccard, hamming = teach.jaccard_view, teach.hamming_view
        return (
            teach.simhash_view.source_combo.page().path,
            (jaccard.page_a.page().path, jaccard.page_b.page().path),
            tuple(c.page().path for c in hamming.choosers),
        )

    for n, (left, right) in enumerate([
        ("site/articles/cafe-stops.html", "elsewhere/vale-gazette-cafes.html"),  # partial, neither's default
        ("site/articles/night-ride-safety.html", "print/night-ride-safety.html"),
    ]):  # fmt: skip
        index = find_pair(sample_scan, left, right)
        assert index is not None and window.select_pair(index)
        pair = sample_scan.pairs[index]
        a, b = sample_scan.pages[pair.left].path, sample_scan.pages[pair.right].path  # the table's order
        window.teaching_action.trigger()
        teach = window.teaching_window
        assert shown(teach) == (a, (a, b), (a, b)), n
        view = teach.show_tab("Hamming distance")
        assert view.marked_count() == bin(
            sample_scan.pages[pair.left].simhash ^ sample_scan.pages[pair.right].simhash
        ).count("1")
        teach.show_tab("SimHash step by step")
    # a re-classification keeps the pair
    window.results_changed.emit()
    assert shown(teach) == (a, (a, b), (a, b))
    teach.close()
    window.close()


def fit_presentation(qtbot, window, size=(1280, 800)) -> None:
    """Presentation mode in a window of ``size`` (as on a projector of that size; the test's
    screen is smaller, so the window leaves full screen and is resized)."""
    window.presentation.set_active(True)
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=LONG)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=LONG)
    qtbot.wait(50)


def assert_whole_without_scrolling(window, view, labels) -> None:
    """The view's scroll area has nothing to scroll, and each label is inside its viewport with
    all its text: a wrapped one as tall as its lines, another as wide as its text."""
    scroll = window.tabs.currentWidget()
    assert scroll.verticalScrollBar().maximum() == 0, scroll.verticalScrollBar().maximum()
    assert scroll.horizontalScrollBar().maximum() == 0
    viewport = scroll.viewport().rect()
    for label in (label for label in labels if not label.isHidden()):  # presenting, a note may be hidden
        rect = label.rect().translated(label.mapTo(scroll.viewport(), label.rect().topLeft()))
        assert viewport.contains(rect), (label.text(), rect, viewport)
        if label.wordWrap():
            assert label.height() >= label.heightForWidth(label.width()), label.text()
        else:
            # each line of a label broken by hand (a reading of two lines beside its field)
            widest = max(label.fontMetrics().horizontalAdvance(line) for line in label.text().split("\n"))
            assert label.width() >= widest, label.text()
            assert label.height() >= label.sizeHint().height(), label.text()


def test_presentation_mode_at_1280x800_shows_the_whole_simhash_view_without_scrolling(qtbot, window):
    # Issue 20: at 1280x800 in presentation mode the SimHash view needed 651 pixels of scrolling
    # (the 64-bit board in four blocks of 16 cells was 744 pixels tall).  Now the explanation is
    # beside the text box, the board two blocks of 32 snug cells, the table in the height left.
    view = window.show_tab(0)
    assert view.select_page(AUDAX[1])
    wait_steps(qtbot, view, page_of(window.result, AUDAX[1]).main_text)
    fit_presentation(qtbot, window)
    labels = [view.step_label, view.fingerprint_label, view.note_label]
    for position in (12, view.last_position()):  # a feature (hash, ± weight, sums) and the sign step
        view.go_to(position)
        qtbot.wait(20)
        assert_whole_without_scrolling(window, view, labels)
        board = view.board
        assert board.height() >= board.heightForWidth(board.width())  # every block of cells
        last = board.cell_rect(len(board.row_names()) - 1, 63)
        assert last.right() <= board.width() and last.bottom() <= board.height()
        # 4 lines of 16 legible cells where 32 a line would need text under 14 pixels (the
        # class's walkthrough, tests/gui/test_teaching_class.py)
        assert board.cell_rect(0, 15).top() == board.cell_rect(0, 0).top()
    assert_whole_without_scrolling(window, view, [view.explain_label])  # beside the text box
    assert view.table.height() >= view.table.minimumHeight() > view.table.verticalHeader().defaultSectionSize()
    chooser = view.source_combo
    assert chooser.width() > chooser.fontMetrics().horizontalAdvance(chooser.currentText())  # the path whole
    window.presentation.set_active(False)
    assert not view.board.compact and view.explain_label.minimumHeight() == 0


def test_presentation_mode_at_1280x800_shows_the_whole_hamming_view_without_scrolling(qtbot, window):
    # Issue 20: the Hamming view needed 120 pixels of scrolling there; now each reading is beside
    # its field and the bit rows are snug.
    view = window.show_tab(2)
    assert view.select_pages(*AUDAX)
    fit_presentation(qtbot, window)
    labels = [view.result_label, view.blocks_label, *view.readings]
    assert_whole_without_scrolling(window, view, labels)
    grid = view.grid
    assert grid.height() >= grid.heightForWidth(grid.width())
    view.set_values("58", "0b1011")  # long readings wrap beside their fields
    qtbot.wait(20)
    assert_whole_without_scrolling(window, view, labels)
    assert view.readings[0].text().startswith("read as hex 0x58")
    window.presentation.set_active(False)


def test_presentation_mode_at_1280x800_shows_the_first_gallery_type_whole_and_scrolls_to_the_rest(qtbot, window):
    # Issue 20: 2 x 2 cards at twice the font size cut the first type's excerpts at the bottom of
    # the first screen.  Presenting, the cards stand one under the other: the first is whole on
    # the first screen and the scroll bar shows that more follows.
    view = window.show_tab(3)
    fit_presentation(qtbot, window)
    first = view.cards[TYPE_ORDER[0]]
    viewport = view.scroll.viewport()
    bottom = first.mapTo(viewport, first.rect().bottomRight())
    assert first.mapTo(viewport, first.rect().topLeft()).y() >= 0 and bottom.y() <= viewport.height()
    assert bottom.x() <= viewport.width()
    assert view.scroll.verticalScrollBar().isVisible() and view.scroll.verticalScrollBar().maximum() > 0
    window.presentation.set_active(False)
    second = view.cards[TYPE_ORDER[1]]
    qtbot.waitUntil(lambda: second.geometry().top() == first.geometry().top(), timeout=LONG)  # 2 x 2 again


def test_a_click_on_a_confusion_cell_lists_its_labelled_pairs(qtbot, window, samples_dir):
    # The matrix said how many pairs each cell holds and never which: a user could not find the
    # pairs the classifier gets wrong from the window.
    view = window.methods_view
    labels = samples_dir / "EXPECTED.csv"
    view.set_labels(labels)
    with qtbot.waitSignal(view.finished, timeout=LONG):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.is_busy(), timeout=LONG)
    table = view.confusion_table
    full = TYPE_ORDER.index(DupType.FULL)
    n = int(table.item(full, full).text())
    assert table.item(full, full).toolTip() == f"Click to list the {n} pairs labelled full, predicted full"
    rect = table.visualItemRect(table.item(full, full))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    dialog = table.property("cell_dialog")
    lines = [dialog.title.text()] + [dialog.pairs.item(i).text() for i in range(dialog.pairs.count())]
    assert (
        lines[0]
        == f"{n} pairs labelled full, predicted full (content sim, containment, layout sim, hamming, left, right)"
    )
    assert len(lines) == 1 + n and all(line.startswith("      full -> full ") for line in lines[1:])
    dialog.close()
