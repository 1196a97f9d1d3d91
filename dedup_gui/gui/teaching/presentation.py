"""Presentation mode for the teaching window: full screen, fonts twice as large, and a high-contrast
black-on-white palette with strong colours; toggled with F11 or a toolbar button (Esc leaves it).
Leaving restores the window's own font, palette and state.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import QWidget

#: Font size factor in presentation mode.
FONT_SCALE = 2.0
#: Text size factor of the charts in presentation mode (less: a chart's text competes for its room).
FIGURE_SCALE = 1.5


def high_contrast_palette() -> QPalette:
    """Black text on white, a strong blue selection, dark frames (QPalette)."""
    black, white = QColor("#000000"), QColor("#ffffff")
    pal = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        for role, color in (
            (QPalette.ColorRole.Window, white),
            (QPalette.ColorRole.WindowText, black),
            (QPalette.ColorRole.Base, white),
            (QPalette.ColorRole.AlternateBase, QColor("#eeeeee")),
            (QPalette.ColorRole.Text, black),
            (QPalette.ColorRole.Button, QColor("#f2f2f2")),
            (QPalette.ColorRole.ButtonText, black),
            (QPalette.ColorRole.BrightText, QColor("#d50000")),
            (QPalette.ColorRole.Highlight, QColor("#0033cc")),
            (QPalette.ColorRole.HighlightedText, white),
            (QPalette.ColorRole.ToolTipBase, white),
            (QPalette.ColorRole.ToolTipText, black),
            (QPalette.ColorRole.PlaceholderText, QColor("#444444")),
            (QPalette.ColorRole.Light, white),
            (QPalette.ColorRole.Midlight, QColor("#bdbdbd")),
            (QPalette.ColorRole.Mid, QColor("#616161")),
            (QPalette.ColorRole.Dark, QColor("#212121")),
            (QPalette.ColorRole.Shadow, black),
            (QPalette.ColorRole.Link, QColor("#0033cc")),
        ):
            pal.setColor(group, role, color)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#757575"))
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        pal.setColor(QPalette.ColorGroup.Disabled, role, white)
    return pal


class PresentationMode(QObject):
    """Switches a window into presentation mode and back.

    Args:
        window: the top-level window to present.

    Signals:
        toggled(bool): presentation mode was switched on (``True``) or off.

    Attributes:
        action: a checkable "Presentation mode" ``QAction`` (F11) for a toolbar or menu.
    """

    toggled = Signal(bool)

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._active = False
        self._saved: dict = {}
        self.action = QAction("Presentation mode", window)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence(Qt.Key.Key_F11))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.setToolTip("Full screen, large fonts, high contrast (F11; Esc leaves)")
        self.action.toggled.connect(self.set_active)
        window.addAction(self.action)
        self._escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self._escape.setContext(Qt.ShortcutContext.WindowShortcut)
        self._escape.setEnabled(False)
        self._escape.activated.connect(lambda: self.set_active(False))

    def is_active(self) -> bool:
        """``True`` in presentation mode (bool)."""
        return self._active

    def toggle(self) -> None:
        """Switch presentation mode on if off, off if on."""
        self.set_active(not self._active)

    def set_active(self, on: bool) -> None:
        """Enter (full screen, 2x fonts, high contrast) or leave presentation mode (restores all)."""
        if on == self._active:
            return
        w = self._window
        if on:
            self._saved = {
                "font": QFont(w.font()) if w.testAttribute(Qt.WidgetAttribute.WA_SetFont) else None,
                "palette": QPalette(w.palette()) if w.testAttribute(Qt.WidgetAttribute.WA_SetPalette) else None,
                "state": w.windowState(),
                "point_size": w.font().pointSizeF(),
            }
            font = QFont(w.font())
            size = w.font().pointSizeF() if w.font().pointSizeF() > 0 else 10.0
            font.setPointSizeF(size * FONT_SCALE)
            w.setFont(font)
            w.setPalette(high_contrast_palette())
            w.showFullScreen()
        else:
            saved = self._saved
            w.setFont(saved["font"] if saved.get("font") is not None else QFont())
            w.setPalette(saved["palette"] if saved.get("palette") is not None else QPalette())
            w.setWindowState(saved.get("state", Qt.WindowState.WindowNoState))  # immediate if shown
        self._active = on
        self._escape.setEnabled(on)
        self.action.blockSignals(True)
        self.action.setChecked(on)
        self.action.blockSignals(False)
        self.toggled.emit(on)
