"""Hamming distance: two 64-bit SimHash fingerprints as bit rows, the differing positions marked
and counted, against the near-duplicate threshold k (Manku, Jain and Das Sarma, WWW 2007).

The fingerprints are two chosen pages' SimHashes or typed values (hex or binary); the comparison
is :func:`dedup_gui.core.teaching.simhash_steps.hamming_steps`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QGridLayout, QLineEdit, QVBoxLayout, QWidget

from dedup_gui.core.fingerprints.simhash import block_keys
from dedup_gui.core.model import ScanResult, Thresholds
from dedup_gui.core.teaching.simhash_steps import HammingSteps, hamming_steps, position_runs
from dedup_gui.gui.teaching.cell_grid import CellGrid, CellRow
from dedup_gui.gui.teaching.line_label import LineLabel
from dedup_gui.gui.teaching.page_chooser import PageChooser, default_pair_paths
from dedup_gui.gui.teaching.widgets import (
    BIT_FILL,
    DIFFER,
    DIFFER_TINT,
    plain_label,
)

BITS = 64
TYPED = "(typed)"
#: The values shown without a scan: five bits apart.
TOY_A = 0x3C9A5E1F7B2D4086
TOY_B = TOY_A ^ ((1 << 60) | (1 << 45) | (1 << 33) | (1 << 18) | (1 << 2))
ROW_A, ROW_B, ROW_DIFF, ROW_BLOCKS = "A", "B", "A XOR B", "blocks"
_SAME_BLOCK = QColor("#a5d6a7")
_OTHER_BLOCK = QColor("#e0e0e0")
_SEPARATORS = re.compile(r"[\s_:]")
_HEX, _BINARY = re.compile(r"[0-9a-f]+"), re.compile(r"[01]+")
#: 0s and 1s in groups of four ("0101 1000"): binary as people write it, whatever its length.
_NIBBLES = re.compile(r"[01]{4}(?:[ _:][01]{4})+")
#: The most lines of a value's reading beside its field in presentation mode: three, so that
#: a guessed base's reading ends whole at 1152x720 (two cut it: "…; type 0b… for bi…"); it
#: takes three only where two lines do not hold it.
PRESENTING_READING_LINES = 3
#: Hex digits up to which the reading spells out the bits, and binary digits up to four times
#: as many the reading repeats (more: the bit rows show them).
HINT_HEX_DIGITS = 8


@dataclass(frozen=True)
class TypedFingerprint:
    """A typed fingerprint and how it was read.

    Attributes:
        value: the fingerprint (int in [0, 2**bits)).
        base: 16 or 2.
        digits: the digits read, without prefix and separators, lower case.
        prefixed: the base was given by a ``0x`` / ``0b`` prefix (else it was guessed).
    """

    value: int
    base: int
    digits: str
    prefixed: bool

    def reading(self) -> str:
        """How the value was read, in words, e.g. ``"read as hex 0x58 = 0101 1000 in binary,
        88 in decimal; type 0b… for binary"`` for a bare ``58`` (str)."""
        if self.base == 16:
            said = f"hex 0x{self.digits}"
            if len(self.digits) <= HINT_HEX_DIGITS:
                nibbles = " ".join(format(int(d, 16), "04b") for d in self.digits)
                said += f" = {nibbles} in binary" + ("" if self.prefixed else f", {self.value:,} in decimal")
            else:
                said += f" ({4 * len(self.digits)} bits)"
            return said if self.prefixed else f"read as {said}; type 0b… for binary"
        # a long binary value is not spelt out again (the bit rows show it): 64 digits made one
        # unbreakable word that took a third line presenting at 1280x800
        digits = f" 0b{self.digits}" if len(self.digits) <= 4 * HINT_HEX_DIGITS else ""
        said = f"binary{digits} ({len(self.digits)} bits) = 0x{self.value:x}"
        return said if self.prefixed else f"read as {said}; type 0x… for hex"


def read_fingerprint(text: str, bits: int = BITS) -> TypedFingerprint:
    """Read a typed fingerprint: hex (``0x…`` or bare hex digits) or binary (``0b…``, 0s and 1s
    in groups of four such as ``0101 1000``, or a string of 0s and 1s longer than ``bits / 4``
    digits); spaces, ``_`` and ``:`` are ignored, case too.

    Args:
        text: the typed value.
        bits: the fingerprint's width.

    Returns:
        :class:`TypedFingerprint`: the value and how it was read (:meth:`~TypedFingerprint.reading`).

    Raises:
        ValueError: not a number in those forms (a digit the prefix's base lacks, a sign, a
            second prefix), or wider than ``bits``; the message says which.

    Example:
        >>> read_fingerprint("58").reading()
        'read as hex 0x58 = 0101 1000 in binary, 88 in decimal; type 0b… for binary'
    """
    s = _SEPARATORS.sub("", text).lower()
    shown = text.strip()
    if not s:
        raise ValueError("type a fingerprint in hex (0x…) or binary (0b…)")
    if s.startswith(("0x", "0b")):
        base, digits, prefixed = (16 if s[1] == "x" else 2), s[2:], True
        pattern, name = (_HEX, "hex digits 0-9 and a-f") if base == 16 else (_BINARY, "binary digits 0 and 1")
        if not pattern.fullmatch(digits):
            other = f"; for hex type 0x{s}" if base == 2 and _HEX.fullmatch(s) else ""
            raise ValueError(f"{shown!r}: after {s[:2]} only {name}{other}")
    elif _BINARY.fullmatch(s) and (len(s) > bits // 4 or _NIBBLES.fullmatch(shown)):
        base, digits, prefixed = 2, s, False
    elif _HEX.fullmatch(s):
        base, digits, prefixed = 16, s, False
    else:
        raise ValueError(f"{shown!r} is not a fingerprint: type hex digits, 0x…, or 0b…")
    value = int(digits, base)
    if value >> bits:
        raise ValueError(f"{shown!r} has more than {bits} bits")
    return TypedFingerprint(value, base, digits, prefixed)


def parse_fingerprint(text: str, bits: int = BITS) -> int:
    """A typed fingerprint's value, read as :func:`read_fingerprint` does.

    Returns:
        The fingerprint (int in [0, 2**bits)).

    Raises:
        ValueError: as :func:`read_fingerprint`.

    Example:
        >>> parse_fingerprint("0b1011"), parse_fingerprint("ff"), parse_fingerprint("1" * 20)
        (11, 255, 1048575)
    """
    return read_fingerprint(text, bits).value


def block_ranges(a: int, b: int, k: int) -> list[tuple[int, int, bool]]:
    """The k + 1 blocks of :func:`dedup_gui.core.fingerprints.simhash.block_keys` as column ranges of the bit
    rows (0 = most significant bit), each with whether A and B agree on it.

    Returns:
        ``[(first_column, end_column, equal), ...]`` from left to right (end exclusive).

    Example:
        >>> [(lo, hi) for lo, hi, _ in block_ranges(0, 0, 3)]
        [(0, 16), (16, 32), (32, 48), (48, 64)]
    """
    keys_a, keys_b = block_keys(a, k), block_keys(b, k)
    blocks = k + 1
    bounds = [round(i * BITS / blocks) for i in range(blocks + 1)]  # from the least significant bit
    out = []
    for i in range(blocks):
        out.append((BITS - bounds[i + 1], BITS - bounds[i], keys_a[i][1] == keys_b[i][1]))
    return sorted(out)


class HammingView(QWidget):
    """The Hamming tab: two fingerprints (pages' SimHashes or typed), their bits, the differences.

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        compared(object): the new :class:`~dedup_gui.core.teaching.simhash_steps.HammingSteps` (or ``None``
            when a typed value is invalid).

    Attributes:
        choosers: the two page choosers (A, B); edits: the two value fields.
        readings: under each field, how its value was read ("read as hex 0x58 = 0101 1000 ...").
        grid: the :class:`~.cell_grid.CellGrid` with rows A, B and "differ".
        result_label: "Hamming distance 5 bits; near-duplicate threshold k = 3 ...".
        error_label: why a typed value was not understood.
        steps: the comparison shown, or ``None``.
    """

    compared = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps: HammingSteps | None = None
        self.k = Thresholds().hamming_k
        self.choosers = (PageChooser(extra=(TYPED,)), PageChooser(extra=(TYPED,)))
        self.edits = (QLineEdit(), QLineEdit())
        self.readings = (LineLabel(), LineLabel())
        for reading in self.readings:
            reading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._inputs = QGridLayout()
        for n, (name, chooser, edit) in enumerate(zip((ROW_A, ROW_B), self.choosers, self.edits)):
            edit.setPlaceholderText("a 64-bit fingerprint: hex (0x…) or binary (0b…)")
            edit.textEdited.connect(lambda _t, c=chooser: self._typed(c))
            chooser.page_changed.connect(lambda page, e=edit: self._chosen(page, e))
            self._inputs.addWidget(plain_label(f"{name}:", bold=True, selectable=False), 2 * n, 0)
            self._inputs.addWidget(chooser, 2 * n, 1)
            self._inputs.addWidget(edit, 2 * n, 2)
        self.grid = CellGrid(min_cell=16, max_cell=36, max_per_line=32, tall=1.5)
        self.result_label = plain_label(bold=True, wrap=True)
        self.blocks_label = plain_label(wrap=True)
        self.error_label = plain_label(wrap=True)
        # red by its palette, not a style sheet: a style sheet fixes the label's font, and in
        # presentation mode the error stayed at 10 pixels while all else doubled
        error_palette = self.error_label.palette()
        error_palette.setColor(QPalette.ColorRole.WindowText, DIFFER)
        self.error_label.setPalette(error_palette)
        explain = plain_label(
            "The Hamming distance of two fingerprints is the number of bit positions where they differ "
            "(the 1 bits of A XOR B). SimHash maps similar texts to fingerprints a few bits apart; Manku, "
            "Jain and Das Sarma (WWW 2007) call 64-bit fingerprints at most k = 3 bits apart near "
            "duplicates.", wrap=True)  # fmt: skip
        layout = QVBoxLayout(self)
        margins = layout.contentsMargins()
        self._margins = (margins.left(), margins.top(), margins.right(), margins.bottom())
        layout.addLayout(self._inputs)
        layout.addWidget(explain)
        layout.addWidget(self.grid)
        layout.addWidget(self.result_label)
        layout.addWidget(self.blocks_label)
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        self.presenting = False
        self._arrange_inputs()
        self.set_values(TOY_A, TOY_B)

    def set_presentation(self, on: bool) -> None:
        """Fit presentation mode's large fonts in a 1280x800 window without scrolling (issue 20:
        the view needed 835 pixels of height in 715): each reading beside its field rather than
        under it, snug bit rows (:meth:`CellGrid.set_compact`) and narrower margins."""
        self.presenting = on
        layout = self.layout()
        layout.setContentsMargins(*((4, 4, 4, 4) if on else self._margins))
        layout.setSpacing(4 if on else -1)
        self._inputs.setVerticalSpacing(4 if on else -1)
        self.grid.set_compact(on)
        self._arrange_inputs()

    def _arrange_inputs(self) -> None:
        """Each reading under its field (normal, wrapped) or at its right (presenting: at most
        :data:`PRESENTING_READING_LINES` lines, the rest elided, the whole in its tooltip; wrapped
        there freely, a typed value's reading took four or five lines and the view scrolled)."""
        grid = self._inputs
        for n, reading in enumerate(self.readings):
            grid.removeWidget(reading)
            if self.presenting:
                reading.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                grid.addWidget(reading, 2 * n, 3)
                reading.set_max_lines(PRESENTING_READING_LINES)
            else:
                reading.set_max_lines(0)
                reading.setAlignment(Qt.AlignmentFlag.AlignRight)  # under the field it explains
                grid.addWidget(reading, 2 * n + 1, 1, 1, 2)
        for column, stretch in enumerate((0, 3, 2, 4) if self.presenting else (0, 2, 1, 0)):
            grid.setColumnStretch(column, stretch)

    def set_result(self, result: ScanResult | None, pair: tuple[str, str] | None = None) -> None:
        """List the scan's pages and start on ``pair`` (two page paths: the pair selected in the
        main window) if given and in the scan, else on a duplicate pair whose fingerprints
        differ, else on typed values."""
        self.k = result.thresholds.hamming_k if result else Thresholds().hamming_k
        for chooser in self.choosers:
            chooser.set_pages(result.pages if result else [])
        if pair is not None and default_pair_paths(result, pair) == pair:
            self.select_pages(*pair)
            return
        pair = None
        if result is not None:
            differing = [p for p in result.pairs if p.scores.hamming_distance > 0 and p.scores.both_have_text]
            pair = next((p for p in differing if p.type.value != "distinct"), differing[0] if differing else None)
        if pair is None:
            self.set_values(TOY_A, TOY_B)
        else:
            self.select_pages(result.pages[pair.left].path, result.pages[pair.right].path)

    def update_result(self, result: ScanResult) -> None:
        """Take a re-classification of the scan shown (the same pages, perhaps a new k): the
        pages or typed values chosen stay; the comparison is made again under the new k."""
        self.k = result.thresholds.hamming_k
        for chooser in self.choosers:
            chooser.replace_pages(result.pages)
        self.update_comparison()

    def select_pages(self, left: str, right: str) -> bool:
        """Compare the SimHashes of the pages with these paths (``False`` if one is not listed)."""
        return self.choosers[0].select_path(left) and self.choosers[1].select_path(right)

    def set_values(self, a: int | str, b: int | str) -> None:
        """Compare two typed fingerprints (ints, or text as :func:`parse_fingerprint` reads it)."""
        for chooser, edit, value in zip(self.choosers, self.edits, (a, b)):
            chooser.blockSignals(True)
            chooser.select_extra(0)
            chooser.blockSignals(False)
            edit.setText(f"0x{value:016x}" if isinstance(value, int) else value)
            edit.setCursorPosition(0)  # a narrow field shows the value's start, "0x…", not its end
        self.update_comparison()

    def _typed(self, chooser: PageChooser) -> None:
        chooser.blockSignals(True)
        chooser.select_extra(0)
        chooser.blockSignals(False)
        self.update_comparison()

    def _chosen(self, page, edit: QLineEdit) -> None:
        if page is not None:
            edit.setText(f"0x{page.simhash:016x}")
            edit.setCursorPosition(0)
        self.update_comparison()

    def update_comparison(self) -> None:
        """Parse both values, say under each how it was read, and show their bits and distance
        (or why a value is not understood)."""
        values, errors = [], []
        for chooser, edit, reading in zip(self.choosers, self.edits, self.readings, strict=True):
            try:
                typed = read_fingerprint(edit.text())
            except ValueError as exc:
                errors.append(str(exc))
                reading.setText("")
                continue
            values.append(typed.value)
            reading.setText("the page's SimHash, in hex" if chooser.page() is not None else typed.reading())
        self.error_label.setVisible(bool(errors))  # no empty line's height and spacing
        if errors:
            self.error_label.setText("\n".join(errors))
            self.steps = None
            self.grid.set_rows(0, [])
            self.result_label.setText("")
            self.blocks_label.setText("")
            self.compared.emit(None)
            return
        a, b = values
        self.error_label.setText("")
        s = hamming_steps(a, b, BITS)
        self.steps = s
        marked = frozenset(s.differing)
        rows = [
            CellRow(ROW_A, tuple(map(str, s.a_bits)), tuple(BIT_FILL[x] for x in s.a_bits), marked),
            CellRow(ROW_B, tuple(map(str, s.b_bits)), tuple(BIT_FILL[x] for x in s.b_bits), marked),
            CellRow(ROW_DIFF, tuple("1" if i in marked else "0" for i in range(BITS)),
                    tuple(DIFFER if i in marked else DIFFER_TINT.lighter(112) for i in range(BITS)), marked),
        ]  # fmt: skip
        if self.k < BITS:  # k + 1 <= 64 blocks, each of at least one bit
            blocks = block_ranges(a, b, self.k)
            block_of = {p: n for n, (lo, hi, _same) in enumerate(blocks) for p in range(lo, hi)}
            rows.append(CellRow(
                ROW_BLOCKS,
                tuple(str(block_of[i] + 1) if i == blocks[block_of[i]][0] else "" for i in range(BITS)),
                tuple(_SAME_BLOCK if blocks[block_of[i]][2] else _OTHER_BLOCK for i in range(BITS)),
            ))  # fmt: skip
            same = [str(n + 1) for n, (_lo, _hi, eq) in enumerate(blocks) if eq]
            self.blocks_label.setText(
                f"Finding such pairs fast (Manku et al. 2007): cut the 64 bits into k + 1 = {len(blocks)} "
                f"block{'s' if len(blocks) != 1 else ''}. "
                f"Fingerprints at most k bits apart agree exactly on at least one block, so an index on each "
                f"block finds them. {blocks_equal_text(same)}"
            )  # fmt: skip
        else:
            # k + 1 = 65 blocks of 64 bits would leave a block empty, one "equal" with no bits
            self.blocks_label.setText(
                f"Finding such pairs fast (Manku et al. 2007) cuts the 64 bits into k + 1 blocks, at most 64 "
                f"(one bit each). With k = {self.k} ≥ 64 no blocks are needed: two 64-bit fingerprints differ "
                "in at most 64 bits, so every pair is within k."
            )  # fmt: skip
        self.grid.set_rows(BITS, rows, header="bit")
        where = position_runs(s.differing)  # "30–63", not 34 numbers over three lines
        verdict = "near duplicates" if s.distance <= self.k else "not near duplicates"
        self.result_label.setText(
            f"Hamming distance {s.distance} bit{'s' if s.distance != 1 else ''}; near-duplicate threshold "
            f"k = {self.k} {threshold_source(self.k)}: {verdict} by SimHash "
            "(types come from texts and templates, not k).\n"
            f"A = 0x{a:016x}    B = 0x{b:016x}    differing positions: {where}"
        )  # fmt: skip
        self.compared.emit(s)

    def is_busy(self) -> bool:
        """Never: the comparison is immediate (bool)."""
        return False

    def marked_count(self) -> int:
        """Bit positions marked as differing (int)."""
        return len(self.grid.marked_columns())


def blocks_equal_text(same: list[str]) -> str:
    """Which blocks two fingerprints agree on, as a sentence (str): ``"Here block 2 is equal
    (green)."``, ``"Here blocks 1, 3 are equal (green)."``, or, with none, that no block is
    equal and so the block index would not find the pair ("Here blocks none are equal" read
    as garbled).

    Args:
        same: the numbers (1-based, as text) of the blocks that are equal.
    """
    if not same:
        return "Here no block is equal, so the block index would not find this pair."
    if len(same) == 1:
        return f"Here block {same[0]} is equal (green)."
    return f"Here blocks {', '.join(same)} are equal (green)."


#: The threshold Manku, Jain and Das Sarma (WWW 2007) found right for 64-bit fingerprints.
MANKU_K = 3


def threshold_source(k: int) -> str:
    """Where the threshold ``k`` comes from, in parentheses (str): Manku et al. 2007 for their
    k = 3; for another k, that they used 3 (a threshold of 8 cited to them misled a teacher).

    Example:
        >>> threshold_source(8)
        '(Manku et al. 2007 used k = 3 for 64-bit fingerprints)'
    """
    return "(Manku et al. 2007)" if k == MANKU_K else f"(Manku et al. 2007 used k = {MANKU_K} for 64-bit fingerprints)"
