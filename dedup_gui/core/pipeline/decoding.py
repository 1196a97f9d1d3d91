"""Bytes -> text: the one decoder of the product.

Order of evidence (after the WHATWG encoding sniffing rules, simplified):

1. a byte-order mark (UTF-8, UTF-16, UTF-32) always wins;
1b. the charset of the HTTP ``Content-Type`` header, for a page from a crawl archive (WARC), as
   browsers weigh the transport layer's label before the page's own (the same rules as for a
   label in the page, below, including valid UTF-8 winning over a legacy label);
2. an XML declaration's ``encoding=`` (XHTML);
3. a charset declared in the page (``<meta charset>``, ``http-equiv`` Content-Type, or any
   ``charset=`` inside a ``<meta>`` tag), searched in the first 64 KiB; but bytes that are valid
   UTF-8 with multi-byte sequences are decoded as UTF-8 even when a legacy charset is declared,
   because legacy-encoded text is practically never valid UTF-8 and mislabelled UTF-8 pages are
   common (e.g. pages still declaring ``gb2312``);
4. detection with charset-normalizer, limited to the encodings browsers know.

Only the labels of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/, the labels
browsers know; table from the ``webencodings`` package) are used, mapped to the encoding the
standard names and then to the Python codec browsers effectively decode it with: GB2312 and GBK
decode as GB18030 (the WHATWG gbk decoder is the gb18030 decoder), Big5 as Big5-HKSCS, Shift_JIS
as cp932, EUC-KR as cp949, Latin-1 and ASCII as Windows-1252, ``x-user-defined`` as Windows-1252
and UTF-16 labels in a page readable as ASCII as UTF-8 (both as the HTML prescan says).  Any other
label (``rot13``, ``base64``, ``zlib``, ``utf-7``, ``utf-32``, EBCDIC ``cp037``...) is a Python
codec but no web encoding: it is ignored and the page is read as if it declared nothing
(detection), with :attr:`Decoded.ignored` saying so.  Labels of the WHATWG *replacement*
encoding (``iso-2022-kr``, ``hz-gb-2312``, ``iso-2022-cn``...), which browsers turn into a single
U+FFFD, are ignored the same way, so the page's text can still be read.  Undecodable bytes are
replaced (U+FFFD), counted and reported, never dropped silently.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
import threading
from dataclasses import dataclass

import charset_normalizer
import webencodings
from webencodings.labels import LABELS as _WHATWG_LABELS

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# WHATWG encoding name -> the Python codec browsers effectively decode it with, where that is not
# Python's codec of the same name; None: no usable encoding (the WHATWG "replacement" encoding).
_WHATWG_TO_CODEC: dict[str, str | None] = {
    "gbk": "gb18030",  # the WHATWG gbk decoder is the gb18030 decoder
    "big5": "big5hkscs",
    "shift_jis": "cp932",
    "euc-kr": "cp949",
    "windows-874": "cp874",
    "iso-8859-8-i": "iso8859-8",
    "x-mac-cyrillic": "mac-cyrillic",
    "macintosh": "mac-roman",
    "x-user-defined": "cp1252",  # HTML prescan: x-user-defined -> windows-1252
    "replacement": None,
}


def _whatwg_codec(name: str) -> str | None:
    """The Python codec (canonical name) for a WHATWG encoding name, or None (replacement)."""
    if name in _WHATWG_TO_CODEC:
        return _WHATWG_TO_CODEC[name]
    return codecs.lookup(name).name


#: The Python codecs of all encodings browsers know (e.g. ``"cp1252"``, ``"gb18030"``,
#: ``"utf-16-le"``): the only ones the decoder ever uses, apart from the UTF-32 BOMs.
BROWSER_CODECS = frozenset(c for c in map(_whatwg_codec, set(_WHATWG_LABELS.values())) if c)
# Detection never proposes UTF-16 (browsers do not guess it without a BOM; decode_html looks
# for its NUL bytes itself).
_DETECTABLE = sorted(BROWSER_CODECS - {"utf-16-le", "utf-16-be"})

_SNIFF_BYTES = 64 * 1024
_XML_DECL = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']", re.I)
_META_TAG = re.compile(rb"<meta\b[^>]*>", re.I)
_COMMENT = re.compile(rb"<!--.*?-->", re.S)
_CHARSET_IN_META = re.compile(rb"charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.I)
#: How much more "chaos" (charset-normalizer's mess measure) Windows-1252 may show than the best
#: guess and still be preferred for undeclared Western pages.
WESTERN_MARGIN = 0.1
_CJK_CODECS = ("gb18030", "big5hkscs", "cp932", "euc_jp", "iso2022_jp", "cp949")


@dataclass(frozen=True)
class Decoded:
    """The text of a file and how it was decoded.

    Attributes:
        text: the decoded text (str), BOM removed.
        encoding: Python codec name used (e.g. ``"utf-8"``, ``"gb18030"``).
        source: ``"bom"``, ``"http"`` (the HTTP header's charset), ``"xml"``, ``"meta"``,
            ``"utf-8"``, ``"detected"`` or ``"fallback"``.
        declared: the charset label the page declared, if any (str or None), as written.
        replaced: number of undecodable byte sequences replaced by U+FFFD (int).
        ignored: why the declared label was not used, if it was ignored (str or None):
            ``"unknown"`` (not a label of the WHATWG Encoding Standard, e.g. ``"rot13"``) or
            ``"replacement"`` (a label of the WHATWG replacement encoding, e.g.
            ``"iso-2022-kr"``); the page was then read as if it declared nothing.
    """

    text: str
    encoding: str
    source: str
    declared: str | None
    replaced: int
    ignored: str | None = None


def _clean_label(label: str) -> str:
    # Quotes left over from sloppy markup (charset='gbk') are not part of the label.
    return label.strip().strip("\"'")


def normalize_label(label: str) -> str | None:
    """Map a charset label to the Python codec browsers decode it with.

    Only labels of the WHATWG Encoding Standard count (looked up with ``webencodings.lookup``,
    ASCII case-insensitive, surrounding whitespace and quotes ignored); the WHATWG encoding is
    then mapped to the codec browsers effectively use (see the module docstring).

    Args:
        label: a charset label as written in a page, e.g. ``"GB2312"``, ``"utf8"``.

    Returns:
        A codec name (str), e.g. ``"gb18030"``, or ``None`` if the label is no WHATWG label
        (``"bogus"``, ``"rot13"``, ``"utf-32"``, ``"cp037"``) or one of the replacement encoding
        (``"iso-2022-kr"``).

    Example:
        >>> normalize_label("GB2312"), normalize_label("ISO-8859-1"), normalize_label("rot13")
        ('gb18030', 'cp1252', None)
    """
    encoding = webencodings.lookup(_clean_label(label))
    return _whatwg_codec(encoding.name) if encoding is not None else None


def _ignored_reason(label: str) -> str:
    """Why :func:`normalize_label` gave no codec for a label: ``"replacement"`` or ``"unknown"``."""
    return "unknown" if webencodings.lookup(_clean_label(label)) is None else "replacement"


def declared_charset(data: bytes) -> str | None:
    """Return the charset label declared in the first 64 KiB of a page, or ``None``.

    Looks at an XML declaration first, then every ``<meta>`` tag for ``charset=`` (this covers
    ``<meta charset=...>``, ``http-equiv`` Content-Type, and misspelled ``http-equiv`` forms).
    """
    head = data[:_SNIFF_BYTES]
    match = _XML_DECL.match(head)
    if match:
        return match.group(1).decode("ascii", "replace")
    # Browsers ignore a <meta> inside a comment; so do we.
    for meta in _META_TAG.finditer(_COMMENT.sub(b"", head)):
        found = _CHARSET_IN_META.search(meta.group(0))
        if found:
            return found.group(1).decode("ascii", "replace")
    return None


_counter = threading.local()


def _counting_replace(err: UnicodeDecodeError) -> tuple[str, int]:
    _counter.replaced = getattr(_counter, "replaced", 0) + 1
    return "\ufffd", err.end


# Registered for decoding only, so the handler is always given a UnicodeDecodeError.
codecs.register_error("dedup-gui-count-replace", _counting_replace)  # type: ignore[arg-type]


def _count_replacements(data: bytes, encoding: str) -> tuple[str, int]:
    """Decode with U+FFFD for bad sequences; return the text and how many were replaced."""
    _counter.replaced = 0
    text = data.decode(encoding, errors="dedup-gui-count-replace")
    return text, _counter.replaced


def _is_multibyte_utf8(data: bytes) -> bool:
    if data.isascii():
        return False
    try:
        data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def decode_html(data: bytes, transport_charset: str | None = None) -> Decoded:
    """Decode the bytes of an HTML page.

    Args:
        data: the raw file bytes.
        transport_charset: the charset label of the HTTP ``Content-Type`` header the page came
            with (a WARC record's), or ``None``; weighed after the BOM and before the page's own
            declaration (WHATWG "encoding sniffing algorithm", steps 1-4).  A label that is no
            WHATWG label is passed over for the page's own.

    Returns:
        :class:`Decoded` with the text and the evidence used.

    Raises:
        Nothing: undecodable bytes are replaced and counted in :attr:`Decoded.replaced`.
    """
    for bom, bom_encoding in _BOMS:
        if data.startswith(bom):
            text, replaced = _count_replacements(data[len(bom) :], bom_encoding)
            return Decoded(text, bom_encoding, "bom", declared_charset(data), replaced)

    # UTF-16 without BOM: many NUL bytes in alternate positions.
    head = data[:512]
    if len(head) >= 4 and head[1::2].count(0) > len(head) * 0.4:
        text, replaced = _count_replacements(data, "utf-16-le")
        return Decoded(text, "utf-16-le", "detected", None, replaced)
    if len(head) >= 4 and head[0::2].count(0) > len(head) * 0.4:
        text, replaced = _count_replacements(data, "utf-16-be")
        return Decoded(text, "utf-16-be", "detected", None, replaced)

    if transport_charset and normalize_label(transport_charset):
        label: str | None = transport_charset
        source = "http"
    else:
        label = declared_charset(data)
        source = "xml" if label and _XML_DECL.match(data[:_SNIFF_BYTES]) else "meta"
    encoding = normalize_label(label) if label else None
    if encoding in ("utf-16-le", "utf-16-be"):
        # A page that could be read as ASCII to find its label is not UTF-16 (WHATWG rule).
        encoding = "utf-8"
    if encoding and encoding != "utf-8" and _is_multibyte_utf8(data):
        text = data.decode("utf-8")
        return Decoded(text, "utf-8", "utf-8", label, 0)
    if encoding:
        text, replaced = _count_replacements(data, encoding)
        if encoding == "utf-8" and replaced and _mostly_utf8(data) is None:
            # Declared UTF-8, but not UTF-8 at all (a Latin-1 page with a copied template's
            # meta tag): detection reads it better than a page of U+FFFD.
            guessed = _detect(data)
            return Decoded(guessed.text, guessed.encoding, "detected", label, guessed.replaced)
        return Decoded(text, encoding, source, label, replaced)

    # No label, or one browsers would not use (rot13, utf-7, cp037...): read as undeclared.
    ignored = _ignored_reason(label) if label else None
    if data.isascii() or _is_multibyte_utf8(data):
        return Decoded(data.decode("utf-8"), "utf-8", "detected", label, 0, ignored)
    mostly = _mostly_utf8(data)
    if mostly is not None:
        return Decoded(mostly[0], "utf-8", "detected", label, mostly[1], ignored)
    return dataclasses.replace(_detect(data), declared=label, ignored=ignored)


def _mostly_utf8(data: bytes) -> tuple[str, int] | None:
    """UTF-8 text with a few stray bytes (a Latin-1 "ö" pasted into a UTF-8 page): the text and
    the number replaced, if the valid multi-byte characters outnumber the bad bytes 20 to 1."""
    text, replaced = _count_replacements(data, "utf-8")
    multibyte = sum(1 for c in text if ord(c) >= 0x80) - replaced
    if replaced and multibyte >= 20 * replaced:
        return text, replaced
    if replaced and multibyte >= 3 and replaced <= 2 and multibyte >= 2 * replaced:
        return text, replaced
    return None


def _detected_codec(name: str) -> str | None:
    """A charset-normalizer answer (e.g. ``"iso8859_2"``) as a codec browsers know, or None."""
    codec = codecs.lookup(name).name
    return codec if codec in BROWSER_CODECS else None


def _detect(data: bytes) -> Decoded:
    """Decode bytes with no usable declaration, by charset-normalizer's detection.

    Detection only weighs the encodings browsers know (``cp_isolation``), and any answer outside
    them is dropped as well, so it never picks a codec no browser would (EBCDIC, UTF-7, UTF-32).
    """
    matches = charset_normalizer.from_bytes(data[: 512 * 1024], cp_isolation=_DETECTABLE)
    best = matches.best()
    encoding = _detected_codec(best.encoding) if best is not None else None
    # Western text reads almost equally well in a dozen single-byte code pages (cp1250, cp1257,
    # iso8859-15...); where Windows-1252 is about as plausible as the best guess, take it, as
    # browsers do for undeclared pages.
    if best is not None and encoding != "cp1252":
        western = [m for m in matches if _detected_codec(m.encoding) == "cp1252"]
        if western and western[0].chaos <= best.chaos + WESTERN_MARGIN:
            encoding = "cp1252"
    # Detectors often take short Chinese texts for Cyrillic or Thai single-byte text; a strict
    # GB18030 decode that yields mostly CJK characters is the likelier reading.
    if encoding not in _CJK_CODECS:
        cjk = _strict_cjk_reading(data)
        if cjk:
            encoding = cjk
    if not encoding:
        text, replaced = _count_replacements(data, "cp1252")
        return Decoded(text, "cp1252", "fallback", None, replaced)
    text, replaced = _count_replacements(data, encoding)
    return Decoded(text, encoding, "detected", None, replaced)


# CJK ideographs, kana, Hangul, CJK punctuation and full-width forms.
_CJK_CHAR = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


def _strict_cjk_reading(data: bytes) -> str | None:
    """The CJK codec under which the bytes read as CJK text, if there is one."""
    sample = data[: 256 * 1024]
    non_ascii = sum(1 for b in sample if b >= 0x80)
    if non_ascii < 4:
        return None
    # CJK characters are runs of high bytes; Western accented letters are lone high bytes
    # between ASCII letters (which a GB18030 reading would swallow as trail bytes).
    paired = sum(
        1
        for i, b in enumerate(sample)
        if b >= 0x80 and ((i + 1 < len(sample) and sample[i + 1] >= 0x80) or (i > 0 and sample[i - 1] >= 0x80))
    )
    if paired < 0.8 * non_ascii:
        return None
    for encoding in ("gb18030", "big5hkscs", "cp932"):
        text, replaced = _count_replacements(sample, encoding)
        wide = [c for c in text if ord(c) >= 0x80]
        # A few bad sequences (a truncated last character, one corrupt byte) are tolerated.
        if replaced > max(2, len(wide) // 200):
            continue
        if wide and len(_CJK_CHAR.findall(text)) >= 0.8 * len(wide):
            return encoding
    return None
