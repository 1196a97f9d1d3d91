"""The keep advice's reason per row says why that row's page is not kept (issue: a new-user
walkthrough on the real site found every row of a keep cluster saying the cluster's decision,
"canonical URL, then newest version folder", on the kept page's row and on every dropped one)."""

from __future__ import annotations

from pathlib import Path

from dedup_gui.core.model import KeepPolicy, ScanSettings
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from dedup_gui.core.pipeline.keep_reasons import version_folder
from dedup_gui.core.pipeline.scan import scan_folder
from tests.core.test_keep_clusters import FULL, page, pair, result_of, same_time
from tests.core.test_keep_version_links import _site


def _row_reasons(root: Path, tmp_path: Path) -> dict[str, str]:
    """Each page's keep reason in the one keep cluster of a scan of ``root``, by path."""
    result = scan_folder(root, ScanSettings(workers=1, use_cache=False, cache_dir=str(tmp_path / "cache")))
    [cluster] = build_keep_clusters(result, same_time)
    paths = [p.path for p in result.pages]
    return {paths[p]: cluster.row_reason(p) for p in cluster.pages}


def test_each_row_names_the_criterion_that_ruled_its_page_out(tmp_path: Path) -> None:
    # v1, v2, v3 hold the same guide; stable -> v2 (the release), dev -> v3 (a pre-release)
    root = _site(tmp_path / "site", {"stable": "v2", "dev": "v3"})
    assert _row_reasons(root, tmp_path) == {
        "v2/guide/a.html": "kept: newest version folder",
        "v1/guide/a.html": "not kept: older version folder than the kept page (in v2/)",
        "v3/guide/a.html": "not kept: pre-release folder",
    }


def test_a_page_in_no_version_folder_and_a_longer_path_say_so() -> None:
    pages = [page("v1.16.x/a.html", text="same"), page("print/a.html", text="same")]
    [cluster] = build_keep_clusters(result_of(pages, [pair(0, 1, FULL)]), same_time)
    assert cluster.row_reason(1) == "not kept: in no version folder, unlike the kept page (in v1.16.x/)"
    # the shortest-URL rule: the longer path is what ruled the other page out
    pages = [page("docs/a.html", text="same"), page("docs/old/a.html", text="same")]
    policy = KeepPolicy(order=("shortest_url",))
    [cluster] = build_keep_clusters(result_of(pages, [pair(0, 1, FULL)]), same_time, policy)
    assert (cluster.keep, cluster.row_reason(1)) == (0, "not kept: longer path")


def test_version_folder_is_the_first_version_or_pre_release_folder() -> None:
    assert version_folder("docs/v1.16.x/zh/a.html") == "v1.16.x"
    assert version_folder("stable/a.html") == "stable"
    assert version_folder("dev/a.html") == "dev"
    assert version_folder("about/a.html") is None


def test_a_higher_number_than_the_stable_version_is_not_called_older(tmp_path: Path) -> None:
    # stable -> v2 and no dev link: v3 has the higher number but is not the version the site
    # names its release; "older version folder than the kept page (in v2/)" would be false of it.
    root = _site(tmp_path / "site", {"stable": "v2"})
    assert _row_reasons(root, tmp_path) == {
        "v2/guide/a.html": "kept: newest version folder",
        "v1/guide/a.html": "not kept: older version folder than the kept page (in v2/)",
        "v3/guide/a.html": "not kept: not the stable version, unlike the kept page (in v2/)",
    }
