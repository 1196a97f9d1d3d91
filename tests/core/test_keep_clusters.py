"""Keep clusters: what to keep is built from strong links only (full and content duplicates,
identical copies), never from a chain or a layout or partial link, and the kept page follows the
keep rule.  Each test reads the advice through the keep CSV too, as a user gets it."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import replace

import numpy as np
import pytest

from dedup_gui.core.model import DupType, Page, Pair, PairScores, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.cluster import build_clusters
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.write import render

FULL, CONTENT, LAYOUT, PARTIAL, DISTINCT = (DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL,
                                            DupType.DISTINCT)  # fmt: skip


def same_time(_page) -> float:
    """Every file equally old: the rule's last tie-break (the path) decides."""
    return 0.0


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def page(path: str, text: str | None = None, url: str | None = None, text_hash: str | None = None,
         sha1: str | None = None) -> Page:  # fmt: skip
    """A page with its own bytes and text unless told otherwise."""
    return Page(
        path=path, abspath="/nonexistent/" + path, size=1, sha1=sha1 or _digest("bytes " + path),
        encoding="utf-8", encoding_source="utf-8", title="", url=url, main_text=text or f"text of {path}",
        text_hash=text_hash or _digest("text " + path), tag_sequence=("html",), simhash=0,
        shingles=np.zeros(0, np.uint32), minhash=np.zeros(1, np.uint64), word_count=10, has_text=True,
    )  # fmt: skip


def pair(a: int, b: int, kind: DupType, similarity: float = 0.95) -> Pair:
    return Pair(a, b, PairScores(similarity, similarity, 0.9, 1, similarity), kind)


def result_of(pages: list[Page], pairs: list[Pair], star_groups=()) -> ScanResult:
    return ScanResult("/x", pages, [], pairs, build_clusters(len(pages), pairs), Thresholds(), ScanSettings(),
                      star_groups=[tuple(g) for g in star_groups])  # fmt: skip


def keep_rows(result: ScanResult) -> list[list[str]]:
    """The keep CSV's first two columns (without the header), as a user reads them."""
    text = render(build_report(result, mtime=same_time, excerpt_limit=0), "keep-csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["duplicate", "keep"]  # tools read these two by name
    return [row[:2] for row in rows[1:]]


def groups(result: ScanResult) -> list[tuple[str, list[str]]]:
    """Each keep cluster as (kept path, sorted dropped paths)."""
    paths = [p.path for p in result.pages]
    return [(paths[k.keep], sorted(paths[i] for i in k.duplicates)) for k in build_keep_clusters(result, same_time)]


# ---- chains ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "longest,expected",
    [
        # B is the rule's favourite (longest text): it keeps A (its closer duplicate: 0.99), and
        # C, measured distinct from A, stays out; C has no other free duplicate, so no advice.
        ("b", [("b.html", ["a.html"])]),
        # A is kept with B; C's only duplicate (B) is taken: no advice for C.
        ("a", [("a.html", ["b.html"])]),
        # C is kept with B; A's only duplicate (B) is taken.
        ("c", [("c.html", ["b.html"])]),
    ],
)
def test_a_chain_never_puts_its_ends_in_one_keep_cluster(longest, expected):
    # A~B full (0.99), B~C content (0.95), A and C measured distinct: one near-duplicate group,
    # but dropping A and C for B would drop two pages that differ from each other.
    pages = [page(f"{n}.html", text=("long " * 40 if n == longest else f"text {n}")) for n in "abc"]
    result = result_of(pages, [pair(0, 1, FULL, 0.99), pair(1, 2, CONTENT, 0.95), pair(0, 2, DISTINCT, 0.5)])
    assert len(result.clusters) == 1 and len(result.clusters[0].pages) == 3
    assert groups(result) == expected
    assert keep_rows(result) == [[dropped, kept] for kept, drops in expected for dropped in drops]


# ---- stars -----------------------------------------------------------------------------------------


def test_a_star_of_40_identical_copies_is_one_keep_cluster():
    # 40 copies with one main text (different bytes), paired only as a star around the first
    # (candidates.FULL_BUCKET_LIMIT = 30): copies 1..39 have no pair with each other.  Copy 17
    # states its address, so the rule keeps it, and every other copy is dropped for it.  A 41st
    # page shares a part of copy 5's text (a layout pair): it joins the near-duplicate group,
    # not the advice.
    copies = [page(f"c{i:02d}.html", text="same text", text_hash="1" * 40) for i in range(40)]
    copies[17] = page("c17.html", text="same text", text_hash="1" * 40, url="https://x.example/c17.html")
    pages = [*copies, page("quote.html")]
    result = result_of(pages, [*(pair(0, i, FULL, 1.0) for i in range(1, 40)), pair(5, 40, LAYOUT, 0.4)])
    assert len(result.clusters) == 1 and len(result.clusters[0].pages) == 41
    [cluster] = build_keep_clusters(result, same_time)
    assert (cluster.keep, cluster.duplicates, cluster.reason) == (
        17,
        tuple(i for i in range(40) if i != 17),
        "canonical URL",
    )
    assert set(cluster.links) == {"identical main text"}
    assert sorted(keep_rows(result)) == [[f"c{i:02d}.html", "c17.html"] for i in range(40) if i != 17]


def test_a_star_of_near_copies_is_one_keep_cluster():
    # 35 near-copies (different texts), which the candidate stage pairs only with the group's
    # first page (ScanResult.star_groups).  The rule keeps copy 20 (it states its address);
    # the other copies were never compared with it, only with copy 0, yet they are one group
    # of near-copies and end in its keep cluster.  Page 35 is a partial duplicate of copy 3.
    pages = [page(f"n{i:02d}.html", url="https://x.example/n20.html" if i == 20 else None) for i in range(35)]
    pages.append(page("partial.html"))
    pairs = [*(pair(0, i, FULL, 0.97) for i in range(1, 35)), pair(3, 35, PARTIAL, 0.3)]
    result = result_of(pages, pairs, star_groups=[range(35)])
    [cluster] = build_keep_clusters(result, same_time)
    assert cluster.keep == 20 and cluster.duplicates == tuple(i for i in range(35) if i != 20)
    links = dict(zip(cluster.duplicates, cluster.links))
    assert links[0] == "full" and {links[i] for i in range(1, 35) if i != 20} == {"near-copy"}
    assert sorted(keep_rows(result)) == [[f"n{i:02d}.html", "n20.html"] for i in range(35) if i != 20]
    # Without the star's record the copies would be scattered: n20 keeps n00 only.
    alone = result_of(pages, pairs)
    assert groups(alone) == [("n20.html", ["n00.html"])]


def test_a_scan_of_sixty_near_copies_keeps_one_and_leaves_a_quoting_page_alone(tmp_path):
    from dedup_gui.core.pipeline.scan import scan_folder

    words = [f"word{i}" for i in range(300)]
    for i in range(60):  # two words of their own each: more than 30 near-copies, paired as a star
        body = " ".join(words[:100] + [f"day{i}"] + words[100:200] + [f"count{i}"] + words[200:])
        head = "<link rel='canonical' href='https://x.example/c37.html'>" if i == 37 else ""
        (tmp_path / f"c{i:02d}.html").write_text(
            f"<html><head>{head}</head><body><article><p>{body}</p></article></body></html>"
        )
    # a page that quotes the first 120 words among 400 of its own: a partial or layout duplicate
    quote = " ".join(words[:120] + [f"own{i}" for i in range(400)])
    (tmp_path / "quote.html").write_text(f"<html><body><article><p>{quote}</p></article></body></html>")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False, boilerplate_pages=50))
    assert result.star_groups and len(result.star_groups[0]) > 30
    assert len(result.clusters) == 1 and len(result.clusters[0].pages) == 61  # the quote is in the group
    assert groups(result) == [("c37.html", sorted(f"c{i:02d}.html" for i in range(60) if i != 37))]
    assert all(row[0] != "quote.html" for row in keep_rows(result))


# ---- weak links ----------------------------------------------------------------------------------------


def test_layout_and_partial_links_never_join_keep_clusters():
    # a~b full, b~c layout, c~d partial, d~e content: one near-duplicate group of five pages,
    # two keep clusters (a, b) and (d, e); c is a duplicate of nothing strongly, so no advice.
    pages = [page(f"{n}.html", text="long " * 30 if n in "ae" else None) for n in "abcde"]
    result = result_of(pages, [pair(0, 1, FULL), pair(1, 2, LAYOUT, 0.5), pair(2, 3, PARTIAL, 0.3),
                               pair(3, 4, CONTENT)])  # fmt: skip
    assert len(result.clusters) == 1
    assert sorted(groups(result)) == [("a.html", ["b.html"]), ("e.html", ["d.html"])]
    assert sorted(keep_rows(result)) == [["b.html", "a.html"], ["d.html", "e.html"]]
    pages_csv = {r["path"]: r for r in csv.DictReader(io.StringIO(
        render(build_report(result, mtime=same_time, excerpt_limit=0), "pages-csv")))}  # fmt: skip
    assert pages_csv["c.html"]["keep"] == "" and pages_csv["c.html"]["cluster"] == "1"
    assert (pages_csv["b.html"]["keep"], pages_csv["a.html"]["keep"]) == ("a.html", "a.html")


def test_identical_files_without_text_are_one_keep_cluster():
    # Two redirect stubs with the same bytes (no usable text) are full duplicates; a third stub
    # with other bytes is distinct from them.
    stubs = [page(f"r{i}.html", sha1="2" * 40 if i < 2 else None) for i in range(3)]
    stubs = [replace(s, has_text=False, main_text="") for s in stubs]
    result = result_of(stubs, [pair(0, 1, FULL, 0.0), pair(0, 2, DISTINCT, 0.0), pair(1, 2, DISTINCT, 0.0)])
    [cluster] = build_keep_clusters(result, same_time)
    assert (cluster.keep, cluster.duplicates, cluster.links, cluster.reason) == (
        0,
        (1,),
        ("identical bytes",),
        "first path",
    )


# ---- the keep rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "p,q,r,times,kept,reason,why_not",
    [
        # p states its address, but it is only a layout duplicate of q: the rule picks among q, r
        ({"url": "https://x.example/p.html"}, {"text": "short"}, {"text": "a longer text"}, None, "r.html",
         "longest main content", "shorter main content (5 vs 13 characters)"),
        ({"url": "https://x.example/p.html"}, {"url": "https://x.example/q.html"}, {"text": "a longer text"},
         None, "q.html", "canonical URL", "states no canonical URL"),
        ({"url": "https://x.example/p.html"}, {"text": "same"}, {"text": "same"}, {"q.html": 5.0, "r.html": 9.0},
         "q.html", "oldest file", "newer file"),
        ({"url": "https://x.example/p.html"}, {"text": "same"}, {"text": "same"}, None, "q.html", "first path",
         "later path in a tie"),
    ],
)  # fmt: skip
def test_the_kept_page_follows_the_keep_rule_within_its_keep_cluster(p, q, r, times, kept, reason, why_not):
    # p~q layout, q~r full: the near-duplicate group's favourite (p) is no duplicate of r, so
    # it cannot be what r is dropped for; the keep cluster is (q, r) and the rule decides there.
    pages = [page("p.html", **p), page("q.html", **q), page("r.html", **r)]
    result = result_of(pages, [pair(0, 1, LAYOUT, 0.5), pair(1, 2, FULL)])
    mtime = (lambda pg: times.get(pg.path, 0.0)) if times else same_time
    [cluster] = build_keep_clusters(result, mtime)
    assert (pages[cluster.keep].path, cluster.reason) == (kept, reason)
    dropped = "r.html" if kept == "q.html" else "q.html"
    report = build_report(result, mtime=mtime, excerpt_limit=0)
    # the reason column says why the dropped page is not the one kept (the criterion that ruled
    # it out), not the cluster's decision: the same words the clusters tree says for its row
    assert cluster.row_reason(pages.index(next(pg for pg in pages if pg.path == dropped))) == f"not kept: {why_not}"
    assert cluster.row_reason(cluster.keep) == f"kept: {reason}"
    assert render(report, "keep-csv") == (
        "duplicate,keep,type,similarity,reason,canonical_status,canonical_note,duplicate_url,keep_url\n"
        f"{dropped},{kept},full duplicate,0.9500,not kept: {why_not},none,states no canonical address,,"
        f"{(q if kept == 'q.html' else r).get('url', '')}\n"  # the kept page's stated address
    )


def test_keep_clusters_do_not_depend_on_the_order_of_pairs():
    pages = [page(f"{n}.html") for n in "abcd"]
    pairs = [pair(0, 1, FULL, 0.99), pair(1, 2, FULL, 0.96), pair(0, 2, LAYOUT, 0.5), pair(2, 3, CONTENT, 0.97)]
    first = groups(result_of(pages, pairs))
    assert groups(result_of(pages, pairs[::-1])) == first == [("a.html", ["b.html"]), ("c.html", ["d.html"])]
