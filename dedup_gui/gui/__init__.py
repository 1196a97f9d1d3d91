"""The Qt front end: the inspector window over the engine in :mod:`dedup_gui.core`.

Widgets and models only; every computation is a call into ``core``.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

#: The bundled folder of sample pages, scanned when the GUI starts without a folder.
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "resources" / "samples"


def run_gui(folder: str | None = None) -> int:
    """Open the main window, start a scan and run the Qt event loop.

    Args:
        folder: the folder to scan; ``None`` scans the bundled samples (:data:`SAMPLES_DIR`).

    Returns:
        the application's exit code (int, 0 on a normal quit).
    """
    from PySide6.QtWidgets import QApplication

    from dedup_gui.gui.compat import guard_none_refcount
    from dedup_gui.gui.main_window import APP_NAME, MainWindow

    guard_none_refcount()  # PySide6 6.12.0 on CPython 3.11 would abort after a while
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    window = MainWindow()
    previous_hook = sys.excepthook
    sys.excepthook = lambda *exc: _show_unexpected_error(window, *exc)
    try:
        window.show()
        window.start_scan(folder if folder is not None else SAMPLES_DIR)
        return app.exec()
    finally:
        window.shutdown()  # the event loop may end without closing the window
        sys.excepthook = previous_hook


def _show_unexpected_error(window, exc_type, exc, tb) -> None:
    """Report an exception that escaped a Qt slot in a message box instead of dying."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    traceback.print_exception(exc_type, exc, tb)
    box = QMessageBox(QMessageBox.Icon.Critical, "Unexpected error", "", parent=window)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(f"{exc_type.__name__}: {exc}")
    box.setDetailedText("".join(traceback.format_exception(exc_type, exc, tb)))
    box.open()
