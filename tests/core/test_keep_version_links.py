"""The keep advice on a versioned documentation site as a user has it: versions named by symbolic
links (mike's ``stable -> v2``, ``dev -> v3``), the reason that names every criterion that ruled a
page out, and the Keep cell of a page whose full duplicates are other documents.

A new-user test on the real site (kubeovn) found the advice keeping the unreleased ``v1.17.x``
(``dev``) over the ``stable`` ``v1.16.x``, "first path" given where the version folder dropped
the older version, and "kept (no full or content duplicate)" on a page with a 0.999 full
duplicate that had moved folders.
"""

from __future__ import annotations

import os
from pathlib import Path

from dedup_gui.core.model import DupType, KeepPolicy, ScanSettings
from dedup_gui.core.pipeline.keep import KEEP_RULE, keep_reason, version_rank
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.views.keep_columns import NO_STRONG_DUPLICATE, keep_text, page_keep_columns
from tests.core.test_keep_clusters import FULL, keep_rows, page, pair, result_of, same_time

GUIDE = "".join(
    f"<p>Section {i} of the guide: the installer checks the kernel modules, the controller restarts its "
    "agents one node at a time and the logs name the failing step.</p>"
    for i in range(6)
)


def _site(root: Path, links: dict[str, str]) -> Path:
    """Version folders v1, v2, v3, each with the same guide/a.html (identical bytes), and the
    given symbolic links (name -> target folder) beside them."""
    html = f"<!DOCTYPE html><html><head><title>Guide</title></head><body>{GUIDE}</body></html>".encode()
    for version in ("v1", "v2", "v3"):
        (root / version / "guide").mkdir(parents=True)
        (root / version / "guide" / "a.html").write_bytes(html)
    for name, target in links.items():
        os.symlink(target, root / name)
    return root


def _kept(root: Path, tmp_path: Path) -> list[tuple[str, str, list[str]]]:
    result = scan_folder(root, ScanSettings(workers=1, use_cache=False, cache_dir=str(tmp_path / "cache")))
    paths = [p.path for p in result.pages]
    return [(paths[k.keep], k.reason, [paths[d] for d in k.duplicates]) for k in build_keep_clusters(result, same_time)]


def test_the_version_a_stable_link_points_to_is_kept_over_the_dev_version(tmp_path: Path) -> None:
    # The scan reads each page once, under v2/ and v3/ (the links are skipped: read there);
    # stable -> v2 makes v2 the release readers are sent to, dev -> v3 makes v3 a pre-release.
    # The old rule kept v3 (the highest number): the unreleased version.
    site = _site(tmp_path / "site", {"stable": "v2", "dev": "v3"})
    assert _kept(site, tmp_path) == [
        ("v2/guide/a.html", "newest version folder", ["v1/guide/a.html", "v3/guide/a.html"])
    ]


def test_a_dev_link_alone_puts_its_version_after_the_released_ones(tmp_path: Path) -> None:
    # No stable link: v2 is the newest released version, v3 (dev) ranks after it and v1.
    site = _site(tmp_path / "site", {"dev": "v3"})
    assert _kept(site, tmp_path) == [
        ("v2/guide/a.html", "newest version folder", ["v1/guide/a.html", "v3/guide/a.html"])
    ]


def test_version_rank_reads_the_links_to_a_version_folder_and_only_them() -> None:
    stable = version_rank("docs/v2/a.html", ["docs/stable/a.html"])
    dev = version_rank("docs/v3/a.html", ["docs/dev/a.html"])
    released = version_rank("docs/v1/a.html")
    assert stable == (0, (0,)) and dev == (2, (-3,)) and released == (1, (-1,))
    assert stable < released < dev < version_rank("print/a.html")
    # current and latest rank as their names, after stable, whatever the folders' numbers
    assert version_rank("v1/a.html", ["current/a.html"]) == (0, (1,))
    # a version both released (stable) and named dev is released
    assert version_rank("v3/a.html", ["dev/a.html", "stable/a.html"]) == (0, (0,))
    # a link below the version folder is no version (v2/latest -> v2/guide), nor is a link to
    # a file (stable.html -> v2/a.html) or one whose name is no version (docs -> v2)
    assert version_rank("v2/guide/a.html", ["v2/latest/a.html"]) == (1, (-2,))
    assert version_rank("v2/a.html", ["stable.html"]) == (1, (-2,))
    assert version_rank("v2/a.html", ["docs/a.html"]) == (1, (-2,))


def test_the_rule_text_says_how_links_rank_versions() -> None:
    # the CLI's "keep rule:" paragraph and every report print KEEP_RULE
    assert (
        "stable/, current/, latest/, or a version folder a symbolic link of one of these names points to, "
        "ranked as that name; then v1.16.x before v1.9.x" in KEEP_RULE
    )
    assert (
        "then a pre-release: a version folder a link named dev/, next/, nightly/, unstable/, preview/, main/ or "
        "master/ points to" in KEEP_RULE
    )


CJK = "安装 Kube-OVN 的步骤：检查内核模块，然后逐个节点重启控制器。" * 5


def test_the_reason_names_the_version_that_dropped_the_older_page_then_the_path() -> None:
    # The real site's keep cluster 100: v1.11.x/a and its zh/ copy (one document on a Chinese
    # site) tie on every criterion; v1.10.x/a was ruled out by the version folder.  The old
    # reason, "first path", named only the last tie broken.
    pages = [page(p, CJK) for p in ("v1.10.x/a.html", "v1.11.x/a.html", "v1.11.x/zh/a.html")]
    result = result_of(pages, [pair(0, 1, FULL, 0.99), pair(0, 2, FULL, 0.98), pair(1, 2, FULL, 0.99)])
    (cluster,) = build_keep_clusters(result, same_time)
    assert (cluster.keep, cluster.reason) == (1, "newest version folder, then first path")
    assert keep_rows(result) == [["v1.10.x/a.html", "v1.11.x/a.html"], ["v1.11.x/zh/a.html", "v1.11.x/a.html"]]


def test_the_reason_lists_each_criterion_that_ruled_a_page_out_in_the_rule_s_order() -> None:
    # keys: (not chosen, not reference, canonical, version, path); the canonical rules out c,
    # the version b: both named; a criterion that rules out none (the version between a and
    # b alone) is not.
    policy = KeepPolicy(order=("canonical", "version"))
    a, b, c = (True, True, 0, 0, "a"), (True, True, 0, 1, "b"), (True, True, 1, 0, "c")
    assert keep_reason([a, b, c], policy) == "canonical URL, then newest version folder"
    assert keep_reason([a, c], policy) == "canonical URL"
    assert keep_reason([a, (True, True, 0, 0, "z")], policy) == "first path"


def test_a_page_whose_full_duplicate_moved_folders_is_kept_for_that_reason() -> None:
    # The real site's v1.12.x/en/advance/security-group/ and v1.13.x/en/vpc/security-group/:
    # a full duplicate (0.999), but two documents by their paths (the page moved between
    # versions), so no keep cluster holds them.  The old cell said it had no full duplicate.
    pages = [page(p) for p in ("v1/advance/a.html", "v2/vpc/a.html", "en/b.html", "zh/b.html", "c.html", "d.html")]
    pairs = [pair(0, 1, FULL, 0.999), pair(2, 3, DupType.CONTENT, 0.9), pair(2, 4, FULL, 0.95),
             pair(4, 5, DupType.LAYOUT, 0.4)]  # fmt: skip
    result = result_of(pages, pairs)
    columns = page_keep_columns(result)
    assert [keep_text(result, columns, i) for i in range(6)] == [
        "kept (its full duplicate is another document: moved between versions)",
        "kept (its full duplicate is another document: moved between versions)",
        # en/b.html: a content duplicate in zh/ (another language), and c.html (one document
        # with it: the pages outside language folders are in this site's own language, English)
        "kept",
        "kept (its content duplicate is another document: in another language)",
        "duplicate of en/b.html",
        NO_STRONG_DUPLICATE,  # layout only: nothing to drop
    ]
