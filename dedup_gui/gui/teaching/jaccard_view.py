"""Shingles, Jaccard similarity and MinHash (Broder 1997), on two chosen pages or the toy example.

The sets come from :func:`dedup_gui.core.teaching.jaccard_steps.shingle_comparison` (readable k-token
shingles of the two main texts) or :func:`~dedup_gui.core.teaching.jaccard_steps.toy_example`
(|A| = 5, |B| = 4, |A ∩ B| = 2, J = 2/7); the MinHash estimate after 1 .. n permutations comes
from :func:`~dedup_gui.core.teaching.jaccard_steps.minhash_convergence`.  Both run off the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QListWidget,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import ScanResult
from dedup_gui.core.teaching.charts import convergence_figure
from dedup_gui.core.teaching.jaccard_steps import (
    MAX_PERMUTATIONS,
    TOY_TEXT_A,
    TOY_TEXT_B,
    SetComparison,
    minhash_convergence,
    shingle_comparison,
    toy_example,
)
from dedup_gui.core.teaching.venn import venn_circles
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.teaching.figure_panel import FigurePanel
from dedup_gui.gui.teaching.widgets import PageChooser, blend, default_pair_paths, plain_label

#: Elements listed per list (shared, only A, only B) at most.
LIST_CAP = 500
#: Characters of a shingle listed at most: a shingle of a page with a 300,000-character word is
#: that long, and Qt measured it for 0.4 s on the GUI thread.
ITEM_CHARS = 200
#: Elements drawn inside the Venn diagram's regions at most (the toy example has 5 and 4).
VENN_ELEMENTS = 6
_A_COLOR = QColor("#1565c0")
_B_COLOR = QColor("#d84315")


@dataclass(frozen=True)
class JaccardData:
    """What the view shows: the set comparison and the MinHash convergence.

    Attributes:
        comparison: the two sets laid out (:class:`~dedup_gui.core.teaching.jaccard_steps.SetComparison`).
        convergence: ``[(n, estimate), ...]`` for n = 1 .. permutations.
        toy: ``True`` for the blackboard example.
        names: the two sets' names (page paths, or the toy texts).
    """

    comparison: SetComparison
    convergence: list[tuple[int, float]]
    toy: bool
    names: tuple[str, str]


def compute_jaccard(text_a: str | None, text_b: str | None, k: int, permutations: int,
                    names: tuple[str, str]) -> JaccardData:  # fmt: skip
    """Compare two texts' k-shingle sets and the MinHash estimate (the toy example when a text is
    ``None``); runs off the GUI thread.

    Returns:
        :class:`JaccardData`.
    """
    toy = text_a is None or text_b is None
    comparison = toy_example() if toy else shingle_comparison(text_a, text_b, k)
    convergence = minhash_convergence(comparison.a, comparison.b, permutations)
    return JaccardData(comparison, convergence, toy, names)


def jaccard_text(c: SetComparison) -> str:
    """The counts and the similarity in words, e.g. ``"Jaccard = |A ∩ B| / |A ∪ B| = 2/7 = 0.286"`` (str)."""
    smaller = min(len(c.a), len(c.b))
    return (
        f"|A| = {len(c.a):,}    |B| = {len(c.b):,}    |A ∩ B| = {len(c.intersection):,}    "
        f"|A ∪ B| = |A| + |B| − |A ∩ B| = {c.union_size:,}\n"
        f"Jaccard = |A ∩ B| / |A ∪ B| = {c.fraction} = {c.jaccard:.3f}\n"
        f"containment = |A ∩ B| / min(|A|, |B|) = {len(c.intersection)}/{smaller} = {c.containment:.3f}"
    )


class VennWidget(QWidget):
    """Two overlapping circles A and B with the count of each region (only A, both, only B);
    in the toy example the elements themselves are written in their regions.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._comparison: SetComparison | None = None
        self._show_elements = False
        self.setMinimumSize(320, 200)

    def set_comparison(self, comparison: SetComparison | None, show_elements: bool = False) -> None:
        """Show ``comparison`` (or nothing); ``show_elements`` writes the elements in the regions."""
        self._comparison, self._show_elements = comparison, show_elements
        self.update()

    def region_counts(self) -> tuple[int, int, int]:
        """``(only A, both, only B)`` as drawn (tuple of int)."""
        c = self._comparison
        return (len(c.only_a), len(c.intersection), len(c.only_b)) if c else (0, 0, 0)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A wide, low diagram (QSize)."""
        return QSize(520, 260)

    def circles(self) -> tuple[float, float, float, float, float]:
        """Where the circles are drawn: ``(centre x of A, centre x of B, centre y, radius of A,
        radius of B)`` in pixels, areas to scale (:func:`~dedup_gui.core.teaching.venn.venn_circles`)."""
        c = self._comparison
        if c is None:
            return 0.0, 0.0, 0.0, 0.0, 0.0
        ra, rb, d = venn_circles(len(c.a), len(c.b), len(c.intersection))
        fm = self.fontMetrics()
        w, h = self.width(), self.height()
        left, right = min(-ra, d - rb), max(ra, d + rb)
        top = fm.height() + 6  # room for the names above the circles
        unit = max(1.0, min((w - 16) / max(right - left, 1e-9), (h - top - 8) / max(2 * max(ra, rb), 1e-9)))
        x0 = (w - (right - left) * unit) / 2
        cxa = x0 - left * unit
        cy = top + (h - top) / 2
        return cxa, cxa + d * unit, cy, ra * unit, rb * unit

    def names(self) -> tuple[str, str]:
        """The names drawn above the circles, e.g. ``("A: 423", "B: 423")``."""
        c = self._comparison
        return (f"A: {len(c.a):,}", f"B: {len(c.b):,}") if c else ("", "")

    def name_rects(self) -> tuple[QRectF, QRectF]:
        """Where the names of A and B are drawn: above the left and right halves of their circles,
        and pushed apart where they would touch (two circles nearly on top of each other)."""
        bold = QFont(self.font())
        bold.setBold(True)
        fm = QFontMetricsF(bold)
        cxa, cxb, cy, ra, rb = self.circles()
        top = cy - max(ra, rb) - fm.height() - 4
        wa, wb = (fm.horizontalAdvance(name) + 8 for name in self.names())
        gap = fm.horizontalAdvance("  ")
        xa, xb = cxa - ra * 0.5 - wa / 2, cxb + rb * 0.5 - wb / 2
        overlap = xa + wa + gap - xb
        if overlap > 0:
            xa, xb = xa - overlap / 2, xb + overlap / 2
        return QRectF(xa, top, wa, fm.height()), QRectF(xb, top, wb, fm.height())

    def paintEvent(self, event) -> None:  # noqa: N802
        """Draw the circles to scale, their names and sizes, and each region's count (or elements)."""
        c = self._comparison
        if c is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        cxa, cxb, cy, ra, rb = self.circles()
        text = self.palette().color(QPalette.ColorRole.WindowText)
        base = self.palette().color(QPalette.ColorRole.Base)
        for cx, r, color in ((cxa, ra, _A_COLOR), (cxb, rb, _B_COLOR)):
            fill = blend(base, color, 0.18)
            fill.setAlpha(170)
            painter.setBrush(fill)
            painter.setPen(QPen(color, 2.5))
            painter.drawEllipse(QPointF(cx, cy), r, r)
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        for rect, name, color in zip(self.name_rects(), self.names(), (_A_COLOR, _B_COLOR), strict=True):
            painter.setPen(color)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, name)
        for head, label, rect, items in self.region_labels():
            painter.setPen(text)
            painter.setFont(bold)
            painter.drawText(head, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, label)
            if self._show_elements and items:
                painter.setFont(self.font())
                body = QRectF(rect.left(), head.bottom() + 2, rect.width(), rect.bottom() - head.bottom() - 2)
                lines = self.element_lines(items, body.width())
                painter.drawText(body, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, "\n".join(lines))
        painter.end()

    def element_lines(self, items: tuple[str, ...], width: float) -> list[str]:
        """A region's elements as drawn: the first :data:`VENN_ELEMENTS`, then "…", each cut
        at its end to the region's ``width`` (pixels) with "…", not clipped mid-letter at the
        region's edges ("ower indee" in presentation mode) (list[str])."""
        fm = QFontMetricsF(self.font())
        shown = list(items[:VENN_ELEMENTS]) + (["…"] if len(items) > VENN_ELEMENTS else [])
        return [fm.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in shown]

    def region_labels(self) -> list[tuple[QRectF, str, QRectF, tuple[str, ...]]]:
        """Each region's label as drawn: ``(where, text, the region's box, its elements)``, left
        to right.  The label is the count and the name ("227\\nonly in A") between the edges that
        bound the region (the lens: B's left, A's right); where those labels would run into each
        other (small circles, large fonts) the count alone, pushed apart if need be.  A region
        that does not exist (a circle inside the other, nothing only in it) has none."""
        c = self._comparison
        if c is None:
            return []
        cxa, cxb, cy, ra, rb = self.circles()
        bold = QFont(self.font())
        bold.setBold(True)
        fm = QFontMetricsF(bold)
        edges = sorted((cxa - ra, cxa + ra, cxb - rb, cxb + rb))
        spans = ((edges[0], edges[1]), (edges[1], edges[2]), (edges[2], edges[3]))
        tall = max(ra, rb) * 1.4
        inside = {"only in A": cxb - rb <= cxa - ra and cxa + ra <= cxb + rb,  # A drawn inside B: no such region
                  "only in B": cxa - ra <= cxb - rb and cxb + rb <= cxa + ra}  # fmt: skip
        regions = [
            (QRectF((x1 + x2) / 2 - max(x2 - x1, 70) / 2, cy - tall / 2, max(x2 - x1, 70), tall), tuple(items), name)
            for (x1, x2), items, name in zip(
                spans, (c.only_a, c.intersection, c.only_b), ("only in A", "A ∩ B", "only in B"), strict=True
            )
            if items or not inside.get(name)
        ]
        for named in (True, False):
            labels = [f"{len(items):,}\n{name}" if named else f"{len(items):,}" for _r, items, name in regions]
            heads = []
            for (rect, _items, _name), label in zip(regions, labels, strict=True):
                width = max(fm.horizontalAdvance(line) for line in label.split("\n")) + 6
                heads.append(QRectF(rect.center().x() - width / 2, rect.top(), width, fm.height() * (1 + named)))
            if all(a.right() <= b.left() for a, b in zip(heads, heads[1:])):
                break
        else:  # the counts alone still touch: side by side about their middle
            middle = (heads[0].left() + heads[-1].right()) / 2
            x = middle - sum(h.width() + 4 for h in heads) / 2
            for head in heads:
                head.moveLeft(x)
                x += head.width() + 4
        return [
            (head, label, rect, items) for head, label, (rect, items, _n) in zip(heads, labels, regions, strict=True)
        ]


class _WrappedColumn(QWidget):
    """A column of widgets whose minimum height is what its wrapped labels need at its width: a
    ``QSplitter`` does not ask ``heightForWidth``, and at 1280x800 in presentation mode it gave
    the Venn diagram and the counts less height than that, so they were drawn over each other."""

    def event(self, event: QEvent) -> bool:
        """Set the minimum height again when the width, a font or a label's text changes."""
        done = super().event(event)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest, QEvent.Type.FontChange):
            self.fit_height()
        return done

    def fit_height(self) -> None:
        """Make the minimum height the sum of the widgets' minimum heights (a wrapped label's at
        this width) and the layout's spacing."""
        layout = self.layout()
        if layout is None:
            return
        shown = [w for i in range(layout.count()) if (w := layout.itemAt(i).widget()) is not None and not w.isHidden()]
        margins = layout.contentsMargins()
        need = sum(max(w.minimumHeight(), w.heightForWidth(self.width())) for w in shown)
        need += layout.spacing() * max(len(shown) - 1, 0) + margins.top() + margins.bottom()
        if need != self.minimumHeight():
            self.setMinimumHeight(need)


class JaccardView(QWidget):
    """The Jaccard tab: toy example or two pages, the Venn counts, the shingle lists, and the MinHash
    estimate converging to the exact Jaccard similarity as permutations are added.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        computed(): new sets and estimates are shown.

    Attributes:
        toy_radio, pages_radio: the two modes.
        page_a, page_b: the page choosers.
        k_spin: tokens per shingle; permutations_spin: MinHash permutations.
        venn: the :class:`VennWidget`; jaccard_label: the counts, the fraction and the decimal.
        shared_list, only_a_list, only_b_list: example shingles (plain text).
        plot: the :class:`~.figure_panel.FigurePanel` of the convergence.
        data: the :class:`JaccardData` shown, or ``None``.
    """

    computed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: JaccardData | None = None
        self._job = LatestJob(self)
        self._job.finished.connect(self._show)
        self._job.failed.connect(lambda exc: self.jaccard_label.setText(f"Could not compare the sets: {exc}"))

        self.toy_radio = QRadioButton("Toy example (|A| = 5, |B| = 4)")
        self.pages_radio = QRadioButton("Two pages")
        self.toy_radio.setChecked(True)
        self.toy_radio.toggled.connect(lambda on: self.recompute())
        self.page_a = PageChooser()
        self.page_b = PageChooser()
        for chooser in (self.page_a, self.page_b):
            chooser.page_changed.connect(self._page_chosen)
        self.k_spin = QSpinBox()
        self.k_spin.setRange(1, 12)
        self.k_spin.setValue(4)
        self.k_spin.setPrefix("k = ")
        self.k_spin.setToolTip("Tokens per shingle (words, or CJK characters)")
        self.permutations_spin = QSpinBox()
        self.permutations_spin.setRange(1, MAX_PERMUTATIONS)
        self.permutations_spin.setValue(256)
        self.permutations_spin.setToolTip("MinHash permutations (hash functions) to add one by one")
        self.k_spin.valueChanged.connect(lambda _v: self.recompute())
        self.permutations_spin.valueChanged.connect(lambda _v: self.recompute())

        self.venn = VennWidget()
        self.texts_label = plain_label(wrap=True)
        self.jaccard_label = plain_label(wrap=True)
        big = QFont()
        big.setBold(True)
        self.jaccard_label.setFont(big)
        self.shared_list, self.only_a_list, self.only_b_list = QListWidget(), QListWidget(), QListWidget()
        self.list_titles = [plain_label(bold=True) for _ in range(3)]
        self.plot = FigurePanel("jaccard-minhash", figsize=(6, 3))

        # Two rows of controls: in one, the pages' names and the spin boxes needed 1,650 pixels
        # at the presentation mode's font size (a horizontal scroll bar even at 1600x1000).
        row1 = QHBoxLayout()
        row1.addWidget(self.toy_radio)
        row1.addSpacing(16)
        row1.addWidget(self.pages_radio)
        row1.addStretch(1)
        row1.addWidget(self.k_spin)
        row1.addSpacing(16)
        row1.addWidget(plain_label("MinHash permutations:", selectable=False))
        row1.addWidget(self.permutations_spin)
        row2 = QHBoxLayout()
        row2.addWidget(plain_label("A:", selectable=False))
        row2.addWidget(self.page_a, 1)
        row2.addSpacing(16)
        row2.addWidget(plain_label("B:", selectable=False))
        row2.addWidget(self.page_b, 1)
        facts = _WrappedColumn()
        fl = QVBoxLayout(facts)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self.venn, 1)
        fl.addWidget(self.texts_label)
        fl.addWidget(self.jaccard_label)
        lists = QWidget()
        grid = QGridLayout(lists)
        grid.setContentsMargins(0, 0, 0, 0)
        for col, (title, lw) in enumerate(zip(self.list_titles, (self.shared_list, self.only_a_list,
                                                                 self.only_b_list))):  # fmt: skip
            grid.addWidget(title, 0, col)
            grid.addWidget(lw, 1, col)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(facts)
        top.addWidget(self.plot)
        top.setStretchFactor(0, 1)
        top.setStretchFactor(1, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(lists)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addWidget(self.splitter, 1)
        self.recompute()

    def set_result(self, result: ScanResult | None, pair: tuple[str, str] | None = None) -> None:
        """List the scan's pages; start on ``pair`` (two page paths: the pair selected in the main
        window) if given and in the scan, else on its most similar duplicate pair (pages mode),
        else on the toy."""
        pages = result.pages if result else []
        for chooser in (self.page_a, self.page_b):
            chooser.set_pages(pages)
        if result is not None:
            self.k_spin.blockSignals(True)
            self.k_spin.setValue(result.settings.shingle_size)
            self.k_spin.blockSignals(False)
        paths = default_pair_paths(result, pair)
        self.pages_radio.setEnabled(paths is not None)
        if paths is None:
            self.show_toy()
        else:
            self.show_pages(*paths)

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classification of the scan shown (the same pages and texts): the toy or the
        two pages chosen stay, and nothing is computed again."""
        for chooser in (self.page_a, self.page_b):
            chooser.replace_pages(result.pages)

    def show_toy(self) -> None:
        """Show the blackboard example: |A| = 5, |B| = 4, |A ∩ B| = 2, J = 2/7."""
        if self.toy_radio.isChecked():
            self.recompute()
        else:
            self.toy_radio.setChecked(True)

    def show_pages(self, left: str, right: str) -> bool:
        """Compare the pages with these paths (``False`` if one is not in the scan)."""
        quiet = (self.page_a, self.page_b, self.toy_radio, self.pages_radio)
        for w in quiet:
            w.blockSignals(True)
        ok = self.page_a.select_path(left) and self.page_b.select_path(right)
        if ok:
            self.pages_radio.setChecked(True)
        for w in quiet:
            w.blockSignals(False)
        if ok:
            self.recompute()
        return ok

    def set_permutations(self, n: int) -> None:
        """Add up to ``n`` MinHash permutations (recomputes)."""
        self.permutations_spin.setValue(n)

    def _page_chosen(self, _page) -> None:
        if self.page_a.page() is not None and self.page_b.page() is not None:
            if self.pages_radio.isChecked():
                self.recompute()
            else:
                self.pages_radio.setChecked(True)  # toggles the toy radio off, which recomputes

    def is_toy(self) -> bool:
        """``True`` in the toy mode (bool)."""
        return self.toy_radio.isChecked() or self.page_a.page() is None or self.page_b.page() is None

    def recompute(self) -> None:
        """Compare the current sets and estimate their Jaccard similarity, off the GUI thread."""
        self.k_spin.setEnabled(not self.toy_radio.isChecked())
        a, b = self.page_a.page(), self.page_b.page()
        self.jaccard_label.setText("computing…")
        if self.is_toy():
            self._job.submit(compute_jaccard, None, None, 2, self.permutations_spin.value(), (TOY_TEXT_A, TOY_TEXT_B))
        else:
            self._job.submit(compute_jaccard, a.main_text, b.main_text, self.k_spin.value(),
                             self.permutations_spin.value(), (a.path, b.path))  # fmt: skip

    def is_busy(self) -> bool:
        """``True`` while a comparison is being computed or its figure drawn (bool)."""
        return self._job.is_running() or self.plot.is_busy()

    def _show(self, data: JaccardData) -> None:
        self.data = data
        c = data.comparison
        self.venn.set_comparison(c, show_elements=data.toy)
        kind = "2-word shingles" if data.toy else f"{self.k_spin.value()}-token shingles"
        self.texts_label.setText(f"A = the {kind} of “{data.names[0]}”\nB = the {kind} of “{data.names[1]}”")
        self.jaccard_label.setText(jaccard_text(c))
        for title, lw, items, name in (
            (self.list_titles[0], self.shared_list, c.intersection, "shared, A ∩ B"),
            (self.list_titles[1], self.only_a_list, c.only_a, "only in A"),
            (self.list_titles[2], self.only_b_list, c.only_b, "only in B"),
        ):
            title.setText(f"{name} ({len(items):,})")
            lw.clear()
            shown = [item if len(item) <= ITEM_CHARS else item[:ITEM_CHARS] + "…" for item in items[:LIST_CAP]]
            lw.addItems(shown)  # QListWidgetItem text is plain
            if len(items) > LIST_CAP:
                lw.addItem(f"… and {len(items) - LIST_CAP:,} more")
        self.redraw()
        self.computed.emit()

    def redraw(self) -> None:
        """Draw the convergence figure again (e.g. after a palette or presentation change)."""
        if self.data is None:
            return
        data = self.data
        self.plot.draw(partial(convergence_figure, data.comparison, data.convergence, self.plot.palette_for_chart()))

    def estimate_line(self):
        """The drawn estimate ``Line2D`` (gid ``"estimate"``), or ``None``."""
        for ax in self.plot.figure.axes:
            for line in ax.get_lines():
                if line.get_gid() == "estimate":
                    return line
        return None
