"""Hostile pages for the safety tests: images from outside the folder, SVG fan-outs, deep tables,
special files.  Built in a temporary folder; nothing here is product code."""

from __future__ import annotations

import base64
import os
import struct
import zlib
from pathlib import Path

RED = (255, 0, 0)
GREEN = (0, 200, 0)

#: Ordinary text, so that every page is a usable page and the two copies form a pair.
BODY = (
    "<p>Riders meet at the hall at eight and leave at half past for the long loop over the hills.</p>"
    "<p>Bring lights, a spare tube and food; the café at the top closes at noon on Sundays.</p>"
)


def png_bytes(width: int = 3, height: int = 2, rgb: tuple[int, int, int] = (128, 128, 128)) -> bytes:
    """A valid PNG image of one colour, built without Qt."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def svg_showing(path: Path, size: int = 60) -> bytes:
    """An SVG document that draws the image file ``path`` (QtSvg would read it from disk)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{size}" height="{size}"><image xlink:href="file://{path}" href="file://{path}" '
        f'width="{size}" height="{size}"/></svg>'
    ).encode()


def svg_fan_out(levels: int = 12) -> bytes:
    """An SVG whose ``<use>`` elements fan out 10-fold per level ("billion laughs" of shapes)."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             'width="50" height="50"><defs><rect id="l0" width="1" height="1" fill="red"/>']  # fmt: skip
    for level in range(1, levels + 1):
        uses = "".join(f'<use xlink:href="#l{level - 1}" href="#l{level - 1}"/>' for _ in range(10))
        parts.append(f'<g id="l{level}">{uses}</g>')
    parts.append(f'</defs><use xlink:href="#l{levels}" href="#l{levels}"/></svg>')
    return "".join(parts).encode()


def data_url(data: bytes, media_type: str) -> str:
    """A base64 ``data:`` URL."""
    return f"data:{media_type};base64," + base64.b64encode(data).decode()


def image_site(tmp: Path) -> Path:
    """A scanned folder ``tmp/site`` whose two pages refer to a green image inside it and, in
    every way found to work against Qt's own loading, to a red image outside it.

    Returns:
        the scanned folder.
    """
    outside = tmp / "outside"
    outside.mkdir()
    red = outside / "red.png"
    red.write_bytes(png_bytes(60, 60, RED))
    site = tmp / "site"
    (site / "img").mkdir(parents=True)
    (site / "img" / "green.png").write_bytes(png_bytes(60, 60, GREEN))
    (site / "img" / "notes.txt").write_text("secret")
    (site / "img" / "drawing.svg").write_bytes(svg_showing(red))
    (site / "img" / "svg-named.png").write_bytes(svg_showing(red))  # SVG bytes under a raster name
    os.symlink(red, site / "img" / "link-out.png")
    refs = [
        "img/green.png",
        str(red),  # an absolute path
        f"file://{red}",
        os.path.relpath(red, site),  # ../outside/red.png
        "img/link-out.png",  # a symlink inside the folder to the red image outside
        "img/drawing.svg",
        "img/svg-named.png",
        "img/notes.txt",
        data_url(svg_showing(red), "image/png"),  # SVG bytes labelled as PNG
        data_url(svg_showing(red), "image/svg+xml"),
        "http://example.invalid/x.png",
    ]
    images = "".join(f"<img src='{ref}' alt='' width=60 height=60>" for ref in refs)
    for name in ("a.html", "b.html"):
        (site / name).write_text(
            "<html><head><title>Ride</title><script>document.title='HACKED'</script>"
            "<style>p { color: red }</style><link rel=stylesheet href='http://example.invalid/s.css'></head>"
            f"<body onload=\"alert('HACKED-onload')\">{BODY}{images}"
            "<iframe src='http://example.invalid/frame'></iframe><object data='x.swf'></object>"
            "<a id=link href='http://example.invalid/next' onclick=\"document.title='HACKED'\">next page</a>"
            "</body></html>",
            encoding="utf-8",
        )
    return site


def nested_tables(levels: int = 30) -> str:
    """A 1-2 KB page of ``levels`` nested tables (Qt's layout time doubles per level)."""
    return (
        "<html><body>" + BODY + "<table><tr><td>" * levels + "deep" + "</td></tr></table>" * levels + "</body></html>"
    )


def freezing_site(tmp: Path, attributes: int = 40_000) -> Path:
    """A scanned folder of pages that once froze the window: SVG fan-outs (as a data: URI and as
    an .svg file), 30 nested tables, images from ``/dev/stdin`` and ``/proc/self/fd/0``, and an
    element with ``attributes`` attributes.  Each page has a twin, so each forms a pair.

    Returns:
        the scanned folder.
    """
    site = tmp / "freezing"
    site.mkdir()
    (site / "fan.svg").write_bytes(svg_fan_out())
    many = " ".join(f'a{i}="{i}"' for i in range(attributes))
    pages = {
        "svg-data": f"<img src='{data_url(svg_fan_out(), 'image/svg+xml')}'><img src='{data_url(svg_fan_out(), 'image/png')}'>",
        "svg-file": "<img src='fan.svg'>",
        "tables": nested_tables(30),
        "stdin": "<img src='/dev/stdin'><img src='file:///proc/self/fd/0'><img src='file:///dev/zero'>",
        "attributes": f"<div {many}>x</div>",
    }
    for name, extra in pages.items():
        html = extra if extra.startswith("<html>") else f"<html><body>{BODY}{extra}</body></html>"
        for twin in ("1", "2"):
            (site / f"{name}-{twin}.html").write_text(
                html.replace("hall at eight", f"hall at eight ({name})"), encoding="utf-8"
            )
    return site


def long_text_site(tmp: Path, word: int = 150_000, lines: int = 100_000, sentences: int = 60_000,
                   tags: int = 80_000) -> Path:  # fmt: skip
    """A scanned folder of pages whose size once froze the inspector and the teaching window,
    each with a twin so that each forms a pair:

    * ``word``: one word of ``word`` letters (Qt's line breaking is quadratic in it);
    * ``lines``: ``lines`` short lines in a ``<pre>`` (a text block each in a plain-text pane);
    * ``sentences``: ``sentences`` one-sentence paragraphs, every other one changed in the twin
      (the sentence-level alignment grows with their product);
    * ``tags``: ``tags`` words in ``<b>`` or ``<i>``, in another order of the two in the twin
      (the layout diff aligns ``tags`` elements a side).

    Returns:
        the scanned folder.
    """
    import random

    rng = random.Random(13)
    site = tmp / "long"
    site.mkdir()
    letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(word))
    rows = "\n".join(f"row {i} {rng.choice(('red', 'green', 'blue'))}" for i in range(lines))
    vocabulary = ["alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "light", "horse", "paper"]
    words = [rng.choice(vocabulary) for _ in range(tags)]

    def tagged(seed: int) -> str:
        order = random.Random(seed)
        return " ".join(f"<{t}>{w}</{t}>" for w, t in zip(words, (order.choice("bi") for _ in words)))

    def said(changed: bool) -> str:
        return "".join(f"<p>Sentence number {i} is {'there' if changed and i % 2 else 'here'}.</p>"
                       for i in range(sentences))  # fmt: skip

    pages = {
        "word": (f"<p>{letters}</p>", f"<p>{letters}</p>"),
        "lines": (f"<pre>{rows}</pre>", f"<pre>{rows}</pre>"),
        "sentences": (f"<article>{said(False)}</article>", f"<article>{said(True)}</article>"),
        "tags": (f"<p>{tagged(1)}</p>", f"<p>{tagged(2)}</p>"),
    }
    for name, twins in pages.items():
        for twin, body in zip("12", twins):
            (site / f"{name}-{twin}.html").write_text(
                f"<html><head><title>{name}</title></head><body>{body}</body></html>", encoding="utf-8"
            )
    return site


def long_cjk_site(tmp: Path, chars: int = 600_000) -> Path:
    """A scanned folder of two pages of ``chars`` random CJK ideographs in one paragraph, the
    second with every 7th character changed: 600,000 SimHash features and shingles a page,
    whose sort, sets and step objects once held the teaching window's GUI thread 0.7-1.2 s.

    Returns:
        the scanned folder.
    """
    import random

    rng = random.Random(600)
    text = [chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(chars)]
    twin = [chr(0x4E00 + (ord(c) - 0x4E00 + 1) % 0x51A6) if i % 7 == 0 else c for i, c in enumerate(text)]
    site = tmp / "cjk"
    site.mkdir()
    for name, chars_of in (("cjk-1.html", text), ("cjk-2.html", twin)):
        (site / name).write_text(f"<html><head><title>长页</title></head><body><p>{''.join(chars_of)}</p></body></html>",
                                 encoding="utf-8")  # fmt: skip
    return site
