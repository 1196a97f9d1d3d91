"""A new teacher's walkthrough of the Teach menu's views: the measures defined where they are
explained, the toy example editable, one number format, and each view fitting the projector."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QLabel

from tests.gui.test_teaching_teacher import LONG

pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def scroll_of(window):
    """The current tab's scroll area."""
    return window.tabs.currentWidget()


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_simhash_with_empty_typed_text_disables_next_and_says_why(qtbot, teach, text):
    # Typed text chosen and left empty: Next stayed enabled and stepped to a sign step of nothing.
    view = teach.show_tab(0)
    view.set_text(text)
    qtbot.waitUntil(lambda: not view.is_busy() and view.steps is not None, timeout=LONG)
    assert view.source_combo.page() is None
    for button in (view.next_button, view.last_button, view.play_button):
        assert not button.isEnabled(), button.text()
    assert "type some text" in view.step_label.text().lower()
    view.next()  # the shortcut (Page Down) does nothing either
    assert view.position == 0
    view.text_edit.setPlainText("a rose is a rose")
    qtbot.waitUntil(lambda: not view.is_busy() and view.next_button.isEnabled(), timeout=LONG)
    assert view.feature_count() == 3  # a, rose, is


#: A decimal in [0, 1] as written in a text: "0.2", "0.200", "1.0".
DECIMAL = re.compile(r"(?<![\d.])[01]\.(\d+)(?![\d.])")


def decimals_of(texts) -> list[str]:
    return [m.group(0) for text in texts for m in DECIMAL.finditer(text)]


def test_similarities_are_written_to_three_places_in_every_teaching_view(qtbot, teach, samples_dir):
    # The Methods tab wrote thresholds ">= 0.9" in its table and "layout same >= 0.70" in its
    # settings line, the Jaccard view 0.286, the gallery 0.483: one format, 3 places, as the tables.
    methods = teach.methods_view
    methods.set_labels(samples_dir / "EXPECTED.csv")
    teach.show_tab(4)
    with qtbot.waitSignal(methods.finished, timeout=LONG):
        methods.start()
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    table = methods.methods_table
    texts = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(1, table.columnCount())
             if table.item(r, c) is not None]  # fmt: skip
    texts += [methods.settings_label.text(), methods.summary_label.text()]
    texts += [t.get_text() for ax in methods.plot.figure.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    texts += [t.get_text() for legend in methods.plot.figure.legends for t in legend.get_texts()]
    assert ">= 0.900" in texts  # the shingles' default threshold, was ">= 0.9"
    assert "layout same >= 0.700" in methods.settings_label.text()  # was 0.70
    jaccard = teach.show_tab(1)
    qtbot.waitUntil(lambda: not teach.is_busy() and jaccard.data is not None, timeout=LONG)
    texts += [jaccard.jaccard_label.text(), jaccard.texts_label.text()]
    texts += [t.get_text() for ax in jaccard.plot.figure.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    teach.show_tab(3)
    qtbot.waitUntil(lambda: not teach.is_busy(), timeout=LONG)
    texts += [label.text() for label in teach.gallery_view.findChildren(QLabel)]
    found = decimals_of(texts)
    assert found and all(len(d.split(".")[1]) == 3 for d in found), found
