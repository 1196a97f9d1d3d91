"""The four types gallery: one example pair of each duplicate type from the scan
(:func:`dedup_gui.core.teaching.gallery.type_examples`), with its content and layout similarity, the page
regions whose elements differ (:mod:`dedup_gui.core.views.layout_diff`, computed off the GUI thread)
and an excerpt of each main text.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.fingerprints.simhash import bits_text
from dedup_gui.core.model import TYPE_ORDER, DupType, Page, Pair, ScanResult, Thresholds
from dedup_gui.core.number_format import format_score
from dedup_gui.core.progress import CancelToken
from dedup_gui.core.teaching.gallery import type_examples, type_pairs, type_rule
from dedup_gui.core.views.colors import TYPE_COLORS
from dedup_gui.core.views.layout_diff import LayoutDiff, layout_diff, page_layout
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.teaching.widgets import plain_label

#: What each type means (DESIGN.md's table).
TYPE_MEANING = {
    DupType.FULL: "same content, same layout",
    DupType.CONTENT: "same content, different layout",
    DupType.LAYOUT: "an important part of the content shared, same layout",
    DupType.PARTIAL: "an important part of the content shared, different layout",
}
#: Characters of each main text shown.
EXCERPT_CHARS = 320


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The start of a main text, whitespace collapsed, cut at a word with "…" (str).

    Example:
        >>> excerpt("one  two\\nthree four", 12)
        'one two…'
    """
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


def example_layout_diffs(
    examples: dict[DupType, tuple[Page, Page] | None], stop: CancelToken | None = None
) -> dict[DupType, LayoutDiff | str]:
    """Re-read each example's two files and align their layouts (runs off the GUI thread).

    Args:
        examples: type -> the example pair's two pages, or ``None``.
        stop: once set (a newer result superseded this one), no further example is computed.

    Returns:
        type -> :class:`~dedup_gui.core.views.layout_diff.LayoutDiff`, or the reason it could not be
        computed (str); only those computed before ``stop`` was set.
    """
    out: dict[DupType, LayoutDiff | str] = {}
    for dup, pages in examples.items():
        if stop is not None and stop.is_set():
            break
        if pages is None:
            continue
        try:
            out[dup] = layout_diff(page_layout(pages[0]), page_layout(pages[1]))
        except Exception as exc:  # a file removed since the scan: say so on the card
            out[dup] = f"could not re-read the pages: {exc}"
    return out


def regions_text(diff: LayoutDiff | str) -> str:
    """The regions that differ, most changed first, e.g. ``"main 12 of 340 elements; footer 3 of 40"`` (str)."""
    if isinstance(diff, str):
        return diff
    regions = diff.differing_regions()
    if not regions:
        return f"none (both pages have the same {len(diff.a.tags):,} elements, tag for tag)"
    parts = []
    for region in regions:
        changed, total = diff.region_changes[region]
        parts.append(f"{region} {changed:,} of {total:,} elements")
    return "; ".join(parts)


class ExampleCard(QGroupBox):
    """One type's example pair: files, titles, measures, differing regions, excerpts, a button.

    Args:
        dup: the type shown.
        parent: the Qt parent widget, or ``None``.

    Signals:
        open_requested(str, str): the two pages' paths, when "Open in inspector" is pressed.
        another_requested(): "Another example" was pressed.
    """

    open_requested = Signal(str, str)
    another_requested = Signal()

    def __init__(self, dup: DupType, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dup = dup
        self.paths: tuple[str, str] | None = None
        self.excerpt_lines = 6  # most lines of an excerpt box
        number = TYPE_ORDER.index(dup) + 1
        self._title = f"Type {number}: {dup.label}"
        self.setTitle(self._title)
        swatch = QFrame()
        swatch.setFixedWidth(8)
        swatch.setAutoFillBackground(True)
        pal = swatch.palette()
        pal.setColor(QPalette.ColorRole.Window, QColor(TYPE_COLORS[dup]))
        swatch.setPalette(pal)
        self.meaning_label = plain_label(TYPE_MEANING[dup], wrap=True)
        self.files_label = plain_label(wrap=True)
        self.titles_label = plain_label(wrap=True)
        self.measures_label = plain_label(bold=True, wrap=True)
        self.regions_label = plain_label(wrap=True)
        self.excerpts = (QPlainTextEdit(), QPlainTextEdit())
        for edit in self.excerpts:
            edit.setReadOnly(True)
        self._fit_excerpts()
        self.open_button = QPushButton("Open in inspector")
        self.open_button.setToolTip("Show this pair in the main window's pair inspector")
        self.open_button.clicked.connect(self._open)
        self.another_button = QPushButton("Another example")
        self.another_button.setToolTip("The next pair of this type, less similar; after the last, the first again")
        self.another_button.clicked.connect(self.another_requested)
        body = QVBoxLayout()
        body.addWidget(self.meaning_label)
        body.addWidget(self.files_label)
        body.addWidget(self.titles_label)
        body.addWidget(self.measures_label)
        body.addWidget(self.regions_label)
        texts = QHBoxLayout()
        texts.addWidget(self.excerpts[0])
        texts.addWidget(self.excerpts[1])
        body.addLayout(texts)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.another_button)
        buttons.addWidget(self.open_button)
        body.addLayout(buttons)
        body.addStretch(1)
        outer = QHBoxLayout(self)
        outer.addWidget(swatch)
        outer.addLayout(body, 1)
        self.show_pair(None, None)

    def set_excerpt_lines(self, lines: int) -> None:
        """Let each excerpt box grow to ``lines`` text lines at most."""
        self.excerpt_lines = lines
        self._fit_excerpts()

    def _fit_excerpts(self) -> None:
        line = self.fontMetrics().height()
        for edit in self.excerpts:
            edit.setMinimumHeight(line * 3 + 12)
            edit.setMaximumHeight(line * self.excerpt_lines + 12)  # its own size hint would make the cards scroll

    def changeEvent(self, event) -> None:  # noqa: N802
        """Fit the excerpts to a new font (presentation mode)."""
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit_excerpts()

    def show_pair(self, result: ScanResult | None, pair: Pair | None, number: int = 1, count: int = 1) -> None:
        """Show ``pair`` of ``result`` (or say, in one line, that the scan has no pair of this
        type: no empty excerpt boxes nor greyed buttons), example ``number`` of ``count`` pairs
        of the type ("Another example" shown where there are two or more)."""
        empty = result is None or pair is None
        for widget in (self.titles_label, self.measures_label, self.regions_label, *self.excerpts, self.open_button):
            widget.setVisible(not empty)
        self.another_button.setVisible(not empty and count > 1)
        self.open_button.setEnabled(not empty)
        if result is None or pair is None:
            self.setTitle(self._title)
            self.paths = None
            self.files_label.setText("The scan found no pair of this type." if result else "No scan result yet.")
            for label in (self.titles_label, self.measures_label, self.regions_label):
                label.setText("")
            for edit in self.excerpts:
                edit.setPlainText("")
            return
        a, b = result.pages[pair.left], result.pages[pair.right]
        s = pair.scores
        self.paths = (a.path, b.path)
        # in the title, not a line of its own: presenting at 1280x800 the first card is whole
        self.setTitle(self._title + (f" (example {number} of {count:,}, most similar first)" if count > 1 else ""))
        self.files_label.setText(f"A: {a.path}\nB: {b.path}")
        self.titles_label.setText(f"titles: “{a.title or '(none)'}” / “{b.title or '(none)'}”")
        # every measure in [0, 1] as a decimal, as the Jaccard view, the inspector and the tables
        # show them (the containment was 48.3% here and 0.483 there)
        self.measures_label.setText(
            f"content similarity {format_score(s.content_similarity)} · layout similarity {format_score(s.layout_similarity)}\n"
            f"containment {format_score(s.content_containment)} · Jaccard {format_score(s.jaccard)} · Hamming {bits_text(s.hamming_distance)}"
        )  # fmt: skip
        self.regions_label.setText("regions that differ: computing…")
        self.excerpts[0].setPlainText(f"A: {excerpt(a.main_text)}")
        self.excerpts[1].setPlainText(f"B: {excerpt(b.main_text)}")
        self.open_button.setEnabled(True)

    def show_regions(self, diff: LayoutDiff | str) -> None:
        """Show the regions whose elements differ."""
        self.regions_label.setText(f"regions that differ: {regions_text(diff)}")

    def _open(self) -> None:
        if self.paths:
            self.open_requested.emit(*self.paths)


class GalleryView(QWidget):
    """The gallery tab: a card per duplicate type (full, content, layout, partial), 2 x 2.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        open_pair(str, str): a card's "Open in inspector": the two pages' paths
            (:attr:`dedup_gui.core.model.Page.path`, relative to the scanned folder).
        regions_ready(): the differing regions of every example are shown.

    Attributes:
        cards: type -> :class:`ExampleCard`.
    """

    open_pair = Signal(str, str)
    regions_ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._examples: dict[DupType, Pair | None] = {}
        self._pairs: dict[DupType, list[Pair]] = {}  # each type's pairs, most similar first
        self._chosen: dict[DupType, int] = {}  # the index shown of each type's pairs
        self._diffs: dict[tuple[str, str], LayoutDiff | str] = {}  # computed, by the pair's paths
        self._submitted: dict[DupType, tuple[str, str]] = {}  # the pairs of the job running
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_regions)
        self._job.failed.connect(lambda exc: [c.show_regions(f"could not compare the layouts: {exc}")
                                              for c in self.cards.values()])  # fmt: skip
        self.cards = {dup: ExampleCard(dup) for dup in TYPE_ORDER[:4]}
        inner = QWidget()
        self._grid = QGridLayout(inner)
        m = self._grid.contentsMargins()
        self._margins = (m.left(), m.top(), m.right(), m.bottom())
        for dup, card in self.cards.items():
            card.open_requested.connect(self.open_pair)
            card.another_requested.connect(lambda dup=dup: self.another_example(dup))
        self.intro_label = plain_label(
            "A page has content (the main text) and layout (its template, the DOM tags). Comparing both "
            "sorts a pair into one of four duplicate types; here is the scan's most similar pair of each.",
            wrap=True)  # fmt: skip
        # the rule that decides the type, with the main window's thresholds, and what layout
        # similarity is: the cards showed the measures but not what they are compared with
        self.rule_label = plain_label(type_rule(Thresholds()), wrap=True)
        # the words scroll with the cards, in one scroll area: beside them, they made the tab's
        # own scroll area scroll too (two nested scroll bars in presentation mode)
        words = QVBoxLayout()
        words.addWidget(self.intro_label)
        words.addWidget(self.rule_label)
        self._grid.addLayout(words, 0, 0, 1, 2)
        self.set_presentation(False)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll, 1)

    def set_presentation(self, on: bool) -> None:
        """Presenting: the cards one under the other, their excerpts three lines at most, narrow
        margins, so the first type is whole on the first screen at 1280x800 (2 x 2 at twice the font size cut its
        excerpts); the scroll bar shows the rest.  Otherwise 2 x 2."""
        # narrow margins presenting: with the words above the cards in the one scroll area, the
        # first card's last 4 pixels were below the screen at 1280x800
        self._grid.setContentsMargins(*((4, 2, 4, 2) if on else self._margins))
        for i, card in enumerate(self.cards.values()):
            self._grid.removeWidget(card)
            self._grid.addWidget(card, *((i + 1, 0) if on else (i // 2 + 1, i % 2)))  # row 0: the words
            card.set_excerpt_lines(3 if on else 6)

    def set_result(self, result: ScanResult | None) -> None:
        """Show the scan's example pair of each type and start computing their layout diffs."""
        self._result = result
        self.rule_label.setText(type_rule(result.thresholds if result else Thresholds()))
        self._examples = type_examples(result) if result else {}
        self._pairs = type_pairs(result) if result else {}
        self._chosen = dict.fromkeys(self._pairs, 0)
        self._diffs = {}
        for dup, card in self.cards.items():
            card.show_pair(result, self._examples.get(dup), 1, len(self._pairs.get(dup, ())))
        self._compute_regions()

    def another_example(self, dup: DupType) -> None:
        """Show the next pair of type ``dup`` (less similar; after the last, the first again)."""
        pairs = self._pairs.get(dup, [])
        if len(pairs) < 2 or self._result is None:
            return
        index = (self._chosen[dup] + 1) % len(pairs)
        self._chosen[dup] = index
        self._examples[dup] = pairs[index]
        self.cards[dup].show_pair(self._result, pairs[index], index + 1, len(pairs))
        self._compute_regions()

    def _compute_regions(self) -> None:
        """Show the differing regions of the pairs shown, computing those not yet known off the
        GUI thread (one job for all: a newer one supersedes it, so it takes every card's)."""
        result = self._result
        wanted: dict[DupType, tuple[Page, Page] | None] = {}
        self._submitted = {}
        for dup, pair in self._examples.items():
            card = self.cards[dup]
            if pair is None or result is None or card.paths is None:
                continue
            if card.paths in self._diffs:
                card.show_regions(self._diffs[card.paths])
                continue
            wanted[dup] = (result.pages[pair.left], result.pages[pair.right])
            self._submitted[dup] = card.paths
        if wanted:
            self._job.submit(example_layout_diffs, wanted, stoppable=True)
        else:
            self._job.cancel()
            self.regions_ready.emit()

    def examples(self) -> dict[DupType, tuple[str, str] | None]:
        """The pair shown for each type, as page paths (dict; ``None`` where there is none)."""
        return {dup: card.paths for dup, card in self.cards.items()}

    def is_busy(self) -> bool:
        """``True`` while layout diffs are being computed (bool)."""
        return self._job.is_running()

    def _show_regions(self, diffs: dict[DupType, LayoutDiff | str]) -> None:
        for dup, diff in diffs.items():
            paths = self._submitted.get(dup)
            if paths is None:
                continue
            self._diffs[paths] = diff
            if self.cards[dup].paths == paths:
                self.cards[dup].show_regions(diff)
        self.regions_ready.emit()
