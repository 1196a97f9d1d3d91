"""The main window's first layout (before one is remembered): the clusters panel's share of the
width and the split between the result tables and the pair inspector, which on a small screen
favours the tables.

At 1024x640 (a tester's laptop) the tables and the inspector got equal heights: about 7 pair rows
showed, while the inspector's text panes scroll anyway.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter

#: The clusters panel's share of the window's width at first start (later, the remembered one).
CLUSTERS_SHARE = 0.3
#: Below this splitter height (pixels) the tables get :data:`SMALL_TABLES_SHARE` of it.
SMALL_HEIGHT = 600
#: The tables' share of a small splitter's height (the inspector gets the rest, at least its
#: least height).
SMALL_TABLES_SHARE = 0.6
#: The tables' and the inspector's heights on a larger screen (pixels; scaled to the splitter).
LARGE_SIZES = (460, 400)


def splitter_sizes(total: int, inspector_min: int) -> list[int]:
    """The first heights of the tables and the inspector in a vertical splitter of ``total``
    pixels: :data:`LARGE_SIZES` scaled to it, or below :data:`SMALL_HEIGHT` the tables
    :data:`SMALL_TABLES_SHARE` of it, the inspector never under ``inspector_min`` (list of two
    ints, pixels).

    Example:
        >>> splitter_sizes(500, 200)
        [300, 200]
        >>> splitter_sizes(860, 200)
        [460, 400]
    """
    if total < SMALL_HEIGHT:
        inspector = max(inspector_min, total - round(total * SMALL_TABLES_SHARE))
    else:
        inspector = round(total * LARGE_SIZES[1] / sum(LARGE_SIZES))
    return [total - inspector, inspector]


def first_layout(window: QMainWindow, splitter: QSplitter, clusters_dock: QDockWidget) -> None:
    """Give a window shown for the first time without a remembered layout its first layout: the
    clusters panel :data:`CLUSTERS_SHARE` of its width (at 270 px the page names showed as "…"),
    and, once its layout has run, the splitter's :func:`splitter_sizes`.

    Args:
        window: the main window, being shown.
        splitter: the vertical splitter of the tables (first) and the inspector (second).
        clusters_dock: the clusters panel's dock.
    """
    window.resizeDocks([clusters_dock], [round(window.width() * CLUSTERS_SHARE)], Qt.Orientation.Horizontal)

    def split() -> None:
        total = sum(splitter.sizes())
        if total > 0:
            splitter.setSizes(splitter_sizes(total, splitter.widget(1).minimumSizeHint().height()))

    QTimer.singleShot(0, split)
