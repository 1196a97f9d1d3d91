"""Windows and dialogs kept within the screen they open on: a dialog sized for its contents (the
Re-prioritize dialog opened 1,247 px wide, for its longest criterion) put its buttons past the
edge of a 1024x640 screen.  Each window is capped to the screen's available geometry, less room
for the window manager's frame; its contents wrap or scroll."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: Pixels left for the window manager's frame (borders and title bar) beside a window: its
#: frame is not known before it is shown.
FRAME = QSize(16, 48)


def available_geometry(window: QWidget) -> QRect | None:
    """The available geometry of the screen ``window`` opens on: its parent's screen, its own, or
    the primary screen (QRect in pixels; ``None`` without a screen)."""
    parent = window.parentWidget()
    screen = (parent.screen() if parent is not None else None) or window.screen() or QGuiApplication.primaryScreen()
    return None if screen is None else screen.availableGeometry()


def room_on_screen(window: QWidget, available: QRect | None = None) -> QSize | None:
    """The largest size of ``window``'s contents that fits on its screen with a frame (QSize in
    pixels; ``None`` without a screen).

    Args:
        window: a top-level window or dialog.
        available: the screen area to fit (default: :func:`available_geometry`).
    """
    area = available if available is not None else available_geometry(window)
    if area is None:
        return None
    return QSize(max(area.width() - FRAME.width(), 1), max(area.height() - FRAME.height(), 1))


def fit_to_screen(window: QWidget, available: QRect | None = None) -> QSize:
    """Cap ``window``'s size (its size if it was resized, else its size hint) and its minimum size
    to :func:`room_on_screen` (its maximum size is left alone: it may be moved to a larger
    screen, or shown full screen).

    Args:
        window: a top-level window or dialog.
        available: the screen area to fit (default: :func:`available_geometry`).

    Returns:
        the window's new size (QSize).
    """
    room = room_on_screen(window, available)
    size = window.size() if window.testAttribute(Qt.WidgetAttribute.WA_Resized) else window.sizeHint()
    if room is None:
        return size
    window.setMinimumSize(window.minimumSize().boundedTo(room))
    window.resize(size.boundedTo(room))
    return window.size()
