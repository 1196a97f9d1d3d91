"""The teaching views' page chooser: a combo box of the scan's pages (plain text), and the pair
a teaching view opens on."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

from dedup_gui.core.model import Page, ScanResult
from dedup_gui.core.safe_text import show_control_characters


def default_pair_paths(result: ScanResult | None, pair: tuple[str, str] | None = None) -> tuple[str, str] | None:
    """The two page paths a pair view starts on: ``pair`` (the pair selected in the main window)
    if both its pages are in the scan, else the scan's first (most similar) duplicate pair, else
    its first pair, else its first two pages; ``None`` without two pages."""
    if result is None or len(result.pages) < 2:
        return None
    if pair is not None and set(pair) <= {p.path for p in result.pages}:
        return pair
    pairs = [p for p in result.pairs if p.type.value != "distinct"] or list(result.pairs)
    if pairs:
        return result.pages[pairs[0].left].path, result.pages[pairs[0].right].path
    return result.pages[0].path, result.pages[1].path


class PageChooser(QComboBox):
    """A combo box listing a scan's pages by path, optionally after fixed items such as
    "(typed text)".

    Args:
        extra: items shown before the pages (plain strings), e.g. ``("(typed text)",)``.
        parent: the Qt parent widget, or ``None``.

    Signals:
        page_changed(object): the chosen :class:`Page`, or ``None`` for an extra item.
    """

    page_changed = Signal(object)

    def __init__(self, extra: Sequence[str] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._extra = tuple(extra)
        self._pages: list[Page] = []
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(24)
        self.setMaxVisibleItems(25)
        self.addItems(list(self._extra))
        self.currentIndexChanged.connect(lambda _i: self.page_changed.emit(self.page()))

    def set_pages(self, pages: Sequence[Page]) -> None:
        """Replace the pages listed (keeps the extra items); selects the first item, silently."""
        self.blockSignals(True)
        self.clear()
        self._pages = list(pages)
        # a path is untrusted: its control characters are shown as markers, as in the tables
        self.addItems(list(self._extra) + [show_control_characters(p.path) for p in self._pages])
        self.setCurrentIndex(0)
        self.blockSignals(False)

    def replace_pages(self, pages: Sequence[Page]) -> None:
        """Replace the pages listed by those of a re-classified scan (the same paths), keeping the
        chosen item (the page with the same path, or the extra item), silently."""
        chosen = self.page()
        index = self.currentIndex()
        self.set_pages(pages)
        if chosen is not None:
            index = next((i + len(self._extra) for i, p in enumerate(self._pages) if p.path == chosen.path), 0)
        self.blockSignals(True)
        self.setCurrentIndex(index if index < self.count() else 0)
        self.blockSignals(False)

    def page(self) -> Page | None:
        """The chosen page, or ``None`` when an extra item (or nothing) is chosen."""
        i = self.currentIndex() - len(self._extra)
        return self._pages[i] if 0 <= i < len(self._pages) else None

    def select_path(self, path: str) -> bool:
        """Choose the page with this path (emits :attr:`page_changed`); ``False`` if not listed."""
        for i, p in enumerate(self._pages):
            if p.path == path:
                self.setCurrentIndex(i + len(self._extra))
                return True
        return False

    def select_extra(self, index: int = 0) -> None:
        """Choose the extra item ``index`` (emits :attr:`page_changed` if it changes)."""
        self.setCurrentIndex(index)
