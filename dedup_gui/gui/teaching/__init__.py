"""The teaching window: SimHash, shingles and Jaccard, Hamming distance, the four duplicate types
and the method comparison, shown step by step on real pages, with a presentation mode.

Open it from the main window with the current scan::

    window = TeachingWindow(result, parent=main_window)
    window.open_pair.connect(main_window_select_pair)   # (left_path, right_path)
    window.show()
    ...
    window.set_result(new_result)                        # after another scan

One view per module: :mod:`.simhash_view`, :mod:`.jaccard_view`, :mod:`.hamming_view`,
:mod:`.gallery_view`, :mod:`.methods_view`; :mod:`.presentation` holds the presentation mode.
Every computation is a call into :mod:`dedup_gui.core`; the slow ones run off the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QMainWindow, QScrollArea, QTabWidget, QToolBar, QWidget

from dedup_gui.core.model import ScanResult

from .gallery_view import GalleryView
from .hamming_view import HammingView
from .jaccard_view import JaccardView
from .methods_view import MethodsView
from .presentation import FIGURE_SCALE, PresentationMode
from .simhash_view import SimhashView

__all__ = [
    "TAB_TITLES",
    "GalleryView",
    "HammingView",
    "JaccardView",
    "MethodsView",
    "PresentationMode",
    "SimhashView",
    "TeachingWindow",
]

#: The tabs, in order.
TAB_TITLES = (
    "SimHash step by step",
    "Jaccard and shingles",
    "Hamming distance",
    "Four types gallery",
    "Method comparison",
)


class TeachingWindow(QMainWindow):
    """A window with a tab per teaching view and a presentation mode (F11).

    Args:
        result: the scan whose pages the views offer (``None``: typed text and toy examples only).
        labels_csv: the labels file of the method comparison (default: the bundled samples'
            ``EXPECTED.csv``).
        parent: the main window, or ``None``; the teaching window stays a window of its own.

    Signals:
        open_pair(str, str): the gallery's "Open in inspector": the two pages' paths
            (:attr:`dedup_gui.core.model.Page.path`, relative to the scanned folder).

    Attributes:
        tabs: the ``QTabWidget``.
        simhash_view, jaccard_view, hamming_view, gallery_view, methods_view: the tabs' views.
        presentation: the :class:`~.presentation.PresentationMode` (its ``action`` is on the
            toolbar, shortcut F11).
    """

    open_pair = Signal(str, str)

    def __init__(self, result: ScanResult | None = None, labels_csv: str | Path | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setWindowTitle("Teaching: how duplicate pages are found")
        self.result: ScanResult | None = None
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
        self.setCentralWidget(self.tabs)
        self.presentation = PresentationMode(self)
        self.presentation.toggled.connect(self._presentation_toggled)
        toolbar = QToolBar("Teaching")
        toolbar.setObjectName("teaching-toolbar")
        toolbar.setMovable(False)
        toolbar.addAction(self.presentation.action)
        self.addToolBar(toolbar)
        self.toolbar = toolbar
        self.resize(1280, 860)
        self.set_result(result)

    def views(self) -> list[QWidget]:
        """The five views in tab order (list[QWidget])."""
        return [self.simhash_view, self.jaccard_view, self.hamming_view, self.gallery_view, self.methods_view]

    def set_result(self, result: ScanResult | None) -> None:
        """Offer the pages of ``result`` (a finished scan) in every view; ``None`` leaves the typed
        text and toy examples."""
        self.result = result
        for view in (self.simhash_view, self.jaccard_view, self.hamming_view, self.gallery_view):
            view.set_result(result)

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
        """``True`` while any view waits for a background computation (bool)."""
        return any(view.is_busy() for view in self.views())

    def closeEvent(self, event) -> None:  # noqa: N802
        """Stop autoplay and a running comparison; leave presentation mode."""
        self.simhash_view.set_autoplay(False)
        self.methods_view.cancel()
        self.presentation.set_active(False)
        super().closeEvent(event)

    def _presentation_toggled(self, on: bool) -> None:
        for view in (self.jaccard_view, self.methods_view):
            view.plot.font_scale = FIGURE_SCALE if on else 1.0
            view.redraw()
        self.methods_view.balance()
