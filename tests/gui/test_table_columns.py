"""Column widths of the pairs and pages tables (issue 20, item 2): spare width goes to the path
columns, not to small number columns, and paths are shown whole when there is room."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle

from dedup_gui.core.model import DupType, FileError, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.elide import elide_path
from dedup_gui.gui.tables.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.tables.table_panel import TablePanel
from tests.gui.conftest import make_page, scores

#: Paths of about 90 characters (some 600 pixels): longer than the 420-pixel cap text columns have.
LONG = [f"news.{n}/2024/politics/regional-elections-and-the-related-coverage/part-{n}/index.html" for n in (16, 17, 18)]


@pytest.fixture
def long_paths() -> ScanResult:
    pages = [make_page(p, 10 + i, i) for i, p in enumerate(LONG)]
    pairs = [Pair(0, 1, scores(0.99, 1), DupType.FULL), Pair(1, 2, scores(0.98, 2), DupType.FULL)]
    return ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())


def shown_panel(qtbot, model, result, width: int) -> TablePanel:
    model.set_result(result)
    panel = TablePanel(model)
    qtbot.addWidget(panel)
    panel.resize(width, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.fit_columns(panel.view.viewport().width())
    return panel


def elided(panel: TablePanel, column: int) -> list[str]:
    """The path cells of ``column`` as the path delegate draws them at the column's width."""
    view, model = panel.view, panel.model
    style = view.style()
    margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1) + 2
    width = view.horizontalHeader().sectionSize(column) - margin
    return [
        elide_path(model.display(model.record(r), column), view.fontMetrics(), width) for r in range(model.rowCount())
    ]


def test_a_wide_pairs_table_gives_its_spare_width_to_the_paths(qtbot, long_paths):
    panel = shown_panel(qtbot, PairsModel(), long_paths, 2400)
    header, viewport = panel.view.horizontalHeader(), panel.view.viewport().width()
    sizes = [header.sectionSize(c) for c in range(header.count())]
    # the columns fill the table, and the two path columns are wider than every other column
    # (before, the last column, "Cluster" (now "Group"), took the spare width and paths were cut at 420 px)
    assert sum(sizes) == viewport
    assert min(sizes[0], sizes[1]) > max(sizes[2:])
    assert abs(sizes[0] - sizes[1]) <= 1  # the spare width is shared equally
    # the number columns keep their contents' width (the type column 12 px more); the Label
    # column is hidden without a labels file (0 px)
    assert sizes[2:] == [0 if panel.view.isColumnHidden(c) else w + (0 if c in panel.model.NUMERIC else 12)
                         for c, w in enumerate(panel.content_widths())][2:]  # fmt: skip
    # with room, no path is elided
    assert elided(panel, 0) == [LONG[0], LONG[1]] and elided(panel, 1) == [LONG[1], LONG[2]]

    # a narrower window takes the spare width back from the paths, a wider one gives it again
    panel.resize(1200, 400)
    qtbot.waitUntil(lambda: panel.view.viewport().width() < 1200)
    narrow = [header.sectionSize(c) for c in range(header.count())]
    assert narrow[2:] == sizes[2:] and narrow[0] < sizes[0]
    panel.resize(2400, 400)
    qtbot.waitUntil(lambda: header.sectionSize(0) == sizes[0])
    assert [header.sectionSize(c) for c in range(header.count())] == sizes

    # a path column the user drags keeps its width; the other path column takes what is spare
    header.resizeSection(0, 300)  # as a drag does
    panel.resize(2300, 400)
    qtbot.waitUntil(lambda: panel.view.viewport().width() < 2300)
    assert header.sectionSize(0) == 300 and header.sectionSize(2) == sizes[2]
    assert sum(header.sectionSize(c) for c in range(header.count())) == panel.view.viewport().width()


def test_a_wide_pages_table_gives_its_spare_width_to_the_file_column(qtbot, long_paths):
    panel = shown_panel(qtbot, PagesModel(), long_paths, 2400)
    header = panel.view.horizontalHeader()
    sizes = [header.sectionSize(c) for c in range(header.count())]
    assert sum(sizes) == panel.view.viewport().width()
    assert sizes[0] > max(sizes[1:])
    assert elided(panel, 0) == LONG  # whole, in the scan's order


def test_the_containment_column_fits_the_few_cells_that_name_the_inner_page(qtbot):
    # Most containment cells are a bare number; the few that say "0.766 (right in left)" were
    # cut ("0.766 (ri… in left)") when the rows sampled for the widths missed them (a tester).
    import dataclasses

    pages = [make_page(f"p{i}.html", 10 + i, i) for i in range(2)]
    plain = Pair(0, 1, scores(0.99, 1), DupType.FULL)
    inner = Pair(0, 1, dataclasses.replace(scores(0.5, 9, containment=0.766), contained_side="right"),
                 DupType.PARTIAL)  # fmt: skip
    pairs = [plain] * 1_000 + [inner] + [plain] * 1_000  # one row in 2,001, sampled by none of 200
    result = ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())
    panel = shown_panel(qtbot, PairsModel(), result, 1600)
    text = panel.model.cell_text(1_000, 4)
    assert text == "0.766 (right in left)"
    assert panel.view.horizontalHeader().sectionSize(4) >= panel.view.fontMetrics().horizontalAdvance(text) + 4


def titled_long_pages() -> ScanResult:
    """The three LONG pages with long titles and URLs, two full duplicate pairs between them."""
    pages = [make_page(p, 10 + i, i, title=f"A long page title about regional elections, part {i}",
                       url=f"https://news.example.org/2024/politics/regional-elections/part-{i}/")
             for i, p in enumerate(LONG)]  # fmt: skip
    pairs = [Pair(0, 1, scores(0.99, 1), DupType.FULL), Pair(1, 2, scores(0.98, 2), DupType.FULL)]
    return ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())


def test_the_pages_table_keeps_its_keep_and_canonical_columns_in_sight(qtbot):
    # Issue 20 (a new user's first hour): in a 1600-px window (a table about 1,090 px wide beside
    # the clusters panel) the pages table's last columns, Keep and Canonical, were past the
    # right edge: every text column stopped giving way at 110 px.
    result = titled_long_pages()
    panel = shown_panel(qtbot, PagesModel(), result, 1100)
    header, viewport = panel.view.horizontalHeader(), panel.view.viewport().width()
    last = header.count() - 1
    assert panel.model.headerData(last, Qt.Orientation.Horizontal) == "Canonical"
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= viewport
    qtbot.waitUntil(lambda: panel.view.horizontalScrollBar().maximum() == 0, timeout=2000)  # nothing to scroll
    # the number columns and Canonical keep their contents' width; the path keeps its first
    # folder and file name; every text column keeps at least its title's width
    contents = panel.content_widths()
    assert [c for c in range(header.count()) if header.isSectionHidden(c)] == [4, 5]  # Template lines, SimHash
    for column in (3, 6, 8):
        assert header.sectionSize(column) == contents[column]
    assert elided(panel, 0)[0].endswith("/part-16/")  # an index page is named by its folder
    for column in (1, 2, 7, 9, 10):
        assert header.sectionSize(column) >= panel.columns.header_width(column)
    assert panel.model.headerData(9, Qt.Orientation.Horizontal) == "Closest\nmatch"  # two lines, narrow
    # the path tells the rows apart: it is cut only once the other text columns have given way
    # (the real site's pages read "advance/e…y/index.html" beside a half-empty Title column)
    if header.sectionSize(0) < contents[0]:
        assert all(header.sectionSize(c) <= 110 for c in (1, 2, 7, 9, 10)), [header.sectionSize(c) for c in range(12)]
    # every column shown (the header's menu): the text columns give way down to a dozen letters
    # (84 px), no further ("Kub… 文档", "1.00…html" at 64 px read nothing); the table scrolls
    every = [a for a in panel.column_menu().actions() if a.text() == "Show All Columns"][0]
    every.trigger()
    assert not any(header.isSectionHidden(c) for c in range(header.count()))
    assert all(header.sectionSize(c) >= min(84, contents[c]) for c in (7, 10)), [
        header.sectionSize(c) for c in range(12)
    ]
    # the title, URL and closest match give way further (to 40 px) only to bring more columns into sight
    assert all(header.sectionSize(c) >= min(40, contents[c]) for c in (1, 2, 9))
    if any(header.sectionSize(c) < min(84, contents[c]) for c in (1, 2, 9)):
        last = header.count() - 1
        assert header.sectionViewportPosition(last) + header.sectionSize(last) <= panel.view.viewport().width()
    for column in (3, 4, 6, 8):
        assert header.sectionSize(column) == contents[column]


def test_a_pages_table_too_narrow_for_every_column_keeps_keep_in_sight(qtbot):
    # A 1024-px window (a pages table about 690 px wide): the text columns gave way down to their
    # titles' width ("no …ext", "Ku…文档") although the last columns stayed out of sight anyway,
    # behind a scroll bar; so they kept 110 px, and an analyst at 1024x640 (a table 672 px wide)
    # never saw Keep.  The title, URL and closest match (whole in their tooltips and the line
    # under the table) now give way further, to 40 px, when that brings more columns into
    # sight: Keep, the column the table is read for, ends within the viewport.
    result = titled_long_pages()
    for width in (690, 672):
        panel = shown_panel(qtbot, PagesModel(), result, width)
        header = panel.view.horizontalHeader()
        viewport = panel.view.viewport().width()
        keep = 10
        assert panel.model.headerData(keep, Qt.Orientation.Horizontal) == "Keep"
        assert header.sectionViewportPosition(keep) + header.sectionSize(keep) <= viewport, (width, viewport)
        contents = panel.content_widths()
        # the status and Keep keep a dozen letters; the yielding columns a few
        for column in (7, 10):
            assert header.sectionSize(column) >= min(contents[column], 84), (column, header.sectionSize(column))
        for column in (1, 2, 9):
            assert header.sectionSize(column) >= 40, (column, header.sectionSize(column))
        # the number columns stay whole
        for column in (3, 6, 8):
            assert header.sectionSize(column) == contents[column]


def test_a_table_without_yielding_columns_scrolls_instead_of_cutting_its_texts(qtbot):
    # The pairs table has no yielding column: too narrow, it scrolls, its paths not cut further.
    pages = [make_page(p, 10 + i, i) for i, p in enumerate(LONG)]
    pairs = [Pair(0, 1, scores(0.99, 1), DupType.FULL), Pair(1, 2, scores(0.98, 2), DupType.FULL)]
    result = ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())
    panel = shown_panel(qtbot, PairsModel(), result, 500)
    qtbot.waitUntil(lambda: panel.view.horizontalScrollBar().maximum() > 0, timeout=2000)  # it scrolls
    assert not PairsModel.YIELDING and {1, 2, 9} == PagesModel.YIELDING
    header = panel.view.horizontalHeader()
    assert all(header.sectionSize(c) >= 110 for c in (0, 1))


def test_the_errors_table_gives_its_spare_width_to_the_reason(qtbot):
    # Issue 20: a long reason was cut at 420 px while the file column took the spare width.
    reason = ("could not be decoded: 'utf-8' codec can't decode byte 0xe9 in position 1234: invalid "
              "continuation byte; tried the meta charset windows-1252 and the HTTP header")  # fmt: skip
    errors = [FileError("a/broken.html", reason), FileError("b/huge.html", "too large (60 MB)")]
    result = ScanResult("/scan", [make_page("ok.html", 10, 1)], errors, [], [], Thresholds(), ScanSettings())
    panel = shown_panel(qtbot, ErrorsModel(), result, 1400)
    header = panel.view.horizontalHeader()
    assert header.sectionSize(1) >= panel.view.fontMetrics().horizontalAdvance(reason)
    assert sum(header.sectionSize(c) for c in range(3)) == panel.view.viewport().width()


def test_the_errors_tab_shows_the_selected_row_s_whole_reason(qtbot):
    # Issue 20: a reason wider than its cell could not be read in full anywhere but a tooltip.
    reason = "could not be decoded: " + "a very long explanation, " * 12 + "the end"
    result = ScanResult("/scan", [make_page("ok.html", 10, 1)], [FileError("a/broken.html", reason)], [], [],
                        Thresholds(), ScanSettings())  # fmt: skip
    model = ErrorsModel()
    model.set_result(result)
    panel = TablePanel(model, with_type_filter=False, with_details=True)
    qtbot.addWidget(panel)
    panel.resize(600, 400)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.details.isVisible() and panel.details.wordWrap()
    assert panel.details.text() == "Select a row to read its whole text here."
    panel.select_first_row()
    assert panel.details.text() == f"a/broken.html\n{reason}"
    # the label wraps inside the panel: the whole reason is on screen
    assert panel.details.width() <= panel.width()
    label = panel.details
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()) > 3 * label.fontMetrics().height())


@pytest.mark.parametrize("width", [1280, 1024])
def test_the_containment_column_is_as_wide_as_qt_draws_its_widest_cell(qtbot, width):
    # At 1280x800 the real site's containment cells read "0.986 (ri… in left)": the column had
    # the width of its text and the style's margins, and the grid line took one pixel of it.
    # Qt's own measure of a column (sizeHintForColumn: the delegate's size hint of each shown
    # cell, and the grid) says what the cells need to be drawn whole.
    import dataclasses

    pages = [make_page(f"p{i}.html", 10 + i, i) for i in range(2)]
    inner = Pair(0, 1, dataclasses.replace(scores(0.5, 9, containment=0.986), contained_side="right"),
                 DupType.PARTIAL)  # fmt: skip
    result = ScanResult("/scan", pages, [], [inner] * 5, [], Thresholds(), ScanSettings())
    panel = shown_panel(qtbot, PairsModel(), result, width - 430)  # the pairs tab beside the clusters dock
    view = panel.view
    assert panel.model.cell_text(0, 4) == "0.986 (right in left)"
    assert view.showGrid()
    assert view.horizontalHeader().sectionSize(4) >= view.sizeHintForColumn(4)


def test_a_table_made_narrower_fits_its_columns_again(qtbot, long_paths):
    # A new user's walkthrough (the real site, a 1280-px window shrunk to 1024): the columns
    # were fitted once, for the width the result came at; made narrower, the table kept its wide
    # path columns and pushed Type and the content similarity out of sight behind a scroll bar.
    panel = shown_panel(qtbot, PairsModel(), long_paths, 1400)
    header = panel.view.horizontalHeader()
    wide = [header.sectionSize(c) for c in range(header.count())]
    panel.resize(700, 400)
    qtbot.waitUntil(lambda: panel.view.viewport().width() < 700)
    viewport = panel.view.viewport().width()
    # both paths, the type and the content similarity are in sight without scrolling sideways
    assert header.sectionViewportPosition(3) + header.sectionSize(3) <= viewport
    assert header.sectionSize(0) < wide[0] and header.sectionSize(1) < wide[1]
    assert [header.sectionSize(c) for c in (2, 3)] == wide[2:4]  # the type and the score keep their width
    assert elided(panel, 0)[0] == "news.16/…/part-16/"  # the path keeps its first folder and name
    # wide again: the columns are as they were fitted at that width
    panel.resize(1400, 400)
    qtbot.waitUntil(lambda: header.sectionSize(0) == wide[0])
    assert [header.sectionSize(c) for c in range(header.count())] == wide


def test_a_narrow_status_cell_keeps_its_beginning(qtbot, make_page):
    # At 1024x640 (and at 1280x800) a redirect page's Status read "redir…s to)": the middle
    # elision cut the words that say what the status is; the cell is now cut at its end.
    import dataclasses

    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QProxyStyle

    target = make_page("v1.16.x/advance/dpdk/index.html", 300, 1)
    redirect = dataclasses.replace(make_page("advance/dpdk/index.html", 5, 2), redirect="../../v1.16.x/advance/dpdk/")
    result = ScanResult("/scan", [redirect, target], [], [], [], Thresholds(), ScanSettings())

    class Drawn(QProxyStyle):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[tuple[str, Qt.TextElideMode, int, QFontMetrics]] = []

        def drawControl(self, element, option, painter, widget=None) -> None:  # noqa: N802 (Qt API)
            if element == QStyle.ControlElement.CE_ItemViewItem and option.index.column() == 7:
                self.cells.append((option.text, option.textElideMode, option.rect.width(), QFontMetrics(option.font)))
            super().drawControl(element, option, painter, widget)

    panel = shown_panel(qtbot, PagesModel(), result, 600)
    status = panel.model.display(0, 7)
    assert status.startswith("redirects to ") and len(status) > 30, status
    panel.view.horizontalHeader().resizeSection(7, 130)  # narrower than the status
    style = Drawn()
    panel.view.setStyle(style)
    panel.view.viewport().grab()
    [(text, mode, width, metrics)] = [cell for cell in style.cells if cell[0] == status]
    assert metrics.horizontalAdvance(text) > width  # the cell is cut
    assert mode == Qt.TextElideMode.ElideRight
    assert metrics.elidedText(text, mode, width - 8).startswith("redirects")


def test_the_pages_tab_says_the_selected_page_in_full_and_cuts_its_path_cells_by_the_path_rule(qtbot):
    # The real site at 1280x800: the pages' columns read Title "使用 … 文档", URL "http…bpf/",
    # Closest match "1.00…html", Keep "dupl…html", and (unlike the Errors tab) no line under the
    # table said the selected row in full.  Now the line does, with each column named, and a
    # cell ending with a path keeps its prefix and the path's document name.
    from dedup_gui.core.views.paths import split_path_tail
    from dedup_gui.gui.tables.column_widths import PathTailDelegate

    doc = "advance/accelerate-intra-node-tcp-with-ebpf/index.html"
    pages = [
        make_page(f"v1.16.x/{doc}", 800, 1, title="使用 eBPF 加速节点内 TCP 通信 - Kube-OVN 文档",
                  url=f"https://kubeovn.github.io/docs/v1.16.x/{doc[:-10]}"),
        make_page(f"v1.10.x/{doc}", 800, 1, title="使用 eBPF 加速节点内 TCP 通信 - Kube-OVN 文档"),
    ]  # fmt: skip
    result = ScanResult("/scan", pages, [], [Pair(0, 1, scores(1.0, 0), DupType.FULL)], [], Thresholds(),
                        ScanSettings())  # fmt: skip
    model = PagesModel()
    model.set_result(result)
    panel = TablePanel(model, with_details=True)
    qtbot.addWidget(panel)
    panel.resize(860, 400)  # the pages table's width at 1280x800
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.details.isVisible() and panel.select_record(1)
    assert panel.details.text() == (
        f"v1.10.x/{doc}  ·  使用 eBPF 加速节点内 TCP 通信 - Kube-OVN 文档\n"
        f"Closest match: 1.000 v1.16.x/{doc}   Keep: duplicate of v1.16.x/{doc}   Canonical: none"
    )
    # the path after "duplicate of " and "1.000 " is cut by the path rule, the prefix kept
    assert split_path_tail(f"duplicate of v1.16.x/{doc}") == ("duplicate of ", f"v1.16.x/{doc}")
    assert split_path_tail(f"1.000 v1.16.x/{doc}") == ("1.000 ", f"v1.16.x/{doc}")
    assert split_path_tail("https://kubeovn.github.io/docs/v1.16.x/advance/") == (
        "https://kubeovn.github.io/",
        "docs/v1.16.x/advance/",
    )
    assert split_path_tail("kept") is None
    for column in (2, 9, 10):
        assert isinstance(panel.view.itemDelegateForColumn(column), PathTailDelegate)
