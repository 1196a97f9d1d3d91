"""Shingles, Jaccard similarity and MinHash (Broder 1997), on two chosen pages or the toy example.

The sets come from :func:`dedup_gui.core.teaching.jaccard_steps.shingle_comparison` (readable k-token
shingles of the two main texts) or :func:`~dedup_gui.core.teaching.jaccard_steps.toy_comparison`
(|A| = 5, |B| = 4, |A ∩ B| = 2, J = 2/7 at first; its sentences and k the teacher may change);
the MinHash estimate after 1 .. n permutations comes
from :func:`~dedup_gui.core.teaching.jaccard_steps.minhash_convergence`.  Both run off the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import ScanResult, ScanSettings
from dedup_gui.core.number_format import format_fraction_value
from dedup_gui.core.teaching.charts import convergence_figure
from dedup_gui.core.teaching.jaccard_steps import (
    MAX_PERMUTATIONS,
    MINHASH_DEFINITION,
    TOY_K,
    TOY_K_RANGE,
    TOY_TEXT_A,
    TOY_TEXT_B,
    SetComparison,
    measure_notes,
    minhash_convergence,
    shingle_comparison,
    short_text_note,
    toy_comparison,
)
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.teaching.figure_panel import FigurePanel
from dedup_gui.gui.teaching.jaccard_layout import ListsBox, WrappedColumn
from dedup_gui.gui.teaching.page_chooser import PageChooser, default_pair_paths
from dedup_gui.gui.teaching.venn_widget import VennWidget
from dedup_gui.gui.teaching.widgets import LEGIBLE_POINTS, plain_label

#: Elements listed per list (shared, only A, only B) at most.
LIST_CAP = 500
#: Characters of a shingle listed at most: a shingle of a page with a 300,000-character word is
#: that long, and Qt measured it for 0.4 s on the GUI thread.
ITEM_CHARS = 200
#: The no-break space of :func:`jaccard_text`.
NBSP = "\u00a0"
#: The notes' font size in presentation mode, a share of the view's (a line a note at 1280x800).
NOTES_SCALE = 0.8
#: The most of the width the counts' column takes to show each formula on one line.
FACTS_MOST = 0.66


@dataclass(frozen=True)
class JaccardData:
    """What the view shows: the set comparison and the MinHash convergence.

    Attributes:
        comparison: the two sets laid out (:class:`~dedup_gui.core.teaching.jaccard_steps.SetComparison`).
        convergence: ``[(n, estimate), ...]`` for n = 1 .. permutations.
        toy: ``True`` for the blackboard example.
        names: the two sets' names (page paths, or the toy texts).
        k: tokens per shingle.
        short_note: which text is shorter than k tokens (one shingle, the whole text), or ``""``
            (:func:`~dedup_gui.core.teaching.jaccard_steps.short_text_note`).
    """

    comparison: SetComparison
    convergence: list[tuple[int, float]]
    toy: bool
    names: tuple[str, str]
    k: int
    short_note: str = ""


def compute_jaccard(text_a: str, text_b: str, k: int, permutations: int, names: tuple[str, str],
                    toy: bool = False) -> JaccardData:  # fmt: skip
    """Compare two texts' k-shingle sets and the MinHash estimate; runs off the GUI thread.

    Args:
        text_a, text_b: two main texts, or the toy's two sentences (``toy``).
        k: tokens per shingle (the toy's within ``TOY_K_RANGE``).
        permutations: MinHash permutations, 1 .. ``MAX_PERMUTATIONS``.
        names: the two sets' names (page paths, or the toy's sentences).
        toy: the blackboard example (:func:`~dedup_gui.core.teaching.jaccard_steps.toy_comparison`).

    Returns:
        :class:`JaccardData`; no MinHash estimate where both sets are empty (every minimum would
        agree, an "estimate" of 1 for a Jaccard similarity of 0).

    Raises:
        ValueError: a toy k outside ``TOY_K_RANGE``, or permutations out of range.
    """
    comparison = toy_comparison(text_a, text_b, k) if toy else shingle_comparison(text_a, text_b, k)
    convergence = minhash_convergence(comparison.a, comparison.b, permutations) if comparison.union_size else []
    return JaccardData(comparison, convergence, toy, names, k, short_text_note((comparison.a, comparison.b), k))


def jaccard_text(c: SetComparison) -> str:
    """The counts and the similarity in words, one formula a line, e.g.
    ``"Jaccard = |A ∩ B| / |A ∪ B| = 2/7 = 0.285…"`` (str): each decimal cut, not rounded, to 3
    places as every other view writes it, "…" where digits were cut
    (:func:`~dedup_gui.core.number_format.format_fraction_value`).

    Every space is a no-break space (U+00A0) except those before an "=": a line too long for a
    narrow window breaks only there, the next line starting "= …" (at 1280x800 in presentation
    mode the label broke inside formulas: "|A ∪ B| =" / "|A| + |B| − …", or "|A" / "∪ B|")."""
    smaller = min(len(c.a), len(c.b))
    # the decimal cut to 3 places as everywhere else, "…" where digits were cut: 198/410 read
    # 0.483 here and 0.482 in the gallery
    # an empty set: 0/0 is undefined, not 0.000 (the Methods tab writes "–" for it)
    jaccard = f"{c.fraction} = {format_fraction_value(c.jaccard)}" if c.union_size else "0/0: undefined"
    containment = f"{len(c.intersection):,}/{smaller:,} = {format_fraction_value(c.containment)}" if smaller else (
        f"{len(c.intersection):,}/0: undefined")  # fmt: skip
    formulas = (
        f"|A| = {len(c.a):,}    |B| = {len(c.b):,}    |A ∩ B| = {len(c.intersection):,}",
        f"|A ∪ B| = |A| + |B| − |A ∩ B| = {c.union_size:,}",
        f"Jaccard = |A ∩ B| / |A ∪ B| = {jaccard}",
        f"containment = |A ∩ B| / min(|A|, |B|) = {containment}",
    )
    return "\n".join(f.replace(" ", NBSP).replace(f"{NBSP}={NBSP}", f" ={NBSP}") for f in formulas)


class JaccardView(QWidget):
    """The Jaccard tab: toy example or two pages, the Venn counts, the shingle lists, and the MinHash
    estimate converging to the exact Jaccard similarity as permutations are added.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        computed(): new sets and estimates are shown.

    Attributes:
        toy_radio, pages_radio: the two modes.
        page_a, page_b: the page choosers (the pages mode).
        toy_edits: the toy's two sentences, editable (the toy mode, in the choosers' place).
        k_spin: tokens per shingle (the toy's or the pages', each kept); permutations_spin:
            MinHash permutations.
        venn: the :class:`VennWidget`; jaccard_label: the counts, the fraction and the decimal.
        notes_label: what a token is, containment after Broder, and the content similarity.
        shared_list, only_a_list, only_b_list: example shingles (plain text).
        minhash_label: "MinHash permutations (?):", what MinHash is in its tooltip (and the
            spin box's and the figure's).
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

        self.toy_radio = QRadioButton("Toy example")
        self.pages_radio = QRadioButton("Two pages")
        self.toy_radio.setChecked(True)
        self.toy_radio.toggled.connect(lambda on: self.recompute())
        self.page_a = PageChooser()
        self.page_b = PageChooser()
        for chooser in (self.page_a, self.page_b):
            chooser.page_changed.connect(self._page_chosen)
        self.toy_edits = (QLineEdit(TOY_TEXT_A), QLineEdit(TOY_TEXT_B))
        self._typing = QTimer(self, singleShot=True, interval=250)  # one comparison per pause in typing
        self._typing.timeout.connect(self.recompute)
        for edit, name in zip(self.toy_edits, "AB"):
            edit.setCursorPosition(0)
            edit.setPlaceholderText(f"type sentence {name}")
            edit.setToolTip(f"The toy's sentence {name}: its shingles are set {name}")
            edit.textEdited.connect(lambda _t: self._typing.start())
        self.k_spin = QSpinBox()
        self.k_spin.setRange(1, 12)
        self.k_spin.setValue(4)
        self.k_spin.setPrefix("k = ")
        self.k_spin.setToolTip("Tokens per shingle (words, or CJK characters)")
        self.permutations_spin = QSpinBox()
        self.permutations_spin.setRange(1, MAX_PERMUTATIONS)
        self.permutations_spin.setValue(256)
        self.permutations_spin.setToolTip(
            f"MinHash permutations (hash functions) to add one by one.\n\n{MINHASH_DEFINITION}"
        )
        self._k = self.k_spin.value()  # the pages' k (the box shows the toy's in the toy mode)
        self._toy_k = TOY_K
        self._scan_k = ScanSettings().shingle_size  # the scan's, for the notes
        self.k_spin.valueChanged.connect(self._k_changed)
        self.permutations_spin.valueChanged.connect(lambda _v: self.recompute())

        self.venn = VennWidget()
        self.texts_label = plain_label(wrap=True)
        self.jaccard_label = plain_label(wrap=True)  # wraps only before an "=" (jaccard_text)
        big = QFont()
        big.setBold(True)
        self.jaccard_label.setFont(big)
        self.notes_label = plain_label(wrap=True)
        self.presenting = False
        self._scale_notes()
        self.shared_list, self.only_a_list, self.only_b_list = QListWidget(), QListWidget(), QListWidget()
        for lw in (self.shared_list, self.only_a_list, self.only_b_list):
            # a long shingle is elided (its whole text in its tooltip): a horizontal scroll bar
            # took one of the three rows a list had in presentation mode
            lw.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lw.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list_titles = [plain_label(bold=True) for _ in range(3)]
        self.plot = FigurePanel("jaccard-minhash", figsize=(6, 3))
        self.plot.canvas.setToolTip(MINHASH_DEFINITION)

        # Two rows of controls: in one, the pages' names and the spin boxes needed 1,650 pixels
        # at the presentation mode's font size (a horizontal scroll bar even at 1600x1000).
        row1 = QHBoxLayout()
        row1.addWidget(self.toy_radio)
        row1.addSpacing(16)
        row1.addWidget(self.pages_radio)
        row1.addStretch(1)
        row1.addWidget(self.k_spin)
        row1.addSpacing(16)
        # what MinHash is, in tooltips: a fourth line of notes did not fit a 1280x800 projector
        self.minhash_label = plain_label("MinHash permutations (?):", selectable=False)
        self.minhash_label.setToolTip(MINHASH_DEFINITION)
        self.minhash_label.setWhatsThis(MINHASH_DEFINITION)
        row1.addWidget(self.minhash_label)
        row1.addWidget(self.permutations_spin)
        row2 = QHBoxLayout()
        for name, chooser, edit in (("A:", self.page_a, self.toy_edits[0]), ("B:", self.page_b, self.toy_edits[1])):
            if name == "B:":
                row2.addSpacing(16)
            row2.addWidget(plain_label(name, selectable=False))
            row2.addWidget(chooser, 1)  # pages mode
            row2.addWidget(edit, 1)  # toy mode, in the same place
        facts = WrappedColumn()
        fl = QVBoxLayout(facts)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self.venn, 1)
        fl.addWidget(self.texts_label)
        fl.addWidget(self.jaccard_label)
        self.lists = lists = ListsBox(self.shared_list, self.notes_label)
        grid = QGridLayout(lists)
        grid.setContentsMargins(0, 0, 0, 0)
        for col, (title, lw) in enumerate(zip(self.list_titles, (self.shared_list, self.only_a_list,
                                                                 self.only_b_list))):  # fmt: skip
            grid.addWidget(title, 0, col)
            grid.addWidget(lw, 1, col)
        grid.addWidget(self.notes_label, 2, 0, 1, 3)  # the whole width: a line a note
        self.top = top = QSplitter(Qt.Orientation.Horizontal)
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
        margins = layout.contentsMargins()
        self._margins = (margins.left(), margins.top(), margins.right(), margins.bottom())
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
            self._k = self._scan_k = result.settings.shingle_size
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
        """Show the blackboard example on its sentences and k as typed (at first |A| = 5,
        |B| = 4, |A ∩ B| = 2, J = 2/7)."""
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

    def _k_changed(self, value: int) -> None:
        if self.toy_radio.isChecked():  # each mode keeps its own k
            self._toy_k = value
        else:
            self._k = value
        self.recompute()

    def _show_mode(self) -> None:
        """The toy: its k in the k box (within ``TOY_K_RANGE``; it read "k = 4" beside
        "2-token shingles") and its two sentences in the page boxes' place; the pages: their k
        and the page boxes."""
        toy = self.toy_radio.isChecked()
        self.k_spin.blockSignals(True)
        self.k_spin.setRange(*(TOY_K_RANGE if toy else (1, 12)))
        self.k_spin.setValue(self._toy_k if toy else self._k)
        self.k_spin.blockSignals(False)
        for chooser, edit in zip((self.page_a, self.page_b), self.toy_edits):
            chooser.setVisible(not toy)
            edit.setVisible(toy)

    def set_toy(self, text_a: str, text_b: str, k: int | None = None) -> None:
        """Show the toy example on these two sentences (and shingle size ``k``, if given)."""
        for edit, text in zip(self.toy_edits, (text_a, text_b)):
            edit.setText(text)
            edit.setCursorPosition(0)  # a long sentence shows its beginning, not its end
        if k is not None:
            self._toy_k = k
        self.show_toy()

    def recompute(self) -> None:
        """Compare the current sets and estimate their Jaccard similarity, off the GUI thread."""
        self._typing.stop()
        self._show_mode()
        a, b = self.page_a.page(), self.page_b.page()
        self.jaccard_label.setText("computing…")
        if self.is_toy():
            texts = tuple(edit.text() for edit in self.toy_edits)
            self._job.submit(compute_jaccard, *texts, self._toy_k, self.permutations_spin.value(), texts, True)
        else:
            self._job.submit(compute_jaccard, a.main_text, b.main_text, self._k,
                             self.permutations_spin.value(), (a.path, b.path))  # fmt: skip

    def is_busy(self) -> bool:
        """``True`` while a comparison is being computed or its figure drawn (bool)."""
        return self._job.is_running() or self.plot.is_busy() or self._typing.isActive()

    def _show(self, data: JaccardData) -> None:
        self.data = data
        c = data.comparison
        self.venn.set_comparison(c, show_elements=data.toy)
        kind = f"{data.k}-token shingles"  # "token", as the k box's tooltip says
        # one line: the sentences and pages are named in the boxes above (two lines and the
        # notes did not fit a 1280x800 projector)
        what = f"A, B = the {kind} of the two {'sentences' if data.toy else 'pages’ main texts'}"
        # a list of one short "shingle" needs saying why (its line wraps: at most one more line)
        self.texts_label.setText(f"{what}. {data.short_note}" if data.short_note else what)
        self.jaccard_label.setText(jaccard_text(c))
        self.notes_label.setText(measure_notes(self._scan_k))
        for title, lw, items, name in (
            (self.list_titles[0], self.shared_list, c.intersection, "shared, A ∩ B"),
            (self.list_titles[1], self.only_a_list, c.only_a, "only in A"),
            (self.list_titles[2], self.only_b_list, c.only_b, "only in B"),
        ):
            title.setText(f"{name} ({len(items):,})")
            lw.clear()
            shown = [item if len(item) <= ITEM_CHARS else item[:ITEM_CHARS] + "…" for item in items[:LIST_CAP]]
            lw.addItems(shown)  # QListWidgetItem text is plain
            for row, item in enumerate(items[: len(shown)]):
                lw.item(row).setToolTip(item)
            if len(items) > LIST_CAP:
                lw.addItem(f"… and {len(items) - LIST_CAP:,} more")
        self.shared_list.parentWidget().updateGeometry()  # its rows' (and the notes') height may have changed
        self.share_width()
        self.redraw()
        self.computed.emit()

    def share_width(self) -> None:
        """Give the counts' column the width of its longest formula where that is at most
        :data:`FACTS_MOST` of the width (half of 1280 pixels broke the containment formula in
        presentation mode); the figure the rest."""
        total = sum(self.top.sizes())
        metrics = self.jaccard_label.fontMetrics()
        need = max(metrics.horizontalAdvance(line) for line in self.jaccard_label.text().split("\n")) + 8
        if total > 0 and self.top.sizes()[0] < need <= FACTS_MOST * total:
            self.top.setSizes([need, total - need])

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Share the width again."""
        super().resizeEvent(event)
        self.share_width()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Share the width again when the font changes (presentation mode), and keep the notes
        at :data:`NOTES_SCALE` of the font."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._scale_notes()
            self.share_width()

    def _scale_notes(self) -> None:
        font = QFont(self.font())
        if self.presenting:
            font.setPointSizeF((font.pointSizeF() if font.pointSizeF() > 0 else 10.0) * NOTES_SCALE)
        self.notes_label.setFont(font)

    def set_presentation(self, on: bool) -> None:
        """Presenting, narrower margins and spacing (with the notes, the view was some 40
        pixels taller than a 1280x800 projector)."""
        self.presenting = on
        self.venn.least_points = LEGIBLE_POINTS if on else 0.0
        layout = self.layout()
        layout.setContentsMargins(*((4, 4, 4, 4) if on else self._margins))
        layout.setSpacing(3 if on else -1)
        self._scale_notes()

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
