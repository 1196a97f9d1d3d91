"""Path cells, column widths and empty tables in the window (issue 20, items 2 and 5, as a
new user met them): a folder of docs/v1.10/..., docs/v1.11/... showed "d…l/index.html" in every
cell, the clusters' page names showed as "…", a table enlarged on another tab kept narrow
columns, and an empty folder left the tables blank."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QProxyStyle, QStyle

from dedup_gui.core.model import Cluster, DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.elide import elide_path
from dedup_gui.gui.main_window import MainWindow
from dedup_gui.gui.tables.models import ErrorsModel, PagesModel, PairsModel
from dedup_gui.gui.tables.table_panel import TablePanel
from tests.gui.conftest import make_page, scores

LONG = 120_000  # ms
VERSIONS = [f"v1.{n}" for n in range(10, 16)]
NESTED = [f"docs/{v}/en/guide/install/index.html" for v in VERSIONS]


def nested_result() -> ScanResult:
    pages = [make_page(p, 500, 0x1234) for p in NESTED]
    pairs = [Pair(i, j, scores(1.0, 0, 0.99, 1.0, 0.99), DupType.FULL)
             for i in range(len(pages)) for j in range(i + 1, len(pages))]  # fmt: skip
    clusters = [Cluster(1, tuple(range(len(pages))), frozenset({DupType.FULL}))]
    return ScanResult("/scan", pages, [], pairs, clusters, Thresholds(), ScanSettings())


@pytest.fixture
def window(qtbot, fake_scan, tmp_path):
    def make(width: int = 0, height: int = 0, result: ScanResult | None = None) -> MainWindow:
        win = MainWindow(scan_fn=fake_scan(result=result or nested_result()))
        qtbot.addWidget(win)
        if width:
            win.resize(width, height)
        win.show()
        qtbot.waitExposed(win)
        with qtbot.waitSignal(win.scan_ended, timeout=LONG):
            win.start_scan(tmp_path)
        qtbot.waitUntil(lambda: not win.is_busy() and not win.is_showing_result(), timeout=LONG)
        made.append(win)
        return win

    made: list[MainWindow] = []
    yield make
    for win in made:
        win.close()


def visible_text(panel: TablePanel, row: int, column: int) -> str:
    """A path cell as the path delegate draws it at its column's width."""
    view, model = panel.view, panel.model
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1) + 2
    width = view.horizontalHeader().sectionSize(column) - margin
    return elide_path(model.index(row, column).data(), view.fontMetrics(), width)


def widths(panel: TablePanel) -> list[int]:
    header = panel.view.horizontalHeader()
    return [header.sectionSize(c) for c in range(header.count())]


def test_a_nested_folder_at_1280x800_shows_the_versions_and_the_whole_path_in_tooltips(qtbot, window):
    win = window(1280, 800)
    pairs = win.pairs_panel
    # the cells leave out "docs/", the folder all pages share, and keep the version and the
    # page's name when they elide: "v1.11/…/install/index.html", or for want of room the index
    # page's folder, "v1.11/…/install/" (before: "d…l/index.html" in every cell)
    row = next(r for r in range(pairs.model.rowCount()) if pairs.model.pages_of(r)[0].path == NESTED[1])
    shown = visible_text(pairs, row, 0)
    assert shown.startswith("v1.11/") and shown.endswith(("install/index.html", "install/"))
    assert pairs.model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole) == NESTED[1]
    assert pairs.model.index(row, 0).data() == "v1.11/en/guide/install/index.html"
    for r in range(pairs.model.rowCount()):  # every cell tells its two pages apart
        left, right = visible_text(pairs, r, 0), visible_text(pairs, r, 1)
        assert left != right and left.split("/")[0] in VERSIONS and right.split("/")[0] in VERSIONS
    # number cells need no tooltip; a two-line number column is sized to "similarity", not ~114 px
    assert pairs.model.index(row, 3).data(Qt.ItemDataRole.ToolTipRole) is None
    assert widths(pairs)[3] <= 90

    win.tabs.setCurrentWidget(win.pages_panel)
    pages = win.pages_panel
    assert "v1.11" in visible_text(pages, 1, 0)
    assert pages.model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole) == NESTED[1]
    # sorting and filtering still read the whole path
    pages.text_filter.setText("docs/v1.11/")
    pages.apply_text_filter()
    assert pages.model.rowCount() == 1


def test_the_clusters_tree_gives_its_room_to_the_page_names(qtbot, window):
    win = window()  # the default size, no remembered layout
    tree = win.clusters_view.tree
    header = tree.header()
    sizes = [header.sectionSize(c) for c in range(header.count())]
    # before: 42 px for the names ("…") and 200 px for "kept (longest main content)"
    assert sizes[0] > sum(sizes[1:])
    tree.expandAll()
    model = tree.model()
    name = model.index(1, 0, model.index(0, 0)).data()  # a page row: "…/v1.10/" (what tells it apart)
    room = sizes[0] - 2 * tree.indentation()
    shown = tree.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, room)
    assert "v1.10" in shown and shown == name, shown


def test_a_table_enlarged_on_another_tab_fills_its_width_when_shown(qtbot, window):
    win = window(1024, 700)
    pages = win.pages_panel
    win.tabs.setCurrentWidget(pages)  # fitted at 1024 px
    win.tabs.setCurrentWidget(win.pairs_panel)
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: sum(widths(win.pairs_panel)) == win.pairs_panel.view.viewport().width())
    win.tabs.setCurrentWidget(pages)
    # the pages' columns fill the wider table (before: they kept the 1024-px widths)
    qtbot.waitUntil(lambda: sum(widths(pages)) == pages.view.viewport().width(), timeout=2000)
    assert widths(pages)[0] == max(widths(pages))


def test_a_table_first_shown_after_a_resize_is_fitted_to_the_new_width(qtbot, window):
    win = window(1024, 700)
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: win.pairs_panel.view.viewport().width() > 1200)
    win.tabs.setCurrentWidget(win.pages_panel)
    pages = win.pages_panel
    qtbot.waitUntil(lambda: sum(widths(pages)) == pages.view.viewport().width(), timeout=2000)


def empty_panels(qtbot, result: ScanResult) -> dict[str, TablePanel]:
    panels = {}
    for name, model in (("pairs", PairsModel()), ("pages", PagesModel()), ("errors", ErrorsModel())):
        model.set_result(result)
        panel = TablePanel(model)
        qtbot.addWidget(panel)
        panel._emit_counts()
        panels[name] = panel
    return panels


def test_empty_tables_say_why(qtbot, make_page):
    # before: "Pairs (0)" and "Pages (0)" were blank tables
    empty = ScanResult("/empty", [], [], [], [], Thresholds(), ScanSettings())
    panels = empty_panels(qtbot, empty)
    assert panels["pages"].empty_text() == "No pages: the folder holds no page that could be read"
    assert panels["pairs"].empty_text() == "No pairs: the folder holds no page that could be read"
    assert panels["errors"].empty_text() == "No errors: every file found was read"
    assert panels["pairs"].empty_label.text() == panels["pairs"].empty_text()
    one = ScanResult("/one", [make_page("a.html", 10, 1)], [], [], [], Thresholds(), ScanSettings())
    panels = empty_panels(qtbot, one)
    assert panels["pairs"].empty_text() == "No pairs: the folder holds one page"
    assert panels["pages"].empty_text() == ""  # one row
    assert not panels["pages"].empty_label.isVisibleTo(panels["pages"])
    assert panels["pairs"].empty_label.isVisibleTo(panels["pairs"])


def test_an_elided_path_keeps_its_last_folder_while_it_fits(qtbot):
    # pages of one version folder that differ only in their last folder (install/, config/)
    # read alike as "v1.10/…/index.html"; the last folders stay whole while they fit
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    fm = QFontMetrics(QApplication.font())
    path = "v1.10/docs/guide/install/setup.html"
    assert elide_path(path, fm, fm.horizontalAdvance("v1.10/…/install/setup.html")) == "v1.10/…/install/setup.html"
    roomier = fm.horizontalAdvance("v1.10/…/guide/install/setup.html")
    assert elide_path(path, fm, roomier) == "v1.10/…/guide/install/setup.html"
    # a language folder after the first stays with it: it tells a page from its translation
    path = "v1.10/en/guide/install/setup.html"
    assert elide_path(path, fm, fm.horizontalAdvance("v1.10/en/…/install/setup.html")) == (
        "v1.10/en/…/install/setup.html"
    )
    # an index page that does not fit whole drops "index.html" first, which names no page
    path = "v1.10/en/guide/install/index.html"
    assert elide_path(path, fm, fm.horizontalAdvance("v1.10/…/install/index.html")) == "v1.10/en/guide/install/"
    # no room for the last folder and the file name: an index page is named by its folder, as
    # its address is ("v1.10/…/index.html" named every page of a mirrored site alike)
    narrow = elide_path(path, fm, fm.horizontalAdvance("v1.10/…/index.html") + 1)
    assert narrow.startswith("v1.10/") and narrow.endswith("/install/") and "…" in narrow, narrow
    assert elide_path(path, fm, fm.horizontalAdvance("v1.10/en/guide/install/")) == "v1.10/en/guide/install/"
    # a page that is not an index page keeps its file name whole
    assert elide_path("v1.10/en/guide/setup.html", fm, fm.horizontalAdvance("v1.10/…/setup.html")) == (
        "v1.10/…/setup.html"
    )


def test_index_pages_of_a_mirror_read_apart_in_a_narrow_column(qtbot):
    # The real site at 1280x800: every row of the pairs table read "v1.10.x/…/index.html"
    # (147 px); the folder that names each page now shows, elided in its middle if need be.
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    from dedup_gui.gui.elide import short_path

    fm = QFontMetrics(QApplication.font())
    paths = ["v1.10.x/advance/accelerate-intra-node-tcp-with-ebpf/index.html", "v1.10.x/advance/dhcp/index.html",
             "v1.10.x/advance/dpdk/index.html", "v1.10.x/guide/webhook/index.html"]  # fmt: skip
    width = fm.horizontalAdvance("v1.10.x/…/accelerat…")
    shown = [elide_path(p, fm, width) for p in paths]
    assert len(set(shown)) == 4 and all(s.startswith("v1.10.x/") and s.endswith("/") for s in shown), shown
    assert [s.rpartition("/")[0].rpartition("/")[2] for s in shown[1:]] == ["dhcp", "dpdk", "webhook"], shown
    assert shown[0].startswith("v1.10.x/…/acc") and shown[0].endswith("…bpf/"), shown
    assert all(fm.horizontalAdvance(s) <= width for s in shown)
    assert short_path(paths[1]) == "v1.10.x/…/dhcp/" and short_path("v1.10/install/index.html") == "v1.10/install/"
    # a page and its copy in a language folder read apart (a tester saw one pair read
    # "v1.10.x/…/accele…-ebpf/" on both sides: the zh/ between was elided)
    width = fm.horizontalAdvance("v1.10.x/…/accele…-ebpf/")
    left = elide_path(paths[0], fm, width)
    right = elide_path("v1.10.x/zh/advance/accelerate-intra-node-tcp-with-ebpf/index.html", fm, width)
    assert right.startswith("v1.10.x/zh/") and not left.startswith("v1.10.x/zh/") and left != right


#: Pages of a mirrored documentation site (the real site's layout): every page is an index.html.
MIRRORED = [f"{v}/{lang}advance/accelerate-intra-node-tcp-with-ebpf/index.html"
            for v in ("v1.10.x", "v1.11.x", "v1.12.x") for lang in ("", "zh/")]  # fmt: skip


class DrawnTexts(QProxyStyle):
    """A style that records the text, elision mode and rectangle of every item view cell it
    draws, as the delegate hands them to the style (which elides what does not fit)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[int, str, Qt.TextElideMode, int, QFontMetrics]] = []

    def drawControl(self, element, option, painter, widget=None) -> None:  # noqa: N802 (Qt API)
        if element == QStyle.ControlElement.CE_ItemViewItem and option.index.column() == 0:
            top = not option.index.parent().isValid()
            self.cells.append((top, option.text, option.textElideMode, option.rect.width(), QFontMetrics(option.font)))
        super().drawControl(element, option, painter, widget)


@pytest.mark.parametrize("mode", ["keep", "groups"])
def test_the_cluster_trees_page_rows_name_index_pages_by_their_folder(qtbot, mode):
    # At 1280x800 every page row of the real site read "v1.10.x/a…ndex.html" (Qt's middle
    # elision kept the "index.html" of every page and cut the document's name); the tables
    # draw paths by elide_path, which names an index page by its folder ("v1.10.x/…/acc…ebpf/").
    from dedup_gui.gui.tables.clusters_view import ClustersView

    pages = [make_page(p, 500, 0x1234) for p in MIRRORED]
    pairs = [Pair(i, j, scores(1.0, 0, 0.99, 1.0, 0.99), DupType.FULL)
             for i in range(len(pages)) for j in range(i + 1, len(pages))]  # fmt: skip
    clusters = [Cluster(1, tuple(range(len(pages))), frozenset({DupType.FULL}))]
    result = ScanResult("/scan", pages, [], pairs, clusters, Thresholds(), ScanSettings())
    view = ClustersView()
    qtbot.addWidget(view)
    view.set_mode(mode)
    view.set_result(result)
    view.resize(380, 400)  # the clusters dock's width at 1280x800
    view.show()
    qtbot.waitExposed(view)
    view.tree.expandAll()
    style = DrawnTexts()
    view.tree.setStyle(style)
    view.tree.viewport().grab()  # paint the rows now
    pages_drawn = [(text, width, metrics) for top, text, _mode, width, metrics in style.cells if not top]
    assert len(pages_drawn) == len(MIRRORED)
    for text, width, metrics in pages_drawn:
        # the version whole (and a language folder after it: the rows of one keep cluster differ
        # there), the document's folder named by its two ends, no "index.html"; a keep
        # cluster's rows show only what tells them apart (the version and language folders)
        assert text.split("/")[0] in {"v1.10.x", "v1.11.x", "v1.12.x"}, text
        if mode == "keep":
            assert text in {"v1.10.x/", "v1.11.x/", "v1.12.x/"}, text
        else:
            assert "/…/a" in text and text.endswith("f/") and "index.html" not in text, text
        assert metrics.horizontalAdvance(text) <= width  # drawn whole: the style cuts nothing more
    # every page row reads apart from the others: version and language whole
    texts = [text for text, _width, _metrics in pages_drawn]
    if mode == "keep":  # two clusters (the languages are other documents), the language in a title
        titles = [model_title for top, model_title, _mode, _width, _metrics in style.cells if top]
        assert sorted(texts) == ["v1.10.x/", "v1.10.x/", "v1.11.x/", "v1.11.x/", "v1.12.x/", "v1.12.x/"], texts
        assert sum(t.startswith("#") and " zh/" in t for t in titles) == 1, titles
    else:
        assert len(set(texts)) == len(MIRRORED) and sum("/zh/" in t for t in texts) == 3, texts
    # the group rows keep their right elision ("Group 1 (full…")
    assert {elide for top, _text, elide, _width, _metrics in style.cells if top} == {Qt.TextElideMode.ElideRight}
    # each page row's tooltip is its whole path
    model = view.tree.model()
    tops = [model.index(g, 0) for g in range(model.rowCount())]
    tips = [
        model.index(r, 0, top).data(Qt.ItemDataRole.ToolTipRole) for top in tops for r in range(model.rowCount(top))
    ]
    assert sorted(tips) == sorted(MIRRORED)


def test_keep_cluster_titles_are_read_whole_in_the_clusters_panel_at_1280(qtbot):
    # A new user's walkthrough (the real site at 1280x800, a clusters panel some 380 px wide):
    # every keep cluster's title read "Keep cluster 1 (canonic…"; the 309th read "Keep cluster
    # 309 (can…".  The title now names the rule's criteria in a word or two ("#309 canonical,
    # version"): drawn whole, from the first cluster to the last.
    from dedup_gui.gui.tables.clusters_view import ClustersView

    pages, pairs = [], []
    for n in range(309):  # the real site's number of keep clusters
        base = len(pages)
        pages += [
            make_page(f"v1.16.x/doc-{n}/index.html", 500, n, url=f"https://x.example/v1.16.x/doc-{n}/"),
            make_page(f"v1.15.x/doc-{n}/index.html", 500, n, url=f"https://x.example/v1.15.x/doc-{n}/"),
            make_page(f"v1.10.x/doc-{n}/index.html", 500, n),  # no canonical URL: the canonical rule drops it
        ]
        pairs += [Pair(base + i, base + j, scores(1.0, 0, 0.99, 1.0, 0.99), DupType.FULL)
                  for i, j in ((0, 1), (0, 2), (1, 2))]  # fmt: skip
    result = ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())
    view = ClustersView()
    qtbot.addWidget(view)
    view.set_result(result)
    model = view.tree.model()
    assert model.rowCount() == 309
    assert model.index(0, 0).data() == "#1 doc-0/"  # the document the cluster is about
    view.resize(380, 400)  # the clusters dock's width at 1280x800
    view.show()
    qtbot.waitExposed(view)
    style = DrawnTexts()
    view.tree.setStyle(style)
    margin = 2 * (view.tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view.tree) + 1)
    for row in (0, 308):  # the first title and the widest number
        view.tree.scrollTo(model.index(row, 0))
        style.cells.clear()
        view.tree.viewport().grab()
        drawn = {text: (width, metrics) for top, text, _mode, width, metrics in style.cells if top}
        title = model.index(row, 0).data()
        width, metrics = drawn[title]
        assert metrics.horizontalAdvance(title) <= width - margin, (title, width)


@pytest.mark.parametrize("panel_width", [380, 340])
def test_a_keep_clusters_title_names_its_document_drawn_from_its_number(qtbot, panel_width):
    # The real site at 1280x800 (a clusters panel ~380 px) and 1024x640: titles read "#1
    # canonical, version" to "#309 canonical, version" and told no cluster apart.  The title now
    # names the document ("#1 advance/accelerate-intra-node-tcp-with-ebpf/"), drawn from its
    # number with the path elided as paths are (its slug's two ends), and the rows say only
    # their version folders.
    from dedup_gui.gui.tables.clusters_view import ClustersView

    doc = "advance/accelerate-intra-node-tcp-with-ebpf/index.html"
    versions = [f"v1.{n}.x" for n in range(10, 17)]
    pages = [make_page(f"{v}/{doc}", 500, 0x1234) for v in versions]
    pairs = [Pair(i, j, scores(1.0, 0, 0.99, 1.0, 0.99), DupType.FULL)
             for i in range(len(pages)) for j in range(i + 1, len(pages))]  # fmt: skip
    result = ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())
    view = ClustersView()
    qtbot.addWidget(view)
    view.set_result(result)
    view.resize(panel_width, 400)
    view.show()
    qtbot.waitExposed(view)
    view.tree.expandAll()
    model = view.tree.model()
    assert model.index(0, 0).data() == "#1 advance/accelerate-intra-node-tcp-with-ebpf/"
    assert "newest version folder" in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)  # the rule
    style = DrawnTexts()
    view.tree.setStyle(style)
    view.tree.viewport().grab()
    titles = [(text, width, metrics) for top, text, _mode, width, metrics in style.cells if top and text]
    title, width, metrics = titles[0]
    # the number, then the document's name by its two ends ("#1 advance/ac…f/" told none apart)
    # (its first folder while the name keeps half the room)
    assert title.startswith("#1 advance/acc" if panel_width == 380 else "#1 acc") and title.endswith("ebpf/"), title
    assert metrics.horizontalAdvance(title) <= width, title
    rows = sorted(text for top, text, _mode, _width, _metrics in style.cells if not top)
    assert set(rows) == {f"{v}/" for v in versions}
