"""Tests of dedup_gui.core.pipeline.loading: walking a folder and reading page files, in tmp_path."""

from __future__ import annotations

import base64
import gzip
import os
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import pytest

from dedup_gui.core.pipeline import loading
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.pipeline.loading import (
    NotAPageError,
    PageReadError,
    SourceFile,
    discover,
    read_page_bytes,
)

from .blocking import finishes_within

HTML = b"<!DOCTYPE html><html><head><title>T</title></head><body><p>Hello page.</p></body></html>"
MB = 1024 * 1024


def write(path: Path, data: bytes = HTML) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def source(root: Path, rel: str) -> SourceFile:
    return SourceFile(rel, str(root / rel))


def paths(found) -> list[str]:
    return [f.path for f in found.files]


# --------------------------------------------------------------------------------------------
# discover()
# --------------------------------------------------------------------------------------------


def test_discover_finds_page_suffixes_and_skips_resources(tmp_path: Path) -> None:
    for name in ("a.html", "b.htm", "c.xhtml", "d.shtml", "sub/e.HTML"):
        write(tmp_path / name)
    write(tmp_path / "style.css", b"body { color: red }")
    write(tmp_path / "logo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    found = discover(tmp_path)
    # The four page suffixes (any case, any depth) are pages; .css and .png are resources,
    # listed as skipped; paths are relative and "/"-separated, sorted.
    assert paths(found) == ["a.html", "b.htm", "c.xhtml", "d.shtml", "sub/e.HTML"]
    assert found.skipped == ["logo.png", "style.css"]
    assert found.errors == []
    assert found.files[0].abspath == str(tmp_path.resolve() / "a.html")


def test_discover_lists_suffixless_crawl_file_and_it_sniffs_as_html(tmp_path: Path) -> None:
    name = "3f9a2c7be01d44a5b6c8d9e0f1a2b3c4"  # a crawl-style hash name, no suffix
    write(tmp_path / name, HTML)
    write(tmp_path / "0badc0ffee", b"just some plain words, not markup at all\n")
    found = discover(tmp_path)
    # Files without a known suffix are candidates; their content decides (read_page_bytes).
    assert paths(found) == ["0badc0ffee", name]
    assert read_page_bytes(found.files[1], MB) == HTML
    with pytest.raises(NotAPageError):
        read_page_bytes(found.files[0], MB)


#: The files a site folder holds beside its pages, each with content of its real kind.
SITE_NON_PAGES = {
    ".nojekyll": b"",  # GitHub Pages: an empty marker file
    ".buildinfo": b"# Sphinx build info version 1\nconfig: 3f2a\ntags: 645f\n",
    "objects.inv": b"# Sphinx inventory version 2\n# Project: Demo\n# Version: 1.0\n"
    b"# The remainder of this file is compressed using zlib.\n"
    + zlib.compress(b"index std:doc -1 index.html Demo\n" * 20),
    "CNAME": b"docs.example.org\n",
    "robots.txt": b"User-agent: *\nDisallow:\n",
    "_redirects": b"/old/* /new/:splat 301\n",
    # Apache takes an inline HTML message: a page marker, in a file that is no page
    ".htaccess": b'ErrorDocument 403 "<html><body><p>Forbidden</p></body></html>"\n',
    "favicon.ico": b"\x00\x00\x01\x00\x01\x00\x10\x10" + bytes(64),
    "manifest.webmanifest": b'{"name": "Demo", "icons": []}',
    ".DS_Store": b"\x00\x00\x00\x01Bud1" + bytes(256),
    "Thumbs.db": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(256),
    "sub/.gitkeep": b"",
    "sub/placeholder": b"",  # an empty file without a suffix
}


def _site_folder(root: Path) -> None:
    """A site folder: its non-page files (:data:`SITE_NON_PAGES`), an empty page file, a page and
    a crawl file named by hash that is a page."""
    for name, data in SITE_NON_PAGES.items():
        write(root / name, data)
    write(root / "index.html")
    write(root / "empty.html", b"")
    write(root / "3f9a2c7be01d44a5", HTML)


def test_discover_skips_the_files_of_a_site_that_are_not_pages(tmp_path: Path) -> None:
    _site_folder(tmp_path)
    found = discover(tmp_path)
    # Issue 14: every file of SITE_NON_PAGES is skipped by its name or suffix, or (empty without
    # a page suffix) its size, unread: "not a page", no reason of its own.  An empty x.html is
    # still a page of the site, and a suffix-less crawl file is still sniffed.
    assert paths(found) == ["3f9a2c7be01d44a5", "empty.html", "index.html"]
    assert found.skipped == sorted(SITE_NON_PAGES)
    assert found.skip_reasons == {} and found.errors == []


@pytest.mark.parametrize(
    "name,data",
    [
        ("placeholder", b""),
        ("blank", b" \n\t\n"),
        ("0a1b2c3d", b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
    ],
)
def test_a_file_without_a_page_suffix_that_is_empty_or_binary_is_not_a_page(tmp_path: Path, name, data) -> None:
    write(tmp_path / name, data)
    # Read anyway (a file emptied or replaced after the walk, an image saved under a hash name):
    # without a page suffix, empty or binary content is not a page (skipped, as text without
    # markup already was), where the same bytes named x.html are a page with no usable text,
    # or an error.
    with pytest.raises(NotAPageError):
        read_page_bytes(source(tmp_path, name), MB)


@pytest.mark.parametrize("link,real", [("latest", "v2"), ("latest", "0.9")])
def test_a_folder_link_is_a_second_address_of_the_real_folder(tmp_path: Path, link, real) -> None:
    write(tmp_path / real / "index.html")
    write(tmp_path / real / "guide" / "a.html")
    os.symlink(real, tmp_path / link)
    found = discover(tmp_path)
    # Issue 14: the real folder is walked, whether the link's name sorts before it ("v2") or
    # after it ("0.9"); the link is listed with what it is and where its pages are read, and
    # each page carries its address through the link.
    assert paths(found) == [f"{real}/guide/a.html", f"{real}/index.html"]
    assert found.skipped == [f"{link}/"]
    assert found.skip_reasons == {
        f"{link}/": f"a link to {real}/: its 2 pages are read there (the same pages at a second address)"
    }
    assert found.also_at == {
        f"{real}/guide/a.html": (f"{link}/guide/a.html",),
        f"{real}/index.html": (f"{link}/index.html",),
    }
    assert found.link_folders == {f"{link}/": f"{real}/"}


def test_a_file_link_is_a_second_address_of_the_real_file(tmp_path: Path) -> None:
    write(tmp_path / "page.html")
    os.symlink("page.html", tmp_path / "a.html")  # sorts before the real name
    os.symlink("page.html", tmp_path / "z.html")  # and after it
    write(tmp_path / "data.txt", b"plain text")
    os.symlink("data.txt", tmp_path / "b.html")  # a page name for a file that is none
    found = discover(tmp_path)
    # The real path is read; each link is listed with its target and kept as its second
    # address; a link to a skipped file says so and is not read under its page name.
    assert paths(found) == ["page.html"]
    assert found.skip_reasons == {
        "a.html": "a link to page.html: read there (the same file at a second address)",
        "b.html": "a link to data.txt, which is skipped: not read here either",
        "z.html": "a link to page.html: read there (the same file at a second address)",
    }
    assert found.skipped == ["a.html", "b.html", "data.txt", "z.html"]
    assert found.also_at == {"page.html": ("a.html", "z.html")}


def test_discover_skips_browser_resource_folder(tmp_path: Path) -> None:
    write(tmp_path / "page.html")
    write(tmp_path / "page_files" / "frame.html")  # an iframe saved with the page: no page
    write(tmp_path / "page_files" / "app.js", b"console.log(1)")
    write(tmp_path / "other_files" / "x.html")  # no "other.html" beside it: a normal folder
    found = discover(tmp_path)
    # "page_files/" belongs to "page.html" (browser "Web page, complete" save) and is skipped
    # as a whole; "other_files/" has no page beside it, so it is walked.
    assert paths(found) == ["other_files/x.html", "page.html"]
    assert found.skipped == ["page_files/"]


def test_discover_reads_symlinked_file_once(tmp_path: Path) -> None:
    write(tmp_path / "real" / "page.html")
    os.symlink(tmp_path / "real" / "page.html", tmp_path / "alias.html")
    os.symlink(tmp_path / "real", tmp_path / "linked_dir")
    os.link(tmp_path / "real" / "page.html", tmp_path / "hard.html")
    found = discover(tmp_path)
    # One file reached four ways (itself, a file symlink, a folder symlink, a hard link):
    # listed once.  Paths without symbolic links come first, so it is read under one of its
    # two real paths: the hard link, which the walk meets first (a folder's files before its
    # subfolders); the other real path is listed, and both symbolic links name what they lead to.
    assert paths(found) == ["hard.html"]
    assert os.path.samefile(found.files[0].abspath, tmp_path / "real" / "page.html")
    assert found.errors == []
    assert found.skip_reasons == {
        "alias.html": "a link to hard.html: read there (the same file at a second address)",
        "linked_dir/": "a link to real/: the same folder at a second address, not walked again",
        "real/page.html": "the same file as hard.html, reached through a link: read once",
    }
    assert found.skipped == ["alias.html", "linked_dir/", "real/page.html"]
    assert found.also_at == {"hard.html": ("alias.html",)}


def test_discover_survives_symlink_loop(tmp_path: Path) -> None:
    write(tmp_path / "a" / "page.html")
    os.symlink("..", tmp_path / "a" / "up")  # a/up -> tmp_path: a loop a/up/a/up/...
    os.symlink(".", tmp_path / "a" / "self")  # a/self -> a
    result: dict = {}

    def run() -> None:
        result["found"] = discover(tmp_path)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=20)
    # Folders already walked (same device and inode) are not entered again: it ends, with the
    # page once.
    assert not worker.is_alive(), "discover() did not finish: it follows the symlink loop"
    assert paths(result["found"]) == ["a/page.html"]
    # ...and each link not followed is listed with its reason (a tester found them missing)
    found = result["found"]
    assert found.skipped == ["a/self/", "a/up/"]
    assert found.skip_reasons == {
        "a/self/": "a/ again, inside itself through a link (a loop): not followed",
        "a/up/": "the scanned folder again, inside itself through a link (a loop): not followed",
    }


def _outside_fixture(tmp_path: Path) -> Path:
    """A scanned folder ``root`` with symbolic links out of it: to a page-like file outside, to
    a folder outside, by a relative target, through a link inside that points to a link out,
    and to a file below the folder link (its path looks inside); and links that stay inside
    (to a file, to a folder) and a broken one."""
    root = tmp_path / "root"
    write(root / "ok.html")
    write(root / "sub" / "in.html")
    write(tmp_path / "outside" / "secret.html", b"<html><body><p>OUTSIDE SECRET</p></body></html>")
    write(tmp_path / "outside" / "sub" / "deep.html")
    os.symlink(tmp_path / "outside" / "secret.html", root / "page.html")
    os.symlink(tmp_path / "outside", root / "ext")
    os.symlink("../outside/secret.html", root / "relative.html")
    os.symlink(root / "ext", root / "via_inner")  # inside -> ext -> outside: out, all links resolved
    os.symlink(root / "ext" / "secret.html", root / "sneaky.html")  # a path under root, a file outside
    os.symlink("ok.html", root / "alias.html")  # inside
    os.symlink(root / "sub", root / "zin")  # inside
    os.symlink(tmp_path / "missing.html", root / "broken.html")
    return root


def test_a_loop_of_file_links_is_called_a_loop_not_broken(tmp_path: Path) -> None:
    # a_link -> b_link -> a_link: a tester found it listed as a "broken symbolic link"
    (tmp_path / "ok.html").write_text("<p>ok</p>")
    os.symlink("b_link.html", tmp_path / "a_link.html")
    os.symlink("a_link.html", tmp_path / "b_link.html")
    os.symlink("missing.html", tmp_path / "gone.html")
    found = discover(tmp_path)
    assert sorted((e.path, e.reason) for e in found.errors) == [
        ("a_link.html", "a loop of symbolic links"),
        ("b_link.html", "a loop of symbolic links"),
        ("gone.html", "broken symbolic link"),
    ]


def test_discover_does_not_follow_links_out_of_the_folder(tmp_path: Path) -> None:
    root = _outside_fixture(tmp_path)
    found = discover(root)
    # Safety promise (issue 13): a link whose real target (os.path.realpath) is outside the
    # scanned folder is neither read nor walked, so outside files never enter a scan; each is
    # listed with its reason, folders with a trailing "/".  Links that stay inside are followed
    # as before (each file and folder once, under its real path), and a broken link is still
    # an error.
    assert paths(found) == ["ok.html", "sub/in.html"]
    assert [(e.path, e.reason) for e in found.errors] == [("broken.html", "broken symbolic link")]
    file_reason = "a symbolic link to a file outside the scanned folder: not followed (--follow-links follows it)"
    dir_reason = "a symbolic link to a folder outside the scanned folder: not walked (--follow-links walks it)"
    assert found.skipped == ["alias.html", "ext/", "page.html", "relative.html", "sneaky.html", "via_inner/", "zin/"]
    assert found.skip_reasons == {
        "alias.html": "a link to ok.html: read there (the same file at a second address)",
        "ext/": dir_reason,
        "page.html": file_reason,
        "relative.html": file_reason,
        "sneaky.html": file_reason,
        "via_inner/": dir_reason,
        "zin/": "a link to sub/: its page is read there (the same page at a second address)",
    }
    assert found.followed_out == []
    assert found.also_at == {"ok.html": ("alias.html",), "sub/in.html": ("zin/in.html",)}


def test_discover_follows_links_out_of_the_folder_when_asked(tmp_path: Path) -> None:
    root = _outside_fixture(tmp_path)
    found = discover(root, follow_links=True)
    # With the opt-in, the outside folder is walked once, under the first link to it in path
    # order (ext/; via_inner/ reaches it too), and the outside file is read once, in it: folder
    # links are walked before file links, so the file links page.html, relative.html and
    # sneaky.html name it as their target; every link out that was taken is listed.
    assert paths(found) == ["ext/secret.html", "ext/sub/deep.html", "ok.html", "sub/in.html"]
    same = "a link to ext/secret.html: read there (the same file at a second address)"
    assert found.skip_reasons == {
        "alias.html": "a link to ok.html: read there (the same file at a second address)",
        "page.html": same,
        "relative.html": same,
        "sneaky.html": same,
        "via_inner/": "a link to ext/: its 2 pages are read there (the same pages at a second address)",
        "zin/": "a link to sub/: its page is read there (the same page at a second address)",
    }
    assert found.followed_out == ["ext/", "page.html", "relative.html", "sneaky.html", "via_inner/"]
    assert read_page_bytes(found.files[0], MB) == b"<html><body><p>OUTSIDE SECRET</p></body></html>"
    assert found.also_at["ext/secret.html"] == ("page.html", "relative.html", "sneaky.html", "via_inner/secret.html")


def test_the_followed_links_note_names_the_links() -> None:
    assert loading.followed_links_note([]) == (
        "following links out of the scanned folder (--follow-links): none were found"
    )
    assert loading.followed_links_note(["ext/", "page.html"]) == (
        "following links out of the scanned folder (--follow-links): 2 symbolic links followed "
        "(ext/, page.html): what they point to is scanned"
    )
    many = [f"l{i:02d}.html" for i in range(12)]
    assert loading.followed_links_note(many).endswith("(l00.html, l01.html, l02.html, l03.html, l04.html, "
                                                      "l05.html, l06.html, l07.html, l08.html, l09.html and 2 more): "
                                                      "what they point to is scanned")  # fmt: skip


def _rmtree_iterative(top: str) -> None:
    """Remove a very deep tree without recursion (shutil.rmtree and os.walk of Python 3.11
    recurse once per level and fail past the recursion limit)."""
    stack = [top]
    while stack:
        current = stack[-1]
        subdirs = []
        with os.scandir(current) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(entry.path)
                else:
                    os.unlink(entry.path)
        if subdirs:
            stack.extend(subdirs)
        else:
            os.rmdir(current)
            stack.pop()


def test_discover_handles_1500_levels_deep() -> None:
    depth = 1500
    assert depth > sys.getrecursionlimit()
    # Not in tmp_path: pytest's own clean-up of old temporary folders recurses and would fail
    # on this tree in a later session (for every user of the shared basetemp).  Removed here,
    # iteratively, whatever happens.
    top = tempfile.mkdtemp(prefix="dedup-deep-")
    try:
        # Short names: about 3000 characters, below PATH_MAX 4096.  Built level by level, since
        # os.makedirs itself recurses once per level.
        path = top
        for _ in range(depth):
            path += "/d"
            os.mkdir(path)
        write(Path(path) / "p.html")
        found = discover(top)  # a recursive walk would raise RecursionError here
        # The one page at the bottom is found, with its full relative path.
        assert paths(found) == ["d/" * depth + "p.html"]
        assert found.errors == []
        assert read_page_bytes(found.files[0], MB) == HTML
    finally:
        _rmtree_iterative(top)
    assert not os.path.exists(top)


def test_discover_file_name_with_invalid_utf8(tmp_path: Path) -> None:
    raw = os.path.join(os.fsencode(tmp_path), b"bad\xff.html")
    with open(raw, "wb") as fh:
        fh.write(HTML)
    found = discover(tmp_path)
    # The undecodable byte 0xFF is shown as the escape "\\xff" (so the user can find the file);
    # abspath keeps the real name (surrogate escape), so the file still opens.
    assert paths(found) == ["bad\\xff.html"]
    assert os.fsencode(found.files[0].abspath) == os.fsencode(os.path.realpath(tmp_path)) + b"/bad\xff.html"
    assert read_page_bytes(found.files[0], MB) == HTML


def test_discover_root_not_a_folder(tmp_path: Path) -> None:
    page = write(tmp_path / "x.html")
    with pytest.raises(NotADirectoryError):
        discover(page)


# --------------------------------------------------------------------------------------------
# read_page_bytes()
# --------------------------------------------------------------------------------------------


def test_png_named_html_is_rejected(tmp_path: Path) -> None:
    write(tmp_path / "image.html", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64)
    with pytest.raises(PageReadError, match="PNG"):
        read_page_bytes(source(tmp_path, "image.html"), MB)


def test_file_over_max_bytes_is_too_large(tmp_path: Path) -> None:
    write(tmp_path / "big.html", HTML + b"<p>" + b"x" * 5000 + b"</p>")
    with pytest.raises(PageReadError, match="too large"):
        read_page_bytes(source(tmp_path, "big.html"), 1000)


def test_file_at_max_bytes_is_read(tmp_path: Path) -> None:
    write(tmp_path / "exact.html", HTML)
    # The limit is inclusive: a file of exactly max_bytes is accepted.
    assert read_page_bytes(source(tmp_path, "exact.html"), len(HTML)) == HTML


def test_gzip_page_saved_as_html_is_decompressed(tmp_path: Path) -> None:
    write(tmp_path / "crawl.html", gzip.compress(HTML))
    assert read_page_bytes(source(tmp_path, "crawl.html"), MB) == HTML


def test_gzip_suffix_page_is_found_and_decompressed(tmp_path: Path) -> None:
    write(tmp_path / "mirror" / "index.html.gz", gzip.compress(HTML))
    found = discover(tmp_path)
    # ".html.gz" counts as a page suffix (the ".gz" is looked through).
    assert paths(found) == ["mirror/index.html.gz"]
    assert read_page_bytes(found.files[0], MB) == HTML


def test_gzip_bomb_stops_at_limit_quickly(tmp_path: Path) -> None:
    bomb = gzip.compress(b"\x00" * (50 * MB), compresslevel=9)
    assert len(bomb) < MB  # the file itself passes the size check; only its content is huge
    write(tmp_path / "bomb.html", bomb)
    start = time.perf_counter()
    with pytest.raises(PageReadError, match="gzip content larger than the limit"):
        read_page_bytes(source(tmp_path, "bomb.html"), MB)
    # Bounded decompression stops after about 1 MB instead of inflating 50 MB.
    assert time.perf_counter() - start < 2.0


def test_broken_gzip_is_an_error(tmp_path: Path) -> None:
    # A valid 10-byte gzip header followed by a deflate block of the invalid type 11.
    write(tmp_path / "broken.html", gzip.compress(HTML)[:10] + b"\xff\xff\xff\xff")
    with pytest.raises(PageReadError, match="gzip"):
        read_page_bytes(source(tmp_path, "broken.html"), MB)


MHTML = (
    b"From: <Saved by Blink>\r\n"
    b"Snapshot-Content-Location: https://example.org/a/\r\n"
    b"Subject: Example\r\n"
    b"MIME-Version: 1.0\r\n"
    b'Content-Type: multipart/related; type="text/html"; boundary="----MultipartBoundary--abc"\r\n'
    b"\r\n"
    b"------MultipartBoundary--abc\r\n"
    b"Content-Type: text/html{charset}\r\n"
    b"Content-ID: <frame-1@mhtml.blink>\r\n"
    b"Content-Transfer-Encoding: quoted-printable\r\n"
    b"Content-Location: https://example.org/a/\r\n"
    b"\r\n"
    b"{body}\r\n"
    b"------MultipartBoundary--abc\r\n"
    b"Content-Type: image/png\r\n"
    b"Content-Transfer-Encoding: base64\r\n"
    b"Content-Location: https://example.org/logo.png\r\n"
    b"\r\n"
    b"iVBORw0KGgo=\r\n"
    b"------MultipartBoundary--abc--\r\n"
)


def test_mhtml_quoted_printable_html_part(tmp_path: Path) -> None:
    # Quoted-printable: "=3D" is "=", "=\r\n" is a soft line break, "=C3=A9" the UTF-8 of "é".
    body = (
        b'<html><head><meta http-equiv=3D"Content-Type" content=3D"text/html; charset=3Dutf-8">'
        b"<title>Caf=C3=A9</title></head><body><p>A long line that the archiver wra=\r\n"
        b"pped with a soft break.</p></body></html>"
    )
    expected = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
        "<title>Café</title></head><body><p>A long line that the archiver wrapped with a soft "
        "break.</p></body></html>"
    ).encode()
    data = MHTML.replace(b"{charset}", b'; charset="utf-8"').replace(b"{body}", body)
    write(tmp_path / "saved.mht", data)
    assert read_page_bytes(source(tmp_path, "saved.mht"), MB) == expected


def test_mhtml_part_charset_is_carried_into_the_page(tmp_path: Path) -> None:
    # The HTML itself declares no charset; the MIME part says gbk: a <meta charset> is put in
    # front so the decoder sees it.  "=CD=F8=D2=B3" is the GBK encoding of "网页".
    body = b"<html><head><title>=CD=F8=D2=B3</title></head><body><p>x</p></body></html>"
    data = MHTML.replace(b"{charset}", b'; charset="gbk"').replace(b"{body}", body)
    write(tmp_path / "saved.mhtml", data)
    out = read_page_bytes(source(tmp_path, "saved.mhtml"), MB)
    assert out == b'<meta charset="gbk"><html><head><title>\xcd\xf8\xd2\xb3</title></head><body><p>x</p></body></html>'


@pytest.mark.parametrize(
    "header",
    [
        b'; charset="x\\"><b>injected</b>"',  # a quote and markup inside the MIME parameter
        b'; charset="gb 2312"',  # a space: no label
        b'; charset="utf-8\\" onload=\\"x"',
    ],
)
def test_mhtml_part_charset_that_is_no_label_adds_nothing(tmp_path: Path, header: bytes) -> None:
    # A MIME charset that is not even shaped like a label must not be pasted into the page as
    # markup: the HTML part comes back exactly as archived.  (Before: '<meta charset="x"><b>
    # injected</b>">' was put in front of it.)
    body = b"<html><head><title>T</title></head><body><p>x</p></body></html>"
    data = MHTML.replace(b"{charset}", header).replace(b"{body}", body)
    write(tmp_path / "saved.mhtml", data)
    assert read_page_bytes(source(tmp_path, "saved.mhtml"), MB) == body


def test_mhtml_utf16_part_is_left_to_the_decoder(tmp_path: Path) -> None:
    # ASCII "<meta charset=...>" put before UTF-16 text would read as a run of CJK junk; the
    # decoder's own BOM sniffing reads the part, so the bytes come back unchanged.
    html = "<html><head><title>Über</title></head><body><p>Grüße</p></body></html>"
    payload = b"\xff\xfe" + html.encode("utf-16-le")
    data = (
        MHTML.replace(b"{charset}", b'; charset="utf-16"')
        .replace(b"quoted-printable\r\nContent-Location: https://example.org/a/", b"base64\r\nContent-Location: x")
        .replace(b"{body}", base64.encodebytes(payload))
    )
    write(tmp_path / "saved.mhtml", data)
    out = read_page_bytes(source(tmp_path, "saved.mhtml"), MB)
    assert out == payload
    assert decode_html(out).text == html


def test_mhtml_without_html_part(tmp_path: Path) -> None:
    data = MHTML.replace(b"text/html{charset}", b"text/plain").replace(b"{body}", b"plain")
    write(tmp_path / "odd.mht", data)
    with pytest.raises(PageReadError, match="without an HTML part"):
        read_page_bytes(source(tmp_path, "odd.mht"), MB)


def test_unreadable_file(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root: root reads files regardless of permission bits")
    page = write(tmp_path / "secret.html")
    page.chmod(0)
    try:
        with pytest.raises(PageReadError, match="no permission"):
            read_page_bytes(source(tmp_path, "secret.html"), MB)
    finally:
        page.chmod(0o644)


def test_permission_error_on_open_is_a_page_read_error(tmp_path: Path, monkeypatch) -> None:
    # The same path as test_unreadable_file, also under root: os.open() raising PermissionError
    # (simulated; the module opens page files with it) must become a PageReadError.
    write(tmp_path / "secret.html")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(loading.os, "open", denied)
    with pytest.raises(PageReadError, match="no permission"):
        read_page_bytes(source(tmp_path, "secret.html"), MB)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PageReadError, match="disappeared"):
        read_page_bytes(source(tmp_path, "gone.html"), MB)


def test_empty_page_is_read(tmp_path: Path) -> None:
    write(tmp_path / "empty.html", b"")
    # Documented: empty pages are read; extraction marks them as having no usable text.
    assert read_page_bytes(source(tmp_path, "empty.html"), MB) == b""


# --------------------------------------------------------------------------------------------
# Special files, files changing while read, odd archives
# --------------------------------------------------------------------------------------------


def test_a_fifo_given_as_a_page_is_refused_without_blocking(tmp_path: Path) -> None:
    # A FIFO put in a page's place after the folder walk: open() would wait for a writer
    # forever; the file is opened non-blocking and refused as not a regular file.
    os.mkfifo(tmp_path / "pipe.html")
    with pytest.raises(PageReadError) as error:
        finishes_within(10, lambda: read_page_bytes(source(tmp_path, "pipe.html"), MB), unblock=tmp_path / "pipe.html")
    assert str(error.value) == "not a regular file (a pipe, socket or device)"


def test_a_device_given_as_a_page_is_refused_unread(tmp_path: Path) -> None:
    # /dev/zero would give max_bytes + 1 zero bytes (50 MB by default) before being refused.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    with pytest.raises(PageReadError) as error:
        read_page_bytes(SourceFile("zero.html", "/dev/zero"), MB)
    assert str(error.value) == "not a regular file (a pipe, socket or device)"


def test_read_page_gives_the_hash_and_stamp_of_the_raw_bytes(tmp_path: Path) -> None:
    import hashlib

    packed = gzip.compress(HTML)
    write(tmp_path / "old.html", packed)
    write(tmp_path / "new.html", packed)
    past = time.time_ns() - 3600 * 10**9
    os.utime(tmp_path / "old.html", ns=(past, past))
    old, new = loading.read_page(source(tmp_path, "old.html"), MB), loading.read_page(source(tmp_path, "new.html"), MB)
    # the hash is of the file's (compressed) bytes; the HTML is unpacked
    assert (old.html, old.file_sha1, old.stamp) == (HTML, hashlib.sha1(packed).hexdigest(), (len(packed), past))
    # a file changed less than 2 s ago: its stamp could miss a rewrite in the same tick
    assert (new.html, new.file_sha1, new.stamp) == (HTML, old.file_sha1, None)


def _rewrite_on_fstat(monkeypatch, path: Path, when) -> list:
    """Make os.fstat of ``path`` rewrite it (one byte longer each time) right after its call
    number n (1-based) if ``when(n)``, returning the stat from before the rewrite: the read
    that follows sees the new bytes, the stat taken after it a different size."""
    real_fstat = os.fstat
    calls: list = []

    def fstat_then_rewrite(fd):
        result = real_fstat(fd)
        if os.path.samestat(result, os.stat(path)):
            calls.append(fd)
            if when(len(calls)):
                path.write_bytes(HTML + b"<!--" + b"x" * len(calls) + b"-->")
        return result

    monkeypatch.setattr(loading.os, "fstat", fstat_then_rewrite)
    return calls


def test_a_file_changed_while_it_is_read_is_read_again(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path / "page.html", HTML)
    calls = _rewrite_on_fstat(monkeypatch, tmp_path / "page.html", lambda n: n == 1)
    # the first read's stats differ (before and after), so the file was read a second time
    assert read_page_bytes(source(tmp_path, "page.html"), MB) == HTML + b"<!--x-->"
    assert len(calls) == 4


def test_a_file_that_keeps_changing_while_it_is_read_is_reported(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path / "page.html", HTML)
    calls = _rewrite_on_fstat(monkeypatch, tmp_path / "page.html", lambda n: n % 2 == 1)  # before each read
    with pytest.raises(PageReadError) as error:
        read_page_bytes(source(tmp_path, "page.html"), MB)
    assert len(calls) == 4  # read twice, then given up
    assert str(error.value) == "the file changed while it was being read"


def test_every_member_of_a_multi_member_gzip_is_read(tmp_path: Path) -> None:
    # RFC 1952: a gzip file is a series of members (as "cat a.gz b.gz" or a crawler writing in
    # parts makes); zcat prints them all.
    first, second = HTML[:40], HTML[40:]
    write(tmp_path / "parts.html.gz", gzip.compress(first) + gzip.compress(second))
    assert read_page_bytes(source(tmp_path, "parts.html.gz"), MB) == HTML


def test_a_multi_member_gzip_is_bounded_in_total(tmp_path: Path) -> None:
    # Two members of 600 bytes each: each under the 1,000-byte limit, together over it.
    member = gzip.compress(b"<p>" + b"x" * 593 + b"</p>")
    write(tmp_path / "parts.html.gz", member + member)
    with pytest.raises(PageReadError) as error:
        read_page_bytes(source(tmp_path, "parts.html.gz"), 1000)
    assert str(error.value) == "gzip content larger than the limit of 1,000 bytes (--max-file-mb)"


def test_a_truncated_second_gzip_member_is_reported(tmp_path: Path) -> None:
    write(tmp_path / "parts.html.gz", gzip.compress(HTML) + gzip.compress(HTML)[:-12])
    with pytest.raises(PageReadError) as error:
        read_page_bytes(source(tmp_path, "parts.html.gz"), MB)
    assert str(error.value) == "truncated gzip file: the compressed data ends early"


def _base64_mhtml(payload: bytes) -> bytes:
    return (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="XX"\r\n\r\n--XX\r\n'
        b"Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n" + payload + b"\r\n--XX--\r\n"
    )


@pytest.mark.parametrize(
    "payload",
    [b"PGh0bWw+PHA+eDwvcD48L2h0bWw+x", b"!!!!@@@@"],
    ids=["a length no padding can fix", "no base64 characters at all"],
)
def test_an_mhtml_html_part_with_broken_base64_says_so(tmp_path: Path, payload: bytes) -> None:
    # The email package gives the undecoded text or nothing for such a part; neither is the page.
    write(tmp_path / "saved.mht", _base64_mhtml(payload))
    with pytest.raises(PageReadError) as error:
        read_page_bytes(source(tmp_path, "saved.mht"), MB)
    assert str(error.value) == "MHTML archive: its HTML part's base64 content cannot be decoded"


def test_an_mhtml_html_part_in_base64_is_decoded(tmp_path: Path) -> None:
    import base64

    write(tmp_path / "saved.mht", _base64_mhtml(base64.encodebytes(HTML)))
    assert read_page_bytes(source(tmp_path, "saved.mht"), MB) == HTML


def _nested_mhtml(levels: int) -> bytes:
    """An MHTML whose HTML part sits inside ``levels`` multiparts nested in the top one."""
    parts = [b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b0"\r\n\r\n']
    for i in range(levels):
        parts.append(b'--b%d\r\nContent-Type: multipart/related; boundary="b%d"\r\n\r\n' % (i, i + 1))
    parts.append(b"--b%d\r\nContent-Type: text/html\r\n\r\n%s\r\n--b%d--\r\n" % (levels, HTML, levels))
    parts.extend(b"--b%d--\r\n" % i for i in range(levels - 1, -1, -1))
    return b"".join(parts)


@pytest.mark.parametrize("levels", [100, 3000])
def test_an_mhtml_nested_too_deep_says_so(tmp_path: Path, levels: int) -> None:
    # 3,000 levels exhaust the email parser's recursion; 100 would parse, but the HTML part is
    # then 101 levels down: both over the bound of 100.
    write(tmp_path / "deep.mht", _nested_mhtml(levels))
    with pytest.raises(PageReadError) as error:
        read_page_bytes(source(tmp_path, "deep.mht"), MB)
    assert str(error.value) == "MHTML archive nests its parts more than 100 levels deep"


def test_an_mhtml_nested_100_levels_is_read(tmp_path: Path) -> None:
    write(tmp_path / "deep.mht", _nested_mhtml(99))
    assert read_page_bytes(source(tmp_path, "deep.mht"), MB).strip() == HTML


def test_a_gzip_file_of_many_members_is_read_in_linear_time_and_bounded():
    # Each member used to copy the rest of the file: 4 MB of empty members took about 49 s.
    import gzip

    from dedup_gui.core.pipeline.loading import GZIP_MAX_MEMBERS, PageReadError, gunzip

    page = b"<html><body><p>" + b"hello world " * 100 + b"</p></body></html>"
    assert gunzip(gzip.compress(b"") * (GZIP_MAX_MEMBERS - 1) + gzip.compress(page), 10**7) == page
    with pytest.raises(PageReadError, match="gzip file of more than 10,000 members: not read"):
        gunzip(gzip.compress(b"") * (GZIP_MAX_MEMBERS + 1), 10**7)
