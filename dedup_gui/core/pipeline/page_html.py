"""A scanned page's HTML read again after the scan: read, decode, parse, in one place.

The views that go back to a page file (its whole visible text, its layout regions, the safe
rendering) all read it the same way (a WARC page's record through
:func:`~dedup_gui.core.pipeline.warc.read_record`, at the offset its path names): the bytes through
:func:`~dedup_gui.core.pipeline.loading.read_page_again` (a file that now leads out of the
scanned folder is refused), decoded as the scan decoded them
(:func:`~dedup_gui.core.pipeline.decoding.decode_html`, WHATWG encoding rules), and parsed by
lxml after tags with too many attributes are cut
(:func:`~dedup_gui.core.extraction.attribute_bound.bound_attributes`: lxml is super-quadratic
in one tag's attributes).
"""

from __future__ import annotations

import lxml.html

from dedup_gui.core.extraction.attribute_bound import bound_attributes
from dedup_gui.core.extraction.dom_text import parse_html
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.pipeline.loading import PageReadError, SourceFile, is_inside, read_page_again, read_page_bytes
from dedup_gui.core.pipeline.walk import record_offset
from dedup_gui.core.pipeline.warc import read_record


def read_page_html(path: str, abspath: str, root: str | None, max_bytes: int, follow_links: bool = False) -> str:
    """A page file's HTML, or a WARC record's, read again and decoded.

    Args:
        path: the page's path relative to the scanned folder (for messages); a WARC page's
            (``file.warc.gz#offset``) names the record read.
        abspath: the page file, or the WARC file.
        root: the scanned folder: a file that now leads out of it is not read; ``None`` reads
            the file as it is (:func:`~dedup_gui.core.pipeline.loading.read_page_bytes`).
        max_bytes: the largest file read (bytes; the scan's ``max_file_bytes``).
        follow_links: the scan followed links out of the folder (the page may lie outside).

    Returns:
        The decoded HTML (str).

    Raises:
        PageReadError: the file can no longer be read, or now leads out of ``root``.
    """
    offset = record_offset(path, abspath)
    if offset is not None:
        if root is not None and not follow_links and not is_inside(abspath, root):
            raise PageReadError("it now leads out of the scanned folder (a link made after the scan): not read")
        payload = read_record(abspath, offset, max_bytes)
        return decode_html(payload.html, payload.charset).text
    if root is None:
        data = read_page_bytes(SourceFile(path, abspath), max_bytes)
    else:
        data = read_page_again(path, abspath, root, max_bytes, follow_links)
    return decode_html(data).text


def parse_page_html(text: str) -> lxml.html.HtmlElement | None:
    """Parse a page's decoded HTML with lxml, tags cut to their first 1,000 attributes.

    Returns:
        The root element, or ``None`` for a page with nothing to parse.
    """
    return parse_html(bound_attributes(text)[0])


def read_page_tree(
    path: str, abspath: str, root: str | None, max_bytes: int, follow_links: bool = False
) -> lxml.html.HtmlElement | None:
    """:func:`read_page_html` then :func:`parse_page_html` (same arguments and errors)."""
    return parse_page_html(read_page_html(path, abspath, root, max_bytes, follow_links))
