"""A new teacher's walkthrough of the Teach menu's views: the measures defined where they are
explained, the toy example editable, one number format, and each view fitting the projector."""

from __future__ import annotations

import pytest

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
