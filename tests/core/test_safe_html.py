"""The Rendered view's policy (core.safe_html): what of a page may be drawn, decided before Qt sees it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from dedup_gui.core.views.safe_html import (
    MAX_TABLE_NESTING,
    clean_html,
    data_image_bytes,
    prepare_html,
    prepare_page,
    read_local_image,
    sniff_raster,
)
from tests.hostile import GREEN, RED, data_url, image_site, nested_tables, png_bytes, svg_showing


def test_clean_html_removes_everything_active():
    cleaned = clean_html(
        "<html><body onload='x()'><script>evil()</script><style>p{}</style><p onclick='y()'>Hi</p>"
        "<iframe src='http://a'></iframe><object data='a'></object><embed src='b'><a href='javascript:z()'>j</a>"
        "<base href='http://evil.invalid/'><svg><image href='/etc/x.png'/></svg><table background='/x.png'></table>"
        "</body></html>"
    )
    for bad in ("evil()", "p{}", "onclick", "onload", "<iframe", "<object", "<embed", "javascript:", "<base",
                "<svg", "<image", "background"):  # fmt: skip
        assert bad not in cleaned, bad
    assert "Hi" in cleaned


def test_every_image_reference_is_decided_here(tmp_path):
    site = image_site(tmp_path)
    page = site / "a.html"
    prepared = prepare_html(page.read_text(encoding="utf-8"), str(page), str(site))
    reasons = [(r.url[:40], r.loaded, r.reason) for r in prepared.requests]
    red = tmp_path / "outside" / "red.png"
    assert reasons == [
        ("img/green.png", True, "image inside the scanned folder"),
        (str(red)[:40], False, "outside the scanned folder"),
        (f"file://{red}"[:40], False, "outside the scanned folder"),
        ("../outside/red.png", False, "outside the scanned folder"),
        ("img/link-out.png", False, "outside the scanned folder"),  # a link is judged by its target
        ("img/drawing.svg", False, "not a PNG, JPEG, GIF or WebP image"),
        ("img/svg-named.png", False, "not a PNG, JPEG, GIF or WebP image"),  # by its bytes, not its name
        ("img/notes.txt", False, "not a PNG, JPEG, GIF or WebP image"),
        ("data:image/png;base64,PHN2ZyB4bWxucz0iaH", False, "not an inline PNG, JPEG, GIF or WebP image"),
        # (the data:image/svg+xml image loses its src to lxml_html_clean already)
        ("http://example.invalid/x.png", False, "remote or unknown address: nothing is fetched"),
    ]
    # the renderer gets the green image's bytes under an internal name, and no other address
    assert prepared.images == [png_bytes(60, 60, GREEN)] and prepared.formats == ["png"]
    assert re.findall(r"src=\"([^\"]*)\"", prepared.html) == ["res:0"]
    assert str(red) not in prepared.html and "x.png" not in prepared.html


def test_special_files_are_never_opened(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    os.mkfifo(root / "fifo.png")  # opening it for reading would block until a writer comes
    assert read_local_image(str(root / "fifo.png"), str(root)) == (None, "not a regular file")
    # /dev/stdin and /proc/self/fd/0 resolve outside any scanned folder: refused before any open
    assert read_local_image("/dev/stdin", str(root)) == (None, "outside the scanned folder")
    assert read_local_image("/proc/self/fd/0", str(root)) == (None, "outside the scanned folder")
    html = "<p>x</p><img src='/dev/stdin'><img src='file:///proc/self/fd/0'><img src='fifo.png'>"
    prepared = prepare_html(html, str(root / "page.html"), str(root))
    assert [r.reason for r in prepared.requests] == ["outside the scanned folder", "outside the scanned folder",
                                                     "not a regular file"]  # fmt: skip


def test_raster_formats_are_known_by_their_bytes():
    assert sniff_raster(png_bytes()) == "png"
    assert sniff_raster(b"\xff\xd8\xff\xe0rest") == "jpeg"
    assert sniff_raster(b"GIF89a....") == "gif"
    assert sniff_raster(b"RIFF\x10\x00\x00\x00WEBPVP8 ") == "webp"
    assert sniff_raster(svg_showing(Path("/x.png"))) is None
    assert sniff_raster(b"BM\x00\x00") is None  # BMP is not among the shown formats
    assert data_image_bytes(data_url(png_bytes(), "image/png")) == png_bytes()
    assert data_image_bytes(data_url(png_bytes(), "application/octet-stream")) == png_bytes()
    assert data_image_bytes(data_url(svg_showing(Path("/x.png")), "image/png")) is None
    assert data_image_bytes("data:text/html,<script>x</script>") is None


def test_deep_tables_are_flattened_and_sizes_clamped():
    cleaned = clean_html(nested_tables(30))
    depth = most = 0
    for tag in re.findall(r"</?table", cleaned):
        depth += 1 if tag == "<table" else -1
        most = max(most, depth)
    assert most == MAX_TABLE_NESTING  # deeper tables are plain blocks: Qt's layout time doubles per level
    assert "deep" in cleaned
    clamped = clean_html(
        "<table width=99999999 cellpadding=100000><tr><td colspan=70000 width='900%'>x</td></tr></table>"
    )
    assert 'width="4000"' in clamped and 'cellpadding="50"' in clamped
    assert 'colspan="100"' in clamped and 'width="100%"' in clamped


def test_prepare_page_reads_through_the_page_limits(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "p.html").write_text(f"<p>x</p><img src='i.png' alt='photo of {RED}'>", encoding="utf-8")
    prepared = prepare_page("p.html", str(site / "p.html"), str(site), 1000)
    assert [(r.url, r.loaded, r.reason) for r in prepared.requests] == [
        ("i.png", False, "cannot be read: No such file or directory")
    ]
    assert "[photo of (255, 0, 0)]" in prepared.html  # a refused image shows its alt text
    from dedup_gui.core.pipeline.loading import PageReadError

    (site / "big.html").write_text("<p>" + "x" * 2000 + "</p>")
    with pytest.raises(PageReadError, match="too large"):
        prepare_page("big.html", str(site / "big.html"), str(site), 1000)


def test_long_runs_without_whitespace_get_break_opportunities():
    # Qt's line breaking took 15.6 s on one 900,000-character word; broken every 100, 0.1 s.
    cleaned = clean_html("<p>" + "x" * 250 + " short <b>" + "y" * 120 + "</b></p>")
    assert ("x" * 100 + "\u200b") * 2 + "x" * 50 + " short" in cleaned
    assert "y" * 100 + "\u200b" + "y" * 20 in cleaned
    assert clean_html("<p>" + "z" * 100 + "</p>").count("\u200b") == 0  # 100 is not too long


def test_a_page_swapped_for_a_link_out_after_the_scan_is_not_read_again(tmp_path):
    # A view re-reads a page when it is shown, maybe long after the scan: by then the file may be
    # a link out of the folder, which the scan itself would have skipped.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.loading import PageReadError
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.core.views.layout_diff import page_layout

    site = tmp_path / "site"
    site.mkdir()
    for name in ("a.html", "b.html"):
        (site / name).write_text("<html><body><p>" + "Riders meet at the hall at eight. " * 20 + "</p></body></html>")
    result = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    secret = tmp_path / "secret.html"
    secret.write_text("<html><body><p>outside secret text, never to be shown</p></body></html>")
    (site / "a.html").unlink()
    os.symlink(secret, site / "a.html")
    page = next(p for p in result.pages if p.path == "a.html")
    with pytest.raises(PageReadError, match="leads out of the scanned folder"):
        prepare_page(page.path, page.abspath, result.root, 10**6)
    with pytest.raises(PageReadError, match="leads out of the scanned folder"):
        page_layout(page, 10**6, result.root)
    # a scan that followed links out may show it
    assert "outside secret" in prepare_page(page.path, page.abspath, result.root, 10**6, follow_links=True).html


def test_one_bad_image_address_never_blanks_the_page(tmp_path):
    # "g.png%00.txt" once raised ValueError (a NUL in a path) and the whole page showed an error.
    (tmp_path / "g.png").write_bytes(png_bytes(4, 4, GREEN))
    html = "<p>Riders meet at the hall at eight.</p><img src='g.png%00.txt'><img src='g.png'>"
    prepared = prepare_html(html, str(tmp_path / "p.html"), str(tmp_path))
    assert [(r.loaded, r.reason) for r in prepared.requests] == [
        (False, "not a file name (it holds a NUL)"),
        (True, "image inside the scanned folder"),
    ]
    assert "Riders meet" in prepared.html


def test_a_huge_title_cannot_push_the_body_out_of_the_drawing():
    # The drawing is cut at MAX_HTML_CHARS; a 2 MB <title> once used it all up.
    prepared = prepare_html("<html><head><title>" + "t" * 2_000_000 + "</title></head><body><p>The body.</p>"
                            "</body></html>", "/x/p.html", "/x")  # fmt: skip
    assert "The body." in prepared.html and prepared.notes == []
