"""Layout diff tab: the two pages' DOM tag sequences aligned, with the regions where they differ.

Both files are re-read and parsed off the GUI thread (:func:`dedup_gui.core.views.layout_diff.page_layout`)
and aligned by :func:`dedup_gui.core.views.layout_diff.layout_diff` (Levenshtein edit operations on the
tag sequences, Di Lucca, Di Penta and Fasolino, COMPSAC 2002).  Long runs of kept elements are
collapsed into one row.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHeaderView, QTableView, QVBoxLayout, QWidget

from dedup_gui.core.extraction.template import CONTENT_TAG
from dedup_gui.core.model import Page, Pair, ScanResult, Thresholds
from dedup_gui.core.pipeline.loading import PageReadError
from dedup_gui.core.views.layout_diff import LayoutDiff, PageLayout, page_layout, template_diff
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.inspector.widgets import ADDED, CHANGED, ON_TINT, REMOVED, TAB_MIN_HEIGHT, pair_pages, plain_label

#: Kept runs longer than this many elements are shown as one row.
COLLAPSE_KEPT = 3
#: Regions named in the "differ most in" line.
MAX_REGIONS_NAMED = 5
_TINTS = {"substituted": CHANGED, "deleted": REMOVED, "inserted": ADDED}


@dataclass(frozen=True)
class LayoutRow:
    """One row of the layout table: one element pair, or a collapsed run of kept elements.

    Attributes:
        op: ``"kept"``, ``"substituted"``, ``"deleted"`` or ``"inserted"``.
        a_start, a_end: element index range in the left page (empty when the row has none).
        b_start, b_end: element index range in the right page.
    """

    op: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int

    @property
    def collapsed(self) -> bool:
        """``True`` for a row standing for several kept elements (bool)."""
        return self.a_end - self.a_start > 1 or self.b_end - self.b_start > 1


def layout_rows(diff: LayoutDiff, collapse: int = COLLAPSE_KEPT) -> list[LayoutRow]:
    """The rows of the layout table: changed elements one per row, long kept runs as one row.

    Args:
        diff: the layout diff.
        collapse: kept runs longer than this (elements) become a single row.

    Returns:
        The rows, in document order (list[LayoutRow]).
    """
    rows: list[LayoutRow] = []
    for run in diff.runs:
        n_a, n_b = run.a_end - run.a_start, run.b_end - run.b_start
        if run.op == "kept" and n_a > collapse:
            rows.append(LayoutRow("kept", run.a_start, run.a_end, run.b_start, run.b_end))
            continue
        for i in range(max(n_a, n_b)):
            a0 = run.a_start + i if i < n_a else run.a_end
            b0 = run.b_start + i if i < n_b else run.b_end
            rows.append(LayoutRow(run.op, a0, a0 + (i < n_a), b0, b0 + (i < n_b)))
    return rows


def region_summary(diff: LayoutDiff, limit: int = MAX_REGIONS_NAMED) -> str:
    """Say where two layouts differ, each page counted on its own, as the header above counts them,
    e.g. ``"differ most in: nav (left 0 of 0 elements, right 14 of 14), main (left 20 of 459, right 22 of 459)"``.

    Args:
        diff: the layout diff.
        limit: regions named at most (an ellipsis follows when there are more).

    Returns:
        The sentence (str).
    """
    regions = diff.differing_regions()
    if not regions:
        return "the two layouts have the same elements in every region"
    sides = diff.side_changes()
    parts = []
    for i, region in enumerate(regions[:limit]):
        (ca, ta), (cb, tb) = sides[region]
        parts.append(f"{region} (left {ca:,} of {ta:,}{' elements' if i == 0 else ''}, right {cb:,} of {tb:,})")
    more = ", …" if len(regions) > limit else ""
    return "differ most in: " + ", ".join(parts) + more


def compute_layout_diff(a: Page, b: Page, max_bytes: int, root: str | None = None,
                        follow_links: bool = False) -> tuple[LayoutDiff, list[LayoutRow]]:  # fmt: skip
    """Re-read both pages, align their layouts and build the table rows (runs off the GUI thread).

    Args:
        a, b: the left and right pages.
        max_bytes: the largest file read (bytes; the scan's ``max_file_bytes``).
        root: the scanned folder (a file that now leads out of it is not read); follow_links:
            the scan followed links out of it.

    Returns:
        ``(diff, rows)``.

    Raises:
        PageReadError: a file can no longer be read; the message names the file.
    """
    layouts: list[PageLayout] = []
    for page in (a, b):
        try:
            layouts.append(page_layout(page, max_bytes, root, follow_links))
        except PageReadError as exc:
            raise PageReadError(f"{page.path} cannot be read again: {exc}") from exc
    diff = template_diff(*layouts)
    return diff, layout_rows(diff)


class LayoutRowsModel(QAbstractTableModel):
    """Table model of :class:`LayoutRow` items: the operation, then each side's element and region.

    Args:
        parent: the Qt parent, or ``None``.
    """

    HEADERS = ("change", "left #", "left element", "left region", "right #", "right element", "right region")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.diff: LayoutDiff | None = None
        self.rows: list[LayoutRow] = []

    def set_rows(self, diff: LayoutDiff | None, rows: list[LayoutRow]) -> None:
        """Replace the rows (``diff`` gives the tags and regions they index)."""
        self.beginResetModel()
        self.diff, self.rows = diff, rows
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        """Number of rows (int)."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        """Number of columns (int)."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole):  # fmt: skip
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        """Cell text, and the operation's colours."""
        if not index.isValid() or self.diff is None:
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, index.column())
        if role == Qt.ItemDataRole.BackgroundRole and row.op in _TINTS:
            return _TINTS[row.op]
        if role == Qt.ItemDataRole.ForegroundRole and row.op in _TINTS:
            return ON_TINT
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (1, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, row: LayoutRow, column: int) -> str:
        if column == 0:
            return f"{row.a_end - row.a_start:,} elements kept" if row.collapsed else row.op
        if column < 4:
            layout, start, end = self.diff.a, row.a_start, row.a_end
        else:
            layout, start, end = self.diff.b, row.b_start, row.b_end
        if start == end:
            return ""
        field = (column - 1) % 3
        if field == 0:
            return f"{start + 1:,}–{end:,}" if end - start > 1 else f"{start + 1:,}"
        if field == 1:
            return f"{layout.tags[start]} … {layout.tags[end - 1]}" if end - start > 1 else layout.tags[start]
        regions = list(dict.fromkeys(layout.regions[start:end]))
        return ", ".join(regions[:3]) + (", …" if len(regions) > 3 else "")


class LayoutDiffView(QWidget):
    """The layout similarity, element counts, differing regions and the aligned elements.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        diff: the shown :class:`LayoutDiff`, or ``None``.
        model: the table's :class:`LayoutRowsModel`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff: LayoutDiff | None = None
        self._key: tuple | None = None
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_diff)
        self._job.failed.connect(self._show_error)
        self.status_label = plain_label(bold=True, wrap=True)
        self.counts_label = plain_label(wrap=True)
        self.regions_label = plain_label(wrap=True)
        self.notes_label = plain_label(muted=True, wrap=True)
        self.model = LayoutRowsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAlternatingRowColors(False)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        # Fit the first column to the rows in sight only: Qt's default asks 1,000 rows for their
        # text, 1,000 Python calls (55 ms, several times that while a background job runs).
        self.table.horizontalHeader().setResizeContentsPrecision(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for label in (self.status_label, self.counts_label, self.regions_label, self.notes_label):
            layout.addWidget(label)
        layout.addWidget(self.table, 1)
        self.setMinimumSize(560, TAB_MIN_HEIGHT)
        self.clear()

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Start reading and aligning the pair's layouts in the background.

        Args:
            result: the scan the pair belongs to.
            pair: the pair, or ``None`` to clear the view.
            thresholds: the thresholds; its ``layout_same`` is shown beside the similarity.
        """
        if result is None or pair is None:
            self.clear()
            return
        a, b = pair_pages(result, pair)
        layout_same = (thresholds or result.thresholds).layout_same
        key = (result.root, a.path, b.path, a.sha1, b.sha1, layout_same)
        if key == self._key:
            return
        self._key = key
        self._layout_same = layout_same
        self.diff = None
        self.model.set_rows(None, [])
        self.status_label.setText(f"reading and aligning the layouts of {a.path} and {b.path}…")
        for label in (self.counts_label, self.regions_label, self.notes_label):
            label.hide()
        self._job.submit(
            compute_layout_diff, a, b, result.settings.max_file_bytes, result.root, result.settings.follow_links
        )

    def clear(self) -> None:
        """Show no pair (and ignore a computation still running)."""
        self._job.cancel()
        self._key, self.diff = None, None
        self.model.set_rows(None, [])
        self.status_label.setText("Select a pair to compare its layouts.")
        for label in (self.counts_label, self.regions_label, self.notes_label):
            label.hide()

    def is_comparing(self) -> bool:
        """``True`` while the shown pair's layouts are being read and aligned (bool)."""
        return self._job.is_running()

    def _show_diff(self, outcome: tuple[LayoutDiff, list[LayoutRow]]) -> None:
        diff, rows = outcome
        self.diff = diff
        self.model.set_rows(diff, rows)
        verdict = "same layout" if diff.similarity >= self._layout_same else "different layout"
        whole = "" if diff.page_similarity is None else f"; the whole pages: {diff.page_similarity:.3f}"
        self.status_label.setText(
            f"layout similarity {diff.similarity:.3f} ({verdict} at the threshold {self._layout_same:.3f}) of the "
            f"templates, the pages without their main content (one {CONTENT_TAG} element){whole}; "
            f"Levenshtein distance {diff.distance:,} elements"
        )
        c = diff.counts()
        self.counts_label.setText(
            f"left {len(diff.a.tags):,} elements, right {len(diff.b.tags):,}: {c['kept']:,} kept, "
            f"{c['substituted']:,} substituted, {c['deleted']:,} deleted (left only), "
            f"{c['inserted']:,} inserted (right only)"
        )
        self.regions_label.setText(region_summary(diff))
        self.notes_label.setText("; ".join(diff.notes))
        self.counts_label.show()
        self.regions_label.show()
        self.notes_label.setVisible(bool(diff.notes))

    def _show_error(self, exc: Exception) -> None:
        message = str(exc) if isinstance(exc, PageReadError) else f"The layouts could not be compared: {exc}"
        self.status_label.setText(message)
