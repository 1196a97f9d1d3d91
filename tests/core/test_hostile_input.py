"""Hostile and broken input (issue 5): every file gets a verdict, nothing is silently lost.

All fixtures are written by the tests themselves, small ones byte by byte, large ones generated.
"""

import gzip
import json
import os

import pytest

from dedup_gui.core.model import DupType, ScanSettings
from dedup_gui.core.pipeline.features import page_from_bytes
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.reports.write import write_result

ARTICLE = "".join(
    f"<p>The renovated library on Main Street reopened on Monday with reading room number {i}, "
    "longer opening hours and a larger children's section, the council said in a statement.</p>"
    for i in range(6)
)


def page(body: str, head: str = "<title>t</title>") -> bytes:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>".encode()


def analyse(data: bytes, **settings):
    return page_from_bytes("p.html", "/nonexistent/p.html", data, ScanSettings(**settings))


@pytest.mark.parametrize(
    "name,data",
    [
        ("empty", b""),
        ("whitespace only", b"  \n\t \r\n "),
        ("frameset", page("", "<title>Frames</title>").replace(b"<body></body>", b'<frameset cols="50%,50%"><frame src="a.html"><frame src="b.html"></frameset>')),
        ("iframes only", page('<iframe src="a.html"></iframe><iframe src="b.html"></iframe>')),
        ("image only", page('<img src="a.png"><img src="b.png">')),
        ("symbols only", page("<p>★ ☆ → ← ... !!! ??? — ©®™ ★★★</p>")),
        ("two characters", page("<p>OK</p>")),
        ("three CJK characters", page("<p>你好吗</p>")),
    ],
)  # fmt: skip
def test_pages_without_usable_text_are_marked(name, data):
    p = analyse(data)
    assert not p.has_text, name
    assert any("no usable main text" in n for n in p.notes)


def test_no_text_pages_are_never_duplicates_of_each_other(tmp_path):
    (tmp_path / "a.html").write_bytes(page('<img src="a.png">'))
    (tmp_path / "b.html").write_bytes(page("<p>★ ☆ →</p>"))
    (tmp_path / "c.html").write_bytes(page("<p>OK</p>"))
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    assert all(p.type is DupType.DISTINCT for p in result.pairs)
    assert result.clusters == []


def test_nul_bytes_inside_a_page_are_ignored():
    p = analyse(page(ARTICLE.replace("Monday", "Mon\x00day", 1)))
    assert p.has_text and "\x00" not in p.main_text and "Monday" in p.main_text


def test_text_nested_deeper_than_256_elements_is_extracted():
    body = "<div>" * 400 + ARTICLE + "</div>" * 400
    p = analyse(page(body))
    assert p.main_text.count("renovated library") == 6
    assert len(p.tag_sequence) > 400


def test_a_huge_text_node_is_extracted_whole():
    # One <p> of 1.1 million words (about 11 MB): more than libxml2's 10 MB text-node limit
    # without huge_tree, where the text would be cut silently.
    words = " ".join(f"word{i % 7919:05d}" for i in range(1_100_000))
    data = page(f"<article><p>{words}</p></article>")
    assert len(data) > 10 * 1024 * 1024
    p = analyse(data)
    assert p.word_count == 1_100_000


def test_a_file_over_the_size_limit_is_reported_not_cut(tmp_path):
    (tmp_path / "big.html").write_bytes(page("<p>" + "x " * 600_000 + "</p>"))
    result = scan_folder(tmp_path, ScanSettings(workers=1, max_file_bytes=1024 * 1024))
    assert [e.path for e in result.errors] == ["big.html"]
    assert "too large" in result.errors[0].reason and "1,048,576" in result.errors[0].reason


def test_a_cookie_banner_longer_than_the_article_is_not_the_main_text():
    banner = '<div class="cookie-consent">' + "We use cookies to improve your experience. " * 60 + "</div>"
    p = analyse(page(banner + f"<article><h1>Library reopens</h1>{ARTICLE}</article>"))
    assert "cookies" not in p.main_text
    assert p.main_text.count("renovated library") == 6


def test_gzip_pages_and_mhtml(tmp_path):
    (tmp_path / "a.html").write_bytes(gzip.compress(page(ARTICLE)))
    (tmp_path / "b.html.gz").write_bytes(gzip.compress(page(ARTICLE)))
    mht = (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="XX"\r\n\r\n--XX\r\n'
        b'Content-Type: text/html; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'
        + page(ARTICLE).replace(b"=", b"=3D")
        + b"\r\n--XX--\r\n"
    )
    (tmp_path / "c.mht").write_bytes(mht)
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    assert result.errors == []
    texts = {p.path: p.main_text for p in result.pages}
    assert texts["a.html"] == texts["b.html.gz"] == texts["c.mht"]
    assert texts["a.html"].count("renovated library") == 6


def test_binary_files_named_html_are_reported(tmp_path):
    (tmp_path / "photo.html").write_bytes(b"\xff\xd8\xff\xe0" + os.urandom(2000))
    (tmp_path / "doc.html").write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    reasons = {e.path: e.reason for e in result.errors}
    assert reasons == {
        "doc.html": "binary file (a PDF document), not an HTML page",
        "photo.html": "binary file (a JPEG image), not an HTML page",
    }


def test_two_300000_character_near_identical_texts_are_measured(tmp_path):
    import random

    rng = random.Random(5)
    sentences = ["".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(40)) + "。" for _ in range(7500)]
    a = "".join(f"<p>{s}</p>" for s in sentences)
    changed = list(sentences)
    changed[100] = "完全不同的句子。"
    b = "".join(f"<p>{s}</p>" for s in changed)
    (tmp_path / "a.html").write_text(f"<html><body><article>{a}</article></body></html>", encoding="utf-8")
    (tmp_path / "b.html").write_text(f"<html><body><article>{b}</article></body></html>", encoding="utf-8")
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    (pair,) = result.pairs
    assert pair.type is DupType.FULL
    assert 0.999 < pair.scores.content_similarity < 1.0


def test_links_and_loops_read_each_file_once(tmp_path):
    (tmp_path / "a.html").write_bytes(page(ARTICLE))
    os.link(tmp_path / "a.html", tmp_path / "hard.html")
    os.symlink(tmp_path / "a.html", tmp_path / "soft.html")
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path, tmp_path / "sub" / "loop")
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    assert [p.path for p in result.pages] == ["a.html"]
    assert result.pairs == []  # never its own duplicate
    # Every path still gets a verdict: the other two are skipped as second paths to a.html (the
    # symbolic link named as one, and kept as the page's second address).
    assert result.skip_reason("hard.html") == "the same file as a.html, reached through a link: read once"
    assert result.skip_reason("soft.html") == "a link to a.html: read there (the same file at a second address)"
    assert result.also_at == {"a.html": ("soft.html",)}
    os.mkfifo(tmp_path / "pipe.html")
    again = scan_folder(tmp_path, ScanSettings(workers=1))
    assert again.skip_reason("pipe.html") == "not a regular file (a pipe, socket or device)"


def test_links_out_of_the_folder_bring_nothing_into_the_scan_or_its_reports(tmp_path):
    # The attack of issue 13: "ln -s /etc/passwd page.html" put an outside file's text into the
    # JSON report.  Here a page-like file and a folder outside the scanned folder, linked in.
    root, outside = tmp_path / "root", tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    root.mkdir()
    secret = page(ARTICLE.replace("library", "Zanzibarsecret"), "<title>Zanzibarsecret title</title>")
    (outside / "secret.html").write_bytes(secret)
    (outside / "dir" / "copy.html").write_bytes(secret)
    (root / "a.html").write_bytes(page(ARTICLE))
    os.symlink(outside / "secret.html", root / "page.html")
    os.symlink(outside / "dir", root / "linked")
    result = scan_folder(root, ScanSettings(workers=1, use_cache=False))
    assert [p.path for p in result.pages] == ["a.html"] and result.errors == []
    assert result.skipped_for_reasons() == [
        ("linked/", "a symbolic link to a folder outside the scanned folder: not walked (--follow-links walks it)"),
        ("page.html", "a symbolic link to a file outside the scanned folder: not followed (--follow-links follows it)"),
    ]
    assert result.notes == []
    out = tmp_path / "r.json"
    write_result(result, out)
    report = out.read_text(encoding="utf-8")
    assert "Zanzibarsecret" not in report and "secret.html" not in report and "copy.html" not in report
    assert json.loads(report)["settings"]["follow_links"] is False

    # With the opt-in both are read, and a scan note says so.
    followed = scan_folder(root, ScanSettings(workers=1, use_cache=False, follow_links=True))
    assert [p.path for p in followed.pages] == ["a.html", "linked/copy.html", "page.html"]
    assert followed.pages[2].title == "Zanzibarsecret title"
    assert followed.notes == [
        "following links out of the scanned folder (--follow-links): 2 symbolic links followed "
        "(linked/, page.html): what they point to is scanned"
    ]


def test_thousands_of_empty_files_make_no_n_squared_pairs_and_no_duplicates(tmp_path):
    for i in range(2000):
        (tmp_path / f"e{i:04d}.html").write_bytes(b"")
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    assert len(result.pairs) == 1999  # a star around the first file, not 2000*1999/2
    # and no duplicates: identical files without text have no content to duplicate
    assert result.clusters == [] and {p.type for p in result.pairs} == {DupType.DISTINCT}


def test_undecodable_file_names_are_shown_and_exported_safely(tmp_path):
    bad = os.fsencode(tmp_path) + b"/caf\xe9.html"
    with open(bad, "wb") as fh:
        fh.write(page(ARTICLE))
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    # the Latin-1 byte 0xE9 is not UTF-8: shown as the escape \xe9, so the user can find the file
    assert [p.path for p in result.pages] == ["caf\\xe9.html"]
    out = tmp_path.parent / f"{tmp_path.name}-out.json"
    write_result(result, out)
    files = json.loads(out.read_text(encoding="utf-8"))["files"]
    assert files[0]["path"] == "caf\\xe9.html"


def test_a_file_deleted_during_the_scan_is_reported(tmp_path, monkeypatch):
    import dedup_gui.core.pipeline.scan as scan_mod

    (tmp_path / "a.html").write_bytes(page(ARTICLE))
    (tmp_path / "b.html").write_bytes(page(ARTICLE))
    real = scan_mod.discover

    def discover_then_delete(root, *args):
        found = real(root, *args)
        os.unlink(tmp_path / "b.html")
        return found

    monkeypatch.setattr(scan_mod, "discover", discover_then_delete)
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    assert [(e.path, e.reason) for e in result.errors] == [("b.html", "file disappeared during the scan")]
    assert [p.path for p in result.pages] == ["a.html"]


def test_a_pipe_swapped_in_after_the_walk_is_reported_without_blocking(tmp_path, monkeypatch):
    # b.html is replaced by a FIFO between the folder walk and the reading: opening it for
    # reading the ordinary way would wait for a writer forever (in the cache's hashing or in
    # the read).  It is refused as not a regular file, and the scan goes on.
    import dedup_gui.core.pipeline.scan as scan_mod

    from .blocking import finishes_within

    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "a.html").write_bytes(page(ARTICLE))
    (folder / "b.html").write_bytes(page(ARTICLE))
    real = scan_mod.discover

    def discover_then_swap(root, *args, **kwargs):
        found = real(root, *args, **kwargs)
        os.unlink(folder / "b.html")
        os.mkfifo(folder / "b.html")
        return found

    monkeypatch.setattr(scan_mod, "discover", discover_then_swap)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    result = finishes_within(30, lambda: scan_folder(folder, settings), unblock=folder / "b.html")
    assert [(e.path, e.reason) for e in result.errors] == [("b.html", "not a regular file (a pipe, socket or device)")]
    assert [p.path for p in result.pages] == ["a.html"]
