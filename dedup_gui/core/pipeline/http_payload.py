"""A crawled HTTP response as a WARC record stores it: its head, and its body's codings undone.

The head is read with the standard library's header parser (:func:`http.client.parse_headers`),
whose defects (a line that is not ``name: value``) make the record damaged.  Transfer and
content codings (RFC 9112 section 7, RFC 9110 section 8.4) are undone with bounded output:
chunked (FastWARC's ``ChunkedReader``), gzip (:func:`~dedup_gui.core.pipeline.loading.gunzip`),
deflate (zlib, wrapped or raw, as browsers accept) and brotli (the ``brotli`` package).
"""

from __future__ import annotations

import http.client
import io
import re
import zlib
from dataclasses import dataclass

import brotli
from fastwarc.stream_io import ChunkedReader

from dedup_gui.core.pipeline.loading import PageReadError, gunzip

#: The most bytes of HTTP head a record may have before its body (bytes).
HTTP_HEADER_LIMIT = 64 * 1024
_STATUS_LINE = re.compile(rb"HTTP/\d(?:\.\d)? (\d{3})")
_DEFECTS = {"MissingHeaderBodySeparatorDefect": "a header line without a colon"}


class WarcRecordError(PageReadError):
    """A record that cannot be read: ``str(error)`` is the reason."""


@dataclass(frozen=True)
class HttpHead:
    """A record's HTTP response head: status, media type, charset, codings, body start."""

    status: int
    content_type: str
    mime: str
    charset: str | None
    transfer: tuple[str, ...]
    content: tuple[str, ...]
    body_at: int


def _codings(value: str | None) -> tuple[str, ...]:
    return tuple(c.strip().lower() for c in (value or "").split(",") if c.strip() and c.strip().lower() != "identity")


def media_type(content_type: str) -> tuple[str, str | None]:
    """``(media type, charset label or None)`` of a Content-Type value (email's parser)."""
    msg = http.client.HTTPMessage()
    msg["Content-Type"] = content_type
    charset = msg.get_param("charset")
    return msg.get_content_type() if content_type.strip() else "", charset if isinstance(charset, str) else None


def parse_http(block: bytes) -> HttpHead:
    """The HTTP response head at the start of a record block.

    Raises:
        WarcRecordError: no complete head within :data:`HTTP_HEADER_LIMIT`, a bad status line, or a
            header line that is not ``name: value``.
    """
    end = block.find(b"\r\n\r\n", 0, HTTP_HEADER_LIMIT)
    if end < 0:
        raise WarcRecordError("bad HTTP header: no end of the header found")
    status_line, _, rest = block[:end].partition(b"\r\n")
    match = _STATUS_LINE.match(status_line)
    if not match:
        raise WarcRecordError(f"bad HTTP header: the status line is {status_line[:60]!r}")
    headers = http.client.parse_headers(io.BytesIO(rest + b"\r\n\r\n"))
    if headers.defects:
        defect = type(headers.defects[0]).__name__
        raise WarcRecordError(f"bad HTTP header: {_DEFECTS.get(defect, defect)}")
    content_type = headers.get("Content-Type", "") or ""
    mime, charset = media_type(content_type)
    transfer = _codings(headers.get("Transfer-Encoding"))
    return HttpHead(int(match.group(1)), content_type, mime, charset, transfer,
                 _codings(headers.get("Content-Encoding")), end + 4)  # fmt: skip


def _brotli(data: bytes, max_bytes: int) -> bytes:
    decompressor = brotli.Decompressor()
    out = decompressor.process(data, output_buffer_limit=max_bytes + 1)
    if len(out) > max_bytes or not decompressor.is_finished():
        if len(out) > max_bytes:
            raise WarcRecordError(f"brotli content larger than the limit of {max_bytes:,} bytes (--max-file-mb)")
        raise WarcRecordError("truncated brotli content")
    return out


def _inflate(data: bytes, max_bytes: int) -> bytes:
    # HTTP "deflate" is zlib-wrapped by the standard, raw deflate by many servers: browsers take both.
    for wbits in (zlib.MAX_WBITS, -zlib.MAX_WBITS):
        decomp = zlib.decompressobj(wbits)
        try:
            out = decomp.decompress(data, max_bytes + 1)
        except zlib.error:
            continue
        if len(out) > max_bytes:
            raise WarcRecordError(f"deflate content larger than the limit of {max_bytes:,} bytes (--max-file-mb)")
        if not decomp.eof:
            raise WarcRecordError("truncated deflate content")
        return out
    raise WarcRecordError("broken deflate content")


def decode_body(body: bytes, transfer: tuple[str, ...], content: tuple[str, ...], max_bytes: int) -> bytes:
    """Undo a body's HTTP transfer and content codings (RFC 9112 section 7, RFC 9110 section 8.4).

    Args:
        body: the body as stored in the record.
        transfer: the ``Transfer-Encoding`` codings, lower case, in the order applied.
        content: the ``Content-Encoding`` codings, lower case, in the order applied.
        max_bytes: the largest decoded body accepted (bytes).

    Returns:
        The decoded body (bytes).

    Raises:
        WarcRecordError: a broken or truncated coding, an unknown one, or a body over ``max_bytes``.
    """
    if "chunked" in transfer:
        try:
            body = ChunkedReader(io.BytesIO(body)).read()
        except OSError as exc:
            raise WarcRecordError(f"broken chunked transfer encoding: {exc}") from None
    for coding in reversed([c for c in transfer if c != "chunked"] + list(content)):
        if coding in ("gzip", "x-gzip"):
            try:
                body = gunzip(body, max_bytes)
            except PageReadError as exc:
                raise WarcRecordError(str(exc)) from None
        elif coding == "deflate":
            body = _inflate(body, max_bytes)
        elif coding == "br":
            try:
                body = _brotli(body, max_bytes)
            except brotli.error as exc:
                raise WarcRecordError(f"broken brotli content: {exc}") from None
        else:
            raise WarcRecordError(f"unknown content encoding {coding!r}")
    return body
