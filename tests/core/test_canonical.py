"""Canonical status (Ahrefs' "good" and "bad" duplicates): whether the address a page states
points to the page kept for it, in the keep plan (CSV, XLSX, JSON) and in the pages table."""

from __future__ import annotations

import csv
import io
import json

from dedup_gui.core.pipeline.canonical import BAD, GOOD, MALFORMED, NONE, canonical_status, points_to
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.tables import KEEP_PLAN_COLUMNS, keep_plan_rows
from dedup_gui.core.reports.write import render
from dedup_gui.core.views.tables import PagesTable
from tests.core.test_keep_clusters import FULL, page, pair, result_of, same_time

SITE = "https://docs.example.org"
#: Why v2/a.html is kept over the other versions: each criterion that ruled one of them out.
V2_REASON = "canonical URL, then newest version folder"
#: Why v1/a.html is not kept: its canonical URL is v2's address, not its own path.
V1_REASON = (
    "not kept: its canonical URL is another page's address; also older version folder than the kept page (in v2/)"
)


def versions():
    """Five versions of one document, full duplicates of each other, and a lone page.

    v2/a.html states its own address, as v0 does: kept (canonical URL, then newest version folder: the
    canonical rules out v0.9, v1.5 and v1, the version v0).  v1 points to v2 (good), v0 to
    itself (bad), v1.5 states a malformed address (a file name inside the path), v0.9 none;
    lone.html, in no keep cluster, states its own address.
    """
    pages = [
        page("lone.html", "alone", url=f"{SITE}/lone.html"),
        page("v0.9/a.html"),
        page("v0/a.html", url=f"{SITE}/v0/a.html"),
        page("v1.5/a.html", url=f"{SITE}/latest/index.htmlv1.5/a.html"),
        page("v1/a.html", url=f"{SITE}/v2/a.html#top"),
        page("v2/a.html", url=f"{SITE}/v2/a.html"),
    ]
    pairs = [pair(i, j, FULL, round(0.9 + 0.01 * i + 0.001 * j, 3)) for i in range(1, 6) for j in range(i + 1, 6)]
    return result_of(pages, pairs)


def test_canonical_status_of_each_page_against_its_kept_page():
    result = versions()
    statuses = [canonical_status(result, i, 5 if i else 0) for i in range(6)]
    assert [(s.status, s.note) for s in statuses] == [
        (GOOD, "points to this page"),
        (NONE, "states no canonical address"),
        (BAD, "points to another page, not the kept one"),
        (MALFORMED, "malformed canonical, ignored: a file name inside the path (index.htmlv1.5)"),
        (GOOD, "points to the kept page"),
        (GOOD, "points to this page"),
    ]
    assert statuses[2].url == f"{SITE}/v0/a.html" and statuses[1].url == ""


def test_points_to_compares_host_and_path_loosely():
    kept = page("docs/index.html", url="HTTPS://Docs.Example.org/docs/")
    assert points_to("https://docs.example.org/docs/index.html?x=1", kept)  # the address it states
    assert points_to("http://mirror.example.net/docs/", kept)  # the path its file lies at
    assert not points_to("https://docs.example.org/other/", kept)
    assert not points_to("https://[bad/docs/", kept)


def test_the_keep_plan_carries_type_similarity_reason_and_canonical_status():
    result = versions()
    report = build_report(result, mtime=same_time, excerpt_limit=0)
    assert KEEP_PLAN_COLUMNS == [
        "duplicate", "keep", "type", "similarity", "reason", "canonical_status", "canonical_note",
        "duplicate_url", "keep_url",
    ]  # fmt: skip
    rows = keep_plan_rows(report)
    # the URLs a redirect or a canonical link names: the address each page states ("" for none)
    assert [r[7:] for r in rows] == [
        ["", f"{SITE}/v2/a.html"],
        [f"{SITE}/v0/a.html", f"{SITE}/v2/a.html"],
        [f"{SITE}/latest/index.htmlv1.5/a.html", f"{SITE}/v2/a.html"],
        [f"{SITE}/v2/a.html#top", f"{SITE}/v2/a.html"],
    ]
    assert [r[:7] for r in rows] == [
        # the pages table's word for a page without a canonical address: "none", not "bad" (a tester
        # read "none" in the window and "bad" in keep.csv for the same page)
        # the reason: what ruled that row's page out (the cluster's decision was V2_REASON)
        # ...and the version folder, which rules it out too: "states no canonical URL" alone read
        # as "add a canonical link" to an old version's page (a tester)
        ["v0.9/a.html", "v2/a.html", "full duplicate", 0.915,
         "not kept: states no canonical URL; also older version folder than the kept page (in v2/)", NONE,
         "states no canonical address"],
        ["v0/a.html", "v2/a.html", "full duplicate", 0.925, "not kept: older version folder than the kept page (in v2/)", BAD,
         f"points to another page, not the kept one: {SITE}/v0/a.html"],
        ["v1.5/a.html", "v2/a.html", "full duplicate", 0.935,
         "not kept: malformed canonical URL (a file name inside the path (index.htmlv1.5)); also older version "
         "folder than the kept page (in v2/)", MALFORMED,
         "malformed canonical, ignored: a file name inside the path (index.htmlv1.5)"],
        ["v1/a.html", "v2/a.html", "full duplicate", 0.945, V1_REASON, GOOD, "points to the kept page"],
    ]  # fmt: skip
    # the keep CSV has every column, the first two named for the tools that read them
    lines = list(csv.reader(io.StringIO(render(report, "keep-csv"))))
    assert lines[0] == KEEP_PLAN_COLUMNS and lines[4][3:6] == ["0.9450", V1_REASON, "good"]
    # the JSON has them per page to drop
    [keep] = json.loads(render(report, "json"))["keep_clusters"]
    assert [(d["path"], d["similarity"], d["canonical_status"]) for d in keep["duplicates"]] == [
        ("v0.9/a.html", 0.915, NONE), ("v0/a.html", 0.925, BAD), ("v1.5/a.html", 0.935, MALFORMED),
        ("v1/a.html", 0.945, GOOD),
    ]  # fmt: skip


def test_the_pages_table_shows_the_canonical_status():
    table = PagesTable()
    table.set_result(versions())
    assert table.COLUMNS[2] == "URL" and table.COLUMNS[11] == "Canonical"
    assert [table.display(r, 11) for r in range(6)] == ["good", "none", "bad", "malformed", "good", "good"]


def test_every_index_page_name_stands_for_its_folder_in_canonical_addresses():
    # One list of index names (core/site_paths.py) serves canonical addresses, redirects, the
    # keep rule and the window's paths; canonical matching knew only index.html/.htm/.php, so an
    # IIS site's "default.aspx" address did not name its folder's page.
    kept = page("shop/default.aspx", url="https://shop.example/shop/")
    assert points_to("https://shop.example/shop/default.aspx", kept)
    assert points_to("https://mirror.example/shop/", page("shop/default.aspx"))
    # a folder whose name only ends like the address's is another folder
    assert not points_to("https://mirror.example/shop/", page("workshop/index.html"))
