"""The keep policy: the criteria in the user's order, versions and languages in paths, malformed
canonicals, reference folders and the user's own choice.  All without a screen: the keep clusters
are built from small hand-made scans (:mod:`tests.core.test_keep_clusters`' helpers)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dedup_gui.cli_parser import build_parser, keep_policy_of
from dedup_gui.core.model import KeepPolicy
from dedup_gui.core.pipeline.keep import (
    canonical_problem,
    default_script,
    documents_differ,
    keep_reason,
    keep_rule_line,
    keep_rule_text,
    rank_key,
    text_script,
    version_rank,
)
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters

from ..test_cli import run
from .test_keep_clusters import FULL, keep_rows, page, pair, result_of, same_time


def clusters(result, policy=None):
    """``[(kept path, [dropped paths])]`` of the keep clusters, as a user reads them."""
    paths = [p.path for p in result.pages]
    made = build_keep_clusters(result, same_time, policy)
    return sorted((paths[c.keep], sorted(paths[d] for d in c.duplicates)) for c in made)


def identical(*paths: str, text: str = "the same article") -> list:
    """Pages with the same main text (one unit of copies), each with its own bytes."""
    return [page(p, text=text, text_hash="same") for p in paths]


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("v1.17.x/a.html", "v1.9.x/a.html"),  # numbered, not alphabetical
        ("0.50.1/a.html", "0.49.0/a.html"),
        ("v3/a.html", "v2/a.html"),
        ("2024-05/a.html", "2023-11/a.html"),  # dated folders
        ("stable/a.html", "v9/a.html"),  # the named release before numbers
        ("v1/a.html", "archive/a.html"),  # a version folder before any other folder
    ],
)
def test_the_newest_version_folder_ranks_first(newer, older):
    assert version_rank(newer) < version_rank(older)


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("v1.12.x/advance/dhcp/index.html", "v1.17.x/vpc/dhcp/index.html", "moved between versions"),
        ("v1.10.x/en/start/x.html", "v1.10.x/start/x.html", "other language"),  # an untranslated copy
        ("en/a.html", "pt-br/a.html", "other language"),
        ("v1.12.x/guide/a.html", "v1.17.x/guide/a.html", None),  # two versions of one document
        ("v1/en/a.html", "v2/en/a.html", None),
        ("print/a.html", "site/articles/a.html", None),  # no versions, no languages: a copy elsewhere
        ("js/a.html", "ui/a.html", None),  # two-letter folders that are not languages
        # a blog's archive: the date says when a post was published, so a post published
        # again under another date and name is a duplicate, not a moved document
        ("blog/2020/05/spring-sale.html", "blog/2021/03/spring-sale-again.html", None),
        ("news/2020-05-14/a.html", "news/2021-03-02/b.html", None),
        ("2020/05/a.html", "2021/11/a.html", None),
        # a version folder named by a bare year is still a version (an annual edition)
        ("2023/guide/a.html", "2024/howto/a.html", "moved between versions"),
    ],
)
def test_documents_differ_by_version_and_language_folders(a, b, why):
    assert documents_differ(a, b) == why
    assert documents_differ(b, a) == why


def test_a_malformed_canonical_is_ignored():
    # A template that lost a slash: the address names a file inside its path.
    assert canonical_problem("https://docs.x.org/latest/index.htmluser/jit.html") == (
        "a file name inside the path (index.htmluser)"
    )
    assert canonical_problem("/relative/only.html") == "not an absolute http(s) URL"
    assert canonical_problem("https://docs.x.org/latest/user/jit.html") is None
    # The malformed address ranks as no address: the newest version wins over it.
    bad = page("v1/a.html", url="https://docs.x.org/v1/index.htmluser/a.html")
    newer = page("v2/a.html")
    result = result_of([bad, newer], [pair(0, 1, FULL)])
    assert clusters(result) == [("v2/a.html", ["v1/a.html"])]
    key = rank_key(result, mtime=same_time)
    assert keep_reason([key(0), key(1)]) == "newest version folder"


def test_versions_are_kept_newest_first_and_never_joined_to_another_document():
    pages = identical(
        "v1/guide/a.html",
        "v2/guide/a.html",
        "v3/guide/a.html",  # three versions of one document
        "v1/old/b.html",
        "v3/new/b.html",  # a page that moved: two documents
        "v3/en/guide/a.html",  # an untranslated English copy of a Chinese site: another document
        text="安装之前请确认内核版本，然后检查所有组件的状态。",
    )
    result = result_of(pages, [pair(i, j, FULL) for i in range(6) for j in range(i + 1, 6)])
    assert clusters(result) == [("v3/guide/a.html", ["v1/guide/a.html", "v2/guide/a.html"])]
    # the keep CSV says the same
    assert sorted(keep_rows(result)) == [["v1/guide/a.html", "v3/guide/a.html"], ["v2/guide/a.html", "v3/guide/a.html"]]


def test_a_blog_post_published_again_under_another_date_is_one_keep_cluster():
    # dated folders are publication dates: the repost is a duplicate to drop, and the newest
    # date ranks first like any version-like segment (the "dates")
    pages = identical("blog/2020/05/spring-sale.html", "blog/2021/03/spring-sale-again.html")
    result = result_of(pages, [pair(0, 1, FULL)])
    assert clusters(result) == [("blog/2021/03/spring-sale-again.html", ["blog/2020/05/spring-sale.html"])]


def test_the_criteria_follow_the_users_order():
    long_text = page("print/a.html", text="a longer article " * 20)
    short_url = page("a.html", text="a longer article " * 10)
    result = result_of([long_text, short_url], [pair(0, 1, FULL)])
    assert clusters(result) == [("print/a.html", ["a.html"])]  # default: longest main content
    policy = KeepPolicy(order=("shortest_url", "longest_content"))
    assert clusters(result, policy) == [("a.html", ["print/a.html"])]
    key = rank_key(result, mtime=same_time, policy=policy)
    assert keep_reason([key(0), key(1)], policy) == "shortest URL"
    # a pattern the user types: a substring, or a shell pattern
    # both paths match "*a.html": the next criterion decides
    assert clusters(result, KeepPolicy(order=("pattern", "shortest_url"), pattern="*a.html")) == [
        ("a.html", ["print/a.html"])
    ]
    assert clusters(result, KeepPolicy(order=("pattern", "longest_content"), pattern="print/")) == [
        ("print/a.html", ["a.html"])
    ]
    assert clusters(result, KeepPolicy(order=("pattern", "shortest_url"), pattern="print/")) == [
        ("print/a.html", ["a.html"])
    ]


def test_newest_and_oldest_file():
    pages = [page("a.html", text="same", text_hash="h"), page("b.html", text="same", text_hash="h")]
    result = result_of(pages, [pair(0, 1, FULL)])
    times = {"a.html": 100.0, "b.html": 200.0}

    def mtime(p):
        return times[p.path]

    made = build_keep_clusters(result, mtime, KeepPolicy(order=("newest_file",)))
    assert result.pages[made[0].keep].path == "b.html" and made[0].reason == "newest file"
    made = build_keep_clusters(result, mtime, KeepPolicy(order=("oldest_file",)))
    assert result.pages[made[0].keep].path == "a.html" and made[0].reason == "oldest file"


def test_reference_folders_are_always_kept_and_the_users_choice_wins():
    pages = identical("ref/a.html", "ref/copy/a.html", "site/a.html", "mirror/a.html")
    result = result_of(pages, [pair(i, j, FULL) for i in range(4) for j in range(i + 1, 4)])
    # default: one cluster, the first path kept
    assert clusters(result) == [("mirror/a.html", ["ref/a.html", "ref/copy/a.html", "site/a.html"])]
    # two reference pages: both kept, each with what it may take
    policy = KeepPolicy(reference_folders=("ref",))
    kept = clusters(result, policy)
    assert [k for k, _ in kept] == ["ref/a.html"] and kept[0][1] == ["mirror/a.html", "site/a.html"]
    dropped = {d for _, ds in kept for d in ds}
    assert "ref/copy/a.html" not in dropped  # never dropped: alone in its own cluster (nothing to drop for it)
    # the user's choice comes before everything
    chosen = KeepPolicy(chosen=("site/a.html",))
    assert clusters(result, chosen) == [("site/a.html", ["mirror/a.html", "ref/a.html", "ref/copy/a.html"])]
    made = build_keep_clusters(result, same_time, chosen)
    assert made[0].reason == "your choice"


def test_the_policy_travels_with_the_result_into_the_reports():
    pages = identical("a.html", "b.html")
    result = replace(result_of(pages, [pair(0, 1, FULL)]), keep_policy=KeepPolicy(chosen=("b.html",)))
    assert keep_rows(result) == [["a.html", "b.html"]]
    assert "The pages you chose to keep are kept first." in keep_rule_text(result.keep_policy)


def test_an_unknown_criterion_is_refused():
    with pytest.raises(ValueError, match="keep criteria must be distinct names"):
        KeepPolicy(order=("version", "newest"))
    with pytest.raises(ValueError):
        KeepPolicy(order=("version", "version"))


def test_the_command_line_takes_the_keep_rule(tmp_path, samples_dir):
    out = tmp_path / "keep.csv"
    proc = run("scan", str(samples_dir), "--keep-csv", str(out), "--reference-folder", "print", "-q")
    assert proc.returncode == 0, proc.stderr
    rows = [",".join(line.split(",")[:2]) for line in out.read_text(encoding="utf-8").splitlines()]
    # the print copy is kept: its folder is a reference folder (by default the site's page is kept)
    assert "site/articles/night-ride-safety.html,print/night-ride-safety.html" in rows
    bad = run("scan", str(samples_dir), "--keep-csv", str(out), "--keep-order", "version,newest")
    assert bad.returncode == 2 and "keep criteria must be distinct names" in bad.stderr


CHINESE = "安装 Kube-OVN 之前请确认内核版本。 kubectl apply -f install.yaml 然后检查所有 Pod 的状态。"
ENGLISH = "Before you install Kube-OVN, check the kernel version. kubectl apply -f install.yaml, then check the pods."


def test_language_folders_against_the_sites_own_language():
    # A Chinese documentation site: zh/ holds copies of its default (Chinese) pages, en/ the
    # English translations, some never translated.  Chinese docs are a quarter commands and code.
    assert text_script(CHINESE) == "cjk" and text_script(ENGLISH) == "other" and text_script("") is None
    pages = [
        page("v1/a.html", text=CHINESE, text_hash="zh"),
        page("v2/a.html", text=CHINESE, text_hash="zh"),
        page("v2/zh/a.html", text=CHINESE, text_hash="zh"),  # a copy: the same document
        page("v2/en/a.html", text=CHINESE, text_hash="zh"),  # never translated: another document
        page("v2/b.html", text=CHINESE + " b", text_hash="b"),
    ]
    assert default_script(pages) == "cjk"
    assert documents_differ("v2/zh/a.html", "v1/a.html", "cjk") is None
    assert documents_differ("v2/en/a.html", "v2/a.html", "cjk") == "other language"
    assert documents_differ("v2/zh/a.html", "v1/a.html", None) == "other language"  # unknown: apart
    result = result_of(pages, [pair(0, 1, FULL), pair(0, 2, FULL), pair(1, 2, FULL), pair(2, 3, FULL)])
    assert clusters(result) == [("v2/a.html", ["v1/a.html", "v2/zh/a.html"])]


def test_shortest_url_compares_paths_and_an_empty_order_is_refused():
    # Some pages state a full URL, older ones none: their lengths are not comparable.
    old = page("v1/guide/a.html")
    new = page("v2/guide/a.html", url="https://docs.example.org/v2/guide/a.html")
    short = page("a.html")
    result = result_of([old, new, short], [pair(0, 1, FULL), pair(1, 2, FULL), pair(0, 2, FULL)])
    key = rank_key(result, mtime=same_time, policy=KeepPolicy(order=("shortest_url", "version")))
    assert sorted(range(3), key=key) == [2, 1, 0]  # a.html, then the two equal paths by version
    with pytest.raises(ValueError, match="got none"):
        KeepPolicy(order=())


def test_a_bad_reference_folder_stops_the_scan_with_the_windows_reason(tmp_path):
    # The window's Re-prioritize dialog refuses these; the CLI used to accept them silently (a
    # leading / dropped, "..", a typo, the whole folder) and keep by a rule that meant nothing.
    site = tmp_path / "site"
    (site / "v1").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    out = tmp_path / "keep.csv"
    site_text = str(site.resolve())
    refused = {
        str(tmp_path / "other"): f"is not inside the scanned folder {site_text}",
        "../other": f"is not inside the scanned folder {site_text}",
        "nope": f"there is no folder nope in the scanned folder {site_text}",
        ".": "the scanned folder itself cannot be a reference folder: every page would be kept",
        str(site): "the scanned folder itself cannot be a reference folder",
    }
    for folder, reason in refused.items():
        proc = run("scan", site, "--keep-csv", out, "--reference-folder", folder, "-q")
        assert proc.returncode == 2, folder
        assert proc.stderr.startswith(f"error: --reference-folder {folder}: ") and reason in proc.stderr, proc.stderr
        assert not out.exists()  # refused before the scan: nothing written


def test_reference_folders_are_stored_relative_to_the_scanned_folder(tmp_path):
    site = tmp_path / "site"
    (site / "v1" / "sub").mkdir(parents=True)
    args = build_parser().parse_args(
        ["scan", str(site), "--reference-folder", str(site / "v1" / "sub"), "--reference-folder", "v1/",
         "--reference-folder", "v1/sub/../sub"]
    )  # fmt: skip
    assert keep_policy_of(args).reference_folders == ("v1/sub", "v1")  # absolute, trailing /, repeated


def test_the_keep_rule_line_names_the_reference_folders_and_the_criteria_in_order():
    # scan --keep-csv printed the reports' ~250-word paragraph on every run; one line now.
    policy = KeepPolicy(order=("pattern", "canonical", "newest_file"), pattern="*/en/*", reference_folders=("docs",))
    assert keep_rule_line(policy) == (
        "Kept: pages under docs first, then a page matching the preferred pattern '*/en/*', else the page at its "
        "canonical URL, else the newest file."
    )
