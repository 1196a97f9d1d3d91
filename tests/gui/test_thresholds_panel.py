"""The Thresholds panel as a user types into it: out-of-range numbers, impossible combinations."""

import pytest
from PySide6.QtCore import Qt

from dedup_gui.core.model import Thresholds
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.thresholds_panel import ThresholdsPanel


@pytest.fixture
def panel(qtbot):
    widget = ThresholdsPanel()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def type_into(qtbot, box, text: str) -> None:
    """Select the box's text, type ``text`` key by key and press Return, as a user does."""
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def test_a_number_above_the_range_is_clamped_and_named(qtbot, panel):
    # Qt refused the "5" (above 1) and kept the "000" typed after it: the box showed 0.000, and
    # at 0 every compared pair became a full or content duplicate.
    notices = []
    type_into(qtbot, panel.content_same, "5000")
    assert panel.content_same.value() == 1.0 and panel.content_same.text() == "1.000"
    type_into(qtbot, panel.hamming_k, "999")  # Qt kept "9" of "999"
    assert panel.hamming_k.value() == 64 and panel.hamming_k.text() == "64 bits"
    panel.notice.connect(notices.append)  # each clamp is named
    type_into(qtbot, panel.content_same, "5000")
    type_into(qtbot, panel.hamming_k, "999")
    assert notices == [
        "Content same: 5000 is above its range 0.000 to 1.000: set to 1.000",
        "Hamming k: 999 is above its range 0 to 64 bits: set to 64 bits",
    ]
    qtbot.waitUntil(lambda: not panel.is_pending())
    assert panel.thresholds() == Thresholds(content_same=1.0, hamming_k=64)


def test_a_number_below_the_range_is_clamped_and_one_inside_it_is_kept(qtbot, panel):
    type_into(qtbot, panel.layout_same, "-5")  # Qt kept "-" and went back to 0.700
    assert panel.layout_same.value() == 0.0 and panel.layout_same.text() == "0.000"
    notices = []
    panel.notice.connect(notices.append)
    type_into(qtbot, panel.layout_same, "-0.5")
    assert notices == ["Layout same: -0.5 is below its range 0.000 to 1.000: set to 0.000"]
    type_into(qtbot, panel.layout_same, "0.65")
    assert panel.layout_same.value() == 0.65 and len(notices) == 1  # in range: nothing to say


def test_partial_above_same_shows_a_warning_line(qtbot, panel):
    assert panel.warning.isHidden() and panel.warnings() == []
    type_into(qtbot, panel.content_same, "0.5")
    type_into(qtbot, panel.content_partial, "0.99")
    assert panel.warning.isVisible()
    assert panel.warning.text() == (
        "⚠ Content partial (0.99) is above Content same (0.50): no pair can be a layout or partial duplicate "
        "unless its content containment reaches 0.99 while its content similarity stays below 0.50 "
        "(a short page inside a longer one)"
    )
    type_into(qtbot, panel.content_partial, "0.3")
    assert panel.warning.isHidden()
    panel.set_thresholds(Thresholds(content_same=0.0))  # also shown for values set from outside
    assert panel.warning.text() == "⚠ Content same is 0: every pair of pages with text is a full or content duplicate"


def test_the_window_shows_a_clamped_number_on_its_status_line(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    type_into(qtbot, window.thresholds_panel.content_partial, "20")
    assert window.statusBar().currentMessage() == (
        "Content partial: 20 is above its range 0.000 to 1.000: set to 1.000"
    )
    window.close()


def test_a_clamped_value_stays_said_after_the_re_classification_it_starts(qtbot, fake_scan, sample_scan, tmp_path):
    # A tester typed 1.5 into Content same: "Content same: 1.5 is above its range …: set to 1.000"
    # showed for 0.2 s, then "Thresholds applied: 2 pairs re-classified" replaced it.
    from tests.gui.conftest import open_scanned

    window = open_scanned(qtbot, fake_scan, tmp_path, sample_scan, 60_000)
    with qtbot.waitSignal(window.results_changed, timeout=60_000):
        type_into(qtbot, window.thresholds_panel.content_same, "1.5")
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    message = window.statusBar().currentMessage()
    assert message.startswith("Content same: 1.5 is above its range 0.000 to 1.000: set to 1.000; thresholds applied")
    window.close()
