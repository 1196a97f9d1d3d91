"""What a keep cluster holds in a few words (its title's suffix), and the short labels of its
pages: on the real site 84 of 197 documents had two or more keep clusters that read alike, and
two pages of one cluster read "v1.…/zh/" in a narrow panel."""

from __future__ import annotations

from dedup_gui.core.views.cluster_span import cluster_span, folder_run, member_heads
from dedup_gui.core.views.keep_columns import keep_cluster_title
from dedup_gui.core.views.paths import compact_member_labels, member_labels

DOC = "ops/recover-db/index.html"


def test_the_folders_of_a_cluster_are_summed_up_from_its_paths_alone():
    versions = [f"v1.{n}.x" for n in range(10, 18)]
    early = tuple(f"{v}/{DOC}" for v in versions[:6]) + (f"v1.10.x/zh/{DOC}",)
    late = tuple(f"{v}/{DOC}" for v in versions[6:])
    assert cluster_span(early) == "v1.10.x–v1.15.x (also zh)"  # a consecutive run, Chinese copies too
    assert cluster_span(late) == "v1.16.x, v1.17.x"
    assert keep_cluster_title(2, DOC, cluster_span(early)) == "#2 ops/recover-db/ in v1.10.x–v1.15.x (also zh)"
    assert keep_cluster_title(3, DOC) == "#3 ops/recover-db/"  # no span: the document alone
    # no version names are known: years, or any numbered folder, read the same way
    assert cluster_span(("2019/a.html", "2020/a.html", "2021/a.html")) == "2019–2021"
    assert cluster_span(("docs/r9/a.html", "docs/r10/a.html")) == "r9, r10"  # by number, not by letter
    assert folder_run(["a", "c", "b", "d"]) == "a … d (4 folders)"
    assert folder_run(["v1.10.x", "v1.12.x", "v1.13.x"]) == "v1.10.x, v1.12.x, v1.13.x"  # not consecutive
    # nothing to say: one page, different file names, or the same folders
    assert cluster_span((f"v1.10.x/{DOC}",)) == ""
    assert cluster_span(("v1.10.x/a.html", "v1.11.x/b.html")) == ""
    assert member_heads(("a/x.html", "b/c/x.html")) == ["a/", "b/c/"]


def test_short_member_labels_keep_what_tells_the_pages_apart():
    paths = tuple(f"{v}/{DOC}" for v in ("v1.16.x", "v1.10.x", "v1.10.x/zh", "v1.11.x", "v1.11.x/zh"))
    labels = member_labels(paths)
    assert labels == ("v1.16.x/", "v1.10.x/", "v1.10.x/zh/", "v1.11.x/", "v1.11.x/zh/")
    short = compact_member_labels(labels)
    assert short == ("…16.x/", "…10.x/", "…10.x/zh/", "…11.x/", "…11.x/zh/")
    assert len(set(short)) == len(short) and not set(short) & set(labels)
    # a label that cannot be shorter, or whose short form would read like another's, stays whole
    assert compact_member_labels(("(top folder)", "v1.10.x/", "v1.11.x/")) == ("(top folder)", "…10.x/", "…11.x/")
    assert compact_member_labels(("a/", "b/")) == ("a/", "b/")
    assert compact_member_labels(("v1.10.x/zh/", "v1.10.x/ja/", "v2.0/")) == ("v1.10.x/zh/", "v1.10.x/ja/", "v2.0/")
