"""What the Rendered view may show of a page: script-free HTML and the images it may load.

No Qt here: the policy is decided before any renderer sees the page, and is tested without a
screen.  Page content is untrusted:

- scripts, styles, frames, embedded objects, forms, event-handler attributes, ``<base>``,
  ``<svg>``/``<math>`` and ``javascript:`` links are removed (lxml_html_clean);
- every image is decided here, never by the renderer: an ``<img>`` keeps a ``src`` only if its
  bytes are a raster image (PNG, JPEG, GIF or WebP, recognised by their bytes, not their label
  or suffix), read from a regular file whose real path (links resolved) lies inside the scanned
  folder, or from an inline ``data:`` URL; its ``src`` is then replaced by an internal name
  (``res:N``) whose bytes travel with the HTML.  Every other ``<img>`` is replaced by its
  ``alt`` text.  SVG is never shown (it can load other files and fan out without bound).
  Special files (devices, FIFOs, ``/proc``) are never opened;
- what makes a layout expensive is simplified: tables nested more than
  :data:`MAX_TABLE_NESTING` deep become plain blocks, sizes in attributes are clamped, and
  long runs without whitespace get zero-width break opportunities.

Nothing is ever fetched from a network.  The renderer itself (``dedup_gui.export.render_process``)
runs in a separate process with a time limit.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import stat
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

import lxml.html
from lxml_html_clean import Cleaner

from dedup_gui.core.extraction.attribute_bound import bound_attributes
from dedup_gui.core.pipeline.page_html import parse_page_html, read_page_html
from dedup_gui.core.pipeline.walk import is_inside

#: Largest image loaded (bytes), from a file or a ``data:`` URL.
MAX_IMAGE_BYTES = 10 * 1024 * 1024
#: Most images loaded per page; later ones are shown as their ``alt`` text.
MAX_IMAGES = 200
#: Most image bytes loaded per page in all.
MAX_IMAGES_TOTAL_BYTES = 64 * 1024 * 1024
#: Longest HTML handed to the renderer (characters); longer pages are cut, with a note.
MAX_HTML_CHARS = 1_000_000
#: Tables nested deeper than this are drawn as plain blocks: Qt's table layout time doubles with
#: each level (measured: 12 levels 0.03 s, 16 levels 0.45 s, 20 levels 18 s).
MAX_TABLE_NESTING = 8
#: Runs of more characters than this without whitespace get zero-width spaces, so lines can break.
WORD_BREAK = 100
_LONG_RUN = re.compile(rf"\S{{{WORD_BREAK + 1},}}")
#: Attributes whose numbers size the layout, and the largest value kept for each.
SIZE_LIMITS = {
    "width": 4000, "height": 4000, "border": 20, "cellpadding": 50, "cellspacing": 50,
    "hspace": 100, "vspace": 100, "colspan": 100, "rowspan": 100, "size": 100, "cols": 200, "rows": 200,
}  # fmt: skip
#: The name an allowed image gets in the cleaned HTML (``res:0``, ``res:1``...).
RESOURCE_SCHEME = "res"

#: Leading bytes of the raster formats that may be shown, and their format names.
_RASTER_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
)
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col"})

_CLEANER = Cleaner(
    scripts=True,
    javascript=True,
    comments=True,
    style=True,
    inline_style=True,
    links=True,
    meta=True,
    page_structure=False,
    processing_instructions=True,
    embedded=True,
    frames=True,
    forms=True,
    annoying_tags=True,
    kill_tags=("base", "noscript", "template", "svg", "math", "audio", "video", "canvas", "picture", "source"),
    remove_unknown_tags=True,
    safe_attrs_only=True,
    host_whitelist=(),
    whitelist_tags=set(),
)


@dataclass(frozen=True)
class ResourceRequest:
    """One resource a page referred to, and whether the rendering may show it.

    Attributes:
        url: the reference as written in the page (str; ``data:`` URLs shortened).
        loaded: ``True`` when its bytes go to the renderer.
        reason: why (``"image inside the scanned folder"``, ``"inline image"``, or the refusal).
    """

    url: str
    loaded: bool
    reason: str


@dataclass
class PreparedPage:
    """A page made safe to draw.

    Attributes:
        html: the cleaned HTML (str); allowed images are named ``res:N``.
        images: the bytes of image ``res:N`` at index ``N`` (list[bytes]).
        formats: the raster format of each image (``"png"``, ``"jpeg"``, ``"gif"``, ``"webp"``).
        requests: every image reference and its fate (list[:class:`ResourceRequest`]).
        notes: remarks for the user (list[str]), e.g. that the page was cut.
    """

    html: str
    images: list[bytes] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    requests: list[ResourceRequest] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def sniff_raster(data: bytes) -> str | None:
    """The raster format of image bytes, by their leading bytes.

    Args:
        data: the image's bytes.

    Returns:
        ``"png"``, ``"jpeg"``, ``"gif"`` or ``"webp"``; ``None`` for anything else (SVG, HTML,
        BMP, text...).
    """
    for magic, name in _RASTER_MAGIC:
        if data.startswith(magic):
            return name
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def clean_html(text: str) -> str:
    """Remove everything active or remote-looking from a page and serialize what is left.

    Args:
        text: the page's decoded HTML.

    Returns:
        HTML without ``<script>``, ``<style>``, ``<iframe>``, ``<object>``, ``<embed>``, frames,
        forms, ``<base>``, ``<svg>``, event-handler or style attributes, or ``javascript:``
        links, with deep tables flattened and sizes clamped (str; ``""`` for a page with nothing
        to parse).  Images keep their ``src``: :func:`prepare_page` decides them.  A tag with more
        attributes than lxml parses in good time keeps its first 1,000
        (:func:`~dedup_gui.core.extraction.attribute_bound.bound_attributes`).
    """
    root = _cleaned_tree(text)
    return "" if root is None else lxml.html.tostring(root, encoding="unicode", method="html")


def _cleaned_tree(text: str):
    root = parse_page_html(text)
    if root is None:
        return None
    _CLEANER(root)
    _flatten_deep_tables(root)
    _clamp_sizes(root)
    _break_long_words(root)
    return root


def _break_long_words(root) -> None:
    """Put a zero-width space after every :data:`WORD_BREAK` characters of a longer run without
    whitespace (a base64 blob, a URL list): Qt's line breaking is quadratic in one unbreakable
    run (measured: 900,000 characters 15.6 s; broken up, 0.1 s)."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in ("text", "tail"):
            value = getattr(element, name)
            if value and len(value) > WORD_BREAK and _LONG_RUN.search(value):
                setattr(element, name, _LONG_RUN.sub(_with_breaks, value))


def _with_breaks(match) -> str:
    run = match.group(0)
    return "\u200b".join(run[i : i + WORD_BREAK] for i in range(0, len(run), WORD_BREAK))


def _flatten_deep_tables(root) -> int:
    """Turn the parts of tables nested more than :data:`MAX_TABLE_NESTING` deep into ``<div>``s;
    returns how many tables were flattened."""
    flattened = 0
    # iterative walk, carrying the number of enclosing tables
    stack = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag == "table":
            depth += 1
            if depth > MAX_TABLE_NESTING:
                flattened += 1
        if depth > MAX_TABLE_NESTING and tag in _TABLE_PARTS:
            element.tag = "div"
            element.attrib.clear()
        stack.extend((child, depth) for child in element)
    return flattened


def _clamp_sizes(root) -> None:
    for element in root.iter():
        attrib = element.attrib
        for name, limit in SIZE_LIMITS.items():
            value = attrib.get(name)
            if value is None:
                continue
            value = value.strip()[:12]
            percent = value.endswith("%")
            number = value.rstrip("%").split(".")[0]
            most = 100 if percent else limit
            if number.isdigit() and int(number) > most:
                attrib[name] = f"{most}%" if percent else str(most)


def read_local_image(path: str, root: str) -> tuple[bytes | None, str]:
    """Read an image file for a rendering, if the policy allows it.

    Args:
        path: the referenced file, absolute (already resolved against the page's folder).
        root: the scanned folder.

    Returns:
        ``(data, reason)``: the bytes of a PNG, JPEG, GIF or WebP file (by its bytes) of at most
        :data:`MAX_IMAGE_BYTES` whose real path lies inside ``root``, and
        ``"image inside the scanned folder"``; or ``(None, why not)``.  A file that is not a
        regular file (a device, a FIFO, a socket) is never read: it is opened without blocking
        and refused on its ``fstat``.
    """
    if not os.path.isabs(path) or path.startswith(("\\\\", "//")):  # UNC paths reach the network
        return None, "not a local file"
    if "\x00" in path:
        return None, "not a file name (it holds a NUL)"
    real = os.path.realpath(path)
    if not is_inside(real, root):
        return None, "outside the scanned folder"
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file"
        if st.st_size > MAX_IMAGE_BYTES:
            return None, f"larger than {MAX_IMAGE_BYTES:,} bytes"
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_IMAGE_BYTES + 1)
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if len(data) > MAX_IMAGE_BYTES:
        return None, f"larger than {MAX_IMAGE_BYTES:,} bytes"
    if sniff_raster(data) is None:
        return None, "not a PNG, JPEG, GIF or WebP image"
    return data, "image inside the scanned folder"


def data_image_bytes(url: str) -> bytes | None:
    """Decode an inline ``data:`` raster image.

    Args:
        url: the whole URL, e.g. ``"data:image/png;base64,iVBOR..."``.

    Returns:
        The image bytes when they are a PNG, JPEG, GIF or WebP image (by their bytes, whatever
        the URL's media type says); ``None`` when it is not a ``data:`` URL, is malformed, holds
        anything else (SVG included), or exceeds :data:`MAX_IMAGE_BYTES`.
    """
    if url[:5].lower() != "data:" or "," not in url:
        return None
    header, payload = url[5:].split(",", 1)
    params = [p.strip().lower() for p in header.split(";")]
    if len(payload) > MAX_IMAGE_BYTES * 4 // 3 + 4:
        return None
    try:
        if "base64" in params[1:]:
            data = base64.b64decode(urllib.parse.unquote(payload), validate=False)
        else:
            data = urllib.parse.unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
    if len(data) > MAX_IMAGE_BYTES or sniff_raster(data) is None:
        return None
    return data


def _image_for(src: str, page_dir: str, root: str) -> tuple[bytes | None, str]:
    """The bytes of the image ``src`` refers to, or ``(None, why not)``."""
    src = src.strip()
    if src[:5].lower() == "data:":
        data = data_image_bytes(src)
        return (data, "inline image") if data is not None else (None, "not an inline PNG, JPEG, GIF or WebP image")
    parts = urllib.parse.urlsplit(src)
    scheme = parts.scheme.lower()
    if scheme and len(scheme) > 1 and scheme != "file":  # a one-letter scheme is a Windows drive
        return None, "remote or unknown address: nothing is fetched"
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            return None, "a file on another host: nothing is fetched"
        path = urllib.request.url2pathname(parts.path)
    elif len(scheme) == 1:
        path = src
    else:
        path = urllib.parse.unquote(parts.path)
        if not path:
            return None, "no file named"
        if not os.path.isabs(path):
            path = os.path.join(page_dir, path)
    return read_local_image(os.path.normpath(path), root)


def _shown(url: str) -> str:
    return url if len(url) <= 120 else url[:100] + "…"


def prepare_html(text: str, page_abspath: str, root: str) -> PreparedPage:
    """Clean a page's HTML and decide each of its images.

    Args:
        text: the page's decoded HTML.
        page_abspath: the page file's absolute path (relative image paths start from its folder).
        root: the scanned folder; images must lie inside it.

    Returns:
        A :class:`PreparedPage`.
    """
    text, cut = bound_attributes(text)  # _cleaned_tree's own check then finds nothing
    tree = _cleaned_tree(text)
    if tree is None:
        return PreparedPage("", notes=list(cut))
    for head in tree.findall("head"):  # nothing in it is drawn, and a huge title would eat the cut
        head.drop_tree()
    out = PreparedPage("", notes=list(cut))
    page_dir = os.path.dirname(page_abspath)
    total = 0
    for img in list(tree.iter("img")):
        src = img.get("src") or ""
        data, reason = None, "no address"
        if src:
            if len(out.images) >= MAX_IMAGES:
                reason = f"more than {MAX_IMAGES} images"
            else:
                data, reason = _image_for(src, page_dir, root)
                if data is not None and total + len(data) > MAX_IMAGES_TOTAL_BYTES:
                    data, reason = None, f"more than {MAX_IMAGES_TOTAL_BYTES:,} bytes of images"
        for name in ("srcset", "longdesc", "usemap", "ismap"):
            img.attrib.pop(name, None)
        if data is None:
            _replace_by_alt(img)
        else:
            img.set("src", f"{RESOURCE_SCHEME}:{len(out.images)}")
            out.images.append(data)
            out.formats.append(sniff_raster(data) or "")
            total += len(data)
        if src:
            out.requests.append(ResourceRequest(_shown(src), data is not None, reason))
    html = lxml.html.tostring(tree, encoding="unicode", method="html")
    if len(html) > MAX_HTML_CHARS:
        html = html[:MAX_HTML_CHARS]
        out.notes.append(f"only the first {MAX_HTML_CHARS:,} characters of the cleaned page are shown")
    out.html = html
    return out


def _replace_by_alt(img) -> None:
    alt = (img.get("alt") or "").strip()
    parent = img.getparent()
    if parent is None:
        return
    if alt:
        span = lxml.html.Element("span")
        span.text = f"[{alt}]"
        span.tail = img.tail
        parent.replace(img, span)
    else:
        img.drop_tree()  # keeps the tail text


def prepare_page(path: str, abspath: str, root: str, max_bytes: int, follow_links: bool = False) -> PreparedPage:
    """Read a page file again and make it safe to draw (:func:`prepare_html`).

    Args:
        path: the page's path relative to the scanned folder (for messages).
        abspath: the page file.
        root: the scanned folder.
        max_bytes: the largest file read (bytes; the scan's ``max_file_bytes``).
        follow_links: the scan followed links out of the folder (the page may lie outside).

    Returns:
        A :class:`PreparedPage`.

    Raises:
        PageReadError: the file can no longer be read, or now leads out of the scanned folder.
    """
    return prepare_html(read_page_html(path, abspath, root, max_bytes, follow_links), abspath, root)
