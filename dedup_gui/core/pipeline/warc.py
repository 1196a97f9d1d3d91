"""WARC files (ISO 28500) as input: each HTML response in a crawl archive is a page.

A ``.warc`` or ``.warc.gz`` file found by the walk is a container.  :func:`list_records` streams
it once with FastWARC (Bevendorff et al., "FastWARC", OSSYM 2021; the reader of Resiliparse) and
lists its pages without holding them: every ``response`` record whose HTTP status is 2xx and
whose ``Content-Type`` is HTML, and every ``resource`` record of an HTML type.  A page is named
``crawl.warc.gz#1234`` (the file and the record's offset: unambiguous, and the address the record
is read again from); its URL is ``WARC-Target-URI`` and its date ``WARC-Date``.  The per-page stage
then reads one record at its offset (:func:`read_record`), in a worker process like any file.

``revisit`` records (the crawler's own "unchanged since the last capture") are not read as pages:
they are listed as skipped, each with the page it is an exact revisit of.  Records that are not
HTML pages (images, style sheets, requests, metadata, redirects) are counted, one summary line per
file.  A damaged record (a truncated file or gzip member, a bad HTTP header, a wrong
Content-Length) is an error with its file, offset and reason, and reading goes on with the next
record that can be found.  A file so named that begins with no WARC record and holds none (a
gzip of something else, random bytes) is one error for the file: not a WARC file.

HTTP transfer and content codings are undone by :mod:`~dedup_gui.core.pipeline.http_payload`;
finding the next record after a damaged one is :mod:`~dedup_gui.core.pipeline.warc_records`'s.
The HTTP charset is handed to the decoder, which weighs it after
the byte-order mark, as browsers do (:func:`~dedup_gui.core.pipeline.decoding.decode_html`).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from fastwarc.warc import ArchiveIterator, WarcRecordType

from dedup_gui.core.model import FileError
from dedup_gui.core.pipeline.http_payload import (
    HTTP_HEADER_LIMIT,
    HttpHead,
    WarcRecordError,
    decode_body,
    media_type,
    parse_http,
)
from dedup_gui.core.pipeline.loading import PageReadError, open_regular_file
from dedup_gui.core.pipeline.walk import ArchiveRecord, SourceFile, is_warc_name, record_path
from dedup_gui.core.pipeline.warc_records import records

#: Why a ``.warc.gz`` compressed as one gzip stream cannot be read record by record.
NOT_PER_RECORD = (
    "a .warc.gz compressed as one gzip stream, not one gzip member per record as WARC writers do: "
    "its records cannot be read one by one (recompress it, e.g. with warcio recompress)"
)
#: Media types read as pages.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: What every WARC record begins with (ISO 28500 section 4: the version line).
WARC_HEADER = "a WARC record header (WARC/1.0 or WARC/1.1)"


@dataclass(frozen=True)
class RecordPayload:
    """One HTML record's page, read and decoded from transfer and content codings.

    Attributes:
        html: the page's HTML bytes.
        charset: the HTTP ``Content-Type`` charset label, as written (str or None).
        key: the feature cache's key of the record (:func:`payload_key`).
        url: ``WARC-Target-URI`` (str, ``""`` if missing).
        date: ``WARC-Date`` as written, ISO 8601 (str, ``""`` if missing).
    """

    html: bytes
    charset: str | None
    key: str
    url: str
    date: str


@dataclass
class WarcListing:
    """What :func:`list_records` found in one WARC file.

    Attributes:
        files: one :class:`SourceFile` per HTML record, in file order.
        errors: ``(shown path, reason)`` of damaged records.
        revisits: ``(shown path, reason)`` of revisit records, listed as skipped.
        counts: records by kind, for :meth:`summary` (``"page"``, ``"revisit"``, a media type,
            ``"HTTP 301"``, a record type...).
    """

    files: list[SourceFile] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    revisits: list[tuple[str, str]] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)

    def summary(self, shown: str) -> str:
        """The file's one summary line (str), e.g. ``"crawl.warc.gz: 12 records, 3 pages; skipped
        5 not HTML (image/png 4, text/css 1), 2 other records (request 2)"``."""
        counts = self.counts
        total = sum(counts.values())
        parts = [
            f"{shown}: {total:,} record{'s' if total != 1 else ''}, {counts['page']:,} HTML page{'s' if counts['page'] != 1 else ''}"
        ]
        groups = {
            "not HTML": [k for k in counts if "/" in k or k == "no type"],
            "not a 2xx response": [k for k in counts if k.startswith("HTTP ")],
            "other records": [k for k in counts if k.startswith("record ")],
        }
        skipped = []
        for name, keys in groups.items():
            if keys:
                n = sum(counts[k] for k in keys)
                detail = ", ".join(
                    f"{k.removeprefix('record ')} {counts[k]:,}" for k in sorted(keys, key=lambda k: (-counts[k], k))
                )
                skipped.append(f"{n:,} {name} ({detail})")
        if counts["revisit"]:
            skipped.append(f"{counts['revisit']:,} revisit{'s' if counts['revisit'] != 1 else ''} (listed as skipped)")
        if counts["damaged"]:
            skipped.append(f"{counts['damaged']:,} damaged (listed as errors)")
        return parts[0] + ("; skipped " + ", ".join(skipped) if skipped else "")


def payload_key(content_type: str, codings: str, body: bytes) -> str:
    """The feature cache's key of an HTML record: SHA-1 of its raw HTTP body with the headers
    that decide how it is decoded (hex str), so the same payload crawled twice is one entry and
    a payload read with another charset is another.

    Args:
        content_type: the ``Content-Type`` value as written.
        codings: the transfer and content codings (e.g. ``"chunked|gzip"``).
        body: the body bytes as stored in the record.
    """
    h = hashlib.sha1(b"warc-payload\0" + content_type.encode("utf-8", "replace") + b"\0" + codings.encode() + b"\0")
    h.update(body)
    return h.hexdigest()


def _read_block(record, max_bytes: int) -> bytes:
    """A record's block (its HTTP head and body), checked against its Content-Length.

    Raises:
        WarcRecordError: the record is larger than ``max_bytes`` or cut short.
    """
    declared = record.content_length
    if declared > max_bytes:
        raise WarcRecordError(
            f"too large: a record of {declared:,} bytes > limit of {max_bytes:,} bytes (--max-file-mb)"
        )
    block = record.reader.read(declared)
    if len(block) < declared:
        raise WarcRecordError(
            f"truncated record: the file ends after {len(block):,} of its {declared:,} bytes (Content-Length)"
        )
    return block


def _kind(record, head: bytes) -> tuple[str, HttpHead | None]:
    """What a record is: ``("page", http)`` for an HTML page (``http`` None for a resource
    record), else the key it is counted under in :attr:`WarcListing.counts`.

    Raises:
        WarcRecordError: a response record's HTTP head is bad.
    """
    rtype = record.record_type
    if rtype == WarcRecordType.resource:
        mime, _charset = media_type(record.headers.get("Content-Type") or "")
        return ("page", None) if mime in HTML_TYPES else (mime or "no type", None)
    if rtype != WarcRecordType.response:
        return (f"record {rtype}", None)
    if "application/http" not in (record.headers.get("Content-Type") or "").lower():
        return ("record response (not HTTP)", None)
    http = parse_http(head)
    if not 200 <= http.status < 300:
        return (f"HTTP {http.status}", http)
    return ("page", http) if http.mime in HTML_TYPES else (http.mime or "no type", http)


def _payload(record, http: HttpHead | None, block: bytes) -> tuple[bytes, str | None, str]:
    """``(raw body, charset, cache key)`` of an HTML record's block."""
    if http is None:  # a resource record: the block is the page
        content_type = record.headers.get("Content-Type") or ""
        return block, media_type(content_type)[1], payload_key(content_type, "", block)
    body = block[http.body_at :]
    codings = "|".join(http.transfer + ("/",) + http.content)
    return body, http.charset, payload_key(http.content_type, codings, body)


def read_record(abspath: str, offset: int, max_bytes: int) -> RecordPayload:
    """Read the HTML page of the record at ``offset`` of a WARC file (the per-page stage's read).

    Args:
        abspath: the WARC file.
        offset: the record's offset in the file (bytes; of its gzip member in a ``.warc.gz``).
        max_bytes: the largest record and decoded page accepted (bytes).

    Returns:
        A :class:`RecordPayload`.

    Raises:
        PageReadError: the file cannot be read, or holds no HTML record at ``offset`` (it changed
            since the scan listed it); :class:`WarcRecordError` for a damaged record.
    """
    try:
        fh, _st = open_regular_file(abspath)
    except FileNotFoundError:
        raise PageReadError("file disappeared during the scan") from None
    except OSError as exc:
        raise PageReadError(f"cannot be read: {exc.strerror or exc}") from None
    with fh:
        try:
            fh.seek(offset)
            record = next(iter(ArchiveIterator(fh, parse_http=False)), None)
        except OSError as exc:
            raise WarcRecordError(f"damaged record: {exc}") from None
        if record is None or record.stream_pos != offset:
            raise PageReadError(f"no WARC record at offset {offset:,} (the file changed since it was listed)")
        block = _read_block(record, max_bytes)
        kind, http = _kind(record, block[:HTTP_HEADER_LIMIT])
        if kind != "page":
            raise PageReadError(f"the record at offset {offset:,} is not an HTML page ({kind})")
        body, charset, key = _payload(record, http, block)
        if http is not None:
            body = decode_body(body, http.transfer, http.content, max_bytes)
        return RecordPayload(body, charset, key, record.headers.get("WARC-Target-URI") or "",
                             record.headers.get("WARC-Date") or "")  # fmt: skip


@dataclass
class Captures:
    """The pages listed so far, by what a revisit record may name them with: record id,
    payload digest (the first capture), URL (the latest capture); shared by the WARC files of
    one scan, or one file's own."""

    by_id: dict[str, str] = field(default_factory=dict)
    by_digest: dict[str, str] = field(default_factory=dict)
    by_url: dict[str, str] = field(default_factory=dict)

    def add(self, shown: str, record_id: str, digest: str, url: str) -> None:
        """Record the page ``shown`` under its record id, payload digest and URL (each str,
        ``""`` if missing)."""
        if record_id:
            self.by_id[record_id] = shown
        if digest:
            self.by_digest.setdefault(digest, shown)
        if url:
            self.by_url[url] = shown


def _revisited(headers, own: Captures, shared: Captures) -> str:
    """The page a revisit record revisits (its shown path, ``""`` if not in the scan): named by
    ``WARC-Refers-To``, else ``WARC-Payload-Digest``, else ``WARC-Refers-To-Target-URI`` (or its
    own URL); for each, a capture in the revisit's own archive before one in another archive,
    as a crawler's revisit records name its own earlier captures."""
    url = headers.get("WARC-Target-URI") or ""
    keys = (
        ("by_id", headers.get("WARC-Refers-To") or ""),
        ("by_digest", headers.get("WARC-Payload-Digest") or ""),
        ("by_url", headers.get("WARC-Refers-To-Target-URI") or url),
    )
    for name, key in keys:
        for captures in (own, shared):
            found = getattr(captures, name).get(key, "") if key else ""
            if found:
                return found
    return ""


def list_records(
    source: SourceFile, max_bytes: int, captures: Captures | None = None, check: Callable[[], None] | None = None
) -> WarcListing:
    """Stream a WARC file once and list its HTML pages, revisits and damaged records.

    Only one record is held at a time; non-HTML bodies are skipped unread.  Revisit records are
    matched to the page they revisit by ``WARC-Refers-To``, else ``WARC-Payload-Digest``, else
    ``WARC-Refers-To-Target-URI`` (the latest earlier capture of that URL), a capture in this
    file first.  A file whose start is no WARC record and in which no record is found is not a
    WARC file (one error for the file, not a damaged record).

    Args:
        source: the WARC file (its shown path prefixes the records' paths).
        max_bytes: the largest record accepted (bytes; ``--max-file-mb``); larger HTML records
            are errors.
        captures: the pages of the WARC files listed before in the same scan (updated), so a
            revisit can name a page of an earlier file; ``None``: this file alone.
        check: called every 256 records; may raise to stop (a cancelled scan).

    Returns:
        A :class:`WarcListing`.

    Raises:
        PageReadError: the file cannot be opened, is a ``.warc.gz`` of one gzip stream
            (:data:`NOT_PER_RECORD`), or is not a WARC file (``"not a WARC file: ..."``).
    """
    listing = WarcListing()
    captures = Captures() if captures is None else captures
    own = Captures()
    try:
        fh, _st = open_regular_file(source.abspath)
    except OSError as exc:
        raise PageReadError(f"cannot be read: {exc.strerror or exc}") from None
    with fh:
        named_gz = source.abspath.lower().endswith(".gz")
        head = os.pread(fh.fileno(), 5, 0)
        # by content first: a plain WARC may be named .warc.gz (a damaged gzip start stays gzip)
        gz = head.startswith(b"\x1f\x8b") or (named_gz and not head.startswith(b"WARC/"))
        stream = records(fh, gz, max_bytes + 2 * HTTP_HEADER_LIMIT)
        item = next(stream, None)
        n = 0
        while item is not None:
            n += 1
            if check is not None and n % 256 == 0:
                check()
            offset, record, damage = item
            shown = record_path(source.path, offset)
            if gz and record is not None and os.pread(fh.fileno(), 2, offset) != b"\x1f\x8b":
                raise PageReadError(NOT_PER_RECORD)
            if record is None:
                if listing.files and listing.files[-1].path == shown:
                    # found damaged only once the next record could not be read (a wrong Content-Length)
                    listing.files.pop()
                    listing.counts["page"] -= 1
                listing.errors.append((shown, damage or "damaged record"))
                listing.counts["damaged"] += 1
            else:
                try:
                    _list_one(listing, record, source, offset, shown, max_bytes, (own, captures))
                except WarcRecordError as exc:
                    listing.errors.append((shown, str(exc)))
                    listing.counts["damaged"] += 1
                except OSError as exc:  # the reader met damage further on: records() reads this one alone
                    item = _throw(stream, exc)
                    continue
            item = next(stream, None)
        if n == 1 and listing.counts == Counter(damaged=1) and listing.errors[0][0] == record_path(source.path, 0):
            reason = _not_warc(fh, named_gz)  # the one "record" was the whole file, and it is no WARC record
            if reason:
                raise PageReadError(reason)
    return listing


def _not_warc(fh, gz: bool) -> str | None:
    """Why the file ``fh`` is not a WARC file (str), judged by its start; ``None`` if it begins
    with a WARC record (a damaged one) and so is a WARC file."""
    fh.seek(0)
    start = fh.read(8)
    if start.startswith(b"WARC/"):
        return None
    if not start.startswith(b"\x1f\x8b"):
        if gz:
            return f"not a WARC file: not gzip data, and it does not begin with {WARC_HEADER}"
        return f"not a WARC file: it does not begin with {WARC_HEADER}"
    try:
        fh.seek(0)
        head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(fh.read(64 * 1024), 8)
    except zlib.error as exc:
        return f"not a WARC file: its gzip data cannot be decompressed ({exc})"
    if head.startswith(b"WARC/"):
        return None
    return f"not a WARC file: its gzip content does not begin with {WARC_HEADER}"


def _list_one(
    listing: WarcListing,
    record,
    source: SourceFile,
    offset: int,
    shown: str,
    max_bytes: int,
    captures: tuple[Captures, Captures],
) -> None:
    """Sort one record into ``listing`` (a page, a revisit, or a count), a page into both
    ``captures`` (this file's, the scan's); raises WarcRecordError."""
    headers = record.headers
    url = headers.get("WARC-Target-URI") or ""
    if record.record_type == WarcRecordType.revisit:
        original = _revisited(headers, *captures)
        when = headers.get("WARC-Refers-To-Date") or ""
        if original:
            reason = (
                f"a WARC revisit record: {url} unchanged since {original}, an exact duplicate of it; not read again"
            )
        else:
            since = f" since its capture of {when}" if when else ""
            reason = f"a WARC revisit record: {url} unchanged{since}; that capture is not in the scan"
        listing.revisits.append((shown, reason))
        listing.counts["revisit"] += 1
        return
    if "Content-Length" not in headers or not headers.get("WARC-Type"):
        raise WarcRecordError("damaged record: its WARC header is incomplete (the file ends inside it?)")
    head = record.reader.read(HTTP_HEADER_LIMIT) if record.record_type == WarcRecordType.response else b""
    if len(head) < min(record.content_length, HTTP_HEADER_LIMIT) and record.record_type == WarcRecordType.response:
        raise WarcRecordError(
            f"truncated record: the file ends after {len(head):,} of its {record.content_length:,} bytes (Content-Length)"
        )
    kind, http = _kind(record, head)
    if kind != "page":
        listing.counts[kind] += 1
        return
    declared = record.content_length
    if declared > max_bytes:
        raise WarcRecordError(
            f"too large: a record of {declared:,} bytes > limit of {max_bytes:,} bytes (--max-file-mb)"
        )
    block = head + record.reader.read(declared - len(head))
    if len(block) < declared:
        raise WarcRecordError(
            f"truncated record: the file ends after {len(block):,} of its {declared:,} bytes (Content-Length)"
        )
    _body, _charset, key = _payload(record, http, block)
    date = headers.get("WARC-Date") or ""
    listing.files.append(SourceFile(shown, source.abspath, ArchiveRecord(offset, url, date, key)))
    listing.counts["page"] += 1
    for known in captures:
        known.add(shown, headers.get("WARC-Record-ID") or "", headers.get("WARC-Payload-Digest") or "", url)


def record_source(shown: str, abspath: str, offset: int, max_bytes: int) -> SourceFile:
    """The :class:`SourceFile` of the HTML record at ``offset`` of a WARC file, read to know its
    URL, date and cache key (for a record named in a labels file: ``crawl.warc.gz#1234``).

    Raises:
        PageReadError: as :func:`read_record`.
    """
    payload = read_record(abspath, offset, max_bytes)
    return SourceFile(shown, abspath, ArchiveRecord(offset, payload.url, payload.date, payload.key))


def _throw(stream, exc: OSError):
    """``stream.throw(exc)``: the item :func:`records` yields after it (None when it ends)."""
    try:
        return stream.throw(exc)
    except StopIteration:
        return None


@dataclass
class Expanded:
    """The files of a walk with each WARC file replaced by its HTML records.

    Attributes:
        files: the page files and the WARC pages, in walk order (a WARC's records in file order).
        errors: WARC files that cannot be read, and damaged records.
        skipped: the revisit records (shown paths).
        skip_reasons: why each revisit record is skipped.
        notes: one summary line per WARC file (:meth:`WarcListing.summary`).
    """

    files: list[SourceFile] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    skip_reasons: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def expand_archives(files: list[SourceFile], max_bytes: int, check: Callable[[], None] | None = None) -> Expanded:
    """List the records of the WARC files among ``files`` (:func:`list_records`), in place of them.

    Args:
        files: the walk's files (:attr:`~dedup_gui.core.pipeline.walk.Discovery.files`).
        max_bytes: the largest record accepted (bytes).
        check: called now and then; may raise to stop (a cancelled scan).

    Returns:
        An :class:`Expanded`; a scan without WARC files gets its files back unchanged.
    """
    out = Expanded()
    captures = Captures()
    for source in files:
        if not is_warc_name(source.path) or source.record is not None:
            out.files.append(source)
            continue
        try:
            listing = list_records(source, max_bytes, captures, check)
        except PageReadError as exc:
            out.errors.append(FileError(source.path, str(exc)))
            continue
        out.files.extend(listing.files)
        out.errors.extend(FileError(path, reason) for path, reason in listing.errors)
        for path, reason in listing.revisits:
            out.skipped.append(path)
            out.skip_reasons[path] = reason
        out.notes.append(listing.summary(source.path))
    return out
