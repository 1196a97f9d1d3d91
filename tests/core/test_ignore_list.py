"""The ignore list without a screen: a pair marked "not a duplicate" is distinct with the reason
shown, stays out of the keep clusters (even between identical copies), survives a threshold
change and a rescan (stored per folder with the keep choices), and goes to and from CSV safely."""

from __future__ import annotations

import json
import re

import pytest

from dedup_gui.core.model import DupType, Thresholds
from dedup_gui.core.pipeline.classify import explain_pair, reclassify
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.views.decisions import (
    FolderDecisions,
    apply_decisions,
    decisions_path,
    load_decisions,
    save_decisions,
)
from dedup_gui.core.views.ignore_list import (
    ignore_list_csv,
    marking_page_against_cluster,
    marking_pair,
    read_ignore_list_csv,
    read_ignore_list_file,
    renot,
    split_by_pages,
    unmarking,
    with_not_duplicates,
)
from dedup_gui.core.views.tables import PairsTable
from tests.core.test_keep_clusters import DISTINCT, FULL, page, pair, result_of

MARKED = "distinct (marked by you)"


def triangle():
    """a, b, c: full duplicates of one another; d: distinct from c (containment 0.1 < 0.2, so it
    stays distinct when re-classified); e, f: a second keep cluster.  Texts as long, files
    equally unreadable: the path decides what is kept (a.html, e.html)."""
    pages = [page(p) for p in ("a.html", "b.html", "c.html", "d.html", "e.html", "f.html")]
    pairs = [pair(0, 1, FULL, 0.99), pair(0, 2, FULL, 0.96), pair(1, 2, FULL, 0.95), pair(2, 3, DISTINCT, 0.1),
             pair(4, 5, FULL, 0.97)]  # fmt: skip
    return result_of(pages, pairs)


def kept(result) -> list[tuple[str, list[str]]]:
    """Each keep cluster as (kept path, dropped paths)."""
    paths = [p.path for p in result.pages]
    return [(paths[k.keep], [paths[i] for i in k.duplicates]) for k in keep_clusters_of(result)]


def types(result) -> list[tuple[str, bool]]:
    return [(p.type.value, p.not_duplicate) for p in result.pairs]


def type_cells(result) -> list[str]:
    table = PairsTable()
    table.load(result)
    return [table.display(r, 2) for r in range(len(result.pairs))]


# ---- marking a pair ---------------------------------------------------------------------------------


def test_a_marked_pair_is_distinct_with_the_reason_and_leaves_the_keep_cluster():
    result = triangle()
    assert kept(result) == [("a.html", ["b.html", "c.html"]), ("e.html", ["f.html"])]
    assert marking_pair(result, 0) == (("a.html", "b.html"),)
    marked = with_not_duplicates(result, marking_pair(result, 0))
    assert marked.not_duplicates == (("a.html", "b.html"),) and marked.pages is result.pages
    assert types(marked) == [("distinct", True), ("full", False), ("full", False), ("distinct", False),
                             ("full", False)]  # fmt: skip
    # a keeps c (its other duplicate); b, measured full with c, finds c taken: no advice for b
    assert kept(marked) == [("a.html", ["c.html"]), ("e.html", ["f.html"])]
    assert type_cells(marked)[:2] == [MARKED, "full duplicate"]
    lines = explain_pair(marked.pairs[0], marked.thresholds)
    assert lines[-2:] == ["the measures alone say: full duplicate", "marked not a duplicate by you => distinct"]
    assert lines[0] == "content similarity 0.990 >= 0.925"
    # the near-duplicate groups are rebuilt from the pairs: a-c and b-c still join a, b, c
    assert [c.pages for c in marked.clusters] == [(0, 1, 2), (4, 5)]
    # the same list again changes nothing
    assert with_not_duplicates(marked, [("b.html", "a.html")]) is marked


def test_the_mark_survives_a_threshold_change_and_can_be_removed():
    marked = with_not_duplicates(triangle(), [("b.html", "a.html")])  # order-free
    assert marked.not_duplicates == (("a.html", "b.html"),)
    # content_same 0.5 would make every strong pair full, and d (containment 0.1) stays distinct;
    # the marked pair stays distinct whatever the thresholds say
    lower = reclassify(marked, Thresholds(content_same=0.5, content_partial=0.05))
    assert lower.not_duplicates == marked.not_duplicates
    assert types(lower) == [("distinct", True), ("full", False), ("full", False), ("layout", False),
                            ("full", False)]  # fmt: skip
    assert kept(lower) == [("a.html", ["c.html"]), ("e.html", ["f.html"])]
    # a mark made while other thresholds are not shown yet re-classifies the scan's own result
    scan = triangle()
    shown = renot(scan, scan, (("a.html", "b.html"),), Thresholds(content_same=0.5, content_partial=0.05))
    assert types(shown) == types(lower) and shown.thresholds.content_same == 0.5
    # removed from the list: the pair is a full duplicate again, and b is dropped for a again
    back = with_not_duplicates(lower, unmarking(lower, [("b.html", "a.html")]))
    assert back.not_duplicates == ()
    assert types(back)[0] == ("full", False) and type_cells(back)[0] == "full duplicate"
    assert kept(back) == [("a.html", ["b.html", "c.html"]), ("e.html", ["f.html"])]


def test_a_page_marked_against_its_keep_cluster_leaves_it():
    result = triangle()
    assert marking_page_against_cluster(result, 2) == (("a.html", "c.html"), ("b.html", "c.html"))
    marked = with_not_duplicates(result, marking_page_against_cluster(result, 2))
    assert types(marked)[:3] == [("full", False), ("distinct", True), ("distinct", True)]
    assert kept(marked) == [("a.html", ["b.html"]), ("e.html", ["f.html"])]
    # the kept page against its cluster: the cluster of a, b, c becomes b and c without a
    marked_a = with_not_duplicates(result, marking_page_against_cluster(result, 0))
    assert marked_a.not_duplicates == (("a.html", "b.html"), ("a.html", "c.html"))
    assert kept(marked_a) == [("b.html", ["c.html"]), ("e.html", ["f.html"])]
    with pytest.raises(ValueError, match=r"d\.html is in no keep cluster"):
        marking_page_against_cluster(result, 3)
    with pytest.raises(ValueError, match="no pair 9"):
        marking_pair(result, 9)


@pytest.mark.parametrize(
    "mark,expected",
    [
        # a and c identical: c never joins a's unit, so it is not dropped for a
        (("a.html", "c.html"), [("a.html", ["b.html"])]),
        # b and c: a's unit holds b, so c (identical to a) stays out of it as well
        (("b.html", "c.html"), [("a.html", ["b.html"])]),
        # a and b: b stays out; c, a copy of a, is dropped for a
        (("a.html", "b.html"), [("a.html", ["c.html"])]),
    ],
)
def test_identical_copies_marked_not_duplicates_never_share_a_keep_cluster(mark, expected):
    # three files with the same bytes: one keep cluster of identical copies until a pair is marked
    pages = [page(p, sha1="1" * 40, text_hash="2" * 40) for p in ("a.html", "b.html", "c.html")]
    result = result_of(pages, [pair(0, 1, FULL, 1.0), pair(0, 2, FULL, 1.0), pair(1, 2, FULL, 1.0)])
    assert kept(result) == [("a.html", ["b.html", "c.html"])]
    marked = with_not_duplicates(result, [mark])
    assert kept(marked) == expected
    assert {link for k in keep_clusters_of(marked) for link in k.links} == {"identical bytes"}


# ---- stored per folder and applied to a rescan ---------------------------------------------------


def test_the_ignore_list_is_stored_with_the_keep_choices_and_old_files_still_read(tmp_path):
    base, site = tmp_path / "folders", tmp_path / "site"
    site.mkdir()
    resolved = str(site.resolve())
    marks = (("b.html", "a.html"), ("c.html", "a.html"), ("a.html", "b.html"))
    written = save_decisions(base, FolderDecisions(resolved, ("a.html",), marks))  # type: ignore[arg-type]
    assert json.loads(written.read_text()) == {
        "version": 3,
        "folder": resolved,
        "chosen": ["a.html"],
        "not_duplicates": [["a.html", "b.html"], ["a.html", "c.html"]],
        "keep_rule": None,
    }
    assert load_decisions(base, site) == (
        FolderDecisions(resolved, ("a.html",), (("a.html", "b.html"), ("a.html", "c.html"))),
        "",
    )
    # a file of version 1 (before the ignore list) reads with an empty list
    written.write_text(json.dumps({"version": 1, "folder": resolved, "chosen": ["b.html"]}))
    assert load_decisions(base, site) == (FolderDecisions(resolved, ("b.html",)), "")
    # a broken list is set aside, as a broken file is
    written.write_text(json.dumps({"version": 2, "folder": resolved, "chosen": [], "not_duplicates": [["a.html"]]}))
    decisions, note = load_decisions(base, site)
    assert decisions.not_duplicates == () and "'not_duplicates' is not a list of pairs of paths" in note
    assert decisions_path(base, site).with_name(written.name + ".unreadable").exists()
    assert list(site.iterdir()) == []  # the scanned folder is never written


def test_the_ignore_list_applies_to_a_rescan_of_the_folder(tmp_path):
    site, base = tmp_path / "site", tmp_path / "folders"
    site.mkdir()
    body = " ".join(f"word{i}" for i in range(60))
    for name in ("a.html", "b.html", "c.html"):  # three identical files
        (site / name).write_text(f"<html><body><article><p>{body}</p></article></body></html>")
    before = sorted((p.name, p.stat().st_mtime_ns) for p in site.iterdir())

    def scan():
        return scan_folder(site, _settings())

    first = scan()
    assert kept(first) == [("a.html", ["b.html", "c.html"])]
    index = next(i for i, p in enumerate(first.pairs) if {p.left, p.right} == {0, 1})
    save_decisions(base, FolderDecisions(first.root, (), marking_pair(first, index)))
    rescanned = scan()  # a new scan knows nothing of the mark ...
    assert all(p.type is DupType.FULL and not p.not_duplicate for p in rescanned.pairs)
    decisions, note = load_decisions(base, site)
    applied = apply_decisions(rescanned, decisions)  # ... until the folder's decisions apply
    assert note == "" and applied.not_duplicates == (("a.html", "b.html"),)
    by_pages = {(p.left, p.right): (p.type.value, p.not_duplicate) for p in applied.pairs}
    assert by_pages == {(0, 1): ("distinct", True), (0, 2): ("full", False), (1, 2): ("full", False)}
    assert kept(applied) == [("a.html", ["c.html"])]
    # and then through a threshold change
    assert kept(reclassify(applied, Thresholds(content_same=0.99))) == [("a.html", ["c.html"])]
    assert sorted((p.name, p.stat().st_mtime_ns) for p in site.iterdir()) == before


def _settings():
    from dedup_gui.core.model import ScanSettings

    return ScanSettings(workers=1, use_cache=False)


# ---- CSV ------------------------------------------------------------------------------------------------


def test_the_ignore_list_csv_round_trip_with_a_hostile_path():
    hostile = '=HYPERLINK("http://evil.example","x").html'
    pairs = [("b.html", hostile), ("a,b.html", "c\nd.html"), ("'quoted'.html", "+1.html")]
    text = ignore_list_csv(pairs)
    assert text == (
        "left,right\n"
        "'quoted'.html,'+1.html\n"  # only the cell that starts with a formula character gets the apostrophe
        '"\'=HYPERLINK(""http://evil.example"",""x"").html",b.html\n'
        '"a,b.html","c\nd.html"\n'
    )
    assert read_ignore_list_csv(text) == (
        ("'quoted'.html", "+1.html"),
        (hostile, "b.html"),
        ("a,b.html", "c\nd.html"),
    )
    # as a spreadsheet saves it: a BOM, another column, a blank row, right before left
    saved = "\ufeffright,note,left\r\nb.html,x,'=SUM(1).html\r\n,,\r\n"
    assert read_ignore_list_csv(saved) == (("=SUM(1).html", "b.html"),)


@pytest.mark.parametrize(
    "text,message",
    [
        ("path,other\na.html,b.html\n", "needs columns 'left' and 'right' (found: path, other)"),
        ("left,right\na.html,b.html\na.html,\n", "line 3: empty 'left' or 'right'"),
        ("left,right\na.html,a.html\n", "line 2: the same page twice (a.html)"),
        # no page of a scan has an absolute path or a ".." segment: such a row is a mistake
        ("left,right\na.html,b.html\n/etc/passwd,/tmp/x.html\n", "line 3: /etc/passwd is an absolute path, not a page"),
        ("left,right\n../../etc/passwd,site/a.html\n", "line 2: ../../etc/passwd goes up a folder (..), not a page"),
        ("left,right\na.html,site/../../b.html\n", "line 2: site/../../b.html goes up a folder (..)"),
        ("left,right\na.html,C:\\x.html\n", "line 2: C:\\x.html is an absolute path"),
    ],
)
def test_a_bad_ignore_list_csv_is_refused_with_the_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        read_ignore_list_csv(text)


def test_an_ignore_list_file_in_latin_1_or_windows_1252_is_read_and_a_binary_file_refused(tmp_path):
    # A spreadsheet's "CSV" export on Windows is Windows-1252: it was refused with Python's raw
    # "'utf-8' codec can't decode byte 0xe9".
    latin = tmp_path / "latin.csv"
    latin.write_bytes("left,right\nrésumé/été.html,b.html\nnaïve.html,c.html\n".encode("cp1252"))
    assert read_ignore_list_file(latin) == (("b.html", "résumé/été.html"), ("c.html", "naïve.html"))
    utf8 = tmp_path / "utf8.csv"
    utf8.write_bytes("\ufeffleft,right\ncafé.html,b.html\n".encode())
    assert read_ignore_list_file(utf8) == (("b.html", "café.html"),)
    binary = tmp_path / "x.csv"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ValueError, match=re.escape("not text: neither UTF-8 nor another text encoding reads it")):
        read_ignore_list_file(binary)


def test_imported_pairs_are_parted_by_whether_they_name_pages_of_the_scan():
    pairs = [("b.html", "a.html"), ("no/such.html", "other.html"), ("a.html", "gone.html")]
    known, unknown = split_by_pages(pairs, {"a.html", "b.html", "c.html"})
    assert known == (("a.html", "b.html"),)
    assert unknown == (("a.html", "gone.html"), ("no/such.html", "other.html"))


def test_a_scan_given_a_new_list_needs_re_classifying_before_it_is_shown_again():
    # the window's scan result takes a new list at once and is re-typed later (in the background);
    # shown again after a cancelled rescan, it must be re-classified first
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.views.session import Session

    session = Session(ScanSettings(), Thresholds())
    result = triangle()
    session.show(result)
    assert not session.needs_reclassify(result)
    session.set_not_duplicates((("a.html", "b.html"),))
    scan = session.scan_result
    assert scan.not_duplicates == (("a.html", "b.html"),) and scan.pairs is result.pairs
    assert session.needs_reclassify(scan)
    assert not session.needs_reclassify(with_not_duplicates(result, scan.not_duplicates))
