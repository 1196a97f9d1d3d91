"""What the Rendered tab may show of a page: script-free HTML and the images it may load.

No Qt here (the policy is testable, and could move to ``core``).  Page content is untrusted:
scripts, styles, frames, embedded objects, forms, event-handler attributes and ``javascript:``
links are removed (lxml_html_clean); a resource loads only if it is an image file inside the
scanned folder, or an inline ``data:`` raster image.  Nothing is ever fetched from a network.
"""

from __future__ import annotations

import base64
import binascii
import os
import urllib.parse

import lxml.html
from lxml_html_clean import Cleaner

from dedup_gui.core.attribute_bound import bound_attributes
from dedup_gui.core.decoding import decode_html
from dedup_gui.core.extract import parse_html
from dedup_gui.core.loading import SourceFile, read_page_bytes
from dedup_gui.core.model import Page

#: File suffixes of the images a rendering may load from the scanned folder.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".ico"})
#: Media types of inline ``data:`` images that may be shown (raster only).
DATA_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"})
#: Largest image loaded (bytes), from a file or a ``data:`` URL.
MAX_IMAGE_BYTES = 10 * 1024 * 1024
#: Longest HTML handed to the renderer (characters); longer pages are cut, with a note.
MAX_HTML_CHARS = 1_000_000

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
    kill_tags=("base", "noscript", "template", "svg", "math", "audio", "video", "canvas"),
    remove_unknown_tags=True,
    safe_attrs_only=True,
    host_whitelist=(),
    whitelist_tags=set(),
)


def clean_html(text: str) -> str:
    """Remove everything active or remote-looking from a page and serialize what is left.

    Args:
        text: the page's decoded HTML.

    Returns:
        HTML without ``<script>``, ``<style>``, ``<iframe>``, ``<object>``, ``<embed>``, frames,
        forms, ``<base>``, event-handler or style attributes, or ``javascript:`` links (str;
        ``""`` for a page with nothing to parse).  A tag with more attributes than lxml parses
        in good time keeps its first 1,000 (:func:`~dedup_gui.core.attribute_bound.bound_attributes`).
    """
    root = parse_html(bound_attributes(text)[0])
    if root is None:
        return ""
    _CLEANER(root)
    return lxml.html.tostring(root, encoding="unicode", method="html")


def render_html(page: Page, max_bytes: int) -> tuple[str, list[str]]:
    """Read a page's file again and return its cleaned HTML (runs off the GUI thread).

    Args:
        page: the page.
        max_bytes: the largest file read (bytes; the scan's ``max_file_bytes``).

    Returns:
        ``(html, notes)``: the cleaned HTML, possibly cut to :data:`MAX_HTML_CHARS`, and remarks.

    Raises:
        PageReadError: the file can no longer be read.
    """
    data = read_page_bytes(SourceFile(page.path, page.abspath), max_bytes)
    text, cut = bound_attributes(decode_html(data).text)  # clean_html's own check then finds nothing
    html = clean_html(text)
    notes = list(cut)
    if len(html) > MAX_HTML_CHARS:
        html = html[:MAX_HTML_CHARS]
        notes.append(f"only the first {MAX_HTML_CHARS:,} characters of the cleaned page are shown")
    return html, notes


def is_inside(path: str, root: str) -> bool:
    """``True`` when ``path``, with symbolic links resolved, lies inside folder ``root`` (bool)."""
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    try:
        return os.path.commonpath([real, real_root]) == real_root
    except ValueError:  # different drives on Windows
        return False


def local_image_path(path: str, root: str) -> str | None:
    """The file to load for a local image reference, or ``None`` if it may not be loaded.

    Args:
        path: the referenced file, absolute (already resolved against the page's folder).
        root: the scanned folder.

    Returns:
        The real path of an existing image file (suffix in :data:`IMAGE_SUFFIXES`, at most
        :data:`MAX_IMAGE_BYTES`) inside ``root``; ``None`` otherwise.
    """
    if not os.path.isabs(path) or path.startswith(("\\\\", "//")):  # UNC paths reach the network
        return None
    real = os.path.realpath(path)
    if os.path.splitext(real)[1].lower() not in IMAGE_SUFFIXES or not is_inside(real, root):
        return None
    try:
        if not os.path.isfile(real) or os.path.getsize(real) > MAX_IMAGE_BYTES:
            return None
    except OSError:
        return None
    return real


def data_image_bytes(url: str) -> bytes | None:
    """Decode an inline ``data:`` raster image.

    Args:
        url: the whole URL, e.g. ``"data:image/png;base64,iVBOR..."``.

    Returns:
        The image bytes, or ``None`` when it is not a ``data:`` URL of a type in
        :data:`DATA_IMAGE_TYPES`, is malformed, or exceeds :data:`MAX_IMAGE_BYTES`.
    """
    if not url[:5].lower() == "data:" or "," not in url:
        return None
    header, payload = url[5:].split(",", 1)
    params = [p.strip().lower() for p in header.split(";")]
    if params[0] not in DATA_IMAGE_TYPES or len(payload) > MAX_IMAGE_BYTES * 4 // 3 + 4:
        return None
    try:
        if "base64" in params[1:]:
            data = base64.b64decode(urllib.parse.unquote(payload), validate=False)
        else:
            data = urllib.parse.unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
    return data if len(data) <= MAX_IMAGE_BYTES else None
