"""WARC files as input (issue 19): records listed, read, decoded; damage reported, the scan going on.

The archives are written here with FastWARC's writer (resources/make_sample_warc.py's helpers).
"""

import gzip
import zlib

import brotli
import pytest
from fastwarc.warc import WarcRecordType

from dedup_gui.core.model import DupType, ScanSettings
from dedup_gui.core.pipeline.features import load_page
from dedup_gui.core.pipeline.page_html import read_page_html
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.pipeline.walk import SourceFile
from dedup_gui.core.pipeline.warc import list_records, read_record
from resources.make_sample_warc import chunked, http_response, record, write_warc

WORDS = "the hut sits above the lake and its warden opens the doors in june for walkers and climbers alike"
BODY = f"<html><head><title>Hut</title></head><body><article><p>{WORDS}. {WORDS}.</p></article></body></html>".encode()
OTHER = (
    b"<html><body><article><p>five small lakes lie in the basin below the pass, each colder than the last;"
    b" swimming is allowed in the lowest one and a loop path joins them all in ninety minutes</p></article></body></html>"
)
DATE = "2024-05-01T10:00:00Z"
SETTINGS = ScanSettings(workers=1, use_cache=False)


def _listing(path):
    return list_records(SourceFile(path.name, str(path)), 10**7)


def _archive(tmp_path, records, compress=True, name=None):
    path = tmp_path / (name or ("crawl.warc.gz" if compress else "crawl.warc"))
    offsets = write_warc(path, records, compress)
    return path, offsets


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzipped"])
def test_html_records_are_pages_named_by_file_and_offset(tmp_path, compress):
    path, offsets = _archive(
        tmp_path,
        [
            record(
                "", b"software: test\r\n", DATE, WarcRecordType.warcinfo, {"Content-Type": "application/warc-fields"}
            ),
            record("https://a.example/hut", http_response(BODY), DATE),
            record("https://a.example/logo.png", http_response(b"\x89PNG\r\n\x1a\n", "image/png"), DATE),
            record("https://a.example/x.css", http_response(b"p{}", "text/css"), DATE),
            record("https://a.example/old", http_response(b"", "", "301 Moved"), DATE),
            record("https://a.example/res", BODY, DATE, WarcRecordType.resource, {"Content-Type": "text/html"}),
        ],
        compress,
    )
    listing = _listing(path)
    name = path.name
    # The response and the resource record are pages; warcinfo, image, style sheet and redirect are counted.
    assert [f.path for f in listing.files] == [f"{name}#{offsets[1]}", f"{name}#{offsets[5]}"]
    assert [f.record.url for f in listing.files] == ["https://a.example/hut", "https://a.example/res"]
    assert listing.files[0].record.date == DATE
    assert listing.errors == []
    assert listing.summary(name) == (
        f"{name}: 6 records, 2 HTML pages; skipped 2 not HTML (image/png 1, text/css 1), "
        "1 not a 2xx response (HTTP 301 1), 1 other records (warcinfo 1)"
    )
    # A record is read again at its offset alone.
    assert read_record(str(path), offsets[1], 10**7).html == BODY
    assert read_record(str(path), offsets[5], 10**7).html == BODY


def test_chunked_and_compressed_payloads_are_decoded(tmp_path):
    deflated = zlib.compress(BODY)
    raw = zlib.compressobj(wbits=-15)
    raw_deflated = raw.compress(BODY) + raw.flush()
    bodies = [
        (chunked(BODY, 50), ["Transfer-Encoding: chunked"]),
        (gzip.compress(BODY), ["Content-Encoding: gzip"]),
        (chunked(gzip.compress(BODY), 30), ["Content-Encoding: gzip", "Transfer-Encoding: chunked"]),
        (brotli.compress(BODY), ["Content-Encoding: br"]),
        (deflated, ["Content-Encoding: deflate"]),
        (raw_deflated, ["Content-Encoding: deflate"]),  # raw deflate, as many servers send it
    ]
    path, offsets = _archive(
        tmp_path,
        [record(f"https://a.example/{n}", http_response(b, headers=h), DATE) for n, (b, h) in enumerate(bodies)],
    )
    for offset in offsets:
        assert read_record(str(path), offset, 10**7).html == BODY
    # Scanned, they are one page crawled six times: exact duplicates of each other.
    result = scan_folder(path, SETTINGS)
    assert len(result.pages) == 6 and result.errors == []
    assert {p.main_text for p in result.pages} == {f"{WORDS}. {WORDS}."}
    assert len(result.pairs) == 15 and {p.type for p in result.pairs} == {DupType.FULL}


def test_a_revisit_is_listed_as_an_exact_revisit_of_its_page(tmp_path):
    path, offsets = _archive(
        tmp_path,
        [
            record("https://a.example/hut", http_response(BODY), DATE, headers={"WARC-Payload-Digest": "sha1:ABC"}),
            record(
                "https://a.example/hut",
                http_response(b"", status="304 Not Modified"),
                "2024-06-01T00:00:00Z",
                WarcRecordType.revisit,
                {"WARC-Refers-To-Target-URI": "https://a.example/hut"},
            ),  # fmt: skip
            record(
                "https://a.example/hut2",
                http_response(b""),
                "2024-06-01T00:00:00Z",
                WarcRecordType.revisit,
                {"WARC-Payload-Digest": "sha1:ABC"},
            ),  # fmt: skip
            record(
                "https://b.example/gone",
                http_response(b""),
                "2024-06-01T00:00:00Z",
                WarcRecordType.revisit,
                {"WARC-Refers-To-Date": "2023-01-01T00:00:00Z"},
            ),  # fmt: skip
        ],
    )
    result = scan_folder(tmp_path, SETTINGS)
    first = f"crawl.warc.gz#{offsets[0]}"
    assert [p.path for p in result.pages] == [first]
    revisits = [f"crawl.warc.gz#{o}" for o in offsets[1:]]
    assert [s for s in result.skipped if s.startswith("crawl.warc.gz#")] == sorted(revisits)
    assert result.skip_reasons[revisits[0]] == (
        f"a WARC revisit record: https://a.example/hut unchanged since {first}, an exact duplicate of it; not read again"
    )
    assert first in result.skip_reasons[revisits[1]]  # matched by its payload digest
    assert result.skip_reasons[revisits[2]] == (
        "a WARC revisit record: https://b.example/gone unchanged since its capture of 2023-01-01T00:00:00Z;"
        " that capture is not in the scan"
    )
    assert "crawl.warc.gz: 4 records, 1 HTML page; skipped 3 revisits (listed as skipped)" in result.notes


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzipped"])
def test_a_truncated_last_record_is_an_error_and_the_rest_is_scanned(tmp_path, compress):
    path, offsets = _archive(
        tmp_path,
        [
            record("https://a.example/1", http_response(BODY), DATE),
            record("https://a.example/2", http_response(BODY), DATE),
        ],
        compress,
    )
    path.write_bytes(path.read_bytes()[:-40])  # the file ends inside the last record
    result = scan_folder(path, SETTINGS)
    assert [p.path for p in result.pages] == [f"{path.name}#{offsets[0]}"]
    assert [e.path for e in result.errors] == [f"{path.name}#{offsets[1]}"]
    assert result.errors[0].reason.startswith("truncated record: the file ends after ")


def test_damaged_records_are_errors_with_offset_and_reason_and_reading_goes_on(tmp_path):
    def good():  # a record's content is read once when written: new records for each archive
        return [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(3)]

    path, offsets = _archive(tmp_path, good(), compress=False)
    data = path.read_bytes()
    # A wrong Content-Length in the first record, and a header line without a colon in the second.
    declared = f"Content-Length: {len(http_response(BODY))}".encode()
    data = data.replace(declared, b"Content-Length: 100", 1)
    second = data.index(b"Content-Type: text/html", offsets[1])
    data = data[:second] + b"Content-Type; text/html" + data[second + 23 :]  # same length: offsets unchanged
    path.write_bytes(data)
    listing = _listing(path)
    assert listing.errors == [
        (f"crawl.warc#{offsets[0]}", "wrong Content-Length: the record does not end where its Content-Length says"),
        (
            f"crawl.warc#{offsets[1]}",
            "bad HTTP header: a header line without a colon (b'Content-Type; text/html; charset=utf-8')",
        ),
    ]
    assert [f.path for f in listing.files] == [f"crawl.warc#{offsets[2]}"]

    # A damaged gzip member in the middle of a .warc.gz: the next member is read.
    gz_path, gz_offsets = _archive(tmp_path, good(), name="members.warc.gz")
    data = gz_path.read_bytes()
    middle = bytearray(data)
    middle[gz_offsets[1] + 40 : gz_offsets[1] + 60] = b"\x00" * 20
    gz_path.write_bytes(bytes(middle))
    listing = _listing(gz_path)
    assert [f.path for f in listing.files] == [f"members.warc.gz#{gz_offsets[0]}", f"members.warc.gz#{gz_offsets[2]}"]
    assert [(p, r.split(":")[0]) for p, r in listing.errors] == [
        (f"members.warc.gz#{gz_offsets[1]}", "damaged gzip member")
    ]


def test_a_charset_only_in_the_http_header_decodes_the_page(tmp_path):
    latin = "<html><body><p>Caf\u00e9 cr\u00e8me, na\u00efve d\u00e9j\u00e0 vu, " + WORDS + "</p></body></html>"
    chinese = (
        "<html><body><p>"
        + "\u5c71\u95f4\u5c0f\u5c4b\u4f4d\u4e8e\u6e56\u8fb9\uff0c\u590f\u5929\u5f00\u653e\u3002" * 6
        + "</p></body></html>"
    )
    path, offsets = _archive(
        tmp_path,
        [
            record(
                "https://a.example/fr", http_response(latin.encode("cp1252"), "text/html; charset=windows-1252"), DATE
            ),
            record("https://a.example/zh", http_response(chinese.encode("gbk"), 'text/html; charset="GBK"'), DATE),
        ],
    )
    fr = load_page(SourceFile("x", str(path), _listing(path).files[0].record), SETTINGS)
    assert (fr.encoding, fr.encoding_source) == ("cp1252", "http")
    assert "Caf\u00e9 cr\u00e8me, na\u00efve d\u00e9j\u00e0 vu" in fr.main_text
    zh = load_page(_listing(path).files[1], SETTINGS)
    assert (zh.encoding, zh.encoding_source) == ("gb18030", "http")
    assert "\u5c71\u95f4\u5c0f\u5c4b\u4f4d\u4e8e\u6e56\u8fb9" in zh.main_text
    assert (zh.url, zh.record_offset, zh.record_date) == ("https://a.example/zh", offsets[1], DATE)
    # The views read the record again, decoded the same way.
    assert "\u5c71\u95f4\u5c0f\u5c4b" in read_page_html(zh.path, zh.abspath, str(tmp_path), 10**7)


def test_a_scan_of_a_folder_reads_warc_pages_beside_files_and_caches_them_by_payload(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "hut.html").write_bytes(BODY)
    path, offsets = _archive(
        tmp_path,
        [
            record("https://a.example/hut", http_response(BODY), DATE),
            record("https://a.example/hut?ref=x", http_response(BODY), "2024-05-02T00:00:00Z"),
        ],  # fmt: skip
    )
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    first = scan_folder(tmp_path, settings)
    paths = [p.path for p in first.pages]
    assert paths == [f"crawl.warc.gz#{offsets[0]}", f"crawl.warc.gz#{offsets[1]}", "site/hut.html"]
    assert [p.url for p in first.pages[:2]] == ["https://a.example/hut", "https://a.example/hut?ref=x"]
    assert {p.type for p in first.pairs} == {DupType.FULL} and len(first.pairs) == 3
    # Rescanned, the records come from the cache with their own URLs and offsets.
    again = scan_folder(tmp_path, settings)
    assert [(p.path, p.url, p.record_offset, p.record_date) for p in again.pages] == [
        (p.path, p.url, p.record_offset, p.record_date) for p in first.pages
    ]
    assert "crawl.warc.gz: 2 records, 2 HTML pages" in again.notes


def test_a_worker_pool_scans_warc_records(tmp_path):
    path, _offsets = _archive(tmp_path, [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(3)])
    result = scan_folder(path, ScanSettings(workers=2, use_cache=False))
    assert len(result.pages) == 3 and result.errors == [] and len(result.pairs) == 3


def test_the_keep_rule_takes_a_warc_page_s_capture_date_and_url(tmp_path):
    from dataclasses import replace

    from dedup_gui.core.pipeline.keep import file_mtime

    path, _offsets = _archive(tmp_path, [record("https://a.example/hut", http_response(BODY), DATE)])
    page = scan_folder(path, SETTINGS).pages[0]
    assert file_mtime(page) == 1714557600.0  # 2024-05-01T10:00:00Z, not the archive file's mtime
    assert file_mtime(replace(page, record_date="not a date")) == float("inf")


def test_the_command_line_scans_a_warc_file(tmp_path):
    import json

    from tests.test_cli import run

    path, offsets = _archive(
        tmp_path,
        [
            record("https://a.example/hut", http_response(BODY), DATE),
            record("https://a.example/hut?ref=x", http_response(BODY), DATE),
        ],  # fmt: skip
    )
    proc = run("scan", str(path), "-o", str(tmp_path / "out.json"), "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    # The input is an archive of records, not a folder of files.
    assert proc.stdout.splitlines()[0] == f"archive:  {path}"
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    pages = [(p["path"], p["url"]) for p in report["files"] if p["status"] == "ok"]
    assert pages == [(f"crawl.warc.gz#{offsets[0]}", "https://a.example/hut"),
                     (f"crawl.warc.gz#{offsets[1]}", "https://a.example/hut?ref=x")]  # fmt: skip
    assert [p["type"] for p in report["pairs"]] == ["full"]


def test_the_window_s_status_line_counts_an_archive_s_records(tmp_path):
    from dedup_gui.core.views.session import summarize

    path, _offsets = _archive(tmp_path, [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(3)])
    # (the feature cache off, as SETTINGS has it, is said after the pair count)
    assert summarize(scan_folder(path, SETTINGS)).startswith(
        "Scanned 3 records: 3 duplicate pairs of 3 compared (feature cache off); 1 near-duplicate group"
    )
    # A folder holding the archive: its records are its pages (the command line's "pages:" count).
    assert summarize(scan_folder(tmp_path, SETTINGS)).startswith("Scanned 3 pages: ")


def test_the_inspector_s_views_read_a_warc_page_from_its_record(tmp_path):
    # The text, layout and rendered views go back to the page: for a WARC page, to its record
    # (gzip-compressed and chunked here), never to the archive file's bytes.
    from dedup_gui.core.views.layout_diff import page_layout
    from dedup_gui.core.views.safe_html import prepare_page

    coded = http_response(
        chunked(gzip.compress(BODY), 40), headers=["Content-Encoding: gzip", "Transfer-Encoding: chunked"]
    )
    path, _offsets = _archive(tmp_path, [record("https://a.example/hut", coded, DATE)])
    result = scan_folder(tmp_path, SETTINGS)
    page = result.pages[0]
    layout = page_layout(page, 10**7, result.root)
    assert tuple(layout.tags) == page.tag_sequence and layout.content_span == page.content_span
    prepared = prepare_page(page.path, page.abspath, result.root, 10**7)
    assert WORDS in prepared.html and "<article>" in prepared.html


def test_url_dedup_sees_the_same_url_crawled_twice_and_mirror_hosts(tmp_path):
    from dedup_gui.core.methods.urls import compare_urls, page_url

    other = BODY.replace(b"june", b"july")
    path, _offsets = _archive(
        tmp_path,
        [
            record("https://a.example/hut", http_response(BODY), DATE),
            record("https://a.example/hut", http_response(other), "2024-06-01T00:00:00Z"),
            record("https://www.a.example/hut", http_response(BODY), DATE),
        ],  # fmt: skip
    )
    first, again, mirror = scan_folder(path, SETTINGS).pages
    assert compare_urls(page_url(first), page_url(again)).reason == "same normalized URL"
    assert (
        compare_urls(page_url(first), page_url(mirror)).reason
        == "same path on mirror hosts a.example and www.a.example"
    )


def test_the_size_limit_applies_to_a_warc_record(tmp_path):
    path, offsets = _archive(tmp_path, [record("https://a.example/hut", http_response(BODY), DATE)])
    listing = list_records(SourceFile(path.name, str(path)), 100)
    size = len(http_response(BODY))
    assert listing.files == [] and listing.errors == [
        (f"crawl.warc.gz#{offsets[0]}", f"too large: a record of {size:,} bytes > limit of 100 bytes (--max-file-mb)")
    ]


def test_the_keep_rule_reads_a_warc_page_s_version_and_length_from_its_url(tmp_path):
    # The record offsets in the pages' paths (#1090 > #462) are no version numbers: the capture
    # at the newer version's URL is kept, and between two captures of one URL the older one.
    path, offsets = _archive(
        tmp_path,
        [
            record("https://a.example/docs/v2/hut", http_response(BODY), "2024-05-02T00:00:00Z"),
            record("https://a.example/docs/v1/hut", http_response(BODY), DATE),
            record("https://b.example/lake?ref=x", http_response(OTHER), "2024-05-03T00:00:00Z"),
            record("https://b.example/lake?ref=x", http_response(OTHER), DATE),
        ],  # fmt: skip
    )
    from dedup_gui.core.pipeline.keep import choose_keep

    result = scan_folder(path, SETTINGS)
    kept = {choose_keep(result, c).keep for c in result.clusters}
    assert {result.pages[i].path for i in kept} == {f"crawl.warc.gz#{offsets[0]}", f"crawl.warc.gz#{offsets[3]}"}


def test_a_warc_gz_of_one_gzip_stream_is_an_error_that_says_how_to_fix_it(tmp_path):
    # Records are read at their offsets, so each must be its own gzip member (ISO 28500 annex D).
    plain, _offsets = _archive(
        tmp_path, [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(2)], False
    )
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    plain.unlink()
    result = scan_folder(tmp_path, SETTINGS)
    assert result.pages == [] and [(e.path, e.reason) for e in result.errors] == [
        ("whole.warc.gz", "a .warc.gz compressed as one gzip stream, not one gzip member per record as WARC writers "
         "do: its records cannot be read one by one (recompress it, e.g. with warcio recompress)")
    ]  # fmt: skip


def test_an_uncompressed_warc_named_warc_gz_is_read_as_what_it_is(tmp_path):
    # Whether a file is gzip is judged by its first bytes, not its name: a plain WARC saved as
    # .warc.gz was called "one gzip stream... recompress it".
    plain, offsets = _archive(tmp_path, [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(2)],
                              False)  # fmt: skip
    named = plain.rename(tmp_path / "crawl.warc.gz")
    listing = _listing(named)
    assert [f.path for f in listing.files] == [f"crawl.warc.gz#{o}" for o in offsets] and listing.errors == []
    assert read_record(str(named), offsets[1], 10**7).html == BODY


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("x.warc.gz", gzip.compress(b"hello world\nthis is plain text, not a crawl archive\n" * 20),
         "not a WARC file: its gzip content does not begin with a WARC record header (WARC/1.0 or WARC/1.1)"),
        ("x.warc.gz", bytes(range(256)) * 20,
         "not a WARC file: not gzip data, and it does not begin with a WARC record header (WARC/1.0 or WARC/1.1)"),
        ("x.warc", b"hello world\nthis is plain text, not a crawl archive\n" * 20,
         "not a WARC file: it does not begin with a WARC record header (WARC/1.0 or WARC/1.1)"),
    ],
    ids=["gzip-of-text", "random-bytes", "plain-text"],
)  # fmt: skip
def test_a_file_named_warc_that_is_not_one_is_one_error_for_the_file(tmp_path, name, content, reason):
    # Before, such a file was "1 record, 0 HTML pages; skipped 1 damaged" with an error for
    # "x.warc.gz#0: damaged record: Invalid WARC header": a record that never existed.
    (tmp_path / name).write_bytes(content)
    (tmp_path / "hut.html").write_bytes(BODY)
    result = scan_folder(tmp_path, SETTINGS)
    assert [p.path for p in result.pages] == ["hut.html"]
    assert [(e.path, e.reason) for e in result.errors] == [(name, reason)]
    assert not any(note.startswith(name) for note in result.notes)  # no record summary for it


def test_a_warc_whose_first_record_is_damaged_still_lists_the_others(tmp_path):
    # The "not a WARC file" verdict needs the start to be no WARC record and no record after it.
    path, offsets = _archive(tmp_path, [record(f"https://a.example/{n}", http_response(BODY), DATE) for n in range(2)])
    data = bytearray(path.read_bytes())
    data[0:20] = b"\x00" * 20
    path.write_bytes(bytes(data))
    listing = _listing(path)
    assert [f.path for f in listing.files] == [f"crawl.warc.gz#{offsets[1]}"]
    assert [p for p, _reason in listing.errors] == ["crawl.warc.gz#0"]


def test_a_revisit_is_credited_to_the_capture_in_its_own_archive(tmp_path):
    # The same page (one payload digest) captured in two archives; each archive's revisit of it
    # is an exact revisit of its own archive's capture, not of the first archive listed.
    def crawl(name, revisit_date):
        return _archive(
            tmp_path,
            [
                record("https://a.example/hut", http_response(BODY), DATE, headers={"WARC-Payload-Digest": "sha1:ABC"}),
                record(
                    "https://a.example/hut",
                    http_response(b"", status="304 Not Modified"),
                    revisit_date,
                    WarcRecordType.revisit,
                    {"WARC-Payload-Digest": "sha1:ABC"},
                ),
            ],
            name=name,
        )

    _a, a_offsets = crawl("a.warc.gz", "2024-06-01T00:00:00Z")
    _b, b_offsets = crawl("b.warc.gz", "2024-06-02T00:00:00Z")
    result = scan_folder(tmp_path, SETTINGS)
    assert result.skip_reasons[f"b.warc.gz#{b_offsets[1]}"] == (
        f"a WARC revisit record: https://a.example/hut unchanged since b.warc.gz#{b_offsets[0]},"
        " an exact duplicate of it; not read again"
    )
    assert f"since a.warc.gz#{a_offsets[0]}," in result.skip_reasons[f"a.warc.gz#{a_offsets[1]}"]
