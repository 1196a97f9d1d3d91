"""The pair inspector: tabs that show one selected pair of pages from every angle.

Embed :class:`PairInspector` under the pairs table and call :meth:`PairInspector.set_pair`
whenever the selection (or the thresholds) change, :meth:`PairInspector.clear` when nothing is
selected.  Only the visible tab computes; the others catch up when they are shown.  The slow
work (text diff, re-reading pages for the layout diff and the rendering) runs off the GUI thread.

Tabs (one view per module): :class:`~.text_diff_view.TextDiffView`,
:class:`~.layout_diff_view.LayoutDiffView`, :class:`~.rendered_view.RenderedView`,
:class:`~.fingerprints_view.FingerprintsView`, :class:`~.why_view.WhyView`.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QWidget

from dedup_gui.core.model import DupType, Pair, ScanResult, Thresholds
from dedup_gui.gui.inspector.fingerprints_view import FingerprintsView
from dedup_gui.gui.inspector.layout_diff_view import LayoutDiffView
from dedup_gui.gui.inspector.rendered_view import RenderedView
from dedup_gui.gui.inspector.text_diff_view import TextDiffView
from dedup_gui.gui.inspector.why_view import WhyView

__all__ = ["PairInspector", "TextDiffView", "LayoutDiffView", "RenderedView", "FingerprintsView", "WhyView"]


class PairInspector(QTabWidget):
    """Tabs inspecting one pair: Text diff, Layout diff, Rendered, Fingerprints, Why this type.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        text_diff_view, layout_diff_view, rendered_view, fingerprints_view, why_view: the tabs.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_diff_view = TextDiffView()
        self.layout_diff_view = LayoutDiffView()
        self.rendered_view = RenderedView()
        self.fingerprints_view = FingerprintsView()
        self.why_view = WhyView()
        for view, title, tip in (
            (self.text_diff_view, "Text diff", "The two main texts side by side, changed words highlighted"),
            (self.layout_diff_view, "Layout diff", "The two DOM tag sequences aligned, by page region"),
            (self.rendered_view, "Rendered", "Both pages drawn without scripts, styles or remote content"),
            (self.fingerprints_view, "Fingerprints", "SimHash bits, Hamming distance, hashes and every method"),
            (self.why_view, "Why this type", "The measures against the thresholds, and the verdict"),
        ):
            index = self.addTab(view, title)
            self.setTabToolTip(index, tip)
        self._state: tuple[ScanResult | None, Pair | None, Thresholds | None] = (None, None, None)
        self._stale: set[QWidget] = set()
        self.currentChanged.connect(self._refresh_current)

    def views(self) -> list[QWidget]:
        """The tab views in tab order (list[QWidget])."""
        return [self.widget(i) for i in range(self.count())]

    def set_pair(self, result: ScanResult, pair: Pair | None, thresholds: Thresholds,
                 label: DupType | None = None) -> None:  # fmt: skip
        """Inspect ``pair`` of ``result`` under ``thresholds``; ``None`` clears every tab.

        Args:
            result: the scan the pair belongs to (its pages are indexed by the pair).
            pair: the selected pair, or ``None``.
            thresholds: the thresholds in force (they may differ from the scan's after tuning).
            label: the pair's type in the scan's labels file, or ``None`` (the "Why this type"
                tab says whether it agrees).
        """
        if pair is None:
            self.clear()
            return
        self.why_view.human_label = label
        self._state = (result, pair, thresholds)
        self._stale = set(self.views())
        self._refresh_current()

    def clear(self) -> None:
        """Show no pair in any tab (computations still running are ignored)."""
        self._state = (None, None, None)
        self._stale = set()
        for view in self.views():
            view.clear()

    def current_pair(self) -> Pair | None:
        """The inspected pair, or ``None`` (Pair | None)."""
        return self._state[1]

    def _refresh_current(self, *_args) -> None:
        view = self.currentWidget()
        if view in self._stale:
            self._stale.discard(view)
            view.set_pair(*self._state)
