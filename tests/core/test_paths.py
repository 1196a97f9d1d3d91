"""Paths that tell a cluster's pages apart: "news.16…ex.html" three times in one cluster showed
nothing; the folders they all share are dropped instead."""

from dedup_gui.core.views.paths import cluster_labels, distinguishing_paths


def test_the_shared_folders_are_dropped():
    paths = [
        "news.163.com/2020/05/a/related/index.html",
        "news.163.com/2020/05/b/index.html",
        "news.163.com/2020/05/a/index.html",
    ]
    assert distinguishing_paths(paths) == ["…/a/related/index.html", "…/b/index.html", "…/a/index.html"]
    assert cluster_labels(tuple(paths)) == tuple(distinguishing_paths(paths))


def test_nothing_shared_or_one_page_is_left_as_it_is():
    assert distinguishing_paths(["a.html", "b.html"]) == ["a.html", "b.html"]
    assert distinguishing_paths(["site/a.html", "print/a.html"]) == ["site/a.html", "print/a.html"]
    assert distinguishing_paths(["v1/x/a.html"]) == ["v1/x/a.html"]
    # a file beside the shared folder keeps its folder: the common part is of folders only
    assert distinguishing_paths(["d/a.html", "d/e/b.html"]) == ["…/a.html", "…/e/b.html"]


def test_table_path_cells_leave_out_the_folders_every_page_shares():
    # issue 20: "docs/v1.10/en/guide/install/index.html" and its siblings all showed as
    # "d…l/index.html"; the cells now start at the version, sorting and filtering read the whole path
    from dedup_gui.core.model import DupType, Pair, ScanResult, ScanSettings, Thresholds
    from dedup_gui.core.views.paths import shared_folders
    from dedup_gui.core.views.tables import PagesTable, PairsTable
    from tests.gui.conftest import make_page, scores

    paths = [f"docs/v1.{n}/en/index.html" for n in (10, 11, 12)]
    assert shared_folders(paths) == "docs/"
    assert shared_folders(paths[:1]) == "" and shared_folders(["a/x.html", "b/x.html"]) == ""
    pages = [make_page(p, 10, 1) for p in paths]
    result = ScanResult("/s", pages, [], [Pair(0, 1, scores(1.0, 0), DupType.FULL)], [], Thresholds(), ScanSettings())
    pairs = PairsTable()
    pairs.set_result(result)
    assert (pairs.cell_text(0, 0), pairs.cell_text(0, 1)) == ("v1.10/en/index.html", "v1.11/en/index.html")
    assert pairs.tooltip(0, 1) == "docs/v1.11/en/index.html" and pairs.tooltip(0, 3) == ""
    table = PagesTable()
    table.set_result(result)
    assert table.cell_text(1, 0) == "v1.11/en/index.html" and table.tooltip(1, 0) == paths[1]
    table.set_text_filter("docs/v1.11")
    assert table.row_count() == 1


def test_a_clusters_members_show_what_tells_them_apart_and_its_title_the_document():
    # The real site at 1280x800: every keep cluster's title read "#1 canonical, version" (the
    # rule, the same on 309 clusters), and its rows "v1.10.x/…/acce…bpf/", "v1.11.x/zh/…/ac…f/":
    # the version and the document's name both elided.  The rows now show the part that differs,
    # the title the part they share.
    from dedup_gui.core.views.keep_columns import keep_cluster_document, keep_cluster_title
    from dedup_gui.core.views.paths import TOP_FOLDER, member_labels, shared_document

    doc = "advance/accelerate-intra-node-tcp-with-ebpf/index.html"
    paths = (f"v1.16.x/{doc}", f"v1.10.x/{doc}", f"v1.10.x/zh/{doc}", f"v1.11.x/zh/{doc}")
    assert member_labels(paths) == ("v1.16.x/", "v1.10.x/", "v1.10.x/zh/", "v1.11.x/zh/")
    assert keep_cluster_title(1, keep_cluster_document(paths, 0)) == "#1 advance/accelerate-intra-node-tcp-with-ebpf/"
    # the page at the document's own path has no folder before it
    assert member_labels(("a.html", "print/a.html")) == (TOP_FOLDER, "print/")
    # folders all those parts share are marked, as the tables do
    assert member_labels(("docs/v1.10/en/a.html", "docs/v1.11/en/a.html")) == ("…/v1.10/", "…/v1.11/")
    # only "index.html" shared, or different file names: no document; the kept page names it
    assert shared_document(["news/a/index.html", "news/b/index.html"]) == ""
    assert keep_cluster_title(7, keep_cluster_document(("x/a.html", "y/b.html"), 1)) == "#7 y/b.html"
    assert member_labels(("x/a.html", "y/b.html")) == ("x/a.html", "y/b.html")


def test_a_keep_cluster_of_the_versions_home_pages_is_named_so():
    # The real site: "#76 v1.12.x/" was the versions' home pages, and read like the whole folder.
    from dedup_gui.core.views.keep_columns import HOME_PAGE, keep_cluster_document, keep_cluster_title

    homes = ("v1.12.x/index.html", "v1.13.x/index.html", "v1.12.x/zh/index.html")
    assert keep_cluster_title(76, keep_cluster_document(homes, 0)) == f"#76 {HOME_PAGE}"
    # index pages of ordinary folders are no home pages: the kept page names the cluster
    assert keep_cluster_document(("news/a/index.html", "news/b/index.html"), 0) == "news/a/index.html"
