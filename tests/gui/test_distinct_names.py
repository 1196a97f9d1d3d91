"""Flat file names elided where they differ (a search engineer's pairs folder,
shared/pairs/pages): ``o__gne__tests__other__1.html`` beside ``o__gne__tests__sina__1.html``
showed as "o__gne__te…er__1.html", the middle cut exactly where the pages differ.  A narrow
path column now cuts the start the names share and keeps the part that tells them apart."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from dedup_gui.core.model import Cluster, DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.views.paths import distinct_starts
from dedup_gui.gui.elide import elide_name, elide_path
from dedup_gui.gui.tables import column_widths
from dedup_gui.gui.tables.models import PairsModel
from dedup_gui.gui.tables.table_model import NAME_START_ROLE
from dedup_gui.gui.tables.table_panel import TablePanel
from tests.gui.conftest import make_page, scores

NAMES = ["o__gne__tests__other__1.html", "o__gne__tests__sina__1.html", "o__readability__webmd-1.html",
         "o__readability__webmd-2.html", "g0001_full.html"]  # fmt: skip


def flat_result() -> ScanResult:
    pages = [make_page(name, 500, 0x1234) for name in NAMES]
    pairs = [Pair(0, 1, scores(0.9, 3), DupType.PARTIAL), Pair(2, 3, scores(0.9, 3), DupType.FULL),
             Pair(0, 4, scores(0.9, 3), DupType.FULL)]  # fmt: skip
    return ScanResult("/scan", pages, [], pairs, [Cluster(1, (0, 1, 2, 3, 4), frozenset({DupType.FULL}))],
                      Thresholds(), ScanSettings())  # fmt: skip


def test_each_name_starts_where_it_differs_from_the_others():
    # the whole word that differs, and a word before a short one ("webmd-1", not "1")
    assert [name[s:] for name, s in zip(NAMES, distinct_starts(NAMES), strict=True)] == [
        "other__1.html", "sina__1.html", "webmd-1.html", "webmd-2.html", "g0001_full.html"]  # fmt: skip
    assert distinct_starts(["a.html"]) == [0] and distinct_starts([]) == []
    # a separator the words' rule does not strip ("+", "/") ends the walk back (it looped)
    assert distinct_starts(["a+b.html", "a+c.html", "x/1", "x/2"]) == [0, 0, 0, 0]


def test_a_narrow_name_keeps_its_distinguishing_part(qtbot):
    fm = QFontMetrics(QApplication.font())
    name, start = NAMES[0], 15
    # room for the part and a few letters of the shared start: that start is cut at its end
    width = fm.horizontalAdvance("o__gne…other__1.html")
    shown = elide_path(name, fm, width, start)
    assert shown.endswith("…other__1.html") and shown.startswith("o__") and fm.horizontalAdvance(shown) <= width
    # room for the part alone: "…other__1.html"
    assert elide_path(name, fm, fm.horizontalAdvance("…other__1.html"), start) == "…other__1.html"
    # before: the middle of the name went, "other" with it
    assert "other" not in elide_path(name, fm, width) and "other" not in fm.elidedText(
        name, Qt.TextElideMode.ElideMiddle, width
    )
    # in a folder, the first folder stays and the name gives way the same way
    assert (
        elide_path("pages/" + name, fm, fm.horizontalAdvance("pages/…other__1.html"), start) == "pages/…other__1.html"
    )
    # a part wider than the room is itself elided in its middle, after the ellipsis
    narrow = elide_name(name, start, fm, fm.horizontalAdvance("…oth…html"))
    assert (
        narrow.startswith("…o")
        and narrow.endswith("l")
        and fm.horizontalAdvance(narrow) <= fm.horizontalAdvance("…oth…html")
    )
    assert elide_name(name, 0, fm, width) == fm.elidedText(
        name, Qt.TextElideMode.ElideMiddle, width
    )  # no start: as before


def test_the_pairs_table_draws_each_name_by_its_distinguishing_part(qtbot, monkeypatch):
    model = PairsModel()
    model.set_result(flat_result())
    assert [model.index(r, c).data(NAME_START_ROLE) for r in range(3) for c in (0, 1)] == [15, 15, 16, 16, 15, 0]
    assert model.index(0, 2).data(NAME_START_ROLE) == 0  # not a path column
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == NAMES[0]  # the whole name in the tooltip
    drawn: list[str] = []
    paint = column_widths.paint_path

    def recording(painter, option, start=0, cut=None):
        paint(painter, option, start, cut)
        drawn.append(option.text)

    monkeypatch.setattr(column_widths, "paint_path", recording)
    panel = TablePanel(model)
    qtbot.addWidget(panel)
    panel.resize(900, 300)
    panel.show()
    qtbot.waitExposed(panel)
    for col in (0, 1):
        panel.view.setColumnWidth(col, panel.fontMetrics().horizontalAdvance("o__gne…other__1.html") + 12)
    panel.view.viewport().grab()  # paints every cell in view
    assert any(t.endswith("…other__1.html") for t in drawn), drawn
    assert any(t.endswith("…sina__1.html") for t in drawn), drawn
    assert any(t.endswith("…webmd-2.html") for t in drawn), drawn
