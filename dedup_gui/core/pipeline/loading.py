"""Read the page files of a folder, read-only.

The walk that lists them is :mod:`dedup_gui.core.pipeline.walk` (its names are re-exported here).  A file
without a page suffix (as crawls write them) is a page only if its content sniffs as HTML; one
that is empty or binary is not a page (:class:`NotAPageError`: skipped, not an error), while a
file named as a page (``x.html``) is read even when empty (a page with no usable text).
gzip-compressed pages are decompressed with a size limit; MHTML archives give their HTML part.
Files are opened without blocking and read only if they are regular files, so a pipe or device
put in a page's place after the walk cannot hang a scan.
"""

from __future__ import annotations

import email
import email.errors
import email.message
import email.policy
import hashlib
import os
import re
import stat
import time
import zlib
from dataclasses import dataclass
from typing import BinaryIO

from dedup_gui.core.pipeline.decoding import normalize_label
from dedup_gui.core.pipeline.walk import (  # noqa: F401  (the walk's names, re-exported: callers import them from here)
    NOT_PAGE_NAMES,
    NOT_PAGE_SUFFIXES,
    PAGE_SUFFIXES,
    Discovery,
    SourceFile,
    discover,
    display_path,
    followed_links_note,
    is_inside,
    is_not_a_page,
    is_page_suffix,
    link_folder_reason,
)

_MAGIC = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"RIFF", "a RIFF (WebP/WAV/AVI) file"),
    (b"\x7fELF", "an executable"),
    (b"BM", None),  # too short a magic to trust alone
)
_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title", b"<meta", b"<div", b"<p>", b"<frameset")


class PageReadError(Exception):
    """A file that cannot be used as a page; ``str(error)`` is the reason for the user."""


class NotAPageError(PageReadError):
    """A file without a page suffix whose content is not HTML (empty, binary, no markup):
    skipped, not an error."""


#: A file's ``(size in bytes, mtime in ns)``: what tells a changed file from an unchanged one.
Stamp = tuple[int, int]

#: A stamp is trusted to identify a file's content only if the file's mtime is at least this
#: long (ns) before it was read: a rewrite of the same size within the same timestamp tick
#: leaves size and mtime unchanged (git's "racy clean" entries, Documentation/technical/racy-git.txt).
#: 2 s covers the coarsest common file-system clock (FAT).
STAMP_TRUST_NS = 2_000_000_000

#: os.open flags: never wait on a pipe or device (O_NONBLOCK), never make a terminal the
#: controlling one (O_NOCTTY), never leak the descriptor into a child process (O_CLOEXEC);
#: O_BINARY keeps Windows from translating line ends.  Flags a platform lacks are 0.
_OPEN_FLAGS = os.O_RDONLY | sum(getattr(os, name, 0) for name in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"))


@dataclass(frozen=True)
class PageBytes:
    """A page file as it was read.

    Attributes:
        html: the page's HTML bytes (gzip decompressed, the HTML part of an MHTML archive).
        file_sha1: SHA-1 hex digest of the raw file bytes that were read (before unpacking).
        stamp: the file's :data:`Stamp` while it was read, or ``None`` if its mtime was too recent
            (:data:`STAMP_TRUST_NS`) for the stamp to tell this version from a later rewrite.
    """

    html: bytes
    file_sha1: str
    stamp: Stamp | None


def trusted_stamp(st: os.stat_result, read_ns: int) -> Stamp | None:
    """The stamp of a file stat taken at ``read_ns``, if it can identify the content read.

    Args:
        st: the file's stat (from ``os.fstat`` of the open file).
        read_ns: wall-clock time (``time.time_ns()``, ns) taken before the file was read.

    Returns:
        ``(size, mtime_ns)``; ``None`` if the mtime is less than :data:`STAMP_TRUST_NS` before
        ``read_ns`` (or in the future): a later same-size rewrite could keep the same mtime.
    """
    if st.st_mtime_ns > read_ns - STAMP_TRUST_NS:
        return None
    return (st.st_size, st.st_mtime_ns)


def open_regular_file(path: str) -> tuple[BinaryIO, os.stat_result]:
    """Open a file for reading only if it is a regular file, without ever blocking.

    A FIFO, socket or device is refused before it is opened (``os.stat``) and again after
    (``os.fstat`` of the descriptor), in case one was put in the file's place in between; the
    open itself is non-blocking, so even then it cannot wait for a writer.

    Args:
        path: the file (str, may hold surrogate escapes).

    Returns:
        ``(file, stat)``: the open binary file (close it) and its ``os.fstat`` result.

    Raises:
        PageReadError: the path is a folder, or not a regular file.
        OSError: the file cannot be opened (``FileNotFoundError``, ``PermissionError``...).
    """
    _require_regular(os.stat(path))
    fd = os.open(path, _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        _require_regular(st)
        return os.fdopen(fd, "rb"), st
    except BaseException:
        os.close(fd)
        raise


def _require_regular(st: os.stat_result) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise PageReadError("is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise PageReadError("not a regular file (a pipe, socket or device)")


def read_page_bytes(source: SourceFile, max_bytes: int) -> bytes:
    """Read a page file and return its HTML bytes (decompressed, MHTML unpacked).

    The same as :func:`read_page` without the file's hash and stamp.

    Raises:
        PageReadError: as :func:`read_page`.
    """
    return read_page(source, max_bytes).html


def read_page_again(path: str, abspath: str, root: str, max_bytes: int, follow_links: bool = False) -> bytes:
    """Read a scanned page's file again, for a view or a later step of the scan.

    The file may have changed since the scan; in particular it may now be a symbolic link out
    of the scanned folder, which the scan would have skipped: such a file is not read.

    Args:
        path: the page's path relative to the scanned folder (for messages).
        abspath: the file.
        root: the scanned folder.
        max_bytes: the largest file read (bytes).
        follow_links: the scan followed links out of the folder (``--follow-links``).

    Returns:
        The page's HTML bytes (as :func:`read_page_bytes`).

    Raises:
        PageReadError: the file can no longer be read, or now lies outside the scanned folder.
    """
    if not follow_links and not is_inside(abspath, root):
        raise PageReadError("it now leads out of the scanned folder (a link made after the scan): not read")
    return read_page_bytes(SourceFile(path, abspath), max_bytes)


def read_page(source: SourceFile, max_bytes: int) -> PageBytes:
    """Read a page file: its HTML bytes, and the hash and stamp of the raw bytes read.

    Args:
        source: the file.
        max_bytes: the largest file, and the largest decompressed page, accepted (bytes).

    Returns:
        A :class:`PageBytes`.

    Raises:
        PageReadError: with the reason the file is not a usable page (too large, unreadable,
            not a regular file, changing while read, binary, not HTML, a bad archive);
            :class:`NotAPageError` for a file without a page suffix whose content is not HTML.
    """
    raw, stamp = _read_unchanged(source.abspath, max_bytes)
    data = raw
    if data.startswith(b"\x1f\x8b"):
        data = gunzip(data, max_bytes)
    lower = source.path.lower()
    if lower.endswith((".mht", ".mhtml")) or data[:2048].lower().lstrip().startswith(b"mime-version"):
        data = _mhtml_html_part(data)
    _check_is_html(data, is_page_suffix(source.path))
    return PageBytes(data, hashlib.sha1(raw).hexdigest(), stamp)


def too_large_text(size: int, max_bytes: int) -> str:
    """The reason a file over the size limit is not read (str), e.g. ``"too large: 2,000,000
    bytes > limit of 1,048,576 bytes (--max-file-mb)"``.

    Args:
        size: the file's size (bytes).
        max_bytes: the limit (bytes).
    """
    return f"too large: {size:,} bytes > limit of {max_bytes:,} bytes (--max-file-mb)"


def _read_unchanged(abspath: str, max_bytes: int) -> tuple[bytes, Stamp | None]:
    """The raw bytes of a file and their trusted stamp; read a second time if the file's stamp
    changed while it was read (a writer at work), a PageReadError if it changed again."""
    for _attempt in range(2):
        read_ns = time.time_ns()
        try:
            fh, before = open_regular_file(abspath)
            with fh:
                if before.st_size > max_bytes:
                    raise PageReadError(too_large_text(before.st_size, max_bytes))
                data = fh.read(max_bytes + 1)
                after = os.fstat(fh.fileno())
        except FileNotFoundError:
            raise PageReadError("file disappeared during the scan") from None
        except PermissionError:
            raise PageReadError("no permission to read the file") from None
        except IsADirectoryError:
            raise PageReadError("is a folder, not a file") from None
        except OSError as exc:
            raise PageReadError(f"cannot be read: {exc.strerror or exc}") from None
        if len(data) > max_bytes:
            raise PageReadError(f"too large: more than {max_bytes:,} bytes (--max-file-mb)")
        if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
            return data, trusted_stamp(before, read_ns)
    raise PageReadError("the file changed while it was being read")


#: The most gzip members read from one file (real files have a few; an empty member is 20 bytes).
GZIP_MAX_MEMBERS = 10_000
#: Compressed bytes handed to the decompressor at a time: what is left of a step is copied once
#: per member, so a file of many members costs members x this, not members x file size.
_GZIP_STEP = 64 * 1024


def gunzip(data: bytes, max_bytes: int) -> bytes:
    """Decompress every gzip member of ``data`` in turn, as ``zcat`` does (RFC 1952: a gzip
    file is a series of members), in bounded steps so a decompression bomb stops at
    ``max_bytes`` in total.  Bytes after the last member that do not start another one are
    ignored, as ``zcat`` ignores trailing garbage; more than :data:`GZIP_MAX_MEMBERS` members
    are refused.

    Args:
        data: the compressed bytes.
        max_bytes: the most decompressed bytes accepted (bytes).

    Returns:
        The decompressed bytes.

    Raises:
        PageReadError: broken or truncated gzip data, more than ``max_bytes``, too many members.
    """
    out: list[bytes] = []
    total = pos = members = 0
    view = memoryview(data)
    while True:
        members += 1
        if members > GZIP_MAX_MEMBERS:
            raise PageReadError(f"gzip file of more than {GZIP_MAX_MEMBERS:,} members: not read")
        decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
        while not decomp.eof and pos < len(data):
            step = view[pos : pos + _GZIP_STEP]
            try:
                chunk = decomp.decompress(step, max_bytes + 1 - total)
            except zlib.error as exc:
                raise PageReadError(f"broken gzip data: {exc}") from None
            total += len(chunk)
            out.append(chunk)
            if total > max_bytes or decomp.unconsumed_tail:
                raise PageReadError(f"gzip content larger than the limit of {max_bytes:,} bytes (--max-file-mb)")
            pos += len(step) - len(decomp.unused_data)
        if not decomp.eof:
            raise PageReadError("truncated gzip file: the compressed data ends early")
        if not data.startswith(b"\x1f\x8b", pos):
            return b"".join(out)


#: The deepest nesting of parts an MHTML archive may have (browsers write 1 or 2 levels);
#: the email package parses and walks nested parts recursively, one stack frame per level.
MHTML_MAX_DEPTH = 100

#: Defects the email package records when a base64 part cannot be decoded (it then returns
#: the undecoded text, or nothing).  A missing "=" padding is repaired and not among them.
_BASE64_DEFECTS = (email.errors.InvalidBase64CharactersDefect, email.errors.InvalidBase64LengthDefect)


def _mhtml_html_part(data: bytes) -> bytes:
    """The first HTML part of an MHTML archive (RFC 2557), decoded, with its MIME charset
    carried into the page.

    Raises:
        PageReadError: the archive nests parts more than :data:`MHTML_MAX_DEPTH` levels deep,
            its HTML part's base64 cannot be decoded, or it has no HTML part.
    """
    too_deep = f"MHTML archive nests its parts more than {MHTML_MAX_DEPTH} levels deep"
    try:
        message = email.message_from_bytes(data, policy=email.policy.compat32)
    except RecursionError:
        # The parser recurses once per level: ~1,000 levels exhaust the stack, far above the limit.
        raise PageReadError(too_deep) from None
    except Exception as exc:  # email's parser is lenient; this is belt and braces
        raise PageReadError(f"broken MHTML archive: {exc}") from None
    for part in _mime_parts(message, too_deep):
        if part.get_content_type() in ("text/html", "application/xhtml+xml"):
            payload = part.get_payload(decode=True)
            if any(isinstance(defect, _BASE64_DEFECTS) for defect in part.defects):
                # The first HTML part is the page; a later one is a frame, not a stand-in for it.
                raise PageReadError("MHTML archive: its HTML part's base64 content cannot be decoded")
            if payload:
                if b"charset" not in payload[:4096].lower():
                    payload = _charset_meta(part.get_content_charset()) + payload
                return payload
    raise PageReadError("MHTML archive without an HTML part")


# What a charset label can consist of (the decoder reads the same characters after charset=).
_LABEL_SHAPE = re.compile(r"[A-Za-z0-9._:-]{1,40}")


def _charset_meta(charset: str | None) -> bytes:
    """The ``<meta charset>`` that carries an MHTML part's MIME charset into its HTML, or ``b""``.

    The decoder then applies its usual rules to it (WHATWG labels only; any other label is ignored
    with a note, as in the page itself).  A charset that is not even shaped like a label (quotes,
    ``<``, spaces) is dropped, so it can never add markup; a UTF-16 charset is left to the
    decoder's BOM and NUL-byte sniffing, since ASCII put before UTF-16 text would read as junk.

    Args:
        charset: the part's ``Content-Type`` charset parameter (str or None).

    Returns:
        ASCII bytes to put before the part's HTML (bytes, possibly empty).
    """
    if not charset or not _LABEL_SHAPE.fullmatch(charset):
        return b""
    if normalize_label(charset) in ("utf-16-le", "utf-16-be"):
        return b""
    return f'<meta charset="{charset}">'.encode("ascii")


def _mime_parts(message: email.message.Message, too_deep: str):
    """The parts of ``message`` in document order (as ``Message.walk``), walked with a stack of
    our own so the depth is bounded by :data:`MHTML_MAX_DEPTH` (PageReadError ``too_deep``)."""
    stack = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        if depth > MHTML_MAX_DEPTH:
            raise PageReadError(too_deep)
        yield part
        if part.is_multipart():
            # a multipart's payload is the list of its parts
            stack.extend((child, depth + 1) for child in reversed(part.get_payload()))  # type: ignore[arg-type]


def _check_is_html(data: bytes, named_as_page: bool) -> None:
    """Raise if ``data`` is not an HTML page; a file not named as a page (no page suffix) is
    held to it more strictly: empty, binary or without HTML markup, it is not a page at all.

    Raises:
        NotAPageError: a file not named as a page whose content is not HTML (skipped).
        PageReadError: a file named as a page whose content is binary (an error).
    """
    if not data.strip():
        if named_as_page:
            return  # an empty x.html is still a page of the site; extraction finds no usable text
        raise NotAPageError("an empty file without a page suffix: not a page")
    try:
        _sniff_html(data, named_as_page)
    except NotAPageError:
        raise
    except PageReadError as exc:
        if named_as_page:
            raise
        raise NotAPageError(str(exc)) from None  # a binary file that never claimed to be a page


def _sniff_html(data: bytes, named_as_page: bool) -> None:
    head = data[:4096]
    for magic, what in _MAGIC:
        if what and head.startswith(magic):
            raise PageReadError(f"binary file ({what}), not an HTML page")
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")):
        return
    lowered = head.lower()
    looks_html = any(marker in lowered for marker in _HTML_MARKERS)
    if b"\x00" in head and head[1::2].count(0) < len(head) * 0.4 and head[0::2].count(0) < len(head) * 0.4:
        control = sum(1 for b in head if b < 9 or 13 < b < 32)
        if control > len(head) * 0.1:
            raise PageReadError("binary content (control bytes), not an HTML page")
    if not named_as_page and not looks_html:
        raise NotAPageError("not an HTML page (no HTML markup found)")
    if named_as_page and not looks_html and not _mostly_text(head):
        raise PageReadError("binary content, not an HTML page")


def _mostly_text(head: bytes) -> bool:
    control = sum(1 for b in head if b < 9 or 13 < b < 32)
    return control <= len(head) * 0.05


#: Bytes of a file's start that :func:`is_plainly_not_a_page` reads: what :func:`_sniff_html` looks at.
SNIFF_BYTES = 4096


def is_plainly_not_a_page(source: SourceFile) -> bool:
    """Whether a file without a page suffix is, from its first :data:`SNIFF_BYTES` bytes, not a
    page at all (binary, or without HTML markup): the verdict :func:`read_page` would reach
    (:class:`NotAPageError`), reached before reading the whole file, so the reading step does
    not count it (bool).

    A file with a page suffix, a WARC record, a gzip or MHTML file (judged after unpacking), a
    file whose start is blank, or one that cannot be opened gives ``False``: the reading step
    decides on it as before.

    Args:
        source: the file.
    """
    if source.record is not None or is_page_suffix(source.path):
        return False
    try:
        fh, _st = open_regular_file(source.abspath)
        with fh:
            head = fh.read(SNIFF_BYTES)
    except (OSError, PageReadError):
        return False
    if not head.strip() or head.startswith(b"\x1f\x8b") or head[:2048].lower().lstrip().startswith(b"mime-version"):
        return False
    try:
        _check_is_html(head, named_as_page=False)
    except NotAPageError:
        return True
    return False
