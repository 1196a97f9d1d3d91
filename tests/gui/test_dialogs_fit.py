"""Every dialog fits a small screen: at 1024x640 Decide > Re-prioritize… opened 1,247 px wide
(its longest criterion on one line), with Up, Down, OK and Cancel past the screen's edge."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialogButtonBox, QWidget

from dedup_gui.core.model import KeepPolicy
from dedup_gui.gui.copy_destination_dialog import CopyDestinationDialog
from dedup_gui.gui.export_dialog import ExportDialog
from dedup_gui.gui.ignore_list_dialog import IgnoreListDialog
from dedup_gui.gui.reprioritize_dialog import ReprioritizeDialog
from dedup_gui.gui.screen_fit import FRAME, fit_to_screen


def test_the_reprioritize_dialog_fits_the_screen_its_criteria_wrapped(qtbot, tmp_path):
    room = QGuiApplication.primaryScreen().availableGeometry().size() - FRAME  # 800x800 off screen
    dialog = ReprioritizeDialog(KeepPolicy(), str(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.width() <= room.width() and dialog.height() <= room.height(), dialog.size()
    # the buttons lie inside it, and the criteria wrap instead of scrolling sideways
    for button in (dialog.up_button, dialog.down_button, *dialog.buttons.buttons()):
        right = button.mapTo(dialog, button.rect().topRight()).x()
        assert 0 < right < dialog.width(), button.text()
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).isVisible()
    assert dialog.criteria.horizontalScrollBar().maximum() == 0


def test_every_dialog_fits_a_1024x640_screen(qtbot, tmp_path):
    screen = QRect(0, 0, 1024, 640)
    dialogs = [
        ReprioritizeDialog(KeepPolicy(), str(tmp_path)),
        ExportDialog(10, 100, str(tmp_path)),
        CopyDestinationDialog(tmp_path),
        IgnoreListDialog(lambda: (), lambda p: True, lambda p: True),
    ]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        size = fit_to_screen(dialog, screen)
        assert size.width() <= 1024 - FRAME.width() and size.height() <= 640 - FRAME.height(), (dialog, size)
    # a window wider than the screen is brought within it, its minimum size too
    wide = QWidget()
    qtbot.addWidget(wide)
    wide.setMinimumSize(1300, 700)
    wide.resize(1400, 900)
    assert fit_to_screen(wide, screen) == QSize(1024, 640) - FRAME
