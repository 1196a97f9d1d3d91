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
