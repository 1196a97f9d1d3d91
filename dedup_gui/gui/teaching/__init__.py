"""The teaching window: SimHash, shingles and Jaccard, Hamming distance, the four duplicate types
and the method comparison, shown step by step on real pages, with a presentation mode.

Open it from the main window with the current scan::

    window = TeachingWindow(result, parent=main_window)
    window.open_pair.connect(main_window_select_pair)   # (left_path, right_path)
    window.show()
    window.show_pair(left_path, right_path)              # the pair selected there
    ...
    window.set_result(new_result)                        # after another scan
    window.update_result(reclassified)                   # same scan, new thresholds: choices stay

One view per module: :mod:`.simhash_view`, :mod:`.jaccard_view`, :mod:`.hamming_view`,
:mod:`.gallery_view`, :mod:`.methods_view`; :mod:`.presentation` holds the presentation mode.
Every computation is a call into :mod:`dedup_gui.core`; the slow ones run off the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QMainWindow, QScrollArea, QTabWidget, QToolBar, QWidget

from dedup_gui.core.model import ScanResult
from dedup_gui.core.teaching.pair_choice import describe_pair, identical_texts, instructive_pair
from dedup_gui.gui.screen_fit import fit_to_screen
from dedup_gui.gui.teaching.gallery_view import GalleryView
from dedup_gui.gui.teaching.hamming_view import HammingView
from dedup_gui.gui.teaching.jaccard_view import JaccardView
from dedup_gui.gui.teaching.line_label import ToolbarNote
from dedup_gui.gui.teaching.methods_view import MethodsView
from dedup_gui.gui.teaching.page_chooser import default_pair_paths
from dedup_gui.gui.teaching.presentation import FIGURE_SCALE, PresentationMode
from dedup_gui.gui.teaching.simhash_view import SimhashView

__all__ = [
    "SHORT_TAB_TITLES",
    "TAB_TITLES",
    "GalleryView",
    "HammingView",
    "JaccardView",
    "MethodsView",
    "PresentationMode",
    "SimhashView",
    "TeachingWindow",
]

#: The size the window opens at where the screen has room (pixels).
PREFERRED_SIZE = (1280, 860)
#: The most of the screen's available width and height the window opens at (an 800-pixel
#: projector: 720 pixels, with room for the window's frame and the desktop's panels).
SCREEN_SHARE = 0.9
#: The tabs, in order.
#: How often the window looks whether the next view can be given the scan (ms).
PENDING_INTERVAL_MS = 50

TAB_TITLES = (
    "SimHash step by step",
    "Jaccard and shingles",
    "Hamming distance",
    "Four types gallery",
    "Method comparison",
)
#: The tabs' titles where the full ones do not fit in one row (presentation mode at 1280x800).
SHORT_TAB_TITLES = ("SimHash", "Jaccard", "Hamming", "Four types", "Methods")


def initial_size(window: QWidget) -> tuple[int, int]:
    """The size the teaching window opens at: :data:`PREFERRED_SIZE`, at most
    :data:`SCREEN_SHARE` of the available geometry of the screen it opens on (its parent's, or
    the primary screen) (``(width, height)`` in pixels)."""
    parent = window.parentWidget()
    screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
    if screen is None:
        return PREFERRED_SIZE
    room = screen.availableGeometry()
    width, height = PREFERRED_SIZE
    return min(width, int(room.width() * SCREEN_SHARE)), min(height, int(room.height() * SCREEN_SHARE))


class TeachingWindow(QMainWindow):
    """A window with a tab per teaching view and a presentation mode (F11).

    Args:
        result: the scan whose pages the views offer (``None``: typed text and toy examples only).
        labels_csv: the labels file of the method comparison for every scan (default: the
            scan's own, :meth:`.methods_view.MethodsView.set_scan`).
        parent: the main window, or ``None``; the teaching window stays a window of its own.
        pair: the two page paths to start on (see :meth:`show_pair`), or ``None``.

    Signals:
        open_pair(str, str): the gallery's "Open in inspector": the two pages' paths
            (:attr:`dedup_gui.core.model.Page.path`, relative to the scanned folder).

    Attributes:
        tabs: the ``QTabWidget``.
        pair: the two page paths the SimHash, Jaccard and Hamming views show (the pair selected
            in the main window), or ``None`` for each view's own first pair.
        simhash_view, jaccard_view, hamming_view, gallery_view, methods_view: the tabs' views.
        presentation: the :class:`~.presentation.PresentationMode` (its ``action`` is on the
            toolbar, shortcut F11).
    """

    open_pair = Signal(str, str)

    def __init__(self, result: ScanResult | None = None, labels_csv: str | Path | None = None,
                 parent: QWidget | None = None, pair: tuple[str, str] | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setWindowTitle("Teaching: how duplicate pages are found")
        self.result: ScanResult | None = None
        self.pair: tuple[str, str] | None = None
        self.simhash_view = SimhashView()
        self.jaccard_view = JaccardView()
        self.hamming_view = HammingView()
        self.gallery_view = GalleryView()
        self.methods_view = MethodsView(labels_csv)
        self.gallery_view.open_pair.connect(self.open_pair)
        self.tabs = QTabWidget()
        tips = (
            "SimHash (Charikar 2002) computed one feature at a time",
            "Shingle sets, their Jaccard similarity (Broder 1997), and MinHash estimating it",
            "Two fingerprints bit by bit; near duplicates differ in at most k = 3 bits (Manku et al. 2007)",
            "One example pair of each duplicate type from the scan",
            "Every method's precision, recall and F1 on labelled pairs",
        )
        for view, title, tip in zip(self.views(), TAB_TITLES, tips):
            scroll = QScrollArea()  # large fonts on a small screen: scroll rather than clip
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(view)
            index = self.tabs.addTab(scroll, title)
            self.tabs.setTabToolTip(index, tip)
        # Every title in view: short titles where the full ones do not fit, elided below that,
        # never a tab bar that scrolls its titles out of sight.
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        self.tabs.installEventFilter(self)
        self.setCentralWidget(self.tabs)
        self.presentation = PresentationMode(self)
        self.presentation.toggled.connect(self._presentation_toggled)
        toolbar = QToolBar("Teaching")
        toolbar.setObjectName("teaching-toolbar")
        toolbar.setMovable(False)
        toolbar.addAction(self.presentation.action)
        # which pair the views opened on when the selected one taught nothing (_instructive): in
        # the toolbar's empty room, where a status bar would take a line from every view
        # (elided to the room beside the button, the whole text in its tooltip)
        self.pair_note = ToolbarNote()
        toolbar.addWidget(self.pair_note)
        self.addToolBar(toolbar)
        self.toolbar = toolbar
        self.resize(*initial_size(self))
        fit_to_screen(self)  # a 1024x640 screen shows it whole (its buttons too)
        self._pending: list[QWidget] = []  # views still to be given the scan (set_result)
        self._idle_ticks = 0
        self._pending_timer = QTimer(self)
        self._pending_timer.setInterval(PENDING_INTERVAL_MS)
        self._pending_timer.timeout.connect(self._offer_next)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.set_result(result, pair)

    def views(self) -> list[QWidget]:
        """The five views in tab order (list[QWidget])."""
        return [self.simhash_view, self.jaccard_view, self.hamming_view, self.gallery_view, self.methods_view]

    def set_result(self, result: ScanResult | None, pair: tuple[str, str] | None = None) -> None:
        """Offer the pages of ``result`` (a finished scan) in every view; ``None`` leaves the typed
        text and toy examples.  ``pair`` (two page paths, see :meth:`show_pair`) is where the
        SimHash, Jaccard and Hamming views start; ``None`` (or a pair not in the scan): each
        view's own first pair.

        The view in front gets it at once; the others one after another, each once the views
        before it have finished their background work (:meth:`is_busy` is ``True`` until all
        have it).  Their first computations at the same time kept the GUI thread from the GIL:
        on a 600,000-character page, a repaint of the SimHash table beside the Jaccard view's
        shingling took over a second.
        """
        self.result = result
        self.pair = self._instructive(result, pair)
        self.methods_view.set_scan(result)
        views = [self.simhash_view, self.jaccard_view, self.hamming_view, self.gallery_view]
        front = self.current_view()
        self._pending = [view for view in views if view is not front]
        if front in views:
            self._give(front)
        self._pending_timer.start()

    def _instructive(self, result: ScanResult | None, pair: tuple[str, str] | None) -> tuple[str, str] | None:
        """``pair``, unless it is missing or two identical texts (after a scan the main window
        selects the most similar pair, often identical: Jaccard 1.000, Hamming 0 bits): then
        the scan's :func:`~dedup_gui.core.teaching.pair_choice.instructive_pair`, named in the
        toolbar (:attr:`pair_note`).  A pair the user selects later (:meth:`show_pair`) is
        followed as it is."""
        self.pair_note.setText("")
        if result is None or (pair is not None and not identical_texts(result, *pair)
                              and default_pair_paths(result, pair) == pair):  # fmt: skip
            return pair
        chosen = instructive_pair(result)
        if chosen is None:
            return pair
        why = "the selected pair has identical texts" if pair is not None else "no pair was selected"
        self.pair_note.setText(f"Showing {describe_pair(result, chosen)} ({why}; select another in the "
                                     "main window).")  # fmt: skip
        return result.pages[chosen.left].path, result.pages[chosen.right].path

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classification of the scan shown (new thresholds, decisions or ignore list:
        the same pages, new types).  The pages each view shows stay as the teacher chose them
        (changing Hamming k in the main window sent the Hamming view back to the main window's
        pair); the Hamming view compares again under the new k, the gallery picks its examples
        again and the method comparison takes the new scan.  A result with other pages is a new
        scan: as :meth:`set_result`."""
        same = (self.result is not None and result is not None
                and [p.path for p in self.result.pages] == [p.path for p in result.pages])  # fmt: skip
        if not same:
            self.set_result(result, self.pair)
            return
        self.result = result
        self.methods_view.set_scan(result)
        for view in (self.simhash_view, self.jaccard_view, self.hamming_view):
            if view not in self._pending:
                view.update_result(result)
        if self.gallery_view not in self._pending:
            self.gallery_view.set_result(result)

    def show_pair(self, left: str, right: str) -> None:
        """Show the pages with these paths (relative to the scanned folder: the pair selected in
        the main window): the SimHash view hashes the first (the second if the first has no
        text), the Jaccard and Hamming views compare the two.  A view still waiting for the scan
        starts on them.  Paths not in the scan change nothing."""
        if default_pair_paths(self.result, (left, right)) != (left, right):
            return
        self.pair = (left, right)
        self.pair_note.setText("")
        if self.simhash_view not in self._pending:
            with_text = {p.path for p in self.result.pages if p.has_text} if self.result else set()
            self.simhash_view.select_page(left if left in with_text or right not in with_text else right)
        if self.jaccard_view not in self._pending:
            self.jaccard_view.show_pages(left, right)
        if self.hamming_view not in self._pending:
            self.hamming_view.select_pages(left, right)

    def _give(self, view: QWidget) -> None:
        """Hand ``view`` the scan (and the pair, to the views that show one)."""
        if view is self.gallery_view:
            self.gallery_view.set_result(self.result)
        else:
            view.set_result(self.result, self.pair)  # type: ignore[attr-defined]

    def _offer_next(self) -> None:
        """Give the scan to the next waiting view, when no view computes (timer slot)."""
        if not self._pending:
            self._pending_timer.stop()
            return
        if any(view.is_busy() for view in self.views()):
            self._idle_ticks = 0
            return
        # one quiet tick first: the outcome just shown (a chart drawn when the loop is idle)
        # is drawn before the next computation competes with it for the GIL
        self._idle_ticks += 1
        if self._idle_ticks < 2:
            return
        self._idle_ticks = 0
        current = self.current_view()
        view = current if current in self._pending else self._pending[0]
        self._pending.remove(view)
        self._give(view)

    def _tab_changed(self, index: int) -> None:
        view = self.views()[index]
        if view in self._pending:  # wanted now: no waiting for the others
            self._pending.remove(view)
            self._give(view)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Choose the tabs' titles again when the tab widget's width or font changes."""
        if watched is self.tabs and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            self.fit_tab_titles()
        return super().eventFilter(watched, event)

    def fit_tab_titles(self) -> None:
        """Show :data:`TAB_TITLES` if they fit side by side in the tab bar's width, else
        :data:`SHORT_TAB_TITLES`."""
        bar = self.tabs.tabBar()
        fm = bar.fontMetrics()
        padding = sum(bar.tabSizeHint(i).width() - fm.horizontalAdvance(bar.tabText(i)) for i in range(bar.count()))
        full = padding + sum(fm.horizontalAdvance(title) for title in TAB_TITLES)
        titles = TAB_TITLES if full <= self.tabs.width() else SHORT_TAB_TITLES
        for i, title in enumerate(titles):
            if bar.tabText(i) != title:
                bar.setTabText(i, title)

    def show_tab(self, tab: int | str) -> QWidget:
        """Bring a tab to the front, by index or title; return its view.

        Raises:
            ValueError: an unknown title.
        """
        index = tab if isinstance(tab, int) else TAB_TITLES.index(tab)
        self.tabs.setCurrentIndex(index)
        return self.views()[index]

    def current_view(self) -> QWidget:
        """The view of the tab in front (QWidget)."""
        return self.views()[self.tabs.currentIndex()]

    def is_busy(self) -> bool:
        """``True`` while any view waits for a background computation or for the scan (bool)."""
        return bool(self._pending) or any(view.is_busy() for view in self.views())

    def closeEvent(self, event) -> None:  # noqa: N802
        """Stop autoplay and a running comparison; leave presentation mode."""
        self.simhash_view.set_autoplay(False)
        self.methods_view.cancel()
        self.presentation.set_active(False)
        super().closeEvent(event)

    def _presentation_toggled(self, on: bool) -> None:
        self.simhash_view.set_presentation(on)
        self.hamming_view.set_presentation(on)
        self.jaccard_view.set_presentation(on)
        self.gallery_view.set_presentation(on)
        for view in (self.jaccard_view, self.methods_view):
            view.plot.font_scale = FIGURE_SCALE if on else 1.0
            view.redraw()
        self.methods_view.balance()
