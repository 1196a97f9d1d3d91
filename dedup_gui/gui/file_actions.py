"""What a user can do with the files of a table row: open them, open them in the system browser,
copy their paths, show them in their folder (the tables' context menu); and the folder of a drop.

Opening hands the file to the desktop: ``QDesktopServices`` picks the application registered for
the file type, and "Open in browser" asks Python's :mod:`webbrowser` for the user's browser.  A
browser runs a page's scripts, so these are explicit user actions; the window itself never does.
"""

from __future__ import annotations

import os
import webbrowser
from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from dedup_gui.gui.plain import plain_message_box


def open_file(path: str) -> bool:
    """Open ``path`` with the desktop's application for its type.

    Returns:
        ``True`` if the desktop accepted the request (bool).
    """
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(path)))


def open_in_browser(path: str) -> bool:
    """Open ``path`` (a saved page) in the user's web browser.

    Returns:
        ``True`` if a browser was started (bool).
    """
    return bool(webbrowser.open(QUrl.fromLocalFile(path).toString()))


def show_in_folder(path: str) -> bool:
    """Open the folder that holds ``path`` in the desktop's file manager.

    Returns:
        ``True`` if the desktop accepted the request (bool).
    """
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(path))))


def copy_paths(paths: list[str]) -> str:
    """Put ``paths`` on the clipboard, one per line.

    Returns:
        The text copied (str).
    """
    text = "\n".join(paths)
    QGuiApplication.clipboard().setText(text)
    return text


def dropped_folder(mime) -> str | None:
    """The first local folder among the URLs of a drag (a ``QMimeData``), or ``None``."""
    if mime is None or not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile() and os.path.isdir(url.toLocalFile()):
            return url.toLocalFile()
    return None


def _warn_unless(parent: QWidget | None, ok: bool, what: str, path: str) -> None:
    if ok:
        return
    box = plain_message_box(
        QMessageBox.Icon.Warning, "Could not open", f"The desktop could not {what}:\n{path}", parent
    )
    box.open()


def _add(menu: QMenu, text: str, slot: Callable[[], object]) -> QAction:
    action = menu.addAction(text)
    action.triggered.connect(slot)
    return action


def file_menu(paths: list[str], parent: QWidget | None = None) -> QMenu:
    """A context menu for the files of one row.

    Args:
        paths: absolute paths: one file (a page or an error row), or a pair's two files
            (left, right).
        parent: the menu's parent widget (message boxes open over it).

    Returns:
        The menu (QMenu); each action's ``objectName`` says what it does: ``open``,
        ``open-right``, ``browser``, ``browser-right``, ``folder``, ``folder-right``, ``copy``.
    """
    menu = QMenu(parent)
    if not paths:
        menu.addAction("No file").setEnabled(False)
        return menu
    sides = [("", paths[0])] if len(paths) == 1 else [(" left", paths[0]), (" right", paths[1])]

    def opener(fn: Callable[[str], bool], what: str, path: str) -> Callable[[], None]:
        return lambda: _warn_unless(parent, fn(path), what, path)

    for side, path in sides:
        _add(menu, f"Open{side} file", opener(open_file, "open the file", path)).setObjectName(
            "open" + ("-right" if side == " right" else ""))  # fmt: skip
    for side, path in sides:
        _add(menu, f"Open{side} file in the browser", opener(open_in_browser, "start a browser", path)).setObjectName(
            "browser" + ("-right" if side == " right" else ""))  # fmt: skip
    menu.addSeparator()
    same_folder = len(paths) == 2 and os.path.dirname(paths[0]) == os.path.dirname(paths[1])
    for side, path in sides[:1] if same_folder else sides:
        text = "Show in folder" if same_folder or not side else f"Show{side} file in its folder"
        _add(menu, text, opener(show_in_folder, "open the folder", path)).setObjectName(
            "folder" + ("-right" if side == " right" else ""))  # fmt: skip
    copy = _add(menu, "Copy paths" if len(paths) > 1 else "Copy path", lambda: copy_paths(paths))
    copy.setObjectName("copy")
    return menu
