"""Why this type tab: the classification in words, the type table with the pair's cell, page notes.

The sentences are :func:`dedup_gui.core.pipeline.classify.explain_pair` (each measure against its threshold,
then the verdict; for a pair the user marked "not a duplicate", that mark); the table is the four-type
grid of DESIGN.md with the pair's cell marked.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from dedup_gui.core.model import DupType, Page, Pair, ScanResult, Thresholds
from dedup_gui.core.pipeline.classify import classify, explain_pair
from dedup_gui.core.views.colors import TYPE_COLORS
from dedup_gui.core.views.label_filter import label_line
from dedup_gui.core.views.relations import display_relations
from dedup_gui.gui.inspector.widgets import TAB_MIN_HEIGHT, pair_pages, plain_label, scroll_body

_ROWS = ("same content", "an important part shared", "no important part shared")
_COLUMNS = ("same layout", "different layout")
_CELLS = {
    (0, 0): DupType.FULL, (0, 1): DupType.CONTENT,
    (1, 0): DupType.LAYOUT, (1, 1): DupType.PARTIAL,
    (2, 0): DupType.DISTINCT, (2, 1): DupType.DISTINCT,
}  # fmt: skip


class WhyView(QWidget):
    """Explains a pair's type: the measures against the thresholds, the verdict, the notes.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        verdict: the pair's :class:`DupType` under the shown thresholds, or ``None``.
        human_label: the label of the next pair shown, from the scan's labels file (the
            inspector sets it before :meth:`set_pair`), or ``None``: said under the verdict.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdict: DupType | None = None
        self.human_label: DupType | None = None
        self._lines: list[str] = []
        self.heading_label = plain_label(bold=True, wrap=True)
        self.reason_labels: list[QLabel] = []
        self.reasons = QVBoxLayout()
        self.reasons.setSpacing(2)
        self.verdict_label = plain_label(bold=True, wrap=True)
        self.label_line = plain_label(wrap=True)
        self.cells: dict[tuple[int, int], QLabel] = {}
        self.thresholds_label = plain_label(muted=True, wrap=True)
        self.notes_label = plain_label(wrap=True)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.heading_label)
        layout.addLayout(self.reasons)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.label_line)
        layout.addSpacing(6)
        layout.addLayout(self._type_grid())
        layout.addWidget(self.thresholds_label)
        layout.addSpacing(6)
        layout.addWidget(plain_label("Page notes", bold=True))
        layout.addWidget(self.notes_label)
        layout.addStretch(1)
        scroll_body(self, body)
        self.setMinimumSize(480, TAB_MIN_HEIGHT)
        self.clear()

    def _type_grid(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setSpacing(2)
        for col, name in enumerate(_COLUMNS, start=1):
            grid.addWidget(plain_label(name, bold=True), 0, col, Qt.AlignmentFlag.AlignCenter)
        for row, name in enumerate(_ROWS):
            grid.addWidget(plain_label(name, bold=True), row + 1, 0)
            for col in range(2):
                t = _CELLS[(row, col)]
                number = "" if t is DupType.DISTINCT else f" ({list(DupType).index(t) + 1})"
                cell = plain_label(t.label + number)
                cell.setAlignment(Qt.AlignmentFlag.AlignCenter)
                cell.setMinimumWidth(150)
                cell.setFrameShape(QFrame.Shape.Box)
                cell.setMargin(4)
                grid.addWidget(cell, row + 1, col + 1)
                self.cells[(row, col)] = cell
        grid.setColumnStretch(3, 1)
        return grid

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Explain ``pair``'s type under ``thresholds`` (the scan's when ``None``).

        Args:
            result: the scan the pair belongs to.
            pair: the pair, or ``None`` to clear the view.
            thresholds: the decision thresholds.
        """
        if result is None or pair is None:
            self.clear()
            return
        t = thresholds or result.thresholds
        a, b = pair_pages(result, pair)
        lines = [
            display_relations(line) for line in explain_pair(pair, t)
        ]  # a pair the user marked says so before the verdict
        self.verdict = DupType.DISTINCT if pair.not_duplicate else classify(pair.scores, t)
        self.heading_label.setText(f"Why {a.path} and {b.path} are classified as: {self.verdict.label}")
        self._set_reasons(lines[:-1])
        self.verdict_label.setText(lines[-1])
        self.verdict_label.setStyleSheet(f"color: {TYPE_COLORS[self.verdict]};")
        labelled = [] if self.human_label is None else [label_line(self.human_label, self.verdict)]
        self.label_line.setText("".join(labelled))
        self.label_line.setVisible(bool(labelled))
        s = pair.scores
        row = 0 if self.verdict in (DupType.FULL, DupType.CONTENT) else 1 if self.verdict is not DupType.DISTINCT else 2
        self._mark_cell((row, 0 if s.layout_similarity >= t.layout_same else 1))
        self.thresholds_label.setText(
            f"Thresholds: same content when content similarity ≥ {t.content_same:.3f} (or, where the scan "
            f"did not learn both pages' site template, containment ≥ {t.content_same:.3f} with Jaccard ≥ "
            f"{t.same_min_jaccard:.3f}); an important part shared when containment ≥ {t.content_partial:.3f}; "
            f"same layout when the templates' layout similarity ≥ {t.layout_same:.3f}."
        )
        notes = [f"{side} ({page.path}): {page_notes(page)}" for side, page in (("left", a), ("right", b))]
        notes += [line for side, page in (("left", a), ("right", b)) for line in template_lines(side, page)]
        self.notes_label.setText("\n".join(notes))
        self._lines = [self.heading_label.text(), *lines, *labelled, *notes]

    def clear(self) -> None:
        """Show no pair."""
        self.verdict = None
        self.heading_label.setText("Select a pair to see why it has its type.")
        self._set_reasons([])
        self.verdict_label.setText("")
        self.label_line.setText("")
        self.label_line.hide()
        self._mark_cell(None)
        self.thresholds_label.setText("")
        self.notes_label.setText("")
        self._lines = []

    def text(self) -> str:
        """Everything the view says, one line per reason, verdict and note (str)."""
        return "\n".join(self._lines)

    def _set_reasons(self, lines: list[str]) -> None:
        for label in self.reason_labels:
            self.reasons.removeWidget(label)
            label.hide()  # at once: deleteLater waits for the event loop
            label.deleteLater()
        self.reason_labels = [plain_label(f"•  {line}", wrap=True) for line in lines]
        for label in self.reason_labels:
            self.reasons.addWidget(label)

    def _mark_cell(self, marked: tuple[int, int] | None) -> None:
        for key, cell in self.cells.items():
            if key == marked:
                color = QColor(TYPE_COLORS[_CELLS[key]])
                cell.setStyleSheet(f"background: {color.name()}; color: white; font-weight: bold;")
            else:
                cell.setStyleSheet("")


#: Template lines listed per page in the view at most.
TEMPLATE_LINES_SHOWN = 12


def template_lines(side: str, page: Page) -> list[str]:
    """What of a page's extracted text was its site's template and was taken out, as lines for
    the view (list[str]; none when nothing was)."""
    if not page.template_text:
        return []
    lines = page.template_text.split("\n")
    count = f"{len(lines)} line{'s' if len(lines) > 1 else ''}"
    head = f"{side}: the site's template, taken out of the main text ({count}):"
    shown = [f"    {line}" for line in lines[:TEMPLATE_LINES_SHOWN]]
    more = [f"    … and {len(lines) - TEMPLATE_LINES_SHOWN} more"] if len(lines) > TEMPLATE_LINES_SHOWN else []
    return [head, *shown, *more]


def page_notes(page: Page) -> str:
    """A page's notes joined for display, or ``"none"`` (str)."""
    return "; ".join(page.notes) if page.notes else "none"
