"""Paths cut where they differ: at 1024x640 the real site's pairs table read
"v1.10.x/…/vpc-peering/ | v1.10.x/…/vpc-peering/" for the zh copy, the en copy and the
versionless page alike (the path rule kept the first folder and the document only, and dropped
the language folder when short of room).  A narrow path column now keeps the folders that tell
a path from the pair's other page and from the column's other paths of its document."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from dedup_gui.core.model import Cluster, DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.views.path_segments import PathCut, PathSegments
from dedup_gui.gui.elide import elide_cut
from dedup_gui.gui.tables import column_widths
from dedup_gui.gui.tables.models import PairsModel
from dedup_gui.gui.tables.table_panel import TablePanel
from tests.gui.conftest import make_page, scores

PATHS = [
    "v1.10.x/advance/vpc-peering/index.html",
    "v1.10.x/zh/advance/vpc-peering/index.html",
    "v1.10.x/en/advance/vpc-peering/index.html",
    "v1.11.x/advance/vpc-peering/index.html",
    "v1.11.x/zh/advance/vpc-peering/index.html",
]
PAIRS = [(0, 1), (0, 2), (2, 1), (3, 4), (0, 3)]


def vpc_result() -> ScanResult:
    pages = [make_page(path, 500, 0x1234) for path in PATHS]
    pairs = [Pair(a, b, scores(0.99, 0), DupType.FULL) for a, b in PAIRS]
    return ScanResult("/scan", pages, [], pairs, [Cluster(1, tuple(range(5)), frozenset({DupType.FULL}))],
                      Thresholds(), ScanSettings())  # fmt: skip


def test_the_folders_that_tell_a_path_apart_come_first():
    seg = PathSegments(PATHS)
    # the zh copy beside the versionless page: "zh" first (the other page lacks it), then the
    # version (one other path of the document has v1.10.x); "advance", in every one, last
    assert seg.cut(PATHS[1], PATHS[0]) == PathCut(("v1.10.x", "zh", "advance"), "vpc-peering/", (1, 0, 2), 2)
    # the versionless page beside it: only its version tells it from the others ("advance" all have)
    assert seg.cut(PATHS[0], PATHS[1]) == PathCut(("v1.10.x", "advance"), "vpc-peering/", (0, 1), 1)
    # another document on the other side: its name tells them apart, the partner's folders do not count
    assert seg.cut(PATHS[0], "v1.10.x/advance/dhcp/index.html").order[:1] == (0,)


def test_a_narrow_cut_keeps_the_telling_folders_and_the_document(qtbot):
    fm = QFontMetrics(QApplication.font())
    cut = PathSegments(PATHS).cut(PATHS[2], PATHS[1])  # the en copy beside the zh copy
    width = fm.horizontalAdvance("v1.10.x/en/…/vpc-peering/")
    assert elide_cut(cut, fm, width) == "v1.10.x/en/…/vpc-peering/"
    assert elide_cut(cut, fm, 10_000) == "v1.10.x/en/advance/vpc-peering/"  # all fits: all shown


def test_no_two_rows_of_a_narrow_pairs_table_read_alike(qtbot, monkeypatch):
    model = PairsModel()
    model.set_result(vpc_result())
    drawn: dict[tuple[int, int], str] = {}
    paint = column_widths.paint_path

    def recording(painter, option, start=0, cut=None):
        paint(painter, option, start, cut)
        drawn[option.rect.y(), option.rect.x()] = option.text

    monkeypatch.setattr(column_widths, "paint_path", recording)
    panel = TablePanel(model)
    qtbot.addWidget(panel)
    panel.resize(900, 300)
    panel.show()
    qtbot.waitExposed(panel)
    for col in (0, 1):  # room for "v1.10.x/…/vpc-peering/", not for the language folder too
        panel.view.setColumnWidth(col, panel.fontMetrics().horizontalAdvance("v1.10.x/…/vpc-peering/") + 12)
    panel.view.viewport().grab()  # paints every cell in view
    rows: dict[int, list[str]] = {}
    for (y, _x), text in sorted(drawn.items()):
        rows.setdefault(y, []).append(text)
    shown = [tuple(texts) for texts in rows.values()]
    assert len(shown) == len(PAIRS) and all(len(t) == 2 for t in shown), drawn
    # before: "v1.10.x/…/vpc-peering/" in both cells of the first three rows
    assert len(set(shown)) == len(PAIRS), shown
    assert all(left != right for left, right in shown), shown
    assert all("…" in text for row in shown for text in row)  # every one was cut
    assert model.index(0, 1).data(Qt.ItemDataRole.ToolTipRole) == model.index(0, 1).data()  # whole in the tooltip
