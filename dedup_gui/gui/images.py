"""Images of widgets: File > Save View as Image…, Save Window as Image… and ``--screenshot``."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from dedup_gui.core.atomic import atomic_write_bytes
from dedup_gui.gui.plain import plain_message_box


def widget_png(widget: QWidget) -> bytes:
    """An image of ``widget`` as it is drawn now, as PNG bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    widget.grab().save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def save_widget_image(widget: QWidget, path: str | Path) -> Path:
    """Save an image of ``widget`` as PNG at ``path``, atomically.

    Returns:
        The path written.

    Raises:
        OSError: the file cannot be written (``dedup_gui.core.atomic.ExportError``).
    """
    return atomic_write_bytes(path, widget_png(widget))


def ask_save_widget_image(parent: QWidget, widget: QWidget, folder: str) -> str | None:
    """Ask for a PNG file name (starting in ``folder``) and save an image of ``widget`` there.

    Returns:
        The folder of the file written, for the next time (str), or ``None`` if nothing was
        written (cancelled, or an error that was reported in a message box).
    """
    path, _ = QFileDialog.getSaveFileName(parent, "Save Image", str(Path(folder) / "view.png"), "PNG image (*.png)")
    if not path:
        return None
    if not path.lower().endswith(".png"):
        path += ".png"
    try:
        save_widget_image(widget, path)
    except OSError as exc:
        box = plain_message_box(QMessageBox.Icon.Warning, "Could not save the image", str(exc), parent)
        box.open()
        return None
    return str(Path(path).parent)
