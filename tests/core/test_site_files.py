"""A built site folder as a user has it (issue 14): the files beside its pages that are not pages,
and links to version folders (``latest -> v2``), through a whole scan, its reports and the keep
advice."""

from __future__ import annotations

import json
import os
from pathlib import Path

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.cache import FeatureCache
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from dedup_gui.core.pipeline.loading import SourceFile
from dedup_gui.core.pipeline.scan import analyse_files, scan_folder
from dedup_gui.core.progress import NullProgress
from dedup_gui.core.reports.write import write_result

from .test_loading import SITE_NON_PAGES, _site_folder
from .test_report import _validate

ARTICLE = "".join(
    f"<p>The release notes of version two, section {i}: the installer now checks the kernel modules, "
    "the controller restarts its agents one node at a time and the logs name the failing step.</p>"
    for i in range(6)
)


def page(body: str = ARTICLE, head: str = "<title>t</title>") -> bytes:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>".encode()


def settings(tmp_path: Path, **kw) -> ScanSettings:
    return ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"), **kw)


def test_a_scan_skips_the_files_of_a_site_that_are_not_pages(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _site_folder(site)
    result = scan_folder(site, settings(tmp_path, use_cache=False))
    # Issue 14 (the real site's measure 6: its .nojekyll was read as a page with no usable
    # text): each non-page file is skipped as not a page, none is a page or an error; the
    # empty x.html is a page of the site with no usable text.
    assert [p.path for p in result.pages] == ["3f9a2c7be01d44a5", "empty.html", "index.html"]
    assert (result.pages[1].size, result.pages[1].has_text) == (0, False)
    assert result.skipped == sorted(SITE_NON_PAGES) and result.errors == []
    assert {result.skip_reason(p) for p in result.skipped} == {"not a page"}


def test_a_cached_empty_page_does_not_make_an_empty_file_without_a_suffix_a_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "empty.html").write_bytes(b"")
    (site / "placeholder").write_bytes(b"")
    s = settings(tmp_path)
    scan_folder(site, s)  # the cache now holds the features of the empty bytes, from empty.html
    files = [SourceFile("empty.html", str(site / "empty.html")), SourceFile("placeholder", str(site / "placeholder"))]
    with FeatureCache(s, s.cache_dir) as cache:
        outcomes = analyse_files(files, s, NullProgress(), cache)
    # The cache keys content alone: a file emptied after the walk would find the empty page's
    # entry.  Without a page suffix it is still not a page (the path: skipped).
    assert outcomes[0].path == "empty.html" and not outcomes[0].has_text
    assert outcomes[1] == "placeholder"


def _versions(site: Path, link: str, real: str) -> None:
    (site / real / "guide").mkdir(parents=True)
    (site / real / "index.html").write_bytes(page(ARTICLE.replace("two", "two, home")))
    (site / real / "guide" / "a.html").write_bytes(page())
    (site / real / "notes").write_bytes(b"plain notes, no markup\n")  # may be a page, is none
    os.symlink(real, site / link)


def test_a_scan_reads_a_version_folder_once_and_reports_its_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _versions(site, "latest", "v2")
    result = scan_folder(site, settings(tmp_path, use_cache=False))
    # Issue 14 (the real site's measure 7): the pages are read under the real folder v2/, not
    # the link latest/ that sorts before it; the link is listed with the number of pages read
    # there (2: "notes" turned out not to be one), and the pages carry their second address.
    assert [p.path for p in result.pages] == ["v2/guide/a.html", "v2/index.html"]
    assert result.skipped_for_reasons() == [
        ("latest/", "a link to v2/: its 2 pages are read there (the same pages at a second address)")
    ]
    assert result.skipped == ["latest/", "v2/notes"]
    assert result.also_at == {"v2/guide/a.html": ("latest/guide/a.html",), "v2/index.html": ("latest/index.html",)}
    assert 0 < result.elapsed < 60  # a first version of this change put a count in its place
    out = tmp_path / "r.json"
    write_result(result, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    _validate(data)
    records = {f["path"]: f for f in data["files"]}
    assert records["v2/guide/a.html"]["also_at"] == ["latest/guide/a.html"]
    assert records["latest/"] == {
        "path": "latest/",
        "status": "skipped",
        "reason": "a link to v2/: its 2 pages are read there (the same pages at a second address)",
    }


def test_the_keep_advice_sees_a_page_s_address_through_a_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    canonical = '<title>t</title><link rel="canonical" href="https://docs.example.org/latest/guide/">'
    (site / "v2" / "guide").mkdir(parents=True)
    (site / "archive" / "guide").mkdir(parents=True)
    (site / "v2" / "guide" / "index.html").write_bytes(page(head=canonical))
    (site / "archive" / "guide" / "index.html").write_bytes(page(head=canonical))
    os.symlink("v2", site / "latest")
    result = scan_folder(site, settings(tmp_path, use_cache=False))
    (choice,) = build_keep_clusters(result, mtime=lambda p: 0.0)
    # Both copies state the address /latest/guide/; only v2's is served there (latest -> v2),
    # so the keep rule's "canonical URL" picks it over the first path in alphabetical order.
    assert [result.pages[i].path for i in (choice.keep, *choice.duplicates)] == [
        "v2/guide/index.html", "archive/guide/index.html",
    ]  # fmt: skip
    assert choice.reason == "canonical URL"
