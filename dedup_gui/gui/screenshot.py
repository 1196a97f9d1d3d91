"""The ``--screenshot`` mode: open a folder, wait for the scan and for the named view's background
work, save a PNG image of the window or of that view, and quit.

For documentation and teaching material: ``python app.py FOLDER --screenshot OUT.png --view map``.
The first duplicate pair is selected, as after any scan, unless ``--pair LEFT RIGHT`` names
another.  The user's remembered settings are neither read nor written, so images are
reproducible.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QWidget

from dedup_gui.core.safe_text import terminal_text
from dedup_gui.core.views.selection import find_pair
from dedup_gui.gui import SCREENSHOT_VIEWS
from dedup_gui.gui.main_window import MainWindow

_POLL_MS = 100
_SETTLE_POLLS = 4  # idle polls in a row before the image is taken (lets layouts and paints settle)
_CHART_EXTRA = 200  # pixels added to the window's height when a chart is shot
_CLUSTERS_WIDTH = 440  # pixels of the clusters panel when it is shot
_EXPAND_CLUSTERS = 12  # clusters shown open (with their pages) when the panel is shot
_SMALL = 250  # pixels left to the other half of the window when a chart or an inspector tab is shot
_INSPECTOR_TABS = {
    "text-diff": "text_diff_view",
    "layout-diff": "layout_diff_view",
    "rendered": "rendered_view",
    "fingerprints": "fingerprints_view",
    "why": "why_view",
}


def prepare_view(window: MainWindow, name: str) -> QWidget:
    """Bring the view ``name`` (one of :data:`~dedup_gui.gui.SCREENSHOT_VIEWS`) to the front and
    return the widget to photograph.

    Raises:
        ValueError: an unknown view name.
    """
    if name not in SCREENSHOT_VIEWS:
        raise ValueError(f"unknown view {name!r}; choose one of: {', '.join(SCREENSHOT_VIEWS)}")
    if name == "window":
        return window
    tabs = {"pairs": window.pairs_panel, "pages": window.pages_panel, "errors": window.errors_panel,
            "histogram": window.histogram_view, "map": window.map_view}  # fmt: skip
    height = sum(window.splitter.sizes())
    if name in tabs:
        window.tabs.setCurrentWidget(tabs[name])
        if name in ("histogram", "map"):  # a chart gets the room (the inspector cannot shrink much)
            window.resize(window.width(), window.height() + _CHART_EXTRA)
            window.splitter.setSizes([height + _CHART_EXTRA - _SMALL, _SMALL])
        return tabs[name]
    if name in ("clusters", "thresholds"):
        dock = window.clusters_dock if name == "clusters" else window.thresholds_dock
        dock.show()
        if name == "clusters":  # wide enough for page paths, the clusters opened on their pages
            window.resizeDocks([dock], [_CLUSTERS_WIDTH], Qt.Orientation.Horizontal)
            if window.clusters_view.cluster_count() <= _EXPAND_CLUSTERS:
                window.clusters_view.tree.expandAll()
        return dock
    view = getattr(window.inspector, _INSPECTOR_TABS[name])
    window.inspector.setCurrentWidget(view)
    window.splitter.setSizes([_SMALL, height - _SMALL])  # the inspector gets the room
    return view


def window_is_busy(window: MainWindow) -> bool:
    """Whether the window or its inspector still computes something in the background (bool)."""
    if window.is_busy() or QThreadPool.globalInstance().activeThreadCount() > 0:
        return True
    for view in window.inspector.views():
        for name in ("is_comparing", "is_rendering", "is_busy"):
            check = getattr(view, name, None)
            if callable(check) and check():
                return True
    return False


class Screenshotter(QObject):
    """Waits for a window's scan and background work, then saves the image.

    Args:
        window: the window (its scan is started by the caller).
        path: the PNG file to write.
        view: the view to photograph (see :func:`prepare_view`).
        pair: ``(left, right)`` paths of the pair to select, or ``None`` for the first duplicate.

    Signals:
        done(int): the exit code: 0 when the image was written, 1 otherwise (with a message on
            stderr).
    """

    done = Signal(int)

    def __init__(self, window: MainWindow, path: str | Path, view: str = "window",
                 pair: tuple[str, str] | None = None) -> None:  # fmt: skip
        super().__init__(window)
        self.window = window
        self.path = Path(path)
        self.view = view
        self.pair = pair
        self._widget: QWidget | None = None
        self._idle = 0
        self._timer = QTimer(self)
        self._timer.setInterval(_POLL_MS)
        self._timer.timeout.connect(self._poll)
        window.scan_ended.connect(self._on_scan_ended)

    def _on_scan_ended(self, outcome: str) -> None:
        self.window.scan_ended.disconnect(self._on_scan_ended)  # one scan, one image
        if outcome != "finished":
            self._fail(f"the scan {outcome}: {self.window.scan_status.label.text()}")
            return
        if self.pair is not None:
            index = find_pair(self.window.result, *self.pair)
            if index is None:
                self._fail(missing_pair_text(self.window.result, *self.pair))
                return
            self.window.select_pair(index)
        try:
            self._widget = prepare_view(self.window, self.view)
        except ValueError as exc:
            self._fail(str(exc))
            return
        self._timer.start()

    def _poll(self) -> None:
        if window_is_busy(self.window):
            self._idle = 0
            return
        self._idle += 1
        if self._idle >= _SETTLE_POLLS:
            self._timer.stop()
            self._save()

    def _save(self) -> None:
        try:
            self.window.save_image(self._widget, self.path)
        except OSError as exc:
            self._fail(str(exc))
            return
        print(f"wrote {terminal_text(self.path)}", file=sys.stderr)
        self.done.emit(0)

    def _fail(self, message: str) -> None:
        self._timer.stop()
        print(f"error: screenshot not saved: {terminal_text(message)}", file=sys.stderr)
        self.done.emit(1)


def missing_pair_text(result, left: str, right: str) -> str:
    """Why ``--pair LEFT RIGHT`` names no pair of ``result`` (str): a path that is no page of
    the scan (paths are relative to the scanned folder: a labels file's ``pages/x.html`` is
    ``x.html`` in a scan of ``pages``), or two pages the scan never compared."""
    paths = {p.path for p in result.pages}
    unknown = [p for p in (left, right) if p not in paths]
    if unknown:
        example = next(iter(sorted(paths)), "")
        hint = f", e.g. {example}" if example else ""
        return (f"{' and '.join(unknown)}: no page of the scan (--pair takes paths relative to the "
                f"scanned folder{hint})")  # fmt: skip
    return f"the scan never compared {left} and {right} (not a candidate pair: too different)"
