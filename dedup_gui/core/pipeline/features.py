"""One file -> one :class:`~dedup_gui.core.model.Page`: the per-page stage of a scan.

Reads the bytes (:mod:`.loading`), decodes them (:mod:`.decoding`), extracts title, URL, main
text and tag sequence (:mod:`.extract`) and computes the fingerprints: byte SHA-1, normalized
text SHA-1, 64-bit SimHash, shingle set and MinHash signature.  Pure apart from reading the file.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from dedup_gui.core.extraction.dom_text import body_text
from dedup_gui.core.extraction.extract import extract
from dedup_gui.core.fingerprints.shingles import minhash_signature, shingle_hashes
from dedup_gui.core.fingerprints.simhash import simhash_text
from dedup_gui.core.model import Page, ScanSettings
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.pipeline.loading import PageBytes, PageReadError, SourceFile, read_page
from dedup_gui.core.pipeline.page_html import read_page_tree
from dedup_gui.core.pipeline.site_template import line_facts
from dedup_gui.core.pipeline.warc import read_record
from dedup_gui.core.text.tokens import normalize_whitespace, tokenize

#: Seconds of a meta refresh up to which the page is an immediate redirect (search engines treat
#: a 0-second refresh as a permanent redirect): its text is not compared with others'.
IMMEDIATE_REDIRECT = 1.0


def normalized_text(main_text: str) -> str:
    """The form of a main text that measures compare: whitespace runs collapsed to one space."""
    return normalize_whitespace(main_text)


def text_hash(main_text: str) -> str:
    """SHA-1 hex digest of the whitespace-normalized, case-folded main text (exact text dups)."""
    return hashlib.sha1(normalized_text(main_text).casefold().encode("utf-8")).hexdigest()


def page_from_bytes(
    path: str,
    abspath: str,
    data: bytes,
    settings: ScanSettings,
    read: PageBytes | None = None,
    transport_charset: str | None = None,
) -> Page:
    """Build a :class:`Page` from the HTML bytes of a file.

    Args:
        path: path shown to the user (relative to the scanned folder).
        abspath: absolute path of the file.
        data: the page's HTML bytes (already decompressed).
        settings: scan settings (shingle size, MinHash permutations, minimum tokens).
        read: the file read that gave ``data``: its raw-bytes hash and stamp go into the page
            (:attr:`Page.file_sha1`, :attr:`Page.file_stamp`); ``None`` leaves them unknown.
        transport_charset: the HTTP header's charset label of a WARC record (or ``None``).

    Returns:
        The page with all its features.
    """
    decoded = decode_html(data, transport_charset)
    found = extract(decoded.text, settings.min_tokens, settings.extractor)
    tokens = tokenize(found.main_text)
    notes = list(found.notes)
    if decoded.replaced:
        notes.append(
            f"{decoded.replaced} undecodable byte sequence(s) replaced by U+FFFD while decoding as {decoded.encoding}"
        )
    if decoded.ignored == "unknown":
        notes.append(f"declared charset {decoded.declared!r} is not an encoding browsers know: ignored")
    elif decoded.ignored == "replacement":
        notes.append(
            f"declared charset {decoded.declared!r} is one browsers refuse to decode"
            " (WHATWG replacement encoding): ignored"
        )
    elif decoded.declared and decoded.source == "detected":
        notes.append(
            f"declared charset {decoded.declared!r} does not fit the bytes: read as {decoded.encoding} (detected)"
        )
    if decoded.declared and decoded.source == "utf-8":
        notes.append(f"declared charset {decoded.declared!r} is wrong: the bytes are valid UTF-8")
    text = text_features(found.main_text, settings, tokens)
    other, repeated = line_facts(found.visible_text, found.main_text)
    if found.refresh:
        notes.append(f"a client-side redirect: its meta refresh sends to {found.refresh}")
    if found.refresh and found.refresh_delay <= IMMEDIATE_REDIRECT and text["has_text"]:
        # a browser leaves at once, as for a 301: what it shows is its target's, and its few
        # words ("Redirecting to …") are not content to duplicate
        text["has_text"] = False
        notes.append(
            f"an immediate redirect (after {found.refresh_delay:g} s): not compared, as its content is its target's"
        )
    elif not text["has_text"]:
        notes.append(f"no usable main text ({len(tokens)} tokens < {settings.min_tokens})")
    return Page(
        path=path,
        abspath=abspath,
        size=len(data),
        sha1=hashlib.sha1(data).hexdigest(),
        encoding=decoded.encoding,
        encoding_source=decoded.source,
        title=found.title,
        url=found.url,
        tag_sequence=found.tag_sequence,
        notes=tuple(notes),
        file_sha1=read.file_sha1 if read else "",
        file_stamp=read.stamp if read else None,
        content_span=found.content_span if text["has_text"] else None,
        other_lines=other,
        repeated_lines=repeated,
        redirect=found.refresh,
        **text,
    )


def text_features(main_text: str, settings: ScanSettings, tokens: list[str] | None = None) -> dict:
    """The features of a main text: the :class:`Page` fields ``main_text``, ``text_hash``,
    ``simhash``, ``shingles``, ``minhash``, ``word_count`` and ``has_text``.

    Args:
        main_text: the text, one block per line.
        settings: scan settings (shingle size, MinHash permutations, minimum tokens).
        tokens: ``tokenize(main_text)`` if already computed.

    Returns:
        ``{field name: value}`` (dict).
    """
    tokens = tokenize(main_text) if tokens is None else tokens
    has_text = len(tokens) >= settings.min_tokens
    shingles = shingle_hashes(tokens, settings.shingle_size) if has_text else shingle_hashes([], 1)
    return {
        "main_text": main_text,
        "text_hash": text_hash(main_text),
        "simhash": simhash_text(main_text) if has_text else 0,
        "shingles": shingles,
        "minhash": minhash_signature(shingles, settings.num_perm),
        "word_count": len(tokens),
        "has_text": has_text,
    }


def with_main_text(page: Page, main_text: str, notes: tuple[str, ...], settings: ScanSettings) -> Page:
    """``page`` with another main text (the site's template taken out) and that text's features.

    Args:
        page: the page.
        main_text: its new main text.
        notes: its notes.
        settings: scan settings.

    Returns:
        A new :class:`Page` (the main-content span is kept: the template layout does not change).
    """
    return replace(page, notes=notes, **text_features(main_text, settings))


def read_visible_text(page: Page, settings: ScanSettings, root: str) -> str | None:
    """A page's whole visible text, one block per line, read from its file again (``None`` if
    the file can no longer be read, or now leads out of the scanned folder ``root``)."""
    try:
        tree = read_page_tree(page.path, page.abspath, root, settings.max_file_bytes, settings.follow_links)
    except PageReadError:
        return None
    return body_text(tree)


def load_page(source: SourceFile, settings: ScanSettings) -> Page:
    """Read and analyse one page file, or one WARC record (``source.record``).

    Args:
        source: the file or record to read.
        settings: scan settings.

    Returns:
        The :class:`Page`.

    Raises:
        PageReadError: the file is not a usable page (the message is the reason).
    """
    if source.record is not None:
        payload = read_record(source.abspath, source.record.offset, settings.max_file_bytes)
        page = page_from_bytes(source.path, source.abspath, payload.html, settings,
                               PageBytes(payload.html, payload.key, None), payload.charset)  # fmt: skip
        return with_record(page, source)
    read = read_page(source, settings.max_file_bytes)
    return page_from_bytes(source.path, source.abspath, read.html, settings, read)


def with_record(page: Page, source: SourceFile) -> Page:
    """``page`` with the address and date of the WARC record it was read from (``source.record``;
    a page file's page is returned as it is).  Set per scan: the same payload may have been
    crawled at another URL, and the feature cache keeps one entry for both."""
    record = source.record
    if record is None:
        return page
    return replace(page, url=record.url or None, record_offset=record.offset, record_date=record.date)


def load_path(path: str | Path, settings: ScanSettings | None = None, shown: str | None = None) -> Page:
    """Read and analyse one page file given by path (for ``classify`` and ``evaluate``).

    Raises:
        PageReadError: the file is not a usable page.
    """
    p = Path(path)
    return load_page(SourceFile(shown or str(p), str(p.resolve())), settings or ScanSettings())
