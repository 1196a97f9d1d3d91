"""SimHash step by step (Charikar 2002) on a chosen page's main text or on typed text.

Every step comes from :func:`dedup_gui.core.teaching.simhash_steps.text_simhash_steps`, computed once per
text off the GUI thread; stepping only shows what was computed, so it stays instant for pages with
thousands of features.  Positions: 0 is the start (every sum 0), 1 .. N are the N features (the
heaviest first), N + 1 is the sign step that gives the fingerprint.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import Page, ScanResult
from dedup_gui.core.teaching.simhash_steps import SimhashSteps, text_simhash_steps
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.inspector.pane_text import TEXT_LIMIT, pane_text
from dedup_gui.gui.teaching.cell_grid import CellGrid, CellRow
from dedup_gui.gui.teaching.page_chooser import PageChooser
from dedup_gui.gui.teaching.ruler_header import RulerHeader
from dedup_gui.gui.teaching.simhash_layout import SimhashLayout
from dedup_gui.gui.teaching.steps_table import (
    _BLANK,
    ROW_ADDS,
    ROW_FINGERPRINT,
    ROW_HASH,
    ROW_SUMS,
    TABLE_CAP,
    TOY_TEXT,
    TYPED,
    FeatureStepsModel,
    StepCellDelegate,
    parse_signed,
)
from dedup_gui.gui.teaching.widgets import (
    BIT_FILL,
    NEGATIVE_TINT,
    POSITIVE_TINT,
    plain_label,
    signed,
    sum_fill,
)


def explanation(bits: int) -> str:
    """The SimHash view's rules for a ``bits``-bit fingerprint (64, or 8 in the 8-bit mode: the
    hash is then the MD5's last byte, :func:`~dedup_gui.core.teaching.simhash_steps.feature_hash`)
    (str).  Worded to take four lines beside the text box presenting at 1280x800 (five made the
    view scroll once the board's text grew)."""
    part = "the last 8 bytes" if bits == 64 else "the last 8 bits (1 byte)"
    return (f"A feature (a word or a CJK character pair) weighs its count; its hash: {part} of the MD5 of "
            "its UTF-8 text, bit 0 the most significant. Sums start at 0; a feature adds its weight "
            "where its hash has a 1, subtracts it at a 0. Sign step: bit = 1 where the sum is positive "
            "(Charikar 2002).")  # fmt: skip


class SimhashView(SimhashLayout, QWidget):
    """The SimHash tab: source text, step controls, the board of bits and sums, the features table.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        computed(): new steps arrived from the background (the view shows their start).

    Attributes:
        source_combo: "(typed text)" or a page of the scan.
        text_edit: the text being hashed (editable for typed text, read-only for a page).
        eight_bit_check: the blackboard's 8-bit mode.
        first_button, previous_button, next_button, last_button, play_button: the step controls.
        speed_slider: autoplay steps per second.
        step_label: "feature 7 of 312: ...".
        board: the :class:`CellGrid` with the rows hash / ± weight / sums / fingerprint.
        fingerprint_label: the fingerprint in hex, compared with the scan's.
        table: the features table (:class:`FeatureStepsModel`).
        note_label: the table's cap note.
    """

    computed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps: SimhashSteps | None = None
        self.position = 0
        self._page: Page | None = None
        self._typed = TOY_TEXT
        self._note_needed = False
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_steps)
        self._job.failed.connect(lambda exc: self.step_label.setText(f"Could not compute the steps: {exc}"))
        self._debounce = QTimer(self, singleShot=True, interval=250)
        self._debounce.timeout.connect(self.recompute)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._autoplay_tick)
        self._syncing = False

        self.source_combo = PageChooser(extra=(TYPED,))
        self.source_combo.page_changed.connect(self._source_changed)
        self.eight_bit_check = QCheckBox("8-bit mode (for the blackboard)")
        self.eight_bit_check.setToolTip("8-bit hashes and fingerprint: the last 8 bits of the 64-bit ones, big cells")
        self.eight_bit_check.toggled.connect(self._bits_changed)
        self.text_edit = QPlainTextEdit()
        self.text_edit.setPlaceholderText("Type a text to hash…")
        self.text_edit.setPlainText(TOY_TEXT)
        self.text_edit.textChanged.connect(self._text_edited)

        self.first_button = QPushButton("|◀ First")
        self.previous_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.last_button = QPushButton("Last ▶|")
        self.play_button = QPushButton("Autoplay")
        self.play_button.setCheckable(True)
        self.speed_slider = QSlider(Qt.Orientation.Horizontal)
        self.speed_slider.setRange(1, 30)
        self.speed_slider.setValue(4)
        self.speed_slider.setFixedWidth(140)
        self.speed_label = plain_label(selectable=False)
        self.speed_slider.valueChanged.connect(self._speed_changed)
        self._speed_changed(self.speed_slider.value())
        for button, slot, keys, tip in (
            (self.first_button, self.first, "Alt+Home", "Back to the start: every sum 0"),
            (self.previous_button, self.previous, "Alt+Left", "One step back (or Page Up)"),
            (self.next_button, self.next, "Alt+Right", "Add the next feature (or Page Down, a presenter's clicker)"),
            (self.last_button, self.last, "Alt+End", "Straight to the sign step: the fingerprint"),
        ):
            button.clicked.connect(slot)
            button.setToolTip(f"{tip} ({keys})")
            action = QAction(self)
            action.setShortcuts([QKeySequence(keys)] + (
                [QKeySequence("PgDown")] if slot == self.next else [QKeySequence("PgUp")] if slot == self.previous
                else []))  # fmt: skip
            # the whole window: focus is on the tab bar when it opens and after a tab click,
            # where a view-wide shortcut did nothing (a presenter's clicker sends Page Down)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        self.play_button.toggled.connect(self.set_autoplay)

        self.step_label = plain_label(bold=True)
        self.board = CellGrid()
        self.fingerprint_label = plain_label(wrap=True)
        self.model = FeatureStepsModel(self)
        self.table = QTableView()
        self.table.setHorizontalHeader(RulerHeader(len(FeatureStepsModel.FIXED), self.table))
        self.table.setModel(self.model)
        self._delegate = StepCellDelegate(self.model, self.table)
        self.table.setItemDelegate(self._delegate)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setMinimumSectionSize(8)
        self.table.clicked.connect(lambda index: self.go_to(index.row() + 1))
        self.table.installEventFilter(self)
        self.note_label = plain_label(wrap=True)

        self._source_row = QWidget()
        source = QHBoxLayout(self._source_row)
        source.setContentsMargins(0, 0, 0, 0)
        source.addWidget(plain_label("Text:", selectable=False))
        source.addWidget(self.source_combo, 1)
        self.explain_label = plain_label(explanation(64), wrap=True)
        self.explain_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.explain_label.installEventFilter(self)
        self._top = QGridLayout()
        self._controls = controls = QHBoxLayout()
        for w in (self.first_button, self.previous_button, self.next_button, self.last_button, self.play_button,
                  self.speed_slider, self.speed_label):  # fmt: skip
            controls.addWidget(w)
        controls.addStretch(1)  # presenting, the 8-bit switch after it (SimhashLayout._arrange_top)
        layout = QVBoxLayout(self)
        margins = layout.contentsMargins()
        self._margins = (margins.left(), margins.top(), margins.right(), margins.bottom())
        # the top in a box of its own whose minimum height is set (_fit_explanation): a grid with
        # a word-wrapped label was laid out from the label's height alone, and at 1600x1000 in
        # presentation mode the text box was drawn over the step buttons
        self._top_box = QWidget()
        self._top_box.setLayout(self._top)
        self._top.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._top_box)
        layout.addLayout(controls)
        layout.addWidget(self.step_label)
        layout.addWidget(self.board)
        layout.addWidget(self.fingerprint_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note_label)
        self.presenting = False
        self._arrange_top()
        self._fit_to_font()
        self._update_buttons()
        self.recompute()

    # --- source -----------------------------------------------------------------------------

    def set_result(self, result: ScanResult | None, pair: tuple[str, str] | None = None) -> None:
        """List the scan's pages; show the first page of ``pair`` (two page paths: the pair
        selected in the main window) that has text, else the scan's first page with text, else
        the typed text."""
        pages = result.pages if result else []
        self.source_combo.set_pages(pages)
        chosen = [p for path in pair or () for p in pages if p.path == path and p.has_text]
        first = chosen[0] if chosen else next((p for p in pages if p.has_text), None)
        if first is not None:
            self.source_combo.select_path(first.path)
        else:
            self._source_changed(None)

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classification of the scan shown (the same pages, new types): the page
        being hashed and the step shown stay."""
        self.source_combo.replace_pages(result.pages)
        self._page = self.source_combo.page()  # the same text: the steps stay valid

    def select_page(self, path: str) -> bool:
        """Hash the page with this path (``False`` if the scan has no such page)."""
        return self.source_combo.select_path(path)

    def set_text(self, text: str) -> None:
        """Hash typed ``text`` (switches the source to "(typed text)")."""
        self._typed = text
        if self.source_combo.currentIndex() != 0:
            self.source_combo.select_extra(0)  # its page_changed(None) shows the typed text
        else:
            self._source_changed(None)

    def source_text(self) -> str:
        """The text being hashed: the page's main text, or the typed text (str)."""
        return self._page.main_text if self._page is not None else self._typed

    def bits(self) -> int:
        """Fingerprint width: 8 in the blackboard mode, else 64 (int)."""
        return 8 if self.eight_bit_check.isChecked() else 64

    def set_eight_bit(self, on: bool) -> None:
        """Switch the 8-bit blackboard mode on or off."""
        self.eight_bit_check.setChecked(on)

    def _source_changed(self, page: Page | None) -> None:
        self._page = page
        self._syncing = True
        self.text_edit.setReadOnly(page is not None)
        # A page's text in blocks Qt lays out in good time, cut to TEXT_LIMIT characters
        # (setPlainText of a 300,000-character word kept the GUI thread 3 s); typed text as typed.
        self.text_edit.setPlainText(self._typed if page is None else pane_text(page.main_text, blank_lines=False)[0])
        self._syncing = False
        self.position = 0
        self.recompute()

    def _text_edited(self) -> None:
        if self._syncing or self._page is not None:
            return
        self._typed = self.text_edit.toPlainText()
        self._update_buttons(busy=True)  # at once: emptied, the steps must not go on meanwhile
        self._debounce.start()

    def _bits_changed(self, _on: bool) -> None:
        self.explain_label.setText(explanation(self.bits()))
        if self.bits() == 8:
            self.board.set_cell_range(56, 120)
        else:
            self.board.set_cell_range(18, 40)
        self.recompute()

    def recompute(self) -> None:
        """Compute the steps of the current text at the current width, off the GUI thread."""
        self._debounce.stop()
        self.set_autoplay(False)
        self.step_label.setText("computing…")
        self._update_buttons(busy=True)
        self._job.submit(text_simhash_steps, self.source_text(), self.bits())

    def is_busy(self) -> bool:
        """``True`` while steps are being computed or typed text waits to be (bool)."""
        return self._job.is_running() or self._debounce.isActive()

    def _show_steps(self, steps: SimhashSteps) -> None:
        keep = self.steps is not None and len(self.steps.steps) == len(steps.steps)  # same text, other width
        self.steps = steps
        self.model.set_steps(steps)
        # the board laid out once per text, for its widest sum and weight (core computes them)
        big, heavy = steps.steps.largest_sum, steps.steps.largest_weight
        self.board.set_reserve({ROW_SUMS: (signed(big), signed(-big)), ROW_ADDS: (signed(heavy), signed(-heavy))})
        self._size_columns(steps.bits)
        n = len(steps.steps)
        note = (f"The table lists the first {TABLE_CAP:,} of {n:,} features; the steps go through all of them."
                if n > TABLE_CAP else f"{n:,} features, heaviest first (ties in alphabetical order)." if n
                else "Type some text to list its features." if self.nothing_typed()
                else "The text has no features (no words or CJK characters).")  # fmt: skip
        if self._page is not None and len(self._page.main_text) > TEXT_LIMIT:
            note += (f" The text box shows the first {TEXT_LIMIT:,} of the page's {len(self._page.main_text):,} "
                     "characters; the steps cover all of them (the JSON export has the whole text).")  # fmt: skip
        self.note_label.setText(note)
        self._note_needed = n > TABLE_CAP or (self._page is not None and len(self._page.main_text) > TEXT_LIMIT)
        self._show_note()
        self.go_to(min(self.position, self.last_position()) if keep else 0)
        self.computed.emit()

    # --- stepping ---------------------------------------------------------------------------

    def feature_count(self) -> int:
        """Features of the current text (int; 0 before the steps arrive)."""
        return len(self.steps.steps) if self.steps else 0

    def last_position(self) -> int:
        """The sign step's position, features + 1 (int)."""
        return self.feature_count() + 1

    def go_to(self, position: int) -> None:
        """Show position ``position`` (clamped): 0 start, 1 .. N features, N + 1 the sign step."""
        if self.steps is None:
            return
        self.position = max(0, min(position, self.last_position()))
        self._show_position()

    def nothing_typed(self) -> bool:
        """``True`` when the source is typed text that is empty or only whitespace: there is
        nothing to hash, so the steps do not go forward (bool)."""
        return self._page is None and not self._typed.strip()

    def next(self) -> None:
        """One step forward (add the next feature, or take the sign step); nothing to do while
        :meth:`nothing_typed`."""
        if not self.nothing_typed():
            self.go_to(self.position + 1)

    def previous(self) -> None:
        """One step back."""
        self.go_to(self.position - 1)

    def first(self) -> None:
        """Back to the start (every sum 0)."""
        self.go_to(0)

    def last(self) -> None:
        """The sign step: the fingerprint (nothing to do while :meth:`nothing_typed`)."""
        if not self.nothing_typed():
            self.go_to(self.last_position())

    def set_autoplay(self, on: bool) -> None:
        """Start or stop stepping forward on a timer (from the start if at the end)."""
        if on and self.steps is not None and not self.nothing_typed():
            if self.position >= self.last_position():
                self.first()
            self._timer.start(round(1000 / self.speed_slider.value()))
        else:
            self._timer.stop()
        self.play_button.blockSignals(True)
        self.play_button.setChecked(self._timer.isActive())
        self.play_button.setText("Pause" if self._timer.isActive() else "Autoplay")
        self.play_button.blockSignals(False)

    def _speed_changed(self, value: int) -> None:
        self.speed_label.setText(f"{value} steps/s")
        if self._timer.isActive():
            self._timer.setInterval(round(1000 / value))

    def _autoplay_tick(self) -> None:
        self.next()
        if self.position >= self.last_position():
            self.set_autoplay(False)

    def _update_buttons(self, busy: bool = False) -> None:
        # empty typed text: Next, Last and Autoplay would step to a sign step of nothing
        ready = self.steps is not None and not busy and not self.nothing_typed()
        at_start, at_end = self.position <= 0, self.position >= self.last_position()
        self.first_button.setEnabled(ready and not at_start)
        self.previous_button.setEnabled(ready and not at_start)
        self.next_button.setEnabled(ready and not at_end)
        self.last_button.setEnabled(ready and not at_end)
        self.play_button.setEnabled(ready)

    def _show_position(self) -> None:
        steps = self.steps
        bits = steps.bits
        n = len(steps.steps)
        blank = ("",) * bits, (_BLANK,) * bits
        hash_row = adds_row = fp_row = blank
        if self.position == 0:
            sums = (0,) * bits
            self.step_label.setText("Type some text to hash: the box is empty, there is nothing to add."
                                    if self.nothing_typed() else
                                    f"Start: {bits} sums, every one 0. {n:,} features to add.")  # fmt: skip
        elif self.position <= n:
            step = steps.steps[self.position - 1]
            sums = step.sums
            hash_row = tuple(map(str, step.hash_bits)), tuple(BIT_FILL[b] for b in step.hash_bits)
            adds_row = (tuple(signed(c) for c in step.contribution),
                        tuple(POSITIVE_TINT if c > 0 else NEGATIVE_TINT for c in step.contribution))  # fmt: skip
            self.step_label.setText(f"feature {self.position:,} of {n:,}: “{step.feature}”, weight {step.weight}"
                                    f" (hash 0x{step.hash:0{bits // 4}x})")  # fmt: skip
        else:
            sums = steps.sums
            fp_row = tuple(map(str, steps.fingerprint_bits)), tuple(BIT_FILL[b] for b in steps.fingerprint_bits)
            self.step_label.setText("Sign step: fingerprint bit = 1 where the sum is positive, 0 where it is 0 or "
                                    "negative.")  # fmt: skip
        scale = max([abs(s) for s in sums] + [1])
        sums_row = tuple(map(signed, sums)), tuple(sum_fill(s, scale) for s in sums)
        rows = [CellRow(ROW_HASH, *hash_row), CellRow(ROW_ADDS, *adds_row), CellRow(ROW_SUMS, *sums_row),
                CellRow(ROW_FINGERPRINT, *fp_row)]  # fmt: skip
        self.board.set_rows(bits, rows, header="bit", first=64 - bits)  # 8-bit mode: bits 56-63 of 64
        self.fingerprint_label.setText(self._fingerprint_text())
        self.model.set_done(min(self.position, n))
        if 0 < self.position <= min(n, TABLE_CAP):
            self._show_row(self.position - 1)
        self._update_buttons()

    def _show_row(self, row: int) -> None:
        """Scroll the table only when the row is out of sight, putting it near the top (two rows
        above it where the table shows four or more), so that the next steps do not scroll (each
        scroll repaints the whole table).  Presenting at 1280x800 the table shows one or two
        rows: two rows above put the current one out of sight ("feature 3 of 295", row 3 not
        shown)."""
        index = self.model.index(row, 1)
        rect = self.table.visualRect(index)
        viewport = self.table.viewport().rect()
        if rect.top() >= viewport.top() and rect.bottom() <= viewport.bottom():
            return
        shown = viewport.height() // max(1, self.table.verticalHeader().defaultSectionSize())
        above = self.model.index(max(0, row - min(2, max(0, shown - 2))), 1)
        self.table.scrollTo(above, QAbstractItemView.ScrollHint.PositionAtTop)

    def current_row(self) -> int | None:
        """The table row of the feature the board shows, or ``None`` (the start, the sign step,
        or a feature past the table's cap) (int | None)."""
        n = len(self.steps.steps) if self.steps is not None else 0
        return self.position - 1 if 0 < self.position <= min(n, TABLE_CAP) else None

    def keep_row_in_view(self) -> None:
        """Scroll the table back to the current feature's row if a resize moved it out of sight."""
        row = self.current_row()
        if row is not None:
            self._show_row(row)

    def _fingerprint_text(self) -> str:
        steps = self.steps
        if self.position < self.last_position():
            return "Fingerprint: after the last feature, the sign step turns the sums into bits (Last ▶|)."
        text = f"Fingerprint ({steps.bits} bits): 0x{steps.hex}"
        if steps.bits <= 16:  # short enough to read bit by bit
            bits = f"{steps.fingerprint:0{steps.bits}b}"
            text += " = " + " ".join(bits[i : i + 4] for i in range(0, steps.bits, 4))
        page = self._page
        if page is not None and page.has_text:
            engine = page.simhash if steps.bits == 64 else page.simhash & ((1 << steps.bits) - 1)
            same = "the same ✓" if engine == steps.fingerprint else "DIFFERENT ✗"
            whose = "the scan's SimHash" if steps.bits == 64 else (
                f"the last 8 bits (56–63) of the scan's SimHash 0x{page.simhash:016x}")  # fmt: skip
            text += f"; {whose}: 0x{engine:0{steps.bits // 4}x}, {same}"
        return text

    # --- what the board shows (for tests and screenshots) --------------------------------------

    def displayed_sums(self) -> list[int]:
        """The running sums the board shows (list[int])."""
        return [parse_signed(t) for t in self.board.row_texts(ROW_SUMS)]

    def displayed_fingerprint_bits(self) -> list[int]:
        """The fingerprint bits the board shows; empty before the sign step (list[int])."""
        return [int(t) for t in self.board.row_texts(ROW_FINGERPRINT) if t]

    def displayed_hash_bits(self) -> list[int]:
        """The current feature's hash bits the board shows; empty at the start and the sign step."""
        return [int(t) for t in self.board.row_texts(ROW_HASH) if t]
