"""Starting the window: the Qt application, the main window, the first scan, and screenshot mode."""

from __future__ import annotations

import gc
import os
import sys
import traceback

from PySide6.QtWidgets import QApplication, QMessageBox

from dedup_gui.gui import SAMPLES_DIR, SCREENSHOT_VIEWS
from dedup_gui.gui.compat import guard_none_refcount
from dedup_gui.gui.main_window import APP_NAME, MainWindow
from dedup_gui.gui.plain import plain_message_box
from dedup_gui.gui.platform_check import display_problem, unreachable_display_problem, xcb_problem
from dedup_gui.gui.screenshot import Screenshotter
from dedup_gui.gui.settings import AppSettings

__all__ = ["SAMPLES_DIR", "SCREENSHOT_VIEWS", "freeze_startup_objects", "run_gui"]


def _headless_default() -> None:
    """Draw off screen when there is no display at all (a screenshot on a server or in CI)."""
    if sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


def run_gui(folder: str | None = None, screenshot: str | None = None, view: str = "window",
            pair: tuple[str, str] | None = None) -> int:  # fmt: skip
    """Open the main window, start a scan and run the Qt event loop.

    Args:
        folder: the folder to scan; ``None`` scans the bundled samples (:data:`SAMPLES_DIR`).
        screenshot: if given, a PNG file: wait for the scan and the view's background work,
            save an image of ``view`` there and quit (the remembered settings are not used).
        view: what to photograph, one of :data:`SCREENSHOT_VIEWS`.
        pair: with ``screenshot``: the (left, right) paths, relative to the folder, of the pair to
            select instead of the first duplicate.

    Returns:
        the application's exit code (int, 0 on a normal quit or a saved screenshot, 1 when the
        screenshot could not be made or the window's system libraries are missing, 2 when
        there is no display to open the window on).
    """
    if screenshot is not None:
        _headless_default()
    if QApplication.instance() is None:
        # Both checks run before Qt starts: it would abort blaming the xcb-cursor0 library.
        problem = display_problem() or unreachable_display_problem()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        problem = xcb_problem()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 1
    guard_none_refcount()  # PySide6 6.12.0 on CPython 3.11 would abort after a while
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    window = MainWindow(app_settings=AppSettings(enabled=False) if screenshot else None)
    previous_hook = sys.excepthook
    if screenshot is None:
        sys.excepthook = lambda *exc: _show_unexpected_error(window, *exc)
    else:
        shooter = Screenshotter(window, screenshot, view, pair)
        shooter.done.connect(app.exit)
        sys.excepthook = lambda *exc: _exit_on_error(app, *exc)
    try:
        window.show()
        freeze_startup_objects()
        window.start_scan(folder if folder is not None else SAMPLES_DIR)
        return app.exec()
    finally:
        window.shutdown()  # the event loop may end without closing the window
        sys.excepthook = previous_hook


def freeze_startup_objects() -> int:
    """Collect garbage once, then exclude every object alive now (the modules, classes and
    widgets of a started window) from all later garbage collections (``gc.freeze``).

    A full collection walks every tracked object while holding the GIL, and it runs in the GUI
    thread (background jobs pause automatic collection: see ``inspector.jobs``); the window's
    own 100,000-odd start-up objects made each one cost a tenth of a second or more.  They live
    as long as the program, so there is nothing to find among them.  (An object frozen now that
    later becomes cyclic garbage is not reclaimed: a one-off, bounded cost.)

    Returns:
        the number of objects frozen (int).
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def _exit_on_error(app, exc_type, exc, tb) -> None:
    """In screenshot mode, an exception that escaped a slot ends the program with code 1."""
    traceback.print_exception(exc_type, exc, tb)
    app.exit(1)


def _show_unexpected_error(window, exc_type, exc, tb) -> None:
    """Report an exception that escaped a Qt slot in a message box instead of dying."""
    traceback.print_exception(exc_type, exc, tb)
    box = plain_message_box(QMessageBox.Icon.Critical, "Unexpected error", f"{exc_type.__name__}: {exc}", window)
    box.setDetailedText("".join(traceback.format_exception(exc_type, exc, tb)))
    box.open()
