"""Paths shortened to a width in pixels: the one rule of the tables and the inspector's labels."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics


def elide_path(path: str, metrics: QFontMetrics, width: int) -> str:
    """``path`` shortened to fit ``width`` pixels, keeping the file name whole while it fits:
    the folders are elided from the middle (``site/ar…es/river-trail.html``), then the leading
    folders dropped (``…/river-trail.html``); only a file name wider than the column is itself
    elided in the middle.  Two files of one folder thus stay tell-apart in a narrow column.

    Args:
        path: a relative path with ``/`` separators.
        metrics: the font metrics of the text.
        width: the room, in pixels.

    Returns:
        The text to draw (str).
    """
    if metrics.horizontalAdvance(path) <= width:
        return path
    folder, sep, name = path.rpartition("/")
    name_width = metrics.horizontalAdvance(sep + name)
    if not sep or name_width + metrics.horizontalAdvance("…") > width:
        return metrics.elidedText(path if not sep else "…/" + name, Qt.TextElideMode.ElideMiddle, width)
    return metrics.elidedText(folder, Qt.TextElideMode.ElideMiddle, width - name_width) + sep + name
