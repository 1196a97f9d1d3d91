"""A crawled HTTP response as a WARC record stores it: its head, and its body's codings undone.

The head is read line by line (:func:`parse_http`); a line that is not ``name: value`` makes the
record damaged.  Transfer and
content codings (RFC 9112 section 7, RFC 9110 section 8.4) are undone with bounded output:
chunked (FastWARC's ``ChunkedReader``), gzip (:func:`~dedup_gui.core.pipeline.loading.gunzip`),
deflate (zlib, wrapped or raw, as browsers accept) and brotli (the ``brotli`` package).
"""

from __future__ import annotations

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
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # a header name (RFC 9110 section 5.6.2)
_CHARSET = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.I)


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
    """``(media type, charset label or None)`` of a Content-Type value (RFC 9110 section 8.3).

    Example:
        >>> media_type('Text/HTML; charset="GBK"'), media_type("")
        (('text/html', 'GBK'), ('', None))
    """
    mime = content_type.partition(";")[0].strip().lower()
    match = _CHARSET.search(content_type)
    return mime, match.group(1) if match else None


def parse_http(block: bytes) -> HttpHead:
    """The HTTP response head at the start of a record block (RFC 9112 sections 4 and 5).

    Read here rather than by ``http.client.parse_headers``: the email package that parses for it
    took half the time of listing a WARC file, for a grammar of a few lines.  Obsolete line
    folding (a line starting with a space or tab) continues the previous header.

    Raises:
        WarcRecordError: no complete head within :data:`HTTP_HEADER_LIMIT`, a bad status line, or a
            header line that is not ``name: value``.
    """
    end = block.find(b"\r\n\r\n", 0, HTTP_HEADER_LIMIT)
    if end < 0:
        raise WarcRecordError("bad HTTP header: no end of the header found")
    lines = block[:end].split(b"\r\n")
    match = _STATUS_LINE.match(lines[0])
    if not match:
        raise WarcRecordError(f"bad HTTP header: the status line is {lines[0][:60]!r}")
    headers: dict[bytes, bytes] = {}
    name = b""
    for line in lines[1:]:
        if line[:1] in (b" ", b"\t") and name:
            headers[name] += b" " + line.strip()
            continue
        raw, colon, value = line.partition(b":")
        if not colon or not _TOKEN.fullmatch(raw):
            raise WarcRecordError(f"bad HTTP header: a header line without a colon ({line[:60]!r})")
        name = raw.lower()
        # a repeated header is one list (RFC 9110 section 5.3)
        headers[name] = headers[name] + b", " + value.strip() if name in headers else value.strip()

    def get(key: bytes) -> str:
        return headers.get(key, b"").decode("latin-1")

    content_type = get(b"content-type")
    mime, charset = media_type(content_type)
    return HttpHead(int(match.group(1)), content_type, mime, charset, _codings(get(b"transfer-encoding")),
                    _codings(get(b"content-encoding")), end + 4)  # fmt: skip


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
