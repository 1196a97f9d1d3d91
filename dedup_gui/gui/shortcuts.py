"""The window's shortcuts work while a text box has the focus.

A ``QLineEdit`` claims some keys for editing before any shortcut sees them (on X11 Ctrl+E moves
to the end of the line), so File > Export's Ctrl+E did nothing while the filter box had the
focus; a spin box passes the key to its own line edit, so the threshold boxes did the same.
This filter lets the window's own action shortcuts go first in the boxes it watches,
except the standard editing keys (copy, paste, undo, select all...), which stay the box's.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

#: Keys a text box keeps even when a window action has the same shortcut.
_EDITING_KEYS = (
    QKeySequence.StandardKey.Copy,
    QKeySequence.StandardKey.Cut,
    QKeySequence.StandardKey.Paste,
    QKeySequence.StandardKey.Undo,
    QKeySequence.StandardKey.Redo,
    QKeySequence.StandardKey.SelectAll,
    QKeySequence.StandardKey.Delete,
    QKeySequence.StandardKey.Backspace,
)


class WindowShortcutsFirst(QObject):
    """An event filter (install it on text boxes) that hands the window's action shortcuts to
    the window.

    Args:
        window: the widget whose ``QAction`` shortcuts go first (its children's actions too).
    """

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._editing = {s.toString() for key in _EDITING_KEYS for s in QKeySequence.keyBindings(key)}

    def _is_window_shortcut(self, pressed: QKeySequence) -> bool:
        if pressed.toString() in self._editing:
            return False
        for action in self._window.findChildren(QAction):
            if action.isEnabled() and any(s == pressed for s in action.shortcuts()):
                return True
        return False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        """Leave a window shortcut's key to the shortcut system (the box does not claim it)."""
        if event.type() == QEvent.Type.ShortcutOverride:
            pressed = QKeySequence(event.keyCombination())  # type: ignore[attr-defined]
            if self._is_window_shortcut(pressed):
                event.ignore()
                return True
        return False
