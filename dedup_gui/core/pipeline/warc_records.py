"""The records of a WARC file in order, with reading going on after a damaged one.

FastWARC's :class:`~fastwarc.warc.ArchiveIterator` stops at the first record it cannot parse (a
damaged gzip member, a header where a wrong Content-Length says one is).  :func:`records` then
finds where the damage is, reports it, and starts a new iterator at the next record that can be
read: the next gzip member that begins ``WARC/`` in a ``.warc.gz``, the next ``WARC/1.`` line in
a ``.warc`` (as ``warcio``'s and Heritrix's recovering readers look for them).
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Generator

from fastwarc.warc import ArchiveIterator

#: How far past a damaged record the next record is looked for (bytes); beyond it the rest of
#: the file is given up.
RESYNC_LIMIT = 64 * 1024 * 1024
#: How much of a record is read to find its WARC header (bytes).
_HEAD_LIMIT = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)", re.I)


def _framing_ok(fh, offset: int, gz: bool) -> bool:
    """Whether the record at ``offset`` ends where its Content-Length says (with CRLF CRLF)."""
    data = _record_bytes(fh, offset, gz, limit=_HEAD_LIMIT)
    end = data.find(b"\r\n\r\n")
    match = _CONTENT_LENGTH.search(data[:end]) if end >= 0 else None
    if match is None:
        return False
    stop = end + 4 + int(match.group(1))
    if gz:
        whole = _record_bytes(fh, offset, gz, limit=stop + 8)
        return len(whole) == stop + 4 and whole.endswith(b"\r\n\r\n")
    fh.seek(offset + stop)
    return fh.read(4) == b"\r\n\r\n"


def _record_bytes(fh, offset: int, gz: bool, limit: int) -> bytes:
    """Up to ``limit`` bytes of the record at ``offset`` (decompressed from its gzip member)."""
    fh.seek(offset)
    if not gz:
        return fh.read(limit)
    decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = b""
    try:
        while not decomp.eof and len(out) < limit:
            chunk = fh.read(64 * 1024)
            if not chunk:
                break
            out += decomp.decompress(chunk, limit - len(out))
            while decomp.unconsumed_tail and len(out) < limit:
                out += decomp.decompress(decomp.unconsumed_tail, limit - len(out))
    except zlib.error:
        pass
    return out


def _member_end(fh, offset: int) -> int:
    """Where the gzip member starting at ``offset`` ends (or the end of what decompresses)."""
    fh.seek(offset)
    decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pos = offset
    try:
        while not decomp.eof:
            chunk = fh.read(64 * 1024)
            if not chunk:
                break
            decomp.decompress(chunk, 1 << 20)
            while decomp.unconsumed_tail and not decomp.eof:
                decomp.decompress(decomp.unconsumed_tail, 1 << 20)
            pos += len(chunk) - len(decomp.unused_data)
    except zlib.error:
        return pos
    return pos


def _next_start(fh, start: int, gz: bool) -> int | None:
    """The offset of the first record that can be read at or after ``start`` (None: none within
    :data:`RESYNC_LIMIT`): a gzip member that begins ``WARC/``, or a ``WARC/1.`` line."""
    magic = b"\x1f\x8b\x08" if gz else b"WARC/1."
    pos = start
    while pos < start + RESYNC_LIMIT:
        fh.seek(pos)
        window = fh.read(1 << 20)
        if not window:
            return None
        at = window.find(magic)
        while at >= 0:
            candidate = pos + at
            if gz:
                if _record_bytes(fh, candidate, True, 8).startswith(b"WARC/"):
                    return candidate
            elif candidate == 0 or window[at - 2 : at] == b"\r\n" or window[at - 1 : at] == b"\n":
                return candidate
            at = window.find(magic, at + 1)
        pos += max(1, len(window) - len(magic))
    return None


def records(fh, gz: bool, limit: int) -> Generator[tuple[int, object, str | None], BaseException | None, None]:
    """``(offset, record or None, damage reason or None)`` for every record of a WARC file, in
    order; after a record that cannot be parsed, reading goes on at the next record found.

    The caller reads each record's content before asking for the next.  FastWARC's gzip reader
    reads ahead, so damage in the next member may surface while a good record is being read: the
    caller then throws the ``OSError`` into this generator (``gen.throw(exc)``), which reads that
    record again alone (from its own gzip member) and yields it again.

    Args:
        fh: the open WARC file (binary, seekable).
        gz: the file is a ``.warc.gz`` (one gzip member per record).
        limit: the most bytes of a record read when it is read alone (bytes).
    """
    pos: int | None = 0
    while pos is not None:
        fh.seek(pos)
        last: int | None = None
        done = True
        try:
            for record in ArchiveIterator(fh, parse_http=False):
                last, done = record.stream_pos, False
                yield last, record, None
                done = True
            return
        except OSError as exc:
            reason = str(exc) or type(exc).__name__
        if last is not None and not done:
            alone = _alone(fh, last, gz, limit)
            after = (_member_end(fh, last) if gz else _plain_end(fh, last)) if alone is not None else last
            if alone is not None and after > last:
                yield last, alone, None
                pos = after
                continue
            bad = last
        # The failure lies in the record after the last one read, or in that record itself when
        # its Content-Length is wrong (it then runs into, or stops short of, the next one).
        elif last is not None and not _framing_ok(fh, last, gz):
            bad, reason = last, "wrong Content-Length: the record does not end where its Content-Length says"
        elif last is not None:
            bad = _member_end(fh, last) if gz else _plain_end(fh, last)
        else:
            bad = pos
        prefix = "damaged gzip member" if gz and "zip" in reason.lower() else "damaged record"
        yield bad, None, reason if reason.startswith("wrong") else f"{prefix}: {reason}"
        pos = _next_start(fh, bad + 1, gz)


def _alone(fh, offset: int, gz: bool, limit: int):
    """The record at ``offset`` read by itself, from its bytes alone (a FastWARC record over an
    in-memory copy), or ``None`` if it cannot be parsed."""
    data = _record_bytes(fh, offset, gz, limit)
    try:
        return next(iter(ArchiveIterator(io.BytesIO(data), parse_http=False)), None)
    except OSError:
        return None


def _plain_end(fh, offset: int) -> int:
    """Where an uncompressed record that reads well ends: the offset of the next record."""
    data = _record_bytes(fh, offset, False, _HEAD_LIMIT)
    end = data.find(b"\r\n\r\n")
    match = _CONTENT_LENGTH.search(data[:end])
    return offset + end + 4 + int(match.group(1)) + 4 if match else offset + 1
