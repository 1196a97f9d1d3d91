"""Paths shortened to a width in pixels: the one rule of the tables and the inspector's labels;
and a delegate that cuts a column's text at its end."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

_MIDDLE = Qt.TextElideMode.ElideMiddle


def elide_path(path: str, metrics: QFontMetrics, width: int) -> str:
    """``path`` shortened to fit ``width`` pixels, keeping its first folder and its file name
    whole while they fit: the folders between them give way from the front, whole, while the
    last ones fit (``v1.11/…/guide/install/index.html``, ``v1.11/…/install/index.html``), then
    are elided from the middle (``v1.11/…/index.html``); with no room for that, the folders
    as one are elided from the middle (``site/ar…es/river-trail.html``), then dropped
    (``…/river-trail.html``); only a file name wider than the column is itself elided in the
    middle.  The tables show paths without the folders all pages share, so their first folder
    is where the pages differ (``docs/v1.10/…``, ``docs/v1.11/…``), and the file name is what
    differs in one folder: both stay readable in a narrow column.

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
    ellipsis = metrics.horizontalAdvance("…")
    if not sep or name_width + ellipsis > width:
        return metrics.elidedText(path if not sep else "…/" + name, _MIDDLE, width)
    head, inner_sep, middle = folder.partition("/")
    inner = middle.split("/") if inner_sep else []
    # whole folders before cut ones: the first folder, the last folders that fit, the name
    # ("v1.11/…/install/index.html": the last folder often tells pages of one folder apart)
    for keep in range(len(inner) - 1, 0, -1):
        shown = f"{head}/…/{'/'.join(inner[-keep:])}{sep}{name}"
        if metrics.horizontalAdvance(shown) <= width:
            return shown
    if inner_sep:  # the first folder whole, the ones after it elided
        room = width - name_width - metrics.horizontalAdvance(head + inner_sep)
        if room >= ellipsis:
            return head + inner_sep + metrics.elidedText(middle, _MIDDLE, room) + sep + name
    return metrics.elidedText(folder, _MIDDLE, width - name_width) + sep + name


def short_path(path: str) -> str:
    """The shortest form :func:`elide_path` keeps whole: the first folder, ``…`` and the file
    name (``v1.11/…/index.html``), or the path itself when it has at most one folder (str)."""
    head, sep, rest = path.partition("/")
    folders, _sep, name = rest.rpartition("/")
    return f"{head}/…/{name}" if sep and folders else path


class ElideRightDelegate(QStyledItemDelegate):
    """Draws a column's text cut at its end ("Keep cluster 5 (longest main…"): for text that
    starts with what matters and whose whole text is in the tooltip, where the view's middle
    elision would cut the word that matters.

    Args:
        parent: the view.
        top_level_only: only a tree's top-level rows (its group titles; the rows under them,
            paths, keep the view's own elision).
    """

    def __init__(self, parent=None, top_level_only: bool = False) -> None:
        super().__init__(parent)
        self._top_level_only = top_level_only

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:  # noqa: N802 (Qt API)
        """The default style option, with right elision (where it applies)."""
        super().initStyleOption(option, index)
        if not self._top_level_only or not index.parent().isValid():
            option.textElideMode = Qt.TextElideMode.ElideRight
