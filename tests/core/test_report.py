"""Reports in every core format on the sample pages: exact contents, the JSON schema, escaping,
the keep rule, diff excerpts and atomic writes."""

from __future__ import annotations

import base64
import csv
import errno
import hashlib
import html
import io
import json
import os
import stat
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from dedup_gui.core import atomic
from dedup_gui.core.atomic import ExportError, atomic_write_text, check_writable
from dedup_gui.core.model import Cluster, DupType, Page, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.keep import KEEP_RULE, choose_keep
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.core.reports.excerpt import diff_excerpt
from dedup_gui.core.reports.html import chart_svg
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.summary import skipped_sentence
from dedup_gui.core.reports.table_script import TABLE_SCRIPT
from dedup_gui.core.reports.write import (
    PAGE_COLUMNS,
    PREDICTION_COLUMNS,
    format_for,
    html_report,
    pairs_csv,
    render,
    result_dict,
    summary_text,
    write_result,
)
from dedup_gui.export import EXPORT_FORMATS, export

from ..conftest import REPO

SCHEMA = REPO / "resources" / "report.schema.json"
CONTENT_PAIR = {"print/night-ride-safety.html", "site/articles/night-ride-safety.html"}
#: A title, a file name and a text that would run script if a report let them through.
EVIL_TITLE = "<script>document.title='PWNED'</script><img src=x onerror=\"document.body.dataset.pwned=1\">"
EVIL_NAME = "<img src=x onerror=alert(1)>.html"


def same_time(_page) -> float:
    """Every file equally old, so the keep rule's last tie-break (the path) decides."""
    return 0.0


def _pair(result, paths):
    return next(p for p in result.pairs if {result.pages[p.left].path, result.pages[p.right].path} == set(paths))


def make_evil_folder(root: Path) -> Path:
    """Two copies of a page whose title, URL and text hold markup, one under a file name with markup."""
    root.mkdir(parents=True, exist_ok=True)
    body = "<p>" + " ".join(f"word{i}" for i in range(120)) + " &lt;b onmouseover=alert(2)&gt;bold&lt;/b&gt;</p>"
    title = EVIL_TITLE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    page = (
        f"<html><head><title>{title}</title>"
        "<meta property='og:url' content='https://evil.example/&lt;script&gt;x&lt;/script&gt;'></head>"
        f"<body>{body}</body></html>"
    )
    (root / "a.html").write_text(page, encoding="utf-8")
    (root / EVIL_NAME).write_text(page.replace("word7 ", "changed<i>7</i> "), encoding="utf-8")
    return root


# ---- CSV ---------------------------------------------------------------------------------------


def test_pairs_csv_has_the_designed_pairs_and_known_row(sample_scan):
    rows = list(csv.reader(io.StringIO(pairs_csv(sample_scan))))
    assert rows[0] == [*PREDICTION_COLUMNS, "cluster", "contained_side"]
    assert rows[0] == ["left", "right", "type", "content_similarity", "content_containment", "layout_similarity", "hamming_distance", "jaccard", "cluster", "contained_side"]  # fmt: skip
    assert sorted(r[2] for r in rows[1:]) == ["content", "full", "full", "full", "full", "layout", "partial"]
    content = [r for r in rows[1:] if r[2] == "content"]
    cluster = sample_scan.cluster_of()[_pair(sample_scan, CONTENT_PAIR).left]
    assert content == [
        ["print/night-ride-safety.html", "site/articles/night-ride-safety.html", "content",
         "0.9852", "0.9926", "0.0769", "0", "0.9712", str(cluster), ""],  # about as long: no side; templates: 0.0769 (whole pages 0.1833)
    ]  # fmt: skip


def test_pairs_csv_writes_only_the_given_subset_in_order(sample_scan):
    layout = next(p for p in sample_scan.pairs if p.type is DupType.LAYOUT)
    content = _pair(sample_scan, CONTENT_PAIR)
    distinct = replace(layout, type=DupType.DISTINCT)  # distinct pairs never get a row
    rows = list(csv.DictReader(io.StringIO(pairs_csv(sample_scan, [layout, content, distinct]))))
    assert [r["type"] for r in rows] == ["layout", "content"]


def test_pages_csv_lists_every_file_with_its_verdict(sample_scan):
    text = render(build_report(sample_scan, mtime=same_time, excerpt_limit=0), "pages-csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == PAGE_COLUMNS
    assert len(rows) == 18 + 0 + 11  # pages (4 of them WARC records), errors, skipped files (1 a revisit)
    by_path = {r["path"]: r for r in rows}
    gbk = by_path["zh/spring-tea-picking-gbk.html"]
    assert (gbk["status"], gbk["title"], gbk["encoding"], gbk["keep"]) == (
        "ok", "清明前后上山采茶记 - 云岭茶舍", "gb18030", "zh/spring-tea-picking-utf8.html"
    )  # fmt: skip
    assert gbk["cluster"] == by_path["zh/spring-tea-picking-utf8.html"]["cluster"] != ""
    assert by_path["gallery/finish-line.html"]["status"] == "no usable text"
    assert by_path["gallery/finish-line.html"]["cluster"] == ""
    assert by_path["site/style.css"]["status"] == "skipped"


def test_keep_csv_follows_the_stated_rule(sample_scan):
    text = render(build_report(sample_scan, mtime=same_time, excerpt_limit=0), "keep-csv")
    rows = sorted(list(csv.reader(io.StringIO(text)))[1:])
    assert text.startswith(
        "duplicate,keep,type,similarity,reason,canonical_status,canonical_note,duplicate_url,keep_url\n"
    )
    # the URLs a redirect or canonical link names: a crawl record's own, else the address stated
    urls = {row[0]: row[7:] for row in rows}
    assert urls["warc/trail-crawl.warc.gz#462"] == [
        "https://trails.example/huts/kessel", "https://trails.example/huts/kessel?ref=newsletter",
    ]  # fmt: skip
    assert urls["print/night-ride-safety.html"] == [
        "",
        "https://larkmoor-wheelers.example.org/articles/night-ride-safety.html",
    ]
    rows = [row[:7] for row in rows]
    # the reason: why that row's page is not the one kept (KeepCluster.row_reason)
    no_canonical = ["none", "states no canonical address"]
    assert rows == sorted(
        [
            # no address, same text, same age: the first path
            ["site/articles/river-trail.html", "mirror/larkmoor-wheelers.example.org/articles/river-trail.html",
             "identical bytes", "1.0000", "not kept: later path in a tie", *no_canonical],
            # only the site copy states its address (og:url)
            ["print/night-ride-safety.html", "site/articles/night-ride-safety.html", "content duplicate", "0.9852",
             "not kept: states no canonical URL", *no_canonical],
            # both state it; the file whose path matches the address's path wins; the archive copy
            # states the kept page's address: a "good" duplicate, already handled by its canonical
            ["site/archive/winter-maintenance.html", "site/articles/winter-maintenance.html", "identical main text",
             "1.0000", "not kept: its canonical URL is another page's address", "good", "points to the kept page"],
            # one page crawled at two URLs, the same age here: the first path; a crawl record's
            # URL is where it was crawled, not a canonical address the page states
            ["warc/trail-crawl.warc.gz#462", "warc/trail-crawl.warc.gz#1090", "identical bytes", "1.0000",
             "not kept: later path in a tie", *no_canonical],
            ["zh/spring-tea-picking-gbk.html", "zh/spring-tea-picking-utf8.html", "full duplicate", "0.9910",
             "not kept: shorter main content (667 vs 671 characters)", *no_canonical],
        ]
    )  # fmt: skip
    # The partial pair (a newspaper's article quoting the club's café list) and the layout pair
    # (two years of the audax page) share part of their text only: dropping either page would
    # lose text, so neither is keep advice, though both are near-duplicate groups.
    assert len(sample_scan.clusters) == 7


def test_keep_csv_of_a_subset_lists_only_its_clusters(sample_scan):
    content = _pair(sample_scan, CONTENT_PAIR)
    text = render(build_report(sample_scan, [content], mtime=same_time, excerpt_limit=0), "keep-csv")
    assert text == (
        "duplicate,keep,type,similarity,reason,canonical_status,canonical_note,duplicate_url,keep_url\n"
        "print/night-ride-safety.html,site/articles/night-ride-safety.html,content duplicate,0.9852,not kept: states no canonical URL,"
        "none,states no canonical address,,https://larkmoor-wheelers.example.org/articles/night-ride-safety.html\n"
    )


# ---- keep rule -----------------------------------------------------------------------------------


def _page(path: str, url: str | None = None, text: str = "some text") -> Page:
    return Page(
        path=path, abspath="/nonexistent/" + path, size=1, sha1="0" * 40, encoding="utf-8",
        encoding_source="utf-8", title="", url=url, main_text=text, text_hash="0" * 40,
        tag_sequence=("html",), simhash=0, shingles=np.zeros(0, np.uint32), minhash=np.zeros(1, np.uint64),
        word_count=2, has_text=True,
    )  # fmt: skip


def _result(pages) -> ScanResult:
    cluster = Cluster(1, tuple(range(len(pages))), frozenset({DupType.FULL}))
    return ScanResult("/x", pages, [], [], [cluster], Thresholds(), ScanSettings())


@pytest.mark.parametrize(
    "pages,times,kept,reason",
    [
        # a stated address beats a longer text
        ([_page("a.html", text="long " * 50), _page("b.html", url="https://x.example/b.html")], None, 1, "canonical URL"),
        # among pages with an address, the one whose path matches it
        ([_page("copy/p.html", url="https://x.example/docs/p.html"),
          _page("site/docs/p.html", url="https://x.example/docs/p.html")], None, 1, "canonical URL"),
        # no address: the longest main content
        ([_page("a.html", text="short"), _page("b.html", text="much longer text")], None, 1, "longest main content"),
        # same length: the oldest file
        ([_page("a.html"), _page("b.html")], {"a.html": 20.0, "b.html": 10.0}, 1, "oldest file"),
        # a full tie: the first path
        ([_page("b.html"), _page("a.html")], None, 1, "first path"),
    ],
)  # fmt: skip
def test_keep_rule(pages, times, kept, reason):
    result = _result(pages)
    mtime = (lambda p: times[p.path]) if times else same_time
    choice = choose_keep(result, result.clusters[0], mtime)
    assert (choice.keep, choice.reason) == (kept, reason)
    assert choice.duplicates == tuple(i for i in range(len(pages)) if i != kept)


def test_keep_rule_reads_file_times_by_default(tmp_path, sample_scan):
    old, new = tmp_path / "old.html", tmp_path / "new.html"
    for f in (old, new):
        f.write_text("x")
    os.utime(old, (1_000_000, 1_000_000))
    pages = [replace(_page("new.html"), abspath=str(new)), replace(_page("old.html"), abspath=str(old))]
    result = _result(pages)
    assert choose_keep(result, result.clusters[0]).keep == 1


# ---- JSON ----------------------------------------------------------------------------------------


def _validate(data: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_json_validates_against_the_schema(sample_scan, tmp_path):
    out = export(sample_scan, tmp_path / "all.json")
    data = json.loads(out.read_text(encoding="utf-8"))
    _validate(data)
    assert (data["format"], data["format_version"], data["product"]) == ("dedup-gui-report", 2, "dedup-gui")
    assert data["summary"]["pairs_by_type"] == {"full": 4, "content": 1, "layout": 1, "partial": 1, "distinct": 0}
    assert data["summary"]["pages"] == 18 and data["summary"]["clusters"] == 7
    assert (data["summary"]["keep_clusters"], data["summary"]["pages_to_drop"]) == (5, 5)
    assert data["selection"] == {"subset": False, "pairs_shown": 7, "pairs_total": 7}
    assert data["keep_rule"] == KEEP_RULE
    assert data["errors"] == []
    pair = next(p for p in data["pairs"] if p["type"] == "content")
    assert {pair["left"], pair["right"]} == CONTENT_PAIR
    assert (pair["content_similarity"], pair["hamming_distance"]) == (0.985276, 0)
    assert pair["why"][-1] == "same content and different layout => content duplicate"
    assert pair["keep_cluster"] is not None
    cluster = next(c for c in data["clusters"] if set(c["pages"]) == CONTENT_PAIR)
    assert cluster == {"id": cluster["id"], "pages": sorted(CONTENT_PAIR), "types": ["content"]}  # no advice here
    keep = next(k for k in data["keep_clusters"] if k["id"] == pair["keep_cluster"])
    assert keep == {
        "id": pair["keep_cluster"], "group": cluster["id"], "keep": "site/articles/night-ride-safety.html",
        "keep_reason": "canonical URL",
        "duplicates": [{"path": "print/night-ride-safety.html", "link": "content", "similarity": pair["content_similarity"],
                        "canonical_status": "none", "canonical_note": "states no canonical address"}],
    }  # fmt: skip
    files = {f["path"]: f for f in data["files"]}
    assert files["print/night-ride-safety.html"]["keep_cluster"] == keep["id"]
    # A WARC record's capture date (its WARC-Date), none for a page file.
    assert files["warc/trail-crawl.warc.gz#462"]["record_date"] == "2024-05-01T10:00:00Z"
    assert files["print/night-ride-safety.html"]["record_date"] is None
    # the partial pair's pages are a near-duplicate group, in no keep cluster
    partial = next(p for p in data["pairs"] if p["type"] == "partial")
    assert partial["cluster"] is not None and partial["keep_cluster"] is None
    assert files[partial["left"]]["keep_cluster"] is None


def test_json_of_a_subset_and_of_a_scan_with_errors_validate(sample_scan, tmp_path):
    content = _pair(sample_scan, CONTENT_PAIR)
    data = result_dict(sample_scan, [content])
    _validate(json.loads(json.dumps(data)))
    assert data["selection"] == {"subset": True, "pairs_shown": 1, "pairs_total": 7}
    assert len(data["clusters"]) == 1 and data["summary"]["clusters"] == 7
    folder = make_evil_folder(tmp_path / "evil")
    (folder / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    result = scan_folder(folder, ScanSettings(workers=1, use_cache=False))
    data = json.loads(json.dumps(result_dict(result)))
    _validate(data)
    assert data["errors"][0]["path"] == "image.html" and "PNG" in data["errors"][0]["reason"]


# ---- HTML ----------------------------------------------------------------------------------------


class _Tags(HTMLParser):
    """Collects start tags with their attributes, and the text, of an HTML document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data  # script text is not page text
        else:
            self.text.append(data)


def _parse(doc: str) -> _Tags:
    parser = _Tags()
    parser.feed(doc)
    return parser


def _csp_hashes(parsed: _Tags) -> list[str]:
    """The sha256 hash-sources of the report's CSP ``script-src``."""
    (meta,) = [a for t, a in parsed.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    script_src = next(d for d in meta["content"].split(";") if d.strip().startswith("script-src"))
    return [h.strip("'") for h in script_src.split()[1:]]


def _assert_inert(doc: str) -> None:
    """No script but our own (the table script, allowed by the CSP by its hash alone), no event
    handler, no frame or embed, nothing loaded from outside the file."""
    parsed = _parse(doc)
    names = [t for t, _ in parsed.tags]
    assert not set(names) & {"img", "iframe", "object", "embed", "link", "base", "form", "input"}, names
    assert names.count("script") == 1 and parsed.scripts == [TABLE_SCRIPT]
    scripts = [a for t, a in parsed.tags if t == "script"]
    assert scripts == [{}], scripts  # inline, no src
    # the hash, recomputed here from the script's text, is the one the CSP allows, and the only one
    digest = base64.b64encode(hashlib.sha256(parsed.scripts[0].encode("utf-8")).digest()).decode()
    assert _csp_hashes(parsed) == [f"sha256-{digest}"]
    for tag, attrs in parsed.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            if name in ("src", "href", "xlink:href", "action"):
                assert (value or "").startswith(("#", "data:")), (tag, name, value)


def test_html_report_escapes_every_page_string(tmp_path):
    result = scan_folder(make_evil_folder(tmp_path / "evil"), ScanSettings(workers=1, use_cache=False))
    assert result.pairs and result.pairs[0].type is not DupType.DISTINCT
    doc = html_report(result)
    _assert_inert(doc)
    text = "".join(_parse(doc).text)
    assert EVIL_TITLE in text  # shown as text, whole
    assert EVIL_NAME in text  # the file name too
    assert "https://evil.example/<script>x</script>" in text  # the URL
    assert html.escape(EVIL_TITLE, quote=True) in doc
    assert doc.lower().count("<script") == 1  # ours, at the end; the title's is escaped
    assert "changed" in text  # the diff excerpt, escaped like the rest


def test_html_report_summary_charts_clusters_pairs_errors(sample_scan):
    doc = html_report(sample_scan)
    _assert_inert(doc)
    parsed = _parse(doc)
    metas = [a for t, a in parsed.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert metas and metas[0]["content"].startswith(
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-"
    )
    assert [t for t, _ in parsed.tags].count("svg") == 2  # histogram and map, inline
    ids = [a["id"] for _, a in parsed.tags if "id" in a]
    assert len(ids) == len(set(ids)), "duplicate ids across the inline charts"
    text = " ".join(" ".join(parsed.text).split())
    for needle in (
        sample_scan.root,
        "full duplicate same same 4",
        "content duplicate same different 1",
        "layout duplicate important part shared same 1",
        "partial duplicate important part shared different 1",
        "distinct no important part shared any 0",
        "content_same 0.925",
        "hamming_k 3",
        KEEP_RULE,
        "清明前后上山采茶记 - 云岭茶舍",
        "None: every page file could be read.",
        "gallery/finish-line.html",
    ):
        assert needle in text, needle
    assert sum(1 for t, a in parsed.tags if t == "article") == 7  # one per duplicate pair
    assert sum(1 for t, a in parsed.tags if t == "tr" and a.get("id", "").startswith("cluster-")) == 7
    # the changed words of the Chinese pair are marked in its excerpt
    assert "<del>二</del>" in doc and "<ins>，报满即止</ins>" in doc


def test_html_report_lists_unusable_files_with_reasons(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (folder / "ok.html").write_text("<html><body><p>" + "text " * 50 + "</p></body></html>")
    doc = html_report(scan_folder(folder, ScanSettings(workers=1, use_cache=False)))
    text = " ".join(" ".join(_parse(doc).text).split())
    assert "image.html binary file (a PNG image), not an HTML page" in text


def test_chart_svg_prefixes_ids_and_refuses_outside_links(sample_scan):
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1])
    svg = chart_svg(fig, "c9")
    assert svg.startswith("<svg") and "<?xml" not in svg and "<metadata" not in svg
    assert all(i.startswith("c9-") for i in _ids(svg))
    ax.lines[0].set_url("javascript:alert(1)")  # a link out of the chart: refused
    with pytest.raises(ValueError):
        chart_svg(fig, "c9")


def _ids(svg: str) -> list[str]:
    import re

    return re.findall(r'\bid="([^"]+)"', svg)


# ---- diff excerpts -------------------------------------------------------------------------------


def test_diff_excerpt_marks_changes_with_short_context():
    a = "A " * 100 + "the quick brown fox jumps" + " B" * 100
    b = "A " * 100 + "the quick red fox jumps" + " B" * 100
    ex = diff_excerpt(a, b, context=20)
    assert not ex.identical and ex.total_spots == 1
    (spot,) = ex.spots
    assert [s.text for s in spot.a if s.changed] == ["brown"]
    assert [s.text for s in spot.b if s.changed] == ["red"]
    assert len("".join(s.text for s in spot.a)) < 20 * 2 + 10 + 2  # context each side, not the whole text
    assert diff_excerpt("same text", "same text").identical
    assert diff_excerpt("same  text", "same text").identical  # whitespace alone is no change


def test_diff_excerpt_shows_a_few_spots_of_many():
    words = [f"w{i}" for i in range(400)]
    changed = list(words)
    for i in range(0, 400, 50):
        changed[i] = "X"
    ex = diff_excerpt(" ".join(words), " ".join(changed), max_spots=3)
    assert ex.total_spots == 8 and len(ex.spots) == 3


def test_diff_excerpt_by_character_in_chinese(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    ex = diff_excerpt(
        pages["zh/spring-tea-picking-gbk.html"].main_text, pages["zh/spring-tea-picking-utf8.html"].main_text
    )
    assert [s.text for s in ex.spots[0].a if s.changed] == ["二"]
    assert [s.text for s in ex.spots[0].b if s.changed] == ["，报满即止"]


# ---- formats and atomic writes -------------------------------------------------------------------


def test_format_is_picked_by_suffix_or_given():
    assert [format_for(f"x{s}") for s in (".html", ".HTM", ".pdf", ".json", ".csv", ".xlsx")] == [
        "html",
        "html",
        "pdf",
        "json",
        "csv",
        "xlsx",
    ]
    assert format_for("x.csv", "keep-csv") == "keep-csv"
    assert set(EXPORT_FORMATS) == {"html", "pdf", "json", "csv", "pages-csv", "keep-csv", "xlsx"}
    with pytest.raises(ValueError, match="unknown output format"):
        format_for("x.txt")
    with pytest.raises(ValueError, match="unknown format"):
        format_for("x.csv", "xls")


@pytest.mark.parametrize("fmt,name,first_line", [
    ("html", "r.html", "<!DOCTYPE html>"),
    ("json", "r.json", "{"),
    ("csv", "r.csv", "left,right,type,content_similarity,content_containment,layout_similarity,hamming_distance,jaccard,cluster,contained_side"),
    ("pages-csv", "pages.csv", ",".join(PAGE_COLUMNS)),
    ("keep-csv", "keep.csv", "duplicate,keep,type,similarity,reason,canonical_status,canonical_note,duplicate_url,keep_url"),
])  # fmt: skip
def test_export_writes_each_core_format(sample_scan, tmp_path, fmt, name, first_line):
    out = export(sample_scan, tmp_path / name, fmt)
    assert out.read_text(encoding="utf-8").splitlines()[0] == first_line
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left


def test_write_result_keeps_its_first_signature(sample_scan, tmp_path):
    out = write_result(sample_scan, tmp_path / "r.csv")
    assert out.read_text(encoding="utf-8") == pairs_csv(sample_scan)
    with pytest.raises(ValueError):
        write_result(sample_scan, tmp_path / "r.pdf")  # PDF needs Qt: dedup_gui.export.export
    assert "groups:   7 near-duplicate groups; 5 keep clusters (5 pages to drop)" in summary_text(sample_scan)


def test_failed_write_leaves_the_existing_file_whole(sample_scan, tmp_path, monkeypatch):
    out = tmp_path / "report.html"
    out.write_text("the old report", encoding="utf-8")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    # fsync runs after the new contents were written to the temporary file: the write fails midway.
    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    with pytest.raises(ExportError, match="the disk is full"):
        export(sample_scan, out)
    assert out.read_text(encoding="utf-8") == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_cancelled_export_writes_nothing(sample_scan, tmp_path):
    class Cancelled:
        def update(self, stage, done, total):
            pass

        def cancelled(self):
            return True

    out = tmp_path / "report.html"
    out.write_text("the old report", encoding="utf-8")
    with pytest.raises(ScanCancelled):
        export(sample_scan, out, progress=Cancelled())
    assert out.read_text(encoding="utf-8") == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_unwritable_places_give_a_clear_error(tmp_path, monkeypatch):
    # Tests run as root, for whom a chmod-read-only folder is still writable; so: a folder that
    # does not exist, sysfs (where even root cannot create files), and a refused mkstemp.
    with pytest.raises(ExportError, match="does not exist"):
        atomic_write_text(tmp_path / "missing" / "r.html", "x")
    with pytest.raises(ExportError, match="a folder of that name is in the way"):
        check_writable(tmp_path)
    if Path("/sys/kernel").is_dir():
        with pytest.raises(ExportError) as info:
            atomic_write_text("/sys/report.html", "x")
        assert "choose another folder" in str(info.value)

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)
    with pytest.raises(ExportError) as info:
        check_writable(tmp_path / "r.html")
    assert str(info.value) == (
        f"cannot write {tmp_path / 'r.html'}: permission denied: the place is read-only or not yours to write; "
        "choose another folder"
    )
    assert isinstance(info.value, OSError) and info.value.errno == errno.EACCES


def test_written_files_are_shareable_and_keep_an_existing_mode(tmp_path):
    new = atomic_write_text(tmp_path / "new.csv", "x\n")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask  # not the 0600 of a temporary file
    old = tmp_path / "old.csv"
    old.write_text("old")
    old.chmod(0o640)
    atomic_write_text(old, "new")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text() == "new"


def test_atomic_write_follows_a_symlink_and_refuses_a_pipe(tmp_path):
    import os

    from dedup_gui.core.atomic import ExportError, atomic_write_text

    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"  # the link stays, its target is replaced
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    with pytest.raises(ExportError, match="not a regular file"):
        atomic_write_text(fifo, "x")


def test_bidi_overrides_in_page_strings_are_shown_not_obeyed(tmp_path):
    from dedup_gui.core.reports.html import esc

    # U+202E in a title would reverse the text after it ("txt.exe" spoofing); it is shown instead.
    assert esc("evil\u202etxt.exe") == "evil&lt;U+202E&gt;txt.exe"
    assert "\u202e" not in esc("a\u202eb\u2066c")


def test_reports_for_people_list_at_most_pair_limit_pairs(sample_scan):
    from dedup_gui.core.reports.html import html_from_report
    from dedup_gui.core.reports.model import build_report

    report = build_report(sample_scan, pair_limit=2)
    assert len(report.duplicates) == 2 and report.omitted == 5  # seven duplicate pairs in the samples
    assert len(report.clusters) == 7  # every cluster is still listed
    html = html_from_report(report)
    # 4 full, 1 content, 1 layout, 1 partial: two places go to two types, the rest are counted
    listed = {t: n for t, (n, _total) in report.listed_by_type.items()}
    assert sum(listed.values()) == 2 and all(n <= 1 for n in listed.values())
    for t, (n, total) in report.listed_by_type.items():
        if n < total:
            assert f"{t.label.capitalize()}s (the most similar): {n:,} of {total:,} shown; the CSV, XLSX" in html
    # the caps say why they are what they are: a tester read "1,411 of 1,946 shown" as arbitrary
    assert "The report lists 2 pairs, its limit, shared among the types so that each shows its most similar" in html


def test_a_report_says_how_many_pairs_the_user_marked_not_a_duplicate(sample_scan):
    # A report exported from the window after Not a Duplicate counted those pairs as distinct
    # without a word: a reader could not tell the analyst's marks from the measures.
    from dataclasses import replace

    from dedup_gui.core.model import DupType
    from dedup_gui.core.reports.html import html_from_report
    from dedup_gui.core.reports.model import build_report

    pairs = list(sample_scan.pairs)
    pairs[0] = replace(pairs[0], type=DupType.DISTINCT, not_duplicate=True)
    marked = replace(sample_scan, pairs=pairs)
    html = html_from_report(build_report(marked))
    assert "1 pair marked “not a duplicate” in the window (the ignore list) counts as distinct" in html
    assert "marked “not a duplicate”" not in html_from_report(build_report(sample_scan))
    assert "<th class='n' title='the share of the pages scanned that are in at least one pair of this type'>" in html


def test_every_type_is_listed_however_many_pairs_another_type_has(sample_scan):
    # A real site's report once listed its first 5,000 pairs, all of them full duplicates: none
    # of the 4,249 content, layout or partial pairs appeared.  The places are shared by type.
    from dataclasses import replace

    from dedup_gui.core.model import DupType
    from dedup_gui.core.reports.model import build_report, fair_shares

    assert fair_shares({"a": 2227, "b": 25, "c": 2220, "d": 663}, 5000) == {"a": 2156, "b": 25, "c": 2156, "d": 663}
    assert fair_shares({"a": 10, "b": 0}, 3) == {"a": 3, "b": 0}
    full = next(p for p in sample_scan.pairs if p.type is DupType.FULL)
    many = replace(sample_scan, pairs=[full] * 40 + [p for p in sample_scan.pairs if p.type is not DupType.FULL])
    report = build_report(many, pair_limit=8, excerpt_limit=4)
    types = [e.pair.type for e in report.duplicates]
    assert types.count(DupType.CONTENT) == types.count(DupType.LAYOUT) == types.count(DupType.PARTIAL) == 1
    assert types.count(DupType.FULL) == 5 and types == sorted(types, key=list(DupType).index)
    assert report.listed_by_type[DupType.FULL] == (5, 40)
    assert sum(1 for e in report.duplicates if e.excerpt is not None) == 4  # one a type


def test_a_rasterized_chart_is_allowed_in_the_report_but_not_a_remote_image():
    # A map of more than RASTERIZE_POINTS points is drawn as an embedded PNG
    # (href="data:image/png;base64,..."): allowed, the CSP permits data: images.  An image from
    # elsewhere would be fetched: refused.
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    ax.scatter(range(3000), range(3000)).set_rasterized(True)
    svg = chart_svg(fig, "m1")
    assert 'href="data:image/png;base64,' in svg
    fig2 = Figure()
    fig2.add_subplot().plot([0, 1]).pop().set_url("https://example.com/x.png")
    with pytest.raises(ValueError):
        chart_svg(fig2, "m2")


def test_links_not_followed_are_listed_with_their_reasons_in_every_report(tmp_path):
    # The reports said "3 other files (style sheets, images...) were skipped as not pages" for
    # symlinked folders that were a loop or a second path (a tester).
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.core.reports.write import html_report, summary_text

    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "a" / "page.html").write_text("<html><body><p>" + "word " * 20 + "</p></body></html>")
    (site / "a" / "style.css").write_text("p {}")
    os.symlink("..", site / "a" / "up")  # a loop
    os.symlink("a", site / "b")  # a second path to a/ (the real path a/ is walked)
    result = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    assert result.skipped == ["a/style.css", "a/up/", "b/"]
    assert skipped_sentence(result) == (
        "3 other files were skipped: 1 as not pages (style sheets, images, a browser's resource folders...); "
        "2 for the reasons listed (links to files or folders already read, loops...)."
    )
    text = summary_text(result)
    assert "  skipped: a/up/: the scanned folder again, inside itself through a link (a loop): not followed" in text
    link = "a link to a/: its page is read there (the same page at a second address)"
    assert f"  skipped: b/: {link}" in text
    page = html_report(result)
    assert f"<li>b/: {link}</li>" in page
    assert "skipped as not pages." not in page


# ---- spreadsheet, terminal and bidi safety of page strings ---------------------------------------

#: File names a spreadsheet would run as formulas (OWASP "CSV Injection") -> the CSV cell each
#: must become: the name behind one apostrophe, which makes the cell text.
FORMULA_NAMES = {
    '=HYPERLINK("x").html': '\'=HYPERLINK("x").html',
    "+1.html": "'+1.html",
    "-1.html": "'-1.html",
    "@SUM.html": "'@SUM.html",
    "\tTab.html": "'\tTab.html",
    "\rCR.html": "'\rCR.html",
}


def make_formula_folder(root: Path) -> Path:
    """Copies of one page under every :data:`FORMULA_NAMES` name, titled ``=1+1``; a PNG named
    ``-bad.html`` (an error) and a style sheet named ``@style.css`` (skipped)."""
    root.mkdir(parents=True)
    body = "<p>" + " ".join(f"word{i}" for i in range(150)) + "</p>"
    for name in FORMULA_NAMES:
        (root / name).write_text(f"<html><head><title>=1+1</title></head><body>{body}</body></html>")
    (root / "-bad.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (root / "@style.css").write_text("p {}")
    return root


def test_every_csv_cell_a_spreadsheet_would_run_is_neutralised(tmp_path):
    # A file named =HYPERLINK(...) reached the pairs, pages and keep CSVs as a live formula; only
    # titles and reasons were neutralised.  Every cell is now, and the numbers stay numbers.
    result = scan_folder(make_formula_folder(tmp_path / "f"), ScanSettings(workers=1, use_cache=False))
    assert sorted(p.path for p in result.pages) == sorted(FORMULA_NAMES)
    report = build_report(result, mtime=same_time, excerpt_limit=0)

    pairs = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert len(pairs) == 15  # 6 copies: every pair is a full duplicate
    assert {r["left"] for r in pairs} | {r["right"] for r in pairs} == set(FORMULA_NAMES.values())
    assert {(r["type"], r["content_similarity"], r["hamming_distance"]) for r in pairs} == {("full", "1.0000", "0")}

    pages = {r["path"]: r for r in csv.DictReader(io.StringIO(render(report, "pages-csv")))}
    assert set(pages) == {*FORMULA_NAMES.values(), "'-bad.html", "'@style.css"}
    kept = FORMULA_NAMES[report.keep_clusters[0].keep.path]
    for name in FORMULA_NAMES.values():
        assert (pages[name]["title"], pages[name]["word_count"], pages[name]["keep"]) == ("'=1+1", "150", kept)
    assert pages["'-bad.html"]["status"] == "error"
    assert pages["'@style.css"]["status"] == "skipped"

    keep = list(csv.reader(io.StringIO(render(report, "keep-csv"))))
    assert keep[0][:2] == ["duplicate", "keep"]
    assert sorted(row[:2] for row in keep[1:]) == sorted(
        [cell, kept] for cell in FORMULA_NAMES.values() if cell != kept
    )

    # The JSON is for tools: the exact names.
    data = json.loads(render(report, "json"))
    assert {f["path"] for f in data["files"]} == {*FORMULA_NAMES, "-bad.html", "@style.css"}


def test_summary_text_shows_control_characters_in_names_as_escapes(tmp_path):
    # A file name with ESC and a newline recoloured the terminal and forged an "error:" line.
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a\x1b[31mred\n error: forged\u202e.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(256))
    text = summary_text(scan_folder(folder, ScanSettings(workers=1, use_cache=False)))
    assert text.splitlines()[-1] == (
        "  error: a\\x1b[31mred\\n error: forged\\u202e.html: binary file (a PNG image), not an HTML page"
    )
    assert "\x1b" not in text and "\u202e" not in text


def _report_of_two_titled_pages(tmp_path, title: str, names=("a.html", "b.html")) -> str:
    """The HTML report of a folder of two pages with one article and this title (raw HTML)."""
    folder = tmp_path / "f"
    folder.mkdir()
    body = "<p>" + " ".join(f"word{i}" for i in range(150)) + "</p>"
    for name in names:
        (folder / name).write_text(f"<html><head><title>{title}</title></head><body>{body}</body></html>",
                                   encoding="utf-8")  # fmt: skip
    return html_report(scan_folder(folder, ScanSettings(workers=1, use_cache=False)))


def test_arabic_letter_mark_is_shown_in_the_html_report_like_the_other_bidi_controls(tmp_path):
    # U+061C (ARABIC LETTER MARK) is a bidi control like U+200F; it was left raw in reports.
    doc = _report_of_two_titled_pages(tmp_path, "evil\u061ctxt\u202eexe")
    assert "evil&lt;U+061C&gt;txt&lt;U+202E&gt;exe" in doc
    assert "\u061c" not in doc and "\u202e" not in doc


def test_control_characters_in_names_and_titles_are_shown_in_the_html_report(tmp_path):
    # ESC, BEL and BS in a title or a file name reached the report raw, invisible to the reader.
    doc = _report_of_two_titled_pages(tmp_path, "red&#27;[31mtitle&#8;x", names=("a\x07.html", "b.html"))
    assert "red&lt;U+001B&gt;[31mtitle&lt;U+0008&gt;x" in doc and "a&lt;U+0007&gt;.html" in doc
    assert not any(c in doc for c in "\x1b\x07\x08")


def test_the_summary_says_one_page_to_drop_in_the_singular():
    # it said "(1 pages to drop)"
    from dedup_gui.core.model import Pair, PairScores

    result = replace(_result([_page("a.html"), _page("b.html")]),
                     pairs=[Pair(0, 1, PairScores(1.0, 1.0, 1.0, 0, 1.0), DupType.FULL)])  # fmt: skip
    assert "1 keep cluster (1 page to drop)" in summary_text(result)
