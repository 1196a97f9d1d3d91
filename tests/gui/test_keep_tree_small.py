"""The keep clusters tree in the clusters panel of a 1024x640 window (an analyst on the real
site, 8 versions in Chinese and English): the pages of one keep cluster both read "v1.…/zh/",
and two keep clusters of one document read alike ("#3 foo/bar/" and "#17 foo/bar/")."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from PySide6.QtCore import Qt

from dedup_gui.core.model import DupType, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.gui.tables.clusters_view import ClustersView
from tests.gui.conftest import make_page, scores
from tests.gui.test_path_cells import DrawnTexts

EBPF = "advance/accelerate-intra-node-tcp-with-ebpf/index.html"
RECOVER = "ops/recover-db/index.html"
#: The clusters panel's width in a 1024x640 window (30% of it).
PANEL_WIDTH = 302


def two_documents() -> ScanResult:
    """The ebpf document in 8 versions and, in v1.10.x and v1.11.x, in Chinese too (one keep
    cluster), and the recover-db document whose text changed after v1.15.x (two keep clusters)."""
    versions = [f"v1.{n}.x" for n in range(10, 18)]
    ebpf = [f"{v}/{EBPF}" for v in versions] + [f"{v}/zh/{EBPF}" for v in versions[:2]]
    early = [f"{v}/{RECOVER}" for v in versions[:6]]
    late = [f"{v}/{RECOVER}" for v in versions[6:]]
    pages, pairs = [], []
    for group, simhash in ((ebpf, 0x1111), (early, 0x2222), (late, 0x4444)):
        base = len(pages)
        # Chinese text: the site's default pages are Chinese, so its zh/ folder holds copies of them
        pages += [replace(make_page(p, 500, simhash, title="t", text=f"使用 eBPF 加速节点内 TCP 通信 {simhash}"),
                          sha1=f"{simhash:040x}", text_hash=f"{simhash:040x}") for p in group]  # fmt: skip
        pairs += [Pair(base + i, base + j, scores(1.0, 0, 0.99, 1.0, 0.99), DupType.FULL)
                  for i, j in combinations(range(len(group)), 2)]  # fmt: skip
    return ScanResult("/scan", pages, [], pairs, [], Thresholds(), ScanSettings())


def drawn_tree(qtbot) -> tuple[ClustersView, DrawnTexts]:
    view = ClustersView()
    qtbot.addWidget(view)
    view.set_result(two_documents())
    view.resize(PANEL_WIDTH, 900)
    view.show()
    qtbot.waitExposed(view)
    view.tree.expandAll()
    style = DrawnTexts()
    view.tree.setStyle(style)
    view.tree.viewport().grab()
    return view, style


def test_a_keep_cluster_s_pages_read_apart_in_a_1024x640_panel(qtbot):
    # "v1.10.x/zh/" and "v1.11.x/zh/", cut by the path rule, both read "v1.…/zh/"; now the part
    # that tells them apart stays ("…10.x/zh/"), and the whole path is in the tooltip.
    view, style = drawn_tree(qtbot)
    model = view.tree.model()
    pages = [(text, width, metrics) for top_level, text, _mode, width, metrics in style.cells if not top_level]
    # every page row drawn whole (the style cuts nothing more), its whole path in its tooltip
    assert all(metrics.horizontalAdvance(text) <= width for text, width, metrics in pages), pages
    top = model.index(0, 0)
    tips = {model.index(r, 0, top).data(Qt.ItemDataRole.ToolTipRole) for r in range(model.rowCount(top))}
    assert "v1.10.x/zh/" + EBPF in tips and len(tips) == 10
    rows = [text for top_level, text, *_ in style.cells if not top_level]
    assert len(rows) == 18
    ebpf = rows[:10]  # the first keep cluster: the kept page first
    assert len(set(ebpf)) == 10, ebpf  # no two pages read alike
    assert sum("10" in r and "zh" in r for r in ebpf) == 1 and sum("11" in r and "zh" in r for r in ebpf) == 1, ebpf


def test_two_keep_clusters_of_one_document_say_which_versions_each_holds(qtbot):
    # Both read "#2 ops/recover-db/" and "#3 ops/recover-db/"; now each says its versions, in
    # its title, its tooltip and the line under the tree.
    view, _style = drawn_tree(qtbot)
    model = view.tree.model()
    titles = sorted(model.index(r, 0).data() for r in range(model.rowCount()))
    assert titles == [
        "#1 advance/accelerate-intra-node-tcp-with-ebpf/",  # one keep cluster: its document is enough
        "#2 ops/recover-db/ in v1.10.x–v1.15.x",
        "#3 ops/recover-db/ in v1.16.x, v1.17.x",
    ], titles
    recover = [r for r in range(model.rowCount()) if "recover" in model.index(r, 0).data()]
    tip = model.index(recover[0], 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Keep cluster 2: ops/recover-db/index.html in v1.10.x–v1.15.x\n"), tip
    # and the versions stay in sight in the panel of a 1024x640 window? the title is cut there,
    # whole in its tooltip; a wider panel (1280x800) shows them
    view.resize(440, 900)
    style = DrawnTexts()
    view.tree.setStyle(style)
    view.tree.viewport().grab()
    drawn = [text for top_level, text, *_ in style.cells if top_level and "recover" in text]
    assert any(t.endswith(" in v1.16.x, v1.17.x") for t in drawn), drawn


def test_a_narrow_panel_gives_the_pages_column_s_room_to_the_names(qtbot):
    # At 1024x640 the names' column got 112 px and every title read "#1 acc…pf/": the "Pages"
    # column (the "Keep" column's "drop N" plus one) now gives its room in a narrow panel.
    view, style = drawn_tree(qtbot)
    header = view.tree.header()
    assert header.isSectionHidden(1) and header.sectionSize(0) >= 130
    title = [text for top_level, text, *_ in style.cells if top_level][0]
    assert title.startswith("#1 acceler") and title.endswith("ebpf/"), title  # was "#1 acc…pf/"
    assert view.tree.model().index(0, 1).data() == "10"  # still in the model (and the tooltip says it)
    view.resize(440, 900)  # a wider panel shows it again
    qtbot.waitUntil(lambda: not header.isSectionHidden(1))
    view.resize(PANEL_WIDTH, 900)
    qtbot.waitUntil(lambda: header.isSectionHidden(1))
    view.set_mode("groups")  # a group's page count is said nowhere else
    assert not header.isSectionHidden(1)
